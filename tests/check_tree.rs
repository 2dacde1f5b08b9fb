//! `sprague check` and `sprague report` on a tree of runs of our own (not the committed results).

mod common;
use common::{edit_and_reseal, example_binary, sprague, too_deep_chain};

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

/// A tree with a Nim run, two Grundy's-game runs (one with a wrong claim) and a wall run.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let verify = |args: &[&str], out: &str, code: i32| {
        sprague().arg("verify").args(args).args(["-q", "--out"]).arg(dir.path().join(out)).assert().code(code);
    };
    verify(&["nim", "--max", "4"], "nim", 0);
    verify(&["grundy", "--max-total", "12"], "games/grundy", 0);
    verify(&["grundy", "--max-total", "8", "--claim", "equal-splits"], "games/grundy-wrong", 1);
    verify(&["wall", "--max", "2x3"], "wall", 0);
    dir
}

/// `sprague report` of the tree `results` into `out`, which must succeed: the index it wrote.
fn report_index(results: &Path, out: &Path) -> String {
    sprague().args(["report", "--results"]).arg(results).arg("--out").arg(out).assert().success();
    std::fs::read_to_string(out.join("report.md")).unwrap()
}

fn check(root: &Path) -> Command {
    let mut cmd = sprague();
    cmd.args(["check", "--results"]).arg(root);
    cmd
}

