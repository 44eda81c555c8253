//! The scratch of trial searches: the buffers of a propagation, the graphs
//! of a search, and the run's [`Scratch`] that keeps them from one search
//! to the next with the memo and the nesting depth. The run's scratch
//! travels in [`SearchCx`](crate::search::SearchCx) (its `trial` field), as
//! regex-automata's `Cache` travels beside its regex: the searches borrow
//! from it and give back, and nothing outlives the run.
//!
//! Architecture Invariant: what a search takes from the scratch changes
//! nothing it finds or counts. Buffers and graphs are cleared or overwritten
//! before they are read; static inferences are kept only for the same
//! candidates and steps ([`Infer::keep_for`]); a propagation taken from the
//! memo charges the nodes it counted.

use super::link::PropKey;
use super::memo::Memo;
use super::reach::Reach;
use super::steps::{Infer, Stepper};
use crate::grid::geometry::N_CANDS;
use crate::search::implication::{Graph, SavedGraph};
use std::fmt;

/// A first-in first-out queue of nodes that keeps its memory (a
/// propagation only appends to it, so it never wraps).
#[derive(Default)]
pub(super) struct Queue {
    items: Vec<u32>,
    head: usize,
}

impl Queue {
    pub(super) fn clear(&mut self) {
        self.items.clear();
        self.head = 0;
    }

    #[inline]
    pub(super) fn push_back(&mut self, n: u32) {
        self.items.push(n);
    }

    #[inline]
    pub(super) fn pop_front(&mut self) -> Option<u32> {
        let n = *self.items.get(self.head)?;
        self.head += 1;
        Some(n)
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.head == self.items.len()
    }

    /// The number of nodes queued.
    #[inline]
    pub(super) fn len(&self) -> u32 {
        (self.items.len() - self.head) as u32
    }
}

/// Reusable buffers of a breadth-first propagation: its queues, a parent
/// list, the static inferences and the static reachability of the pass.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) pend_on: Queue,
    pub(super) pend_off: Queue,
    pub(super) par: Vec<u32>,
    pub(super) infer: Infer,
    pub(super) reach: Reach,
}

impl Buffers {
    /// Ready for the propagations of a pass with `st`'s steps: no
    /// reachability yet, and the static inferences kept only where they
    /// are `st`'s ([`Infer::keep_for`]).
    pub(super) fn ready_for(&mut self, st: &Stepper) {
        self.reach.ready = false;
        if !st.dynamic {
            self.infer.keep_for(&st.orig.cands, st.steps);
        }
    }

    /// Ready for a new propagation: the queues emptied (the other buffers
    /// are cleared where they are filled; the static inferences stay).
    pub(super) fn emptied(&mut self) -> &mut Buffers {
        self.pend_on.clear();
        self.pend_off.clear();
        self
    }
}

/// The graphs of one search's implication passes, reused across their
/// candidates.
pub(super) struct Graphs {
    /// The "on" propagation of each candidate of the current cell (see
    /// [`Graphs::reserve`]).
    pub(super) on: Vec<Graph>,
    /// An "off" propagation, a cycle or a forcing chain search.
    pub(super) off: Graph,
    /// The "on" propagations of a digit's other places in a house (see
    /// [`Graphs::reserve`]).
    pub(super) region: Vec<Graph>,
    /// Per candidate: its "on" propagation in the current pass, when a
    /// region computed it before the candidate's own cell came (the same
    /// propagation: it is deterministic), with its contradiction if any.
    pub(super) cached: Vec<Option<Propagated>>,
}

/// A propagation's graph and its contradiction (the two nodes), if any.
pub(super) type Propagated = (SavedGraph, Option<(u32, u32)>);

impl Graphs {
    fn new() -> Graphs {
        Graphs {
            on: Vec::new(),
            off: Graph::new(),
            region: Vec::new(),
            cached: (0..N_CANDS).map(|_| None).collect(),
        }
    }

    /// The bytes the graphs hold (for the memory cap of a search).
    pub(super) fn bytes(&self) -> usize {
        let graphs: usize = self.on.iter().chain(&self.region).map(Graph::bytes).sum();
        let cached: usize = self.cached.iter().flatten().map(|(g, _)| g.bytes()).sum();
        graphs + self.off.bytes() + cached
    }

    /// `on` and `region` with `n` graphs at least (made as needed: a run
    /// whose cells hold few candidates makes few).
    pub(super) fn reserve(&mut self, n: usize) {
        for v in [&mut self.on, &mut self.region] {
            while v.len() < n {
                v.push(Graph::new());
            }
        }
    }
}

