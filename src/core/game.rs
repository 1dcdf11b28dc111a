//! The game state machine: who may do what, and what follows.
//!
//! [`Game::apply`] takes an actor, an act and the current instant, and
//! either changes the game and returns the [`Event`]s that happened, or
//! refuses with a [`GameError`] and changes nothing. Results follow
//! RULES.md: automatic ends after every move ([`adjudicate`]), draw offers
//! (9.1), claims (9.2, 9.3, 9.5), resignation (5.1.2), flag fall (6.9),
//! abort and a moderator's adjudication.
//!
//! [`adjudicate`]: super::adjudicate

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use super::adjudicate::{self, PositionKey};
use super::clock::{Clock, TimeControl};
use super::event::{ClaimKind, Event, GameResult, Reason};
use super::notation::{self, MoveInputError, Reader};
use super::unwinnable;
use super::variant::Variant;

/// The longest note a moderator may attach to an adjudication.
pub const MAX_ADJUDICATION_NOTE: usize = 200;
/// The most days of "more time" one act may give.
pub const MAX_MORE_TIME_DAYS: u32 = 30;
/// The longest FEN accepted for a start position.
pub const MAX_FEN: usize = 100;

/// A player, as the store numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub i64);

/// Who plays White and who plays Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    pub white: PlayerId,
    pub black: PlayerId,
}

impl Players {
    pub fn get(&self, side: Color) -> PlayerId {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The side `player` plays, if they play in this game.
    pub fn side_of(&self, player: PlayerId) -> Option<Color> {
        if player == self.white {
            Some(Color::White)
        } else if player == self.black {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// A server's rules for agreed draws (5.2.3 and 9.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRules {
    /// Whether players may agree a draw at all.
    pub agreement_allowed: bool,
    /// Moves each side must have made before an agreement (at least 1).
    pub min_moves_each: u32,
}

impl Default for DrawRules {
    fn default() -> DrawRules {
        DrawRules {
            agreement_allowed: true,
            min_moves_each: 1,
        }
    }
}

/// Who performs an act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A user, who may or may not play in this game.
    Player(PlayerId),
    /// Someone with moderator rights on the server (checked by the caller).
    Moderator(PlayerId),
    /// The clock: only it lets a flag fall.
    Clock,
}

/// A move as a player wrote it, with who reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInput {
    pub text: String,
    pub reader: Reader,
}

impl MoveInput {
    pub fn new(text: impl Into<String>, reader: Reader) -> MoveInput {
        MoveInput {
            text: text.into(),
            reader,
        }
    }
}

/// Something an actor asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    Move {
        input: MoveInput,
        offer_draw: bool,
    },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// A draw claim; `kind: None` claims whatever holds. With a move, the
    /// claim is about the position after it (9.2.1.1, 9.3.1).
    Claim {
        kind: Option<ClaimKind>,
        with_move: Option<MoveInput>,
    },
    Resign,
    /// Ends the game with no result: by a player or the clock before each
    /// side has moved (a first move that never came), by a moderator at any time.
    Abort,
    Adjudicate {
        result: GameResult,
        note: String,
    },
    /// `side` ran out of time.
    FlagFall {
        side: Color,
    },
    /// The clock found the side to move's deadline passed: its flag falls,
    /// or, if that side never moved, `no_show` says what that costs.
    ClockExpired {
        no_show: NoShow,
    },
    /// Gives the opponent `days` more days (as lichess's "+" button).
    MoreTime {
        days: u32,
    },
    /// Asks to take back one's last move, or answers the opponent's asking.
    Takeback(TakebackAction),
}

/// What a first move that never came before its deadline costs (RULES.md:
/// a no-show). Whether the game belongs to a competition is the caller's
/// to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoShow {
    /// Outside competitions, as lichess does: the game is aborted, no result.
    Abort,
    /// In a tournament, ladder or team match: a loss by forfeit.
    Forfeit,
}

/// A step of a takeback: asked by a player, accepted or declined by the
/// opponent. Whether a game allows takebacks at all (casual games only) is
/// the caller's to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackAction {
    Request,
    Accept,
    Decline,
}

/// Why an act was refused. A refused act changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("not a player in this game")]
    NotAPlayer,
    #[error("only a moderator may do that")]
    NotAModerator,
    #[error("only the clock lets a flag fall")]
    NotTheClock,
    #[error("the game is over")]
    GameOver,
    #[error("not your turn")]
    NotYourTurn,
    #[error("move: {0}")]
    Move(#[from] MoveInputError),
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("you already offered a draw")]
    AlreadyOffered,
    #[error("draws by agreement are not allowed here")]
    AgreementForbidden,
    #[error("a draw can be agreed only after each side has made {min_moves_each} move(s)")]
    AgreementTooEarly { min_moves_each: u32 },
    #[error("a game can be aborted only before each side has moved")]
    TooLateToAbort,
    #[error("an adjudication needs a result of 1-0, 0-1 or 1/2-1/2")]
    AdjudicationNeedsResult,
    #[error("the note is longer than {max} characters")]
    NoteTooLong { max: usize },
    #[error("no flag has fallen")]
    NotFlagged,
    #[error("more time is 1 to {max} days")]
    MoreTimeOutOfRange { max: u32 },
    #[error("this game has no clock")]
    NoClock,
    #[error("you have no move to take back")]
    NothingToTakeBack,
    #[error("a takeback is already asked for")]
    TakebackAlreadyRequested,
    #[error("there is no takeback to answer")]
    NoTakebackRequest,
    #[error("takebacks are for casual games only")]
    TakebackNotAllowed,
}

