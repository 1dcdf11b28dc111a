//! Tournament acts: create, join, leave, start, pairings, standings, withdraw.
//!
//! The pairing and tie-break rules are pure code
//! ([`crate::competition::tournament`]); this module finds the tournament
//! an act means, checks who may do what, and commits. What follows a game's
//! end is in `tournament_flow`.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use super::games::{Saved, game_update};
use super::tournament_flow::{Announcements, Snapshot, outcome, score_of, title_of};
use super::{Attachment, Attempt, Context, Reply, Service};
use crate::competition::tiebreak::{TieBreak, halves, value_text};
use crate::competition::tournament::{self, Outcome, Pairing};
use crate::core::clock::TimeControl;
use crate::core::command::CommandError;
use crate::core::command::{NewTournamentWish, TournamentCommand};
use crate::core::game::{Act as GameAct, Actor};
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::i18n::Arg;
use crate::render::table::{Caption, table_png};
use crate::storage::{
    Commit, GameUpdate, NewTournament, StorageError, TournamentChange, TournamentRow,
    TournamentState,
};

/// The most tournaments `/tournament list` shows.
const LISTED: u32 = 25;

/// A crosstable as text, its PNG, and the winner's name.
pub(super) struct Crosstable {
    pub text: String,
    pub png: Option<Attachment>,
    pub winner: Option<String>,
}

/// Which tournament an act without an id means: the channel's latest in this state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Open,
    Running,
    Any,
}

impl Service {
    pub(super) async fn tournament_act(
        &self,
        ctx: &Context,
        command: &TournamentCommand,
        now: DateTime<Utc>,
    ) -> Attempt {
        match command {
            TournamentCommand::Create(wish) => self.create_tournament(ctx, wish, now).await,
            TournamentCommand::Join { tournament } => self.enter(ctx, *tournament, true, now).await,
            TournamentCommand::Leave { tournament } => {
                self.enter(ctx, *tournament, false, now).await
            }
            TournamentCommand::Start { tournament } => {
                self.start_tournament(ctx, *tournament, now).await
            }
            TournamentCommand::Pairings { tournament, round } => {
                self.pairings(ctx, *tournament, *round).await
            }
            TournamentCommand::Standings { tournament } => self.crosstable(ctx, *tournament).await,
            TournamentCommand::Withdraw { tournament } => {
                self.withdraw(ctx, *tournament, now).await
            }
            TournamentCommand::List => self.tournament_list(ctx).await,
        }
    }

    /// Whether server `server_id` is `ctx`'s or another of its club.
    async fn in_club_of(&self, ctx: &Context, server_id: i64) -> Result<bool, StorageError> {
        Ok(server_id == ctx.server.id || self.same_club(ctx.server.id, server_id).await?)
    }

    /// `/tournament list`: the open and running tournaments of this server
    /// and of every other server of its club, those elsewhere marked with
    /// their platform and server (joined from here by number).
    async fn tournament_list(&self, ctx: &Context) -> Attempt {
        let rows = self.store.club_tournaments(ctx.server.id, LISTED).await?;
        if rows.is_empty() {
            return Ok(vec![
                self.private(ctx, self.text(ctx, "tournament-none", &[])),
            ]);
        }
        let mut lines = vec![self.text(ctx, "tournament-list-header", &[])];
        for row in &rows {
            // Its entrants only: a running Swiss's pairings are not read for a line.
            let players = self.store.tournament_entrants(row.id).await?.len();
            let mut args = vec![
                ("tournament", Arg::from(title_of(row))),
                ("system", Arg::from(self.system_name(ctx, row.system))),
                ("players", Arg::from(players as i64)),
                ("state", Arg::from(row.state.as_str())),
                ("time", Arg::from(row.time_control.as_str())),
            ];
            let key = if row.server_id == ctx.server.id {
                "tournament-list-line"
            } else {
                let server = self.store.server(row.server_id).await?;
                let name = server.map(|s| s.platform_id).unwrap_or_default();
                args.push(("platform", Arg::from(row.platform.as_str())));
                args.push(("server", Arg::from(name)));
                "tournament-list-line-elsewhere"
            };
            lines.push(self.text(ctx, key, &args));
        }
        Ok(vec![self.private(ctx, lines.join("\n"))])
    }