/// A run's scratch for its trial searches, the `trial` field of its
/// [`SearchCx`](crate::search::SearchCx): the buffers and graphs of
/// finished searches, reused by the next ones (a trial applied in another's
/// branches is searched thousands of times a step), the propagations the
/// run's trials share in one state, and how deeply trial searches are
/// nested. A new context starts with an empty one.
#[derive(Default)]
pub struct Scratch {
    /// How many trial searches are under way: 1 in a trial the engine
    /// searches, more in one applied in another's branches.
    pub(super) depth: u32,
    /// Boxed: a propagation takes one and gives it back by moving a
    /// pointer, not the kilobyte of its sets and queue heads.
    #[allow(clippy::vec_box)]
    buffers: Vec<Box<Buffers>>,
    graphs: Vec<Graphs>,
    /// The propagations of the trials the engine searched in one state.
    pub(super) memo: Memo,
}

impl Scratch {
    /// An empty scratch for a run whose trial passes that apply rules have
    /// keys `extenders` (see [`Memo::keeps`]).
    pub(super) fn extended_by(extenders: impl IntoIterator<Item = PropKey>) -> Scratch {
        Scratch {
            memo: Memo::extended_by(extenders),
            ..Scratch::default()
        }
    }

    /// Buffers for a propagation, to give back ([`Scratch::give_buffers`]).
    pub(super) fn buffers(&mut self) -> Box<Buffers> {
        self.buffers.pop().unwrap_or_default()
    }

    pub(super) fn give_buffers(&mut self, b: Box<Buffers>) {
        self.buffers.push(b);
    }

    /// Graphs for a search, to give back ([`Scratch::give_graphs`]).
    pub(super) fn graphs(&mut self) -> Graphs {
        self.graphs.pop().unwrap_or_else(Graphs::new)
    }

    pub(super) fn give_graphs(&mut self, g: Graphs) {
        self.graphs.push(g);
    }
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("Scratch")
            .field("depth", &self.depth)
            .field("buffers", &self.buffers.len())
            .field("graphs", &self.graphs.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{chain_steps, hard_state};
    use super::*;
    use crate::search::implication::{Cause, lit};

    /// Static inference lists kept from an earlier pass (same candidates,
    /// same steps for a polarity) are the lists computed afresh, and only
    /// those are kept.
    #[test]
    fn kept_static_inferences_are_the_fresh_ones() {
        let first = hard_state();
        let mut second = first;
        second.cands.remove(first.cands.min().expect("a candidate"));
        let [x, y, xy] = chain_steps();
        let lists = |inf: &Infer, l: u16| -> Vec<(u16, Cause)> {
            let (s, n) = inf.span[usize::from(l)];
            inf.cache[s as usize..(s + n) as usize]
                .iter()
                .map(|i| (i.lit, i.cause))
                .collect()
        };
        // (state, steps, on lists kept, off lists kept) in turn, one
        // propagation at a time: each takes the buffers the one before
        // gave back to the scratch.
        let runs = [
            (&first, x, false, false),
            (&first, y, false, false),
            (&first, xy, true, false),
            (&first, xy, true, true),
            (&second, xy, false, false),
            (&first, x, false, false),
        ];
        let mut scratch = Scratch::default();
        for (state, steps, on_kept, off_kept) in runs {
            let st = Stepper::new(&state.cands, steps, false);
            let mut sc = scratch.buffers();
            sc.ready_for(&st);
            let inf = &mut sc.infer;
            let done = inf.done;
            let (mut fresh, mut kept) = (Infer::default(), [0, 0]);
            fresh.keep_for(&state.cands, steps);
            for z in state.cands.iter() {
                for on in [true, false] {
                    let l = lit(z, on);
                    let was = done.contains(usize::from(l));
                    assert_eq!(was, if on { on_kept } else { off_kept }, "{l}");
                    kept[usize::from(!on)] += usize::from(was);
                    if !was {
                        st.infer_static(l, inf);
                    }
                    st.infer_static(l, &mut fresh);
                    assert_eq!(lists(inf, l), lists(&fresh, l), "{l}");
                }
            }
            let n = state.cands.len();
            assert_eq!(kept, [n * usize::from(on_kept), n * usize::from(off_kept)]);
            scratch.give_buffers(sc);
        }
    }
}
