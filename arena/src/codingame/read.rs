//! Reading CodinGame replays (csb-rules.md §9) into one common shape (`recording.rs`): the
//! viewer-frame form (`{"frames": [[line, ...], ...]}`, contest-era referee), the `gameResult` form
//! (`frames[].view` / `frames[].stdout`, top level or under `success`, with `refereeInput`),
//! and the per-turn fixture text of game 870433349 (`../shared/data/cg-replays/README.md`).

use crate::codingame::laps;
use crate::codingame::recording::{HeaderEnd, RecordedTurn, Recording, ViewCollision, ViewPod};
use csb::engine::League;
use serde_json::Value;

/// The end reason a key frame's header names, if any (csb-rules.md §9.2).
fn header_end(header: &str) -> Option<HeaderEnd> {
    header.split_whitespace().find_map(|word| match word {
        "endReached" => Some(HeaderEnd::EndReached),
        "maxRoundsCountReached" => Some(HeaderEnd::MaxRoundsCountReached),
        _ => None,
    })
}

fn number<T: std::str::FromStr>(token: &str, what: &str) -> Result<T, String> {
    token
        .parse()
        .map_err(|_| format!("{what}: {token:?} is not a number"))
}

fn optional<T: std::str::FromStr>(token: &str, what: &str) -> Result<Option<T>, String> {
    if token == "null" {
        Ok(None)
    } else {
        number(token, what).map(Some)
    }
}

fn parse_pod(line: &str, message: &str) -> Result<ViewPod, String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 12 {
        return Err(format!(
            "pod line has {} fields, expected 12: {line:?}",
            f.len()
        ));
    }
    let target = match (
        optional::<i32>(f[6], "target x")?,
        optional::<i32>(f[7], "target y")?,
    ) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => None,
    };
    let message = message.trim();
    let message = message
        .strip_prefix('"')
        .and_then(|m| m.strip_suffix('"'))
        .unwrap_or(message);
    Ok(ViewPod {
        x: number(f[0], "x")?,
        y: number(f[1], "y")?,
        vx: number(f[2], "vx")?,
        vy: number(f[3], "vy")?,
        thrust: Some(number(f[4], "thrust")?),
        target,
        angle: optional(f[8], "angle")?,
        shield: f[9] == "1",
        next_checkpoint: Some(number(f[10], "next checkpoint")?),
        rank: Some(number(f[11], "rank")?),
        message: message.to_string(),
    })
}

fn parse_collision(line: &str) -> Result<ViewCollision, String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 11 {
        return Err(format!(
            "collision line has {} fields, expected 11: {line:?}",
            f.len()
        ));
    }
    Ok(ViewCollision {
        time: number(f[1], "collision time")?,
        a: number(f[2], "collision pod")?,
        ax: number(f[3], "collision x")?,
        ay: number(f[4], "collision y")?,
        b: number(f[5], "collision pod")?,
        bx: number(f[6], "collision x")?,
        by: number(f[7], "collision y")?,
        impulse: number(f[8], "collision impulse")?,
        mean_vx: number(f[9], "collision mean speed")?,
        mean_vy: number(f[10], "collision mean speed")?,
    })
}

fn parse_rank_timeout(line: &str) -> Result<Vec<(i64, i64)>, String> {
    line.split_whitespace()
        .map(|pair| {
            let (rank, timeout) = pair
                .split_once(':')
                .ok_or_else(|| format!("expected rank:timeout, got {pair:?}"))?;
            Ok((number(rank, "rank")?, number(timeout, "timeout")?))
        })
        .collect()
}

/// One view frame (lines) with the stdout lines that came with it (frames since the last key frame).
struct Frame {
    lines: Vec<String>,
    agent: Option<usize>,
    stdout: Option<Vec<String>>,
}

/// The first key frame: checkpoints, pod count, initial pods.
/// What frame 0 gives: checkpoints, pod count, initial pods.
type FirstFrame = (Vec<(i32, i32)>, usize, Vec<ViewPod>);

fn parse_first_frame(lines: &[String]) -> Result<FirstFrame, String> {
    if lines.get(1).map(|l| l.trim()) != Some("CodersStrikeBack") {
        return Err("frame 0 does not start with the CodersStrikeBack header".to_string());
    }
    let dims: Vec<&str> = lines
        .get(2)
        .ok_or("frame 0 is too short")?
        .split_whitespace()
        .collect();
    let pod_count: usize = number(dims.get(4).copied().unwrap_or(""), "pod count")?;
    if pod_count != 2 && pod_count != 4 {
        return Err(format!("{pod_count} pods: expected 2 or 4"));
    }
    let numbers: Vec<i32> = lines
        .get(3)
        .ok_or("frame 0 is too short")?
        .split_whitespace()
        .map(|n| number(n, "checkpoint"))
        .collect::<Result<_, _>>()?;
    if !numbers.len().is_multiple_of(2) {
        return Err("odd number of checkpoint coordinates".to_string());
    }
    let checkpoints = numbers.chunks(2).map(|c| (c[0], c[1])).collect();
    let pods = key_pods(&lines[4..], pod_count)?;
    Ok((checkpoints, pod_count, pods))
}

