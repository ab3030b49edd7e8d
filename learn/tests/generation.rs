//! `learn generation` at a tiny scale (8 self-play games at 12 iterations, 2 epochs of the value
//! network and 2 of the policy, a gate of game pairs at 12 iterations; seed 66 puts each of
//! generation 2's and 3's four maps in all three splits): a generation interrupted inside each
//! step (self-play with a game lost, training with its network or policy file not yet written,
//! the gate after three games, the promotion before it was recorded) and run again, two games at
//! a time, ends with the files of a generation that never stopped and played one game at a time,
//! byte for byte, and no finished game, kept file or ladder player twice; the next generation
//! trains on the window of both generations' data; a warm start begins each training from the
//! parent's networks (the TD rounds each from the round before); deep turns are self-played and
//! train the policy alone; outside self-play joins the window (`--window-data`). Wrong inputs
//! give one line and exit code 2 and leave the files as they were: other settings for an
//! unfinished generation, a game file that is not its manifest's, a model whose manifest names
//! other data, outside data missing, changed or not self-play.

use csb::bot::value_net::network::HIDDEN2;
use learn::data::manifest::DataManifest;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{assert_success, learn, text};

/// The settings of every run here (SPRT bounds far below 0 so that a tiny gate promotes).
const SETTINGS: [&str; 20] = [
    "--games",
    "8",
    "--iterations",
    "12",
    "--nodes",
    "5000",
    "--epochs",
    "2",
    "--batch",
    "32",
    "--gate-games",
    "200",
    "--gate-iterations",
    "12",
    "--seed",
    "66",
    "--sprt",
    "-400",
    "-300",
    "--window",
];

/// `learn generation` in `dir` (its root, kept folder, roster and table inside), with
/// `extra` flags.
fn generation(dir: &Path, extra: &[&str]) -> Output {
    generation_on(dir, 1, extra)
}

/// [`generation`] playing `jobs` games at once. The policy is the parent's
/// (`--policy-epochs 0`): a policy trained on these few games at 12 iterations a turn loses
/// every gate game, and the generation's files are checked here through its promotion.
fn generation_on(dir: &Path, jobs: usize, extra: &[&str]) -> Output {
    generation_with(dir, jobs, 0, extra)
}

/// [`generation`] playing `jobs` games at once and training the policy for `policy_epochs`;
/// a one-value flag of [`SETTINGS`] in `extra` takes the place of its value there.
fn generation_with(dir: &Path, jobs: usize, policy_epochs: usize, extra: &[&str]) -> Output {
    let (root, keep, players, table) = places(dir);
    let mut args = vec![
        "generation".to_string(),
        "--root".to_string(),
        text(&root),
        "--keep".to_string(),
        text(&keep),
        "--players".to_string(),
        text(&players),
        "--table".to_string(),
        text(&table),
    ];
    args.extend(SETTINGS.iter().map(|s| s.to_string()));
    args.push("2".to_string());
    args.extend(["--jobs".to_string(), jobs.to_string()]);
    args.extend(["--policy-epochs".to_string(), policy_epochs.to_string()]);
    // A flag of SETTINGS given again in `extra` replaces its values there (`--sprt` two).
    let mut extra = extra.iter().map(|s| s.to_string());
    while let Some(flag) = extra.next() {
        match args.iter().position(|arg| *arg == flag) {
            Some(at) if flag.starts_with("--") && SETTINGS.contains(&flag.as_str()) => {
                let values = args[at + 1..]
                    .iter()
                    .take_while(|arg| !arg.starts_with("--"))
                    .count();
                for value in &mut args[at + 1..at + 1 + values] {
                    *value = extra.next().expect("the values after a setting's flag");
                }
            }
            _ => args.push(flag),
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    learn(&args)
}

fn places(dir: &Path) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    (
        dir.join("root"),
        dir.join("keep"),
        dir.join("players.toml"),
        dir.join("docs/generations.md"),
    )
}

/// A scratch folder with a roster of one player.
fn fresh(name: &str) -> PathBuf {
    let dir = common::scratch_in_temp("generation", name);
    std::fs::write(
        dir.join("players.toml"),
        "[[players]]\nname = \"reflex\"\ncommit = \"3e2eeb0\"\nbot = \"reflex\"\n",
    )
    .unwrap();
    dir
}

/// One line on stderr, exit code 2, mentioning `mentions`.
fn assert_one_line_error(output: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| !line.starts_with("generation "))
        .collect();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("learn: ") && lines[0].contains(mentions),
        "{stderr}"
    );
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Removes the state's line of step `step` (as if the run stopped before recording it).
fn forget_step(state: &Path, step: &str) {
    let text = String::from_utf8(read(state)).unwrap();
    let kept: String = text
        .lines()
        .filter(|line| !line.starts_with(&format!("step: {step}")))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_ne!(kept, text, "no step {step} in {}", state.display());
    std::fs::write(state, kept).unwrap();
}