#[test]
fn check_passes_on_a_tree_of_runs() {
    let dir = tree();
    check(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("(0 damaged); recomputed 30 units"))
        .stdout(predicate::str::contains(": 0 differences"))
        .stdout(predicate::str::contains("missing").not());
    check(&dir.path().join("nim"))
        .args(["--budget", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("skipped for budget (4 units").and(predicate::str::contains(format!("\n  {} piles=4 (estimated", dir.path().join("nim").display()))));
    // The run at the root is named by its path, and so are its files (not `nim/./summary.csv`).
    std::fs::write(dir.path().join("nim/summary.csv"), std::fs::read_to_string(dir.path().join("nim/summary.csv")).unwrap() + "\n").unwrap();
    check(&dir.path().join("nim")).assert().code(1).stdout(predicate::str::contains(format!("{}: sha256", dir.path().join("nim/summary.csv").display())).and(predicate::str::contains("/./").not()));
}

/// Records in `dir`'s manifest that a device (`gpu`) counted the run, and reseals it.
fn mark_device(dir: &Path) {
    let path = dir.join("manifest.json");
    let mut manifest = sprague::output::manifest::Manifest::read(&path).unwrap();
    manifest.device = Some("gpu".into());
    manifest.write(&path).unwrap();
}

#[test]
fn a_run_counted_on_a_device_has_no_cpu_estimate_and_merges_as_the_devices() {
    let dir = tree();
    let wall = dir.path().join("wall");
    mark_device(&wall);
    // Its sizes are not estimated from the device's time: only an infinite budget takes them.
    check(dir.path())
        .args(["--budget", "1000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("skipped for budget (6 units, estimated 0.0 s without the 6 whose CPU time is unknown (a device counted them, or an older merge records no shard times): --budget inf takes them;"))
        .stdout(predicate::str::contains("  wall 2x3 (no CPU estimate: counted on a device, or an older merge)"));
    check(dir.path()).args(["--budget", "inf"]).assert().success().stdout(predicate::str::contains("skipped").not());
    // A huge budget is echoed in powers of ten, not in 301 digits.
    check(dir.path()).args(["--budget", "1e300"]).assert().success().stdout(predicate::str::contains("budget 1e300 s): 0 differences"));
    // A merge with a shard the device counted is the device's.
    let shard = |k: &str| {
        let out = dir.path().join(format!("shard{k}"));
        sprague().args(["verify", "wall", "--max", "2x3", "-q", "--shard", &format!("{k}/2"), "--out"]).arg(&out).assert().success();
        out
    };
    let (one, two) = (shard("1"), shard("2"));
    mark_device(&two);
    let merged = dir.path().join("merged");
    sprague().arg("merge").args([&one, &two]).arg("--out").arg(&merged).assert().success();
    let manifest = sprague::output::manifest::Manifest::read(&merged.join("manifest.json")).unwrap();
    assert_eq!(manifest.device.as_deref(), Some("gpu"));
}

#[test]
fn check_finds_a_changed_file_in_a_tree() {
    let dir = tree();
    let summary = dir.path().join("games/grundy/summary.csv");
    std::fs::write(&summary, std::fs::read_to_string(&summary).unwrap().replace("grundy,exhaustive,1,1,", "grundy,exhaustive,1,1,9")).unwrap();
    check(dir.path()).assert().code(1).stdout(predicate::str::contains(format!("{}: sha256 ", summary.display())));
}

#[test]
fn check_recomputes_a_resealed_edit_in_a_tree() {
    let dir = tree();
    let nim = dir.path().join("nim");
    edit_and_reseal(&nim, "distribution.csv", "nim,standard,1,3,3,3,1", "nim,standard,1,3,3,2,1");
    edit_and_reseal(&nim, "summary.csv", "nim,standard,1,3,1,0,0,3", "nim,standard,1,3,1,0,0,2");
    let (summary, distribution) = (nim.join("summary.csv").display().to_string(), nim.join("distribution.csv").display().to_string());
    check(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{summary}, line 4, committed nim,standard,1,3,1,0,0,2, recomputed nim,standard,1,3,1,0,0,3")))
        .stdout(predicate::str::contains(format!("{distribution}, line 4, committed nim,standard,1,3,3,2,1, recomputed (none)")))
        .stdout(predicate::str::contains(format!("{distribution}, missing row, committed (none), recomputed nim,standard,1,3,3,3,1")));
}

#[test]
fn report_covers_every_run_of_a_tree() {
    let dir = tree();
    let report = tempfile::tempdir().unwrap();
    let out = report.path().join("report");
    let index = report_index(dir.path(), &out);
    for line in [
        "### grundy",
        "- [`games/grundy`](games/grundy/report.md): rule exhaustive, 12 sizes, 271 positions, 134 P-positions, 0 mismatches",
        "- [`games/grundy-wrong`](games/grundy-wrong/report.md): rule exhaustive:claim=equal-splits, 8 sizes, 66 positions",
        "- [`nim`](nim/report.md): rule standard, 16 sizes, 69 positions",
        "- [`wall`](wall/report.md): rule standard, 6 sizes",
    ] {
        assert!(index.contains(line), "{line} not in {index}");
    }
    let nim = std::fs::read_to_string(out.join("nim/report.md")).unwrap();
    assert!(nim.contains("| piles | largest_pile | positions |") && nim.contains("\n| 2 | 4 | 4 | 1 | 25.00 | 7 | 0 |\n"), "{nim}");
    let svg = std::fs::read_to_string(out.join("nim/distribution.svg")).unwrap();
    assert!(svg.contains("piles 4, largest_pile 4") && svg.trim_end().ends_with("</svg>"), "nim plot");
    let wall = std::fs::read_to_string(out.join("wall/report.md")).unwrap();
    assert!(wall.starts_with("# Wall Making Game: results up to 2x3") && !wall.contains("Empty boards"), "{wall}");
    for plot in ["grundy_histogram.svg", "p_fraction.svg", "mean_grundy_by_x.svg"] {
        assert!(out.join("wall").join(plot).is_file(), "{plot}");
    }
    assert!(!out.join("wall/empty_heat_map.svg").exists(), "no empty-board table in this run");
}

/// A run at the root of a tree and one in its `run/` get a page each (both were written to
/// `run/report.md`, the nim page lost under the wall's).
#[test]
fn a_root_run_and_a_run_named_run_get_their_own_pages() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("out");
    sprague().args(["verify", "wall", "--max", "2x2", "-q", "--out"]).arg(&results).assert().success();
    sprague().args(["verify", "nim", "--max", "3", "--piles", "2", "-q", "--out"]).arg(results.join("run")).assert().success();
    let out = dir.path().join("rep");
    let index = report_index(&results, &out);
    assert!(index.contains("- [`.`](run-2/report.md): rule standard") && index.contains("- [`run`](run/report.md): rule standard"), "{index}");
    assert!(std::fs::read_to_string(out.join("run/report.md")).unwrap().starts_with("# nim"));
    assert!(std::fs::read_to_string(out.join("run-2/report.md")).unwrap().starts_with("# Wall Making Game"));
}

/// A report seals its files in a manifest: `check` of a tree holding it checks their digests
/// (no damage; a changed file is), and a second report into it removes the pages of a run no
/// longer there. A census run's report says its values were not cross-checked.
#[test]
fn a_report_is_sealed_checked_and_replaced_cleanly() {
    let dir = tree();
    sprague().args(["census", "wall", "--max", "2x2", "-q", "--out"]).arg(dir.path().join("census")).assert().success();
    let out = dir.path().join("reports").join("all");
    let index = report_index(&dir.path().join("games"), &out);
    assert!(index.contains("`grundy-wrong`"), "{index}");
    let manifest = sprague::output::manifest::Manifest::read(&out.join("manifest.json")).unwrap();
    assert!(manifest.files.contains_key("report.md") && manifest.files.contains_key("grundy-wrong/report.md"), "{:?}", manifest.files);
    check(&dir.path().join("reports")).assert().success().stdout(predicate::str::contains("(0 damaged)"));
    std::fs::write(out.join("grundy/report.md"), "changed").unwrap();
    check(&dir.path().join("reports")).assert().code(1).stdout(predicate::str::contains("grundy/report.md: sha256"));
    std::fs::remove_dir_all(dir.path().join("games/grundy-wrong")).unwrap();
    let index = report_index(&dir.path().join("games"), &out);
    assert!(!index.contains("grundy-wrong") && out.join("grundy/report.md").is_file(), "{index}");
    assert!(!out.join("grundy-wrong").exists(), "the page of a run no longer there is removed");
    let census = dir.path().join("census-report");
    let index = report_index(&dir.path().join("census"), &census);
    assert!(index.contains("a census: the claim's values, not cross-checked") && !index.contains("mismatch"), "{index}");
    let page = std::fs::read_to_string(census.join("run/report.md")).unwrap();
    assert!(page.contains("not checked against an oracle") && page.contains(" | — |\n"), "{page}");
}

#[test]
fn report_of_a_directory_without_runs_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let index = report_index(&dir.path().join("empty"), &dir.path().join("out"));
    assert!(index.contains("No run directories"), "{index}");
    sprague().args(["report", "--results"]).arg(dir.path().join("absent")).arg("--out").arg(dir.path().join("out")).assert().code(2);
}

#[test]
fn check_and_report_refuse_columns_that_are_not_the_games() {
    let dir = tree();
    let nim = dir.path().join("nim");
    edit_and_reseal(&nim, "summary.csv", "game,rule,piles,largest_pile,", "game,rule,rows,cols,");
    edit_and_reseal(&nim, "distribution.csv", "game,rule,piles,largest_pile,stones,", "game,rule,rows,cols,xs,");
    edit_and_reseal(&nim, "mismatches.csv", "game,rule,piles,largest_pile,position,", "game,rule,rows,cols,board,");
    let header = format!("{}: line 1: header is", nim.join("summary.csv").display());
    // The damage is named and the other runs are still checked (exit 1, as in a copy of results/).
    check(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(header.as_str()).and(predicate::str::contains("\"piles\"")))
        .stdout(predicate::str::contains("(1 damaged); recomputed 2"));
    let out = tempfile::tempdir().unwrap();
    sprague().args(["report", "--results"]).arg(dir.path()).arg("--out").arg(out.path()).assert().code(2).stderr(predicate::str::contains(header.as_str()));
}

/// Two nim runs, in `T/a` and `T/b`.
fn two_nim_runs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (max, out) in [("4", "a"), ("5", "b")] {
        sprague().args(["verify", "nim", "--piles", "2", "--max", max, "-q", "--out"]).arg(dir.path().join(out)).assert().success();
    }
    dir
}

/// A run whose manifest was deleted (and its summary edited) is damage, not skipped.
#[test]
fn check_names_a_run_without_its_manifest() {
    let dir = two_nim_runs();
    let b = dir.path().join("b");
    std::fs::remove_file(b.join("manifest.json")).unwrap();
    let summary = b.join("summary.csv");
    std::fs::write(&summary, std::fs::read_to_string(&summary).unwrap().replacen(",0,1\n", ",0,99\n", 1)).unwrap();
    check(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{}: missing: the directory holds a run's files", b.join("manifest.json").display())));
    // Alone, it is still damage rather than "no run found".
    check(&b).assert().code(1).stdout(predicate::str::contains("(1 damaged)"));
}

/// A malformed line in one run, a game/rule flipped in another's summary: each named (the
/// flip in the file that holds it), and the check goes on (exit 1).
#[test]
fn check_goes_on_past_a_malformed_run_and_names_the_right_file() {
    let dir = two_nim_runs();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let distribution = a.join("distribution.csv");
    let text = std::fs::read_to_string(&distribution).unwrap();
    let second = text.lines().nth(1).unwrap().to_string();
    std::fs::write(&distribution, text.replacen(&second, &format!("{second},x"), 1)).unwrap();
    let summary = b.join("summary.csv");
    std::fs::write(&summary, std::fs::read_to_string(&summary).unwrap().replacen("\nnim,standard,", "\nnim,misere,", 1)).unwrap();
    check(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{}: line 2: CSV error", distribution.display())))
        .stdout(predicate::str::contains(format!("{}: line 2: game/rule nim/misere differs from nim/standard of the other rows", summary.display())))
        .stdout(predicate::str::contains(format!("{}: sha256 ", summary.display())))
        .stdout(predicate::str::contains("every registered").not());
}

#[test]
fn check_of_a_tree_without_runs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    check(&empty).assert().code(2).stderr(predicate::str::contains(format!("no run found under {}", empty.display())));
    check(dir.path()).args(["--budget", "NaN"]).assert().code(2).stderr(predicate::str::contains("--budget must be a number"));
}

#[test]
fn check_finds_a_damaged_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("u");
    let stop = ["verify", "nim", "--piles", "3", "--max", "6", "-q", "--block-patterns", "4", "--stop-after-blocks", "1", "--checkpoint-secs", "0", "--out"];
    sprague().args(stop).arg(&run).assert().code(3);
    check(dir.path()).assert().success().stdout(predicate::str::contains("a run in progress (a checkpoint alone)"));
    let checkpoint = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(text.contains("\"covered\":[4"), "{text}");
    std::fs::write(&checkpoint, text.replacen("\"covered\":[4", "\"covered\":[5", 1)).unwrap();
    check(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{}: content does not match its sha256", checkpoint.display())))
        .stdout(predicate::str::contains("(1 damaged)"));
}

/// A rerun stopped in the directory of a finished run: its files are still the earlier run's
/// (checked as such), and the run in progress is named.
#[test]
fn check_names_a_run_in_progress_over_finished_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("v");
    let args = ["verify", "nim", "--piles", "3", "--max", "6", "-q", "--block-patterns", "4", "--checkpoint-secs", "0", "--out"];
    sprague().args(args).arg(&run).assert().success();
    sprague().args(args).arg(&run).arg("--stop-after-blocks").arg("1").assert().code(3);
    assert!(run.join("checkpoint.json").is_file() && run.join("manifest.json").is_file());
    check(dir.path()).assert().success().stdout(predicate::str::contains("a run in progress (checkpoint.json) over an earlier run's files"));
}

#[test]
fn check_of_untouched_shards_in_a_tree_passes() {
    let dir = tempfile::tempdir().unwrap();
    for k in 1..=3 {
        let out = dir.path().join(format!("s{k}"));
        sprague().args(["verify", "nim", "--piles", "3", "--max", "6", "-q", "--shard", &format!("{k}/3"), "--out"]).arg(&out).assert().success();
    }
    check(dir.path()).args(["--budget", "0"]).assert().success().stdout(predicate::str::contains("(0 damaged)"));
}

/// A merge written before merges recorded their shards' digests finds them from where `merge`
/// ran (its `--out` and where the merge lies), never from where `check` runs: two runs of one
/// layout (`run/shards/K`, `run/merged`) are each compared with their own shards.
#[test]
fn an_older_merge_finds_its_shards_from_where_merge_ran() {
    let dir = tempfile::tempdir().unwrap();
    for size in ["2x2", "3x3"] {
        let at = dir.path().join(size);
        for k in 1..=2 {
            let shard = format!("run/shards/{k}");
            sprague().args(["census", "wall", "--size", size, "-q", "--shard", &format!("{k}/2"), "--out"]).arg(at.join(&shard)).assert().success();
        }
        sprague().current_dir(&at).args(["merge", "run/shards/1", "run/shards/2", "--out", "run/merged"]).assert().success();
        let path = at.join("run/merged/manifest.json");
        let mut manifest = sprague::output::manifest::Manifest::read(&path).unwrap();
        let inputs = manifest.parameters.get_mut("merged_from").unwrap().as_array_mut().unwrap();
        inputs.iter_mut().for_each(|input| drop(input.as_object_mut().unwrap().remove("manifest_digest").expect("recorded")));
        manifest.write(&path).unwrap();
    }
    for cwd in [dir.path().join("2x2"), dir.path().to_path_buf()] {
        let out = check(dir.path()).current_dir(&cwd).args(["--budget", "0", "-v"]).assert().success();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains("2x2/run/merged merge of 2 shards") && stderr.contains("3x3/run/merged merge of 2 shards"), "{stderr}");
    }
}

/// A merge in a tree is compared with the sum of its shards at no cost (so a resealed edit of
/// the merge is found with no budget to recompute), wherever `merge` ran and after the tree
/// moved; a merge whose shards are not all in the tree is noted.
#[test]
fn a_merge_in_a_tree_is_compared_with_its_shards() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for k in 1..=3 {
        let shard = out.join(format!("shards/{k}"));
        sprague().args(["census", "wall", "--max", "3x3", "-q", "--shard", &format!("{k}/3"), "--out"]).arg(&shard).assert().success();
    }
    // One merge named with absolute paths, one run beside the shards with relative ones.
    let shards: Vec<_> = (1..=3).map(|k| out.join(format!("shards/{k}"))).collect();
    sprague().arg("merge").args(&shards).arg("--out").arg(out.join("merged")).assert().success();
    sprague().current_dir(&out).args(["merge", "shards/1", "shards/2", "shards/3", "--out", "beside"]).assert().success();
    let moved = dir.path().join("moved");
    std::fs::rename(&out, &moved).unwrap();
    let merges = predicate::str::contains("merged merge of 3 shards").and(predicate::str::contains("beside merge of 3 shards"));
    check(&moved).args(["--budget", "0", "-v"]).assert().success().stdout(predicate::str::contains(": 0 differences")).stderr(merges);
    edit_and_reseal(&moved.join("merged"), "summary.csv", "wall,standard,3,3,512,", "wall,standard,3,3,511,");
    let summary = moved.join("merged/summary.csv").display().to_string();
    check(&moved).args(["--budget", "0"]).assert().code(1).stdout(predicate::str::contains(format!("{summary}, line ")).and(predicate::str::contains("1 difference")));
    std::fs::rename(moved.join("shards/2"), dir.path().join("elsewhere")).unwrap();
    let noted = "beside: a merge of 3 shards, 1 of them not under";
    check(&moved).args(["--budget", "0"]).assert().code(1).stdout(predicate::str::contains(noted));
}