impl GameError {
    /// A stable snake_case name for the refusal: the key of its message in
    /// the i18n files and the name tests assert on.
    pub fn kind(&self) -> &'static str {
        match self {
            GameError::NotAPlayer => "not_a_player",
            GameError::NotAModerator => "not_a_moderator",
            GameError::NotTheClock => "not_the_clock",
            GameError::GameOver => "game_over",
            GameError::NotYourTurn => "not_your_turn",
            GameError::Move(_) => "move",
            GameError::NoDrawOffer => "no_draw_offer",
            GameError::AlreadyOffered => "already_offered",
            GameError::AgreementForbidden => "agreement_forbidden",
            GameError::AgreementTooEarly { .. } => "agreement_too_early",
            GameError::TooLateToAbort => "too_late_to_abort",
            GameError::AdjudicationNeedsResult => "adjudication_needs_result",
            GameError::NoteTooLong { .. } => "note_too_long",
            GameError::NotFlagged => "not_flagged",
            GameError::MoreTimeOutOfRange { .. } => "more_time_out_of_range",
            GameError::NoClock => "no_clock",
            GameError::NothingToTakeBack => "nothing_to_take_back",
            GameError::TakebackAlreadyRequested => "takeback_already_requested",
            GameError::NoTakebackRequest => "no_takeback_request",
            GameError::TakebackNotAllowed => "takeback_not_allowed",
        }
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("the FEN is longer than {MAX_FEN} bytes")]
    FenTooLong,
    #[error("not a FEN")]
    BadFen,
    #[error("the FEN is not a legal chess position")]
    IllegalPosition,
    #[error("the start position is already checkmate or stalemate")]
    AlreadyOver,
    /// Neither side could ever mate (5.2.2): the game would be drawn before
    /// its first move.
    #[error("the start position is dead: neither side can ever checkmate")]
    DeadPosition,
    /// A move counter that does not fit in 32 bits: shakmaty would read it
    /// as 4294967295, a position the player did not write.
    #[error("a move counter of the FEN is above {}", u32::MAX)]
    CounterTooLarge,
    #[error("a player cannot play against themselves")]
    SamePlayer,
}

/// A stored move to replay into a [`Game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredMove<'a> {
    pub uci: &'a str,
    /// The SAN stored with it; rebuilt from the move when it does not parse.
    pub san: &'a str,
    pub at: DateTime<Utc>,
    pub draw_offer: bool,
}

/// Why a stored game could not be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    #[error("start: {0}")]
    Setup(#[from] SetupError),
    #[error("move {ply} ({uci}) is not legal")]
    BadMove { ply: u32, uci: String },
}

/// A move of the game score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub m: Move,
    /// English SAN with its suffix, as shakmaty writes it.
    pub san: SanPlus,
    pub uci: UciMove,
    pub at: DateTime<Utc>,
    /// The mover offered a draw with this move (recorded as `(=)`).
    pub draw_offer: bool,
}

/// Something worth keeping in the game record besides the moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NoteKind {
    /// A draw offer made without a move.
    DrawOffered,
    DrawDeclined,
    /// A claim found incorrect; `with_move` is the claimant's move in UCI.
    ClaimRefused {
        kind: Option<ClaimKind>,
        with_move: Option<String>,
    },
    /// A correct claim; the written move (UCI) is not played (9.2.1.1).
    ClaimUpheld {
        kind: ClaimKind,
        with_move: Option<String>,
    },
    /// A moderator's adjudication and its stated reason.
    Adjudicated {
        note: String,
    },
    /// A player gave the opponent more time.
    MoreTime {
        days: u32,
    },
    /// The side to move was given back time the bot could not count.
    ClockCredit {
        seconds: i64,
    },
    /// A player asked to take back their last move.
    TakebackRequested,
    TakebackDeclined,
    /// The opponent agreed: this many moves were taken back.
    TakenBack {
        plies: u32,
    },
}

/// A note, placed after `ply` moves of the score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    pub ply: u32,
    #[serde(with = "super::event::color_name::option")]
    pub by: Option<Color>,
    pub at: DateTime<Utc>,
    #[serde(flatten)]
    pub kind: NoteKind,
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    Ongoing,
    Over {
        result: GameResult,
        reason: Reason,
        at: DateTime<Utc>,
    },
}

/// One game between two players, from its start position to its result.
#[derive(Clone, Debug)]
pub struct Game {
    players: Players,
    rules: DrawRules,
    variant: Variant,
    start: Chess,
    /// The start FEN when the game did not begin from the standard position
    /// (always kept for Chess960: its start is part of the game's record).
    start_fen: Option<String>,
    /// The start is the standard position (the only start opening names
    /// are known for).
    standard_start: bool,
    started_at: DateTime<Utc>,
    position: Chess,
    /// Repetition keys of every position so far, the start first.
    history: Vec<PositionKey>,
    moves: Vec<PlayedMove>,
    notes: Vec<Note>,
    pending_offer: Option<Color>,
    status: Status,
    clock: Clock,
}

impl Game {
    /// A new game of standard chess from the standard position, or from `fen`.
    pub fn new(
        players: Players,
        fen: Option<&str>,
        rules: DrawRules,
        now: DateTime<Utc>,
    ) -> Result<Game, SetupError> {
        Game::new_variant(Variant::Standard, players, fen, rules, now)
    }

