//! learn's structure as `src/lib.rs` states it: the folders listed there from the bottom up,
//! each using only the ones listed before it, no two files importing each other in a circle,
//! and every file opening with what it owns. The arena's checks (`arena/tests/layers.rs`),
//! included whole, run here on learn's own `src/` (`CARGO_MANIFEST_DIR`).

#[path = "../../arena/tests/layers.rs"]
mod layers;
