//! `tournament <subcommand> ...`: the tournament acts as text.
//!
//! Options may be written `key:value` or as two words (`rounds 5`,
//! `tc 3d`, `max 16`, `entry 7`), so both `/tournament create swiss rounds:5`
//! and `tournament create swiss rounds 5 unrated` read the same.
//! `tiebreaks:bh-c1,bh,sb` lists the tie-breaks in order, by FIDE's
//! acronyms in any case.

use super::{Command, CommandError, Words, bad, bounded, parse_id};
use crate::core::names::Named;
use crate::core::tournament::{System, TieBreak};

/// The longest tournament name accepted.
pub const MAX_NAME: usize = 60;
/// The most Swiss rounds a tournament may ask for.
pub const MAX_ROUNDS: u32 = 30;
/// The most players a tournament may take.
pub const MAX_PLAYERS: u32 = 64;
/// The longest entry window, in days.
pub const MAX_ENTRY_DAYS: u32 = 60;

/// What `tournament create` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournamentWish {
    pub system: System,
    pub name: Option<String>,
    pub rounds: Option<u32>,
    pub time_control: Option<String>,
    pub rated: bool,
    pub max_players: Option<u32>,
    /// The tournament starts by itself this many days after creation.
    pub entry_days: Option<u32>,
    /// A bye's worth in half points (Swiss; 2 by default).
    pub bye_half_points: Option<u32>,
    /// The tie-breaks after the points, in order (`None`: the system's).
    pub tie_breaks: Option<Vec<TieBreak>>,
    /// Engine reviews of its games wait until their round is over (fair
    /// play while other boards of the round still run).
    pub reviews_after_round: bool,
}

/// A tournament act; `tournament: None` means the channel's latest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    Create(NewTournamentWish),
    Join {
        tournament: Option<i64>,
    },
    Leave {
        tournament: Option<i64>,
    },
    Start {
        tournament: Option<i64>,
    },
    Pairings {
        tournament: Option<i64>,
        round: Option<u32>,
    },
    Standings {
        tournament: Option<i64>,
    },
    Withdraw {
        tournament: Option<i64>,
    },
}

/// The tie-breaks of a typed list, in order: FIDE's acronyms in any case,
/// separated by commas (`bh-c1,BH,sb`). An unknown or repeated one is
/// refused, named.
pub fn tie_breaks_from_words(text: &str) -> Result<Vec<TieBreak>, CommandError> {
    let mut order = Vec::new();
    for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let tie_break = TieBreak::from_typed(word)
            .ok_or_else(|| CommandError::UnknownTieBreak(bounded(word)))?;
        if order.contains(&tie_break) {
            return Err(CommandError::RepeatedTieBreak(
                tie_break.as_str().to_owned(),
            ));
        }
        order.push(tie_break);
    }
    match order.is_empty() {
        true => Err(bad("tiebreaks", text)),
        false => Ok(order),
    }
}

/// The system a typed name means (English and French words).
pub fn system_from_word(word: &str) -> Option<System> {
    Some(match word.to_ascii_lowercase().as_str() {
        "round_robin" | "roundrobin" | "rr" | "toutes_rondes" => System::RoundRobin,
        "double_round_robin" | "double" | "drr" | "double_toutes_rondes" => {
            System::DoubleRoundRobin
        }
        "swiss" | "suisse" => System::Swiss,
        "knockout" | "ko" | "elimination" => System::Knockout,
        "scheveningen" => System::Scheveningen,
        _ => return None,
    })
}

pub(super) fn parse(words: &mut Words) -> Result<Command, CommandError> {
    if words.positional.is_empty() {
        return Err(CommandError::MissingArgument("subcommand"));
    }
    let sub = words.positional.remove(0).to_ascii_lowercase();
    let command = match sub.as_str() {
        "create" => TournamentCommand::Create(parse_create(words)?),
        "join" => TournamentCommand::Join {
            tournament: take_id(words)?,
        },
        "leave" => TournamentCommand::Leave {
            tournament: take_id(words)?,
        },
        "start" => TournamentCommand::Start {
            tournament: take_id(words)?,
        },
        "pairings" => {
            let tournament = take_id(words)?;
            let round = match take_value(words, "round") {
                Some(value) => Some(number("round", &value, 1, 999)?),
                None => None,
            };
            TournamentCommand::Pairings { tournament, round }
        }
        "standings" | "crosstable" => TournamentCommand::Standings {
            tournament: take_id(words)?,
        },
        "withdraw" => TournamentCommand::Withdraw {
            tournament: take_id(words)?,
        },
        _ => return Err(bad("subcommand", &sub)),
    };
    Ok(Command::Tournament(command))
}

