//! The elements of the rule language on a run's [`Frame`]: cells, digits
//! (the type's symbols), houses, CSP variables and candidates, with the
//! tables the pattern interpreter ([`super::pattern`]) reads.
//!
//! Each element type has one index space, as in the classic back end:
//! a cell is its model index (`r * N + c`), a digit its symbol (`0..N`),
//! a house its index in [`Model::houses`] (rows, columns, blocks or
//! regions, then the type's other kinds: diagonals, windows, …), a
//! variable its frame index ([`Frame::vars`]) and a candidate its local
//! index. Sets of elements are [`BitSet<W>`] over those indices: a run
//! whose set holds pattern rules takes `W` large enough for every index
//! space ([`needed`]).
//!
//! The tables are built once per frame, the first time a pattern rule
//! runs on it ([`Frame::elems`]).

use super::frame::Frame;
use crate::grid::bits::BitSet;
use crate::model::Model;

/// The per-element tables of a frame.
#[derive(Clone, Debug)]
pub struct Elems<const W: usize> {
    /// Per cell, its local candidates (live at the start).
    pub cell_cands: Vec<BitSet<W>>,
    /// Per digit, its local candidates.
    pub digit_cands: Vec<BitSet<W>>,
    /// Per house, its local candidates.
    pub house_cands: Vec<BitSet<W>>,
    /// Per house, its cells.
    pub house_cells: Vec<BitSet<W>>,
    /// Per house kind, its houses.
    pub kind_houses: Vec<BitSet<W>>,
    /// Every house.
    pub all_houses: BitSet<W>,
    /// Per model space, its frame variables.
    pub space_vars: Vec<BitSet<W>>,
    /// Every frame variable.
    pub all_vars: BitSet<W>,
    /// Every cell.
    pub all_cells: BitSet<W>,
    /// Every digit.
    pub all_digits: BitSet<W>,
    /// Per local cell candidate, its cell and digit (a killer cage's
    /// combinations, after them, have neither: they are candidates of
    /// their cage's variable only).
    pub cand_cell: Vec<u32>,
    pub cand_digit: Vec<u16>,
    /// Per cell, its given digit.
    pub given: Vec<Option<u16>>,
    /// The cells with a given.
    pub given_cells: BitSet<W>,
    /// Per cell, the cells a chain of order relations rises to it from
    /// (`below(C)`) and rises to from it (`above(C)`); empty on a type
    /// without order relations ([`crate::model::Orders`]).
    pub below: Vec<BitSet<W>>,
    pub above: Vec<BitSet<W>>,
    /// Per frame variable, the cells of its killer cage (empty for a
    /// variable that is no cage).
    pub cage_cells: Vec<BitSet<W>>,
    /// Per frame variable, its killer cage's sum.
    pub cage_sum: Vec<Option<i64>>,
    /// Per cell, the frame variables of the killer cages holding it.
    pub cell_cages: Vec<BitSet<W>>,
}

/// The largest element index (plus one) a pattern rule may hold in a set
/// on a puzzle of `m` whose live candidates are `live`: what a run's
/// width must hold besides the candidates.
pub fn needed(m: &Model, live: &[bool]) -> usize {
    let vars = (0..m.n_vars)
        .filter(|&v| m.var_cands(v).any(|z| live[z]))
        .count();
    m.n_cells.max(m.houses.len()).max(m.n).max(vars)
}

impl<const W: usize> Elems<W> {
    /// The tables of `frame`; its width must hold every index space
    /// ([`needed`]).
    pub fn build(frame: &Frame<W>) -> Elems<W> {
        let m = &*frame.model;
        let cap = 64 * W;
        assert!(
            m.n_cells <= cap && m.houses.len() <= cap && frame.vars.len() <= cap,
            "a frame of {W} words too narrow for the type's elements"
        );
        let mut cell_cands = vec![BitSet::EMPTY; m.n_cells];
        let mut digit_cands = vec![BitSet::EMPTY; m.n];
        let mut cand_cell = Vec::with_capacity(frame.len());
        let mut cand_digit = Vec::with_capacity(frame.len());
        for z in 0..frame.cell_cands {
            let g = frame.cand(z);
            let (c, d) = (m.cand_cell(g), m.cand_symbol(g));
            cell_cands[c].insert(z);
            digit_cands[d].insert(z);
            cand_cell.push(c as u32);
            cand_digit.push(d as u16);
        }
        let mut house_cands = Vec::with_capacity(m.houses.len());
        let mut house_cells = Vec::with_capacity(m.houses.len());
        let mut kind_houses = vec![BitSet::EMPTY; m.kinds().len()];
        let mut all_houses = BitSet::EMPTY;
        for (h, house) in m.houses.iter().enumerate() {
            let mut cands = BitSet::EMPTY;
            let mut cells = BitSet::EMPTY;
            for &c in &house.cells {
                cands = cands.or(&cell_cands[c]);
                cells.insert(c);
            }
            house_cands.push(cands);
            house_cells.push(cells);
            kind_houses[house.kind].insert(h);
            all_houses.insert(h);
        }
        let mut space_vars = vec![BitSet::EMPTY; m.spaces.len()];
        let mut all_vars = BitSet::EMPTY;
        for (v, var) in frame.vars.iter().enumerate() {
            space_vars[var.space as usize].insert(v);
            all_vars.insert(v);
        }
        let mut given = vec![None; m.n_cells];
        let mut given_cells = BitSet::EMPTY;
        for &z in &frame.givens {
            let c = m.cand_cell(z);
            given[c] = Some(m.cand_symbol(z) as u16);
            given_cells.insert(c);
        }
        let (mut below, mut above) = (Vec::new(), Vec::new());
        if !m.orders.is_empty() {
            for c in 0..m.n_cells {
                below.push(m.orders.below(c).fold(BitSet::EMPTY, |mut s, y| {
                    s.insert(y);
                    s
                }));
                above.push(m.orders.above(c).fold(BitSet::EMPTY, |mut s, x| {
                    s.insert(x);
                    s
                }));
            }
        }
        let mut cage_cells = vec![BitSet::EMPTY; frame.vars.len()];
        let mut cage_sum = vec![None; frame.vars.len()];
        let mut cell_cages = vec![BitSet::EMPTY; m.n_cells];
        for cage in &m.cages {
            // Every cage's variable keeps a live combination (the true
            // one) once the givens are placed.
            let Some(v) = frame.vars.iter().position(|x| x.var as usize == cage.var) else {
                continue;
            };
            for &c in &cage.cells {
                cage_cells[v].insert(c);
                cell_cages[c].insert(v);
            }
            cage_sum[v] = Some(cage.sum as i64);
        }
        Elems {
            below,
            above,
            cage_cells,
            cage_sum,
            cell_cages,
            cell_cands,
            digit_cands,
            house_cands,
            house_cells,
            kind_houses,
            all_houses,
            space_vars,
            all_vars,
            all_cells: BitSet::first(m.n_cells),
            all_digits: BitSet::first(m.n),
            cand_cell,
            cand_digit,
            given,
            given_cells,
        }
    }
}
