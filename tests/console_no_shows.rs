//! RULES.md's no-show through the real binary: in a game of a competition
//! (tournament, ladder, team match) a player whose first move never comes
//! before their deadline loses by forfeit (+/-), which the pairings,
//! crosstables and tie-breaks count as a forfeit and no rating follows;
//! outside competitions the game is aborted, as on lichess. (The ladder's
//! case is in tests/console_ladder.rs.)

mod common;

use common::{Console, START};
use serde_json::Value;

/// Runs `script` on a simulated clock from [`START`].
fn run(script: &str) -> Vec<Value> {
    let console = Console::new();
    let path = console.script(script);
    let output = console
        .command()
        .args(["console", "--json", "--now", START, "--script"])
        .arg(&path)
        .output()
        .expect("run pawnpost");
    assert!(output.status.success(), "{output:?}");
    common::parse_lines(&output.stdout)
}

fn texts(out: &[Value]) -> Vec<&str> {
    out.iter().filter_map(|r| r["text"].as_str()).collect()
}

/// The last reply whose text starts with `start`.
fn last<'a>(out: &'a [Value], start: &str) -> &'a str {
    let all = texts(out);
    let found = all.iter().rev().find(|t| t.starts_with(start));
    found.unwrap_or_else(|| panic!("no {start:?} in {all:#?}"))
}

/// The crosstable line of `player` (`2 | dave | … `), as cells.
fn line_of<'a>(table: &'a str, player: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|l| l.split(" | ").nth(1) == Some(player));
    line.unwrap_or_else(|| panic!("{player} in {table}"))
        .split(" | ")
        .collect()
}

