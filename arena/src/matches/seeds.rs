//! Game seeds of a match: game i is played on the CodinGame map of the seed derived from the
//! match seed and the pair index i / 2 (splitmix64), so both games of a pair share a map and
//! any shard of the match derives the same seeds.

use csb::engine::referee::splitmix64::splitmix64;

/// The referee seed of game `game` (a non-negative 31-bit number, like CodinGame's).
pub fn game_seed(match_seed: u64, game: usize) -> i64 {
    let pair = (game / 2) as u64;
    (splitmix64(splitmix64(match_seed) ^ pair) >> 33) as i64
}

/// Whether p1 sits as player 0 in game `game` (even games) or as player 1 (odd games).
pub fn p1_is_player0(game: usize) -> bool {
    game.is_multiple_of(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_share_a_seed_and_seeds_differ() {
        assert_eq!(game_seed(7, 0), game_seed(7, 1));
        assert_ne!(game_seed(7, 1), game_seed(7, 2));
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
        assert!((0..1000).all(|g| (0..1i64 << 31).contains(&game_seed(3, g))));
    }

    #[test]
    fn seeds_stay_what_they_were() {
        // The maps of earlier matches and ladder results: these must never change.
        let seeds: Vec<i64> = (0..6).map(|game| game_seed(1, game)).collect();
        assert_eq!(
            seeds,
            [790680964, 790680964, 1962848292, 1962848292, 1584197082, 1584197082]
        );
    }
}
