//! Random draws for the sparring bots: the project's one generator (`csb::search::Rng`, wyrand)
//! plus the few helpers the GA wants. Deterministic, so `--seed` with `--iterations` reproduces a
//! game bit for bit.

pub use csb::search::Rng;

/// Draws beyond what the search needs.
pub trait RngExt {
    /// Uniform `f64` in `[0, 1)`.
    fn unit(&mut self) -> f64;
    /// Uniform `f64` in `[low, high)`.
    fn range(&mut self, low: f64, high: f64) -> f64;
    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool;
}

impl RngExt for Rng {
    #[inline]
    fn unit(&mut self) -> f64 {
        self.next_f64()
    }

    #[inline]
    fn range(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit()
    }

    #[inline]
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_values_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut c = Rng::new(43);
        let mut differs = false;
        for _ in 0..1000 {
            let x = a.next_u64();
            assert_eq!(x, b.next_u64());
            differs |= x != c.next_u64();
            assert!(a.below(7) < 7);
            let u = a.unit();
            assert!((0.0..1.0).contains(&u));
            let r = a.range(-18.0, 18.0);
            assert!((-18.0..18.0).contains(&r));
            b.below(7);
            b.unit();
            b.range(-18.0, 18.0);
        }
        assert!(differs);
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 4];
        for _ in 0..40_000 {
            counts[rng.below(4) as usize] += 1;
        }
        for count in counts {
            assert!((9_000..11_000).contains(&count), "{counts:?}");
        }
    }
}