    /// A new game of `variant` from the standard position, or from `fen`
    /// (read with the variant's castling rules: a Chess960 FEN may give its
    /// castling rights in X-FEN or Shredder-FEN).
    pub fn new_variant(
        variant: Variant,
        players: Players,
        fen: Option<&str>,
        rules: DrawRules,
        now: DateTime<Utc>,
    ) -> Result<Game, SetupError> {
        let game = Game::new_unchecked(variant, players, fen, rules, now)?;
        // Mate and stalemate leave nothing to play. A dead position is still
        // set up (the rules' own cases start from some): the core ends it
        // as soon as a move is made. Players offered one are refused first
        // ([`Game::check_offered_start`]).
        if game.start.legal_moves().is_empty() {
            return Err(SetupError::AlreadyOver);
        }
        Ok(game)
    }

    /// Checks a start offered to players for a new game (a challenge's
    /// FEN): it must set up as [`Game::new_variant`] sets it up, and leave
    /// something to play for: a dead position (5.2.2) is a draw before its
    /// first move.
    pub fn check_offered_start(variant: Variant, fen: &str) -> Result<(), SetupError> {
        let players = Players {
            white: PlayerId(1),
            black: PlayerId(2),
        };
        let rules = DrawRules::default();
        let game = Game::new_variant(variant, players, Some(fen), rules, DateTime::UNIX_EPOCH)?;
        if unwinnable::is_dead_position(&game.start) {
            return Err(SetupError::DeadPosition);
        }
        Ok(())
    }

    /// A game from any legal start, even one that is already over.
    fn new_unchecked(
        variant: Variant,
        players: Players,
        fen: Option<&str>,
        rules: DrawRules,
        now: DateTime<Utc>,
    ) -> Result<Game, SetupError> {
        if players.white == players.black {
            return Err(SetupError::SamePlayer);
        }
        let (start, start_fen, standard_start) = match (variant, fen) {
            (Variant::Standard, None) => (Chess::default(), None, true),
            (_, fen) => {
                let text = fen.unwrap_or(STANDARD_FEN);
                let pos = parse_start_fen(text, variant.castling_mode())?;
                let normalised = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                // Equality ignores the move counters and the castling mode.
                let is_standard = pos == Chess::default();
                let kept = (!is_standard || variant == Variant::Chess960).then_some(normalised);
                (pos, kept, is_standard)
            }
        };
        let turn = start.turn();
        Ok(Game {
            players,
            rules,
            variant,
            standard_start,
            history: vec![adjudicate::position_key(&start)],
            position: start.clone(),
            start,
            start_fen,
            started_at: now,
            moves: Vec::new(),
            notes: Vec::new(),
            pending_offer: None,
            status: Status::Ongoing,
            clock: Clock::start(TimeControl::Unlimited, turn, now),
        })
    }

    pub fn players(&self) -> &Players {
        &self.players
    }

    pub fn rules(&self) -> &DrawRules {
        &self.rules
    }

    pub fn start_position(&self) -> &Chess {
        &self.start
    }

    /// The rules the game is played by.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The Chess960 number of the start position, for a Chess960 game that
    /// began from one (518 is the standard position).
    pub fn chess960_number(&self) -> Option<u16> {
        match self.variant {
            Variant::Chess960 => super::chess960::number_of_fen(self.start_fen.as_deref()?),
            Variant::Standard => None,
        }
    }

