//! Output paths the file system makes awkward: one file under two names, names too long for
//! the files written beside them, dangling links as output directories, a file where a path
//! ending in `/` names a directory, names that are not UTF-8, a file-size limit, and a
//! directory where `check` expects a file.

mod common;
use common::{copy_dir, sprague, sprague_at_root};

use predicates::str::contains;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// `table octal 0.6 --out NAME` at a slow pace, started in `dir` and returned once it holds
/// its lock (NAME.lock names it).
fn start_slow_table(dir: &Path, name: &str) -> std::process::Child {
    let child = Command::new(assert_cmd::cargo::cargo_bin("sprague"))
        .args(["table", "octal", "0.6", "--max", "300000", "-q", "--threads", "1", "--checkpoint-heaps", "2000", "--delay-ms", "30", "--out", name])
        .current_dir(dir)
        .spawn()
        .unwrap();
    let (lock, holder, started) = (dir.join(format!("{name}.lock")), format!("pid {}", child.id()), Instant::now());
    while !std::fs::read_to_string(&lock).is_ok_and(|text| text.contains(&holder)) {
        assert!(started.elapsed() < Duration::from_secs(60), "the first run never locked {name}");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

#[test]
fn one_file_named_through_a_symbolic_link_takes_one_lock() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink("x.csv", d.join("lk.csv")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    let mut first = start_slow_table(d, "x.csv");
    let mut second = sprague();
    second.current_dir(d).args(["table", "octal", "0.7", "--max", "100", "-q", "--out"]);
    second.arg("lk.csv").assert().code(2).stderr(contains("lk.csv is in use by another run"));
    sprague().current_dir(d).args(["table", "octal", "0.7", "--max", "100", "-q", "--out", "sub/../x.csv"]).assert().code(2).stderr(contains("is in use"));
    first.kill().unwrap();
    first.wait().unwrap();
}

#[test]
fn an_output_name_too_long_for_its_checkpoint_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let name = "n".repeat(240);
    sprague()
        .current_dir(dir.path())
        .args(["table", "octal", "0.6", "--max", "100", "-q", "--out", &name])
        .assert()
        .code(2)
        .stderr(contains("the name is 240 bytes long, too long for the files written beside it"))
        .stderr(contains("choose a shorter --out"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
    let fits = "n".repeat(200);
    sprague().current_dir(dir.path()).args(["table", "octal", "0.6", "--max", "100", "-q", "--out", &fits]).assert().success();
}

#[test]
fn a_dangling_or_looping_link_as_output_directory_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink("nowhere", d.join("dang")).unwrap();
    std::os::unix::fs::symlink("loop", d.join("loop")).unwrap();
    let verify = |out: &str| {
        let mut cmd = sprague();
        cmd.current_dir(d).args(["verify", "wall", "--max", "2x2", "-q", "--out", out]);
        cmd.assert().code(2)
    };
    verify("dang").stderr(contains("cannot create the output directory dang: dang is a dangling symbolic link (to nowhere, which does not exist)"));
    verify("loop/sub").stderr(contains("cannot create the output directory loop/sub: loop is a symbolic link that loops"));
}

/// `--out tdir/` where tdir is a regular file: the option and the path are named, and why.
#[test]
fn a_path_ending_in_a_slash_over_a_file_is_named_with_its_option() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tdir"), "a file").unwrap();
    let run = |args: &[&str]| sprague().current_dir(dir.path()).args(args).assert().code(2);
    run(&["table", "octal", "0.6", "--max", "100", "--out", "tdir/"])
        .stderr(contains("invalid value 'tdir/' for '--out <FILE>': tdir/ ends in /, so it names a directory, not a file"));
    run(&["verify", "wall", "--max", "2x2", "-q", "--out", "tdir/"])
        .stderr(contains("cannot create the output directory tdir/: tdir is a file, not a directory"));
    assert_eq!(std::fs::read_to_string(dir.path().join("tdir")).unwrap(), "a file");
}

/// A path that is not UTF-8 is refused naming its option (`merge`'s too), never a panic.
#[test]
fn a_path_that_is_not_utf8_is_refused_naming_its_option() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"out\xff");
    let mut verify = sprague();
    verify.current_dir(dir.path()).args(["verify", "wall", "--max", "2x2", "-q", "--out"]).arg(name);
    verify.assert().code(2).stderr(contains(r#"--out <DIR>: "out\xFF" is not UTF-8"#));
    let mut merge = sprague();
    merge.current_dir(dir.path()).args(["merge", "a", "--out"]).arg(name);
    merge.assert().code(2).stderr(contains(r#"--out <DIR>: "out\xFF" is not UTF-8"#));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
}

#[test]
fn a_file_size_limit_is_an_error_with_a_message_not_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let script = "ulimit -f 8 && exec \"$0\" verify wall --max 4x5 --out uf -q";
    let output = Command::new("sh").arg("-c").arg(script).arg(assert_cmd::cargo::cargo_bin("sprague")).current_dir(dir.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    let left: Vec<String> = std::fs::read_dir(dir.path().join("uf")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(left.iter().all(|name| !name.contains(".tmp.")), "temporary files removed: {left:?}");
}

#[test]
fn a_directory_where_check_expects_a_file_is_damage_and_the_check_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("results"), &root);
    std::fs::remove_file(root.join("nim/summary.csv")).unwrap();
    std::fs::create_dir(root.join("nim/summary.csv")).unwrap();
    sprague_at_root()
        .args(["check", "--budget", "0", "--results"])
        .arg(&root)
        .assert()
        .code(1)
        .stdout(contains("nim/summary.csv: a directory, not a file (a results directory of this kind needs it)"))
        .stdout(contains("(1 damaged)"));
}
