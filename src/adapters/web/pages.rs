//! The pages' HTML: askama templates (`templates/web/`), checked when the
//! crate compiles and escaping every value they are given, laid out from
//! the service's views. Names are wrapped in `<bdi>` so right-to-left
//! marks in a name cannot turn the text around them.

use std::sync::LazyLock;

use askama::Template;

use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::web::{GameLine, GamePage, MatchPage, PlayerPage, ServerPage, TournamentPage};

pub const APP_JS: &str = include_str!("../../../assets/web/app.js");
pub const APP_CSS: &str = include_str!("../../../assets/web/app.css");

/// The same page for anything unknown or not public.
pub const NOT_FOUND: &str = "<!DOCTYPE html><html><head><meta charset=\"utf-8\">\
    <title>404</title><link rel=\"stylesheet\" href=\"/static/app.css\"></head>\
    <body><main class=\"page\"><h1>404</h1></main></body></html>";

const PIECES: [(&str, &str); 12] = [
    (
        "wK.svg",
        include_str!("../../../assets/pieces/cburnett/wK.svg"),
    ),
    (
        "wQ.svg",
        include_str!("../../../assets/pieces/cburnett/wQ.svg"),
    ),
    (
        "wR.svg",
        include_str!("../../../assets/pieces/cburnett/wR.svg"),
    ),
    (
        "wB.svg",
        include_str!("../../../assets/pieces/cburnett/wB.svg"),
    ),
    (
        "wN.svg",
        include_str!("../../../assets/pieces/cburnett/wN.svg"),
    ),
    (
        "wP.svg",
        include_str!("../../../assets/pieces/cburnett/wP.svg"),
    ),
    (
        "bK.svg",
        include_str!("../../../assets/pieces/cburnett/bK.svg"),
    ),
    (
        "bQ.svg",
        include_str!("../../../assets/pieces/cburnett/bQ.svg"),
    ),
    (
        "bR.svg",
        include_str!("../../../assets/pieces/cburnett/bR.svg"),
    ),
    (
        "bB.svg",
        include_str!("../../../assets/pieces/cburnett/bB.svg"),
    ),
    (
        "bN.svg",
        include_str!("../../../assets/pieces/cburnett/bN.svg"),
    ),
    (
        "bP.svg",
        include_str!("../../../assets/pieces/cburnett/bP.svg"),
    ),
];

/// A piece's SVG by its file name (`wK.svg`).
pub fn piece(file: &str) -> Option<&'static str> {
    PIECES
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, svg)| *svg)
}

static TEXTS: LazyLock<I18n> = LazyLock::new(I18n::new);

/// The pages' words in one language.
struct Words(Lang);

impl Words {
    fn get(&self, id: &str) -> String {
        TEXTS.text(self.0, id, &[])
    }
}

fn lang_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "fr",
        _ => "en",
    }
}

/// One square of the board as first drawn.
struct Square {
    name: String,
    shade: &'static str,
    /// `wK`…`bP`, empty for none.
    piece: String,
}

/// The 64 squares of a FEN's placement, a8 first (White at the bottom).
fn squares(fen: &str) -> Vec<Square> {
    let placement = fen.split(' ').next().unwrap_or("");
    let mut pieces: Vec<String> = Vec::with_capacity(64);
    for rank in placement.split('/').take(8) {
        for c in rank.chars().take(8) {
            match c.to_digit(10) {
                Some(n) => pieces.extend((0..n.min(8)).map(|_| String::new())),
                None => {
                    let colour = if c.is_ascii_uppercase() { 'w' } else { 'b' };
                    pieces.push(format!("{colour}{}", c.to_ascii_uppercase()));
                }
            }
        }
    }
    pieces.resize(64, String::new());
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let (file, rank) = (i % 8, 7 - i / 8);
            Square {
                name: format!("{}{}", char::from(b'a' + file as u8), rank + 1),
                shade: if (file + rank) % 2 == 0 {
                    "dark"
                } else {
                    "light"
                },
                piece,
            }
        })
        .collect()
}

struct MoveButton {
    ply: usize,
    san: String,
}

struct MovePair {
    number: usize,
    moves: Vec<MoveButton>,
}

