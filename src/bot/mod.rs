//! CSB decision making (work in progress).
