//! Both teams' views through the network in one pass: each layer reads its weights once for the
//! two views. Two kernels give the same numbers bit for bit: a portable one (plain loops, which
//! the compiler vectorises with the baseline SSE2) and one in 256-bit AVX2 through `std::arch`,
//! chosen at run time ([`Kernel::detect`]). The first layer is in integers (`quantized.rs`),
//! exact in any order; in the later layers every output is summed in the order of
//! [`Dense::forward`](super::layers::Dense::forward) (bias, then input 0, 1, … each product
//! rounded, then added): the SIMD lanes are outputs, so each lane does the scalar sum's
//! operations in the scalar sum's order, and nothing is fused.

use super::features::Inputs;
use super::layers::Dense;
use super::quantized::{QuantizedLayer, OUTPUTS};

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
/// `first` (in integers, `quantized.rs`), `hidden` and `output` (ReLU after the first two).
#[inline(always)]
pub fn portable(
    first: &QuantizedLayer,
    hidden: &Dense<OUTPUTS, SECOND>,
    output: &Dense<SECOND, 1>,
    inputs: &Inputs,
) -> [f32; 2] {
    first
        .forward_paired(inputs)
        .map(|first| output_layer(output, &second_layer(hidden, &first)))
}

/// Outputs of the second layer.
pub const SECOND: usize = 8;
/// The second layer's sum runs in this many chains (input `i` in chain `i % CHAINS`), so that
/// the SIMD kernel has that many additions in flight instead of one.
const CHAINS: usize = 4;
const _: () = assert!(
    OUTPUTS % CHAINS == 0,
    "the SIMD kernel takes the rows four at a time"
);

/// The second layer on the first layer's outputs (before their ReLU): per output, chain `c`
/// sums `relu(first[i]) × weight` over the inputs `i ≡ c (mod 4)` in order, chain 0 from the
/// bias and the others from 0, then `(chain 0 + chain 1) + (chain 2 + chain 3)`.
#[inline(always)]
pub fn second_layer(hidden: &Dense<OUTPUTS, SECOND>, first: &[f32; OUTPUTS]) -> [f32; SECOND] {
    let mut chains = [[0.0; SECOND]; CHAINS];
    chains[0] = hidden.biases;
    for (index, (&value, row)) in first.iter().zip(&hidden.weights).enumerate() {
        let value = relu(value);
        for (sum, weight) in chains[index % CHAINS].iter_mut().zip(row) {
            *sum += value * weight;
        }
    }
    let mut second = [0.0; SECOND];
    for (output, second) in second.iter_mut().enumerate() {
        let pairs = [0, 2].map(|chain| chains[chain][output] + chains[chain + 1][output]);
        *second = pairs[0] + pairs[1];
    }
    second
}

/// The output layer on the second layer's sums (before their ReLU): the products
/// `p_k = relu(second[k]) × weight_k` summed as a tree, `((p0 + p4) + (p2 + p6)) + ((p1 + p5) +
/// (p3 + p7))`, then the bias added.
#[inline(always)]
pub fn output_layer(output: &Dense<SECOND, 1>, second: &[f32; SECOND]) -> f32 {
    let mut products = [0.0; SECOND];
    for (product, (value, row)) in products.iter_mut().zip(second.iter().zip(&output.weights)) {
        *product = relu(*value) * row[0];
    }
    let quarters = [0, 1, 2, 3].map(|k| products[k] + products[k + 4]);
    let halves = [0, 1].map(|k| quarters[k] + quarters[k + 2]);
    output.biases[0] + (halves[0] + halves[1])
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
    use crate::bot::value_net::quantized;
    use std::arch::x86_64::*;

    /// The AVX2 kernel, for [`OUTPUTS`] first-layer outputs (8-lane registers from
    /// `quantized.rs`) and 8 second-layer outputs (one register): the portable kernel's numbers.
    ///
    /// # Safety
    /// The processor must have AVX2. (Every load and store moves 8 floats inside an array of a
    /// multiple of 8: a row or the biases of a layer, or a local array of that length.)
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn logits(
        first: &QuantizedLayer,
        hidden: &Dense<OUTPUTS, 8>,
        output: &Dense<8, 1>,
        inputs: &Inputs,
    ) -> [f32; 2] {
        let registers = quantized::avx2::forward_paired(first, inputs);
        let zero = _mm256_setzero_ps();
        let mut first = [[0.0f32; OUTPUTS]; 2];
        for (sums, registers) in first.iter_mut().zip(registers) {
            for (block, register) in registers.into_iter().enumerate() {
                _mm256_storeu_ps(
                    sums.as_mut_ptr().add(8 * block),
                    _mm256_max_ps(register, zero),
                );
            }
        }
        // The second layer in four chains per view (`second_layer`), its rows four at a time:
        // input `CHAINS × quad + chain` goes to chain `chain`, a constant index once the inner
        // loop is unrolled, so the eight chains stay in registers whatever the width.
        let bias = _mm256_loadu_ps(hidden.biases.as_ptr());
        let mut chains = [[bias, zero, zero, zero]; 2];
        for (quad, rows) in hidden.weights.chunks_exact(CHAINS).enumerate() {
            let weights = [
                _mm256_loadu_ps(rows[0].as_ptr()),
                _mm256_loadu_ps(rows[1].as_ptr()),
                _mm256_loadu_ps(rows[2].as_ptr()),
                _mm256_loadu_ps(rows[3].as_ptr()),
            ];
            for (chains, first) in chains.iter_mut().zip(&first) {
                for (chain, (sum, weights)) in chains.iter_mut().zip(weights).enumerate() {
                    let value = _mm256_set1_ps(first[CHAINS * quad + chain]);
                    *sum = _mm256_add_ps(*sum, _mm256_mul_ps(value, weights));
                }
            }
        }
        let out_weights = _mm256_loadu_ps(output.weights.as_ptr() as *const f32);
        chains.map(|[c0, c1, c2, c3]| {
            let second = _mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3));
            // The output layer's tree (`output_layer`).
            let products = _mm256_mul_ps(_mm256_max_ps(second, zero), out_weights);
            let quarters = _mm_add_ps(
                _mm256_castps256_ps128(products),
                _mm256_extractf128_ps::<1>(products),
            );
            let halves = _mm_add_ps(quarters, _mm_movehl_ps(quarters, quarters));
            let sum = _mm_add_ss(halves, _mm_shuffle_ps::<0b01>(halves, halves));
            output.biases[0] + _mm_cvtss_f32(sum)
        })
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
