//! Sparring bots (work in progress).
