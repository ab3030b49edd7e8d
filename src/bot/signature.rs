//! The decision signature of a bot configuration (feature `referee`: tools and tests only): the
//! checksum `make bench` prints (`examples/bench/search.rs`, "signature") and `learn` records in
//! a self-play manifest, one recipe for both. The bot is searched for 5,000 iterations at fixed
//! turns of a recorded CodinGame game (and once as if near the checkpoint timeout), and the
//! commands it prints are hashed (FNV-1a, 64 bits). It changes only when the bot's decisions
//! change, so a manifest that records it says which bot played the games.

use crate::bot::config::BotConfig;
use crate::bot::two_pod::player::Player;
use crate::protocol::{format_command, InputReader};

/// The recorded game the bench signs on.
pub const RECORDED_INPUT: &str = include_str!("../../replays/inputs/cg-demo.p0.txt");
/// The bench's fixed turns (0-based).
pub const POSITIONS: [usize; 6] = [5, 40, 80, 120, 180, 240];
/// The turn also signed as if the pods had gone 80 turns without a pass.
pub const TIMEOUT_POSITION: usize = 120;
const STUCK_TURNS: u32 = 80;
/// Iterations of each signed search, and of each warm-up turn before it.
pub const SIGNATURE_ITERATIONS: u64 = 5_000;
pub const WARM_UP_ITERATIONS: u64 = 64;

/// The signature of csb with `config` (its iteration count is the recipe's); an error only for
/// a configuration the bot rejects.
pub fn decision_signature(config: &BotConfig) -> Result<u64, String> {
    let mut reader = InputReader::new(RECORDED_INPUT.as_bytes());
    let init = reader
        .read_init()
        .map_err(|error| format!("the recorded game: {error}"))?
        .ok_or("the recorded game has no init block")?;
    let mut turns = Vec::new();
    while let Some(turn) = reader
        .read_turn(4, init.checkpoints.len())
        .map_err(|error| format!("the recorded game: {error}"))?
    {
        turns.push(turn);
    }
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    let cases = POSITIONS
        .iter()
        .map(|&turn| (turn, None))
        .chain([(TIMEOUT_POSITION, Some(STUCK_TURNS))]);
    for (turn, turns_without_pass) in cases {
        // Played up to `turn` cheaply, so the bot's memory is right.
        let warm_up = BotConfig {
            iterations: Some(WARM_UP_ITERATIONS),
            ..config.clone()
        };
        let mut player =
            Player::new(warm_up, &init).map_err(|error| format!("the recorded game: {error}"))?;
        for input in &turns[..turn] {
            player.play_turn(input);
        }
        player.config_mut().iterations = Some(SIGNATURE_ITERATIONS);
        if let Some(stuck) = turns_without_pass {
            player.memory_mut().turns_without_pass[0] = stuck;
        }
        let decision = player.play_turn(&turns[turn]);
        for command in &decision.commands {
            for byte in format_command(command, "").bytes() {
                signature = (signature ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    Ok(signature)
}

/// A signature as the bench prints it (16 hex digits).
pub fn signature_hex(signature: u64) -> String {
    format!("{signature:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_that_change_decisions_change_the_signature() {
        let default = decision_signature(&BotConfig::default()).unwrap();
        let args = ["--seed".to_string(), "2".to_string()];
        let other = BotConfig::from_args(&args).unwrap();
        assert_ne!(decision_signature(&other).unwrap(), default);
        assert_eq!(signature_hex(0xab), "00000000000000ab");
    }
}
