//! Where a game is played, as CodinGame's referee sets it up (feature `referee`; the bot is
//! told its map): the map pool, the map drawn from a referee seed and the pods' start positions
//! (csb-rules.md §2).

use super::java_random::JavaRandom;
use crate::engine::map::Map;
use crate::engine::rounding::java_round;
use crate::engine::rules::{MAX_CHECKPOINTS, POD_COUNT, SPAWN_SPACING};
use crate::engine::vec2::Vec2;

/// The map pool, in CodinGame's order (the order matters for seeded generation) — §2.1.
pub const MAP_TEMPLATES: [&[(i32, i32)]; 13] = [
    &[(12460, 1350), (10540, 5980), (3580, 5180), (13580, 7600)],
    &[
        (3600, 5280),
        (13840, 5080),
        (10680, 2280),
        (8700, 7460),
        (7200, 2160),
    ],
    &[
        (4560, 2180),
        (7350, 4940),
        (3320, 7230),
        (14580, 7700),
        (10560, 5060),
        (13100, 2320),
    ],
    &[(5010, 5260), (11480, 6080), (9100, 1840)],
    &[(14660, 1410), (3450, 7220), (9420, 7240), (5970, 4240)],
    &[(3640, 4420), (8000, 7900), (13300, 5540), (9560, 1400)],
    &[(4100, 7420), (13500, 2340), (12940, 7220), (5640, 2580)],
    &[
        (14520, 7780),
        (6320, 4290),
        (7800, 860),
        (7660, 5970),
        (3140, 7540),
        (9520, 4380),
    ],
    &[(10040, 5970), (13920, 1940), (8020, 3260), (2670, 7020)],
    &[(7500, 6940), (6000, 5360), (11300, 2820)],
    &[
        (4060, 4660),
        (13040, 1900),
        (6560, 7840),
        (7480, 1360),
        (12700, 7100),
    ],
    &[
        (3020, 5190),
        (6280, 7760),
        (14100, 7760),
        (13880, 1220),
        (10240, 4920),
        (6100, 2200),
    ],
    &[(10323, 3366), (11203, 5425), (7259, 6656), (5425, 2838)],
];

/// Spawn slot of pod i in multiples of [`SPAWN_SPACING`] along the normal of C0→C1 — §2.3.
const SPAWN_SLOTS: [f64; POD_COUNT] = [-1.0, 1.0, -3.0, 3.0];

impl Map {
    /// The map CodinGame builds from a referee seed: template, rotation, jitter — §2.2.
    pub fn from_seed(seed: i64) -> Map {
        let mut random = JavaRandom::new(seed);
        let template = MAP_TEMPLATES[random.next_int(MAP_TEMPLATES.len() as i32) as usize];
        let count = template.len();
        let rotation = random.next_int(count as i32) as usize;
        let mut points = [(0, 0); MAX_CHECKPOINTS];
        for (index, point) in points.iter_mut().take(count).enumerate() {
            // Collections.rotate(list, d): new[j] = old[(j - d) mod n].
            *point = template[(index + count - rotation) % count];
        }
        for point in points.iter_mut().take(count) {
            point.0 += random.next_int(61) - 30;
            point.1 += random.next_int(59) - 30;
        }
        Map::new(&points[..count]).expect("templates have 3 to 6 checkpoints")
    }

    /// Start positions of pods 0..pod_count (2 or 4) — §2.3.
    pub fn spawn_positions(&self, pod_count: usize) -> [Vec2; POD_COUNT] {
        let first = self.checkpoint(0);
        let second = self.checkpoint(1);
        let dx = second.x - first.x;
        let dy = second.y - first.y;
        let length = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = (dx / length, dy / length);
        let (px, py) = (-uy, ux);
        let mut spawns = [Vec2::ZERO; POD_COUNT];
        for (pod, spawn) in spawns.iter_mut().enumerate().take(pod_count) {
            let offset = SPAWN_SLOTS[pod] * SPAWN_SPACING;
            *spawn = Vec2::new(
                java_round(first.x + px * offset),
                java_round(first.y + py * offset),
            );
        }
        spawns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_game_spawns() {
        let map = Map::new(&[(4970, 5340), (11548, 6107), (9019, 1891)]).unwrap();
        let spawns = map.spawn_positions(4);
        let expected = [
            (5028.0, 4843.0),
            (4912.0, 5837.0),
            (5144.0, 3850.0),
            (4796.0, 6830.0),
        ];
        for (spawn, (x, y)) in spawns.iter().zip(expected) {
            assert_eq!((spawn.x, spawn.y), (x, y));
        }
    }
}
