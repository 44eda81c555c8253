//! The plots of `classify --plot`: a bar chart of how many puzzles fall in
//! each category (a ladder's rungs, a rating's values) beside the
//! cumulative share solved, one curve per ladder. PNG or SVG, chosen by the
//! file's extension, drawn with `plotters`. Text is measured (both
//! formats) and drawn (PNG) with DejaVu Sans, embedded by the `dejavu`
//! crate, so nothing depends on the fonts installed; an SVG names the
//! family `sans-serif` for the viewer to draw.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// Colours, fonts and sizes of the plots, taken from the one place every
/// picture of ruledoku takes them: [`crate::draw::style`] (colours of the
/// Okabe–Ito palette, DejaVu Sans); only the plot's own sizes are here.
pub mod style {
    use crate::draw::style as draw;
    use plotters::style::RGBColor;

    /// An `Rgb` of the drawing conventions as a plotters colour.
    const fn rgb(c: draw::Rgb) -> RGBColor {
        RGBColor(c.0, c.1, c.2)
    }

    /// The font family the plots name (DejaVu Sans is registered under it,
    /// the first font of [`draw::FONT_SANS`]).
    pub const FONT: &str = "sans-serif";
    pub const TITLE_SIZE: u32 = 22;
    pub const CAPTION_SIZE: u32 = 18;
    pub const LABEL_SIZE: u32 = 14;
    /// Size of the whole picture, in pixels.
    pub const WIDTH: u32 = 1280;
    pub const HEIGHT: u32 = 560;
    pub const BACKGROUND: RGBColor = rgb(draw::BACKGROUND);
    pub const TEXT: RGBColor = rgb(draw::LABEL_INK);
    pub const GRID: RGBColor = rgb(draw::PLOT_GRID);
    /// Bars: the first series colour.
    pub const BAR: RGBColor = rgb(draw::SERIES[0]);
    /// The curves, one per series in turn (after the bars' colour).
    pub const SERIES: [RGBColor; 7] = [
        rgb(draw::SERIES[1]),
        rgb(draw::SERIES[2]),
        rgb(draw::SERIES[3]),
        rgb(draw::SERIES[4]),
        rgb(draw::SERIES[5]),
        rgb(draw::SERIES[7]),
        rgb(draw::SERIES[6]),
    ];
}

/// One curve: a name and a value per category.
#[derive(Clone, Debug)]
pub struct Curve {
    pub name: String,
    pub values: Vec<f64>,
}

/// What a plot shows.
#[derive(Clone, Debug)]
pub struct Chart {
    pub title: String,
    /// The categories, left to right.
    pub labels: Vec<String>,
    /// What the x axis is (`rung`, `W`).
    pub x_desc: String,
    /// Left: the bars, one per category, and what they count.
    pub bars: Vec<u64>,
    pub bars_desc: String,
    /// Right: cumulative shares, in percent.
    pub curves: Vec<Curve>,
}

static FONTS: Once = Once::new();

fn register_fonts() {
    FONTS.call_once(|| {
        // Registering an embedded, valid font cannot fail; if it did, text
        // would be missing from PNGs, not wrong.
        let _ =
            plotters::style::register_font(style::FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(style::FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Checks, before any work, that a plot can be written at `path`: it is not a
/// folder and the file can be opened for writing (a file this check creates is
/// removed again). `classify` calls it first, so that a bad `--plot` fails at once
/// rather than after a whole collection was classified.
pub fn check_target(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{}: is a directory", path.display()));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("{}: cannot write the plot: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Draws `chart` to `path`: PNG for `.png`, SVG for `.svg`.
pub fn draw(path: &Path, chart: &Chart) -> Result<(), String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let size = (style::WIDTH, style::HEIGHT);
    // Both backends measure text with the registered fonts.
    register_fonts();
    let r = match ext.as_deref() {
        Some("png") => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw_on(&root, chart).and_then(|()| root.present().map_err(|e| e.to_string()))
        }
        Some("svg") => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            draw_on(&root, chart).and_then(|()| root.present().map_err(|e| e.to_string()))
        }
        _ => {
            return Err(format!(
                "{}: a plot is a .png or a .svg file",
                path.display()
            ));
        }
    };
    r.map_err(|e| format!("{}: {e}", path.display()))
}

fn draw_on<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&style::BACKGROUND).map_err(e)?;
    let root = root
        .titled(
            &chart.title,
            (style::FONT, style::TITLE_SIZE)
                .into_font()
                .color(&style::TEXT),
        )
        .map_err(e)?;
    let (left, right) = root.split_horizontally(style::WIDTH / 2);
    let caption = || {
        (style::FONT, style::CAPTION_SIZE)
            .into_font()
            .color(&style::TEXT)
    };
    let n = chart.labels.len().max(1);
    let labels = chart.labels.clone();
    let label_of = move |v: &SegmentValue<u32>| match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            labels.get(*i as usize).cloned().unwrap_or_default()
        }
        SegmentValue::Last => String::new(),
    };
    // Few enough labels to be read: every k-th category.
    let shown = n.min(20);
    let font = || {
        (style::FONT, style::LABEL_SIZE)
            .into_font()
            .color(&style::TEXT)
    };

    let top = chart.bars.iter().copied().max().unwrap_or(0).max(1);
    let mut bars = ChartBuilder::on(&left)
        .caption(&chart.bars_desc, caption())
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((0u32..n as u32).into_segmented(), 0u64..top + top / 10 + 1)
        .map_err(e)?;
    bars.configure_mesh()
        .disable_x_mesh()
        .light_line_style(style::GRID)
        .x_labels(shown)
        .x_label_formatter(&label_of)
        .x_desc(&chart.x_desc)
        .y_desc("puzzles")
        .label_style(font())
        .axis_desc_style(font())
        .draw()
        .map_err(e)?;
    bars.draw_series(
        Histogram::vertical(&bars)
            .style(style::BAR.filled())
            .margin(3)
            .data(chart.bars.iter().enumerate().map(|(i, &v)| (i as u32, v))),
    )
    .map_err(e)?;

    let mut curves = ChartBuilder::on(&right)
        .caption(
            "cumulative share solved",
            (style::FONT, style::CAPTION_SIZE),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((0u32..n as u32).into_segmented(), 0f64..100f64)
        .map_err(e)?;
    curves
        .configure_mesh()
        .light_line_style(style::GRID)
        .x_labels(shown)
        .x_label_formatter(&label_of)
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .x_desc(&chart.x_desc)
        .label_style(font())
        .axis_desc_style(font())
        .draw()
        .map_err(e)?;
    for (k, c) in chart.curves.iter().enumerate() {
        let color = style::SERIES[k % style::SERIES.len()];
        let points: Vec<(SegmentValue<u32>, f64)> = c
            .values
            .iter()
            .enumerate()
            .map(|(i, &v)| (SegmentValue::CenterOf(i as u32), v))
            .collect();
        curves
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(e)?
            .label(&c.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
        curves
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )
            .map_err(e)?;
    }
    if !chart.curves.is_empty() {
        curves
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(style::BACKGROUND.mix(0.9))
            .border_style(style::GRID)
            .label_font(font())
            .draw()
            .map_err(e)?;
    }
    Ok(())
}
