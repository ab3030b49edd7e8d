//! `arena ladder table`: the ratings of all players of one control from the results files
//! (maximum likelihood, see `ratings`), and each pairing head to head with the match
//! statistics `arena match` prints (Wilson's interval per game, pentanomial per complete pair).
//! Players that no chain of games links to the anchor cannot share its scale: each such group
//! is rated apart, anchored at its first player in the roster's order, in a table of its own.

use super::results::LadderGame;
use crate::matches::result::{signed, PairSummary};
use crate::stats::pentanomial::Pentanomial;
use crate::stats::ratings::{fit, Pairing, Rating};
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
    /// The roster's players in its order: a group not linked to the anchor is anchored at its
    /// first player in this order (else at its first name).
    pub order: &'a [String],
}

/// Players linked to each other by games, rated together.
pub struct Group {
    pub anchor: String,
    /// Names, ratings (relative to the group's anchor), games and points.
    pub players: Vec<(String, Rating, u64, f64)>,
}

/// The games of one control as rated groups: the anchor's group first, then the groups no
/// game links to it, each anchored at its first player in `order`.
pub fn rate_groups(
    games: &[&LadderGame],
    anchor: &str,
    prior_draws: f64,
    order: &[String],
) -> Result<Vec<Group>, String> {
    let names: Vec<String> = games
        .iter()
        .flat_map(|g| [g.a.clone(), g.b.clone()])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !names.iter().any(|n| n == anchor) {
        return Err(format!(
            "anchor {anchor} played no game (players: {})",
            escaped_list(names.iter().map(String::as_str))
        ));
    }
    // Per pairing: games and A's points.
    let mut pairs: BTreeMap<(&str, &str), (f64, f64)> = BTreeMap::new();
    for game in games {
        let entry = pairs.entry((&game.a, &game.b)).or_default();
        entry.0 += 1.0;
        entry.1 += game.a_score;
    }
    // Groups: repeatedly, everybody linked to the first name left.
    let mut left: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut groups: Vec<Vec<&str>> = Vec::new();
    while let Some(&first) = left.first() {
        let mut group = vec![first];
        let mut k = 0;
        while k < group.len() {
            let at = group[k];
            for (a, b) in pairs.keys() {
                for (x, y) in [(a, b), (b, a)] {
                    if *x == at && !group.contains(y) {
                        group.push(y);
                    }
                }
            }
            k += 1;
        }
        left.retain(|n| !group.contains(n));
        group.sort();
        groups.push(group);
    }
    groups.sort_by_key(|group| !group.contains(&anchor));
    let mut rated = Vec::new();
    for group in groups {
        let group_anchor = if group.contains(&anchor) {
            anchor
        } else {
            order
                .iter()
                .map(String::as_str)
                .find(|n| group.contains(n))
                .unwrap_or(group[0])
        };
        let index = |name: &str| group.iter().position(|n| *n == name);
        let pairings: Vec<Pairing> = pairs
            .iter()
            .filter_map(|((a, b), (games, score))| {
                Some(Pairing {
                    first: index(a)?,
                    second: index(b)?,
                    games: *games,
                    score: *score,
                })
            })
            .collect();
        let group_names: Vec<String> = group.iter().map(|n| n.to_string()).collect();
        let at = index(group_anchor).expect("the anchor is in its group");
        let ratings = fit(&group_names, &pairings, at, prior_draws)?;
        let mut totals = vec![(0u64, 0.0f64); group.len()];
        for p in &pairings {
            totals[p.first].0 += p.games as u64;
            totals[p.first].1 += p.score;
            totals[p.second].0 += p.games as u64;
            totals[p.second].1 += p.games - p.score;
        }
        rated.push(Group {
            anchor: group_anchor.to_string(),
            players: group_names
                .into_iter()
                .zip(ratings)
                .zip(totals)
                .map(|((name, rating), (games, points))| (name, rating, games, points))
                .collect(),
        });
    }
    Ok(rated)
}

/// One group's ranking as Markdown rows, best first.
fn ranking(text: &mut String, group: &Group) {
    let _ = writeln!(text, "| Rank | Player | Elo | 95% CI | Games | Score |");
    let _ = writeln!(text, "|---|---|---|---|---|---|");
    let mut order: Vec<&(String, Rating, u64, f64)> = group.players.iter().collect();
    order.sort_by(|x, y| y.1.elo.total_cmp(&x.1.elo));
    for (rank, (name, rating, games, points)) in order.into_iter().enumerate() {
        let interval = if *name == group.anchor {
            "anchor".to_string()
        } else {
            format!("{} .. {}", whole_elo(rating.low), whole_elo(rating.high))
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {:.1}% |",
            rank + 1,
            name,
            whole_elo(rating.elo),
            interval,
            games,
            100.0 * points / (*games).max(1) as f64
        );
    }
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
    let groups = rate_groups(&games, request.anchor, request.prior_draws, request.order)
        .map_err(|e| format!("at control {control}: {e}"))?;
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
    ranking(&mut text, &groups[0]);
    for group in &groups[1..] {
        let _ = writeln!(
            text,
            "\nNo game links these players to {}: rated among themselves, anchor {} = 0 (their \
             figures are not on the scale above).\n",
            request.anchor, group.anchor
        );
        ranking(&mut text, group);
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
