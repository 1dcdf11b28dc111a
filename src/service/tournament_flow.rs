//! A tournament's course, the service's side: the snapshot the pure code
//! reads, the games it creates, what follows a result (in the same commit
//! as the result), the scheduled start, and the announcements.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::outbox::notices_on;
use super::tournament_places::{channels_elsewhere, game_home, platforms, relay, told_at};
use super::{Prompt, Reply, Service, TournamentEvent};
use crate::competition::tournament::{self, Next, Outcome, Pairing, Planned, StartError};
use crate::core::clock::TimeControl;
use crate::core::event::{GameResult, Reason};
use crate::core::game::{DrawRules, Game, PlayerId, Players};
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::core::variant::Variant;
use crate::i18n::{Arg, I18n};
use crate::storage::{
    Commit, Committed, EntrantRow, GameRecord, NewGame, NewPairing, Outgoing, PairingRow,
    PairingScore, Status, StorageError, Store, TournamentChange, TournamentRow, TournamentState,
};

/// Tournaments started per scheduler pass.
const BATCH: usize = 50;

/// Tournament pairings (a start's, a new round's) worked out at once in a
/// process; more wait for a slot, without holding anything meanwhile.
pub(super) const PAIRINGS_AT_ONCE: usize = 2;

/// A tournament as read before an act: its row, entrants and pairings.
#[derive(Clone, Debug)]
pub(super) struct Snapshot {
    pub row: TournamentRow,
    /// In seed order once started (join order before).
    pub entrants: Vec<EntrantRow>,
    pub pairings: Vec<PairingRow>,
}

impl Snapshot {
    pub(super) async fn load(store: &Store, row: TournamentRow) -> Result<Snapshot, StorageError> {
        let mut entrants = store.tournament_entrants(row.id).await?;
        entrants.sort_by_key(|e| (e.seed.unwrap_or(u32::MAX), e.joined_at, e.player.0));
        let pairings = store.tournament_pairings(row.id).await?;
        Ok(Snapshot {
            row,
            entrants,
            pairings,
        })
    }

    /// A player's seed index.
    pub(super) fn index_of(&self, player: PlayerId) -> Option<usize> {
        self.entrants.iter().position(|e| e.player == player)
    }

    pub(super) fn withdrawn(&self) -> Vec<bool> {
        self.entrants
            .iter()
            .map(|e| e.withdrawn_at.is_some())
            .collect()
    }

    /// The pairings as the pure code sees them.
    pub(super) fn pure_pairings(&self) -> Result<Vec<Pairing>, StorageError> {
        let index = |player: PlayerId| {
            self.index_of(player).ok_or(StorageError::Corrupt(format!(
                "pairing of non-entrant {}",
                player.0
            )))
        };
        self.pairings
            .iter()
            .map(|p| {
                Ok(Pairing {
                    round: p.round,
                    board: p.board,
                    white: index(p.white)?,
                    black: p.black.map(index).transpose()?,
                    outcome: outcome(p),
                })
            })
            .collect()
    }

    /// The value of a bye in the crosstable: Swiss byes score, round-robin rests do not.
    pub(super) fn bye_half(&self) -> u32 {
        match self.row.system {
            tournament::System::Swiss => self.row.bye_half_points,
            _ => 0,
        }
    }

    /// Swiss rounds to play.
    pub(super) fn rounds(&self) -> u32 {
        let n = self.entrants.len();
        self.row
            .rounds
            .unwrap_or_else(|| tournament::default_rounds(n))
            .min(n.saturating_sub(1).max(1) as u32)
    }

    pub(super) fn title(&self) -> String {
        title_of(&self.row)
    }
}

/// A tournament's number and name, as its messages show it.
pub(super) fn title_of(row: &TournamentRow) -> String {
    match row.name.is_empty() {
        true => format!("#{}", row.id),
        false => format!("#{} « {} »", row.id, row.name),
    }
}

