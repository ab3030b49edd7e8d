//! The pods of a turn as the engine sees them, rebuilt from the turn's input lines plus what the
//! memory knows (passes, boost, shield lock), and the facing assumed while an angle is unset.
//! Uses `memory` and `world`; the bots use it.

use crate::memory::Memory;
use crate::world::POD_COUNT;
use csb::engine::{FastPod, Map, Pod, PodObservation};

/// Facing to assume for a pod whose angle is still unset (−1): toward its next checkpoint, which
/// is where both bots aim on their first move (the first move faces its target exactly).
pub fn fallback_angle(map: &Map, observation: &PodObservation) -> f64 {
    let next = if observation.next_checkpoint >= 0 {
        observation.next_checkpoint as usize
    } else {
        1 % map.checkpoint_count()
    };
    let target = map.checkpoint(next);
    (target.y - f64::from(observation.y)).atan2(target.x - f64::from(observation.x))
}

/// The engine pod for input line `index`, with the memory's passes, boost and shield lock.
pub fn engine_pod(
    memory: &Memory,
    observations: &[PodObservation; POD_COUNT],
    index: usize,
) -> Pod {
    let remembered = &memory.pods[index];
    observations[index].to_pod(
        remembered.passes,
        remembered.boost_used,
        remembered.shield_lock_turns,
    )
}

/// The four pods in the fast path's representation, own first.
pub fn fast_pods(
    memory: &Memory,
    observations: &[PodObservation; POD_COUNT],
) -> [FastPod; POD_COUNT] {
    let map = memory.map();
    std::array::from_fn(|index| {
        let pod = engine_pod(memory, observations, index);
        FastPod::from_pod(
            &pod,
            map.checkpoint_count(),
            fallback_angle(&map, &observations[index]),
        )
    })
}
