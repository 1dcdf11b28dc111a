//! Discord's slash-command payloads read through the command table: each
//! builds exactly what its text form parses to (one row, two platforms),
//! bad payloads are refused as text is, and every command of the table has
//! a Discord path.

use pawnpost::adapters::discord::interactions::{resolve, to_command};
use pawnpost::core::command::{self as command, help};
use pawnpost::core::notation::Lang;
use serde_json::{Value as Json, json};
use serenity::all::CommandData;

/// Command data as Discord sends it for `path` (`["play", "draw",
/// "accept"]`), its last part holding `options`.
fn data(path: &[&str], options: Json) -> CommandData {
    let mut options = options;
    for (depth, name) in path.iter().enumerate().skip(1).rev() {
        let leaf = depth == path.len() - 1;
        let kind = if leaf { 1 } else { 2 };
        options = json!([{ "name": name, "type": kind, "options": options }]);
    }
    serde_json::from_value(json!({ "id": "1", "name": path[0], "type": 1, "options": options }))
        .expect("valid command data")
}

/// Each Discord payload builds what its text form parses to: one row,
/// read the same way from both platforms.
#[test]
fn options_build_what_text_parses() {
    let cases: &[(&[&str], Json, &str)] = &[
        (
            &["move"],
            json!([{ "name": "move", "type": 3, "value": " Nf3 " }, { "name": "offer_draw", "type": 5, "value": true }, { "name": "game", "type": 4, "value": 7 }]),
            "/move Nf3 offer_draw game:7",
        ),
        (
            &["play", "challenge"],
            json!([{ "name": "user", "type": 6, "value": "42" }, { "name": "color", "type": 3, "value": "black" }]),
            "/challenge @42 color:black",
        ),
        (
            &["play", "challenge"],
            json!([{ "name": "variant", "type": 3, "value": "chess960" }, { "name": "start", "type": 4, "value": 959 }]),
            "/challenge variant:chess960 start:959",
        ),
        (
            &["play", "challenge"],
            json!([{ "name": "team", "type": 3, "value": "Rooks" }, { "name": "user", "type": 6, "value": "42" }, { "name": "change_vote", "type": 5, "value": false }]),
            "/challenge team:Rooks @42 change_vote:no",
        ),
        (
            &["play", "accept"],
            json!([{ "name": "challenge", "type": 4, "value": 6 }]),
            "/accept C6",
        ),
        (&["play", "draw", "accept"], json!([]), "/draw accept"),
        (
            &["play", "moretime"],
            json!([{ "name": "days", "type": 4, "value": 3 }]),
            "/moretime 3d",
        ),
        (
            &["play", "if", "add"],
            json!([{ "name": "moves", "type": 3, "value": "e5 Nf3" }]),
            "/if e5 Nf3",
        ),
        (
            &["play", "vote", "resign"],
            json!([{ "name": "game", "type": 4, "value": 3 }]),
            "/vote resign game:3",
        ),
        (
            &["game", "board"],
            json!([{ "name": "game", "type": 4, "value": 12 }]),
            "/board 12",
        ),
        (
            &["game", "note"],
            json!([{ "name": "text", "type": 3, "value": "sharp" }]),
            "/note sharp",
        ),
        (
            &["club", "ladder", "challenge"],
            json!([{ "name": "player", "type": 6, "value": "42" }]),
            "/ladder challenge @42",
        ),
        (
            &["club", "puzzle", "answer"],
            json!([{ "name": "move", "type": 3, "value": "Qxf7" }]),
            "/puzzle Qxf7",
        ),
        (&["club", "standings"], json!([]), "/standings"),
        (
            &["tournament", "create"],
            json!([{ "name": "system", "type": 3, "value": "swiss" }, { "name": "rounds", "type": 4, "value": 5 }, { "name": "rated", "type": 5, "value": false }, { "name": "bye", "type": 3, "value": "half" }, { "name": "tiebreaks", "type": 3, "value": "sb, DE" }]),
            "/tournament create swiss rounds:5 unrated bye:0.5 tiebreaks:\"sb, DE\"",
        ),
        (
            &["tournament", "pairings"],
            json!([{ "name": "tournament", "type": 4, "value": 3 }, { "name": "round", "type": 4, "value": 2 }]),
            "/tournament pairings #3 round 2",
        ),
        (
            &["team", "create"],
            json!([{ "name": "team", "type": 3, "value": " Les  Tours " }]),
            "/team create Les Tours",
        ),
        (
            &["team", "match", "create"],
            json!([{ "name": "team", "type": 3, "value": "Rooks" }, { "name": "against", "type": 3, "value": "Les  Fous" }, { "name": "server", "type": 3, "value": "81234567890" }, { "name": "boards", "type": 4, "value": 6 }, { "name": "time", "type": 3, "value": "2d" }]),
            "/match create team:Rooks vs:\"Les Fous\" server:81234567890 boards:6 time:2d",
        ),
        (
            &["settings", "language"],
            json!([{ "name": "language", "type": 3, "value": "fr" }]),
            "/settings language fr",
        ),
        (
            &["settings", "server-language"],
            json!([{ "name": "language", "type": 3, "value": "default" }]),
            "/settings server-language default",
        ),
        (
            &["settings", "leave", "start"],
            json!([{ "name": "days", "type": 4, "value": 3 }]),
            "/leave start 3",
        ),
        (&["settings", "status"], json!([]), "/status"),
        (&["help"], json!([]), "/help"),
    ];
    for (path, options, line) in cases {
        let built = to_command(&data(path, options.clone())).map(|(_, c)| c);
        assert_eq!(built, command::parse(line), "{path:?} / {line}");
        assert!(built.is_ok(), "{line}: {built:?}");
    }
}

