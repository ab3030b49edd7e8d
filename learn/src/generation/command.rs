//! `learn generation` (one turn of the loop, `run.rs`) and `learn generations-table` (the
//! table and plots written again from the kept generations): their arguments and what they
//! print.

use crate::data::deep_turns::DeepTurns;
use crate::generation::settings::{OutsideData, Places, Settings, DEFAULT_POLICY_LEARNING_RATE};
use crate::value::target::Target;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct GenerationArgs {
    /// The generations' folders (data, training, gates).
    #[arg(long, default_value = "data/generations")]
    root: PathBuf,
    /// Where promoted generations are kept (model, manifest, network file, state, curves).
    #[arg(long, default_value = "learn/generations")]
    keep: PathBuf,
    /// The ladder roster a promoted generation is added to.
    #[arg(long, default_value = "ladder/players.toml")]
    players: PathBuf,
    /// The generations table (the Elo plot goes beside it).
    #[arg(long, default_value = "docs/generations.md")]
    table: PathBuf,
    /// Self-play games a generation.
    #[arg(long, default_value_t = 800)]
    games: u64,
    /// Search iterations a turn in self-play: a fifth of the 25,000 the network reaches at the
    /// real control (the median, 50 ms a turn).
    #[arg(long, default_value_t = 5_000)]
    iterations: u64,
    /// Nodes per search tree.
    #[arg(long, default_value_t = 100_000)]
    nodes: usize,
    /// Search iterations of self-play's deep turns (KataGo's playout-cap randomisation,
    /// `learn selfplay --deep-iterations`): a share of the turns (`--deep-share`) searched
    /// deeper, whose positions alone train the policy (`train-policy --min-visits`); the value
    /// network trains on every position. Give `--nodes` room for them.
    #[arg(long, requires = "deep_share")]
    deep_iterations: Option<u64>,
    /// The share of self-play's turns searched deep (above 0, at most 1, in thousandths).
    #[arg(long, requires = "deep_iterations")]
    deep_share: Option<f64>,
    /// Generations whose data the next network trains on (this one and the ones before).
    #[arg(long, default_value_t = 3)]
    window: usize,
    /// A folder of self-play data from outside the loop that joins the window (again for more):
    /// games a generation's networks played on another machine, or `learn selfplay` at the
    /// loop's settings, where the window's own generations' games are not on this machine.
    /// Recorded in the state with its data-sha256.
    #[arg(long, value_name = "DIR")]
    window_data: Vec<PathBuf>,
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f64,
    /// Epochs of the policy's training on the window's root visits and values (40, as the
    /// embedded policy's); 0 keeps the parent's policy.
    #[arg(long, default_value_t = 40)]
    policy_epochs: usize,
    #[arg(long, default_value_t = DEFAULT_POLICY_LEARNING_RATE)]
    policy_learning_rate: f64,
    /// The hand evaluation's share of the target at generation 2 (the network on main, generation
    /// 1, was trained with none: the TD chain).
    #[arg(long, default_value_t = 0.0)]
    hand_share_start: f32,
    /// Generations after the first it takes the hand share to fall linearly to 0.
    #[arg(long, default_value_t = 3)]
    hand_share_generations: u32,
    /// What the rest of the target learns: result, root or td:LAMBDA over the best network's
    /// values (learn train --target). td:0.7 measured best (README, "Self-play generations").
    #[arg(long, default_value = "td:0.7", value_parser = Target::parse)]
    target: Target,
    /// Trainings of the value network in a row (fitted TD): the first bootstraps its TD target
    /// from the parent's network, each later one from the round before it (td targets only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    td_rounds: u64,
    /// Start each training from the parent's networks (the value network's first TD round from
    /// the parent's, each later round from the round before; the policy from the parent's
    /// policy) instead of from the seed's weights.
    #[arg(long)]
    warm_start: bool,
    /// Temper the trained policy to its parent's sharpness (learn temper-policy): its action
    /// logits divided by the temperature at which its priors are as spread as the parent's on
    /// the validation split.
    #[arg(long)]
    temper_policy: bool,
    /// Train the policy with inputs per action (learn train-policy --action-inputs): where each
    /// action takes the pod in one turn, read by layers of its own beside the position's.
    #[arg(long)]
    action_inputs: bool,
    /// Give the policy's action layers a context layer (learn train-policy --action-context:
    /// the position's hidden layer adds to their hidden units); implies --action-inputs.
    #[arg(long)]
    action_context: bool,
    /// Give the policy's action layers a second layer (learn train-policy --action-middle: their
    /// hidden units go through a layer more before the heads); implies --action-inputs.
    #[arg(long)]
    action_middle: bool,
    /// Train the policy on each training game's reflection too (learn train-policy --mirror:
    /// the board top to bottom, left and right turns exchanged).
    #[arg(long)]
    policy_mirror: bool,
    /// Anneal the policy's learning rate to zero along a half cosine (learn train-policy
    /// --anneal).
    #[arg(long)]
    policy_anneal: bool,
    /// Keep the trained value network only when it scores a lower log-loss than the parent's on
    /// the window's test split, the parent's otherwise: a window too short to train a better
    /// one (generation 6's, 400 games) then still leaves the generation its new policy.
    #[arg(long)]
    select_value: bool,
    /// Most games of the gate (game pairs; it stops earlier when the SPRT decides).
    #[arg(long, default_value_t = 400)]
    gate_games: u64,
    /// Search iterations a turn of both bots in the gate (the same network shape costs the
    /// same per iteration, so equal iterations are equal time).
    #[arg(long, default_value_t = 5_000)]
    gate_iterations: u64,
    /// The gate on the clock instead: both bots search MS a turn and ten times MS on the first
    /// (50: the real control, 500 ms first), with their own node pools; --jobs N plays N games
    /// at once, one a core. Its games then depend on the machine's speed and load: play it
    /// alone on the machine, as a row.
    #[arg(long, value_name = "MS")]
    gate_budget_ms: Option<f64>,
    /// The gate's SPRT bounds in Elo.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], default_values_t = [0.0, 50.0], allow_negative_numbers = true)]
    sprt: Vec<f64>,
    /// Promote the candidate also when the gate ends its games undecided (not measurably
    /// worse): only a gate whose SPRT accepts the lower bound keeps the parent.
    #[arg(long)]
    promote_inconclusive: bool,
    /// The loop's seed (self-play and gate seeds derive from it and the generation).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this step (selfplay, train or gate): a session's share; run again to go on.
    #[arg(long, value_parser = ["selfplay", "train", "gate"])]
    stop_after: Option<String>,
    /// Games played at once in self-play and in the gate, one a thread (one a core); the
    /// generation's files do not depend on it (but for a gate on the clock's games).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
}

