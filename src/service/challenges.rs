//! Challenges: proposing a game, accepting, declining, cancelling.

use chrono::{DateTime, Utc};
use shakmaty::{Color, Position};

use super::texts::{Names, variant_line};
use super::{Attempt, Context, Prompt, Reply, Service};
use crate::core::chess960;
use crate::core::choices::ColorChoice;
use crate::core::clock::TimeControl;
use crate::core::command::Command;
use crate::core::game::{Game, PlayerId, Players, SetupError};
use crate::core::pgn::{Continuation, PgnError};
use crate::core::variant::Variant;
use crate::i18n::Arg;
use crate::storage::{
    ChallengeClosing, ChallengeRow, ChallengeStatus, Commit, Committed, GameHistory,
    LadderMatchStatus, LadderMatchUpdate, NewChallenge, NewGame, PlayerRow, StorageError,
};

impl Service {
    pub(super) async fn challenge(
        &self,
        ctx: &Context,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Attempt {
        let Command::Challenge {
            opponent,
            color,
            rated,
            fen,
            time_control,
            pgn,
            variant,
            start,
        } = command
        else {
            return Ok(Vec::new());
        };
        // Checked before anything is written (even the opponent's row).
        // Two challenges sent at the same instant may both pass: the cap
        // bounds the work one player makes, it is not a rule of the game.
        let limit = self.config.max_open_challenges;
        if limit > 0 && self.store.open_challenge_count(ctx.player.id, now).await? >= limit {
            let text = self.text(ctx, "challenge-limit", &[("limit", Arg::from(limit))]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let challenged = match opponent {
            None => None,
            Some(user) => {
                let row = self
                    .store
                    .ensure_player(ctx.platform, user.as_str(), user.display_name(), now)
                    .await?;
                if row.id == ctx.player.id {
                    return Ok(vec![
                        self.private(ctx, self.text(ctx, "challenge-self", &[])),
                    ]);
                }
                Some(row)
            }
        };
        if start.is_some() && fen.is_some() {
            let text = self.text(ctx, "challenge-start_and_fen", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        // A Chess960 game's start is drawn now, so the challenge shows it.
        let fen = match variant {
            Variant::Chess960 if fen.is_none() && pgn.is_none() => {
                chess960::fen(start.unwrap_or_else(|| random_start(now)))
            }
            _ => fen.clone(),
        };
        if let Some(error) = fen
            .as_deref()
            .and_then(|fen| check_start(*variant, fen, now).err())
        {
            return Ok(vec![self.setup_refusal(ctx, &error)]);
        }
        let (continuation, color) = match pgn {
            None => (None, *color),
            Some(_) if start.is_some() => {
                let text = self.text(ctx, "challenge-continued-fen", &[]);
                return Ok(vec![self.private(ctx, text)]);
            }
            Some(text) => {
                match continuation(ctx, text, challenged.as_ref(), &fen, *rated, *color) {
                    Ok((continuation, color)) => (Some(continuation), color),
                    Err(Refusal::Text(key)) => {
                        return Ok(vec![self.private(ctx, self.text(ctx, key, &[]))]);
                    }
                    Err(Refusal::Pgn(error)) => return Ok(vec![self.pgn_refusal(ctx, &error)]),
                }
            }
        };
        let time_control = match time_control.as_deref().map(str::parse::<TimeControl>) {
            Some(Ok(control)) => control.to_string(),
            Some(Err(_)) => {
                let text = time_control.as_deref().unwrap_or_default();
                let args = [("what", Arg::from("time")), ("value", Arg::from(text))];
                return Ok(vec![
                    self.private(ctx, self.text(ctx, "command-bad_value", &args)),
                ]);
            }
            None => ctx.server.time_control.clone(),
        };
        // A game to continue is played by its record's rules.
        let variant = continuation.as_ref().map_or(*variant, |c| c.variant);
        let start_fen = match &continuation {
            Some(continued) => continued.start_fen.clone(),
            None => fen,
        };
        // What the challenge says of its rules: "Chess960 #NNN".
        let variant_line = variant_line(variant, start_fen.as_deref());
        let new = NewChallenge {
            server_id: ctx.server.id,
            channel_id: ctx.channel.id,
            challenger: ctx.player.id,
            challenged: challenged.as_ref().map(|row| row.id),
            color,
            time_control,
            rated: *rated,
            variant,
            start_fen,
            expires_at: now + self.config.challenge_expiry,
            start_moves: continuation.as_ref().map(Continuation::moves_text),
            votes_changeable: None,
        };
        // What the challenged player reads of the game to continue: the
        // move it goes on from and the side to play.
        let continued_from = continuation.as_ref().map(|continued| {
            let side = continued.turn.fold_wb("white", "black");
            (continued.next_move, side)
        });
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            new_challenge: Some(new),
            ..Commit::default()
        };
        let i18n = self.i18n.clone();
        let channel = ctx.channel_platform_id.clone();
        // A challenge to someone is written in their language; an open one
        // in the challenger's.
        let (own_lang, server_lang) = (ctx.lang, ctx.server.language);
        let lang = challenged
            .as_ref()
            .map_or(own_lang, |row| row.reading_language(server_lang));
        let challenger = ctx.player.display_name.clone();
        let own = ctx.player.platform_id.clone();
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                let id = Arg::from(committed.challenge_id.unwrap_or_default());
                let player = Arg::from(challenger.as_str());
                let mut own_copy = None;
                let (text, to) = match &challenged {
                    Some(row) => {
                        let (number, side) = continued_from.unwrap_or_default();
                        let args = [
                            ("player", player),
                            ("opponent", Arg::from(row.display_name.as_str())),
                            ("challenge", id),
                            ("move", Arg::from(number)),
                            ("side", Arg::from(side)),
                        ];
                        let key = match continued_from {
                            Some(_) => "challenge-continued",
                            None => "challenge-direct",
                        };
                        if lang != own_lang {
                            // The challenger reads it in their own language too.
                            own_copy = Some(Reply {
                                channel: channel.clone(),
                                to: Some(own),
                                ephemeral: true,
                                text: i18n.text(own_lang, key, &args),
                                ..Reply::default()
                            });
                        }
                        (i18n.text(lang, key, &args), Some(row.platform_id.clone()))
                    }
                    None => (
                        i18n.text(
                            lang,
                            "challenge-open",
                            &[("player", player), ("challenge", id)],
                        ),
                        None,
                    ),
                };
                let text = match &variant_line {
                    Some((key, args)) => format!("{text}\n{}", i18n.text(lang, key, args)),
                    None => text,
                };
                let challenge = Reply {
                    channel,
                    to,
                    text,
                    prompt: match committed.challenge_id {
                        Some(challenge) => Prompt::Challenge { challenge },
                        None => Prompt::None,
                    },
                    ..Reply::default()
                };
                std::iter::once(challenge)
                    .chain(own_copy)
                    .collect::<Vec<_>>()
            })
            .await?;
        Ok(replies)
    }

    pub(super) async fn accept(
        &self,
        ctx: &Context,
        id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let challenge = match self.find_challenge(ctx, id, now, Role::Accepting).await? {
            Ok(challenge) => challenge,
            Err(answer) => return Ok(answer),
        };
        // A team challenged is seated, not the member who accepts for it.
        let players = seat(
            &challenge,
            challenge.challenged.unwrap_or(ctx.player.id),
            now,
        );
        let (fen, rules) = (challenge.start_fen.as_deref(), ctx.server.draw_rules);
        let variant = challenge.variant;
        let mut game = match &challenge.start_moves {
            None => match Game::new_variant(variant, players, fen, rules, now) {
                Ok(game) => game,
                Err(error) => return Ok(vec![self.setup_refusal(ctx, &error)]),
            },
            // Checked when the challenge was made; played out again here.
            Some(moves) => match Continuation::resume(variant, players, fen, moves, rules, now) {
                Ok(game) => game,
                Err(error) => return Ok(vec![self.pgn_refusal(ctx, &error)]),
            },
        };
        // Stored controls were checked when the challenge was made.
        let control = challenge.time_control.parse().unwrap_or_else(|_| {
            tracing::warn!(
                challenge = challenge.id,
                "unreadable time control; no clock"
            );
            TimeControl::Unlimited
        });
        game.start_clock(control);
        let new_game = NewGame {
            server_id: challenge.server_id,
            channel_id: challenge.channel_id,
            white: players.white,
            black: players.black,
            variant: game.variant(),
            start_fen: game.start_fen().map(str::to_owned),
            time_control: challenge.time_control.clone(),
            rated: challenge.rated,
            draw_rules: ctx.server.draw_rules,
            turn: game.turn(),
            challenge_id: Some(challenge.id),
            clock: Some(*game.clock()),
            remind_at: self.next_reminder(&game, now),
            history: challenge.start_moves.is_some().then(|| {
                Box::new(GameHistory {
                    started_at: now,
                    moves: super::games::to_rows(&game, 0),
                    notes: Vec::new(),
                    ending: None,
                })
            }),
        };
        let continued_moves = game.moves().len();
        let started_variant = variant_line(game.variant(), game.start_fen());
        let next_move = game.position().fullmoves().get();
        // A ladder challenge becomes a ladder game.
        let ladder_match = self.pending_ladder_match(challenge.id).await?;
        let is_ladder_game = ladder_match.is_some();
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            closing_challenge: Some(ChallengeClosing {
                id: challenge.id,
                to: ChallengeStatus::Accepted,
            }),
            new_game: Some(new_game),
            ladder_match_update: ladder_match.map(|m| LadderMatchUpdate {
                id: m.id,
                from: LadderMatchStatus::Pending,
                to: LadderMatchStatus::Playing,
                link_new_game: true,
            }),
            ..Commit::default()
        };
        let white = self.store.player(players.white).await?;
        let black = self.store.player(players.black).await?;
        let (Some(white), Some(black)) = (white, black) else {
            return Err(StorageError::NotFound("player"));
        };
        let names = Names::new(&white, &black);
        let turn = game.turn();
        // Written for the player who moves first.
        let first_mover = if turn == Color::White { &white } else { &black };
        let lang = first_mover.reading_language(ctx.server.language);
        let own_lang = ctx.lang;
        let own = ctx.player.platform_id.clone();
        let i18n = self.i18n.clone();
        let channel = ctx.channel_platform_id.clone();
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                let game_id = committed.game_id.unwrap_or_default();
                let args = [
                    ("game", Arg::from(game_id)),
                    ("white", Arg::from(names.display(Color::White))),
                    ("black", Arg::from(names.display(Color::Black))),
                    ("turn", Arg::from(names.display(turn))),
                    ("move", Arg::from(next_move)),
                ];
                let id = match (is_ladder_game, continued_moves) {
                    (true, _) => "ladder-game-started",
                    (false, 0) => "game-started",
                    (false, _) => "game-continued",
                };
                let mut text = i18n.text(lang, id, &args);
                if let Some((key, variant_args)) = &started_variant {
                    text = format!("{text}\n{}", i18n.text(lang, key, variant_args));
                }
                if names.mention(turn).is_none() {
                    // A team moves first: its members are told how.
                    let team = [("player", Arg::from(names.display(turn)))];
                    text = format!("{text}\n{}", i18n.text(lang, "vote-your-move", &team));
                }
                let mut reply = Reply {
                    channel: channel.clone(),
                    to: names.mention(turn),
                    text,
                    prompt: Prompt::NewGame { game: game_id },
                    ..Reply::default()
                };
                reply.board = Some(super::games::board_view(&game, game_id, &names, turn));
                // The one who accepted reads it in their own language too.
                let confirmation = (lang != own_lang).then(|| Reply {
                    channel,
                    to: Some(own),
                    ephemeral: true,
                    text: i18n.text(own_lang, id, &args),
                    ..Reply::default()
                });
                std::iter::once(reply)
                    .chain(confirmation)
                    .collect::<Vec<_>>()
            })
            .await?;
        Ok(replies)
    }

    pub(super) async fn decline(
        &self,
        ctx: &Context,
        id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        self.close(ctx, id, now, Role::Declining).await
    }

    pub(super) async fn cancel(
        &self,
        ctx: &Context,
        id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        self.close(ctx, id, now, Role::Cancelling).await
    }

    /// Declines or cancels a challenge.
    async fn close(
        &self,
        ctx: &Context,
        id: Option<i64>,
        now: DateTime<Utc>,
        role: Role,
    ) -> Attempt {
        let challenge = match self.find_challenge(ctx, id, now, role).await? {
            Ok(challenge) => challenge,
            Err(answer) => return Ok(answer),
        };
        let (status, message) = match role {
            Role::Cancelling => (ChallengeStatus::Cancelled, "challenge-cancelled"),
            _ => (ChallengeStatus::Declined, "challenge-declined"),
        };
        let mut commit = Commit {
            act_key: ctx.act_key.clone(),
            closing_challenge: Some(ChallengeClosing {
                id: challenge.id,
                to: status,
            }),
            ..Commit::default()
        };
        let args = [
            ("player", Arg::from(ctx.player.display_name.as_str())),
            ("challenge", Arg::from(challenge.id)),
        ];
        let mut reply = self.public(ctx, None, self.text(ctx, message, &args));
        // Declining a ladder challenge forfeits it; cancelling withdraws it.
        if let Some(matched) = self.pending_ladder_match(challenge.id).await? {
            let settlement = match role {
                Role::Cancelling => {
                    self.settle_ladder_match(&matched, LadderMatchStatus::Withdrawn, &[], now)
                        .await?
                }
                _ => {
                    let active = [matched.challenger];
                    self.settle_ladder_match(&matched, LadderMatchStatus::Forfeited, &active, now)
                        .await?
                }
            };
            settlement.add_to(&mut commit);
            reply.text.push('\n');
            reply
                .text
                .push_str(&self.settlement_text(ctx.lang, &settlement));
        }
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    /// The open challenge an accept, decline or cancel is about.
    async fn find_challenge(
        &self,
        ctx: &Context,
        id: Option<i64>,
        now: DateTime<Utc>,
        role: Role,
    ) -> Result<Result<ChallengeRow, Vec<Reply>>, StorageError> {
        let open = self.store.open_challenges(ctx.channel.id, now).await?;
        // The player, and the teams they answer and challenge for.
        let acting = self.acting_for(ctx).await?;
        let theirs = |player: Option<PlayerId>| player.is_some_and(|p| acting.contains(&p));
        let mine = |c: &&ChallengeRow| match role {
            Role::Cancelling => theirs(Some(c.challenger)),
            Role::Accepting => {
                !theirs(Some(c.challenger)) && (c.challenged.is_none() || theirs(c.challenged))
            }
            Role::Declining => theirs(c.challenged),
        };
        let chosen = match id {
            Some(id) => open.iter().find(|c| c.id == id),
            // Challenges addressed to the player come before open ones.
            None => open
                .iter()
                .filter(mine)
                .min_by_key(|c| (c.challenged.is_none(), c.id)),
        };
        let refusal = |key: &str, args: &[(&str, Arg)]| {
            Ok(Err(vec![self.private(ctx, self.text(ctx, key, args))]))
        };
        let Some(challenge) = chosen else {
            return refusal("no-challenge", &[]);
        };
        let number = [("challenge", Arg::from(challenge.id))];
        if role == Role::Accepting && theirs(Some(challenge.challenger)) {
            return refusal("challenge-own", &[]);
        }
        if !mine(&challenge) {
            return refusal("challenge-not-for-you", &number);
        }
        Ok(Ok(challenge.clone()))
    }

    fn pgn_refusal(&self, ctx: &Context, error: &PgnError) -> Reply {
        let key = format!("pgn-{}", error.kind());
        let args: Vec<(&str, Arg)> = match error {
            PgnError::IllegalMove { ply, san } => {
                let number = ply.div_ceil(2);
                let dots = if ply % 2 == 1 { "." } else { "..." };
                vec![("move", Arg::from(format!("{number}{dots} {san}")))]
            }
            PgnError::MovesAfterEnd { ply } => vec![("move", Arg::from(ply.div_ceil(2)))],
            PgnError::UnsupportedVariant(variant) => vec![("variant", Arg::from(variant.as_str()))],
            PgnError::AlreadyOver(result) => vec![("result", Arg::from(result.as_pgn()))],
            _ => Vec::new(),
        };
        self.private(ctx, self.text(ctx, &key, &args))
    }

    fn setup_refusal(&self, ctx: &Context, error: &SetupError) -> Reply {
        let key = match error {
            SetupError::FenTooLong => "setup-fen_too_long",
            SetupError::BadFen => "setup-bad_fen",
            SetupError::IllegalPosition => "setup-illegal_position",
            SetupError::AlreadyOver => "setup-already_over",
            SetupError::SamePlayer => "challenge-self",
        };
        self.private(ctx, self.text(ctx, key, &[]))
    }
}

