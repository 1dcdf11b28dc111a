//! Team matches through the real binary (issue 25): two teams of two
//! console servers, ratings made by rated games on each server, a 4-board
//! match proposed on one server and accepted on the other, its players
//! paired by rating, its 8 games played from each player's own server
//! (moves, resignations, a draw, a withdrawal, a flag), and the final
//! score told in both servers' channels.

mod common;

use common::{Console, events_of};
use serde_json::Value;

/// Rooks (alpha) join in the order alice, adam, april, arthur; their
/// rated games leave arthur (two wins) above april (one win), alice (no
/// game, 1500) and adam (one loss). Knights (beta) join bella, boris,
/// bruno, basil, bianca: basil (two wins), boris (one win), bella and
/// bianca (1500, bella first), bruno (one loss).
const TEAMS: &str = ":server alpha
    :channel rooks-hall
    alice: /team create Rooks
    adam: /team join Rooks
    april: /team join Rooks
    arthur: /team join Rooks
    arthur: /challenge @zed color:white
    zed: /accept
    arthur: /move e4
    zed: /resign
    arthur: /challenge @zed color:white
    zed: /accept
    arthur: /move d4
    zed: /resign
    april: /challenge @zed color:white
    zed: /accept
    april: /move e4
    zed: /resign
    adam: /challenge @zed color:white
    zed: /accept
    adam: /move e4
    adam: /resign
    :server beta
    :channel knights-hall
    bella: /team create Knights
    boris: /team join Knights
    bruno: /team join Knights
    basil: /team join Knights
    bianca: /team join Knights
    basil: /challenge @yan color:white
    yan: /accept
    basil: /move e4
    yan: /resign
    basil: /challenge @yan color:white
    yan: /accept
    basil: /move d4
    yan: /resign
    boris: /challenge @yan color:white
    yan: /accept
    boris: /move e4
    yan: /resign
    bruno: /challenge @yan color:white
    yan: /accept
    bruno: /move e4
    bruno: /resign";

/// The match proposed on alpha, accepted and joined on beta, started on alpha.
const MATCH: &str = ":server alpha
    :channel rooks-hall
    alice: /match create team:Rooks vs:Knights server:beta boards:4 time:3d
    alice: /match join 1
    adam: /match join 1
    april: /match join 1
    arthur: /match join 1
    :server beta
    :channel knights-hall
    bella: /match accept 1
    bella: /match join 1
    boris: /match join 1
    bruno: /match join 1
    basil: /match join 1
    bianca: /match join 1
    :server alpha
    :channel rooks-hall
    alice: /match start 1";

fn text(reply: &Value) -> &str {
    reply["text"].as_str().unwrap_or_default()
}

fn in_channel<'a>(replies: &'a [Value], channel: &str) -> Vec<&'a Value> {
    replies.iter().filter(|r| r["channel"] == channel).collect()
}