    /// The start FEN, or `None` for the standard position.
    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    pub fn started_at(&self) -> DateTime<Utc> {
        self.started_at
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The opening its moves reached, by position (games from the standard
    /// start only).
    pub fn opening(&self) -> Option<super::opening::Opening> {
        self.opening_before(self.moves.len())
    }

    /// The opening of the first `plies` moves.
    fn opening_before(&self, plies: usize) -> Option<super::opening::Opening> {
        if !self.standard_start {
            return None;
        }
        let mut position = self.start.clone();
        let mut positions = Vec::with_capacity(plies + 1);
        positions.push(position.clone());
        for played in self.moves.iter().take(plies) {
            position.play_unchecked(played.m);
            positions.push(position.clone());
        }
        super::opening::of_positions(&positions)
    }

    /// The opening the last move reached, when it names a different one
    /// than the game had before: what a move's reply announces. Cheap when
    /// the position is not named, as after the opening it never is.
    pub fn opening_reached(&self) -> Option<super::opening::Opening> {
        if !self.standard_start || self.moves.is_empty() {
            return None;
        }
        let now = super::opening::at(&self.position)?;
        let before = self.opening_before(self.moves.len() - 1);
        (before.map(|o| o.name) != Some(now.name)).then_some(now)
    }

    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The side whose draw offer stands, if any.
    pub fn pending_offer(&self) -> Option<Color> {
        self.pending_offer
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// The side whose correct draw claim ended the game, if one did.
    pub fn claimant(&self) -> Option<Color> {
        self.notes.iter().rev().find_map(|note| match note.kind {
            NoteKind::ClaimUpheld { .. } => note.by,
            _ => None,
        })
    }

    /// Both players' time.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Puts the game under `control`, counting from its start for the side
    /// to move. Meant for new games (a continued one may have moves already);
    /// a stored game gets its stored clock with [`Game::set_clock`].
    pub fn start_clock(&mut self, control: TimeControl) {
        self.clock = Clock::start(control, self.turn(), self.started_at);
    }

    /// The instant of the game's latest record: its start, or its last
    /// move or note.
    pub fn last_recorded_at(&self) -> DateTime<Utc> {
        let last_move = self.moves.last().map(|m| m.at);
        let last_note = self.notes.last().map(|n| n.at);
        [last_move, last_note]
            .into_iter()
            .flatten()
            .fold(self.started_at, DateTime::max)
    }

    /// `now`, or the game's latest record when `now` is earlier (a clock set
    /// back, or another process's clock behind this one's). A game's record
    /// only goes forward in time: a score whose moves go back cannot be read
    /// against the clock, and a turn started before the previous one would
    /// charge its player time they never had. Refusing the act instead
    /// would lock players out of their games for as long as a process's
    /// clock is behind, which nobody can mend from a chat; and clocks that
    /// count in days lose nothing to the seconds a skew moves an act.
    fn in_order(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now.max(self.last_recorded_at())
    }

    /// Restores a stored clock.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// Stops the side to move's clock (its player went on leave).
    pub fn pause_clock(&mut self, now: DateTime<Utc>) {
        if !self.is_over() {
            self.clock.pause(now);
        }
    }

    /// Restarts a stopped clock; the pause is not charged.
    pub fn resume_clock(&mut self, now: DateTime<Utc>) {
        self.clock.resume(now);
    }

    /// Gives the side to move back time the bot could not count (an outage),
    /// and records it in the game.
    pub fn credit_outage(&mut self, span: chrono::Duration, now: DateTime<Utc>) {
        if self.is_over() || span <= chrono::Duration::zero() {
            return;
        }
        let now = self.in_order(now);
        self.clock.credit_turn(span);
        let seconds = span.num_seconds();
        self.note(None, now, NoteKind::ClockCredit { seconds });
    }

    pub fn is_over(&self) -> bool {
        matches!(self.status, Status::Over { .. })
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// How many moves `side` has made in this game.
    pub fn moves_made_by(&self, side: Color) -> u32 {
        let first = self.start.turn();
        let plies = self.moves.len() as u32;
        // Plies alternate starting with `first`: it has the extra one on odd counts.
        if side == first {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// Performs `act` for `actor` at `now`; refused acts change nothing.
    pub fn apply(
        &mut self,
        actor: &Actor,
        act: Act,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let now = self.in_order(now);
        match act {
            Act::Move { input, offer_draw } => {
                let side = self.playing_side(actor)?;
                self.ensure_turn(side)?;
                let m = notation::parse_move(&self.position, &input.text, &input.reader)?;
                Ok(self.play(m, offer_draw, now))
            }
            Act::OfferDraw => {
                let side = self.playing_side(actor)?;
                self.offer_draw(side, now)
            }
            Act::AcceptDraw => {
                let side = self.playing_side(actor)?;
                self.accept_draw(side, now)
            }
            Act::DeclineDraw => {
                let side = self.playing_side(actor)?;
                self.decline_draw(side, now)
            }
            Act::Claim { kind, with_move } => {
                let side = self.playing_side(actor)?;
                self.ensure_turn(side)?;
                self.claim(side, kind, with_move, now)
            }
            Act::Resign => {
                let side = self.playing_side(actor)?;
                let winner = !side;
                let result = if unwinnable::can_still_mate(&self.position, winner) {
                    GameResult::win_for(winner)
                } else {
                    GameResult::Draw
                };
                Ok(vec![self.finish(result, Reason::Resignation, now)])
            }
            Act::Abort => self.abort(actor, now),
            Act::Adjudicate { result, note } => self.adjudicate(actor, result, note, now),
            Act::FlagFall { side } => self.flag_fall(actor, side, now),
            Act::ClockExpired { no_show } => self.clock_expired(actor, no_show, now),
            Act::MoreTime { days } => self.more_time(actor, days, now),
            Act::Takeback(action) => {
                let side = self.playing_side(actor)?;
                match action {
                    TakebackAction::Request => self.request_takeback(side, now),
                    TakebackAction::Accept => self.accept_takeback(side, now),
                    TakebackAction::Decline => self.decline_takeback(side, now),
                }
            }
        }
    }

    /// The side whose takeback request waits for an answer: asked since
    /// the last move, and neither declined nor granted since.
    pub fn pending_takeback(&self) -> Option<Color> {
        let ply = self.moves.len() as u32;
        for note in self.notes.iter().rev().take_while(|n| n.ply == ply) {
            match note.kind {
                NoteKind::TakebackRequested => return note.by,
                NoteKind::TakebackDeclined | NoteKind::TakenBack { .. } => return None,
                _ => {}
            }
        }
        None
    }

    /// The moves a takeback by `side` removes: its last move, and the
    /// opponent's reply if there was one.
    fn takeback_plies(&self, side: Color) -> Option<usize> {
        let plies = if self.position.turn() == side { 2 } else { 1 };
        (self.moves_made_by(side) > 0 && self.moves.len() >= plies).then_some(plies)
    }

    fn request_takeback(
        &mut self,
        side: Color,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if self.pending_takeback().is_some() {
            return Err(GameError::TakebackAlreadyRequested);
        }
        self.takeback_plies(side)
            .ok_or(GameError::NothingToTakeBack)?;
        self.note(Some(side), now, NoteKind::TakebackRequested);
        Ok(vec![Event::TakebackRequested { by: side }])
    }

    fn decline_takeback(
        &mut self,
        side: Color,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if self.pending_takeback() != Some(!side) {
            return Err(GameError::NoTakebackRequest);
        }
        self.note(Some(side), now, NoteKind::TakebackDeclined);
        Ok(vec![Event::TakebackDeclined { by: side }])
    }

    /// Takes back the requester's last move (and the reply to it): the game
    /// is replayed without them, its notes after them dropped, and the
    /// clock hands the turn back if it changes.
    fn accept_takeback(
        &mut self,
        side: Color,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let requester = !side;
        if self.pending_takeback() != Some(requester) {
            return Err(GameError::NoTakebackRequest);
        }
        let plies = self
            .takeback_plies(requester)
            .ok_or(GameError::NothingToTakeBack)?;
        let keep = self.moves.len() - plies;
        let texts: Vec<(String, String)> = self
            .moves
            .iter()
            .take(keep)
            .map(|p| (p.uci.to_string(), p.san.to_string()))
            .collect();
        let stored = self
            .moves
            .iter()
            .zip(&texts)
            .map(|(played, (uci, san))| StoredMove {
                uci,
                san,
                at: played.at,
                draw_offer: played.draw_offer,
            });
        let notes = self
            .notes
            .iter()
            .filter(|n| n.ply as usize <= keep)
            .cloned()
            .collect();
        let mut rebuilt = Game::restore(
            self.variant,
            self.players,
            self.start_fen.as_deref(),
            self.rules,
            self.started_at,
            stored,
            notes,
            None,
            Status::Ongoing,
        )
        .map_err(|_| GameError::NothingToTakeBack)?;
        rebuilt.clock = self.clock;
        if plies % 2 == 1 {
            // The turn goes back to the requester.
            rebuilt.clock.on_move(now);
        }
        *self = rebuilt;
        self.note(
            Some(requester),
            now,
            NoteKind::TakenBack {
                plies: plies as u32,
            },
        );
        Ok(vec![Event::TakenBack {
            by: requester,
            plies: plies as u32,
        }])
    }

    /// Rebuilds a stored game: replays its moves and takes its stored notes,
    /// offer and status as they are (a result once reached is never recomputed).
    #[allow(clippy::too_many_arguments)]
    pub fn restore<'a>(
        variant: Variant,
        players: Players,
        fen: Option<&str>,
        rules: DrawRules,
        started_at: DateTime<Utc>,
        moves: impl IntoIterator<Item = StoredMove<'a>>,
        notes: Vec<Note>,
        pending_offer: Option<Color>,
        status: Status,
    ) -> Result<Game, RestoreError> {
        let mut game =
            Game::new_variant(variant, players, fen, rules, started_at).or_else(|e| {
                match e {
                    // A stored game may legitimately start from any legal position.
                    SetupError::AlreadyOver => {
                        Game::new_unchecked(variant, players, fen, rules, started_at)
                    }
                    other => Err(other),
                }
            })?;
        for (index, stored) in moves.into_iter().enumerate() {
            let bad = || RestoreError::BadMove {
                ply: index as u32 + 1,
                uci: stored.uci.to_owned(),
            };
            let uci = UciMove::from_ascii(stored.uci.as_bytes()).map_err(|_| bad())?;
            let m = uci.to_move(&game.position).map_err(|_| bad())?;
            // Writing SAN needs move generation; the stored SAN saves that on every load.
            let san = SanPlus::from_ascii(stored.san.as_bytes()).ok();
            game.push_move(m, san, stored.draw_offer, stored.at);
        }
        game.notes = notes;
        game.pending_offer = pending_offer;
        game.status = status;
        Ok(game)
    }

    /// Appends an already legal move to the score and the position history.
    fn push_move(
        &mut self,
        m: Move,
        known_san: Option<SanPlus>,
        offer_draw: bool,
        at: DateTime<Utc>,
    ) -> (SanPlus, UciMove) {
        // Chess960 castling is stored king-takes-rook (`b1a1`): the king's
        // two-square form may be a plain king move there.
        let uci = m.to_uci(self.variant.castling_mode());
        let san = match known_san {
            Some(san) => {
                self.position.play_unchecked(m);
                san
            }
            None => SanPlus::from_move_and_play_unchecked(&mut self.position, m),
        };
        self.history.push(adjudicate::position_key(&self.position));
        self.moves.push(PlayedMove {
            m,
            san,
            uci,
            at,
            draw_offer: offer_draw,
        });
        (san, uci)
    }

    /// Plays an already legal move and everything that follows from it.
    pub(crate) fn play(&mut self, m: Move, offer_draw: bool, now: DateTime<Utc>) -> Vec<Event> {
        let now = self.in_order(now);
        let side = self.position.turn();
        self.clock.on_move(now);
        let (san, uci) = self.push_move(m, None, offer_draw, now);

        let mut events = Vec::with_capacity(3);
        if self.pending_offer == Some(!side) {
            // 9.1.2.3: an offer stands until the opponent moves.
            self.pending_offer = None;
            events.push(Event::DrawOfferLapsed { offered_by: !side });
        }
        events.push(Event::MovePlayed {
            ply: self.moves.len() as u32,
            san: san.to_string(),
            uci: uci.to_string(),
            by: side,
            check: self.position.is_check(),
            draw_offered: offer_draw,
            conditional: false,
        });
        if let Some((result, reason)) = adjudicate::automatic_end(&self.position, &self.history) {
            events.push(self.finish(result, reason, now));
        } else if offer_draw {
            self.pending_offer = Some(side);
            events.push(Event::DrawOffered { by: side });
        }
        events
    }

    fn offer_draw(&mut self, side: Color, now: DateTime<Utc>) -> Result<Vec<Event>, GameError> {
        self.ensure_ongoing()?;
        if !self.rules.agreement_allowed {
            return Err(GameError::AgreementForbidden);
        }
        match self.pending_offer {
            Some(by) if by == side => Err(GameError::AlreadyOffered),
            // Offering back what the opponent offered is agreeing to it.
            Some(_) => self.accept_draw(side, now),
            None => {
                self.pending_offer = Some(side);
                self.note(Some(side), now, NoteKind::DrawOffered);
                Ok(vec![Event::DrawOffered { by: side }])
            }
        }
    }

    fn accept_draw(&mut self, side: Color, now: DateTime<Utc>) -> Result<Vec<Event>, GameError> {
        self.ensure_ongoing()?;
        if self.pending_offer != Some(!side) {
            return Err(GameError::NoDrawOffer);
        }
        if !self.rules.agreement_allowed {
            return Err(GameError::AgreementForbidden);
        }
        let min = self.rules.min_moves_each.max(1);
        if self.moves_made_by(Color::White) < min || self.moves_made_by(Color::Black) < min {
            return Err(GameError::AgreementTooEarly {
                min_moves_each: min,
            });
        }
        Ok(vec![self.finish(GameResult::Draw, Reason::Agreement, now)])
    }

    fn decline_draw(&mut self, side: Color, now: DateTime<Utc>) -> Result<Vec<Event>, GameError> {
        self.ensure_ongoing()?;
        if self.pending_offer != Some(!side) {
            return Err(GameError::NoDrawOffer);
        }
        self.pending_offer = None;
        self.note(Some(side), now, NoteKind::DrawDeclined);
        Ok(vec![Event::DrawDeclined { by: side }])
    }

    fn claim(
        &mut self,
        side: Color,
        kind: Option<ClaimKind>,
        with_move: Option<MoveInput>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let written = match &with_move {
            Some(input) => Some(notation::parse_move(
                &self.position,
                &input.text,
                &input.reader,
            )?),
            None => None,
        };
        let upheld = match written {
            None => adjudicate::upheld_claim(&self.position, &self.history, kind),
            Some(m) => {
                let mut after = self.position.clone();
                after.play_unchecked(m);
                let mut history = self.history.clone();
                history.push(adjudicate::position_key(&after));
                adjudicate::upheld_claim(&after, &history, kind)
            }
        };
        let mode = self.variant.castling_mode();
        let written_uci = written.map(|m| m.to_uci(mode).to_string());

        if let Some(kind) = upheld {
            self.note(
                Some(side),
                now,
                NoteKind::ClaimUpheld {
                    kind,
                    with_move: written_uci,
                },
            );
            return Ok(vec![self.finish(GameResult::Draw, kind.reason(), now)]);
        }

        self.note(
            Some(side),
            now,
            NoteKind::ClaimRefused {
                kind,
                with_move: written_uci,
            },
        );
        let mut events = vec![Event::ClaimRefused { by: side, kind }];
        // 9.5.3: the written move must be made; the claim stands as a draw offer.
        match written {
            Some(m) => events.extend(self.play(m, true, now)),
            None => {
                self.pending_offer = Some(side);
                events.push(Event::DrawOffered { by: side });
            }
        }
        Ok(events)
    }

    fn abort(&mut self, actor: &Actor, now: DateTime<Utc>) -> Result<Vec<Event>, GameError> {
        match actor {
            Actor::Player(_) => {
                self.playing_side(actor)?;
            }
            Actor::Moderator(_) | Actor::Clock => self.ensure_ongoing()?,
        }
        // A moderator may abort any running game; players, and the clock when
        // a first move never came, only before each side has moved.
        let both_moved =
            self.moves_made_by(Color::White) > 0 && self.moves_made_by(Color::Black) > 0;
        if both_moved && !matches!(actor, Actor::Moderator(_)) {
            return Err(GameError::TooLateToAbort);
        }
        Ok(vec![self.finish(GameResult::NoResult, Reason::Abort, now)])
    }

    fn adjudicate(
        &mut self,
        actor: &Actor,
        result: GameResult,
        note: String,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if !matches!(actor, Actor::Moderator(_)) {
            return Err(GameError::NotAModerator);
        }
        self.ensure_ongoing()?;
        if result == GameResult::NoResult {
            return Err(GameError::AdjudicationNeedsResult);
        }
        if note.chars().count() > MAX_ADJUDICATION_NOTE {
            return Err(GameError::NoteTooLong {
                max: MAX_ADJUDICATION_NOTE,
            });
        }
        self.note(None, now, NoteKind::Adjudicated { note });
        Ok(vec![self.finish(result, Reason::Adjudication, now)])
    }

    fn more_time(
        &mut self,
        actor: &Actor,
        days: u32,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let side = self.playing_side(actor)?;
        if !(1..=MAX_MORE_TIME_DAYS).contains(&days) {
            return Err(GameError::MoreTimeOutOfRange {
                max: MAX_MORE_TIME_DAYS,
            });
        }
        if self.clock.control() == TimeControl::Unlimited {
            return Err(GameError::NoClock);
        }
        self.clock
            .add_time(!side, chrono::Duration::days(i64::from(days)));
        self.note(Some(side), now, NoteKind::MoreTime { days });
        Ok(vec![Event::MoreTimeGiven { by: side, days }])
    }

    fn clock_expired(
        &mut self,
        actor: &Actor,
        no_show: NoShow,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if *actor != Actor::Clock {
            return Err(GameError::NotTheClock);
        }
        self.ensure_ongoing()?;
        if !self.clock.is_flagged(now) {
            return Err(GameError::NotFlagged);
        }
        let side = self.turn();
        if self.moves_made_by(side) == 0 {
            // The first move never came: the game never really started.
            let (result, reason) = match no_show {
                NoShow::Abort => (GameResult::NoResult, Reason::Abort),
                NoShow::Forfeit => (GameResult::win_for(!side), Reason::NoShow),
            };
            return Ok(vec![self.finish(result, reason, now)]);
        }
        self.flag_fall(actor, side, now)
    }

    fn flag_fall(
        &mut self,
        actor: &Actor,
        side: Color,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if *actor != Actor::Clock {
            return Err(GameError::NotTheClock);
        }
        // A result that already happened stands: the flag changes nothing.
        self.ensure_ongoing()?;
        // 6.9: the opponent wins only if they could still mate.
        let result = if unwinnable::can_still_mate(&self.position, !side) {
            GameResult::win_for(!side)
        } else {
            GameResult::Draw
        };
        Ok(vec![self.finish(result, Reason::Timeout, now)])
    }

    /// The side `actor` plays; refuses anyone who is not a player here.
    fn playing_side(&self, actor: &Actor) -> Result<Color, GameError> {
        let side = match actor {
            Actor::Player(id) => self.players.side_of(*id),
            Actor::Moderator(_) | Actor::Clock => None,
        };
        let side = side.ok_or(GameError::NotAPlayer)?;
        self.ensure_ongoing()?;
        Ok(side)
    }

    fn ensure_ongoing(&self) -> Result<(), GameError> {
        match self.status {
            Status::Ongoing => Ok(()),
            Status::Over { .. } => Err(GameError::GameOver),
        }
    }

    fn ensure_turn(&self, side: Color) -> Result<(), GameError> {
        if self.position.turn() == side {
            Ok(())
        } else {
            Err(GameError::NotYourTurn)
        }
    }

    fn note(&mut self, by: Option<Color>, at: DateTime<Utc>, kind: NoteKind) {
        self.notes.push(Note {
            ply: self.moves.len() as u32,
            by,
            at,
            kind,
        });
    }

    /// Ends the game; used by every path to a result.
    pub(crate) fn finish(
        &mut self,
        result: GameResult,
        reason: Reason,
        at: DateTime<Utc>,
    ) -> Event {
        self.pending_offer = None;
        self.status = Status::Over { result, reason, at };
        Event::GameOver { result, reason }
    }
}

/// The standard start position's FEN, as [`Fen::from_position`] writes it.
const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn parse_start_fen(text: &str, mode: CastlingMode) -> Result<Chess, SetupError> {
    if text.len() > MAX_FEN {
        return Err(SetupError::FenTooLong);
    }
    // The counters follow the four fields of the position; shakmaty
    // saturates a larger one silently.
    let too_large =
        |field: &&str| field.bytes().all(|b| b.is_ascii_digit()) && field.parse::<u32>().is_err();
    if text
        .split_ascii_whitespace()
        .skip(4)
        .any(|field| too_large(&field))
    {
        return Err(SetupError::CounterTooLarge);
    }
    let fen: Fen = text.trim().parse().map_err(|_| SetupError::BadFen)?;
    fen.into_position(mode)
        .map_err(|_| SetupError::IllegalPosition)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 5, 1, hour, 0, 0).unwrap()
    }

    const PLAYERS: Players = Players {
        white: PlayerId(1),
        black: PlayerId(2),
    };

    #[test]
    fn moves_are_counted_per_side_from_any_start() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
        let mut game = Game::new(PLAYERS, Some(fen), DrawRules::default(), at(0)).expect("ok");
        assert_eq!(game.moves_made_by(Color::Black), 0);
        let m = game.position().legal_moves()[0];
        game.play(m, false, at(1));
        assert_eq!(game.moves_made_by(Color::Black), 1);
        assert_eq!(game.moves_made_by(Color::White), 0);
        // Black has moved, White not yet: an abort is still allowed.
        let events = game.apply(&Actor::Player(PlayerId(1)), Act::Abort, at(2));
        assert!(events.is_ok());
    }

    #[test]
    fn setup_refusals() {
        let cases = [
            (Some("not a fen"), SetupError::BadFen),
            (
                Some("8/8/8/8/8/8/8/8 w - - 0 1"),
                SetupError::IllegalPosition,
            ),
            (
                Some("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"),
                SetupError::AlreadyOver,
            ),
            // Counters beyond 2^32 - 1, the halfmove clock or the move number.
            (
                Some("4k3/8/8/8/8/8/4P3/4K3 w - - 4294967296 1"),
                SetupError::CounterTooLarge,
            ),
            (
                Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 99999999999999999999"),
                SetupError::CounterTooLarge,
            ),
        ];
        for (fen, expected) in cases {
            let got = Game::new(PLAYERS, fen, DrawRules::default(), at(0)).err();
            assert_eq!(got, Some(expected), "{fen:?}");
        }
        let same = Players {
            white: PlayerId(3),
            black: PlayerId(3),
        };
        let got = Game::new(same, None, DrawRules::default(), at(0)).err();
        assert_eq!(got, Some(SetupError::SamePlayer));
        // A dead position is set up, but refused when offered to players:
        // bare kings, a lone minor piece, bishops all on one colour.
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/3N4/8 b - - 0 1",
            "5bk1/8/8/8/8/8/8/2B1K3 w - - 0 1",
        ] {
            assert!(Game::new(PLAYERS, Some(fen), DrawRules::default(), at(0)).is_ok());
            let offered = Game::check_offered_start(Variant::Standard, fen);
            assert_eq!(offered, Err(SetupError::DeadPosition), "{fen}");
        }
        let live = "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1";
        assert_eq!(Game::check_offered_start(Variant::Standard, live), Ok(()));
        // The largest counters are taken as written.
        let largest = "4k3/8/8/8/8/8/4P3/4K3 w - - 4294967295 4294967295";
        let game = Game::new(PLAYERS, Some(largest), DrawRules::default(), at(0));
        assert_eq!(game.expect("largest").position().halfmoves(), u32::MAX);
        let long = "8/".repeat(60);
        let got = Game::new(PLAYERS, Some(&long), DrawRules::default(), at(0)).err();
        assert_eq!(got, Some(SetupError::FenTooLong));
    }

    #[test]
    fn restore_replays_moves_and_keeps_the_stored_state() {
        let mut game = Game::new(PLAYERS, None, DrawRules::default(), at(0)).expect("ok");
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let m = UciMove::from_ascii(uci.as_bytes())
                .expect("uci")
                .to_move(game.position())
                .expect("legal");
            game.play(m, uci == "g1f3", at(1));
        }
        let stored: Vec<(String, String, DateTime<Utc>, bool)> = game
            .moves()
            .iter()
            .map(|m| (m.uci.to_string(), m.san.to_string(), m.at, m.draw_offer))
            .collect();
        let restored = Game::restore(
            Variant::Standard,
            PLAYERS,
            None,
            DrawRules::default(),
            at(0),
            stored.iter().map(|(uci, san, at, offer)| StoredMove {
                uci,
                san,
                at: *at,
                draw_offer: *offer,
            }),
            game.notes().to_vec(),
            game.pending_offer(),
            game.status(),
        )
        .expect("restores");
        assert_eq!(restored.position(), game.position());
        assert_eq!(restored.pending_offer(), Some(Color::White));
        assert_eq!(restored.moves(), game.moves());

        let bad = [StoredMove {
            uci: "e2e5",
            san: "e5",
            at: at(1),
            draw_offer: false,
        }];
        let err = Game::restore(
            Variant::Standard,
            PLAYERS,
            None,
            DrawRules::default(),
            at(0),
            bad,
            Vec::new(),
            None,
            Status::Ongoing,
        )
        .err();
        assert!(matches!(err, Some(RestoreError::BadMove { ply: 1, .. })));
    }

