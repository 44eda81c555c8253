//! The resolution state: which candidates are still live and which values
//! are decided.
//!
//! A decided cell keeps its value in `values` and has no live candidate left;
//! an undecided CSP variable has its live candidates in `cands`. A variable
//! with neither a value nor a live candidate is *empty*: the state is then a
//! contradiction. Asserting a value eliminates every candidate nrc-linked to
//! it (elementary constraint propagation is part of asserting, as in
//! SudoRules, not a rule).

use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::tables::*;
use std::fmt;

/// The digits of each cell in a candidate set, as 9-bit masks (cell `c`'s
/// bits `9c..9c+9`; the matcher's projections read them too).
#[inline]
pub fn cell_masks(s: &Bits) -> [u16; N_CELLS] {
    let mut m = [0u16; N_CELLS];
    for r in 0..9 {
        let row = row_bits(s, r);
        for k in 0..9 {
            m[9 * r + k] = ((row >> (9 * k)) & 0x1FF) as u16;
        }
    }
    m
}

/// The 81 bits of row `r` in a candidate set (`9r..9r+9` cells, nine bits
/// each): bit `9k + d` is digit `d` of the row's cell `k`.
#[inline(always)]
pub fn row_bits(s: &Bits, r: usize) -> u128 {
    let i = 81 * r;
    let (w, off) = (i >> 6, i & 63);
    let lo = (s.0[w] as u128) | ((s.0[w + 1] as u128) << 64);
    let mut v = lo >> off;
    // 81 bits from `off` reach word w + 2 when off > 47.
    if off > 47 {
        v |= (s.0[w + 2] as u128) << (128 - off);
    }
    v & ROW81
}

/// The low 81 bits.
const ROW81: u128 = (1 << 81) - 1;
/// Bits 0..8 of each of nine 9-bit fields.
const FIELD_LOW8: u128 = {
    let mut m = 0u128;
    let mut k = 0;
    while k < 9 {
        m |= 0xFF << (9 * k);
        k += 1;
    }
    m
};
/// The top bit (8) of each of nine 9-bit fields.
const FIELD_TOP: u128 = FIELD_LOW8 << 8 & !FIELD_LOW8 & ROW81;
/// Fields 0, 3 and 6 full (a band's three blocks after folding).
const FIELDS_036: u128 = 0x1FF | 0x1FF << 27 | 0x1FF << 54;

/// The digits of cell `c` in a candidate set, as a 9-bit mask.
#[inline]
pub fn cell_mask(s: &Bits, c: usize) -> u16 {
    let i = c * 9;
    let (w, off) = (i >> 6, i & 63);
    let mut v = s.0[w] >> off;
    if off > 55 {
        v |= s.0[w + 1] << (64 - off);
    }
    (v & 0x1FF) as u16
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// Live candidates of undecided cells.
    pub cands: Bits,
    /// Asserted candidates (one per decided cell).
    pub values: Bits,
}

impl State {
    /// The state where every candidate is live and nothing is decided.
    pub fn empty_grid() -> State {
        State {
            cands: Bits::first(N_CANDS),
            values: Bits::EMPTY,
        }
    }

