//! The CodinGame turn loop (work in progress).
fn main() {}
