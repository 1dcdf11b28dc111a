//! Vote chess through the real binary: a team's members vote on its moves
//! (`/vote`), the most voted move is played at the team's deadline (the
//! console's `:advance` runs the scheduler) or as soon as every member has
//! voted, ties go to the move voted first, resignation takes more than
//! 60 % of the votes, and nobody but the voter sees a vote before its move.

mod common;

use common::{Console, events_of, game_over};
use serde_json::Value;

/// Team Rooks (alice, bob, carol) has White against dave, 3 days a move.
const ROOKS_VS_DAVE: &str = "alice: /team create Rooks
    bob: /team join Rooks
    carol: /team join rooks
    alice: /challenge team:Rooks @dave color:white time:3d
    dave: /accept";

/// The moves played, as (by, san).
fn played(replies: &[Value]) -> Vec<(String, String)> {
    events_of(replies, "move_played")
        .iter()
        .map(|e| {
            (
                e["by"].as_str().unwrap_or_default().to_owned(),
                e["san"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn by(side: &str, san: &str) -> (String, String) {
    (side.to_owned(), san.to_owned())
}

/// Each tally as its moves' (san, votes), and its resignations.
fn tallies(replies: &[Value]) -> Vec<(Vec<(String, u64)>, u64)> {
    events_of(replies, "vote_tally")
        .iter()
        .map(|e| {
            let moves = e["moves"]
                .as_array()
                .map(|moves| {
                    moves
                        .iter()
                        .map(|m| {
                            (
                                m["san"].as_str().unwrap_or_default().to_owned(),
                                m["votes"].as_u64().unwrap_or_default(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            (moves, e["resign"].as_u64().unwrap_or_default())
        })
        .collect()
}

fn moves(list: &[(&str, u64)]) -> Vec<(String, u64)> {
    list.iter()
        .map(|(san, n)| ((*san).to_owned(), *n))
        .collect()
}

fn text(reply: &Value) -> &str {
    reply["text"].as_str().unwrap_or_default()
}

#[test]
fn a_two_one_split_plays_the_majority_move_at_the_deadline() {
    // Three votes, 2–1; a fourth member is away, so only the deadline
    // ends the vote.
    let console = Console::new();
    let before = console.run(&format!(
        "{ROOKS_VS_DAVE}
        erin: /team join Rooks
        alice: /vote e4
        bob: /vote Nf3
        carol: /vote Nf3
        :advance 2d"
    ));
    assert!(played(&before).is_empty());
    // Another process, at the team's deadline.
    let at_deadline = console.run(":now 2026-01-04T12:00:00Z");
    assert_eq!(played(&at_deadline), [by("white", "Nf3")]);
    assert_eq!(
        tallies(&at_deadline),
        [(moves(&[("Nf3", 2), ("e4", 1)]), 0)]
    );
    let told = &at_deadline[0];
    assert_eq!(told["to"], "dave");
    assert!(
        text(told).starts_with("Votes of team Rooks: Nf3 2, e4 1.\nRooks played Nf3 in game #1."),
        "{told}"
    );
    let pgn = console.pgn(1);
    assert!(pgn.contains("1. Nf3 *"), "{pgn}");
    assert!(pgn.contains("[White \"Rooks\"]"), "{pgn}");
}

#[test]
fn a_three_member_team_split_two_one_moves_at_once_when_all_have_voted() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        alice: /vote d4
        bob: /vote Nf3
        carol: /vote d2d4"
    ));
    assert_eq!(played(&replies), [by("white", "d4")]);
    assert_eq!(tallies(&replies), [(moves(&[("d4", 2), ("Nf3", 1)]), 0)]);
    // Dave is told at once, and it is his move.
    let last = replies.last().unwrap();
    assert_eq!(last["to"], "dave");
    assert!(text(last).contains("Rooks played d4 in game #1."), "{last}");
    let answer = console.run("dave: /move d5");
    assert_eq!(played(&answer), [by("black", "d5")]);
}

#[test]
fn a_one_one_tie_plays_the_move_voted_first() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        bob: /vote c4
        alice: /vote e4
        :advance 3d"
    ));
    assert_eq!(played(&replies), [by("white", "c4")]);
    assert_eq!(tallies(&replies), [(moves(&[("c4", 1), ("e4", 1)]), 0)]);
    // The other order, and a changed vote counts as cast anew.
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        bob: /vote c4
        alice: /vote e4
        bob: /vote d4
        bob: /vote c4
        :advance 3d"
    ));
    assert_eq!(played(&replies), [by("white", "e4")]);
}

#[test]
fn a_team_where_everyone_has_voted_moves_at_once() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        alice: /vote e4
        bob: /vote e4
        carol: /vote e4
        dave: /move e5
        alice: /vote Nf3
        bob: /vote Nc3
        carol: /vote Nf3"
    ));
    assert_eq!(
        played(&replies),
        [by("white", "e4"), by("black", "e5"), by("white", "Nf3")]
    );
    // No :advance: the clock never moved, and nobody's flag fell.
    assert!(game_over(&replies).is_none());
}

