//! `sprague check` on the committed results (and tampered copies) and `sprague report` on a fixture.

mod common;
use common::{copy_dir, edit_and_reseal, flip_bit, sprague, sprague_at_root};

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// A temporary copy of the committed results, with `edit` applied to the text of `file`.
fn tampered(file: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("results"), &root);
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&path, edited).unwrap();
    (dir, root)
}

fn check(root: &Path) -> Command {
    let mut cmd = sprague_at_root();
    cmd.args(["check", "--budget", "5", "--results"]).arg(root);
    cmd
}

#[test]
fn check_passes_on_committed_results() {
    sprague_at_root()
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains(": 0 differences"))
        .stdout(predicate::str::contains("wall/standard 5x6 (estimated"))
        .stdout(predicate::str::contains("wall/standard 4x5 (estimated").not())
        .stdout(predicate::str::contains("wall/standard/empty.csv (estimated").not());
}

#[test]
fn check_reports_a_tampered_count() {
    let (_dir, root) = tampered("wall/standard/summary.csv", |t| t.replace("wall,standard,2,2,16,0,4,2", "wall,standard,2,2,16,0,5,2"));
    let line = format!(
        "{}, line 9, committed wall,standard,2,2,16,0,5,2, recomputed wall,standard,2,2,16,0,4,2\n",
        root.join("wall/standard/summary.csv").display()
    );
    let damaged = format!("{}: sha256 ", root.join("wall/standard/summary.csv").display());
    check(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(line))
        .stdout(predicate::str::contains(damaged))
        .stdout(predicate::str::contains("(1 damaged)"))
        .stdout(predicate::str::contains(": 1 difference\n"));
}

/// A large size no budget recomputes is still protected: its digest and its totals.
#[test]
fn check_protects_sizes_outside_the_budget() {
    let (_dir, root) = tampered("wall/standard/distribution.csv", |t| {
        let at = t.find("wall,standard,6,6,").unwrap();
        let end = at + t[at..].find('\n').unwrap();
        let line = &t[at..end];
        let (head, count) = line.rsplit_once(',').unwrap();
        format!("{}{head},{}{}", &t[..at], count.parse::<u64>().unwrap() + 1, &t[end..])
    });
    let mut cmd = sprague_at_root();
    cmd.args(["check", "--budget", "0", "--results"]).arg(&root);
    cmd.assert()
        .code(1)
        .stdout(predicate::str::contains("distribution.csv: sha256 "))
        .stdout(predicate::str::contains("6x6 says patterns/p_positions/max_grundy"))
        .stdout(predicate::str::contains("  wall/standard 6x6 (estimated"));
}

#[test]
fn check_compares_each_size_with_its_transpose_at_no_cost() {
    // A resealed edit of 6×5, whose recomputation the budget leaves out: one board moved from
    // value 1 to value 3 (the summary still adds up), so 6×5 and 5×6 now differ.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("results"), &root);
    let standard = root.join("wall/standard");
    edit_and_reseal(&standard, "distribution.csv", "wall,standard,6,5,3,1,20\n", "wall,standard,6,5,3,1,19\n");
    edit_and_reseal(&standard, "distribution.csv", "wall,standard,6,5,3,3,22\n", "wall,standard,6,5,3,3,23\n");
    let distribution = standard.join("distribution.csv").display().to_string();
    check(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("(0 damaged)"))
        .stdout(predicate::str::contains("  wall/standard 6x5 (estimated"))
        .stdout(predicate::str::contains(format!("{distribution}, line 1350, committed wall,standard,6,5,3,1,19, recomputed wall,standard,6,5,3,1,20")))
        .stdout(predicate::str::contains(format!("{distribution}, line 1352, committed wall,standard,6,5,3,3,23, recomputed wall,standard,6,5,3,3,22")))
        .stdout(predicate::str::contains(": 2 differences"));
}

