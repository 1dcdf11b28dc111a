//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), applied
//! after every rated game as lichess does: instead of waiting for a rating
//! period to close, each game is rated at once. The deviation first grows
//! with the (fractional) number of periods since the player's last rated
//! game (ageing, also applied whenever a rating is shown); the game itself
//! then adds no growth of its own. Glickman's step 6 would add one more
//! period's growth per game, so k games in a day would age a rating k times.

use serde::{Deserialize, Serialize};

/// The Glicko-2 scale factor between Glicko and Glicko-2 units.
const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// How ratings are computed on a server.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingSettings {
    pub initial_rating: f64,
    pub initial_deviation: f64,
    pub initial_volatility: f64,
    /// The system constant τ: how fast volatility may change.
    pub tau: f64,
    /// The deviation never goes below this (lichess: 45) ...
    pub min_deviation: f64,
    /// ... nor above this (lichess: 500).
    pub max_deviation: f64,
    /// Volatility is capped (lichess: 0.1) so one odd result cannot unsettle a rating.
    pub max_volatility: f64,
    /// Rating periods per day of inactivity (lichess: 0.21436).
    pub periods_per_day: f64,
    /// A rating is provisional while its deviation is above this (lichess: 110).
    pub provisional_deviation: f64,
}

impl Default for RatingSettings {
    fn default() -> RatingSettings {
        RatingSettings {
            initial_rating: 1500.0,
            initial_deviation: 500.0,
            initial_volatility: 0.09,
            tau: 0.75,
            min_deviation: 45.0,
            max_deviation: 500.0,
            max_volatility: 0.1,
            periods_per_day: 0.21436,
            provisional_deviation: 110.0,
        }
    }
}

/// A player's rating, in Glicko units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    pub fn initial(settings: &RatingSettings) -> Rating {
        Rating {
            rating: settings.initial_rating,
            deviation: settings.initial_deviation,
            volatility: settings.initial_volatility,
        }
    }

    pub fn is_provisional(&self, settings: &RatingSettings) -> bool {
        self.deviation > settings.provisional_deviation
    }

    /// The deviation after `days` without a rated game (step 6 of the
    /// paper, for a fractional number of periods), capped.
    pub fn aged(&self, days: f64, settings: &RatingSettings) -> Rating {
        let periods = (days * settings.periods_per_day).max(0.0);
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.clamp(settings.min_deviation, settings.max_deviation),
            ..*self
        }
    }
}

/// A game's outcome for the player being rated: 1, ½ or 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opposition {
    pub opponent: Rating,
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// One rating period of the paper's algorithm (steps 2 to 8), unclamped.
pub fn rate_period(player: Rating, games: &[Opposition], tau: f64) -> Rating {
    rate(player, games, tau, 1.0)
}