#[test]
fn resignation_below_sixty_percent_does_nothing_and_above_it_resigns() {
    // One of two votes (50 %): the team plays its other vote's move.
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        alice: /vote resign
        bob: /vote e4
        :advance 3d"
    ));
    assert_eq!(played(&replies), [by("white", "e4")]);
    assert_eq!(tallies(&replies), [(moves(&[("e4", 1)]), 1)]);
    assert!(game_over(&replies).is_none());

    // Two of three (67 %): the team resigns, at once since all voted.
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        alice: /vote e4
        dave: /board 1
        bob: /vote resign
        carol: /vote abandon"
    ));
    assert!(played(&replies).is_empty());
    assert_eq!(tallies(&replies), [(moves(&[("e4", 1)]), 2)]);
    assert_eq!(
        game_over(&replies),
        Some(("0-1".to_owned(), "resignation".to_owned()))
    );
    let end = replies.last().unwrap();
    assert!(text(end).contains("Rooks resigns"), "{end}");
}

#[test]
fn votes_stay_secret_until_the_move() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        erin: /team join Rooks
        alice: /vote Nf3
        bob: /vote h4
        carol: /vote h4 offer_draw
        dave: /board 1
        dave: /moves 1
        dave: /vote Nf3 game:1
        erin: /board 1
        alice: /team list"
    ));
    assert!(played(&replies).is_empty());
    for reply in &replies {
        let to = reply["to"].as_str().unwrap_or_default();
        let own = reply["ephemeral"] == true && ["alice", "bob", "carol"].contains(&to);
        if own {
            continue;
        }
        let words = text(reply);
        assert!(
            !words.contains("Nf3") && !words.contains("h4"),
            "someone else saw a vote: {reply}"
        );
        assert!(events_of(std::slice::from_ref(reply), "vote_tally").is_empty());
    }
    // Each voter was told their own vote only.
    let told = |user: &str| -> Vec<&str> {
        replies
            .iter()
            .filter(|r| r["to"] == user && r["ephemeral"] == true)
            .map(text)
            .filter(|t| t.starts_with("Your vote"))
            .collect()
    };
    assert_eq!(
        told("alice"),
        [
            "Your vote in game #1: Nf3. Only you see it until the move is played. \
          Votes cast in team Rooks: 1 of 4."
        ]
    );
    assert!(told("carol")[0].contains("h4 with a draw offer"));
    assert!(!told("bob")[0].contains("Nf3"));
    // Once played, the tally is for all.
    let after = console.run(":advance 3d");
    assert_eq!(played(&after), [by("white", "h4")]);
    let tally = &after[0];
    assert_eq!(tally["ephemeral"], false);
    assert!(
        text(tally).starts_with("Votes of team Rooks: h4 2, Nf3 1, 1 with a draw offer."),
        "{tally}"
    );
}

#[test]
fn only_the_team_to_move_votes_and_never_its_opponent() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        dave: /vote e4 game:1
        erin: /vote e4 game:1
        erin: /vote e4
        dave: /team join Rooks
        dave: /vote e4 game:1
        alice: /vote e4
        alice: /vote e5
        dave: /move e4"
    ));
    let texts: Vec<&str> = replies.iter().map(text).collect();
    let n = texts.len();
    assert!(
        texts[n - 8].contains("You play against this team"),
        "{}",
        texts[n - 8]
    );
    assert!(
        texts[n - 7].contains("You are not in the team to move"),
        "{}",
        texts[n - 7]
    );
    assert!(
        texts[n - 6].starts_with("None of your teams"),
        "{}",
        texts[n - 6]
    );
    // Dave may join, but still plays against the team.
    assert!(
        texts[n - 5].contains("dave joined team Rooks"),
        "{}",
        texts[n - 5]
    );
    assert!(
        texts[n - 4].contains("You play against this team"),
        "{}",
        texts[n - 4]
    );
    assert!(
        texts[n - 3].starts_with("Your vote in game #1: e4."),
        "{}",
        texts[n - 3]
    );
    // A move that is not legal is refused as /move refuses it.
    assert!(texts[n - 2].contains("e5"), "{}", texts[n - 2]);
    assert!(!texts[n - 2].starts_with("Your vote"), "{}", texts[n - 2]);
    // Dave cannot move for the team.
    assert!(texts[n - 1].contains("not your turn"), "{}", texts[n - 1]);
    assert!(played(&replies).is_empty());
}

