//! The search tunables by name (feature `cli`): the parser that lets a flag set any of them
//! without recompiling, and the `name=value` list that shows them.

use super::params::{FinalMove, SearchParams, Selection, MAX_DEPTH};
use std::fmt;

impl SearchParams {
    /// The names [`SearchParams::set`] accepts, in the order `Display` prints them.
    pub const NAMES: [&'static str; 13] = [
        "depth",
        "exploration",
        "random-visits",
        "expand-after",
        "discount",
        "rollout",
        "final-move",
        "selection",
        "smooth-eta",
        "smooth-gamma",
        "smooth-d",
        "exp3-gamma",
        "reuse-decay",
    ];

    /// Set the tunable called `name` from its text `value`, e.g. `set("discount", "0.95")`.
    /// On error nothing changes and the message is what the value must be, e.g. `a number in
    /// (0, 1]` (the caller names the flag and quotes the value).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        match name {
            "depth" => {
                self.depth = parse_u32(value)
                    .filter(|depth| *depth >= 1 && *depth as usize <= MAX_DEPTH)
                    .ok_or_else(|| format!("an integer in 1..={MAX_DEPTH}"))?
            }
            "exploration" => {
                self.exploration = parse_f64(value)
                    .filter(|c| *c >= 0.0 && c.is_finite())
                    .ok_or("a finite number >= 0")?
            }
            "random-visits" => self.random_visits = parse_u32(value).ok_or(NON_NEGATIVE)?,
            "expand-after" => self.expand_after = parse_u32(value).ok_or(NON_NEGATIVE)?,
            "discount" => {
                self.discount = parse_f64(value)
                    .filter(|g| *g > 0.0 && *g <= 1.0)
                    .ok_or("a number in (0, 1]")?
            }
            "rollout" => self.rollout_plies = parse_u32(value).ok_or(NON_NEGATIVE)?,
            "final-move" => {
                self.final_move = match value {
                    "most-visited" => FinalMove::MostVisited,
                    "best-average" => FinalMove::BestAverage,
                    _ => return Err("most-visited or best-average".to_string()),
                }
            }
            "selection" => {
                self.selection = match value {
                    "ucb1" => Selection::Ucb1,
                    "ucb1-tuned" => Selection::Ucb1Tuned,
                    "smooth-uct" => Selection::SmoothUct,
                    "exp3" => Selection::Exp3,
                    _ => return Err("ucb1, ucb1-tuned, smooth-uct or exp3".to_string()),
                }
            }
            "smooth-eta" => self.smooth_eta = parse_probability(value)?,
            "smooth-gamma" => self.smooth_gamma = parse_probability(value)?,
            "smooth-d" => {
                self.smooth_d = parse_f64(value)
                    .filter(|d| *d >= 0.0 && d.is_finite())
                    .ok_or("a finite number >= 0")?
            }
            "exp3-gamma" => {
                self.exp3_gamma = parse_f64(value)
                    .filter(|g| *g > 0.0 && *g <= 1.0)
                    .ok_or("a number in (0, 1]")?
            }
            "reuse-decay" => self.reuse_decay = parse_probability(value)?,
            _ => {
                return Err(format!(
                    "unknown search parameter \"{name}\", expected one of: {}",
                    Self::NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

/// `depth=6 exploration=1 ...`: every tunable as `name=value`, in the syntax `set` accepts.
impl fmt::Display for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let final_move = match self.final_move {
            FinalMove::MostVisited => "most-visited",
            FinalMove::BestAverage => "best-average",
        };
        let selection = match self.selection {
            Selection::Ucb1 => "ucb1",
            Selection::Ucb1Tuned => "ucb1-tuned",
            Selection::SmoothUct => "smooth-uct",
            Selection::Exp3 => "exp3",
        };
        write!(
            f,
            "depth={} exploration={} random-visits={} expand-after={} discount={} rollout={} \
             final-move={} selection={} smooth-eta={} smooth-gamma={} smooth-d={} exp3-gamma={} \
             reuse-decay={}",
            self.depth,
            self.exploration,
            self.random_visits,
            self.expand_after,
            self.discount,
            self.rollout_plies,
            final_move,
            selection,
            self.smooth_eta,
            self.smooth_gamma,
            self.smooth_d,
            self.exp3_gamma,
            self.reuse_decay
        )
    }
}

/// What a count must be.
const NON_NEGATIVE: &str = "an integer >= 0";

fn parse_u32(value: &str) -> Option<u32> {
    value.parse().ok()
}

fn parse_probability(value: &str) -> Result<f64, String> {
    parse_f64(value)
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| "a number in [0, 1]".to_string())
}

fn parse_f64(value: &str) -> Option<f64> {
    value.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_accepts_a_good_value() {
        let mut params = SearchParams::default();
        params.set("depth", "8").unwrap();
        params.set("exploration", "0.7").unwrap();
        params.set("random-visits", "3").unwrap();
        params.set("expand-after", "2").unwrap();
        params.set("discount", "0.95").unwrap();
        params.set("rollout", " 2 ").unwrap();
        params.set("final-move", "best-average").unwrap();
        params.set("selection", "ucb1-tuned").unwrap();
        params.set("smooth-eta", "0.8").unwrap();
        params.set("smooth-gamma", "0.2").unwrap();
        params.set("smooth-d", "0.01").unwrap();
        params.set("exp3-gamma", "0.3").unwrap();
        params.set("reuse-decay", "0.25").unwrap();
        assert_eq!(
            params,
            SearchParams {
                depth: 8,
                exploration: 0.7,
                random_visits: 3,
                expand_after: 2,
                discount: 0.95,
                rollout_plies: 2,
                final_move: FinalMove::BestAverage,
                selection: Selection::Ucb1Tuned,
                smooth_eta: 0.8,
                smooth_gamma: 0.2,
                smooth_d: 0.01,
                exp3_gamma: 0.3,
                reuse_decay: 0.25,
            }
        );
        params.set("selection", "smooth-uct").unwrap();
        assert_eq!(params.selection, Selection::SmoothUct);
        params.set("selection", "exp3").unwrap();
        assert_eq!(params.selection, Selection::Exp3);
        params.set("final-move", "most-visited").unwrap();
        params.set("selection", "ucb1").unwrap();
        params.set("discount", "1").unwrap();
        params.set("exploration", "0").unwrap();
        params.set("depth", &MAX_DEPTH.to_string()).unwrap();
        assert_eq!(params.final_move, FinalMove::MostVisited);
        assert_eq!(params.selection, Selection::Ucb1);
        assert_eq!(params.discount, 1.0);
        assert_eq!(params.depth as usize, MAX_DEPTH);
    }

    #[test]
    fn bad_values_are_rejected_with_a_clear_message_and_change_nothing() {
        let cases = [
            ("depth", "0", format!("an integer in 1..={MAX_DEPTH}")),
            ("depth", "x", format!("an integer in 1..={MAX_DEPTH}")),
            ("exploration", "-0.5", "a finite number >= 0".to_string()),
            ("exploration", "inf", "a finite number >= 0".to_string()),
            ("exploration", "NaN", "a finite number >= 0".to_string()),
            ("exploration", "", "a finite number >= 0".to_string()),
            ("random-visits", "1.5", "an integer >= 0".to_string()),
            ("expand-after", "-1", "an integer >= 0".to_string()),
            ("discount", "0", "a number in (0, 1]".to_string()),
            ("discount", "1.01", "a number in (0, 1]".to_string()),
            ("discount", "nan", "a number in (0, 1]".to_string()),
            ("rollout", "x", "an integer >= 0".to_string()),
            (
                "final-move",
                "best",
                "most-visited or best-average".to_string(),
            ),
            (
                "selection",
                "exp4",
                "ucb1, ucb1-tuned, smooth-uct or exp3".to_string(),
            ),
            ("smooth-eta", "1.5", "a number in [0, 1]".to_string()),
            ("smooth-gamma", "-0.1", "a number in [0, 1]".to_string()),
            ("smooth-d", "-1", "a finite number >= 0".to_string()),
            ("exp3-gamma", "0", "a number in (0, 1]".to_string()),
            ("reuse-decay", "1.5", "a number in [0, 1]".to_string()),
            (
                "dpeth",
                "6",
                "unknown search parameter \"dpeth\", expected one of: depth, ".to_string()
                    + "exploration, random-visits, expand-after, discount, rollout, final-move, "
                    + "selection, smooth-eta, smooth-gamma, smooth-d, exp3-gamma, reuse-decay",
            ),
        ];
        for (name, value, expected) in cases {
            let mut params = SearchParams::default();
            let error = params.set(name, value).unwrap_err();
            assert_eq!(error, expected, "{name}={value}");
            assert_eq!(
                params,
                SearchParams::default(),
                "{name}={value} changed params"
            );
        }
    }

    #[test]
    fn display_round_trips_through_set() {
        let mut tuned = SearchParams::default();
        tuned.set("discount", "0.9").unwrap();
        tuned.set("expand-after", "1").unwrap();
        tuned.set("final-move", "best-average").unwrap();
        tuned.set("selection", "exp3").unwrap();
        tuned.set("smooth-d", "0.25").unwrap();
        tuned.set("exp3-gamma", "0.05").unwrap();
        tuned.set("reuse-decay", "0.5").unwrap();
        let text = tuned.to_string();
        let mut parsed = SearchParams::default();
        for pair in text.split_whitespace() {
            let (name, value) = pair.split_once('=').unwrap();
            parsed.set(name, value).unwrap();
        }
        assert_eq!(parsed, tuned);
        assert_eq!(text.split_whitespace().count(), SearchParams::NAMES.len());
    }
}