/// How a stored pairing stands.
pub(super) fn outcome(p: &PairingRow) -> Outcome {
    match p.score {
        Some(PairingScore::Bye) => Outcome::Bye,
        Some(PairingScore::WhiteForfeitWin) => Outcome::Forfeit { white_half: 2 },
        Some(PairingScore::BlackForfeitWin) => Outcome::Forfeit { white_half: 0 },
        Some(PairingScore::DoubleForfeit) => Outcome::DoubleForfeit,
        Some(PairingScore::Annulled) => Outcome::Annulled,
        None => match p.game_state {
            // A no-show's loss is a forfeit: decided without play.
            Some(Status::Over {
                result,
                reason: Reason::NoShow,
                ..
            }) => Outcome::Forfeit {
                white_half: match result {
                    GameResult::WhiteWins => 2,
                    _ => 0,
                },
            },
            Some(Status::Over { result, .. }) => match result {
                GameResult::WhiteWins => Outcome::Played { white_half: 2 },
                GameResult::BlackWins => Outcome::Played { white_half: 0 },
                GameResult::Draw => Outcome::Played { white_half: 1 },
                // An aborted tournament game scores for neither (-/-).
                GameResult::NoResult => Outcome::DoubleForfeit,
            },
            _ => Outcome::Pending,
        },
    }
}

/// The stored score of an outcome decided without a game.
pub(super) fn score_of(outcome: Outcome) -> Option<PairingScore> {
    match outcome {
        Outcome::Bye => Some(PairingScore::Bye),
        Outcome::Forfeit { white_half: 2 } => Some(PairingScore::WhiteForfeitWin),
        Outcome::Forfeit { .. } => Some(PairingScore::BlackForfeitWin),
        Outcome::DoubleForfeit => Some(PairingScore::DoubleForfeit),
        Outcome::Annulled => Some(PairingScore::Annulled),
        Outcome::Pending | Outcome::Played { .. } => None,
    }
}

/// A new game to announce once its id is known.
#[derive(Clone, Debug)]
struct GameNotice {
    round: u32,
    white: Seat,
    black: Seat,
}

/// A player of a new game: their name, platform id, the language they
/// read (`None`: the announcement's) and where they are told of it.
#[derive(Clone, Debug)]
struct Seat {
    name: String,
    platform_id: String,
    language: Option<Lang>,
    told_at: (Platform, String),
}

impl Seat {
    fn of(row: &TournamentRow, entrant: &EntrantRow) -> Seat {
        Seat {
            name: entrant.name.clone(),
            platform_id: entrant.platform_id.clone(),
            language: entrant.language,
            told_at: told_at(row, entrant),
        }
    }
}

/// A new game's id, its line and its event.
type AnnouncedGame = (i64, String, TournamentEvent);

/// What a tournament change tells the channel, rendered once the commit
/// has given the new games their ids.
#[derive(Clone)]
pub(super) struct Announcements {
    i18n: Arc<I18n>,
    lang: Lang,
    channel: String,
    tournament: i64,
    server_id: i64,
    /// The platforms its messages go to, its own first, when its entrants
    /// play on more than one (each message is then marked with its own).
    platforms: Vec<Platform>,
    /// Where entrants of other servers of the club play from.
    elsewhere: Vec<(Platform, String)>,
    /// The site's public address (`[web] public_url`): each player's games
    /// are listed with their pages.
    web: Option<String>,
    /// Said before the games (the start, a new round, the end).
    pub lines: Vec<String>,
    games: Vec<GameNotice>,
    /// Files to send with the lines (the final crosstable).
    pub attachments: Vec<super::Attachment>,
    /// The byes of the new rounds, sent with the lines.
    byes: Vec<TournamentEvent>,
    /// What a bye is worth, in half points.
    bye_half: u32,
}

