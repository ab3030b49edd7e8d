//! A port of `java.util.Random`, enough to reproduce CodinGame's map generation (csb-rules.md §2.2).

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const ADDEND: u64 = 0xB;
const MASK_48_BITS: u64 = (1 << 48) - 1;

/// Java's 48-bit linear congruential generator.
#[derive(Clone, Debug)]
pub struct JavaRandom {
    state: u64,
}

impl JavaRandom {
    /// `new Random(seed)`: the state is the seed scrambled with the multiplier.
    pub fn new(seed: i64) -> JavaRandom {
        JavaRandom {
            state: (seed as u64 ^ MULTIPLIER) & MASK_48_BITS,
        }
    }

    /// `next(bits)`: the top `bits` of the advanced 48-bit state, as a signed 32-bit int.
    fn next(&mut self, bits: u32) -> i32 {
        self.state = (self.state.wrapping_mul(MULTIPLIER).wrapping_add(ADDEND)) & MASK_48_BITS;
        (self.state >> (48 - bits)) as i32
    }

    /// `nextInt(bound)` for `bound > 0`, with Java's rejection of the biased top range.
    pub fn next_int(&mut self, bound: i32) -> i32 {
        assert!(bound > 0, "bound must be positive");
        if bound & (-bound) == bound {
            return ((i64::from(bound) * i64::from(self.next(31))) >> 31) as i32;
        }
        loop {
            let bits = self.next(31);
            let value = bits % bound;
            if bits
                .checked_sub(value)
                .and_then(|d| d.checked_add(bound - 1))
                .is_some()
            {
                return value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_known_java_values() {
        // Printed by OpenJDK 17: new Random(42) → nextInt(100), nextInt(100), nextInt(13),
        // nextInt(64); new Random(-7) → nextInt(10), nextInt(1 << 30), nextInt(61).
        let mut random = JavaRandom::new(42);
        let drawn: Vec<i32> = [100, 100, 13, 64]
            .iter()
            .map(|&b| random.next_int(b))
            .collect();
        assert_eq!(drawn, [30, 63, 9, 3]);
        let mut random = JavaRandom::new(-7);
        let drawn: Vec<i32> = [10, 1 << 30, 61]
            .iter()
            .map(|&b| random.next_int(b))
            .collect();
        assert_eq!(drawn, [2, 967975648, 2]);
    }
}
