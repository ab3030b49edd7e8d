//! The value network's commands: `learn train` (train, then write the network file beside the
//! model), `learn evaluate` (a network file's figures on a data set's test split), `learn
//! export` (a model's weights into the bot's source, the model kept with its manifest) and
//! `learn plot-losses` (a training's curves drawn): their arguments and what they print.

use crate::common::files::write_whole;
use crate::value::model_manifest::manifest_path;
use crate::value::target::Target;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PlotArgs {
    /// The curves (`learn train`'s loss.csv).
    #[arg(long)]
    csv: PathBuf,
    /// The SVG file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct TrainArgs {
    /// Directory of self-play game files.
    #[arg(long, default_value = "data/selfplay")]
    data: PathBuf,
    /// Older data directories trained on with DATA (a generation's window), each checked
    /// against its manifest; repeat the flag for each.
    #[arg(long)]
    window_data: Vec<PathBuf>,
    /// Directory of the checkpoint, loss.csv and loss.svg.
    #[arg(long, default_value = "target/train")]
    out: PathBuf,
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f64,
    /// Seed of the initial weights and of the minibatches' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weight of the learned target (`--target`, the game's result by default) in the target;
    /// the rest, the hand evaluation's share, is its view of the position 20 turns later
    /// (squashed by the logistic fitted on the results).
    #[arg(long, default_value_t = 0.3)]
    result_weight: f32,
    /// What the result weight's share learns: `result` (the game's), `root` (the searches' own
    /// root values, recorded in the data's stats) or `td:LAMBDA` (TD(λ) over the values of
    /// --td-network).
    #[arg(long, default_value = "result", value_parser = Target::parse)]
    target: Target,
    /// The network file (`csb --net-file`) whose values `--target td:LAMBDA` bootstraps from.
    #[arg(long)]
    td_network: Option<PathBuf>,
    /// Start from this network file's weights (a warm start: a generation's network trained
    /// further on new games) instead of the seed's.
    #[arg(long)]
    init: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct EvaluateArgs {
    /// The network file to measure.
    #[arg(long)]
    network: PathBuf,
    /// The data directory (checked against its manifest) whose test split measures it.
    #[arg(long)]
    data: PathBuf,
    /// Older data directories read with DATA (a generation's window), each checked against its
    /// manifest.
    #[arg(long)]
    window_data: Vec<PathBuf>,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The trained model.
    #[arg(long, default_value = "target/train/model.safetensors")]
    model: PathBuf,
    /// The bot's weights file to write.
    #[arg(long, default_value = "src/bot/value_net/weights.rs")]
    weights: PathBuf,
    /// Where the model's copy goes (the test compares it with the weights file); its manifest
    /// goes beside it.
    #[arg(long, default_value = "learn/model/value.safetensors")]
    keep: PathBuf,
}

/// `learn train`: the data read and checked, the training, its summary, the network file.
pub fn train(args: &TrainArgs) -> Result<(), String> {
    if args.epochs == 0 || args.batch == 0 {
        return Err("--epochs and --batch must be at least 1".to_string());
    }
    let data = crate::value::dataset::load_window(&args.data, &args.window_data)?;
    let config = crate::value::config::TrainConfig {
        data: args.data.clone(),
        window_data: args.window_data.clone(),
        out: args.out.clone(),
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        seed: args.seed,
        result_weight: args.result_weight,
        target: args.target,
        td_network: args.td_network.clone(),
        init: args.init.clone(),
        progress: true,
    };
    let report = crate::value::train::train(&data, &config)?;
    print!("{}", report.summary());
    let model = args.out.join(crate::value::train::MODEL_FILE);
    let network = args.out.join(crate::value::net_file::NET_FILE);
    crate::value::net_file::write_model(&model, &network)?;
    println!(
        "curves: {} and {}; model, manifest and network file: {}, {} and {}",
        args.out.join("loss.csv").display(),
        args.out.join("loss.svg").display(),
        model.display(),
        manifest_path(&model).display(),
        network.display()
    );
    Ok(())
}

/// `learn export`: the model's weights into the bot's source; a model newly kept carries its
/// manifest.
pub fn export(args: &ExportArgs) -> Result<(), String> {
    let model = crate::value::model::Model::load(&args.model)?;
    let text = model.export()?;
    let bytes = std::fs::read(&args.model)
        .map_err(|error| format!("cannot read {}: {error}", args.model.display()))?;
    if args.keep != args.model {
        // A model newly kept in the tree carries its manifest: read it before writing anything.
        let manifest = crate::value::model_manifest::read(&args.model)?.ok_or_else(|| {
            format!(
                "{} has no manifest ({}): train the model with `learn train`, which writes one",
                args.model.display(),
                manifest_path(&args.model).display()
            )
        })?;
        if let Some(parent) = args.keep.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|error| format!("cannot create {}: {error}", parent.display()))?;
        }
        manifest.write(&manifest_path(&args.keep))?;
        write_whole(&args.keep, &bytes)?;
    }
    write_whole(&args.weights, text.as_bytes())?;
    eprintln!(
        "export: {} ({} characters) from {}, model kept in {}",
        args.weights.display(),
        text.chars().count(),
        args.model.display(),
        args.keep.display()
    );
    Ok(())
}

/// `learn evaluate`: a network file's test figures beside the hand evaluation's.
pub fn evaluate(args: &EvaluateArgs) -> Result<(), String> {
    let data = crate::value::dataset::load_window(&args.data, &args.window_data)?;
    let (network, hand) = crate::value::train::evaluate_file(&data, &args.network)?;
    println!(
        "test split of {} ({} positions): network {} log-loss {:.4} accuracy {:.2}%; hand \
         log-loss {:.4} accuracy {:.2}%; network minus hand {:+.4} nats",
        args.data.display(),
        data.test.len(),
        args.network.display(),
        network.log_loss,
        100.0 * network.accuracy,
        hand.log_loss,
        100.0 * hand.accuracy,
        network.log_loss - hand.log_loss
    );
    Ok(())
}

/// `learn plot-losses`: the curves of a `loss.csv` drawn into an SVG file.
pub fn plot_losses(args: &PlotArgs) -> Result<(), String> {
    crate::value::loss_csv::curves(&args.csv).and_then(|(train, validation)| {
        crate::common::plot::plot_losses(&args.out, &train, &validation)
    })
}
