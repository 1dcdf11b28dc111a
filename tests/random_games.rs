//! Thousands of random legal games through `Game::apply`, written in every
//! accepted notation and mixed with random offers and claims, checked move by
//! move against shakmaty directly.

use chrono::{Duration, TimeZone, Utc};
use pawnpost::core::event::{ClaimKind, GameResult, Reason};
use pawnpost::core::game::{Act, Actor, DrawRules, Game, MoveInput, PlayerId, Players, Status};
use pawnpost::core::notation::{self, Lang, MoveInputError, Reader, Style};
use pawnpost::core::{adjudicate, unwinnable};
use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Color, KnownOutcome, Move, Outcome, Position};

const WHITE: PlayerId = PlayerId(10);
const BLACK: PlayerId = PlayerId(20);

/// Writes `m` in one of the notations players use, with a matching reader.
fn write_move(pos: &Chess, m: Move, form: u32) -> MoveInput {
    let english = Reader::speaking(Lang::En);
    let french = Reader::speaking(Lang::Fr);
    let input = match form % 6 {
        0 => MoveInput::new(notation::write_san(pos, m, Style::English), english),
        1 => MoveInput::new(notation::write_san(pos, m, Style::French), french),
        2 => MoveInput::new(m.to_uci(CastlingMode::Standard).to_string(), english),
        3 => MoveInput::new(notation::write_long(pos, m, Style::English), english),
        4 => MoveInput::new(notation::write_long(pos, m, Style::French), french),
        _ => {
            // Annotated SAN, as people paste it from other sites.
            let san = notation::write_san(pos, m, Style::English);
            MoveInput::new(format!("{san}!?"), english)
        }
    };
    // SAN may be read in another language too (English `Rd1`, French `Rd1`):
    // then the bot asks, and the player answers with the long form it offers.
    match notation::parse_move(pos, &input.text, &input.reader) {
        Err(MoveInputError::Ambiguous { candidates }) if candidates.contains(&m) => {
            MoveInput::new(notation::write_long(pos, m, Style::English), input.reader)
        }
        _ => input,
    }
}

fn actor(side: Color) -> Actor {
    Actor::Player(if side == Color::White { WHITE } else { BLACK })
}

/// Plays one random game; `choices` drives every decision.
fn play_random_game(choices: &[(u32, u32)]) -> Result<(), TestCaseError> {
    let mut now = Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap();
    let players = Players {
        white: WHITE,
        black: BLACK,
    };
    let mut game = Game::new(players, None, DrawRules::default(), now).expect("start");
    let mut reference = Chess::default();

    for &(pick, style) in choices {
        if game.is_over() {
            break;
        }
        now += Duration::hours(1);
        let side = reference.turn();
        let legal = reference.legal_moves();
        prop_assert_eq!(game.position().legal_moves().len(), legal.len());
        let m = legal[pick as usize % legal.len()];
        let input = write_move(&reference, m, style);

        let act = match style % 23 {
            // Now and then a claim, with or without the move, of any kind.
            0 => Act::Claim {
                kind: None,
                with_move: Some(input),
            },
            1 => Act::Claim {
                kind: Some(ClaimKind::Threefold),
                with_move: None,
            },
            2 => Act::Claim {
                kind: Some(ClaimKind::Fifty),
                with_move: Some(input),
            },
            3 | 4 => Act::Move {
                input,
                offer_draw: true,
            },
            5 if game.pending_offer() == Some(!side) => Act::DeclineDraw,
            _ => Act::Move {
                input,
                offer_draw: false,
            },
        };
        let claimed = matches!(act, Act::Claim { .. });
        let with_move = matches!(
            act,
            Act::Move { .. }
                | Act::Claim {
                    with_move: Some(_),
                    ..
                }
        );
        let plies_before = game.moves().len();
        let outcome = game.apply(&actor(side), act, now);
        let events = outcome.map_err(|e| TestCaseError::fail(format!("refused {m:?}: {e}")))?;
        prop_assert!(!events.is_empty());

        if game.moves().len() > plies_before {
            prop_assert!(with_move);
            reference.play_unchecked(m);
        } else if let Status::Over { reason, .. } = game.status() {
            // Only an upheld claim ends a game without playing the move.
            prop_assert!(claimed);
            prop_assert!(matches!(reason, Reason::Threefold | Reason::FiftyMoves));
        }
        prop_assert_eq!(game.position(), &reference);
    }

    check_result_against_shakmaty(&game, &reference)
}

fn check_result_against_shakmaty(game: &Game, reference: &Chess) -> Result<(), TestCaseError> {
    let status = game.status();
    match reference.outcome() {
        Outcome::Known(KnownOutcome::Decisive { winner }) => {
            let mated = matches!(status, Status::Over { result, reason: Reason::Checkmate, .. }
                    if result == GameResult::win_for(winner));
            prop_assert!(mated, "shakmaty sees a mate, the game says {:?}", status);
        }
        Outcome::Known(KnownOutcome::Draw) => {
            let Status::Over { result, reason, .. } = status else {
                return Err(TestCaseError::fail(
                    "shakmaty sees a draw, the game goes on",
                ));
            };
            prop_assert_eq!(result, GameResult::Draw);
            // A claim or repetition may have come first; otherwise it is shakmaty's reason.
            if !matches!(
                reason,
                Reason::Threefold | Reason::FiftyMoves | Reason::Fivefold
            ) {
                prop_assert!(matches!(reason, Reason::Stalemate | Reason::DeadPosition));
            }
        }
        Outcome::Unknown => match status {
            Status::Ongoing => {
                prop_assert!(reference.halfmoves() < adjudicate::SEVENTY_FIVE_MOVE_PLIES);
            }
            Status::Over { result, reason, .. } => {
                prop_assert_eq!(result, GameResult::Draw);
                // Beyond shakmaty's material test, the analyzer also finds
                // dead positions (locked pawns, bishops of the wrong colour).
                let dead =
                    reason == Reason::DeadPosition && unwinnable::is_dead_position(reference);
                prop_assert!(
                    dead || matches!(
                        reason,
                        Reason::Threefold
                            | Reason::FiftyMoves
                            | Reason::Fivefold
                            | Reason::SeventyFiveMoves
                    )
                );
            }
        },
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_games_agree_with_shakmaty(
        choices in prop::collection::vec((any::<u32>(), any::<u32>()), 0..200)
    ) {
        play_random_game(&choices)?;
    }

    /// Long shuffling games reach the repetition and move-count rules.
    #[test]
    fn shuffling_games_end_by_repetition_or_move_count(
        choices in prop::collection::vec((0u32..3, any::<u32>()), 200..600)
    ) {
        play_random_game(&choices)?;
    }
}
