//! End-to-end games through the real `pawnpost` binary, on a real SQLite
//! file, with `console --script --json`.

mod common;

use common::{Console, events_of, game_over, replies_to};

#[test]
fn a_full_game_from_challenge_to_checkmate() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /move Qh5
         bob: /move Nc6
         alice: /move Bc4
         bob: /move Nf6
         alice: /move Qxf7#",
    );
    let started = &out[1];
    assert!(started["text"].as_str().unwrap().contains("Game #1 begins"));
    assert_eq!(started["to"], "alice");
    assert_eq!(game_over(&out), Some(("1-0".into(), "checkmate".into())));
    let plies: Vec<i64> = events_of(&out, "move_played")
        .iter()
        .map(|e| e["ply"].as_i64().unwrap())
        .collect();
    assert_eq!(plies, (1..=7).collect::<Vec<_>>());
    let last = events_of(&out, "move_played").pop().unwrap();
    assert_eq!(last["san"], "Qxf7#");
    assert_eq!(last["uci"], "h5f7");
    assert_eq!(last["game"], 1);
}

#[test]
fn a_draw_offered_with_a_move_and_accepted() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /move Nf3 offer_draw
         bob: /draw accept",
    );
    let offers = events_of(&out, "draw_offered");
    assert_eq!(offers.len(), 1);
    assert_eq!(offers[0]["by"], "white");
    assert_eq!(
        game_over(&out),
        Some(("1/2-1/2".into(), "agreement".into()))
    );
}

#[test]
fn a_refused_claim_plays_its_move() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move Nf3
         bob: /move Nf6
         alice: /move Ng1
         bob: /claim threefold Ng8
         alice: /move Nf3",
    );
    assert_eq!(events_of(&out, "claim_refused").len(), 1);
    let moves = events_of(&out, "move_played");
    assert_eq!(moves[3]["san"], "Ng8");
    assert_eq!(moves[4]["san"], "Nf3");
    assert_eq!(game_over(&out), None);
}

#[test]
fn a_resignation() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:black
         bob: /accept
         bob: /move d4
         alice: /move d5
         bob: /resign",
    );
    assert_eq!(game_over(&out), Some(("0-1".into(), "resignation".into())));
}

#[test]
fn an_abort_before_the_first_moves() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /abort",
    );
    assert_eq!(game_over(&out), Some(("*".into(), "abort".into())));
    // An aborted game is not scored.
    let table = console.run("alice: /standings");
    assert!(
        table[0]["text"]
            .as_str()
            .unwrap()
            .contains("No finished games")
    );
}

#[test]
fn two_games_in_one_channel_ask_which() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /challenge @carol color:white
         carol: /accept
         alice: /move e4
         alice: /move e4 game:2
         alice: /move d4 game:1",
    );
    let which = &out[4];
    assert_eq!(which["ephemeral"], true);
    let text = which["text"].as_str().unwrap();
    assert!(text.contains("several games"), "{text}");
    assert!(
        text.contains("#1 against bob") && text.contains("#2 against carol"),
        "{text}"
    );
    assert!(events_of(std::slice::from_ref(which), "move_played").is_empty());
    // With a game id, both games proceed.
    assert_eq!(out[5]["events"][0]["game"], 2);
    assert_eq!(out[6]["ephemeral"], false, "{}", out[6]);
    assert_eq!(out[6]["events"][0]["game"], 1);
}

#[test]
fn a_french_player_moves_in_french_and_reads_french() {
    let console = Console::new();
    let out = console.run(
        ":lang alice fr
         alice: /challenge @bob color:white
         bob: /accept
         alice: /move Cf3
         bob: /move Nf6
         alice: /move Dd1",
    );
    // Each output for `to`, private or not, whose text holds `words`.
    let find = |to: &str, private: bool, words: &str| {
        out.iter()
            .find(|o| {
                o["to"] == to
                    && o["ephemeral"] == private
                    && o["text"].as_str().is_some_and(|t| t.contains(words))
            })
            .unwrap_or_else(|| panic!("no {words:?} for {to}: {out:#?}"))
    };
    // bob chose no language and his client said none: what is addressed to
    // him is in the server's English, and alice gets her own copies in French.
    find("bob", false, "alice challenges bob");
    find("alice", true, "alice défie bob");
    // The start is addressed to alice, who moves: in her client's French;
    // bob, who accepted, gets his own copy in English.
    find("alice", false, "La partie n° 1 commence");
    find("bob", true, "Game #1 begins");
    let played = find("bob", false, "alice played Nf3");
    assert_eq!(played["events"][0]["uci"], "g1f3");
    find("alice", true, "alice a joué Cf3");
    // The queen already stands on d1: the refusal is in French too.
    let refused = out.last().unwrap();
    assert_eq!(refused["ephemeral"], true);
    assert!(refused["text"].as_str().unwrap().contains("«"), "{refused}");
}

