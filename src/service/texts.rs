//! Neutral events and refusals turned into sentences for a reader.

use shakmaty::{Chess, Color};

use super::notation::Typing;
use super::{Context, Reply};
use crate::core::chess960;
use crate::core::command::CommandError;
use crate::core::event::{Event, GameResult, Reason};
use crate::core::game::GameError;
use crate::core::names::Named;
use crate::core::notation::{self, IllegalReason, Lang, MAX_MOVE_INPUT, MoveInputError, Style};
use crate::core::variant::Variant;
use crate::i18n::{Arg, I18n};
use crate::storage::PlayerRow;

/// The line that names a game's rules, for a Chess960 game: its start's
/// number, or just the variant when it starts from another position.
pub(super) fn variant_line(
    variant: Variant,
    start_fen: Option<&str>,
) -> Option<(&'static str, Vec<(&'static str, Arg)>)> {
    match (variant, start_fen.and_then(chess960::number_of_fen)) {
        (Variant::Standard, _) => None,
        (Variant::Chess960, Some(number)) => Some((
            "variant-chess960",
            vec![("number", Arg::from(u32::from(number)))],
        )),
        (Variant::Chess960, None) => Some(("variant-chess960-position", Vec::new())),
    }
}

/// Both players of a game, for messages.
#[derive(Clone, Debug)]
pub(super) struct Names {
    white: (String, String),
    black: (String, String),
}

impl Names {
    pub(super) fn new(white: &PlayerRow, black: &PlayerRow) -> Names {
        Names {
            white: (white.display_name.clone(), white.platform_id.clone()),
            black: (black.display_name.clone(), black.platform_id.clone()),
        }
    }

    pub(super) fn display(&self, side: Color) -> &str {
        match side {
            Color::White => &self.white.0,
            Color::Black => &self.black.0,
        }
    }

    pub(super) fn platform_id(&self, side: Color) -> &str {
        match side {
            Color::White => &self.white.1,
            Color::Black => &self.black.1,
        }
    }

    /// Whom to mention for `side`: its player, or nobody for a team (a
    /// stand-in no platform knows; its members vote when they see the move).
    pub(super) fn mention(&self, side: Color) -> Option<String> {
        let id = self.platform_id(side);
        (!is_stand_in(id)).then(|| id.to_owned())
    }
}

/// Whether a player's platform id is a team's stand-in (see `teams`).
pub(super) fn is_stand_in(platform_id: &str) -> bool {
    platform_id.starts_with(crate::storage::STAND_IN_PREFIX)
}

/// One line per event, in order, then whose move it is.
pub(super) fn describe_events(
    i18n: &I18n,
    lang: Lang,
    game: i64,
    names: &Names,
    events: &[Event],
    actor: Option<Color>,
    turn: Color,
) -> Vec<String> {
    let style = Style::for_lang(lang);
    let name = |side: Color| Arg::from(names.display(side));
    let mut lines = Vec::new();
    let mut over = false;
    for event in events {
        let line = match event {
            Event::MovePlayed {
                san,
                by,
                conditional,
                ..
            } => i18n.text(
                lang,
                match conditional {
                    true => "move-played-conditional",
                    false => "move-played",
                },
                &[
                    ("player", name(*by)),
                    ("san", Arg::from(notation::restyle_san(san, style))),
                    ("game", Arg::from(game)),
                ],
            ),
            Event::DrawOffered { by } => i18n.text(
                lang,
                "draw-offered",
                &[("player", name(*by)), ("opponent", name(!*by))],
            ),
            Event::DrawDeclined { by } => {
                i18n.text(lang, "draw-declined", &[("player", name(*by))])
            }
            Event::DrawOfferLapsed { .. } => i18n.text(lang, "draw-offer-lapsed", &[]),
            Event::MoreTimeGiven { by, days } => i18n.text(
                lang,
                "more-time-given",
                &[
                    ("player", name(*by)),
                    ("opponent", name(!*by)),
                    ("days", Arg::from(*days)),
                ],
            ),
            Event::ClaimRefused { by, .. } => {
                i18n.text(lang, "claim-refused", &[("player", name(*by))])
            }
            Event::TakebackRequested { by } => i18n.text(
                lang,
                "takeback-requested",
                &[("player", name(*by)), ("opponent", name(!*by))],
            ),
            Event::TakebackDeclined { by } => {
                i18n.text(lang, "takeback-declined", &[("player", name(*by))])
            }
            Event::TakenBack { by, plies } => i18n.text(
                lang,
                "taken-back",
                &[("player", name(*by)), ("plies", Arg::from(*plies))],
            ),
            Event::GameOver { result, reason } => {
                over = true;
                let sentence = result_sentence(i18n, lang, names, *result, *reason, actor, turn);
                i18n.text(
                    lang,
                    "game-over",
                    &[("game", Arg::from(game)), ("result", Arg::from(sentence))],
                )
            }
            Event::VoteTally { by, tally } => vote_tally(i18n, lang, names.display(*by), tally),
            // A review tells itself (see `review`); it is no move news.
            Event::Review { .. } => continue,
        };
        lines.push(line);
    }
    if !over {
        let key = match is_stand_in(names.platform_id(turn)) {
            true => "vote-your-move",
            false => "your-move",
        };
        lines.push(i18n.text(lang, key, &[("player", name(turn))]));
    }
    lines
}

