//! What the web pages show (issue 43), read-only: plain view structs that
//! the web adapter only lays out. Nothing secret is ever put into them: no
//! private notes, no conditional moves, no votes, no player's platform id.
//!
//! A game is found only by its link's token, never by its number; the
//! server-wide pages (tournaments, team matches, standings, ladder,
//! openings, players) only when the server's moderators turned them on
//! (`/settings web on`). Anything else is `None`, which the adapter answers
//! with the same 404 whether or not something exists behind it.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode, Position};

use super::Service;
use super::texts::{self, Names, variant_line};
use super::tournament_flow::Snapshot;
use crate::competition::tiebreak::halves;
use crate::core::event::GameResult;
use crate::core::game::{Game, PlayerId, Status};
use crate::core::notation::Lang;
use crate::core::review::{self, Eval};
use crate::i18n::Arg;
use crate::storage::{GameRecord, ServerRow, StorageError, fresh_token, is_token};

/// The most games a player's page lists at once (then a next page).
pub const PLAYER_GAMES_PER_PAGE: u32 = 50;
/// The most tournaments a server's page lists.
const SERVER_TOURNAMENTS: u32 = 50;
/// The most rows of a standings or ladder table on a page.
const TABLE_ROWS: usize = 200;
/// Finished games read for a server's opening statistics.
const OPENING_GAMES: usize = 2000;

/// One position of a game: the move that led to it (none for the start).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlyView {
    /// English SAN with its suffix (`Nf3+`), empty for the start.
    pub san: String,
    /// The move in UCI (`g1f3`), to mark its squares; empty for the start.
    pub uci: String,
    /// The position after it.
    pub fen: String,
}

/// Both clocks of a game that has one.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClocksView {
    pub white_ms: i64,
    pub black_ms: i64,
    /// The side whose clock runs (`white`, `black`), none once over.
    pub running: Option<&'static str>,
    /// When the running side's flag falls, RFC 3339 in UTC (the page
    /// shows it in the viewer's time zone).
    pub flag_at: Option<String>,
}

/// An engine review's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReviewView {
    pub white_accuracy: String,
    pub black_accuracy: String,
    /// White's advantage in centipawns, clamped, per position (start first).
    pub evals: Vec<i32>,
}

/// Everything a game's page shows, in the reader's language.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GamePage {
    /// The game's stored version: the page's live updates compare it.
    pub version: i64,
    pub white: String,
    pub black: String,
    /// The variant's line (Chess960's number), if not standard chess.
    pub variant: Option<String>,
    /// `C20 King's Pawn Game`, when the moves reached a named opening.
    pub opening: Option<String>,
    pub time_control: String,
    pub rated: bool,
    /// The start first, then one per move.
    pub plies: Vec<PlyView>,
    /// Whose move it is, or the result and how it ended.
    pub status: String,
    /// `1-0`, `0-1`, `½-½` once over.
    pub score: Option<String>,
    pub over: bool,
    pub clocks: Option<ClocksView>,
    pub review: Option<ReviewView>,
    /// The tournament's page, when its server's pages are on: (id, name).
    pub tournament: Option<(i64, String)>,
}

/// A game listed on another page: a link only if it has one.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameLine {
    pub token: Option<String>,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `½-½`, `*` while it runs.
    pub score: String,
}

/// A tournament's page.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TournamentPage {
    pub server_id: i64,
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Each round's pairings, first round first.
    pub rounds: Vec<(u32, Vec<GameLine>)>,
}

/// A server's page: standings, ladder, openings and tournaments.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ServerPage {
    pub server_id: i64,
    /// (player id, name, games, points as written, score %)
    pub standings: Vec<(i64, String, u32, String, u32)>,
    /// Ladder names, best first.
    pub ladder: Vec<String>,
    /// (ECO and name, games, white wins, draws, black wins)
    pub openings: Vec<(String, u32, u32, u32, u32)>,
    pub tournaments: Vec<(i64, String)>,
}

