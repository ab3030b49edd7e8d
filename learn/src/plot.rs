//! The loss curve as a PNG, drawn pixel by pixel (pure Rust, no fonts: nothing to install): a
//! white canvas, grey axes with a tick per epoch and a grid line per 0.05 of loss, the training
//! loss in blue and the validation loss in orange, each point a small square. The CSV beside it
//! holds the numbers.

use std::path::Path;

const WIDTH: usize = 640;
const HEIGHT: usize = 400;
const MARGIN: usize = 30;
const BLUE: [u8; 3] = [31, 119, 180];
const ORANGE: [u8; 3] = [255, 127, 14];
const GREY: [u8; 3] = [160, 160, 160];
const LIGHT: [u8; 3] = [230, 230, 230];

struct Canvas {
    pixels: Vec<u8>,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas {
            pixels: vec![255; WIDTH * HEIGHT * 3],
        }
    }

    fn set(&mut self, x: i64, y: i64, colour: [u8; 3]) {
        if (0..WIDTH as i64).contains(&x) && (0..HEIGHT as i64).contains(&y) {
            let at = (y as usize * WIDTH + x as usize) * 3;
            self.pixels[at..at + 3].copy_from_slice(&colour);
        }
    }

    /// A line from `(x0, y0)` to `(x1, y1)`, `thickness` pixels wide.
    fn line(
        &mut self,
        (x0, y0): (f64, f64),
        (x1, y1): (f64, f64),
        colour: [u8; 3],
        thickness: i64,
    ) {
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).ceil().max(1.0) as i64;
        for step in 0..=steps {
            let t = step as f64 / steps as f64;
            let (x, y) = (x0 + t * (x1 - x0), y0 + t * (y1 - y0));
            for dx in 0..thickness {
                for dy in 0..thickness {
                    self.set(x.round() as i64 + dx, y.round() as i64 + dy, colour);
                }
            }
        }
    }
}

/// Draws the two curves (one value per epoch) into `path` (written whole or not at all).
pub fn plot_losses(path: &Path, train: &[f64], validation: &[f64]) -> Result<(), String> {
    let mut canvas = Canvas::new();
    let all = train
        .iter()
        .chain(validation)
        .copied()
        .filter(|v| v.is_finite());
    let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    let (low, high) = if low.is_finite() && high > low {
        ((low / 0.05).floor() * 0.05, (high / 0.05).ceil() * 0.05)
    } else {
        (0.0, 1.0)
    };
    let epochs = train.len().max(validation.len()).max(2);
    let left = MARGIN as f64;
    let right = (WIDTH - MARGIN) as f64;
    let top = MARGIN as f64;
    let bottom = (HEIGHT - MARGIN) as f64;
    let x_of = |epoch: usize| left + (right - left) * epoch as f64 / (epochs - 1) as f64;
    let y_of = |loss: f64| bottom - (bottom - top) * (loss - low) / (high - low);
    let mut grid = low;
    while grid <= high + 1e-9 {
        canvas.line((left, y_of(grid)), (right, y_of(grid)), LIGHT, 1);
        grid += 0.05;
    }
    canvas.line((left, bottom), (right, bottom), GREY, 2);
    canvas.line((left, top), (left, bottom), GREY, 2);
    for epoch in 0..epochs {
        canvas.line((x_of(epoch), bottom), (x_of(epoch), bottom + 6.0), GREY, 1);
    }
    for (values, colour) in [(train, BLUE), (validation, ORANGE)] {
        for (epoch, pair) in values.windows(2).enumerate() {
            canvas.line(
                (x_of(epoch), y_of(pair[0])),
                (x_of(epoch + 1), y_of(pair[1])),
                colour,
                2,
            );
        }
        for (epoch, &value) in values.iter().enumerate() {
            let (x, y) = (x_of(epoch), y_of(value));
            canvas.line((x - 3.0, y - 3.0), (x - 3.0, y + 3.0), colour, 6);
        }
    }
    let temporary = path.with_extension("tmp");
    let written = (|| -> Result<(), String> {
        let file = std::fs::File::create(&temporary).map_err(|e| e.to_string())?;
        let mut encoder =
            png::Encoder::new(std::io::BufWriter::new(file), WIDTH as u32, HEIGHT as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&canvas.pixels)
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
        std::fs::rename(&temporary, path).map_err(|e| e.to_string())
    })();
    written.map_err(|error| format!("cannot write {}: {error}", path.display()))
}
