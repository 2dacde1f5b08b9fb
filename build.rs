//! Records the git commit being built (for run manifests), when the source is a git checkout.
use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    if let Some(commit) = git(&["rev-parse", "HEAD"]) {
        println!("cargo:rustc-env=SPRAGUE_GIT_COMMIT={commit}");
    }
    // --git-path resolves refs in the common git dir, so worktrees are watched correctly. Only
    // files that exist are watched: cargo reruns this script on every build for a missing one
    // (a fresh clone has no packed-refs), and a ref packed later removes its loose file, which
    // cargo sees as a change.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]).filter(|p| std::path::Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