/// 100 single-bit flips spread over every committed file a manifest or SHA256SUMS covers (and those):
/// each one is found by `check` without recomputing anything.
#[test]
fn no_bit_flip_in_committed_results_passes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("results"), &root);
    let mut files: Vec<PathBuf> = Vec::new();
    for manifest in walk(&root).into_iter().filter(|p| p.ends_with("manifest.json")) {
        let text = std::fs::read_to_string(&manifest).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let listed = json["files"].as_object().unwrap().keys().map(|name| manifest.with_file_name(name)).filter(|p| p.is_file());
        files.extend(listed.chain([manifest.clone()]));
    }
    let sums = std::fs::read_to_string(root.join("SHA256SUMS")).unwrap();
    files.extend(sums.lines().map(|line| root.join(&line[66..])).chain([root.join("SHA256SUMS")]));
    files.sort();
    assert!(files.len() > 60, "{} files", files.len());
    let mut state: u64 = 0x5eed_f11e;
    for flip in 0..100 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let path = &files[flip % files.len()];
        let saved = std::fs::read(path).unwrap();
        let bit = (state % (saved.len() as u64 * 8)) as usize;
        flip_bit(path, bit);
        let outcome = sprague::games::check_plan(&root, 0.0);
        let found = match &outcome {
            Ok(plan) => !plan.damage.is_empty(),
            Err(_) => true,
        };
        assert!(found, "bit {bit} of {} flipped and nothing noticed", path.display());
        std::fs::write(path, saved).unwrap();
    }
    assert!(sprague::games::check_plan(&root, 0.0).unwrap().damage.is_empty());
}

/// Every file under `dir`, recursively.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn check_reports_a_missing_row() {
    let removed = std::cell::RefCell::new(String::new());
    let (_dir, root) = tampered("wall/standard/distribution.csv", |t| {
        let lines: Vec<&str> = t.lines().collect();
        let at = lines.iter().position(|l| l.starts_with("wall,standard,2,3,")).unwrap();
        *removed.borrow_mut() = lines[at].to_string();
        lines.iter().enumerate().filter(|&(i, _)| i != at).map(|(_, l)| format!("{l}\n")).collect()
    });
    let line = format!(
        "{}, missing row, committed (none), recomputed {}\n",
        root.join("wall/standard/distribution.csv").display(),
        removed.borrow()
    );
    check(&root).assert().code(1).stdout(predicate::str::contains(line));
    let (_dir, root) = tampered("wall/standard/empty.csv", |t| t.replace("20,20,2\n", ""));
    check(&root).assert().code(1).stdout(predicate::str::contains("empty.csv, missing row, committed (none), recomputed 20,20,2"));
}

