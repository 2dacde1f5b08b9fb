//! Commands as people type them, from the directory they are in: `python3 sol.py`, `./a.out`,
//! `java Main` and shell pipelines work although each run happens in a private directory; a
//! command that never starts its program is a usage error (exit 2) with the shell's or the
//! runtime's message, not the program's failure.

mod common;
use common::sprague;

use predicates::prelude::*;
use std::path::Path;

/// A right Nim solution in Python (koosaga wins iff the XOR of the piles is not zero).
const NIM_PY: &str = "import sys\nw = sys.stdin.read().split()\nx = 0\nfor p in w[1:1 + int(w[0])]:\n    x ^= int(p)\nprint('koosaga' if x else 'cubelover')\n";

const NIM_JAVA: &str = "import java.util.*;\npublic class Main {\n  public static void main(String[] a) {\n    Scanner s = new Scanner(System.in);\n    int n = s.nextInt(); long x = 0;\n    for (int i = 0; i < n; i++) x ^= s.nextLong();\n    System.out.println(x != 0 ? \"koosaga\" : \"cubelover\");\n  }\n}\n";

/// `sprague stress nim --cmd CMD` run from `dir` on every position up to 3 stones.
fn stress_in(dir: &Path, cmd: &str) -> assert_cmd::assert::Assert {
    sprague()
        .current_dir(dir)
        .args(["stress", "nim", "--cmd", cmd, "--generator", "exhaustive", "--max", "3", "--budget", "20", "--threads", "2", "-q", "--out", "out"])
        .assert()
}

fn write_script(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn has(program: &str) -> bool {
    std::process::Command::new(program).arg("-version").output().is_ok()
}

#[test]
fn python_and_relative_programs_run_from_the_users_directory() {
    if !has("python3") {
        common::skip("no python3 here: relative Python and script commands are not tested");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("sol.py"), NIM_PY).unwrap();
    write_script(&tmp.path().join("a.out"), "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/sol.py\"\n");
    for cmd in ["python3 sol.py", "./a.out", "python3 sol.py | cat", "./a.out 2>/dev/null"] {
        stress_in(tmp.path(), cmd).success().stdout(predicate::str::contains("every input judged").and(predicate::str::contains("no failure")));
    }
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 3, "the programs wrote nothing into the user's directory: {left:?}");
}

#[test]
fn java_main_finds_its_class_in_the_users_directory() {
    if !has("javac") || !has("java") {
        common::skip("no javac or java here: `java Main` is not tested");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("Main.java"), NIM_JAVA).unwrap();
    let compiled = std::process::Command::new("javac").arg("Main.java").current_dir(tmp.path()).status().unwrap();
    assert!(compiled.success());
    stress_in(tmp.path(), "java Main").success().stdout(predicate::str::contains("no failure"));
    stress_in(tmp.path(), "java NoSuchMain")
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("did not start").and(predicate::str::contains("Could not find or load main class NoSuchMain")));
}

#[test]
fn a_command_the_shell_cannot_start_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    stress_in(tmp.path(), "no-such-program-here | cat").code(2).stderr(predicate::str::contains("no-such-program-here").and(predicate::str::contains("not found")));
    stress_in(tmp.path(), "cat < no-such-input-file").code(2).stderr(predicate::str::contains("sh:"));
    if has("python3") {
        stress_in(tmp.path(), "python3 no_such_sol.py").code(2).stderr(predicate::str::contains("can't open file"));
    } else {
        common::skip("no python3 here: a Python script that is not there is not tested");
    }
}

#[test]
fn the_end_of_a_long_stderr_is_kept_and_each_generator_counted() {
    if !has("python3") {
        common::skip("no python3 here: the crashing Python program is not tested");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let crash = "import sys\nsys.stderr.write('noise ' * 400000 + '\\n')\nraise ValueError('pile too large')\n";
    std::fs::write(tmp.path().join("crash.py"), crash).unwrap();
    let out = stress_in(tmp.path(), "python3 crash.py").code(1);
    let summary = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(summary.contains("non-zero-exit") && summary.contains("ValueError: pile too large"), "{summary}");
    assert!(summary.lines().nth(1).is_some_and(|l| l.starts_with("  exhaustive ") && l.contains("runs (largest 1 pile")), "{summary}");
    let err = std::fs::read_to_string(tmp.path().join("out/failures/001.err")).unwrap();
    assert!(err.starts_with("[sprague: the first ") && err.trim_end().ends_with("ValueError: pile too large"), "{}", &err[..200]);
    assert!(err.len() <= (1 << 20) + 200, "bounded: {} bytes", err.len());
    let manifest = sprague::output::manifest::Manifest::read(&tmp.path().join("out/manifest.json")).unwrap();
    assert_eq!(manifest.parameters["generator_runs"]["exhaustive"]["runs"], manifest.parameters["runs"], "{:?}", manifest.parameters);
    assert!(manifest.files.contains_key("failures/001.err"));
}
