//! Every committed results directory, as the game registry lists them: its cheap sizes recompute
//! to exactly what is on disk, and no directory under results/ is missing from the registry.

use sprague::check::{registry, Plan};
use sprague::game::Recompute;
use sprague::output::verify_files::read_verify_files;
use std::path::Path;

/// Sizes with at most this many positions are recomputed here (the rest is `check --budget`'s).
const MAX_POSITIONS: u64 = 100_000;

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results")
}

#[test]
fn every_directory_is_registered() {
    let plan = Plan::new(&root(), 0.0).unwrap();
    assert!(plan.unregistered.is_empty(), "not in any game's results(): {:?}", plan.unregistered);
    assert!(registry().len() >= 21, "{} directories", registry().len());
}

#[test]
fn cheap_sizes_recompute_exactly() {
    for entry in registry() {
        let Recompute::Sizes(recompute) = entry.recompute else { continue };
        let committed = read_verify_files(&root().join(entry.dir)).unwrap();
        let mut checked = 0;
        for (&(rows, cols), tally) in committed.sizes.iter().filter(|(_, t)| t.patterns <= MAX_POSITIONS) {
            let fresh = recompute(&committed.game, &committed.rule, rows, cols).unwrap();
            assert_eq!(&fresh.sizes[&(rows, cols)], tally, "{} {rows}x{cols}", entry.dir);
            let on_disk: Vec<_> = committed.mismatches.iter().filter(|m| (m.rows, m.cols) == (rows, cols)).cloned().collect();
            assert_eq!(on_disk, fresh.mismatch_rows(), "{} {rows}x{cols}: mismatches", entry.dir);
            checked += 1;
        }
        let cheapest = committed.sizes.values().map(|t| t.patterns).min().unwrap_or(0);
        assert!(checked > 0 || cheapest > MAX_POSITIONS, "{}: no size recomputed", entry.dir);
    }
}
