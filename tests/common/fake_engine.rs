//! Fake UCI engines for tests: a small `sh` script that speaks just enough
//! UCI (`uci`, `isready`, `position`, `quit`) and answers `go` with the
//! shell code it is given. It writes its process id to `engine.pid`, so a
//! test can see that the engine was killed and reaped.

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// An answer to `go` that an honest engine could give in every position
/// of [`HUNG_QUEEN`]: a rook's pawn moved one square (`$side` is `w` or `b`).
pub const HONEST: &str = r#"if [ "$side" = w ]; then m=a2a3; else m=a7a6; fi
        echo "info depth 1 score cp 20 pv $m"; echo "bestmove $m""#;

/// Moves that end a game with its six positions all open to the engine:
/// Black hangs the queen and resigns.
pub const HUNG_QUEEN: [(&str, &str); 8] = [
    ("alice", "/challenge @bob color:white"),
    ("bob", "/accept"),
    ("alice", "/move e4"),
    ("bob", "/move e5"),
    ("alice", "/move Nf3"),
    ("bob", "/move Qg5"),
    ("alice", "/move Nxg5"),
    ("bob", "/resign"),
];

/// Writes a fake engine answering `go` with `on_go` into `dir`.
pub fn fake_engine(dir: &Path, on_go: &str) -> PathBuf {
    let pid_file = dir.join("engine.pid");
    let script = format!(
        r#"#!/bin/sh
echo $$ > '{pid}'
side=w
while IFS= read -r line; do
    case "$line" in
    uci) echo "id name Fake"; echo uciok ;;
    isready) echo readyok ;;
    "position fen "*) case "$line" in *" b "*) side=b ;; *) side=w ;; esac ;;
    go*)
        {on_go}
        ;;
    quit) exit 0 ;;
    esac
done
"#,
        pid = pid_file.display(),
    );
    let path = dir.join("fake-engine.sh");
    std::fs::write(&path, script).expect("write the fake engine");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// The process id the last fake engine started in `dir` wrote.
pub fn engine_pid(dir: &Path) -> Option<u32> {
    std::fs::read_to_string(dir.join("engine.pid"))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Whether process `pid` is gone: not running, and not a zombie left unreaped.
pub fn is_gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}