/// A team's votes once its move is played: each move with its votes in
/// the reader's notation, then resignations, acceptances and draw offers.
pub(super) fn vote_tally(
    i18n: &I18n,
    lang: Lang,
    team: &str,
    tally: &crate::core::vote::Tally,
) -> String {
    let style = Style::for_lang(lang);
    let count = |key: &str, votes: u32, san: &str| {
        i18n.text(
            lang,
            key,
            &[("votes", Arg::from(votes)), ("san", Arg::from(san))],
        )
    };
    let mut parts: Vec<String> = tally
        .moves
        .iter()
        .map(|m| {
            let san = notation::restyle_san(&m.san, style);
            count("vote-tally-move", m.votes, &san)
        })
        .collect();
    if tally.resign > 0 {
        parts.push(count("vote-tally-resign", tally.resign, ""));
    }
    if tally.accept > 0 {
        parts.push(count("vote-tally-accept", tally.accept, ""));
    }
    if tally.draw_offers > 0 {
        parts.push(count("vote-tally-offers", tally.draw_offers, ""));
    }
    i18n.text(
        lang,
        "vote-tally",
        &[
            ("player", Arg::from(team)),
            ("votes", Arg::from(parts.join(", "))),
        ],
    )
}

/// The sentence that says how a game ended.
///
/// `actor` is the side that acted (the resigner, the claimant); `turn` the
/// side to move when it ended (the side whose flag fell).
pub(super) fn result_sentence(
    i18n: &I18n,
    lang: Lang,
    names: &Names,
    result: GameResult,
    reason: Reason,
    actor: Option<Color>,
    turn: Color,
) -> String {
    let name = |side: Color| Arg::from(names.display(side));
    let loser = |default: Color| result.winner().map(|w| !w).unwrap_or(default);
    match reason {
        Reason::Checkmate => {
            let winner = result.winner().unwrap_or(!turn);
            i18n.text(lang, "result-checkmate", &[("winner", name(winner))])
        }
        Reason::NoShow => {
            let loser = loser(turn);
            let args = [("loser", name(loser)), ("winner", name(!loser))];
            i18n.text(lang, "result-no_show", &args)
        }
        Reason::Resignation | Reason::Timeout => {
            let fallen = match reason {
                Reason::Resignation => actor.unwrap_or(turn),
                _ => turn,
            };
            let loser = loser(fallen);
            let suffix = if result == GameResult::Draw {
                "draw"
            } else {
                "win"
            };
            let id = format!("result-{}-{suffix}", reason.as_str());
            i18n.text(
                lang,
                &id,
                &[("loser", name(loser)), ("winner", name(!loser))],
            )
        }
        Reason::Threefold | Reason::FiftyMoves => {
            let claimant = actor.unwrap_or(turn);
            let id = format!("result-{}", reason.as_str());
            i18n.text(lang, &id, &[("player", name(claimant))])
        }
        Reason::Adjudication | Reason::Recorded => i18n.text(
            lang,
            &format!("result-{}", reason.as_str()),
            &[("result", Arg::from(result.as_pgn()))],
        ),
        other => i18n.text(lang, &format!("result-{}", other.as_str()), &[]),
    }
}