#[cfg(unix)]
#[test]
fn check_does_not_follow_a_link_back_up_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("a")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("a/up")).unwrap();
    sprague().args(["verify", "nim", "--max", "3", "-q", "--out"]).arg(dir.path().join("a/run")).assert().success();
    let units = |root: &Path| {
        let out = check(root).args(["--budget", "100"]).assert().success().get_output().stdout.clone();
        let text = String::from_utf8(out).unwrap();
        text.split("recomputed ").nth(1).and_then(|t| t.split(' ').next()).map(str::to_string)
    };
    assert_eq!(units(dir.path()), units(&dir.path().join("a/run")));
}

/// A run written by a program using the library (examples/subtraction.rs, through
/// `sprague::custom::verify`) is of a game sprague does not have: check verifies its files at no
/// cost and lists it as not recomputed, saying why, rather than as damage; a changed file in it
/// is still damage, and so is a summary that disagrees with its distribution.
#[test]
fn check_lists_a_run_of_the_library_s_user_as_not_recomputed() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("sub");
    Command::new(example_binary("subtraction")).arg("50").arg(&run).assert().success();
    let why = format!("{}: not recomputed: game subtraction-134 is not one of sprague's: written by a program using the library", run.display());
    check(dir.path()).assert().success().stdout(predicate::str::contains(why).and(predicate::str::contains("(0 damaged)"))).stdout(predicate::str::contains("older sprague").not());
    let summary = run.join("summary.csv");
    let text = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(&summary, text.replacen("subtraction-134", "subtraction-135", 1)).unwrap();
    check(dir.path()).assert().code(1).stdout(predicate::str::contains(format!("{}: sha256", summary.display())));
    std::fs::write(&summary, &text).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let (head, patterns) = last.rsplit_once(',').unwrap();
    edit_and_reseal(&run, "summary.csv", &last, &format!("{head},{}", patterns.parse::<u64>().unwrap() + 1));
    check(dir.path()).assert().code(1).stdout(predicate::str::contains(format!("{}: ", summary.display())));
}

