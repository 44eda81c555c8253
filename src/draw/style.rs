//! The drawing conventions of every picture ruledoku makes: fonts, colours
//! and sizes, in one place, so that step pictures, HTML reports and the
//! study tools' plots look alike.
//!
//! Colours come from the Okabe–Ito palette (told apart by people with the
//! common colour-vision deficiencies), lightened for fills. A colour is an
//! [`Rgb`]; `Rgb::hex` gives its `#rrggbb` form for SVG, CSS and plotting
//! libraries.

use std::fmt;

/// A colour as three 8-bit channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

// ---------------------------------------------------------------------------
// Fonts

/// Font of digits, labels and titles (a list, first available wins).
pub const FONT_SANS: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
/// Font of SudoRules text (captions, step lines): monospace, as a path is
/// printed.
pub const FONT_MONO: &str = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace";
/// Size of a given or placed value, px.
pub const VALUE_SIZE: f64 = 34.0;
/// Size of a candidate digit, px.
pub const CAND_SIZE: f64 = 13.0;
/// Size of the row and column labels, px.
pub const LABEL_SIZE: f64 = 12.0;
/// Size of a caption line (and of plot titles), px.
pub const CAPTION_SIZE: f64 = 12.0;
/// Height of a caption line, px.
pub const CAPTION_LINE: f64 = 16.0;
/// Characters of a caption line before it wraps (monospace at
/// [`CAPTION_SIZE`]: about 7.2 px a character, within the grid's width).
pub const CAPTION_CHARS: usize = 66;

// ---------------------------------------------------------------------------
// Sizes

/// Side of a cell, px; a candidate has a third of it.
pub const CELL: f64 = 54.0;
/// Space left of and above the grid for the row and column labels, px.
pub const MARGIN: f64 = 24.0;
/// Radius of the disc or ring marking a candidate, px.
pub const MARK_RADIUS: f64 = 8.0;
/// Width of the thin (cell) and thick (block, border) grid lines, px.
pub const THIN_LINE: f64 = 1.0;
pub const THICK_LINE: f64 = 2.5;
/// Width of a drawn link between candidates, px.
pub const LINK_WIDTH: f64 = 2.0;
/// Dashes of a weak link: dash and gap lengths, px.
pub const WEAK_DASH: (f64, f64) = (5.0, 3.0);
/// Width of the cross over an eliminated candidate, px.
pub const CROSS_WIDTH: f64 = 2.0;

// ---------------------------------------------------------------------------
// Colours: the grid

/// Page background.
pub const BACKGROUND: Rgb = Rgb(0xff, 0xff, 0xff);
/// Grid lines and givens.
pub const INK: Rgb = Rgb(0x00, 0x00, 0x00);
/// Thin grid lines.
pub const THIN_INK: Rgb = Rgb(0x9a, 0x9a, 0x9a);
/// A value given by the puzzle.
pub const GIVEN: Rgb = Rgb(0x00, 0x00, 0x00);
/// A value placed by an earlier step (Okabe–Ito blue).
pub const PLACED: Rgb = Rgb(0x00, 0x72, 0xb2);
/// A candidate's digit.
pub const CAND_INK: Rgb = Rgb(0x4a, 0x4a, 0x4a);
/// Row and column labels, titles.
pub const LABEL_INK: Rgb = Rgb(0x55, 0x55, 0x55);

// ---------------------------------------------------------------------------
// Colours: what a step shows

/// Fill of a house the pattern lies in.
pub const HOUSE_FILL: Rgb = Rgb(0xe8, 0xf1, 0xfa);
/// Fill of a cell of the pattern.
pub const CELL_FILL: Rgb = Rgb(0xfd, 0xf3, 0xc8);
/// Disc behind a candidate of the pattern (Okabe–Ito orange, light).
pub const PATTERN_FILL: Rgb = Rgb(0xf5, 0xcf, 0x73);
/// Disc behind a right-linking candidate of a chain: true when the target
/// is assumed true (Okabe–Ito bluish green, light).
pub const ON_FILL: Rgb = Rgb(0x8e, 0xd8, 0xbd);
/// Disc behind a left-linking candidate of a chain: false when the target
/// is assumed true (Okabe–Ito sky blue, light).
pub const OFF_FILL: Rgb = Rgb(0xa8, 0xd5, 0xf2);
/// Ring around a candidate a chain sets aside (z- or t-candidates).
pub const EXTRA_RING: Rgb = Rgb(0x99, 0x99, 0x99);
/// Ring around a chain's target (Okabe–Ito vermillion).
pub const TARGET_RING: Rgb = Rgb(0xd5, 0x5e, 0x00);
/// Cross and ring of an eliminated candidate (Okabe–Ito vermillion).
pub const ELIMINATED: Rgb = Rgb(0xd5, 0x5e, 0x00);
/// Disc of an asserted candidate (Okabe–Ito bluish green).
pub const ASSERTED: Rgb = Rgb(0x00, 0x9e, 0x73);
/// Outline of a g-candidate (a group of candidates taken together).
pub const GROUP_RING: Rgb = Rgb(0x00, 0x72, 0xb2);
/// Links between candidates: strong ones solid, weak ones dashed (Okabe–Ito
/// reddish purple, darkened).
pub const LINK: Rgb = Rgb(0xb0, 0x3a, 0x8a);

// ---------------------------------------------------------------------------
// A puzzle type's decorations (none on classic 9×9)

/// Fill of an extra house drawn as cells (a window, an extra region).
pub const TINT_FILL: Rgb = Rgb(0xec, 0xec, 0xec);
/// Thermometers (bulb and tube).
pub const DECOR_FILL: Rgb = Rgb(0xd6, 0xd6, 0xd6);
/// A main diagonal that is a house, and its width, px.
pub const DIAGONAL_INK: Rgb = Rgb(0xa0, 0xa0, 0xa0);
pub const DIAGONAL_LINE: f64 = 1.5;
/// Half the height of an inequality sign, and its stroke, px.
pub const SIGN_SIZE: f64 = 4.5;
pub const SIGN_LINE: f64 = 2.0;
/// Radius of a Kropki dot, px.
pub const DOT_RADIUS: f64 = 5.0;

/// Light lines of a plot's mesh (the study tools' charts).
pub const PLOT_GRID: Rgb = Rgb(0xe1, 0xe1, 0xe1);
/// Colours for data series in plots, in order (Okabe–Ito, black last).
pub const SERIES: [Rgb; 8] = [
    Rgb(0x00, 0x72, 0xb2),
    Rgb(0xd5, 0x5e, 0x00),
    Rgb(0x00, 0x9e, 0x73),
    Rgb(0xcc, 0x79, 0xa7),
    Rgb(0xe6, 0x9f, 0x00),
    Rgb(0x56, 0xb4, 0xe9),
    Rgb(0xf0, 0xe4, 0x42),
    Rgb(0x00, 0x00, 0x00),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_forms() {
        assert_eq!(LINK.hex(), "#b03a8a");
        assert_eq!(BACKGROUND.to_string(), "#ffffff");
    }
}
