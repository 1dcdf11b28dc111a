//! Answers that change nothing: board, score, PGN, game lists, standings.

use std::sync::Arc;

use shakmaty::{Color, Position};

use super::games::{Pick, board_view, restore};
use super::texts::{self, Names, is_stand_in, variant_line};
use super::{Attachment, Attempt, Context, Service};
use crate::competition::standings::{self, Line};
use crate::core::command::UserRef;
use crate::core::event::GameResult;
use crate::core::game::{Game, PlayerId};
use crate::core::names::Named;
use crate::core::notation::{self, Style};
use crate::core::pgn::{self, PgnTags};
use crate::i18n::Arg;
use crate::render::table::{Caption, table_png};
use crate::render::text::diagram;
use crate::storage::{GameRecord, ServerRow, StandingRow, Status, StorageError};

impl Service {
    /// A stored game as PGN, for `pawnpost pgn <id>`; `None` if there is no such game.
    pub async fn export_pgn(&self, game_id: i64) -> Result<Option<String>, StorageError> {
        let Some(record) = self.store.game(game_id).await? else {
            return Ok(None);
        };
        let game = restore(&record)?;
        self.game_pgn(&record, &game, None)
            .await
            .map(|(text, _)| Some(text))
    }

    /// Every game (or `player_name`'s, or tournament `tournament`'s), oldest
    /// first, for `pawnpost games`.
    pub async fn listed_games(
        &self,
        player_name: Option<&str>,
        tournament: Option<i64>,
    ) -> Result<Vec<crate::storage::GameSummary>, StorageError> {
        self.store.listed_games(player_name, tournament).await
    }

    /// Those games as one PGN file (`pawnpost export`), each exactly as
    /// `/pgn` gives it, separated by a blank line.
    pub async fn export_games(
        &self,
        player_name: Option<&str>,
        tournament: Option<i64>,
    ) -> Result<String, StorageError> {
        let mut file = String::new();
        for game in self.listed_games(player_name, tournament).await? {
            if let Some(pgn) = self.export_pgn(game.id).await? {
                if !file.is_empty() {
                    file.push('\n');
                }
                file.push_str(&pgn);
            }
        }
        Ok(file)
    }

    /// The one PGN of a stored game, whoever asks (`/pgn`, `pawnpost pgn`):
    /// the same tags, the same Site, English SAN and comments whatever the
    /// reader's language (PGN is an English format, and [`pgn::import`]
    /// reads the comments back).
    ///
    /// With `reader`, a player of the game, their private notes are added as
    /// comments: that PGN is for them alone (the flag says it holds some).
    async fn game_pgn(
        &self,
        record: &GameRecord,
        game: &Game,
        reader: Option<PlayerId>,
    ) -> Result<(String, bool), StorageError> {
        let server = self.store.server(record.server_id).await?;
        let names = Names::new(&record.white_player, &record.black_player);
        let notes = match reader.filter(|r| game.players().side_of(*r).is_some()) {
            Some(player) => self.store.private_notes(record.id, player).await?,
            None => Vec::new(),
        };
        let comments: Vec<(usize, String)> = notes
            .into_iter()
            .map(|note| (note.ply as usize, note.text))
            .collect();
        let mut tags = tags_for(record, &names, server.as_ref());
        self.tournament_tags(record, &mut tags).await?;
        let text = pgn::export_with_comments(game, &tags, &comments);
        Ok((text, !comments.is_empty()))
    }

