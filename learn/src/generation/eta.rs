//! The loop's ETA between steps: what is left of a generation from its settings and the rates
//! measured on this machine, announced at each step.

use crate::generation::settings::Settings;
use crate::generation::state::State;

/// The loop's ETA between steps: what is left of this generation from the settings and the
/// rates measured on this machine (README, "Self-play generations"), printed at each step.
pub(crate) struct Eta {
    settings: Settings,
    progress: bool,
}

/// Seconds of one core per search iteration with the network, measured on this machine: 2
/// self-play games at 2,500 iterations (575 turns, two searches each) took 4.33 s of CPU
/// (README, "Self-play generations").
const SECONDS_PER_ITERATION: f64 = 1.5e-6;

/// Searches of an average game: two a turn, 290 turns (the same 2 games: 273 and 302).
const SEARCHES_PER_GAME: f64 = 2.0 * 290.0;

impl Eta {
    pub(crate) fn new(settings: &Settings, progress: bool) -> Eta {
        Eta {
            settings: settings.clone(),
            progress,
        }
    }

    fn selfplay_seconds(&self) -> f64 {
        self.settings.games as f64
            * SEARCHES_PER_GAME
            * self.settings.iterations as f64
            * SECONDS_PER_ITERATION
    }

    /// The gate at its most games: on the clock, each search takes its budget.
    fn gate_seconds(&self) -> f64 {
        let seconds_per_search = match self.settings.gate_budget_ms {
            Some(budget_ms) => budget_ms / 1000.0,
            None => self.settings.gate_iterations as f64 * SECONDS_PER_ITERATION,
        };
        self.settings.gate_games as f64 * SEARCHES_PER_GAME * seconds_per_search
    }

    pub(crate) fn announce(&self, step: &str, state: &State) {
        if !self.progress {
            return;
        }
        let left = match step {
            "selfplay" => self.selfplay_seconds() + self.gate_seconds(),
            _ => self.gate_seconds(),
        };
        eprintln!(
            "generation {}: {step} (the step's own bar gives its ETA; self-play and the gate \
             left: about {:.0} minutes of one core, the gate's at most)",
            state.generation,
            (left / 60.0).ceil()
        );
    }
}
