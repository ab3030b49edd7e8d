//! Both teams' views through the network in one pass: each layer reads its weights once for the
//! two views. Two kernels give the same numbers bit for bit: a portable one (plain loops, which
//! the compiler vectorises with the baseline SSE2) and one in 256-bit AVX through `std::arch`,
//! chosen at run time ([`Kernel::detect`]). Every output is summed in the order of
//! [`Dense::forward`](super::layers::Dense::forward) (bias, then input 0, 1, … each product
//! rounded, then added): the SIMD lanes are outputs, so each lane does the scalar sum's
//! operations in the scalar sum's order, and nothing is fused.

use super::features::{Inputs, FEATURE_COUNT};
use super::layers::Dense;

/// Which kernel evaluates the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain loops (any target).
    Portable,
    /// 256-bit AVX, with the inputs computed in AVX2 (x86-64 processors that have AVX2).
    Avx2,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        Kernel::Portable
    }
}

/// The portable kernel: `g` of each view (`[player 0's, player 1's]`) through the layers
/// `input`, `hidden` and `output` (ReLU after the first two).
#[inline(always)]
pub fn portable<const HIDDEN1: usize, const HIDDEN2: usize>(
    input: &Dense<FEATURE_COUNT, HIDDEN1>,
    hidden: &Dense<HIDDEN1, HIDDEN2>,
    output: &Dense<HIDDEN2, 1>,
    inputs: &Inputs,
) -> [f32; 2] {
    let (mut own, mut theirs) = (input.biases, input.biases);
    let views = [inputs.view(0), inputs.view(1)];
    for (row, (&own_value, &their_value)) in
        input.weights.iter().zip(views[0].iter().zip(&views[1]))
    {
        for output in 0..HIDDEN1 {
            own[output] += own_value * row[output];
            theirs[output] += their_value * row[output];
        }
    }
    [own, theirs].map(|first| {
        let mut second = hidden.biases;
        for (&value, row) in first.iter().zip(&hidden.weights) {
            let value = relu(value);
            for index in 0..HIDDEN2 {
                second[index] += value * row[index];
            }
        }
        output_layer(output, &second)
    })
}

/// The output layer on the second layer's sums (before their ReLU).
#[inline(always)]
fn output_layer<const HIDDEN2: usize>(output: &Dense<HIDDEN2, 1>, second: &[f32; HIDDEN2]) -> f32 {
    let mut sum = output.biases[0];
    for (value, row) in second.iter().zip(&output.weights) {
        sum += relu(*value) * row[0];
    }
    sum
}

/// `max(x, 0)` as the AVX instruction takes it (`x > 0 ? x : 0`; 0 for NaN).
#[inline(always)]
fn relu(value: f32) -> f32 {
    if value > 0.0 {
        value
    } else {
        0.0
    }
}

#[cfg(target_arch = "x86_64")]
pub mod avx {
    use super::*;
    use std::arch::x86_64::*;

    /// The AVX kernel, for 16 first-layer outputs (two 8-lane registers per view) and 8
    /// second-layer outputs (one): the portable kernel's numbers.
    ///
    /// # Safety
    /// The processor must have AVX. (Every load and store moves 8 floats inside an array of 8
    /// or 16: a row or the biases of a layer, or a local array of that length.)
    #[inline]
    #[target_feature(enable = "avx")]
    pub unsafe fn logits(
        input: &Dense<FEATURE_COUNT, 16>,
        hidden: &Dense<16, 8>,
        output: &Dense<8, 1>,
        inputs: &Inputs,
    ) -> [f32; 2] {
        let biases = input.biases.as_ptr();
        let (mut own_low, mut own_high) = (_mm256_loadu_ps(biases), _mm256_loadu_ps(biases.add(8)));
        let (mut their_low, mut their_high) = (own_low, own_high);
        inputs.for_each(|index, own, theirs| {
            let row = input.weights[index].as_ptr();
            let (low, high) = (_mm256_loadu_ps(row), _mm256_loadu_ps(row.add(8)));
            let (own, theirs) = (_mm256_set1_ps(own), _mm256_set1_ps(theirs));
            own_low = _mm256_add_ps(own_low, _mm256_mul_ps(own, low));
            own_high = _mm256_add_ps(own_high, _mm256_mul_ps(own, high));
            their_low = _mm256_add_ps(their_low, _mm256_mul_ps(theirs, low));
            their_high = _mm256_add_ps(their_high, _mm256_mul_ps(theirs, high));
        });
        let zero = _mm256_setzero_ps();
        let mut first = [[0.0f32; 16]; 2];
        for (sums, (low, high)) in first
            .iter_mut()
            .zip([(own_low, own_high), (their_low, their_high)])
        {
            _mm256_storeu_ps(sums.as_mut_ptr(), _mm256_max_ps(low, zero));
            _mm256_storeu_ps(sums.as_mut_ptr().add(8), _mm256_max_ps(high, zero));
        }
        let biases = _mm256_loadu_ps(hidden.biases.as_ptr());
        let (mut own, mut theirs) = (biases, biases);
        for (index, row) in hidden.weights.iter().enumerate() {
            let weights = _mm256_loadu_ps(row.as_ptr());
            own = _mm256_add_ps(own, _mm256_mul_ps(_mm256_set1_ps(first[0][index]), weights));
            theirs = _mm256_add_ps(
                theirs,
                _mm256_mul_ps(_mm256_set1_ps(first[1][index]), weights),
            );
        }
        let mut second = [[0.0f32; 8]; 2];
        _mm256_storeu_ps(second[0].as_mut_ptr(), own);
        _mm256_storeu_ps(second[1].as_mut_ptr(), theirs);
        second.map(|second| output_layer(output, &second))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::value_net::course::Course;
    use crate::bot::value_net::features::tests::random_positions;
    use crate::bot::value_net::network::Network;

    #[test]
    fn every_kernel_gives_the_single_view_forward_pass_bit_for_bit() {
        let network = Network::embedded();
        let portable = Network::embedded().with_portable_kernel();
        assert_eq!(portable.kernel(), Kernel::Portable);
        let networks = [portable, Network::embedded()];
        for (map, pods, passes, clocks) in random_positions(5, 20_000) {
            let course = Course::new(&map);
            let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
            let inputs = Inputs::of(&pods, &map, &legs, passes, clocks);
            let expected = [0, 1].map(|view| network.side_logit(&inputs.view(view)).to_bits());
            for network in &networks {
                let got = network.paired_logits(&inputs).map(f32::to_bits);
                assert_eq!(got, expected, "{:?} on {pods:?}", network.kernel());
            }
        }
    }
}
