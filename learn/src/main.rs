//! `learn`: the command line of the learned evaluation's pipeline (README, "Learned
//! evaluation"). `learn selfplay` writes self-play games and their directory's manifest; `learn
//! train` trains the value network on them; `learn export` writes a model into the bot; `learn
//! merge` makes the shard directories of one run into one data directory. Wrong input gives one
//! line on stderr and exit code 2.

use clap::{Parser, Subcommand};
use learn::data::command::{merge, MergeArgs};
use learn::generation::command::{generation, generations_table, GenerationArgs, TableArgs};
use learn::generation::learn_process::ALREADY_SAID;
use learn::policy::command::{
    embed_policy, export_policy, temper_policy, train_policy, EmbedPolicyArgs, ExportPolicyArgs,
    TemperPolicyArgs, TrainPolicyArgs,
};
use learn::selfplay::command::{selfplay, visit_noise, SelfplayArgs, VisitNoiseArgs};
use learn::value::command::{
    evaluate, export, plot_losses, train, EvaluateArgs, ExportArgs, PlotArgs, TrainArgs,
};
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
    /// Measure how well any policy could predict the root visits: self-play's games with each
    /// seat's search repeated by twins of other seeds, and the bounds on the cross-entropy floor
    /// that one search's visits leave (the entropy of the mean of several searches' visits).
    VisitNoise(VisitNoiseArgs),
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
    /// Temper a policy file to its parent's sharpness: its action logits divided by the
    /// temperature at which its priors' mean entropy on DATA's validation split is the parent's
    /// (`csb --policy-temperature` at play); writes OUT and prints the test split's figures.
    TemperPolicy(TemperPolicyArgs),
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
        Command::VisitNoise(args) => visit_noise(&args),
        Command::Train(args) => train(&args),
        Command::Export(args) => export(&args),
        Command::Generation(args) => generation(&args),
        Command::Evaluate(args) => evaluate(&args),
        Command::PlotLosses(args) => plot_losses(&args),
        Command::GenerationsTable(args) => generations_table(&args),
        Command::TrainPolicy(args) => train_policy(&args),
        Command::ExportPolicy(args) => export_policy(&args),
        Command::TemperPolicy(args) => temper_policy(&args),
        Command::EmbedPolicy(args) => embed_policy(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // A generation's step that failed has printed its line already.
            if error != ALREADY_SAID {
                eprintln!("learn: {error}");
            }
            ExitCode::from(2)
        }
    }
}
