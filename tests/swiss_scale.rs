//! Swiss events past the old 128-player wall (issue 42): 129, 200, 500 and
//! 1,000 players, each round paired by the Dutch system from the rounds
//! before it and checked: everyone paired once or given the bye, one bye
//! at most and never twice to a player, no rematch, and before the last
//! round no colour difference beyond two nor a colour three times running.
//! The time and memory of each round are the benchmark's
//! (`cargo bench --bench swiss_pairing`).

#[path = "common/swiss_events.rs"]
mod swiss_events;

fn every_round_is_paired(players: usize, rounds: u32, seed: u64) {
    let mut paired = 0;
    swiss_events::play(players, rounds, seed, |report| {
        assert_eq!(report.byes, players % 2, "round {}", report.round);
        paired += 1;
    })
    .unwrap_or_else(|why| panic!("{players} players: {why}"));
    assert_eq!(paired, rounds);
}

#[test]
fn a_swiss_of_129_players_pairs_every_round() {
    every_round_is_paired(129, 9, 1);
    every_round_is_paired(129, 12, 2);
}

#[test]
fn a_swiss_of_200_players_pairs_every_round() {
    every_round_is_paired(200, 9, 3);
}

#[test]
fn a_swiss_of_500_players_pairs_every_round() {
    every_round_is_paired(500, 10, 4);
}

#[test]
fn a_swiss_of_1000_players_pairs_every_round() {
    every_round_is_paired(1000, 11, 5);
}
