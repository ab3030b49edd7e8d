//! Inputs divided by their unit (10,000 for lengths, 1,000 for speeds, a checkpoint's worth),
//! clamped and rounded to `f32`, without the division's cost and with its result bit for bit.
//!
//! `a × (1 / unit)` differs from `a / unit` by at most 3 units in the last place (`ulp`) of the
//! quotient's binade: the reciprocal and the product each round once. Clamping keeps that
//! bound, and rounding to `f32` maps both to the same `f32` unless an `f32` rounding midpoint
//! (a value with the lowest 29 of its 52 fraction bits `1000…0`) lies between them. So the
//! product's `f32` is the quotient's whenever the product is more than 15 ulps ([`MARGIN`]) from
//! every midpoint, and above the `f32` subnormals (where the midpoints lie elsewhere). A batch
//! with a value that close (about 6 in 10^8 of values) takes the divisions instead.

/// The ulps checked either side of a midpoint: 3 by the bound above, twice that when the product
/// falls in the binade below the quotient's (its ulp is half as large); 16 in practice, the
/// check below being one comparison of the bits above the lowest 5.
const MARGIN: u64 = 16;
/// The fraction bits an `f64` has beyond an `f32`, and their pattern at a midpoint.
const EXTRA_BITS: u64 = (1 << 29) - 1;
const MIDPOINT: u64 = 1 << 28;
/// The bits of the smallest magnitude checked by the midpoint rule: twice the smallest normal
/// `f32`, so that the product and the quotient are both normal as `f32`.
const SMALLEST_CHECKED: i64 = 0x3820_0000_0000_0000; // 2^-125

/// Whether the `f32` rounding of `value` may differ from that of a number within 15 ulps of it:
/// the extra bits within `[MIDPOINT − 16, MIDPOINT + 16)`, or a tiny nonzero `value`.
#[inline(always)]
fn near_midpoint(value: f64) -> bool {
    let bits = value.to_bits();
    let magnitude = (bits & !(1 << 63)) as i64;
    let near = (bits.wrapping_add(MARGIN) & EXTRA_BITS) >> 5 == MIDPOINT >> 5;
    near | ((magnitude < SMALLEST_CHECKED) & (magnitude != 0))
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

/// A unit: what an input is divided by, its reciprocal, and the clamp applied after. (Constants
/// spell the reciprocal out, `1.0 / divisor`: a `const fn` may not divide floats before Rust
/// 1.82, and the crate builds with 1.70.)
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub divisor: f64,
    pub reciprocal: f64,
    pub limit: f64,
}

/// `out[k] = (values[k] / units[k].divisor).clamp(±units[k].limit) as f32`, bit for bit.
#[inline(always)]
pub fn scale<const N: usize>(values: &[f64; N], units: &[Unit; N], out: &mut [f32; N]) {
    let mut near = false;
    for ((value, unit), out) in values.iter().zip(units).zip(out.iter_mut()) {
        let product = clamp(value * unit.reciprocal, unit.limit);
        near |= near_midpoint(product);
        *out = product as f32;
    }
    if near {
        for ((value, unit), out) in values.iter().zip(units).zip(out.iter_mut()) {
            *out = clamp(value / unit.divisor, unit.limit) as f32;
        }
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

    fn divided(values: &[f64; 4]) -> [u32; 4] {
        let mut out = [0; 4];
        for (k, (value, unit)) in values.iter().zip(&units()).enumerate() {
            out[k] = ((value / unit.divisor).clamp(-unit.limit, unit.limit) as f32).to_bits();
        }
        out
    }

    fn scaled(values: &[f64; 4]) -> [u32; 4] {
        let mut out = [0.0; 4];
        scale(values, &units(), &mut out);
        out.map(f32::to_bits)
    }

    #[test]
    fn scaling_gives_the_division_bit_for_bit() {
        let mut rng = Rng::new(9);
        let mut near = 0;
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
            let values = [
                value(&mut rng),
                value(&mut rng),
                value(&mut rng),
                value(&mut rng),
            ];
            near += values
                .iter()
                .zip(&units())
                .filter(|(v, u)| near_midpoint(clamp(**v * u.reciprocal, u.limit)))
                .count();
            assert_eq!(scaled(&values), divided(&values), "{values:?}");
        }
        // Quotients that sit on or next to a midpoint, where the product may round the other way.
        for unit in units() {
            for step in 1..40_000u64 {
                let midpoint = f64::from_bits(0x3FF0_0000_1000_0000 + (step << 29));
                for ulps in -4i64..=4 {
                    let quotient = f64::from_bits((midpoint.to_bits() as i64 + ulps) as u64)
                        / [1.0, 4.0][step as usize % 2];
                    let value = quotient * unit.divisor;
                    let values = [value; 4];
                    let mut out = [0.0; 4];
                    scale(&values, &[unit; 4], &mut out);
                    let expected = clamp(value / unit.divisor, unit.limit) as f32;
                    assert_eq!(
                        out[0].to_bits(),
                        expected.to_bits(),
                        "{value} / {}",
                        unit.divisor
                    );
                }
            }
        }
        // The check fires, rarely, on random values.
        assert!(near < 50, "{near}");
        assert!(near_midpoint(f64::from_bits(0x3FF0_0000_1000_0000)));
        assert!(!near_midpoint(1.0) && !near_midpoint(0.0) && !near_midpoint(-0.0));
        assert!(near_midpoint(1e-300));
    }
}
