//! The exact text a bot receives on stdin: from Gold the initialisation lines once, then one
//! line per pod every turn (own pods first), built with the engine's `turn_input`
//! (csb-rules.md §3.1, §3.2); below Gold no initialisation and the one-pod lines of
//! docs/leagues.md. Shared by the referee and `arena inputs`, so both say the same bytes.

use csb::engine::rounding::java_round;
use csb::engine::trig::atan2;
use csb::engine::{turn_input, League, Race};
use std::f64::consts::PI;
use std::fmt::Write;

/// Whether the race's league speaks the one-pod protocol (below Gold).
fn one_pod_protocol(race: &Race) -> bool {
    race.league.pods_per_player() == 1
}

/// `laps`, `checkpointCount`, then one `x y` line per checkpoint; nothing below Gold.
pub fn init_text(race: &Race) -> String {
    if one_pod_protocol(race) {
        return String::new();
    }
    let mut text = format!("{}\n{}\n", race.laps, race.map.checkpoint_count());
    for checkpoint in race.map.checkpoints() {
        let _ = writeln!(text, "{} {}", checkpoint.x as i64, checkpoint.y as i64);
    }
    text
}

/// The lines `player` receives before the next turn: from Gold `x y vx vy angle
/// nextCheckPointId` per pod; below Gold the one-pod lines.
pub fn turn_text(race: &Race, player: usize) -> String {
    if one_pod_protocol(race) {
        return one_pod_turn_text(race, player);
    }
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

/// The angle told below Gold: the direction of the checkpoint minus the pod's facing, in
/// degrees folded into −180..=180 and rounded as Java does; 0 while the facing is unset
/// (docs/leagues.md: sign and rounding unverified).
pub fn next_checkpoint_angle_deg(facing_rad: Option<f64>, dx: f64, dy: f64) -> i32 {
    let Some(facing) = facing_rad else {
        return 0;
    };
    let difference = (atan2(dy, dx) - facing) * 180.0 / PI;
    let folded = difference - 360.0 * ((difference + 180.0) / 360.0).floor();
    java_round(folded) as i32
}

/// `x y nextCheckpointX nextCheckpointY nextCheckpointDist nextCheckpointAngle` (Wood 3: the
/// first four) for the player's pod, then `opponentX opponentY`.
fn one_pod_turn_text(race: &Race, player: usize) -> String {
    let count = race.map.checkpoint_count();
    let pods = race.pods();
    let own = &pods[player * race.pods_per_player];
    let opponent = &pods[(1 - player) * race.pods_per_player];
    let next = race.map.checkpoint(own.next_checkpoint(count));
    let (dx, dy) = (next.x - own.pos.x, next.y - own.pos.y);
    let mut text = format!(
        "{} {} {} {}",
        own.pos.x as i64, own.pos.y as i64, next.x as i64, next.y as i64
    );
    if race.league != League::Wood3 {
        let distance = java_round((dx * dx + dy * dy).sqrt()) as i64;
        let angle = next_checkpoint_angle_deg(own.angle_rad, dx, dy);
        let _ = write!(text, " {distance} {angle}");
    }
    let _ = writeln!(
        text,
        "\n{} {}",
        opponent.pos.x as i64, opponent.pos.y as i64
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_told_angle_is_folded_and_signed() {
        assert_eq!(next_checkpoint_angle_deg(None, 1.0, 1.0), 0);
        assert_eq!(next_checkpoint_angle_deg(Some(0.0), 1.0, 1.0), 45);
        assert_eq!(next_checkpoint_angle_deg(Some(0.0), 1.0, -1.0), -45);
        assert_eq!(next_checkpoint_angle_deg(Some(3.0 * PI), 1.0, 0.0), -180);
        assert_eq!(next_checkpoint_angle_deg(Some(-0.5 * PI), -1.0, 0.0), -90);
    }
}
