//! Leagues differ in the thrust cap, the pods per player and the actions a bot may print
//! (csb-rules.md §1, §3.3; the leagues below Gold: docs/leagues.md).

/// The league a game is played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum League {
    /// Wood 3: one pod, a shorter first input line, thrust only.
    Wood3,
    /// Wood 2: one pod, thrust only.
    Wood2,
    /// Wood 1: one pod, thrust only.
    Wood1,
    /// Bronze: one pod, BOOST.
    Bronze,
    /// Silver: one pod, BOOST and SHIELD.
    Silver,
    /// Gold: two pods, thrust 0..=100.
    Gold,
    /// Legend: two pods, thrust 0..=200.
    Legend,
}

impl League {
    /// Every league, lowest first.
    pub const ALL: [League; 7] = [
        League::Wood3,
        League::Wood2,
        League::Wood1,
        League::Bronze,
        League::Silver,
        League::Gold,
        League::Legend,
    ];

    /// Largest integer thrust a bot may print; a larger one eliminates it.
    pub const fn max_thrust(self) -> u16 {
        match self {
            League::Legend => 200,
            _ => 100,
        }
    }

    /// Pods each player controls: one below Gold, two from Gold on.
    pub const fn pods_per_player(self) -> usize {
        match self {
            League::Gold | League::Legend => 2,
            _ => 1,
        }
    }

    /// Whether a bot may print BOOST (from Bronze on).
    pub const fn has_boost(self) -> bool {
        !matches!(self, League::Wood3 | League::Wood2 | League::Wood1)
    }

    /// Whether a bot may print SHIELD (from Silver on).
    pub const fn has_shield(self) -> bool {
        matches!(self, League::Silver | League::Gold | League::Legend)
    }

    /// The league's name as flags and replays spell it (`gold`).
    #[cfg(any(feature = "cli", feature = "referee", test))]
    pub fn name(self) -> &'static str {
        match self {
            League::Wood3 => "wood3",
            League::Wood2 => "wood2",
            League::Wood1 => "wood1",
            League::Bronze => "bronze",
            League::Silver => "silver",
            League::Gold => "gold",
            League::Legend => "legend",
        }
    }

    /// A league from its name, in lower case or capitalised (`gold`, `Gold`).
    #[cfg(any(feature = "cli", feature = "referee", test))]
    pub fn parse(name: &str) -> Option<League> {
        League::ALL
            .into_iter()
            .find(|league| name.to_ascii_lowercase() == league.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leagues_unlock_actions_in_order() {
        let boost: Vec<bool> = League::ALL.iter().map(|l| l.has_boost()).collect();
        assert_eq!(boost, [false, false, false, true, true, true, true]);
        let shield: Vec<bool> = League::ALL.iter().map(|l| l.has_shield()).collect();
        assert_eq!(shield, [false, false, false, false, true, true, true]);
        for league in League::ALL {
            assert_eq!(League::parse(league.name()), Some(league));
        }
        assert_eq!(League::parse("Gold"), Some(League::Gold));
        assert_eq!(League::parse("wood"), None);
        assert_eq!(League::Wood2.pods_per_player(), 1);
        assert_eq!(League::Legend.max_thrust(), 200);
    }
}
