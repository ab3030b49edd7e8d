//! The network's first layer in integers: the largest of its costs, made exact. Each input is
//! rounded to a whole multiple of 1/[`INPUT_SCALE`] and each weight is its whole level (the
//! codec's, `codec.rs`: at most [`MAX_LEVEL`] either way, times the layer's one scale), so an
//! output's sum of products is an integer, summed exactly in 32 bits in any order, and then
//! brought back to the layer's unit and its bias added in `f32` (one product, one sum). The
//! scalar path and the SIMD path (16-bit products summed in pairs, `vpmaddwd`) give the same
//! numbers because integer sums do not depend on their order.
//!
//! Both views at once, with no gathering: each view reads every number of [`Inputs::values`] at
//! most once, in a slot fixed by which pod runs for each team (four cases), so for each case
//! the layer is rewritten by value (`values[j]` × the weights of the input that reads it, for
//! player 0's view and player 1's, 0 where a view does not read it): 30 pairs of values against
//! `2 × OUTPUTS` outputs, each view's side by side.

use super::codec::MAX_LEVEL;
use super::features::{Inputs, FEATURE_COUNT, VALUE_COUNT};
use super::layers::Dense;
use super::shape::HIDDEN1;

/// Outputs of the first layer.
pub const OUTPUTS: usize = HIDDEN1;
/// The SIMD path's 8-lane registers per view.
pub const BLOCKS: usize = OUTPUTS / 8;
const _: () = assert!(OUTPUTS % 8 == 0, "the SIMD path takes outputs 8 at a time");
/// An input is rounded to a whole multiple of `1 / INPUT_SCALE`.
pub const INPUT_SCALE: f32 = 2048.0;
/// The largest multiple an input may take either way: inputs are at most 4 either way (the
/// lead and the hand evaluation, `features.rs`; every other input at most 2), and
/// `VALUE_COUNT × MAX_QUANTUM × MAX_LEVEL` (2.08 × 10^9) stays below `i32::MAX`, so no sum
/// overflows.
pub const MAX_QUANTUM: f32 = 8191.0;
/// Pairs of values (the SIMD path multiplies two 16-bit numbers and adds them).
const PAIRS: usize = VALUE_COUNT / 2;
/// Which pod runs for each team: `runner0 + 2 × (runner1 − 2)`.
const CASES: usize = 4;
/// Per pair of values, the weights of both views' outputs: `(view × OUTPUTS + output) × 2 + j % 2`.
const ROW: usize = 2 * 2 * OUTPUTS;

/// `1.5 × 2^23`: a number of magnitude below 2^22 plus this, in `f32`, keeps no fraction bits,
/// so adding it and taking it away again rounds to the nearest whole number (ties to even) with
/// two additions that every SIMD set has (no `floor` or `round` instruction, which the
/// baseline x86-64 lacks).
const ROUNDING: f32 = 12_582_912.0;

/// An input as a whole multiple of `1 / INPUT_SCALE`: `x × INPUT_SCALE` clamped to
/// `±MAX_QUANTUM` (a NaN gives `−MAX_QUANTUM`, as the SIMD path's `max` does), rounded to the
/// nearest whole number, ties to even.
#[inline(always)]
// Not `clamp`: it keeps a NaN, where `max` and `min` give the bound the SIMD path gives.
#[allow(clippy::manual_clamp)]
pub fn quantize(input: f32) -> i32 {
    let scaled = (input * INPUT_SCALE).max(-MAX_QUANTUM).min(MAX_QUANTUM);
    ((scaled + ROUNDING) - ROUNDING) as i32
}

/// The first layer in integers (see the module's text).
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedLayer {
    /// `levels[i][o]`: the level of the weight from view input `i` to output `o`.
    levels: [[i16; OUTPUTS]; FEATURE_COUNT],
    /// Per case, per pair of values, the levels the two views give them (see [`ROW`]).
    by_value: Box<[[[i16; ROW]; PAIRS]; CASES]>,
    /// An integer sum times this is in the layer's unit: the weights' scale / `INPUT_SCALE`.
    factor: f32,
    biases: [f32; OUTPUTS],
}

