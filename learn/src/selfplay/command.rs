//! `learn selfplay`: its arguments, the players built from csb flags (named in the data by
//! their files' content, not their paths), the manifest's run and its checks, the games played
//! and written one file each (`play.rs` plays them), and the line it ends with. Also `learn
//! visit-noise` (`visit_noise.rs`): the same games with twin searches, and its table.

use crate::common::files::write_whole;
use crate::common::manifest::sha256_hex;
use crate::data::deep_turns::DeepTurns;
use crate::data::game_file::{write_game, GameRecord};
use crate::data::manifest::{begin_run, list_games};
use crate::data::run::{game_file_name, map_seed, Run, RunBot};
use crate::data::shard::Shard;
use crate::selfplay::play::{on_threads, play_games, seated, Contestant};
use crate::selfplay::visit_noise::{tally_game, NoiseTally};
use csb::bot::signature::{decision_signature, signature_hex};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct SelfplayArgs {
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
    /// Games played at once, one a thread (one a core); the games do not depend on it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
    /// Search iterations of the deep turns (KataGo's playout-cap randomisation): a share of the
    /// turns (`--deep-share`), drawn from the seed, the game and the turn, searched with more
    /// iterations than `--iterations`; their root visits are the policy's deeper targets
    /// (`learn train-policy --min-visits`). Give `--nodes` room for them.
    #[arg(long, requires = "deep_share")]
    deep_iterations: Option<u64>,
    /// The share of the turns searched deep (above 0, at most 1, in thousandths).
    #[arg(long, requires = "deep_iterations")]
    deep_share: Option<f64>,
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
        format!("{name}[{}]", name_words(flags, &config).join(","))
    };
    Ok(Contestant {
        name,
        config,
        deep: None,
    })
}

/// The words of `flags` for a player's name in the data: a network or policy file named by its
/// content (`net-` or `policy-` and 12 hex digits of the SHA-256 of its weights), not its
/// path, so that games do not depend on where the file lies.
fn name_words(flags: &str, config: &csb::bot::config::BotConfig) -> Vec<String> {
    let by_content = |prefix: &str, values: &[f32]| {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        format!("{prefix}-{}", &sha256_hex(&bytes)[..12])
    };
    let words: Vec<&str> = flags.split_whitespace().collect();
    let mut named = Vec::with_capacity(words.len());
    for (index, word) in words.iter().enumerate() {
        let flag = index.checked_sub(1).map(|before| words[before]);
        let file = match flag {
            // `control` reads as a file of the control's weights; it keeps its name.
            Some("--net-file") if *word != "control" => {
                config.net_file.as_ref().map(|file| ("net", file))
            }
            Some("--policy-net") if *word != "control" => {
                config.policy_net.as_ref().map(|file| ("policy", file))
            }
            _ => None,
        };
        named.push(match file {
            Some((prefix, file)) => by_content(prefix, &file.values),
            None => word.to_string(),
        });
    }
    named
}

/// The file of game `index` in `dir`.
fn game_path(dir: &Path, index: u64) -> PathBuf {
    dir.join(game_file_name(index))
}

/// A bot of the run for the manifest: its flags, normalised, and its decision signature.
fn run_bot(flags: &str) -> Result<RunBot, String> {
    let words: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
    let config = csb::bot::config::BotConfig::from_args(&words)
        .map_err(|error| format!("bot flags {flags:?}: {error}"))?;
    Ok(RunBot {
        flags: words.join(" "),
        signature: signature_hex(decision_signature(&config)?),
    })
}

/// Whether `game` is one `contestants` played on the run seeded `seed`: its map and its seats.
fn played_by(game: &GameRecord, seed: u64, contestants: &[Contestant; 2]) -> Result<(), String> {
    let expected = map_seed(seed, game.index);
    if game.map_seed != expected {
        return Err(format!(
            "map seed {} is not game {}'s of this run ({expected})",
            game.map_seed, game.index
        ));
    }
    let [first, second] = seated(game.index, contestants).map(|contestant| &contestant.name);
    if game.players[0] != *first || game.players[1] != *second {
        return Err(format!(
            "players {} and {} are not this run's {first} and {second}",
            game.players[0], game.players[1]
        ));
    }
    Ok(())
}

