//! How many laps a CodinGame recording was raced over. The `gameResult` form and the fixture come
//! from the current referee: 3 laps (csb-rules.md §5.1). Viewer-frame recordings carry no lap
//! count: the contest-era referee raced floor(15 / N) laps over N checkpoints (§11.4), the
//! current one 3. So the count is read from what the recording shows: a BOOST's 650 thrust in a
//! pod line (the contest-era referee had no BOOST), or a finish on a pass that only 3 laps
//! explain, means current rules; otherwise the contest-era rule is assumed. `--laps N` overrides.

use crate::codingame::recording::{HeaderEnd, RecordedTurn, ViewPod};

/// Laps of the current game (csb-rules.md §5.1).
pub const CURRENT_LAPS: u16 = 3;
/// The contest-era referee's laps: floor(this / checkpoints) (csb-rules.md §11.4).
pub const CONTEST_ERA_LAP_PASSES: usize = 15;
/// The thrust a pod line shows for a first BOOST (csb-rules.md §9.2, field 4).
pub const BOOST_THRUST: i64 = 650;

/// The laps assumed for a recording and the reason, as the report prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LapsChoice {
    pub laps: u16,
    pub rule: String,
}

/// The current referee's rule, for the forms it writes.
pub fn current_rules() -> LapsChoice {
    LapsChoice {
        laps: CURRENT_LAPS,
        rule: "current rules: 3 laps".to_string(),
    }
}

/// The laps given on the command line.
pub fn given(laps: u16) -> LapsChoice {
    LapsChoice {
        laps,
        rule: "given by --laps".to_string(),
    }
}

/// Each pod's checkpoint passes over the recording: one per change of its next checkpoint id
/// (a pod passes at most one checkpoint a turn), and the last turn's count.
fn passes_at_end(initial: &[ViewPod], turns: &[RecordedTurn]) -> Vec<usize> {
    let mut previous: Vec<Option<i64>> = initial.iter().map(|p| p.next_checkpoint).collect();
    let mut passes = vec![0; initial.len()];
    for turn in turns {
        for (pod, state) in turn.pods.iter().enumerate().take(passes.len()) {
            if state.next_checkpoint != previous[pod] {
                passes[pod] += 1;
                previous[pod] = state.next_checkpoint;
            }
        }
    }
    passes
}

/// The laps of a viewer-frame recording over `checkpoints` checkpoints (see the module comment).
pub fn infer_viewer_frame_laps(
    checkpoints: usize,
    initial: &[ViewPod],
    turns: &[RecordedTurn],
) -> LapsChoice {
    let contest_era = (CONTEST_ERA_LAP_PASSES / checkpoints.max(1)) as u16;
    let boost = turns.iter().enumerate().find_map(|(index, turn)| {
        turn.pods
            .iter()
            .position(|pod| pod.thrust == Some(BOOST_THRUST))
            .map(|pod| (index + 1, pod))
    });
    if let Some((turn, pod)) = boost {
        return LapsChoice {
            laps: CURRENT_LAPS,
            rule: format!(
                "current rules, 3 laps: pod {pod} shows a BOOST's 650 thrust at turn {turn} \
                 (the contest-era referee had no BOOST)"
            ),
        };
    }
    let finished = turns.last().and_then(|t| t.header_end) == Some(HeaderEnd::EndReached);
    if finished && contest_era != CURRENT_LAPS {
        let passes = passes_at_end(initial, turns);
        let (pod, most) = passes
            .iter()
            .copied()
            .enumerate()
            .max_by_key(|&(_, p)| p)
            .unwrap_or((0, 0));
        if most == usize::from(CURRENT_LAPS) * checkpoints {
            return LapsChoice {
                laps: CURRENT_LAPS,
                rule: format!(
                    "current rules, 3 laps: the race ends on pod {pod}'s pass {most}, which only 3 \
                     laps of {checkpoints} checkpoints explain (the contest-era rule would need {})",
                    usize::from(contest_era) * checkpoints
                ),
            };
        }
    }
    LapsChoice {
        laps: contest_era,
        rule: format!(
            "contest-era rule, floor(15 / {checkpoints}) = {contest_era} laps: no BOOST in any pod \
             line{}",
            if contest_era == CURRENT_LAPS {
                " (both rules give 3 laps here)"
            } else {
                " and no finish that only 3 laps explain"
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(next: i64, thrust: i64) -> ViewPod {
        ViewPod {
            x: 0.0,
            y: 0.0,
            vx: 0.0,
            vy: 0.0,
            thrust: Some(thrust),
            target: None,
            angle: None,
            shield: false,
            next_checkpoint: Some(next),
            rank: Some(1),
            message: String::new(),
        }
    }

    /// A recording of one pod (and an idle one) passing `passes` checkpoints of 3, one a turn.
    fn recording(
        passes: usize,
        end: Option<HeaderEnd>,
        thrust: i64,
    ) -> (Vec<ViewPod>, Vec<RecordedTurn>) {
        let initial = vec![pod(1, 0), pod(1, 0)];
        let turns = (1..=passes)
            .map(|k| RecordedTurn {
                pods: vec![pod(((k + 1) % 3) as i64, thrust), pod(1, 0)],
                header_end: if k == passes { end } else { None },
                ..RecordedTurn::default()
            })
            .collect();
        (initial, turns)
    }

    #[test]
    fn a_boost_means_current_rules() {
        let (initial, turns) = recording(4, None, 650);
        let choice = infer_viewer_frame_laps(3, &initial, &turns);
        assert_eq!(choice.laps, 3);
        assert!(choice.rule.contains("BOOST"), "{}", choice.rule);
    }

    #[test]
    fn a_finish_on_the_ninth_pass_of_three_checkpoints_means_three_laps() {
        let (initial, turns) = recording(9, Some(HeaderEnd::EndReached), 100);
        let choice = infer_viewer_frame_laps(3, &initial, &turns);
        assert_eq!(choice.laps, 3);
        assert!(choice.rule.contains("pass 9"), "{}", choice.rule);
    }

    #[test]
    fn otherwise_the_contest_era_rule() {
        let (initial, turns) = recording(15, Some(HeaderEnd::EndReached), 200);
        assert_eq!(infer_viewer_frame_laps(3, &initial, &turns).laps, 5);
        let (initial, turns) = recording(9, None, 100);
        assert_eq!(infer_viewer_frame_laps(3, &initial, &turns).laps, 5);
        assert_eq!(infer_viewer_frame_laps(6, &initial, &turns).laps, 2);
    }
}
