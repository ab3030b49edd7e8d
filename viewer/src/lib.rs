//! Self-contained HTML replay viewer (work in progress).
