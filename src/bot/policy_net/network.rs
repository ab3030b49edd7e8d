//! The policy network's shape and forward pass: one view's inputs (`FEATURE_COUNT`) →
//! [`HIDDEN`] (ReLU) → [`OUTPUTS`]: the runner's 10 action logits, the blocker's 10, then the
//! runner's and the blocker's value logits. A view's slot 0 is its runner and slot 1 its blocker
//! as the features order them ([`Inputs::slot_pod`]); player 1's view is the same network on the
//! view with the teams exchanged, so a position and its mirror get mirrored outputs by
//! construction.

use super::action_inputs::{
    action_inputs, action_inputs_upto, ActionLayers, PodActionInputs, ACTION_HIDDEN, ACTION_INPUTS,
    FIRST_ACTION_INPUTS,
};
use super::shape::{FIRST_ACTION_HIDDEN, FIRST_HIDDEN};
use crate::bot::actions::ACTION_COUNT;
use crate::bot::timeout_clocks::TimeoutClocks;
use crate::bot::value_net::course::Course;
use crate::bot::value_net::features::{Inputs, FEATURE_COUNT};
use crate::bot::value_net::layers::{relu, Dense};
use crate::bot::value_net::paired::Kernel;
use crate::engine::FastPod;

/// Width of the hidden layer (`shape.rs`).
pub use super::shape::HIDDEN;
/// Outputs: per own pod (runner, blocker) its action logits, then their two value logits.
pub const OUTPUTS: usize = 2 * ACTION_COUNT + 2;
/// The first value logit among the outputs.
pub const VALUE_OUTPUTS: usize = 2 * ACTION_COUNT;
/// Values per tensor, in the order the file (`file.rs`) and the embedded weights (`embedded.rs`)
/// hold them: the input layer's weights (input-major) and biases, then the heads'.
pub const TENSOR_SIZES: [usize; 4] = [FEATURE_COUNT * HIDDEN, HIDDEN, HIDDEN * OUTPUTS, OUTPUTS];
/// Weights in all.
pub const WEIGHT_COUNT: usize = FEATURE_COUNT * HIDDEN + HIDDEN + HIDDEN * OUTPUTS + OUTPUTS;

/// A position as the priors read it: the pods, the course, the passes to finish, the clocks.
type Position<'a> = (&'a [FastPod; 4], &'a Course, u16, TimeoutClocks);

/// The policy network's layers.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyNetwork {
    pub input: Dense<FEATURE_COUNT, HIDDEN>,
    pub heads: Dense<HIDDEN, OUTPUTS>,
    /// The layers scoring each action from its own inputs (`action_inputs.rs`), added to its
    /// logit; `None` in a network trained without them (the embedded one), which then computes
    /// nothing of them.
    pub actions: Option<ActionLayers>,
    /// How [`PolicyNetwork::pod_priors`] is compiled: for AVX2 where the processor has it
    /// (private: only [`Kernel::detect`] may choose it). Both give the same numbers.
    kernel: Kernel,
}

/// What the network says about one team's two pods in a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeamOutputs {
    /// The pod (index into the position's four) of each slot: runner, blocker.
    pub slot_pods: [usize; 2],
    /// Each slot's action probabilities (a softmax: positive, summing to 1).
    pub priors: [[f32; ACTION_COUNT]; 2],
    /// Each slot's value in (0, 1) from its team's side.
    pub values: [f32; 2],
}

impl TeamOutputs {
    /// The slot (0 runner, 1 blocker) of pod `pod`, which must be one of this team's.
    #[inline(always)]
    pub fn slot_of(&self, pod: usize) -> usize {
        usize::from(self.slot_pods[0] != pod)
    }
}

/// `priors = softmax(logits)`, computed from the largest logit down (no overflow).
#[inline(always)]
pub fn softmax(logits: &[f32; ACTION_COUNT], priors: &mut [f32; ACTION_COUNT]) {
    let largest = logits.iter().fold(f32::NEG_INFINITY, |m, &l| m.max(l));
    let mut sum = 0.0;
    for (prior, &logit) in priors.iter_mut().zip(logits) {
        *prior = (logit - largest).exp();
        sum += *prior;
    }
    let inverse = 1.0 / sum;
    for prior in priors.iter_mut() {
        *prior *= inverse;
    }
}

