//! The challenge ladder through the real binary: joining, a win from below
//! that swaps places, a draw that changes nothing, a forfeit when the
//! challenge is not accepted in time, refusals, and inactivity.

mod common;

use common::Console;
use serde_json::Value;

fn text(reply: &Value) -> &str {
    reply["text"].as_str().unwrap_or_default()
}

/// The last reply whose text starts with `start`.
fn last_starting<'a>(out: &'a [Value], start: &str) -> &'a str {
    out.iter()
        .rev()
        .map(text)
        .find(|t| t.starts_with(start))
        .unwrap_or_else(|| panic!("no reply starting with {start:?} in {out:#?}"))
}

/// The ladder's lines from the last `/ladder show` answer.
fn last_ladder(out: &[Value]) -> Vec<String> {
    last_starting(out, "Challenge ladder")
        .lines()
        .skip(1)
        .map(str::to_owned)
        .collect()
}

fn any_text(out: &[Value], needle: &str) -> bool {
    out.iter().any(|r| text(r).contains(needle))
}

/// One move each whoever has White, with `a` offering a draw on their
/// move or `b` on theirs; the moves the other colour cannot play are refused.
fn a_move_each_and_a_draw(a: &str, b: &str) -> String {
    format!(
        "{a}: /move Nc3
         {b}: /move Nc3
         {a}: /move Nc6 offer_draw
         {b}: /move Nc6 offer_draw
         {a}: /draw accept
         {b}: /draw accept"
    )
}

#[test]
fn a_win_from_below_swaps_places_and_a_draw_changes_nothing() {
    let console = Console::new();
    let draw = a_move_each_and_a_draw("bob", "carol");
    let out = console.run(&format!(
        "alice: /ladder join
         bob: /ladder join
         carol: /ladder join
         dave: /ladder show
         carol: /ladder challenge @alice
         alice: /accept
         alice: /resign
         dave: /ladder show
         bob: /ladder challenge @carol
         carol: /accept
         {draw}
         dave: /ladder show"
    ));
    assert!(
        any_text(&out, "carol joins the ladder at place 3."),
        "{out:#?}"
    );
    let first = out
        .iter()
        .map(text)
        .find(|t| t.starts_with("Challenge ladder"))
        .expect("the first ladder");
    assert!(first.ends_with("1. alice\n2. bob\n3. carol"), "{first}");
    let challenge = out
        .iter()
        .find(|r| text(r).starts_with("Ladder challenge C1"))
        .expect("the ladder challenge");
    assert_eq!(challenge["to"], "alice", "the defender is mentioned");
    assert!(
        text(challenge).contains("accept within 3 days"),
        "{challenge}"
    );
    assert!(
        out.iter()
            .any(|r| text(r).starts_with("Ladder game #") && text(r).contains("begins")),
        "the accepted challenge starts a ladder game: {out:#?}"
    );
    assert!(
        any_text(&out, "Ladder: carol takes place 1 from alice."),
        "the win is announced with the game's end: {out:#?}"
    );
    // The draw between bob (place 3) and carol (place 1) moves nobody.
    assert!(
        any_text(&out, "Ladder: no change between bob and carol."),
        "{out:#?}"
    );
    assert_eq!(last_ladder(&out), ["1. carol", "2. alice", "3. bob"]);
    let shown = out
        .iter()
        .rev()
        .find(|r| text(r).starts_with("Challenge ladder"))
        .expect("show");
    assert_eq!(shown["attachments"][0]["filename"], "ladder.png");
    assert_eq!(shown["attachments"][0]["content_type"], "image/png");
}

#[test]
fn a_challenge_not_accepted_in_time_is_a_forfeit() {
    let console = Console::new();
    let out = console.run(
        "alice: /ladder join
         bob: /ladder join
         carol: /ladder join
         carol: /ladder challenge @bob
         :advance 2d
         dave: /ladder show
         :advance 1d
         dave: /ladder show
         bob: /accept",
    );
    let shows: Vec<&str> = out
        .iter()
        .map(text)
        .filter(|t| t.starts_with("Challenge ladder"))
        .collect();
    assert!(
        shows[0].ends_with("1. alice\n2. bob\n3. carol"),
        "not yet: {}",
        shows[0]
    );
    let forfeit = out
        .iter()
        .find(|r| text(r).contains("did not take up"))
        .expect("the forfeit notice");
    assert_eq!(
        text(forfeit),
        "Ladder: bob did not take up the challenge; carol takes place 2 by forfeit."
    );
    assert_eq!(last_ladder(&out), ["1. alice", "2. carol", "3. bob"]);
    // The challenge is gone with the forfeit.
    let last = out.last().expect("the late accept");
    assert_eq!(last["ephemeral"], true, "{last}");
}

