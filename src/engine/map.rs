//! The checkpoints of a race (csb-rules.md §2); how the referee draws them and places the pods
//! is `map_setup.rs`.

use super::rules::MAX_CHECKPOINTS;
use super::vec2::Vec2;

/// Why a checkpoint list is not a valid map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError(pub String);

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The checkpoints of one race (2..=8 of them), a small `Copy` value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Map {
    checkpoints: [Vec2; MAX_CHECKPOINTS],
    count: u8,
}

impl Map {
    /// A map from integral checkpoint coordinates; 2..=8 checkpoints.
    pub fn new(checkpoints: &[(i32, i32)]) -> Result<Map, MapError> {
        if checkpoints.len() < 2 || checkpoints.len() > MAX_CHECKPOINTS {
            return Err(MapError(format!(
                "a map has 2 to {MAX_CHECKPOINTS} checkpoints, got {}",
                checkpoints.len()
            )));
        }
        let mut map = Map {
            checkpoints: [Vec2::ZERO; MAX_CHECKPOINTS],
            count: checkpoints.len() as u8,
        };
        for (slot, &(x, y)) in map.checkpoints.iter_mut().zip(checkpoints) {
            *slot = Vec2::new(f64::from(x), f64::from(y));
        }
        Ok(map)
    }

    #[inline(always)]
    pub fn checkpoint_count(&self) -> usize {
        self.count as usize
    }

    #[inline(always)]
    pub fn checkpoint(&self, index: usize) -> Vec2 {
        self.checkpoints[index]
    }

    pub fn checkpoints(&self) -> &[Vec2] {
        &self.checkpoints[..self.count as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_too_few_or_too_many_checkpoints() {
        assert!(Map::new(&[(0, 0)]).is_err());
        assert!(Map::new(&[(0, 0); 9]).is_err());
    }
}
