//! The result of a match (or of one shard of it): raw, mergeable tallies — W/D/L from p1's
//! view, per seat, eliminations by cause per bot, response-time histograms, one line per game —
//! plus the derived report (win rate and Elo with intervals, SPRT state) as text or JSON.
//! `arena merge` adds shard results together and reports them as one.
//!
//! Two views of the same games: per game (trinomial W/D/L, Wilson's interval: the headline,
//! valid whatever the games' pairing) and per complete pair (pentanomial counts of p1's points
//! in the two seat-swapped games on one map, see `pentanomial`), which the SPRT uses whenever
//! at least one pair is complete; a game whose partner is missing is left out of that view.

use crate::matches::response_times::ResponseTimes;
use crate::stats::pentanomial::Pentanomial;
use crate::stats::sprt::{Decision, Sprt};
use crate::stats::wdl::Wdl;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

pub const RESULT_FORMAT: &str = "csb-arena-match";

/// One played game, as the match result lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    pub index: usize,
    pub seed: i64,
    /// Seat of p1: 0 or 1.
    pub p1_player: usize,
    /// p1's score: 1, 0.5 or 0.
    pub p1_score: f64,
    pub turns: u16,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

/// Mergeable tallies of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub format: String,
    pub p1: String,
    pub p2: String,
    pub seed: u64,
    pub league: String,
    pub time_scale: f64,
    /// `--games` of the whole match.
    pub games_planned: usize,
    /// `[I, N]` for a shard run, null for a whole match or a merge.
    pub shard: Option<[usize; 2]>,
    #[serde(default)]
    pub sprt: Option<Sprt>,
    #[serde(default)]
    pub stopped_early: bool,
    /// W/D/L from p1's view.
    pub results: Wdl,
    /// p1's W/D/L as player 0 and as player 1.
    pub per_seat: [Wdl; 2],
    /// Per bot (p1, p2): elimination cause → count.
    pub eliminations: [BTreeMap<String, u64>; 2],
    /// Per bot (p1, p2).
    pub response_times: [ResponseTimes; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_dir: Option<String>,
    pub games: Vec<GameLine>,
}

/// Derived figures, added to the JSON output (ignored when merging).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    pub score_ci95: (f64, f64),
    /// null when infinite (every game won or lost).
    pub elo: Option<f64>,
    pub elo_ci95: (Option<f64>, Option<f64>),
    pub per_seat_score: [f64; 2],
    /// The same games as complete pairs (pentanomial).
    pub pairs: PairSummary,
    pub response_ms: [ResponseSummary; 2],
    /// Computed from the pairs when at least one is complete ("pairs"), else from the games.
    pub sprt_model: Option<&'static str>,
    pub sprt_llr: Option<f64>,
    pub sprt_bounds: Option<(f64, f64)>,
    pub sprt_decision: Option<String>,
}

/// Pentanomial figures: pair counts by p1's points (0, ½, 1, 1½, 2) and the pair score.
#[derive(Clone, Debug, Serialize)]
pub struct PairSummary {
    pub counts: [u64; 5],
    pub complete: u64,
    /// Games whose seat-swapped partner is not in the result (left out of these figures).
    pub games_outside_pairs: u64,
    pub score: f64,
    pub score_ci95: (f64, f64),
    pub elo: Option<f64>,
    pub elo_ci95: (Option<f64>, Option<f64>),
}

impl PairSummary {
    pub fn new(pairs: &Pentanomial, games_outside_pairs: u64) -> PairSummary {
        let (low, high) = pairs.score_interval();
        let (elo_low, elo_high) = pairs.elo_interval();
        PairSummary {
            counts: pairs.counts,
            complete: pairs.pairs(),
            games_outside_pairs,
            score: pairs.score(),
            score_ci95: (low, high),
            elo: finite(pairs.elo()),
            elo_ci95: (finite(elo_low), finite(elo_high)),
        }
    }

