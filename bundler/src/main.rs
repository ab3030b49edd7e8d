//! Flattens the `csb` crate into one submittable `dist/main.rs` (work in progress).
fn main() {}
