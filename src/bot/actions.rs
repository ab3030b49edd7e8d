//! The moves the search considers for one pod in one turn.
//!
//! Five steering angles at full thrust cover racing lines (±18° is the most a pod can turn,
//! ±9° the fine correction); three angles at zero thrust let a pod brake or turn in place before
//! a sharp corner; BOOST and SHIELD go straight. Ten actions keep the branching factor low
//! enough for the search to reach depth 6 many thousand times per turn.

use crate::engine::{FastAction, League, Steering, Thrust};

/// Actions per pod.
pub const ACTION_COUNT: usize = 10;

/// Index of SHIELD in every action set.
pub const SHIELD_ACTION: u8 = 9;

/// In [`ActionSet::new`]: the actions at full thrust, and those at zero thrust. The zero-thrust
/// actions steer as the first three full-thrust ones, in the same order (the greedy policy,
/// `policy.rs`, relies on it).
pub const FULL_THRUST_ACTIONS: [u8; 5] = [0, 1, 2, 3, 4];
pub const ZERO_THRUST_ACTIONS: [u8; 3] = [5, 6, 7];

/// The action set for a league (full thrust = the league's cap). A league without BOOST gets
/// a second straight full thrust in its place, one without SHIELD a straight half thrust, so the
/// bot never prints an action its league lacks (docs/leagues.md).
#[derive(Clone, Copy, Debug)]
pub struct ActionSet {
    pub actions: [FastAction; ACTION_COUNT],
}

impl ActionSet {
    pub fn new(league: League) -> ActionSet {
        let cap = league.max_thrust();
        let action = |angle_deg: f64, thrust: Thrust| FastAction {
            steering: Steering::degrees(angle_deg),
            thrust,
        };
        ActionSet {
            actions: [
                action(0.0, Thrust::Power(cap)),
                action(-18.0, Thrust::Power(cap)),
                action(18.0, Thrust::Power(cap)),
                action(-9.0, Thrust::Power(cap)),
                action(9.0, Thrust::Power(cap)),
                action(0.0, Thrust::Power(0)),
                action(-18.0, Thrust::Power(0)),
                action(18.0, Thrust::Power(0)),
                if league.has_boost() {
                    action(0.0, Thrust::Boost)
                } else {
                    action(0.0, Thrust::Power(cap))
                },
                if league.has_shield() {
                    action(0.0, Thrust::Shield)
                } else {
                    action(0.0, Thrust::Power(cap / 2))
                },
            ],
        }
    }

    #[inline(always)]
    pub fn get(&self, index: u8) -> &FastAction {
        &self.actions[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thrust_index_lists_match_the_action_set() {
        let set = ActionSet::new(League::Legend);
        for index in FULL_THRUST_ACTIONS {
            assert_eq!(set.get(index).thrust, Thrust::Power(200));
        }
        for index in ZERO_THRUST_ACTIONS {
            assert_eq!(set.get(index).thrust, Thrust::Power(0));
        }
        let listed = FULL_THRUST_ACTIONS.len() + ZERO_THRUST_ACTIONS.len();
        let powered = set
            .actions
            .iter()
            .filter(|action| matches!(action.thrust, Thrust::Power(_)))
            .count();
        assert_eq!(listed, powered);
        for (zero, full) in ZERO_THRUST_ACTIONS.into_iter().zip(FULL_THRUST_ACTIONS) {
            assert_eq!(set.get(zero).steering, set.get(full).steering);
        }
    }

    #[test]
    fn thrust_never_exceeds_the_league_cap() {
        for league in League::ALL {
            for action in ActionSet::new(league).actions {
                if let Thrust::Power(power) = action.thrust {
                    assert!(power <= league.max_thrust());
                }
            }
        }
    }

    #[test]
    fn no_action_the_league_lacks() {
        for league in League::ALL {
            let set = ActionSet::new(league);
            let has = |thrust: Thrust| set.actions.iter().any(|action| action.thrust == thrust);
            assert_eq!(has(Thrust::Boost), league.has_boost(), "{league:?}");
            assert_eq!(has(Thrust::Shield), league.has_shield(), "{league:?}");
        }
    }
}