/// The moves in numbered pairs (Black's first move alone when Black began).
fn move_pairs(page: &GamePage) -> Vec<MovePair> {
    let black_first = page
        .plies
        .first()
        .is_some_and(|start| start.fen.split(' ').nth(1) == Some("b"));
    let offset = usize::from(black_first);
    let mut pairs: Vec<MovePair> = Vec::new();
    for (ply, played) in page.plies.iter().enumerate().skip(1) {
        let number = (ply + offset).div_ceil(2);
        let button = MoveButton {
            ply,
            san: played.san.clone(),
        };
        match pairs.last_mut() {
            Some(pair) if pair.number == number => pair.moves.push(button),
            _ => pairs.push(MovePair {
                number,
                moves: vec![button],
            }),
        }
    }
    pairs
}

/// `2d 04:05:06` or `04:05:06`: the page shows the same while its script loads.
fn clock_text(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let hms = format!(
        "{:02}:{:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    );
    if days > 0 {
        format!("{days}d {hms}")
    } else {
        hms
    }
}

/// The evaluation graph's area: White's share from the bottom, per position.
fn eval_area(evals: &[i32]) -> String {
    let n = evals.len().max(2) - 1;
    let mut points = vec!["0,100".to_owned()];
    for (i, cp) in evals.iter().enumerate() {
        let chances = 2.0 / (1.0 + (-0.003_682_08 * f64::from(*cp)).exp()) - 1.0;
        let x = 400.0 * i as f64 / n as f64;
        let y = 50.0 - 50.0 * chances;
        points.push(format!("{x:.1},{y:.1}"));
    }
    points.push("400,100".to_owned());
    points.join(" ")
}

#[derive(Template)]
#[template(path = "web/game.html")]
struct GameTemplate<'a> {
    lang: &'static str,
    t: Words,
    page: &'a GamePage,
    token: &'a str,
    json: String,
    squares: Vec<Square>,
    moves: Vec<MovePair>,
    last_ply: usize,
    white_clock: String,
    black_clock: String,
    flag_at: Option<String>,
    eval_area: String,
}

/// A game's page; `token` is its link's (already checked to be one).
pub fn game(page: &GamePage, token: &str, lang: Lang) -> Result<String, askama::Error> {
    let last = page.plies.last().map(|p| p.fen.as_str()).unwrap_or("");
    let clock = |ms: Option<i64>| ms.map(clock_text).unwrap_or_default();
    GameTemplate {
        lang: lang_tag(lang),
        t: Words(lang),
        page,
        token,
        json: serde_json::to_string(page).unwrap_or_default(),
        squares: squares(last),
        moves: move_pairs(page),
        last_ply: page.plies.len().saturating_sub(1),
        white_clock: clock(page.clocks.as_ref().map(|c| c.white_ms)),
        black_clock: clock(page.clocks.as_ref().map(|c| c.black_ms)),
        flag_at: page.clocks.as_ref().and_then(|c| c.flag_at.clone()),
        eval_area: page
            .review
            .as_ref()
            .map(|r| eval_area(&r.evals))
            .unwrap_or_default(),
    }
    .render()
}

/// A table cell: text, with a link when it leads somewhere.
struct Cell {
    text: String,
    href: Option<String>,
}

impl Cell {
    fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            href: None,
        }
    }
}

struct TableView {
    id: &'static str,
    caption: String,
    header: Vec<String>,
    rows: Vec<Vec<Cell>>,
}

struct Chart {
    points: String,
    low: i32,
    high: i32,
}

#[derive(Template)]
#[template(path = "web/table_page.html")]
struct TablePage {
    lang: &'static str,
    t: Words,
    title: String,
    home: Option<String>,
    chart: Option<Chart>,
    tables: Vec<TableView>,
    next: Option<String>,
}

impl TablePage {
    fn new(lang: Lang, title: String, home: Option<String>) -> TablePage {
        TablePage {
            lang: lang_tag(lang),
            t: Words(lang),
            title,
            home,
            chart: None,
            tables: Vec::new(),
            next: None,
        }
    }

    fn table(&mut self, id: &'static str, caption: &str, header: &[&str], rows: Vec<Vec<Cell>>) {
        let header = header.iter().map(|h| self.t.get(h)).collect();
        self.tables.push(TableView {
            id,
            caption: self.t.get(caption),
            header,
            rows,
        });
    }
}

