#![no_main]
//! Any bytes, read as a command line (from the console or a Matrix message)
//! and followed into the pure parsers the service applies to what parsed:
//! time controls, a challenge's FEN, move text.

use chrono::DateTime;
use libfuzzer_sys::fuzz_target;
use pawnpost::adapters::matrix::commands::{command_text, matrix_hints};
use pawnpost::core::clock::TimeControl;
use pawnpost::core::command::{self, Command, NewTournamentWish, TournamentCommand};
use pawnpost::core::game::{DrawRules, Game, PlayerId, Players};
use pawnpost::core::notation::{Lang, Reader, parse_move};
use shakmaty::Chess;

const PLAYERS: Players = Players {
    white: PlayerId(1),
    black: PlayerId(2),
};

fn follow(command: &Command) {
    match command {
        Command::Challenge(command::ChallengeCommand::Offer(wish)) => {
            let (fen, time_control) = (&wish.fen, &wish.time_control);
            if let Some(control) = time_control {
                let _ = control.parse::<TimeControl>();
            }
            if let Some(fen) = fen {
                let _ = Game::new(
                    PLAYERS,
                    Some(fen),
                    DrawRules::default(),
                    DateTime::UNIX_EPOCH,
                );
            }
        }
        Command::Move { text, .. }
        | Command::Claim {
            with_move: Some(text),
            ..
        } => {
            let _ = parse_move(&Chess::default(), text, &Reader::unknown(&Lang::ALL));
        }
        Command::Tournament(TournamentCommand::Create(NewTournamentWish {
            time_control: Some(control),
            ..
        })) => {
            let _ = control.parse::<TimeControl>();
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(command) = command::parse(&text) {
        follow(&command);
    }
    // The same bytes as a Matrix message to the bot.
    if let Some(line) = command_text(&text, "!chess")
        && let Ok(command) = command::parse(&line)
    {
        follow(&command);
    }
    let _ = matrix_hints(&text, "!échecs");
});