    #[test]
    fn only_moderators_adjudicate_and_only_the_clock_flags() {
        let mut game = Game::new(PLAYERS, None, DrawRules::default(), at(0)).expect("ok");
        let adjudicate = Act::Adjudicate {
            result: GameResult::Draw,
            note: "agreed by mail".into(),
        };
        let player = Actor::Player(PlayerId(1));
        assert_eq!(
            game.apply(&player, adjudicate.clone(), at(1)),
            Err(GameError::NotAModerator)
        );
        let flag = Act::FlagFall { side: Color::White };
        assert_eq!(
            game.apply(&player, flag, at(1)),
            Err(GameError::NotTheClock)
        );
        let long_note = Act::Adjudicate {
            result: GameResult::Draw,
            note: "x".repeat(MAX_ADJUDICATION_NOTE + 1),
        };
        let moderator = Actor::Moderator(PlayerId(9));
        assert!(matches!(
            game.apply(&moderator, long_note, at(1)),
            Err(GameError::NoteTooLong { .. })
        ));
        let events = game.apply(&moderator, adjudicate, at(2)).expect("ok");
        assert_eq!(
            events,
            vec![Event::GameOver {
                result: GameResult::Draw,
                reason: Reason::Adjudication
            }]
        );
        assert_eq!(game.notes().len(), 1);
        // Nobody can act on a finished game.
        assert_eq!(
            game.apply(&player, Act::Resign, at(3)),
            Err(GameError::GameOver)
        );
        let stranger = Actor::Player(PlayerId(7));
        assert_eq!(
            game.apply(&stranger, Act::Resign, at(3)),
            Err(GameError::NotAPlayer)
        );
    }