#[test]
fn an_ambiguous_vote_is_refused_with_its_readings() {
    // A one-member team moves as soon as it votes.
    let console = Console::new();
    let replies = console.run(
        "alice: /team create Rooks
        alice: /challenge team:Rooks @dave color:white time:3d
        dave: /accept
        alice: /vote b3
        dave: /move c5
        alice: /vote e4
        dave: /move c4
        alice: /vote Bxc4",
    );
    let last = replies.last().unwrap();
    assert_eq!(last["to"], "alice");
    assert_eq!(last["ephemeral"], true);
    assert!(
        text(last).contains("Bf1xc4") && text(last).contains("b3xc4"),
        "{last}"
    );
    assert_eq!(played(&replies).len(), 4);
}

#[test]
fn votes_cannot_change_when_the_game_says_so() {
    let console = Console::new();
    let replies = console.run(
        "alice: /team create Rooks
        bob: /team join Rooks
        alice: /challenge team:Rooks @dave color:white time:3d change_vote:no
        dave: /accept
        alice: /vote e4
        alice: /vote d4
        alice: /vote e4",
    );
    let texts: Vec<&str> = replies.iter().map(text).collect();
    let n = texts.len();
    assert!(
        texts[n - 2].contains("cannot be changed"),
        "{}",
        texts[n - 2]
    );
    assert!(
        texts[n - 1].contains("already voted e4"),
        "{}",
        texts[n - 1]
    );
    let after = console.run(":advance 3d");
    assert_eq!(played(&after), [by("white", "e4")]);
}

#[test]
fn a_vote_survives_a_restart() {
    let console = Console::new();
    let first = console.run(&format!(
        "{ROOKS_VS_DAVE}
        bob: /vote g3
        alice: /vote e4
        carol: /vote e4 offer_draw"
    ));
    assert!(played(&first).len() == 1, "all three voted: played at once");
    // A new process: the next move's votes, then the deadline in another.
    let second = console.run(
        "dave: /move e5 game:1
        alice: /vote Nf3",
    );
    assert_eq!(played(&second), [by("black", "e5")]);
    let third = console.run(":advance 3d");
    assert_eq!(played(&third), [by("white", "Nf3")]);
    let pgn = console.pgn(1);
    assert!(pgn.contains("1. e4 e5 2. Nf3 *"), "{pgn}");
}

#[test]
fn a_draw_is_accepted_by_a_majority_and_a_team_without_votes_loses_on_time() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        alice: /vote e4
        bob: /vote e4
        carol: /vote e4
        dave: /move e5 offer_draw
        alice: /vote accept
        bob: /vote accept
        carol: /vote Nf3"
    ));
    assert_eq!(
        game_over(&replies),
        Some(("1/2-1/2".to_owned(), "agreement".to_owned()))
    );
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        alice: /vote e4
        bob: /vote e4
        carol: /vote e4
        dave: /move e5
        :advance 3d"
    ));
    // No vote at all: the flag falls as anyone's.
    assert_eq!(
        game_over(&replies),
        Some(("0-1".to_owned(), "timeout".to_owned()))
    );
}

#[test]
fn teams_and_votes_in_french() {
    let console = Console::new();
    let replies = console.run(
        ":lang alice fr
        :lang bob fr
        :lang dave fr
        alice: /equipe creer Les Tours
        bob: /équipe rejoindre les tours
        alice: /equipe liste
        alice: /défi team:\"Les Tours\" @dave color:white time:3d
        dave: /accepter
        alice: /voter Cf3
        bob: /vote Cf3",
    );
    let texts: Vec<&str> = replies.iter().map(text).collect();
    assert!(
        texts[0].starts_with("alice a créé l’équipe Les Tours"),
        "{}",
        texts[0]
    );
    assert!(
        texts[1].contains("a rejoint l’équipe Les Tours"),
        "{}",
        texts[1]
    );
    assert!(
        texts[2].contains("Les Tours (2 membres) : alice, bob"),
        "{}",
        texts[2]
    );
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("Votre vote dans la partie n° 1 : Cf3.")),
        "{texts:?}"
    );
    let last = texts.last().unwrap();
    assert!(
        last.starts_with("Votes de l’équipe Les Tours : Cf3 2.\nLes Tours a joué Cf3"),
        "{last}"
    );
    assert_eq!(played(&replies), [by("white", "Nf3")]);
}

