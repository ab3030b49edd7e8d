//! Maximum-likelihood Elo ratings of several players from their games (the logistic
//! Bradley–Terry model that Ordo and BayesElo use): player i scores against j with expectation
//! 1 / (1 + 10^(−(r_i − r_j)/400)), a draw counting half a win and half a loss, and the ratings
//! maximise the likelihood of all the scores. One player, the anchor, is fixed at 0.
//!
//! The 95% interval of a rating is the profile-likelihood interval: the ratings x of that
//! player for which the likelihood, maximised over everybody else with the player fixed at x,
//! is within χ²₁(0.95)/2 = z²/2 ≈ 1.92 log-units of the maximum. With two players it is the
//! binomial likelihood-ratio interval carried to Elo.
//!
//! A player who won (or lost) every game against the rest has no finite maximum. `prior_draws`
//! adds that many virtual draws to every pairing that played (BayesElo's prior does the same);
//! with 0 such results are refused.

use crate::stats::wdl::Z95;
use std::collections::BTreeSet;

/// Elo per natural-log unit of the logistic: r = θ · 400 / ln 10.
const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;
/// Ratings further than this from the anchor count as infinite.
const ELO_LIMIT: f64 = 10_000.0;

/// Games between two players: `games` played, `score` of the first (draw = half).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    pub first: usize,
    pub second: usize,
    pub games: f64,
    pub score: f64,
}

/// A player's rating: estimate and 95% interval, in Elo relative to the anchor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Log-likelihood of the pairings at ratings θ (natural units).
fn log_likelihood(theta: &[f64], pairings: &[Pairing]) -> f64 {
    pairings
        .iter()
        .map(|p| {
            let d = theta[p.first] - theta[p.second];
            // ln σ(d) = −ln(1 + e^−d), written to stay finite for large |d|.
            let ln_win = -softplus(-d);
            let ln_loss = -softplus(d);
            p.score * ln_win + (p.games - p.score) * ln_loss
        })
        .sum()
}

fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// Maximises the likelihood over the players not in `fixed` (Newton's method with step
/// halving), starting from and writing to `theta`.
fn maximise(theta: &mut [f64], fixed: &[bool], pairings: &[Pairing]) {
    let free: Vec<usize> = (0..theta.len()).filter(|&i| !fixed[i]).collect();
    let index_of = |player: usize| free.iter().position(|&f| f == player);
    for _ in 0..200 {
        let n = free.len();
        let mut gradient = vec![0.0; n];
        let mut information = vec![vec![0.0; n]; n];
        for p in pairings {
            let expected = logistic(theta[p.first] - theta[p.second]);
            let weight = p.games * expected * (1.0 - expected);
            let residual = p.score - p.games * expected;
            let (a, b) = (index_of(p.first), index_of(p.second));
            if let Some(a) = a {
                gradient[a] += residual;
                information[a][a] += weight;
            }
            if let Some(b) = b {
                gradient[b] -= residual;
                information[b][b] += weight;
            }
            if let (Some(a), Some(b)) = (a, b) {
                information[a][b] -= weight;
                information[b][a] -= weight;
            }
        }
        let Some(step) = solve(information, gradient) else {
            return;
        };
        let before = log_likelihood(theta, pairings);
        let mut scale = 1.0;
        let start: Vec<f64> = theta.to_vec();
        loop {
            for (k, &player) in free.iter().enumerate() {
                theta[player] = start[player] + scale * step[k];
            }
            if log_likelihood(theta, pairings) >= before - 1e-12 || scale < 1e-6 {
                break;
            }
            scale /= 2.0;
        }
        let largest = step.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
        if largest < 1e-10
            || theta
                .iter()
                .any(|t| t.abs() * ELO_PER_UNIT > 4.0 * ELO_LIMIT)
        {
            return;
        }
    }
}

/// Solves A x = b by Gaussian elimination with partial pivoting (None when singular).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (offset, row) in lower.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (cell, pivot_cell) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *cell -= factor * pivot_cell;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// Players reachable from `start` along edges `edge(i, j)`.
fn reachable(players: usize, start: usize, edge: impl Fn(usize, usize) -> bool) -> BTreeSet<usize> {
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        for j in 0..players {
            if !seen.contains(&j) && edge(i, j) {
                seen.insert(j);
                stack.push(j);
            }
        }
    }
    seen
}

