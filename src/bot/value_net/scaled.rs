//! Inputs divided by their unit (10,000 for lengths, 1,000 for speeds, a checkpoint's worth),
//! clamped and rounded to `f32`, by a product with the unit's reciprocal instead of a division.
//!
//! `a × (1 / unit)` differs from `a / unit` by at most 3 units in the last place of the
//! quotient's `f64` binade (the reciprocal and the product each round once), so after rounding
//! to `f32` by at most one `f32` unit in the last place: about 10^-7 of an input, where the
//! network's first layer rounds every input to a multiple of 1/2048 (`quantized.rs`). Earlier
//! versions reproduced the division bit for bit with a check around `f32` rounding midpoints;
//! the check cost as much as the rest of the inputs and stopped the loops from vectorising.

/// A unit: what an input is divided by, its reciprocal, and the clamp applied after. (Constants
/// spell the reciprocal out, `1.0 / divisor`: a `const fn` may not divide floats before Rust
/// 1.82, and the crate builds with 1.70.)
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub divisor: f64,
    pub reciprocal: f64,
    pub limit: f64,
}

/// `value` clamped to `±limit`, as `f64::clamp` does it (a `NaN` stays `NaN`).
#[inline(always)]
fn clamp(value: f64, limit: f64) -> f64 {
    let mut clamped = value;
    if clamped < -limit {
        clamped = -limit;
    }
    if clamped > limit {
        clamped = limit;
    }
    clamped
}

/// `out[k] = (values[k] × units[k].reciprocal).clamp(±units[k].limit) as f32`.
#[inline(always)]
pub fn scale<const N: usize>(values: &[f64; N], units: &[Unit; N], out: &mut [f32; N]) {
    for ((value, unit), out) in values.iter().zip(units).zip(out.iter_mut()) {
        *out = clamp(value * unit.reciprocal, unit.limit) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Rng;

    fn units() -> [Unit; 4] {
        [(10_000.0, 2.0), (1_000.0, 2.0), (30_000.0, 4.0), (3.0, 2.0)].map(|(divisor, limit)| {
            Unit {
                divisor,
                reciprocal: 1.0 / divisor,
                limit,
            }
        })
    }

    #[test]
    fn scaling_is_the_division_within_one_f32_ulp_and_clamped() {
        let mut rng = Rng::new(9);
        let mut differ = 0;
        for round in 0..400_000 {
            // Board-sized numbers, whole or not, small ones, zeros of both signs.
            let magnitude = [20_000.0, 2_000.0, 90_000.0, 1e-3][round % 4];
            let value = |rng: &mut Rng| {
                let value = (rng.next_f64() * 2.0 - 1.0) * magnitude;
                match rng.below(8) {
                    0 => value.round(),
                    1 => 0.0,
                    2 => -0.0,
                    _ => value,
                }
            };
            let values = [0; 4].map(|_| value(&mut rng));
            let mut out = [0.0; 4];
            scale(&values, &units(), &mut out);
            for ((value, unit), out) in values.iter().zip(&units()).zip(out) {
                let divided = (value / unit.divisor).clamp(-unit.limit, unit.limit) as f32;
                let ulps = (out.to_bits() as i64 - divided.to_bits() as i64).abs();
                assert!(
                    ulps <= 1 || out == divided,
                    "{value} / {}: {out} {divided}",
                    unit.divisor
                );
                differ += usize::from(out.to_bits() != divided.to_bits());
                assert!(out.abs() <= unit.limit as f32);
            }
        }
        // The product and the quotient round to the same `f32` nearly always.
        assert!(differ < 100, "{differ}");
        let mut out = [0.0; 4];
        scale(&[1e9, -1e9, f64::NAN, 1.5], &units(), &mut out);
        assert_eq!(out[..2], [2.0, -2.0]);
        assert!(out[2].is_nan());
        assert_eq!(out[3], 0.5);
    }
}
