//! 500 real games from lichess's open database (`tests/data/lichess/`,
//! CC0), every move typed by English, French and German players in their
//! own notation's SAN: with `auto` (every reading tried) and with their
//! notation set (`/settings notation`). No move may ever be misread; a
//! player who set their notation is never asked either. The test prints
//! how often each kind of player is asked.
//!
//! `tests/service_notation.rs` replays the same games through the service.

#[path = "common/lichess.rs"]
mod lichess;

use lichess::Game;
use pawnpost::core::notation::{
    Lang, Letters, MoveInputError, Reader, Style, parse_move, write_san,
};

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
