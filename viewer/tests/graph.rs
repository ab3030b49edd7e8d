//! The race graph under the slider, in a real browser (headless Chromium): the lead of the
//! leading pods filled toward the side that leads, each bot's `value=` from its stderr as a
//! line in its colour (player 1's as 1 − value), the shown turn marked; a click or a drag on it
//! goes to the turn under the pointer and the keys still step from there. A replay without
//! `value=` draws the lead alone, and a malformed `value=` draws no point for its turn; neither
//! raises a script error. Pixels are read back from screenshots at the plot's place on the page.

mod support;

use serde_json::{json, Value};
use support::chromium::{self, Scratch};
use support::pixels::{blend, hex, Area, Picture};

const SAMPLE: &str = include_str!("fixtures/sample-replay.json");

/// The page's colours: each player's, and the plot's background.
const PLAYER_COLOURS: [&str; 2] = ["#ffb52e", "#45b0ff"];
const PLOT_BACKGROUND: &str = "#0f1520";
/// Opacity of the lead's fill.
const LEAD_FILL_ALPHA: f64 = 0.35;
/// Channel difference still counted as the same colour (antialiasing, colour management).
const TOLERANCE: u8 = 12;

fn sample() -> Value {
    serde_json::from_str(SAMPLE).expect("the fixture is JSON")
}

fn last_turn(replay: &Value) -> usize {
    replay["turns"].as_array().unwrap().len()
}

/// Loads `page#fragment` and returns the probe, checking that no script error happened.
fn probe(page: &std::path::Path, fragment: &str, scratch: &Scratch) -> Value {
    let dom = chromium::dump_dom(page, fragment, scratch);
    let text = chromium::element_text(&dom, r#"<pre id="probe">"#)
        .unwrap_or_else(|| panic!("no probe in the DOM:\n{dom}"));
    let probe: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("probe {text:?}: {e}"));
    assert_eq!(probe["errors"], json!([]), "script errors on #{fragment}");
    probe
}

/// A screenshot of `page#fragment`, decoded.
fn picture(page: &std::path::Path, fragment: &str, scratch: &Scratch) -> Picture {
    let png = scratch.dir.join(format!("shot-{}.png", fragment.len()));
    chromium::screenshot(page, fragment, &png, scratch);
    let picture = Picture::load(&png);
    assert_eq!((picture.width, picture.height), (1280, 800));
    picture
}

/// The value player `player` prints at turn `k` in [`with_values`].
fn value_at(player: usize, k: usize) -> f64 {
    let wave = ((k * (3 + 2 * player)) % 11) as f64 / 10.0;
    ((0.2 + 0.6 * wave) * 1000.0).round() / 1000.0
}

/// The sample with csb-like diagnostic lines on both players' stderr, each with a `value=`.
fn with_values() -> Value {
    let mut replay = sample();
    for (index, turn) in replay["turns"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let k = index + 1;
        let line = |player: usize| {
            format!(
                "turn {k}: iterations=300 simulated_turns=3000 nodes=900 ms=2.0 value={:.3}\n",
                value_at(player, k)
            )
        };
        turn["stderr"] = json!([line(0), format!("{}pod 0: *1:20/0.5\n", line(1))]);
    }
    replay
}

/// The sample with the two players' pods exchanged: player 1 leads the whole race.
fn mirrored() -> Value {
    let mut replay = sample();
    let swap = |pods: &mut Value| {
        let list = pods.as_array_mut().unwrap();
        list.rotate_left(2);
    };
    swap(&mut replay["initial_pods"]);
    for turn in replay["turns"].as_array_mut().unwrap() {
        swap(&mut turn["pods"]);
    }
    replay
}

fn render(scratch: &Scratch, replay: &Value) -> std::path::PathBuf {
    scratch.page(&viewer::render_html(&replay.to_string()).unwrap())
}

