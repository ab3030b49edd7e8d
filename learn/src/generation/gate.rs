//! The gate (step 3): the candidate plays the best in game pairs (a map each, seats swapped) at
//! a fixed iteration count or on the clock, in-process on the referee's engine, until arena's SPRT
//! (`arena::stats::sprt`, pentanomial) decides or the game budget ends; each finished game is
//! appended to `gate.txt` and never played again. Its outcome as the state records it.

use crate::common::files::write_whole;
use crate::data::game_file::GameRecord;
use crate::generation::learn_process::bot_flags;
use crate::generation::settings::{Places, Settings};
use crate::generation::state::State;
use crate::selfplay::play::{play_games, Contestant};
use arena::matches::seeds::p1_is_player0;
use arena::stats::pentanomial::Pentanomial;
use arena::stats::sprt::{Decision, Sprt};
use arena::stats::wdl::Wdl;
use csb::bot::config::{BotConfig, MAX_FIRST_BUDGET_MS};
use std::fmt::Write as _;
use std::path::Path;

/// The gate's games, one line each.
pub const GATE_FILE: &str = "gate.txt";

/// The gate's outcome as the state records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GateResult {
    /// `accepted`, `rejected` or `inconclusive`.
    pub decision: String,
    pub wdl: Wdl,
    /// Elo and its 95% interval (pentanomial).
    pub elo: (f64, f64, f64),
}

impl GateResult {
    /// The outcome as the loop's report and the ladder's roster say it: `accepted (30/1/9
    /// W/D/L, Elo +120 [+60, +190])`.
    pub(crate) fn outcome(&self) -> String {
        format!(
            "{} ({}/{}/{} W/D/L, Elo {:+.0} [{:+.0}, {:+.0}])",
            self.decision,
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.elo.0,
            self.elo.1,
            self.elo.2
        )
    }

    pub(crate) fn details(&self) -> String {
        format!(
            "{} wins {} draws {} losses {} elo {:.1} {:.1} {:.1}",
            self.decision,
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.elo.0,
            self.elo.1,
            self.elo.2
        )
    }

    /// Reads [`GateResult::details`]' text.
    pub fn parse(text: &str) -> Result<GateResult, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |index: usize| -> Result<f64, String> {
            words
                .get(index)
                .and_then(|word| word.parse().ok())
                .ok_or_else(|| format!("the gate's record {text:?} is not one of this program"))
        };
        Ok(GateResult {
            decision: words.first().copied().unwrap_or("").to_string(),
            wdl: Wdl {
                wins: number(2)? as u64,
                draws: number(4)? as u64,
                losses: number(6)? as u64,
            },
            elo: (number(8)?, number(9)?, number(10)?),
        })
    }
}

/// A gate bot's pace: `settings.gate_iterations` a turn on the loop's node pools, or, with
/// `--gate-budget-ms`, the clock at that budget (ten times it on the first turn, at most the
/// bot's cap) on the bot's own pools, sized for the clock.
fn gate_pace(mut config: BotConfig, settings: &Settings) -> BotConfig {
    match settings.gate_budget_ms {
        Some(budget_ms) => {
            config.iterations = None;
            config.budget_ms = budget_ms;
            config.first_budget_ms = (budget_ms * FIRST_TURN_BUDGETS).min(MAX_FIRST_BUDGET_MS);
        }
        None => {
            config.iterations = Some(settings.gate_iterations);
            config.nodes_per_agent = settings.nodes;
        }
    }
    config
}

/// The first turn's budget in turns' budgets: CodinGame gives 1,000 ms against 75 and the bot's
/// defaults take 500 against 50 (csb-rules.md, section 1, its table of constants).
const FIRST_TURN_BUDGETS: f64 = 10.0;

/// The candidate's seat in `game` (the candidate is the first contestant, player 0 on the
/// games [`p1_is_player0`] says).
fn candidate_seat(game: &GameRecord) -> u8 {
    if p1_is_player0(game.index as usize) {
        0
    } else {
        1
    }
}

