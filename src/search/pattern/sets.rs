//! Sets read off a state: the live candidates of elements, projections of
//! candidate sets onto element types, digit masks of cells, the cells of
//! each digit's candidates, and generators' default domains. What the
//! evaluators ([`super::eval`]) and the matcher ([`super::run`]) build
//! their values from.

use super::ir::{Elem, Val};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::state::{State, cell_masks, row_bits};
use crate::grid::tables::*;

/// Live candidates of one element.
#[inline]
pub(super) fn cands_of(state: &State, e: Elem, i: usize) -> Bits {
    let t = &*TABLES;
    let all = match e {
        Elem::Digit => &t.digit[i],
        Elem::Row | Elem::Column | Elem::Block | Elem::House => &t.house[i],
        Elem::Cell => &t.cell[i],
        Elem::Var(_) => &t.var[i],
        Elem::Cand => {
            return if state.cands.contains(i) {
                Bits::single(i)
            } else {
                Bits::EMPTY
            };
        }
    };
    state.cands.and(all)
}

/// The live candidates of an element (`Idx`) or of a set of elements.
#[inline]
pub(super) fn cands_val(state: &State, e: Elem, v: Val) -> Bits {
    match v {
        Val::Idx(i) => cands_of(state, e, i),
        Val::Set(s) => {
            if e == Elem::Cand {
                return s.and(&state.cands);
            }
            // Every candidate of the elements, then the live ones.
            let t = &*TABLES;
            let all: &[Bits] = match e {
                Elem::Digit => &t.digit,
                Elem::Row | Elem::Column | Elem::Block | Elem::House => &t.house,
                Elem::Cell => &t.cell,
                Elem::Var(_) => &t.var,
                Elem::Cand => unreachable!("handled above"),
            };
            let mut acc = Bits::EMPTY;
            for i in s.iter() {
                acc = acc.or(&all[i]);
            }
            acc.and(&state.cands)
        }
        _ => Bits::EMPTY,
    }
}

/// The digits of the live candidates of one cell or one candidate, as a
/// 9-bit mask (bit `d` for digit `d`).
#[inline]
pub(super) fn digit_mask(state: &State, e: Elem, i: usize) -> u64 {
    match e {
        Elem::Cand => {
            if state.cands.contains(i) {
                1 << cand_digit(i)
            } else {
                0
            }
        }
        _ => {
            let b = i * 9;
            let (w, off) = (b >> 6, b & 63);
            let mut v = state.cands.0[w] >> off;
            if off > 55 {
                v |= state.cands.0[w + 1] << (64 - off);
            }
            v & 0x1FF
        }
    }
}

/// The cells (`e` = cell) or the digits (`e` = digit) of the live
/// candidates of house `h`, from its nine cells' digit masks.
#[inline]
pub(super) fn house_project(state: &State, e: Elem, h: usize) -> Bits {
    let cells = &HOUSE_CELLS[h];
    if e == Elem::Digit {
        let all = cells
            .iter()
            .fold(0, |a, &c| a | digit_mask(state, Elem::Cell, c));
        return word_bits(all);
    }
    let mut out = Bits::EMPTY;
    for &c in cells {
        if digit_mask(state, Elem::Cell, c) != 0 {
            out.insert(c);
        }
    }
    out
}

/// `digits(H)` of house `h`: the union of its nine cells' masks.
#[inline]
pub(super) fn house_digits_mask(state: &State, h: usize) -> u64 {
    HOUSE_CELLS[h]
        .iter()
        .fold(0, |a, &c| a | digit_mask(state, Elem::Cell, c))
}

/// The nine bits a candidate set has in cell `c` (bit `d` for digit `d`).
#[inline(always)]
pub(super) fn nine_bits(s: &Bits, c: usize) -> u64 {
    let b = c * 9;
    let (w, off) = (b >> 6, b & 63);
    let mut v = s.0[w] >> off;
    if off > 55 {
        v |= s.0[w + 1] << (64 - off);
    }
    v & 0x1FF
}

/// Sets with at most this many members are projected member by member;
/// larger ones through per-cell masks.
const SMALL_SET: usize = 24;

