//! `/vote`: a team member's vote on their team's move, and the count that
//! plays it (see [`crate::core::vote`]).
//!
//! A vote is told to its voter alone (a secret reply) and to nobody else
//! until the move it decides is played; then the channel's message shows
//! the tally. The count happens in the commit of the vote that completes
//! the team (every current member has voted), or at the team's deadline
//! (the scheduler, `deadlines`). Each vote bumps the game's version, so
//! two last votes cast at once are counted one after the other, and a vote
//! racing the deadline's count is refused and tried again on the new move.

use chrono::{DateTime, Utc};
use shakmaty::Color;

use super::cache::LoadedGame;
use super::game_end::GameEnd;
use super::games::{Saved, addressee, board_view, game_update, restore};
use super::notation::Typing;
use super::texts::{self, Names, is_stand_in};
use super::{Attempt, Context, GameEvent, Prompt, Reply, Service};
use crate::core::command::VoteChoice;
use crate::core::conditional;
use crate::core::game::{Game, GameError, PlayerId};
use crate::core::notation::{self, Lang, Style};
use crate::core::vote::{self, Ballot, Choice};
use crate::i18n::Arg;
use crate::storage::{Commit, GameRecord, GameUpdate, NewVote, StorageError, TeamRow, VoteRow};

/// A team's move decided by its votes, not committed yet.
pub(super) struct Decided {
    pub update: GameUpdate,
    /// The channel's message: the tally, the move, whose turn.
    pub reply: Reply,
    pub end: GameEnd,
    /// The game after it, for the cache once committed.
    pub next: LoadedGame,
}

impl Service {
    pub(super) async fn vote(
        &self,
        ctx: &Context,
        wish: &VoteChoice,
        game_id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let refuse =
            |key: &str, args: &[(&str, Arg)]| Ok(vec![self.secret(ctx, self.text(ctx, key, args))]);
        let id = match self.vote_game(ctx, game_id).await? {
            Ok(id) => id,
            Err(refusal) => return Ok(refusal),
        };
        let game_arg = [("game", Arg::from(id))];
        let record = match self.store.game(id).await? {
            Some(record) if record.server_id == ctx.server.id => record,
            _ => return refuse("game-not-found", &game_arg),
        };
        let game = restore(&record)?;
        if game.is_over() {
            return refuse("refused-game_over", &[]);
        }
        let side = game.turn();
        let me = ctx.player.id;
        let (team, voters) = match self.voting_team(ctx, id, &game).await? {
            Ok(voting) => voting,
            Err(key) => return refuse(key, &game_arg),
        };
        if game.clock().is_flagged(now) {
            return refuse("vote-closed", &game_arg);
        }
        let choice = match self.read_choice(ctx, &game, side, wish) {
            Ok(choice) => choice,
            Err(text) => return Ok(vec![self.secret(ctx, text)]),
        };
        let ply = game.moves().len() as u32 + 1;
        let votes = self.store.votes(id, ply, team.id).await?;
        let earlier = votes.iter().find(|v| v.player == me).map(ballot);
        let described = self.choice_text(ctx.lang, &game, &choice);
        if let Some(earlier) = &earlier {
            if earlier.choice == choice {
                let args = [("choice", Arg::from(described)), ("game", Arg::from(id))];
                return refuse("vote-same", &args);
            }
            if !self.store.votes_changeable(id).await? {
                return refuse("vote-final", &game_arg);
            }
        }
        let ballots = ballots_with(&votes, me, &choice);
        let everyone = voters
            .iter()
            .all(|member| ballots.iter().any(|b| b.voter == *member));
        let decided = match everyone {
            true => {
                let lang = ctx.server_lang;
                self.decide_votes(&record, &game, side, &ballots, lang, now, now)
                    .await?
            }
            false => None,
        };
        let key = match earlier {
            Some(_) => "vote-changed",
            None => "vote-cast",
        };
        let args = [
            ("choice", Arg::from(described)),
            ("game", Arg::from(id)),
            ("team", Arg::from(team.name.as_str())),
            ("cast", Arg::from(ballots.len() as i64)),
            ("members", Arg::from(voters.len() as i64)),
        ];
        let confirmation = self.secret(ctx, self.text(ctx, key, &args));
        let new_vote = NewVote {
            game_id: id,
            ply,
            player: me,
            choice: choice.as_stored().to_owned(),
            offers_draw: choice.offers_draw(),
            at: now,
            replaces: earlier.is_some(),
        };
        let Some(decided) = decided else {
            // The game's row is written unchanged: its version orders the votes.
            let update = game_update(&record, &game, Saved::all_of(&game), record.remind_at);
            let commit = Commit {
                act_key: ctx.act_key.clone(),
                game_updates: vec![update],
                vote: Some(new_vote),
                ..Commit::default()
            };
            return self
                .commit_replies(ctx, commit, now, vec![confirmation])
                .await;
        };
        self.commit_deciding_vote(ctx, new_vote, confirmation, decided, now)
            .await
    }

