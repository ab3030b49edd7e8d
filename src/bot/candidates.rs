//! The candidate lines `--verbose 1` prints each turn (format `candidates/1`,
//! arena/REPLAY_FORMAT.md, "Candidate lines"): one line per search tree, our two pods' and the
//! two we model for the opponent, with each root action's visits, mean score and prior, the
//! chosen (ours) or expected (theirs) action starred. Writing and reading them; flags only, never
//! in the bundle.
//!
//! `candidates/1 pod=2 0:812/0.4123/0.2010 *1:1630/0.4410/0.3120 … 9:3/0.1000/-`

use std::fmt::Write;

/// The first word of every line: the format's name and version.
pub const TAG: &str = "candidates/1";

/// One root action of a tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub visits: u32,
    /// Mean backed-up score, from the side of the tree's pod (written with 4 decimals).
    pub mean: f64,
    /// The prior the search gave it; `None` when the search has none (the hand evaluation).
    pub prior: Option<f64>,
}

/// One tree's root: the pod (0 and 1 the bot's own, 2 and 3 the opponent's, in the input's
/// order), its actions in action order (`actions.rs`), and the starred one.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateLine {
    pub pod: u8,
    pub starred: u8,
    pub candidates: Vec<Candidate>,
}

impl CandidateLine {
    /// The line, without its newline.
    pub fn write(&self) -> String {
        let mut text = format!("{TAG} pod={}", self.pod);
        for (action, candidate) in self.candidates.iter().enumerate() {
            let star = if action == usize::from(self.starred) {
                "*"
            } else {
                ""
            };
            let _ = write!(
                text,
                " {star}{action}:{}/{:.4}/",
                candidate.visits, candidate.mean
            );
            match candidate.prior {
                Some(prior) => {
                    let _ = write!(text, "{prior:.4}");
                }
                None => text.push('-'),
            }
        }
        text
    }

    /// Reads a line written by [`CandidateLine::write`] (surrounding white space ignored); an
    /// error says what is wrong.
    pub fn parse(line: &str) -> Result<CandidateLine, String> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some(TAG) => {}
            Some(other) if other.starts_with("candidates/") => {
                return Err(format!("version {other:?} is not {TAG:?}"))
            }
            _ => return Err(format!("does not start with {TAG:?}")),
        }
        let pod = words
            .next()
            .and_then(|word| word.strip_prefix("pod="))
            .and_then(|pod| pod.parse::<u8>().ok())
            .filter(|&pod| pod < 4)
            .ok_or("expected pod=0..3 after the tag")?;
        let mut candidates = Vec::new();
        let mut starred = None;
        for (index, word) in words.enumerate() {
            let (star, word) = match word.strip_prefix('*') {
                Some(rest) => (true, rest),
                None => (false, word),
            };
            let bad =
                || format!("action {index}: expected {index}:VISITS/MEAN/PRIOR, got {word:?}");
            let (action, stats) = word.split_once(':').ok_or_else(bad)?;
            if action.parse::<usize>().ok() != Some(index) {
                return Err(bad());
            }
            let mut fields = stats.split('/');
            let (Some(visits), Some(mean), Some(prior), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(bad());
            };
            let visits = visits.parse::<u32>().map_err(|_| bad())?;
            let mean = mean
                .parse::<f64>()
                .ok()
                .filter(|mean| mean.is_finite())
                .ok_or_else(bad)?;
            let prior = match prior {
                "-" => None,
                prior => Some(
                    prior
                        .parse::<f64>()
                        .ok()
                        .filter(|prior| (0.0..=1.0).contains(prior))
                        .ok_or_else(bad)?,
                ),
            };
            if star {
                if starred.is_some() {
                    return Err(format!("action {index}: a second star"));
                }
                starred = Some(index as u8);
            }
            candidates.push(Candidate {
                visits,
                mean,
                prior,
            });
        }
        if candidates.len() > crate::bot::actions::ACTION_COUNT {
            return Err(format!("{} actions, at most 10", candidates.len()));
        }
        let starred = match starred {
            Some(starred) => starred,
            None if candidates.is_empty() => 0,
            None => return Err("no starred action".to_string()),
        };
        Ok(CandidateLine {
            pod,
            starred,
            candidates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> CandidateLine {
        CandidateLine {
            pod: 2,
            starred: 3,
            candidates: (0..10)
                .map(|action| Candidate {
                    visits: action * 37 + 1,
                    mean: 0.05 * f64::from(action) + 0.0001,
                    prior: (action != 7).then_some(f64::from(action) / 45.0),
                })
                .collect(),
        }
    }

    /// Values as written: four decimals.
    fn rounded(line: &CandidateLine) -> CandidateLine {
        let round = |x: f64| (x * 1e4).round() / 1e4;
        CandidateLine {
            candidates: line
                .candidates
                .iter()
                .map(|c| Candidate {
                    visits: c.visits,
                    mean: round(c.mean),
                    prior: c.prior.map(round),
                })
                .collect(),
            ..line.clone()
        }
    }

    #[test]
    fn a_written_line_reads_back_as_written() {
        let line = line();
        let text = line.write();
        assert!(text.starts_with("candidates/1 pod=2 0:1/0.0001/0.0000 1:38/"));
        assert!(text.contains(" *3:112/0.1501/0.0667 "), "{text}");
        assert!(text.contains(" 7:260/0.3501/- "), "{text}");
        let read = CandidateLine::parse(&format!("  {text}\n")).unwrap();
        assert_eq!(read, rounded(&line));
        assert_eq!(read.write(), text);
    }

    #[test]
    fn an_empty_root_is_a_line_without_actions() {
        let line = CandidateLine {
            pod: 0,
            starred: 0,
            candidates: Vec::new(),
        };
        assert_eq!(line.write(), "candidates/1 pod=0");
        assert_eq!(CandidateLine::parse("candidates/1 pod=0").unwrap(), line);
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        for (text, error) in [
            ("candidate/1 pod=0", "does not start with"),
            (
                "candidates/2 pod=0 *0:1/0.5/0.1",
                "version \"candidates/2\"",
            ),
            ("candidates/1 pod=4 *0:1/0.5/0.1", "pod=0..3"),
            ("candidates/1 *0:1/0.5/0.1", "pod=0..3"),
            ("candidates/1 pod=1 *0:1/0.5", "action 0:"),
            ("candidates/1 pod=1 *0:1/0.5/0.1 2:1/0.5/0.1", "action 1:"),
            ("candidates/1 pod=1 *0:-1/0.5/0.1", "action 0:"),
            ("candidates/1 pod=1 *0:1/NaN/0.1", "action 0:"),
            ("candidates/1 pod=1 *0:1/0.5/1.5", "action 0:"),
            (
                "candidates/1 pod=1 *0:1/0.5/0.1 *1:1/0.5/0.1",
                "a second star",
            ),
            ("candidates/1 pod=1 0:1/0.5/0.1", "no starred action"),
        ] {
            let message = CandidateLine::parse(text).unwrap_err();
            assert!(message.contains(error), "{text}: {message}");
        }
        let eleven = format!("candidates/1 pod=0 *0:1/0.5/-{}", {
            (1..11).map(|a| format!(" {a}:1/0.5/-")).collect::<String>()
        });
        assert!(CandidateLine::parse(&eleven)
            .unwrap_err()
            .contains("at most 10"));
    }
}