#[test]
fn the_graph_draws_the_lead_both_values_and_the_shown_turn() {
    let replay = with_values();
    let last = last_turn(&replay);
    let scratch = Scratch::new("graph-values");
    let page = render(&scratch, &replay);
    let (probe, shot) = std::thread::scope(|scope| {
        let probe = scope.spawn(|| probe(&page, "turn=20", &scratch));
        let shot = picture(&page, "turn=20", &scratch);
        (probe.join().expect("the probe load"), shot)
    });
    let graph = &probe["graph"];
    // What it read: every turn's value, as printed; the lead on every turn.
    let every_turn: Vec<usize> = (1..=last).collect();
    for player in 0..2 {
        let values = graph["values"][player].as_array().unwrap();
        assert_eq!(values.len(), last + 1);
        assert_eq!(values[0], Value::Null, "nothing before turn 1");
        for (k, value) in values.iter().enumerate().skip(1) {
            assert_eq!(
                value.as_f64(),
                Some(value_at(player, k)),
                "player {player}, turn {k}"
            );
        }
        assert_eq!(graph["curve_turns"][player], json!(every_turn));
    }
    let lead = graph["lead"].as_array().unwrap();
    assert_eq!(lead.len(), last + 1);
    assert!(lead.iter().all(Value::is_number), "a lead on every turn");
    assert!(
        lead.iter().skip(1).all(|l| l.as_f64().unwrap() > 0.0),
        "player 0 leads the sample"
    );
    // What it drew: both players' lines and player 0's lead in the plot.
    let plot = Area::of(&graph["plot"]);
    assert!(plot.width > 600.0 && plot.height > 50.0, "{plot:?}");
    for (player, colour) in PLAYER_COLOURS.iter().enumerate() {
        let pixels = shot.count_near(plot, hex(colour), TOLERANCE);
        assert!(
            pixels > 100,
            "player {player}'s value line: {pixels} pixels of {colour}"
        );
    }
    let fill = blend(
        hex(PLAYER_COLOURS[0]),
        LEAD_FILL_ALPHA,
        hex(PLOT_BACKGROUND),
    );
    let fill_pixels = shot.count_near(plot, fill, 4);
    assert!(
        fill_pixels > 1000,
        "player 0's lead: {fill_pixels} pixels of {fill:?}"
    );
    // The shown turn: a white line down the plot at turn 20's place.
    let cursor = graph["cursor_x"].as_f64().unwrap();
    let expected = plot.left + 20.0 / last as f64 * plot.width;
    assert!(
        (cursor - expected).abs() < 0.01,
        "cursor at {cursor}, turn 20 at {expected}"
    );
    let column = Area {
        left: cursor.round() - 1.0,
        top: plot.top,
        width: 3.0,
        height: plot.height,
    };
    let white = shot.count_near(column, [255, 255, 255], 40);
    assert!(
        white as f64 >= 0.9 * plot.height.floor(),
        "the cursor: {white} white pixels in its column"
    );
}

#[test]
fn a_replay_without_values_draws_the_lead_alone_in_the_leading_side_colour() {
    let scratch = Scratch::new("graph-no-values");
    for (name, replay, leader) in [("sample", sample(), 0), ("mirrored", mirrored(), 1)] {
        let last = last_turn(&replay);
        let page = render(&scratch, &replay);
        let probe = probe(&page, "turn=30", &scratch);
        let graph = &probe["graph"];
        let nothing = vec![Value::Null; last + 1];
        assert_eq!(graph["values"], json!([nothing, nothing]), "{name}");
        assert_eq!(graph["curve_turns"], json!([[], []]), "{name}");
        let lead = graph["lead"].as_array().unwrap();
        assert!(
            lead.iter().all(Value::is_number),
            "{name}: a lead on every turn"
        );
        let leads = |l: &Value| l.as_f64().unwrap() * if leader == 0 { 1.0 } else { -1.0 } > 0.0;
        assert!(
            lead[1..].iter().all(leads),
            "{name}: player {leader} leads after the spawns"
        );
        let shot = picture(&page, "turn=30", &scratch);
        let plot = Area::of(&graph["plot"]);
        let background = hex(PLOT_BACKGROUND);
        let mut filled = [0; 2];
        for (player, colour) in PLAYER_COLOURS.iter().enumerate() {
            let line = shot.count_near(plot, hex(colour), TOLERANCE);
            assert_eq!(line, 0, "{name}: no value line of player {player}");
            let fill = blend(hex(colour), LEAD_FILL_ALPHA, background);
            filled[player] = shot.count_near(plot, fill, 4);
        }
        assert!(
            filled[leader] > 1000,
            "{name}: the leader's fill, {filled:?} pixels"
        );
        // The other side's fill: at most the spawns' sliver (a pod of theirs a little nearer the
        // first checkpoint).
        assert!(
            filled[1 - leader] * 100 < filled[leader],
            "{name}: {filled:?} pixels of fill"
        );
    }
}

/// The turn a pointer at `fraction` of the graph's width points at, by the probe's geometry.
fn turn_under(graph: &Value, fraction: f64, last: usize) -> i64 {
    let rect = Area::of(&graph["rect"]);
    let plot = Area::of(&graph["plot"]);
    let x = rect.left + fraction * rect.width;
    (((x - plot.left) / plot.width * last as f64).round() as i64).clamp(0, last as i64)
}

