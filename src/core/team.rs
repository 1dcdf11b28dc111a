//! Teams: named sets of a server's members that play vote chess (see
//! [`super::vote`]) and team matches. What a team's name may be, and the
//! two sides of a match, live here.

/// The longest team name, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// The most teams one server may have.
pub const MAX_TEAMS_PER_SERVER: u32 = 200;
/// The most members one team may have.
pub const MAX_MEMBERS: u32 = 100;

/// A team's name as typed: trimmed, its inner spaces collapsed, 1 to
/// [`MAX_NAME_CHARS`] letters, digits, spaces and `-_.'`. Names are
/// unique on a server whatever their case ([`TeamName::key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamName(String);

/// Why a text is not a team name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeamNameError {
    #[error("a team needs a name")]
    Empty,
    #[error("a team name has at most {MAX_NAME_CHARS} characters")]
    TooLong,
    #[error("a team name has letters, digits, spaces and - _ . ' only")]
    BadCharacter,
}

impl TeamName {
    pub fn parse(text: &str) -> Result<TeamName, TeamNameError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let name = words.join(" ");
        if name.is_empty() {
            return Err(TeamNameError::Empty);
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(TeamNameError::TooLong);
        }
        let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '\'');
        if !name.chars().all(allowed) {
            return Err(TeamNameError::BadCharacter);
        }
        Ok(TeamName(name))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What two names that differ only in case share: the key a server's
    /// team names are unique by.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// The most boards a team match may have (two games each).
pub const MAX_MATCH_BOARDS: u32 = 50;

/// A side of a team match: the team that proposed it (its games live in
/// its channel) or the team challenged.
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
#[strum(serialize_all = "lowercase")]
pub enum MatchSide {
    Home,
    Away,
}

impl MatchSide {
    pub fn other(self) -> MatchSide {
        match self {
            MatchSide::Home => MatchSide::Away,
            MatchSide::Away => MatchSide::Home,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_bounded_and_keyed_by_case() {
        let name = TeamName::parse("  Les   Tours ").unwrap();
        assert_eq!(name.as_str(), "Les Tours");
        assert_eq!(name.key(), "les tours");
        assert_eq!(
            TeamName::parse("ÉCHECS").unwrap().key(),
            TeamName::parse("échecs").unwrap().key()
        );
        assert_eq!(TeamName::parse(" "), Err(TeamNameError::Empty));
        assert_eq!(
            TeamName::parse(&"a".repeat(MAX_NAME_CHARS + 1)),
            Err(TeamNameError::TooLong)
        );
        for bad in ["@rooks", "a:b", "<b>", "x\u{200b}y", "tab\u{7}"] {
            assert_eq!(
                TeamName::parse(bad),
                Err(TeamNameError::BadCharacter),
                "{bad}"
            );
        }
    }
}
