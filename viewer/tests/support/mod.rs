//! Helpers shared by the browser tests.

pub mod chromium;
