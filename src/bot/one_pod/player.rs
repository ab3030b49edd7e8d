//! The bot in the leagues below Gold (docs/leagues.md): one pod each, the one-pod protocol, no
//! initialisation lines. It learns the course as it goes (`course.rs`), derives both pods' speeds
//! from their successive positions and its own facing from the targets it printed (the engine's
//! rotation rule, §4.2, exact whatever the convention of the angle it is told), and once it knows
//! a whole lap it searches with the same Smitsimax on the same engine as from Gold: the search
//! game keeps its four pod slots, the two team-mates' slots holding parked pods far off the map
//! that can touch nothing, so the trees that matter are its pod's and the opponent's. Before
//! that, it races with `racing.rs`. It never prints an action the league lacks.

use super::course::Course;
use super::racing::{racing_command, RacingView};
use crate::bot::actions::ActionSet;
use crate::bot::config::BotConfig;
use crate::bot::csb_game::{CsbGame, RaceContext};
use crate::bot::evaluation::Roles;
use crate::bot::leaf_evaluation::HandEvaluation;
use crate::bot::search_turn::{chosen_action, elapsed_ms, run_search};
use crate::bot::timeout_clocks::TimeoutClocks;
use crate::engine::rules::{FRICTION_FACTOR, LAPS, MAX_ROTATION, POD_COUNT, SHIELD_LOCK_TURNS};
use crate::engine::{Command, FastPod, League, Map, Pod, Thrust, Vec2};
use crate::protocol::OnePodTurn;
use crate::search::Smitsimax;

/// Where the parked team-mate slots of the search sit: far from every checkpoint and pod.
const PARKED_POSITIONS: [(f64, f64); 2] = [(-1.0e6, -1.0e6), (-1.0e6, 1.0e6)];

/// Speed gain (before friction) above the league cap that only a BOOST explains (collisions can
/// cause jumps too, hence the margin), as in `two_pod/memory.rs`.
const BOOST_DETECTION_MARGIN: f64 = 150.0;

/// What the one-pod bot decided in a turn, and what it cost.
#[derive(Clone, Copy, Debug)]
pub struct OnePodDecision {
    pub command: Command,
    pub iterations: u64,
    pub simulated_turns: u64,
    pub nodes: usize,
    /// Whether the search chose (false: the racing policy).
    pub searched: bool,
    /// The decision's own time, from reading the turn's first line.
    pub elapsed_ms: f64,
    /// The search's mean score of the action it chose (`value=` of the diagnostic line).
    pub value: Option<f64>,
}

pub struct OnePodPlayer {
    config: BotConfig,
    pub course: Course,
    search: Smitsimax<CsbGame<HandEvaluation>>,
    /// The race as the search sees it, once the course is known.
    context: Option<RaceContext<HandEvaluation>>,
    previous: Option<OnePodTurn>,
    own_facing_rad: Option<f64>,
    own_vel: Vec2,
    opponent_vel: Vec2,
    own_boost_used: bool,
    own_shield_lock_turns: u8,
    opponent_boost_used: bool,
    last_target: Option<Vec2>,
}

fn point(x: i32, y: i32) -> Vec2 {
    Vec2::new(f64::from(x), f64::from(y))
}

/// Speed after a turn that moved a pod from `before` to `after` (friction, then truncation;
/// within a unit of the referee's, which moved from the unrounded position).
fn speed_between(before: Vec2, after: Vec2) -> Vec2 {
    let moved = after - before;
    Vec2::new(
        (moved.x * FRICTION_FACTOR).trunc(),
        (moved.y * FRICTION_FACTOR).trunc(),
    )
}

/// The facing after a turn aimed at `target` from `from` (csb-rules.md §4.2).
fn turned_facing(facing: Option<f64>, from: Vec2, target: Vec2) -> Option<f64> {
    if target == from {
        return facing;
    }
    let wanted = (target.y - from.y).atan2(target.x - from.x);
    let Some(angle) = facing else {
        return Some(wanted);
    };
    let full_turn = 2.0 * std::f64::consts::PI;
    let difference = (wanted - angle) % full_turn;
    let shortest = (2.0 * difference) % full_turn - difference;
    Some(if shortest.abs() >= MAX_ROTATION {
        angle + MAX_ROTATION.copysign(shortest)
    } else {
        wanted
    })
}