/// Ratings of `names.len()` players from their pairings, anchored at `anchor` = 0.
pub fn fit(
    names: &[String],
    pairings: &[Pairing],
    anchor: usize,
    prior_draws: f64,
) -> Result<Vec<Rating>, String> {
    let players = names.len();
    let mut data: Vec<Pairing> = pairings
        .iter()
        .filter(|p| p.games > 0.0)
        .map(|p| Pairing {
            games: p.games + prior_draws,
            score: p.score + prior_draws / 2.0,
            ..*p
        })
        .collect();
    data.retain(|p| p.first != p.second);
    let met = |i: usize, j: usize| {
        data.iter()
            .any(|p| (p.first == i && p.second == j) || (p.first == j && p.second == i))
    };
    let connected = reachable(players, anchor, met);
    if connected.len() < players {
        let missing: Vec<String> = (0..players)
            .filter(|i| !connected.contains(i))
            .map(|i| names[i].escape_debug().to_string())
            .collect();
        // Names come from the results file: escaped, so the error stays one line.
        return Err(format!(
            "no games link {} to the anchor {}",
            missing.join(", "),
            names[anchor].escape_debug()
        ));
    }
    // A finite maximum needs every player to have scored against, and conceded to, the rest:
    // the "scored against" graph must be strongly connected.
    let scored = |i: usize, j: usize| {
        data.iter().any(|p| {
            (p.first == i && p.second == j && p.score > 0.0)
                || (p.first == j && p.second == i && p.games - p.score > 0.0)
        })
    };
    let forward = reachable(players, anchor, scored);
    let backward = reachable(players, anchor, |i, j| scored(j, i));
    if forward.len() < players || backward.len() < players {
        // Escaped as above (a name with a line break, found by the fuzzer:
        // fuzz/regressions/ladder_results/player-name-with-line-break.jsonl).
        let lopsided: Vec<String> = (0..players)
            .filter(|i| !forward.contains(i) || !backward.contains(i))
            .map(|i| names[i].escape_debug().to_string())
            .collect();
        return Err(format!(
            "no finite maximum-likelihood ratings: {} won or lost every game against the rest \
             (add virtual draws with --prior-draws)",
            lopsided.join(", ")
        ));
    }
    let mut theta = vec![0.0; players];
    let mut fixed = vec![false; players];
    fixed[anchor] = true;
    maximise(&mut theta, &fixed, &data);
    let best = log_likelihood(&theta, &data);
    let drop = Z95 * Z95 / 2.0;
    let mut ratings = Vec::with_capacity(players);
    for player in 0..players {
        let elo = theta[player] * ELO_PER_UNIT;
        if player == anchor {
            ratings.push(Rating {
                elo,
                low: elo,
                high: elo,
            });
            continue;
        }
        let mut profile_fixed = fixed.clone();
        profile_fixed[player] = true;
        // The profile log-likelihood loss with the player at rating x (natural units).
        let loss = |x: f64| {
            let mut profile = theta.clone();
            profile[player] = x;
            maximise(&mut profile, &profile_fixed, &data);
            best - log_likelihood(&profile, &data)
        };
        let bound = |direction: f64| {
            let limit = ELO_LIMIT / ELO_PER_UNIT;
            let (mut inside, mut step) = (theta[player], 50.0 / ELO_PER_UNIT);
            let mut outside = inside + direction * step;
            while loss(outside) < drop {
                inside = outside;
                step *= 2.0;
                outside = inside + direction * step;
                if (outside - theta[player]).abs() > limit {
                    return direction * f64::INFINITY;
                }
            }
            for _ in 0..60 {
                let middle = (inside + outside) / 2.0;
                if loss(middle) < drop {
                    inside = middle;
                } else {
                    outside = middle;
                }
            }
            (inside + outside) / 2.0 * ELO_PER_UNIT
        };
        ratings.push(Rating {
            elo,
            low: bound(-1.0),
            high: bound(1.0),
        });
    }
    Ok(ratings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use csb::engine::referee::splitmix64::SplitMix64;

    fn names(count: usize) -> Vec<String> {
        (0..count).map(|i| format!("p{i}")).collect()
    }

    fn expected_score(elo_difference: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf(-elo_difference / 400.0))
    }

    #[test]
    fn expected_scores_give_back_the_ratings_exactly() {
        // Scores equal to their expectations are the likelihood equations' exact solution.
        let truth = [0.0, 120.0, -80.0, 300.0];
        let mut pairings = Vec::new();
        for i in 0..4 {
            for j in i + 1..4 {
                let games = 200.0;
                pairings.push(Pairing {
                    first: i,
                    second: j,
                    games,
                    score: games * expected_score(truth[i] - truth[j]),
                });
            }
        }
        let ratings = fit(&names(4), &pairings, 0, 0.0).unwrap();
        for (rating, true_elo) in ratings.iter().zip(truth) {
            assert!(
                (rating.elo - true_elo).abs() < 1e-6,
                "{rating:?} vs {true_elo}"
            );
            assert!(rating.low <= true_elo && true_elo <= rating.high);
        }
        // Anchored elsewhere: the same differences.
        let ratings = fit(&names(4), &pairings, 3, 0.0).unwrap();
        assert!((ratings[1].elo - (120.0 - 300.0)).abs() < 1e-6);
    }

    #[test]
    fn two_players_give_the_binomial_likelihood_ratio_interval() {
        // B scores 70 of 100 against the anchor A. The interval solves
        // 100 [0.7 ln(0.7/p) + 0.3 ln(0.3/(1 − p))] = z²/2 (bisection, done apart):
        // p = 0.6059046 and 0.7839721, i.e. +74.72 and +223.92 Elo around +147.19.
        let pairings = [Pairing {
            first: 0,
            second: 1,
            games: 100.0,
            score: 30.0,
        }];
        let ratings = fit(&names(2), &pairings, 0, 0.0).unwrap();
        assert_eq!(
            (ratings[0].elo, ratings[0].low, ratings[0].high),
            (0.0, 0.0, 0.0)
        );
        assert!((ratings[1].elo - 147.19).abs() < 0.01, "{:?}", ratings[1]);
        assert!((ratings[1].low - 74.72).abs() < 0.01, "{:?}", ratings[1]);
        assert!((ratings[1].high - 223.92).abs() < 0.01, "{:?}", ratings[1]);
    }

    #[test]
    fn sampled_games_recover_known_ratings() {
        // Games drawn at random (splitmix64, fixed seed) from known ratings; draws happen
        // with probability 0.1 and count half. Each estimate must land within its interval
        // of the truth, all but perhaps one of them.
        let truth = [0.0, 200.0, -150.0, 50.0, 400.0];
        let mut draws = SplitMix64::new(12345);
        let mut uniform = || draws.unit();
        let mut pairings = Vec::new();
        for i in 0..5 {
            for j in i + 1..5 {
                let expected = expected_score(truth[i] - truth[j]);
                let mut score = 0.0;
                let games = 400;
                for _ in 0..games {
                    let u = uniform();
                    // Draw 0.1; win chosen so that the expected score is `expected`.
                    score += if u < 0.1 {
                        0.5
                    } else if u < 0.1 + (expected - 0.05) {
                        1.0
                    } else {
                        0.0
                    };
                }
                pairings.push(Pairing {
                    first: i,
                    second: j,
                    games: games as f64,
                    score,
                });
            }
        }
        let ratings = fit(&names(5), &pairings, 0, 0.0).unwrap();
        let mut outside = 0;
        for (rating, true_elo) in ratings.iter().zip(truth) {
            eprintln!("{rating:?} truth {true_elo}");
            assert!(rating.high - rating.low < 120.0, "{rating:?}");
            assert!(
                (rating.elo - true_elo).abs() < 60.0,
                "{rating:?} vs {true_elo}"
            );
            if !(rating.low <= true_elo && true_elo <= rating.high) {
                outside += 1;
            }
        }
        assert!(outside <= 1, "{outside} intervals miss the truth");
    }

    #[test]
    fn sweeps_need_a_prior_and_disconnected_players_are_refused() {
        // p1 won all 20 games against p0.
        let sweep = [Pairing {
            first: 0,
            second: 1,
            games: 20.0,
            score: 0.0,
        }];
        let error = fit(&names(2), &sweep, 0, 0.0).unwrap_err();
        assert!(error.contains("--prior-draws"), "{error}");
        // A name holding a line break stays on the error's one line.
        let broken = ["p0".to_string(), "two\nlines".to_string()];
        let error = fit(&broken, &sweep, 0, 0.0).unwrap_err();
        assert!(error.contains("two\\nlines"), "{error}");
        assert_eq!(error.lines().count(), 1, "{error}");
        // One virtual draw: 20.5 of 21, so the estimate is 400 log10(20.5 / 0.5) = 645.1.
        let ratings = fit(&names(2), &sweep, 0, 1.0).unwrap();
        assert!(
            (ratings[1].elo - 400.0 * (41f64).log10()).abs() < 1e-6,
            "{:?}",
            ratings[1]
        );
        assert!(ratings[1].low > 200.0 && ratings[1].high.is_finite());
        let apart = [Pairing {
            first: 0,
            second: 1,
            games: 10.0,
            score: 5.0,
        }];
        let error = fit(&names(3), &apart, 0, 1.0).unwrap_err();
        assert!(error.contains("p2"), "{error}");
    }
}
