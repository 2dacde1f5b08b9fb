//! Helpers shared by the integration tests: the binary, its runs, files and the tools they need.
#![allow(dead_code)]

pub mod altered;

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const CSVS: [&str; 3] = ["summary.csv", "distribution.csv", "mismatches.csv"];

/// The `sprague` binary of this build.
pub fn sprague() -> Command {
    Command::cargo_bin("sprague").unwrap()
}

/// `sprague` run from the repository root (for commands that read the committed results/).
pub fn sprague_at_root() -> Command {
    let mut cmd = sprague();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// A test program built by cargo from examples/ (cargo test builds the examples).
pub fn example_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join("examples").join(name);
    assert!(path.exists(), "{} missing: examples are built by `cargo test`", path.display());
    path
}

/// The game program examples/games/FILE.
pub fn example_game(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games").join(file)
}

/// `verify wall ARGS -q --out DIR`, expecting exit code `code`.
pub fn verify(dir: &Path, args: &[&str], code: i32) -> assert_cmd::assert::Assert {
    sprague().args(["verify", "wall", "-q", "--out"]).arg(dir).args(args).assert().code(code)
}

pub fn merge(dirs: &[PathBuf], out: &Path, code: i32) -> assert_cmd::assert::Assert {
    sprague().arg("merge").args(dirs).arg("--out").arg(out).assert().code(code)
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn assert_same_csvs(a: &Path, b: &Path) {
    for name in CSVS {
        assert_eq!(read(&a.join(name)), read(&b.join(name)), "{name} differs between {} and {}", a.display(), b.display());
    }
}

/// Starts `verify wall` into `out` slowly and returns once it holds the directory's lock.
pub fn start_slow_run(out: &Path, args: &[&str]) -> std::process::Child {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sprague"))
        .args(["verify", "wall", "-q", "--block-patterns", "64", "--block-delay-ms", "20", "--out"])
        .arg(out)
        .args(args)
        .spawn()
        .unwrap();
    let started = Instant::now();
    let holder = format!("pid {}", child.id());
    while !std::fs::read_to_string(out.join(".sprague.lock")).is_ok_and(|text| text.contains(&holder)) {
        assert!(started.elapsed() < Duration::from_secs(60), "the first run never locked {}", out.display());
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// A test goes on without a tool it needs: it says so on stderr, or, under
/// `SPRAGUE_REQUIRE_TOOLS=1` (as `.ci/run` sets), fails, so that CI never counts a skip as a pass.
pub fn skip(why: &str) {
    assert!(std::env::var_os("SPRAGUE_REQUIRE_TOOLS").is_none(), "SPRAGUE_REQUIRE_TOOLS is set, but {why}");
    eprintln!("SKIPPED: {why}");
}

/// examples/games/subtraction.cpp compiled into `dir` (the binary's path), or `None` with a
/// note when no C++ compiler (c++, g++, clang++) is on PATH.
pub fn compile_subtraction_cpp(dir: &Path, test: &str) -> Option<PathBuf> {
    let Some(compiler) = ["c++", "g++", "clang++"].into_iter().find(|c| std::process::Command::new(c).arg("--version").output().is_ok()) else {
        skip(&format!("{test}: no C++ compiler (c++, g++, clang++) on PATH"));
        return None;
    };
    let binary = dir.join("subtraction");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games/subtraction.cpp");
    let built = std::process::Command::new(compiler).arg("-O2").arg("-o").arg(&binary).arg(source).status().unwrap();
    assert!(built.success(), "{compiler} could not compile examples/games/subtraction.cpp");
    Some(binary)
}

/// Flips bit `bit` of the file at `path`.
pub fn flip_bit(path: &Path, bit: usize) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[bit / 8] ^= 1 << (bit % 8);
    std::fs::write(path, bytes).unwrap();
}

/// Copies the tree `from` into `to` (e.g. the committed results into a scratch directory).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Replaces `from` by `to` in `dir/file` and records the file's new digest in the manifest.
pub fn edit_and_reseal(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{text}");
    std::fs::write(&path, text.replace(from, to)).unwrap();
    let manifest_path = dir.join("manifest.json");
    let mut manifest = sprague::output::manifest::Manifest::read(&manifest_path).unwrap();
    manifest.files.insert(file.into(), sprague::output::atomic::sha256_file(&path).unwrap());
    manifest.write(&manifest_path).unwrap();
}

/// Nests `chain` (a directory made here, holding a summary.csv) under 25 levels of 200-byte
/// names, deeper than the system's longest path (PATH_MAX), built from the bottom up one level
/// at a time so that no call names a path too long; returns the name of a level.
pub fn too_deep_chain(chain: &Path) -> String {
    let wrap = chain.with_extension("wrap");
    let name = "d".repeat(200);
    std::fs::create_dir(chain).unwrap();
    std::fs::write(chain.join("summary.csv"), "game,rule\n").unwrap();
    for _ in 0..25 {
        std::fs::create_dir(&wrap).unwrap();
        std::fs::rename(chain, wrap.join(&name)).unwrap();
        std::fs::rename(&wrap, chain).unwrap();
    }
    name
}