#[test]
fn bad_payloads_are_refused_as_text_is() {
    let cases: &[(&[&str], Json, &str)] = &[
        (&["move"], json!([]), "missing_argument"),
        (
            &["play", "challenge"],
            json!([{ "name": "start", "type": 4, "value": 960 }]),
            "bad_value",
        ),
        (
            &["play", "moretime"],
            json!([{ "name": "days", "type": 4, "value": -2 }]),
            "bad_value",
        ),
        (
            &["play", "moretime"],
            json!([{ "name": "days", "type": 4, "value": 31 }]),
            "bad_value",
        ),
        (
            &["club", "ladder", "challenge"],
            json!([]),
            "missing_argument",
        ),
        (&["team", "join"], json!([]), "missing_argument"),
        (
            &["team", "match", "create"],
            json!([{ "name": "team", "type": 3, "value": "Rooks" }, { "name": "against", "type": 3, "value": "Fous" }, { "name": "server", "type": 3, "value": "a b" }]),
            "bad_value",
        ),
        (&["play", "nope"], json!([]), "unknown_command"),
        (&["other"], json!([]), "unknown_command"),
        (&["play"], json!([]), "empty"),
        (
            &["move"],
            json!([{ "name": "colour", "type": 3, "value": "x" }]),
            "unknown_command",
        ),
        (
            &["play", "draw", "accept"],
            json!([{ "name": "game", "type": 3, "value": "x" }]),
            "bad_value",
        ),
    ];
    for (path, options, kind) in cases {
        let got = to_command(&data(path, options.clone())).map_err(|e| e.kind());
        assert_eq!(got.err(), Some(*kind), "{path:?}");
    }
}

/// Every command of the table is reached by its Discord path.
#[test]
fn every_command_has_a_discord_path() {
    for path in help::commands() {
        let call = help::call(&path, Lang::En, true);
        let words: Vec<&str> = call.trim_start_matches('/').split(' ').collect();
        let resolved = resolve(&data(&words, json!([])), true);
        let (spec, _) = resolved.unwrap_or_else(|e| panic!("{call}: {e:?}"));
        assert!(std::ptr::eq(spec, path[path.len() - 1]), "{call}");
    }
}