/// Why a game cannot be continued: a message, or what is wrong with its PGN.
enum Refusal {
    Text(&'static str),
    Pgn(PgnError),
}

/// Reads the game a challenge continues, and the challenger's colour in it.
fn continuation(
    ctx: &Context,
    pgn: &str,
    challenged: Option<&PlayerRow>,
    fen: &Option<String>,
    rated: bool,
    color: ColorChoice,
) -> Result<(Continuation, ColorChoice), Refusal> {
    let Some(opponent) = challenged else {
        return Err(Refusal::Text("challenge-continued-open"));
    };
    if fen.is_some() {
        return Err(Refusal::Text("challenge-continued-fen"));
    }
    if rated {
        return Err(Refusal::Text("challenge-continued-rated"));
    }
    let continued = Continuation::read(pgn).map_err(Refusal::Pgn)?;
    if color != ColorChoice::Random {
        return Ok((continued, color));
    }
    // The record's names say who had which side, when they are the players'.
    let same = |a: &str, b: &str| a.trim().to_lowercase() == b.trim().to_lowercase();
    let (me, them) = (&ctx.player.display_name, &opponent.display_name);
    if same(&continued.white, me) || same(&continued.black, them) {
        Ok((continued, ColorChoice::White))
    } else if same(&continued.black, me) || same(&continued.white, them) {
        Ok((continued, ColorChoice::Black))
    } else {
        Err(Refusal::Text("challenge-continued-color"))
    }
}

/// What the player is doing with a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Accepting,
    Declining,
    Cancelling,
}

