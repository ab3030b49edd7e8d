//! The generations table (`docs/generations.md`) and the Elo plot beside it, written by the
//! program from the kept generations' files (`learn/generations/gen-NNN/`: `state.txt`,
//! `model.manifest`, `loss.csv`, `policy-report.txt`, `real-control.txt`), never typed: one row
//! per promoted generation with its games, positions, target, test log-loss and accuracy beside
//! the hand evaluation's, its policy's test figures, its gate, and its row at the real control
//! against the first network (a match outside the loop: `real-control.txt` holds its result
//! and where the row is, one line).
//! Generation 1 is the loop's start (the default's networks until row R23). Each generation's
//! Elo against generation 1 is the sum of the gates' Elo along its line of parents, its
//! interval the gates' half-widths added in quadrature (the gates are independent matches);
//! each generation's loss curves are drawn beside it (`loss.svg`).

use crate::common::files::{create_dir, write_whole};
use crate::common::manifest::Manifest;
use crate::common::plot::{plot_elo, plot_losses, EloPoint};
use crate::generation::gate::GateResult;
use crate::generation::select::{ValueChoice, SELECT_STEP};
use crate::generation::state::{folder_name, State};
use crate::value::loss_csv::curves;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

const MODEL_KIND: &str = "csb-model-manifest 1";

/// One kept generation: its state and its model's manifest (none for generation 1).
struct Kept {
    state: State,
    model: Option<Manifest>,
}

fn read_kept(keep: &Path) -> Result<BTreeMap<u32, Kept>, String> {
    let mut kept = BTreeMap::new();
    let entries = match std::fs::read_dir(keep) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(kept),
        other => other.map_err(|error| format!("cannot read {}: {error}", keep.display()))?,
    };
    for entry in entries {
        let dir = entry
            .map_err(|error| format!("cannot read {}: {error}", keep.display()))?
            .path();
        let Some(state) = State::read(&dir)? else {
            continue;
        };
        let model = Manifest::read(&dir.join("model.manifest"), MODEL_KIND)?;
        kept.insert(state.generation, Kept { state, model });
    }
    Ok(kept)
}

/// The word after the first `word` in `words` (a report's or state line's figure).
fn word_after<'a>(words: &[&'a str], word: &str) -> Option<&'a str> {
    let at = words.iter().position(|w| *w == word)?;
    words.get(at + 1).copied()
}

/// The policy's cell of a kept generation: its report's test figures (`learn train-policy`'s
/// `test:` line), or where its policy came from.
fn policy_cell(dir: &Path, state: &State) -> String {
    let report = std::fs::read_to_string(dir.join("policy-report.txt")).unwrap_or_default();
    let test = report
        .lines()
        .find_map(|line| line.strip_prefix("test: policy cross-entropy "));
    let figures = test.map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let after =
            |word: &str| word_after(&words, word).map(|w| w.trim_end_matches([',', '%', ')']));
        (
            words.first().copied(),
            after("(uniform"),
            after("entropy"),
            after("visited"),
        )
    });
    // A policy trained on deep turns alone is measured on their test positions.
    let deep = state
        .settings
        .as_ref()
        .and_then(|settings| settings.deep)
        .map_or(String::new(), |deep| {
            format!(" (deep turns' positions, {} iterations)", deep.iterations)
        });
    match figures {
        Some((Some(loss), Some(uniform), Some(entropy), Some(top1))) => {
            format!(
                "{loss} / {uniform} / {entropy}{}, {top1}%{deep}",
                gap_closed(loss, uniform, entropy)
            )
        }
        Some((Some(loss), Some(uniform), None, Some(top1))) => {
            format!("{loss} / {uniform}, {top1}%{deep}")
        }
        _ if state.generation == 1 => "the policy embedded then".to_string(),
        _ => match state.step("policy") {
            Some(step) if step.starts_with("kept-from") => {
                format!("gen {}'s", state.parent)
            }
            _ => "—".to_string(),
        },
    }
}

/// The share of the gap between a uniform prior's cross-entropy and the visits' own entropy
/// that the policy's closes (issue 53's goal: half), as " (48.2% of the gap)"; empty when a
/// figure is not a number or there is no gap.
fn gap_closed(loss: &str, uniform: &str, entropy: &str) -> String {
    match (
        loss.parse::<f64>(),
        uniform.parse::<f64>(),
        entropy.parse::<f64>(),
    ) {
        (Ok(loss), Ok(uniform), Ok(entropy)) if uniform > entropy => {
            format!(
                " ({:.1}% of the gap)",
                100.0 * (uniform - loss) / (uniform - entropy)
            )
        }
        _ => String::new(),
    }
}

