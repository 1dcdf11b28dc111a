//! Letters whose meaning a player has settled: by saying which notation
//! they write (`/settings notation french`), or by answering which reading
//! of a letter they meant when asked.
//!
//! A settled letter is read one way only for that player: French `R` is
//! the king, never the English rook nor a capitalised file. Letters left
//! unsettled are read in every way, as for anyone (see the module above).

use shakmaty::Role;

use super::Lang;
use super::letters::role_letter;

/// What each Latin capital letter means for one player, where settled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Letters {
    /// Indexed by letter, `A` to `Z`.
    roles: [Option<Role>; 26],
}

impl Letters {
    /// The letters of `lang`'s notation, each its piece. German `B`
    /// (Bauer) is left out: German SAN writes pawn moves without a letter,
    /// so a German player's `B` is the English bishop or the b-file, asked
    /// about as for anyone. Russian letters are Cyrillic: nothing to settle.
    pub fn of_notation(lang: Lang) -> Letters {
        let mut letters = Letters::default();
        for letter in 'A'..='Z' {
            let role = role_letter(letter, lang);
            let bauer = lang == Lang::De && role == Some(Role::Pawn);
            if let Some(role) = role.filter(|_| !bauer) {
                letters = letters.with(letter, role);
            }
        }
        letters
    }

    /// The piece `letter` (either case) names for this player, if settled.
    pub fn get(&self, letter: char) -> Option<Role> {
        index(letter).and_then(|i| self.roles[i])
    }

    /// These letters with `letter` settled as `role` (a letter that is no
    /// Latin letter changes nothing).
    pub fn with(mut self, letter: char, role: Role) -> Letters {
        if let Some(i) = index(letter) {
            self.roles[i] = Some(role);
        }
        self
    }

    /// These letters, and `other`'s where these settle nothing.
    pub fn or(mut self, other: Letters) -> Letters {
        for (mine, theirs) in self.roles.iter_mut().zip(other.roles) {
            *mine = mine.or(theirs);
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.roles.iter().all(Option::is_none)
    }

    /// Whether a reading that took `letter` as `role` (`None`: as a file)
    /// agrees with these letters.
    pub(super) fn admits(&self, letter: char, role: Option<Role>) -> bool {
        match self.get(letter) {
            None => true,
            Some(settled) => role == Some(settled),
        }
    }

    /// The stored form: `B=bishop,R=rook`, in letter order; empty when
    /// nothing is settled.
    pub fn to_text(&self) -> String {
        let mut parts = Vec::new();
        for (letter, role) in ('A'..='Z').zip(self.roles) {
            if let Some(role) = role {
                parts.push(format!("{letter}={}", role_name(role)));
            }
        }
        parts.join(",")
    }

    /// Reads [`Letters::to_text`]'s form; `None` if it is not that.
    pub fn from_text(text: &str) -> Option<Letters> {
        let mut letters = Letters::default();
        for part in text.split(',').filter(|part| !part.is_empty()) {
            let (letter, name) = part.split_once('=')?;
            let mut chars = letter.chars();
            let (Some(letter), None) = (chars.next(), chars.next()) else {
                return None;
            };
            index(letter)?;
            letters = letters.with(letter, role_from_name(name)?);
        }
        Some(letters)
    }
}

fn index(letter: char) -> Option<usize> {
    let upper = letter.to_ascii_uppercase();
    upper
        .is_ascii_uppercase()
        .then(|| usize::from(upper as u8 - b'A'))
}

/// The stored name of a piece.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn role_from_name(name: &str) -> Option<Role> {
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ]
    .into_iter()
    .find(|role| role_name(*role) == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_notation_settles_its_own_letters() {
        let french = Letters::of_notation(Lang::Fr);
        assert_eq!(french.get('R'), Some(Role::King));
        assert_eq!(french.get('r'), Some(Role::King));
        assert_eq!(french.get('C'), Some(Role::Knight));
        assert_eq!(french.get('N'), None);
        let english = Letters::of_notation(Lang::En);
        assert_eq!(english.get('R'), Some(Role::Rook));
        assert_eq!(english.get('B'), Some(Role::Bishop));
        let german = Letters::of_notation(Lang::De);
        assert_eq!(german.get('L'), Some(Role::Bishop));
        assert_eq!(german.get('B'), None, "Bauer is never settled");
        assert!(Letters::of_notation(Lang::Ru).is_empty());
    }

    #[test]
    fn letters_are_stored_as_text_and_read_back() {
        let letters = Letters::default()
            .with('r', Role::Rook)
            .with('B', Role::Bishop);
        assert_eq!(letters.to_text(), "B=bishop,R=rook");
        assert_eq!(Letters::from_text(&letters.to_text()), Some(letters));
        assert_eq!(Letters::from_text(""), Some(Letters::default()));
        for broken in ["R", "R=", "RR=rook", "1=rook", "R=roi"] {
            assert_eq!(Letters::from_text(broken), None, "{broken}");
        }
        for lang in Lang::ALL {
            let settled = Letters::of_notation(lang);
            assert_eq!(Letters::from_text(&settled.to_text()), Some(settled));
        }
    }

    #[test]
    fn a_notation_wins_over_answers() {
        let answers = Letters::default()
            .with('R', Role::Rook)
            .with('B', Role::Bishop);
        let both = Letters::of_notation(Lang::Fr).or(answers);
        assert_eq!(both.get('R'), Some(Role::King));
        assert_eq!(both.get('B'), Some(Role::Bishop));
        assert!(both.admits('B', Some(Role::Bishop)));
        assert!(!both.admits('B', None), "no longer a file");
        assert!(both.admits('Q', Some(Role::Queen)), "unsettled");
    }
}