    pub(super) async fn board(&self, ctx: &Context, id: Option<i64>) -> Attempt {
        let loaded = match self.pick_game(ctx, id, false).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let (record, game) = (&loaded.record, &loaded.game);
        let names = Names::new(&record.white_player, &record.black_player);
        let viewer = self.viewer_side(ctx, record, game).await?;
        let mut text = self.board_header(ctx, record.id, &names, game);
        if let Some((key, args)) = variant_line(game.variant(), game.start_fen()) {
            text = format!("{text}\n{}", self.text(ctx, key, &args));
        }
        if let Some(opening) = game.opening() {
            let line = self.text(
                ctx,
                "board-opening",
                &[
                    ("eco", Arg::from(opening.eco)),
                    ("name", Arg::from(opening.name)),
                ],
            );
            text = format!("{text}\n{line}");
        }
        // A finished game's clocks no longer run: its result says all.
        if !game.is_over() {
            let clocks = texts::clock_text(&self.i18n, ctx.lang, &names, game, ctx.now);
            text = format!("{text}\n{clocks}");
        }
        if let Some(url) = self.game_link(record.id).await? {
            let line = self.text(ctx, "web-link", &[("url", Arg::from(url))]);
            text = format!("{text}\n{line}");
        }
        let mut reply = self.private(ctx, text);
        reply.diagram = Some(diagram(game.position(), viewer));
        let view = board_view(game, record.id, &names, viewer);
        reply.board = Some(self.with_clocks(view, game, ctx.lang, ctx.now));
        Ok(vec![reply])
    }

    /// The board's first line: whose move it is, or once the game is over
    /// its result and how it ended.
    fn board_header(&self, ctx: &Context, id: i64, names: &Names, game: &Game) -> String {
        let mut args = vec![
            ("game", Arg::from(id)),
            ("white", Arg::from(names.display(Color::White))),
            ("black", Arg::from(names.display(Color::Black))),
        ];
        let Status::Over { result, reason, .. } = game.status() else {
            args.push(("turn", Arg::from(names.display(game.turn()))));
            return self.text(ctx, "board", &args);
        };
        let sentence = texts::result_sentence(
            &self.i18n,
            ctx.lang,
            names,
            result,
            reason,
            game.claimant(),
            game.turn(),
        );
        let score = match result {
            GameResult::Draw => "½-½",
            other => other.as_pgn(),
        };
        args.push(("score", Arg::from(score)));
        args.push(("result", Arg::from(sentence)));
        self.text(ctx, "board-over", &args)
    }

    /// The side the caller sees the board from: theirs, or their team's
    /// in a vote game; White for an onlooker.
    async fn viewer_side(
        &self,
        ctx: &Context,
        record: &GameRecord,
        game: &Game,
    ) -> Result<Color, StorageError> {
        if let Some(side) = game.players().side_of(ctx.player.id) {
            return Ok(side);
        }
        let stand_ins = [&record.white_player, &record.black_player];
        if !stand_ins.iter().any(|p| is_stand_in(&p.platform_id)) {
            return Ok(Color::White);
        }
        let teams = self.store.teams_of(ctx.server.id, ctx.player.id).await?;
        let side = teams.iter().find_map(|t| game.players().side_of(t.player));
        Ok(side.unwrap_or(Color::White))
    }

    pub(super) async fn moves(&self, ctx: &Context, id: Option<i64>) -> Attempt {
        let loaded = match self.pick_game(ctx, id, false).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let game = &loaded.game;
        if game.moves().is_empty() {
            return Ok(vec![self.private(ctx, self.text(ctx, "moves-none", &[]))]);
        }
        let style = Style::for_lang(ctx.lang);
        let start = game.start_position();
        let sans = game
            .moves()
            .iter()
            .map(|played| notation::restyle_san(&played.san.to_string(), style));
        let text = numbered_moves(start.turn(), start.fullmoves().get(), sans);
        Ok(vec![self.private(ctx, text)])
    }

    pub(super) async fn pgn(&self, ctx: &Context, id: Option<i64>) -> Attempt {
        let loaded = match self.pick_game(ctx, id, false).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let (text, with_notes) = self
            .game_pgn(&loaded.record, &loaded.game, Some(ctx.player.id))
            .await?;
        // Also as a file: a long game's PGN is longer than a chat message.
        let file = Attachment {
            filename: format!("game-{}.pgn", loaded.record.id),
            content_type: "application/x-chess-pgn".to_owned(),
            bytes: Arc::from(text.as_bytes()),
        };
        let mut reply = self.private(ctx, text);
        reply.secret = with_notes;
        reply.attachments.push(file);
        Ok(vec![reply])
    }