    /// The game a vote is for: the one named, or the voter's only vote
    /// game in this channel; else the answer saying there is none, or
    /// which ones there are.
    async fn vote_game(
        &self,
        ctx: &Context,
        game_id: Option<i64>,
    ) -> Result<Result<i64, Vec<Reply>>, StorageError> {
        if let Some(id) = game_id {
            return Ok(Ok(id));
        }
        let games = self
            .store
            .vote_games_in_channel(ctx.channel.id, ctx.player.id)
            .await?;
        let (key, args) = match games.as_slice() {
            [one] => return Ok(Ok(*one)),
            [] => ("vote-no-game", Vec::new()),
            several => {
                let list: Vec<String> = several.iter().map(|g| format!("#{g}")).collect();
                (
                    "vote-which-game",
                    vec![("games", Arg::from(list.join(", ")))],
                )
            }
        };
        Ok(Err(vec![self.secret(ctx, self.text(ctx, key, &args))]))
    }

    /// The team whose move the voter votes on in game `id`, with the members
    /// who may vote (not one who also plays against it); or the refusal's
    /// message when the voter may not.
    async fn voting_team(
        &self,
        ctx: &Context,
        id: i64,
        game: &Game,
    ) -> Result<Result<(TeamRow, Vec<PlayerId>), &'static str>, StorageError> {
        let teams = self.store.game_teams(id).await?;
        let side = game.turn();
        let me = ctx.player.id;
        // The members of each team playing, and which teams the voter is in.
        let mut mine = None;
        let mut in_other_team = false;
        let mut opponents: Vec<PlayerId> = vec![game.players().get(!side)];
        for (colour, team) in teams {
            let members = self.store.team_members(team.id).await?;
            if colour != side {
                opponents.extend(&members);
            }
            if members.contains(&me) {
                match colour == side {
                    true => mine = Some((team, members)),
                    false => in_other_team = true,
                }
            }
        }
        // Who plays against the team never votes for it.
        if game.players().side_of(me).is_some() || (mine.is_some() && in_other_team) {
            return Ok(Err("vote-opponent"));
        }
        let Some((team, members)) = mine else {
            return Ok(Err(match in_other_team {
                true => "vote-not-your-turn",
                false => "vote-not-member",
            }));
        };
        let voters = members
            .into_iter()
            .filter(|m| !opponents.contains(m))
            .collect();
        Ok(Ok((team, voters)))
    }

    /// Commits a vote that decided the team's move, with that move.
    async fn commit_deciding_vote(
        &self,
        ctx: &Context,
        new_vote: NewVote,
        confirmation: Reply,
        decided: Decided,
        now: DateTime<Utc>,
    ) -> Attempt {
        let Decided {
            update,
            mut reply,
            end,
            next,
        } = decided;
        let mut commit = Commit {
            act_key: ctx.act_key.clone(),
            game_updates: vec![update],
            vote: Some(new_vote),
            ..Commit::default()
        };
        let answer = end.apply(&mut commit, &mut reply, ctx.platform);
        let replies = vec![confirmation, reply];
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed| {
                answer(committed, replies)
            })
            .await?;
        self.games.put(next);
        self.deadline_changed.wake();
        Ok(replies)
    }

    /// What the member voted for, read as a move is (any notation; an
    /// ambiguous text refused with its readings), or why it cannot be.
    fn read_choice(
        &self,
        ctx: &Context,
        game: &Game,
        side: Color,
        wish: &VoteChoice,
    ) -> Result<Choice, String> {
        match wish {
            VoteChoice::Resign => Ok(Choice::Resign),
            VoteChoice::Accept if game.pending_offer() == Some(!side) => Ok(Choice::AcceptDraw),
            VoteChoice::Accept => Err(self.text(ctx, "refused-no_draw_offer", &[])),
            VoteChoice::Move {
                offer_draw: true, ..
            } if !game.rules().agreement_allowed => {
                Err(self.text(ctx, "refused-agreement_forbidden", &[]))
            }
            VoteChoice::Move { text, offer_draw } => {
                let typing = Typing::of(ctx);
                match notation::parse_move(game.position(), text, &typing.reader) {
                    Ok(m) => Ok(Choice::Move {
                        uci: vote::uci_of(m),
                        offers_draw: *offer_draw,
                    }),
                    Err(error) => Err(texts::game_refusal(
                        &self.i18n,
                        ctx.lang,
                        &typing,
                        &GameError::Move(error),
                        game.position(),
                        text,
                    )),
                }
            }
        }
    }

    /// A ballot's choice in `lang`: the move in the reader's notation.
    fn choice_text(&self, lang: Lang, game: &Game, choice: &Choice) -> String {
        match choice {
            Choice::Resign => self.i18n.text(lang, "vote-choice-resign", &[]),
            Choice::AcceptDraw => self.i18n.text(lang, "vote-choice-accept", &[]),
            Choice::Move { uci, offers_draw } => {
                let position = game.position();
                let san = uci
                    .parse::<shakmaty::uci::UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(position).ok())
                    .map(|m| notation::write_san(position, m, Style::for_lang(lang)))
                    .unwrap_or_else(|| uci.clone());
                let key = match offers_draw {
                    true => "vote-choice-move-draw",
                    false => "vote-choice-move",
                };
                self.i18n.text(lang, key, &[("san", Arg::from(san))])
            }
        }
    }

    /// Plays what `ballots` decide for the team with `side` at `at`, if
    /// they decide something: the game's save, the channel's message (in
    /// the language of whoever reads it next: the opponent, or the server's
    /// once the game is over or when a team reads it) and the end's writes.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn decide_votes(
        &self,
        record: &GameRecord,
        game: &Game,
        side: Color,
        ballots: &[Ballot],
        server_lang: Lang,
        at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<Decided>, StorageError> {
        let tally = vote::tally(game.position(), ballots);
        let offer = game.pending_offer() == Some(!side);
        let Some(decision) = tally.decision(offer) else {
            return Ok(None);
        };
        let mut game = game.clone();
        let saved = Saved::all_of(&game);
        let mut events = match vote::carry_out(&mut game, side, &decision, tally, at) {
            Ok(events) => events,
            Err(error) => {
                tracing::warn!(%error, game = record.id, "the votes' decision could not be played");
                return Ok(None);
            }
        };
        // The opponent's conditional moves answer the team's move as any.
        let mut lines = record.conditionals.clone();
        let answered = conditional::after_act(&mut game, &mut lines, &events, at);
        events.extend(answered);
        let names = Names::new(&record.white_player, &record.black_player);
        let reader = record.player(!side);
        let lang = match game.is_over() || is_stand_in(&reader.platform_id) {
            true => server_lang,
            false => reader.reading_language(server_lang),
        };
        let mut lines_told = texts::describe_events(
            &self.i18n,
            lang,
            record.id,
            &names,
            &events,
            Some(side),
            game.turn(),
        );
        if !game.is_over() && game.clock().deadline().is_some() {
            lines_told.push(texts::clock_text(&self.i18n, lang, &names, &game, now));
        }
        let viewer = match game.is_over() {
            true => side,
            false => game.turn(),
        };
        let view = board_view(&game, record.id, &names, viewer);
        let reply = Reply {
            channel: record.channel.clone(),
            to: match game.is_over() {
                true => None,
                false => names.mention(addressee(&game)),
            },
            text: lines_told.join("\n"),
            events: events
                .iter()
                .map(|event| GameEvent {
                    game: record.id,
                    event: event.clone(),
                })
                .collect(),
            board: Some(self.with_clocks(view, &game, lang, now)),
            prompt: match game.is_over() {
                true => Prompt::None,
                false => Prompt::Game { game: record.id },
            },
            ..Reply::default()
        };
        let update = GameUpdate {
            conditionals: lines,
            ..game_update(record, &game, saved, self.next_reminder(&game, now))
        };
        let end = self.game_end(record, &update.state, lang, now).await?;
        Ok(Some(Decided {
            next: LoadedGame::saved(record, &update, game),
            update,
            reply,
            end,
        }))
    }

    /// The ballots a team has cast on the move it must play in `game`.
    pub(super) async fn ballots_on(
        &self,
        record: &GameRecord,
        game: &Game,
        team: &TeamRow,
    ) -> Result<Vec<Ballot>, StorageError> {
        let ply = game.moves().len() as u32 + 1;
        let votes = self.store.votes(record.id, ply, team.id).await?;
        Ok(votes.iter().map(ballot).collect())
    }
}

/// The ballots on a move once `me` votes `choice`: the others' as stored,
/// and `me`'s counted last (the store numbers it after every vote on this
/// move), replacing an earlier one.
fn ballots_with(votes: &[VoteRow], me: PlayerId, choice: &Choice) -> Vec<Ballot> {
    let order = votes.iter().map(|v| v.seq).max().unwrap_or(0) + 1;
    let mut ballots: Vec<Ballot> = votes
        .iter()
        .filter(|v| v.player != me)
        .map(ballot)
        .collect();
    ballots.push(Ballot {
        voter: me,
        choice: choice.clone(),
        order,
    });
    ballots
}

fn ballot(row: &VoteRow) -> Ballot {
    Ballot {
        voter: row.player,
        choice: Choice::from_stored(&row.choice, row.offers_draw),
        order: row.seq,
    }
}

/// Whether one of a game's players is a team's stand-in.
pub(super) fn has_team(record: &GameRecord) -> bool {
    is_stand_in(&record.white_player.platform_id) || is_stand_in(&record.black_player.platform_id)
}
