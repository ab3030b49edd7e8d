//! The value network: the same small MLP `g` (features → [`HIDDEN1`] → [`HIDDEN2`] → 1, ReLU)
//! applied to both teams' views of a position; player 0's win probability is
//! `σ(g(own view) − g(their view))`, so a position and its mirror get complementary values by
//! construction. The first layer is evaluated in integers (`quantized.rs`: inputs rounded to
//! 1/2048, weights to their 13-bit levels), the later two in `f32` in a fixed order
//! (`paired.rs`). Evaluating allocates nothing: every buffer is a fixed array on the stack, and
//! the first layer's tables are built with the network.

use super::codec::decode_values;
use super::course::Course;
use super::features::{Inputs, Leg, FEATURE_COUNT};
use super::layers::Dense;
use super::paired::{self, Kernel};
use super::quantized::QuantizedLayer;
use crate::bot::timeout_clocks::TimeoutClocks;
use crate::engine::{FastPod, Map};

pub use super::shape::{HIDDEN1, HIDDEN2};

/// The tensors in the order the weights are written: per layer its weights (input-major), then
/// its biases. Their element counts.
pub const TENSOR_SIZES: [usize; 6] = [
    FEATURE_COUNT * HIDDEN1,
    HIDDEN1,
    HIDDEN1 * HIDDEN2,
    HIDDEN2,
    HIDDEN2,
    1,
];

/// Weights in all.
pub const WEIGHT_COUNT: usize =
    FEATURE_COUNT * HIDDEN1 + HIDDEN1 + HIDDEN1 * HIDDEN2 + 2 * HIDDEN2 + 1;

#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The first layer as trained (private: [`Network::new`] derives `first` from it).
    input: Dense<FEATURE_COUNT, HIDDEN1>,
    /// The first layer as the network evaluates it: in integers (`quantized.rs`).
    first: QuantizedLayer,
    pub hidden: Dense<HIDDEN1, HIDDEN2>,
    pub output: Dense<HIDDEN2, 1>,
    /// How [`Network::player0_logit`] evaluates it: the fastest kernel the processor runs
    /// (private: only [`Kernel::detect`] may choose a SIMD kernel).
    kernel: Kernel,
}

impl Network {
    /// The network of these layers, evaluated by the fastest kernel; its first layer is
    /// evaluated in integers (`quantized.rs`).
    pub fn new(
        input: Dense<FEATURE_COUNT, HIDDEN1>,
        hidden: Dense<HIDDEN1, HIDDEN2>,
        output: Dense<HIDDEN2, 1>,
    ) -> Network {
        Network {
            first: QuantizedLayer::of(&input),
            input,
            hidden,
            output,
            kernel: Kernel::detect(),
        }
    }

    /// The first layer as trained (weights in `f32`).
    pub fn input(&self) -> &Dense<FEATURE_COUNT, HIDDEN1> {
        &self.input
    }

    /// The network of `values`: every weight in the order of [`TENSOR_SIZES`] (each layer's
    /// weights input-major, then its biases), zeros for any missing.
    pub fn from_values(values: &[f32]) -> Network {
        let mut next = values.iter().copied();
        let mut fill = |tensor: &mut [f32]| {
            tensor
                .iter_mut()
                .for_each(|w| *w = next.next().unwrap_or(0.0));
        };
        let (mut input, mut hidden, mut output) = (Dense::zeros(), Dense::zeros(), Dense::zeros());
        input.weights.iter_mut().for_each(|row| fill(row));
        fill(&mut input.biases);
        hidden.weights.iter_mut().for_each(|row| fill(row));
        fill(&mut hidden.biases);
        output.weights.iter_mut().for_each(|row| fill(row));
        fill(&mut output.biases);
        Network::new(input, hidden, output)
    }

    /// The network of the encoded weights (`codec.rs`) with each tensor's scale.
    pub fn decode(encoded: &str, scales: &[f32; 6]) -> Result<Network, String> {
        let values = decode_values(encoded, &TENSOR_SIZES, scales)?;
        Ok(Network::from_values(&values))
    }

