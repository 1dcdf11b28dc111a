//! `/openings`: the server's finished games counted by opening (named by
//! position, so a transposed order counts with its opening), with results.

mod common;

use common::Console;

#[test]
fn openings_are_counted_by_position_with_their_results() {
    let console = Console::new();
    let replies = console.run(
        "alice: /openings
        alice: /challenge @bob color:white
        bob: /accept
        alice: /move e4
        bob: /move e5
        alice: /move Nf3
        bob: /move Nc6
        alice: /move Bb5
        bob: /resign
        bob: /challenge @alice color:white
        alice: /accept
        bob: /move Nf3
        alice: /move Nc6
        bob: /move e4
        alice: /move e5
        bob: /move Bb5
        alice: /resign
        carol: /challenge @dave color:white
        dave: /accept
        carol: /move e4
        dave: /move c5
        carol: /openings",
    );
    let first = replies.first().unwrap()["text"].as_str().unwrap();
    assert!(first.starts_with("No finished game here"), "{first}");
    let table = replies.last().unwrap()["text"].as_str().unwrap();
    // The second game reached the Ruy Lopez from 1. Nf3: one opening, two games;
    // the running Sicilian is not counted.
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines,
        [
            "Openings of 2 finished games here (White's wins, draws, Black's wins; White's score):",
            "C60 Ruy Lopez: 2 games, +2 =0 −0 (100%)",
        ],
        "{table}"
    );
}
