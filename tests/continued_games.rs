//! A game begun elsewhere, continued here: `/challenge @opponent pgn:"…"`,
//! accepted by the opponent, goes on from the recorded position with the
//! recorded moves kept (repetitions and the PGN count them), never rated.

mod common;

use common::{Console, events_of, game_over};

#[test]
fn an_accepted_continuation_goes_on_from_the_recorded_moves() {
    let console = Console::new();
    let out = console.run(
        ":lang bob fr
         bob: /help
         alice: /challenge @bob pgn:\"1. e4 e5 2. Nf3 Nc6 3. Bb5\" color:white time:5d
         bob: /accept
         bob: /move a6
         alice: /move Ba4",
    );
    let text_to = |to: &str, words: &str| {
        out.iter()
            .any(|o| o["to"] == to && o["text"].as_str().is_some_and(|t| t.contains(words)))
    };
    // The challenge reaches bob in his French, saying where the game stands.
    assert!(
        text_to(
            "bob",
            "de continuer une partie commencée ailleurs, à partir du coup 3, les Noirs au trait"
        ),
        "{out:#?}"
    );
    // Black moves first here: the start is addressed to bob.
    assert!(
        text_to("bob", "La partie n° 1 reprend au coup 3"),
        "{out:#?}"
    );
    let plies: Vec<i64> = events_of(&out, "move_played")
        .iter()
        .map(|e| e["ply"].as_i64().unwrap())
        .collect();
    assert_eq!(plies, [6, 7]);
    let pgn = console.pgn(1);
    assert!(
        pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 *"),
        "{pgn}"
    );

    let conn = rusqlite::Connection::open(console.db()).expect("open");
    let (rated, plies): (bool, i64) = conn
        .query_row("SELECT rated, plies FROM games WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("the game");
    assert_eq!((rated, plies), (false, 7));
}

/// The recorded positions count for repetitions: a knight dance begun
/// elsewhere reaches the third occurrence here, and the claim is upheld.
#[test]
fn recorded_moves_count_for_a_repetition_claim() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob pgn:\"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6\" color:white
         bob: /accept
         alice: /move Ng1
         bob: /claim threefold Ng8",
    );
    assert_eq!(
        game_over(&out),
        Some(("1/2-1/2".into(), "threefold".into())),
        "{out:#?}"
    );
}

/// Each way a continuation is refused: privately, with nothing written.
#[test]
fn continuations_that_cannot_be_are_refused_and_change_nothing() {
    let cases = [
        (
            "/challenge @bob pgn:\"1. e4 e5\"",
            "Which side did you have",
        ),
        ("/challenge pgn:\"1. e4 e5\" color:white", "name them"),
        (
            "/challenge @bob pgn:\"1. e4 e5 2. Ke3\" color:white",
            "2. Ke3 is not a legal move",
        ),
        (
            "/challenge @bob pgn:\"1. e4 e5 2. Nf3 Qh3\" color:white",
            "2... Qh3 is not a legal move",
        ),
        (
            "/challenge @bob pgn:\"1. f3 e5 2. g4 Qh4#\" color:white",
            "is over (0-1)",
        ),
        (
            "/challenge @bob pgn:\"1. e4 e5 1/2-1/2\" color:white",
            "is over (1/2-1/2)",
        ),
        (
            "/challenge @bob pgn:\"1. e4\" color:white rated:yes",
            "never rated",
        ),
        (
            "/challenge @bob pgn:\"1. e4\" fen:\"8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1\"",
            "not both",
        ),
        ("/challenge @bob pgn:\"hello\" color:white", "holds no game"),
    ];
    for (command, expected) in cases {
        let console = Console::new();
        let out = console.run(&format!("alice: {command}\nbob: /accept"));
        let refusal = &out[0];
        assert_eq!(refusal["ephemeral"], true, "{command}: {out:#?}");
        assert!(
            refusal["text"].as_str().unwrap().contains(expected),
            "{command}: {out:#?}"
        );
        let conn = rusqlite::Connection::open(console.db()).expect("open");
        let count = |table: &str| -> i64 {
            conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .expect("count")
        };
        assert_eq!((count("challenges"), count("games")), (0, 0), "{command}");
    }
}

/// The record's names say who had which side when they are the players'.
#[test]
fn the_record_s_names_choose_the_colours() {
    let console = Console::new();
    let out = console.run(
        "bob: /challenge @alice pgn:\"[White \\\"alice\\\"] 1. d4 d5\"
         alice: /accept",
    );
    assert!(
        out.iter().any(|o| o["text"]
            .as_str()
            .is_some_and(|t| t.contains("alice (White) against bob (Black)"))),
        "{out:#?}"
    );
}
