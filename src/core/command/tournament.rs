//! `tournament <subcommand>`: create, join, leave, start, pairings,
//! standings, withdraw, list.
//!
//! `create`'s options may be written `key:value` or as two words (`rounds 5`,
//! `tc 3d`, `max 16`, `entry 7`), so both `/tournament create swiss rounds:5`
//! and `tournament create swiss rounds 5 unrated` read the same.
//! `tiebreaks:bh-c1,bh,sb` lists the tie-breaks in order, by FIDE's
//! acronyms in any case.

use super::challenge::TIME;
use super::table::{Choice, Kind, MAX_ID, Opt, Pos, Spec, choice, group, number, opt, row, text};
use super::{Args, Command, CommandError, bad, bounded, shown_name};
use crate::core::names::Named;
use crate::core::tournament::{MAX_PLAYERS, System, TieBreak};

/// The longest tournament name accepted.
pub const MAX_NAME: usize = 60;
/// The most Swiss rounds a tournament may ask for.
pub const MAX_ROUNDS: u32 = 30;
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
    /// The open and running tournaments of this server and its club.
    List,
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

/// The tournament named by `tournament:N`, `id:N` or `#N`; the channel's
/// latest without one.
const ID: Opt = opt("tournament", "tournoi", number(1, MAX_ID))
    .at(Pos::Hashed)
    .or(&["id"]);
const ROUND: Opt = opt("round", "ronde", number(1, 999)).at(Pos::Spaced);

const SYSTEMS: &[Choice] = &[
    choice("round_robin", "toutes_rondes", &["roundrobin", "rr"]),
    choice(
        "double_round_robin",
        "double_toutes_rondes",
        &["double", "drr"],
    ),
    choice("swiss", "suisse", &[]),
    choice("knockout", "elimination", &["ko", "élimination"]),
    choice("scheveningen", "scheveningue", &[]),
];
/// A bye's worth: `bye:1`, `bye:0.5`, `bye:0`.
const BYES: &[Choice] = &[
    choice("one", "un", &["1"]),
    choice("half", "demi", &["0.5", "½", "1/2"]),
    choice("zero", "zero", &["0"]),
];
const REVIEWS: &[Choice] = &[
    choice("anytime", "toujours", &[]),
    choice("after_round", "apres_ronde", &["après_ronde"]),
];

#[rustfmt::skip]
const CREATE: &[Opt] = &[
    opt("system", "systeme", Kind::Choice(SYSTEMS)).at(Pos::Any).required(),
    opt("name", "nom", text(MAX_NAME)),
    opt("rounds", "rondes", number(1, MAX_ROUNDS as i64)).at(Pos::Spaced),
    TIME.at(Pos::Spaced),
    opt("rated", "classe", Kind::Bool).at(Pos::Flag),
    // The syntax's bound (any system's at most); each system's own limit,
    // which the operator sets, is the rule the service checks.
    opt("max", "max", number(2, MAX_PLAYERS as i64)).at(Pos::Spaced),
    opt("entry", "inscriptions", number(1, MAX_ENTRY_DAYS as i64)).at(Pos::Spaced),
    opt("bye", "exempt", Kind::Choice(BYES)).at(Pos::Spaced),
    opt("tiebreaks", "departages", text(60)).at(Pos::Spaced).or(&["tiebreak"]),
    opt("reviews", "analyses", Kind::Choice(REVIEWS)).at(Pos::Spaced),
];

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[group("tournament", "tournoi", &[
    row("create", "creer", CREATE, create).aka(&["créer"]),
    row("join", "rejoindre", &[ID], |a| act(TournamentCommand::Join { tournament: id(a) })),
    row("leave", "quitter", &[ID], |a| act(TournamentCommand::Leave { tournament: id(a) })),
    row("start", "lancer", &[ID], |a| act(TournamentCommand::Start { tournament: id(a) })),
    row("pairings", "appariements", &[ID, ROUND], |a| {
        act(TournamentCommand::Pairings { tournament: id(a), round: a.count(ROUND.name) })
    }),
    row("standings", "grille", &[ID], |a| act(TournamentCommand::Standings { tournament: id(a) }))
        .aka(&["crosstable"]),
    row("withdraw", "abandonner", &[ID], |a| act(TournamentCommand::Withdraw { tournament: id(a) })),
    row("list", "liste", &[], |_| act(TournamentCommand::List)),
])];

fn id(a: &Args) -> Option<i64> {
    a.number(ID.name)
}

fn act(command: TournamentCommand) -> Result<Command, CommandError> {
    Ok(Command::Tournament(command))
}

fn create(a: &Args) -> Result<Command, CommandError> {
    let system = match a.need("system")? {
        "round_robin" => System::RoundRobin,
        "double_round_robin" => System::DoubleRoundRobin,
        "swiss" => System::Swiss,
        "knockout" => System::Knockout,
        _ => System::Scheveningen,
    };
    act(TournamentCommand::Create(NewTournamentWish {
        system,
        name: a
            .text("name")
            .map(|name| shown_name("name", name))
            .transpose()?,
        rounds: a.count("rounds"),
        time_control: a.owned("time"),
        rated: a.flag("rated").unwrap_or(true),
        max_players: a.count("max"),
        entry_days: a.count("entry"),
        bye_half_points: a.text("bye").map(|bye| match bye {
            "one" => 2,
            "half" => 1,
            _ => 0,
        }),
        tie_breaks: a.text("tiebreaks").map(tie_breaks_from_words).transpose()?,
        reviews_after_round: a.text("reviews") == Some("after_round"),
    }))
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
            ("tournament create swiss max 10001", "bad_value"),
            ("tournament create swiss bye:3", "bad_value"),
            ("tournament join extra", "unexpected_argument"),
            ("tournament join #-2", "bad_value"),
            (
                "tournament create swiss name:\"evil\u{202E}gnp\"",
                "hidden_character",
            ),
            (
                "tournament create swiss name:\"al\u{200B}ice\"",
                "hidden_character",
            ),
            (
                "tournament create swiss name:\"a\u{2066}b\"",
                "hidden_character",
            ),
            (
                "tournament create swiss name:\"bell\u{7}\"",
                "hidden_character",
            ),
        ] {
            let error = parse_line(line).expect_err(line);
            assert_eq!(error.kind(), kind, "{line}");
        }
    }
}