    /// The network embedded in the bot (`weights.rs`).
    pub fn embedded() -> Network {
        Network::decode(super::weights::WEIGHTS, &super::weights::SCALES)
            .expect("the embedded weights match the network's shape (a test checks it)")
    }

    /// The control of the embedded network's rows (`--net-file control`): the same network with
    /// its output layer's weights and bias zeroed, so that it costs the same and says nothing
    /// (`g` is 0 for both views: a value of one half everywhere). A gain of the embedded
    /// network over it is what the network learned.
    pub fn control() -> Network {
        let mut network = Network::embedded();
        network.output = Dense::zeros();
        network
    }

    /// `g` of one view's features: the definition the kernels match bit for bit.
    #[inline(always)]
    pub fn side_logit(&self, inputs: &[f32; FEATURE_COUNT]) -> f32 {
        let mut first = [0.0; HIDDEN1];
        self.first.forward(inputs, &mut first);
        paired::output_layer(&self.output, &paired::second_layer(&self.hidden, &first))
    }

    /// The kernel that evaluates the network.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The same network evaluated by the portable kernel (same results, for tests and the
    /// benchmark).
    pub fn with_portable_kernel(mut self) -> Network {
        self.kernel = Kernel::Portable;
        self
    }

    /// Player 0's win logit in the position `pods` with the checkpoint clocks `clocks`, of a
    /// race of `passes_to_finish` passes on `map`. [`Network::player0_logit_on`] gives the same
    /// number, faster, from a course built once per game.
    #[inline(always)]
    pub fn player0_logit(
        &self,
        pods: &[FastPod; 4],
        map: &Map,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
    ) -> f32 {
        let legs = pods.map(|pod| Leg::of(map, pod.next_checkpoint as usize));
        self.logit_with_legs(pods, map, &legs, passes_to_finish, clocks)
    }

    /// [`Network::player0_logit`] on a course built once per game (`Course::new(&map)`).
    #[inline(always)]
    pub fn player0_logit_on(
        &self,
        pods: &[FastPod; 4],
        course: &Course,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
    ) -> f32 {
        let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
        self.logit_with_legs(pods, &course.map, &legs, passes_to_finish, clocks)
    }

    /// `g(own view) − g(their view)`, both views' inputs computed once (`Inputs::of`).
    #[inline(always)]
    fn logit_with_legs(
        &self,
        pods: &[FastPod; 4],
        map: &Map,
        legs: &[Leg; 4],
        passes_to_finish: u16,
        clocks: TimeoutClocks,
    ) -> f32 {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the kernel is AVX2 only when `Kernel::detect` found AVX2 on this processor
            // (the field is private and set by `decode` from `detect`, or to `Portable`).
            Kernel::Avx2 => unsafe { avx2_logit(self, pods, map, legs, passes_to_finish, clocks) },
            _ => {
                let inputs = Inputs::of(pods, map, legs, passes_to_finish, clocks);
                let [own, theirs] = self.paired_logits(&inputs);
                own - theirs
            }
        }
    }

    /// `g` of each view (`[player 0's, player 1's]`) by the network's kernel, equal bit for bit
    /// to [`Network::side_logit`] of each.
    #[inline(always)]
    pub fn paired_logits(&self, inputs: &Inputs) -> [f32; 2] {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the kernel is AVX2 only when `Kernel::detect` found AVX2 (and so AVX) on
            // this processor (the field is private, set by `decode` from `detect` or to
            // `Portable`).
            Kernel::Avx2 => unsafe {
                paired::avx::logits(&self.first, &self.hidden, &self.output, inputs)
            },
            _ => paired::portable(&self.first, &self.hidden, &self.output, inputs),
        }
    }

    /// Player 0's win probability in (0, 1).
    #[inline(always)]
    pub fn player0_value(
        &self,
        pods: &[FastPod; 4],
        map: &Map,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
    ) -> f64 {
        let logit = f64::from(self.player0_logit(pods, map, passes_to_finish, clocks));
        1.0 / (1.0 + (-logit).exp())
    }
}