    async fn create_tournament(
        &self,
        ctx: &Context,
        wish: &NewTournamentWish,
        now: DateTime<Utc>,
    ) -> Attempt {
        let time_control = match self.checked_tournament_wish(ctx, wish) {
            Ok(time_control) => time_control,
            Err(refusal) => return Ok(vec![self.private(ctx, refusal)]),
        };
        let tie_breaks = wish
            .tie_breaks
            .clone()
            .unwrap_or_else(|| tournament::default_tie_breaks(wish.system).to_vec());
        let new = NewTournament {
            server_id: ctx.server.id,
            channel_id: ctx.channel.id,
            name: wish.name.clone().unwrap_or_default(),
            system: wish.system,
            time_control: time_control.clone(),
            rated: wish.rated,
            rounds: wish.rounds,
            bye_half_points: wish.bye_half_points.unwrap_or(2),
            tie_breaks: tie_breaks.clone(),
            max_players: wish.max_players,
            entry_closes_at: wish
                .entry_days
                .map(|days| now + Duration::days(i64::from(days))),
            created_by: ctx.player.id,
            reviews_after_round: wish.reviews_after_round,
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            tournament_changes: vec![TournamentChange::Create(new)],
            ..Commit::default()
        };
        let (i18n, lang) = (Arc::clone(&self.i18n), ctx.lang);
        let system = self.system_name(ctx, wish.system);
        let rated = self.text(
            ctx,
            if wish.rated {
                "tournament-rated"
            } else {
                "tournament-unrated"
            },
            &[],
        );
        let name = wish.name.clone();
        let listed = tie_breaks
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let creator = ctx.player.display_name.clone();
        let reply = self.public(ctx, None, String::new());
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed| {
                let id = committed.tournament_id.unwrap_or_default();
                let title = match &name {
                    Some(name) => format!("#{id} « {name} »"),
                    None => format!("#{id}"),
                };
                let text = i18n.text(
                    lang,
                    "tournament-created",
                    &[
                        ("tournament", Arg::from(title)),
                        ("player", Arg::from(creator.as_str())),
                        ("system", Arg::from(system)),
                        ("time", Arg::from(time_control)),
                        ("rated", Arg::from(rated)),
                        ("tiebreaks", Arg::from(listed.as_str())),
                        ("id", Arg::from(id)),
                    ],
                );
                vec![Reply { text, ..reply }]
            })
            .await?;
        Ok(replies)
    }

    /// A new tournament's time control (the server's when none is given),
    /// or the words refusing the wish: a bad time control, or a
    /// `max` above what the system takes here.
    fn checked_tournament_wish(
        &self,
        ctx: &Context,
        wish: &NewTournamentWish,
    ) -> Result<String, String> {
        let time_control = match wish.time_control.as_deref().map(str::parse::<TimeControl>) {
            Some(Ok(control)) => control.to_string(),
            Some(Err(_)) => {
                let text = wish.time_control.as_deref().unwrap_or_default();
                let refusal = super::texts::command_error_text(
                    &self.i18n,
                    ctx.lang,
                    &CommandError::BadValue {
                        option: "time",
                        value: text.to_owned(),
                    },
                );
                return Err(refusal);
            }
            None => ctx.server.time_control.clone(),
        };
        // The command's bound on `max` is the syntax's; the system's own is the rule.
        let most = self.config.tournament_limits.max_players(wish.system);
        if let Some(asked) = wish.max_players.filter(|&asked| asked as usize > most) {
            let args = [
                ("system", Arg::from(self.system_name(ctx, wish.system))),
                ("max", Arg::from(most as i64)),
                ("asked", Arg::from(i64::from(asked))),
            ];
            return Err(self.text(ctx, "tournament-max-too-high", &args));
        }
        Ok(time_control)
    }

    /// Joins (`joining`) or leaves a tournament before its start.
    async fn enter(
        &self,
        ctx: &Context,
        id: Option<i64>,
        joining: bool,
        now: DateTime<Utc>,
    ) -> Attempt {
        let row = match self.find_tournament(ctx, id, Wanted::Open).await? {
            Ok(row) => row,
            Err(answer) => return Ok(answer),
        };
        let snapshot = Snapshot::load(&self.store, row).await?;
        let title = Arg::from(snapshot.title());
        let refuse = |key: &str| {
            Ok(vec![self.private(
                ctx,
                self.text(ctx, key, &[("tournament", title.clone())]),
            )])
        };
        if snapshot.row.state != TournamentState::Entry {
            return refuse("tournament-entry-closed");
        }
        let entered = snapshot.index_of(ctx.player.id).is_some();
        let row = &snapshot.row;
        let change = match (joining, entered) {
            (true, true) => return refuse("tournament-already-in"),
            (false, false) => return refuse("tournament-not-in"),
            (true, false) => {
                let full = row
                    .max_players
                    .is_some_and(|max| snapshot.entrants.len() >= max as usize);
                if full {
                    return refuse("tournament-full");
                }
                let most = self.config.tournament_limits.max_players(row.system);
                if snapshot.entrants.len() >= most {
                    let args = [
                        ("tournament", title.clone()),
                        ("system", Arg::from(self.system_name(ctx, row.system))),
                        ("max", Arg::from(most as i64)),
                    ];
                    let text = self.text(ctx, "tournament-system-full", &args);
                    return Ok(vec![self.private(ctx, text)]);
                }
                TournamentChange::Join {
                    tournament_id: row.id,
                    player: ctx.player.id,
                    at: now,
                    // A member of another server of the club plays from here.
                    channel_id: (row.server_id != ctx.server.id).then_some(ctx.channel.id),
                }
            }
            (false, true) => TournamentChange::Leave {
                tournament_id: row.id,
                player: ctx.player.id,
            },
        };
        let players = snapshot.entrants.len() as i64 + if joining { 1 } else { -1 };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            tournament_changes: vec![
                TournamentChange::Advance {
                    id: row.id,
                    expected_version: row.version,
                    state: row.state,
                    round: row.round,
                },
                change,
            ],
            ..Commit::default()
        };
        let key = if joining {
            "tournament-joined"
        } else {
            "tournament-left"
        };
        let text = self.text(
            ctx,
            key,
            &[
                ("tournament", title.clone()),
                ("player", Arg::from(ctx.player.display_name.as_str())),
                ("players", Arg::from(players)),
            ],
        );
        let reply = self.public(ctx, None, text);
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    /// A system's name in the asker's language.
    fn system_name(&self, ctx: &Context, system: tournament::System) -> String {
        self.text(ctx, &format!("tournament-system-{}", system.as_str()), &[])
    }

    async fn start_tournament(
        &self,
        ctx: &Context,
        id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let row = match self.find_tournament(ctx, id, Wanted::Open).await? {
            Ok(row) => row,
            Err(answer) => return Ok(answer),
        };
        let snapshot = Snapshot::load(&self.store, row).await?;
        let title = [("tournament", Arg::from(snapshot.title()))];
        if snapshot.row.state != TournamentState::Entry {
            return Ok(vec![
                self.private(ctx, self.text(ctx, "tournament-entry-closed", &title)),
            ]);
        }
        let moderates = ctx.moderates(snapshot.row.server_id, snapshot.row.channel_id);
        if snapshot.row.created_by != ctx.player.id && !moderates {
            return Ok(vec![
                self.private(ctx, self.text(ctx, "tournament-not-organiser", &title)),
            ]);
        }
        let (changes, notes) = match self
            .start_changes(
                snapshot.clone(),
                ctx.server.draw_rules,
                ctx.server_lang,
                now,
            )
            .await?
        {
            Ok(started) => started,
            Err(error) => {
                let text = self.start_refusal(ctx.lang, &snapshot, error);
                return Ok(vec![self.private(ctx, text)]);
            }
        };
        self.commit_announcements(ctx, changes, Vec::new(), notes, now)
            .await
    }

    /// Withdrawal after the start, by the rule in `competition::tournament`.
    async fn withdraw(&self, ctx: &Context, id: Option<i64>, now: DateTime<Utc>) -> Attempt {
        let row = match self.find_tournament(ctx, id, Wanted::Running).await? {
            Ok(row) => row,
            Err(answer) => return Ok(answer),
        };
        let mut snapshot = Snapshot::load(&self.store, row).await?;
        let title = Arg::from(snapshot.title());
        if snapshot.row.state != TournamentState::Running {
            let key = match snapshot.row.state {
                TournamentState::Entry => "tournament-withdraw-not-started",
                _ => "tournament-over",
            };
            return Ok(vec![
                self.private(ctx, self.text(ctx, key, &[("tournament", title)])),
            ]);
        }
        let Some(me) = snapshot
            .index_of(ctx.player.id)
            .filter(|&i| snapshot.entrants[i].withdrawn_at.is_none())
        else {
            return Ok(vec![self.private(
                ctx,
                self.text(ctx, "tournament-not-in", &[("tournament", title)]),
            )]);
        };
        let pairings = snapshot.pure_pairings()?;
        let decisions = tournament::withdraw(snapshot.row.system, me, &pairings);
        let annulled = decisions.iter().any(|(_, o)| *o == Outcome::Annulled);
        let mut changes = vec![TournamentChange::Withdraw {
            tournament_id: snapshot.row.id,
            player: ctx.player.id,
            at: now,
        }];
        let mut game_updates = Vec::new();
        for (index, decided) in decisions {
            let pairing = &mut snapshot.pairings[index];
            // A game still running ends here (aborted: forfeits are not rated).
            if outcome(pairing) == Outcome::Pending
                && let Some(game_id) = pairing.game_id
                && let Some(record) = self.store.game(game_id).await?
            {
                let mut game = super::games::restore(&record)?;
                let saved = Saved::all_of(&game);
                if game
                    .apply(&Actor::Moderator(ctx.player.id), GameAct::Abort, now)
                    .is_ok()
                {
                    game_updates.push(game_update(&record, &game, saved, None));
                    pairing.game_state = Some(game.status());
                }
            }
            if let Some(score) = score_of(decided) {
                changes.push(TournamentChange::Score {
                    pairing_id: pairing.id,
                    score,
                });
                pairing.score = Some(score);
            }
        }
        snapshot.entrants[me].withdrawn_at = Some(now);
        let (follow, mut notes) = self
            .follow_up(&snapshot, ctx.server.draw_rules, ctx.server_lang, now)
            .await?;
        let key = if annulled {
            "tournament-withdrawn-annulled"
        } else {
            "tournament-withdrawn-forfeits"
        };
        notes.lines.insert(
            0,
            self.text(
                ctx,
                key,
                &[
                    ("tournament", title),
                    ("player", Arg::from(ctx.player.display_name.as_str())),
                ],
            ),
        );
        // The version check comes first, as in every tournament act.
        let mut all = follow;
        all.extend(changes);
        self.commit_announcements(ctx, all, game_updates, notes, now)
            .await
    }

    async fn commit_announcements(
        &self,
        ctx: &Context,
        changes: Vec<TournamentChange>,
        game_updates: Vec<GameUpdate>,
        notes: Announcements,
        now: DateTime<Utc>,
    ) -> Attempt {
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            game_updates,
            tournament_changes: changes,
            relay: notes.relay(ctx.platform),
            ..Commit::default()
        };
        let here = ctx.platform;
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |c| {
                super::cross::own_first(notes.render(c), here)
            })
            .await?;
        self.deadline_changed.wake();
        Ok(replies)
    }

    /// The pairings of one round (all rounds of a round robin by default).
    async fn pairings(&self, ctx: &Context, id: Option<i64>, round: Option<u32>) -> Attempt {
        let row = match self.find_tournament(ctx, id, Wanted::Any).await? {
            Ok(row) => row,
            Err(answer) => return Ok(answer),
        };
        let snapshot = Snapshot::load(&self.store, row).await?;
        let rounds: Vec<u32> = match (round, snapshot.row.system) {
            (Some(r), _) => vec![r],
            (None, tournament::System::Swiss | tournament::System::Knockout) => {
                vec![snapshot.row.round]
            }
            (None, _) => {
                let mut all: Vec<u32> = snapshot.pairings.iter().map(|p| p.round).collect();
                all.dedup();
                all
            }
        };
        let name = |player| {
            snapshot
                .entrants
                .iter()
                .find(|e| e.player == player)
                .map_or("?", |e| e.name.as_str())
        };
        let mut lines = vec![self.text(
            ctx,
            "tournament-pairings-header",
            &[("tournament", Arg::from(snapshot.title()))],
        )];
        for round in rounds {
            let here: Vec<_> = snapshot
                .pairings
                .iter()
                .filter(|p| p.round == round)
                .collect();
            if here.is_empty() {
                continue;
            }
            lines.push(self.text(
                ctx,
                "tournament-pairings-round",
                &[("round", Arg::from(round))],
            ));
            for p in here {
                let result = result_text(outcome(p));
                lines.push(match p.black {
                    // What the bye is worth, not the word "bye" again.
                    None => self.text(
                        ctx,
                        "tournament-pairing-bye",
                        &[
                            ("player", Arg::from(name(p.white))),
                            ("points", Arg::from(halves(snapshot.bye_half()))),
                        ],
                    ),
                    Some(black) => self.text(
                        ctx,
                        "tournament-pairing",
                        &[
                            ("board", Arg::from(p.board)),
                            ("game", Arg::from(p.game_id.unwrap_or_default())),
                            ("white", Arg::from(name(p.white))),
                            ("black", Arg::from(name(black))),
                            ("result", Arg::from(result)),
                        ],
                    ),
                });
            }
        }
        if lines.len() == 1 {
            lines.push(self.text(ctx, "tournament-pairings-none", &[]));
        }
        Ok(vec![self.public(ctx, None, lines.join("\n"))])
    }

    async fn crosstable(&self, ctx: &Context, id: Option<i64>) -> Attempt {
        let row = match self.find_tournament(ctx, id, Wanted::Any).await? {
            Ok(row) => row,
            Err(answer) => return Ok(answer),
        };
        let snapshot = Snapshot::load(&self.store, row).await?;
        let table = self.crosstable_text(&snapshot, ctx.lang, ctx.now)?;
        let mut reply = self.public(ctx, None, table.text);
        reply.attachments.extend(table.png);
        Ok(vec![reply])
    }

    /// The crosstable: rank, player, one cell per opponent (round robins),
    /// points and a column per tie-break of the tournament, in ranking
    /// order; as text and as a PNG.
    pub(super) fn crosstable_text(
        &self,
        snapshot: &Snapshot,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Crosstable, StorageError> {
        let (header, rows, winner) = self.crosstable_cells(snapshot, lang)?;
        let pairings = snapshot.pure_pairings()?;
        let round = crosstable_round(&pairings);
        let mut text = vec![self.i18n.text(
            lang,
            "tournament-crosstable-header",
            &[
                ("tournament", Arg::from(snapshot.title())),
                ("round", Arg::from(round)),
            ],
        )];
        text.push(header.join(" | "));
        text.extend(rows.iter().map(|r| r.join(" | ")));
        let caption = Caption {
            title: &text[0],
            detail: &super::texts::picture_date(now),
        };
        let png = crosstable_png(snapshot.row.id, &caption, &header, &rows);
        Ok(Crosstable {
            text: text.join("\n"),
            png,
            winner,
        })
    }

    /// The crosstable's header and rows (each a line of cells, in ranking
    /// order), and the leader's name: what the chat's text and picture and
    /// the web page all show.
    pub(super) fn crosstable_cells(
        &self,
        snapshot: &Snapshot,
        lang: Lang,
    ) -> Result<CrosstableCells, StorageError> {
        let n = snapshot.entrants.len();
        let pairings = snapshot.pure_pairings()?;
        let order = &snapshot.row.tie_breaks;
        let lines = tournament::crosstable(
            snapshot.row.system,
            n,
            &pairings,
            snapshot.bye_half(),
            order,
        );
        let t = |id: &str| self.i18n.text(lang, id, &[]);
        // Round robins cross every player with every other; the other
        // systems show each round: opponent's rank, colour, result.
        let grid = matches!(
            snapshot.row.system,
            tournament::System::RoundRobin | tournament::System::DoubleRoundRobin
        );
        let rounds = match grid {
            true => 0,
            false => pairings.iter().map(|p| p.round).max().unwrap_or(0),
        };
        // Rank of each player, for the grid's columns.
        let mut rank_of = vec![0; n];
        for (rank, line) in lines.iter().enumerate() {
            rank_of[line.player] = rank;
        }
        let mut header = vec!["#".to_owned(), t("tournament-col-player")];
        if grid {
            header.extend((1..=n).map(|r| r.to_string()));
        }
        header.extend((1..=rounds).map(|round| {
            let args = [("round", Arg::from(round))];
            self.i18n.text(lang, "tournament-col-round", &args)
        }));
        header.push(t("tournament-col-points"));
        header.extend(order.iter().map(|tb| t(&tie_break_header(*tb))));
        let mut rows = Vec::with_capacity(n);
        for (rank, line) in lines.iter().enumerate() {
            let entrant = &snapshot.entrants[line.player];
            let mut name = entrant.name.clone();
            if entrant.withdrawn_at.is_some() {
                name.push_str(" (-)");
            }
            let mut row = vec![(rank + 1).to_string(), name];
            if grid {
                row.extend(grid_cells(&pairings, line.player, rank, &rank_of));
            }
            let bye = snapshot.bye_half();
            let cell =
                |round| self.round_cell(lang, &pairings, bye, (round, line.player), &rank_of);
            row.extend((1..=rounds).map(cell));
            row.push(halves(line.half_points));
            row.extend(
                order
                    .iter()
                    .zip(&line.tie_breaks)
                    .map(|(tb, value)| value_text(*tb, *value)),
            );
            rows.push(row);
        }
        let winner = lines
            .first()
            .map(|l| snapshot.entrants[l.player].name.clone());
        Ok((header, rows, winner))
    }

    /// The tournament an act means, or the refusal to send.
    async fn find_tournament(
        &self,
        ctx: &Context,
        id: Option<i64>,
        wanted: Wanted,
    ) -> Result<Result<TournamentRow, Vec<Reply>>, StorageError> {
        let found = match id {
            Some(id) => match self.store.tournament(id).await? {
                Some(t) if self.in_club_of(ctx, t.server_id).await? => Some(t),
                _ => None,
            },
            None => {
                let all = self.store.tournaments_in_channel(ctx.channel.id).await?;
                let fits = |t: &&TournamentRow| match wanted {
                    Wanted::Open => t.state == TournamentState::Entry,
                    Wanted::Running => t.state == TournamentState::Running,
                    Wanted::Any => true,
                };
                all.iter().find(fits).or(all.first()).cloned()
            }
        };
        match found {
            Some(row) => Ok(Ok(row)),
            None => Ok(Err(vec![
                self.private(ctx, self.text(ctx, "tournament-none", &[])),
            ])),
        }
    }
}

