//! `learn`: the command line of the learned evaluation's pipeline (README, "Learned
//! evaluation"). `learn selfplay` writes self-play games; `learn train` trains the value network
//! on them. Wrong input gives one line on stderr and exit code 2.

use clap::{Parser, Subcommand};
use learn::game_file::write_game;
use learn::selfplay::{play_game, Contestant};
use learn::shard::Shard;
use std::path::{Path, PathBuf};
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
    /// game into DIR (games already there are skipped: resumable).
    Selfplay(SelfplayArgs),
    /// Train the value network on the games of DATA, resuming from OUT's checkpoint.
    Train(TrainArgs),
    /// Write a trained model's weights into the bot's source (quantised), and keep a copy of
    /// the model beside the source for the test that ties the two.
    Export(ExportArgs),
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Directory of self-play game files.
    #[arg(long, default_value = "data/selfplay")]
    data: PathBuf,
    /// Directory of the checkpoint, loss.csv and loss.png.
    #[arg(long, default_value = "target/train")]
    out: PathBuf,
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weight of the game's result in the target; the rest is the hand evaluation's view of the
    /// position 20 turns later (squashed by the logistic fitted on the results).
    #[arg(long, default_value_t = 0.3)]
    result_weight: f32,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// The trained model.
    #[arg(long, default_value = "target/train/model.safetensors")]
    model: PathBuf,
    /// The bot's weights file to write.
    #[arg(long, default_value = "src/bot/value_net/weights.rs")]
    weights: PathBuf,
    /// Where the model's copy goes (the test compares it with the weights file).
    #[arg(long, default_value = "learn/model/value.safetensors")]
    keep: PathBuf,
}

#[derive(clap::Args)]
struct SelfplayArgs {
    /// Directory the game files go to (created if missing).
    #[arg(long, default_value = "data/selfplay")]
    out: PathBuf,
    /// Games of the whole run (all shards together).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Search iterations per turn of both bots.
    #[arg(long, default_value_t = 400)]
    iterations: u64,
    /// Seed of the run: maps and search seeds derive from it and the game's index.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games i with i mod N = I.
    #[arg(long, default_value = "0/1", value_parser = Shard::parse)]
    shard: Shard,
    /// csb flags of the first bot (besides --iterations), e.g. "--eval net".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    bot_args: String,
    /// csb flags of the second bot; the first bot's when not given (self-play).
    #[arg(long, allow_hyphen_values = true)]
    opponent_args: Option<String>,
    /// Nodes per search tree (as csb's --nodes); small is enough at a few hundred iterations.
    #[arg(long, default_value_t = 50_000)]
    nodes: usize,
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
        Command::Train(args) => train(&args),
        Command::Export(args) => export(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("learn: {error}");
            ExitCode::from(2)
        }
    }
}

/// A contestant from csb flags.
fn contestant(
    name: &str,
    flags: &str,
    iterations: u64,
    nodes: usize,
) -> Result<Contestant, String> {
    let args: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
    let mut config = csb::bot::config::BotConfig::from_args(&args)
        .map_err(|error| format!("bot flags {flags:?}: {error}"))?;
    config.iterations = Some(iterations);
    config.nodes_per_agent = nodes;
    let name = if flags.trim().is_empty() {
        name.to_string()
    } else {
        format!(
            "{name}[{}]",
            flags.split_whitespace().collect::<Vec<_>>().join(",")
        )
    };
    Ok(Contestant { name, config })
}

/// The file of game `index` in `dir`.
fn game_path(dir: &Path, index: u64) -> PathBuf {
    dir.join(format!("game-{index:06}.csbsp"))
}

fn selfplay(args: &SelfplayArgs) -> Result<(), String> {
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".to_string());
    }
    let first = contestant("csb", &args.bot_args, args.iterations, args.nodes)?;
    let second = match &args.opponent_args {
        Some(flags) => contestant("csb", flags, args.iterations, args.nodes)?,
        None => first.clone(),
    };
    let contestants = [first, second];
    std::fs::create_dir_all(&args.out)
        .map_err(|error| format!("cannot create {}: {error}", args.out.display()))?;
    let todo: Vec<u64> = (0..args.games)
        .filter(|&game| args.shard.holds(game) && !game_path(&args.out, game).exists())
        .collect();
    let held = (0..args.games)
        .filter(|&game| args.shard.holds(game))
        .count() as u64;
    let bar = indicatif::ProgressBar::new(held);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "selfplay {pos}/{len} games [{elapsed_precise} < {eta_precise}] {wide_bar} {msg}",
        )
        .expect("a valid template"),
    );
    bar.set_position(held - todo.len() as u64);
    let mut wins = [0u64; 3];
    for &game in &todo {
        let record = play_game(args.seed, game, &contestants)?;
        let path = game_path(&args.out, game);
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, write_game(&record))
            .and_then(|_| std::fs::rename(&temporary, &path))
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        wins[record.winner.map_or(2, usize::from)] += 1;
        bar.set_message(format!(
            "player 0 {} / player 1 {} / draws {}",
            wins[0], wins[1], wins[2]
        ));
        bar.inc(1);
    }
    bar.finish();
    eprintln!(
        "selfplay: shard {} holds {held} games, {} played now, {} already there; in {}",
        args.shard,
        todo.len(),
        held - todo.len() as u64,
        args.out.display()
    );
    Ok(())
}

fn train(args: &TrainArgs) -> Result<(), String> {
    if args.epochs == 0 || args.batch == 0 {
        return Err("--epochs and --batch must be at least 1".to_string());
    }
    let data = learn::dataset::load(&args.data)?;
    eprintln!(
        "train: {} games, {} training and {} validation positions",
        data.games,
        data.train.len(),
        data.validation.len()
    );
    let config = learn::train::TrainConfig {
        out: args.out.clone(),
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        seed: args.seed,
        result_weight: args.result_weight,
        progress: true,
    };
    let report = learn::train::train(&data, &config)?;
    print!("{}", report.summary());
    println!(
        "curves: {} and {}",
        args.out.join("loss.csv").display(),
        args.out.join("loss.png").display()
    );
    Ok(())
}

/// Writes `bytes` to `path` whole or not at all.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes)
        .and_then(|_| std::fs::rename(&temporary, path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

fn export(args: &ExportArgs) -> Result<(), String> {
    let model = learn::model::Model::load(&args.model)?;
    let text = model.export()?;
    let bytes = std::fs::read(&args.model)
        .map_err(|error| format!("cannot read {}: {error}", args.model.display()))?;
    if args.keep != args.model {
        if let Some(parent) = args.keep.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|error| format!("cannot create {}: {error}", parent.display()))?;
        }
        write_whole(&args.keep, &bytes)?;
    }
    write_whole(&args.weights, text.as_bytes())?;
    eprintln!(
        "export: {} ({} characters) from {}, model kept in {}",
        args.weights.display(),
        text.len(),
        args.model.display(),
        args.keep.display()
    );
    Ok(())
}