fn parse_create(words: &mut Words) -> Result<NewTournamentWish, CommandError> {
    let system = take_value(words, "system")
        .or_else(|| {
            let index = words
                .positional
                .iter()
                .position(|w| system_from_word(w).is_some())?;
            Some(words.positional.remove(index))
        })
        .ok_or(CommandError::MissingArgument("system"))?;
    let system = system_from_word(&system).ok_or_else(|| bad("system", &system))?;
    let name = match words.take("name") {
        Some(name) if name.trim().is_empty() || name.chars().count() > MAX_NAME => {
            return Err(bad("name", &name));
        }
        other => other.map(|n| n.trim().to_owned()),
    };
    let rounds = match take_value(words, "rounds") {
        Some(value) => Some(number("rounds", &value, 1, MAX_ROUNDS)?),
        None => None,
    };
    let time_control = take_value(words, "time").or_else(|| take_value(words, "tc"));
    let unrated = words.take_flag("unrated")?;
    let rated = match take_positional(words, "rated") {
        true => true,
        false => match words.take("rated") {
            Some(value) => super::parse_bool("rated", &value)?,
            None => !unrated,
        },
    };
    let max_players = match take_value(words, "max") {
        Some(value) => Some(number("max", &value, 2, MAX_PLAYERS)?),
        None => None,
    };
    let entry_days = match take_value(words, "entry") {
        Some(value) => Some(number("entry", &value, 1, MAX_ENTRY_DAYS)?),
        None => None,
    };
    let bye_half_points = match take_value(words, "bye") {
        None => None,
        Some(value) => Some(match value.as_str() {
            "0" => 0,
            "0.5" | "½" | "1/2" => 1,
            "1" => 2,
            _ => return Err(bad("bye", &value)),
        }),
    };
    let tie_breaks = ["tiebreaks", "tiebreak", "departages"]
        .into_iter()
        .find_map(|key| take_value(words, key))
        .map(|text| tie_breaks_from_words(&text))
        .transpose()?;
    let reviews_after_round = match take_value(words, "reviews")
        .or_else(|| take_value(words, "analyses"))
        .map(|v| v.to_lowercase())
        .as_deref()
    {
        None | Some("anytime" | "toujours") => false,
        Some("after_round" | "apres_ronde" | "après_ronde") => true,
        Some(other) => return Err(bad("reviews", other)),
    };
    Ok(NewTournamentWish {
        reviews_after_round,
        system,
        name,
        rounds,
        time_control,
        rated,
        max_players,
        entry_days,
        bye_half_points,
        tie_breaks,
    })
}

/// `key:value`, or the word `key` followed by the value.
fn take_value(words: &mut Words, key: &str) -> Option<String> {
    if let Some(value) = words.take(key) {
        return Some(value);
    }
    let index = words
        .positional
        .iter()
        .position(|w| w.eq_ignore_ascii_case(key))?;
    if index + 1 >= words.positional.len() {
        return None;
    }
    words.positional.remove(index);
    Some(words.positional.remove(index))
}

fn take_positional(words: &mut Words, word: &str) -> bool {
    match words
        .positional
        .iter()
        .position(|w| w.eq_ignore_ascii_case(word))
    {
        Some(index) => {
            words.positional.remove(index);
            true
        }
        None => false,
    }
}

/// The tournament named by `id:N`, `tournament:N`, `#N`, or a bare number
/// (for `pairings`, a bare number is the round instead).
fn take_id(words: &mut Words) -> Result<Option<i64>, CommandError> {
    if let Some(value) = words.take("id").or_else(|| words.take("tournament")) {
        return parse_id("tournament", &value).map(Some);
    }
    match words.positional.iter().position(|w| w.starts_with('#')) {
        Some(index) => {
            let word = words.positional.remove(index);
            parse_id("tournament", &word).map(Some)
        }
        None => Ok(None),
    }
}

fn number(option: &'static str, value: &str, min: u32, max: u32) -> Result<u32, CommandError> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| bad(option, value))
}

