//! What the bot says, in the reader's language, through the real binary:
//! the server's language set by a moderator, French subcommands, a finished
//! game's `/board`, and the smaller wordings of issue 41.

mod common;

use common::Console;
use serde_json::Value;

fn texts(replies: &[Value]) -> Vec<&str> {
    replies.iter().filter_map(|r| r["text"].as_str()).collect()
}

fn any_contains(replies: &[Value], needle: &str) -> bool {
    texts(replies).iter().any(|t| t.contains(needle))
}

/// Black mates at move 2 in game #1.
const FOOLS_MATE: &str = "alice: /challenge @bob color:white time:5d
    bob: /accept
    alice: /move f3
    bob: /move e5
    alice: /move g4
    bob: /move Qh4#";

#[test]
fn a_moderator_sets_the_servers_language_and_public_messages_follow() {
    let console = Console::new();
    let replies = console.run(&format!(
        ":moderator mod
        mod: /settings server-language fr
        {FOOLS_MATE}"
    ));
    // The game's end, a public message, is in the server's new language
    // although nobody chose French for themselves.
    assert!(
        any_contains(&replies, "La partie n° 1 est terminée"),
        "{:#?}",
        texts(&replies)
    );
    assert!(!any_contains(&replies, "Game #1 is over"));
}

#[test]
fn only_a_moderator_sets_the_servers_language() {
    let console = Console::new();
    let replies = console.run(&format!(
        "alice: /settings server-language fr
        {FOOLS_MATE}"
    ));
    assert!(
        any_contains(&replies, "Game #1 is over"),
        "{:#?}",
        texts(&replies)
    );
}

#[test]
fn french_subcommands_work_in_text() {
    let console = Console::new();
    let replies = console.run(
        ":moderator mod
        :lang mod fr
        mod: /tournoi creer suisse",
    );
    let all = texts(&replies);
    assert!(
        !all.iter().any(|t| t.contains("n'est pas valable")),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|t| t.contains("a créé le tournoi #1") && t.contains("/tournoi rejoindre")),
        "{all:#?}"
    );
}

/// Table: the reader's language → what a finished `/board` says.
const FINISHED_BOARDS: &[(&str, &str, &str)] = &[
    ("en", "/board 1", "Game #1: alice – bob, over (0-1)"),
    (
        "fr",
        "/echiquier 1",
        "Partie n° 1 : alice – bob, terminée (0-1)",
    ),
];

#[test]
fn a_finished_games_board_gives_its_result_not_whose_move() {
    for (lang, command, expected) in FINISHED_BOARDS {
        let console = Console::new();
        let replies = console.run(&format!(
            "{FOOLS_MATE}
            :lang alice {lang}
            alice: {command}"
        ));
        let last = replies
            .last()
            .and_then(|r| r["text"].as_str())
            .unwrap_or_default()
            .to_owned();
        assert!(last.contains(expected), "{lang}: {last}");
        for unwanted in ["to move", "au trait", "Clocks", "Pendules"] {
            assert!(!last.contains(unwanted), "{lang}: {last}");
        }
    }
}

#[test]
fn a_name_without_its_at_is_told_how_to_name_a_player() {
    let console = Console::new();
    let replies = console.run("alice: /challenge bob");
    assert!(any_contains(&replies, "@bob"), "{:#?}", texts(&replies));
}

#[test]
fn a_declined_draw_is_told_to_the_offerer_not_the_decliner() {
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:white time:5d
        bob: /accept
        alice: /move e4
        bob: /move e5
        alice: /draw offer
        bob: /draw decline",
    );
    let decline = texts(&replies)
        .into_iter()
        .find(|t| t.contains("declines the draw"))
        .expect("the decline is told");
    assert!(
        decline.contains("@alice") || !decline.contains("@bob"),
        "{decline}"
    );
}