    /// A state from per-cell digit masks (bit `d` = digit `d+1` possible) and
    /// givens (`0` = none, `1..=9` = value). Givens are asserted, which
    /// removes their linked candidates.
    pub fn from_masks(masks: &[u16; 81], givens: &[u8; 81]) -> State {
        let mut s = State {
            cands: Bits::EMPTY,
            values: Bits::EMPTY,
        };
        for (c, &m) in masks.iter().enumerate() {
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    s.cands.insert(cand(c, d));
                }
            }
        }
        for (c, &g) in givens.iter().enumerate() {
            if (1..=9).contains(&g) {
                s.assert(cand(c, g as usize - 1));
            }
        }
        s
    }

    /// A state from givens only.
    pub fn from_givens(givens: &[u8; 81]) -> State {
        let masks = std::array::from_fn(|c| {
            if givens[c] == 0 {
                0x1FF
            } else {
                1 << (givens[c] - 1)
            }
        });
        State::from_masks(&masks, givens)
    }

    /// Decide candidate `z`: it becomes a value, its linked candidates go.
    /// Returns the candidates that were eliminated as a consequence.
    pub fn assert(&mut self, z: usize) -> Bits {
        let gone = self.cands.and(links(z));
        self.values.insert(z);
        self.cands.remove(z);
        self.cands = self.cands.minus(links(z));
        gone
    }

    /// Remove a live candidate. Returns whether it was live.
    pub fn eliminate(&mut self, z: usize) -> bool {
        let was = self.cands.contains(z);
        self.cands.remove(z);
        was
    }

    /// Live candidates of CSP variable `v`.
    #[inline]
    pub fn var_cands(&self, v: usize) -> Bits {
        self.cands.and(&TABLES.var[v])
    }

    /// Is CSP variable `v` decided (does it hold a value)?
    #[inline]
    pub fn is_decided(&self, v: usize) -> bool {
        self.values.intersects(&TABLES.var[v])
    }

    /// Is some undecided variable without a live candidate (a contradiction)?
    /// Read through per-cell digit masks of candidates and values: a cell
    /// with neither, or a house where some digit is neither a value nor a
    /// candidate.
    pub fn has_empty_var(&self) -> bool {
        // Row by row, nine 9-bit fields a row (a cell's digits held, live
        // or decided): a cell is empty when its field is 0, a row's digit
        // when no field has it; columns and blocks are accumulated.
        let held = self.cands.or(&self.values);
        let (mut cols, mut band) = (0u128, 0u128);
        for r in 0..9 {
            let h = row_bits(&held, r);
            // Bit 8 of each non-zero field: its low eight bits plus 0xFF
            // carry into bit 8 (never beyond), or bit 8 is set itself.
            if (((h & FIELD_LOW8) + FIELD_LOW8) | h) & FIELD_TOP != FIELD_TOP {
                return true;
            }
            // Field 0 gathers the row's nine fields.
            let mut u = h | h >> 9;
            u |= u >> 18;
            u |= u >> 36;
            u |= u >> 72;
            if u & 0x1FF != 0x1FF {
                return true;
            }
            cols |= h;
            band |= h;
            if r % 3 == 2 {
                // Fields 0, 3, 6 gather the band's three blocks.
                let b = band | band >> 9 | band >> 18;
                if b & FIELDS_036 != FIELDS_036 {
                    return true;
                }
                band = 0;
            }
        }
        cols != ROW81
    }

    /// Undecided variables with no live candidate: a contradiction.
    pub fn empty_vars(&self) -> Vec<usize> {
        (0..N_VARS)
            .filter(|&v| !self.is_decided(v) && self.var_cands(v).is_empty())
            .collect()
    }

    /// Undecided variables with exactly `k` live candidates
    /// (`k = 1`: singles, `k = 2`: bivalue / bilocal variables).
    pub fn vars_with(&self, k: usize) -> Vec<usize> {
        (0..N_VARS)
            .filter(|&v| !self.is_decided(v) && self.var_cands(v).len() == k)
            .collect()
    }

    /// Are `a` and `b` conjugate: the only two live candidates of a variable?
    pub fn conjugates(&self, a: usize, b: usize) -> bool {
        if a == b || !self.cands.contains(a) || !self.cands.contains(b) {
            return false;
        }
        cand_vars(a)
            .iter()
            .any(|&v| TABLES.var[v].contains(b) && self.var_cands(v).len() == 2)
    }

    /// Is every cell decided?
    pub fn is_solved(&self) -> bool {
        self.values.len() == N_CELLS
    }

    /// Number of decided cells.
    pub fn value_count(&self) -> usize {
        self.values.len()
    }

    /// The decided cells, one bit a cell (bit `c` for cell `c`).
    pub fn decided_cells(&self) -> u128 {
        self.values.iter().fold(0, |m, z| m | 1 << cand_cell(z))
    }

    /// Number of live candidates.
    pub fn cand_count(&self) -> usize {
        self.cands.len()
    }

    /// The decided digits, `0` where undecided.
    pub fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for z in self.values.iter() {
            g[cand_cell(z)] = cand_digit(z) as u8 + 1;
        }
        g
    }

    /// The candidate digits of a cell as text (the value if decided).
    pub fn cell_text(&self, c: usize) -> String {
        let set = if self.values.intersects(&TABLES.cell[c]) {
            self.values.and(&TABLES.cell[c])
        } else {
            self.cands.and(&TABLES.cell[c])
        };
        set.iter()
            .map(|z| char::from(b'1' + cand_digit(z) as u8))
            .collect()
    }

    /// The state as a 729-character pencil-mark line (81 groups of 9:
    /// position `d` holds digit `d+1` when it is a live candidate or the
    /// cell's value, `.` otherwise), which the input reader reads back.
    pub fn pencil_marks(&self) -> String {
        let mut out = String::with_capacity(N_CANDS);
        for c in 0..N_CELLS {
            for d in 0..9 {
                let z = cand(c, d);
                out.push(if self.cands.contains(z) || self.values.contains(z) {
                    char::from(b'1' + d as u8)
                } else {
                    '.'
                });
            }
        }
        out
    }

    /// The 81-character line of values (`.` where undecided).
    pub fn values_line(&self) -> String {
        self.grid()
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect()
    }
}

