//! The visits' own noise: how well any policy could predict the root visits it is trained on.
//!
//! A root's visit distribution is one draw: the same position searched again with another seed
//! spreads its visits differently. The best a policy can do on a position is the mean of those
//! draws, `p̄`, and its expected cross-entropy against one draw is then `H(p̄)` (cross-entropy is
//! linear in the target): that is the floor no policy gets under, above the mean entropy of
//! single draws (`H` is concave) that issue 53's "visits' entropy" is.
//!
//! A game here is played as self-play plays it (`play::play_observed`), and each seat's bot has
//! `twins`: bots of the same settings and other seeds, sent the very same input every turn
//! (their own trees, as the played bot's, carried from turn to turn), their moves thrown away.
//! Each own pod's root then has `1 + twins` independent draws, and the floor is bracketed:
//!
//! - below, by the mean entropy of the mean of `m` draws (it grows with `m` towards `H(p̄)`,
//!   since the entropy of a mean of draws is below the entropy of their expectation);
//! - above, by the mean cross-entropy of the played search's draw against the mean of `k`
//!   twins' (a prediction that knows only the position), smoothed towards uniform by the best
//!   of a few weights (a zero where the target visited would be infinite).

use crate::data::game_file::STAT_ACTIONS;
use crate::selfplay::play::{init_input, new_race, play_observed, seated, Contestant};
use csb::bot::two_pod::player::Player;
use csb::engine::referee::splitmix64::splitmix64;
use csb::engine::League;

/// One root's visit distribution over the actions.
pub type Distribution = [f64; STAT_ACTIONS];

/// The weights of uniform in the upper bound's smoothed predictions: `(1 − w) q + w / 10`.
pub const SMOOTHINGS: [f64; 7] = [0.001, 0.003, 0.01, 0.03, 0.1, 0.2, 0.3];

/// Sums over roots of the bounds' terms; [`NoiseTally::figures`] turns them into means.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseTally {
    roots: u64,
    /// Index `m − 1`: the sum of the entropies of the mean of the first `m` draws.
    mean_entropy_sums: Vec<f64>,
    /// Index `k − 1`, then smoothing: the sum of the cross-entropies of the played draw against
    /// the smoothed mean of the first `k` twins' draws.
    cross_entropy_sums: Vec<[f64; SMOOTHINGS.len()]>,
}

/// A tally's means (nats per root).
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseFigures {
    pub roots: u64,
    /// Index `m − 1`: the mean entropy of the mean of `m` draws; index 0 is the visits' entropy.
    pub lower_bounds: Vec<f64>,
    /// Index `k − 1`: the mean cross-entropy of one draw against `k` others, and the smoothing
    /// weight that gave it (the least of [`SMOOTHINGS`]).
    pub upper_bounds: Vec<(f64, f64)>,
    /// `a` of the least-squares fit `a − b / m` to the lower bounds (the delta method's first
    /// order for the entropy of a mean of `m` draws); `None` with fewer than three draws.
    pub extrapolated_floor: Option<f64>,
}

impl NoiseTally {
    /// An empty tally for roots of `1 + twins` draws.
    pub fn new(twins: usize) -> NoiseTally {
        NoiseTally {
            roots: 0,
            mean_entropy_sums: vec![0.0; twins + 1],
            cross_entropy_sums: vec![[0.0; SMOOTHINGS.len()]; twins],
        }
    }

    /// Adds one root: `draws[0]` the played search's distribution, the others its twins'.
    pub fn add(&mut self, draws: &[Distribution]) {
        assert_eq!(
            draws.len(),
            self.mean_entropy_sums.len(),
            "one draw a search"
        );
        let mut sum = [0.0; STAT_ACTIONS];
        for (index, draw) in draws.iter().enumerate() {
            add_to(&mut sum, draw);
            self.mean_entropy_sums[index] += entropy(&scaled(&sum, 1.0 / (index + 1) as f64));
        }
        let mut twins_sum = [0.0; STAT_ACTIONS];
        for (index, twin) in draws[1..].iter().enumerate() {
            add_to(&mut twins_sum, twin);
            let mean = scaled(&twins_sum, 1.0 / (index + 1) as f64);
            for (slot, weight) in SMOOTHINGS.iter().enumerate() {
                let smoothed = mean.map(|q| (1.0 - weight) * q + weight / STAT_ACTIONS as f64);
                self.cross_entropy_sums[index][slot] += cross_entropy(&draws[0], &smoothed);
            }
        }
        self.roots += 1;
    }