impl PolicyNetwork {
    /// A network of zeros (filled by the file's reader).
    pub fn zeros() -> PolicyNetwork {
        PolicyNetwork {
            input: Dense::zeros(),
            heads: Dense::zeros(),
            actions: None,
            kernel: Kernel::detect(),
        }
    }

    /// The same network with [`PolicyNetwork::pod_priors`] compiled for any processor (same
    /// results; for tests and the benchmark).
    pub fn with_portable_kernel(mut self) -> PolicyNetwork {
        self.kernel = Kernel::Portable;
        self
    }

    /// Every weight in the order of [`TENSOR_SIZES`].
    pub fn values(&self) -> Vec<f32> {
        let mut values = Vec::with_capacity(WEIGHT_COUNT);
        self.input.append_values(&mut values);
        self.heads.append_values(&mut values);
        values
    }

    /// The network of `values` in the order of [`TENSOR_SIZES`] ([`PolicyNetwork::values`]);
    /// weights past the end of `values` are 0.
    pub fn from_values(values: &[f32]) -> PolicyNetwork {
        let mut network = PolicyNetwork::zeros();
        let mut next = values.iter().copied();
        network.input.fill_from(&mut next);
        network.heads.fill_from(&mut next);
        network
    }

    /// Every weight of the policy file: [`PolicyNetwork::values`], then the action layers'
    /// ([`ActionLayers::values`]) when it has them. What `--policy-net FILE` hands the search.
    pub fn values_with_actions(&self) -> Vec<f32> {
        let mut values = self.values();
        if let Some(layers) = &self.actions {
            values.extend(layers.values());
        }
        values
    }

    /// The network of [`PolicyNetwork::values_with_actions`]: with action layers when `values`
    /// holds more than the network's own [`WEIGHT_COUNT`].
    pub fn from_values_with_actions(values: &[f32]) -> PolicyNetwork {
        let (own, actions) = values.split_at(WEIGHT_COUNT.min(values.len()));
        let mut network = PolicyNetwork::from_values(own);
        if !actions.is_empty() {
            network.actions = Some(ActionLayers::from_values(actions));
        }
        network
    }

    /// The same network with its action logits divided by `temperature`: its priors are
    /// `softmax(logits / temperature)`, flatter above 1 and sharper below; the value heads are
    /// unchanged. A logit is affine in the heads' weights and bias, so scaling those scales it at
    /// no cost a turn. PUCT's exploration term is proportional to the prior, so a policy retrained
    /// on sharper visits than its parent's searches on needs one (docs/learning.md, screens S6-S9).
    pub fn tempered(mut self, temperature: f32) -> PolicyNetwork {
        if temperature == 1.0 {
            return self;
        }
        let factor = 1.0 / temperature;
        let action_outputs =
            |row: &mut [f32; OUTPUTS]| row[..VALUE_OUTPUTS].iter_mut().for_each(|w| *w *= factor);
        self.heads.weights.iter_mut().for_each(action_outputs);
        action_outputs(&mut self.heads.biases);
        self.actions = self.actions.take().map(|layers| layers.scaled(factor));
        self
    }

    /// The raw outputs (logits) of one view's inputs.
    #[inline(always)]
    pub fn forward(&self, inputs: &[f32; FEATURE_COUNT]) -> [f32; OUTPUTS] {
        self.forward_and_hidden(inputs).0
    }

    /// [`PolicyNetwork::forward`] and the hidden layer it went through (after its ReLU).
    #[inline(always)]
    fn forward_and_hidden(&self, inputs: &[f32; FEATURE_COUNT]) -> ([f32; OUTPUTS], [f32; HIDDEN]) {
        let mut hidden = [0.0; HIDDEN];
        self.input.forward(inputs, &mut hidden);
        relu(&mut hidden);
        let mut out = [0.0; OUTPUTS];
        self.heads.forward(&hidden, &mut out);
        (out, hidden)
    }

