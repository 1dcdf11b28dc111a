//! Tournaments through the real binary: a four-player round robin played
//! to the end with its final crosstable, a short Swiss with a bye, a
//! withdrawal, and the crosstable PNG.

mod common;

use common::{Console, START, parse_lines};
use serde_json::Value;

fn texts(out: &[Value]) -> Vec<String> {
    out.iter()
        .map(|r| r["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Runs `script` with `--files`; returns the replies and the files' directory.
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

const ROUND_ROBIN: &str = "alice: /tournament create round_robin name:\"Club\" unrated
    alice: /tournament join
    bob: /tournament join
    carol: /tournament join
    dave: /tournament join
    bob: /tournament start
    alice: /tournament start
    alice: /move e4 game:1
    dave: /resign game:1
    bob: /move e4 game:2
    carol: /move e5 offer_draw game:2
    bob: /draw accept game:2
    dave: /move e4 game:3
    carol: /move e5 game:3
    dave: /resign game:3
    alice: /move d4 game:4
    bob: /move d5 offer_draw game:4
    alice: /draw accept game:4
    bob: /move e4 game:5
    dave: /resign game:5
    carol: /move e4 game:6
    alice: /move e5 game:6
    carol: /resign game:6
    dave: /tournament standings
    dave: /tournament pairings";

#[test]
fn a_round_robin_of_four_is_played_to_the_end() {
    let console = Console::new();
    let (out, files) = run_with_files(&console, ROUND_ROBIN);
    let all = texts(&out);
    assert!(
        all.iter()
            .any(|t| t.starts_with("alice created tournament #1 « Club »: round robin")),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|t| t == "Only the organiser or a moderator may start tournament #1 « Club »."),
        "bob may not start it"
    );
    assert!(
        all.iter()
            .any(|t| t.contains("has started with 4 players. Seeds: alice, bob, carol, dave."))
    );
    // Berger's table for four: 1-4 2-3 / 4-3 1-2 / 2-4 3-1, all at once.
    // One message per round lists its games.
    let rounds: Vec<&String> = all
        .iter()
        .filter(|t| t.starts_with("Tournament #1, round"))
        .collect();
    assert_eq!(rounds.len(), 3, "{rounds:#?}");
    let games: Vec<&str> = rounds.iter().flat_map(|t| t.lines()).collect();
    assert_eq!(
        games,
        [
            "Tournament #1, round 1: game #1, alice (White) – dave (Black).",
            "Tournament #1, round 1: game #2, bob (White) – carol (Black).",
            "Tournament #1, round 2: game #3, dave (White) – carol (Black).",
            "Tournament #1, round 2: game #4, alice (White) – bob (Black).",
            "Tournament #1, round 3: game #5, bob (White) – dave (Black).",
            "Tournament #1, round 3: game #6, carol (White) – alice (Black).",
        ]
    );
    // The last result ends the tournament with the crosstable: points, then
    // a round robin's tie-breaks, direct encounter (empty: nobody is tied),
    // Sonneborn-Berger computed by hand (alice 2.5: ½·2 + 1·1.5; bob 2:
    // ½·1.5 + ½·2.5; carol 1.5: ½·2) and wins.
    let end = all
        .iter()
        .find(|t| t.contains("is over. Winner: alice!"))
        .expect("the tournament ends");
    let expected = [
        "# | Player | 1 | 2 | 3 | 4 | Pts | DE | SB | Wins",
        "1 | alice | x | ½ | 1 | 1 | 2½ |  | 2½ | 2",
        "2 | bob | ½ | x | ½ | 1 | 2 |  | 2 | 1",
        "3 | carol | 0 | ½ | x | 1 | 1½ |  | 1 | 1",
        "4 | dave | 0 | 0 | 0 | x | 0 |  | 0 | 0",
    ];
    for line in expected {
        assert!(end.lines().any(|l| l == line), "{line} in\n{end}");
    }
    // The same table on demand, with its PNG.
    let standings = out
        .iter()
        .rev()
        .find(|r| {
            r["text"]
                .as_str()
                .unwrap_or_default()
                .contains("crosstable after")
        })
        .expect("standings");
    let text = standings["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("1 | alice | x | ½ | 1 | 1 | 2½ |  | 2½ | 2"),
        "{text}"
    );
    assert_eq!(standings["attachments"][0]["filename"], "tournament-1.png");
    let png = std::fs::read_dir(files.path())
        .expect("files")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with("-tournament-1.png"))
        .max()
        .expect("the PNG was written");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).expect("open"),
    ));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert!(
        info.width > 300 && info.height > 100,
        "{}x{}",
        info.width,
        info.height
    );

    let pairings = all.last().expect("pairings");
    assert!(pairings.contains("Round 3"), "{pairings}");
    assert!(
        pairings.contains("2. bob – carol (game #2) ½-½"),
        "{pairings}"
    );
}

