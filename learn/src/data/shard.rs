//! `--shard I/N`: which games of a run this process plays (game `i` when `i mod N = I`), so
//! several processes (or machines) split a run and their files never collide. Parsed by the
//! arena's parser, so the flag reads the same everywhere.

use std::fmt;

/// One shard of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with `0 <= I < N`, as the arena's long runs do.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (index, count) = arena::cli::parse_shard(text)?;
        Ok(Shard {
            index: index as u64,
            count: count as u64,
        })
    }

    /// Whether game `game` belongs to this shard.
    pub fn holds(&self, game: u64) -> bool {
        game % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games() {
        let shard = Shard::parse("1/3").unwrap();
        assert_eq!(shard.to_string(), "1/3");
        assert_eq!(
            (0..9).filter(|&g| shard.holds(g)).collect::<Vec<_>>(),
            [1, 4, 7]
        );
        for bad in ["3/3", "1", "a/2", "0/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::ALL.holds(5));
    }
}
