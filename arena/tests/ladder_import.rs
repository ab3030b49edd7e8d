//! `arena ladder import` on a row folder (fixtures/ladder-row: two shards of a 6-game
//! `arena match` at the real control, its options.txt) with a scratch git repository for the
//! commits: a good import appends one game per line with the row's command, and every refusal
//! (control, players, an import already made) is one line with nothing appended. Then `arena
//! ladder plot` draws the lineage from the imported games.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ladder-row");
const OPTIONS: &str =
    "--p1 /rows/new/csb --p2 /rows/old/csb --eval hand --games 6 --seed 77 --threads 1 --time-scale 1";

/// A git repository with two empty commits; their full hashes.
fn repository(dir: &Path) -> (PathBuf, String, String) {
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(output.status.success(), "git {args:?}: {}", stderr(&output));
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    };
    git(&["init", "-q"]);
    git(&["commit", "-q", "--allow-empty", "-m", "old"]);
    let old = git(&["rev-parse", "HEAD"]);
    git(&["commit", "-q", "--allow-empty", "-m", "new"]);
    let new = git(&["rev-parse", "HEAD"]);
    (repo, old, new)
}

/// A roster at the real control: `new` (the new commit), `old-hand` and `old-hand-again` (the
/// old commit with `--eval hand`), `old` (the old commit, no flags), then `extra`.
fn roster(dir: &Path, old: &str, new: &str, extra: &str) -> String {
    let text = format!(
        "lineage = [\"old-hand\", \"new\", \"old\"]\n\
         [controls.real]\nbudget_ms = 50\nfirst_budget_ms = 500\ntime_scale = 1.0\nleague = \"legend\"\n\
         [[players]]\nname = \"new\"\ncommit = \"{new}\"\n\
         [[players]]\nname = \"old-hand\"\ncommit = \"{}\"\nflags = \"--eval hand\"\n\
         [[players]]\nname = \"old-hand-again\"\ncommit = \"{old}\"\nflags = \"--eval hand\"\n\
         [[players]]\nname = \"old\"\ncommit = \"{old}\"\n{extra}",
        &old[..8]
    );
    let path = dir.join("players.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// A copy of the fixture row with its commits.txt, changed by `edit` (each shard's JSON) and
/// with `options` as its command.
fn row(dir: &Path, name: &str, commits: &str, options: &str, edit: impl Fn(&mut Value)) -> String {
    let row = dir.join(name);
    std::fs::create_dir_all(&row).unwrap();
    for shard in ["shard-0.json", "shard-1.json"] {
        let mut json = load_json(&format!("{FIXTURE}/{shard}"));
        edit(&mut json);
        std::fs::write(row.join(shard), json.to_string()).unwrap();
    }
    std::fs::write(row.join("options.txt"), format!("{options}\n")).unwrap();
    std::fs::write(row.join("commits.txt"), commits).unwrap();
    row.display().to_string()
}

struct Setup {
    dir: PathBuf,
    repo: String,
    players: String,
    results: String,
    commits: String,
    old: String,
    new: String,
}

fn setup(name: &str) -> Setup {
    let dir = scratch(name);
    let (repo, old, new) = repository(&dir);
    let players = roster(&dir, &old, &new, "");
    let commits = format!("# binary commit\n/rows/new/csb {new}\n/rows/old/csb {old}\n");
    let results = dir.join("results.jsonl").display().to_string();
    Setup {
        dir,
        repo: repo.display().to_string(),
        players,
        results,
        commits,
        old,
        new,
    }
}

impl Setup {
    /// The roster with `extra` at its end.
    fn with_roster_extra(&self, extra: &str) {
        roster(&self.dir, &self.old, &self.new, extra);
    }

    fn import(&self, row: &str, p1: &str, p2: &str) -> std::process::Output {
        run(&[
            "ladder",
            "import",
            row,
            "--players",
            &self.players,
            "--control",
            "real",
            "--p1",
            p1,
            "--p2",
            p2,
            "--results",
            &self.results,
            "--repo",
            &self.repo,
        ])
    }

    fn results_text(&self) -> String {
        std::fs::read_to_string(&self.results).unwrap_or_default()
    }

    /// The import is refused with one line naming `needle`, and the results are unchanged.
    fn refused(&self, row: &str, p1: &str, p2: &str, needle: &str) {
        let before = self.results_text();
        let output = self.import(row, p1, p2);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{row} {p1} {p2}: {message}");
        assert!(message.contains(needle), "{needle:?} not in {message}");
        assert_eq!(message.trim().lines().count(), 1, "{message}");
        assert_eq!(self.results_text(), before, "{row}: something was appended");
    }
}

#[test]
fn a_row_is_imported_once_with_its_command() {
    let s = setup("ladder_import_good");
    let good = row(&s.dir, "row", &s.commits, OPTIONS, |_| {});
    let output = s.import(&good, "new", "old-hand");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("imported 6 game(s)"),
        "{}",
        stdout(&output)
    );
    let games: Vec<Value> = s
        .results_text()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(games.len(), 6);
    for game in &games {
        // A ("new") sorts before B ("old-hand"): A is the row's p1, its score p1's.
        assert_eq!(
            (game["a"].as_str(), game["b"].as_str()),
            (Some("new"), Some("old-hand"))
        );
        assert_eq!(game["seed"], 77);
        assert_eq!(game["row"]["command"], OPTIONS);
        assert_eq!(game["row"]["b_build"].as_str(), Some(s.old.as_str()));
        assert_eq!(game["b_command"], "/rows/old/csb --eval hand");
        let index = game["row"]["game"].as_u64().unwrap();
        assert_eq!(game["pair"].as_u64(), Some(index / 2));
        assert_eq!(game["a_player"].as_u64(), Some(index % 2));
    }
    let points: f64 = games.iter().map(|g| g["a_score"].as_f64().unwrap()).sum();
    assert_eq!(points, 5.0, "the fixture's p1 won 5 of 6");

    // Again, under the same names or others that fit the same builds: refused.
    s.refused(&good, "new", "old-hand", "already in");
    s.refused(&good, "new", "old-hand-again", "already in");

    // The table rates the two; the plot draws the lineage with both.
    let table = run(&[
        "ladder",
        "table",
        &s.results,
        "--anchor",
        "old-hand",
        "--players",
        &s.players,
    ]);
    assert!(table.status.success(), "{}", stderr(&table));
    assert!(
        stdout(&table).contains("| new vs old-hand | 5/0/1 |"),
        "{}",
        stdout(&table)
    );
    let svg_path = s.dir.join("lineage.svg");
    let plot = run(&[
        "ladder",
        "plot",
        &s.results,
        "--players",
        &s.players,
        "--out",
        svg_path.to_str().unwrap(),
    ]);
    assert!(plot.status.success(), "{}", stderr(&plot));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(">Elo</text>"));
    for name in ["new", "old-hand", "old"] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name} not drawn");
    }
    assert!(svg.contains("anchor old-hand = 0") && svg.contains(">no games<"));
}

