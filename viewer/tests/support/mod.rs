//! Helpers shared by the browser tests.

pub mod chromium;
// Only the race graph's tests read screenshots back.
#[allow(dead_code)]
pub mod pixels;