#[test]
fn a_swiss_starts_when_entry_closes_pairs_byes_and_ends_after_a_withdrawal() {
    let console = Console::new();
    let out = console.run(
        "alice: /tournament create swiss entry 2 bye:0.5 tc 5d
         alice: /tournament join
         bob: /tournament join
         carol: /tournament join
         carol: /tournament withdraw
         :advance 2d
         alice: /tournament join
         alice: /move e4 game:1
         bob: /resign game:1
         carol: /tournament withdraw
         carol: /tournament withdraw
         dave: /tournament pairings round 2
         dave: /tournament standings",
    );
    let all = texts(&out);
    let position = |needle: &str| {
        all.iter()
            .position(|t| t.contains(needle))
            .unwrap_or_else(|| panic!("{needle} in {all:#?}"))
    };
    // Entry closes after two days; the scheduler starts it.
    position("Tournament #1 has not started: use /tournament leave.");
    let started = position("Tournament #1 has started with 3 players.");
    assert!(started > position("carol joined"));
    position("Entry to tournament #1 is closed.");
    // Round 1: the lowest seed has the bye (½ point here).
    let first = &all[started];
    assert!(first.contains("Round 1: carol has a bye."), "{first}");
    let games = position("Tournament #1, round 1: game #1, alice (White) – bob (Black).");
    // The same pairings as events, for tools that check them.
    assert_eq!(
        out[started]["events"],
        serde_json::json!([{"type": "bye", "tournament": 1, "round": 1, "player": "carol", "points": 0.5}])
    );
    assert_eq!(
        out[games]["events"],
        serde_json::json!([{"type": "pairing", "tournament": 1, "round": 1, "game": 1, "white": "alice", "black": "bob"}])
    );
    // Bob's resignation ends round 1: round 2 is paired in the same commit,
    // with the bye to bob (carol already had one) and colours alternating.
    let round_two = position("Tournament #1: round 2 is paired.");
    assert!(
        all[round_two].contains("Round 2: bob has a bye."),
        "{}",
        all[round_two]
    );
    position("Tournament #1, round 2: game #2, carol (White) – alice (Black).");
    // Carol withdraws: her running game is a forfeit win for alice, and
    // that was the last game of the last round.
    let withdrawn =
        position("carol withdrew from tournament #1: their remaining games are lost by forfeit");
    assert!(
        all[withdrawn].contains("is over. Winner: alice!"),
        "{}",
        all[withdrawn]
    );
    position("Tournament #1 is over.");
    position("1. carol – alice (game #2) -/+");
    let table = all.last().expect("standings");
    // The grid reads: rank, name, each round (opponent's rank, colour, result), points.
    assert!(table.contains("1 | alice | 2w1 | 3b+ | 2 |"), "{table}");
    assert!(table.contains("2 | bob | 1b0 | bye ½ | ½ |"), "{table}");
    assert!(
        table.contains("3 | carol (-) | bye ½ | 1w- | ½ |"),
        "{table}"
    );
}
