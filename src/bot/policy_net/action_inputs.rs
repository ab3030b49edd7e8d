//! The policy's inputs per action, and the small layers that read them (`--action-inputs` in
//! `learn train-policy`; docs/learning.md, "Inputs per action"). The position's inputs
//! (`value_net/features.rs`) say where a pod is; which of its ten actions the search will prefer
//! depends on where each action takes it, a function of the angle to the checkpoint that a
//! hidden layer of a few dozen units only approximates. So each action gets [`ACTION_INPUTS`]
//! numbers of its own: the pod's move for one turn under that action alone (turn, thrust, move,
//! friction; no collision, no rounding), measured against its next checkpoint, the leg after it
//! and the opposing runner's coasting position; then (the last [`ACTION_INPUTS`] −
//! [`FIRST_ACTION_INPUTS`]) two more turns steered at its target at full thrust, its contact gaps
//! with the other pods' coasting positions and where it meets the opposing runner's next
//! checkpoint. A policy trained on the first 12 alone (every file before the others) reads
//! zeros from the rest (`widths.rs`) and plays as it did. One layer ([`ActionLayers`]: inputs →
//! [`ACTION_HIDDEN`], ReLU, → one logit per slot) scores every action alike, and its score is added to the
//! action's logit from the position's heads. A network without them (every file before, the
//! embedded one) computes nothing of this. With a context layer ([`ActionLayers::context`],
//! `--action-context` in `learn train-policy`), the position's hidden layer adds, per slot, one
//! value to each of the action layer's hidden units before its ReLU: how an action's move is
//! scored may then depend on the whole position (the blocker near, the race's state), not only
//! on the action's own inputs. With a second layer ([`ActionLayers::middle`], `--action-middle`
//! in `learn train-policy`), the hidden units (after their ReLU) go through one more layer of
//! [`ACTION_MIDDLE`] units (ReLU) before the slot's output: an action's score may then combine
//! its inputs in ways a sum of one layer's units cannot.

use super::shape::HIDDEN;
use crate::bot::actions::ACTION_COUNT;
use crate::bot::value_net::course::Course;
use crate::bot::value_net::features::unit;
use crate::bot::value_net::layers::{relu, Dense};
use crate::engine::rules::{BOOST_THRUST, CHECKPOINT_RADIUS, FRICTION_FACTOR, TOUCH_DISTANCE};
use crate::engine::{FastPod, Vec2};

/// Inputs per action.
pub const ACTION_INPUTS: usize = 21;
/// Inputs per action of every policy before the continuation, contact and intercept inputs:
/// the first of [`ACTION_INPUTS`].
pub const FIRST_ACTION_INPUTS: usize = 12;
/// Width of the layer that reads them: the most a policy may use (a narrower one is read into
/// it with zero units, `widths.rs`).
pub const ACTION_HIDDEN: usize = 64;
/// Values per tensor, in the order the policy file writes them: the input layer's weights
/// (input-major) and biases, then the output's (one column per slot: runner, blocker).
pub const ACTION_TENSOR_SIZES: [usize; 4] = [
    ACTION_INPUTS * ACTION_HIDDEN,
    ACTION_HIDDEN,
    ACTION_HIDDEN * 2,
    2,
];

/// Width of the second action layer ([`ActionLayers::middle`]): the most a policy may use. The
/// heads then read its units, in the first rows of theirs.
pub const ACTION_MIDDLE: usize = 64;
/// Values per tensor of the second action layer, after the context layer's (or the action
/// layers' where there is none): its weights (input-major) and biases.
pub const MIDDLE_TENSOR_SIZES: [usize; 2] = [ACTION_HIDDEN * ACTION_MIDDLE, ACTION_MIDDLE];

/// Outputs of the context layer: per slot (runner, blocker), one per hidden unit of the action
/// layer.
pub const CONTEXT_OUTPUTS: usize = 2 * ACTION_HIDDEN;
/// Values per tensor of the context layer, after [`ACTION_TENSOR_SIZES`]: its weights
/// (input-major) and biases.
pub const CONTEXT_TENSOR_SIZES: [usize; 2] = [HIDDEN * CONTEXT_OUTPUTS, CONTEXT_OUTPUTS];

