//! The minibatches' order of both trainings: a seeded shuffle, so one seed and epoch give one
//! order on every machine.

use csb::engine::referee::splitmix64::splitmix64;

/// A seeded shuffle of `0..n` (Fisher–Yates on splitmix64).
pub fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed;
    for index in (1..n).rev() {
        state = splitmix64(state);
        let other = (state % (index as u64 + 1)) as usize;
        order.swap(index, other);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_its_seed() {
        let order = shuffled(50, 7);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(shuffled(50, 7), order);
        assert_ne!(shuffled(50, 8), order);
        assert!(shuffled(0, 1).is_empty());
    }
}
