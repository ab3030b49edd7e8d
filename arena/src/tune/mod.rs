//! `arena tune`: tunes numeric flags of a bot by SPSA (simultaneous perturbation stochastic
//! approximation). Each iteration perturbs every tuned flag at once by ±c_k STEPs, plays the
//! bot at θ + c_k·Δ against the bot at θ − c_k·Δ on game pairs, and moves θ along the measured
//! score difference (`spsa.rs`); the flags come from `--param NAME=START:MIN:MAX[:STEP]`
//! (`param.rs`), the games are an `arena match` per iteration (`games.rs`), and every
//! iteration is appended to a JSON-lines trajectory from which a stopped run resumes exactly
//! (`trajectory.rs`). Shards of a run play their share of every iteration's pairs and meet
//! after each through their files (`shards.rs`).
//!
//! Uses the matches (each iteration is a match), the statistics (W/D/L), the replay's
//! elimination causes and the referee's Ctrl-C handling; no other folder uses the tuning.

pub mod command;
pub mod games;
pub mod param;
pub mod shards;
pub mod spsa;
pub mod trajectory;

pub use games::GameSettings;
pub use param::ParamSpec;

use std::path::PathBuf;
use trajectory::{Header, Iteration, Part, Writer, TRAJECTORY_FORMAT};

/// Everything `arena tune` was told.
pub struct TuneConfig {
    pub bot: String,
    pub params: Vec<ParamSpec>,
    pub iterations: usize,
    pub seed: u64,
    pub first_move: f64,
    pub trajectory: PathBuf,
    pub resume: bool,
    pub games: GameSettings,
}

/// Checks what clap cannot: parameter names unique, counts positive.
fn validate(config: &TuneConfig) -> Result<(), String> {
    if config.params.is_empty() {
        return Err("give at least one --param NAME=START:MIN:MAX[:STEP]".to_string());
    }
    for (index, param) in config.params.iter().enumerate() {
        if config.params[..index].iter().any(|p| p.name == param.name) {
            return Err(format!("--param {} is given twice", param.name));
        }
    }
    if config.iterations == 0 {
        return Err("--iterations must be at least 1".to_string());
    }
    if config.games.pairs == 0 {
        return Err("--pairs must be at least 1".to_string());
    }
    if !(config.first_move > 0.0 && config.first_move.is_finite()) {
        return Err(format!(
            "--first-move must be a positive number of STEPs, got {}",
            config.first_move
        ));
    }
    if config.bot.trim().is_empty() {
        return Err("--bot is empty".to_string());
    }
    Ok(())
}

fn header_of(config: &TuneConfig) -> Header {
    Header {
        format: TRAJECTORY_FORMAT.to_string(),
        bot: config.bot.clone(),
        params: config.params.clone(),
        seed: config.seed,
        pairs: config.games.pairs,
        iterations: config.iterations,
        league: config.games.league.name().to_string(),
        time_scale: config.games.time_scale,
        first_move: config.first_move,
        gains: spsa::Gains::for_run(config.iterations, config.first_move),
    }
}

/// `--name value` for every tuned flag (integer flags rounded).
fn flags_text(params: &[ParamSpec], values: &[f64]) -> String {
    param::command_with("", params, values).trim().to_string()
}

/// Starts the trajectory, or reads back the run to resume (same settings only): the writer,
/// the finished iterations and a shard's part of the next one.
fn open_trajectory(
    config: &TuneConfig,
    header: &Header,
    path: &std::path::Path,
) -> Result<(Writer, Vec<Iteration>, Option<Part>), String> {
    if !path.exists() {
        return Ok((Writer::create(path, header)?, Vec::new(), None));
    }
    if !config.resume {
        return Err(format!(
            "{} exists: pass --resume to continue that run, or choose another --trajectory",
            path.display()
        ));
    }
    let loaded = trajectory::load(path)?;
    if let Some(difference) = trajectory::first_difference(&loaded.header, header) {
        return Err(format!(
            "{} was started with other settings ({difference})",
            path.display()
        ));
    }
    Ok((
        Writer::reopen(path)?,
        loaded.iterations,
        loaded.pending_part,
    ))
}