#[test]
fn declining_forfeits_cancelling_withdraws_and_bad_challenges_are_refused() {
    let console = Console::new();
    let out = console.run(
        "alice: /ladder join
         bob: /ladder join
         carol: /ladder join
         dave: /ladder join
         erin: /ladder join
         erin: /ladder challenge @alice
         alice: /ladder challenge @bob
         frank: /ladder challenge @alice
         erin: /ladder challenge @erin
         alice: /ladder join
         erin: /ladder challenge @dave
         carol: /ladder challenge @dave
         dave: /ladder challenge @bob
         erin: /cancel
         dave: /ladder challenge @bob
         bob: /decline
         dave: /ladder show",
    );
    let refusals: Vec<&str> = out
        .iter()
        .filter(|r| r["ephemeral"] == true)
        .map(text)
        .collect();
    let expected = [
        "alice is too far above you: you may challenge at most 3 places up.",
        "bob is not above you on the ladder.",
        "frank is not on the ladder.",
        "You cannot challenge yourself.",
        "You are already on the ladder.",
        "dave is not above you on the ladder.",
        "dave already has a ladder challenge under way.",
    ];
    assert_eq!(refusals, expected, "{out:#?}");
    assert!(
        any_text(&out, "Ladder challenge withdrawn: nothing changes."),
        "{out:#?}"
    );
    assert!(
        any_text(
            &out,
            "Ladder: bob did not take up the challenge; dave takes place 2 by forfeit."
        ),
        "{out:#?}"
    );
    assert_eq!(
        last_ladder(&out),
        ["1. alice", "2. dave", "3. bob", "4. carol", "5. erin"]
    );
}

#[test]
fn inactive_players_drop_down_the_ladder() {
    let console = Console::new();
    let out = console.run(
        "alice: /ladder join
         :advance 20d
         bob: /ladder join
         carol: /ladder join
         dave: /ladder join
         :advance 10d
         erin: /ladder show",
    );
    let notice = out
        .iter()
        .find(|r| r["direct"] == true)
        .expect("a direct notice to alice");
    assert_eq!(notice["to"], "alice");
    assert_eq!(
        text(notice),
        "alice, you have played no ladder game for 30 days: you drop to place 4 on the ladder."
    );
    assert_eq!(
        last_ladder(&out),
        ["1. bob", "2. carol", "3. dave", "4. alice"]
    );
}

#[test]
fn the_ladder_speaks_french() {
    let console = Console::new();
    let out = console.run(
        ":lang alice fr
         alice: /ladder
         alice: /ladder join
         alice: /ladder",
    );
    assert_eq!(
        text(&out[0]),
        "Personne n'est encore sur l'échelle : /echelle rejoindre pour y monter le premier."
    );
    assert_eq!(text(&out[1]), "alice rejoint l'échelle à la place 1.");
    assert!(text(&out[2]).starts_with("Échelle de défis"), "{}", out[2]);
}

/// RULES.md: a ladder game is a competition's, so a player whose first move
/// never comes loses it by forfeit (not rated), and the ladder follows.
#[test]
fn a_ladder_no_show_loses_by_forfeit_and_a_later_challenge_works() {
    let console = Console::new();
    let out = console.run(
        "alice: /ladder join
         bob: /ladder join
         bob: /ladder challenge @alice
         alice: /accept
         :advance 3d
         alice: /ladder challenge @bob
         bob: /decline
         carol: /ladder show",
    );
    assert!(
        any_text(
            &out,
            "alice never made a first move: bob wins by forfeit (+/-, not rated)."
        ),
        "{out:#?}"
    );
    assert!(
        any_text(&out, "Ladder: bob takes place 1 from alice."),
        "{out:#?}"
    );
    assert!(!any_text(&out, "→"), "a forfeit moves no rating: {out:#?}");
    assert!(
        any_text(
            &out,
            "Ladder: bob did not take up the challenge; alice takes place 1 by forfeit."
        ),
        "{out:#?}"
    );
    assert_eq!(last_ladder(&out), ["1. alice", "2. bob"]);
}

#[test]
fn the_ladder_png_decodes() {
    let console = Console::new();
    let files = tempfile::tempdir().expect("files dir");
    let script = console.script(
        "alice: /ladder join
         bob: /ladder join
         carol: /ladder show",
    );
    let output = console
        .command()
        .args(["console", "--json", "--now", common::START, "--files"])
        .arg(files.path())
        .arg("--script")
        .arg(&script)
        .output()
        .expect("run pawnpost");
    assert!(output.status.success(), "{output:?}");
    let path = files.path().join("line-0003-0-ladder.png");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("PNG data");
    assert!(info.width > 50 && info.height > 30, "{info:?}");
}