impl Announcements {
    pub(super) fn new(i18n: Arc<I18n>, lang: Lang, snapshot: &Snapshot) -> Announcements {
        Announcements {
            i18n,
            lang,
            channel: snapshot.row.channel.clone(),
            tournament: snapshot.row.id,
            server_id: snapshot.row.server_id,
            platforms: platforms(&snapshot.row, &snapshot.entrants),
            elsewhere: channels_elsewhere(&snapshot.entrants),
            web: None,
            lines: Vec::new(),
            games: Vec::new(),
            attachments: Vec::new(),
            byes: Vec::new(),
            bye_half: snapshot.bye_half(),
        }
    }

    /// Lists each player's new games with their pages at `web` (the
    /// site's public address, if it has one).
    pub(super) fn with_pages(mut self, web: Option<&str>) -> Announcements {
        self.web = web.map(str::to_owned);
        self
    }

    /// The outbox row for the platform other than `here` its messages go
    /// to, if any (see `tournament_places`).
    pub(super) fn relay(&self, here: Platform) -> Option<Outgoing> {
        relay(&self.platforms, here, self.server_id)
    }

    /// The replies, each marked with its platform when the tournament is
    /// played on more than one; those for the act's own platform first.
    pub(super) fn render(self, committed: &Committed) -> Vec<Reply> {
        let own = self.platforms.first().copied();
        let mut replies = self.render_unmarked(committed);
        if let Some(own) = own {
            for reply in &mut replies {
                reply.platform.get_or_insert(own);
            }
        }
        replies
    }

    /// The lines, then one message per round and one per player naming
    /// their games (adapters with threads open one for each round's game).
    fn render_unmarked(mut self, committed: &Committed) -> Vec<Reply> {
        let mut replies = Vec::new();
        if !self.lines.is_empty() {
            let text = self.lines.join("\n");
            // Entrants of the club's other servers hear it where they play.
            for (platform, channel) in &self.elsewhere {
                replies.push(Reply {
                    channel: channel.clone(),
                    text: text.clone(),
                    attachments: self.attachments.clone(),
                    platform: Some(*platform),
                    ..Reply::default()
                });
            }
            replies.insert(
                0,
                Reply {
                    channel: self.channel.clone(),
                    to: None,
                    text,
                    attachments: std::mem::take(&mut self.attachments),
                    tournament_events: std::mem::take(&mut self.byes),
                    ..Reply::default()
                },
            );
        }
        // One message per round with its pairings, then one per player
        // naming their own games, in their language: a double round robin
        // of 64 posts 126 + 64 messages, not one per game (4,032).
        let mut rounds: Vec<(u32, Vec<AnnouncedGame>)> = Vec::new();
        let mut players: Vec<(&Seat, Vec<(&GameNotice, i64)>)> = Vec::new();
        for (notice, game) in self.games.iter().zip(&committed.tournament_games) {
            let line = self.game_line(self.lang, notice, *game);
            let event = TournamentEvent::Pairing {
                tournament: self.tournament,
                round: notice.round,
                game: *game,
                white: notice.white.name.clone(),
                black: notice.black.name.clone(),
            };
            let entry = (*game, line, event);
            match rounds.iter_mut().find(|(round, _)| *round == notice.round) {
                Some((_, games)) => games.push(entry),
                None => rounds.push((notice.round, vec![entry])),
            }
            for seat in [&notice.white, &notice.black] {
                match players
                    .iter_mut()
                    .find(|(s, _)| s.platform_id == seat.platform_id)
                {
                    Some((_, games)) => games.push((notice, *game)),
                    None => players.push((seat, vec![(notice, *game)])),
                }
            }
        }
        for (_, games) in rounds {
            // A round of one game is that game's start (Discord opens its thread).
            let prompt = match games.as_slice() {
                [(game, ..)] => Prompt::NewGame { game: *game },
                _ => Prompt::None,
            };
            let (lines, events): (Vec<String>, Vec<TournamentEvent>) = games
                .into_iter()
                .map(|(_, line, event)| (line, event))
                .unzip();
            replies.push(Reply {
                channel: self.channel.clone(),
                to: None,
                text: lines.join("\n"),
                prompt,
                tournament_events: events,
                ..Reply::default()
            });
        }
        replies.extend(self.player_replies(players, committed));
        replies
    }