/// Checks a start FEN by setting up a game of `variant` with it.
fn check_start(variant: Variant, fen: &str, now: DateTime<Utc>) -> Result<(), SetupError> {
    use crate::core::game::{DrawRules, PlayerId};
    let players = Players {
        white: PlayerId(1),
        black: PlayerId(2),
    };
    Game::new_variant(variant, players, Some(fen), DrawRules::default(), now).map(|_| ())
}

/// A Chess960 start drawn at random. std's hasher keys come from the
/// operating system's randomness and change with every `RandomState`, so
/// hashing the act's instant with them is a fair draw among 960 (the bias
/// of 2⁶⁴ mod 960 is nil) without a random-number crate.
fn random_start(now: DateTime<Utc>) -> u16 {
    use std::hash::{BuildHasher, RandomState};
    let draw = RandomState::new().hash_one(now);
    (draw % u64::from(chess960::COUNT)) as u16
}

/// Who plays which colour once `acceptor` accepts.
fn seat(
    challenge: &ChallengeRow,
    acceptor: crate::core::game::PlayerId,
    now: DateTime<Utc>,
) -> Players {
    let challenger_white = match challenge.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        // Decided by the acceptance instant: fair enough and reproducible in tests.
        ColorChoice::Random => {
            (now.timestamp_subsec_millis() + challenge.id as u32).is_multiple_of(2)
        }
    };
    if challenger_white {
        Players {
            white: challenge.challenger,
            black: acceptor,
        }
    } else {
        Players {
            white: acceptor,
            black: challenge.challenger,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn random_starts_are_numbers_and_vary_at_one_instant() {
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
        let draws: std::collections::HashSet<u16> = (0..64).map(|_| random_start(now)).collect();
        assert!(draws.iter().all(|&n| n < chess960::COUNT), "{draws:?}");
        // 64 draws among 960 all alike would be a broken source.
        assert!(draws.len() > 32, "{draws:?}");
    }
}
