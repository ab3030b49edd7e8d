//! CodinGame text in and out (work in progress).