#[test]
fn rows_of_another_control_are_refused_with_one_line() {
    let s = setup("ladder_import_control");
    let c = &s.commits;
    let scaled = row(&s.dir, "scaled", c, OPTIONS, |j| {
        j["time_scale"] = 20.0.into()
    });
    s.refused(&scaled, "new", "old-hand", "time scale 20");
    let gold = row(&s.dir, "gold", c, OPTIONS, |j| j["league"] = "gold".into());
    s.refused(&gold, "new", "old-hand", "league gold");
    let threads = OPTIONS.replace("--threads 1", "--threads 2");
    let parallel = row(&s.dir, "parallel", c, &threads, |_| {});
    s.refused(&parallel, "new", "old-hand", "--threads 2");
    let budget = |j: &mut Value| j["p2"] = "/rows/old/csb --eval hand --budget-ms 5".into();
    let quick_options = OPTIONS.replace("--eval hand", "--eval hand --budget-ms 5");
    let quick = row(&s.dir, "quick", c, &quick_options, budget);
    s.refused(&quick, "new", "old-hand", "p2's budgets are 5 ms");
    let fixed = |j: &mut Value| j["p1"] = "/rows/new/csb --iterations 1000".into();
    let fixed_options = OPTIONS.replace("new/csb", "new/csb --iterations 1000");
    let counted = row(&s.dir, "counted", c, &fixed_options, fixed);
    s.refused(&counted, "new", "old-hand", "--iterations");
    // options.txt of another match than its shards.
    let other = row(&s.dir, "other", c, &OPTIONS.replace("77", "78"), |_| {});
    s.refused(&other, "new", "old-hand", "not its shards'");
}

#[test]
fn sides_that_are_not_the_named_players_are_refused_with_one_line() {
    let s = setup("ladder_import_players");
    let good = row(&s.dir, "row", &s.commits, OPTIONS, |_| {});
    // The flags differ: "old" has none, the row's p2 ran --eval hand.
    s.refused(&good, "new", "old", "is not player old");
    s.refused(&good, "new", "ghost", "no player \"ghost\"");
    s.refused(&good, "old-hand", "new", "is not player old-hand");
    // The commit differs: the row's p1 was built at the old commit.
    let wrong = format!("/rows/new/csb {}\n/rows/old/csb {}\n", s.old, s.old);
    let built_old = row(&s.dir, "built-old", &wrong, OPTIONS, |_| {});
    s.refused(&built_old, "new", "old-hand", "is not player new");
    let half = row(&s.dir, "half", "/rows/new/csb HEAD\n", OPTIONS, |_| {});
    s.refused(&half, "new", "old-hand", "which commit built /rows/old/csb");
    let unknown = row(
        &s.dir,
        "unknown",
        "/rows/new/csb f00d\n/rows/old/csb f00d\n",
        OPTIONS,
        |_| {},
    );
    s.refused(&unknown, "new", "old-hand", "not a commit");

    // The same row is new's when the roster lists the old commit as another build of new.
    let also = format!(
        "[[builds]]\nplayer = \"new\"\ncommit = \"{}\"\nwhy = \"the same moves\"\n",
        s.old
    );
    s.with_roster_extra(&also);
    let output = s.import(&built_old, "new", "old-hand");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(s.results_text().lines().count(), 6);
}