impl OnePodPlayer {
    /// Allocates the search's node pools; the race context comes once a lap is known.
    pub fn new(config: BotConfig) -> OnePodPlayer {
        let search = Smitsimax::new(config.nodes_per_agent, config.search_played(), config.seed);
        OnePodPlayer {
            config,
            course: Course::new(),
            search,
            context: None,
            previous: None,
            own_facing_rad: None,
            own_vel: Vec2::ZERO,
            opponent_vel: Vec2::ZERO,
            own_boost_used: false,
            own_shield_lock_turns: 0,
            opponent_boost_used: false,
            last_target: None,
        }
    }

    fn league(&self) -> League {
        self.config.league
    }

    /// Updates speeds, facing, course and boosts from a new turn's input.
    fn observe(&mut self, input: &OnePodTurn) {
        let own = point(input.x, input.y);
        let opponent = point(input.opponent_x, input.opponent_y);
        if let Some(previous) = &self.previous {
            let own_before = point(previous.x, previous.y);
            let opponent_before = point(previous.opponent_x, previous.opponent_y);
            if let Some(target) = self.last_target {
                self.own_facing_rad = turned_facing(self.own_facing_rad, own_before, target);
            }
            self.own_vel = speed_between(own_before, own);
            let gain = (opponent - opponent_before) - self.opponent_vel;
            let cap = f64::from(self.league().max_thrust());
            if gain.length() > cap + BOOST_DETECTION_MARGIN {
                self.opponent_boost_used = true;
            }
            self.opponent_vel = speed_between(opponent_before, opponent);
        }
        self.course.observe(
            (input.next_checkpoint_x, input.next_checkpoint_y),
            (input.opponent_x, input.opponent_y),
        );
        self.previous = Some(*input);
    }

    /// The race context, made once the course is known (`None` before, or if the learnt course
    /// is not a valid map). The network knows two pods a side: the hand evaluation scores.
    fn context(&self) -> Option<RaceContext<HandEvaluation>> {
        let checkpoints = self.course.checkpoints()?;
        let map = Map::new(&checkpoints).ok()?;
        let league = self.league();
        Some(RaceContext {
            map,
            actions: ActionSet::new(league),
            max_thrust: f64::from(league.max_thrust()),
            passes_to_finish: LAPS * map.checkpoint_count() as u16,
            shield_near: self.config.shield_near,
            greedy: self.config.greedy,
            evaluation: HandEvaluation {
                weights: self.config.eval,
            },
        })
    }

    pub fn play_turn(&mut self, input: &OnePodTurn) -> OnePodDecision {
        self.observe(input);
        let first_turn = self.last_target.is_none();
        if self.context.is_none() {
            self.context = self.context();
        }
        let mut decision = match self.context.take() {
            Some(context) => {
                let decision = self.search_turn(&context, input, first_turn);
                self.context = Some(context);
                decision
            }
            None => OnePodDecision {
                command: racing_command(
                    &RacingView {
                        pos: point(input.x, input.y),
                        vel: self.own_vel,
                        facing_rad: self.own_facing_rad,
                        next_checkpoint: point(input.next_checkpoint_x, input.next_checkpoint_y),
                        boost_available: !self.own_boost_used,
                    },
                    self.league(),
                ),
                iterations: 0,
                simulated_turns: 0,
                nodes: 0,
                searched: false,
                elapsed_ms: 0.0,
                value: None,
            },
        };
        decision.command.thrust = self.allowed(decision.command.thrust);
        self.record(decision.command);
        decision.elapsed_ms = elapsed_ms(input.received_at);
        decision
    }

    /// The thrust as the league allows it: BOOST and SHIELD only where the league has them.
    fn allowed(&self, thrust: Thrust) -> Thrust {
        let league = self.league();
        match thrust {
            Thrust::Boost if !league.has_boost() => Thrust::Power(league.max_thrust()),
            Thrust::Shield if !league.has_shield() => Thrust::Power(0),
            other => other,
        }
    }

    fn record(&mut self, command: Command) {
        self.last_target = Some(command.target);
        match command.thrust {
            Thrust::Shield => self.own_shield_lock_turns = SHIELD_LOCK_TURNS,
            thrust => {
                self.own_boost_used |= thrust == Thrust::Boost;
                self.own_shield_lock_turns = self.own_shield_lock_turns.saturating_sub(1);
            }
        }
    }