/// Listed games: players and score (or "ongoing"), linked to the game's
/// page when it has a link.
fn game_rows(games: &[GameLine], t: &Words) -> Vec<Vec<Cell>> {
    games
        .iter()
        .map(|g| {
            let href = g.token.as_ref().map(|t| format!("/g/{t}"));
            let text = match g.score.as_str() {
                "*" => t.get("web-ongoing"),
                score => score.to_owned(),
            };
            vec![
                Cell::text(g.white.clone()),
                Cell::text(g.black.clone()),
                Cell { text, href },
            ]
        })
        .collect()
}

/// The round's number in `web-round` (a message argument).
const ROUND_ARG: &str = "round";

const GAME_HEADER: [&str; 3] = ["web-white", "web-black", "web-result"];

pub fn tournament(page: &TournamentPage, lang: Lang) -> Result<String, askama::Error> {
    let home = Some(format!("/s/{}", page.server_id));
    let mut view = TablePage::new(lang, page.title.clone(), home);
    view.tables.push(TableView {
        id: "table-crosstable",
        caption: view.t.get("web-crosstable"),
        header: page.header.clone(),
        rows: page
            .rows
            .iter()
            .map(|row| row.iter().map(|c| Cell::text(c.clone())).collect())
            .collect(),
    });
    for (round, games) in &page.rounds {
        let caption = TEXTS.text(
            lang,
            "web-round",
            &[(ROUND_ARG, crate::i18n::Arg::from(*round))],
        );
        let header = GAME_HEADER.iter().map(|h| view.t.get(h)).collect();
        view.tables.push(TableView {
            id: "table-round",
            caption,
            header,
            rows: game_rows(games, &view.t),
        });
    }
    view.render()
}

pub fn team_match(page: &MatchPage, lang: Lang) -> Result<String, askama::Error> {
    let title = format!("{} – {}", page.home, page.away);
    let mut view = TablePage::new(lang, title, Some(format!("/s/{}", page.server_id)));
    view.table(
        "table-boards",
        "web-boards",
        &GAME_HEADER,
        game_rows(&page.boards, &view.t),
    );
    view.render()
}

pub fn server(page: &ServerPage, lang: Lang) -> Result<String, askama::Error> {
    let mut view = TablePage::new(lang, TEXTS.text(lang, "web-server", &[]), None);
    let standings = page
        .standings
        .iter()
        .enumerate()
        .map(|(rank, (id, name, games, points, percent))| {
            vec![
                Cell::text((rank + 1).to_string()),
                Cell {
                    text: name.clone(),
                    href: Some(format!("/s/{}/p/{id}", page.server_id)),
                },
                Cell::text(games.to_string()),
                Cell::text(points.clone()),
                Cell::text(format!("{percent}%")),
            ]
        })
        .collect();
    let header = [
        "web-rank",
        "web-player",
        "web-games",
        "web-points",
        "web-score",
    ];
    view.table("table-standings", "web-standings", &header, standings);
    let ladder = page
        .ladder
        .iter()
        .enumerate()
        .map(|(rank, name)| vec![Cell::text((rank + 1).to_string()), Cell::text(name.clone())])
        .collect();
    view.table(
        "table-ladder",
        "web-ladder",
        &["web-rank", "web-player"],
        ladder,
    );
    let openings = page
        .openings
        .iter()
        .map(|(name, games, white, draws, black)| {
            [
                name.clone(),
                games.to_string(),
                white.to_string(),
                draws.to_string(),
                black.to_string(),
            ]
            .into_iter()
            .map(Cell::text)
            .collect()
        })
        .collect();
    let header = [
        "web-opening",
        "web-games",
        "web-white-wins",
        "web-draws",
        "web-black-wins",
    ];
    view.table("table-openings", "web-openings", &header, openings);
    let tournaments = page
        .tournaments
        .iter()
        .map(|(id, name)| {
            vec![Cell {
                text: name.clone(),
                href: Some(format!("/t/{id}")),
            }]
        })
        .collect();
    view.table(
        "table-tournaments",
        "web-tournaments",
        &["web-tournament"],
        tournaments,
    );
    view.render()
}

