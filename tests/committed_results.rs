//! Every committed results directory, as the game registry lists them: its smallest sizes
//! recompute to exactly what is on disk (`check` recomputes more within its budget), and no
//! directory under results/ is missing from the registry.

use sprague::games::{check_plan, results as registry};
use sprague::game::Recompute;
use sprague::runner::files::read_verify_files;
use std::path::Path;

/// Sizes recomputed per directory (the smallest ones).
const SIZES_PER_DIRECTORY: usize = 3;

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results")
}

#[test]
fn every_directory_is_registered() {
    let plan = check_plan(&root(), 0.0).unwrap();
    assert!(plan.unregistered.is_empty(), "not in any game's results(): {:?}", plan.unregistered);
    assert!(registry().len() >= 21, "{} directories", registry().len());
}

#[test]
fn smallest_sizes_recompute_exactly() {
    for entry in registry() {
        let Recompute::Sizes(recompute) = entry.recompute else { continue };
        let committed = read_verify_files(&root().join(entry.dir)).unwrap();
        let mut sizes: Vec<_> = committed.sizes.iter().filter(|(_, t)| t.patterns <= 1 << 20).collect();
        sizes.sort_by_key(|(&size, t)| (t.patterns, size));
        for (&(rows, cols), tally) in sizes.into_iter().take(SIZES_PER_DIRECTORY) {
            let fresh = recompute(&committed.game, &committed.rule, rows, cols).unwrap();
            assert_eq!(&fresh.sizes[&(rows, cols)], tally, "{} {rows}x{cols}", entry.dir);
            let on_disk: Vec<_> = committed.mismatches.iter().filter(|m| (m.rows, m.cols) == (rows, cols)).cloned().collect();
            assert_eq!(on_disk, fresh.mismatch_rows(), "{} {rows}x{cols}: mismatches", entry.dir);
        }
    }
}
