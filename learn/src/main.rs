//! `learn`: the command line of the learned evaluation's pipeline (README, "Learned
//! evaluation"). `learn selfplay` writes self-play games and their directory's manifest; `learn
//! train` trains the value network on them; `learn export` writes a model into the bot; `learn
//! merge` makes the shard directories of one run into one data directory. Wrong input gives one
//! line on stderr and exit code 2.

use clap::{Parser, Subcommand};
use learn::data::command::{merge, MergeArgs};
use learn::policy::command::{
    embed_policy, export_policy, train_policy, EmbedPolicyArgs, ExportPolicyArgs, TrainPolicyArgs,
};
use learn::selfplay::command::{selfplay, SelfplayArgs};
use learn::value::command::{
    evaluate, export, plot_losses, train, EvaluateArgs, ExportArgs, PlotArgs, TrainArgs,
};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "learn",
    about = "Self-play data and training of csb's value network"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play csb against itself at a fixed number of iterations per turn and write one file per
    /// game into DIR, listed in DIR/manifest.txt with the run's settings and the bots'
    /// signatures (games already there are skipped: resumable; a DIR of another run is refused).
    Selfplay(SelfplayArgs),
    /// Merge the shard directories of one self-play run (`selfplay --shard I/N`, one each) into
    /// one data directory with the manifest an unsharded run writes; refuses (one line, nothing
    /// written) shards of different runs, overlapping or together incomplete, or an OUT holding
    /// other games.
    Merge(MergeArgs),
    /// Train the value network on the games of DATA (checked against DATA's manifest), resuming
    /// from OUT's checkpoint when it is of the same data and settings; the model's manifest goes
    /// beside it, and its network file (`csb --net-file`, and the next run's `--td-network`) as
    /// OUT/network.txt.
    Train(TrainArgs),
    /// Measure a network file (`csb --net-file`'s format) on the test split of DATA: its
    /// log-loss and accuracy beside the hand evaluation's, as `train` reports its own network's
    /// (for example generation 1's network on a later generation's games).
    Evaluate(EvaluateArgs),
    /// Train the policy network (each own pod's action distribution, trained on the root visit
    /// counts, and its value) on the games of DATA; the best epoch's model goes to
    /// OUT/policy.safetensors.
    TrainPolicy(TrainPolicyArgs),
    /// Write a trained policy model as the file the bot reads (`csb --policy-net FILE`).
    ExportPolicy(ExportPolicyArgs),
    /// Write a policy network file into the bot's source (quantised, one character a weight),
    /// so that the bundles can play it (`csb --policy-net embedded`).
    EmbedPolicy(EmbedPolicyArgs),
    /// Write a trained model's weights into the bot's source (quantised), and keep a copy of
    /// the model and its manifest beside the source for the test that ties the two.
    Export(ExportArgs),
    /// One turn of the self-play loop (or the rest of an interrupted one): the best
    /// generation's network plays itself, the next network trains on the last generations'
    /// data, a gate (SPRT on game pairs) promotes it or keeps the best; each step recorded in
    /// ROOT/gen-NNN/state.txt, so running the same command again resumes.
    Generation(GenerationArgs),
    /// Writes the generations table and plots again from the kept generations' files.
    GenerationsTable(TableArgs),
    /// Draws the loss curves of a training run's loss.csv into an SVG file.
    PlotLosses(PlotArgs),
}

#[derive(clap::Args)]
struct GenerationArgs {
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
    /// Generations whose data the next network trains on (this one and the ones before).
    #[arg(long, default_value_t = 3)]
    window: usize,
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
    #[arg(long, default_value_t = learn::generation::DEFAULT_POLICY_LEARNING_RATE)]
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
    #[arg(long, default_value = "td:0.7", value_parser = learn::value::target::Target::parse)]
    target: learn::value::target::Target,
    /// Trainings of the value network in a row (fitted TD): the first bootstraps its TD target
    /// from the parent's network, each later one from the round before it (td targets only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    td_rounds: u64,
    /// Most games of the gate (game pairs; it stops earlier when the SPRT decides).
    #[arg(long, default_value_t = 400)]
    gate_games: u64,
    /// Search iterations a turn of both bots in the gate (the same network shape costs the
    /// same per iteration, so equal iterations are equal time).
    #[arg(long, default_value_t = 5_000)]
    gate_iterations: u64,
    /// The gate's SPRT bounds in Elo.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], default_values_t = [0.0, 50.0], allow_negative_numbers = true)]
    sprt: Vec<f64>,
    /// The loop's seed (self-play and gate seeds derive from it and the generation).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this step (selfplay, train or gate): a session's share; run again to go on.
    #[arg(long, value_parser = ["selfplay", "train", "gate"])]
    stop_after: Option<String>,
    /// Games played at once in self-play and in the gate, one a thread (one a core); the
    /// generation's files do not depend on it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
}

#[derive(clap::Args)]
struct TableArgs {
    /// Where promoted generations are kept.
    #[arg(long, default_value = "learn/generations")]
    keep: PathBuf,
    /// The generations table to write.
    #[arg(long, default_value = "docs/generations.md")]
    table: PathBuf,
}

fn main() -> ExitCode {
    let cli = match tool_cli::parse_args::<Cli>("learn") {
        Ok(cli) => cli,
        Err(message) => {
            eprintln!("learn: {message}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Selfplay(args) => selfplay(&args),
        Command::Merge(args) => merge(&args),
        Command::Train(args) => train(&args),
        Command::Export(args) => export(&args),
        Command::Generation(args) => generation(&args),
        Command::Evaluate(args) => evaluate(&args),
        Command::PlotLosses(args) => plot_losses(&args),
        Command::GenerationsTable(args) => learn::generation::first_generation_in(&args.keep)
            .and_then(|()| learn::generations_table::write(&args.keep, &args.table))
            .map(|()| eprintln!("generations-table: {} written", args.table.display())),
        Command::TrainPolicy(args) => train_policy(&args),
        Command::ExportPolicy(args) => export_policy(&args),
        Command::EmbedPolicy(args) => embed_policy(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // A generation's step that failed has printed its line already.
            if error != learn::generation::ALREADY_SAID {
                eprintln!("learn: {error}");
            }
            ExitCode::from(2)
        }
    }
}

fn generation(args: &GenerationArgs) -> Result<(), String> {
    let settings = learn::generation::Settings {
        games: args.games,
        iterations: args.iterations,
        nodes: args.nodes,
        window: args.window,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        policy_epochs: args.policy_epochs,
        policy_learning_rate: args.policy_learning_rate,
        hand_share_start: args.hand_share_start,
        hand_share_generations: args.hand_share_generations,
        target: args.target,
        td_rounds: args.td_rounds as usize,
        gate_games: args.gate_games,
        gate_iterations: args.gate_iterations,
        sprt: (args.sprt[0], args.sprt[1]),
        seed: args.seed,
    };
    let places = learn::generation::Places {
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
    let report = learn::generation::run(&settings, &places)?;
    println!("{report}");
    Ok(())
}