pub fn player(
    page: &PlayerPage,
    player: i64,
    number: u32,
    lang: Lang,
) -> Result<String, askama::Error> {
    let mut view = TablePage::new(
        lang,
        page.name.clone(),
        Some(format!("/s/{}", page.server_id)),
    );
    view.chart = rating_chart(&page.ratings);
    view.table(
        "table-games",
        "web-games-list",
        &GAME_HEADER,
        game_rows(&page.games, &view.t),
    );
    if page.more {
        view.next = Some(format!(
            "/s/{}/p/{player}?page={}",
            page.server_id,
            number.saturating_add(1)
        ));
    }
    view.render()
}

/// The rating history as a line over its own range.
fn rating_chart(ratings: &[i32]) -> Option<Chart> {
    let (low, high) = (*ratings.iter().min()?, *ratings.iter().max()?);
    let span = f64::from((high - low).max(1));
    let n = ratings.len().max(2) - 1;
    let points = ratings
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let x = 400.0 * i as f64 / n as f64;
            let y = 110.0 - 100.0 * f64::from(r - low) / span;
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(Chart { points, low, high })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_is_read_from_the_fen_a8_first() {
        let board = squares("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(board.len(), 64);
        assert_eq!(
            (board[0].name.as_str(), board[0].piece.as_str()),
            ("a8", "bR")
        );
        let e4 = board.iter().find(|s| s.name == "e4").expect("e4");
        assert_eq!(e4.piece, "wP");
        assert_eq!(e4.shade, "light");
        let a1 = board.iter().find(|s| s.name == "a1").expect("a1");
        assert_eq!((a1.piece.as_str(), a1.shade), ("wR", "dark"));
        // A broken placement gives an empty board, not a panic.
        assert!(squares("99/x").iter().all(|s| s.name.len() == 2));
    }

    fn reviewed_game(white: &str) -> GamePage {
        use crate::service::web::{PlyView, ReviewView};
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        GamePage {
            version: 3,
            white: white.to_owned(),
            black: "bob".to_owned(),
            variant: None,
            opening: None,
            time_control: "3d".to_owned(),
            rated: true,
            plies: vec![
                PlyView {
                    san: String::new(),
                    uci: String::new(),
                    fen: start.to_owned(),
                },
                PlyView {
                    san: "e4".to_owned(),
                    uci: "e2e4".to_owned(),
                    fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_owned(),
                },
            ],
            status: "bob resigns".to_owned(),
            score: Some("1-0".to_owned()),
            over: true,
            clocks: None,
            review: Some(ReviewView {
                white_accuracy: "97.5".to_owned(),
                black_accuracy: "40.0".to_owned(),
                evals: vec![20, 35],
            }),
            tournament: None,
        }
    }

    #[test]
    fn a_reviewed_game_shows_its_accuracy_and_graph() {
        let html = game(&reviewed_game("alice"), "0123", Lang::En).expect("renders");
        assert!(html.contains("97.5%") && html.contains("40.0%"), "{html}");
        assert!(
            html.contains("<polygon points=\"0,100 0.0,48.2 400.0,46.8 400,100\""),
            "{html}"
        );
        let french = game(&reviewed_game("alice"), "0123", Lang::Fr).expect("renders");
        assert!(
            french.contains("Précision") && french.contains("lang=\"fr\""),
            "{french}"
        );
    }

    #[test]
    fn every_value_is_escaped_in_text_and_attributes() {
        let name = "<script>alert('x')</script>\"&";
        let html = game(&reviewed_game(name), "0123", Lang::En).expect("renders");
        assert!(!html.contains("<script>alert"), "{html}");
        // The page's data for its script is an escaped attribute too.
        assert!(!html.contains("'x'"), "{html}");
        assert!(
            html.contains("<bdi>&#60;script&#62;") || html.contains("<bdi>&lt;script&gt;"),
            "{html}"
        );
    }

    #[test]
    fn clocks_show_days_then_hours() {
        let cases = [
            (0, "00:00:00"),
            (61_000, "00:01:01"),
            (90_061_000, "1d 01:01:01"),
            (-5, "00:00:00"),
        ];
        for (ms, text) in cases {
            assert_eq!(clock_text(ms), text);
        }
    }
}
