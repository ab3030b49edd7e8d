//! Tests of `render_html` without a browser: a valid replay becomes a page that embeds it intact,
//! hostile text cannot break out of the embedding, and bad input gets a clear error.

use serde_json::{json, Value};

const SAMPLE: &str = include_str!("fixtures/sample-replay.json");
const DATA_OPEN: &str = r#"<script id="replay-data" type="application/json">"#;

fn sample() -> Value {
    serde_json::from_str(SAMPLE).expect("the fixture is JSON")
}

/// The JSON text embedded in a rendered page.
fn embedded(html: &str) -> &str {
    let start = html.find(DATA_OPEN).expect("the page has the data element") + DATA_OPEN.len();
    let length = html[start..]
        .find("</script>")
        .expect("the data element is closed");
    &html[start..start + length]
}

/// Spoils one field of a replay.
type Breakage = fn(&mut Value);

fn render(replay: &Value) -> Result<String, String> {
    viewer::render_html(&replay.to_string())
}

fn error_of(replay: &Value) -> String {
    render(replay).expect_err("the replay is rejected")
}

#[test]
fn sample_renders_to_one_page_with_the_replay_embedded() {
    let html = viewer::render_html(SAMPLE).expect("the sample renders");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains(viewer::PLACEHOLDER));
    for part in [
        r#"<canvas id="map""#,
        r#"<canvas id="graph""#,
        r#"id="turn""#,
        r#"id="slider""#,
        r#"id="probe""#,
    ] {
        assert!(html.contains(part), "the page has {part}");
    }
    assert!(html.contains("window.viewer"));
    let data: Value = serde_json::from_str(embedded(&html)).expect("the embedded data is JSON");
    assert_eq!(data, sample(), "the embedded replay equals the input");
    assert!(embedded(&html).contains("aim-boost"));
}

#[test]
fn page_needs_no_network() {
    let html = viewer::render_html(SAMPLE).unwrap();
    for remote in ["http://", "https://", "//cdn", "<link", " src="] {
        assert!(!html.contains(remote), "the page refers to {remote}");
    }
}

#[test]
fn script_end_tags_in_messages_are_escaped() {
    let mut replay = sample();
    let hostile = r#"</script><script>alert("x")</script><!--"#;
    replay["turns"][0]["pods"][0]["message"] = json!(hostile);
    replay["turns"][0]["outputs"][0][0] = json!(format!("1 2 100 {hostile}"));
    replay["players"][1]["name"] = json!("</SCRIPT >&amp;");
    let html = render(&replay).expect("renders");
    let data = embedded(&html);
    assert!(
        !data.contains('<') && !data.contains('>'),
        "no raw angle brackets in the data"
    );
    assert!(data.contains(r"\u003c/script\u003e"));
    let template_end_tags = html.matches("</script>").count();
    let sample_end_tags = viewer::render_html(SAMPLE)
        .unwrap()
        .matches("</script>")
        .count();
    assert_eq!(
        template_end_tags, sample_end_tags,
        "no extra </script> in the page"
    );
    let back: Value = serde_json::from_str(data).expect("still JSON");
    assert_eq!(back, replay, "escaping keeps the value");
}

#[test]
fn line_separators_are_escaped_for_old_javascript() {
    let mut replay = sample();
    replay["turns"][0]["pods"][1]["message"] = json!("a\u{2028}b\u{2029}c");
    let html = render(&replay).unwrap();
    assert!(embedded(&html).contains(r"a\u2028b\u2029c"));
}

#[test]
fn invalid_json_is_reported() {
    let error = viewer::render_html("{\"format\": ").unwrap_err();
    assert!(
        error.starts_with("invalid replay: not valid JSON"),
        "{error}"
    );
}

#[test]
fn wrong_format_is_reported() {
    let mut replay = sample();
    replay["format"] = json!("cg-replay");
    let error = error_of(&replay);
    assert!(
        error.contains("format is \"cg-replay\", expected \"csb-replay\""),
        "{error}"
    );
    replay.as_object_mut().unwrap().remove("format");
    assert!(error_of(&replay).contains("missing field \"format\""));
    assert!(viewer::render_html("[1, 2]")
        .unwrap_err()
        .contains("expected a JSON object"));
}