/// Each pairing as (game, board, white, black, home_white).
fn pairings(reply: &Value) -> Vec<(i64, i64, String, String, bool)> {
    reply["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["type"] == "match_pairing")
        .map(|e| {
            (
                e["game"].as_i64().unwrap_or_default(),
                e["board"].as_i64().unwrap_or_default(),
                e["white"].as_str().unwrap_or_default().to_owned(),
                e["black"].as_str().unwrap_or_default().to_owned(),
                e["home_white"].as_bool().unwrap_or_default(),
            )
        })
        .collect()
}

fn pair(
    game: i64,
    board: i64,
    white: &str,
    black: &str,
    home_white: bool,
) -> (i64, i64, String, String, bool) {
    (game, board, white.to_owned(), black.to_owned(), home_white)
}

#[test]
fn a_four_board_match_between_two_servers_pairs_by_rating_and_reports_its_score() {
    let console = Console::new();
    console.run(TEAMS);
    let started = console.run(MATCH);
    // The start is told in both teams' channels, with its 8 games.
    let start = started.last().expect("the start");
    assert!(
        text(start).starts_with("Team match #1 starts: Rooks against Knights on 4 boards"),
        "{start}"
    );
    let expected = vec![
        pair(9, 1, "arthur", "basil", true),
        pair(10, 1, "basil", "arthur", false),
        pair(11, 2, "april", "boris", true),
        pair(12, 2, "boris", "april", false),
        pair(13, 3, "alice", "bella", true),
        pair(14, 3, "bella", "alice", false),
        pair(15, 4, "adam", "bianca", true),
        pair(16, 4, "bianca", "adam", false),
    ];
    for channel in ["rooks-hall", "knights-hall"] {
        let told = in_channel(&started, channel);
        let announcement = told
            .iter()
            .find(|r| text(r).contains("starts"))
            .unwrap_or_else(|| panic!("no start in {channel}: {started:?}"));
        assert_eq!(pairings(announcement), expected, "{channel}");
    }
    assert!(
        text(start).contains("Board 1: game #9, arthur (1809) with White against basil (1809)"),
        "{start}"
    );
    // bruno (one loss) signed up fifth of five: left out of four boards.
    assert!(!text(start).contains("bruno"), "{start}");

    // Acts from a third server reach no match game; a non-player cannot move.
    let refused = console.run(
        ":server gamma
        :channel lobby
        basil: /move e4 game:10
        :server beta
        :channel knights-hall
        adam: /move e4 game:9",
    );
    assert_eq!(text(&refused[0]), "There is no game #10 on this server.");
    assert!(
        refused.iter().all(|r| r["ephemeral"] == true),
        "{refused:?}"
    );
    assert!(events_of(&refused, "move_played").is_empty());

    // Each player plays from their own server's channel; what one does is
    // told in both channels.
    let played = console.run(
        ":server beta
        :channel knights-hall
        basil: /move e4 game:10
        basil: /resign game:9
        :server alpha
        :channel rooks-hall
        arthur: /resign game:10
        april: /move e4 game:11
        april: /takeback game:11
        :server beta
        :channel knights-hall
        boris: /move e5 offer_draw game:11
        :server alpha
        :channel rooks-hall
        april: /draw accept game:11
        :server beta
        :channel knights-hall
        boris: /resign game:12
        bella: /move e4 game:14
        :server alpha
        :channel rooks-hall
        alice: /move e4 game:13
        :server beta
        :channel lounge
        bella: /move e5 game:13
        :server alpha
        :channel rooks-hall
        alice: /move Nf3 game:13
        alice: /resign game:14
        adam: /match withdraw 1",
    );
    let moved = &played[0];
    assert_eq!(moved["channel"], "knights-hall");
    assert!(
        text(moved).starts_with("basil played e4 in game #10."),
        "{moved}"
    );
    assert!(
        played
            .iter()
            .any(|r| r["channel"] == "rooks-hall"
                && text(r).starts_with("basil played e4 in game #10.")),
        "the home channel is told too: {played:?}"
    );
    assert!(
        played
            .iter()
            .any(|r| text(r).contains("Team match #1: Rooks 1 – 0 Knights (7 games running).")),
        "{played:?}"
    );
    let withdrawn: Vec<&Value> = played
        .iter()
        .filter(|r| text(r) == "adam withdrew from team match #1: 2 games still running are lost.")
        .collect();
    let channels: Vec<&Value> = withdrawn.iter().map(|r| &r["channel"]).collect();
    assert_eq!(channels, ["rooks-hall", "knights-hall"]);
    assert!(events_of(&played, "match_result").is_empty());
    // A move sent from another channel of the away server is told in both
    // match channels, not there (issue 42): bella is pointed to her own.
    let told: Vec<&Value> = played
        .iter()
        .filter(|r| text(r).starts_with("bella played e5 in game #13."))
        .map(|r| &r["channel"])
        .collect();
    assert_eq!(told, ["rooks-hall", "knights-hall"]);
    assert!(
        played.iter().any(|r| r["channel"] == "lounge"
            && r["to"] == "bella"
            && text(r) == "Done. Game #13 is played in #knights-hall: it is announced there."),
        "{played:?}"
    );
    // Correspondence fair play: no takeback in a match game.
    assert!(
        played.iter().any(|r| r["to"] == "april"
            && r["ephemeral"] == true
            && text(r).starts_with("Takebacks are for casual games only")),
        "{played:?}"
    );

    // The table so far: text and a picture.
    let table = console.run(
        ":server beta
        :channel knights-hall
        :lang bella fr
        bella: /rencontre voir 1
        basil: /match show",
    );
    // Every game is scored from the home side, whoever had White: #10
    // was basil's win on White, arthur's loss; the total is labelled.
    assert_eq!(
        text(&table[0]),
        "Rencontre par équipes n° 1 : Rooks 2½ – 4½ Knights (1 partie en cours)
Scores lus Rooks–Knights, la partie où le joueur de Rooks a les Blancs d’abord :
1. arthur – basil : #9 1–0 · #10 0–1 (échiquier 1–1)
2. april – boris : #11 ½–½ · #12 1–0 (échiquier 1½–½)
3. alice – bella : #13 * · #14 0–1 (échiquier 0–1)
4. adam – bianca : #15 0–1 · #16 0–1 (échiquier 0–2)
Total : Rooks 2½ – 4½ Knights"
    );
    assert_eq!(
        text(&table[1]),
        "Team match #1: Rooks 2½ – 4½ Knights (1 game running)
Scores read Rooks–Knights, each board's game with Rooks' player on White first:
1. arthur – basil: #9 1–0 · #10 0–1 (board 1–1)
2. april – boris: #11 ½–½ · #12 1–0 (board 1½–½)
3. alice – bella: #13 * · #14 0–1 (board 0–1)
4. adam – bianca: #15 0–1 · #16 0–1 (board 0–2)
Total: Rooks 2½ – 4½ Knights"
    );
    assert_eq!(table[1]["attachments"][0]["filename"], "match.png");

    // The last game ends on time: bella's flag falls (game 13, after a
    // move each), and both channels hear the final score.
    let end = console.run(":advance 4d");
    let result: Vec<&Value> = end
        .iter()
        .filter(|r| text(r).starts_with("Team match #1 is over"))
        .collect();
    let where_told: Vec<&Value> = result.iter().map(|r| &r["channel"]).collect();
    assert_eq!(where_told, ["rooks-hall", "knights-hall"], "{end:?}");
    assert_eq!(
        text(result[0]),
        "Team match #1 is over: Rooks 3½ – 4½ Knights. Knights win the match."
    );
    let events = events_of(&end, "match_result");
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["match"], 1);
    assert_eq!(events[0]["home"], "Rooks");
    assert_eq!(events[0]["away"], "Knights");
    assert_eq!(events[0]["home_points"], 3.5);
    assert_eq!(events[0]["away_points"], 4.5);
    let flagged = events_of(&end, "game_over");
    assert!(
        flagged
            .iter()
            .any(|e| e["game"] == 13 && e["reason"] == "timeout" && e["result"] == "1-0"),
        "{end:?}"
    );
}

