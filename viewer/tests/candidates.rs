//! The candidate moves on the map, in a real browser (headless Chromium): from csb's
//! `candidates/1` lines (arena/REPLAY_FORMAT.md, "Candidate lines") the page draws, at turn k,
//! each pod's fan of the decision taken from there (the lines of turn k+1's record), one arrow
//! per action as wide as its share of the tree's visits, from the pod's rim; M hides it; a
//! replay without the lines draws no fan and no script error; a malformed line draws nothing for
//! its tree and is named on the console; the graph marks the turns where the value fell most and
//! the opponent surprised the search, and a click on a mark goes to its turn.
//!
//! The fixture is the first 60 turns of a real game, cut for size (its `result` is the whole
//! game's, 316 turns): `arena match --p1 "target/release/csb --iterations 1000 --verbose 1"
//! --p2 "target/release/csb --iterations 1000" --games 1 --time-scale 10 --seed 7`.

mod support;

use csb::bot::candidates::CandidateLine;
use serde_json::{json, Value};
use support::chromium::{self, Scratch};
use support::pixels::Picture;

const FIXTURE: &str = include_str!("fixtures/candidates-replay.json");
const SAMPLE: &str = include_str!("fixtures/sample-replay.json");
/// The page's arrow width for a share `s` of the visits: `1 + FAN_MAX_WIDTH × s`.
const FAN_MAX_WIDTH: f64 = 18.0;
/// Canvas pixels from a pod's centre to its rim, where every arrow starts.
const POD_RADIUS_PX: f64 = 40.0;

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("the fixture is JSON")
}

fn probe_of(dom: &str, fragment: &str) -> Value {
    let text = chromium::element_text(dom, r#"<pre id="probe">"#)
        .unwrap_or_else(|| panic!("no probe in the DOM:\n{dom}"));
    let probe: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("probe {text:?}: {e}"));
    assert_eq!(probe["errors"], json!([]), "script errors on #{fragment}");
    probe
}

fn probe(page: &std::path::Path, fragment: &str, scratch: &Scratch) -> Value {
    probe_of(&chromium::dump_dom(page, fragment, scratch), fragment)
}