/// A player's page on a server.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlayerPage {
    pub server_id: i64,
    pub name: String,
    /// Their standard rating after each rated game, oldest first.
    pub ratings: Vec<i32>,
    pub games: Vec<GameLine>,
    /// Whether a next page has more games.
    pub more: bool,
}

/// A team match's page.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchPage {
    pub server_id: i64,
    pub home: String,
    pub away: String,
    pub boards: Vec<GameLine>,
}

fn instant(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn score_text(result: GameResult) -> String {
    match result {
        GameResult::Draw => "½-½".to_owned(),
        other => other.as_pgn().to_owned(),
    }
}

fn side_word(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Every position of `game`, the start first.
fn plies_of(game: &Game) -> Vec<PlyView> {
    let mut position = game.start_position().clone();
    let fen = |p: &shakmaty::Chess| Fen::from_position(p, EnPassantMode::Legal).to_string();
    let mut plies = Vec::with_capacity(game.moves().len() + 1);
    plies.push(PlyView {
        san: String::new(),
        uci: String::new(),
        fen: fen(&position),
    });
    for played in game.moves() {
        position.play_unchecked(played.m);
        plies.push(PlyView {
            san: played.san.to_string(),
            uci: played.uci.to_string(),
            fen: fen(&position),
        });
    }
    plies
}

fn clocks_of(game: &Game, now: DateTime<Utc>) -> Option<ClocksView> {
    let clock = game.clock();
    let white = clock.remaining(Color::White, now)?;
    let black = clock.remaining(Color::Black, now)?;
    let running = (!game.is_over()).then(|| game.turn());
    Some(ClocksView {
        white_ms: white.num_milliseconds().max(0),
        black_ms: black.num_milliseconds().max(0),
        running: running.map(side_word),
        flag_at: running.and(clock.deadline()).map(instant),
    })
}

impl Service {
    /// The page link of game `game_id` (`None` without `public_url`, or
    /// when there is no such game); the token is made if the game, older
    /// than the pages, had none.
    pub async fn game_link(&self, game_id: i64) -> Result<Option<String>, StorageError> {
        let Some(base) = self.config.web_url.as_deref() else {
            return Ok(None);
        };
        let token = self.game_token(game_id).await?;
        Ok(token.map(|token| format!("{}/g/{token}", base.trim_end_matches('/'))))
    }

    /// The page link of game `game_id` if it has a token already (every
    /// game created since the pages has): read only, for the scheduler's
    /// notices, which must not write outside their commit.
    pub(super) async fn kept_game_link(
        &self,
        game_id: i64,
    ) -> Result<Option<String>, StorageError> {
        let Some(base) = self.config.web_url.as_deref() else {
            return Ok(None);
        };
        let token = self.store.token_of(game_id).await?;
        Ok(token.map(|token| format!("{}/g/{token}", base.trim_end_matches('/'))))
    }

    /// `reply` with game `game_id`'s page link as its last line, in `lang`
    /// (unchanged without `public_url`).
    pub(super) async fn add_page_link(
        &self,
        reply: &mut super::Reply,
        game_id: i64,
        lang: Lang,
    ) -> Result<(), StorageError> {
        if let Some(url) = self.game_link(game_id).await? {
            let line = self.i18n.text(lang, "web-link", &[("url", Arg::from(url))]);
            reply.text = format!("{}\n{line}", reply.text);
        }
        Ok(())
    }

    /// Game `game_id`'s page token, made if it had none.
    pub async fn game_token(&self, game_id: i64) -> Result<Option<String>, StorageError> {
        self.store.game_token(game_id, &fresh_token()?).await
    }

    /// The game a page token names; a token of the wrong shape is not looked up.
    pub async fn game_of_token(&self, token: &str) -> Result<Option<i64>, StorageError> {
        if !is_token(token) {
            return Ok(None);
        }
        self.store.game_by_token(token).await
    }

    /// The stored versions of the watched games `ids` (one statement per
    /// [`crate::storage::VERSIONS_AT_ONCE`] games).
    pub async fn game_versions(&self, ids: &[i64]) -> Result<Vec<(i64, i64)>, StorageError> {
        let mut versions = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(crate::storage::VERSIONS_AT_ONCE) {
            versions.extend(self.store.game_versions(chunk).await?);
        }
        Ok(versions)
    }

    /// Game `game_id`'s page in `lang` at `now`.
    pub async fn game_page(
        &self,
        game_id: i64,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Option<GamePage>, StorageError> {
        let Some(record) = self.store.game(game_id).await? else {
            return Ok(None);
        };
        let loaded = match self.games.get(record.id, record.version) {
            Some(loaded) => loaded,
            None => self.loaded(record)?,
        };
        let (record, game) = (&loaded.record, &loaded.game);
        let names = Names::new(&record.white_player, &record.black_player);
        let (status, score) = self.game_status(lang, &names, game);
        Ok(Some(GamePage {
            version: record.version,
            white: names.display(Color::White).to_owned(),
            black: names.display(Color::Black).to_owned(),
            variant: variant_line(game.variant(), game.start_fen())
                .map(|(key, args)| self.i18n.text(lang, key, &args)),
            opening: game.opening().map(|o| format!("{} {}", o.eco, o.name)),
            time_control: record.time_control.clone(),
            rated: record.rated,
            plies: plies_of(game),
            status,
            score,
            over: game.is_over(),
            clocks: clocks_of(game, now),
            review: self.review_view(record, game).await?,
            tournament: self.public_tournament_of(record).await?,
        }))
    }

    fn game_status(&self, lang: Lang, names: &Names, game: &Game) -> (String, Option<String>) {
        match game.status() {
            Status::Ongoing => {
                let args = [("player", Arg::from(names.display(game.turn())))];
                (self.i18n.text(lang, "web-to-move", &args), None)
            }
            Status::Over { result, reason, .. } => {
                let sentence = texts::result_sentence(
                    &self.i18n,
                    lang,
                    names,
                    result,
                    reason,
                    game.claimant(),
                    game.turn(),
                );
                (sentence, Some(score_text(result)))
            }
        }
    }

    async fn review_view(
        &self,
        record: &GameRecord,
        game: &Game,
    ) -> Result<Option<ReviewView>, StorageError> {
        if !game.is_over() {
            return Ok(None);
        }
        let Some(kept) = self.store.review(record.id).await? else {
            return Ok(None);
        };
        let Some(evals) = review::evals_from_text(&kept.evals) else {
            return Ok(None);
        };
        let evals: Vec<Eval> = review::evals_only(&evals);
        let first = game.start_position().turn();
        let Some((white, black)) = review::figures(&evals, first) else {
            return Ok(None);
        };
        let (white, black) = match first {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        Ok(Some(ReviewView {
            white_accuracy: format!("{:.1}", white.accuracy),
            black_accuracy: format!("{:.1}", black.accuracy),
            evals: evals.iter().map(|e| e.clamped_cp()).collect(),
        }))
    }

    /// The server `server_id` if its pages are on.
    async fn public_server(&self, server_id: i64) -> Result<Option<ServerRow>, StorageError> {
        Ok(self
            .store
            .server(server_id)
            .await?
            .filter(|server| server.web_pages))
    }

    async fn public_tournament_of(
        &self,
        record: &GameRecord,
    ) -> Result<Option<(i64, String)>, StorageError> {
        if !record.tournament_game || self.public_server(record.server_id).await?.is_none() {
            return Ok(None);
        }
        let Some(id) = self.store.tournament_of_game(record.id).await? else {
            return Ok(None);
        };
        Ok(self.store.tournament(id).await?.map(|t| (t.id, t.name)))
    }

    /// A game's public PGN (never a player's notes), by its page's game.
    pub async fn game_page_pgn(&self, game_id: i64) -> Result<Option<String>, StorageError> {
        self.export_pgn(game_id).await
    }

    /// A game's animated GIF for its page, drawn on a blocking thread; one
    /// at a time for all the pages (`None` when one is being drawn, or
    /// when the picture failed).
    pub async fn game_page_gif(&self, game_id: i64) -> Result<Option<Vec<u8>>, StorageError> {
        let Ok(_permit) = self.web_gifs.try_acquire() else {
            return Ok(None);
        };
        let Some(record) = self.store.game(game_id).await? else {
            return Ok(None);
        };
        let game = super::games::restore(&record)?;
        let names = Names::new(&record.white_player, &record.black_player);
        let result = match game.status() {
            Status::Over { result, .. } => Some(result),
            Status::Ongoing => None,
        };
        let options = self.page_gif_options(&names, result);
        let moves: Vec<shakmaty::Move> = game.moves().iter().map(|p| p.m).collect();
        let start = game.start_position().clone();
        let drawn = tokio::task::spawn_blocking(move || {
            crate::render::game_gif(&start, &moves, &options, crate::render::GifLimits::DEFAULT)
        })
        .await;
        Ok(match drawn {
            Ok(Ok(gif)) => Some(gif.bytes),
            _ => None,
        })
    }

    /// A tournament's page, if its server's pages are on.
    pub async fn tournament_page(
        &self,
        id: i64,
        lang: Lang,
    ) -> Result<Option<TournamentPage>, StorageError> {
        let Some(row) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        if self.public_server(row.server_id).await?.is_none() {
            return Ok(None);
        }
        let server_id = row.server_id;
        let snapshot = Snapshot::load(&self.store, row).await?;
        let (header, rows, _) = self.crosstable_cells(&snapshot, lang)?;
        let names = |player: PlayerId| {
            snapshot
                .entrants
                .iter()
                .find(|e| e.player == player)
                .map_or_else(String::new, |e| e.name.clone())
        };
        let mut rounds: Vec<(u32, Vec<GameLine>)> = Vec::new();
        for pairing in &snapshot.pairings {
            let token = match pairing.game_id {
                Some(game) => self.store.token_of(game).await?,
                None => None,
            };
            let score = match pairing.game_state {
                Some(crate::storage::Status::Over { result, .. }) => score_text(result),
                _ if pairing.black.is_none() => self.i18n.text(lang, "tournament-cell-bye", &[]),
                _ => "*".to_owned(),
            };
            let line = GameLine {
                token,
                white: names(pairing.white),
                black: pairing.black.map(names).unwrap_or_default(),
                score,
            };
            match rounds.last_mut() {
                Some((round, lines)) if *round == pairing.round => lines.push(line),
                _ => rounds.push((pairing.round, vec![line])),
            }
        }
        Ok(Some(TournamentPage {
            server_id,
            title: snapshot.title(),
            header,
            rows,
            rounds,
        }))
    }

    /// A server's page, if its pages are on.
    pub async fn server_page(&self, server_id: i64) -> Result<Option<ServerPage>, StorageError> {
        if self.public_server(server_id).await?.is_none() {
            return Ok(None);
        }
        let standings = self.store.standings(server_id).await?;
        let table = standings
            .into_iter()
            .take(TABLE_ROWS)
            .map(|row| {
                let line = &row.line;
                (
                    line.player.0,
                    row.name.clone(),
                    line.played,
                    halves(line.half_points),
                    line.percentage().round() as u32,
                )
            })
            .collect();
        let ladder = self.store.ladder(server_id).await?;
        let ladder_names = ladder
            .entries
            .into_iter()
            .take(TABLE_ROWS)
            .map(|entry| entry.name)
            .collect();
        let tournaments = self
            .store
            .tournaments_on_server(server_id, SERVER_TOURNAMENTS)
            .await?
            .into_iter()
            .map(|t| (t.id, t.name))
            .collect();
        Ok(Some(ServerPage {
            server_id,
            standings: table,
            ladder: ladder_names,
            openings: self.opening_lines(server_id).await?,
            tournaments,
        }))
    }

    /// A player's page on a server (games from `page` × [`PLAYER_GAMES_PER_PAGE`]).
    pub async fn player_page(
        &self,
        server_id: i64,
        player: i64,
        page: u32,
    ) -> Result<Option<PlayerPage>, StorageError> {
        if self.public_server(server_id).await?.is_none() {
            return Ok(None);
        }
        let player = PlayerId(player);
        let Some(row) = self.store.player(player).await? else {
            return Ok(None);
        };
        let skip = page.saturating_mul(PLAYER_GAMES_PER_PAGE);
        let mut games = self
            .store
            .player_games(server_id, player, PLAYER_GAMES_PER_PAGE + 1, skip)
            .await?;
        if games.is_empty() && page == 0 {
            // Not a player of this server: as if there were no such page.
            return Ok(None);
        }
        let more = games.len() > PLAYER_GAMES_PER_PAGE as usize;
        games.truncate(PLAYER_GAMES_PER_PAGE as usize);
        let mut lines = Vec::with_capacity(games.len());
        for game in games {
            let score = match game.state {
                crate::storage::Status::Over { result, .. } => score_text(result),
                crate::storage::Status::Ongoing => "*".to_owned(),
            };
            lines.push(GameLine {
                token: self.store.token_of(game.id).await?,
                white: game.white_name,
                black: game.black_name,
                score,
            });
        }
        let history = self
            .store
            .rating_history(server_id, player, crate::core::variant::Variant::Standard)
            .await?;
        Ok(Some(PlayerPage {
            server_id,
            name: row.display_name,
            ratings: history.iter().map(|p| p.rating.round() as i32).collect(),
            games: lines,
            more,
        }))
    }

    /// A team match's page, if the home server's pages are on.
    pub async fn match_page(&self, id: i64) -> Result<Option<MatchPage>, StorageError> {
        let Some(row) = self.store.team_match(id).await? else {
            return Ok(None);
        };
        let home = row.side(crate::core::team::MatchSide::Home);
        if self.public_server(home.server_id).await?.is_none() {
            return Ok(None);
        }
        let away = row.side(crate::core::team::MatchSide::Away);
        let mut boards = Vec::new();
        for game in self.store.match_games(id).await? {
            let Some(record) = self.store.game(game.game_id).await? else {
                continue;
            };
            let score = match record.state {
                crate::storage::Status::Over { result, .. } => score_text(result),
                crate::storage::Status::Ongoing => "*".to_owned(),
            };
            boards.push(GameLine {
                token: self.store.token_of(record.id).await?,
                white: record.white_player.display_name.clone(),
                black: record.black_player.display_name.clone(),
                score,
            });
        }
        Ok(Some(MatchPage {
            server_id: home.server_id,
            home: home.team_name.clone(),
            away: away.team_name.clone(),
            boards,
        }))
    }
}

impl Service {
    /// A server's most played openings (see `/openings`), at most [`TABLE_ROWS`].
    async fn opening_lines(
        &self,
        server_id: i64,
    ) -> Result<Vec<(String, u32, u32, u32, u32)>, StorageError> {
        let games = self
            .store
            .openings_played(server_id, OPENING_GAMES, 40)
            .await?;
        let tallies = crate::core::opening::tally(
            games
                .iter()
                .map(|(result, moves)| (crate::core::opening::of_uci_moves(moves), *result)),
        );
        Ok(tallies
            .iter()
            .take(TABLE_ROWS)
            .map(|t| {
                (
                    format!("{} {}", t.opening.eco, t.opening.name),
                    t.games(),
                    t.white_wins,
                    t.draws,
                    t.black_wins,
                )
            })
            .collect())
    }
}
