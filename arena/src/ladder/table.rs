//! `arena ladder table`: the ratings of all players of one control from the results files
//! (maximum likelihood, see `ratings`), and each pairing head to head with the match
//! statistics `arena match` prints (Wilson's interval per game, pentanomial per complete pair).

use super::results::LadderGame;
use crate::matches::result::{signed, PairSummary};
use crate::stats::pentanomial::Pentanomial;
use crate::stats::ratings::{fit, Pairing};
use crate::stats::wdl::Wdl;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// One pairing's games: A's W/D/L, and A's scores per (match seed, pair index).
type HeadToHead = (Wdl, BTreeMap<(u64, usize), Vec<f64>>);

/// What `arena ladder table` was asked.
pub struct TableRequest<'a> {
    /// The control to rate; may be omitted when the results hold only one.
    pub control: Option<&'a str>,
    pub anchor: &'a str,
    pub prior_draws: f64,
    /// One line describing the control, when the roster knows it.
    pub control_line: Option<String>,
}

/// Names read from a results file, escaped (`escape_debug`) so that an error naming them stays
/// one line, and listed with commas.
fn escaped_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let escaped: Vec<String> = names
        .into_iter()
        .map(|name| name.escape_debug().to_string())
        .collect();
    escaped.join(", ")
}

/// The control of the games: the one asked for, or the only one there is.
pub fn pick_control(games: &[LadderGame], asked: Option<&str>) -> Result<String, String> {
    let controls: BTreeSet<&str> = games.iter().map(|g| g.control.as_str()).collect();
    match asked {
        Some(control) if controls.contains(control) => Ok(control.to_string()),
        Some(control) => Err(format!(
            "no game at control {} in the results (controls there: {})",
            control.escape_debug(),
            escaped_list(controls)
        )),
        None if controls.len() == 1 => Ok(controls.into_iter().next().unwrap().to_string()),
        None if controls.is_empty() => Err("the results hold no game".to_string()),
        None => Err(format!(
            "the results mix controls ({}); pick one with --control",
            escaped_list(controls)
        )),
    }
}

/// An Elo figure to the unit, signed; ±inf when infinite.
fn whole_elo(value: f64) -> String {
    if value.is_finite() {
        // Adding 0.0 turns -0.0 into 0.0.
        format!("{:+.0}", value + 0.0)
    } else {
        signed(value)
    }
}

/// The table as Markdown.
pub fn table(all_games: &[LadderGame], request: &TableRequest) -> Result<String, String> {
    let control = pick_control(all_games, request.control)?;
    let games: Vec<&LadderGame> = all_games.iter().filter(|g| g.control == control).collect();
    let names: Vec<String> = games
        .iter()
        .flat_map(|g| [g.a.clone(), g.b.clone()])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index = |name: &str| names.iter().position(|n| n == name).expect("a listed name");
    let anchor = names
        .iter()
        .position(|n| n == request.anchor)
        .ok_or_else(|| {
            format!(
                "anchor {} played no game at control {control} (players: {})",
                request.anchor,
                names.join(", ")
            )
        })?;
    // Per pairing: W/D/L of A, and A's points per (seed, pair) for the complete pairs.
    let mut head_to_head: BTreeMap<(String, String), HeadToHead> = BTreeMap::new();
    for game in &games {
        let entry = head_to_head
            .entry((game.a.clone(), game.b.clone()))
            .or_default();
        entry.0.add_score(game.a_score);
        entry
            .1
            .entry((game.seed, game.pair))
            .or_default()
            .push(game.a_score);
    }
    let pairings: Vec<Pairing> = head_to_head
        .iter()
        .map(|((a, b), (wdl, _))| Pairing {
            first: index(a),
            second: index(b),
            games: wdl.games() as f64,
            score: wdl.wins as f64 + 0.5 * wdl.draws as f64,
        })
        .collect();
    let ratings = fit(&names, &pairings, anchor, request.prior_draws)?;
    let mut totals = vec![(0u64, 0.0f64); names.len()];
    for p in &pairings {
        totals[p.first].0 += p.games as u64;
        totals[p.first].1 += p.score;
        totals[p.second].0 += p.games as u64;
        totals[p.second].1 += p.games - p.score;
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Ladder at {}; {} games.",
        request
            .control_line
            .clone()
            .unwrap_or_else(|| format!("control {control}")),
        games.len()
    );
    let prior = if request.prior_draws > 0.0 {
        format!(
            ", {} virtual draw(s) added to each pairing",
            request.prior_draws
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        text,
        "Elo: maximum likelihood, logistic model, draws half{prior}; anchor {} = 0; \
         95% profile-likelihood intervals.\n",
        request.anchor
    );
    let _ = writeln!(text, "| Rank | Player | Elo | 95% CI | Games | Score |");
    let _ = writeln!(text, "|---|---|---|---|---|---|");
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&i, &j| ratings[j].elo.total_cmp(&ratings[i].elo));
    for (rank, &i) in order.iter().enumerate() {
        let rating = &ratings[i];
        let interval = if i == anchor {
            "anchor".to_string()
        } else {
            format!("{} .. {}", whole_elo(rating.low), whole_elo(rating.high))
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {:.1}% |",
            rank + 1,
            names[i],
            whole_elo(rating.elo),
            interval,
            totals[i].0,
            100.0 * totals[i].1 / totals[i].0.max(1) as f64
        );
    }
    let _ = writeln!(
        text,
        "\nHead to head (A's results; score interval: Wilson per game; pairs: A's points per \
         pair of seat-swapped games on one map, 0/½/1/1½/2):\n"
    );
    let _ = writeln!(
        text,
        "| A vs B | W/D/L | Score (95% CI) | Elo (95% CI) | Pairs 0/½/1/1½/2 | Pair score (95% CI) |"
    );
    let _ = writeln!(text, "|---|---|---|---|---|---|");
    for ((a, b), (wdl, by_pair)) in &head_to_head {
        let mut pairs = Pentanomial::default();
        let mut outside = 0;
        for scores in by_pair.values() {
            if scores.len() == 2 {
                pairs.add_pair(scores[0] + scores[1]);
            } else {
                outside += scores.len() as u64;
            }
        }
        let pair_summary = PairSummary::new(&pairs, outside);
        let (low, high) = wdl.score_interval();
        let (elo_low, elo_high) = wdl.elo_interval();
        let [n0, n1, n2, n3, n4] = pairs.counts;
        let _ = writeln!(
            text,
            "| {a} vs {b} | {}/{}/{} | {:.1}% ({:.1} .. {:.1}%) | {} ({} .. {}) | {n0}/{n1}/{n2}/{n3}/{n4} | {:.1}% ({:.1} .. {:.1}%) |",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * wdl.score(),
            100.0 * low,
            100.0 * high,
            signed(wdl.elo()),
            signed(elo_low),
            signed(elo_high),
            100.0 * pair_summary.score,
            100.0 * pair_summary.score_ci95.0,
            100.0 * pair_summary.score_ci95.1
        );
    }
    Ok(text)
}