    fn search_turn(
        &mut self,
        context: &RaceContext<HandEvaluation>,
        input: &OnePodTurn,
        first_turn: bool,
    ) -> OnePodDecision {
        let map = &context.map;
        let count = map.checkpoint_count();
        let own_pos = point(input.x, input.y);
        let opponent_pos = point(input.opponent_x, input.opponent_y);
        let direction = |from: Vec2, to: Vec2| (to.y - from.y).atan2(to.x - from.x);
        let own = Pod {
            pos: own_pos,
            vel: self.own_vel,
            angle_rad: self.own_facing_rad,
            passes: self.course.passes,
            last_pass_turn: 0,
            boost_used: self.own_boost_used || !self.league().has_boost(),
            shield_lock_turns: self.own_shield_lock_turns,
        };
        let opponent_passes = self.course.opponent_passes;
        let opponent_next = map.checkpoint((opponent_passes as usize + 1) % count);
        // The opponent's facing is not told: its speed's direction, or its checkpoint's.
        let opponent_facing = if self.opponent_vel.length() > 1.0 {
            direction(Vec2::ZERO, self.opponent_vel)
        } else {
            direction(opponent_pos, opponent_next)
        };
        let opponent = Pod {
            pos: opponent_pos,
            vel: self.opponent_vel,
            angle_rad: Some(opponent_facing),
            passes: opponent_passes,
            last_pass_turn: 0,
            boost_used: self.opponent_boost_used || !self.league().has_boost(),
            shield_lock_turns: 0,
        };
        let parked = |index: usize| {
            let (x, y) = PARKED_POSITIONS[index];
            let mut pod = Pod::spawn(Vec2::new(x, y));
            pod.boost_used = true;
            pod
        };
        let own_fallback = direction(own_pos, map.checkpoint(own.next_checkpoint(count)));
        let pods = [own, parked(0), opponent, parked(1)];
        let mut fast = [FastPod::from_pod(&own, count, own_fallback); POD_COUNT];
        for (index, pod) in pods.iter().enumerate() {
            let fallback = direction(pod.pos, map.checkpoint(pod.next_checkpoint(count)));
            fast[index] = FastPod::from_pod(pod, count, fallback);
        }
        let roles = |runner: usize| Roles {
            runner,
            blocker: runner + 1,
            blocker_races: false,
        };
        // The hand evaluation reads no clocks, and the one-pod memory keeps none.
        let root = CsbGame::root(context, fast, TimeoutClocks::FULL, [roles(0), roles(2)]);
        let stats = run_search(
            &mut self.search,
            context,
            &root,
            &self.config,
            first_turn,
            input.received_at,
        );
        let chosen = chosen_action(&self.search, 0);
        let action = context
            .actions
            .get(root.effective_action(context, 0, chosen));
        OnePodDecision {
            command: action.to_command(&own, own_fallback),
            iterations: stats.iterations,
            simulated_turns: stats.simulated_plies,
            nodes: stats.nodes_used.iter().copied().max().unwrap_or(0),
            searched: true,
            elapsed_ms: 0.0,
            value: self
                .search
                .root_stats(0)
                .nth(usize::from(chosen))
                .filter(|&(_, visits, _)| visits > 0)
                .map(|(_, _, mean)| mean),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_follows_the_rotation_rule() {
        let origin = Vec2::ZERO;
        assert_eq!(
            turned_facing(None, origin, Vec2::new(0.0, 10.0)),
            Some(std::f64::consts::FRAC_PI_2)
        );
        let turned = turned_facing(Some(0.0), origin, Vec2::new(0.0, 10.0)).unwrap();
        assert!((turned - MAX_ROTATION).abs() < 1e-12);
        let small = turned_facing(Some(0.0), origin, Vec2::new(100.0, 10.0)).unwrap();
        assert!((small - 0.1f64.atan()).abs() < 1e-12);
        assert_eq!(turned_facing(Some(1.0), origin, origin), Some(1.0));
    }

    #[test]
    fn speed_is_the_move_after_friction() {
        let speed = speed_between(Vec2::new(0.0, 0.0), Vec2::new(100.0, -100.0));
        assert_eq!(speed, Vec2::new(85.0, -85.0));
    }
}
