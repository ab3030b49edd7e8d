//! `arena`: the local referee and match runner for csb. Subcommands: `match` (play many
//! games between two bot commands and report), `merge` (add shard results), `replay` (re-check
//! a saved game), `inputs` (a player's exact stdin), `import-cg` (check CodinGame replays
//! against the engine), `ladder` (reference players rated together), `tune` (SPSA over a
//! bot's flags) and `view` (HTML page of a replay). Errors are one line on stderr and a non-zero
//! exit code: 1 when a check finds a mismatch or a match's replays could not all be saved (its
//! report is still printed), 2 for anything else (bad arguments, unusable input, a bot that cannot
//! start).

mod bot_process;
mod cg_import;
mod cg_laps;
mod cg_replay;
mod children;
mod game_pair;
mod input_text;
mod inputs;
mod ladder;
mod match_result;
mod match_runner;
mod output_line;
mod parallel;
mod pentanomial;
mod referee;
mod replay;
mod response_times;
mod seeds;
mod sprt;
mod stats;
mod tune;
mod turn_stderr;
mod verify;
mod view;

use clap::{Parser, Subcommand};
use csb::engine::League;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arena",
    version,
    about = "Referee and match runner for csb (Coders Strike Back)"
)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Play games between two bots (seats swapped on alternate games, same maps) and report.
    Match {
        /// Shell command of the first bot (the one the report speaks for).
        #[arg(long, value_parser = parse_command)]
        p1: String,
        /// Shell command of the second bot.
        #[arg(long, value_parser = parse_command)]
        p2: String,
        /// Games in the whole match (pairs share a map), at least 1.
        #[arg(long, default_value_t = 100, value_parser = parse_at_least_one)]
        games: usize,
        /// Games played at the same time, at least 1.
        #[arg(long, default_value_t = 1, value_parser = parse_at_least_one)]
        threads: usize,
        /// Match seed; game seeds derive from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// wood3, wood2, wood1, bronze, silver (one pod each, docs/leagues.md), gold (thrust cap 100) or legend (cap 200).
        #[arg(long, default_value = "legend", value_parser = parse_league)]
        league: League,
        /// Multiplies the time limits (1000 ms first turn, 75 ms after).
        #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
        time_scale: f64,
        /// Directory for the replays (one subdirectory per run).
        #[arg(long, default_value = "replays/matches")]
        out: PathBuf,
        /// Stop early with a sequential test: --sprt ELO0 ELO1 with ELO0 < ELO1 (alpha = beta =
        /// 0.05).
        #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
        sprt: Option<Vec<f64>>,
        /// Print the result as JSON on stdout (the text report goes to stderr).
        #[arg(long)]
        json: bool,
        /// Play only the game pairs whose index is I mod N: --shard I/N.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
    },
    /// Merge the JSON results of the shards of one match into one report.
    Merge {
        #[arg(required = true)]
        results: Vec<PathBuf>,
        /// Print the merged result as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Re-simulate a saved game and check every recorded state.
    Replay { file: PathBuf },
    /// Print exactly the stdin a player received in a saved game.
    Inputs {
        file: PathBuf,
        /// 0 or 1.
        #[arg(long)]
        player: usize,
    },
    /// Check CodinGame replays (viewer frames, gameResult JSON, or fixture text) bit for bit.
    ImportCg {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also write each game in the csb replay format into this directory.
        #[arg(long)]
        convert: Option<PathBuf>,
        /// League of gameResult games (default: guessed from the thrusts seen).
        #[arg(long, value_parser = parse_league)]
        league: Option<League>,
        /// Laps of the race (default: 3, or inferred for viewer-frame recordings, which carry
        /// no lap count; the report says which rule was assumed and why).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=100))]
        laps: Option<u16>,
    },
    /// Reference players by commit, played in game pairs and rated together (docs/ladder.md).
    Ladder {
        #[command(subcommand)]
        command: ladder::LadderCommand,
    },
    /// Render a replay as a self-contained HTML page.
    View {
        replay: PathBuf,
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Tune numeric flags of a bot by SPSA: θ+cΔ against θ−cΔ on game pairs each iteration.
    Tune {
        /// Shell command of the bot; the tuned flags are appended to it.
        #[arg(long, value_parser = parse_command)]
        bot: String,
        /// A tuned flag: NAME=START:MIN:MAX[:STEP] (STEP: first perturbation, default a tenth
        /// of MAX-MIN; all whole numbers = an integer flag). Repeat for more flags.
        #[arg(long = "param", required = true, value_parser = parse_param)]
        params: Vec<tune::ParamSpec>,
        /// Iterations of the whole run (a resumed run continues up to this many).
        #[arg(long, default_value_t = 40, value_parser = parse_at_least_one)]
        iterations: usize,
        /// Game pairs per iteration (each map played twice, seats swapped).
        #[arg(long, default_value_t = 2, value_parser = parse_at_least_one)]
        pairs: usize,
        /// STEPs a parameter moves on the first iteration when one side wins every game.
        #[arg(long, default_value_t = 1.0)]
        first_move: f64,
        /// JSON-lines file of the run: a header, then one record per iteration.
        #[arg(long)]
        trajectory: PathBuf,
        /// Continue the run recorded in --trajectory (its settings must match).
        #[arg(long)]
        resume: bool,
        /// Games played at the same time.
        #[arg(long, default_value_t = 1, value_parser = parse_at_least_one)]
        threads: usize,
        /// Run seed; the maps and perturbation signs of every iteration derive from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// gold (thrust cap 100) or legend (cap 200).
        #[arg(long, default_value = "legend", value_parser = parse_league)]
        league: League,
        /// Multiplies the time limits (1000 ms first turn, 75 ms after).
        #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
        time_scale: f64,
        /// Directory for the replays (one subdirectory per iteration).
        #[arg(long, default_value = "replays/matches/tune")]
        out: PathBuf,
        /// Play only the pairs I mod N of every iteration, meeting the other shards after each
        /// through their files (TRAJECTORY.shardJofN, in a shared directory): --shard I/N.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
    },
}

fn parse_param(text: &str) -> Result<tune::ParamSpec, String> {
    tune::ParamSpec::parse(text)
}

fn parse_league(text: &str) -> Result<League, String> {
    League::parse(text).ok_or_else(|| {
        format!("unknown league {text:?} (wood3, wood2, wood1, bronze, silver, gold or legend)")
    })
}

fn parse_at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(count) if count >= 1 => Ok(count),
        _ => Err(format!("expected a whole number >= 1, got {text:?}")),
    }
}

