//! Deep turns (KataGo's playout-cap randomisation): a self-play run may search a share of its
//! turns with more iterations than the rest, so that those turns' root visits are the targets
//! of a deeper search than the games could afford on every turn. Which turns are deep is a
//! function of the run's seed, the game and the turn alone ([`DeepTurns::is_deep`]), the same
//! for both players, so a game stays reproducible from the seed. A deep turn's position is told
//! from a fast one by its root visits (a search's root visits are its iterations): the policy's
//! trainer keeps the deep ones with `--min-visits` (`policy/data.rs`), the value network's
//! trainer reads every position. The run records it in its manifest as `deep-turns:
//! <iterations> <share in thousandths>`; a run without deep turns writes nothing, so its
//! manifest and data hash are those of before.

use csb::engine::referee::splitmix64::splitmix64;

/// Thousandths in a share of 1.
pub const PER_MILLE: u32 = 1000;

/// A run's deep turns: their iterations and their share of the turns, in thousandths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepTurns {
    pub iterations: u64,
    pub per_mille: u32,
}

impl DeepTurns {
    /// Deep turns of `iterations` on `share` of the turns (0 < share ≤ 1, in thousandths), for
    /// a run whose other turns search `fast_iterations`: the deep turns must search more.
    pub fn new(iterations: u64, share: f64, fast_iterations: u64) -> Result<DeepTurns, String> {
        let per_mille = (share * f64::from(PER_MILLE)).round();
        if !(share > 0.0 && share <= 1.0) || (per_mille - share * f64::from(PER_MILLE)).abs() > 1e-6
        {
            return Err(format!(
                "--deep-share must be a share of the turns above 0 and at most 1, in thousandths \
                 (got {share})"
            ));
        }
        if iterations <= fast_iterations {
            return Err(format!(
                "--deep-iterations ({iterations}) must be above --iterations ({fast_iterations})"
            ));
        }
        Ok(DeepTurns {
            iterations,
            per_mille: per_mille as u32,
        })
    }

    /// The deep turns a command's `--deep-iterations` and `--deep-share` ask for (clap makes
    /// each require the other), or none.
    pub fn from_flags(
        iterations: Option<u64>,
        share: Option<f64>,
        fast_iterations: u64,
    ) -> Result<Option<DeepTurns>, String> {
        match (iterations, share) {
            (Some(iterations), Some(share)) => {
                DeepTurns::new(iterations, share, fast_iterations).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// Whether turn `turn` (the race's turn before it is played) of game `index` of a run
    /// seeded `seed` is searched deep.
    pub fn is_deep(&self, seed: u64, index: u64, turn: u32) -> bool {
        let draw = splitmix64(splitmix64(seed ^ 0xDEE9_7095) ^ (index << 16) ^ u64::from(turn));
        draw % u64::from(PER_MILLE) < u64::from(self.per_mille)
    }

    /// The iterations of that turn: the deep ones, or `fast_iterations`.
    pub fn iterations_on(&self, seed: u64, index: u64, turn: u32, fast_iterations: u64) -> u64 {
        if self.is_deep(seed, index, turn) {
            self.iterations
        } else {
            fast_iterations
        }
    }

    /// The share of the turns searched deep (as `--deep-share` takes it).
    pub fn share(&self) -> f64 {
        f64::from(self.per_mille) / f64::from(PER_MILLE)
    }

    /// A setting's text (a generation's state, a run's first difference): the manifest's value,
    /// or `none` for a run without deep turns.
    pub fn setting_text(deep: Option<DeepTurns>) -> String {
        deep.map_or("none".to_string(), |deep| deep.manifest_value())
    }

    /// Reads [`DeepTurns::setting_text`]'s text; no entry at all (a state from before deep
    /// turns, which searched every turn alike) reads as none.
    pub fn parse_setting(value: Option<&str>) -> Result<Option<DeepTurns>, String> {
        match value {
            None | Some("none") => Ok(None),
            Some(value) => DeepTurns::parse(value).map(Some),
        }
    }

    /// The manifest's value: `<iterations> <per mille>`.
    pub fn manifest_value(&self) -> String {
        format!("{} {}", self.iterations, self.per_mille)
    }

    /// Reads [`DeepTurns::manifest_value`]'s text.
    pub fn parse(value: &str) -> Result<DeepTurns, String> {
        let fields: Vec<&str> = value.split_whitespace().collect();
        let parsed = match fields[..] {
            [iterations, per_mille] => iterations.parse().ok().zip(per_mille.parse().ok()),
            _ => None,
        };
        match parsed {
            Some((iterations, per_mille)) if (1..=PER_MILLE).contains(&per_mille) => {
                Ok(DeepTurns {
                    iterations,
                    per_mille,
                })
            }
            _ => Err(format!(
                "`deep-turns: {value}` is not `deep-turns: <iterations> <thousandths 1..1000>`"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_of_deep_turns_is_the_one_asked_for() {
        let deep = DeepTurns::new(20_000, 0.25, 5_000).unwrap();
        assert_eq!(deep.per_mille, 250);
        let turns = (0..40u64)
            .flat_map(|game| (0..200u32).map(move |turn| (game, turn)))
            .filter(|&(game, turn)| deep.is_deep(7, game, turn))
            .count();
        let share = turns as f64 / 8_000.0;
        assert!((share - 0.25).abs() < 0.02, "{share}");
        // A function of the seed, game and turn alone.
        let again = DeepTurns::new(20_000, 0.25, 5_000).unwrap();
        assert!((0..200).all(|turn| deep.is_deep(7, 3, turn) == again.is_deep(7, 3, turn)));
        assert!((0..200).any(|turn| deep.is_deep(7, 3, turn) != deep.is_deep(8, 3, turn)));
        let all = DeepTurns::new(20_000, 1.0, 5_000).unwrap();
        assert!((0..200).all(|turn| all.iterations_on(1, 2, turn, 5_000) == 20_000));
    }

    #[test]
    fn wrong_settings_are_refused_with_one_line() {
        for share in [0.0, -0.5, 1.5, 0.2505, f64::NAN] {
            let error = DeepTurns::new(20_000, share, 5_000).unwrap_err();
            assert!(
                error.contains("--deep-share") && !error.contains('\n'),
                "{error}"
            );
        }
        let error = DeepTurns::new(5_000, 0.25, 5_000).unwrap_err();
        assert!(error.contains("--deep-iterations"), "{error}");
    }

    #[test]
    fn the_manifest_value_reads_back() {
        let deep = DeepTurns::new(20_000, 0.125, 5_000).unwrap();
        assert_eq!(deep.manifest_value(), "20000 125");
        assert_eq!(DeepTurns::parse(&deep.manifest_value()), Ok(deep));
        assert_eq!(deep.share(), 0.125);
        assert_eq!(DeepTurns::setting_text(None), "none");
        assert_eq!(
            DeepTurns::parse_setting(Some(&DeepTurns::setting_text(Some(deep)))),
            Ok(Some(deep))
        );
        assert_eq!(DeepTurns::parse_setting(Some("none")), Ok(None));
        assert_eq!(DeepTurns::parse_setting(None), Ok(None));
        for bad in ["20000", "20000 0", "20000 1001", "many 250", "1 2 3"] {
            assert!(
                DeepTurns::parse(bad).unwrap_err().contains("deep-turns"),
                "{bad}"
            );
        }
    }
}
