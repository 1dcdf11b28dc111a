//! Round robin by Berger tables (FIDE Handbook C.05, annex 1), and the
//! Scheveningen system, where each player meets every player of the other team.
//!
//! Players are numbers `0..n` in seeding order; a round is a list of
//! `(white, black)` with `black == None` for the player who sits out
//! (odd counts get a dummy, as the tables do).

/// One pairing of a schedule: White, and Black or `None` for a bye.
pub type Seat = (usize, Option<usize>);

/// The rounds of a round robin for `n` players, played `cycles` times; in
/// the second cycle the colours are reversed (C.05: double round robin).
pub fn berger(n: usize, cycles: usize) -> Vec<Vec<Seat>> {
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2; // with the dummy
    let rounds = m - 1;
    let half = m / 2;
    // Table numbers 1..=m; number m is the fixed one.
    let mut row: Vec<(usize, usize)> = (1..=half).map(|k| (k, m + 1 - k)).collect();
    let mut single = Vec::with_capacity(rounds);
    for round in 1..=rounds {
        let mut seats = Vec::with_capacity(half);
        for &(a, b) in &row {
            // The fixed number changes colour every round: Black in odd rounds.
            let (white, black) = if b == m && round % 2 == 0 {
                (b, a)
            } else {
                (a, b)
            };
            seats.push(seat(white - 1, black - 1, n));
        }
        single.push(seats);
        row = row
            .iter()
            .map(|&(a, b)| (rotate(a, m, half), rotate(b, m, half)))
            .collect();
    }
    let mut all = Vec::with_capacity(rounds * cycles);
    for cycle in 0..cycles {
        for round in &single {
            all.push(
                round
                    .iter()
                    .map(|&(w, b)| match (cycle % 2, b) {
                        (1, Some(b)) => (b, Some(w)),
                        _ => (w, b),
                    })
                    .collect(),
            );
        }
    }
    all
}

/// The next round's table number: every number but the fixed one moves on by n/2.
fn rotate(x: usize, m: usize, half: usize) -> usize {
    if x == m {
        m
    } else {
        (x - 1 + half) % (m - 1) + 1
    }
}

/// A pairing of table numbers (0-based); the dummy `n` makes a bye.
fn seat(white: usize, black: usize, n: usize) -> Seat {
    match (white == n, black == n) {
        (true, _) => (black, None),
        (_, true) => (white, None),
        _ => (white, Some(black)),
    }
}

/// Scheveningen: team A (numbers `0..k`) against team B (`k..2k`); in round
/// `r` board `j` pairs A's `j` with B's `(j + r) mod k`, colours set by the
/// pair so that each player's differ by at most one.
pub fn scheveningen(k: usize) -> Vec<Vec<Seat>> {
    (0..k)
        .map(|r| {
            (0..k)
                .map(|j| {
                    let b = (j + r) % k;
                    // By the pair, not the round: each side of a player's
                    // k games then splits evenly (within one) over the colours.
                    if (j + b).is_multiple_of(2) {
                        (j, Some(k + b))
                    } else {
                        (k + b, Some(j))
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Checks every pair meets `cycles` times, colours within one, one bye per round at most.
    fn check(n: usize, cycles: usize) {
        let rounds = berger(n, cycles);
        let expected_rounds = (n + n % 2 - 1) * cycles;
        assert_eq!(rounds.len(), expected_rounds, "n={n}");
        let mut meetings: HashMap<(usize, usize), usize> = HashMap::new();
        let mut whites = vec![0i32; n];
        let mut blacks = vec![0i32; n];
        let mut byes = vec![0usize; n];
        for round in &rounds {
            let mut seen = vec![false; n];
            for &(w, b) in round {
                assert!(!seen[w], "n={n}: {w} twice in a round");
                seen[w] = true;
                match b {
                    None => byes[w] += 1,
                    Some(b) => {
                        assert!(!seen[b]);
                        seen[b] = true;
                        *meetings.entry((w.min(b), w.max(b))).or_default() += 1;
                        whites[w] += 1;
                        blacks[b] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|s| *s), "n={n}: everyone is seated");
        }
        for a in 0..n {
            for b in a + 1..n {
                assert_eq!(meetings.get(&(a, b)), Some(&cycles), "n={n}: {a}-{b}");
            }
            assert!(
                (whites[a] - blacks[a]).abs() <= 1,
                "n={n} cycles={cycles}: player {a} has {} white, {} black",
                whites[a],
                blacks[a]
            );
            assert_eq!(byes[a], (n % 2) * cycles, "n={n}: byes of {a}");
        }
    }

    #[test]
    fn every_pair_meets_once_with_balanced_colours() {
        for n in 3..=16 {
            check(n, 1);
        }
    }

    #[test]
    fn double_round_robin_meets_twice_with_colours_reversed() {
        for n in 3..=16 {
            check(n, 2);
        }
    }

    #[test]
    fn the_first_rounds_are_fides_berger_table_for_four() {
        // C.05 annex 1, 3 or 4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
        let rounds = berger(4, 1);
        assert_eq!(rounds[0], vec![(0, Some(3)), (1, Some(2))]);
        assert_eq!(rounds[1], vec![(3, Some(2)), (0, Some(1))]);
        assert_eq!(rounds[2], vec![(1, Some(3)), (2, Some(0))]);
    }

    #[test]
    fn scheveningen_meets_every_opponent_once() {
        for k in 1..=8 {
            let rounds = scheveningen(k);
            let mut met = vec![vec![0; 2 * k]; 2 * k];
            let mut balance = vec![0i32; 2 * k];
            for round in &rounds {
                for &(w, b) in round {
                    let b = b.expect("no byes");
                    assert!((w < k) != (b < k), "teams never meet themselves");
                    met[w][b] += 1;
                    met[b][w] += 1;
                    balance[w] += 1;
                    balance[b] -= 1;
                }
            }
            for row in met.iter().take(k) {
                assert!(row[k..].iter().all(|&times| times == 1));
            }
            assert!(balance.iter().all(|d| d.abs() <= 1), "k={k}: {balance:?}");
        }
    }
}