/// One pod's inputs: one row per action, in action order (`actions.rs`).
pub type PodActionInputs = [[f32; ACTION_INPUTS]; ACTION_COUNT];

/// Lengths in these units (1,000: a turn's move is under 1,000 at full speed).
const LENGTH_UNIT: f64 = 1_000.0;
/// Every length and speed input is clamped to this either way.
const MAX_INPUT: f64 = 4.0;
/// Legend's full thrust, what the actions at full power give (`actions.rs`). The inputs model
/// Legend's actions in every league: a policy is trained on Legend's games.
const FULL_THRUST: f64 = 200.0;
/// `cos` and `sin` of each action's steering (0, −18°, 18°, −9°, 9°, 0, −18°, 18°, 0, 0): a test
/// ties them to `Steering::degrees`.
const COS_18: f64 = 0.951_056_516_295_153_5;
const SIN_18: f64 = 0.309_016_994_374_947_4;
const COS_9: f64 = 0.987_688_340_595_137_7;
const SIN_9: f64 = 0.156_434_465_040_230_87;
const STEERING: [(f64, f64); ACTION_COUNT] = [
    (1.0, 0.0),
    (COS_18, -SIN_18),
    (COS_18, SIN_18),
    (COS_9, -SIN_9),
    (COS_9, SIN_9),
    (1.0, 0.0),
    (COS_18, -SIN_18),
    (COS_18, SIN_18),
    (1.0, 0.0),
    (1.0, 0.0),
];
/// Each action's power as Legend plays it; the BOOST (index 8) is [`BOOST_THRUST`] until used.
const POWER: [f64; ACTION_COUNT] = [
    FULL_THRUST,
    FULL_THRUST,
    FULL_THRUST,
    FULL_THRUST,
    FULL_THRUST,
    0.0,
    0.0,
    0.0,
    BOOST_THRUST,
    0.0,
];
const BOOST_ACTION: usize = 8;

