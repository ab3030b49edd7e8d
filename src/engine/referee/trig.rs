//! The one trigonometric choice of the engine: `atan2` (csb-rules.md §4.2, §8).
//!
//! With feature `exact`, fdlibm's `atan2` from `libm` (what Java's `Math.atan2` is): facing
//! angles match CodinGame to the last bit. Without it, `f64::atan2`, at most one ulp away, so
//! the bundle stays dependency-free. `cos` and `sin` are std's in both cases.

#[cfg(feature = "exact")]
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

#[cfg(not(feature = "exact"))]
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    y.atan2(x)
}