impl QuantizedLayer {
    /// `dense` with each weight rounded to its level: the scale is the largest weight over
    /// [`MAX_LEVEL`], as the codec quantises (`encode_tensor`), so an embedded network's levels
    /// are its codec levels.
    pub fn of(dense: &Dense<FEATURE_COUNT, OUTPUTS>) -> QuantizedLayer {
        let largest = dense
            .weights
            .iter()
            .flatten()
            .fold(0.0f32, |m, w| m.max(w.abs()));
        let scale = if largest > 0.0 {
            largest / MAX_LEVEL as f32
        } else {
            1.0
        };
        let mut levels = [[0i16; OUTPUTS]; FEATURE_COUNT];
        for (row, weights) in levels.iter_mut().zip(&dense.weights) {
            for (level, weight) in row.iter_mut().zip(weights) {
                let rounded = (weight / scale).round();
                *level = rounded.clamp(-MAX_LEVEL as f32, MAX_LEVEL as f32) as i16;
            }
        }
        let mut by_value = Box::new([[[0i16; ROW]; PAIRS]; CASES]);
        for (case, table) in by_value.iter_mut().enumerate() {
            // Which value each view input reads: an `Inputs` of this case holding its indices.
            let (runner0, runner1) = (case & 1, 2 + (case >> 1));
            let mut indices = Inputs {
                values: [0.0; VALUE_COUNT],
                slot_pods: [runner0, 1 - runner0, runner1, 5 - runner1],
            };
            for (index, value) in indices.values.iter_mut().enumerate() {
                *value = index as f32;
            }
            indices.for_each(|input, own, theirs| {
                for (view, value) in [own, theirs].into_iter().enumerate() {
                    let value = value as usize;
                    for (output, &level) in levels[input].iter().enumerate() {
                        table[value / 2][(view * OUTPUTS + output) * 2 + value % 2] = level;
                    }
                }
            });
        }
        QuantizedLayer {
            levels,
            by_value,
            factor: scale / INPUT_SCALE,
            biases: dense.biases,
        }
    }

    /// An output from its integer sum: `bias + sum × factor`.
    #[inline(always)]
    fn output(&self, output: usize, sum: i32) -> f32 {
        self.biases[output] + sum as f32 * self.factor
    }

    /// The layer on one view's inputs (before the ReLU): the definition the paired paths match.
    pub fn forward(&self, inputs: &[f32; FEATURE_COUNT], out: &mut [f32; OUTPUTS]) {
        let mut sums = [0i32; OUTPUTS];
        for (&input, levels) in inputs.iter().zip(&self.levels) {
            let quantum = quantize(input);
            for (sum, &level) in sums.iter_mut().zip(levels) {
                *sum += quantum * i32::from(level);
            }
        }
        for (output, (out, &sum)) in out.iter_mut().zip(&sums).enumerate() {
            *out = self.output(output, sum);
        }
    }

    /// The case of `inputs`: which pod runs for each team.
    #[inline(always)]
    fn case(inputs: &Inputs) -> usize {
        (inputs.slot_pods[0] & 1) | ((inputs.slot_pods[2] & 1) << 1)
    }

    /// Both views' outputs (`[player 0's, player 1's]`, before the ReLU), plain loops.
    #[inline(always)]
    pub fn forward_paired(&self, inputs: &Inputs) -> [[f32; OUTPUTS]; 2] {
        let table = &self.by_value[Self::case(inputs)];
        let mut quanta = [0i16; VALUE_COUNT];
        for (quantum, &value) in quanta.iter_mut().zip(&inputs.values) {
            *quantum = quantize(value) as i16;
        }
        let mut sums = [0i32; 2 * OUTPUTS];
        for (pair, row) in table.iter().enumerate() {
            let (first, second) = (quanta[2 * pair], quanta[2 * pair + 1]);
            for (output, sum) in sums.iter_mut().enumerate() {
                *sum += i32::from(first) * i32::from(row[2 * output])
                    + i32::from(second) * i32::from(row[2 * output + 1]);
            }
        }
        let mut out = [[0.0; OUTPUTS]; 2];
        for (view, out) in out.iter_mut().enumerate() {
            for (output, out) in out.iter_mut().enumerate() {
                *out = self.output(output, sums[view * OUTPUTS + output]);
            }
        }
        out
    }
}