    /// Adds `other`'s roots (a tally of the same number of twins).
    pub fn merge(&mut self, other: &NoiseTally) {
        assert_eq!(other.mean_entropy_sums.len(), self.mean_entropy_sums.len());
        self.roots += other.roots;
        for (sum, more) in self
            .mean_entropy_sums
            .iter_mut()
            .zip(&other.mean_entropy_sums)
        {
            *sum += more;
        }
        for (sums, more) in self
            .cross_entropy_sums
            .iter_mut()
            .zip(&other.cross_entropy_sums)
        {
            for (sum, value) in sums.iter_mut().zip(more) {
                *sum += value;
            }
        }
    }

    /// The means; `None` before the first root.
    pub fn figures(&self) -> Option<NoiseFigures> {
        if self.roots == 0 {
            return None;
        }
        let roots = self.roots as f64;
        let lower_bounds: Vec<f64> = self.mean_entropy_sums.iter().map(|s| s / roots).collect();
        let upper_bounds = self
            .cross_entropy_sums
            .iter()
            .map(|sums| {
                sums.iter()
                    .zip(SMOOTHINGS)
                    .map(|(sum, weight)| (sum / roots, weight))
                    .fold((f64::INFINITY, 0.0), |best, next| {
                        if next.0 < best.0 {
                            next
                        } else {
                            best
                        }
                    })
            })
            .collect();
        Some(NoiseFigures {
            roots: self.roots,
            extrapolated_floor: fit_floor(&lower_bounds),
            lower_bounds,
            upper_bounds,
        })
    }
}

/// `a` of the least-squares line `a − b x` through `(1/m, bound_m)`.
fn fit_floor(lower_bounds: &[f64]) -> Option<f64> {
    if lower_bounds.len() < 3 {
        return None;
    }
    let points: Vec<(f64, f64)> = lower_bounds
        .iter()
        .enumerate()
        .map(|(index, &bound)| (1.0 / (index + 1) as f64, bound))
        .collect();
    let count = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / count;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / count;
    let covariance: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let variance: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    Some(mean_y - covariance / variance * mean_x)
}

fn add_to(sum: &mut [f64; STAT_ACTIONS], more: &[f64; STAT_ACTIONS]) {
    for (total, value) in sum.iter_mut().zip(more) {
        *total += value;
    }
}

fn scaled(values: &Distribution, factor: f64) -> Distribution {
    values.map(|value| value * factor)
}

/// `−Σ p ln p` (nats), zero terms left out.
pub fn entropy(distribution: &Distribution) -> f64 {
    cross_entropy(distribution, distribution)
}

/// `−Σ p ln q` (nats) over the actions where the target `p` is positive.
pub fn cross_entropy(target: &Distribution, prediction: &Distribution) -> f64 {
    target
        .iter()
        .zip(prediction)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, q)| -p * q.ln())
        .sum()
}

/// Own pod `own`'s root visits of `bot`'s last search as a distribution; `None` if unvisited.
fn root_distribution(bot: &Player, own: usize) -> Option<Distribution> {
    let mut visits = [0.0; STAT_ACTIONS];
    for (action, count, _) in bot.root_stats(own) {
        if let Some(slot) = visits.get_mut(usize::from(action)) {
            *slot = f64::from(count);
        }
    }
    let total: f64 = visits.iter().sum();
    (total > 0.0).then(|| scaled(&visits, 1.0 / total))
}