/// Steps 2 to 8 with `growth` periods of step 6's growth before the
/// results are taken in: 1 in the paper; 0 when the deviation was already
/// aged for the time since the last game, as lichess rates each game.
fn rate(player: Rating, games: &[Opposition], tau: f64, growth: f64) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + growth * sigma * sigma).sqrt();
        return Rating {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        let g_j = g(phi_j);
        v_inv += g_j * g_j * e * (1.0 - e);
        delta_sum += g_j * (game.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    let sigma_new = new_volatility(phi, sigma, v, delta, tau);
    let phi_star = (phi * phi + growth * sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Rating {
        rating: mu_new * SCALE + 1500.0,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    }
}

/// Step 5: the Illinois algorithm for the new volatility.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - d) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    let mut guard = 0;
    while (big_b - big_a).abs() > EPSILON && guard < 1000 {
        guard += 1;
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// Both players' ratings after one rated game, lichess style: each
/// deviation first aged by the days since that player's last rated game,
/// then this single game taken in with no further growth, then clamped.
pub fn rate_game(
    white: (Rating, f64),
    black: (Rating, f64),
    white_score: f64,
    settings: &RatingSettings,
) -> (Rating, Rating) {
    let w = white.0.aged(white.1, settings);
    let b = black.0.aged(black.1, settings);
    let new_w = rate(
        w,
        &[Opposition {
            opponent: b,
            score: white_score,
        }],
        settings.tau,
        0.0,
    );
    let new_b = rate(
        b,
        &[Opposition {
            opponent: w,
            score: 1.0 - white_score,
        }],
        settings.tau,
        0.0,
    );
    (clamp(new_w, settings), clamp(new_b, settings))
}

fn clamp(rating: Rating, settings: &RatingSettings) -> Rating {
    Rating {
        rating: rating.rating,
        deviation: rating
            .deviation
            .clamp(settings.min_deviation, settings.max_deviation),
        volatility: rating.volatility.min(settings.max_volatility),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // The paper's example: τ = 0.5, a 1500/200/0.06 player against three opponents.
        let games = [
            Opposition {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Opposition {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Opposition {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = rate_period(r(1500.0, 200.0), &games, 0.5);
        // The paper rounds its intermediate values (μ' = -0.2069) and prints
        // 1464.06; unrounded arithmetic gives 1464.0507: within 0.01 either way.
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_grows_the_deviation() {
        let after = rate_period(r(1500.0, 200.0), &[], 0.5);
        assert_eq!(after.rating, 1500.0);
        assert!(after.deviation > 200.0);
    }

    #[test]
    fn a_game_moves_ratings_apart_and_deviations_down() {
        let settings = RatingSettings::default();
        let start = Rating::initial(&settings);
        let (w, b) = rate_game((start, 0.0), (start, 0.0), 1.0, &settings);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!(
            (w.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-6,
            "symmetric"
        );
        assert!(w.deviation < 500.0 && w.is_provisional(&settings));
        let (w2, b2) = rate_game((start, 0.0), (start, 0.0), 0.5, &settings);
        assert!((w2.rating - 1500.0).abs() < 1e-9 && (b2.rating - 1500.0).abs() < 1e-9);
    }

    /// 200 games rated by an independent script written from the lichess
    /// procedure (tests/fixtures/glicko/lichess_style.py): every rating,
    /// deviation and volatility agrees within 0.01.
    #[test]
    fn a_game_sequence_matches_the_lichess_style_reference() {
        let settings = RatingSettings::default();
        let reference = include_str!("../../tests/fixtures/glicko/lichess_style.csv");
        let mut players = [(Rating::initial(&settings), None::<f64>); 8];
        for line in reference.lines().skip(1) {
            let f: Vec<f64> = line
                .split(',')
                .map(|x| x.parse().expect("number"))
                .collect();
            let (day, w, b, score) = (f[0], f[1] as usize, f[2] as usize, f[3]);
            let idle = |p: (Rating, Option<f64>)| p.1.map_or(0.0, |last| day - last);
            let (new_w, new_b) = rate_game(
                (players[w].0, idle(players[w])),
                (players[b].0, idle(players[b])),
                score,
                &settings,
            );
            for (got, want) in [(new_w, &f[4..7]), (new_b, &f[7..10])] {
                let got = [got.rating, got.deviation, got.volatility];
                for (g, w) in got.iter().zip(want) {
                    assert!((g - w).abs() < 0.01, "day {day}: {got:?} against {want:?}");
                }
            }
            players[w] = (new_w, Some(day));
            players[b] = (new_b, Some(day));
        }
    }

    #[test]
    fn one_game_adds_no_growth_beyond_ageing() {
        // Two games on the same day shrink the deviation twice; Glickman's
        // step 6 on top would have grown it before each.
        let settings = RatingSettings::default();
        let settled = Rating {
            rating: 1500.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let (after, _) = rate_game((settled, 0.0), (settled, 0.0), 0.5, &settings);
        assert!(after.deviation < 60.0, "{after:?}");
        let paper = rate_period(
            settled,
            &[Opposition {
                opponent: settled,
                score: 0.5,
            }],
            settings.tau,
        );
        assert!(paper.deviation > after.deviation);
    }

    #[test]
    fn deviation_grows_with_idle_days_within_bounds() {
        let settings = RatingSettings::default();
        let settled = Rating {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        let later = settled.aged(365.0, &settings);
        assert!(later.deviation > 50.0 && later.deviation <= 500.0);
        let floor = Rating {
            deviation: 10.0,
            ..settled
        };
        assert_eq!(floor.aged(0.0, &settings).deviation, 45.0);
    }
}