impl Service {
    /// `player`'s cell for `round` in a round-by-round crosstable: the
    /// opponent's rank, their colour and the result (`3w1`, `2b½`, `4w+`,
    /// `1b…` while it runs), or the bye and its worth.
    fn round_cell(
        &self,
        lang: Lang,
        pairings: &[Pairing],
        bye_half: u32,
        (round, player): (u32, usize),
        rank_of: &[usize],
    ) -> String {
        let mine = pairings
            .iter()
            .find(|p| p.round == round && (p.white == player || p.black == Some(player)));
        let Some(pairing) = mine else {
            return String::new();
        };
        let Some(black) = pairing.black else {
            // A bye is worth its points once its round is over.
            let open = pairings
                .iter()
                .any(|p| p.round == round && !p.outcome.is_decided());
            let worth = match open {
                true => "…".to_owned(),
                false => halves(bye_half),
            };
            return format!(
                "{} {worth}",
                self.i18n.text(lang, "tournament-cell-bye", &[])
            );
        };
        let white = pairing.white == player;
        let opponent = if white { black } else { pairing.white };
        let colour = if white {
            "tournament-cell-white"
        } else {
            "tournament-cell-black"
        };
        let result = match pairing.outcome {
            Outcome::Pending => "…".to_owned(),
            outcome => cell_text(outcome, white),
        };
        let colour = self.i18n.text(lang, colour, &[]);
        format!("{}{colour}{result}", rank_of[opponent] + 1)
    }
}

