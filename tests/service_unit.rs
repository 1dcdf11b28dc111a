//! `contrib/pawnpost.service` is a unit systemd accepts, and a hardened one:
//! `systemd-analyze verify` finds nothing to say (with `ExecStart` pointed at
//! the binary under test, since verify checks that it exists), and
//! `systemd-analyze security` rates its exposure at most 2.0 ("OK").
//! Skipped, with a note `cargo test` shows, where systemd-analyze is missing.

use std::io::Write;
use std::process::Command;

fn systemd_analyze() -> Option<Command> {
    let found = Command::new("systemd-analyze").arg("--version").output();
    if found.is_ok_and(|o| o.status.success()) {
        return Some(Command::new("systemd-analyze"));
    }
    let _ = writeln!(
        std::io::stderr(),
        "note: systemd-analyze is not installed: the service unit is not checked"
    );
    None
}

/// The unit as installed, but starting the binary under test.
fn unit_under_test(dir: &std::path::Path) -> std::path::PathBuf {
    let unit = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("contrib/pawnpost.service"),
    )
    .expect("the unit");
    assert!(unit.contains("ExecStart=/usr/local/bin/pawnpost "));
    let path = dir.join("pawnpost.service");
    std::fs::write(
        &path,
        unit.replace("/usr/local/bin/pawnpost", env!("CARGO_BIN_EXE_pawnpost")),
    )
    .expect("write");
    path
}

#[test]
fn the_service_unit_verifies_cleanly() {
    let Some(mut analyze) = systemd_analyze() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let output = analyze
        .arg("verify")
        .arg(unit_under_test(dir.path()))
        .output()
        .expect("systemd-analyze verify");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.trim().is_empty(), "verify has remarks: {said}");
}

#[test]
fn the_service_unit_is_hardened() {
    let Some(mut analyze) = systemd_analyze() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let output = analyze
        .args(["security", "--offline=yes", "--threshold=20"])
        .arg(unit_under_test(dir.path()))
        .output()
        .expect("systemd-analyze security");
    assert!(
        output.status.success(),
        "exposure above 2.0: {}",
        String::from_utf8_lossy(&output.stdout)
    );
}
