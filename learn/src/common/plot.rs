//! The pipeline's pictures, drawn with plotters into SVG files (no fonts or system libraries:
//! the viewer renders the text): the loss curves of a training run (training and validation
//! log-loss per epoch, `loss.svg` beside `loss.csv`) and the generations' Elo with its 95%
//! interval (`generation/table.rs`). Labelled axes with numbers and a legend; written whole or
//! not at all.

use super::files::write_whole;
use plotters::prelude::*;
use std::path::Path;

const SIZE: (u32, u32) = (720, 440);
const BLUE: RGBColor = RGBColor(31, 119, 180);
const ORANGE: RGBColor = RGBColor(255, 127, 14);

fn plot_error(path: &Path, error: impl std::fmt::Display) -> String {
    format!("cannot draw {}: {error}", path.display())
}

/// `low..high` widened by a margin, never empty.
fn padded(low: f64, high: f64) -> std::ops::Range<f64> {
    if !(low.is_finite() && high.is_finite()) {
        return 0.0..1.0;
    }
    let margin = ((high - low) * 0.08).max(1e-3);
    (low - margin)..(high + margin)
}

/// Renders `draw` into an SVG string, then writes it to `path` (a temporary file, renamed).
fn write_svg(
    path: &Path,
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<(), String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        area.fill(&WHITE).map_err(|e| plot_error(path, e))?;
        draw(&area)?;
        area.present().map_err(|e| plot_error(path, e))?;
    }
    write_whole(path, svg)
}

/// Draws the two loss curves (one value per epoch, epoch 1 first) into the SVG `path`.
pub fn plot_losses(path: &Path, train: &[f64], validation: &[f64]) -> Result<(), String> {
    let values = train.iter().chain(validation).copied();
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
    let epochs = train.len().max(validation.len()).max(2);
    write_svg(path, |area| {
        let error = |e: DrawingAreaErrorKind<_>| plot_error(path, e);
        let mut chart = ChartBuilder::on(area)
            .caption("Training and validation log-loss", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.5..epochs as f64 + 0.5, padded(low, high))
            .map_err(error)?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("log-loss (nats)")
            .x_labels(epochs.min(20))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.3}"))
            .draw()
            .map_err(error)?;
        for (name, curve, colour) in [
            ("training", train, BLUE),
            ("validation", validation, ORANGE),
        ] {
            let points: Vec<(f64, f64)> = curve
                .iter()
                .enumerate()
                .map(|(epoch, &loss)| ((epoch + 1) as f64, loss))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(error)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&point| Circle::new(point, 3, colour.filled())),
                )
                .map_err(error)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(error)?;
        Ok(())
    })
}

/// One generation's point of the Elo plot: its number, its Elo against generation 1 and the
/// 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloPoint {
    pub generation: u32,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// Draws each generation's Elo with its interval into the SVG `path`.
pub fn plot_elo(path: &Path, points: &[EloPoint]) -> Result<(), String> {
    let (low, high) = points
        .iter()
        .fold((0.0f64, 0.0f64), |(l, h), p| (l.min(p.low), h.max(p.high)));
    let last = points
        .iter()
        .map(|p| p.generation)
        .max()
        .unwrap_or(1)
        .max(2);
    write_svg(path, |area| {
        let error = |e: DrawingAreaErrorKind<_>| plot_error(path, e);
        let mut chart = ChartBuilder::on(area)
            .caption(
                "Self-play generations: Elo against generation 1",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.5..last as f64 + 0.5, padded(low, high))
            .map_err(error)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc("Elo (95% interval)")
            .x_labels((last as usize).min(20))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(error)?;
        chart
            .draw_series(points.iter().map(|p| {
                let x = f64::from(p.generation);
                PathElement::new(vec![(x, p.low), (x, p.high)], BLUE.stroke_width(2))
            }))
            .map_err(error)?
            .label("95% interval")
            .legend(|(x, y)| PathElement::new(vec![(x + 10, y - 8), (x + 10, y + 8)], BLUE));
        chart
            .draw_series(
                points
                    .iter()
                    .map(|p| Circle::new((f64::from(p.generation), p.elo), 4, ORANGE.filled())),
            )
            .map_err(error)?
            .label("Elo")
            .legend(|(x, y)| Circle::new((x + 10, y), 4, ORANGE.filled()));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(error)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plots_have_axes_numbers_and_a_legend() {
        let dir = std::env::temp_dir().join(format!("learn-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let losses = dir.join("loss.svg");
        plot_losses(&losses, &[0.69, 0.61, 0.58], &[0.68, 0.63, 0.62]).unwrap();
        let svg = std::fs::read_to_string(&losses).unwrap();
        for text in [
            "epoch",
            "log-loss (nats)",
            "training",
            "validation",
            "0.600",
        ] {
            assert!(svg.contains(text), "{text} not in the loss plot");
        }
        let elo = dir.join("elo.svg");
        let point = |generation, elo| EloPoint {
            generation,
            elo,
            low: elo - 40.0,
            high: elo + 40.0,
        };
        plot_elo(&elo, &[point(1, 0.0), point(2, 55.0)]).unwrap();
        let svg = std::fs::read_to_string(&elo).unwrap();
        for text in ["generation", "Elo (95% interval)", "95% interval"] {
            assert!(svg.contains(text), "{text} not in the Elo plot");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