/// A crosstable's header, rows and leader (see [`Service::crosstable_cells`]).
pub(super) type CrosstableCells = (Vec<String>, Vec<Vec<String>>, Option<String>);

/// The message id of a tie-break's column header: `tournament-col-bh-c1`.
pub(super) fn tie_break_header(tie_break: TieBreak) -> String {
    format!("tournament-col-{}", tie_break.as_str().to_ascii_lowercase())
}

/// A round robin crosstable's cells for `player`, ranked `rank`: one per
/// opponent in ranking order (`rank_of` each player), `x` on their own.
fn grid_cells(pairings: &[Pairing], player: usize, rank: usize, rank_of: &[usize]) -> Vec<String> {
    let mut cells = vec![String::new(); rank_of.len()];
    cells[rank] = "x".to_owned();
    for p in pairings {
        let Some(black) = p.black else { continue };
        let (me, them) = match (p.white == player, black == player) {
            (true, _) => (true, black),
            (_, true) => (false, p.white),
            _ => continue,
        };
        let cell = cell_text(p.outcome, me);
        let slot = &mut cells[rank_of[them]];
        slot.push_str(&cell);
    }
    cells
}

/// The round a crosstable stands after. Round robins play every round at
/// once: the last round whose games (and every earlier round's) are all
/// decided.
fn crosstable_round(pairings: &[Pairing]) -> u32 {
    let open = pairings
        .iter()
        .filter(|p| !p.outcome.is_decided())
        .map(|p| p.round)
        .min();
    let last = pairings.iter().map(|p| p.round).max().unwrap_or(0);
    open.map_or(last, |r| r.saturating_sub(1))
}

