//! The split of the data by map into training, validation (early stopping) and test (the
//! figures reported), shared by the value and the policy data sets: a map's split is a function
//! of its map seed alone ([`split_of_map`]), so the two games of a map (self-play's games `2k`
//! and `2k + 1`, seats swapped) and any game replayed on it fall in one split, and no test
//! position has a mirrored twin in training.

use csb::search::Rng;

/// Where a map's games go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    Train,
    Validation,
    Test,
}

/// The split of the games on the map of `map_seed`: the first draw of the project's generator
/// seeded with it, modulo 10: 0 test, 1 validation, 2 to 9 training (so a tenth of the maps
/// each, as they come).
pub fn split_of_map(map_seed: i64) -> Split {
    match Rng::new(map_seed as u64).next_u64() % 10 {
        0 => Split::Test,
        1 => Split::Validation,
        _ => Split::Train,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::run::map_seed;

    #[test]
    fn a_pair_of_games_shares_a_map_and_the_held_out_splits_are_a_tenth() {
        let mut counts = [0u32; 3];
        for pair in 0..5000u64 {
            // Self-play's games 2k and 2k + 1 share a map, hence a split.
            let (first, second) = (map_seed(9, 2 * pair), map_seed(9, 2 * pair + 1));
            assert_eq!(first, second);
            counts[split_of_map(first) as usize] += 1;
        }
        // 500 expected in each held-out split; 400 is 4.7 standard deviations away.
        assert!(counts[1] > 400 && counts[1] < 600, "{counts:?}");
        assert!(counts[2] > 400 && counts[2] < 600, "{counts:?}");
    }
}