/// The line under a picture's title: the server (by the name the bot
/// knows it by, on the console) and the day it was drawn.
pub(super) fn picture_detail(ctx: &Context) -> String {
    match ctx.platform {
        crate::core::platform::Platform::Console => {
            format!("{} · {}", ctx.server.platform_id, picture_date(ctx.now))
        }
        // Discord and Matrix ids say nothing to a reader.
        _ => picture_date(ctx.now),
    }
}

/// How a message names a channel so readers can go there: a link to it
/// where the platform makes one (Discord's channel mention, a matrix.to
/// link to the room), its name on the console.
pub(super) fn channel_reference(platform: crate::core::platform::Platform, id: &str) -> String {
    use crate::core::platform::Platform;
    match platform {
        Platform::Console => format!("#{id}"),
        Platform::Discord => format!("<#{id}>"),
        Platform::Matrix => format!("https://matrix.to/#/{id}"),
    }
}

/// The day a picture was drawn, as ISO 8601 writes it (the same in every language).
pub(super) fn picture_date(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d UTC").to_string()
}

/// An instant as players read it in chat: UTC, to the minute.
pub(super) fn utc_instant(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// A span of time for a reader: days and hours, or hours and minutes.
pub(super) fn duration_text(i18n: &I18n, lang: Lang, span: chrono::Duration) -> String {
    let minutes = span.num_minutes().max(0);
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if d > 0 {
        i18n.text(
            lang,
            "duration-days",
            &[("d", Arg::from(d)), ("h", Arg::from(h))],
        )
    } else if h > 0 {
        i18n.text(
            lang,
            "duration-hours",
            &[("h", Arg::from(h)), ("m", Arg::from(m))],
        )
    } else {
        i18n.text(lang, "duration-minutes", &[("m", Arg::from(m))])
    }
}

/// Both players' time left at `now`, and when the flag of the side to move falls.
pub(super) fn clock_text(
    i18n: &I18n,
    lang: Lang,
    names: &Names,
    game: &crate::core::game::Game,
    now: chrono::DateTime<chrono::Utc>,
) -> String {
    let clock = game.clock();
    let left = |side: Color| clock.remaining(side, now);
    let (Some(white_left), Some(black_left)) = (left(Color::White), left(Color::Black)) else {
        return i18n.text(lang, "clock-none", &[]);
    };
    let mut text = i18n.text(
        lang,
        "clock-line",
        &[
            ("white", Arg::from(names.display(Color::White))),
            (
                "white_left",
                Arg::from(duration_text(i18n, lang, white_left)),
            ),
            ("black", Arg::from(names.display(Color::Black))),
            (
                "black_left",
                Arg::from(duration_text(i18n, lang, black_left)),
            ),
        ],
    );
    if let Some(deadline) = clock.deadline().filter(|_| !game.is_over()) {
        text.push(' ');
        text.push_str(&i18n.text(
            lang,
            "clock-flag",
            &[
                ("player", Arg::from(names.display(game.turn()))),
                (
                    "deadline",
                    Arg::from(deadline.format("%Y-%m-%d %H:%M").to_string()),
                ),
            ],
        ));
    }
    text
}

/// Why the rules refused an act, for the actor who reads `lang` and types
/// moves as `typing` says (the moves it suggests are written for them).
/// `input` is the move text the act carried, if any; `pos` the unchanged
/// position.
pub(super) fn game_refusal(
    i18n: &I18n,
    lang: Lang,
    typing: &Typing,
    error: &GameError,
    pos: &Chess,
    input: &str,
) -> String {
    match error {
        GameError::Move(error) => move_refusal(i18n, lang, typing, error, pos, input),
        GameError::AgreementTooEarly { min_moves_each } => i18n.text(
            lang,
            "refused-agreement_too_early",
            &[("moves", Arg::from(*min_moves_each))],
        ),
        other => i18n.text(lang, &format!("refused-{}", other.kind()), &[]),
    }
}

fn move_refusal(
    i18n: &I18n,
    lang: Lang,
    typing: &Typing,
    error: &MoveInputError,
    pos: &Chess,
    input: &str,
) -> String {
    let input = Arg::from(input.chars().take(MAX_MOVE_INPUT).collect::<String>());
    match error {
        MoveInputError::TooLong { .. } => i18n.text(lang, "move-too_long", &[]),
        MoveInputError::Syntax => i18n.text(lang, "move-syntax", &[("input", input)]),
        MoveInputError::Ambiguous { candidates } => {
            let written: Vec<String> = candidates
                .iter()
                .map(|m| notation::write_long(pos, *m, typing.style))
                .collect();
            i18n.text(
                lang,
                "move-ambiguous",
                &[
                    ("input", input),
                    ("candidates", Arg::from(written.join(", "))),
                ],
            )
        }
        MoveInputError::Illegal { reason, hints } => {
            let id = format!("move-illegal-{}", illegal_reason_name(*reason));
            let mut text = i18n.text(lang, &id, &[("input", input)]);
            if !hints.is_empty() {
                let written: Vec<String> = hints
                    .iter()
                    .take(12)
                    .map(|m| typing.write(pos, *m))
                    .collect();
                text.push(' ');
                text.push_str(&i18n.text(
                    lang,
                    "move-hints",
                    &[("moves", Arg::from(written.join(", ")))],
                ));
            }
            text
        }
    }
}

fn illegal_reason_name(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::NoSuchPiece => "no_such_piece",
        IllegalReason::CannotReach => "cannot_reach",
        IllegalReason::PathBlocked => "path_blocked",
        IllegalReason::KingInCheck => "king_in_check",
        IllegalReason::CastlingRightsLost => "castling_rights_lost",
        IllegalReason::CastlingNotNow => "castling_not_now",
        IllegalReason::OwnPieceOnTarget => "own_piece_on_target",
        IllegalReason::BadPromotion => "bad_promotion",
    }
}

