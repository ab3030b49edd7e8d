//! Checking that a JSON value is a replay the viewer can draw (`arena/REPLAY_FORMAT.md`): the
//! format tag and version, then the fields the page needs, with an error naming the first field
//! that is missing or of the wrong type. Fields the page can do without (a pod's `message` or
//! `thrust`, a turn's `outputs`, … — CodinGame imports may lack them) are checked only when present.

use serde_json::{Map, Value};

/// The `format` tag of a replay file.
pub const FORMAT: &str = "csb-replay";
/// The newest replay format version this viewer knows.
pub const MAX_VERSION: u64 = 1;

type Object = Map<String, Value>;

/// `Ok` if `replay` is a replay of a known format version with every field the viewer needs;
/// otherwise a message starting with `invalid replay:` that names the offending field.
pub fn validate_replay(replay: &Value) -> Result<(), String> {
    check(replay).map_err(|message| format!("invalid replay: {message}"))
}

fn check(replay: &Value) -> Result<(), String> {
    let root = replay
        .as_object()
        .ok_or("expected a JSON object at the top level")?;
    match root.get("format") {
        None => return Err(format!("missing field \"format\" (expected \"{FORMAT}\")")),
        Some(Value::String(format)) if format == FORMAT => {}
        Some(other) => {
            return Err(format!(
                "format is {other}, expected \"{FORMAT}\" (not a csb replay)"
            ))
        }
    }
    match root.get("version") {
        None => return Err("missing field \"version\"".to_string()),
        Some(version) => match version.as_u64() {
            Some(0) | None => {
                return Err(format!("version {version} is not a positive integer"));
            }
            Some(number) if number > MAX_VERSION => {
                return Err(format!(
                    "version {number} is newer than this viewer knows (up to {MAX_VERSION}); \
                     update the viewer"
                ));
            }
            Some(_) => {}
        },
    }
    check_checkpoints(root)?;
    let players = array(root, "players", "")?;
    if players.len() != 2 {
        return Err(format!(
            "players: expected 2 players, found {}",
            players.len()
        ));
    }
    for (index, player) in players.iter().enumerate() {
        let path = format!("players[{index}]");
        let player = player
            .as_object()
            .ok_or_else(|| format!("{path}: expected an object"))?;
        optional_string(player, "name", &path)?;
    }
    let initial = array(root, "initial_pods", "")?;
    let pod_count = initial.len();
    if pod_count != 2 && pod_count != 4 {
        return Err(format!(
            "initial_pods: expected 2 or 4 pods, found {pod_count}"
        ));
    }
    if let Some(per_player) = root.get("pods_per_player") {
        if per_player.as_u64() != Some(pod_count as u64 / 2) {
            return Err(format!(
                "pods_per_player is {per_player} but initial_pods holds {pod_count} pods"
            ));
        }
    }
    if let Some(laps) = root.get("laps") {
        if !matches!(laps.as_u64(), Some(count) if count > 0) {
            return Err(format!("laps is {laps}, expected a positive integer"));
        }
    }
    check_pods(initial, pod_count, "initial_pods")?;
    let turns = array(root, "turns", "")?;
    for (index, turn) in turns.iter().enumerate() {
        check_turn(turn, index, pod_count)?;
    }
    check_result(root)
}

fn check_checkpoints(root: &Object) -> Result<(), String> {
    let checkpoints = array(root, "checkpoints", "")?;
    if checkpoints.len() < 2 {
        return Err(format!(
            "checkpoints: expected at least 2 checkpoints, found {}",
            checkpoints.len()
        ));
    }
    for (index, point) in checkpoints.iter().enumerate() {
        check_point(point, &format!("checkpoints[{index}]"))?;
    }
    Ok(())
}

fn check_turn(turn: &Value, index: usize, pod_count: usize) -> Result<(), String> {
    let path = format!("turns[{index}]");
    let turn = turn
        .as_object()
        .ok_or_else(|| format!("{path}: expected an object"))?;
    let pods = array(turn, "pods", &path)?;
    check_pods(pods, pod_count, &format!("{path}.pods"))?;
    if let Some(outputs) = turn.get("outputs") {
        let outputs = outputs
            .as_array()
            .ok_or_else(|| format!("{path}.outputs: expected an array"))?;
        for (player, lines) in outputs.iter().enumerate() {
            let lines_path = format!("{path}.outputs[{player}]");
            let lines = lines
                .as_array()
                .ok_or_else(|| format!("{lines_path}: expected an array of lines"))?;
            if lines.iter().any(|line| !line.is_string()) {
                return Err(format!("{lines_path}: expected strings"));
            }
        }
    }
    if let Some(collisions) = turn.get("collisions") {
        let collisions = collisions
            .as_array()
            .ok_or_else(|| format!("{path}.collisions: expected an array"))?;
        for (number, collision) in collisions.iter().enumerate() {
            let collision_path = format!("{path}.collisions[{number}]");
            let collision = collision
                .as_object()
                .ok_or_else(|| format!("{collision_path}: expected an object"))?;
            for field in ["time", "a", "b", "ax", "ay", "bx", "by", "impulse"] {
                optional_number(collision, field, &collision_path)?;
            }
        }
    }
    if let Some(stderr) = turn.get("stderr") {
        let texts = stderr
            .as_array()
            .ok_or_else(|| format!("{path}.stderr: expected an array"))?;
        if texts
            .iter()
            .any(|text| !text.is_string() && !text.is_null())
        {
            return Err(format!("{path}.stderr: expected strings or null"));
        }
    }
    for field in ["checkpoint_timeout", "response_ms"] {
        if let Some(values) = turn.get(field) {
            let values = values
                .as_array()
                .ok_or_else(|| format!("{path}.{field}: expected an array"))?;
            if values
                .iter()
                .any(|value| !value.is_number() && !value.is_null())
            {
                return Err(format!("{path}.{field}: expected numbers or null"));
            }
        }
    }
    Ok(())
}