/// `report` refuses a run directory whose manifest was deleted (check calls it damage) rather
/// than leaving it out of the report without a word; nothing is written.
#[test]
fn report_refuses_a_run_without_its_manifest() {
    let dir = two_nim_runs();
    let b = dir.path().join("b");
    std::fs::remove_file(b.join("manifest.json")).unwrap();
    let report = tempfile::tempdir().unwrap();
    let out = report.path().join("report");
    sprague()
        .args(["report", "--results"])
        .arg(dir.path())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}: holds a run's files (summary.csv) but no manifest.json", b.display())));
    assert!(!out.join("report.md").exists());
}

/// A run's summary edited and resealed (its digest recorded again) so that it no longer agrees
/// with its distribution is refused by the report of any tree, not shown as it says.
#[test]
fn report_refuses_a_resealed_run_whose_summary_disagrees() {
    let dir = tree();
    let nim = dir.path().join("nim");
    edit_and_reseal(&nim, "summary.csv", "\nnim,standard,1,1,1,0,0,1\n", "\nnim,standard,1,1,2,0,0,1\n");
    let report = tempfile::tempdir().unwrap();
    let out = report.path().join("report");
    let message = format!("{}: line 2: 1x1 says patterns/p_positions/max_grundy 2/0/1 but distribution.csv sums to 1/0/1", nim.join("summary.csv").display());
    sprague().args(["report", "--results"]).arg(dir.path()).arg("--out").arg(&out).assert().code(2).stderr(predicate::str::contains(message));
    assert!(!out.join("report.md").exists());
}