    /// [`PolicyNetwork::forward`] with each slot's action scores added to its action logits
    /// (`action_inputs` per slot: runner, blocker); the same outputs for a network without
    /// action layers.
    #[inline(always)]
    pub fn forward_with_actions(
        &self,
        inputs: &[f32; FEATURE_COUNT],
        action_inputs: &[PodActionInputs; 2],
    ) -> [f32; OUTPUTS] {
        let (mut out, hidden) = self.forward_and_hidden(inputs);
        if let Some(layers) = &self.actions {
            for (slot, inputs) in action_inputs.iter().enumerate() {
                let mut logits = [0.0; ACTION_COUNT];
                logits.copy_from_slice(&out[slot * ACTION_COUNT..(slot + 1) * ACTION_COUNT]);
                layers.add_scores(inputs, slot, &hidden, &mut logits);
                out[slot * ACTION_COUNT..(slot + 1) * ACTION_COUNT].copy_from_slice(&logits);
            }
        }
        out
    }

    /// Pod `pod`'s action probabilities in the position `pods` with the clocks `clocks`: its
    /// slot's priors of [`PolicyNetwork::team_outputs`] bit for bit, computing only that slot's
    /// ten outputs and their softmax (what the search reads at each expansion and rollout ply).
    #[inline(always)]
    pub fn pod_priors(
        &self,
        pods: &[FastPod; 4],
        course: &Course,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
        pod: usize,
    ) -> [f32; ACTION_COUNT] {
        let full = [HIDDEN, ACTION_INPUTS, ACTION_HIDDEN];
        self.pod_priors_within(full, pods, course, passes_to_finish, clocks, pod)
    }

    /// The loops of [`PolicyNetwork::pod_priors_within`] at the first files' widths (the
    /// embedded policy's: 32 units, 12 inputs per action into 16) where the network fits them,
    /// else at the bot's: each compiled with constant bounds.
    #[inline(always)]
    fn dispatch_within(
        &self,
        within: [usize; 3],
        position: Position,
        pod: usize,
        avx2: bool,
    ) -> [f32; ACTION_COUNT] {
        let [hidden, inputs, units] = within;
        let first =
            hidden <= FIRST_HIDDEN && inputs <= FIRST_ACTION_INPUTS && units <= FIRST_ACTION_HIDDEN;
        match (first, avx2) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `avx2` only when the kernel is AVX2, which `Kernel::detect` found on this
            // processor (the field is private, set by `zeros` from `detect` or to `Portable`).
            (true, true) => unsafe {
                avx2_pod_priors::<FIRST_HIDDEN, FIRST_ACTION_INPUTS, FIRST_ACTION_HIDDEN>(
                    self, position, pod,
                )
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            (false, true) => unsafe {
                avx2_pod_priors::<HIDDEN, ACTION_INPUTS, ACTION_HIDDEN>(self, position, pod)
            },
            (true, _) => self
                .portable_pod_priors::<FIRST_HIDDEN, FIRST_ACTION_INPUTS, FIRST_ACTION_HIDDEN>(
                    position, pod,
                ),
            (false, _) => self.portable_full_pod_priors(position, pod),
        }
    }

    /// [`PolicyNetwork::portable_pod_priors`] at the bot's widths, out of line: inlined, its
    /// loops (the widest) would change how the search's own loop compiles for every policy.
    #[inline(never)]
    fn portable_full_pod_priors(&self, position: Position, pod: usize) -> [f32; ACTION_COUNT] {
        self.portable_pod_priors::<HIDDEN, ACTION_INPUTS, ACTION_HIDDEN>(position, pod)
    }

    /// [`PolicyNetwork::pod_priors`] computing only the first `[hidden, inputs per action,
    /// action hidden]` units and inputs of each layer: the same priors bit for bit when those
    /// are at least the network's effective widths (`widths::effective`: past them every
    /// weight is zero, so every term left out is `0 × 0`), at the cost of its own width. What
    /// the search calls (`guided.rs`), with the widths computed once.
    #[inline(always)]
    pub fn pod_priors_within(
        &self,
        within: [usize; 3],
        pods: &[FastPod; 4],
        course: &Course,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
        pod: usize,
    ) -> [f32; ACTION_COUNT] {
        let position = (pods, course, passes_to_finish, clocks);
        self.dispatch_within(within, position, pod, self.kernel == Kernel::Avx2)
    }

