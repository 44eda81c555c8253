//! Implication steps: the literals one literal implies in one step, by a
//! pass's [`Steps`] (on ⇒ off by the cell or the houses, off ⇒ on by a
//! bivalue cell or a bilocal digit), read from the original state (static
//! steps) or from the branch's state (dynamic steps, which also name the
//! candidates already gone that they depend on: their hidden parents).
//!
//! A static step reads only the original state, so a literal's static
//! inferences are computed once, the first time it is stepped, and kept
//! ([`Infer`]) for the pass, and for later passes and searches that read
//! the same candidates with the same steps for the literal's polarity.
//!
//! Architecture Invariant: the inferences of a literal come in a fixed
//! order (the cell's, then the houses' in the order block, row, column,
//! each in cell order), which is Sudoku Explainer's: the order decides
//! which parent a literal inferred twice keeps, hence its chains.

use super::spec::Steps;
use crate::grid::bits::{Bits, LitSet};
use crate::grid::geometry::*;
use crate::grid::plane::{HOUSES81_BRC, PEERS81_BRC};
use crate::grid::state::cell_mask;
use crate::search::implication::{Cause, Graph, lit, lit_cand, lit_on};

/// Live candidates, with each digit's cells as a plane of 81 bits (house
/// steps read a digit's places in a house with one mask).
#[derive(Clone, Copy)]
pub(super) struct Live {
    pub(super) cands: Bits,
    pub(super) planes: [u128; 9],
}

impl Live {
    pub(super) fn of(cands: &Bits) -> Live {
        let mut planes = [0u128; 9];
        for z in cands.iter() {
            planes[cand_digit(z)] |= 1u128 << cand_cell(z);
        }
        Live {
            cands: *cands,
            planes,
        }
    }

    #[inline]
    pub(super) fn remove(&mut self, z: usize) {
        self.cands.remove(z);
        self.planes[cand_digit(z)] &= !(1u128 << cand_cell(z));
    }
}

/// An inferred literal before it becomes a node: its cause, and the
/// literals (off) it also depends on, read from the branch's state: the
/// `n_hidden` literals from `hidden` in the step's hidden buffer.
#[derive(Clone, Copy)]
pub(super) struct Inference {
    pub(super) lit: u16,
    pub(super) cause: Cause,
    pub(super) hidden: u16,
    pub(super) n_hidden: u8,
}

impl Inference {
    fn new(lit: u16, cause: Cause) -> Inference {
        Inference {
            lit,
            cause,
            hidden: 0,
            n_hidden: 0,
        }
    }
}

/// The inferences of literals: a dynamic step's, computed at each step, or
/// the static steps', which read only the original state: each literal's
/// computed the first time it is stepped, then kept for the pass, and for
/// later passes and searches that read the same state with the same steps
/// ([`Infer::keep_for`]; the buffers holding them go back to the run's
/// pool).
#[derive(Default)]
pub(super) struct Infer {
    /// A dynamic step's inferences.
    out: Vec<Inference>,
    /// The hidden literals of `out`'s inferences.
    hidden: Vec<u16>,
    /// Static steps: once `done` holds literal `l`, its inferences are
    /// `cache[span[l].0 ..][.. span[l].1]` (one array, not one per literal).
    pub(super) cache: Vec<Inference>,
    pub(super) span: Vec<(u32, u32)>,
    pub(super) done: LitSet,
    /// What the "on" literals' lists in `cache` were computed for: the
    /// original candidates and the steps an "on" literal takes (on ⇒ off
    /// by the cell, by the houses); `None`: nothing kept.
    on_key: Option<(Bits, bool, bool)>,
    /// The same for the "off" literals' lists (off ⇒ on by the cell, by
    /// the houses).
    off_key: Option<(Bits, bool, bool)>,
}

impl Infer {
    /// Ready for a static propagation from `cands` with `steps`: the lists
    /// of a previous pass or search that read the same candidates with the
    /// same steps for a literal's polarity are kept (a literal's static
    /// inferences depend on nothing else), the others dropped; `cache` is
    /// emptied when neither polarity's lists are kept.
    pub(super) fn keep_for(&mut self, cands: &Bits, steps: Steps) {
        if self.span.len() < 2 * N_CANDS {
            self.span.resize(2 * N_CANDS, (0, 0));
        }
        let on_key = Some((*cands, steps.on_off_cell, steps.on_off_house));
        let off_key = Some((*cands, steps.off_on_cell, steps.off_on_house));
        let (keep_on, keep_off) = (self.on_key == on_key, self.off_key == off_key);
        if !keep_on && !keep_off {
            self.cache.clear();
            self.done = LitSet::EMPTY;
        } else {
            // "On" literals are the even ones, "off" the odd ones.
            let mask = match (keep_on, keep_off) {
                (true, false) => 0x5555_5555_5555_5555u64,
                (false, true) => 0xAAAA_AAAA_AAAA_AAAAu64,
                _ => u64::MAX,
            };
            for w in &mut self.done.0 {
                *w &= mask;
            }
        }
        self.on_key = on_key;
        self.off_key = off_key;
    }
}

/// A pass's implication steps on a state: the steps, whether they read
/// the branch (dynamic) or the original state (static), and the original
/// state's live candidates.
pub(super) struct Stepper {
    pub(super) orig: Live,
    pub(super) steps: Steps,
    pub(super) dynamic: bool,
}

impl Stepper {
    pub(super) fn new(cands: &Bits, steps: Steps, dynamic: bool) -> Stepper {
        Stepper {
            orig: Live::of(cands),
            steps,
            dynamic,
        }
    }

