//! The race as a sparring bot sees it: the course (map, laps, league) read at initialisation and
//! the race progress measure both bots rank pods by (the memory's role choice among them). The
//! pods rebuilt from a turn's input and the memory are in `pods.rs`, above both.
//!
//! Everything here is from the bot's own perspective: pods 0 and 1 are its own, 2 and 3 the
//! opponent's, in input order.

use csb::engine::{FastPod, League, Map, Vec2};

/// Pods in a game: two per player, own first.
pub const POD_COUNT: usize = 4;

/// Progress worth of one checkpoint pass; larger than any distance on the board, so passes
/// always dominate the distance term.
pub const PASS_WEIGHT: f64 = 30_000.0;

/// The fixed facts of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Course {
    pub map: Map,
    pub laps: u16,
    pub league: League,
}

impl Course {
    /// Largest integer thrust allowed (100 in Gold, 200 in Legend).
    pub fn cap(&self) -> u16 {
        self.league.max_thrust()
    }

    /// Passes that finish the race: laps × checkpoints.
    pub fn finish_passes(&self) -> u16 {
        self.laps * self.map.checkpoint_count() as u16
    }
}

/// Race progress of a pod: passes × [`PASS_WEIGHT`] minus the distance to its next checkpoint.
#[inline]
pub fn progress(map: &Map, passes: u16, pos: Vec2) -> f64 {
    let next = map.checkpoint((passes as usize + 1) % map.checkpoint_count());
    f64::from(passes) * PASS_WEIGHT - pos.distance(next)
}

/// [`progress`] of a fast-path pod.
#[inline]
pub fn fast_progress(map: &Map, pod: &FastPod) -> f64 {
    let next = map.checkpoint(pod.next_checkpoint as usize);
    f64::from(pod.passes) * PASS_WEIGHT - pod.pos.distance(next)
}

/// The pods as the opponent sees them: its pods first.
#[inline]
pub fn swap_sides(pods: &[FastPod; POD_COUNT]) -> [FastPod; POD_COUNT] {
    [pods[2], pods[3], pods[0], pods[1]]
}

/// Index (`first` or `first + 1`) of the pod of a player ahead in race progress; ties go to `first`.
#[inline]
pub fn leader(map: &Map, pods: &[FastPod; POD_COUNT], first: usize) -> usize {
    if fast_progress(map, &pods[first + 1]) > fast_progress(map, &pods[first]) {
        first + 1
    } else {
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_dominate_distance() {
        let map = Map::new(&[(0, 0), (16000, 9000), (8000, 0)]).unwrap();
        let near = progress(&map, 1, Vec2::new(8000.0, 100.0));
        let far = progress(&map, 2, Vec2::new(16000.0, 9000.0));
        assert!(far > near);
        assert!(progress(&map, 0, Vec2::new(15000.0, 9000.0)) > progress(&map, 0, Vec2::ZERO));
    }
}