    /// [`PolicyNetwork::pod_priors`] for any processor: the definition the AVX2 build matches
    /// (the same operations in the same order, compiled for wider registers).
    #[inline(always)]
    fn portable_pod_priors<const H: usize, const AI: usize, const AH: usize>(
        &self,
        (pods, course, passes_to_finish, clocks): Position,
        pod: usize,
    ) -> [f32; ACTION_COUNT] {
        let team = pod / 2;
        let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
        let inputs = Inputs::of(pods, &course.map, &legs, passes_to_finish, clocks);
        let mut hidden = [0.0; HIDDEN];
        (self.input).forward_within::<FEATURE_COUNT, H>(&inputs.view(team), &mut hidden);
        relu(&mut hidden);
        let slot = usize::from(inputs.slot_pod(team, 0) != pod);
        let first = slot * ACTION_COUNT;
        // The heads' sums for this slot, in `Dense::forward`'s order (bias, then each input).
        let mut logits = [0.0; ACTION_COUNT];
        logits.copy_from_slice(&self.heads.biases[first..first + ACTION_COUNT]);
        for (value, row) in hidden[..H].iter().zip(self.heads.weights.iter()) {
            // A unit the ReLU zeroed adds nothing: skipped.
            if *value == 0.0 {
                continue;
            }
            for (sum, weight) in logits.iter_mut().zip(&row[first..first + ACTION_COUNT]) {
                *sum += value * weight;
            }
        }
        if let Some(layers) = &self.actions {
            let opposing_runner = inputs.slot_pod(team, 2);
            layers.add_scores_within::<H, AI, AH>(
                &action_inputs_upto(pods, course, pod, opposing_runner, AI),
                slot,
                &hidden,
                &mut logits,
            );
        }
        let mut priors = [0.0; ACTION_COUNT];
        softmax(&logits, &mut priors);
        priors
    }

    /// Team `team`'s (0: pods 0 and 1, 1: pods 2 and 3) outputs in the position `pods` with the
    /// clocks `clocks` of a race of `passes_to_finish` passes on `course`.
    #[inline(always)]
    pub fn team_outputs(
        &self,
        pods: &[FastPod; 4],
        course: &Course,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
        team: usize,
    ) -> TeamOutputs {
        let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
        let inputs = Inputs::of(pods, &course.map, &legs, passes_to_finish, clocks);
        let slot_pods = [inputs.slot_pod(team, 0), inputs.slot_pod(team, 1)];
        let out = match &self.actions {
            Some(_) => {
                let opposing_runner = inputs.slot_pod(team, 2);
                let of_slot =
                    |slot: usize| action_inputs(pods, course, slot_pods[slot], opposing_runner);
                self.forward_with_actions(&inputs.view(team), &[of_slot(0), of_slot(1)])
            }
            None => self.forward(&inputs.view(team)),
        };
        let mut outputs = TeamOutputs {
            slot_pods,
            priors: [[0.0; ACTION_COUNT]; 2],
            values: [0.0; 2],
        };
        for slot in 0..2 {
            let mut logits = [0.0; ACTION_COUNT];
            logits.copy_from_slice(&out[slot * ACTION_COUNT..(slot + 1) * ACTION_COUNT]);
            softmax(&logits, &mut outputs.priors[slot]);
            outputs.values[slot] = 1.0 / (1.0 + (-out[VALUE_OUTPUTS + slot]).exp());
        }
        outputs
    }
}

