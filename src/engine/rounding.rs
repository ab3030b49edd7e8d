//! Java's rounding and truncation (csb-rules.md §4.6), without calling libm's `floor`.
//!
//! Both start from the round-to-nearest-even value `(x + 2^52) − 2^52` (exact for |x| < 2^52,
//! where the sum's unit is 1), then correct it with one comparison: no branch, no conversion to
//! an integer, so the hot loops over positions and speeds stay short.

/// Largest magnitude below which an `f64` may have a fractional part (2^52).
const FRACTIONAL_LIMIT: f64 = 4_503_599_627_370_496.0;

/// `x` rounded to the nearest integer, ties to even, for |x| < 2^52 (`x` itself otherwise).
#[inline(always)]
fn round_ties_even(x: f64) -> f64 {
    if x.abs() < FRACTIONAL_LIMIT {
        let magic = FRACTIONAL_LIMIT.copysign(x);
        (x + magic) - magic
    } else {
        x
    }
}

/// `floor` (exact for every `f64`; ±0 and large values are returned as they are).
#[inline(always)]
pub fn floor(x: f64) -> f64 {
    let nearest = round_ties_even(x);
    if nearest > x {
        nearest - 1.0
    } else {
        nearest
    }
}

/// Java `Math.round`: nearest integer, halves toward +∞ (−2.5 → −2, 2.5 → 3).
///
/// Same result as `floor(x)` plus one when `x − floor(x) ≥ 0.5`: the nearest-even value is right
/// except for a half rounded down, which is the one case where `x − nearest` is exactly 0.5
/// (that difference is exact, the two being within a factor of two or `nearest` being 0).
#[inline(always)]
pub fn java_round(x: f64) -> f64 {
    let nearest = round_ties_even(x);
    if x - nearest == 0.5 {
        nearest + 1.0
    } else {
        nearest + 0.0
    }
}

/// Java `(int)` cast of a speed component: toward zero.
#[inline(always)]
pub fn truncate(x: f64) -> f64 {
    let nearest = round_ties_even(x);
    if nearest.abs() > x.abs() {
        nearest - 1.0f64.copysign(x)
    } else {
        nearest + 0.0
    }
}

/// 1.5 · 2^52: for |x| < 2^51, `x + ROUNDING_MAGIC` lies in [2^52, 2^53), where the unit is 1, so
/// adding and subtracting it rounds `x` to the nearest integer (ties to even) whatever its sign.
const ROUNDING_MAGIC: f64 = 6_755_399_441_055_744.0;

/// Bound of the `_small` variants' argument (2^51).
pub const SMALL_LIMIT: f64 = 2_251_799_813_685_248.0;

/// [`java_round`] for |x| < 2^51 (any position a game reaches), with neither a sign test nor a
/// branch; never returns −0. Larger magnitudes give wrong results.
#[inline(always)]
pub fn java_round_small(x: f64) -> f64 {
    debug_assert!(x.abs() < SMALL_LIMIT);
    let nearest = (x + ROUNDING_MAGIC) - ROUNDING_MAGIC;
    nearest + if x - nearest == 0.5 { 1.0 } else { 0.0 }
}

/// [`truncate`] for |x| < 2^51 (any speed a game reaches), branch-free; never returns −0.
/// Larger magnitudes give wrong results.
#[inline(always)]
pub fn truncate_small(x: f64) -> f64 {
    debug_assert!(x.abs() < SMALL_LIMIT);
    let nearest = (x + ROUNDING_MAGIC) - ROUNDING_MAGIC;
    nearest
        - if nearest.abs() > x.abs() {
            1.0f64.copysign(x)
        } else {
            0.0
        }
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

    /// The former definitions, through an integer conversion (exact for |x| < 2^52).
    fn reference_floor(x: f64) -> f64 {
        if x.abs() >= FRACTIONAL_LIMIT || x.is_nan() {
            return x;
        }
        let truncated = x as i64 as f64;
        if truncated > x {
            truncated - 1.0
        } else {
            truncated
        }
    }

    fn reference_round(x: f64) -> f64 {
        let down = reference_floor(x);
        if x - down >= 0.5 {
            down + 1.0
        } else {
            down
        }
    }

    fn reference_truncate(x: f64) -> f64 {
        if x.abs() >= FRACTIONAL_LIMIT || x.is_nan() {
            return x;
        }
        x as i64 as f64
    }

    #[test]
    fn bit_identical_to_the_integer_conversion() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.49999999999999994,
            -0.49999999999999994,
            1.5,
            -1.5,
            2.5,
            -2.5,
            FRACTIONAL_LIMIT - 0.5,
            SMALL_LIMIT - 0.5,
            -SMALL_LIMIT + 0.5,
            SMALL_LIMIT - 1.0,
            -SMALL_LIMIT + 1.5,
            -FRACTIONAL_LIMIT + 0.5,
            FRACTIONAL_LIMIT,
            FRACTIONAL_LIMIT * 3.0,
            -FRACTIONAL_LIMIT * 3.0 - 2.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            let scale = [1.0, 16.0, 20000.0, 1e9, 1e16][(state % 5) as usize];
            let x = (unit * 2.0 - 1.0) * scale;
            values.push(x);
            // Halves and near-halves, where the rules bite.
            let half = (x * 2.0).trunc() / 2.0;
            values.push(half);
            values.push(f64::from_bits(half.to_bits() + 1));
            values.push(f64::from_bits(half.to_bits().wrapping_sub(1)));
        }
        for &x in &values {
            assert_eq!(
                floor(x).to_bits(),
                reference_floor(x).to_bits(),
                "floor {x:e}"
            );
            assert_eq!(
                java_round(x).to_bits(),
                reference_round(x).to_bits(),
                "round {x:e}"
            );
            assert_eq!(
                truncate(x).to_bits(),
                reference_truncate(x).to_bits(),
                "truncate {x:e}"
            );
        }
        assert!(java_round(f64::NAN).is_nan() && truncate(f64::NAN).is_nan());
        for &x in values.iter().filter(|x| x.abs() < SMALL_LIMIT) {
            assert_eq!(
                java_round_small(x).to_bits(),
                reference_round(x).to_bits(),
                "round_small {x:e}"
            );
            assert_eq!(
                truncate_small(x).to_bits(),
                reference_truncate(x).to_bits(),
                "truncate_small {x:e}"
            );
        }
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
