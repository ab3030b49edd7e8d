//! Self-contained HTML replay viewer. [`render_html`] checks a replay in the csb replay format
//! (`arena/REPLAY_FORMAT.md`, version 1) and returns one HTML file that animates the match on a
//! canvas: no server, no network, inline CSS and JavaScript, the replay embedded in the page.
//!
//! Under the slider, a race graph over the whole game: the lead of each side's leading pod in
//! checkpoints, each bot's own value per turn where its stderr carries `value=` (csb's diagnostic
//! line; `arena/REPLAY_FORMAT.md` says what is read), boosts, shields, collisions and
//! eliminations on the time axis; clicking or dragging on it goes to that turn.
//!
//! The page opens on turn 0 and plays; `#turn=K` in the URL opens it paused at turn K. For tests
//! it exposes `window.viewer` (`setTurn(k)`, `setTime(t)`, `turn()`, `podScreenPositions()`,
//! `replay`), a visible counter `#turn` ("Turn K / N") and a hidden `#probe` element holding the
//! current turn, the drawn pod centres in canvas pixels, the text of the stderr panel (each
//! player's `turns[k].stderr` for the shown turn, under the slider), the graph (its place on the
//! page, its plot's and its cursor's in CSS pixels, the lead and values it read, the turns whose
//! value it drew) and any script error as JSON; `#probe=K1,K2,…` visits those turns and records
//! each, `#click=F`, `#drag=F1,F2,…` and `#keys=K1,K2,…` send pointer events at fractions of the
//! graph's width and key presses, recording the turn after each. A map point `(x, y)` is drawn at
//! canvas pixel `(MARGIN_PX + x·SCALE, MARGIN_PX + y·SCALE)`.

mod embed;
mod validate;

pub use embed::script_safe_json;
pub use validate::{validate_replay, FORMAT, MAX_VERSION};

/// The page: markup, style and script, with [`PLACEHOLDER`] where the replay goes.
const TEMPLATE: &str = include_str!("../assets/viewer.html");

/// Stands in the template for the replay JSON (inside a `<script type="application/json">`).
pub const PLACEHOLDER: &str = "__CSB_REPLAY_JSON__";

/// Map size in game units, as the page draws it (csb-rules.md §1).
pub const MAP_WIDTH: f64 = 16000.0;
pub const MAP_HEIGHT: f64 = 9000.0;
/// Canvas pixels per game unit, and canvas pixels around the map: the page draws the point
/// `(x, y)` of the map at canvas pixel `(MARGIN_PX + x * SCALE, MARGIN_PX + y * SCALE)`.
pub const SCALE: f64 = 0.1;
pub const MARGIN_PX: f64 = 40.0;

/// Checks `replay_json` against the replay format and returns the viewer page with the replay
/// embedded, or a message saying what is wrong with the replay.
pub fn render_html(replay_json: &str) -> Result<String, String> {
    let replay: serde_json::Value = serde_json::from_str(replay_json)
        .map_err(|error| format!("invalid replay: not valid JSON: {error}"))?;
    validate_replay(&replay)?;
    let (before, after) = TEMPLATE
        .split_once(PLACEHOLDER)
        .expect("the template holds the placeholder");
    let data = script_safe_json(&replay);
    let mut html = String::with_capacity(TEMPLATE.len() + data.len());
    html.push_str(before);
    html.push_str(&data);
    html.push_str(after);
    Ok(html)
}
