//! `arena ladder plot`: Elo over the lineage as an SVG. The roster's `lineage` (the defaults in
//! the order they were adopted) is the x axis; each player rated in the plotted group is a
//! point at its Elo with its 95% interval as a bar, labelled with both; a lineage player with
//! no game at the control, or in a group no game links to the plotted one, is named on the axis
//! and marked as such (its figure would be on another scale). The group plotted is the
//! anchor's (`--anchor`), else the one holding most of the lineage, anchored at its first
//! lineage player.

use super::results::LadderGame;
use super::table::{rate_groups, Group};
use crate::stats::ratings::Rating;
use std::fmt::Write;

/// What `arena ladder plot` draws.
pub struct PlotRequest<'a> {
    /// The control's games only.
    pub games: &'a [&'a LadderGame],
    pub lineage: &'a [String],
    /// The roster's players in order (for the anchors of other groups).
    pub order: &'a [String],
    pub anchor: Option<&'a str>,
    pub prior_draws: f64,
    /// The title's line about the control.
    pub control_line: String,
}

/// What the plot shows of one lineage player.
enum Mark {
    Rated(Rating),
    NoGames,
    NotLinked,
}

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 78.0;
const BOTTOM: f64 = 130.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn signed(value: f64) -> String {
    if value.is_finite() {
        format!("{:+.0}", value + 0.0)
    } else if value > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// A tick step that gives at most 10 ticks over `span` Elo.
fn tick_step(span: f64) -> f64 {
    [50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0]
        .into_iter()
        .find(|step| span / step <= 10.0)
        .unwrap_or(5000.0)
}

/// The group plotted: the anchor's, else the one with most lineage players.
fn plotted_group(request: &PlotRequest) -> Result<Group, String> {
    let played = |name: &str| request.games.iter().any(|g| g.a == name || g.b == name);
    let anchor = match request.anchor {
        Some(anchor) => anchor.to_string(),
        None => request
            .lineage
            .iter()
            .find(|n| played(n))
            .cloned()
            .ok_or("no player of the lineage played a game at this control")?,
    };
    // Other groups are anchored at their first lineage player, then the roster's order.
    let order: Vec<String> = request
        .lineage
        .iter()
        .chain(request.order)
        .cloned()
        .collect();
    let groups = rate_groups(request.games, &anchor, request.prior_draws, &order)?;
    if request.anchor.is_some() {
        return Ok(groups.into_iter().next().expect("the anchor's group"));
    }
    let lineage_count = |g: &Group| -> usize {
        g.players
            .iter()
            .filter(|p| request.lineage.contains(&p.0))
            .count()
    };
    let best = groups.iter().map(lineage_count).max().unwrap_or(0);
    Ok(groups
        .into_iter()
        .find(|g| lineage_count(g) == best)
        .expect("at least one group"))
}

/// The SVG.
pub fn plot(request: &PlotRequest) -> Result<String, String> {
    if request.lineage.is_empty() {
        return Err("the roster has no lineage (lineage = [\"name\", ...])".to_string());
    }
    let group = plotted_group(request)?;
    let played = |name: &str| request.games.iter().any(|g| g.a == name || g.b == name);
    let marks: Vec<(&str, Mark)> = request
        .lineage
        .iter()
        .map(|name| {
            let mark = match group.players.iter().find(|p| &p.0 == name) {
                Some(player) => Mark::Rated(player.1),
                None if played(name) => Mark::NotLinked,
                None => Mark::NoGames,
            };
            (name.as_str(), mark)
        })
        .collect();
    // The Elo range: every finite estimate and bound, and 0.
    let mut low = 0.0f64;
    let mut high = 0.0f64;
    for (_, mark) in &marks {
        if let Mark::Rated(r) = mark {
            for v in [r.elo, r.low, r.high] {
                if v.is_finite() {
                    low = low.min(v);
                    high = high.max(v);
                }
            }
        }
    }
    let step = tick_step((high - low).max(100.0));
    let low = (low / step).floor() * step - if low % step == 0.0 { step } else { 0.0 };
    let high = (high / step).ceil() * step + if high % step == 0.0 { step } else { 0.0 };
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let y_of = |elo: f64| TOP + (high - elo.clamp(low, high)) / (high - low) * plot_height;
    let column = plot_width / marks.len() as f64;
    let x_of = |i: usize| LEFT + (i as f64 + 0.5) * column;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Verdana, sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let games_in_group = request
        .games
        .iter()
        .filter(|g| group.players.iter().any(|p| p.0 == g.a))
        .count();
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" font-size="16" font-weight="bold" text-anchor="middle">Elo over the lineage</text>"#,
        WIDTH / 2.0
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="42" font-size="12" text-anchor="middle" fill="#444">{}</text>"##,
        WIDTH / 2.0,
        escape(&request.control_line)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="58" font-size="12" text-anchor="middle" fill="#444">Maximum likelihood over {games_in_group} games, anchor {} = 0; bars: 95% profile-likelihood intervals</text>"##,
        WIDTH / 2.0,
        escape(&group.anchor)
    );
    if marks.iter().any(|(_, m)| !matches!(m, Mark::Rated(_))) {
        let _ = writeln!(
            svg,
            r##"<text x="{LEFT}" y="{}" font-size="10" fill="#777">no games: none at this control; not linked: no chain of games to {} (rated apart, on another scale)</text>"##,
            HEIGHT - 28.0,
            escape(&group.anchor)
        );
    }
    // Grid and y axis.
    let mut tick = low;
    while tick <= high + 1e-9 {
        let y = y_of(tick);
        let colour = if tick == 0.0 { "#999" } else { "#e4e4e4" };
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="{colour}"/>"#,
            WIDTH - RIGHT
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            y + 4.0,
            signed(tick)
        );
        tick += step;
    }
    let _ = writeln!(
        svg,
        r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{}" stroke="black"/>"#,
        HEIGHT - BOTTOM
    );
    let _ = writeln!(
        svg,
        r#"<line x1="{LEFT}" y1="{0}" x2="{1}" y2="{0}" stroke="black"/>"#,
        HEIGHT - BOTTOM,
        WIDTH - RIGHT
    );
    let _ = writeln!(
        svg,
        r#"<text x="18" y="{0:.1}" font-size="13" text-anchor="middle" transform="rotate(-90 18 {0:.1})">Elo</text>"#,
        TOP + plot_height / 2.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{}" font-size="13" text-anchor="middle">Defaults in the order they were adopted</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 46.0
    );
    // The line through the rated points, in lineage order.
    let points: Vec<String> = marks
        .iter()
        .enumerate()
        .filter_map(|(i, (_, mark))| match mark {
            Mark::Rated(r) => Some(format!("{:.1},{:.1}", x_of(i), y_of(r.elo))),
            _ => None,
        })
        .collect();
    if points.len() > 1 {
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#7aa6d6" stroke-dasharray="4 3"/>"##,
            points.join(" ")
        );
    }
    for (i, (name, mark)) in marks.iter().enumerate() {
        let x = x_of(i);
        let axis = HEIGHT - BOTTOM;
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="end" transform="rotate(-35 {x:.1} {:.1})">{}</text>"#,
            axis + 16.0,
            axis + 16.0,
            escape(name)
        );
        match mark {
            Mark::Rated(r) => {
                let (y, y_low, y_high) = (y_of(r.elo), y_of(r.low), y_of(r.high));
                if *name != group.anchor {
                    let _ = writeln!(
                        svg,
                        r##"<line x1="{x:.1}" y1="{y_low:.1}" x2="{x:.1}" y2="{y_high:.1}" stroke="#1f5fa8" stroke-width="2"/>"##
                    );
                    for (cap, infinite) in
                        [(y_low, r.low.is_infinite()), (y_high, r.high.is_infinite())]
                    {
                        if !infinite {
                            let _ = writeln!(
                                svg,
                                r##"<line x1="{:.1}" y1="{cap:.1}" x2="{:.1}" y2="{cap:.1}" stroke="#1f5fa8" stroke-width="2"/>"##,
                                x - 6.0,
                                x + 6.0
                            );
                        }
                    }
                }
                let _ = writeln!(
                    svg,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="#1f5fa8"><title>{}: {} ({} .. {})</title></circle>"##,
                    escape(name),
                    signed(r.elo),
                    signed(r.low),
                    signed(r.high)
                );
                let label = if *name == group.anchor {
                    "0 (anchor)".to_string()
                } else {
                    signed(r.elo)
                };
                let _ = writeln!(
                    svg,
                    r#"<text x="{:.1}" y="{:.1}" font-size="12" font-weight="bold">{label}</text>"#,
                    x + 8.0,
                    y + 4.0
                );
                if *name != group.anchor {
                    let _ = writeln!(
                        svg,
                        r##"<text x="{x:.1}" y="{:.1}" font-size="10" fill="#555" text-anchor="middle">{} .. {}</text>"##,
                        (y_low + 14.0).min(axis - 4.0),
                        signed(r.low),
                        signed(r.high)
                    );
                }
            }
            Mark::NoGames | Mark::NotLinked => {
                let why = if matches!(mark, Mark::NoGames) {
                    "no games"
                } else {
                    "not linked"
                };
                let _ = writeln!(
                    svg,
                    r##"<text x="{x:.1}" y="{:.1}" font-size="11" fill="#999" text-anchor="middle">{why}</text>"##,
                    axis - 8.0
                );
            }
        }
    }
    let _ = writeln!(svg, "</svg>");
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::results::GAME_FORMAT;

    fn games(a: &str, b: &str, wins: usize, losses: usize) -> Vec<LadderGame> {
        (0..wins + losses)
            .map(|k| LadderGame {
                format: GAME_FORMAT.to_string(),
                control: "real".to_string(),
                seed: 1,
                a: a.to_string(),
                b: b.to_string(),
                pair: k / 2,
                a_player: k % 2,
                map_seed: 1,
                a_score: if k < wins { 1.0 } else { 0.0 },
                turns: 100,
                reason: "race complete".to_string(),
                eliminations: Vec::new(),
                a_command: a.to_string(),
                b_command: b.to_string(),
                row: None,
            })
            .collect()
    }

    #[test]
    fn the_lineage_is_drawn_with_its_ratings_and_what_is_not_rated() {
        let mut all = games("new", "old", 15, 5);
        all.extend(games("new", "newer", 6, 14));
        all.extend(games("island", "other", 5, 5));
        let refs: Vec<&LadderGame> = all.iter().collect();
        let lineage: Vec<String> = ["old", "new", "unplayed", "island", "newer"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let request = PlotRequest {
            games: &refs,
            lineage: &lineage,
            order: &lineage,
            anchor: None,
            prior_draws: 1.0,
            control_line: "control real <test>".to_string(),
        };
        let svg = plot(&request).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for name in &lineage {
            assert!(svg.contains(&format!(">{name}</text>")), "{name}");
        }
        // The group with most lineage players, anchored at its first: old = 0, new above it,
        // newer above new.
        assert!(svg.contains("anchor old = 0") && svg.contains("0 (anchor)"));
        assert!(svg.contains(">no games<") && svg.contains(">not linked<"));
        assert!(svg.contains("control real &lt;test&gt;"));
        let elo_of = |name: &str| -> f64 {
            let start = svg.find(&format!("<title>{name}: ")).unwrap() + name.len() + 9;
            svg[start..]
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert!(elo_of("new") > 100.0 && elo_of("newer") > elo_of("new") + 100.0);
        // Axes: the y axis's label and ticks.
        assert!(svg.contains(">Elo</text>") && svg.contains(">+0</text>"));
        // An anchor asked for plots its group.
        let island = PlotRequest {
            anchor: Some("island"),
            ..request
        };
        let svg = plot(&island).unwrap();
        assert!(svg.contains("anchor island = 0"));
        assert_eq!(svg.matches(">not linked<").count(), 3);
    }
}