/// What the bot told `user`, each reply's text.
fn texts_to<'a>(replies: &'a [Value], user: &str) -> Vec<&'a str> {
    replies
        .iter()
        .filter(|r| r["to"] == user)
        .map(text)
        .collect()
}

/// A vote game is its members' game: `/board`, `/pgn` and `/games` show
/// it to them (they once got "You have no game running here").
#[test]
fn members_see_their_teams_game_in_english() {
    let console = Console::new();
    let out = console.run(&format!(
        "{ROOKS_VS_DAVE}
        bob: /board
        bob: /pgn
        carol: /games
        erin: /board"
    ));
    let bob = texts_to(&out, "bob");
    assert!(
        bob.iter()
            .any(|t| t.starts_with("Game #1: Rooks – dave, Rooks to move.")),
        "{bob:#?}"
    );
    assert!(
        bob.iter().any(|t| t.contains("[White \"Rooks\"]")),
        "{bob:#?}"
    );
    assert!(!bob.iter().any(|t| t.contains("no game")), "{bob:#?}");
    let carol = texts_to(&out, "carol").join("\n");
    assert!(
        carol.contains("Your games:\n#1 Rooks – dave: Rooks to move"),
        "{carol}"
    );
    // erin is in no team: nothing of hers here.
    let erin = texts_to(&out, "erin").join("\n");
    assert!(erin.contains("You have no game running here."), "{erin}");
}

#[test]
fn members_see_their_teams_game_in_french() {
    let console = Console::new();
    let out = console.run(
        "alice: /reglages langue francais
         alice: /equipe creer Tours
         bob: /equipe rejoindre Tours
         bob: /challenge team:Tours @dave color:black time:3d
         dave: /accept
         dave: /move e4
         alice: /echiquier
         alice: /pgn
         alice: /parties",
    );
    let alice = texts_to(&out, "alice");
    let board = out
        .iter()
        .find(|r| r["to"] == "alice" && text(r).starts_with("Partie n° 1 : dave – Tours"))
        .unwrap_or_else(|| panic!("{alice:#?}"));
    assert!(text(board).contains("Tours au trait"), "{board}");
    // Seen from the team's side.
    assert_eq!(board["board"]["orientation"], "black", "{board}");
    assert!(
        alice.iter().any(|t| t.contains("[Black \"Tours\"]")),
        "{alice:#?}"
    );
    let listed = alice.join("\n");
    assert!(
        listed.contains("Vos parties :\nn° 1 dave – Tours : Tours au trait"),
        "{listed}"
    );
}

/// The reminders before a team's flag falls go to each member, in their
/// language, through the outbox; not to the opponent, nor to a member who
/// turned notices off.
#[test]
fn reminders_of_a_vote_game_reach_every_member_in_their_language() {
    let console = Console::new();
    let out = console.run(&format!(
        "carol: /settings language fr
        {ROOKS_VS_DAVE}
        erin: /team join Rooks
        erin: /settings notify off
        :advance 2d"
    ));
    let mut reminded: Vec<(&str, &str)> = out
        .iter()
        .filter(|r| text(r).contains("game #1") || text(r).contains("partie n° 1"))
        .filter(|r| text(r).contains("Rooks"))
        .filter_map(|r| Some((r["to"].as_str()?, text(r))))
        .filter(|(_, t)| t.contains("/vote"))
        .collect();
    reminded.sort();
    let to: Vec<&str> = reminded.iter().map(|(to, _)| *to).collect();
    assert_eq!(to, ["alice", "bob", "carol"], "{reminded:#?}");
    assert!(
        reminded[0]
            .1
            .starts_with("alice, team Rooks is to move in game #1: 1d 0h left."),
        "{reminded:#?}"
    );
    assert!(
        reminded[2]
            .1
            .starts_with("carol, l’équipe Rooks a le trait dans la partie n° 1 : il lui reste"),
        "{reminded:#?}"
    );
}

/// Standings list people; a team of a vote game has a table of its own.
#[test]
fn standings_set_teams_apart_from_people() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{ROOKS_VS_DAVE}
        dave: /resign
        erin: /challenge @frank color:white
        frank: /accept
        frank: /resign
        alice: /standings"
    ));
    let table = text(replies.last().expect("the standings"));
    let (people, teams) = table
        .split_once("Teams, in vote games:")
        .unwrap_or_else(|| panic!("no teams' table: {table}"));
    assert!(people.contains("1. erin: 1 point"), "{table}");
    assert!(!people.contains("Rooks"), "{table}");
    assert!(teams.contains("1. Rooks: 1 point"), "{table}");
    let files: Vec<&str> = replies.last().expect("the standings")["attachments"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["filename"].as_str())
        .collect();
    assert_eq!(files, ["standings.png", "team-standings.png"]);
}