    pub(super) async fn games(&self, ctx: &Context) -> Attempt {
        let (server, me) = (ctx.server.id, ctx.player.id);
        let mut games = self.store.ongoing_games_on_server(server, me).await?;
        // A vote game is its members' game too.
        games.extend(self.store.team_games_on_server(server, me).await?);
        games.sort_by_key(|g| std::cmp::Reverse(g.id));
        games.dedup_by_key(|g| g.id);
        if games.is_empty() {
            return Ok(vec![self.private(ctx, self.text(ctx, "games-none", &[]))]);
        }
        let mut lines = vec![self.text(ctx, "games-header", &[])];
        for game in &games {
            let to_move = match game.turn {
                Color::White => &game.white_name,
                Color::Black => &game.black_name,
            };
            let state = match game.state {
                Status::Ongoing => self.text(
                    ctx,
                    "game-line-to-move",
                    &[("player", Arg::from(to_move.as_str()))],
                ),
                Status::Over { result, .. } => result.as_pgn().to_owned(),
            };
            lines.push(self.text(
                ctx,
                "game-line",
                &[
                    ("game", Arg::from(game.id)),
                    ("white", Arg::from(game.white_name.as_str())),
                    ("black", Arg::from(game.black_name.as_str())),
                    ("state", Arg::from(state)),
                ],
            ));
        }
        Ok(vec![self.private(ctx, lines.join("\n"))])
    }

    pub(super) async fn standings(&self, ctx: &Context) -> Attempt {
        let rows = self.store.standings(ctx.server.id).await?;
        self.show_standings(ctx, rows)
    }

    /// The table of one configured season (games that ended within its dates).
    pub(super) async fn season_standings(&self, ctx: &Context, name: &str) -> Attempt {
        let Some(season) = self.config.seasons.iter().find(|s| s.name == name) else {
            let text = self.text(ctx, "season-unknown", &[("season", Arg::from(name))]);
            return Ok(vec![self.private(ctx, text)]);
        };
        let games = self.store.finished_games(ctx.server.id).await?;
        let mut rows = Vec::new();
        for line in standings::table(&games, Some(season)) {
            let (name, team) = match self.store.player(line.player).await? {
                Some(player) => (player.display_name, texts::is_stand_in(&player.platform_id)),
                None => (String::new(), false),
            };
            rows.push(StandingRow { name, team, line });
        }
        self.show_standings(ctx, rows)
    }

    /// `player`'s wins, draws and losses against `opponent` (the caller by default).
    pub(super) async fn record(
        &self,
        ctx: &Context,
        player: &UserRef,
        opponent: Option<&UserRef>,
    ) -> Attempt {
        let first = self
            .store
            .find_player(ctx.platform, player.as_str())
            .await?;
        let second = match opponent {
            Some(user) => self.store.find_player(ctx.platform, user.as_str()).await?,
            None => Some(ctx.player.clone()),
        };
        let first_known = first.is_some();
        let (Some(first), Some(second)) = (first, second) else {
            let unknown = match (first_known, opponent) {
                (true, Some(user)) => user.as_str(),
                _ => player.as_str(),
            };
            let text = self.text(ctx, "rating-unknown", &[("player", Arg::from(unknown))]);
            return Ok(vec![self.private(ctx, text)]);
        };
        let games = self.store.finished_games(ctx.server.id).await?;
        let (won, drawn, lost) = standings::record(&games, first.id, second.id);
        let text = self.text(
            ctx,
            "record-line",
            &[
                ("player", Arg::from(first.display_name.as_str())),
                ("opponent", Arg::from(second.display_name.as_str())),
                ("won", Arg::from(won)),
                ("drawn", Arg::from(drawn)),
                ("lost", Arg::from(lost)),
            ],
        );
        Ok(vec![self.public(ctx, None, text)])
    }