/// Tournament `id`'s crosstable as a PNG, if it can be drawn.
fn crosstable_png(
    id: i64,
    caption: &Caption<'_>,
    header: &[String],
    rows: &[Vec<String>],
) -> Option<Attachment> {
    match table_png(caption, header, rows) {
        Ok(png) => Some(Attachment {
            filename: format!("tournament-{id}.png"),
            content_type: "image/png".to_owned(),
            bytes: Arc::from(png),
        }),
        Err(error) => {
            tracing::error!(%error, "cannot draw the crosstable");
            None
        }
    }
}

/// A pairing's result as a crosstable cell, from one side: 1 ½ 0, + - for
/// forfeits, * while it runs.
fn cell_text(outcome: Outcome, white: bool) -> String {
    let mine = |white_half: u32| if white { white_half } else { 2 - white_half };
    match outcome {
        Outcome::Played { white_half } => match mine(white_half) {
            2 => "1",
            1 => "½",
            _ => "0",
        }
        .to_owned(),
        Outcome::Forfeit { white_half } => if mine(white_half) == 2 { "+" } else { "-" }.to_owned(),
        Outcome::DoubleForfeit => "-".to_owned(),
        Outcome::Pending => "*".to_owned(),
        Outcome::Annulled | Outcome::Bye => String::new(),
    }
}