#[test]
fn clicking_or_dragging_on_the_graph_goes_to_that_turn_and_the_keys_still_work() {
    let replay = sample();
    let last = last_turn(&replay);
    let scratch = Scratch::new("graph-pointer");
    let page = render(&scratch, &replay);
    let click = probe(
        &page,
        "turn=3&click=0.5&keys=ArrowRight,ArrowRight",
        &scratch,
    );
    let middle = click["turn"].as_i64().unwrap() - 2;
    assert!(
        (middle - last as i64 / 2).abs() <= 1,
        "a click on the middle went to turn {middle} of {last}"
    );
    let inputs = click["inputs"].as_array().unwrap();
    let turns: Vec<i64> = inputs.iter().map(|i| i["turn"].as_i64().unwrap()).collect();
    assert_eq!(
        turns,
        [middle, middle, middle + 1, middle + 2],
        "{inputs:?}"
    );
    let counter = format!("Turn {} / {last}", middle + 2);
    assert!(
        click.to_string().contains(&counter),
        "the counter says {counter}"
    );
    // A drag follows the pointer, and past the plot's end stops at the last turn.
    let fractions = [0.2, 0.35, 0.8, 0.999];
    let list: Vec<String> = fractions.iter().map(f64::to_string).collect();
    let drag = probe(&page, &format!("drag={}", list.join(",")), &scratch);
    let graph = &drag["graph"];
    let seen: Vec<i64> = drag["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["turn"].as_i64().unwrap())
        .collect();
    let mut expected: Vec<i64> = fractions
        .iter()
        .map(|&f| turn_under(graph, f, last))
        .collect();
    expected.push(*expected.last().unwrap()); // the release
    assert_eq!(seen, expected);
    assert_eq!(*seen.last().unwrap(), last as i64);
    assert!(seen[0] < seen[1] && seen[1] < seen[2], "{seen:?}");
}

#[test]
fn malformed_values_draw_no_point_and_raise_no_error() {
    let mut replay = sample();
    let last = last_turn(&replay);
    let malformed = [
        (10, "value=abc"),
        (11, "value=1.5"),
        (12, "value=-0.2"),
        (13, "value=NaN"),
        (14, "value="),
        (15, "value=0.5.1"),
        (16, "value=Infinity"),
        (17, "value=0x1"),
        (18, "novalue=0.4"),
        (19, "value=1e5"),
    ];
    for k in 1..=last {
        let field = match malformed.iter().find(|(turn, _)| *turn == k) {
            Some((_, field)) => field.to_string(),
            None => format!("value={:.3}", value_at(0, k)),
        };
        replay["turns"][k - 1]["stderr"] = json!([format!("turn {k}: ms=1.0 {field}\n"), null]);
    }
    // The first value= counts.
    replay["turns"][20]["stderr"][0] = json!("turn 21: value=0.25 value=0.75\n");
    let scratch = Scratch::new("graph-malformed");
    let page = render(&scratch, &replay);
    let graph = probe(&page, "turn=12", &scratch)["graph"].clone();
    let values = graph["values"][0].as_array().unwrap();
    assert_eq!(values.len(), last + 1);
    let drawn: Vec<usize> = (1..=last)
        .filter(|k| malformed.iter().all(|(turn, _)| turn != k))
        .collect();
    for (k, value) in values.iter().enumerate().skip(1) {
        let expected = if k == 21 {
            Some(0.25)
        } else if drawn.contains(&k) {
            Some(value_at(0, k))
        } else {
            None
        };
        assert_eq!(value.as_f64(), expected, "turn {k}");
        assert_eq!(value.is_null(), expected.is_none(), "turn {k}");
    }
    assert_eq!(graph["curve_turns"][0], json!(drawn));
    assert_eq!(graph["curve_turns"][1], json!([]), "null stderr: no line");
}

#[test]
fn a_replay_without_turns_draws_an_empty_graph_and_takes_clicks() {
    let mut replay = sample();
    replay["turns"] = json!([]);
    let scratch = Scratch::new("graph-no-turns");
    let page = render(&scratch, &replay);
    let probe = probe(&page, "click=0.7", &scratch);
    assert_eq!(probe["turn"], json!(0));
    assert_eq!(probe["graph"]["lead"].as_array().unwrap().len(), 1);
    assert_eq!(probe["graph"]["curve_turns"], json!([[], []]));
}
