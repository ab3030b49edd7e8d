//! Random draws for the sparring bots, on the `fastrand` crate (wyrand): one generator per bot,
//! seeded from `--seed`, so `--seed` with `--iterations` reproduces a game bit for bit. The bot
//! itself keeps its own few-line generator (`csb::search::Rng`) because its bundle must stay one
//! std-only file; the sparring bots are never bundled and take the crate.

/// The sparring bots' generator: a seeded `fastrand::Rng` with the few draws the GA wants.
#[derive(Clone, Debug)]
pub struct Rng {
    inner: fastrand::Rng,
}

impl Rng {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            inner: fastrand::Rng::with_seed(seed),
        }
    }

    /// Uniform `u64`.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.u64(..)
    }

    /// Uniform integer in `[0, n)`; `n` must be at least 1.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        self.inner.u32(..n)
    }

    /// Uniform `f64` in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        self.inner.f64()
    }

    /// Uniform `f64` in `[low, high)`.
    #[inline]
    pub fn range(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit()
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
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