/// Renders the state as SudoRules' boxed candidate grid: every cell padded
/// to the width of the longest one plus a space.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<String> = (0..N_CELLS).map(|c| self.cell_text(c)).collect();
        let width = texts.iter().map(|t| t.len().max(1)).max().unwrap_or(1) + 1;
        let dashes = "-".repeat(3 * width + 1);
        let sep = format!("   +{dashes}+{dashes}+{dashes}+");
        writeln!(f, "{sep}")?;
        for r in 0..9 {
            write!(f, "   ")?;
            for c in 0..9 {
                if c % 3 == 0 {
                    write!(f, "! ")?;
                }
                let t = &texts[cell(r, c)];
                let t = if t.is_empty() { "-" } else { t.as_str() };
                write!(f, "{t:<width$}")?;
            }
            writeln!(f, "!")?;
            if r % 3 == 2 {
                writeln!(f, "{sep}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn givens(s: &str) -> [u8; 81] {
        let b = s.as_bytes();
        std::array::from_fn(|i| {
            if b[i].is_ascii_digit() {
                b[i] - b'0'
            } else {
                0
            }
        })
    }

    /// The row-wise bit tricks of `cell_masks` and `has_empty_var` agree
    /// with their definitions (one cell at a time; the variables one at a
    /// time) on random states, emptied or not, every variable emptied in
    /// turn included.
    #[test]
    fn fast_masks_and_emptiness_agree_with_their_definitions() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut empties, mut fulls) = (0, 0);
        for round in 0..400 {
            let mut s = State::empty_grid();
            // A few values asserted, then candidates thinned at random.
            for _ in 0..(round % 20) {
                let z = (next() % N_CANDS as u64) as usize;
                if s.cands.contains(z) {
                    s.assert(z);
                }
            }
            let keep = 1 + next() % 8;
            for z in s.cands.iter() {
                if next() % 8 >= keep {
                    s.cands.remove(z);
                }
            }
            let masks = cell_masks(&s.cands);
            for (c, &m) in masks.iter().enumerate() {
                assert_eq!(m, cell_mask(&s.cands, c));
            }
            assert_eq!(s.has_empty_var(), !s.empty_vars().is_empty());
            if s.has_empty_var() {
                empties += 1;
            } else {
                fulls += 1;
            }
        }
        // Each variable of a full grid emptied alone.
        for v in 0..N_VARS {
            let mut s = State::empty_grid();
            s.cands = s.cands.minus(&s.var_cands(v));
            assert!(s.has_empty_var(), "{v}");
        }
        assert!(!State::empty_grid().has_empty_var());
        assert!(empties > 50 && fulls > 50, "{empties} {fulls}");
    }

    #[test]
    fn asserting_removes_linked_candidates() {
        let mut s = State::empty_grid();
        let gone = s.assert(cand(cell(0, 0), 4));
        assert_eq!(gone.len(), 28);
        assert_eq!(s.cand_count(), 729 - 29);
        assert!(s.is_decided(var(Space::Rn, 4)));
        assert!(!s.is_decided(var(Space::Rn, 3)));
        assert!(s.empty_vars().is_empty());
    }

    #[test]
    fn conjugacy_on_a_known_state() {
        // The puzzle of subsets-S3-FSHTrow-SE8 (SudoRules example), after its givens.
        let s = State::from_givens(&givens(
            ".2.1.3.9..8.4.9.6...........6..1..3...8.3.1..2.......5..56.84...42...65.81.7.5.29",
        ));
        // r9c7 has the single candidate 3 (a naked single): not a pair.
        assert_eq!(s.cell_text(cell(8, 6)), "3");
        // In row 4, digit 5 can only go to c1 (r4c2 is a 6, c3 has a 5 in r7,
        // c6 in r9, block 6 in r6c9) and c4: a bilocal rn variable.
        let a = cand(cell(3, 0), 4);
        let b = cand(cell(3, 3), 4);
        assert_eq!(
            s.var_cands(var(Space::Rn, 3 * 9 + 4)),
            Bits::from_indices([a, b])
        );
        assert!(s.conjugates(a, b));
        assert!(s.conjugates(b, a));
        // Linked but not conjugate: n5r4c1 and n5r5c1 share column 1, where 5
        // has five places.
        assert!(!s.conjugates(a, cand(cell(4, 0), 4)));
        assert_eq!(s.var_cands(var(Space::Cn, 4)).len(), 5);
        assert_eq!(s.vars_with(2).len(), 24);
        // Not even linked.
        assert!(!s.conjugates(a, cand(cell(0, 5), 4)));
    }

    #[test]
    fn contradiction_is_an_empty_variable() {
        let mut s = State::empty_grid();
        for d in 0..9 {
            s.eliminate(cand(cell(4, 4), d));
        }
        assert_eq!(s.empty_vars(), vec![var(Space::Rc, cell(4, 4))]);
        assert!(s.has_empty_var());
    }

    #[test]
    fn an_empty_variable_of_each_space_is_seen() {
        for v in 0..N_VARS {
            let mut s = State::empty_grid();
            for z in TABLES.var[v].iter() {
                s.eliminate(z);
            }
            assert!(s.has_empty_var(), "{v}");
            assert_eq!(s.empty_vars(), vec![v]);
            // A decided variable is not empty.
            let mut d = State::empty_grid();
            let z = TABLES.var[v].min().unwrap();
            d.assert(z);
            assert!(!d.has_empty_var(), "{v}");
        }
    }
}