/// `learn selfplay`: the run begun or checked, this shard's games played, the directory's
/// manifest listing them, and one line.
pub fn selfplay(args: &SelfplayArgs) -> Result<(), String> {
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".to_string());
    }
    let deep = DeepTurns::from_flags(args.deep_iterations, args.deep_share, args.iterations)?;
    let with_deep = |contestant: Contestant| Contestant { deep, ..contestant };
    let first = with_deep(contestant(
        "csb",
        &args.bot_args,
        args.iterations,
        args.nodes,
    )?);
    let second = match &args.opponent_args {
        Some(flags) => with_deep(contestant("csb", flags, args.iterations, args.nodes)?),
        None => first.clone(),
    };
    let contestants = [first, second];
    let first_bot = run_bot(&args.bot_args)?;
    let second_bot = match &args.opponent_args {
        Some(flags)
            if flags
                .split_whitespace()
                .ne(args.bot_args.split_whitespace()) =>
        {
            run_bot(flags)?
        }
        _ => first_bot.clone(),
    };
    let run = Run {
        seed: args.seed,
        games: args.games,
        iterations: args.iterations,
        nodes: args.nodes,
        deep,
        bots: [first_bot, second_bot],
    };
    std::fs::create_dir_all(&args.out)
        .map_err(|error| format!("cannot create {}: {error}", args.out.display()))?;
    begin_run(&args.out, &run)?;
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
    play_games(
        args.seed,
        &todo,
        &contestants,
        args.jobs as usize,
        |game, record| {
            let path = game_path(&args.out, game);
            write_whole(&path, write_game(&record))?;
            wins[record.winner.map_or(2, usize::from)] += 1;
            bar.set_message(format!(
                "player 0 {} / player 1 {} / draws {}",
                wins[0], wins[1], wins[2]
            ));
            bar.inc(1);
            Ok(())
        },
    )?;
    bar.finish();
    let manifest = list_games(&args.out, &run, |game| {
        played_by(game, args.seed, &contestants)
    })?;
    eprintln!(
        "selfplay: shard {} holds {held} games, {} played now, {} already there; in {}, whose \
         manifest lists {} of the run's {} games (data-sha256 {})",
        args.shard,
        todo.len(),
        held - todo.len() as u64,
        args.out.display(),
        manifest.files.len(),
        manifest.run.games,
        manifest.data_sha256()
    );
    Ok(())
}

#[derive(clap::Args)]
pub struct VisitNoiseArgs {
    /// Games to play (self-play's games 0..N of the seed's run).
    #[arg(long, default_value_t = 20)]
    games: u64,
    /// Twin searches of each seat's every turn (each root then has 1 + N draws).
    #[arg(long, default_value_t = 4)]
    twins: usize,
    /// Search iterations per turn of every search (as self-play's).
    #[arg(long, default_value_t = 5000)]
    iterations: u64,
    /// Seed of the run: maps, seats and searches derive from it as in self-play.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// csb flags of the bot (besides --iterations), e.g. "--eval net --net-file F".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    bot_args: String,
    /// Nodes per search tree (as csb's --nodes).
    #[arg(long, default_value_t = 100_000)]
    nodes: usize,
    /// Games played at once, one a thread; the figures do not depend on it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
}

/// Most twins a root may have (each multiplies a game's cost).
const MAX_TWINS: usize = 64;

/// `learn visit-noise`: the games played with their twins, and the floor's bounds, one line
/// each, on stdout.
pub fn visit_noise(args: &VisitNoiseArgs) -> Result<(), String> {
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".to_string());
    }
    if args.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    if !(1..=MAX_TWINS).contains(&args.twins) {
        return Err(format!(
            "--twins must be 1 to {MAX_TWINS}, not {}",
            args.twins
        ));
    }
    let bot = contestant("csb", &args.bot_args, args.iterations, args.nodes)?;
    let contestants = [bot.clone(), bot];
    let indices: Vec<u64> = (0..args.games).collect();
    let bar = indicatif::ProgressBar::new(args.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "visit-noise {pos}/{len} games [{elapsed_precise} < {eta_precise}] {wide_bar}",
        )
        .expect("a valid template"),
    );
    let mut tally = NoiseTally::new(args.twins);
    on_threads(
        &indices,
        args.jobs as usize,
        |game| tally_game(args.seed, game, &contestants, args.twins),
        |_, game_tally| {
            tally.merge(&game_tally);
            bar.inc(1);
            Ok(())
        },
    )?;
    bar.finish();
    let figures = tally
        .figures()
        .ok_or("no root was visited by every search")?;
    println!(
        "visit-noise: {} games, {} own pods' roots, {} iterations a search, 1 + {} searches a \
         root, bot {:?}",
        args.games, figures.roots, args.iterations, args.twins, args.bot_args
    );
    println!(
        "visits' entropy (one search, as the policy's test split): {:.4}",
        figures.lower_bounds[0]
    );
    for (index, bound) in figures.lower_bounds.iter().enumerate().skip(1) {
        println!(
            "floor at least {bound:.4}: entropy of the mean of {} searches",
            index + 1
        );
    }
    for (index, (bound, weight)) in figures.upper_bounds.iter().enumerate() {
        println!(
            "floor at most {bound:.4}: one search against the mean of {} others (smoothing \
             {weight})",
            index + 1
        );
    }
    if let Some(floor) = figures.extrapolated_floor {
        println!("floor about {floor:.4}: the lower bounds fitted as a - b/m, m searches");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::name_words;
    use csb::bot::config::BotConfig;

    /// A network file is named by its weights, the controls by their own word.
    #[test]
    fn players_name_network_files_by_content_and_controls_by_name() {
        let flags = "--net-file control --policy-net control --iterations 9";
        let words: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
        let config = BotConfig::from_args(&words).unwrap();
        assert_eq!(name_words(flags, &config).join(" "), flags);
        let path = std::env::temp_dir().join(format!("learn-names-{}.txt", std::process::id()));
        let network = csb::bot::value_net::network::Network::embedded();
        std::fs::write(&path, csb::bot::value_net::file::write(&network)).unwrap();
        let flags = format!("--net-file {}", path.display());
        let words: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
        let config = BotConfig::from_args(&words).unwrap();
        let named = name_words(&flags, &config);
        let _ = std::fs::remove_file(&path);
        assert_eq!(named[0], "--net-file");
        assert!(
            named[1].starts_with("net-") && named[1].len() == 16,
            "{named:?}"
        );
    }
}