/// The candidate's score in game `index` of the gate.
fn candidate_score(game: &GameRecord) -> f64 {
    let candidate_seat = usize::from(candidate_seat(game));
    match game.winner {
        None => 0.5,
        Some(winner) if usize::from(winner) == candidate_seat => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays the gate's game pairs not yet in `gate.txt` (the candidate, the generation in `dir`,
/// against the best, in `best`), appending each finished game, until the SPRT decides or
/// `gate_games` are played.
pub(crate) fn play_gate(
    dir: &Path,
    best: &Path,
    settings: &Settings,
    state: &State,
    places: &Places,
) -> Result<GateResult, String> {
    let contestant = |name: &str, folder: &Path| -> Result<Contestant, String> {
        let flags: Vec<String> = bot_flags(folder)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let config = BotConfig::from_args(&flags)
            .map_err(|error| format!("{}: {error}", folder.display()))?;
        Ok(Contestant {
            name: name.to_string(),
            config: gate_pace(config, settings),
            deep: None,
        })
    };
    let contestants = [
        contestant(&format!("gen-{}", state.generation), dir)?,
        contestant(&format!("gen-{}", state.parent), best)?,
    ];
    let path = dir.join(GATE_FILE);
    let mut scores: Vec<f64> = match std::fs::read_to_string(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
        Ok(text) => text
            .lines()
            .enumerate()
            .map(|(index, line)| {
                let parsed = line
                    .strip_prefix(&format!("game {index} score "))
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|score| score.parse::<f64>().ok());
                parsed.ok_or_else(|| {
                    format!(
                        "{} line {}: expected `game {index} score S`, got {line:?}",
                        path.display(),
                        index + 1
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let sprt = Sprt::new(settings.sprt.0, settings.sprt.1);
    let most = settings.gate_games.div_ceil(2) * 2;
    let seed = settings.seed.wrapping_mul(1000) + 500 + u64::from(state.generation);
    let bar = if places.progress {
        let bar = indicatif::ProgressBar::new(most);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "gate {pos}/{len} games (at most) [{elapsed_precise} < {eta_precise}] \
                 {wide_bar} {msg}",
            )
            .expect("a valid template"),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_position(scores.len() as u64);
    loop {
        let (decision, wdl, pairs) = tally(&scores, &sprt);
        bar.set_message(format!(
            "{}/{}/{} W/D/L, LLR {:.2}",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            sprt.llr_pairs(&pairs)
        ));
        let finished = scores.len().is_multiple_of(2);
        if finished && (decision != Decision::Continue || scores.len() as u64 >= most) {
            bar.finish_and_clear();
            let (low, high) = pairs.elo_interval();
            return Ok(GateResult {
                decision: match decision {
                    Decision::AcceptH1 => "accepted",
                    Decision::AcceptH0 => "rejected",
                    Decision::Continue => "inconclusive",
                }
                .to_string(),
                wdl,
                elo: (pairs.elo(), low, high),
            });
        }
        // The next games, up to one a job, played at once; they are recorded in order and
        // only until the SPRT decides at the end of a pair, so the gate's record is the one a
        // single job writes.
        let first = scores.len() as u64;
        let batch: Vec<u64> = (first..most).take(places.jobs.max(1)).collect();
        let mut played = std::collections::BTreeMap::new();
        play_games(seed, &batch, &contestants, places.jobs, |index, game| {
            played.insert(index, (candidate_score(&game), candidate_iterations(&game)));
            Ok(())
        })?;
        for (index, (score, iterations)) in played {
            let mut text = std::fs::read_to_string(&path).unwrap_or_default();
            let _ = writeln!(text, "game {index} score {score} iterations {iterations}");
            write_whole(&path, text)?;
            scores.push(score);
            bar.inc(1);
            if scores.len().is_multiple_of(2) && tally(&scores, &sprt).0 != Decision::Continue {
                break;
            }
        }
    }
}

/// The candidate's median search iterations a turn in `game`, the first turn left out (its
/// budget is ten turns'): the root visits of its runner's tree, one per iteration. On the
/// clock it says the pace the gate was played at.
fn candidate_iterations(game: &GameRecord) -> u64 {
    let candidate_view = candidate_seat(game);
    let mut iterations: Vec<u64> = game
        .positions
        .iter()
        .filter(|position| position.view == candidate_view && position.turn > 1)
        .map(|position| {
            position.stats[0]
                .iter()
                .map(|stat| u64::from(stat.visits))
                .sum()
        })
        .collect();
    iterations.sort_unstable();
    iterations.get(iterations.len() / 2).copied().unwrap_or(0)
}

/// The SPRT's decision, the games' W/D/L and the pairs' pentanomial of the gate's scores.
fn tally(scores: &[f64], sprt: &Sprt) -> (Decision, Wdl, Pentanomial) {
    let mut wdl = Wdl::default();
    let mut pairs = Pentanomial::default();
    for &score in scores {
        wdl.add_score(score);
    }
    for pair in scores.chunks_exact(2) {
        pairs.add_pair(pair[0] + pair[1]);
    }
    let decision = if pairs.pairs() == 0 {
        Decision::Continue
    } else {
        sprt.decide(sprt.llr_pairs(&pairs))
    };
    (decision, wdl, pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gate_record_reads_back() {
        let gate = GateResult {
            decision: "accepted".to_string(),
            wdl: Wdl {
                wins: 30,
                draws: 1,
                losses: 9,
            },
            elo: (120.4, 60.0, 190.5),
        };
        let parsed = GateResult::parse(&gate.details()).unwrap();
        assert_eq!(parsed.decision, "accepted");
        assert_eq!(parsed.wdl, gate.wdl);
        assert_eq!(parsed.elo, (120.4, 60.0, 190.5));
        assert!(GateResult::parse("accepted wins x").is_err());
        let mut said = gate.clone();
        said.elo.2 = 190.4;
        assert_eq!(
            said.outcome(),
            "accepted (30/1/9 W/D/L, Elo +120 [+60, +190])"
        );
    }

    #[test]
    fn a_gate_plays_at_its_iterations_or_on_its_clock() {
        let settings = |gate_budget_ms| Settings {
            games: 8,
            iterations: 12,
            nodes: 5_000,
            window: 2,
            window_data: Vec::new(),
            epochs: 2,
            batch: 32,
            learning_rate: 0.002,
            policy_epochs: 0,
            policy_learning_rate: 0.003,
            hand_share_start: 0.0,
            hand_share_generations: 3,
            target: crate::value::target::Target::Result,
            td_rounds: 1,
            warm_start: false,
            temper_policy: false,
            action_inputs: false,
            action_context: false,
            action_middle: false,
            policy_mirror: false,
            policy_anneal: false,
            select_value: false,
            gate_games: 40,
            gate_iterations: 700,
            gate_budget_ms,
            sprt: (0.0, 50.0),
            promote_inconclusive: false,
            deep: None,
            seed: 1,
        };
        let bot = BotConfig::default();
        let counted = gate_pace(bot.clone(), &settings(None));
        assert_eq!(counted.iterations, Some(700));
        assert_eq!(counted.nodes_per_agent, 5_000);

        let clocked = gate_pace(bot.clone(), &settings(Some(50.0)));
        assert_eq!(clocked.iterations, None, "the clock decides");
        assert_eq!((clocked.budget_ms, clocked.first_budget_ms), (50.0, 500.0));
        assert_eq!(
            clocked.nodes_per_agent, bot.nodes_per_agent,
            "the bot's own pools"
        );
        let slow = gate_pace(bot, &settings(Some(200.0)));
        assert_eq!(slow.first_budget_ms, MAX_FIRST_BUDGET_MS);
    }

    #[test]
    fn the_sprt_decides_on_pairs() {
        let sprt = Sprt::new(0.0, 50.0);
        let (decision, wdl, _) = tally(&[1.0; 40], &sprt);
        assert_eq!(decision, Decision::AcceptH1);
        assert_eq!(wdl.wins, 40);
        let (decision, _, _) = tally(&[0.0; 40], &sprt);
        assert_eq!(decision, Decision::AcceptH0);
        assert_eq!(tally(&[1.0], &sprt).0, Decision::Continue);
    }
}
