//! Challenges: proposing a game, accepting, declining, cancelling.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use shakmaty::{Color, Position};

use super::texts::{Names, variant_line};
use super::{Attempt, Context, Prompt, Reply, Service};
use crate::core::chess960;
use crate::core::choices::ColorChoice;
use crate::core::clock::TimeControl;
use crate::core::command::CommandError;
use crate::core::command::{ChallengeCommand, ChallengeWish, UserRef};
use crate::core::game::{Game, PlayerId, Players, SetupError, Status};
use crate::core::notation::Lang;
use crate::core::pgn::{Continuation, PgnError};
use crate::core::variant::Variant;
use crate::i18n::{Arg, I18n};
use crate::storage::{
    ChallengeClosing, ChallengeRow, ChallengeStatus, Commit, Committed, GameHistory, GameRecord,
    LadderMatchStatus, LadderMatchUpdate, NewChallenge, NewGame, NewGamePlace, Outgoing, PlayerRow,
    StorageError,
};

impl Service {
    /// A challenge act: propose, accept, decline or withdraw.
    pub(super) async fn challenge_act(
        &self,
        ctx: &Context,
        act: &ChallengeCommand,
        now: DateTime<Utc>,
    ) -> Attempt {
        match act {
            ChallengeCommand::Offer(wish) => self.challenge(ctx, wish, now).await,
            ChallengeCommand::Accept { challenge } => self.accept(ctx, *challenge, now).await,
            ChallengeCommand::Decline { challenge } => self.decline(ctx, *challenge, now).await,
            ChallengeCommand::Cancel { challenge } => self.cancel(ctx, *challenge, now).await,
            ChallengeCommand::Rematch { game } => self.rematch(ctx, *game, now).await,
        }
    }

    /// The same game again with colours swapped, as lichess's rematch: a
    /// challenge to the opponent of a finished game at its time control,
    /// rated as it was, from its start. If the opponent already offered
    /// it, asking for it accepts their offer.
    async fn rematch(&self, ctx: &Context, game: Option<i64>, now: DateTime<Utc>) -> Attempt {
        let record = match game {
            Some(id) => self
                .store
                .game(id)
                .await?
                .filter(|r| r.server_id == ctx.server.id),
            None => self.latest_finished_game(ctx).await?,
        };
        let refuse = |key: &str| Ok(vec![self.private(ctx, self.text(ctx, key, &[]))]);
        let Some(record) = record else {
            let Some(id) = game else {
                return refuse("rematch-no-game");
            };
            let text = self.text(ctx, "game-not-found", &[("game", Arg::from(id))]);
            return Ok(vec![self.private(ctx, text)]);
        };
        let side = match ctx.player.id {
            id if id == record.white => Color::White,
            id if id == record.black => Color::Black,
            _ => return refuse("refused-not_a_player"),
        };
        if !matches!(record.state, Status::Over { .. }) {
            return refuse("rematch-not-over");
        }
        let opponent = record.player(!side);
        let user = UserRef::new(&opponent.platform_id).ok();
        let (Some(user), false) = (user, record.team_match || super::votes::has_team(&record))
        else {
            return refuse("rematch-not-two-players");
        };
        let open = self.store.open_challenges(ctx.channel.id, now).await?;
        let offered = open
            .iter()
            .find(|c| c.challenger == opponent.id && c.challenged == Some(ctx.player.id));
        if let Some(offer) = offered {
            return self.accept(ctx, Some(offer.id), now).await;
        }
        let wish = ChallengeWish {
            opponent: Some(user.with_name(&opponent.display_name)),
            color: side.fold_wb(ColorChoice::Black, ColorChoice::White),
            rated: record.rated,
            fen: record.start_fen.clone(),
            time_control: Some(record.time_control.clone()),
            pgn: None,
            variant: record.variant,
            start: None,
            rematch_of: Some(record.id),
        };
        self.challenge(ctx, &wish, now).await
    }

    /// The caller's latest finished game in this channel.
    async fn latest_finished_game(
        &self,
        ctx: &Context,
    ) -> Result<Option<GameRecord>, StorageError> {
        let games = self
            .store
            .games_in_channel(ctx.channel.id, ctx.player.id, false)
            .await?;
        match games
            .iter()
            .find(|g| matches!(g.state, Status::Over { .. }))
        {
            Some(summary) => self.store.game(summary.id).await,
            None => Ok(None),
        }
    }

