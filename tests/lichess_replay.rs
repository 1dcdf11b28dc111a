//! 500 real games from lichess's open database (`tests/data/lichess/`,
//! CC0), every move typed by English, French and German players in their
//! own notation's SAN: with `auto` (every reading tried) and with their
//! notation set (`/settings notation`). No move may ever be misread; a
//! player who set their notation is never asked either. The test prints
//! how often each kind of player is asked. Over the same positions, every
//! move the bot would suggest (hints, autocomplete) is written as a text
//! with one reading for the player it is written for.
//!
//! `tests/service_notation.rs` replays the same games through the service.

#[path = "common/lichess.rs"]
mod lichess;

use lichess::Game;
use pawnpost::core::notation::{
    Lang, Letters, MoveInputError, Reader, Style, parse_move, write_san, write_unmistakable,
};
use shakmaty::{Position, Role};

/// A player: the notation they write, and whether they said so.
#[derive(Clone, Copy, Debug)]
struct Player {
    lang: Lang,
    set: bool,
}

impl Player {
    fn reader(self) -> Reader {
        let reader = Reader::speaking(self.lang);
        if self.set {
            reader.settled(Letters::of_notation(self.lang))
        } else {
            reader
        }
    }
}

#[derive(Debug, Default)]
struct Count {
    plies: usize,
    asked: usize,
    games_asked: usize,
    misread: Vec<String>,
    examples: Vec<String>,
}

fn replay(games: &[Game], player: Player) -> Count {
    let reader = player.reader();
    let style = Style::of_notation(player.lang);
    let mut count = Count::default();
    for Game { site, plies } in games {
        let asked_before = count.asked;
        for (pos, m) in plies {
            count.plies += 1;
            let text = write_san(pos, *m, style);
            match parse_move(pos, &text, &reader) {
                Ok(got) if got == *m => {}
                Err(MoveInputError::Ambiguous { candidates }) if candidates.contains(m) => {
                    count.asked += 1;
                    if count.examples.len() < 3 {
                        count.examples.push(format!("{text} in {site}"));
                    }
                }
                other => count.misread.push(format!("{site}: {text}: {other:?}")),
            }
        }
        count.games_asked += usize::from(count.asked > asked_before);
    }
    count
}

#[test]
fn real_games_are_never_misread_and_set_notations_are_never_asked() {
    let games = lichess::games();
    assert_eq!(games.len(), 500, "every game of the file");
    let mut failures = Vec::new();
    for lang in [Lang::En, Lang::Fr, Lang::De] {
        for set in [false, true] {
            let player = Player { lang, set };
            let count = replay(&games, player);
            println!(
                "{lang:?} player, notation {}: {} plies, asked {} times in {} games, misread {}",
                if set { "set" } else { "auto" },
                count.plies,
                count.asked,
                count.games_asked,
                count.misread.len()
            );
            for example in &count.examples {
                println!("    e.g. {example}");
            }
            failures.extend(count.misread.iter().take(5).cloned());
            if set {
                assert_eq!(count.asked, 0, "{player:?}: {:?}", count.examples);
            }
        }
    }
    assert!(failures.is_empty(), "misread:\n{}", failures.join("\n"));
}

/// Every kind of player the bot writes suggestions for: each language
/// with `auto` and with its notation set, and players whose answers
/// settled a letter either way (`R` the rook, `R` the king, `B` the bishop).
fn suggested_to() -> Vec<(Reader, Style)> {
    let mut players = Vec::new();
    for lang in [Lang::En, Lang::Fr, Lang::De] {
        players.push((Reader::speaking(lang), Style::for_lang(lang)));
        let set = Player { lang, set: true };
        players.push((set.reader(), Style::of_notation(lang)));
    }
    for (letter, role) in [('R', Role::Rook), ('R', Role::King), ('B', Role::Bishop)] {
        let answered = Letters::default().with(letter, role);
        players.push((Reader::speaking(Lang::En).settled(answered), Style::English));
        players.push((Reader::speaking(Lang::Fr).settled(answered), Style::French));
    }
    players
}

/// Hints and autocomplete write moves with `write_unmistakable`: over the
/// positions of the real games (every legal move of every `STEP`th
/// position, a debug build's minute), each text reads back, for the player
/// it was written for, as that move and nothing else.
#[test]
fn suggestions_in_real_positions_have_one_reading() {
    const STEP: usize = 10;
    let players = suggested_to();
    let (mut positions, mut texts) = (0, 0);
    let mut failures = Vec::new();
    for Game { site, plies } in &lichess::games() {
        for (pos, _) in plies.iter().step_by(STEP) {
            positions += 1;
            for (reader, style) in &players {
                for m in pos.legal_moves() {
                    texts += 1;
                    let text = write_unmistakable(pos, m, *style, reader);
                    let read = parse_move(pos, &text, reader);
                    if read != Ok(m) && failures.len() < 10 {
                        failures.push(format!("{site}: {text} for {reader:?}: {read:?}"));
                    }
                }
            }
        }
    }
    println!(
        "{positions} positions, {texts} suggested texts, {} read otherwise",
        failures.len()
    );
    assert!(positions > 2_900, "{positions}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