/// Plays game `index` of a run seeded `seed` as self-play does, each seat's bot with `twins`
/// twins, and tallies every own pod's root that all the searches visited.
pub fn tally_game(
    seed: u64,
    index: u64,
    contestants: &[Contestant; 2],
    twins: usize,
) -> Result<NoiseTally, String> {
    let init = init_input(&new_race(seed, index));
    let by_seat = seated(index, contestants);
    let mut twin_bots: Vec<Vec<Player>> = Vec::with_capacity(2);
    for (player, contestant) in by_seat.iter().enumerate() {
        let mut bots = Vec::with_capacity(twins);
        for twin in 0..twins as u64 {
            let mut config = contestant.config.clone();
            let stream = (index * 2 + player as u64) * 1024 + twin;
            config.seed = splitmix64(splitmix64(seed ^ 0x7A15) ^ stream);
            config.league = League::Legend;
            bots.push(Player::new(config, &init).map_err(|error| format!("bad map: {error}"))?);
        }
        twin_bots.push(bots);
    }
    let mut tally = NoiseTally::new(twins);
    play_observed(seed, index, contestants, |_, player, input, bot| {
        for twin in &mut twin_bots[player] {
            twin.play_turn(input);
        }
        for own in 0..2 {
            let draws: Option<Vec<Distribution>> = std::iter::once(bot)
                .chain(twin_bots[player].iter())
                .map(|searcher| root_distribution(searcher, own))
                .collect();
            if let Some(draws) = draws {
                tally.add(&draws);
            }
        }
    })?;
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use csb::bot::config::BotConfig;

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn draws_that_agree_have_no_noise() {
        let draw = [0.5, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let mut tally = NoiseTally::new(3);
        tally.add(&[draw; 4]);
        let figures = tally.figures().unwrap();
        let entropy_of_draw = 1.5 * std::f64::consts::LN_2;
        assert!(figures
            .lower_bounds
            .iter()
            .all(|&b| near(b, entropy_of_draw)));
        assert!(near(figures.extrapolated_floor.unwrap(), entropy_of_draw));
        // The least smoothing wins when the prediction is the target itself.
        let (upper, weight) = figures.upper_bounds[2];
        assert_eq!(weight, SMOOTHINGS[0]);
        assert!(upper > entropy_of_draw && upper < entropy_of_draw + 0.01);
    }

    #[test]
    fn draws_that_disagree_raise_the_entropy_of_their_mean() {
        let mut first = [0.0; STAT_ACTIONS];
        first[0] = 1.0;
        let mut second = [0.0; STAT_ACTIONS];
        second[1] = 1.0;
        let mut tally = NoiseTally::new(1);
        tally.add(&[first, second]);
        let figures = tally.figures().unwrap();
        assert_eq!(figures.lower_bounds[0], 0.0);
        assert!(near(figures.lower_bounds[1], std::f64::consts::LN_2));
        // One twin that put nothing where the played search went: only smoothing is left.
        let (upper, weight) = figures.upper_bounds[0];
        assert_eq!(weight, 0.3);
        assert!(near(upper, -(0.3f64 / 10.0).ln()));
        assert_eq!(figures.extrapolated_floor, None);
        let mut twice = tally.clone();
        twice.merge(&tally);
        assert_eq!(twice.figures().unwrap().roots, 2);
        assert_eq!(twice.figures().unwrap().lower_bounds, figures.lower_bounds);
    }

    #[test]
    fn a_game_with_twins_brackets_its_floor() {
        let config = BotConfig {
            iterations: Some(60),
            nodes_per_agent: 20_000,
            ..BotConfig::default()
        };
        let contestant = Contestant {
            name: "csb".to_string(),
            config,
            deep: None,
        };
        let contestants = [contestant.clone(), contestant];
        let tally = tally_game(7, 2, &contestants, 2).unwrap();
        let figures = tally.figures().unwrap();
        assert!(figures.roots > 100, "{}", figures.roots);
        // Twins' searches differ from the played one: the mean of draws is more spread.
        assert!(figures.lower_bounds[1] > figures.lower_bounds[0]);
        assert!(figures.lower_bounds[2] > figures.lower_bounds[1]);
        assert!(figures.upper_bounds[1].0 > figures.lower_bounds[2]);
        assert_eq!(tally_game(7, 2, &contestants, 2).unwrap(), tally);
    }
}