#[derive(clap::Args)]
pub struct TableArgs {
    /// Where promoted generations are kept.
    #[arg(long, default_value = "learn/generations")]
    keep: PathBuf,
    /// The generations table to write.
    #[arg(long, default_value = "docs/generations.md")]
    table: PathBuf,
}

/// `learn generation`: one turn of the loop, and its report.
pub fn generation(args: &GenerationArgs) -> Result<(), String> {
    let deep = DeepTurns::from_flags(args.deep_iterations, args.deep_share, args.iterations)?;
    let settings = Settings {
        games: args.games,
        iterations: args.iterations,
        nodes: args.nodes,
        deep,
        window: args.window,
        window_data: args
            .window_data
            .iter()
            .map(|dir| OutsideData::read(dir))
            .collect::<Result<_, _>>()?,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        policy_epochs: args.policy_epochs,
        policy_learning_rate: args.policy_learning_rate,
        hand_share_start: args.hand_share_start,
        hand_share_generations: args.hand_share_generations,
        target: args.target,
        td_rounds: args.td_rounds as usize,
        warm_start: args.warm_start,
        temper_policy: args.temper_policy,
        action_inputs: args.action_inputs || args.action_context || args.action_middle,
        action_context: args.action_context,
        action_middle: args.action_middle,
        policy_mirror: args.policy_mirror,
        policy_anneal: args.policy_anneal,
        select_value: args.select_value,
        gate_games: args.gate_games,
        gate_iterations: args.gate_iterations,
        gate_budget_ms: args.gate_budget_ms,
        sprt: (args.sprt[0], args.sprt[1]),
        promote_inconclusive: args.promote_inconclusive,
        seed: args.seed,
    };
    let places = Places {
        root: args.root.clone(),
        keep: args.keep.clone(),
        players: args.players.clone(),
        table: args.table.clone(),
        learn: std::env::current_exe()
            .map_err(|error| format!("cannot find the learn binary: {error}"))?,
        progress: true,
        stop_after: args.stop_after.clone(),
        jobs: args.jobs as usize,
    };
    let report = crate::generation::run::run(&settings, &places)?;
    println!("{report}");
    Ok(())
}

/// `learn generations-table`: generation 1's kept folder made if missing, then the table and
/// plots written again.
pub fn generations_table(args: &TableArgs) -> Result<(), String> {
    crate::generation::first::first_generation_in(&args.keep)
        .and_then(|()| crate::generation::table::write(&args.keep, &args.table))
        .map(|()| eprintln!("generations-table: {} written", args.table.display()))
}
