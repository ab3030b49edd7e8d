//! A whole race as the referee runs it (csb-rules.md §5, §6): turns, laps, eliminations, the
//! checkpoint timeout, the 500-turn limit, ranking and the result.

use super::physics::{play_turn, CollisionSink};
use crate::engine::command::Command;
use crate::engine::league::League;
use crate::engine::map::Map;
use crate::engine::pod::Pod;
use crate::engine::rules::{CHECKPOINT_TIMEOUT_TURNS, LAPS, MAX_TURNS, PLAYER_COUNT, POD_COUNT};
use std::cmp::Ordering;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A pod completed every lap.
    RaceComplete,
    /// A player was eliminated (invalid output, timeout, or the checkpoint timeout).
    Elimination,
    /// 500 turns were played.
    TurnLimit,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    /// Rank of each player: 1 = first; equal ranks are a draw.
    pub ranks: [u8; PLAYER_COUNT],
}

impl Outcome {
    /// The winning player, or `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.ranks[0].cmp(&self.ranks[1]) {
            Ordering::Less => Some(0),
            Ordering::Greater => Some(1),
            Ordering::Equal => None,
        }
    }
}

/// The state of a race between two players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Race {
    pub map: Map,
    pub league: League,
    /// Laps to complete (3 in the current game).
    pub laps: u16,
    /// Pods per player: 2 (Gold, Legend) or 1 (lower leagues).
    pub pods_per_player: usize,
    pods: [Pod; POD_COUNT],
    /// Turns simulated so far; the next one is `turn + 1`.
    pub turn: u16,
    pub eliminated: [bool; PLAYER_COUNT],
    pub outcome: Option<Outcome>,
}

impl Race {
    /// A race on `map` with every pod on its spawn point, 3 laps, 2 pods per player.
    pub fn new(map: Map, league: League) -> Race {
        Race::with_options(map, league, LAPS, 2)
    }

    pub fn with_options(map: Map, league: League, laps: u16, pods_per_player: usize) -> Race {
        assert!(pods_per_player == 1 || pods_per_player == 2);
        let pod_count = pods_per_player * PLAYER_COUNT;
        let spawns = map.spawn_positions(pod_count);
        Race {
            map,
            league,
            laps,
            pods_per_player,
            pods: spawns.map(Pod::spawn),
            turn: 0,
            eliminated: [false; PLAYER_COUNT],
            outcome: None,
        }
    }

    pub fn pod_count(&self) -> usize {
        self.pods_per_player * PLAYER_COUNT
    }

    /// The pods in index order (player 0's first).
    pub fn pods(&self) -> &[Pod] {
        &self.pods[..self.pod_count()]
    }

    /// Replace the pods (to resynchronise with a recorded state).
    pub fn pods_mut(&mut self) -> &mut [Pod] {
        let count = self.pod_count();
        &mut self.pods[..count]
    }

    pub fn player_of(&self, pod: usize) -> usize {
        pod / self.pods_per_player
    }

    /// Passes needed to finish: laps × checkpoints (§5.1).
    pub fn passes_to_finish(&self) -> u16 {
        self.laps * self.map.checkpoint_count() as u16
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Eliminates a player for a reason outside the physics (invalid output, time-out) and ends
    /// the game (§5.5). Returns the outcome.
    pub fn eliminate(&mut self, player: usize) -> Outcome {
        self.eliminated[player] = true;
        self.finish(EndReason::Elimination)
    }

    /// Plays one turn with one command per pod (in pod order), §6 steps 2–7. Returns, per
    /// player, whether this turn's checkpoint timeout eliminated it.
    pub fn step<S: CollisionSink>(
        &mut self,
        commands: &[Command],
        collisions: &mut S,
    ) -> [bool; PLAYER_COUNT] {
        assert!(self.outcome.is_none(), "the game is over");
        let pod_count = self.pod_count();
        self.turn += 1;
        let mut counts_passes = [false; POD_COUNT];
        for (pod, counts) in counts_passes.iter_mut().enumerate().take(pod_count) {
            *counts = !self.eliminated[self.player_of(pod)];
        }
        play_turn(
            &mut self.pods[..pod_count],
            commands,
            &self.map,
            self.league.max_thrust(),
            self.turn,
            &counts_passes[..pod_count],
            collisions,
        );
        let race_complete = (0..pod_count)
            .any(|pod| counts_passes[pod] && self.pods[pod].passes >= self.passes_to_finish());
        let mut timed_out = [false; PLAYER_COUNT];
        for (player, timed_out) in timed_out.iter_mut().enumerate() {
            if !self.eliminated[player] && self.checkpoint_timeout_left(player) <= 0 {
                self.eliminated[player] = true;
                *timed_out = true;
            }
        }
        if race_complete {
            self.finish(EndReason::RaceComplete);
        } else if timed_out.contains(&true) {
            self.finish(EndReason::Elimination);
        } else if self.turn >= MAX_TURNS {
            self.finish(EndReason::TurnLimit);
        }
        timed_out
    }

    /// Turns the player has left before the checkpoint timeout eliminates it, as the viewer
    /// shows it: `100 − turn + latest pass turn of its pods` (§5.3, §5.4).
    pub fn checkpoint_timeout_left(&self, player: usize) -> i32 {
        let latest_pass = self
            .pods()
            .iter()
            .enumerate()
            .filter(|(pod, _)| self.player_of(*pod) == player)
            .map(|(_, pod)| pod.last_pass_turn)
            .max()
            .unwrap_or(0);
        i32::from(CHECKPOINT_TIMEOUT_TURNS) - i32::from(self.turn) + i32::from(latest_pass)
    }

    /// Order of pods for ranking (§5.2): eliminated last, more passes, closer to the next checkpoint.
    fn compare_pods(&self, a: usize, b: usize) -> Ordering {
        let key = |pod: usize| {
            let state = &self.pods[pod];
            let next = self
                .map
                .checkpoint(state.next_checkpoint(self.map.checkpoint_count()));
            (
                self.eliminated[self.player_of(pod)],
                std::cmp::Reverse(state.passes),
                state.pos.distance(next),
            )
        };
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.cmp(&kb.1))
            .then(ka.2.partial_cmp(&kb.2).unwrap_or(Ordering::Equal))
    }

    /// Each pod's rank, 1 = best; exact ties share a rank (§5.2).
    pub fn pod_ranks(&self) -> [u8; POD_COUNT] {
        let count = self.pod_count();
        let mut ranks = [0u8; POD_COUNT];
        for (pod, rank) in ranks.iter_mut().enumerate().take(count) {
            let better = (0..count)
                .filter(|&other| self.compare_pods(other, pod) == Ordering::Less)
                .count();
            *rank = better as u8 + 1;
        }
        ranks
    }

    /// Each player's rank (its best pod's), compacted to 1..=2 (§5.2).
    pub fn player_ranks(&self) -> [u8; PLAYER_COUNT] {
        let best_pod = |player: usize| {
            (0..self.pod_count())
                .filter(|&pod| self.player_of(pod) == player)
                .min_by(|&a, &b| self.compare_pods(a, b))
                .expect("every player has a pod")
        };
        match self.compare_pods(best_pod(0), best_pod(1)) {
            Ordering::Less => [1, 2],
            Ordering::Greater => [2, 1],
            Ordering::Equal => [1, 1],
        }
    }

    fn finish(&mut self, reason: EndReason) -> Outcome {
        let ranks = if self.eliminated == [true, true] {
            [1, 1]
        } else {
            self.player_ranks()
        };
        let outcome = Outcome { reason, ranks };
        self.outcome = Some(outcome);
        outcome
    }
}