fn check_pods(pods: &[Value], pod_count: usize, path: &str) -> Result<(), String> {
    if pods.len() != pod_count {
        return Err(format!(
            "{path}: expected {pod_count} pods like initial_pods, found {}",
            pods.len()
        ));
    }
    for (index, pod) in pods.iter().enumerate() {
        let pod_path = format!("{path}[{index}]");
        let pod = pod
            .as_object()
            .ok_or_else(|| format!("{pod_path}: expected an object"))?;
        for field in ["x", "y"] {
            if !pod.get(field).is_some_and(Value::is_number) {
                return Err(format!("{pod_path}: missing number field \"{field}\""));
            }
        }
        for field in ["vx", "vy", "angle", "next_checkpoint", "passes", "thrust"] {
            optional_number(pod, field, &pod_path)?;
        }
        optional_string(pod, "message", &pod_path)?;
        for field in ["shield", "boost_used"] {
            if pod
                .get(field)
                .is_some_and(|value| !value.is_boolean() && !value.is_null())
            {
                return Err(format!("{pod_path}.{field}: expected true or false"));
            }
        }
        match pod.get("target") {
            None | Some(Value::Null) => {}
            Some(target) => check_point(target, &format!("{pod_path}.target"))?,
        }
    }
    Ok(())
}

fn check_result(root: &Object) -> Result<(), String> {
    let result = root
        .get("result")
        .ok_or("missing field \"result\"")?
        .as_object()
        .ok_or("result: expected an object")?;
    match result.get("winner") {
        None | Some(Value::Null) => {}
        Some(winner) if winner.as_u64().is_some_and(|winner| winner < 2) => {}
        Some(winner) => return Err(format!("result.winner is {winner}, expected 0, 1 or null")),
    }
    optional_string(result, "reason", "result")?;
    optional_number(result, "turns", "result")?;
    if let Some(eliminations) = result.get("eliminations") {
        let eliminations = eliminations
            .as_array()
            .ok_or("result.eliminations: expected an array")?;
        for (index, elimination) in eliminations.iter().enumerate() {
            let path = format!("result.eliminations[{index}]");
            let elimination = elimination
                .as_object()
                .ok_or_else(|| format!("{path}: expected an object"))?;
            if !matches!(
                elimination.get("player").and_then(Value::as_u64),
                Some(0 | 1)
            ) {
                return Err(format!("{path}: \"player\" must be 0 or 1"));
            }
            optional_number(elimination, "turn", &path)?;
            optional_string(elimination, "cause", &path)?;
            optional_string(elimination, "detail", &path)?;
        }
    }
    Ok(())
}

/// An `[x, y]` pair of numbers.
fn check_point(point: &Value, path: &str) -> Result<(), String> {
    match point.as_array() {
        Some(pair) if pair.len() == 2 && pair.iter().all(Value::is_number) => Ok(()),
        _ => Err(format!("{path}: expected [x, y] numbers, found {point}")),
    }
}

fn array<'a>(object: &'a Object, field: &str, path: &str) -> Result<&'a [Value], String> {
    let full = if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    };
    match object.get(field) {
        None => Err(format!("missing field \"{full}\"")),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(format!("{full}: expected an array")),
    }
}

/// A field that may be absent or null, and otherwise must be a number.
fn optional_number(object: &Object, field: &str, path: &str) -> Result<(), String> {
    match object.get(field) {
        None | Some(Value::Null) | Some(Value::Number(_)) => Ok(()),
        Some(other) => Err(format!("{path}.{field}: expected a number, found {other}")),
    }
}

/// A field that may be absent or null, and otherwise must be a string.
fn optional_string(object: &Object, field: &str, path: &str) -> Result<(), String> {
    match object.get(field) {
        None | Some(Value::Null) | Some(Value::String(_)) => Ok(()),
        Some(other) => Err(format!("{path}.{field}: expected a string, found {other}")),
    }
}