    /// An act timed before the game's last record (a clock set back) is
    /// timed at that record instead: the score and the notes stay in order,
    /// and the next turn starts no earlier than the last move.
    #[test]
    fn acts_never_go_back_in_time() {
        let mut game = Game::new(PLAYERS, None, DrawRules::default(), at(5)).expect("ok");
        let (white, black) = (Actor::Player(PlayerId(1)), Actor::Player(PlayerId(2)));
        let play = |text: &str| Act::Move {
            input: MoveInput::new(text, Reader::speaking(crate::core::notation::Lang::En)),
            offer_draw: false,
        };
        // (actor, act, when it claims to happen, when it is recorded)
        let acts = [
            (&white, play("e4"), at(2), at(5)),
            (&black, play("e5"), at(9), at(9)),
            (&white, Act::OfferDraw, at(7), at(9)),
            (&white, play("Nf3"), at(8), at(9)),
            (&black, play("Nc6"), at(10), at(10)),
        ];
        for (actor, act, claimed, recorded) in acts {
            let what = format!("{act:?}");
            game.apply(actor, act, claimed).expect(&what);
            assert_eq!(game.last_recorded_at(), recorded, "{what}");
        }
        let times: Vec<_> = game.moves().iter().map(|m| m.at).collect();
        assert_eq!(times, [at(5), at(9), at(9), at(10)]);
        assert_eq!(game.notes()[0].at, at(9));
        game.credit_outage(chrono::Duration::hours(1), at(3));
        assert_eq!(game.notes().last().map(|n| n.at), Some(at(10)));
    }

    #[test]
    fn draw_rules_of_the_server_apply() {
        let forbidden = DrawRules {
            agreement_allowed: false,
            min_moves_each: 1,
        };
        let mut game = Game::new(PLAYERS, None, forbidden, at(0)).expect("ok");
        let white = Actor::Player(PlayerId(1));
        assert_eq!(
            game.apply(&white, Act::OfferDraw, at(1)),
            Err(GameError::AgreementForbidden)
        );
        let late = DrawRules {
            agreement_allowed: true,
            min_moves_each: 30,
        };
        let mut game = Game::new(PLAYERS, None, late, at(0)).expect("ok");
        for uci in ["e2e4", "e7e5"] {
            let m = UciMove::from_ascii(uci.as_bytes())
                .expect("uci")
                .to_move(game.position())
                .expect("legal");
            game.play(m, false, at(1));
        }
        game.apply(&white, Act::OfferDraw, at(2))
            .expect("offer stands");
        let black = Actor::Player(PlayerId(2));
        assert_eq!(
            game.apply(&black, Act::AcceptDraw, at(3)),
            Err(GameError::AgreementTooEarly { min_moves_each: 30 })
        );
    }
}