    /// One message per player naming their new games, in their language,
    /// where they play, each game with its page when the site has an address.
    fn player_replies(
        &self,
        players: Vec<(&Seat, Vec<(&GameNotice, i64)>)>,
        committed: &Committed,
    ) -> Vec<Reply> {
        let mut replies = Vec::with_capacity(players.len());
        let pages: std::collections::HashMap<i64, &String> = committed
            .tournament_games
            .iter()
            .copied()
            .zip(&committed.tournament_game_tokens)
            .collect();
        for (seat, games) in players {
            let lang = seat.language.unwrap_or(self.lang);
            let mut lines = vec![self.i18n.text(
                lang,
                "tournament-your-games",
                &[("tournament", Arg::from(self.tournament))],
            )];
            for (notice, game) in games {
                lines.push(self.game_line(lang, notice, game));
                if let (Some(base), Some(token)) = (&self.web, pages.get(&game)) {
                    let url = format!("{}/g/{token}", base.trim_end_matches('/'));
                    lines.push(self.i18n.text(lang, "web-link", &[("url", Arg::from(url))]));
                }
            }
            let (platform, channel) = seat.told_at.clone();
            replies.push(Reply {
                channel,
                to: Some(seat.platform_id.clone()),
                text: lines.join("\n"),
                platform: (!self.platforms.is_empty()).then_some(platform),
                ..Reply::default()
            });
        }
        replies
    }

    /// A new game's line in `lang`.
    fn game_line(&self, lang: Lang, notice: &GameNotice, game: i64) -> String {
        self.i18n.text(
            lang,
            "tournament-game",
            &[
                ("tournament", Arg::from(self.tournament)),
                ("round", Arg::from(notice.round)),
                ("game", Arg::from(game)),
                ("white", Arg::from(notice.white.name.as_str())),
                ("black", Arg::from(notice.black.name.as_str())),
            ],
        )
    }
}

impl Service {
    /// The pairings to create for `plans`, games started at `now`.
    pub(super) fn pair_changes(
        &self,
        snapshot: &Snapshot,
        plans: &[Planned],
        draw_rules: DrawRules,
        now: DateTime<Utc>,
        notes: &mut Announcements,
    ) -> Vec<TournamentChange> {
        let row = &snapshot.row;
        let control: TimeControl = row.time_control.parse().unwrap_or(TimeControl::Unlimited);
        let mut changes = Vec::with_capacity(plans.len());
        for plan in plans {
            let white = &snapshot.entrants[plan.white];
            let Some(black) = plan.black.map(|b| &snapshot.entrants[b]) else {
                notes.lines.push(self.i18n.text(
                    notes.lang,
                    "tournament-bye",
                    &[
                        ("round", Arg::from(plan.round)),
                        ("player", Arg::from(white.name.as_str())),
                    ],
                ));
                notes.byes.push(TournamentEvent::Bye {
                    tournament: row.id,
                    round: plan.round,
                    player: white.name.clone(),
                    points: f64::from(notes.bye_half) / 2.0,
                });
                changes.push(TournamentChange::Pair(NewPairing {
                    tournament_id: row.id,
                    round: plan.round,
                    board: plan.board,
                    white: white.player,
                    black: None,
                    game: None,
                    place: None,
                    score: Some(PairingScore::Bye),
                }));
                continue;
            };
            let players = Players {
                white: white.player,
                black: black.player,
            };
            let home = game_home(row, white, black);
            let game = Game::new(players, None, draw_rules, now).map(|mut game| {
                game.start_clock(control);
                game
            });
            let Ok(game) = game else {
                // Only a player paired with themselves fails: never from the pairing code.
                tracing::error!(tournament = row.id, "a pairing could not become a game");
                continue;
            };
            changes.push(TournamentChange::Pair(NewPairing {
                tournament_id: row.id,
                round: plan.round,
                board: plan.board,
                white: white.player,
                black: Some(black.player),
                game: Some(NewGame {
                    server_id: home.server_id,
                    channel_id: home.channel_id,
                    white: white.player,
                    black: black.player,
                    variant: Variant::Standard,
                    start_fen: None,
                    time_control: row.time_control.clone(),
                    rated: row.rated,
                    draw_rules,
                    turn: game.turn(),
                    challenge_id: None,
                    clock: Some(*game.clock()),
                    remind_at: self.next_reminder(&game, now),
                    history: None,
                }),
                place: home.place,
                score: None,
            }));
            notes.games.push(GameNotice {
                round: plan.round,
                white: Seat::of(row, white),
                black: Seat::of(row, black),
            });
        }
        changes
    }