#[cfg(test)]
mod tests {
    use super::super::parse as parse_line;
    use super::*;

    fn tournament(line: &str) -> TournamentCommand {
        match parse_line(line) {
            Ok(Command::Tournament(command)) => command,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn create_reads_words_and_options_alike() {
        let spaced = tournament("/tournament create swiss rounds 5 tc 2d unrated max 16 entry 7");
        let options =
            tournament("/tournament create system:swiss rounds:5 time:2d rated:no max:16 entry:7");
        assert_eq!(spaced, options);
        let TournamentCommand::Create(wish) = spaced else {
            panic!("create");
        };
        assert_eq!(wish.system, System::Swiss);
        assert_eq!(
            (wish.rounds, wish.time_control.as_deref(), wish.rated),
            (Some(5), Some("2d"), false)
        );
        assert_eq!((wish.max_players, wish.entry_days), (Some(16), Some(7)));
        let TournamentCommand::Create(wish) =
            tournament("tournament create rr name:\"Club d'hiver\" bye:0.5")
        else {
            panic!("create");
        };
        assert_eq!(wish.system, System::RoundRobin);
        assert_eq!(wish.name.as_deref(), Some("Club d'hiver"));
        assert!(wish.rated, "rated by default");
        assert_eq!(wish.bye_half_points, Some(1));
    }

    #[test]
    fn tie_breaks_are_read_in_order_by_their_acronyms() {
        use TieBreak::*;
        let cases = [
            (
                "/tournament create swiss rounds:5 tiebreaks:bh-c1,bh,sb,de,win",
                vec![
                    BuchholzCut1,
                    Buchholz,
                    SonnebornBerger,
                    DirectEncounter,
                    Wins,
                ],
            ),
            (
                "tournament create rr tiebreaks Sb,WON",
                vec![SonnebornBerger, GamesWon],
            ),
            (
                "tournoi create suisse departages:\"BH-M1, sb-c1\"",
                vec![BuchholzMedian1, SonnebornBergerCut1],
            ),
            (
                "tournament create knockout tiebreak:bh-c2",
                vec![BuchholzCut2],
            ),
        ];
        for (line, expected) in cases {
            let TournamentCommand::Create(wish) = tournament(line) else {
                panic!("create: {line}");
            };
            assert_eq!(wish.tie_breaks, Some(expected), "{line}");
        }
        let TournamentCommand::Create(wish) = tournament("tournament create swiss") else {
            panic!("create");
        };
        assert_eq!(wish.tie_breaks, None, "the system's default");
        for (line, error) in [
            (
                "tournament create swiss tiebreaks:bh,median",
                CommandError::UnknownTieBreak("median".to_owned()),
            ),
            (
                "tournament create swiss tiebreaks:bh,sb,BH",
                CommandError::RepeatedTieBreak("BH".to_owned()),
            ),
        ] {
            assert_eq!(parse_line(line), Err(error), "{line}");
        }
        let empty = parse_line("tournament create swiss tiebreaks:,").expect_err("empty");
        assert_eq!(empty.kind(), "bad_value");
    }

    #[test]
    fn the_other_acts_take_an_optional_tournament() {
        assert_eq!(
            tournament("tournament join"),
            TournamentCommand::Join { tournament: None }
        );
        assert_eq!(
            tournament("tournament start #3"),
            TournamentCommand::Start {
                tournament: Some(3)
            }
        );
        assert_eq!(
            tournament("tournament pairings round 2 id:4"),
            TournamentCommand::Pairings {
                tournament: Some(4),
                round: Some(2)
            }
        );
        assert_eq!(
            tournament("tournament standings tournament:9"),
            TournamentCommand::Standings {
                tournament: Some(9)
            }
        );
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        for (line, kind) in [
            ("tournament", "missing_argument"),
            ("tournament create", "missing_argument"),
            ("tournament create chaos", "missing_argument"),
            ("tournament dance", "bad_value"),
            ("tournament create swiss rounds 0", "bad_value"),
            ("tournament create swiss max 1000", "bad_value"),
            ("tournament create swiss bye:3", "bad_value"),
            ("tournament join extra", "unexpected_argument"),
            ("tournament join #-2", "bad_value"),
        ] {
            let error = parse_line(line).expect_err(line);
            assert_eq!(error.kind(), kind, "{line}");
        }
    }
}
