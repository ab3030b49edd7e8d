//! splitmix64 (Steele, Lea and Flood, 2014): the 64-bit mixer the tools derive their seeds and
//! draws from: the arena's game seeds and SPSA signs, self-play's search seeds and shuffles, the
//! engine tests' random states. One copy for all of them, so a seed means the same thing
//! everywhere. Not the bot's: the referee's side (feature `referee`), never in the bundle.

/// The golden-ratio increment of the generator's state.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One splitmix64 step: `x` advanced by the increment, then mixed.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64 as a seeded generator: the same numbers on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let value = splitmix64(self.state);
        self.state = self.state.wrapping_add(GAMMA);
        value
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_sequence() {
        // The first outputs of splitmix64 seeded with 0, as the reference implementation gives.
        let mut generator = SplitMix64::new(0);
        assert_eq!(generator.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(generator.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        let unit = SplitMix64::new(7).unit();
        assert!((0.0..1.0).contains(&unit));
    }
}