/// A registered directory's file that is missing or cannot be read is damage (exit 1), named
/// with its line, and the check goes on with the other directories.
#[test]
fn check_reports_malformed_and_missing_files_as_damage() {
    let (_dir, root) = tampered("nim/summary.csv", |t| t.replacen("nim,standard,1,2,1,", "nim,standard,1,2,one,", 1));
    let name = root.join("nim/summary.csv").display().to_string();
    std::fs::write(root.join("cards/manifest.json"), std::fs::read_to_string(root.join("cards/manifest.json")).unwrap().replacen('{', "[", 1)).unwrap();
    std::fs::remove_file(root.join("wall/standard/empty.csv")).unwrap();
    std::fs::remove_file(root.join("kings/distribution.csv")).unwrap();
    check(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{name}: line 3, column 5 (patterns): invalid digit")))
        .stdout(predicate::str::contains("cards/manifest.json: line 2: expected"))
        .stdout(predicate::str::contains("wall/standard/empty.csv: missing"))
        .stdout(predicate::str::contains("kings/distribution.csv: missing"))
        // Five lines of damage in four files: the count is of files.
        .stdout(predicate::str::contains("(4 damaged)"))
        .stdout(predicate::str::contains("recomputed "));
}

/// Tags open and close in order (a light XML well-formedness check).
fn balanced(svg: &str) -> bool {
    let mut stack = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let Some(len) = rest[start..].find('>') else { return false };
        let tag = &rest[start + 1..start + len];
        rest = &rest[start + len + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop() != Some(name.trim().to_string()) {
                return false;
            }
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    stack.is_empty()
}

#[test]
fn report_renders_the_fixture() {
    let out = tempfile::tempdir().unwrap();
    sprague_at_root().args(["report", "--results", "tests/fixtures/report", "--out"]).arg(out.path()).assert().success();
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    let expected = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/expected-report.md")).unwrap();
    assert_eq!(report, expected);
    let plots = [
        ("grundy_histogram.svg", "Grundy value distribution per board size"),
        ("p_fraction.svg", "P-position fraction against board area"),
        ("mean_grundy_by_x.svg", "Mean Grundy value against number of X cells"),
        ("empty_heat_map.svg", "Grundy value of the empty board"),
    ];
    for (file, title) in plots {
        assert!(report.contains(&format!("![{title}]({file})")), "{file} not embedded");
        let svg = std::fs::read_to_string(out.path().join(file)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{file}");
        assert!(balanced(&svg), "{file} is not balanced");
        assert!(svg.contains(title), "{file} lacks its title");
    }
    assert!(std::fs::read_to_string(out.path().join("p_fraction.svg")).unwrap().contains("H = 2"), "legend");
    for (file, _) in plots {
        let svg = std::fs::read_to_string(out.path().join(file)).unwrap();
        assert!(whole_ticks(&svg), "{file} writes a whole number with \".0\"");
    }
    let heat = std::fs::read_to_string(out.path().join("empty_heat_map.svg")).unwrap();
    assert!(heat.contains("value 0 (circled)") && heat.matches("<circle").count() > 1, "the empty board's zeros are circled");
}

/// No `<text>` of `svg` is a whole number written with ".0" ("15000.0", "3.0").
fn whole_ticks(svg: &str) -> bool {
    svg.split("</text>").filter_map(|t| t.rsplit('>').next()).all(|text| !(text.trim().ends_with(".0") && text.trim().parse::<f64>().is_ok()))
}

/// The report of the committed results: no ".0" ticks (the y title of empty_start.svg used to
/// overlap "15000.0"), the census's 5x7 and 7x5 lines drawn as one, and the values of games
/// that are not impartial named for what they are.
#[test]
fn report_labels_the_committed_results() {
    let out = tempfile::tempdir().unwrap();
    sprague_at_root().args(["report", "--results", "results", "--out"]).arg(out.path()).assert().success();
    let read = |file: &str| std::fs::read_to_string(out.path().join(file)).unwrap();
    for file in ["empty_start.svg", "empty_constant.svg", "empty_table_heat_map.svg", "census_p_by_x.svg", "mean_grundy_by_x.svg", "p_fraction.svg"] {
        assert!(whole_ticks(&read(file)), "{file}");
    }
    assert!(read("census_p_by_x.svg").contains("5x7 = 7x5"), "transposes drawn once");
    for (game, value) in [("cards", "1 = first player gets more"), ("footholds", "1 = A (moving first) wins"), ("kings", "claimed nim-sum")] {
        let svg = read(&format!("{game}/distribution.svg"));
        assert!(svg.contains(value) && !svg.contains("Grundy value") && !svg.contains("share of patterns"), "{game}");
        assert!(!read(&format!("{game}/report.md")).contains("P-positions"), "{game}");
    }
    let index = read("report.md");
    assert!(index.contains("190629 rows the first player does not win") && !index.contains("190629 P-positions"), "cards");
    assert!(index.contains("203 P-positions"), "nim keeps its P-positions");
}

/// A run of one size draws one histogram panel, as wide as the title, not the empty panels of
/// the smaller sizes of its grid (`--size 1x3` used to draw empty 1x1 and 1x2 panels).
#[test]
fn a_one_size_run_draws_one_panel() {
    let dir = tempfile::tempdir().unwrap();
    let (run, out) = (dir.path().join("run"), dir.path().join("report"));
    sprague().args(["verify", "wall", "--size", "1x3", "-q", "--out"]).arg(&run).assert().success();
    sprague().args(["report", "--results"]).arg(&run).arg("--out").arg(&out).assert().success();
    let svg = std::fs::read_to_string(out.join("run/grundy_histogram.svg")).unwrap();
    let label = |size: &str| svg.contains(&format!(">\n{size}\n</text>"));
    assert!(label("1x3") && !label("1x1") && !label("1x2"), "only the 1x3 panel");
}

#[test]
fn report_names_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new(&format!("{}/tests/fixtures/report", env!("CARGO_MANIFEST_DIR"))), dir.path());
    std::fs::remove_file(dir.path().join("wall/standard/empty.csv")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut cmd = sprague_at_root();
    cmd.args(["report", "--results"]).arg(dir.path()).arg("--out").arg(out.path());
    cmd.assert().code(2).stderr(predicate::str::contains("wall/standard/empty.csv"));
}

#[test]
fn check_reports_a_tampered_empty_board_value() {
    let (_dir, root) = tampered("wall/empty/table/empty.csv", |t| t.replace("\n10,10,0\n", "\n10,10,3\n"));
    let file = root.join("wall/empty/table/empty.csv").display().to_string();
    check(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{file}, line 911, committed 10,10,3, recomputed 10,10,0")))
        .stdout(predicate::str::contains(format!("{file}, line 1, committed sha256 ")));
}

/// A verify run of nim in `dir/run`, with the header line of `file` cut to `game,rule` (and
/// resealed: what is read is then the header's fault, not a changed digest's).
fn nim_run_with_cut_header(dir: &Path, file: &str) {
    sprague_at_root().args(["verify", "nim", "--piles", "3", "--max", "6", "-q", "--out"]).arg(dir.join("run")).assert().success();
    let text = std::fs::read_to_string(dir.join("run").join(file)).unwrap();
    let header = text.split_once('\n').unwrap().0;
    edit_and_reseal(&dir.join("run"), file, &format!("{header}\n"), "game,rule\n");
}

#[test]
fn report_names_the_columns_a_damaged_header_lacks() {
    for (file, expected) in [
        ("distribution.csv", r#"expected ["game", "rule", "piles", "largest_pile", "stones", "grundy", "patterns"]"#),
        ("summary.csv", r#"expected ["game", "rule", "piles", "largest_pile", "patterns", "mismatches", "p_positions", "max_grundy"]"#),
    ] {
        let dir = tempfile::tempdir().unwrap();
        nim_run_with_cut_header(dir.path(), file);
        let out = tempfile::tempdir().unwrap();
        let mut cmd = sprague_at_root();
        cmd.args(["report", "--results"]).arg(dir.path()).arg("--out").arg(out.path());
        let stderr = predicate::str::contains(format!("run/{file}: line 1: header is [\"game\", \"rule\"], {expected}"));
        cmd.assert().code(2).stderr(stderr.and(predicate::str::contains("\"\"").not()));
    }
}

/// A copy of the fixture's wall/standard with `edit` applied to the text of `file` (its new
/// digest recorded, so that what is tested is the reading of it), and the report of it
/// (`sprague report` into `out` of the directory returned, beside the copy `results`).
fn report_of_edited(file: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, assert_cmd::assert::Assert) {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    copy_dir(Path::new(&format!("{}/tests/fixtures/report", env!("CARGO_MANIFEST_DIR"))), &results);
    let text = std::fs::read_to_string(results.join("wall/standard").join(file)).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    edit_and_reseal(&results.join("wall/standard"), file, &text, &edited);
    let mut cmd = sprague_at_root();
    cmd.args(["report", "--results"]).arg(&results).arg("--out").arg(dir.path().join("out"));
    let assert = cmd.timeout(std::time::Duration::from_secs(60)).assert();
    (dir, assert)
}

/// A copy of the committed results with `change` applied, and the report of it into a
/// directory beside it.
fn report_of_changed(change: impl Fn(&Path)) -> (tempfile::TempDir, assert_cmd::assert::Assert) {
    let (dir, root) = changed_copy(change);
    let assert = sprague_at_root().args(["report", "--results"]).arg(&root).arg("--out").arg(dir.path().join("report")).assert();
    (dir, assert)
}

/// Swaps lines `a` and `b` (from 0) of the file at `path`.
fn swap_lines(path: &Path, a: usize, b: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(a, b);
    std::fs::write(path, format!("{}\n", lines.join("\n"))).unwrap();
}

/// `report` checks every file it reads against its digest (manifest.json or SHA256SUMS) and
/// refuses a changed one, naming it: an edited summary, a bit flipped in a distribution, two
/// lines swapped.
#[test]
fn report_refuses_a_changed_file() {
    let cases: [DamageCase; 6] = [
        ("nim summary edited", |r| edit(&r.join("nim/summary.csv"), "\nnim,standard,1,1,1,0,0,1\n", "\nnim,standard,1,1,1,0,999,1\n"), "nim/summary.csv: sha256 "),
        ("wall summary edited", |r| edit(&r.join("wall/standard/summary.csv"), "\nwall,standard,1,1,2,0,1,1\n", "\nwall,standard,1,1,2,0,0,1\n"), "wall/standard/summary.csv: sha256 "),
        ("wall distribution bit", |r| flip_bit(&r.join("wall/standard/distribution.csv"), 8 * 100 + 1), "wall/standard/distribution.csv: sha256 "),
        ("x-blocks distribution bit", |r| flip_bit(&r.join("wall/x-blocks/distribution.csv"), 8 * 100 + 1), "wall/x-blocks/distribution.csv: sha256 "),
        ("empty.csv lines swapped", |r| swap_lines(&r.join("wall/standard/empty.csv"), 2, 3), "wall/standard/empty.csv: sha256 "),
        ("proof rows swapped", |r| swap_lines(&r.join("wall/empty/proof/rows.csv"), 2, 3), "wall/empty/proof/rows.csv: sha256 "),
    ];
    for (what, change, message) in cases {
        let (dir, assert) = report_of_changed(change);
        assert.code(2).stderr(predicate::str::contains(message));
        assert!(!dir.path().join("report").join("report.md").exists(), "{what}: a report was written");
    }
    let (_dir, assert) = report_of_changed(|r| std::fs::write(r.join("nim/extra.csv"), "x\n").unwrap());
    assert.success();
}

/// `report` never writes among the results: an `--out` that is the results directory, inside
/// it or above it is refused.
#[test]
fn report_refuses_an_out_among_the_results() {
    let (dir, root) = changed_copy(|_| {});
    for out in [root.clone(), root.join("nim"), root.join("new"), dir.path().to_path_buf()] {
        sprague_at_root().args(["report", "--results"]).arg(&root).arg("--out").arg(&out).assert().code(2).stderr(predicate::str::contains("choose a directory outside it"));
    }
    assert!(!root.join("nim/report.md").exists() && !root.join("new").exists());
    sprague_at_root().args(["check", "--budget", "0", "--results"]).arg(&root).assert().success();
}

/// A copy of results/ without its SHA256SUMS is damaged (deleting it does not switch off the
/// protection of the files no manifest lists); so is a checkpoint.json left in it.
#[test]
fn check_names_a_deleted_sums_file_and_a_checkpoint() {
    let cases: [DamageCase; 2] = [
        ("SHA256SUMS deleted", |r| {
            std::fs::remove_file(r.join("SHA256SUMS")).unwrap();
            edit(&r.join("octal/runs/grundy/rare.csv"), "\n1,0\n", "\n1,90\n");
        }, "SHA256SUMS: missing"),
        ("junk checkpoint", |r| std::fs::write(r.join("nim/checkpoint.json"), "junk\n").unwrap(), "nim/checkpoint.json: a run in progress"),
    ];
    for (what, change, message) in cases {
        let (_dir, root) = changed_copy(change);
        let output = sprague_at_root().args(["check", "--budget", "0", "--results"]).arg(&root).assert().code(1).get_output().stdout.clone();
        let text = String::from_utf8(output).unwrap();
        assert!(text.contains(message) && text.contains("(1 damaged)"), "{what}: {text}");
    }
}

/// A directory of the committed results holding only the lock of a killed run (it wrote
/// nothing else) is damage, named as a tree of runs names it (`tests/check_tree.rs`).
#[test]
fn check_names_a_killed_run_in_the_committed_results() {
    let (_dir, root) = changed_copy(|r| {
        std::fs::create_dir(r.join("killed")).unwrap();
        std::fs::write(r.join("killed/.sprague.lock"), "pid 1\ncommand sprague table octal 0.07 --stats killed\nstarted 2026-01-01T00:00:00Z\n").unwrap();
    });
    let output = sprague_at_root().args(["check", "--budget", "0", "--results"]).arg(&root).assert().code(1).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    let named = format!("{}: missing: the run `sprague table octal 0.07 --stats killed` took this directory (.sprague.lock) but never finished", root.join("killed/manifest.json").display());
    assert!(text.contains(&named) && text.contains("(1 damaged)"), "{text}");
}

/// A huge value is drawn with a short key (it used to abort asking for 128 GB); a size past the
/// board's sides is refused at its line (it used to abort or write hundreds of MB of SVG).
#[test]
fn report_bounds_what_it_draws() {
    let (dir, assert) = report_of_edited("empty.csv", |t| t.replacen("\n1,1,1\n", "\n1,1,4000000000\n", 1));
    assert.success();
    let heat = std::fs::metadata(dir.path().join("out/empty_heat_map.svg")).unwrap().len();
    assert!(heat < 1_000_000, "{heat} bytes");
    let (_dir, assert) = report_of_edited("empty.csv", |t| format!("{t}20000,20000,1\n"));
    let lines = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/wall/standard/empty.csv")).unwrap().lines().count();
    assert.code(2).stderr(predicate::str::contains(format!("empty.csv: line {}: size 20000x20000 is outside the sides the report draws (1 to 20)", lines + 1)));
    for file in ["summary.csv", "distribution.csv"] {
        let (_dir, assert) = report_of_edited(file, |t| t.replacen("\nwall,standard,1,1,", "\nwall,standard,60000,60000,", 1));
        assert.code(2).stderr(predicate::str::contains(format!("{file}: line 2: size 60000x60000 is outside the sides the report draws (1 to 20)")));
    }
}

/// Digests prove a file is the one sealed, not that it is right: a summary edited and resealed
/// so that it disagrees with its distribution (a count, a repeated size, a size of the
/// distribution it lacks) is refused at its line, and no report is written.
#[test]
fn report_refuses_a_resealed_summary_that_disagrees_with_its_distribution() {
    // The 1x2 row (line 3) replaced by each first text.
    let cases = [
        ("\nwall,standard,1,2,5,0,1,1\n", "summary.csv: line 3: 1x2 says patterns/p_positions/max_grundy 5/1/1 but distribution.csv sums to 4/1/1"),
        ("\nwall,standard,1,1,2,0,1,1\n", "summary.csv: line 3: 1x1 repeats the size of line 2"),
        ("\n", "distribution.csv line 4: size 1x2 has no row in summary.csv"),
    ];
    for (row, message) in cases {
        let (dir, assert) = report_of_edited("summary.csv", |t| t.replacen("\nwall,standard,1,2,4,0,1,1\n", row, 1));
        assert.code(2).stderr(predicate::str::contains(message));
        assert!(!dir.path().join("out/report.md").exists(), "{message}: a report was written");
    }
}

/// A size in two census directories (a comparison run copied beside the census) would be shown
/// twice in the census table; the report refuses, naming both.
#[test]
fn report_refuses_a_census_size_found_twice() {
    let (dir, assert) = report_of_changed(|r| copy_dir(&r.join("wall/census/5x7"), &r.join("wall/census/gpu-5x7")));
    assert.code(2).stderr(predicate::str::contains("wall/census/gpu-5x7/summary.csv: size 5x7 is also in ").and(predicate::str::contains("wall/census/5x7: the census report shows each size once")));
    assert!(!dir.path().join("report").join("report.md").exists());
}

/// A copy of the committed results with `change` applied to it.
fn changed_copy(change: impl Fn(&Path)) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("results"), &root);
    change(&root);
    (dir, root)
}

/// A damage case: its name, how it damages a copy of results/, what check says of it.
type DamageCase = (&'static str, fn(&Path), &'static str);

/// Deleting a file a manifest or SHA256SUMS lists, or a whole registered directory, and
/// changing a file no manifest lists are damage at any budget; every file needs a digest.
#[test]
fn check_names_deleted_and_unlisted_files_at_no_cost() {
    let cases: [DamageCase; 6] = [
        ("nim/sequence.csv", |r| std::fs::remove_file(r.join("nim/sequence.csv")).unwrap(), "nim/sequence.csv: missing (listed in manifest.json)"),
        ("wall/empty/proof/zeros.csv", |r| std::fs::remove_file(r.join("wall/empty/proof/zeros.csv")).unwrap(), "proof/zeros.csv: missing (listed in manifest.json)"),
        ("octal values", |r| {
            let path = r.join("octal/runs/grundy/values.csv");
            let text = std::fs::read_to_string(&path).unwrap();
            let line = text.lines().nth(4).unwrap().to_string();
            std::fs::write(&path, text.replacen(&line, &format!("{}9", &line[..line.len() - 1]), 1)).unwrap();
        }, "octal/runs/grundy/values.csv: sha256 "),
        ("run.json", |r| std::fs::remove_file(r.join("octal/runs/officers/run.json")).unwrap(), "run.json: missing (listed in SHA256SUMS)"),
        ("nim", |r| std::fs::remove_dir_all(r.join("nim")).unwrap(), "nim: missing (a registered results directory)"),
        ("new file", |r| std::fs::write(r.join("wall/new.csv"), "x\n").unwrap(), "wall/new.csv: protected by no digest"),
    ];
    for (what, change, message) in cases {
        let (_dir, root) = changed_copy(change);
        let output = sprague_at_root().args(["check", "--budget", "0", "--results"]).arg(&root).assert().code(1).get_output().stdout.clone();
        let text = String::from_utf8(output).unwrap();
        assert!(text.contains(message) && text.contains("(1 damaged)"), "{what}: {text}");
        assert!(!text.contains(" counts "), "{what}: {text}");
    }
}

/// A changed count in a census shard is damage like anywhere else: the check goes on (exit 1).
#[test]
fn check_reports_a_damaged_census_shard_and_goes_on() {
    let (_dir, root) = changed_copy(|r| {
        let path = r.join("wall/census/6x7/shards/1/summary.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text.lines().nth(1).unwrap().to_string();
        assert!(line.ends_with(",8"), "{line}");
        std::fs::write(&path, text.replacen(&line, &format!("{}9", &line[..line.len() - 1]), 1)).unwrap();
    });
    let summary = root.join("wall/census/6x7/shards/1/summary.csv").display().to_string();
    sprague_at_root()
        .args(["check", "--budget", "0", "--results"])
        .arg(&root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{summary}: sha256 ")))
        .stdout(predicate::str::contains(format!("{summary}: line 2: 6x7 says patterns/p_positions/max_grundy")))
        .stdout(predicate::str::contains("recomputed "));
}

/// A census shard's manifest flipped, a shard deleted, given twice, or left unfinished (a
/// checkpoint beside its manifest, or alone beside the merge): damage named (exit 1), never
/// blamed on "different runs", and the check goes on.
/// A change that damages a copy of the results, given its root.
type Damaging<'a> = Box<dyn Fn(&Path) + 'a>;

#[test]
fn check_names_a_broken_missing_or_extra_census_shard_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let stopped = dir.path().join("stopped");
    let census = ["census", "wall", "--size", "5x5", "-q", "--block-patterns", "1", "--stop-after-blocks", "1", "--out"];
    sprague_at_root().args(census).arg(&stopped).assert().code(3);
    let checkpoint = stopped.join("checkpoint.json");
    let shards = "wall/census/5x8/shards";
    let cases: [(&str, Damaging<'_>, &str); 6] = [
        ("mode flipped", Box::new(|r| edit(&r.join("wall/census/5x8/shards/2/manifest.json"), "\"mode\": \"census\"", "\"mode\": \"cen3us\"")), "shards/2/manifest.json: content does not match its digest"),
        ("shard deleted", Box::new(|r| std::fs::remove_dir_all(r.join("wall/census/5x8/shards/3")).unwrap()), "shards: missing shard(s) 3/8 of the 8"),
        ("shard twice", Box::new(|r| copy_dir(&r.join("wall/census/5x8/shards/4"), &r.join("wall/census/5x8/shards/9"))), "shards: shard 4/8 given twice"),
        ("checkpoint beside a manifest", Box::new(|r| {
            std::fs::copy(&checkpoint, r.join("wall/census/5x8/shards/5/checkpoint.json")).unwrap();
        }), "shards/5/checkpoint.json: a finished shard holds a checkpoint"),
        ("checkpoint alone", Box::new(|r| {
            std::fs::remove_file(r.join("wall/census/5x8/shards/6/manifest.json")).unwrap();
            std::fs::copy(&checkpoint, r.join("wall/census/5x8/shards/6/checkpoint.json")).unwrap();
        }), "shards/6/checkpoint.json: a shard with no manifest.json, only a checkpoint"),
        ("a 6x7 shard deleted", Box::new(|r| std::fs::remove_dir_all(r.join("wall/census/6x7/shards/17")).unwrap()), "6x7/shards: missing shard(s) 17/32 of the 32"),
    ];
    for (what, change, message) in cases {
        let (_dir, root) = changed_copy(change);
        let output = sprague_at_root().args(["check", "--budget", "0", "--results"]).arg(&root).output().unwrap();
        let text = String::from_utf8(output.stdout).unwrap() + &String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{what}: {text}");
        assert!(text.contains(message) && text.contains("recomputed "), "{what}: {text}");
        assert!(!text.contains("different runs"), "{what}: {text}");
        if what != "a 6x7 shard deleted" {
            assert!(text.contains(shards), "{what}: {text}");
        }
    }
}

/// `edit` of the text of `path`: `from` (which must be there) replaced by `to`.
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{}: no {from}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn check_into_a_closed_pipe_ends_quietly() {
    // `sprague check --budget 0 | head -1`: the skipped list (thousands of lines, more than a
    // pipe holds) meets a reader that has gone; that ends the run, without a panic.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sprague"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--budget", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// The lines of `check --budget 0` on a changed copy of results/, run from the directory above
/// it (as `--results results`), that name `file`, with the whole report.
fn lines_naming(change: fn(&Path), file: &str) -> (Vec<String>, String) {
    let (dir, _root) = changed_copy(change);
    let output = sprague().current_dir(dir.path()).args(["check", "--budget", "0", "--results", "results"]).assert().code(1).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    (text.lines().filter(|line| line.contains(file)).map(str::to_string).collect(), text)
}

/// A committed file that cannot be read is named once, in full as the user gave the results
/// (not again behind its manifest's name): an I/O error (a link to /proc/self/mem, whose first
/// page cannot be read: root, who runs the tests, is denied no file mode), and a FIFO standing
/// where the file should be (not "missing").
#[cfg(target_os = "linux")]
#[test]
fn check_names_an_unreadable_file_once() {
    let (lines, text) = lines_naming(
        |r| {
            std::fs::remove_file(r.join("nim/summary.csv")).unwrap();
            std::os::unix::fs::symlink("/proc/self/mem", r.join("nim/summary.csv")).unwrap();
        },
        "results/nim/summary.csv",
    );
    assert_eq!(lines, ["results/nim/summary.csv: Input/output error"], "{text}");
    assert!(text.contains("(1 damaged)"), "{text}");
    let (lines, text) = lines_naming(
        |r| {
            std::fs::remove_file(r.join("nim/summary.csv")).unwrap();
            assert!(std::process::Command::new("mkfifo").arg(r.join("nim/summary.csv")).status().unwrap().success());
        },
        "results/nim/summary.csv",
    );
    assert!(!lines.is_empty() && lines.iter().all(|l| l.starts_with("results/nim/summary.csv: not a regular file (")), "{text}");
    assert!(text.contains("(1 damaged)"), "{text}");
}

/// A SHA256SUMS line whose path leads out of the tree (through `..`, or absolute) is damage
/// naming SHA256SUMS and the line; the file it names is not read.
#[test]
fn check_refuses_sums_lines_that_lead_out_of_the_tree() {
    let (lines, text) = lines_naming(
        |r| {
            std::fs::write(r.parent().unwrap().join("outside.csv"), "x\n").unwrap();
            let sums = r.join("SHA256SUMS");
            let mut text = std::fs::read_to_string(&sums).unwrap();
            let digest = "0".repeat(64);
            text.push_str(&format!("{digest}  ../outside.csv\n{digest}  /etc/hostname\n"));
            std::fs::write(&sums, text).unwrap();
        },
        "results/SHA256SUMS",
    );
    let count = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("results/SHA256SUMS")).unwrap().lines().count();
    let expected = [
        format!("results/SHA256SUMS: line {}: path \"../outside.csv\" leads out of the tree (absolute, or through ..); refusing to read it", count + 1),
        format!("results/SHA256SUMS: line {}: path \"/etc/hostname\" leads out of the tree (absolute, or through ..); refusing to read it", count + 2),
    ];
    assert_eq!(lines, expected, "{text}");
    assert!(!text.contains("outside.csv: ") && !text.contains("hostname: "), "{text}");
}