fn parse_command(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("expected a shell command that starts a bot, got an empty one".to_string())
    } else {
        Ok(text.to_string())
    }
}

/// `--sprt ELO0 ELO1`: finite bounds with ELO0 below ELO1.
fn sprt_bounds(bounds: &[f64]) -> Result<sprt::Sprt, String> {
    match bounds {
        [elo0, elo1] if elo0.is_finite() && elo1.is_finite() && elo0 < elo1 => {
            Ok(sprt::Sprt::new(*elo0, *elo1))
        }
        _ => Err(format!(
            "--sprt ELO0 ELO1 needs finite bounds with ELO0 < ELO1 (e.g. --sprt 0 30), got {}",
            bounds
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(scale) if scale > 0.0 && scale.is_finite() => Ok(scale),
        _ => Err(format!("expected a positive number, got {text:?}")),
    }
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((index, count)) if count > 0 && index < count => Ok((index, count)),
        _ => Err(format!("expected I/N with 0 <= I < N, got {text:?}")),
    }
}

/// A failed run: the exit code and the one-line message.
struct Failure(u8, String);

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure(2, message)
    }
}

fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Failure(2, format!("cannot write to stdout: {e}")))
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Commands::Match {
            p1,
            p2,
            games,
            threads,
            seed,
            league,
            time_scale,
            out,
            sprt,
            json,
            shard,
        } => {
            let sprt = sprt.as_deref().map(sprt_bounds).transpose()?;
            children::install_interrupt_handler();
            children::become_subreaper();
            let config = match_runner::MatchConfig {
                p1,
                p2,
                games,
                threads,
                seed,
                league,
                time_scale,
                out,
                sprt,
                shard,
            };
            let result = match_runner::run_match(&config)?;
            if json {
                eprint!("{}", result.report());
                print_stdout(&(result.to_json() + "\n"))?;
            } else {
                print_stdout(&result.report())?;
            }
            match result.games.iter().filter(|g| g.replay.is_none()).count() {
                0 => Ok(()),
                lost => Err(Failure(
                    1,
                    format!(
                        "{lost} of {} replays could not be saved under {} (warnings above)",
                        result.games.len(),
                        config.out.display()
                    ),
                )),
            }
        }
        Commands::Merge { results, json } => {
            let mut parts = Vec::new();
            for path in &results {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                parts.push(
                    match_result::MatchResult::from_json(&text)
                        .map_err(|e| format!("{}: {e}", path.display()))?,
                );
            }
            let merged = match_result::merge(parts)?;
            if json {
                print_stdout(&(merged.to_json() + "\n"))
            } else {
                print_stdout(&merged.report())
            }
        }
        Commands::Replay { file } => {
            let replay = replay::Replay::load(&file)?;
            verify::race_of(&replay)
                .map_err(|e| format!("{}: cannot be replayed: {e}", file.display()))?;
            match verify::verify(&replay) {
                Ok(verified) => print_stdout(&format!(
                    "{}: ok, {} turns and {} collisions re-simulated identically; {} ({}), ranks {:?}\n",
                    file.display(),
                    verified.turns,
                    verified.collisions,
                    match replay.result.winner {
                        Some(p) => format!("player {p} wins"),
                        None => "draw".to_string(),
                    },
                    replay.result.reason,
                    replay.result.ranks
                )),
                Err(divergence) => Err(Failure(
                    1,
                    format!("{}: divergence: {divergence}", file.display()),
                )),
            }
        }
        Commands::Inputs { file, player } => {
            let replay = replay::Replay::load(&file)?;
            let text = inputs::player_input(&replay, player)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            print_stdout(&text)
        }
        Commands::ImportCg {
            files,
            convert,
            league,
            laps,
        } => {
            let mut mismatched = false;
            for file in &files {
                let report = cg_import::import_file(file, league, laps, convert.as_deref())?;
                print_stdout(&report.text)?;
                mismatched |= report.mismatches > 0;
            }
            if mismatched {
                Err(Failure(1, "mismatches found".to_string()))
            } else {
                Ok(())
            }
        }
        Commands::Ladder { command } => print_stdout(&ladder::run(command)?),
        Commands::View { replay, output } => view::view(&replay, &output).map_err(Failure::from),
        Commands::Tune {
            bot,
            params,
            iterations,
            pairs,
            first_move,
            trajectory,
            resume,
            threads,
            seed,
            league,
            time_scale,
            out,
            shard,
        } => {
            children::install_interrupt_handler();
            children::become_subreaper();
            let config = tune::TuneConfig {
                bot,
                params,
                iterations,
                seed,
                first_move,
                trajectory,
                resume,
                games: tune::GameSettings {
                    pairs,
                    threads,
                    league,
                    time_scale,
                    out,
                    shard,
                },
            };
            let report = tune::run_tune(&config)?;
            print_stdout(&report)
        }
    }
}

/// Parses the command line; a usage error is one line (clap's first) and exit code 2, help and
/// version go to stdout as usual.
fn parse_cli() -> Result<Cli, Failure> {
    Cli::try_parse().map_err(|error| {
        use clap::error::ErrorKind;
        match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
            _ => {
                // clap's first paragraph, on one line.
                let text = error.render().to_string();
                let paragraph: Vec<&str> = text
                    .lines()
                    .map(str::trim)
                    .take_while(|line| !line.is_empty())
                    .collect();
                let message = paragraph.join(" ");
                let message = message.strip_prefix("error: ").unwrap_or(&message);
                Failure(2, format!("{message} (see arena --help)"))
            }
        }
    })
}

fn main() -> ExitCode {
    let cli = match parse_cli() {
        Ok(cli) => cli,
        Err(Failure(code, message)) => {
            eprintln!("arena: error: {message}");
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(code, message)) => {
            eprintln!("arena: error: {message}");
            ExitCode::from(code)
        }
    }
}
