//! Correspondence clocks through the real binary: moving the simulated clock
//! with `:advance` lets flags fall as the scheduler would.

mod common;

use common::{Console, events_of, game_over};

#[test]
fn a_player_who_never_answers_loses_on_time() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:3d
         bob: /accept
         alice: /move e4
         :advance 1d
         bob: /move e5
         :advance 2d
         alice: /move Nf3
         :advance 2d
         :advance 23h
         :advance 59m
         :advance 1m",
    );
    // Black's three days run from Nf3 (day 3); nothing falls a minute before.
    assert_eq!(game_over(&out[..out.len() - 1]), None);
    assert_eq!(game_over(&out), Some(("1-0".into(), "timeout".into())));
    let notice = out.last().unwrap();
    assert_eq!(notice["to"], "alice", "the waiting player is told");
    assert_eq!(notice["channel"], "main");
}

#[test]
fn the_side_with_the_queen_flagging_against_a_bare_king_draws() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:1d fen:\"8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1\"
         bob: /accept
         alice: /move Qd1
         bob: /move Ke5
         :advance 2d",
    );
    assert_eq!(game_over(&out), Some(("1/2-1/2".into(), "timeout".into())));
}

#[test]
fn a_game_whose_first_move_never_comes_is_aborted() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:2d
         bob: /accept
         :advance 2d",
    );
    assert_eq!(game_over(&out), Some(("*".into(), "abort".into())));
    let table = console.run("alice: /standings");
    assert!(
        table[0]["text"]
            .as_str()
            .unwrap()
            .contains("No finished games")
    );
}

#[test]
fn more_time_moves_the_flag() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:1d
         bob: /accept
         alice: /move e4
         bob: /move e5
         bob: /moretime 2
         :advance 2d
         alice: /board
         :advance 1d",
    );
    assert_eq!(events_of(&out, "more_time_given").len(), 1);
    let board = out[out.len() - 2]["text"].as_str().unwrap().to_owned();
    assert!(
        board.contains("Clocks: alice 1d 0h, bob 1d 0h"),
        "alice had 1 + 2 days: {board}"
    );
    // The diagram comes apart from the text, for fixed-width display.
    let diagram = out[out.len() - 2]["diagram"].as_str().unwrap_or_default();
    assert!(diagram.ends_with("a b c d e f g h"), "{diagram}");
    assert!(!board.contains("a b c d e f g h"), "{board}");
    assert_eq!(game_over(&out), Some(("0-1".into(), "timeout".into())));
}

#[test]
fn bad_time_controls_are_refused() {
    let console = Console::new();
    let out = console.run("alice: /challenge @bob time:fast");
    assert_eq!(out[0]["ephemeral"], true);
    assert!(out[0]["text"].as_str().unwrap().contains("fast"));
}

#[test]
fn reminders_come_once_each_and_can_be_turned_off() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:10d
         bob: /accept
         alice: /move e4
         bob: /move e5
         :advance 7d
         :advance 23h
         :advance 1h
         :advance 1d
         :advance 1h
         alice: /move Nf3
         bob: /settings notify off
         :advance 9d
         :advance 23h",
    );
    let reminders: Vec<&serde_json::Value> = out
        .iter()
        .filter(|r| {
            r["text"]
                .as_str()
                .unwrap_or_default()
                .contains("it is your move")
        })
        .collect();
    // 80% of ten days is day 8, and day 9 is 24 hours before the flag: two, once each.
    assert_eq!(reminders.len(), 2, "{reminders:#?}");
    assert!(reminders.iter().all(|r| r["to"] == "alice"));
    assert!(
        reminders[0]["text"]
            .as_str()
            .unwrap()
            .contains("2d 0h left")
    );
    assert!(
        reminders[1]["text"]
            .as_str()
            .unwrap()
            .contains("1d 0h left")
    );
    // bob turned reminders off: his day-8 and day-9 points pass in silence.
    assert_eq!(game_over(&out), None);
}

#[test]
fn reminders_can_come_as_direct_messages() {
    let console = Console::new();
    let out = console.run(
        "alice: /settings notify dm
         alice: /challenge @bob color:white time:1d
         bob: /accept
         alice: /move e4
         bob: /move e5
         :advance 20h",
    );
    let reminder = out.last().unwrap();
    assert_eq!(reminder["direct"], true, "{reminder}");
    assert_eq!(reminder["to"], "alice");
}