/// A `prove wall-empty` run killed before it wrote its manifest (its proof files alone, or only
/// the lock it took) is an unfinished run: damage naming the directory's manifest and the run,
/// as a run whose manifest was deleted is, not a directory passed over without a word.
#[test]
fn check_names_a_killed_proof_run() {
    let dir = two_nim_runs();
    let proof = dir.path().join("proof");
    sprague().args(["prove", "wall-empty", "--max", "3", "-q", "--out"]).arg(&proof).assert().success();
    std::fs::remove_file(proof.join("manifest.json")).unwrap();
    let unfinished = format!("{}: missing: the run `sprague prove wall-empty --max 3 -q --out {}` took this directory (.sprague.lock) but never finished", proof.join("manifest.json").display(), proof.display());
    check(dir.path()).assert().code(1).stdout(predicate::str::contains(&unfinished).and(predicate::str::contains("(1 damaged)")));
    for entry in std::fs::read_dir(&proof).unwrap() {
        let path = entry.unwrap().path();
        if !path.ends_with(".sprague.lock") {
            std::fs::remove_file(path).unwrap();
        }
    }
    // Alone, with nothing but its lock, it is still damage rather than "no run found".
    check(&proof).assert().code(1).stdout(predicate::str::contains(&unfinished));
}

/// Runs nested deeper than the system's longest path (PATH_MAX) are named, not skipped.
#[cfg(target_os = "linux")]
#[test]
fn check_names_a_tree_too_deep_to_walk() {
    let dir = two_nim_runs();
    let chain = dir.path().join("chain");
    let name = too_deep_chain(&chain);
    let output = check(dir.path()).assert().code(1).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    let named = text.lines().find(|line| line.contains("cannot be walked in full: File name too long")).unwrap_or_else(|| panic!("{text}"));
    assert!(named.starts_with(&format!("{}/{name}/{name}/", chain.display())) && named.contains("runs nested there"), "{named}");
    assert!(text.contains("(1 damaged)"), "{text}");
}