#[test]
fn leaving_the_team_loses_the_games_still_running_and_french_reads_alike() {
    // One server, each team in its own channel; the match is proposed in
    // French.
    let console = Console::new();
    let replies = console.run(
        ":server club
        :channel tours
        :lang alice fr
        alice: /equipe creer Tours
        adam: /equipe rejoindre Tours
        :channel fous
        bella: /team create Bishops
        boris: /team join Bishops
        :channel tours
        alice: /rencontre creer equipe:Tours contre:Bishops echiquiers:1 temps:2d
        alice: /rencontre rejoindre 1
        :channel fous
        adam: /match accept 1
        bella: /match accept 1
        bella: /match join 1
        :channel tours
        alice: /rencontre lancer 1
        :server elsewhere
        :channel lobby
        boris: /match show 1
        :server club
        :channel fous
        bella: /team leave Bishops",
    );
    let proposed = replies
        .iter()
        .find(|r| text(r).starts_with("Rencontre par équipes n° 1 proposée"))
        .unwrap_or_else(|| panic!("{replies:?}"));
    assert_eq!(
        text(proposed),
        "Rencontre par équipes n° 1 proposée : Tours contre Bishops, jusqu’à 1 échiquier de \
         deux parties (une avec chaque couleur), 2d. Un membre de l’équipe Bishops l’accepte \
         avec /match accepter 1, dans le salon d’où son équipe jouera. Les membres des deux \
         équipes s’inscrivent avec /match rejoindre 1."
    );
    assert!(
        replies.iter().any(|r| text(r)
            == "Only a member of Bishops (or a moderator), on their own server, can accept team match #1."),
        "{replies:?}"
    );
    assert!(
        replies
            .iter()
            .any(|r| r["channel"] == "lobby" && text(r) == "There is no team match #1 here."),
        "{replies:?}"
    );
    let started = replies
        .iter()
        // Told to each channel in its server's language.
        .find(|r| r["channel"] == "tours" && text(r).starts_with("Team match #1 starts"))
        .unwrap_or_else(|| panic!("{replies:?}"));
    assert_eq!(
        pairings(started),
        vec![
            pair(1, 1, "alice", "bella", true),
            pair(2, 1, "bella", "alice", false)
        ]
    );
    // bella leaves her team: both her games are lost, and the match is over.
    let withdrawn: Vec<&Value> = replies
        .iter()
        .filter(|r| text(r) == "bella withdrew from team match #1: 2 games still running are lost.")
        .collect();
    let channels: Vec<&Value> = withdrawn.iter().map(|r| &r["channel"]).collect();
    assert_eq!(channels, ["fous", "tours"]);
    let results: Vec<&Value> = replies
        .iter()
        .filter(|r| text(r) == "Team match #1 is over: Tours 2 – 0 Bishops. Tours win the match.")
        .collect();
    let channels: Vec<&Value> = results.iter().map(|r| &r["channel"]).collect();
    assert_eq!(channels, ["tours", "fous"]);
    assert_eq!(events_of(&replies, "match_result").len(), 2);
    let pgn = console.pgn(2);
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
}