/// `PolicyNetwork::portable_pod_priors` compiled for AVX2: the inputs' square roots and
/// divisions four `f64` wide and the first layer's outputs eight `f32` wide. Each lane does the
/// portable code's operations in its order (nothing is fused: AVX2 does not bring FMA), so the
/// priors are the same bit for bit.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2_pod_priors<const H: usize, const AI: usize, const AH: usize>(
    network: &PolicyNetwork,
    position: Position,
    pod: usize,
) -> [f32; ACTION_COUNT] {
    network.portable_pod_priors::<H, AI, AH>(position, pod)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bot::policy_net::action_inputs::{ACTION_MIDDLE, ACTION_TENSOR_SIZES};
    use crate::bot::value_net::features::tests::random_positions;
    use crate::search::Rng;

    /// A network of seeded random weights (the tests need no trained one).
    pub(crate) fn random_network(seed: u64) -> PolicyNetwork {
        let mut rng = Rng::new(seed);
        let mut draw = |scale: f64| ((rng.next_f64() * 2.0 - 1.0) * scale) as f32;
        let mut network = PolicyNetwork::zeros();
        for row in network.input.weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = draw(0.4));
        }
        network.input.biases.iter_mut().for_each(|b| *b = draw(0.2));
        for row in network.heads.weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = draw(0.6));
        }
        network.heads.biases.iter_mut().for_each(|b| *b = draw(0.2));
        network
    }

    /// [`random_network`] with action layers of seeded random weights.
    pub(crate) fn random_network_with_actions(seed: u64) -> PolicyNetwork {
        let mut rng = Rng::new(seed ^ 0xac71);
        let values: Vec<f32> = (0..ACTION_TENSOR_SIZES.iter().sum::<usize>())
            .map(|_| ((rng.next_f64() * 2.0 - 1.0) * 0.5) as f32)
            .collect();
        let mut network = random_network(seed);
        network.actions = Some(ActionLayers::from_values(&values));
        network
    }

    /// [`random_network_with_context`] whose action layers have a second layer of seeded random
    /// weights (the heads' rows past it zeroed: they read its units).
    pub(crate) fn random_network_with_middle(seed: u64) -> PolicyNetwork {
        use crate::bot::policy_net::action_inputs::{ACTION_MIDDLE, MIDDLE_TENSOR_SIZES};
        let mut network = random_network_with_context(seed);
        let mut rng = Rng::new(seed ^ 0x3dd1e);
        let layers = network.actions.as_mut().unwrap();
        layers.heads.weights[ACTION_MIDDLE..]
            .iter_mut()
            .for_each(|row| *row = [0.0; 2]);
        let mut values = layers.values();
        values.extend(
            (0..MIDDLE_TENSOR_SIZES.iter().sum::<usize>())
                .map(|_| ((rng.next_f64() * 2.0 - 1.0) * 0.5) as f32),
        );
        network.actions = Some(ActionLayers::from_values(&values));
        network
    }

    /// [`random_network_with_actions`] whose action layers have a context layer of seeded
    /// random weights.
    pub(crate) fn random_network_with_context(seed: u64) -> PolicyNetwork {
        use crate::bot::policy_net::action_inputs::CONTEXT_TENSOR_SIZES;
        let mut network = random_network_with_actions(seed);
        let mut rng = Rng::new(seed ^ 0xc047);
        let mut values = network.actions.as_ref().unwrap().values();
        values.extend(
            (0..CONTEXT_TENSOR_SIZES.iter().sum::<usize>())
                .map(|_| ((rng.next_f64() * 2.0 - 1.0) * 0.5) as f32),
        );
        network.actions = Some(ActionLayers::from_values(&values));
        network
    }

    #[test]
    fn a_network_is_its_values() {
        let network = random_network(11);
        let values = network.values();
        assert_eq!(values.len(), WEIGHT_COUNT);
        assert_eq!(TENSOR_SIZES.iter().sum::<usize>(), WEIGHT_COUNT);
        assert_eq!(PolicyNetwork::from_values(&values), network);
        assert_eq!(values[0], network.input.weights[0][0]);
        assert_eq!(values[1], network.input.weights[0][1]);
        assert_eq!(values[WEIGHT_COUNT - 1], network.heads.biases[OUTPUTS - 1]);
    }

    #[test]
    fn the_priors_sum_to_one_over_the_actions() {
        let network = random_network(3);
        for (map, pods, passes, clocks) in random_positions(21, 2_000) {
            let course = Course::new(&map);
            for team in 0..2 {
                let outputs = network.team_outputs(&pods, &course, passes, clocks, team);
                for priors in outputs.priors {
                    let sum: f32 = priors.iter().sum();
                    assert!((sum - 1.0).abs() < 1e-5, "{sum}");
                    assert!(priors.iter().all(|&p| p > 0.0 && p.is_finite()));
                }
                assert!(outputs.values.iter().all(|&v| v > 0.0 && v < 1.0));
                let mut pods_of_team = outputs.slot_pods;
                pods_of_team.sort_unstable();
                assert_eq!(pods_of_team, [2 * team, 2 * team + 1]);
            }
        }
        // Logits far apart give no overflow.
        let mut priors = [0.0; ACTION_COUNT];
        let mut logits = [0.0; ACTION_COUNT];
        logits[4] = 1e4;
        softmax(&logits, &mut priors);
        assert_eq!(priors[4], 1.0);
    }

    #[test]
    fn a_temperature_divides_the_action_logits_and_keeps_the_values() {
        let network = random_network(13);
        assert_eq!(network.clone().tempered(1.0), network);
        let flatter = network.clone().tempered(2.0);
        let sharper = network.clone().tempered(0.5);
        let entropy =
            |priors: &[f32; ACTION_COUNT]| -> f32 { priors.iter().map(|&p| -p * p.ln()).sum() };
        for (map, pods, passes, clocks) in random_positions(41, 500) {
            let course = Course::new(&map);
            for team in 0..2 {
                let plain = network.team_outputs(&pods, &course, passes, clocks, team);
                let flat = flatter.team_outputs(&pods, &course, passes, clocks, team);
                let sharp = sharper.team_outputs(&pods, &course, passes, clocks, team);
                assert_eq!(flat.values, plain.values);
                assert_eq!(sharp.values, plain.values);
                for slot in 0..2 {
                    let (p, f, s) = (&plain.priors[slot], &flat.priors[slot], &sharp.priors[slot]);
                    assert!(entropy(f) >= entropy(p) - 1e-5 && entropy(s) <= entropy(p) + 1e-5);
                    // softmax(l / 2) is proportional to the square root of softmax(l).
                    let roots: Vec<f32> = p.iter().map(|q| q.sqrt()).collect();
                    let sum: f32 = roots.iter().sum();
                    for (root, &got) in roots.iter().zip(f) {
                        assert!((root / sum - got).abs() < 1e-4, "{} {got}", root / sum);
                    }
                }
            }
        }
    }

    #[test]
    fn a_pods_priors_are_its_slot_of_the_teams_bit_for_bit() {
        for network in [
            random_network(7),
            random_network_with_actions(7),
            random_network_with_context(7),
            random_network_with_middle(7),
        ] {
            for (map, pods, passes, clocks) in random_positions(25, 2_000) {
                let course = Course::new(&map);
                for pod in 0..4 {
                    let outputs = network.team_outputs(&pods, &course, passes, clocks, pod / 2);
                    let expected = outputs.priors[outputs.slot_of(pod)].map(f32::to_bits);
                    let got = network.pod_priors(&pods, &course, passes, clocks, pod);
                    assert_eq!(got.map(f32::to_bits), expected);
                }
            }
        }
    }

    #[test]
    fn action_layers_change_the_priors_and_not_the_values() {
        let plain = random_network(17);
        let mut with_actions = random_network_with_actions(17);
        let mut changed = 0;
        for (map, pods, passes, clocks) in random_positions(27, 300) {
            let course = Course::new(&map);
            for team in 0..2 {
                let a = plain.team_outputs(&pods, &course, passes, clocks, team);
                let b = with_actions.team_outputs(&pods, &course, passes, clocks, team);
                assert_eq!(a.values, b.values);
                changed += usize::from(a.priors != b.priors);
            }
        }
        assert!(changed > 500, "{changed}");
        // A temperature divides the action layers' scores too: at 2, the priors are the square
        // roots of the plain ones, normalised.
        let flatter = with_actions.clone().tempered(2.0);
        for (map, pods, passes, clocks) in random_positions(29, 100) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let p = with_actions.pod_priors(&pods, &course, passes, clocks, pod);
                let f = flatter.pod_priors(&pods, &course, passes, clocks, pod);
                let sum: f32 = p.iter().map(|q| q.sqrt()).sum();
                for (q, got) in p.iter().zip(f) {
                    assert!((q.sqrt() / sum - got).abs() < 1e-4, "{q} {got}");
                }
            }
        }
        // Layers of zeros add nothing.
        with_actions.actions = Some(ActionLayers::zeros());
        for (map, pods, passes, clocks) in random_positions(28, 100) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let a = plain.pod_priors(&pods, &course, passes, clocks, pod);
                let b = with_actions.pod_priors(&pods, &course, passes, clocks, pod);
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn a_context_layer_changes_the_action_scores_with_the_position() {
        let without = random_network_with_actions(19);
        let with_context = random_network_with_context(19);
        let mut changed = 0;
        for (map, pods, passes, clocks) in random_positions(37, 300) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let a = without.pod_priors(&pods, &course, passes, clocks, pod);
                let b = with_context.pod_priors(&pods, &course, passes, clocks, pod);
                changed += usize::from(a != b);
            }
        }
        assert!(changed > 1_000, "{changed}");
        // A context layer of zeros adds nothing.
        let mut zero_context = with_context.clone();
        zero_context.actions.as_mut().unwrap().context = Some(Box::new(Dense::zeros()));
        for (map, pods, passes, clocks) in random_positions(38, 100) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let a = without.pod_priors(&pods, &course, passes, clocks, pod);
                let b = zero_context.pod_priors(&pods, &course, passes, clocks, pod);
                assert_eq!(a, b);
            }
        }
    }

    /// A second action layer changes the scores; its units reach the priors only through the
    /// heads' first rows.
    #[test]
    fn a_second_action_layer_changes_the_action_scores() {
        let without = random_network_with_context(23);
        let with_middle = random_network_with_middle(23);
        let mut changed = 0;
        for (map, pods, passes, clocks) in random_positions(39, 300) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let a = without.pod_priors(&pods, &course, passes, clocks, pod);
                let b = with_middle.pod_priors(&pods, &course, passes, clocks, pod);
                changed += usize::from(a != b);
            }
        }
        assert!(changed > 1_000, "{changed}");
        // Heads that read none of its units score every action alike: uniform priors where
        // the position's heads are zero too.
        let mut silent = with_middle.clone();
        silent.heads = Dense::zeros();
        let layers = silent.actions.as_mut().unwrap();
        layers.heads.weights[..ACTION_MIDDLE]
            .iter_mut()
            .for_each(|row| *row = [0.0; 2]);
        for (map, pods, passes, clocks) in random_positions(40, 50) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let priors = silent.pod_priors(&pods, &course, passes, clocks, pod);
                assert!(priors.iter().all(|&p| (p - 0.1).abs() < 1e-6), "{priors:?}");
            }
        }
    }

    #[test]
    fn the_avx2_and_portable_priors_agree_bit_for_bit() {
        // The embedded network, and a random one whose weights reach further.
        let networks = [
            super::super::embedded::embedded(),
            random_network(5),
            random_network_with_actions(5),
            random_network_with_context(5),
            random_network_with_middle(5),
        ];
        for network in networks {
            let portable = network.clone().with_portable_kernel();
            assert_eq!(portable.kernel, Kernel::Portable);
            assert_eq!(network.kernel, Kernel::detect());
            for (map, pods, passes, clocks) in random_positions(31, 5_000) {
                let course = Course::new(&map);
                for pod in 0..4 {
                    let fast = network.pod_priors(&pods, &course, passes, clocks, pod);
                    let plain = portable.pod_priors(&pods, &course, passes, clocks, pod);
                    assert_eq!(fast.map(f32::to_bits), plain.map(f32::to_bits));
                }
            }
        }
    }
}