    /// The inferences of literal `l` in `cur`, with the buffer of hidden
    /// literals they index. Static steps read the original state (`cur`
    /// is not read): a literal's are computed once, then read from
    /// `inf`'s cache.
    #[inline(always)]
    pub(super) fn step<'s>(
        &self,
        l: u16,
        cur: &Live,
        inf: &'s mut Infer,
    ) -> (&'s [Inference], &'s [u16]) {
        if !self.dynamic {
            let i = usize::from(l);
            if !inf.done.contains(i) {
                self.infer_static(l, inf);
            }
            let (s, n) = inf.span[i];
            return (&inf.cache[s as usize..(s + n) as usize], &[]);
        }
        self.step_dynamic(l, cur, inf)
    }

    /// A static step's inferences of literal `l`, into `inf`'s cache.
    #[inline(never)]
    pub(super) fn infer_static(&self, l: u16, inf: &mut Infer) {
        let (i, z) = (usize::from(l), lit_cand(l));
        inf.done.insert(i);
        let start = inf.cache.len();
        let orig = &self.orig;
        if orig.cands.contains(z) {
            if lit_on(l) {
                self.on_to_off(z, orig, &mut inf.cache);
            } else {
                self.off_to_on(z, orig, &mut inf.cache, &mut inf.hidden);
            }
        }
        inf.span[i] = (start as u32, (inf.cache.len() - start) as u32);
    }

    /// A dynamic step's inferences of literal `l` in `cur`.
    #[inline(never)]
    fn step_dynamic<'s>(
        &self,
        l: u16,
        cur: &Live,
        inf: &'s mut Infer,
    ) -> (&'s [Inference], &'s [u16]) {
        let z = lit_cand(l);
        inf.out.clear();
        inf.hidden.clear();
        if lit_on(l) {
            self.on_to_off(z, cur, &mut inf.out);
        } else {
            self.off_to_on(z, cur, &mut inf.out, &mut inf.hidden);
        }
        (&inf.out, &inf.hidden)
    }

    /// Appends to `out` the literals an "on" literal of `z` makes off, in
    /// `cur`: the cell's other candidates, then the digit's other places
    /// in the block, the row and the column (each once).
    fn on_to_off(&self, z: usize, cur: &Live, out: &mut Vec<Inference>) {
        let (c, d) = (cand_cell(z), cand_digit(z));
        if self.steps.on_off_cell {
            let mut m = cell_mask(&cur.cands, c) & !(1u16 << d);
            while m != 0 {
                let e = m.trailing_zeros() as usize;
                m &= m - 1;
                out.push(Inference::new(lit(cand(c, e), false), Cause::Cell));
            }
        }
        if self.steps.on_off_house {
            for &(peers, h) in &PEERS81_BRC[c] {
                let mut m = cur.planes[d] & peers;
                while m != 0 {
                    let o = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out.push(Inference::new(lit(cand(o, d), false), Cause::House(h)));
                }
            }
        }
    }

    /// Appends to `out` the literals an "off" literal of `z` makes on, in
    /// `cur`; dynamic steps also name the candidates gone from the cell or
    /// house, appended to `hidden`.
    fn off_to_on(&self, z: usize, cur: &Live, out: &mut Vec<Inference>, hidden: &mut Vec<u16>) {
        let start = out.len();
        let (c, d) = (cand_cell(z), cand_digit(z));
        if self.steps.off_on_cell {
            let live = cell_mask(&cur.cands, c);
            if live.count_ones() == 2 {
                // The other candidate (the first when `z` is not live).
                let rest = live & !(1u16 << d);
                let e = if rest != 0 {
                    rest.trailing_zeros() as usize
                } else {
                    d
                };
                let mut inf = Inference::new(lit(cand(c, e), true), Cause::Cell);
                if self.dynamic {
                    inf.hidden = hidden.len() as u16;
                    let mut gone = cell_mask(&self.orig.cands, c) & !live;
                    while gone != 0 {
                        let e = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        hidden.push(lit(cand(c, e), false));
                        inf.n_hidden += 1;
                    }
                }
                out.push(inf);
            }
        }
        if self.steps.off_on_house {
            for &(cells, h) in &HOUSES81_BRC[c] {
                let live = cur.planes[d] & cells;
                if live.count_ones() != 2 {
                    continue;
                }
                // The first place that is not `z`'s cell.
                let o = (live & !(1u128 << c)).trailing_zeros() as usize;
                let l = lit(cand(o, d), true);
                if out[start..].iter().any(|i| i.lit == l) {
                    continue;
                }
                let mut inf = Inference::new(l, Cause::House(h));
                if self.dynamic {
                    inf.hidden = hidden.len() as u16;
                    let mut gone = self.orig.planes[d] & cells & !live;
                    while gone != 0 {
                        let p = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        hidden.push(lit(cand(p, d), false));
                        inf.n_hidden += 1;
                    }
                }
                out.push(inf);
            }
        }
    }
}

/// The parents of an inference from node `p`: `p`, then the latest nodes
/// of its hidden literals, into `buf`.
#[inline]
pub(super) fn parents(g: &Graph, p: u32, inf: &Inference, hidden: &[u16], buf: &mut Vec<u32>) {
    buf.clear();
    buf.push(p);
    if inf.n_hidden == 0 {
        return;
    }
    let at = usize::from(inf.hidden);
    for &h in &hidden[at..at + usize::from(inf.n_hidden)] {
        if let Some(n) = g.get(h) {
            buf.push(n);
        }
    }
}
