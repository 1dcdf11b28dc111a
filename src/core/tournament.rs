//! The tournament vocabulary the command language and the pairing code
//! share: the pairing systems and the tie-breaks. The core only names them;
//! how each system pairs and each tie-break counts is pure code outside the
//! core, which uses the core and is never used by it.

/// The pairing systems, stored and typed by name ([`Named`](super::names::Named)).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum System {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
    Knockout,
    Scheveningen,
}

/// The most players a tournament of any system may have: the syntax bound
/// of `/tournament create max` and the ceiling of each system's own
/// limit, which the operator sets (`[tournaments]`) and the service
/// enforces (`competition::tournament::Limits`, the rule).
pub const MAX_PLAYERS: u32 = 10_000;

impl System {
    pub const ALL: [System; 5] = [
        System::RoundRobin,
        System::DoubleRoundRobin,
        System::Swiss,
        System::Knockout,
        System::Scheveningen,
    ];
}

/// The tie-breaks a tournament may rank by, after the points, typed and
/// stored by FIDE's acronyms (Handbook C.07, the table of Article 5):
/// `BH-C1` is Buchholz with its least significant value cut (Article 14.1).
/// What each one counts is pure code outside the core
/// (`competition::tiebreak`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
pub enum TieBreak {
    /// Direct encounter (Article 6).
    #[strum(serialize = "DE")]
    DirectEncounter,
    /// Number of wins, with or without playing (Article 7.1).
    #[strum(serialize = "WIN")]
    Wins,
    /// Number of games won over the board (Article 7.2).
    #[strum(serialize = "WON")]
    GamesWon,
    /// Buchholz (Article 8.1).
    #[strum(serialize = "BH")]
    Buchholz,
    /// Buchholz, the least significant value cut (Articles 8.1, 14.1).
    #[strum(serialize = "BH-C1")]
    BuchholzCut1,
    /// Buchholz, the two least significant values cut (Articles 8.1, 14.1).
    #[strum(serialize = "BH-C2")]
    BuchholzCut2,
    /// Buchholz, the least and the most significant values cut (Articles 8.1, 14.2).
    #[strum(serialize = "BH-M1")]
    BuchholzMedian1,
    /// Sonneborn-Berger (Article 9.1).
    #[strum(serialize = "SB")]
    SonnebornBerger,
    /// Sonneborn-Berger, the least significant value cut (Articles 9.1, 14.1).
    #[strum(serialize = "SB-C1")]
    SonnebornBergerCut1,
}

impl TieBreak {
    /// The tie-break a typed acronym means, whatever its case (`bh-c1`, `Sb`).
    pub fn from_typed(word: &str) -> Option<TieBreak> {
        word.trim().to_ascii_uppercase().parse().ok()
    }

    /// The acronyms as a list for people: `DE, WIN, WON, BH, …`.
    pub fn acronyms() -> String {
        use strum::VariantArray;
        TieBreak::VARIANTS
            .iter()
            .map(|t| <&'static str>::from(*t))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A list of tie-breaks as stored and shown: acronyms joined by commas
/// (`BH-C1,BH,SB,WIN`).
pub fn tie_breaks_text(order: &[TieBreak]) -> String {
    order
        .iter()
        .map(|t| <&'static str>::from(*t))
        .collect::<Vec<_>>()
        .join(",")
}

/// The list [`tie_breaks_text`] wrote, or `None` if a name is unknown or
/// repeated.
pub fn tie_breaks_from_text(text: &str) -> Option<Vec<TieBreak>> {
    let mut order = Vec::new();
    for name in text.split(',') {
        let tie_break: TieBreak = name.parse().ok()?;
        if order.contains(&tie_break) {
            return None;
        }
        order.push(tie_break);
    }
    Some(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_break_lists_are_written_and_read_back() {
        let order = [
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ];
        assert_eq!(tie_breaks_text(&order), "BH-C1,BH,SB,WIN");
        assert_eq!(
            tie_breaks_from_text("BH-C1,BH,SB,WIN").as_deref(),
            Some(&order[..])
        );
        for damaged in ["", "BH,,SB", "BH,BH", "bh-c1", "BH-C3"] {
            assert_eq!(tie_breaks_from_text(damaged), None, "{damaged:?}");
        }
        assert_eq!(
            TieBreak::from_typed(" bh-c1 "),
            Some(TieBreak::BuchholzCut1)
        );
        assert_eq!(
            TieBreak::from_typed("Sb-C1"),
            Some(TieBreak::SonnebornBergerCut1)
        );
        assert_eq!(TieBreak::from_typed("buchholz"), None);
        assert_eq!(
            TieBreak::acronyms(),
            "DE, WIN, WON, BH, BH-C1, BH-C2, BH-M1, SB, SB-C1"
        );
    }
}
