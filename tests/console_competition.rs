//! Competitions through the real binary: ratings after a rated game, the
//! standings table and the rating chart as PNG files that decode.

mod common;

use common::{Console, START, parse_lines};
use serde_json::Value;

/// Runs `script` with `--files` into a fresh directory; returns the replies and the directory.
fn run_with_files(console: &Console, script: &str) -> (Vec<Value>, tempfile::TempDir) {
    let files = tempfile::tempdir().expect("files dir");
    let path = console.script(script);
    let output = console
        .command()
        .args(["console", "--json", "--now", START, "--files"])
        .arg(files.path())
        .arg("--script")
        .arg(&path)
        .output()
        .expect("run pawnpost");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (parse_lines(&output.stdout), files)
}

/// The last file the console wrote for attachment `name` (it prefixes the
/// input line and the reply: `line-0007-1-standings.png`).
fn written(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let suffix = format!("-{name}");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("files dir")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| path.to_string_lossy().ends_with(&suffix))
        .collect();
    paths.sort();
    paths.pop().unwrap_or_else(|| panic!("no file for {name}"))
}

/// Width and height of a PNG file, decoded in full.
fn decode(path: &std::path::Path) -> (u32, u32) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    (info.width, info.height)
}

fn attachment_names(reply: &Value) -> Vec<String> {
    reply["attachments"]
        .as_array()
        .map(|files| {
            files
                .iter()
                .map(|f| f["filename"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_rated_game_moves_ratings_and_the_pictures_decode() {
    let console = Console::new();
    let (out, files) = run_with_files(
        &console,
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move f3
         bob: /move e5
         alice: /move g4
         bob: /move Qh4#
         alice: /rating
         carol: /rating @bob
         carol: /record @bob @alice
         carol: /standings",
    );
    let mate = out
        .iter()
        .find(|r| r["text"].as_str().unwrap_or_default().contains("→"))
        .expect("the game's end reports the rating changes");
    let text = mate["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("alice 1500 →") && text.contains("bob 1500 →"),
        "{text}"
    );

    let alice = out
        .iter()
        .find(|r| {
            r["text"]
                .as_str()
                .unwrap_or_default()
                .starts_with("alice: rating")
        })
        .expect("alice's rating");
    let alice_text = alice["text"].as_str().unwrap_or_default();
    // One game from 1500/500: a big loss, still provisional.
    assert!(
        alice_text.contains('?') && alice_text.contains("1 rated game)"),
        "{alice_text}"
    );
    let names = attachment_names(alice);
    assert_eq!(names.len(), 1, "{alice}");
    assert_eq!(decode(&written(files.path(), &names[0])), (640, 360));

    let bob = out
        .iter()
        .find(|r| {
            r["text"]
                .as_str()
                .unwrap_or_default()
                .starts_with("bob: rating")
        })
        .expect("bob's rating");
    let bob_rating: i64 = bob["text"].as_str().unwrap_or_default()["bob: rating ".len()..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number");
    assert!(bob_rating > 1500, "the winner gains");

    assert!(
        out.iter()
            .any(|r| r["text"] == "bob against alice: 1 won, 0 drawn, 0 lost"),
        "bob's record"
    );

    let standings = out.last().expect("standings");
    assert_eq!(attachment_names(standings), ["standings.png"]);
    assert_eq!(standings["attachments"][0]["content_type"], "image/png");
    let (width, height) = decode(&written(files.path(), "standings.png"));
    assert!(width > 100 && height > 50, "{width}x{height}");
}

#[test]
fn unrated_and_aborted_games_leave_ratings_alone() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white rated:no
         bob: /accept
         alice: /move f3
         bob: /move e5
         alice: /move g4
         bob: /move Qh4#
         alice: /rating",
    );
    assert!(
        !out.iter()
            .any(|r| r["text"].as_str().unwrap_or_default().contains("→")),
        "no rating change after an unrated game"
    );
    let last = out.last().expect("rating");
    assert!(
        last["text"]
            .as_str()
            .unwrap_or_default()
            .contains("1500? (deviation 500, 0 rated games)"),
        "{last}"
    );
}

#[test]
fn an_idle_players_shown_deviation_grows_with_time() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move f3
         bob: /move e5
         alice: /move g4
         bob: /move Qh4#
         alice: /rating
         :advance 365d
         alice: /rating",
    );
    // "alice: rating 1338? (deviation 290, 1 rated game)" → 290.
    let deviations: Vec<u32> = out
        .iter()
        .filter_map(|r| r["text"].as_str())
        .filter(|t| t.starts_with("alice: rating"))
        .map(|t| {
            let after = t.split("deviation ").nth(1).expect("a deviation");
            after
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a number")
        })
        .collect();
    let [fresh, idle] = deviations[..] else {
        panic!("two ratings shown: {deviations:?}");
    };
    assert!(idle > fresh, "a year idle: {fresh} then {idle}");
}