#[test]
fn standings_after_three_games() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move f3
         bob: /move e5
         alice: /move g4
         bob: /move Qh4#
         carol: /challenge @alice color:white
         alice: /accept
         carol: /move e4
         alice: /move e5
         carol: /resign
         bob: /challenge @carol color:white
         carol: /accept
         bob: /move e4
         carol: /move e5
         bob: /draw offer
         carol: /draw accept
         carol: /standings",
    );
    let table = out.last().unwrap()["text"].as_str().unwrap().to_owned();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "{table}");
    assert_eq!(lines[1], "1. bob: 1½ points (2 played: +1 =1 -0)");
    assert_eq!(lines[2], "2. alice: 1 point (2 played: +1 =0 -1)");
    assert_eq!(lines[3], "3. carol: ½ points (2 played: +0 =1 -1)");
}

#[test]
fn replies_address_the_player_to_move() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4",
    );
    assert_eq!(replies_to(&out, "bob").len(), 2);
    let board = &out[2]["board"];
    assert_eq!(board["last_move"], "e2e4");
    // Seen by bob, whom it asks to move.
    assert_eq!(board["orientation"], "black");
}

#[test]
fn pgn_subcommand_prints_the_game() {
    let console = Console::new();
    console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5",
    );
    let pgn = console.pgn(1);
    assert!(pgn.contains("[White \"alice\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
}

/// `/pgn` and `pawnpost pgn` give the same text (the same Site), with
/// English SAN for a French reader who typed French letters, and the time
/// control in PGN's form next to the form players type.
#[test]
fn pgn_command_and_subcommand_give_the_same_game_in_english_san() {
    let console = Console::new();
    let out = console.run(
        "bob: /settings language fr
         alice: /challenge @bob color:white time:10/50d
         bob: /accept
         alice: /move e4
         bob: /move Cf6
         alice: /move Nf3
         bob: /move Cc6
         bob: /pgn",
    );
    let from_chat = out.last().expect("a reply")["text"]
        .as_str()
        .expect("text")
        .to_owned();
    let from_cli = console.pgn(1);
    assert_eq!(from_chat, from_cli);
    assert!(
        from_cli.contains("[Site \"console console\"]"),
        "{from_cli}"
    );
    assert!(from_cli.contains("1. e4 Nf6 2. Nf3 Nc6 *"), "{from_cli}");
    assert!(
        from_cli.contains("[TimeControl \"10/4320000\"]\n[CorrespondenceTimeControl \"10/50d\"]"),
        "{from_cli}"
    );
}

#[test]
fn each_player_reads_the_other_s_moves_in_their_own_language() {
    let console = Console::new();
    let out = console.run(
        "marie: /settings language fr
         bob: /settings language en
         marie: /challenge @bob color:white
         bob: /accept
         marie: /move Cf3
         bob: /move Nf6",
    );
    let to = |reader: &str| {
        out.iter()
            .filter(|r| r["to"] == reader && r["ephemeral"] == false)
            .filter_map(|r| r["text"].as_str())
            .collect::<Vec<_>>()
    };
    let bob_reads = to("bob").join("\n");
    assert!(bob_reads.contains("marie played Nf3"), "{bob_reads}");
    let marie_reads = to("marie").join("\n");
    assert!(marie_reads.contains("bob a joué Cf6"), "{marie_reads}");
}

#[test]
fn a_draw_offered_on_one_s_own_turn_is_addressed_to_the_opponent() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /draw offer",
    );
    let offer = out.last().unwrap();
    assert_eq!(offer["to"], "bob", "bob must answer: {offer}");
}

#[test]
fn direct_messages_carry_turn_notices_too() {
    let console = Console::new();
    let out = console.run(
        "alice: /settings notify dm
         alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5",
    );
    let direct: Vec<_> = out.iter().filter(|r| r["direct"] == true).collect();
    assert_eq!(direct.len(), 1, "only the turn that is alice's: {direct:?}");
    assert_eq!(direct[0]["to"], "alice");
    assert!(
        direct[0]["text"]
            .as_str()
            .unwrap()
            .contains("bob played e5"),
        "{}",
        direct[0]
    );
}

#[test]
fn french_command_words_work_as_on_discord() {
    let console = Console::new();
    let out = console.run(
        ":lang marie fr
         marie: /défi @bob color:white
         bob: /accepter
         marie: /coup Cf3
         bob: /abandon",
    );
    let played = events_of(&out, "move_played");
    assert_eq!(played[0]["uci"], "g1f3", "{out:?}");
    assert_eq!(events_of(&out, "game_over").len(), 1, "{out:?}");
}