/// Projection of a candidate set onto an element type.
pub fn project(e: Elem, s: &Bits) -> Bits {
    match e {
        Elem::Cand => *s,
        Elem::Cell => cells_in(s),
        Elem::Row | Elem::Column | Elem::Block | Elem::House => {
            // Houses are members 0 to 26: one word, the union of the
            // present cells' house bits.
            let keep: u64 = match e {
                Elem::Row => 0x1FF,
                Elem::Column => 0x1FF << 9,
                Elem::Block => 0x1FF << 18,
                _ => 0x7FF_FFFF,
            };
            let c = cells_in(s);
            let mut all = 0;
            for (w, &word) in c.0[..2].iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    all |= CELL_HOUSE_BITS[w * 64 + m.trailing_zeros() as usize];
                    m &= m - 1;
                }
            }
            word_bits(all & keep)
        }
        Elem::Digit if s.len() > SMALL_SET => {
            let mut out = Bits::EMPTY;
            for (d, all) in TABLES.digit.iter().enumerate() {
                if s.intersects(all) {
                    out.insert(d);
                }
            }
            out
        }
        _ if s.len() <= SMALL_SET => project_members(e, s),
        _ => project_masks(e, s),
    }
}

/// The cells of a candidate set: each found member skips the rest of its
/// cell, so the cost is one step per cell present.
fn cells_in(s: &Bits) -> Bits {
    let mut out = Bits::EMPTY;
    let words = s.0.len();
    let (mut w, mut word) = (0, s.0[0]);
    loop {
        while word == 0 {
            w += 1;
            if w == words {
                return out;
            }
            word = s.0[w];
        }
        let c = (w * 64 + word.trailing_zeros() as usize) / 9;
        out.insert(c);
        let next = (c + 1) * 9;
        if next >= N_CANDS {
            return out;
        }
        if next / 64 != w {
            w = next / 64;
            word = s.0[w];
        }
        word &= !0u64 << (next % 64);
    }
}

/// Projection of a small set: each member adds its elements.
fn project_members(e: Elem, s: &Bits) -> Bits {
    let mut out = Bits::EMPTY;
    for z in s.iter() {
        let c = cand_cell(z);
        match e {
            Elem::Cand => out.insert(z),
            Elem::Digit => out.insert(cand_digit(z)),
            Elem::Cell => out.insert(c),
            Elem::Row => out.insert(cell_houses(c)[0]),
            Elem::Column => out.insert(cell_houses(c)[1]),
            Elem::Block => out.insert(cell_houses(c)[2]),
            Elem::House => {
                for h in cell_houses(c) {
                    out.insert(h);
                }
            }
            Elem::Var(sp) => {
                for v in cand_vars(z) {
                    if sp.is_none_or(|sp| var_space(v) == sp) {
                        out.insert(v);
                    }
                }
            }
        }
    }
    out
}