/// Pods of a key frame whose header is `lines[0]`.
fn key_pods(lines: &[String], pod_count: usize) -> Result<Vec<ViewPod>, String> {
    (0..pod_count)
        .map(|p| {
            let state = lines.get(1 + 2 * p).ok_or("key frame is too short")?;
            let message = lines.get(2 + 2 * p).map(String::as_str).unwrap_or("");
            parse_pod(state, message)
        })
        .collect()
}

fn parse_key_frame(lines: &[String], pod_count: usize) -> Result<RecordedTurn, String> {
    let pods = key_pods(lines, pod_count)?;
    let rest: Vec<&String> = lines[1 + 2 * pod_count..]
        .iter()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let rank_timeout = match rest.first() {
        Some(line) => Some(parse_rank_timeout(line)?),
        None => None,
    };
    let collisions = rest
        .iter()
        .skip(1)
        .map(|l| parse_collision(l))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RecordedTurn {
        pods,
        stdout: None,
        rank_timeout,
        collisions: Some(collisions),
        header_end: header_end(&lines[0]),
    })
}

/// Builds the game from frames (both JSON forms).
fn from_frames(frames: Vec<Frame>, form: &'static str) -> Result<Recording, String> {
    let first = frames.first().ok_or("the replay has no frames")?;
    let (checkpoints, pod_count, initial) = parse_first_frame(&first.lines)?;
    let per_player = pod_count / 2;
    let key_size = 1 + 2 * pod_count;
    let mut turns = Vec::new();
    let mut pending: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut seen_stdout = false;
    for (index, frame) in frames.iter().enumerate().skip(1) {
        if let (Some(agent), Some(stdout)) = (frame.agent, &frame.stdout) {
            if agent < 2 {
                pending[agent].extend(stdout.iter().cloned());
                seen_stdout = true;
            }
        }
        let content = frame.lines.iter().filter(|l| !l.trim().is_empty()).count();
        if content < key_size {
            continue;
        }
        let mut turn =
            parse_key_frame(&frame.lines, pod_count).map_err(|e| format!("frame {index}: {e}"))?;
        if seen_stdout {
            turn.stdout = Some(std::mem::take(&mut pending));
        }
        turns.push(turn);
    }
    let laps = if form == "viewer frames" {
        laps::infer_viewer_frame_laps(checkpoints.len(), &initial, &turns)
    } else {
        laps::current_rules()
    };
    Ok(Recording {
        form,
        checkpoints,
        pods_per_player: per_player,
        laps: laps.laps,
        league: (form == "viewer frames").then_some(League::Legend),
        seed: None,
        players: ["player 0".to_string(), "player 1".to_string()],
        initial,
        turns,
        ranks: None,
        laps_rule: laps.rule,
    })
}

fn lines_of(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}

/// The `gameResult` object of a replay JSON, wherever it sits.
fn game_result(root: &Value) -> Option<&Value> {
    let candidates = [
        Some(root),
        root.get("success"),
        root.get("gameResult"),
        root.get("success").and_then(|s| s.get("gameResult")),
    ];
    candidates.into_iter().flatten().find(|v| {
        v.get("frames")
            .and_then(Value::as_array)
            .is_some_and(|f| f.first().is_some_and(Value::is_object))
    })
}

fn parse_game_result(result: &Value) -> Result<Recording, String> {
    let frames = result["frames"]
        .as_array()
        .expect("checked by game_result")
        .iter()
        .map(|frame| Frame {
            lines: lines_of(frame.get("view").and_then(Value::as_str).unwrap_or("")),
            agent: frame
                .get("agentId")
                .and_then(Value::as_i64)
                .and_then(|a| usize::try_from(a).ok()),
            stdout: frame.get("stdout").and_then(Value::as_str).map(|s| {
                s.lines()
                    .map(|l| l.trim_end_matches('\r').to_string())
                    .filter(|l| !l.is_empty())
                    .collect()
            }),
        })
        .collect();
    let mut game = from_frames(frames, "gameResult")?;
    if let Some(input) = result.get("refereeInput").and_then(Value::as_str) {
        for line in input.lines() {
            if let Some(seed) = line.strip_prefix("seed=") {
                game.seed = seed.trim().parse().ok();
            }
            // Not written by CodinGame's current referee (always 3 laps); accepted for games of
            // other referee versions.
            if let Some(laps) = line.strip_prefix("laps=") {
                game.laps = number(laps.trim(), "laps")?;
                game.laps_rule = "refereeInput laps=".to_string();
            }
            if let Some(map) = line.strip_prefix("map=") {
                let numbers: Vec<i32> = map
                    .split_whitespace()
                    .map(|n| number(n, "map"))
                    .collect::<Result<_, _>>()?;
                if !numbers.len().is_multiple_of(2) {
                    return Err(format!(
                        "refereeInput map= has {} numbers, expected x y pairs",
                        numbers.len()
                    ));
                }
                let listed: Vec<(i32, i32)> = numbers.chunks(2).map(|c| (c[0], c[1])).collect();
                if listed != game.checkpoints {
                    return Err(
                        "refereeInput map= differs from the checkpoints of frame 0".to_string()
                    );
                }
            }
        }
    }
    if let Some(ranks) = result.get("ranks").and_then(Value::as_array) {
        game.ranks = ranks
            .iter()
            .map(|r| {
                r.as_u64()
                    .and_then(|r| u8::try_from(r).ok())
                    .and_then(|r| r.checked_add(1))
            })
            .collect();
    }
    if let Some(agents) = result.get("agents").and_then(Value::as_array) {
        for (index, agent) in agents.iter().take(2).enumerate() {
            let name = agent
                .pointer("/codingamer/pseudo")
                .or_else(|| agent.get("nickname"))
                .or_else(|| agent.get("pseudo"))
                .and_then(Value::as_str);
            if let Some(name) = name {
                game.players[index] = name.to_string();
            }
        }
    }
    Ok(game)
}