    async fn challenge(&self, ctx: &Context, wish: &ChallengeWish, now: DateTime<Utc>) -> Attempt {
        let ChallengeWish {
            opponent,
            color,
            rated,
            fen,
            time_control,
            pgn,
            variant,
            start,
            rematch_of,
        } = wish;
        if let Some(refusal) = self.over_challenge_limit(ctx, now).await? {
            return Ok(vec![refusal]);
        }
        let challenged = match self.challenged_player(ctx, opponent.as_ref(), now).await? {
            Ok(challenged) => challenged,
            Err(refusal) => return Ok(refusal),
        };
        let wish = StartWish {
            variant: *variant,
            fen: fen.as_deref(),
            start: *start,
            pgn: pgn.as_deref(),
            rated: *rated,
            color: *color,
        };
        let (continuation, color, fen) = match self.challenge_start(ctx, &wish, &challenged, now) {
            Ok(start) => start,
            Err(refusal) => return Ok(refusal),
        };
        let time_control = match self.challenge_time_control(ctx, time_control.as_deref()) {
            Ok(control) => control,
            Err(refusal) => return Ok(refusal),
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
        // A challenge to someone is written in their language; an open one
        // in the challenger's.
        let lang = challenged
            .as_ref()
            .map_or(ctx.lang, |row| row.reading_language(ctx.server_lang));
        let notice = ChallengeNotice {
            i18n: self.i18n.clone(),
            channel: ctx.channel_platform_id.clone(),
            lang,
            own_lang: ctx.lang,
            challenger: ctx.player.display_name.clone(),
            own: ctx.player.platform_id.clone(),
            challenged,
            // What the challenged player reads of the game to continue: the
            // move it goes on from and the side to play.
            continued_from: continuation.as_ref().map(|continued| {
                let side = continued.turn.fold_wb("white", "black");
                (continued.next_move, side)
            }),
            rematch_of: *rematch_of,
            variant_line,
        };
        let here = ctx.platform;
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            new_challenge: Some(new),
            relay: notice.relay(here),
            ..Commit::default()
        };
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                notice.replies_from(committed, here)
            })
            .await?;
        Ok(replies)
    }

    /// The refusal of a challenge over the open challenges one player may
    /// have, if it is. Checked before anything is written (even the
    /// opponent's row). Two challenges sent at the same instant may both
    /// pass: the cap bounds the work one player makes, it is not a rule of
    /// the game.
    async fn over_challenge_limit(
        &self,
        ctx: &Context,
        now: DateTime<Utc>,
    ) -> Result<Option<Reply>, StorageError> {
        let limit = self.config.max_open_challenges;
        if limit > 0 && self.store.open_challenge_count(ctx.player.id, now).await? >= limit {
            let text = self.text(ctx, "challenge-limit", &[("limit", Arg::from(limit))]);
            return Ok(Some(self.private(ctx, text)));
        }
        Ok(None)
    }

    /// The player challenged, if one is (`None`: an open challenge), or
    /// the refusal of a challenge to oneself.
    async fn challenged_player(
        &self,
        ctx: &Context,
        opponent: Option<&UserRef>,
        now: DateTime<Utc>,
    ) -> Result<Result<Option<PlayerRow>, Vec<Reply>>, StorageError> {
        let Some(user) = opponent else {
            return Ok(Ok(None));
        };
        if let Some((platform, id)) =
            super::cross::other_platform_member(user.as_str(), ctx.platform)
        {
            return self.club_member(ctx, platform, id).await;
        }
        let row = self
            .store
            .ensure_player(ctx.platform, user.as_str(), user.display_name(), now)
            .await?;
        if row.id == ctx.player.id {
            let text = self.text(ctx, "challenge-self", &[]);
            return Ok(Err(vec![self.private(ctx, text)]));
        }
        Ok(Ok(Some(row)))
    }

    /// A member of this server's club on another platform, named to be
    /// challenged (`discord:<id>`, `matrix:<id>`): they must have used the
    /// bot, and this server be in a club (they accept on a server of it).
    pub(super) async fn club_member(
        &self,
        ctx: &Context,
        platform: crate::core::platform::Platform,
        id: &str,
    ) -> Result<Result<Option<PlayerRow>, Vec<Reply>>, StorageError> {
        let refusal = |key: &str| Ok(Err(vec![self.private(ctx, self.text(ctx, key, &[]))]));
        if self.store.club_of_server(ctx.server.id).await?.is_none() {
            return refusal("challenge-cross-no-club");
        }
        match self.store.find_player(platform, id).await? {
            Some(row) if row.person != ctx.player.person => Ok(Ok(Some(row))),
            Some(_) => refusal("challenge-self"),
            None => refusal("challenge-cross-unknown"),
        }
    }

    /// Where the challenged game starts: the game it continues (if any),
    /// the challenger's colour (a continued game's record may decide it)
    /// and the start position (a Chess960 start is drawn now, so the
    /// challenge shows it); or why it cannot start there.
    fn challenge_start(
        &self,
        ctx: &Context,
        wish: &StartWish,
        challenged: &Option<PlayerRow>,
        now: DateTime<Utc>,
    ) -> Result<(Option<Continuation>, ColorChoice, Option<String>), Vec<Reply>> {
        if wish.start.is_some() && wish.fen.is_some() {
            let text = self.text(ctx, "challenge-start_and_fen", &[]);
            return Err(vec![self.private(ctx, text)]);
        }
        let fen = match wish.variant {
            Variant::Chess960 if wish.fen.is_none() && wish.pgn.is_none() => {
                chess960::fen(wish.start.unwrap_or_else(|| random_start(now)))
            }
            _ => wish.fen.map(str::to_owned),
        };
        if let Some(error) = fen
            .as_deref()
            .and_then(|fen| Game::check_offered_start(wish.variant, fen).err())
        {
            return Err(vec![self.setup_refusal(ctx, &error)]);
        }
        let Some(text) = wish.pgn else {
            return Ok((None, wish.color, fen));
        };
        if wish.start.is_some() {
            let text = self.text(ctx, "challenge-continued-fen", &[]);
            return Err(vec![self.private(ctx, text)]);
        }
        match continuation(ctx, text, challenged.as_ref(), &fen, wish.rated, wish.color) {
            Ok((continuation, color)) => Ok((Some(continuation), color, fen)),
            Err(Refusal::Text(key)) => Err(vec![self.private(ctx, self.text(ctx, key, &[]))]),
            Err(Refusal::Pgn(error)) => Err(vec![self.pgn_refusal(ctx, &error)]),
        }
    }

    /// The challenge's time control as stored, the server's when none is
    /// named, or the refusal of one that cannot be read.
    fn challenge_time_control(
        &self,
        ctx: &Context,
        asked: Option<&str>,
    ) -> Result<String, Vec<Reply>> {
        match asked.map(str::parse::<TimeControl>) {
            Some(Ok(control)) => Ok(control.to_string()),
            Some(Err(_)) => {
                let text = asked.unwrap_or_default();
                let refusal = super::texts::command_error_text(
                    &self.i18n,
                    ctx.lang,
                    &CommandError::BadValue {
                        option: "time",
                        value: text.to_owned(),
                    },
                );
                Err(vec![self.private(ctx, refusal)])
            }
            None => Ok(ctx.server.time_control.clone()),
        }
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
        let game = match self.accepted_game(ctx, &challenge, players, now) {
            Ok(game) => game,
            Err(refusal) => return Ok(refusal),
        };
        let new_game = self.new_game_of(ctx, &challenge, &game, now);
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
        // Accepted from another server of the club: the game lives in the
        // challenger's channel, and is played from here too.
        let spread = self.accepted_elsewhere(ctx, &challenge).await?;
        let mut commit = commit;
        if let Some(spread) = &spread {
            commit.game_place = Some(NewGamePlace {
                player: ctx.player.id,
                server_id: ctx.server.id,
                channel_id: ctx.channel.id,
            });
            commit.relay = Some(spread.relay(Some(challenge.server_id)));
        }
        // Written for the player who moves first.
        let first_mover = if game.turn() == Color::White {
            &white
        } else {
            &black
        };
        let notice = GameStartNotice {
            i18n: self.i18n.clone(),
            channel: ctx.channel_platform_id.clone(),
            lang: first_mover.reading_language(ctx.server_lang),
            own_lang: ctx.lang,
            own: ctx.player.platform_id.clone(),
            names: Names::new(&white, &black),
            is_ladder_game,
            game,
            web_url: self.config.web_url.clone(),
        };
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                super::cross::spread_all(spread.as_ref(), notice.replies(committed))
            })
            .await?;
        Ok(replies)
    }

    /// How a challenge from another server of the club, accepted here,
    /// reaches both sides; `None` for a challenge made here.
    async fn accepted_elsewhere(
        &self,
        ctx: &Context,
        challenge: &ChallengeRow,
    ) -> Result<Option<super::cross::Spread>, StorageError> {
        if challenge.server_id == ctx.server.id {
            return Ok(None);
        }
        let challenger = self.store.player(challenge.challenger).await?;
        let channel = self.store.channel_platform_id(challenge.channel_id).await?;
        let (Some(challenger), Some(channel)) = (challenger, channel) else {
            return Err(StorageError::NotFound("challenge's place"));
        };
        Ok(Some(super::cross::Spread {
            mine: super::cross::Side {
                platform: ctx.platform,
                channel: ctx.channel_platform_id.clone(),
                player: ctx.player.platform_id.clone(),
            },
            theirs: super::cross::Side {
                platform: challenger.platform,
                channel,
                player: challenger.platform_id,
            },
        }))
    }

    /// The game an accepted challenge starts, its clock running: from its
    /// start position, or the game it continues played out again; or why
    /// it cannot start.
    fn accepted_game(
        &self,
        ctx: &Context,
        challenge: &ChallengeRow,
        players: Players,
        now: DateTime<Utc>,
    ) -> Result<Game, Vec<Reply>> {
        let (fen, rules) = (challenge.start_fen.as_deref(), ctx.server.draw_rules);
        let variant = challenge.variant;
        let mut game = match &challenge.start_moves {
            None => Game::new_variant(variant, players, fen, rules, now)
                .map_err(|error| vec![self.setup_refusal(ctx, &error)])?,
            // Checked when the challenge was made; played out again here.
            Some(moves) => Continuation::resume(variant, players, fen, moves, rules, now)
                .map_err(|error| vec![self.pgn_refusal(ctx, &error)])?,
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
        Ok(game)
    }

    /// The store's row of `game`, started by accepting `challenge`; a
    /// continued game keeps the moves it had.
    fn new_game_of(
        &self,
        ctx: &Context,
        challenge: &ChallengeRow,
        game: &Game,
        now: DateTime<Utc>,
    ) -> NewGame {
        let players = game.players();
        NewGame {
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
            remind_at: self.next_reminder(game, now),
            history: challenge.start_moves.is_some().then(|| {
                Box::new(GameHistory {
                    started_at: now,
                    moves: super::games::to_rows(game, 0),
                    notes: Vec::new(),
                    ending: None,
                })
            }),
        }
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
            Some(id) => match open.iter().find(|c| c.id == id) {
                Some(found) => Some(found.clone()),
                // A challenge from another server of this server's club.
                None => self.club_challenge(ctx, id, now).await?,
            },
            // Challenges addressed to the player come before open ones.
            None => open
                .iter()
                .filter(mine)
                .min_by_key(|c| (c.challenged.is_none(), c.id))
                .cloned(),
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
        if !mine(&&challenge) {
            return refusal("challenge-not-for-you", &number);
        }
        Ok(Ok(challenge))
    }

    /// Open challenge `id` made on another server of this server's club.
    async fn club_challenge(
        &self,
        ctx: &Context,
        id: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<ChallengeRow>, StorageError> {
        let Some(challenge) = self.store.open_challenge(id, now).await? else {
            return Ok(None);
        };
        if challenge.server_id == ctx.server.id {
            return Ok(None);
        }
        let same = self.same_club(ctx.server.id, challenge.server_id).await?;
        Ok(same.then_some(challenge))
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
            SetupError::DeadPosition => "setup-dead_position",
            SetupError::CounterTooLarge => "setup-counter_too_large",
            SetupError::SamePlayer => "challenge-self",
        };
        self.private(ctx, self.text(ctx, key, &[]))
    }
}