/// Projection of a large set through the 81 per-cell digit masks.
pub(super) fn project_masks(e: Elem, s: &Bits) -> Bits {
    let mut out = Bits::EMPTY;
    let m = cell_masks(s);
    match e {
        Elem::Cand => return *s,
        Elem::Digit => {
            let all = m.iter().fold(0u16, |a, &x| a | x);
            for d in 0..9 {
                if all & (1 << d) != 0 {
                    out.insert(d);
                }
            }
        }
        Elem::Cell => {
            for (c, &x) in m.iter().enumerate() {
                if x != 0 {
                    out.insert(c);
                }
            }
        }
        Elem::Row | Elem::Column | Elem::Block | Elem::House => {
            let kinds: &[usize] = match e {
                Elem::Row => &[0],
                Elem::Column => &[1],
                Elem::Block => &[2],
                _ => &[0, 1, 2],
            };
            for (c, &x) in m.iter().enumerate() {
                if x != 0 {
                    let hs = cell_houses(c);
                    for &k in kinds {
                        out.insert(hs[k]);
                    }
                }
            }
        }
        Elem::Var(sp) => {
            let spaces: &[Space] = match sp {
                Some(Space::Rc) => &[Space::Rc],
                Some(Space::Rn) => &[Space::Rn],
                Some(Space::Cn) => &[Space::Cn],
                Some(Space::Bn) => &[Space::Bn],
                None => &Space::ALL,
            };
            for &sp in spaces {
                if sp == Space::Rc {
                    for (c, &x) in m.iter().enumerate() {
                        if x != 0 {
                            out.insert(var(Space::Rc, c));
                        }
                    }
                    continue;
                }
                let kind = sp as usize - 1;
                for h in 0..9 {
                    let or = house_cells(kind * 9 + h)
                        .iter()
                        .fold(0u16, |a, &c| a | m[c]);
                    for d in 0..9 {
                        if or & (1 << d) != 0 {
                            out.insert(var(sp, h * 9 + d));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The default domain of a generator: the elements of type `e` that still
/// have a live candidate (undecided cells, variables and houses with work
/// left, digits not yet placed everywhere, live candidates).
pub fn live_domain(state: &State, e: Elem) -> Bits {
    live_domain_in(state, e, &digit_cells(&state.cands))
}

/// [`live_domain`] with the cells of each digit's live candidates in
/// `state` given (`dc`, as [`digit_cells`] makes them and a search keeps
/// them): digits, houses and cells are read from them; candidates and
/// variables from the per-cell masks.
pub(super) fn live_domain_in(state: &State, e: Elem, dc: &[u128; 10]) -> Bits {
    let keep: u64 = match e {
        Elem::Cand | Elem::Var(_) => return project_masks(e, &state.cands),
        Elem::Cell => return cells_bits(dc[9]),
        Elem::Digit => {
            let live = (0..9).filter(|&d| dc[d] != 0).fold(0, |a, d| a | 1 << d);
            return word_bits(live);
        }
        Elem::Row => 0x1FF,
        Elem::Column => 0x1FF << 9,
        Elem::Block => 0x1FF << 18,
        Elem::House => 0x7FF_FFFF,
    };
    word_bits(houses_of_cells(dc[9]) & keep)
}

/// The cells of each digit's live candidates (bit c for cell c), and last
/// the cells with any live candidate, of the last candidate set asked
/// about in one search context (kept in its scratch, [`super::Scratch`]):
/// a search takes a copy of them in its frame, which every
/// [`super::Env`] it evaluates with points at, so that products
/// ([`super::typed::Prod`]) read them instead of gathering the cells of
/// 81-bit rows on every call (the searches run on one state mostly ask
/// about that state).
#[derive(Debug)]
pub struct DigitCells {
    cands: Bits,
    cells: [u128; 10],
}

impl Default for DigitCells {
    /// The cells of the empty set's digits: none.
    fn default() -> DigitCells {
        DigitCells {
            cands: Bits::EMPTY,
            cells: [0; 10],
        }
    }
}

impl DigitCells {
    /// The cells of `cands` by digit, computed when `cands` is not the
    /// set asked about last.
    #[inline]
    pub fn of(&mut self, cands: &Bits) -> &[u128; 10] {
        // Word by word, with no call: most calls find the same set.
        let differ = (self.cands.0.iter())
            .zip(&cands.0)
            .fold(0, |a, (x, y)| a | (x ^ y));
        if differ != 0 {
            self.cands = *cands;
            self.cells = digit_cells(cands);
        }
        &self.cells
    }
}

/// The houses that hold a cell of `cells`, as bits of houses: rows
/// 0 to 8, columns 9 to 17, blocks 18 to 26 (a band's three rows ORed
/// give its columns, and its blocks in groups of three).
pub(super) fn houses_of_cells(cells: u128) -> u64 {
    let (mut rows, mut cols, mut blocks) = (0u64, 0u64, 0u64);
    for band in 0..3 {
        let mut or = 0;
        for i in 0..3 {
            let r = 3 * band + i;
            let m = (cells >> (9 * r)) as u64 & 0x1FF;
            rows |= u64::from(m != 0) << r;
            or |= m;
        }
        cols |= or;
        for stack in 0..3 {
            blocks |= u64::from(or >> (3 * stack) & 7 != 0) << (3 * band + stack);
        }
    }
    rows | cols << 9 | blocks << 18
}

/// The cells of each digit's candidates in `cands`, then the cells of
/// any.
#[inline(never)]
pub(super) fn digit_cells(cands: &Bits) -> [u128; 10] {
    let mut out = [0u128; 10];
    for r in 0..9 {
        let row = row_bits(cands, r);
        if row == 0 {
            continue;
        }
        for (d, cells) in out[..9].iter_mut().enumerate() {
            // Bit 9k + d of the row to bit 9k, then bit 9k to bit 64 + k:
            // the terms 9k + 8j of the product are all distinct (no
            // carries), and j = 8 - k puts bit 9k at 64 + k.
            let low = (row >> d) & GROUP_LOWS;
            let m = (low.wrapping_mul(GATHER) >> 64) as u64 & 0x1FF;
            *cells |= u128::from(m) << (9 * r);
        }
    }
    out[9] = out[..9].iter().fold(0, |a, &x| a | x);
    out
}

/// Bit `9k` for each of a row's cells `k`.
const GROUP_LOWS: u128 = {
    let mut m = 0;
    let mut k = 0;
    while k < 9 {
        m |= 1 << (9 * k);
        k += 1;
    }
    m
};

/// Bit `8j` for j = 0 to 8: see [`Prod::cells`].
const GATHER: u128 = {
    let mut m = 0;
    let mut j = 0;
    while j < 9 {
        m |= 1 << (8 * j);
        j += 1;
    }
    m
};

/// A set of cells (members below 128) from a wide set.
#[inline(always)]
pub fn cells_word(b: &Bits) -> u128 {
    u128::from(b.0[0]) | u128::from(b.0[1]) << 64
}

/// The wide set of a set of cells.
#[inline(always)]
pub fn cells_bits(c: u128) -> Bits {
    let mut b = Bits::EMPTY;
    b.0[0] = c as u64;
    b.0[1] = (c >> 64) as u64;
    b
}

/// The wide set of a word.
#[inline(always)]
pub fn word_bits(w: u64) -> Bits {
    let mut b = Bits::EMPTY;
    b.0[0] = w;
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cells(H)` and `digits(H)` read from the cells' masks are the
    /// projections of the house's live candidates, on states from full to
    /// nearly empty.
    #[test]
    fn house_projections_agree() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut checked = 0;
        for density in [0u64, 2, 16, 128, 250, 256] {
            for _ in 0..20 {
                let mut masks = [0u16; N_CELLS];
                for m in masks.iter_mut() {
                    for d in 0..9 {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        if (x >> 56) < density {
                            *m |= 1 << d;
                        }
                    }
                }
                let state = State::from_masks(&masks, &[0; N_CELLS]);
                // The default domains too.
                for e in [
                    Elem::Digit,
                    Elem::Row,
                    Elem::Column,
                    Elem::Block,
                    Elem::House,
                    Elem::Cell,
                    Elem::Cand,
                    Elem::Var(None),
                ] {
                    assert_eq!(
                        live_domain(&state, e),
                        project_masks(e, &state.cands),
                        "{e:?}"
                    );
                }
                for h in 0..N_HOUSES {
                    let live = state.cands.and(&TABLES.house[h]);
                    for e in [Elem::Cell, Elem::Digit] {
                        assert_eq!(house_project(&state, e, h), project(e, &live), "{e:?} {h}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 20 * N_HOUSES * 2);
    }

    /// The fast projections agree with the per-cell masks on sets of every
    /// size, member-wise ones included.
    #[test]
    fn projections_agree_with_cell_masks() {
        let elems = [
            Elem::Digit,
            Elem::Row,
            Elem::Column,
            Elem::Block,
            Elem::House,
            Elem::Cell,
            Elem::Cand,
            Elem::Var(None),
            Elem::Var(Some(Space::Bn)),
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for density in [1u64, 3, 8, 40, 128, 255] {
            for _ in 0..50 {
                let mut s = Bits::EMPTY;
                for z in 0..N_CANDS {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (x >> 56) < density {
                        s.insert(z);
                    }
                }
                for e in elems {
                    assert_eq!(project(e, &s), project_masks(e, &s), "{e:?} {s:?}");
                }
            }
        }
        for e in elems {
            assert_eq!(project(e, &Bits::EMPTY), Bits::EMPTY);
            assert_eq!(
                project(e, &Bits::single(728)),
                project_masks(e, &Bits::single(728))
            );
        }
    }
}