/// A mistyped command is answered with the nearest one, in the reader's
/// language; text near no command gets the plain answer.
#[test]
fn a_typo_gets_did_you_mean() {
    let console = Console::new();
    let out = console.run(
        ":lang bob fr
         alice: /halp
         alice: /drwa
         bob: /abandn
         bob: /xyzzy",
    );
    let texts: Vec<&str> = out.iter().map(|o| o["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        [
            "Unknown command: did you mean /help? Type /help for the list.",
            "Unknown command: did you mean /draw? Type /help for the list.",
            "Commande inconnue : vouliez-vous dire /abandon ? Tapez /aide pour la liste.",
            "Commande inconnue. Tapez /aide pour la liste.",
        ]
    );
}

/// The console as people read it (no `--json`): after every move, the
/// position as a diagram seen by the player to move, rank 1 at the bottom
/// for White and at the top for Black.
#[test]
fn every_move_shows_the_board_to_the_player_to_move() {
    let console = Console::new();
    let script = console.script(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /move Nf3",
    );
    let output = console
        .command()
        .args(["console", "--now", "2026-01-01T12:00:00Z", "--script"])
        .arg(&script)
        .output()
        .expect("run pawnpost");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    // Each reply to a move, with the diagram lines that follow it.
    let replies: Vec<&str> = text
        .split("[#main]")
        .filter(|part| part.contains(" played "))
        .collect();
    assert_eq!(replies.len(), 3, "{text}");
    for (reply, bottom) in replies.iter().zip([
        "  h g f e d c b a",
        "  a b c d e f g h",
        "  h g f e d c b a",
    ]) {
        let diagram: Vec<&str> = reply
            .lines()
            .filter(|line| {
                let rank = line.starts_with(|c: char| ('1'..='8').contains(&c))
                    && line.chars().nth(1) == Some(' ');
                rank || line.starts_with("  ")
            })
            .collect();
        assert_eq!(diagram.len(), 9, "a diagram after each move: {reply}");
        assert_eq!(diagram[8], bottom, "{reply}");
    }
}

/// In the console, `/help` ends with the console's own lines, in the
/// reader's language; a picture not saved says how to save it.
#[test]
fn console_help_and_unsaved_pictures_say_what_the_console_does() {
    let console = Console::new();
    let script = console.script(
        ":lang bob fr
         alice: /help
         bob: /aide
         alice: /challenge @bob color:white
         bob: /accept
         alice: /resign
         alice: /standings",
    );
    let output = console
        .command()
        .args(["console", "--script"])
        .arg(&script)
        .output()
        .expect("run pawnpost");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(text.contains(":advance 3d (or 5h, 30m)"), "{text}");
    assert!(
        text.contains(":lang NOM fr : le client de NOM parle français"),
        "{text}"
    );
    assert!(
        text.contains("[standings.png (")
            && text.contains("not saved; --files DIR saves pictures]"),
        "{text}"
    );
}

/// A move and a draw offer sent from another channel (issue 42): each is
/// announced in the game's channel, mentioning the opponent, with its
/// board, and the actor gets a short private confirmation where they asked,
/// naming the game's channel (in their language).
#[test]
fn an_act_sent_from_another_channel_is_told_in_the_game_s_channel() {
    let console = Console::new();
    let out = console.run(
        ":channel main
         alice: /challenge @bob color:white
         bob: /accept
         :channel side
         alice: /move e4 game:1
         :lang bob fr
         bob: /move e5 game:1
         alice: /draw offer game:1",
    );
    let text = |r: &serde_json::Value| r["text"].as_str().unwrap_or_default().to_owned();
    let played: Vec<_> = out
        .iter()
        .filter(|r| text(r).starts_with("alice played e4 in game #1."))
        .collect();
    assert_eq!(played.len(), 1, "{out:?}");
    assert_eq!(played[0]["channel"], "main");
    assert_eq!(played[0]["to"], "bob", "the opponent is mentioned");
    assert_eq!(played[0]["ephemeral"], false);
    assert_eq!(played[0]["board"]["game"], 1, "with its board");
    let pointers: Vec<_> = out
        .iter()
        .filter(|r| r["channel"] == "side")
        .map(|r| (r["to"].clone(), r["ephemeral"].clone(), text(r)))
        .collect();
    let confirmation = |to: &str, text: &str| (to.into(), true.into(), text.to_owned());
    assert_eq!(
        pointers,
        [
            confirmation(
                "alice",
                "Done. Game #1 is played in #main: it is announced there."
            ),
            confirmation(
                "bob",
                "C’est fait. La partie n° 1 se joue dans #main : c’est annoncé là-bas."
            ),
            confirmation(
                "alice",
                "Done. Game #1 is played in #main: it is announced there."
            ),
        ],
        "{out:?}"
    );
    let offered = out
        .iter()
        .find(|r| r["events"][0]["type"] == "draw_offered")
        .expect("the offer told");
    assert_eq!(offered["channel"], "main");
    assert_eq!(offered["to"], "bob");
    assert!(
        text(offered).starts_with("alice propose la nulle."),
        "in bob's language"
    );
    assert_eq!(events_of(&out, "draw_offered").len(), 1);
}