/// A run in a directory whose name is not UTF-8 is named as such by check and report (once
/// "manifest.json: missing" and "No such file or directory", the lossy name looked up).
#[cfg(target_os = "linux")]
#[test]
fn a_directory_name_that_is_not_utf8_is_named_so() {
    use std::os::unix::ffi::OsStrExt;
    let dir = two_nim_runs();
    let bad = dir.path().join(std::ffi::OsStr::from_bytes(b"bad\xff"));
    sprague().args(["verify", "wall", "--max", "2x2", "-q", "--out"]).arg(dir.path().join("t")).assert().success();
    std::fs::rename(dir.path().join("t"), &bad).unwrap();
    let said = predicate::str::contains("cannot be walked in full: its name is not UTF-8 (rename it)");
    check(dir.path()).assert().code(1).stdout(said.clone().and(predicate::str::contains("missing").not()));
    let out = tempfile::tempdir().unwrap();
    sprague().args(["report", "--results"]).arg(dir.path()).arg("--out").arg(out.path().join("r")).assert().code(2).stderr(said);
}

/// `report` refuses a tree it cannot walk in full (runs nested deeper than PATH_MAX), naming
/// the directory, as `check` names it, rather than leaving those runs out without a word.
#[cfg(target_os = "linux")]
#[test]
fn report_refuses_a_tree_too_deep_to_walk() {
    let dir = two_nim_runs();
    let chain = dir.path().join("chain");
    let name = too_deep_chain(&chain);
    let report = tempfile::tempdir().unwrap();
    let out = report.path().join("report");
    let output = sprague().args(["report", "--results"]).arg(dir.path()).arg("--out").arg(&out).assert().code(2).get_output().stderr.clone();
    let text = String::from_utf8(output).unwrap();
    assert!(text.contains(&format!("{}/{name}/{name}/", chain.display())), "{text}");
    assert!(text.contains("cannot be walked in full: File name too long") && text.contains("refusing to report"), "{text}");
    assert!(!out.join("report.md").exists(), "nothing is written");
}

