//! The name of every variant that is stored in a database or typed by
//! users. These strings are in existing databases and scripts: a change
//! here is a migration, never a refactoring.

use std::fmt::Debug;

use pawnpost::core::choices::{ColorChoice, Notify};
use pawnpost::core::event::{ClaimKind, Reason};
use pawnpost::core::names::Named;
use pawnpost::core::notation::Lang;
use pawnpost::core::platform::Platform;
use pawnpost::core::team::MatchSide;
use pawnpost::core::tournament::{System, TieBreak};
use pawnpost::core::variant::Variant;
use pawnpost::storage::{
    ChallengeStatus, LadderMatchStatus, MatchState, PairingScore, TournamentState,
};
use strum::VariantArray;

/// Every variant is listed once, is named so, and is read back from that
/// exact name (and not from another case of it).
fn names_are<T>(table: &[(T, &str)])
where
    T: Named + VariantArray + Copy + PartialEq + Debug,
{
    let what = std::any::type_name::<T>();
    assert_eq!(
        table.len(),
        T::VARIANTS.len(),
        "{what}: list each variant once"
    );
    for variant in T::VARIANTS {
        assert!(
            table.iter().any(|(listed, _)| listed == variant),
            "{what}: {variant:?} is not listed"
        );
    }
    for &(variant, name) in table {
        assert_eq!(variant.as_str(), name, "{what}");
        assert_eq!(T::from_name(name), Some(variant), "{what}");
        let shouted = name.to_uppercase();
        if shouted != name {
            assert_eq!(T::from_name(&shouted), None, "{what}: {shouted}");
        }
    }
    assert_eq!(T::from_name(""), None, "{what}");
    assert_eq!(T::from_name("unknown"), None, "{what}");
}

/// For the enums also written by serde (answers, JSON lines): the same names.
fn serde_names_agree<T>(table: &[(T, &str)])
where
    T: serde::Serialize,
{
    for (variant, name) in table {
        let json = serde_json::to_string(variant).expect("serializes");
        assert_eq!(json, format!("\"{name}\""));
    }
}

#[test]
fn platforms() {
    let table = [
        (Platform::Console, "console"),
        (Platform::Discord, "discord"),
        (Platform::Matrix, "matrix"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn variants_and_rating_pools() {
    let table = [
        (Variant::Standard, "standard"),
        (Variant::Chess960, "chess960"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn colour_choices() {
    let table = [
        (ColorChoice::White, "white"),
        (ColorChoice::Black, "black"),
        (ColorChoice::Random, "random"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn notices() {
    let table = [
        (Notify::Channel, "channel"),
        (Notify::Direct, "direct"),
        (Notify::Off, "off"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn challenge_statuses() {
    let table = [
        (ChallengeStatus::Open, "open"),
        (ChallengeStatus::Accepted, "accepted"),
        (ChallengeStatus::Declined, "declined"),
        (ChallengeStatus::Cancelled, "cancelled"),
        (ChallengeStatus::Expired, "expired"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn reasons() {
    let table = [
        (Reason::Checkmate, "checkmate"),
        (Reason::Stalemate, "stalemate"),
        (Reason::DeadPosition, "dead_position"),
        (Reason::Fivefold, "fivefold"),
        (Reason::SeventyFiveMoves, "seventy_five_moves"),
        (Reason::Threefold, "threefold"),
        (Reason::FiftyMoves, "fifty_moves"),
        (Reason::Agreement, "agreement"),
        (Reason::Resignation, "resignation"),
        (Reason::Timeout, "timeout"),
        (Reason::Abort, "abort"),
        (Reason::NoShow, "no_show"),
        (Reason::Adjudication, "adjudication"),
        (Reason::Recorded, "recorded"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn claim_kinds() {
    let table = [
        (ClaimKind::Threefold, "threefold"),
        (ClaimKind::Fifty, "fifty"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn languages() {
    let table = [
        (Lang::En, "en"),
        (Lang::Fr, "fr"),
        (Lang::De, "de"),
        (Lang::Ru, "ru"),
    ];
    names_are(&table);
    serde_names_agree(&table);
}

#[test]
fn tournament_systems() {
    names_are(&[
        (System::RoundRobin, "round_robin"),
        (System::DoubleRoundRobin, "double_round_robin"),
        (System::Swiss, "swiss"),
        (System::Knockout, "knockout"),
        (System::Scheveningen, "scheveningen"),
    ]);
}

/// FIDE's acronyms (Handbook C.07), in `tournaments.tiebreaks`.
#[test]
fn tie_breaks() {
    let table = [
        (TieBreak::DirectEncounter, "DE"),
        (TieBreak::Wins, "WIN"),
        (TieBreak::GamesWon, "WON"),
        (TieBreak::Buchholz, "BH"),
        (TieBreak::BuchholzCut1, "BH-C1"),
        (TieBreak::BuchholzCut2, "BH-C2"),
        (TieBreak::BuchholzMedian1, "BH-M1"),
        (TieBreak::SonnebornBerger, "SB"),
        (TieBreak::SonnebornBergerCut1, "SB-C1"),
    ];
    names_are(&table);
}

#[test]
fn tournament_states() {
    names_are(&[
        (TournamentState::Entry, "entry"),
        (TournamentState::Running, "running"),
        (TournamentState::Finished, "finished"),
        (TournamentState::Cancelled, "cancelled"),
    ]);
}

#[test]
fn pairing_scores() {
    names_are(&[
        (PairingScore::Bye, "bye"),
        (PairingScore::WhiteForfeitWin, "+-"),
        (PairingScore::BlackForfeitWin, "-+"),
        (PairingScore::DoubleForfeit, "--"),
        (PairingScore::Annulled, "annulled"),
    ]);
}

#[test]
fn ladder_match_statuses() {
    names_are(&[
        (LadderMatchStatus::Pending, "pending"),
        (LadderMatchStatus::Playing, "playing"),
        (LadderMatchStatus::ChallengerWon, "challenger_won"),
        (LadderMatchStatus::DefenderWon, "defender_won"),
        (LadderMatchStatus::Drawn, "drawn"),
        (LadderMatchStatus::Forfeited, "forfeited"),
        (LadderMatchStatus::Withdrawn, "withdrawn"),
        (LadderMatchStatus::Aborted, "aborted"),
    ]);
}

#[test]
fn team_match_states_and_sides() {
    names_are(&[
        (MatchState::Proposed, "proposed"),
        (MatchState::SignUp, "signup"),
        (MatchState::Running, "running"),
        (MatchState::Over, "over"),
    ]);
    names_are(&[(MatchSide::Home, "home"), (MatchSide::Away, "away")]);
}
