//! The exact text a bot receives on stdin (csb-rules.md §3.1, §3.2): the initialisation lines
//! once, then one line per pod every turn (own pods first), built with the engine's
//! `turn_input`. Shared by the referee and `arena inputs`, so both say the same bytes.

use csb::engine::{turn_input, Race};
use std::fmt::Write;

/// `laps`, `checkpointCount`, then one `x y` line per checkpoint.
pub fn init_text(race: &Race) -> String {
    let mut text = format!("{}\n{}\n", race.laps, race.map.checkpoint_count());
    for checkpoint in race.map.checkpoints() {
        let _ = writeln!(text, "{} {}", checkpoint.x as i64, checkpoint.y as i64);
    }
    text
}

/// The pod lines `player` receives before the next turn: `x y vx vy angle nextCheckPointId`.
pub fn turn_text(race: &Race, player: usize) -> String {
    let mut text = String::new();
    for pod in turn_input(race, player).iter().take(race.pod_count()) {
        let _ = writeln!(
            text,
            "{} {} {} {} {} {}",
            pod.x, pod.y, pod.vx, pod.vy, pod.angle_deg, pod.next_checkpoint
        );
    }
    text
}
