//! A typed run's resolution state: live and asserted local candidates of
//! its [`Frame`].
//!
//! As in `grid::state`, asserting a candidate eliminates every candidate
//! linked to it (elementary constraint propagation is part of asserting),
//! and a variable with neither a value nor a live candidate makes the
//! state a contradiction.

use super::frame::Frame;
use crate::grid::bits::BitSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State<const W: usize> {
    /// Live candidates (not asserted, not eliminated).
    pub cands: BitSet<W>,
    /// Asserted candidates since the givens.
    pub values: BitSet<W>,
}

impl<const W: usize> State<W> {
    /// The state a frame starts from: every local candidate live.
    pub fn start(frame: &Frame<W>) -> State<W> {
        State {
            cands: frame.all,
            values: BitSet::EMPTY,
        }
    }

    /// Asserts `z`: it becomes a value; it and its links are no longer live.
    pub fn assert(&mut self, frame: &Frame<W>, z: usize) {
        self.values.insert(z);
        self.cands.remove(z);
        self.cands = self.cands.minus(&frame.links[z]);
    }

    /// Eliminates the candidates of `set`.
    pub fn eliminate(&mut self, set: &BitSet<W>) {
        self.cands = self.cands.minus(set);
    }

    /// The live candidates of frame variable `v`.
    #[inline]
    pub fn var_live(&self, frame: &Frame<W>, v: usize) -> BitSet<W> {
        self.cands.and(&frame.vars[v].cands)
    }

    /// Whether frame variable `v` has its value.
    #[inline]
    pub fn decided(&self, frame: &Frame<W>, v: usize) -> bool {
        self.values.intersects(&frame.vars[v].cands)
    }

    /// Whether every open cell has its value.
    pub fn solved(&self, frame: &Frame<W>) -> bool {
        let values = if frame.cell_cands == frame.len() {
            self.values.len()
        } else {
            self.values
                .iter()
                .take_while(|&z| z < frame.cell_cands)
                .count()
        };
        values == frame.open_cells
    }

    /// A variable with neither a value nor a live candidate, if any.
    pub fn empty_var(&self, frame: &Frame<W>) -> Option<usize> {
        (0..frame.vars.len()).find(|&v| {
            let c = &frame.vars[v].cands;
            !c.intersects(&self.cands) && !c.intersects(&self.values)
        })
    }

    /// The symbol of each cell (0-based): the givens, the values asserted,
    /// `None` for a cell still open.
    pub fn grid(&self, frame: &Frame<W>) -> Vec<Option<usize>> {
        let m = &frame.model;
        let mut out = vec![None; m.n_cells];
        for &z in &frame.givens {
            out[m.cand_cell(z)] = Some(m.cand_symbol(z));
        }
        for z in self.values.iter().take_while(|&z| z < frame.cell_cands) {
            let g = frame.cand(z);
            out[m.cand_cell(g)] = Some(m.cand_symbol(g));
        }
        out
    }
}