/// Why a command line was not understood, in `lang`; for an unknown
/// command, the nearest known one ("did you mean /help?").
pub fn command_error_text(i18n: &I18n, lang: Lang, error: &CommandError) -> String {
    // `what` picks the message (the option's English name); `option` is
    // the name shown, the reader's.
    let option = |name: &'static str| match lang {
        Lang::Fr => crate::core::command::table::french_option_name(name).unwrap_or(name),
        _ => name,
    };
    let args: Vec<(&str, Arg)> = match error {
        CommandError::MissingArgument(what) => vec![
            ("what", Arg::from(*what)),
            ("option", Arg::from(option(what))),
        ],
        CommandError::BadValue {
            option: name,
            value,
        } => vec![
            ("what", Arg::from(*name)),
            ("option", Arg::from(option(name))),
            ("value", Arg::from(value.as_str())),
        ],
        CommandError::Unexpected(value) | CommandError::NotAMention(value) => {
            vec![("value", Arg::from(value.as_str()))]
        }
        CommandError::UnknownTieBreak(value) | CommandError::RepeatedTieBreak(value) => vec![
            ("value", Arg::from(value.as_str())),
            (
                "valid",
                Arg::from(crate::core::tournament::TieBreak::acronyms()),
            ),
        ],
        CommandError::HiddenCharacter { option: name, code } => vec![
            ("option", Arg::from(option(name))),
            ("code", Arg::from(code.as_str())),
        ],
        CommandError::Unknown(typed) => {
            let nearest = crate::core::command::nearest_name(typed);
            vec![("suggestion", Arg::from(nearest.unwrap_or("none")))]
        }
        _ => Vec::new(),
    };
    i18n.text(lang, &format!("command-{}", error.kind()), &args)
}

/// Why a command line was not understood, for the actor.
pub(super) fn command_refusal(i18n: &I18n, ctx: &Context, error: &CommandError) -> Reply {
    let text = command_error_text(i18n, ctx.lang, error);
    Reply {
        channel: ctx.channel_platform_id.clone(),
        to: Some(ctx.player.platform_id.clone()),
        ephemeral: true,
        text,
        ..Reply::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chess960_game_is_named_by_its_start() {
        let named = |fen: Option<&str>| {
            variant_line(Variant::Chess960, fen).map(|(key, args)| (key, args.len()))
        };
        assert_eq!(
            named(chess960::fen(7).as_deref()),
            Some(("variant-chess960", 1))
        );
        assert_eq!(
            named(Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1")),
            Some(("variant-chess960-position", 0))
        );
        assert_eq!(
            variant_line(Variant::Standard, None).map(|(key, _)| key),
            None
        );
    }
}
