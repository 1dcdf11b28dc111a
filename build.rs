//! Names the commit a binary was built from, for `pawnpost --version` and
//! the start-up log line: `PAWNPOST_COMMIT`, or "unknown" outside a git
//! checkout (a source archive).

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .filter(|commit| !commit.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=PAWNPOST_COMMIT={commit}");
    // Again when the checkout moves to another commit (only paths that
    // exist: a missing one would rerun this on every build).
    for path in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