/// Player `player`'s candidate lines in turn `turn`'s record (1-based), read by the crate.
fn lines_of(replay: &Value, turn: usize, player: usize) -> Vec<CandidateLine> {
    let text = replay["turns"][turn - 1]["stderr"][player]
        .as_str()
        .unwrap();
    text.lines()
        .filter(|line| line.starts_with("candidates/"))
        .map(|line| CandidateLine::parse(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// Checks the fans the page drew at turn `k` against the lines of turn k+1: one fan per tree,
/// ten arrows each, the widths of the visit shares, the priors' outlines, from the pod's rim.
fn check_fans(replay: &Value, k: usize, fans: &Value, pods: &Value) {
    let lines = lines_of(replay, k + 1, 0);
    let fans = fans.as_array().expect("fans");
    assert_eq!(fans.len(), lines.len(), "turn {k}: one fan per tree");
    for (fan, line) in fans.iter().zip(&lines) {
        assert_eq!(fan["pod"], json!(line.pod), "player 0's pods are 0 and 1");
        assert_eq!(fan["starred"], json!(line.starred));
        assert_eq!(fan["own"], json!(line.pod < 2));
        assert_eq!(fan["source_turn"], json!(k + 1));
        let total: u32 = line.candidates.iter().map(|c| c.visits).sum();
        let arrows = fan["arrows"].as_array().unwrap();
        assert_eq!(arrows.len(), line.candidates.len());
        let centre = &pods[usize::from(line.pod)];
        for (arrow, candidate) in arrows.iter().zip(&line.candidates) {
            let share = f64::from(candidate.visits) / f64::from(total);
            let width = 1.0 + FAN_MAX_WIDTH * share;
            assert!(
                (number(&arrow["width"]) - width).abs() < 1e-9,
                "turn {k} pod {}: {arrow} for {candidate:?}",
                line.pod
            );
            let prior = 1.0 + FAN_MAX_WIDTH * candidate.prior.unwrap();
            assert!((number(&arrow["prior_width"]) - prior).abs() < 1e-9);
            let from_centre = (number(&arrow["x0"]) - number(&centre["x"]))
                .hypot(number(&arrow["y0"]) - number(&centre["y"]));
            assert!((from_centre - POD_RADIUS_PX).abs() < 1e-6, "{arrow}");
        }
    }
}

#[test]
fn fans_are_drawn_with_the_widths_the_lines_give() {
    let replay = fixture();
    let scratch = Scratch::new("fans");
    let page = scratch.page(&viewer::render_html(FIXTURE).unwrap());
    let turns = [0, 1, 17, 40, 59, 60];
    let list: Vec<String> = turns.iter().map(usize::to_string).collect();
    let fragment = format!("probe={}", list.join(","));
    let shown = probe(&page, &fragment, &scratch);
    assert_eq!(shown["fan_viewer"], json!(0), "player 0 printed the lines");
    assert_eq!(shown["candidate_problems"], json!([]));
    let mut own_pods_played_their_star = 0;
    let mut own_fans = 0;
    for (visit, &k) in shown["visits"].as_array().unwrap().iter().zip(&turns) {
        assert_eq!(visit["turn"], json!(k));
        if k == 60 {
            // The last turn of the cut replay: its decision is in no record.
            assert_eq!(visit["fans"], json!([]));
            continue;
        }
        check_fans(&replay, k, &visit["fans"], &visit["pods"]);
        for fan in visit["fans"].as_array().unwrap() {
            if fan["own"] == json!(true) {
                own_fans += 1;
                own_pods_played_their_star += usize::from(fan["played"] == fan["starred"]);
            }
        }
    }
    // What our pods played is the action our search chose (the nearest action to the replay's
    // move: a SHIELD out of reach plays as action 0).
    assert!(
        own_fans == 10 && own_pods_played_their_star >= 9,
        "{own_pods_played_their_star}/{own_fans}"
    );
}

/// A fan's widest arrow is on the screenshot in its colour (beside the thin dashed line of the
/// move played, when it is that one), and gone with M. The pods of turn 25 are moved apart so that
/// no fan covers another, and their lines lose their priors so that no outline crosses a band.
#[test]
fn the_widest_arrow_is_on_the_map_in_its_colour_and_m_hides_it() {
    let mut replay = fixture();
    for (pod, [x, y]) in [[3000, 2000], [13000, 2000], [3000, 7000], [13000, 7000]]
        .into_iter()
        .enumerate()
    {
        replay["turns"][24]["pods"][pod]["x"] = json!(x);
        replay["turns"][24]["pods"][pod]["y"] = json!(y);
    }
    // Without priors: no outline crosses the bands.
    let text = replay["turns"][25]["stderr"][0]
        .as_str()
        .unwrap()
        .to_string();
    let without_priors: Vec<String> = text
        .lines()
        .map(|line| match CandidateLine::parse(line) {
            Ok(mut tree) => {
                tree.candidates.iter_mut().for_each(|c| c.prior = None);
                tree.write()
            }
            Err(_) => line.to_string(),
        })
        .collect();
    replay["turns"][25]["stderr"][0] = json!(without_priors.join("\n") + "\n");
    let scratch = Scratch::new("fan-pixels");
    let page = scratch.page(&viewer::render_html(&replay.to_string()).unwrap());
    let shown = probe(&page, "turn=25", &scratch);
    let hidden = probe(&page, "turn=25&keys=m", &scratch);
    assert_eq!(hidden["fans"], json!([]));
    assert_eq!(hidden["fan_viewer"], Value::Null);
    let map = &shown["map_rect"];
    let canvas_width = number(&shown["canvas"]["width"]);
    let to_css = number(&map["width"]) / canvas_width;
    let mut checked = 0;
    let on = shown_picture(&page, "turn=25", &scratch);
    let off = shown_picture(&page, "turn=25&keys=m", &scratch);
    for fan in shown["fans"].as_array().unwrap() {
        let widest = fan["arrows"]
            .as_array()
            .unwrap()
            .iter()
            .max_by(|a, b| number(&a["width"]).total_cmp(&number(&b["width"])))
            .unwrap();
        if number(&widest["width"]) * to_css < 3.0 {
            continue;
        }
        // A point on the axis, 80% of the way from the rim (past the shorter arrows that share
        // its direction and are drawn over it), in CSS pixels.
        let at = |field: &str| {
            number(&widest[format!("{field}0")])
                + (number(&widest[format!("{field}1")]) - number(&widest[format!("{field}0")]))
                    * 0.8
        };
        let x = number(&map["left"]) + at("x") * to_css;
        let y = number(&map["top"]) + at("y") * to_css;
        let inside = |value: f64, from: &Value, size: &Value| {
            value > number(from) + 2.0 && value < number(from) + number(size) - 2.0
        };
        let on_screen = x < 1278.0 && y < 798.0;
        if !on_screen
            || !inside(x, &map["left"], &map["width"])
            || !inside(y, &map["top"], &map["height"])
        {
            continue;
        }
        let colour = hex(widest["color"].as_str().unwrap());
        // Within a pixel of the shaft's axis (antialiased edges aside).
        let near = |picture: &Picture| {
            (-1..=1).any(|dx: i64| {
                (-1..=1).any(|dy: i64| {
                    let pixel = picture.at((x as i64 + dx) as usize, (y as i64 + dy) as usize);
                    (0..3).all(|c| pixel[c].abs_diff(colour[c]) <= 12)
                })
            })
        };
        assert!(
            near(&on),
            "pod {}: no {colour:?} around ({x}, {y})",
            fan["pod"]
        );
        assert!(
            !near(&off),
            "pod {}: the arrow is still there with M",
            fan["pod"]
        );
        checked += 1;
    }
    assert!(
        checked >= 2,
        "at least two fans had an arrow wide enough to check"
    );
}

fn shown_picture(page: &std::path::Path, fragment: &str, scratch: &Scratch) -> Picture {
    let png = scratch.dir.join(format!("shot-{}.png", fragment.len()));
    chromium::screenshot(page, fragment, &png, scratch);
    Picture::load(&png)
}

fn hex(text: &str) -> [u8; 3] {
    let value = u32::from_str_radix(text.trim_start_matches('#'), 16).expect("#rrggbb");
    [(value >> 16) as u8, (value >> 8) as u8, value as u8]
}

#[test]
fn replays_without_candidate_lines_draw_no_fan() {
    let mut with_stderr: Value = serde_json::from_str(SAMPLE).unwrap();
    for (index, turn) in with_stderr["turns"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let line = format!(
            "turn {}: iterations=300 value=0.5\npod 0: *0:12/0.5000\n",
            index + 1
        );
        turn["stderr"] = json!([line, ""]);
    }
    for (name, replay) in [
        ("none", SAMPLE.to_string()),
        ("stderr", with_stderr.to_string()),
    ] {
        let scratch = Scratch::new(&format!("no-fans-{name}"));
        let page = scratch.page(&viewer::render_html(&replay).unwrap());
        let dom = chromium::dump_dom(&page, "probe=0,5,20", &scratch);
        let shown = probe_of(&dom, "probe=0,5,20");
        for visit in shown["visits"].as_array().unwrap() {
            assert_eq!(visit["fans"], json!([]), "{name}");
        }
        assert_eq!(shown["fan_viewer"], Value::Null, "{name}");
        assert_eq!(shown["candidate_problems"], json!([]), "{name}");
        assert_eq!(
            shown["graph"]["turning_points"],
            json!({"falls": [], "surprises": []}),
            "{name}"
        );
        assert!(dom.contains(r#"<select id="fans" title="Candidate moves: whose search to draw (M toggles)" hidden="">"#), "{name}: the control stays hidden");
        assert!(!dom.contains(">the fan</b>"), "{name}: no key for fans");
    }
}

#[test]
fn malformed_lines_draw_nothing_and_are_named_on_the_console() {
    let mut replay = fixture();
    // Turn 11: pod 1's line loses its star and gets a bad visit count; turn 21: a future version.
    let text = replay["turns"][10]["stderr"][0]
        .as_str()
        .unwrap()
        .to_string();
    let broken: Vec<String> = text
        .lines()
        .map(|line| match line.starts_with("candidates/1 pod=1 ") {
            true => line.replace('*', "").replacen(" 3:", " 3:-", 1),
            false => line.to_string(),
        })
        .collect();
    replay["turns"][10]["stderr"][0] = json!(broken.join("\n") + "\n");
    let text = replay["turns"][20]["stderr"][0].as_str().unwrap();
    replay["turns"][20]["stderr"][0] =
        json!(text.replace("candidates/1 pod=3", "candidates/2 pod=3"));
    let scratch = Scratch::new("malformed");
    let page = scratch.page(&viewer::render_html(&replay.to_string()).unwrap());
    let (dom, console) = chromium::dump_dom_and_console(&page, "probe=10,20", &scratch);
    let shown = probe_of(&dom, "probe=10,20");
    let pods_drawn = |visit: &Value| -> Vec<u64> {
        visit["fans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|fan| fan["pod"].as_u64().unwrap())
            .collect()
    };
    let visits = shown["visits"].as_array().unwrap();
    assert_eq!(
        pods_drawn(&visits[0]),
        [0, 2, 3],
        "pod 1's tree is left out at turn 10"
    );
    assert_eq!(
        pods_drawn(&visits[1]),
        [0, 1, 2],
        "pod 3's tree is left out at turn 20"
    );
    let problems = shown["candidate_problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    let first = problems[0].as_str().unwrap();
    assert!(
        first.starts_with("turn 11, csb: malformed candidate line \"candidates/1 pod=1 "),
        "{first}"
    );
    assert!(
        first.contains(": action 3: expected 3:VISITS/MEAN/PRIOR, got \"3:-"),
        "{first}"
    );
    let second = problems[1].as_str().unwrap();
    assert!(
        second.starts_with("turn 21, csb: malformed candidate line \"candidates/2 pod=3 "),
        "{second}"
    );
    assert!(
        second.ends_with(": version \"candidates/2\" is not \"candidates/1\""),
        "{second}"
    );
    for problem in problems {
        // Chromium logs the message as a JSON-like quoted string: compare a quote-free part.
        let head = problem.as_str().unwrap().split('"').next().unwrap();
        assert!(
            console.contains(&format!("csb viewer: {head}")),
            "not on the console: {head}\n{console}"
        );
    }
    // The rest of the game is drawn as before.
    let fine = probe(&page, "turn=30", &scratch);
    assert_eq!(fine["fans"].as_array().unwrap().len(), 4);
}

#[test]
fn a_click_on_a_turning_point_goes_to_its_turn() {
    let scratch = Scratch::new("turning-points");
    let page = scratch.page(&viewer::render_html(FIXTURE).unwrap());
    let shown = probe(&page, "turn=0", &scratch);
    let graph = &shown["graph"];
    let points = &graph["turning_points"];
    let falls = points["falls"].as_array().unwrap();
    assert!(!falls.is_empty(), "the value fell somewhere: {points}");
    let last = number(&shown["last_turn"]);
    let (rect, plot) = (&graph["rect"], &graph["plot"]);
    let mark = falls[falls.len() / 2].as_u64().unwrap();
    // Two pixels right of the mark: the click still goes to its turn.
    let x = number(&plot["left"]) + mark as f64 / last * number(&plot["width"]) + 2.0;
    let fraction = (x - number(&rect["left"])) / number(&rect["width"]);
    let clicked = probe(&page, &format!("click={fraction}"), &scratch);
    assert_eq!(clicked["turn"], json!(mark), "{}", clicked["inputs"]);
    let surprises: Vec<u64> = points["surprises"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| turn.as_u64().unwrap())
        .collect();
    assert!(
        !surprises.is_empty(),
        "the opponent surprised the search somewhere: {points}"
    );
    let list: Vec<String> = surprises.iter().map(u64::to_string).collect();
    let fragment = format!("probe={}", list.join(","));
    let visited = probe(&page, &fragment, &scratch);
    for (visit, k) in visited["visits"].as_array().unwrap().iter().zip(&surprises) {
        // An opponent's pod played an action our tree gave under 5% of its visits.
        let small = visit["fans"]
            .as_array()
            .unwrap()
            .iter()
            .any(|fan| fan["own"] == json!(false) && number(&fan["played_share"]) < 0.05);
        assert!(small, "turn {k}: {}", visit["fans"]);
    }
}
