//! The policy network's commands: `learn train-policy` (train on a data set's root visits and
//! values), `learn export-policy` (a trained model as the bot's policy file), `learn
//! temper-policy` (a policy file tempered to its parent's sharpness) and `learn embed-policy` (a
//! policy file into the bot's source): their arguments and what they print.

use crate::common::files::write_whole;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct TrainPolicyArgs {
    /// Directory of self-play game files.
    #[arg(long, default_value = "data/selfplay")]
    data: PathBuf,
    /// Older data directories trained on with DATA (a generation's window), each checked
    /// against its manifest; repeat the flag for each.
    #[arg(long)]
    window_data: Vec<PathBuf>,
    /// Directory the model goes to.
    #[arg(long, default_value = "target/train-policy")]
    out: PathBuf,
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f64,
    /// Seed of the initial weights and of the minibatches' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this policy file's weights (a warm start: a generation's policy trained
    /// further on new searches) instead of the seed's.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Give the policy inputs per action (where each action takes the pod in one turn,
    /// `csb::bot::policy_net::action_inputs`) and the layers that read them.
    #[arg(long)]
    action_inputs: bool,
    /// Give the action layers a context layer: the position's hidden layer adds to their
    /// hidden units per slot (`ActionLayers::context`); implies `--action-inputs`.
    #[arg(long)]
    action_context: bool,
    /// Give the action layers a second layer: their hidden units go through
    /// `csb::bot::policy_net::action_inputs::ACTION_MIDDLE` more (ReLU) before the heads
    /// (`ActionLayers::middle`); implies `--action-inputs`.
    #[arg(long)]
    action_middle: bool,
    /// Read only the positions whose search ran at least this many iterations (their own
    /// pods' root visits): a self-play run's deep turns (`learn selfplay --deep-iterations`);
    /// 0 reads every position.
    #[arg(long, default_value_t = 0)]
    min_visits: u32,
    /// Train on each training game's reflection too (the board top to bottom, left and right
    /// turns exchanged: `data::mirror`); validation and test keep the games as played.
    #[arg(long)]
    mirror: bool,
    /// Anneal the learning rate: from --learning-rate down to zero along a half cosine over
    /// the run's minibatches, instead of constant.
    #[arg(long)]
    anneal: bool,
}

#[derive(clap::Args)]
pub struct ExportPolicyArgs {
    /// The trained policy model.
    #[arg(long, default_value = "target/train-policy/policy.safetensors")]
    model: PathBuf,
    /// The bot's policy network file to write.
    #[arg(long, default_value = "target/train-policy/policy.txt")]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct TemperPolicyArgs {
    /// The policy file to temper.
    #[arg(long)]
    policy: PathBuf,
    /// The policy file whose sharpness it takes (its parent's).
    #[arg(long)]
    like: PathBuf,
    /// Directory of self-play game files whose validation split the temperature is fitted on
    /// (the test split is reported).
    #[arg(long)]
    data: PathBuf,
    /// Older data directories read with DATA (a generation's window).
    #[arg(long)]
    window_data: Vec<PathBuf>,
    /// The tempered policy file to write (quantised, as `export-policy` writes).
    #[arg(long)]
    out: PathBuf,
    /// Read only the positions whose search ran at least this many iterations (their own
    /// pods' root visits): a self-play run's deep turns (`learn selfplay --deep-iterations`);
    /// 0 reads every position.
    #[arg(long, default_value_t = 0)]
    min_visits: u32,
}

#[derive(clap::Args)]
pub struct EmbedPolicyArgs {
    /// The policy network file (`export-policy`) to embed.
    #[arg(long, default_value = "learn/model/policy.txt")]
    file: PathBuf,
    /// The bot's source file to write.
    #[arg(long, default_value = "src/bot/policy_net/weights.rs")]
    weights: PathBuf,
}