/// A started game's message, written once the commit has numbered it.
struct GameStartNotice {
    i18n: Arc<I18n>,
    channel: String,
    /// The language of the player who moves first.
    lang: Lang,
    /// The language of the player who accepted.
    own_lang: Lang,
    /// The platform id of the player who accepted.
    own: String,
    names: Names,
    is_ladder_game: bool,
    game: Game,
    /// `[web] public_url`: the start carries the game's link.
    web_url: Option<String>,
}

impl GameStartNotice {
    /// The start told to the player who moves first, with the board (and
    /// to the one who accepted in their own language when it differs).
    fn replies(self, committed: &Committed) -> Vec<Reply> {
        let GameStartNotice {
            i18n,
            channel,
            lang,
            own_lang,
            own,
            names,
            is_ladder_game,
            game,
            web_url,
        } = self;
        let game_id = committed.game_id.unwrap_or_default();
        let turn = game.turn();
        let args = [
            ("game", Arg::from(game_id)),
            ("white", Arg::from(names.display(Color::White))),
            ("black", Arg::from(names.display(Color::Black))),
            ("turn", Arg::from(names.display(turn))),
            ("move", Arg::from(game.position().fullmoves().get())),
        ];
        let id = match (is_ladder_game, game.moves().len()) {
            (true, _) => "ladder-game-started",
            (false, 0) => "game-started",
            (false, _) => "game-continued",
        };
        let mut text = i18n.text(lang, id, &args);
        if let Some((key, variant_args)) = variant_line(game.variant(), game.start_fen()) {
            text = format!("{text}\n{}", i18n.text(lang, key, &variant_args));
        }
        if names.mention(turn).is_none() {
            // A team moves first: its members are told how.
            let team = [("player", Arg::from(names.display(turn)))];
            text = format!("{text}\n{}", i18n.text(lang, "vote-your-move", &team));
        }
        if let (Some(base), Some(token)) = (web_url, &committed.game_token) {
            let url = format!("{base}/g/{token}");
            text = format!(
                "{text}\n{}",
                i18n.text(lang, "web-link", &[("url", Arg::from(url))])
            );
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
        std::iter::once(reply).chain(confirmation).collect()
    }
}

/// What a challenge asks of the game's start, as the command gave it.
struct StartWish<'a> {
    variant: Variant,
    fen: Option<&'a str>,
    /// A Chess960 start position's number.
    start: Option<u16>,
    /// The record of a game to continue.
    pgn: Option<&'a str>,
    rated: bool,
    color: ColorChoice,
}

