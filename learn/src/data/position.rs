//! A recorded position (`game_file.rs`'s pods) as the engine's and the search's pods, as the
//! bot would have seen it: what both data sets compute their features from.

use crate::data::game_file::PodRecord;
use csb::engine::{FastPod, Map, Pod, Vec2};

/// The engine pod of a recorded pod.
pub fn engine_pod(record: &PodRecord) -> Pod {
    Pod {
        pos: Vec2::new(f64::from(record.x), f64::from(record.y)),
        vel: Vec2::new(f64::from(record.vx), f64::from(record.vy)),
        angle_rad: record.angle_rad,
        passes: record.passes,
        last_pass_turn: 0,
        boost_used: record.boost_used,
        shield_lock_turns: record.shield_lock_turns,
    }
}

/// The search's pods of a recorded position (an unset angle faces the next checkpoint, as the
/// bot assumes).
pub fn fast_pods(pods: &[PodRecord; 4], map: &Map) -> [FastPod; 4] {
    pods.map(|record| {
        let pod = engine_pod(&record);
        let next = map.checkpoint(usize::from(record.next_checkpoint));
        let fallback = (next.y - pod.pos.y).atan2(next.x - pod.pos.x);
        let mut fast = FastPod::from_pod(&pod, map.checkpoint_count(), fallback);
        fast.next_checkpoint = record.next_checkpoint;
        fast
    })
}