#[test]
fn leave_stops_the_clock_and_the_flag_falls_later() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:2d
         bob: /accept
         alice: /move e4
         bob: /move e5
         :advance 1d
         alice: /leave start 3
         :advance 3d
         :advance 23h
         :advance 1h",
    );
    let started = out
        .iter()
        .find(|r| {
            r["text"]
                .as_str()
                .unwrap_or_default()
                .starts_with("You are on leave")
        })
        .expect("leave started");
    assert!(
        started["text"]
            .as_str()
            .unwrap()
            .contains("42 days of leave left")
    );
    let notice = out
        .iter()
        .find(|r| {
            r["text"]
                .as_str()
                .unwrap_or_default()
                .contains("is on leave until")
        })
        .expect("bob is told");
    assert_eq!(notice["to"], "bob");
    assert!(
        out.iter().any(|r| r["text"]
            .as_str()
            .unwrap_or_default()
            .contains("is back from leave")),
        "bob is told when alice is back"
    );
    // Alice had one of her two days left when the leave began: her flag falls
    // one day after the leave ended (day 5), not at day 2.
    let last = out.last().unwrap();
    assert_eq!(game_over(&out), Some(("0-1".into(), "timeout".into())));
    assert_eq!(game_over(&out[..out.len() - 1]), None, "{last}");
}

/// Leave is taken in whole days, a day begun counting whole; a leave ended
/// the instant it began costs nothing.
#[test]
fn a_leave_costs_the_days_it_began() {
    for (waited, left) in [
        ("", 45),
        (":advance 1s", 44),
        (":advance 1d", 44),
        (":advance 25h", 43),
    ] {
        let console = Console::new();
        let out = console.run(&format!(
            "alice: /challenge @bob color:white time:5d
             bob: /accept
             alice: /move e4
             bob: /move e5
             alice: /leave start 3
             {waited}
             alice: /leave end
             alice: /leave status"
        ));
        let texts: Vec<&str> = out.iter().filter_map(|r| r["text"].as_str()).collect();
        let ended = format!("Welcome back: your clocks run again. {left} days of leave left");
        assert!(
            texts.iter().any(|t| t.starts_with(&ended)),
            "{waited:?}: {texts:#?}"
        );
        let status = format!("You are not on leave. {left} days of leave left this year.");
        assert_eq!(texts.last(), Some(&status.as_str()), "{waited:?}");
    }
}

#[test]
fn moving_during_leave_ends_it_and_gives_back_the_unused_days() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white time:5d
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /leave start 10
         :advance 2d
         alice: /move Nf3
         alice: /leave status
         alice: /leave start 50",
    );
    let status = out[out.len() - 2]["text"].as_str().unwrap().to_owned();
    assert_eq!(
        status,
        "You are not on leave. 43 days of leave left this year."
    );
    let refused = out.last().unwrap();
    assert_eq!(refused["ephemeral"], true);
    assert!(refused["text"].as_str().unwrap().contains("only 43 days"));
}

/// A clock set back (`:now` earlier than the game's last act) never stores
/// an act before it: the act is timed at the last act's instant, said in a
/// warning, so the score stays in order and `pawnpost check` passes.
#[test]
fn a_clock_set_back_keeps_the_record_in_order() {
    let console = Console::new();
    let path = console.script(
        "alice: /challenge @bob color:white time:3d
         bob: /accept
         :advance 1d
         alice: /move e4
         :now 2025-12-01T00:00:00Z
         bob: /move e5
         bob: /draw offer
         :advance 20d
         alice: /move Nf3",
    );
    let output = console.run_file(&path);
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the clock is behind"), "{stderr}");
    let conn = rusqlite::Connection::open(console.db()).expect("db");
    let times: Vec<String> = conn
        .prepare("SELECT played_at FROM moves WHERE game_id = 1 ORDER BY ply")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("moves");
    let day_two = "2026-01-02T12:00:00";
    assert!(times[0].starts_with(day_two), "{times:?}");
    assert!(times[1].starts_with(day_two), "{times:?}");
    // 20 days after the clock was set back is still before the last act.
    assert!(times[2].starts_with(day_two), "{times:?}");
    let check = console.command().arg("check").output().expect("check");
    assert!(check.status.success(), "{check:?}");
}