/// A tree of verify runs (wall, octal) holding the output of commands that are not verify runs:
/// `table octal --stats` (a manifest beside a summary.csv of its own; one of them nested inside
/// the octal run) and `table wall-empty --out-dir` (a manifest, no summary.csv).
fn tree_with_other_outputs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &str, out: &str| {
        sprague().args(args.split(' ')).arg(dir.path().join(out)).assert().success();
    };
    run("verify wall --max 2x2 -q --out", "wall");
    run("verify octal 0.07 --max 6 -q --out", "octal");
    run("table octal 0.07 --max 100 -q --stats", "stats");
    run("table octal 0.6 --max 50 -q --stats", "octal/stats");
    run("table wall-empty --max 3x3 -q --out-dir", "empty");
    dir
}

/// Another command's output in a tree of runs is checked against its digests and listed as not
/// recomputed, never taken for a verify run missing its distribution.csv; a changed file in it
/// is still damage, and one alone is checked the same way rather than refused.
#[test]
fn check_takes_another_command_s_output_for_what_it_is() {
    let dir = tree_with_other_outputs();
    let output = check(dir.path()).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    for dir in ["empty", "octal/stats", "stats"] {
        assert!(text.contains(&format!("not checked: {dir} (")), "{dir} not listed: {text}");
    }
    assert!(text.contains("NOT CHECKED: 3 directories") && text.contains("(0 damaged)") && !text.contains("missing"), "{text}");
    assert!(text.contains("recomputed 10 units") && text.contains(": 0 differences"), "{text}");
    let stats = dir.path().join("stats");
    check(&stats).assert().success().stdout(predicate::str::contains("not checked: . (").and(predicate::str::contains("(0 damaged)")));
    let summary = stats.join("summary.csv");
    std::fs::write(&summary, std::fs::read_to_string(&summary).unwrap().replacen("0.07,101,", "0.07,102,", 1)).unwrap();
    check(dir.path()).assert().code(1).stdout(predicate::str::contains(format!("{}: sha256 ", summary.display())).and(predicate::str::contains("(1 damaged)")));
}

