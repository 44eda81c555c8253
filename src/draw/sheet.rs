//! What a picture's grid is, whatever the puzzle type: a [`Sheet`] holds
//! the side `N`, the sizes a cell and its candidates take, the symbols as
//! the type writes them, the cells of each house (for shading), where the
//! thick borders of blocks or irregular regions run, and the type's
//! decorations (inequality signs, extra houses, Kropki dots, XV marks,
//! thermometers, killer cages, notes for the rules a picture cannot show
//! cell by cell).
//!
//! Sizes: a cell holds its candidates as a keypad of `ceil(√N)` columns
//! (3 on 9×9: 1 2 3 on top), each place 18 px (more on grids of side 4 or
//! less, so that the cell keeps 54 px); a type whose puzzles carry signs
//! between cells leaves a margin inside each cell for them.
//!
//! [`Sheet::classic`] is classic 9×9 Sudoku; [`Sheet::of`] reads a
//! [`Model`]: its houses, its block or region kind, its extra house kinds,
//! its constraints between neighbouring cells (signs) and its variant
//! records ([`crate::model::Variant`]). Nothing here names a rule.

use crate::grid::geometry::{N_HOUSES, house_cells};
use crate::model::spec::default_symbols;
use crate::model::{Model, Variant};
use std::sync::{Arc, LazyLock};

/// Place of a candidate in a cell, px, on grids of side 5 or more.
const SLOT: f64 = 18.0;
/// The smallest cell, px (classic 9×9's).
const MIN_CELL: f64 = 54.0;
/// Margin inside a cell for signs on its borders, px.
const SIGN_PAD: f64 = 6.0;

/// An inequality between two orthogonal neighbours: `small` < `big`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sign {
    pub small: usize,
    pub big: usize,
}

/// A Kropki dot between two orthogonal neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dot {
    pub a: usize,
    pub b: usize,
    /// Black (a ratio) or white (a difference).
    pub black: bool,
    /// The difference or ratio when it is not the usual 1 or 2.
    pub label: Option<String>,
}

/// A letter between two orthogonal neighbours (XV's `X`, `V`, or a sum).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark2 {
    pub a: usize,
    pub b: usize,
    pub text: String,
}

/// The grid of a picture and the type's decorations (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// The side: `N × N` cells, `N` symbols.
    pub n: usize,
    /// Columns of a cell's candidate keypad.
    pub sub: usize,
    /// Side of a candidate's place, px.
    pub slot: f64,
    /// Margin inside a cell around its candidates, px.
    pub pad: f64,
    /// Each symbol as the type writes it.
    pub symbols: Vec<String>,
    /// The cells of each house, in the model's house order.
    pub houses: Vec<Vec<usize>>,
    /// Regular blocks (rows × columns): thick lines run across the grid.
    pub boxes: Option<(usize, usize)>,
    /// Irregular regions: each cell's region; thick borders between them.
    pub regions: Option<Vec<usize>>,
    /// Extra houses drawn as tinted cells (windows, extra regions).
    pub tints: Vec<Vec<usize>>,
    /// Main diagonals that are houses: `false` r1c1…rNcN, `true` r1cN…rNc1.
    pub diagonals: Vec<bool>,
    pub signs: Vec<Sign>,
    pub dots: Vec<Dot>,
    /// Killer cages: cells (increasing) and sum, if stated.
    pub cages: Vec<(Vec<usize>, Option<usize>)>,
    pub letters: Vec<Mark2>,
    /// Thermometers, bulb first.
    pub thermometers: Vec<Vec<usize>>,
    /// Rules shown as words under the grid (anti-knight, broken diagonals).
    pub notes: Vec<String>,
}

static CLASSIC: LazyLock<Arc<Sheet>> = LazyLock::new(|| {
    Arc::new(Sheet {
        n: 9,
        sub: 3,
        slot: SLOT,
        pad: 0.0,
        symbols: default_symbols(9),
        houses: (0..N_HOUSES).map(|h| house_cells(h).to_vec()).collect(),
        boxes: Some((3, 3)),
        regions: None,
        tints: Vec::new(),
        diagonals: Vec::new(),
        signs: Vec::new(),
        dots: Vec::new(),
        cages: Vec::new(),
        letters: Vec::new(),
        thermometers: Vec::new(),
        notes: Vec::new(),
    })
});

impl Sheet {
    /// Classic 9×9 Sudoku.
    pub fn classic() -> Arc<Sheet> {
        CLASSIC.clone()
    }

