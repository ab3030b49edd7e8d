//! Java's rounding and truncation (csb-rules.md §4.6), without calling libm's `floor`.

/// Largest magnitude below which an `f64` may have a fractional part (2^52).
const FRACTIONAL_LIMIT: f64 = 4_503_599_627_370_496.0;

/// Whether `x` may have a fractional part (false for large values, infinities and NaN).
#[inline(always)]
fn may_have_fraction(x: f64) -> bool {
    x.abs() < FRACTIONAL_LIMIT
}

/// `floor` through an integer conversion (exact for |x| < 2^52; larger values are integers already).
#[inline(always)]
pub fn floor(x: f64) -> f64 {
    if !may_have_fraction(x) {
        return x;
    }
    let truncated = x as i64 as f64;
    if truncated > x {
        truncated - 1.0
    } else {
        truncated
    }
}

/// Java `Math.round`: nearest integer, halves toward +∞ (−2.5 → −2, 2.5 → 3).
#[inline(always)]
pub fn java_round(x: f64) -> f64 {
    let down = floor(x);
    if x - down >= 0.5 {
        down + 1.0
    } else {
        down
    }
}

/// Java `(int)` cast of a speed component: toward zero.
#[inline(always)]
pub fn truncate(x: f64) -> f64 {
    if !may_have_fraction(x) {
        return x;
    }
    x as i64 as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_go_toward_positive_infinity() {
        assert_eq!(java_round(2.5), 3.0);
        assert_eq!(java_round(-2.5), -2.0);
        assert_eq!(java_round(-2.500001), -3.0);
        assert_eq!(java_round(-0.5), 0.0);
        assert_eq!(java_round(0.49999999999999994), 0.0);
        assert_eq!(java_round(-1234.4), -1234.0);
        assert_eq!(java_round(1234.6), 1235.0);
    }

    #[test]
    fn truncation_goes_toward_zero() {
        assert_eq!(truncate(-3.9), -3.0);
        assert_eq!(truncate(3.9), 3.0);
        assert_eq!(truncate(-0.2), 0.0);
    }

    #[test]
    fn floor_matches_std() {
        for &x in &[
            -3.5,
            -3.0,
            -0.0,
            0.0,
            0.1,
            7.99,
            -7.99,
            1e15 + 0.5,
            -1e15 - 0.5,
        ] {
            assert_eq!(floor(x), x.floor(), "{x}");
        }
    }
}