/// A challenge's message, written once the commit has numbered it.
struct ChallengeNotice {
    i18n: Arc<I18n>,
    channel: String,
    /// The challenged player's language, or the challenger's for an open
    /// challenge.
    lang: Lang,
    own_lang: Lang,
    challenger: String,
    /// The challenger's platform id.
    own: String,
    challenged: Option<PlayerRow>,
    /// A continued game's next move number and side to play.
    continued_from: Option<(u32, &'static str)>,
    /// The finished game a rematch plays again.
    rematch_of: Option<i64>,
    variant_line: Option<(&'static str, Vec<(&'static str, Arg)>)>,
}

impl ChallengeNotice {
    /// The challenged player, when they are a club member of another
    /// platform than `here`: told there, by direct message.
    fn elsewhere(&self, here: crate::core::platform::Platform) -> Option<&PlayerRow> {
        self.challenged.as_ref().filter(|row| row.platform != here)
    }

    /// The outbox row for that platform's worker, if it is one.
    fn relay(&self, here: crate::core::platform::Platform) -> Option<Outgoing> {
        self.elsewhere(here)
            .map(|row| Outgoing::due_now(row.platform, None))
    }

    /// [`ChallengeNotice::replies`], the challenged player's relayed to
    /// their platform with how to accept.
    fn replies_from(
        self,
        committed: &Committed,
        here: crate::core::platform::Platform,
    ) -> Vec<Reply> {
        let Some(row) = self.elsewhere(here).cloned() else {
            return self.replies(committed);
        };
        let id = Arg::from(committed.challenge_id.unwrap_or_default());
        let hint = self
            .i18n
            .text(self.lang, "challenge-cross-hint", &[("challenge", id)]);
        let replies = self.replies(committed);
        super::cross::challenge_elsewhere(replies, here, &row, &hint)
    }

    /// The challenge told to the challenged player (and to the challenger
    /// in their own language when it differs), or to the channel when open.
    fn replies(self, committed: &Committed) -> Vec<Reply> {
        let ChallengeNotice {
            i18n,
            channel,
            lang,
            own_lang,
            challenger,
            own,
            challenged,
            continued_from,
            rematch_of,
            variant_line,
        } = self;
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
                    ("game", Arg::from(rematch_of.unwrap_or_default())),
                ];
                let key = match (continued_from, rematch_of) {
                    (Some(_), _) => "challenge-continued",
                    (None, Some(_)) => "challenge-rematch",
                    (None, None) => "challenge-direct",
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
        std::iter::once(challenge).chain(own_copy).collect()
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
