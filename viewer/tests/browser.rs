//! The viewer page in a real browser (headless Chromium): loaded with `#turn=K`, it must show
//! `Turn K / N` and draw every pod centre within 1 px of the replay's position converted with the
//! page's scale, without a script error — for the sample replay, a replay with hostile messages,
//! and a CodinGame-style replay with one pod per player and no optional fields. The stderr panel
//! under the slider shows both players' stderr of the shown turn, as text, and follows the turn.
//! Also checks that a screenshot can be taken. Fails (does not skip) when Chromium is missing.

mod support;

use serde_json::{json, Value};
use support::chromium::{self, Scratch};

const SAMPLE: &str = include_str!("fixtures/sample-replay.json");

fn sample() -> Value {
    serde_json::from_str(SAMPLE).expect("the fixture is JSON")
}

/// What the page reports after loading `page#fragment`.
struct Shown {
    /// The visible `#turn` element's text.
    counter: String,
    probe: Value,
    dom: String,
}

fn load(page: &std::path::Path, fragment: &str, scratch: &Scratch) -> Shown {
    let dom = chromium::dump_dom(page, fragment, scratch);
    let counter = chromium::element_text(&dom, r#"<span id="turn">"#)
        .unwrap_or_else(|| panic!("no turn counter in the DOM:\n{dom}"));
    let probe = chromium::element_text(&dom, r#"<pre id="probe">"#)
        .unwrap_or_else(|| panic!("no probe in the DOM:\n{dom}"));
    let probe: Value =
        serde_json::from_str(&probe).unwrap_or_else(|e| panic!("probe {probe:?}: {e}"));
    assert_eq!(probe["errors"], json!([]), "script errors on #{fragment}");
    let number = |value: &Value| value.as_f64().expect("a number");
    assert_eq!(
        (number(&probe["scale"]), number(&probe["margin"])),
        (viewer::SCALE, viewer::MARGIN_PX),
        "page and crate agree on the map-to-canvas conversion"
    );
    let width = viewer::MAP_WIDTH * viewer::SCALE + 2.0 * viewer::MARGIN_PX;
    let height = viewer::MAP_HEIGHT * viewer::SCALE + 2.0 * viewer::MARGIN_PX;
    assert_eq!(
        (
            number(&probe["canvas"]["width"]),
            number(&probe["canvas"]["height"])
        ),
        (width, height),
        "canvas size"
    );
    Shown {
        counter,
        probe,
        dom,
    }
}

/// Checks that the page showed turn `turn` of `replay`: counter text, reported turn, and the
/// drawn centre of every pod within 1 px of the replay's position in canvas pixels.
fn check_turn(replay: &Value, turn: usize, counter: &str, reported: &Value, drawn: &Value) {
    let last = replay["turns"].as_array().unwrap().len();
    assert_eq!(counter, format!("Turn {turn} / {last}"));
    assert_eq!(reported, &json!(turn));
    let pods = pods_at(replay, turn);
    let drawn = drawn.as_array().expect("drawn pod centres");
    assert_eq!(drawn.len(), pods.len(), "one drawn centre per pod");
    for (index, (pod, centre)) in pods.iter().zip(drawn).enumerate() {
        let expect_x = viewer::MARGIN_PX + pod["x"].as_f64().unwrap() * viewer::SCALE;
        let expect_y = viewer::MARGIN_PX + pod["y"].as_f64().unwrap() * viewer::SCALE;
        let (x, y) = (centre["x"].as_f64().unwrap(), centre["y"].as_f64().unwrap());
        assert!(
            (x - expect_x).abs() <= 1.0 && (y - expect_y).abs() <= 1.0,
            "turn {turn}, pod {index}: drawn at ({x}, {y}), replay says ({expect_x}, {expect_y})"
        );
    }
}

/// Checks a page loaded with `#turn=K` (showing turn `expected`).
fn check_loaded_turn(replay: &Value, shown: &Shown, expected: usize) {
    let probe = &shown.probe;
    check_turn(
        replay,
        expected,
        &shown.counter,
        &probe["turn"],
        &probe["pods"],
    );
}

/// Checks a page loaded with `#probe=K1,K2,…`: each integral visit shows its (clamped) turn
/// exactly; a fractional one shows the turn below it and every pod on the straight line between
/// its two states, at the fraction's point.
fn check_visits(replay: &Value, shown: &Shown, requested: &[f64]) {
    let last = replay["turns"].as_array().unwrap().len();
    let visits = shown.probe["visits"].as_array().expect("visits");
    assert_eq!(
        visits.len(),
        requested.len(),
        "one visit per requested turn"
    );
    for (visit, &time) in visits.iter().zip(requested) {
        let counter = visit["counter"].as_str().expect("counter text");
        let turn = (time.floor() as usize).min(last);
        if time.fract() == 0.0 {
            check_turn(replay, turn, counter, &visit["turn"], &visit["pods"]);
            continue;
        }
        assert_eq!(counter, format!("Turn {turn} / {last}"));
        let (before, after) = (pods_at(replay, turn), pods_at(replay, turn + 1));
        let drawn = visit["pods"].as_array().expect("drawn pod centres");
        for (index, centre) in drawn.iter().enumerate() {
            let between = |field: &str| {
                let (a, b) = (
                    before[index][field].as_f64().unwrap(),
                    after[index][field].as_f64().unwrap(),
                );
                viewer::MARGIN_PX + (a + (b - a) * time.fract()) * viewer::SCALE
            };
            let (x, y) = (centre["x"].as_f64().unwrap(), centre["y"].as_f64().unwrap());
            assert!(
                (x - between("x")).abs() <= 1.0 && (y - between("y")).abs() <= 1.0,
                "time {time}, pod {index}: drawn at ({x}, {y}), expected ({}, {})",
                between("x"),
                between("y")
            );
        }
    }
    let final_time = *requested.last().unwrap();
    assert_eq!(final_time.fract(), 0.0, "end a probe on a whole turn");
    check_loaded_turn(replay, shown, (final_time as usize).min(last));
}

/// The pods of `replay` after turn `turn` (0 = the spawns).
fn pods_at(replay: &Value, turn: usize) -> &Vec<Value> {
    let pods = if turn == 0 {
        &replay["initial_pods"]
    } else {
        &replay["turns"][turn - 1]["pods"]
    };
    pods.as_array().expect("pods")
}

fn probe_fragment(times: &[f64]) -> String {
    let list: Vec<String> = times.iter().map(f64::to_string).collect();
    format!("probe={}", list.join(","))
}

#[test]
fn sample_pods_are_drawn_where_the_replay_puts_them() {
    let replay = sample();
    let last = replay["turns"].as_array().unwrap().len();
    let scratch = Scratch::new("sample");
    let page = scratch.page(&viewer::render_html(SAMPLE).unwrap());
    let visits = [0.0, 1.0, 17.0, 25.0, last as f64, 9999.0, 12.5, 30.25, 3.0];
    let (loaded, probed) = std::thread::scope(|scope| {
        let loaded = scope.spawn(|| load(&page, "turn=25", &scratch));
        let probed = load(&page, &probe_fragment(&visits), &scratch);
        (loaded.join().expect("the #turn load"), probed)
    });
    check_loaded_turn(&replay, &loaded, 25);
    check_visits(&replay, &probed, &visits);
}

#[test]
fn hostile_messages_stay_text() {
    let mut replay = sample();
    let hostile = r#"</script><b id="pwned">x</b><script>throw 1</script>"#;
    replay["turns"][9]["pods"][2]["message"] = json!(hostile);
    replay["turns"][9]["outputs"][1][0] = json!(format!("1 2 100 {hostile}"));
    replay["players"][0]["name"] = json!("<i id=\"pwned\">name</i>");
    let scratch = Scratch::new("hostile");
    let page = scratch.page(&viewer::render_html(&replay.to_string()).unwrap());
    let shown = load(&page, "turn=10", &scratch);
    check_loaded_turn(&replay, &shown, 10);
    for markup in [r#"<b id="pwned">"#, r#"<i id="pwned">"#] {
        assert!(!shown.dom.contains(markup), "bot text became markup");
    }
    assert!(
        shown.dom.contains("&lt;/script&gt;&lt;b id=\"pwned\"&gt;"),
        "the line is shown as text"
    );
}

/// The sample reduced to what a CodinGame import may hold: one pod per player, no outputs,
/// messages, thrusts, timeouts or collisions.
fn codingame_style() -> Value {
    let mut replay = sample();
    replay["source"] = json!("codingame");
    replay["pods_per_player"] = json!(1);
    let keep = |pods: &Value| {
        let mut kept = json!([pods[0], pods[2]]);
        for pod in kept.as_array_mut().unwrap() {
            let pod = pod.as_object_mut().unwrap();
            for field in [
                "message",
                "thrust",
                "boost_used",
                "next_checkpoint",
                "shield",
            ] {
                pod.remove(field);
            }
        }
        kept
    };
    replay["initial_pods"] = keep(&replay["initial_pods"]);
    for turn in replay["turns"].as_array_mut().unwrap() {
        turn["pods"] = keep(&turn["pods"]);
        let turn = turn.as_object_mut().unwrap();
        for field in ["outputs", "response_ms", "checkpoint_timeout", "collisions"] {
            turn.remove(field);
        }
    }
    replay
}

#[test]
fn codingame_style_replay_with_one_pod_per_player_is_drawn() {
    let replay = codingame_style();
    let last = replay["turns"].as_array().unwrap().len();
    let scratch = Scratch::new("codingame");
    let page = scratch.page(&viewer::render_html(&replay.to_string()).unwrap());
    let visits = [0.0, 1.0, 30.0, 30.5, last as f64];
    let shown = load(&page, &probe_fragment(&visits), &scratch);
    check_visits(&replay, &shown, &visits);
}

#[test]
fn screenshot_is_a_1280_by_800_png() {
    let scratch = Scratch::new("screenshot");
    let page = scratch.page(&viewer::render_html(SAMPLE).unwrap());
    let png = scratch.dir.join("viewer.png");
    chromium::screenshot(&page, "turn=17", &png, &scratch);
    let bytes = std::fs::read(&png).expect("a screenshot was written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (1280, 800));
}

/// The sample with a per-turn `stderr` pair (arena/REPLAY_FORMAT.md): turn k's text names the
/// player and the turn; player 1 says nothing on odd turns; turn 9 holds markup.
fn with_turn_stderr() -> Value {
    let mut replay = sample();
    for (index, turn) in replay["turns"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let k = index + 1;
        let second = if k % 2 == 1 {
            String::new()
        } else {
            format!("p1 turn {k}\nroot: visits 1200\n")
        };
        turn["stderr"] = json!([format!("p0 turn {k}: iterations=300\n"), second]);
    }
    replay["turns"][8]["stderr"][0] = json!("<b id=\"pwned\">x</b></pre><script>throw 2</script>");
    replay
}

/// What the panel shows for turn `k` of [`with_turn_stderr`].
fn expected_panel(replay: &Value, k: usize) -> Value {
    if k == 0 {
        return json!(["(before turn 1)", "(before turn 1)"]);
    }
    let pair = &replay["turns"][k - 1]["stderr"];
    let shown = |text: &Value| {
        let text = text.as_str().unwrap();
        if text.is_empty() {
            "(nothing on stderr this turn)".to_string()
        } else {
            text.to_string()
        }
    };
    json!([shown(&pair[0]), shown(&pair[1])])
}

#[test]
fn stderr_panel_follows_the_turn() {
    let replay = with_turn_stderr();
    let last = replay["turns"].as_array().unwrap().len();
    let scratch = Scratch::new("stderr");
    let page = scratch.page(&viewer::render_html(&replay.to_string()).unwrap());
    let visits = [0.0, 1.0, 2.0, 9.0, 9.5, last as f64, 4.0];
    let shown = load(&page, &probe_fragment(&visits), &scratch);
    check_visits(&replay, &shown, &visits);
    for (visit, time) in shown.probe["visits"].as_array().unwrap().iter().zip(visits) {
        let k = time.floor() as usize;
        assert_eq!(visit["stderr"], expected_panel(&replay, k), "visit {time}");
    }
    assert_eq!(shown.probe["stderr"], expected_panel(&replay, 4));
    // The panel itself, in the DOM, as text.
    let panel = chromium::element_text(&shown.dom, r#"<pre id="stderr-1" class="">"#)
        .expect("player 1's stderr panel");
    assert_eq!(panel, "p1 turn 4\nroot: visits 1200\n");
    let loaded = load(&page, "turn=9", &scratch);
    let panel = chromium::element_text(&loaded.dom, r#"<pre id="stderr-0" class="">"#)
        .expect("player 0's stderr panel");
    assert!(panel.starts_with("<b id=\"pwned\">"), "{panel}");
    assert!(
        !loaded.dom.contains(r#"<b id="pwned">"#),
        "stderr became markup"
    );
    let name = replay["players"][0]["name"].as_str().unwrap();
    let title = format!("{name} \u{2014} stderr, turn 9");
    assert!(
        loaded.dom.contains(&title),
        "the panel names the player and the turn"
    );
}

#[test]
fn replays_without_stderr_say_so_in_the_panel() {
    let scratch = Scratch::new("no-stderr");
    let page = scratch.page(&viewer::render_html(SAMPLE).unwrap());
    let shown = load(&page, "turn=12", &scratch);
    assert_eq!(
        shown.probe["stderr"],
        json!(["(no stderr in this replay)", "(no stderr in this replay)"])
    );
}
