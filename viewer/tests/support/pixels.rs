//! Reading a screenshot back: a PNG decoded to RGB pixels, and counts of the pixels near a colour
//! inside a rectangle of the page (CSS pixels; the tests' Chromium draws one pixel per CSS pixel).

use std::path::Path;

/// A decoded screenshot: `width × height` pixels, three bytes each, row by row.
pub struct Picture {
    pub width: usize,
    pub height: usize,
    rgb: Vec<u8>,
}

/// A rectangle of the page in CSS pixels, as the page's probe reports it.
#[derive(Clone, Copy, Debug)]
pub struct Area {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Area {
    /// The area of a probe object with `left`, `top`, `width` and `height`.
    pub fn of(value: &serde_json::Value) -> Area {
        let field = |name: &str| {
            value[name]
                .as_f64()
                .unwrap_or_else(|| panic!("no {name} in {value}"))
        };
        Area {
            left: field("left"),
            top: field("top"),
            width: field("width"),
            height: field("height"),
        }
    }
}

impl Picture {
    /// Decodes the PNG at `path` (RGB or RGBA, 8 bits a channel).
    pub fn load(path: &Path) -> Picture {
        let file = std::fs::File::open(path).expect("the screenshot exists");
        let mut reader = png::Decoder::new(file).read_info().expect("a PNG header");
        let mut buffer = vec![0; reader.output_buffer_size()];
        let frame = reader.next_frame(&mut buffer).expect("PNG pixels");
        assert_eq!(frame.bit_depth, png::BitDepth::Eight, "8 bits a channel");
        let channels = match frame.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => panic!("unexpected PNG colour type {other:?}"),
        };
        let (width, height) = (frame.width as usize, frame.height as usize);
        let mut rgb = Vec::with_capacity(width * height * 3);
        for row in 0..height {
            let line = &buffer[row * frame.line_size..][..width * channels];
            for pixel in line.chunks(channels) {
                rgb.extend_from_slice(&pixel[..3]);
            }
        }
        Picture { width, height, rgb }
    }

    /// The colour of pixel `(x, y)`.
    pub fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let start = (y * self.width + x) * 3;
        [self.rgb[start], self.rgb[start + 1], self.rgb[start + 2]]
    }

    /// Pixels inside `area` (whole pixels only) whose every channel is within `tolerance` of
    /// `colour`'s.
    pub fn count_near(&self, area: Area, colour: [u8; 3], tolerance: u8) -> usize {
        let x0 = area.left.ceil().max(0.0) as usize;
        let y0 = area.top.ceil().max(0.0) as usize;
        let x1 = ((area.left + area.width).floor() as usize).min(self.width);
        let y1 = ((area.top + area.height).floor() as usize).min(self.height);
        let mut count = 0;
        for y in y0..y1 {
            for x in x0..x1 {
                let pixel = self.at(x, y);
                if (0..3).all(|c| pixel[c].abs_diff(colour[c]) <= tolerance) {
                    count += 1;
                }
            }
        }
        count
    }
}

/// `#rrggbb` as three bytes.
pub fn hex(colour: &str) -> [u8; 3] {
    let digits = colour.strip_prefix('#').expect("a #rrggbb colour");
    let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).expect("hex digits");
    [byte(0), byte(2), byte(4)]
}

/// `foreground` drawn with opacity `alpha` over `background`, rounded.
pub fn blend(foreground: [u8; 3], alpha: f64, background: [u8; 3]) -> [u8; 3] {
    let mix = |c: usize| {
        (alpha * f64::from(foreground[c]) + (1.0 - alpha) * f64::from(background[c])).round() as u8
    };
    [mix(0), mix(1), mix(2)]
}