    /// Standings rows as text and as a PNG table: the people's, then the
    /// teams' of vote games in a table of their own.
    fn show_standings(&self, ctx: &Context, rows: Vec<StandingRow>) -> Attempt {
        if rows.is_empty() {
            let reply = self.public(ctx, None, self.text(ctx, "standings-none", &[]));
            return Ok(vec![reply]);
        }
        let (teams, people): (Vec<StandingRow>, Vec<StandingRow>) =
            rows.into_iter().partition(|row| row.team);
        let people: Vec<(String, Line)> = people.into_iter().map(|r| (r.name, r.line)).collect();
        let teams: Vec<(String, Line)> = teams.into_iter().map(|r| (r.name, r.line)).collect();
        let mut lines = Vec::new();
        if !people.is_empty() {
            lines.push(self.text(ctx, "standings-header", &[]));
            lines.extend(self.standings_lines(ctx, &people));
        }
        if !teams.is_empty() {
            lines.push(self.text(ctx, "standings-teams-header", &[]));
            lines.extend(self.standings_lines(ctx, &teams));
        }
        let mut reply = self.public(ctx, None, lines.join("\n"));
        if !people.is_empty() {
            reply
                .attachments
                .extend(self.standings_png(ctx, "standings", &people));
        }
        if !teams.is_empty() {
            reply
                .attachments
                .extend(self.standings_png(ctx, "team-standings", &teams));
        }
        Ok(vec![reply])
    }

    /// One line per row, ranked.
    fn standings_lines(&self, ctx: &Context, rows: &[(String, Line)]) -> Vec<String> {
        let mut lines = Vec::new();
        for (rank, (name, row)) in rows.iter().enumerate() {
            lines.push(self.text(
                ctx,
                "standings-line",
                &[
                    ("rank", Arg::from(rank as i64 + 1)),
                    ("player", Arg::from(name.as_str())),
                    ("points", Arg::from(points(row.half_points))),
                    ("half", Arg::from(row.half_points)),
                    ("played", Arg::from(row.played)),
                    ("won", Arg::from(row.won)),
                    ("drawn", Arg::from(row.drawn)),
                    ("lost", Arg::from(row.lost)),
                ],
            ));
        }
        lines
    }

    /// The standings as a PNG table (played, won, drawn, lost, points,
    /// percentage), as `<name>.png`.
    fn standings_png(
        &self,
        ctx: &Context,
        name: &str,
        rows: &[(String, Line)],
    ) -> Option<Attachment> {
        let header: Vec<String> = [
            "rank", "player", "played", "won", "drawn", "lost", "points", "percent",
        ]
        .iter()
        .map(|column| self.text(ctx, &format!("standings-png-header-{column}"), &[]))
        .collect();
        let cells: Vec<Vec<String>> = rows
            .iter()
            .enumerate()
            .map(|(rank, (name, row))| {
                vec![
                    (rank + 1).to_string(),
                    name.clone(),
                    row.played.to_string(),
                    row.won.to_string(),
                    row.drawn.to_string(),
                    row.lost.to_string(),
                    points(row.half_points),
                    self.text(
                        ctx,
                        "standings-png-percent-value",
                        &[("value", Arg::from(percentage(row.half_points, row.played)))],
                    ),
                ]
            })
            .collect();
        self.table_picture(ctx, name, &header, &cells)
    }

    /// A table as `<name>.png`, titled by `<name>-png-title`, with where
    /// and when it was drawn; `None` (logged) if it cannot be drawn.
    pub(super) fn table_picture(
        &self,
        ctx: &Context,
        name: &str,
        header: &[String],
        cells: &[Vec<String>],
    ) -> Option<Attachment> {
        let caption = Caption {
            title: &self.text(ctx, &format!("{name}-png-title"), &[]),
            detail: &super::texts::picture_detail(ctx),
        };
        match table_png(&caption, header, cells) {
            Ok(png) => Some(Attachment {
                filename: format!("{name}.png"),
                content_type: "image/png".to_owned(),
                bytes: Arc::from(png),
            }),
            Err(error) => {
                tracing::error!(%error, name, "cannot draw a table");
                None
            }
        }
    }
}