    /// Starting a tournament: seeds (rating, then join order) and the first
    /// pairings; `Err` when it cannot start with its players.
    pub(super) async fn start_changes(
        &self,
        mut snapshot: Snapshot,
        draw_rules: DrawRules,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Result<(Vec<TournamentChange>, Announcements), StartError>, StorageError> {
        let mut rated = Vec::with_capacity(snapshot.entrants.len());
        let scope = self.rating_scope(snapshot.row.server_id).await?;
        for entrant in &snapshot.entrants {
            let rating = self
                .store
                .rating_of_account(scope, entrant.player, Variant::Standard)
                .await?
                .unwrap_or(self.config.ratings.initial_rating);
            rated.push((entrant.clone(), rating));
        }
        // Stable: equal ratings keep the join order.
        rated.sort_by(|a, b| b.1.total_cmp(&a.1));
        snapshot.entrants = rated.into_iter().map(|(e, _)| e).collect();
        let (system, n) = (snapshot.row.system, snapshot.entrants.len());
        if let Err(error) = self.config.tournament_limits.admit(system, n) {
            return Ok(Err(error));
        }
        let plans = match self
            .off_the_act_path(snapshot.row.id, 1, move || tournament::start(system, n))
            .await?
        {
            Ok(plans) => plans,
            Err(error) => return Ok(Err(error)),
        };
        let row = &snapshot.row;
        let mut changes = vec![TournamentChange::Advance {
            id: row.id,
            expected_version: row.version,
            state: TournamentState::Running,
            round: 1,
        }];
        for (seed, entrant) in snapshot.entrants.iter().enumerate() {
            changes.push(TournamentChange::Seed {
                tournament_id: row.id,
                player: entrant.player,
                seed: seed as u32 + 1,
            });
        }
        let mut notes = Announcements::new(Arc::clone(&self.i18n), lang, &snapshot)
            .with_pages(self.config.web_url.as_deref());
        let seeds: Vec<&str> = snapshot.entrants.iter().map(|e| e.name.as_str()).collect();
        notes.lines.push(self.i18n.text(
            lang,
            "tournament-started",
            &[
                ("tournament", Arg::from(snapshot.title())),
                ("players", Arg::from(seeds.len() as i64)),
                ("seeds", Arg::from(seeds.join(", "))),
            ],
        ));
        if row.system == tournament::System::Scheveningen {
            let (a, b) = tournament::scheveningen_teams(seeds.len());
            let names = |team: &[usize]| -> String {
                team.iter()
                    .map(|&i| seeds[i])
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            notes.lines.push(self.i18n.text(
                lang,
                "tournament-teams",
                &[("a", Arg::from(names(&a))), ("b", Arg::from(names(&b)))],
            ));
        }
        changes.extend(self.pair_changes(&snapshot, &plans, draw_rules, now, &mut notes));
        Ok(Ok((changes, notes)))
    }

    /// What follows the pairings as `snapshot` has them (after a result or a
    /// withdrawal): always a version bump, so two results of one round
    /// cannot both miss that the round is over; and the next pairings, or the end.
    pub(super) async fn follow_up(
        &self,
        snapshot: &Snapshot,
        draw_rules: DrawRules,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<(Vec<TournamentChange>, Announcements), StorageError> {
        let row = &snapshot.row;
        let pairings = snapshot.pure_pairings()?;
        let (system, round, rounds, bye_half) = (
            row.system,
            row.round,
            snapshot.rounds(),
            snapshot.bye_half(),
        );
        let withdrawn = snapshot.withdrawn();
        let round_over = pairings
            .iter()
            .filter(|p| p.round == round)
            .all(|p| p.outcome.is_decided());
        let course =
            move || tournament::next(system, &withdrawn, round, rounds, &pairings, bye_half);
        // Only a round's end can pair (or end) anything: a result in the
        // middle of a round is answered at once, on the act's own thread.
        let next = if round_over {
            self.off_the_act_path(row.id, round + 1, course).await?
        } else {
            course()
        };
        let mut notes = Announcements::new(Arc::clone(&self.i18n), lang, snapshot)
            .with_pages(self.config.web_url.as_deref());
        let advance = |state, round| TournamentChange::Advance {
            id: row.id,
            expected_version: row.version,
            state,
            round,
        };
        let changes = match next {
            Next::Wait => vec![advance(row.state, row.round)],
            Next::Pair { round, pairings } => {
                if round != row.round {
                    notes.lines.push(self.i18n.text(
                        lang,
                        "tournament-round",
                        &[
                            ("tournament", Arg::from(snapshot.title())),
                            ("round", Arg::from(round)),
                        ],
                    ));
                }
                let mut changes = vec![advance(TournamentState::Running, round)];
                changes.extend(self.pair_changes(snapshot, &pairings, draw_rules, now, &mut notes));
                changes
            }
            Next::Finished => {
                let table = self.crosstable_text(snapshot, lang, now)?;
                let winner = table.winner.clone().unwrap_or_default();
                notes.lines.push(self.i18n.text(
                    lang,
                    "tournament-finished",
                    &[
                        ("tournament", Arg::from(snapshot.title())),
                        ("winner", Arg::from(winner)),
                    ],
                ));
                notes.lines.push(table.text);
                notes.attachments.extend(table.png);
                vec![advance(TournamentState::Finished, row.round)]
            }
        };
        Ok((changes, notes))
    }

    /// When a game ends, its tournament's follow-up, for the same commit,
    /// announced in the server's language.
    pub(super) async fn after_tournament_game(
        &self,
        record: &GameRecord,
        state: &Status,
        now: DateTime<Utc>,
    ) -> Result<Option<(Vec<TournamentChange>, Announcements)>, StorageError> {
        // Most games are no tournament's: they read nothing more.
        if !record.tournament_game || !matches!(state, Status::Over { .. }) {
            return Ok(None);
        }
        let Some(id) = self.store.tournament_of_game(record.id).await? else {
            return Ok(None);
        };
        let Some(row) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        if row.state != TournamentState::Running {
            return Ok(None);
        }
        let mut snapshot = Snapshot::load(&self.store, row).await?;
        for pairing in &mut snapshot.pairings {
            if pairing.game_id == Some(record.id) {
                pairing.game_state = Some(*state);
            }
        }
        // Its games may live on other servers of the club: it speaks its own language.
        let lang = self.server_language(snapshot.row.server_id).await?;
        self.follow_up(&snapshot, record.draw_rules, lang, now)
            .await
            .map(Some)
    }

    /// Runs a tournament's pure course (`work`: a start's pairings, what
    /// follows a round) on a blocking thread, [`PAIRINGS_AT_ONCE`] at a
    /// time in the process: a Swiss round of thousands of players is up to
    /// a second of CPU (bounded: see `competition::dutch`), which must hold
    /// neither a runtime worker (the scheduler, other acts) nor a
    /// transaction (none is open: the act commits after it, checking the
    /// tournament's version, and a crash meanwhile leaves the result to be
    /// given again, the round to be paired then).
    async fn off_the_act_path<T, F>(
        &self,
        tournament: i64,
        round: u32,
        work: F,
    ) -> Result<T, StorageError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let _slot = self
            .pairing_slots
            .acquire()
            .await
            .map_err(|_| StorageError::Backend("the pairing slots are closed".to_owned()))?;
        let started = std::time::Instant::now();
        tracing::debug!(tournament, round, "pairing");
        let outcome = tokio::task::spawn_blocking(work).await;
        tracing::debug!(
            tournament,
            round,
            ms = started.elapsed().as_millis() as u64,
            "paired"
        );
        match outcome {
            Ok(value) => Ok(value),
            // A bug in the pure code: the act fails as it would have inline.
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(error) => Err(StorageError::Backend(format!("pairing stopped: {error}"))),
        }
    }

    /// Starts the tournaments whose entry window has closed (or cancels
    /// them when too few joined), and returns the announcements.
    pub(super) async fn start_due_tournaments(&self, now: DateTime<Utc>) -> Vec<Reply> {
        let due = match self.store.due_tournaments(now, BATCH).await {
            Ok(due) => due,
            Err(error) => {
                tracing::error!(%error, "cannot read due tournaments");
                return Vec::new();
            }
        };
        let mut replies = Vec::new();
        for tournament in due {
            match self.start_due(tournament.id, tournament.version, now).await {
                Ok(notices) => replies.extend(notices),
                Err(error) => {
                    tracing::error!(%error, tournament = tournament.id, "cannot start a tournament");
                }
            }
        }
        replies
    }

    async fn start_due(
        &self,
        id: i64,
        version: i64,
        now: DateTime<Utc>,
    ) -> Result<Vec<Reply>, StorageError> {
        let Some(row) = self.store.tournament(id).await? else {
            return Ok(Vec::new());
        };
        if row.version != version || row.state != TournamentState::Entry {
            return Ok(Vec::new());
        }
        let lang = self.server_language(row.server_id).await?;
        let snapshot = Snapshot::load(&self.store, row).await?;
        let (changes, notes) = match self
            .start_changes(snapshot.clone(), DrawRules::default(), lang, now)
            .await?
        {
            Ok(started) => started,
            Err(error) => {
                let mut notes = Announcements::new(Arc::clone(&self.i18n), lang, &snapshot);
                notes.lines.push(self.start_refusal(lang, &snapshot, error));
                let changes = vec![TournamentChange::Advance {
                    id,
                    expected_version: version,
                    state: TournamentState::Cancelled,
                    round: 0,
                }];
                (changes, notes)
            }
        };
        let platform = self.platform_of(snapshot.row.server_id).await?;
        let commit = Commit {
            act_key: Some(format!("tournament-start:{id}")),
            tournament_changes: changes,
            outgoing: notices_on(platform, snapshot.row.server_id),
            relay: notes.relay(platform),
            ..Commit::default()
        };
        match self
            .store
            .commit(commit, now, move |c| notes.render(c))
            .await
        {
            Ok((_, replies)) => {
                self.deadline_changed.wake();
                Ok(replies)
            }
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }

    pub(super) fn start_refusal(
        &self,
        lang: Lang,
        snapshot: &Snapshot,
        error: StartError,
    ) -> String {
        let (key, max) = match error {
            StartError::TooFewPlayers => ("tournament-too-few", 0),
            StartError::TooManyPlayers { max } => ("tournament-too-many", max),
            StartError::OddTeams => ("tournament-odd-teams", 0),
        };
        let system = self.i18n.text(
            lang,
            &format!("tournament-system-{}", snapshot.row.system.as_str()),
            &[],
        );
        self.i18n.text(
            lang,
            key,
            &[
                ("tournament", Arg::from(snapshot.title())),
                ("players", Arg::from(snapshot.entrants.len() as i64)),
                (
                    "min",
                    Arg::from(tournament::min_players(snapshot.row.system) as i64),
                ),
                ("max", Arg::from(max as i64)),
                ("system", Arg::from(system)),
            ],
        )
    }
}