/// The files of generation 2 that must come out the same however the run went.
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let (root, keep, players, table) = places(dir);
    let generation = root.join("gen-002");
    let mut files = vec![
        generation.join("state.txt"),
        generation.join("data/manifest.txt"),
        generation.join("train/model.safetensors"),
        generation.join("train/model.manifest"),
        generation.join("network.txt"),
        generation.join("policy.txt"),
        generation.join("gate.txt"),
        root.join("best.txt"),
        players,
        table,
    ];
    for name in [
        "state.txt",
        "model.safetensors",
        "model.manifest",
        "network.txt",
        "loss.csv",
        "policy.txt",
    ] {
        files.push(keep.join("gen-002").join(name));
    }
    files
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let bytes = read(&path);
            // The model's manifest names its folder, which differs between the two runs.
            let bytes = String::from_utf8_lossy(&bytes)
                .replace(&text(dir), "DIR")
                .into_bytes();
            (name, bytes)
        })
        .collect()
}

#[test]
fn an_interrupted_generation_resumes_to_the_files_of_one_that_never_stopped() {
    let straight = fresh("straight");
    assert_success(&generation(&straight, &[]));
    // The interrupted run plays two games at once: its files are the same.

    let dir = fresh("interrupted");
    let (root, keep, players, _) = places(&dir);
    let generation_dir = root.join("gen-002");
    let state = generation_dir.join("state.txt");

    // Self-play, interrupted after game 5 was written but before the run listed it.
    assert_success(&generation_on(&dir, 2, &["--stop-after", "selfplay"]));
    forget_step(&state, "selfplay");
    let data = generation_dir.join("data");
    let mut manifest = DataManifest::read(&data).unwrap().unwrap();
    manifest.files.remove("game-000005.csbsp");
    manifest.write(&data).unwrap();
    std::fs::remove_file(data.join("game-000005.csbsp")).unwrap();
    let game_0 = read(&data.join("game-000000.csbsp"));
    // Other settings for the unfinished generation: refused, nothing written.
    let output = generation_on(&dir, 2, &["--target", "root"]);
    assert_one_line_error(
        &output,
        "begun with other settings (target td:0.7, this command root)",
    );
    assert!(!data.join("game-000005.csbsp").exists());
    assert_success(&generation_on(&dir, 2, &["--stop-after", "selfplay"]));
    assert_eq!(read(&data.join("game-000000.csbsp")), game_0);

    // Training, interrupted after the last epoch, before the network file.
    assert_success(&generation_on(&dir, 2, &["--stop-after", "train"]));
    forget_step(&state, "policy");
    forget_step(&state, "train");
    std::fs::remove_file(generation_dir.join("network.txt")).unwrap();
    std::fs::remove_file(generation_dir.join("policy.txt")).unwrap();
    assert_success(&generation_on(&dir, 2, &["--stop-after", "train"]));

    // The gate, interrupted after three games.
    assert_success(&generation_on(&dir, 2, &["--stop-after", "gate"]));
    forget_step(&state, "gate");
    let gate = generation_dir.join("gate.txt");
    let games = String::from_utf8(read(&gate)).unwrap();
    assert!(games.lines().count() > 3, "{games}");
    let first_three: String = games.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&gate, first_three).unwrap();
    assert_success(&generation_on(&dir, 2, &["--stop-after", "gate"]));
    assert_eq!(String::from_utf8(read(&gate)).unwrap(), games);

    // The promotion, interrupted after the kept files and the ladder player were written.
    assert_success(&generation_on(&dir, 2, &[]));
    forget_step(&state, "promoted");
    assert_success(&generation_on(&dir, 2, &[]));
    let roster = String::from_utf8(read(&players)).unwrap();
    assert_eq!(
        roster.matches("name = \"csb-gen-002\"").count(),
        1,
        "{roster}"
    );
    assert!(roster.contains(&format!(
        "--net-file {} --policy-net {}",
        text(&keep.join("gen-002/network.txt")),
        text(&keep.join("gen-002/policy.txt"))
    )));
    // Generation 2 kept generation 1's policy, the bot's embedded one (what `csb` plays with
    // no flags).
    let first_policy = read(&root.join("gen-001/policy.txt"));
    assert_eq!(first_policy, read(&keep.join("gen-001/policy.txt")));
    assert_eq!(read(&generation_dir.join("policy.txt")), first_policy);
    let embedded =
        csb::bot::policy_net::file::write_text(&csb::bot::policy_net::embedded::embedded());
    assert_eq!(first_policy, embedded.into_bytes());

    for ((name, mine), (_, theirs)) in outputs(&dir).iter().zip(outputs(&straight)) {
        assert!(
            *mine == theirs,
            "{name} differs from the uninterrupted run's"
        );
    }
    let state_text = String::from_utf8(read(&state)).unwrap();
    for step in [
        "selfplay 8 games",
        "train model-sha256",
        "policy kept-from 1 policy-sha256",
        "gate accepted",
        "promoted yes",
    ] {
        assert!(
            state_text.contains(&format!("step: {step}")),
            "{state_text}"
        );
    }

    // The next generation is made by generation 2 and trains on both generations' data.
    assert_success(&generation_on(&dir, 2, &[]));
    let next = String::from_utf8(read(&root.join("gen-003/train/model.manifest"))).unwrap();
    assert!(next.contains("games: 16\n"), "{next}");
    assert!(next.contains("window-data: "), "{next}");
    let next_state = String::from_utf8(read(&root.join("gen-003/state.txt"))).unwrap();
    assert!(next_state.contains("parent: 2\n"), "{next_state}");
    let table = String::from_utf8(read(&dir.join("docs/generations.md"))).unwrap();
    assert!(table.contains("| 2 | 1 | 8 |"), "{table}");
    assert!(
        table
            .lines()
            .any(|line| line.starts_with("| 2 | 1 | 8 |") && line.contains("| gen 1's |")),
        "{table}"
    );
    assert!(dir.join("docs/generations-elo.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&straight);
}

#[test]
fn a_generation_trains_its_policy_on_its_games_and_an_interrupted_training_ends_the_same() {
    let files = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let generation = places(dir).0.join("gen-002");
        [
            "policy.txt",
            "train-policy/policy.safetensors",
            "train-policy/report.txt",
        ]
        .iter()
        .map(|name| {
            let bytes = String::from_utf8_lossy(&read(&generation.join(name)))
                .replace(&text(dir), "DIR")
                .into_bytes();
            (name.to_string(), bytes)
        })
        .collect()
    };
    let straight = fresh("policy-straight");
    assert_success(&generation_with(
        &straight,
        1,
        2,
        &["--stop-after", "train"],
    ));

    let dir = fresh("policy-interrupted");
    let (root, _, _, _) = places(&dir);
    let generation_dir = root.join("gen-002");
    let state = generation_dir.join("state.txt");
    assert_success(&generation_with(&dir, 2, 2, &["--stop-after", "train"]));
    // Interrupted before the policy file was written: trained again from its seed, whole.
    forget_step(&state, "policy");
    std::fs::remove_file(generation_dir.join("policy.txt")).unwrap();
    std::fs::remove_file(generation_dir.join("train-policy/report.txt")).unwrap();
    assert_success(&generation_with(&dir, 2, 2, &["--stop-after", "train"]));
    assert!(files(&dir) == files(&straight), "the policy differs");

    let state_text = String::from_utf8(read(&state)).unwrap();
    assert!(
        state_text.contains("step: policy trained policy-sha256 "),
        "{state_text}"
    );
    // A policy of its own, from its games, and the test figures of its training.
    assert_ne!(
        read(&generation_dir.join("policy.txt")),
        read(&root.join("gen-001/policy.txt"))
    );
    let report = String::from_utf8(read(&generation_dir.join("train-policy/report.txt"))).unwrap();
    assert!(
        report.contains("test: policy cross-entropy ") && report.contains("(uniform 2.3026,"),
        "{report}"
    );
    // Other policy settings for the unfinished generation: refused, nothing written.
    let output = generation_with(&dir, 2, 3, &[]);
    assert_one_line_error(
        &output,
        "begun with other settings (policy-epochs 2, this command 3)",
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&straight);
}