/// The share of the points available, as a whole percentage: 3 of 4 → "75".
fn percentage(half_points: u32, played: u32) -> String {
    if played == 0 {
        return "0".to_owned();
    }
    ((f64::from(half_points) * 50.0 / f64::from(played)).round() as u32).to_string()
}

impl Service {
    /// A tournament game's `Event` is its tournament, and its `Round` the
    /// round it was paired in, as clubs publish them.
    pub(super) async fn tournament_tags(
        &self,
        record: &GameRecord,
        tags: &mut PgnTags,
    ) -> Result<(), StorageError> {
        if !record.tournament_game {
            return Ok(());
        }
        let Some(id) = self.store.tournament_of_game(record.id).await? else {
            return Ok(());
        };
        if let Some(tournament) = self.store.tournament(id).await? {
            tags.event = match tournament.name.trim() {
                "" => format!("pawnpost tournament {id}"),
                name => name.to_owned(),
            };
        }
        let pairings = self.store.tournament_pairings(id).await?;
        let pairing = pairings.iter().find(|p| p.game_id == Some(record.id));
        tags.round = pairing.map(|p| p.round.to_string());
        Ok(())
    }
}

/// The PGN tags of a stored game on `server`.
pub(super) fn tags_for(record: &GameRecord, names: &Names, server: Option<&ServerRow>) -> PgnTags {
    PgnTags {
        event: format!("pawnpost game {}", record.id),
        site: server.map_or_else(|| "?".to_owned(), pgn_site),
        white: names.display(Color::White).to_owned(),
        black: names.display(Color::Black).to_owned(),
        round: None,
        time_control: record.time_control.parse().ok(),
    }
}

/// PGN's `Site` for a game: the platform and its id for the community
/// (`discord 81384788765712384`, `console club`).
fn pgn_site(server: &ServerRow) -> String {
    format!("{} {}", server.platform.as_str(), server.platform_id)
}

/// Half points written as points: 5 → "2½".
fn points(half_points: u32) -> String {
    crate::competition::tiebreak::halves(half_points)
}

/// `12... Nf6 13. Nc3 Bb4`: moves numbered from the start position's move
/// number, counted in `u64` since a FEN may start at move 4,294,967,295.
fn numbered_moves(turn: Color, fullmoves: u32, sans: impl Iterator<Item = String>) -> String {
    let mut number = u64::from(fullmoves);
    let mut side = turn;
    let mut words = Vec::new();
    if side == Color::Black {
        words.push(format!("{number}..."));
    }
    for san in sans {
        if side == Color::White {
            words.push(format!("{number}."));
        }
        words.push(san);
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    #[test]
    fn moves_are_numbered_from_the_start_position() {
        let cases = [
            (Color::White, 1, "e4 e5 Nf3", "1. e4 e5 2. Nf3"),
            (Color::Black, 12, "Nf6 Nc3 Bb4", "12... Nf6 13. Nc3 Bb4"),
            (Color::White, u32::MAX, "Kd2", "4294967295. Kd2"),
            (
                Color::White,
                u32::MAX,
                "Kd2 Kd7 Ke1",
                "4294967295. Kd2 Kd7 4294967296. Ke1",
            ),
            (
                Color::Black,
                u32::MAX,
                "Kd7 Kd2 Ke8",
                "4294967295... Kd7 4294967296. Kd2 Ke8",
            ),
        ];
        for (turn, fullmoves, sans, expected) in cases {
            let sans = sans.split(' ').map(str::to_owned);
            assert_eq!(super::numbered_moves(turn, fullmoves, sans), expected);
        }
    }

    #[test]
    fn points_are_written_with_halves() {
        let cases = [(0, "0"), (1, "½"), (2, "1"), (5, "2½"), (8, "4")];
        for (half, text) in cases {
            assert_eq!(super::points(half), text);
        }
    }

    #[test]
    fn percentages_are_of_the_points_available() {
        let cases = [(0, 0, "0"), (3, 2, "75"), (4, 2, "100"), (1, 3, "17")];
        for (half, played, text) in cases {
            assert_eq!(super::percentage(half, played), text);
        }
    }
}
