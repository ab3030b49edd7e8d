//! Leagues differ in the thrust cap (csb-rules.md §1, §3.3).

/// The league a game is played in: it sets the maximum integer thrust (and a used BOOST's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum League {
    /// Wood to Gold: thrust 0..=100.
    Gold,
    /// Legend: thrust 0..=200.
    Legend,
}

impl League {
    /// Largest integer thrust a bot may print; a larger one eliminates it.
    pub const fn max_thrust(self) -> u16 {
        match self {
            League::Gold => 100,
            League::Legend => 200,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            League::Gold => "gold",
            League::Legend => "legend",
        }
    }

    pub fn parse(name: &str) -> Option<League> {
        match name {
            "gold" | "Gold" => Some(League::Gold),
            "legend" | "Legend" => Some(League::Legend),
            _ => None,
        }
    }
}