/// A pairing's result as `1-0`, `½-½`, `+/-`, `*`.
fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Played { white_half: 2 } => "1-0",
        Outcome::Played { white_half: 1 } => "½-½",
        Outcome::Played { .. } => "0-1",
        Outcome::Forfeit { white_half: 2 } => "+/-",
        Outcome::Forfeit { .. } => "-/+",
        Outcome::DoubleForfeit => "-/-",
        Outcome::Annulled => "×",
        Outcome::Bye => "bye",
        Outcome::Pending => "*",
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, TimeZone, Utc};

    use crate::core::platform::Platform;
    use crate::service::{
        BoardImages, Input, Moderation, Prompt, Reply, Request, Service, ServiceConfig, User,
    };
    use crate::storage::TournamentState;
    use crate::storage::sqlite::SqliteStore;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
    }

    struct Club {
        service: Service,
        keys: std::cell::Cell<u32>,
    }

    impl Club {
        fn new() -> Club {
            let config = ServiceConfig {
                board_images: false,
                ..ServiceConfig::default()
            };
            Club {
                service: Service::new(
                    SqliteStore::open_in_memory().expect("SQLite in memory"),
                    config,
                ),
                keys: std::cell::Cell::new(0),
            }
        }

        async fn act_as(
            &self,
            user: &str,
            text: &str,
            locale: Option<&str>,
            key: &str,
        ) -> Vec<Reply> {
            let act = Request {
                platform: Platform::Console,
                server: "club".into(),
                channel: "main".into(),
                user: User {
                    id: user.into(),
                    name: user.into(),
                    locale: locale.map(str::to_owned),
                    moderation: Moderation::None,
                },
                key: Some(key.into()),
                input: Input::Text(text.into()),
                board_images: BoardImages::Omitted,
            };
            self.service.handle(act, now()).await
        }

        async fn act(&self, user: &str, text: &str) -> Vec<Reply> {
            self.keys.set(self.keys.get() + 1);
            let key = format!("k{}", self.keys.get());
            self.act_as(user, text, None, &key).await
        }

        async fn script(&self, lines: &str) -> Vec<String> {
            let mut texts = Vec::new();
            for line in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
                let (user, text) = line.split_once(": ").expect("user: text");
                texts.extend(self.act(user, text).await.into_iter().map(|r| r.text));
            }
            texts
        }
    }

    fn has(texts: &[String], needle: &str) -> bool {
        texts.iter().any(|t| t.contains(needle))
    }

    #[tokio::test]
    async fn a_knockout_plays_matches_tie_breaks_and_a_final() {
        let club = Club::new();
        club.script(
            "alice: tournament create knockout unrated
             alice: tournament join
             bob: tournament join
             carol: tournament join",
        )
        .await;
        let start = club.act("alice", "tournament start").await;
        let texts: Vec<&str> = start.iter().map(|r| r.text.as_str()).collect();
        // Three players in a bracket of four: the top seed has a bye.
        assert!(texts[0].contains("Round 1: alice has a bye."), "{texts:?}");
        assert_eq!(start[1].prompt, Prompt::NewGame { game: 1 });
        assert!(
            start
                .iter()
                .any(|r| r.to.as_deref() == Some("bob") && r.text.contains("game #1")),
            "{start:?}"
        );
        // Two draws, then the tie-break game, drawn: Black (carol) goes through.
        let texts = club
            .script(
                "bob: move e4 game:1
                 carol: move e5 offer_draw game:1
                 bob: draw accept game:1
                 carol: move e4 game:2
                 bob: move e5 offer_draw game:2
                 carol: draw accept game:2
                 bob: move d4 game:3
                 carol: move d5 offer_draw game:3
                 bob: draw accept game:3",
            )
            .await;
        assert!(
            has(&texts, "round 1: game #2, carol (White) – bob (Black)."),
            "{texts:?}"
        );
        assert!(
            has(&texts, "round 1: game #3, bob (White) – carol (Black)."),
            "{texts:?}"
        );
        assert!(
            has(&texts, "Tournament #1: round 2 is paired."),
            "{texts:?}"
        );
        assert!(
            has(&texts, "round 2: game #4, alice (White) – carol (Black)."),
            "{texts:?}"
        );
        // The final: two wins for alice.
        let texts = club
            .script(
                "alice: move e4 game:4
                 carol: resign game:4
                 carol: move e4 game:5
                 alice: move e5 game:5
                 carol: resign game:5",
            )
            .await;
        assert!(
            has(&texts, "Tournament #1 is over. Winner: alice!"),
            "{texts:?}"
        );
        let row = club
            .service
            .store()
            .tournament(1)
            .await
            .expect("read")
            .expect("row");
        assert_eq!((row.state, row.round), (TournamentState::Finished, 2));
    }

    #[tokio::test]
    async fn an_early_withdrawal_annuls_every_result_and_ends_the_games() {
        let club = Club::new();
        club.script(
            "alice: tournament create rr
             alice: tournament join
             bob: tournament join
             carol: tournament join
             dave: tournament join
             alice: tournament start
             alice: move e4 game:1
             dave: move e5 game:1",
        )
        .await;
        let texts = club.script("dave: tournament withdraw").await;
        assert!(
            has(
                &texts,
                "dave withdrew from tournament #1 before playing half of their games"
            ),
            "{texts:?}"
        );
        let pairings = club
            .service
            .store()
            .tournament_pairings(1)
            .await
            .expect("pairings");
        let dave = club
            .service
            .store()
            .find_player(Platform::Console, "dave")
            .await
            .expect("read")
            .expect("dave");
        let his: Vec<_> = pairings
            .iter()
            .filter(|p| p.white == dave.id || p.black == Some(dave.id))
            .collect();
        assert_eq!(his.len(), 3);
        for p in his {
            assert_eq!(p.score, Some(crate::storage::PairingScore::Annulled));
            let game = club
                .service
                .store()
                .game(p.game_id.expect("a game"))
                .await
                .expect("read")
                .expect("game");
            assert!(
                matches!(game.state, crate::storage::Status::Over { .. }),
                "game {} ended",
                game.id
            );
        }
        // The others play on; dave's column is empty in the crosstable.
        let table = club.script("bob: tournament standings").await;
        assert!(has(&table, "dave (-) |  |  |  | x | 0 |"), "{table:?}");
        let again = club.script("dave: tournament withdraw").await;
        assert!(
            has(&again, "You are not playing in tournament #1."),
            "{again:?}"
        );
    }

    /// The tie-breaks chosen at creation are kept and rank the crosstable,
    /// one column each in their order; a wrong list is refused with the
    /// valid acronyms, in the reader's language.
    #[tokio::test]
    async fn a_tournament_ranks_by_the_tie_breaks_chosen_at_creation() {
        let club = Club::new();
        let texts = club
            .script(
                "alice: tournament create swiss tiebreaks:bh,median
                 alice: tournament create rr tiebreaks:sb,win,bh-c1,WON
                 alice: tournament join
                 bob: tournament join
                 carol: tournament join
                 alice: tournament start
                 alice: tournament standings",
            )
            .await;
        assert!(
            has(
                &texts,
                "“median” is not a tie-break I know. Give FIDE's acronyms in order, \
                 separated by commas, from: DE, WIN, WON, BH, BH-C1, BH-C2, BH-M1, SB, SB-C1"
            ),
            "{texts:?}"
        );
        assert!(
            has(
                &texts,
                "round robin, 3d, rated, tie-breaks SB, WIN, BH-C1, WON."
            ),
            "{texts:?}"
        );
        assert!(
            has(
                &texts,
                "# | Player | 1 | 2 | 3 | Pts | SB | Wins | BH-C1 | Won\n"
            ),
            "{texts:?}"
        );
        let row = club
            .service
            .store()
            .tournament(1)
            .await
            .expect("read")
            .expect("row");
        use crate::competition::tiebreak::TieBreak;
        assert_eq!(
            row.tie_breaks,
            [
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
                TieBreak::BuchholzCut1,
                TieBreak::GamesWon
            ]
        );
        let french = club
            .act_as(
                "bob",
                "tournoi create suisse departages:bh,sb,BH",
                Some("fr"),
                "fr-create",
            )
            .await;
        assert!(
            french[0].text.starts_with(
                "BH est donné deux fois : donnez chaque départage une seule fois, dans l’ordre, \
                 parmi : DE, WIN, WON, BH,"
            ),
            "{french:?}"
        );
        let default = club
            .act_as("bob", "tournoi create suisse", Some("fr"), "fr-default")
            .await;
        assert!(
            default[0].text.contains("départages BH-C1, BH, SB, WIN."),
            "{default:?}"
        );
    }

    #[tokio::test]
    async fn refused_acts_change_nothing_and_replays_answer_the_same() {
        let club = Club::new();
        let texts = club
            .script(
                "alice: tournament create swiss max 2
                 alice: tournament join
                 alice: tournament join
                 bob: tournament leave
                 bob: tournament join
                 carol: tournament join
                 carol: tournament create chess960
                 carol: tournament create swiss tc 3x
                 carol: tournament pairings
                 carol: tournament withdraw #7",
            )
            .await;
        for needle in [
            "You are already in tournament #1.",
            "You are not playing in tournament #1.",
            "Tournament #1 is full.",
            "Which kind of tournament? round_robin, double, swiss, knockout or scheveningen.",
            "“3x” is not a valid time.",
            "No pairings yet.",
            "There is no tournament here.",
        ] {
            assert!(has(&texts, needle), "{needle} in {texts:?}");
        }
        let entrants = club
            .service
            .store()
            .tournament_entrants(1)
            .await
            .expect("entrants");
        assert_eq!(entrants.len(), 2);
        // The same start, delivered twice, pairs once.
        let first = club
            .act_as("alice", "tournament start", None, "start-1")
            .await;
        let second = club
            .act_as("alice", "tournament start", None, "start-1")
            .await;
        assert_eq!(first, second);
        assert_eq!(
            club.service
                .store()
                .tournament_pairings(1)
                .await
                .expect("p")
                .len(),
            1
        );
    }

    /// A 64-player double round robin starts with one message for the
    /// start, one per round and one per player: 191, not one per game (4,032).
    #[tokio::test]
    async fn a_large_start_sends_a_message_per_round_and_per_player() {
        // The largest double round robin the default limits take.
        let players = crate::competition::tournament::Limits::default().double_round_robin as usize;
        let club = Club::new();
        club.act(
            "p00",
            &format!("tournament create double_round_robin unrated max:{players}"),
        )
        .await;
        for n in 0..players {
            club.act(&format!("p{n:02}"), "tournament join").await;
        }
        let start = club.act("p00", "tournament start").await;
        let rounds = 2 * (players - 1);
        assert!(
            start.len() <= 1 + rounds + players,
            "{} messages",
            start.len()
        );
        let games: usize = start
            .iter()
            .filter(|r| r.to.is_none())
            .map(|r| r.text.lines().filter(|l| l.contains(": game #")).count())
            .sum();
        assert_eq!(games, players * (players - 1));
        let told = start.iter().filter(|r| r.to.is_some()).count();
        assert_eq!(told, players);
    }

    #[tokio::test]
    async fn scheveningen_teams_are_announced_in_the_servers_language_and_games_in_each_players() {
        let club = Club::new();
        club.script(
            "alice: tournament create scheveningen unrated
             alice: tournament join
             bob: tournament join
             carol: tournament join
             dave: tournament join",
        )
        .await;
        let replies = club
            .act_as("alice", "tournoi start", Some("fr"), "fr-start")
            .await;
        // One message per round lists its games, in the server's language
        // (English, whoever started it); each player is then told their
        // own, once, in theirs: alice's client speaks French.
        let round_games = replies
            .iter()
            .filter(|r| r.to.is_none())
            .flat_map(|r| r.text.lines())
            .filter(|line| line.contains(": game #"))
            .count();
        assert_eq!(round_games, 4);
        let told = |to: &str| {
            replies
                .iter()
                .filter(|r| r.to.as_deref() == Some(to))
                .map(|r| r.text.lines().next().unwrap_or_default())
                .collect::<Vec<_>>()
        };
        assert_eq!(told("alice"), ["Vos parties du tournoi n° 1 :"]);
        for player in ["bob", "carol", "dave"] {
            assert_eq!(told(player), ["Your games in tournament #1:"], "{player}");
        }
        assert!(
            replies
                .iter()
                .filter(|r| r.to.as_deref() == Some("alice"))
                .all(|r| r.text.contains("partie n°") && !r.text.contains("game #")),
            "{replies:?}"
        );
        let texts: Vec<String> = replies.into_iter().map(|r| r.text).collect();
        assert!(
            has(&texts, "Team A: alice, dave. Team B: bob, carol."),
            "{texts:?}"
        );
    }
}