#[test]
fn data_or_models_that_are_not_their_manifests_stop_the_generation_in_one_line() {
    let dir = fresh("wrong");
    let (root, _, _, _) = places(&dir);
    let generation_dir = root.join("gen-002");
    assert_success(&generation(&dir, &["--stop-after", "selfplay"]));

    // A game file changed after self-play listed it.
    let game = generation_dir.join("data/game-000002.csbsp");
    let original = read(&game);
    let mut changed = original.clone();
    changed.extend_from_slice(b"\n");
    std::fs::write(&game, &changed).unwrap();
    assert_one_line_error(&generation(&dir, &[]), "does not match manifest.txt");
    assert_eq!(read(&game), changed);
    assert!(!generation_dir.join("train/model.safetensors").exists());
    std::fs::write(&game, &original).unwrap();

    // A model whose manifest names other data.
    assert_success(&generation(&dir, &["--stop-after", "train"]));
    let state = generation_dir.join("state.txt");
    forget_step(&state, "train");
    let model_manifest = generation_dir.join("train/model.manifest");
    let text = String::from_utf8(read(&model_manifest)).unwrap();
    let start = text.find("data-sha256: ").unwrap() + "data-sha256: ".len();
    let other = format!(
        "{}{}{}",
        &text[..start],
        "0".repeat(64),
        &text[start + 64..]
    );
    std::fs::write(&model_manifest, &other).unwrap();
    let model = read(&generation_dir.join("train/model.safetensors"));
    assert_one_line_error(&generation(&dir, &[]), "names other data");
    assert_eq!(read(&generation_dir.join("train/model.safetensors")), model);
    assert_eq!(String::from_utf8(read(&model_manifest)).unwrap(), other);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn td_rounds_bootstrap_each_training_from_the_network_of_the_round_before() {
    let dir = fresh("td-rounds");
    let (root, ..) = places(&dir);
    // Several rounds need a TD target: one line, nothing begun.
    let output = generation(&dir, &["--td-rounds", "2", "--target", "result"]);
    assert_one_line_error(&output, "--td-rounds 2 needs a TD target");
    assert!(!root.join("gen-002").exists());

    let rounds = [
        "--td-rounds",
        "2",
        "--target",
        "td:0.7",
        "--stop-after",
        "train",
    ];
    assert_success(&generation(&dir, &rounds));
    let generation_dir = root.join("gen-002");
    let first_round = generation_dir.join("td-round-1/network.txt");
    let manifest = |folder: &str| {
        String::from_utf8(read(&generation_dir.join(folder).join("model.manifest"))).unwrap()
    };
    let sha = |path: &Path| learn::common::manifest::sha256_hex(&read(path));
    // Round 1 bootstraps from the parent (generation 1), round 2 from round 1's network.
    let parent = root.join("gen-001/network.txt");
    assert!(manifest("td-round-1").contains(&format!("td-network-sha256: {}", sha(&parent))));
    assert!(manifest("train").contains(&format!("td-network-sha256: {}", sha(&first_round))));
    assert_ne!(sha(&first_round), sha(&generation_dir.join("network.txt")));
    // The generation's network is the last round's.
    assert_eq!(
        read(&generation_dir.join("network.txt")),
        read(&generation_dir.join("train/network.txt"))
    );
    let state = String::from_utf8(read(&generation_dir.join("state.txt"))).unwrap();
    assert!(state.contains("td-rounds: 2"), "{state}");
}

#[test]
fn a_warm_start_trains_from_the_parents_networks() {
    let dir = fresh("warm-start");
    let (root, ..) = places(&dir);
    // The policy at learning rate 0: what it was given to start from, unchanged.
    let flags = [
        "--td-rounds",
        "2",
        "--target",
        "td:0.7",
        "--policy-learning-rate",
        "0",
        "--stop-after",
        "train",
    ];
    let warm: Vec<&str> = flags.iter().copied().chain(["--warm-start"]).collect();
    assert_success(&generation_with(&dir, 1, 1, &warm));
    let generation_dir = root.join("gen-002");
    let manifest = |folder: &str| {
        String::from_utf8(read(&generation_dir.join(folder).join("model.manifest"))).unwrap()
    };
    let sha = |path: &Path| learn::common::manifest::sha256_hex(&read(path));
    // Round 1 starts from the parent's network, round 2 from round 1's.
    let parent = root.join("gen-001");
    let first_round = generation_dir.join("td-round-1/network.txt");
    let init_of = |path: &Path| format!("init-sha256: {}", sha(path));
    assert!(manifest("td-round-1").contains(&init_of(&parent.join("network.txt"))));
    assert!(manifest("train").contains(&init_of(&first_round)));
    // The policy starts from the parent's policy file.
    let policy = learn::policy::model::PolicyModel::load(
        &generation_dir.join("train-policy/policy.safetensors"),
    )
    .unwrap()
    .bot_network()
    .unwrap();
    let parent_policy =
        csb::bot::policy_net::file::load(&text(&parent.join("policy.txt"))).unwrap();
    // The parent's units, and every output weight, are the parent's (a narrower parent's
    // missing units get inputs of their own and no outputs: `PolicyModel::from_policy_file`).
    let widths = csb::bot::policy_net::widths::effective(&parent_policy);
    assert_eq!(policy.heads, parent_policy.heads);
    for (row, parent_row) in policy
        .input
        .weights
        .iter()
        .zip(&parent_policy.input.weights)
    {
        assert_eq!(row[..widths.hidden], parent_row[..widths.hidden]);
    }
    assert_eq!(policy.actions.is_some(), parent_policy.actions.is_some());
    if let (Some(layers), Some(parent_layers)) = (&policy.actions, &parent_policy.actions) {
        assert_eq!(layers.heads, parent_layers.heads);
        for (row, parent_row) in layers
            .input
            .weights
            .iter()
            .zip(&parent_layers.input.weights)
        {
            assert_eq!(
                row[..widths.action_hidden],
                parent_row[..widths.action_hidden]
            );
        }
    }
    let state = String::from_utf8(read(&generation_dir.join("state.txt"))).unwrap();
    assert!(state.contains("warm-start: yes"), "{state}");

    // The generation goes on only with the settings it began with.
    let state_before = read(&generation_dir.join("state.txt"));
    let output = generation_with(&dir, 1, 1, &flags);
    assert_one_line_error(
        &output,
        "begun with other settings (warm-start yes, this command no)",
    );
    assert_eq!(read(&generation_dir.join("state.txt")), state_before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tempered_policy_is_as_spread_as_its_parents_on_the_validation_split() {
    let dir = fresh("temper");
    let (root, ..) = places(&dir);
    let flags = ["--stop-after", "train", "--temper-policy"];
    assert_success(&generation_with(&dir, 1, 2, &flags));
    let generation_dir = root.join("gen-002");
    let state = String::from_utf8(read(&generation_dir.join("state.txt"))).unwrap();
    assert!(state.contains("temper-policy: yes"), "{state}");
    assert!(
        state.contains("step: policy trained tempered policy-sha256 "),
        "{state}"
    );
    // The generation plays the tempered file; the trained one is kept beside its report.
    let trained = generation_dir.join("train-policy/policy-trained.txt");
    assert_ne!(read(&generation_dir.join("policy.txt")), read(&trained));
    let report = String::from_utf8(read(&generation_dir.join("train-policy/temper.txt"))).unwrap();
    // "temperature T: validation entropy of the priors A tempered to B, the parent's C"
    let numbers: Vec<f64> = report
        .lines()
        .next()
        .unwrap()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|word| word.trim_end_matches('.').parse().ok())
        .collect();
    let [temperature, trained_entropy, tempered_entropy, parent_entropy] = numbers[..] else {
        panic!("{report}");
    };
    let (lowest, highest) = learn::policy::temper::TEMPERATURE_RANGE;
    assert!(temperature > lowest && temperature < highest, "{report}");
    assert!(
        (tempered_entropy - parent_entropy).abs() < 0.01,
        "quantised, the tempered policy's spread is still the parent's: {report}"
    );
    assert!((trained_entropy - parent_entropy).abs() > (tempered_entropy - parent_entropy).abs());
    assert!(report.contains("test: policy cross-entropy "), "{report}");

    // The generation goes on only with the settings it began with.
    let output = generation_with(&dir, 1, 2, &flags[..2]);
    assert_one_line_error(
        &output,
        "begun with other settings (temper-policy yes, this command no)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Deep turns (playout-cap randomisation): self-play searches a share of its turns deeper, the
/// data's manifest and the state record them, and the policy trains (and is tempered) on those
/// turns' positions alone.
#[test]
fn deep_turns_are_self_played_and_train_the_policy_on_their_positions() {
    let dir = fresh("deep-turns");
    let (root, ..) = places(&dir);
    let flags = [
        "--stop-after",
        "train",
        "--temper-policy",
        "--deep-iterations",
        "36",
        "--deep-share",
        "0.5",
    ];
    assert_success(&generation_with(&dir, 1, 2, &flags));
    let generation_dir = root.join("gen-002");
    let state = String::from_utf8(read(&generation_dir.join("state.txt"))).unwrap();
    assert!(state.contains("deep-turns: 36 500"), "{state}");
    let manifest = DataManifest::read(&generation_dir.join("data"))
        .unwrap()
        .unwrap();
    assert_eq!(
        manifest
            .run
            .deep
            .map(|deep| (deep.iterations, deep.per_mille)),
        Some((36, 500))
    );
    for report in ["train-policy/report.txt", "train-policy/temper.txt"] {
        let text = String::from_utf8(read(&generation_dir.join(report))).unwrap();
        assert!(
            text.contains("those searched at least 13 iterations only"),
            "{report}: {text}"
        );
    }
    let output = generation_with(&dir, 1, 2, &flags[..3]);
    assert_one_line_error(
        &output,
        "begun with other settings (deep-turns 36 500, this command none)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_policy_with_inputs_per_action_is_trained_and_played_from_its_file() {
    let dir = fresh("action-inputs");
    let (root, ..) = places(&dir);
    let flags = ["--stop-after", "train", "--action-inputs"];
    assert_success(&generation_with(&dir, 1, 2, &flags));
    let generation_dir = root.join("gen-002");
    let state = String::from_utf8(read(&generation_dir.join("state.txt"))).unwrap();
    assert!(state.contains("action-inputs: yes"), "{state}");
    // The generation's policy file holds the action layers, and the bot reads them.
    let policy = generation_dir.join("policy.txt");
    let network = csb::bot::policy_net::file::load(&policy.to_string_lossy()).unwrap();
    let layers = network
        .actions
        .as_ref()
        .expect("the policy has action layers");
    assert!(
        layers.heads.weights.iter().flatten().any(|&w| w != 0.0),
        "trained, the action layers' outputs are no longer zero"
    );
    // They are the generation's own, not its parent's (the embedded policy's).
    let parent = root.join("gen-001/policy.txt");
    let parent = csb::bot::policy_net::file::load(&parent.to_string_lossy()).unwrap();
    assert_ne!(parent.actions, network.actions);

    let output = generation_with(&dir, 1, 2, &flags[..2]);
    assert_one_line_error(
        &output,
        "begun with other settings (action-inputs yes, this command no)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gate_on_the_clock_records_its_budget_and_resumes_only_with_it() {
    let dir = fresh("gate-clock");
    let (root, ..) = places(&dir);
    // 2 ms a turn (20 the first), two pairs.
    let output = generation(&dir, &["--gate-budget-ms", "2", "--gate-games", "4"]);
    assert_success(&output);
    let generation_dir = root.join("gen-002");
    let state = String::from_utf8(read(&generation_dir.join("state.txt"))).unwrap();
    assert!(state.contains("gate-budget-ms: 2\n"), "{state}");
    assert!(state.contains("step: gate "), "{state}");
    // Each game's line gives the candidate's median iterations a turn: the clock's, not the
    // 12 of --gate-iterations.
    let games = String::from_utf8(read(&generation_dir.join("gate.txt"))).unwrap();
    assert_eq!(games.lines().count(), 4, "{games}");
    for (index, line) in games.lines().enumerate() {
        let iterations: u64 = line
            .strip_prefix(&format!("game {index} score "))
            .and_then(|rest| rest.split_once(" iterations "))
            .and_then(|(_, iterations)| iterations.parse().ok())
            .unwrap_or_else(|| panic!("{games}"));
        assert!(iterations > 12, "{games}");
    }

    // A generation begun on the clock is finished only on it, at its budget.
    forget_step(&generation_dir.join("state.txt"), "promoted");
    let output = generation(&dir, &["--gate-budget-ms", "3", "--gate-games", "4"]);
    assert_one_line_error(
        &output,
        "begun with other settings (gate-budget-ms 2, this command 3)",
    );
    let output = generation(&dir, &["--gate-games", "4"]);
    assert_one_line_error(
        &output,
        "begun with other settings (gate-budget-ms 2, this command none)",
    );
    let output = generation(&dir, &["--gate-budget-ms", "0", "--gate-games", "4"]);
    assert_one_line_error(&output, "--gate-budget-ms must be a positive number");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_undecided_gate_promotes_only_a_generation_that_promotes_the_inconclusive() {
    // Bounds 2 Elo apart: one pair decides nothing.
    for (name, promote_inconclusive) in [("undecided-kept", false), ("undecided-promoted", true)] {
        let dir = fresh(name);
        let (root, keep, players, _) = places(&dir);
        let mut extra = vec!["--sprt", "-1", "1", "--gate-games", "2"];
        if promote_inconclusive {
            extra.push("--promote-inconclusive");
        }
        assert_success(&generation(&dir, &extra));
        let state_path = root.join("gen-002/state.txt");
        let state = String::from_utf8(read(&state_path)).unwrap();
        let (switch, promoted) = if promote_inconclusive {
            ("yes", "yes")
        } else {
            ("no", "no")
        };
        assert!(
            state.contains(&format!("promote-inconclusive: {switch}\n")),
            "{state}"
        );
        assert!(state.contains("step: gate inconclusive "), "{state}");
        assert!(
            state.contains(&format!("step: promoted {promoted}\n")),
            "{state}"
        );
        assert_eq!(keep.join("gen-002").exists(), promote_inconclusive);
        let roster = String::from_utf8(read(&players)).unwrap();
        assert_eq!(roster.contains("csb-gen-002"), promote_inconclusive);

        // The rule is one of the generation's settings: another is refused, nothing written.
        forget_step(&state_path, "promoted");
        let mut other = vec!["--sprt", "-1", "1", "--gate-games", "2"];
        if !promote_inconclusive {
            other.push("--promote-inconclusive");
        }
        let (was, now) = if promote_inconclusive {
            ("yes", "no")
        } else {
            ("no", "yes")
        };
        assert_one_line_error(
            &generation(&dir, &other),
            &format!("begun with other settings (promote-inconclusive {was}, this command {now})"),
        );
        assert_eq!(keep.join("gen-002").exists(), promote_inconclusive);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A root's generation 1 is a copy of the kept one (the networks the loop began from), not the
/// networks the bot embeds today: with the repository's `learn/generations/gen-001` kept, a new
/// root plays generation 2's games with those files.
#[test]
fn a_new_roots_first_generation_is_the_kept_one_not_the_embedded_networks() {
    let dir = fresh("first-from-keep");
    let (root, keep, _, _) = places(&dir);
    let repository_first = Path::new(env!("CARGO_MANIFEST_DIR")).join("generations/gen-001");
    std::fs::create_dir_all(keep.join("gen-001")).unwrap();
    let names = ["network.txt", "policy.txt", "state.txt"];
    for name in names {
        std::fs::copy(repository_first.join(name), keep.join("gen-001").join(name)).unwrap();
    }
    // The kept policy is not today's embedded one, or a copy could not be told from a new one.
    let embedded =
        csb::bot::policy_net::file::write_text(&csb::bot::policy_net::embedded::embedded());
    assert_ne!(
        read(&repository_first.join("policy.txt")),
        embedded.into_bytes()
    );

    assert_success(&generation(&dir, &["--stop-after", "selfplay"]));
    for name in names {
        assert_eq!(
            read(&root.join("gen-001").join(name)),
            read(&repository_first.join(name)),
            "{name}"
        );
    }
}

/// On a machine where the loop has not run, a new root is given the kept generations: the next
/// generation is made by the last kept one (the best), not by generation 1, and trains without
/// the restored generation's games, which the repository does not keep. A root with a line of
/// its own (its own `best.txt`) is left as it is.
#[test]
fn a_new_root_is_given_the_kept_generations_and_trains_without_their_games() {
    let source = fresh("restore-source");
    assert_success(&generation(&source, &[]));
    let (source_root, source_keep, _, _) = places(&source);
    let best_before = read(&source_root.join("best.txt"));
    assert!(source_keep.join("gen-002/state.txt").exists());

    // Another machine: the same kept folder, no root.
    let dir = fresh("restore-new-root");
    let (root, keep, _, _) = places(&dir);
    for generation in ["gen-001", "gen-002"] {
        std::fs::create_dir_all(keep.join(generation)).unwrap();
        for entry in std::fs::read_dir(source_keep.join(generation)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, keep.join(generation).join(path.file_name().unwrap())).unwrap();
        }
    }
    let output = generation(&dir, &["--stop-after", "train"]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("kept generations 2 copied from")
            && stderr.contains("the window trains without them"),
        "{stderr}"
    );
    for name in ["network.txt", "policy.txt", "state.txt"] {
        assert_eq!(
            read(&root.join("gen-002").join(name)),
            read(&keep.join("gen-002").join(name)),
            "{name}"
        );
    }
    assert_eq!(read(&root.join("best.txt")), best_before);
    let state = String::from_utf8(read(&root.join("gen-003/state.txt"))).unwrap();
    assert!(state.contains("parent: 2\n"), "{state}");
    let model = String::from_utf8(read(&root.join("gen-003/train/model.manifest"))).unwrap();
    assert!(
        model.contains("games: 8\n") && !model.contains("window-data: "),
        "{model}"
    );

    // The source root has its own line: a run there restores nothing and goes on with it.
    let output = generation(&source, &["--stop-after", "selfplay"]);
    assert_success(&output);
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("copied from"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(read(&source_root.join("best.txt")), best_before);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&source);
}

/// `--window-data`: another root's self-play (its generation 3's) joins the window and the
/// state records it with its data-sha256; the unfinished generation then resumes only with the
/// same folders holding the same games, and a folder without a self-play manifest is refused,
/// each in one line with nothing written.
#[test]
fn outside_self_play_joins_the_window_and_binds_the_generation_to_its_games() {
    let source = fresh("outside-source");
    assert_success(&generation(&source, &[]));
    assert_success(&generation(&source, &["--stop-after", "selfplay"]));
    let (source_root, _, _, _) = places(&source);
    let outside = source_root.join("gen-003/data");
    let outside_sha = DataManifest::read(&outside).unwrap().unwrap().data_sha256();

    let dir = fresh("outside-window");
    let (root, _, _, _) = places(&dir);
    let with_outside = ["--window-data", &text(&outside)];
    let output = generation(
        &dir,
        &[&with_outside[..], &["--stop-after", "train"]].concat(),
    );
    assert_success(&output);
    let state_file = root.join("gen-002/state.txt");
    let state = String::from_utf8(read(&state_file)).unwrap();
    assert!(
        state.contains(&format!("window-data: {outside_sha} {}\n", text(&outside))),
        "{state}"
    );
    let model = String::from_utf8(read(&root.join("gen-002/train/model.manifest"))).unwrap();
    assert!(
        model.contains("games: 16\n") && model.contains(&outside_sha),
        "{model}"
    );

    // Without the folder, with a folder that holds no self-play, or with its games changed.
    assert_one_line_error(&generation(&dir, &[]), "window-data");
    let not_data = dir.join("not-data");
    std::fs::create_dir_all(&not_data).unwrap();
    assert_one_line_error(
        &generation(&dir, &["--window-data", &text(&not_data)]),
        "holds no self-play data",
    );
    let manifest_file = outside.join("manifest.txt");
    let listing = read(&manifest_file);
    let fewer: String = String::from_utf8(listing.clone())
        .unwrap()
        .lines()
        .filter(|line| !line.contains("game-000007"))
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(&manifest_file, fewer).unwrap();
    assert_one_line_error(&generation(&dir, &with_outside), "window-data");
    assert_eq!(String::from_utf8(read(&state_file)).unwrap(), state);
    std::fs::write(&manifest_file, listing).unwrap();

    // The same folder as it was: the generation goes on to its promotion.
    assert_success(&generation(&dir, &with_outside));
    assert!(String::from_utf8(read(&state_file))
        .unwrap()
        .contains("step: promoted"));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&source);
}

/// `--select-value`: the generation carries the trained value network only when it beats its
/// parent's on the window's test split. A network trained at learning rate 0 (its seed's
/// weights) loses to generation 1's, which the generation then keeps, also when the step is run
/// again, and keeps through its promotion; against a parent whose output says the opposite of
/// generation 1's the trained network is kept.
#[test]
fn select_value_keeps_the_parents_network_unless_the_trained_one_beats_it_on_the_test_split() {
    let dir = fresh("select-value");
    let (root, keep, _, table) = places(&dir);
    let flags = [
        "--select-value",
        "--learning-rate",
        "0",
        "--stop-after",
        "train",
    ];
    let output = generation(&dir, &flags);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("generation 1's is kept"), "{stderr}");
    let generation_dir = root.join("gen-002");
    let parent_network = read(&root.join("gen-001/network.txt"));
    assert_eq!(read(&generation_dir.join("network.txt")), parent_network);
    assert_ne!(
        read(&generation_dir.join("train/network.txt")),
        parent_network
    );
    let state_path = generation_dir.join("state.txt");
    let state = String::from_utf8(read(&state_path)).unwrap();
    assert!(
        state.contains("select-value: yes") && state.contains("step: value kept-from 1 log-loss"),
        "{state}"
    );
    // Run again from before the step: the same choice and state (its line now last).
    forget_step(&state_path, "value");
    assert_success(&generation(&dir, &flags));
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(
        sorted(&String::from_utf8(read(&state_path)).unwrap()),
        sorted(&state)
    );
    assert_eq!(read(&generation_dir.join("network.txt")), parent_network);

    // Promoted, it keeps the parent's network, and the table says whose it is.
    assert_success(&generation(&dir, &flags[..3]));
    assert_eq!(read(&keep.join("gen-002/network.txt")), parent_network);
    let table = String::from_utf8(read(&table)).unwrap();
    assert!(table.contains("(gen 1's network: "), "{table}");

    // A parent that predicts the opposite: the trained network is the generation's.
    let other = fresh("select-value-trained");
    let (other_root, other_keep, _, other_table) = places(&other);
    let written = learn(&[
        "generations-table",
        "--keep",
        &text(&other_keep),
        "--table",
        &text(&other_table),
    ]);
    assert_success(&written);
    // The output layer's weights (the last HIDDEN2 before its bias) times -10: the logit of
    // a position, player 0's side minus player 1's, says the opposite of generation 1's, and
    // louder.
    let network = other_keep.join("gen-001/network.txt");
    let text = String::from_utf8(read(&network)).unwrap();
    let (magic, weights) = text.split_once('\n').unwrap();
    let mut weights: Vec<f32> = weights
        .split_whitespace()
        .map(|word| word.parse().unwrap())
        .collect();
    let count = weights.len();
    for weight in &mut weights[count - 1 - HIDDEN2..count - 1] {
        *weight *= -10.0;
    }
    let weights: Vec<String> = weights.iter().map(f32::to_string).collect();
    std::fs::write(&network, format!("{magic}\n{}\n", weights.join(" "))).unwrap();
    let output = generation(&other, &["--select-value", "--stop-after", "train"]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the trained one is kept"), "{stderr}");
    let other_dir = other_root.join("gen-002");
    assert_eq!(
        read(&other_dir.join("network.txt")),
        read(&other_dir.join("train/network.txt"))
    );
    let state = String::from_utf8(read(&other_dir.join("state.txt"))).unwrap();
    assert!(state.contains("step: value trained log-loss"), "{state}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}