/// `report` leaves another command's output out of the index (it holds no verify run), rather
/// than refusing the tree for a distribution.csv such output never has.
#[test]
fn report_leaves_out_another_command_s_output() {
    let dir = tree_with_other_outputs();
    let report = tempfile::tempdir().unwrap();
    let out = report.path().join("report");
    let index = report_index(dir.path(), &out);
    assert!(index.contains("- [`octal`](octal/report.md): rule exhaustive:code=0.07, 6 sizes, 29 positions") && index.contains("- [`wall`](wall/report.md)"), "{index}");
    assert!(!index.contains("stats") && !index.contains("empty") && !out.join("stats").exists(), "{index}");
    let index = report_index(&dir.path().join("stats"), &out);
    assert!(index.contains("No run directories"), "{index}");
}

/// `report` reports the finished runs of a tree and names those it leaves out as not finished
/// (a run killed before it sealed anything, its lock alone; one stopped, its checkpoint), in
/// report.md and on stderr, rather than passing over them without a word.
#[test]
fn report_names_the_unfinished_runs_it_leaves_out() {
    let dir = two_nim_runs();
    let killed = dir.path().join("killed");
    std::fs::create_dir(&killed).unwrap();
    std::fs::copy(dir.path().join("a/.sprague.lock"), killed.join(".sprague.lock")).unwrap();
    let report = tempfile::tempdir().unwrap();
    let out = report.path().join("report");
    let mut cmd = sprague();
    cmd.args(["report", "--results"]).arg(dir.path()).arg("--out").arg(&out);
    cmd.assert().success().stderr(predicate::str::contains(format!("left out 1 run not finished ({})", killed.display())));
    let index = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(index.contains("- [`a`](a/report.md)") && index.contains("- [`b`](b/report.md)"), "{index}");
    assert!(index.contains(&format!("## Unfinished runs\n\nNot reported: `{}` holds a run that has not finished", killed.display())), "{index}");
    // A finished run leaves its lock beside its manifest: that is no unfinished run.
    let index = report_index(&dir.path().join("a"), &report.path().join("alone"));
    assert!(!index.contains("Unfinished"), "{index}");
}

#[test]
fn a_merged_run_is_estimated_from_its_shards_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut threads = Vec::new();
    for (k, seconds) in [("1", 100.0), ("2", 200.0)] {
        let out = dir.path().join(format!("shards/{k}"));
        sprague().args(["verify", "wall", "--max", "3x3", "-q", "--shard", &format!("{k}/2"), "--out"]).arg(&out).assert().success();
        // As if each shard had run for minutes.
        let path = out.join("manifest.json");
        let mut manifest = sprague::output::manifest::Manifest::read(&path).unwrap();
        manifest.wall_seconds = seconds;
        threads.push(manifest.threads as f64);
        manifest.write(&path).unwrap();
    }
    let merged = dir.path().join("alone/merged");
    sprague().arg("merge").arg(dir.path().join("shards/1")).arg(dir.path().join("shards/2")).arg("--out").arg(&merged).assert().success();
    let path = merged.join("manifest.json");
    let mut manifest = sprague::output::manifest::Manifest::read(&path).unwrap();
    assert_eq!(manifest.shards_seconds, Some(100.0 * threads[0] + 200.0 * threads[1]));
    assert!(manifest.wall_seconds < 10.0, "the merge's own time: {}", manifest.wall_seconds);
    // Alone in a tree (its shards elsewhere), it is not recomputed under a budget its shards'
    // time is past (it was, estimated at the merge's fraction of a second).
    let alone = dir.path().join("alone");
    check(&alone).args(["--budget", "5"]).assert().success().stdout(predicate::str::contains("skipped for budget (6 units, estimated 295.6 s"));
    // A merge of an older version records no shards' time: no estimate, skipped but for inf.
    manifest.shards_seconds = None;
    manifest.write(&path).unwrap();
    check(&alone).args(["--budget", "1e9"]).assert().success().stdout(predicate::str::contains("merged 3x3 (no CPU estimate: counted on a device, or an older merge)"));
    check(&alone).args(["--budget", "inf"]).assert().success().stdout(predicate::str::contains("skipped").not());
}
