//! The seeded random generator of the tests that draw positions and commands at random (`rand`'s
//! `StdRng`). Each test has its own default seed so that its figures are reproducible; the
//! environment variable `CSB_TEST_SEED` overrides it to try other draws. The seed is printed when
//! the test fails (the guard below prints it while the test's thread unwinds), so a failing draw
//! can be replayed with `CSB_TEST_SEED=<seed> cargo test <name>`.

#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The environment variable that overrides every seeded test's default seed.
pub const SEED_VARIABLE: &str = "CSB_TEST_SEED";

/// A test's generator and the seed it came from; prints the seed if the test panics.
pub struct Seeded {
    pub seed: u64,
    pub rng: StdRng,
    name: &'static str,
}

/// The seed a test uses: `CSB_TEST_SEED` when set (a clear panic if it is not a number),
/// otherwise the test's default.
pub fn seed_for(default_seed: u64) -> u64 {
    match std::env::var(SEED_VARIABLE) {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{SEED_VARIABLE}={text:?} is not an unsigned integer")),
        Err(_) => default_seed,
    }
}

impl Seeded {
    /// The generator of the test `name`, seeded from `CSB_TEST_SEED` or `default_seed`.
    pub fn new(name: &'static str, default_seed: u64) -> Seeded {
        let seed = seed_for(default_seed);
        Seeded {
            seed,
            rng: StdRng::seed_from_u64(seed),
            name,
        }
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.rng.random::<f64>()
    }

    /// Uniform integer in [low, high].
    pub fn int(&mut self, low: i64, high: i64) -> i64 {
        self.rng.random_range(low..=high)
    }

    /// True with the given probability.
    pub fn chance(&mut self, probability: f64) -> bool {
        self.rng.random_bool(probability)
    }

    /// Uniform in [low, high).
    pub fn range(&mut self, low: f64, high: f64) -> f64 {
        self.rng.random_range(low..high)
    }
}

impl Drop for Seeded {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "{}: failed with seed {} (replay: {SEED_VARIABLE}={} cargo test {})",
                self.name, self.seed, self.seed, self.name
            );
        }
    }
}