#[cfg(test)]
mod within_tests {
    use super::tests::{random_network_with_context, random_network_with_middle};
    use super::*;
    use crate::bot::policy_net::widths::{effective, narrowed, Widths};
    use crate::bot::value_net::features::tests::random_positions;

    /// The search's priors, computed over the network's effective widths only (at the first
    /// files' widths for a policy that fits them, else at the bot's), are the priors of the whole
    /// layers bit for bit, on either kernel: the embedded policy, a narrow policy with a context,
    /// one of the first files' 16 action units but more inputs, and a policy of the bot's widths.
    #[test]
    fn priors_within_the_effective_widths_are_the_whole_layers_priors() {
        let random = random_network_with_context(17);
        let first = Widths::first_files(FEATURE_COUNT, FIRST_HIDDEN);
        let more_inputs = Widths {
            action_inputs: ACTION_INPUTS,
            ..first
        };
        let middle = random_network_with_middle(18);
        let networks = [
            super::super::embedded::embedded(),
            narrowed(&random, first),
            narrowed(&random, more_inputs),
            random,
            narrowed(
                &middle,
                Widths {
                    action_middle: 11,
                    ..first
                },
            ),
            middle,
        ];
        for network in networks {
            let widths = effective(&network);
            let within = [widths.hidden, widths.action_inputs, widths.action_hidden];
            for network in [network.clone(), network.with_portable_kernel()] {
                for (map, pods, passes, clocks) in random_positions(41, 1_000) {
                    let course = Course::new(&map);
                    for pod in 0..4 {
                        let whole = network.pod_priors(&pods, &course, passes, clocks, pod);
                        let cut =
                            network.pod_priors_within(within, &pods, &course, passes, clocks, pod);
                        assert_eq!(whole.map(f32::to_bits), cut.map(f32::to_bits));
                    }
                }
            }
        }
    }
}
