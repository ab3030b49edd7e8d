//! Sparring partners for the csb bot: two complete CodinGame-protocol bots that live outside the
//! bundle, a reflex bot (`src/bin/reflex.rs`) and a genetic-algorithm bot (`src/bin/ga.rs`).
//!
//! The modules hold what both share, one concept per file: the seeded RNG, the command-line flags,
//! the turn-to-turn memory (passes, boost, shield, roles), the view of the race built from the
//! input, the pods rebuilt from the input and the memory, aiming helpers, the reflex policy, the
//! GA's genome, the score of a plan's end state (`plan_score`) and its search, the turn loop over
//! stdin/stdout, and an in-process duel on the exact engine for tests and examples.

pub mod aim;
pub mod bot;
pub mod duel;
pub mod flags;
pub mod ga;
pub mod genome;
pub mod memory;
pub mod plan_score;
pub mod pods;
pub mod racer;
pub mod reflex;
pub mod rng;
pub mod world;