/// `learn train-policy`: the data read and checked, the training, its summary.
pub fn train_policy(args: &TrainPolicyArgs) -> Result<(), String> {
    if args.epochs == 0 || args.batch == 0 {
        return Err("--epochs and --batch must be at least 1".to_string());
    }
    let data = crate::policy::data::load_window(
        &args.data,
        &args.window_data,
        args.min_visits,
        args.mirror,
    )?;
    let config = crate::policy::train::PolicyTrainConfig {
        out: args.out.clone(),
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        seed: args.seed,
        init: args.init.clone(),
        action_inputs: args.action_inputs,
        action_context: args.action_context,
        action_middle: args.action_middle,
        anneal: args.anneal,
    };
    let report = crate::policy::train::train_policy(&data, &config)?;
    print!("{}", report.summary());
    for line in [data.positions_line(), data.mirror_line()]
        .into_iter()
        .flatten()
    {
        println!("{line}");
    }
    println!(
        "model: {} (data-sha256 {})",
        args.out
            .join(crate::policy::train::POLICY_MODEL_FILE)
            .display(),
        data.data_sha256()
    );
    Ok(())
}

/// `learn temper-policy`: the temperature at which the policy's priors are as sharp as its
/// parent's on the validation split, the file so tempered, and the test split's figures.
pub fn temper_policy(args: &TemperPolicyArgs) -> Result<(), String> {
    use crate::policy::temper::{fit_temperature, sharpness};
    // Everything is read and checked before anything is written.
    let policy = csb::bot::policy_net::file::load(&args.policy.to_string_lossy())?;
    let parent = csb::bot::policy_net::file::load(&args.like.to_string_lossy())?;
    let data =
        crate::policy::data::load_window(&args.data, &args.window_data, args.min_visits, false)?;
    let parent_entropy = sharpness(&parent, &data.validation, 1.0).entropy;
    let temperature = fit_temperature(&policy, &data.validation, parent_entropy);
    let tempered =
        csb::bot::policy_net::embedded::quantised(&policy.clone().tempered(temperature as f32));
    write_whole(
        &args.out,
        csb::bot::policy_net::file::write_text(&tempered).as_bytes(),
    )?;
    let validation = |network| sharpness(network, &data.validation, 1.0).entropy;
    println!(
        "temperature {temperature:.4}: validation entropy of the priors {:.4} tempered to {:.4}, \
         the parent's {parent_entropy:.4}",
        validation(&policy),
        validation(&tempered)
    );
    let [trained, tempered, parent] =
        [&policy, &tempered, &parent].map(|network| sharpness(network, &data.test, 1.0));
    println!(
        "test: policy cross-entropy {:.4}, tempered {:.4}, the parent's {:.4}; entropy {:.4}, \
         tempered {:.4}, the parent's {:.4}",
        trained.cross_entropy,
        tempered.cross_entropy,
        parent.cross_entropy,
        trained.entropy,
        tempered.entropy,
        parent.entropy
    );
    if let Some(line) = data.positions_line() {
        println!("{line}");
    }
    eprintln!(
        "temper-policy: {} from {}",
        args.out.display(),
        args.policy.display()
    );
    Ok(())
}

/// `learn embed-policy`: a policy file into the bot's source.
pub fn embed_policy(args: &EmbedPolicyArgs) -> Result<(), String> {
    let network = csb::bot::policy_net::file::load(&args.file.to_string_lossy())?;
    let text = csb::bot::policy_net::embedded::weights_source(&network);
    write_whole(&args.weights, text.as_bytes())?;
    let widths = csb::bot::policy_net::widths::effective(&network);
    eprintln!(
        "embed-policy: {} ({} weights; hidden {}, action hidden {}) from {}",
        args.weights.display(),
        csb::bot::policy_net::widths::Widths::sizes(&widths.network_dims())
            .iter()
            .sum::<usize>(),
        widths.hidden,
        widths.action_hidden,
        args.file.display()
    );
    Ok(())
}

/// `learn export-policy`: a trained model as the bot's policy file.
pub fn export_policy(args: &ExportPolicyArgs) -> Result<(), String> {
    // Everything is read and checked before anything is written.
    let model = crate::policy::model::PolicyModel::load(&args.model)?;
    let text = csb::bot::policy_net::file::write_text(&model.bot_network()?);
    write_whole(&args.out, text.as_bytes())?;
    eprintln!(
        "export-policy: {} ({} characters) from {}",
        args.out.display(),
        text.len(),
        args.model.display()
    );
    Ok(())
}
