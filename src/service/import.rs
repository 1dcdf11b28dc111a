//! `pawnpost import`: the finished games of a PGN file (another site's
//! export, or our own) stored as games of one channel, unrated.
//!
//! Players are named by the record (`White`, `Black`): on the target
//! platform, a player whose id is that name (on the console, the name
//! people type). Each game is keyed on its record, so importing a file again
//! adds only the games it did not hold before. An unfinished game is not
//! imported: its players continue it in chat (`/challenge @opponent pgn:…`),
//! both agreeing.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::Service;
use super::games::to_rows;
use crate::core::game::{DrawRules, PlayerId, Players, SetupError, Status};
use crate::core::names::Named;
use crate::core::pgn::{self, PgnError, RecordedGame};
use crate::core::platform::Platform;
use crate::storage::{Commit, GameHistory, NewGame, ServerDefaults, StorageError};

/// Where imported games go.
#[derive(Clone, Debug)]
pub struct ImportTarget {
    pub platform: Platform,
    /// The platform's id of the server (community) and of its channel.
    pub server: String,
    pub channel: String,
}

/// What became of one game of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportOutcome {
    /// Stored under this game number.
    Imported {
        game: i64,
    },
    /// An earlier import stored it already.
    AlreadyThere,
    /// Still going on: to be continued in chat, not imported.
    Unfinished,
    Refused(PgnError),
}

/// One game of the file, in the file's order (numbered from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedGame {
    pub number: usize,
    pub white: String,
    pub black: String,
    /// Variations in the record that were left out.
    pub skipped_variations: u32,
    pub outcome: ImportOutcome,
}

impl Service {
    /// Stores the finished games of `text` in `target`'s channel.
    pub async fn import_games(
        &self,
        target: &ImportTarget,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<ImportedGame>, StorageError> {
        let defaults = ServerDefaults {
            time_control: self.config.default_time_control.clone(),
        };
        let server = self
            .store
            .ensure_server(target.platform, &target.server, &defaults, now)
            .await?;
        let channel = self
            .store
            .ensure_channel(server.id, &target.channel)
            .await?;
        let mut report = Vec::new();
        for (index, read) in pgn::games(text).enumerate() {
            let number = index + 1;
            let recorded = match read {
                Ok(recorded) => recorded,
                Err(error) => {
                    report.push(ImportedGame {
                        number,
                        white: String::new(),
                        black: String::new(),
                        skipped_variations: 0,
                        outcome: ImportOutcome::Refused(error),
                    });
                    continue;
                }
            };
            let tags = recorded.tags();
            let (white, black) = (
                player_name(&tags.white, "White"),
                player_name(&tags.black, "Black"),
            );
            let outcome = self
                .import_one(
                    target,
                    server.id,
                    channel.id,
                    &recorded,
                    (&white, &black),
                    now,
                )
                .await?;
            report.push(ImportedGame {
                number,
                white,
                black,
                skipped_variations: recorded.skipped_variations(),
                outcome,
            });
        }
        Ok(report)
    }

    async fn import_one(
        &self,
        target: &ImportTarget,
        server_id: i64,
        channel_id: i64,
        recorded: &RecordedGame,
        (white, black): (&str, &str),
        now: DateTime<Utc>,
    ) -> Result<ImportOutcome, StorageError> {
        if white == black {
            return Ok(ImportOutcome::Refused(PgnError::Setup(
                SetupError::SamePlayer,
            )));
        }
        // Played out before any player row is written: a refused or
        // unfinished record leaves the database as it was.
        let stand_ins = Players {
            white: PlayerId(1),
            black: PlayerId(2),
        };
        let game = match recorded.play(stand_ins, now) {
            Ok(game) => game,
            Err(error) => return Ok(ImportOutcome::Refused(error)),
        };
        let Status::Over { result, reason, at } = game.status() else {
            return Ok(ImportOutcome::Unfinished);
        };
        let white = self
            .store
            .ensure_player(target.platform, white, white, now)
            .await?;
        let black = self
            .store
            .ensure_player(target.platform, black, black, now)
            .await?;
        let time_control = recorded
            .tags()
            .time_control
            .map_or_else(|| "none".to_owned(), |control| control.to_string());
        let new_game = NewGame {
            server_id,
            channel_id,
            white: white.id,
            black: black.id,
            variant: game.variant(),
            start_fen: game.start_fen().map(str::to_owned),
            time_control,
            rated: false,
            draw_rules: DrawRules::default(),
            turn: game.turn(),
            challenge_id: None,
            clock: None,
            remind_at: None,
            history: Some(Box::new(GameHistory {
                started_at: game.started_at(),
                moves: to_rows(&game, 0),
                notes: game.notes().to_vec(),
                ending: Some((result, reason, at)),
            })),
        };
        let commit = Commit {
            act_key: Some(import_key(target, recorded)),
            new_game: Some(new_game),
            ..Commit::default()
        };
        match self.store.commit(commit, now, |done| done.game_id).await {
            Ok((_, id)) => Ok(ImportOutcome::Imported {
                game: id.unwrap_or_default(),
            }),
            Err(StorageError::DuplicateAct(_)) => Ok(ImportOutcome::AlreadyThere),
            Err(error) => Err(error),
        }
    }
}

/// A record's player name, or the side's name when the record has none.
/// A record is not refused for its names: what would hide or turn text
/// around is dropped, and the name bounded like a platform's.
fn player_name(tag: &str, side: &str) -> String {
    let name: String = crate::core::hidden::strip(tag)
        .chars()
        .take(crate::core::command::MAX_USER_REF)
        .collect();
    match name.trim() {
        "" | "?" => side.to_owned(),
        name => name.to_owned(),
    }
}

/// The act key of a record imported into a platform's channel.
fn import_key(target: &ImportTarget, recorded: &RecordedGame) -> String {
    let mut hash = Sha256::new();
    for part in [target.platform.as_str(), &target.server, &target.channel] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.update(recorded.fingerprint().as_bytes());
    let digest = hash.finalize();
    // 128 bits are plenty to tell records apart.
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("import:{hex}")
}

#[cfg(test)]
mod tests {
    use super::player_name;

    /// A record's names as the bot shows them: markup kept (each adapter
    /// escapes it), what hides text dropped, the length bounded.
    #[test]
    fn imported_names_lose_what_hides_text() {
        let long = "x".repeat(300);
        let kept = "x".repeat(100);
        let cases: &[(&str, &str)] = &[
            ("Carlsen, Magnus", "Carlsen, Magnus"),
            ("<@&1234> **x** \u{202E}evil", "<@&1234> **x** evil"),
            ("al\u{200B}ice\u{FEFF}", "alice"),
            ("\u{200B}", "White"),
            (" ? ", "White"),
            (&long, &kept),
        ];
        for &(tag, shown) in cases {
            assert_eq!(player_name(tag, "White"), shown, "{tag:?}");
        }
    }
}
