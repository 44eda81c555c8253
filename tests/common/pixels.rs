//! Pictures read back as pixels: an SVG rasterised at scale 2, and the
//! pixels of one colour near a point, for the pixel tests of pictures.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use ruledoku::draw::style::Rgb;

/// `svg` rendered at scale 2.
pub fn raster(svg: &str) -> Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("well-formed SVG");
    let size = tree.size();
    let mut pm = Pixmap::new(
        (size.width() * 2.0).ceil() as u32,
        (size.height() * 2.0).ceil() as u32,
    )
    .expect("a pixmap");
    resvg::render(&tree, Transform::from_scale(2.0, 2.0), &mut pm.as_mut());
    pm
}

/// Pixels of colour `c` within `r` SVG units of `(x, y)` (at scale 2).
pub fn count_near(pm: &Pixmap, (x, y): (f64, f64), r: f64, c: Rgb) -> usize {
    let (cx, cy, rr) = (x * 2.0, y * 2.0, r * 2.0);
    let mut n = 0;
    for py in (cy - rr).max(0.0) as u32..=(cy + rr) as u32 {
        for px in (cx - rr).max(0.0) as u32..=(cx + rr) as u32 {
            let (dx, dy) = (px as f64 + 0.5 - cx, py as f64 + 0.5 - cy);
            let Some(p) = pm.pixel(px, py) else { continue };
            let near = |a: u8, b: u8| (a as i32 - b as i32).abs() <= 40;
            if dx * dx + dy * dy <= rr * rr
                && p.alpha() == 255
                && near(p.red(), c.0)
                && near(p.green(), c.1)
                && near(p.blue(), c.2)
            {
                n += 1;
            }
        }
    }
    n
}

/// Pixels of colour `c` in the rectangle `(x0, y0)`–`(x1, y1)` (SVG
/// units, at scale 2).
pub fn count_in(pm: &Pixmap, (x0, y0): (f64, f64), (x1, y1): (f64, f64), c: Rgb) -> usize {
    let near = |a: u8, b: u8| (a as i32 - b as i32).abs() <= 40;
    let mut n = 0;
    for py in (y0 * 2.0).max(0.0) as u32..(y1 * 2.0).max(0.0) as u32 {
        for px in (x0 * 2.0).max(0.0) as u32..(x1 * 2.0).max(0.0) as u32 {
            if let Some(p) = pm.pixel(px, py)
                && p.alpha() == 255
                && near(p.red(), c.0)
                && near(p.green(), c.1)
                && near(p.blue(), c.2)
            {
                n += 1;
            }
        }
    }
    n
}