/// Plays the remaining iterations and returns the report for stdout.
pub fn run_tune(config: &TuneConfig) -> Result<String, String> {
    validate(config)?;
    let header = header_of(config);
    let shard = config.games.shard;
    let own_path = match shard {
        Some(shard) => shards::shard_path(&config.trajectory, shard),
        None => config.trajectory.clone(),
    };
    let path = &own_path;
    let (mut writer, done, mut pending_part) = open_trajectory(config, &header, path)?;
    let params = &config.params;
    let mut theta: Vec<f64> = match done.last() {
        Some(last) => last.theta_next.clone(),
        None => params.iter().map(|p| p.start).collect(),
    };
    let mut history = done;
    if !history.is_empty() {
        eprintln!(
            "tune: resuming {} after iteration {} of {}",
            path.display(),
            history.len(),
            config.iterations
        );
    }
    let gains = header.gains;
    for k in history.len()..config.iterations {
        let delta = spsa::perturbation_signs(config.seed, k, params.len());
        let c_k = gains.perturbation(k);
        let shifted = |direction: f64| -> Vec<f64> {
            params
                .iter()
                .zip(&theta)
                .zip(&delta)
                .map(|((p, value), sign)| p.clamp(value + direction * c_k * p.step * sign))
                .collect()
        };
        let (plus, minus) = (shifted(1.0), shifted(-1.0));
        let games_seed = spsa::iteration_seed(config.seed, k);
        let resumed_part = pending_part.take().filter(|part| part.theta == theta);
        let played_now = resumed_part.is_none();
        let own = match resumed_part {
            Some(part) => part,
            None => {
                let outcome = games::play_iteration(
                    &config.games,
                    &param::command_with(&config.bot, params, &plus),
                    &param::command_with(&config.bot, params, &minus),
                    games_seed,
                )?;
                Part {
                    part: k,
                    shard: shard.map_or(0, |(index, _)| index),
                    theta: theta.clone(),
                    results: outcome.results,
                    replay_dir: outcome.replay_dir,
                }
            }
        };
        let results = match shard {
            Some(shard) => {
                if played_now {
                    writer.append(&own)?;
                }
                shards::gather(&config.trajectory, shard, &own)?
            }
            None => own.results,
        };
        let plus_score = results.score();
        let theta_next: Vec<f64> = params
            .iter()
            .zip(&theta)
            .zip(&delta)
            .map(|((p, value), sign)| {
                p.clamp(value + p.step * spsa::move_in_steps(*sign, plus_score, &gains, k))
            })
            .collect();
        let record = Iteration {
            iteration: k,
            theta: theta.clone(),
            delta,
            a_k: gains.step_gain(k),
            c_k,
            plus: plus.clone(),
            minus: minus.clone(),
            games_seed,
            wins: results.wins,
            draws: results.draws,
            losses: results.losses,
            plus_score,
            theta_next: theta_next.clone(),
            replay_dir: own.replay_dir,
        };
        writer.append(&record)?;
        eprintln!(
            "tune: iteration {}/{}: plus [{}] vs minus [{}]: {}/{}/{} ({:.1}%) -> [{}]",
            k + 1,
            config.iterations,
            flags_text(params, &plus),
            flags_text(params, &minus),
            record.wins,
            record.draws,
            record.losses,
            100.0 * plus_score,
            flags_text(params, &theta_next)
        );
        history.push(record);
        theta = theta_next;
    }
    Ok(report(params, &history, path))
}

/// The final θ and the mean θ over the last quarter of the iterations (less noisy).
fn report(params: &[ParamSpec], history: &[Iteration], path: &std::path::Path) -> String {
    let Some(last) = history.last() else {
        return String::new();
    };
    let tail = &history[history.len() - history.len().div_ceil(4)..];
    let mean: Vec<f64> = (0..params.len())
        .map(|i| tail.iter().map(|r| r.theta_next[i]).sum::<f64>() / tail.len() as f64)
        .collect();
    let mut text = format!(
        "tuned over {} iterations (trajectory {}):\n",
        history.len(),
        path.display()
    );
    text.push_str(&format!(
        "  final θ:                           {}\n",
        flags_text(params, &last.theta_next)
    ));
    text.push_str(&format!(
        "  mean θ over the last {:>3} iterations: {}\n",
        tail.len(),
        flags_text(params, &mean)
    ));
    text
}