/// `a × b`: positive when `b` is counterclockwise of `a`.
#[inline(always)]
fn cross(a: Vec2, b: Vec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Turns after the action in which the pod is steered at its target at full thrust (the
/// continuation inputs).
const CONTINUATION_TURNS: usize = 2;

/// `heading` turned toward `direction` (a unit vector) by at most 18° (MAX_ROTATION).
#[inline(always)]
fn steer(heading: Vec2, direction: Vec2) -> Vec2 {
    if heading.dot(direction) >= COS_18 {
        return direction;
    }
    let sin = if cross(heading, direction) >= 0.0 {
        SIN_18
    } else {
        -SIN_18
    };
    Vec2::new(
        heading.x * COS_18 - heading.y * sin,
        heading.x * sin + heading.y * COS_18,
    )
}

/// A length or speed as an input.
#[inline(always)]
fn scaled(length: f64) -> f32 {
    (length / LENGTH_UNIT).clamp(-MAX_INPUT, MAX_INPUT) as f32
}

/// Pod `pod`'s inputs per action in the position `pods` on `course`, against the opposing
/// runner `opposing_runner` (an index into `pods`). Per action, after the pod's own move under
/// it: the change of its distance to its next checkpoint; its heading along and across the
/// direction to that checkpoint; its speed after friction along and across it; whether the move
/// passes the checkpoint (1 or 0); its heading along and across the leg after the checkpoint;
/// then against where the opposing runner would coast to (its position plus its speed): the
/// change of the distance to it, the heading along and across the direction to it and the speed
/// along it. Then, the pod steered at its target at full thrust (by at most 18° a turn, no
/// collision) for two more turns, the target moving on to the next checkpoint once one is
/// passed: how soon it passes a checkpoint within the three turns (1 this turn, 2/3 the next,
/// 1/3 the one after, 0 not), its distance to its target then and its speed toward it; its
/// contact gaps after the move with the coasting positions of the opposing runner, the opposing
/// blocker and its teammate (distance less two radii); the change of its distance to the
/// opposing runner's next checkpoint, and its heading along and across the direction to it.
#[inline(always)]
pub fn action_inputs(
    pods: &[FastPod; 4],
    course: &Course,
    pod: usize,
    opposing_runner: usize,
) -> PodActionInputs {
    action_inputs_upto(pods, course, pod, opposing_runner, ACTION_INPUTS)
}

/// [`action_inputs`], the inputs from `inputs` on left at zero and not computed (a policy that
/// reads only the first [`FIRST_ACTION_INPUTS`], [`ActionLayers::inputs_read`]).
#[inline(always)]
pub fn action_inputs_upto(
    pods: &[FastPod; 4],
    course: &Course,
    pod: usize,
    opposing_runner: usize,
    inputs: usize,
) -> PodActionInputs {
    let me = &pods[pod];
    let checkpoint = course.map.checkpoint(me.next_checkpoint as usize);
    let leg = course.leg(me.next_checkpoint as usize).direction;
    let runner = &pods[opposing_runner];
    let coast = runner.pos + runner.vel;
    let checkpoint_distance = (checkpoint - me.pos).length();
    let runner_distance = (coast - me.pos).length();
    let locked = me.shield_lock_turns > 0;
    let mut out = [[0.0; ACTION_INPUTS]; ACTION_COUNT];
    for (action, row) in out.iter_mut().enumerate() {
        let (cos, sin) = STEERING[action];
        let heading = Vec2::new(
            me.heading.x * cos - me.heading.y * sin,
            me.heading.x * sin + me.heading.y * cos,
        );
        let power = if locked {
            0.0
        } else if action == BOOST_ACTION && me.boost_used {
            FULL_THRUST
        } else {
            POWER[action]
        };
        let velocity = me.vel + heading * power;
        let position = me.pos + velocity;
        let next_velocity = velocity * FRICTION_FACTOR;

        let to_checkpoint = checkpoint - position;
        let distance = to_checkpoint.length();
        let along = unit(to_checkpoint, distance);
        let to_runner = coast - position;
        let runner_gap = to_runner.length();
        let toward = unit(to_runner, runner_gap);
        let passes =
            crate::engine::vec2::point_segment_distance_squared(me.pos, position, checkpoint)
                < CHECKPOINT_RADIUS * CHECKPOINT_RADIUS;
        row[..FIRST_ACTION_INPUTS].copy_from_slice(&[
            scaled(distance - checkpoint_distance),
            heading.dot(along) as f32,
            cross(along, heading) as f32,
            scaled(next_velocity.dot(along)),
            scaled(cross(along, next_velocity)),
            f32::from(u8::from(passes)),
            heading.dot(leg) as f32,
            cross(leg, heading) as f32,
            scaled(runner_gap - runner_distance),
            heading.dot(toward) as f32,
            cross(toward, heading) as f32,
            scaled(next_velocity.dot(toward)),
        ]);
        if inputs > FIRST_ACTION_INPUTS {
            let moved = Moved {
                position,
                next_velocity,
                heading,
                passes,
            };
            row[FIRST_ACTION_INPUTS..].copy_from_slice(&later_inputs(
                pods,
                course,
                pod,
                opposing_runner,
                &moved,
            ));
        }
    }
    out
}

/// One action's move, from which the later inputs continue.
struct Moved {
    position: Vec2,
    next_velocity: Vec2,
    heading: Vec2,
    passes: bool,
}

/// The inputs past [`FIRST_ACTION_INPUTS`] of pod `pod`'s action that `moved` it
/// ([`action_inputs`] says which).
#[inline(always)]
fn later_inputs(
    pods: &[FastPod; 4],
    course: &Course,
    pod: usize,
    opposing_runner: usize,
    moved: &Moved,
) -> [f32; ACTION_INPUTS - FIRST_ACTION_INPUTS] {
    let me = &pods[pod];
    let runner = &pods[opposing_runner];
    let Moved {
        position,
        next_velocity,
        heading,
        passes,
    } = *moved;
    // Continuation: two more turns steered at the target at full thrust (no collision), the
    // target moving on to the next checkpoint once one is passed.
    let count = course.map.checkpoint_count();
    let mut target_index = me.next_checkpoint as usize;
    let mut pass_turn = if passes { 1.0 } else { 0.0 };
    if passes {
        target_index = (target_index + 1) % count;
    }
    let (mut p, mut v, mut h) = (position, next_velocity, heading);
    for turn in 0..CONTINUATION_TURNS {
        let target = course.map.checkpoint(target_index);
        let gap = target - p;
        h = steer(h, unit(gap, gap.length()));
        v = v + h * FULL_THRUST;
        let moved = p + v;
        if pass_turn == 0.0
            && crate::engine::vec2::point_segment_distance_squared(p, moved, target)
                < CHECKPOINT_RADIUS * CHECKPOINT_RADIUS
        {
            pass_turn = (turn + 2) as f64;
            target_index = (target_index + 1) % count;
        }
        p = moved;
        v = v * FRICTION_FACTOR;
    }
    let end_target = course.map.checkpoint(target_index) - p;
    let end_distance = end_target.length();
    let end_along = unit(end_target, end_distance);
    // Contact after the move with the others' coasting positions.
    let teammate = &pods[pod ^ 1];
    let opposing_blocker = &pods[((pod & 2) ^ 2) + usize::from((opposing_runner & 1) == 0)];
    let gap_to = |other: &FastPod| (other.pos + other.vel - position).length() - TOUCH_DISTANCE;
    // The opposing runner's next checkpoint, where a blocker meets it.
    let intercept = course.map.checkpoint(runner.next_checkpoint as usize);
    let to_intercept = intercept - position;
    let intercept_distance = to_intercept.length();
    let intercept_along = unit(to_intercept, intercept_distance);
    [
        if pass_turn > 0.0 {
            (4.0 - pass_turn) as f32 / 3.0
        } else {
            0.0
        },
        scaled(end_distance),
        scaled(v.dot(end_along)),
        scaled(gap_to(runner)),
        scaled(gap_to(opposing_blocker)),
        scaled(gap_to(teammate)),
        scaled(intercept_distance - (intercept - me.pos).length()),
        heading.dot(intercept_along) as f32,
        cross(intercept_along, heading) as f32,
    ]
}

/// The layers that score each action from its inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionLayers {
    pub input: Dense<ACTION_INPUTS, ACTION_HIDDEN>,
    /// One output per slot (runner, blocker).
    pub heads: Dense<ACTION_HIDDEN, 2>,
    /// From the position's hidden layer ([`HIDDEN`]), per slot, what is added to each hidden
    /// unit of `input` before its ReLU; `None` in layers trained without it. On the heap: the
    /// largest layer of the policy, and a debug build (CodinGame's IDE, the tests) copies a
    /// network on the stack at every move.
    pub context: Option<ContextLayer>,
    /// The second layer: from the hidden units (after their ReLU) to [`ACTION_MIDDLE`] units
    /// (ReLU), which the heads read instead (their first [`ACTION_MIDDLE`] rows; the rest are
    /// zero); `None` in layers trained without it.
    pub middle: Option<MiddleLayer>,
}

/// The context layer's weights ([`ActionLayers::context`]), boxed.
pub type ContextLayer = Box<Dense<HIDDEN, CONTEXT_OUTPUTS>>;

/// The second action layer's weights ([`ActionLayers::middle`]), boxed as the context layer is.
pub type MiddleLayer = Box<Dense<ACTION_HIDDEN, ACTION_MIDDLE>>;

impl ActionLayers {
    /// Layers of zeros: they add nothing to any logit.
    pub fn zeros() -> ActionLayers {
        ActionLayers {
            input: Dense::zeros(),
            heads: Dense::zeros(),
            context: None,
            middle: None,
        }
    }

    /// Every weight in the order of [`ACTION_TENSOR_SIZES`], then the context layer's in the
    /// order of [`CONTEXT_TENSOR_SIZES`] where there is one, then the second layer's in the
    /// order of [`MIDDLE_TENSOR_SIZES`] where there is one.
    pub fn values(&self) -> Vec<f32> {
        let mut values = Vec::with_capacity(ACTION_TENSOR_SIZES.iter().sum());
        self.input.append_values(&mut values);
        self.heads.append_values(&mut values);
        if let Some(context) = &self.context {
            context.append_values(&mut values);
        }
        if let Some(middle) = &self.middle {
            middle.append_values(&mut values);
        }
        values
    }

    /// The layers of `values` in the order of [`ActionLayers::values`]; which of the optional
    /// layers they hold, its length says (the context layer's and the second layer's sizes
    /// differ, so every combination has its own length). Weights past the end of `values` are 0.
    pub fn from_values(values: &[f32]) -> ActionLayers {
        let own: usize = ACTION_TENSOR_SIZES.iter().sum();
        let context_size: usize = CONTEXT_TENSOR_SIZES.iter().sum();
        let middle_size: usize = MIDDLE_TENSOR_SIZES.iter().sum();
        let extra = values.len().saturating_sub(own);
        let has_middle = extra == middle_size || extra == context_size + middle_size;
        let has_context = extra > 0 && extra != middle_size;
        let mut layers = ActionLayers::zeros();
        let mut next = values.iter().copied();
        layers.input.fill_from(&mut next);
        layers.heads.fill_from(&mut next);
        if has_context {
            let mut context: ContextLayer = Box::new(Dense::zeros());
            context.fill_from(&mut next);
            layers.context = Some(context);
        }
        if has_middle {
            let mut middle: MiddleLayer = Box::new(Dense::zeros());
            middle.fill_from(&mut next);
            layers.middle = Some(middle);
        }
        layers
    }

    /// The same layers with their scores times `factor` (a policy's temperature: the scores are
    /// part of the action logits).
    pub fn scaled(mut self, factor: f32) -> ActionLayers {
        self.heads
            .weights
            .iter_mut()
            .flatten()
            .for_each(|w| *w *= factor);
        self.heads.biases.iter_mut().for_each(|w| *w *= factor);
        self
    }

    /// An action's hidden units (its first `AI` inputs into the first `AH` units, plus the
    /// slot's `context`), after their ReLU.
    #[inline(always)]
    fn action_hidden<const AI: usize, const AH: usize>(
        &self,
        action: &[f32; ACTION_INPUTS],
        context: &[f32; AH],
    ) -> [f32; AH] {
        let mut hidden = [0.0; AH];
        self.input.forward_into::<AI, AH>(action, &mut hidden);
        for (unit, added) in hidden.iter_mut().zip(context) {
            *unit += added;
        }
        relu(&mut hidden);
        hidden
    }

    /// Adds each action's score for slot `slot` (0 runner, 1 blocker) to `logits`;
    /// `position_hidden` is the position's hidden layer (after its ReLU), read by the context
    /// layer.
    #[inline(always)]
    pub fn add_scores(
        &self,
        inputs: &PodActionInputs,
        slot: usize,
        position_hidden: &[f32; HIDDEN],
        logits: &mut [f32; ACTION_COUNT],
    ) {
        self.add_scores_within::<HIDDEN, ACTION_INPUTS, ACTION_HIDDEN>(
            inputs,
            slot,
            position_hidden,
            logits,
        );
    }

    /// [`ActionLayers::add_scores`] reading only the first `H` units of `position_hidden`, the
    /// first `AI` inputs per action and the first `AH` units of the action layer (at least the
    /// policy's effective widths, `widths.rs`): the same scores, the units and inputs past them
    /// weighing nothing.
    #[inline(always)]
    pub fn add_scores_within<const H: usize, const AI: usize, const AH: usize>(
        &self,
        inputs: &PodActionInputs,
        slot: usize,
        position_hidden: &[f32; HIDDEN],
        logits: &mut [f32; ACTION_COUNT],
    ) {
        // The slot's context, in `Dense::forward`'s order (bias, then each input).
        let mut context = [0.0; AH];
        if let Some(layer) = &self.context {
            let first = slot * ACTION_HIDDEN;
            context.copy_from_slice(&layer.biases[first..first + AH]);
            for (value, row) in position_hidden[..H].iter().zip(&layer.weights) {
                // A unit the ReLU zeroed adds nothing: skipped.
                if *value == 0.0 {
                    continue;
                }
                for (sum, weight) in context.iter_mut().zip(&row[first..first + AH]) {
                    *sum += value * weight;
                }
            }
        }
        // Which layer the heads read is decided once, outside the actions' loop.
        match &self.middle {
            Some(middle) => {
                for (logit, action) in logits.iter_mut().zip(inputs) {
                    let hidden = self.action_hidden::<AI, AH>(action, &context);
                    // The second layer, in `Dense::forward`'s order (bias, then each input).
                    let mut second = middle.biases;
                    for (value, row) in hidden.iter().zip(middle.weights.iter()) {
                        // A unit the ReLU zeroed adds nothing: skipped.
                        if *value == 0.0 {
                            continue;
                        }
                        for (sum, weight) in second.iter_mut().zip(row) {
                            *sum += value * weight;
                        }
                    }
                    relu(&mut second);
                    let mut score = self.heads.biases[slot];
                    for (value, row) in second.iter().zip(&self.heads.weights) {
                        score += value * row[slot];
                    }
                    *logit += score;
                }
            }
            None => {
                for (logit, action) in logits.iter_mut().zip(inputs) {
                    let hidden = self.action_hidden::<AI, AH>(action, &context);
                    let mut score = self.heads.biases[slot];
                    for (value, row) in hidden.iter().zip(&self.heads.weights) {
                        score += value * row[slot];
                    }
                    *logit += score;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::actions::ActionSet;
    use crate::bot::value_net::features::tests::random_positions;
    use crate::engine::{League, Thrust};
    use crate::search::Rng;

    #[test]
    fn the_steering_and_power_tables_are_legends_action_set() {
        let set = ActionSet::new(League::Legend);
        for (action, &(cos, sin)) in STEERING.iter().enumerate() {
            let turned = set.get(action as u8).steering.apply(Vec2::new(1.0, 0.0));
            assert!((turned.x - cos).abs() < 1e-15 && (turned.y - sin).abs() < 1e-15);
            let power = match set.get(action as u8).thrust {
                Thrust::Power(power) => f64::from(power),
                Thrust::Boost => BOOST_THRUST,
                Thrust::Shield => 0.0,
            };
            assert_eq!(power, POWER[action], "action {action}");
        }
    }

    #[test]
    fn a_pod_facing_its_checkpoint_gains_most_by_thrusting_straight() {
        for (map, mut pods, _, _) in random_positions(51, 300) {
            let course = Course::new(&map);
            let pod = &mut pods[0];
            let target = map.checkpoint(pod.next_checkpoint as usize);
            let gap = target - pod.pos;
            if gap.length() < 3_000.0 {
                continue;
            }
            pod.heading = unit(gap, gap.length());
            pod.vel = Vec2::ZERO;
            pod.shield_lock_turns = 0;
            let inputs = action_inputs(&pods, &course, 0, 2);
            // Straight ahead at full power closes the distance most among the powered actions,
            // and faces the checkpoint exactly.
            for action in 1..5 {
                assert!(inputs[0][0] < inputs[action][0], "{:?}", inputs);
            }
            assert!((inputs[0][1] - 1.0).abs() < 1e-6 && inputs[0][2].abs() < 1e-6);
            // Zero thrust from rest does not move: no change of distance.
            assert!(inputs[5][0].abs() < 1e-6);
            // Every input is finite and within its bounds.
            for row in inputs {
                assert!(row
                    .iter()
                    .all(|v| v.is_finite() && v.abs() <= MAX_INPUT as f32));
            }
        }
    }

    #[test]
    fn the_continuation_finds_a_checkpoint_two_turns_ahead() {
        for (map, mut pods, _, _) in random_positions(53, 300) {
            let course = Course::new(&map);
            let pod = &mut pods[0];
            let target = map.checkpoint(pod.next_checkpoint as usize);
            // At rest 1,500 away, facing it: not reached this turn, reached by the third.
            let direction = Vec2::new(1.0, 0.0);
            pod.pos = target - direction * 1_500.0;
            pod.heading = direction;
            pod.vel = Vec2::ZERO;
            pod.shield_lock_turns = 0;
            let inputs = action_inputs(&pods, &course, 0, 2);
            assert_eq!(inputs[0][5], 0.0, "not passed in the first turn");
            assert!(
                inputs[0][12] > 0.0 && inputs[0][12] < 1.0,
                "{:?}",
                inputs[0]
            );
            // Each contact gap is a pod's radius pair below the distance.
            let runner = &pods[2];
            let after = pods[0].pos + pods[0].heading * FULL_THRUST;
            let gap = (runner.pos + runner.vel - after).length() - TOUCH_DISTANCE;
            assert!((inputs[0][15] - scaled(gap)).abs() < 1e-6);
        }
    }

    #[test]
    fn a_shield_locked_pod_moves_alike_under_every_thrust() {
        for (map, mut pods, _, _) in random_positions(52, 200) {
            let course = Course::new(&map);
            pods[1].shield_lock_turns = 2;
            let inputs = action_inputs(&pods, &course, 1, 3);
            // No power: straight thrust, BOOST and zero thrust are the same move.
            assert_eq!(inputs[0], inputs[5]);
            assert_eq!(inputs[0], inputs[8]);
        }
    }

    #[test]
    fn layers_are_their_values_and_zeros_add_nothing() {
        let mut rng = Rng::new(9);
        let values: Vec<f32> = (0..ACTION_TENSOR_SIZES.iter().sum::<usize>())
            .map(|_| (rng.next_f64() * 2.0 - 1.0) as f32)
            .collect();
        let layers = ActionLayers::from_values(&values);
        assert_eq!(layers.values(), values);
        // Every combination of the optional layers is read back from its length alone.
        let context: usize = CONTEXT_TENSOR_SIZES.iter().sum();
        let middle: usize = MIDDLE_TENSOR_SIZES.iter().sum();
        for (extra, has_context, has_middle) in [
            (context, true, false),
            (middle, false, true),
            (context + middle, true, true),
        ] {
            let mut longer = values.clone();
            longer.extend((0..extra).map(|i| (i % 7) as f32 - 3.0));
            let read = ActionLayers::from_values(&longer);
            assert_eq!(read.context.is_some(), has_context);
            assert_eq!(read.middle.is_some(), has_middle);
            assert_eq!(read.values(), longer);
        }
        let (map, pods, _, _) = random_positions(3, 1).remove(0);
        let inputs = action_inputs(&pods, &Course::new(&map), 0, 2);
        let logits = [0.5f32; ACTION_COUNT];
        let mut unchanged = logits;
        ActionLayers::zeros().add_scores(&inputs, 1, &[1.0; HIDDEN], &mut unchanged);
        assert_eq!(unchanged, logits);
        // Scaling the layers scales the scores they add.
        let mut plain = [0.0; ACTION_COUNT];
        let mut halved = [0.0; ACTION_COUNT];
        layers.add_scores(&inputs, 0, &[0.5; HIDDEN], &mut plain);
        layers
            .clone()
            .scaled(0.5)
            .add_scores(&inputs, 0, &[0.5; HIDDEN], &mut halved);
        for (p, h) in plain.iter().zip(halved) {
            assert!((p * 0.5 - h).abs() < 1e-5, "{p} {h}");
        }
    }
}