#[test]
fn newer_or_odd_versions_are_reported() {
    let mut replay = sample();
    replay["version"] = json!(2);
    let error = error_of(&replay);
    assert!(
        error.contains("version 2 is newer than this viewer knows (up to 1)"),
        "{error}"
    );
    replay["version"] = json!("1");
    assert!(error_of(&replay).contains("not a positive integer"));
    replay["version"] = json!(0);
    assert!(error_of(&replay).contains("not a positive integer"));
    replay.as_object_mut().unwrap().remove("version");
    assert!(error_of(&replay).contains("missing field \"version\""));
}

#[test]
fn missing_or_malformed_fields_are_named() {
    let cases: Vec<(Breakage, &str)> = vec![
        (
            |r| {
                r.as_object_mut().unwrap().remove("turns");
            },
            "missing field \"turns\"",
        ),
        (
            |r| {
                r.as_object_mut().unwrap().remove("result");
            },
            "missing field \"result\"",
        ),
        (
            |r| r["checkpoints"] = json!([[1, 2]]),
            "expected at least 2 checkpoints",
        ),
        (
            |r| r["checkpoints"][1] = json!([1, "2"]),
            "checkpoints[1]: expected [x, y] numbers",
        ),
        (
            |r| {
                r["turns"][0]["pods"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("x");
            },
            "turns[0].pods[1]: missing number field \"x\"",
        ),
        (
            |r| r["turns"][3]["pods"] = json!([]),
            "turns[3].pods: expected 4 pods like initial_pods, found 0",
        ),
        (
            |r| r["initial_pods"][2]["angle"] = json!("east"),
            "initial_pods[2].angle: expected a number",
        ),
        (
            |r| r["turns"][5]["outputs"][1] = json!([1]),
            "turns[5].outputs[1]: expected strings",
        ),
        (
            |r| r["turns"][2]["stderr"] = json!(["ok", 7]),
            "turns[2].stderr: expected strings or null",
        ),
        (|r| r["players"] = json!([{}]), "expected 2 players"),
        (
            |r| r["result"]["winner"] = json!(2),
            "result.winner is 2, expected 0, 1 or null",
        ),
        (
            |r| r["pods_per_player"] = json!(1),
            "pods_per_player is 1 but initial_pods holds 4 pods",
        ),
    ];
    for (break_it, expected) in cases {
        let mut replay = sample();
        break_it(&mut replay);
        let error = error_of(&replay);
        assert!(error.starts_with("invalid replay: "), "{error}");
        assert!(
            error.contains(expected),
            "{error:?} should say {expected:?}"
        );
    }
}

#[test]
fn optional_fields_may_be_missing_as_in_codingame_imports() {
    let mut replay = sample();
    replay["source"] = json!("codingame");
    replay.as_object_mut().unwrap().remove("stderr");
    for turn in replay["turns"].as_array_mut().unwrap() {
        let turn = turn.as_object_mut().unwrap();
        for field in ["outputs", "response_ms", "checkpoint_timeout", "collisions"] {
            turn.remove(field);
        }
        for pod in turn["pods"].as_array_mut().unwrap() {
            let pod = pod.as_object_mut().unwrap();
            for field in [
                "message",
                "thrust",
                "boost_used",
                "target",
                "next_checkpoint",
            ] {
                pod.remove(field);
            }
        }
    }
    replay["turns"][0]["pods"][0]["angle"] = Value::Null;
    let html = render(&replay).expect("a lenient replay renders");
    assert!(embedded(&html).contains("codingame"));
}

#[test]
fn one_pod_per_player_and_no_turns_render() {
    let mut replay = sample();
    replay["pods_per_player"] = json!(1);
    let keep = |pods: &Value| json!([pods[0], pods[2]]);
    replay["initial_pods"] = keep(&replay["initial_pods"]);
    for turn in replay["turns"].as_array_mut().unwrap() {
        turn["pods"] = keep(&turn["pods"]);
        turn["collisions"] = json!([]);
    }
    render(&replay).expect("a 1-pod-per-player replay renders");
    replay["turns"] = json!([]);
    render(&replay).expect("a replay without turns renders");
}