    /// One report line.
    pub fn line(&self) -> String {
        let [n0, n1, n2, n3, n4] = self.counts;
        let elo = |v: Option<f64>, infinite: f64| signed(v.unwrap_or(infinite));
        let outside = if self.games_outside_pairs > 0 {
            format!(
                "; {} game(s) without their partner left out",
                self.games_outside_pairs
            )
        } else {
            String::new()
        };
        let score_elo = if self.complete == 0 {
            "no complete pair".to_string()
        } else {
            format!(
                "pair score {:.1}% (95% CI {:.1}% .. {:.1}%), Elo {} (95% CI {} .. {})",
                100.0 * self.score,
                100.0 * self.score_ci95.0,
                100.0 * self.score_ci95.1,
                elo(self.elo, infinite_side(self.score)),
                elo(self.elo_ci95.0, f64::NEG_INFINITY),
                elo(self.elo_ci95.1, f64::INFINITY)
            )
        };
        format!(
            "pairs by p1 points 0/½/1/1½/2: {n0}/{n1}/{n2}/{n3}/{n4} ({} complete{outside}); {score_elo}",
            self.complete
        )
    }
}

/// The infinity an Elo at this score stands for (only used when the Elo is not finite).
fn infinite_side(score: f64) -> f64 {
    if score >= 0.5 {
        f64::INFINITY
    } else {
        f64::NEG_INFINITY
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct ResponseSummary {
    pub median: Option<f64>,
    pub p99: Option<f64>,
    pub max: Option<f64>,
}

fn finite(value: f64) -> Option<f64> {
    value.is_finite().then_some(value)
}

pub fn signed(value: f64) -> String {
    if value.is_finite() {
        // Adding 0.0 turns -0.0 into 0.0.
        format!("{:+.1}", value + 0.0)
    } else if value > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

impl MatchResult {
    pub fn summary(&self) -> Summary {
        let (low, high) = self.results.score_interval();
        let (elo_low, elo_high) = self.results.elo_interval();
        let response = |times: &ResponseTimes| ResponseSummary {
            median: times.quantile(0.5),
            p99: times.quantile(0.99),
            max: (times.count > 0).then_some(times.max_ms),
        };
        let (pairs, outside) = self.pair_counts();
        let sprt = self.sprt.map(|s| (s, self.sprt_llr(&s)));
        Summary {
            games: self.results.games(),
            wins: self.results.wins,
            draws: self.results.draws,
            losses: self.results.losses,
            score: self.results.score(),
            score_ci95: (low, high),
            elo: finite(self.results.elo()),
            elo_ci95: (finite(elo_low), finite(elo_high)),
            per_seat_score: [self.per_seat[0].score(), self.per_seat[1].score()],
            pairs: PairSummary::new(&pairs, outside),
            response_ms: [
                response(&self.response_times[0]),
                response(&self.response_times[1]),
            ],
            sprt_model: sprt.map(|(_, (_, model))| model),
            sprt_llr: sprt.map(|(_, (llr, _))| llr),
            sprt_bounds: sprt.map(|(s, _)| (s.lower_bound(), s.upper_bound())),
            sprt_decision: sprt.map(|(s, (llr, _))| s.decide(llr).describe(&s)),
        }
    }

    /// p1's points in each complete pair (games 2k and 2k + 1: same map, seats swapped) and the
    /// number of games whose partner is missing.
    pub fn pair_counts(&self) -> (Pentanomial, u64) {
        let mut pairs = Pentanomial::default();
        let mut outside = 0;
        for scores in self.pair_scores().values() {
            if scores.len() == 2 {
                pairs.add_pair(scores[0] + scores[1]);
            } else {
                outside += scores.len() as u64;
            }
        }
        (pairs, outside)
    }

    /// p1's scores in the games of each pair, by pair (`index / 2`).
    fn pair_scores(&self) -> BTreeMap<usize, Vec<f64>> {
        let mut by_pair: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for game in &self.games {
            by_pair
                .entry(game.index / 2)
                .or_default()
                .push(game.p1_score);
        }
        by_pair
    }

    /// Where `sprt`, run over the complete pairs one by one in the order of their games'
    /// indices, first decided: the pairs it had then and its decision (`None` if it never
    /// did). A sequential test stops there; a row played past it is judged by it.
    pub fn sprt_first_decision(&self, sprt: &Sprt) -> Option<(u64, Decision)> {
        let mut pairs = Pentanomial::default();
        for scores in self.pair_scores().values() {
            if scores.len() != 2 {
                continue;
            }
            pairs.add_pair(scores[0] + scores[1]);
            let decision = sprt.decide(sprt.llr_pairs(&pairs));
            if decision != Decision::Continue {
                return Some((pairs.pairs(), decision));
            }
        }
        None
    }

    /// The SPRT's LLR and the model it came from: pairs once one is complete, else games.
    pub fn sprt_llr(&self, sprt: &Sprt) -> (f64, &'static str) {
        let (pairs, _) = self.pair_counts();
        if pairs.pairs() > 0 {
            (sprt.llr_pairs(&pairs), "pairs")
        } else {
            (sprt.llr(&self.results), "games")
        }
    }

    /// The JSON printed by `--json`: the tallies plus a `summary` object.
    pub fn to_json(&self) -> String {
        let mut value = serde_json::to_value(self).expect("a match result encodes");
        value["summary"] = serde_json::to_value(self.summary()).expect("a summary encodes");
        serde_json::to_string_pretty(&value).expect("a JSON value encodes")
    }

    pub fn from_json(text: &str) -> Result<MatchResult, String> {
        let result: MatchResult =
            serde_json::from_str(text).map_err(|e| format!("not an arena match result: {e}"))?;
        if result.format != RESULT_FORMAT {
            return Err(format!(
                "format is {:?}, expected {RESULT_FORMAT:?}",
                result.format
            ));
        }
        Ok(result)
    }

    /// The human-readable report.
    pub fn report(&self) -> String {
        let summary = self.summary();
        let mut text = String::new();
        let _ = writeln!(text, "p1: {}", self.p1);
        let _ = writeln!(text, "p2: {}", self.p2);
        let shard = match self.shard {
            Some([i, n]) => format!(", shard {i}/{n}"),
            None => String::new(),
        };
        let _ = writeln!(
            text,
            "games: {} of {} (seed {}, league {}, time scale {}{shard}{})",
            summary.games,
            self.games_planned,
            self.seed,
            self.league,
            self.time_scale,
            if self.stopped_early {
                ", stopped early by SPRT"
            } else {
                ""
            }
        );
        let _ = writeln!(
            text,
            "p1 W/D/L: {}/{}/{}   win rate {:.1}% (95% CI {:.1}% .. {:.1}%)",
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score,
            100.0 * summary.score_ci95.0,
            100.0 * summary.score_ci95.1
        );
        let (elo_low, elo_high) = self.results.elo_interval();
        let _ = writeln!(
            text,
            "Elo difference: {} (95% CI {} .. {})",
            signed(self.results.elo()),
            signed(elo_low),
            signed(elo_high)
        );
        let _ = writeln!(text, "{}", summary.pairs.line());
        for (seat, wdl) in self.per_seat.iter().enumerate() {
            let _ = writeln!(
                text,
                "p1 as player {seat}: W/D/L {}/{}/{}, score {:.1}%",
                wdl.wins,
                wdl.draws,
                wdl.losses,
                100.0 * wdl.score()
            );
        }
        for (bot, name) in ["p1", "p2"].iter().enumerate() {
            let causes = &self.eliminations[bot];
            let listed = if causes.is_empty() {
                "none".to_string()
            } else {
                causes
                    .iter()
                    .map(|(cause, count)| format!("{cause} {count}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let times = &summary.response_ms[bot];
            let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
            let _ = writeln!(
                text,
                "{name}: eliminations: {listed}; response ms median {} p99 {} max {}",
                ms(times.median),
                ms(times.p99),
                ms(times.max)
            );
        }
        if let Some(sprt) = &self.sprt {
            let (llr, model) = self.sprt_llr(sprt);
            let _ = writeln!(
                text,
                "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.3} ({model}) in ({:.3}, {:.3}): {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                sprt.lower_bound(),
                sprt.upper_bound(),
                sprt.decide(llr).describe(sprt)
            );
            if model == "pairs" {
                let pairs = self.pair_counts().0.pairs();
                let _ = match self.sprt_first_decision(sprt) {
                    Some((at, decision)) if at < pairs => writeln!(
                        text,
                        "SPRT sequentially (pairs in the order of their games): {} after {at} of \
                         the {pairs} pairs",
                        decision.describe(sprt)
                    ),
                    _ => Ok(()),
                };
            }
        }
        if let Some(dir) = &self.replay_dir {
            let _ = writeln!(text, "replays: {dir}");
        }
        text
    }

    /// Whether the SPRT (if any) has decided.
    pub fn sprt_decided(&self) -> bool {
        self.sprt
            .map(|s| s.decide(self.sprt_llr(&s).0) != Decision::Continue)
            .unwrap_or(false)
    }

    /// Adds one game.
    pub fn add_game(&mut self, line: GameLine) {
        self.results.add_score(line.p1_score);
        self.per_seat[line.p1_player].add_score(line.p1_score);
        self.games.push(line);
    }
}

/// Merges shard results of one match into one result.
pub fn merge(parts: Vec<MatchResult>) -> Result<MatchResult, String> {
    let mut parts = parts.into_iter();
    let mut merged = parts.next().ok_or_else(|| "nothing to merge".to_string())?;
    merged.shard = None;
    merged.replay_dir = None;
    for part in parts {
        let same = part.p1 == merged.p1
            && part.p2 == merged.p2
            && part.seed == merged.seed
            && part.league == merged.league
            && part.games_planned == merged.games_planned;
        if !same {
            return Err(format!(
                "results are from different matches (p1, p2, seed, league and --games must agree): {} vs {}",
                merged.p1, part.p1
            ));
        }
        if let Some(game) = part
            .games
            .iter()
            .find(|g| merged.games.iter().any(|m| m.index == g.index))
        {
            return Err(format!(
                "game {} appears in two results (the same shard twice?)",
                game.index
            ));
        }
        merged.results.merge(&part.results);
        for seat in 0..2 {
            merged.per_seat[seat].merge(&part.per_seat[seat]);
            merged.response_times[seat].merge(&part.response_times[seat]);
            for (cause, count) in &part.eliminations[seat] {
                *merged.eliminations[seat].entry(cause.clone()).or_insert(0) += count;
            }
        }
        merged.stopped_early |= part.stopped_early;
        if merged.sprt.is_none() {
            merged.sprt = part.sprt;
        }
        merged.games.extend(part.games);
    }
    merged.games.sort_by_key(|g| g.index);
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result of `scores` (p1's, game by game, pairs of consecutive indices), with `sprt`.
    fn result_of(scores: &[f64], sprt: Option<Sprt>) -> MatchResult {
        let mut result = MatchResult {
            format: RESULT_FORMAT.to_string(),
            p1: "a".to_string(),
            p2: "b".to_string(),
            seed: 1,
            league: "legend".to_string(),
            time_scale: 1.0,
            games_planned: scores.len(),
            shard: None,
            sprt,
            stopped_early: false,
            results: Wdl::default(),
            per_seat: [Wdl::default(); 2],
            eliminations: [BTreeMap::new(), BTreeMap::new()],
            response_times: [ResponseTimes::default(), ResponseTimes::default()],
            replay_dir: None,
            games: Vec::new(),
        };
        for (index, &p1_score) in scores.iter().enumerate() {
            result.add_game(GameLine {
                index,
                seed: index as i64 / 2,
                p1_player: index % 2,
                p1_score,
                turns: 100,
                reason: "race complete".to_string(),
                replay: None,
            });
        }
        result
    }

    #[test]
    fn a_row_played_past_its_sprt_says_where_the_test_stopped() {
        let sprt = Sprt::new(0.0, 50.0);
        // Forty won pairs, then forty lost ones: the whole row is even, but a sequential test
        // accepted H1 early and stopped there.
        let mut scores = vec![1.0; 80];
        scores.extend([0.0; 80]);
        let row = result_of(&scores, Some(sprt));
        let (at, decision) = row.sprt_first_decision(&sprt).unwrap();
        assert_eq!(decision, Decision::AcceptH1);
        assert!(at < 40, "{at}");
        // The test is inconclusive or rejects on all 80 pairs; the report names both.
        assert_ne!(sprt.decide(row.sprt_llr(&sprt).0), Decision::AcceptH1);
        let report = row.report();
        assert!(
            report.contains(&format!(
                "SPRT sequentially (pairs in the order of their games): H1 accepted (p1 is at \
                 least +50 Elo better) after {at} of the 80 pairs"
            )),
            "{report}"
        );
        // Decided on the last pair (as a match stopped by its SPRT): no second line.
        let stopped = result_of(&scores[..2 * at as usize], Some(sprt));
        assert!(!stopped.report().contains("sequentially"));
        // Even pairs never decide.
        let even = result_of(&[1.0, 0.0, 0.0, 1.0, 0.5, 0.5], Some(sprt));
        assert_eq!(even.sprt_first_decision(&sprt), None);
    }
}