/// Swiss, four players, round 1: alice beats carol over the board; dave
/// plays e4 and bob never answers: dave wins by forfeit, no rating moves.
#[test]
fn a_swiss_no_show_is_a_forfeit_win_in_pairings_crosstable_and_ratings() {
    let out = run("alice: /tournament create swiss rounds:2
        alice: /tournament join
        bob: /tournament join
        carol: /tournament join
        dave: /tournament join
        alice: /tournament start
        alice: /move e4 game:1
        carol: /resign game:1
        dave: /move e4 game:2
        :advance 4d
        alice: /tournament pairings round 1
        alice: /tournament standings
        alice: /rating @dave
        alice: /rating @bob");
    let all = texts(&out);
    assert!(
        all.iter()
            .any(|t| t
                .contains("bob never made a first move: dave wins by forfeit (+/-, not rated).")),
        "{all:#?}"
    );
    let pairings = last(&out, "Tournament #1: pairings");
    assert!(pairings.contains("dave – bob (game #2) +/-"), "{pairings}");
    assert!(
        pairings.contains("alice – carol (game #1) 1-0"),
        "{pairings}"
    );
    let table = last(&out, "Tournament #1: crosstable after round 1");
    // Round 1's cells: the opponent's rank, their colour, + or -.
    let (dave, bob) = (line_of(table, "dave"), line_of(table, "bob"));
    assert!(dave[2].ends_with("w+") && bob[2].ends_with("b-"), "{table}");
    assert_eq!((dave[4], bob[4]), ("1", "0"), "points: {table}");
    // Neither forfeit moved a rating: both are still unrated.
    for player in ["dave", "bob"] {
        let rating = last(&out, &format!("{player}: rating"));
        assert!(rating.contains("0 rated games"), "{rating}");
    }
}

/// Round robin of three: bob never answers alice's first move.
#[test]
fn a_round_robin_no_show_scores_plus_minus() {
    let out = run("alice: /tournament create round_robin
        alice: /tournament join
        bob: /tournament join
        carol: /tournament join
        alice: /tournament start
        alice: /tournament pairings");
    let pairings = last(&out, "Tournament #1: pairings");
    // Find the game where alice has White against bob, or bob against her.
    let game_line = pairings
        .lines()
        .find(|l| l.contains("alice") && l.contains("bob"))
        .expect("alice and bob meet");
    let game: String = game_line
        .split("(game #")
        .nth(1)
        .expect("a game")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let (first, second) = match game_line.find("alice") < game_line.find("bob") {
        true => ("alice", "bob"),
        false => ("bob", "alice"),
    };
    let out = run(&format!(
        "alice: /tournament create round_robin
        alice: /tournament join
        bob: /tournament join
        carol: /tournament join
        alice: /tournament start
        {first}: /move e4 game:{game}
        :advance 4d
        alice: /tournament pairings
        alice: /tournament standings"
    ));
    let pairings = last(&out, "Tournament #1: pairings");
    let decided = pairings
        .lines()
        .find(|l| l.contains(&format!("game #{game})")));
    assert!(decided.is_some_and(|l| l.ends_with("+/-")), "{pairings}");
    let table = last(&out, "Tournament #1: crosstable");
    let winner = line_of(table, first);
    let loser = line_of(table, second);
    assert!(winner.contains(&"+") && loser.contains(&"-"), "{table}");
}

/// A team match board: each player's first move never comes in the game
/// where they have White; each game is a forfeit the match score counts.
#[test]
fn a_team_match_no_show_is_scored_for_the_other_team() {
    let out = run("alice: /team create Rooks
        bella: /team create Knights
        alice: /match create team:Rooks vs:Knights boards:1
        bella: /match accept
        alice: /match join
        bella: /match join
        alice: /match start
        bella: /move e4 game:2
        :advance 4d");
    let all = texts(&out);
    assert!(
        all.iter().any(|t| t
            .contains("alice never made a first move: bella wins by forfeit (+/-, not rated).")),
        "{all:#?}"
    );
    let forfeits = all.iter().filter(|t| t.contains("wins by forfeit")).count();
    assert_eq!(forfeits, 2, "one for each game: {all:#?}");
    assert!(
        all.iter().any(|t| t.contains("Rooks 0 – 2 Knights")),
        "{all:#?}"
    );
}

/// Outside competitions a game whose first move never comes is aborted.
#[test]
fn a_casual_no_show_is_aborted() {
    let out = run("alice: /challenge @bob color:white
        bob: /accept
        :advance 4d
        alice: /standings");
    let all = texts(&out);
    assert!(
        all.iter().any(|t| t.contains("Game aborted: no result.")),
        "{all:#?}"
    );
    assert!(!all.iter().any(|t| t.contains("by forfeit")), "{all:#?}");
}

/// The Swiss crosstable just after round 2 is paired, in English and in
/// French: ranked by round 1 only (bob's round-2 bye waits for its round),
/// one cell a round (opponent's rank, colour, result).
#[test]
fn a_swiss_crosstable_has_a_round_grid_and_counts_finished_rounds() {
    let out = run("alice: /tournament create swiss rounds:3
        alice: /tournament join
        bob: /tournament join
        carol: /tournament join
        dave: /tournament join
        eve: /tournament join
        alice: /tournament start
        carol: /resign game:1
        bob: /resign game:2
        alice: /tournament standings
        :lang alice fr
        alice: /tournament standings");
    let english = last(&out, "Tournament #1: crosstable after round 1");
    assert!(english.contains("# | Player | R1 | R2 | Pts"), "{english}");
    assert_eq!(
        line_of(english, "bob")[..5],
        ["4", "bob", "3b0", "bye …", "0"],
        "{english}"
    );
    assert_eq!(
        line_of(english, "eve")[..5],
        ["1", "eve", "bye 1", "2w…", "1"],
        "{english}"
    );
    let french = last(&out, "Tournoi #1 : grille américaine après la ronde 1");
    assert!(french.contains("# | Joueur | R1 | R2 | Pts"), "{french}");
    assert_eq!(
        line_of(french, "alice")[..4],
        ["2", "alice", "5b1", "1n…"],
        "{french}"
    );
}