    /// The sheet of a type (for Futoshiki, of one puzzle: the model with
    /// its signs).
    pub fn of(m: &Model) -> Sheet {
        let n = m.n;
        let spec = &m.spec;
        let sub = (1..=n).find(|s| s * s >= n).unwrap_or(1);
        let slot = SLOT.max(MIN_CELL / sub as f64);
        let block_kind = m.kinds().iter().position(|k| k.name == "block");
        let mut sheet = Sheet {
            n,
            sub,
            slot,
            pad: 0.0,
            symbols: spec.symbols.clone(),
            houses: m.houses.iter().map(|h| h.cells.clone()).collect(),
            boxes: spec.boxes,
            regions: None,
            tints: Vec::new(),
            diagonals: Vec::new(),
            signs: Vec::new(),
            dots: Vec::new(),
            cages: Vec::new(),
            letters: Vec::new(),
            thermometers: Vec::new(),
            notes: Vec::new(),
        };
        if spec.boxes.is_none()
            && let Some(b) = block_kind
        {
            let mut region = vec![usize::MAX; n * n];
            for (i, h) in m.houses.iter().filter(|h| h.kind == b).enumerate() {
                for &c in &h.cells {
                    region[c] = i;
                }
            }
            sheet.regions = Some(region);
        }
        // Extra kinds: a partition of the grid is named under it; other
        // houses are drawn (a main diagonal as a line, others tinted).
        let main: Vec<usize> = (0..n).map(|i| i * n + i).collect();
        let mut anti: Vec<usize> = (0..n).map(|i| i * n + n - 1 - i).collect();
        anti.sort_unstable();
        for (k, kind) in m.kinds().iter().enumerate().skip(2) {
            if Some(k) == block_kind {
                continue;
            }
            let houses: Vec<&crate::model::House> =
                m.houses.iter().filter(|h| h.kind == k).collect();
            if houses.len() == n && n > 1 {
                let plural = if kind.name.ends_with('s') {
                    kind.name.clone()
                } else {
                    format!("{}s", kind.name)
                };
                sheet
                    .notes
                    .push(format!("{plural} {p}1…{p}{n} are houses", p = kind.prefix));
                continue;
            }
            for h in houses {
                if h.cells == main {
                    sheet.diagonals.push(false);
                } else if h.cells == anti {
                    sheet.diagonals.push(true);
                } else {
                    sheet.tints.push(h.cells.clone());
                }
            }
        }
        let mut on_thermometer: Vec<(usize, usize)> = Vec::new();
        for v in &spec.variants {
            match v {
                Variant::ExtraRegion(cells) if cells.len() < n => sheet.tints.push(cells.clone()),
                Variant::WhiteDot { a, b, diff } => sheet.dots.push(Dot {
                    a: *a,
                    b: *b,
                    black: false,
                    label: (*diff != 1).then(|| diff.to_string()),
                }),
                Variant::BlackDot { a, b, ratio } => sheet.dots.push(Dot {
                    a: *a,
                    b: *b,
                    black: true,
                    label: (*ratio != 2).then(|| ratio.to_string()),
                }),
                Variant::Xv { a, b, sum } => sheet.letters.push(Mark2 {
                    a: *a,
                    b: *b,
                    text: match sum {
                        10 => "X".into(),
                        5 => "V".into(),
                        s => s.to_string(),
                    },
                }),
                Variant::Thermometer(cells) => {
                    for w in cells.windows(2) {
                        on_thermometer.push((w[0].min(w[1]), w[0].max(w[1])));
                    }
                    sheet.thermometers.push(cells.clone());
                }
                Variant::KillerCage { cells, sum } => {
                    let mut cells = cells.clone();
                    cells.sort_unstable();
                    sheet.cages.push((cells, *sum));
                }
                Variant::AntiKnight => sheet.notes.push("anti-knight".into()),
                Variant::AntiKing => sheet.notes.push("anti-king".into()),
                Variant::NonConsecutive => sheet.notes.push("non-consecutive".into()),
                Variant::NegativeBlack => sheet.notes.push("no black dot: not in ratio 2".into()),
                Variant::NegativeXv => sheet.notes.push("no X or V: sum not 10 or 5".into()),
                _ => {}
            }
        }
        // Inequalities between orthogonal neighbours (Futoshiki's signs,
        // a type's `<`), but a thermometer's.
        for c in &spec.constraints {
            let (a, b) = (c.a, c.b);
            if !crate::model::variant::orthogonal(n, a, b)
                || on_thermometer.contains(&(a.min(b), a.max(b)))
            {
                continue;
            }
            let mut have = c.forbidden.clone();
            have.sort_unstable();
            have.dedup();
            let pairs = |bad: fn(usize, usize) -> bool| -> Vec<(usize, usize)> {
                (0..n)
                    .flat_map(|x| (0..n).map(move |y| (x, y)))
                    .filter(|&(x, y)| bad(x, y))
                    .collect()
            };
            let sign = if have == pairs(|x, y| x >= y) {
                Sign { small: a, big: b }
            } else if have == pairs(|x, y| x <= y) {
                Sign { small: b, big: a }
            } else {
                continue;
            };
            if !sheet.signs.contains(&sign) {
                sheet.signs.push(sign);
            }
        }
        if !sheet.signs.is_empty()
            || !sheet.dots.is_empty()
            || !sheet.letters.is_empty()
            || !sheet.cages.is_empty()
        {
            sheet.pad = SIGN_PAD;
        }
        sheet
    }

    /// Side of a cell, px.
    pub fn cell(&self) -> f64 {
        self.sub as f64 * self.slot + 2.0 * self.pad
    }

    /// Whether this is the classic 9×9 sheet (drawn as it always was).
    pub fn is_classic(&self) -> bool {
        *self == **CLASSIC
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_side() {
        let s = Sheet::of(&crate::model::load("sudoku:16").unwrap());
        assert_eq!((s.sub, s.slot, s.pad, s.cell()), (4, 18.0, 0.0, 72.0));
        assert_eq!(s.boxes, Some((4, 4)));
        let s = Sheet::of(&crate::model::load("latin:4").unwrap());
        assert_eq!((s.sub, s.slot, s.cell()), (2, 27.0, 54.0));
        assert_eq!(s.symbols, ["1", "2", "3", "4"]);
        assert!(s.regions.is_none() && s.boxes.is_none());
        let s = Sheet::of(&crate::model::load("sudoku").unwrap());
        assert_eq!(s, *Sheet::classic());
    }

    #[test]
    fn pandiagonals_are_named_not_drawn() {
        let s = Sheet::of(&crate::model::load("pandiagonal:7").unwrap());
        assert_eq!(
            s.notes,
            [
                "diagonals d1…d7 are houses",
                "anti-diagonals a1…a7 are houses"
            ]
        );
        assert!(s.tints.is_empty() && s.diagonals.is_empty());
    }
}