/// Where a kept generation's real-control row is written.
const REAL_CONTROL_FILE: &str = "real-control.txt";

/// The real-control cell of a kept generation: the first line of its `real-control.txt` (its
/// row against the first network at 50 ms a turn, played outside the loop), or "—". A `|`
/// would end the cell, so it is written `/`.
fn real_control_cell(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join(REAL_CONTROL_FILE)).unwrap_or_default();
    match text.lines().next().map(str::trim) {
        Some(line) if !line.is_empty() => line.replace('|', "/"),
        _ => "—".to_string(),
    }
}

/// Writes the table into `table` (its folder made if missing) and the Elo plot beside it
/// (`generations-elo.svg`), and
/// each kept generation's loss curves (`keep/gen-NNN/loss.svg`).
pub fn write(keep: &Path, table: &Path) -> Result<(), String> {
    let kept = read_kept(keep)?;
    let mut text = String::from(
        "# Self-play generations\n\n\
         Written by `learn generation` (or `learn generations-table`) from the kept generations' \
         files in `learn/generations/`; do not edit. Each row is a promoted generation: the \
         self-play games and positions its network was trained on (its window), the target (the \
         hand evaluation's share, the rest learned), the test split's log-loss and accuracy of \
         the network beside the hand evaluation's (fitted logistic), the policy's test \
         cross-entropy against the root visits beside a uniform prior's and the visits' own \
         entropy (the floor), the share of the gap between the two it closes, and how often its \
         first choice is the search's most visited action, and its gate against the \
         generation that made it (game pairs at fixed iterations, SPRT [elo0, elo1] on pairs). \
         Elo is against generation 1, summed along the line of gates, with a 95% interval. \
         The last column is the generation's row at the real control (50 ms a turn, \
         `--time-scale 1`, `--threads 1`) against the first network (the 16-wide network of \
         `86e77fe`), played outside the loop (docs/strength.md).\n\n\
         | gen | parent | games | positions (train/val/test) | target | test log-loss net / hand | test accuracy net / hand | policy cross-entropy / uniform / visits' entropy (gap closed), top-1 | gate | Elo vs gen 1 | real control vs the first network |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut elo: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
    let mut points = Vec::new();
    for (generation, entry) in &kept {
        let state = &entry.state;
        let (sum, variance) = if *generation == 1 {
            (0.0, 0.0)
        } else {
            let gate = GateResult::parse(state.step("gate").unwrap_or(""))?;
            let half_width = (gate.elo.2 - gate.elo.1) / 2.0;
            let (parent_elo, parent_variance) =
                elo.get(&state.parent).copied().unwrap_or((0.0, 0.0));
            (
                parent_elo + gate.elo.0,
                parent_variance + (half_width / 1.96).powi(2),
            )
        };
        elo.insert(*generation, (sum, variance));
        let half = 1.96 * variance.sqrt();
        points.push(EloPoint {
            generation: *generation,
            elo: sum,
            low: sum - half,
            high: sum + half,
        });
        let model = entry.model.as_ref();
        let get = |key: &str| model.and_then(|m| m.get(key)).unwrap_or("—");
        let figure = |key: &str, index: usize| -> String {
            model
                .and_then(|m| m.get(key))
                .and_then(|value| value.split_whitespace().nth(index).map(str::to_string))
                .unwrap_or("—".to_string())
        };
        // The target as the generation's settings give it, or (generation 1, trained outside the
        // loop) as its model's manifest records it.
        let target = match model {
            Some(_) => format!(
                "hand {:.2} + {:.2} {}",
                state.hand_share,
                1.0 - state.hand_share,
                state
                    .settings
                    .as_ref()
                    .map_or(get("target").to_string(), |s| s.target.to_string())
            ),
            None => "—".to_string(),
        };
        let gate = state
            .step("gate")
            .map_or("— (the loop's start)".to_string(), |gate| {
                GateResult::parse(gate).map_or(gate.to_string(), |g| {
                    format!(
                        "{} vs gen {}: {}/{}/{} W/D/L, Elo {:+.0} [{:+.0}, {:+.0}]",
                        g.decision,
                        state.parent,
                        g.wdl.wins,
                        g.wdl.draws,
                        g.wdl.losses,
                        g.elo.0,
                        g.elo.1,
                        g.elo.2
                    )
                })
            });
        // A generation that kept its parent's value network (`--select-value`) shows the
        // parent's figures, marked, and both networks' log-loss on its own test split.
        let value_kept = state.step(SELECT_STEP).and_then(|details| {
            let parent = ValueChoice::kept_from(details)?;
            let words: Vec<&str> = details.split_whitespace().collect();
            let after = |word: &str| word_after(&words, word);
            Some(format!(
                " (gen {parent}'s network: {} on this generation's test split, the trained one {})",
                after("parent").unwrap_or("—"),
                after("trained").unwrap_or("—")
            ))
        });
        let dir = keep.join(folder_name(*generation));
        let policy = policy_cell(&dir, state);
        let real_control = real_control_cell(&dir);
        let _ = writeln!(
            text,
            "| {generation} | {} | {} | {} | {target} | {} / {}{} | {} / {} | {policy} | {gate} | {:+.0} ± {:.0} | {real_control} |",
            if *generation == 1 {
                "—".to_string()
            } else {
                state.parent.to_string()
            },
            get("games"),
            get("positions")
                .replace(" training, ", "/")
                .replace(" validation, ", "/")
                .replace(" test", ""),
            figure("test-network", 1),
            figure("test-hand", 1),
            value_kept.unwrap_or_default(),
            figure("test-network", 3),
            figure("test-hand", 3),
            sum,
            half
        );
        let loss_csv = dir.join("loss.csv");
        if loss_csv.exists() {
            let (train, validation) = curves(&loss_csv)?;
            plot_losses(&loss_csv.with_extension("svg"), &train, &validation)?;
        }
    }
    let plot_name = "generations-elo.svg";
    let _ = writeln!(
        text,
        "\n![Elo of each generation against generation 1, with its 95% interval]({plot_name})"
    );
    let folder = table
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    create_dir(folder)?;
    plot_elo(&folder.join(plot_name), &points)?;
    write_whole(table, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(generation: u32, policy_step: Option<&str>) -> State {
        State {
            generation,
            parent: generation.saturating_sub(1),
            parent_network_sha256: String::new(),
            parent_policy_sha256: None,
            hand_share: 0.0,
            settings: None,
            steps: policy_step
                .map(|details| ("policy".to_string(), details.to_string()))
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn the_policy_cell_reads_the_report_or_says_where_the_policy_came_from() {
        let dir = std::env::temp_dir().join(format!("learn-policy-cell-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("policy-report.txt"),
            "positions: 1 training, 1 validation, 1 test (split by map; both views)\n\
             model: epoch 3 of 4\n\
             test: policy cross-entropy 2.1234 (uniform 2.3026, the visits' own entropy \
             1.9000), most probable = most visited 31.50%, value log-loss 0.6000\n",
        )
        .unwrap();
        assert_eq!(
            policy_cell(&dir, &state(3, Some("trained policy-sha256 ab"))),
            "2.1234 / 2.3026 / 1.9000 (44.5% of the gap), 31.50%"
        );
        std::fs::write(
            dir.join("policy-report.txt"),
            "test: policy cross-entropy 2.1234 (uniform 2.3026), most probable = most visited \
             31.50%, value log-loss 0.6000\n",
        )
        .unwrap();
        assert_eq!(
            policy_cell(&dir, &state(3, Some("trained policy-sha256 ab"))),
            "2.1234 / 2.3026, 31.50%"
        );
        let empty = dir.join("none");
        assert_eq!(
            policy_cell(&empty, &state(1, None)),
            "the policy embedded then"
        );
        assert_eq!(
            policy_cell(&empty, &state(4, Some("kept-from 3 policy-sha256 ab"))),
            "gen 3's"
        );
        assert_eq!(policy_cell(&empty, &state(4, None)), "—");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_real_control_cell_is_the_files_first_line_or_a_dash() {
        let dir = std::env::temp_dir().join(format!("learn-real-control-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(real_control_cell(&dir), "—");
        std::fs::write(dir.join(REAL_CONTROL_FILE), "\n").unwrap();
        assert_eq!(real_control_cell(&dir), "—");
        std::fs::write(
            dir.join(REAL_CONTROL_FILE),
            "  R11: 54/0/24 | SPRT accepted  \nnot this line\n",
        )
        .unwrap();
        assert_eq!(real_control_cell(&dir), "R11: 54/0/24 / SPRT accepted");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
