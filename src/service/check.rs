//! `pawnpost check`'s replay: every stored game is read and rebuilt as an
//! act would load it ([`games::try_restore`], which replays its moves from
//! its start through shakmaty), so a move the rules refuse is found before
//! a player meets the "damaged" refusal. Games are read a page at a time:
//! memory stays that of one page however many games the database holds.

use super::games;
use crate::core::game::RestoreError;
use crate::storage::{PagedGame, StorageError, Store};

/// Games read at a time.
pub const CHECK_PAGE: usize = 200;

/// Problems listed in full; beyond, they are only counted.
const LISTED_PROBLEMS: usize = 1_000;

/// What the replay of every game found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameCheck {
    /// The games read.
    pub games: u64,
    /// One line per damaged game, in order of game (the first
    /// [`LISTED_PROBLEMS`]).
    pub problems: Vec<String>,
    /// Damaged games beyond those listed.
    pub unlisted: u64,
}

/// Reads and replays every game in `store`, `page` games at a time.
pub async fn check_games(store: &Store, page: usize) -> Result<GameCheck, StorageError> {
    let mut check = GameCheck::default();
    let mut after = 0;
    loop {
        let games = store.game_page(after, page.max(1)).await?;
        let Some(last) = games.last() else {
            return Ok(check);
        };
        after = last.id;
        check.games += games.len() as u64;
        for problem in games.into_iter().filter_map(problem_of) {
            if check.problems.len() < LISTED_PROBLEMS {
                check.problems.push(problem);
            } else {
                check.unlisted += 1;
            }
        }
    }
}

/// What is wrong with a game read for the check, if anything.
fn problem_of(game: PagedGame) -> Option<String> {
    let id = game.id;
    let record = match game.record {
        Ok(record) => record,
        // Its own words already name the game ("game 7 moves: …").
        Err(StorageError::Corrupt(problem)) => return Some(problem),
        Err(other) => return Some(format!("game {id}: {other}")),
    };
    match games::try_restore(&record).err()? {
        RestoreError::BadMove { ply, uci } => Some(format!(
            "game {id} ply {ply}: the stored move {uci} is not a legal move there"
        )),
        RestoreError::Setup(refused) => Some(format!(
            "game {id}: its start position is refused: {refused}"
        )),
    }
}