/// The fixture text: `N`, checkpoints, `T`, then T lines of 27 numbers (see the data README).
fn parse_fixture(text: &str) -> Result<Recording, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let mut next = || lines.next().ok_or_else(|| "fixture ends early".to_string());
    let count: usize = number(next()?.trim(), "checkpoint count")?;
    let mut checkpoints = Vec::new();
    for _ in 0..count {
        let v: Vec<i32> = next()?
            .split_whitespace()
            .map(|n| number(n, "checkpoint"))
            .collect::<Result<_, _>>()?;
        checkpoints.push((*v.first().unwrap_or(&0), *v.get(1).unwrap_or(&0)));
    }
    let turn_count: usize = number(next()?.trim(), "turn count")?;
    let mut initial = Vec::new();
    let mut turns = Vec::new();
    let pod = |s: &[f64], command: Option<&[f64]>| ViewPod {
        x: s[0],
        y: s[1],
        vx: s[2],
        vy: s[3],
        thrust: None,
        target: command.map(|c| (c[0] as i32, c[1] as i32)),
        angle: Some(s[4]),
        shield: command.is_some_and(|c| c[2] == -2.0),
        next_checkpoint: None,
        rank: None,
        message: String::new(),
    };
    for turn in 0..turn_count {
        let f: Vec<f64> = next()?
            .split_whitespace()
            .map(|n| number(n, "fixture field"))
            .collect::<Result<_, _>>()?;
        if f.len() != 27 {
            return Err(format!(
                "fixture turn {}: {} fields, expected 27",
                turn + 1,
                f.len()
            ));
        }
        if turn == 0 {
            initial = (0..2)
                .map(|p| {
                    let mut first = pod(&f[7 + 5 * p..12 + 5 * p], None);
                    first.angle = None;
                    first
                })
                .collect();
        }
        let stdout: [Vec<String>; 2] = [0, 1].map(|p| {
            let c = &f[1 + 3 * p..4 + 3 * p];
            let thrust = match c[2] as i64 {
                -1 => "BOOST".to_string(),
                -2 => "SHIELD".to_string(),
                t => t.to_string(),
            };
            vec![format!("{} {} {thrust}", c[0] as i64, c[1] as i64)]
        });
        turns.push(RecordedTurn {
            pods: (0..2)
                .map(|p| pod(&f[17 + 5 * p..22 + 5 * p], Some(&f[1 + 3 * p..4 + 3 * p])))
                .collect(),
            stdout: Some(stdout),
            rank_timeout: None,
            collisions: None,
            header_end: None,
        });
    }
    Ok(Recording {
        form: "fixture",
        checkpoints,
        pods_per_player: 1,
        laps: 3,
        league: Some(League::Gold),
        seed: None,
        players: ["player 0".to_string(), "player 1".to_string()],
        initial,
        turns,
        ranks: None,
        laps_rule: laps::current_rules().rule,
    })
}

/// Parses any of the three forms.
pub fn parse(text: &str) -> Result<Recording, String> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('{') {
        return parse_fixture(text);
    }
    let root: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    if let Some(frames) = root.get("frames").and_then(Value::as_array) {
        if frames.first().is_some_and(Value::is_array) {
            let frames = frames
                .iter()
                .map(|frame| Frame {
                    lines: frame
                        .as_array()
                        .map(|lines| {
                            lines
                                .iter()
                                .map(|l| l.as_str().unwrap_or("").to_string())
                                .collect()
                        })
                        .unwrap_or_default(),
                    agent: None,
                    stdout: None,
                })
                .collect();
            return from_frames(frames, "viewer frames");
        }
    }
    match game_result(&root) {
        Some(result) => parse_game_result(result),
        None => {
            Err("not a CodinGame replay: no frames (viewer form) or gameResult.frames".to_string())
        }
    }
}