/// `Network::logit_with_legs` compiled for AVX2: the inputs' packed square roots, divisions
/// and products four `f64` wide, then the AVX kernel.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2_logit(
    network: &Network,
    pods: &[FastPod; 4],
    map: &Map,
    legs: &[Leg; 4],
    passes_to_finish: u16,
    clocks: TimeoutClocks,
) -> f32 {
    let inputs = Inputs::of(pods, map, legs, passes_to_finish, clocks);
    let [own, theirs] =
        paired::avx::logits(&network.first, &network.hidden, &network.output, &inputs);
    own - theirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::value_net::features::swap_teams;
    use crate::engine::Vec2;

    fn pods() -> [FastPod; 4] {
        let pod = |x: f64, y: f64, passes: u16| FastPod {
            pos: Vec2::new(x, y),
            vel: Vec2::new(120.0, 30.0),
            heading: Vec2::new(1.0, 0.0),
            passes,
            next_checkpoint: ((passes + 1) % 3) as u8,
            boost_used: false,
            shield_lock_turns: 0,
        };
        [
            pod(5000.0, 1000.0, 2),
            pod(2000.0, 3000.0, 1),
            pod(7000.0, 6000.0, 1),
            pod(8000.0, 1000.0, 0),
        ]
    }

    #[test]
    fn the_embedded_network_decodes_and_mirrors_are_complementary() {
        let network = Network::embedded();
        let map = Map::new(&[(1000, 1000), (9000, 1000), (9000, 7000)]).unwrap();
        let (pods, clocks) = (pods(), TimeoutClocks::new([60, 90]));
        let value = network.player0_value(&pods, &map, 9, clocks);
        let mirrored = network.player0_value(&swap_teams(&pods), &map, 9, clocks.swapped());
        assert!(value > 0.0 && value < 1.0);
        assert!((value + mirrored - 1.0).abs() < 1e-6, "{value} {mirrored}");
    }

    #[test]
    fn both_entry_points_give_the_logit_of_the_two_views_bit_for_bit() {
        use crate::bot::value_net::features::features;
        use crate::bot::value_net::features::tests::random_positions;
        let network = Network::embedded();
        for (map, pods, passes, clocks) in random_positions(3, 5_000) {
            let mut own = [0.0; FEATURE_COUNT];
            let mut theirs = [0.0; FEATURE_COUNT];
            features(&pods, &map, passes, clocks, &mut own);
            features(
                &swap_teams(&pods),
                &map,
                passes,
                clocks.swapped(),
                &mut theirs,
            );
            let expected = network.side_logit(&own) - network.side_logit(&theirs);
            let course = Course::new(&map);
            assert_eq!(
                network.player0_logit(&pods, &map, passes, clocks).to_bits(),
                expected.to_bits()
            );
            assert_eq!(
                network
                    .player0_logit_on(&pods, &course, passes, clocks)
                    .to_bits(),
                expected.to_bits()
            );
        }
    }

    #[test]
    fn the_control_pays_the_layers_for_a_value_of_one_half() {
        use crate::bot::value_net::features::tests::random_positions;
        let (control, embedded) = (Network::control(), Network::embedded());
        assert_eq!(
            (&control.input, &control.hidden),
            (&embedded.input, &embedded.hidden)
        );
        for (map, pods, passes, clocks) in random_positions(7, 200) {
            assert_eq!(control.player0_value(&pods, &map, passes, clocks), 0.5);
        }
    }

    #[test]
    fn weights_of_the_wrong_length_are_refused() {
        assert!(Network::decode("!!", &[1.0; 6]).is_err());
        assert_eq!(TENSOR_SIZES.iter().sum::<usize>(), WEIGHT_COUNT);
    }
}