#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// [`QuantizedLayer::forward_paired`] in AVX2, as 8-lane registers: per view (player 0's,
    /// then player 1's), outputs 0–7, 8–15 and so on.
    ///
    /// # Safety
    /// The processor must have AVX2. (Every load and store moves 8 floats or 16 `i16` inside an
    /// array at least that long: a padded copy of the values, a table row of [`ROW`] `i16` (a
    /// multiple of 32: [`OUTPUTS`] is a multiple of 8), the biases, or a local array.)
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn forward_paired(layer: &QuantizedLayer, inputs: &Inputs) -> [[__m256; BLOCKS]; 2] {
        // The values as 16-bit multiples, two to a 32-bit lane.
        let mut padded = [0.0f32; 64];
        padded[..VALUE_COUNT].copy_from_slice(&inputs.values);
        let (scale, rounding) = (_mm256_set1_ps(INPUT_SCALE), _mm256_set1_ps(ROUNDING));
        let (low, high) = (_mm256_set1_ps(-MAX_QUANTUM), _mm256_set1_ps(MAX_QUANTUM));
        let quantum = |at: usize| {
            let values = _mm256_loadu_ps(padded.as_ptr().add(at));
            let scaled = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(values, scale), low), high);
            let rounded = _mm256_sub_ps(_mm256_add_ps(scaled, rounding), rounding);
            _mm256_cvttps_epi32(rounded)
        };
        let mut quanta = [0i16; 64];
        for block in 0..4 {
            let packed = _mm256_packs_epi32(quantum(16 * block), quantum(16 * block + 8));
            // `packs` interleaves the 128-bit halves: put the 16 numbers back in order.
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            _mm256_storeu_si256(quanta.as_mut_ptr().add(16 * block) as *mut __m256i, ordered);
        }
        let table = &layer.by_value[QuantizedLayer::case(inputs)];
        // The sums eight registers at a time (a wide layer's sixteen would not fit the 16 registers),
        // each group over every pair of values: integer sums, so the order does not matter.
        let mut sums = [[_mm256_setzero_si256(); GROUP]; 2 * BLOCKS / GROUP];
        for (group, group_sums) in sums.iter_mut().enumerate() {
            // A local group, so that its registers are not written back at every pair.
            let mut local = [_mm256_setzero_si256(); GROUP];
            for (pair, row) in table.iter().enumerate() {
                // The pair `quanta[2 × pair..][..2]` as one 32-bit lane, in every lane.
                let both = (quanta.as_ptr().add(2 * pair) as *const i32).read_unaligned();
                let both = _mm256_set1_epi32(both);
                for (register, sum) in local.iter_mut().enumerate() {
                    let at = 16 * (GROUP * group + register);
                    let levels = _mm256_loadu_si256(row.as_ptr().add(at) as *const __m256i);
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(both, levels));
                }
            }
            *group_sums = local;
        }
        let factor = _mm256_set1_ps(layer.factor);
        let mut out = [[_mm256_setzero_ps(); BLOCKS]; 2];
        for (register, sum) in sums.into_iter().flatten().enumerate() {
            let (view, block) = (register / BLOCKS, register % BLOCKS);
            let biases = _mm256_loadu_ps(layer.biases.as_ptr().add(8 * block));
            out[view][block] =
                _mm256_add_ps(biases, _mm256_mul_ps(_mm256_cvtepi32_ps(sum), factor));
        }
        out
    }

    /// Registers summed together over the pairs of values.
    const GROUP: usize = 8;
    const _: () = assert!(2 * BLOCKS % GROUP == 0, "the outputs fill whole groups");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::value_net::course::Course;
    use crate::bot::value_net::features::tests::random_positions;
    use crate::bot::value_net::network::Network;

    #[test]
    fn quantize_rounds_to_the_nearest_multiple_and_clamps() {
        assert_eq!(quantize(0.0), 0);
        assert_eq!(quantize(1.0), 2048);
        assert_eq!(quantize(-1.0), -2048);
        assert_eq!(quantize(0.25 / 2048.0), 0);
        assert_eq!(quantize(0.75 / 2048.0), 1);
        assert_eq!(quantize(-0.75 / 2048.0), -1);
        assert_eq!(quantize(0.5 / 2048.0), 0);
        assert_eq!(quantize(1.5 / 2048.0), 2);
        assert_eq!(quantize(-2.5 / 2048.0), -2);
        assert_eq!(quantize(1.2345), 2528);
        assert_eq!(quantize(100.0), 8191);
        assert_eq!(quantize(-100.0), -8191);
        assert_eq!(quantize(f32::NAN), -8191);
    }

    #[test]
    fn the_embedded_layers_levels_are_its_codec_levels() {
        let network = Network::embedded();
        let layer = QuantizedLayer::of(network.input());
        for (levels, weights) in layer.levels.iter().zip(&network.input().weights) {
            for (&level, &weight) in levels.iter().zip(weights) {
                let exact = f32::from(level) * layer.factor * INPUT_SCALE;
                assert!(
                    (exact - weight).abs() <= weight.abs() * 1e-6,
                    "{level} {weight}"
                );
            }
        }
        assert!(layer
            .levels
            .iter()
            .flatten()
            .any(|&l| i32::from(l).abs() == MAX_LEVEL));
    }

    #[test]
    fn every_path_gives_each_views_outputs_bit_for_bit() {
        let layer = QuantizedLayer::of(Network::embedded().input());
        for (map, pods, passes, clocks) in random_positions(11, 20_000) {
            let course = Course::new(&map);
            let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
            let inputs = Inputs::of(&pods, &map, &legs, passes, clocks);
            assert!(inputs.values.iter().all(|v| v.abs() <= 4.0), "{inputs:?}");
            let expected = [0, 1].map(|view| {
                let mut out = [0.0; OUTPUTS];
                layer.forward(&inputs.view(view), &mut out);
                out.map(f32::to_bits)
            });
            let paired = layer
                .forward_paired(&inputs)
                .map(|out| out.map(f32::to_bits));
            assert_eq!(paired, expected);
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx2") {
                let mut registers = [[0.0f32; 8]; 2 * BLOCKS];
                // SAFETY: AVX2 was detected just above.
                unsafe {
                    let out = avx2::forward_paired(&layer, &inputs);
                    for (register, out) in registers.iter_mut().zip(out.into_iter().flatten()) {
                        std::arch::x86_64::_mm256_storeu_ps(register.as_mut_ptr(), out);
                    }
                }
                let simd: Vec<u32> = registers.iter().flatten().map(|v| v.to_bits()).collect();
                assert_eq!(simd, expected.concat());
            }
        }
    }
}
