//! Propagations shared between the trial rules the engine searches in one
//! state.
//!
//! A dynamic trial that applies rule groups R, and one that propagates with
//! the same steps and applies R followed by more groups, make the same
//! propagation from an assumption until the first one stops: at each stall
//! both search R's groups first, in the same state, and only when none has
//! a match with parents does the second one go on to its further groups.
//! So the second takes the first's graph and goes on from its last stall
//! (a rule set applied in branches that begins with another such set,
//! whole groups, shares the first level of its chains this way); a trial
//! applying no rules is the prefix of every trial with the same steps.
//!
//! Architecture Invariant: taking a propagation from the memo changes no
//! count. The taker is charged the search nodes the propagation counted
//! when it was made ([`Taken::nodes`]), so statistics are those of making
//! the graph again.

use super::link::{AppliedRule, PropKey};
use super::steps::Live;
use crate::grid::geometry::N_CANDS;
use crate::grid::state::State;
use crate::search::Searcher;
use crate::search::implication::{Graph, SavedGraph};
use std::sync::Arc;

/// The propagations of the trials the engine searched in the last state
/// where one was kept (a run's, in its `SearchCx`), and which ones to keep.
#[derive(Default)]
pub(super) struct Memo {
    /// The state the tables hold propagations of.
    state: Option<State>,
    tables: Vec<MemoTable>,
    /// Propagations taken from a trial with fewer rules, and continued.
    pub(super) resumed: u64,
    /// The keys of the run's trial passes that apply rules: a propagation
    /// is kept only when one of them extends its key (another trial of
    /// the run may take it).
    extenders: Vec<PropKey>,
}

/// The propagations of the trials with one key.
struct MemoTable {
    key: PropKey,
    /// Per literal: its propagation's place in `chains`, plus one (0: none).
    at: Vec<u32>,
    chains: Vec<MemoChain>,
    /// The entries of `chains` in use (the others keep their memory).
    used: usize,
    /// The applied rules' searchers, held so that no other searcher (of a
    /// rule set loaded later) takes an address the key names them by
    /// while the table lives.
    #[allow(dead_code)]
    searchers: Vec<Arc<dyn Searcher>>,
}

/// A propagation taken from the memo ([`Memo::lookup`]).
pub(super) struct Taken {
    /// Its contradiction, if it found one.
    pub(super) absurd: Option<(u32, u32)>,
    /// The applied rules it searched, without a match with parents at its
    /// last stall.
    pub(super) skip: usize,
    /// The search nodes it counted.
    pub(super) nodes: u64,
}

/// One finished propagation from an assumption.
struct MemoChain {
    graph: SavedGraph,
    /// Its contradiction, if it found one.
    absurd: Option<(u32, u32)>,
    /// The branch's state where it stopped.
    cur: Live,
    /// The search nodes it counted.
    nodes: u64,
}

impl Memo {
    /// The bytes the kept propagations hold (for the memory cap of a
    /// search).
    pub(super) fn bytes(&self) -> usize {
        self.tables
            .iter()
            .flat_map(|t| &t.chains)
            .map(|c| c.graph.bytes())
            .sum()
    }

    /// A memo for a run whose trial passes that apply rules have keys
    /// `extenders`.
    pub(super) fn extended_by(keys: impl IntoIterator<Item = PropKey>) -> Memo {
        let mut extenders: Vec<PropKey> = Vec::new();
        for k in keys {
            if !extenders.contains(&k) {
                extenders.push(k);
            }
        }
        Memo {
            extenders,
            ..Memo::default()
        }
    }

    /// Are the propagations of `key` worth keeping: does a pass of the run
    /// that applies more rules extend it?
    pub(super) fn keeps(&self, key: &PropKey) -> bool {
        self.extenders.iter().any(|k| k.extends(key))
    }

    /// The propagation from `source` in `original` that a propagation of
    /// `key` can start from, the longest made by a trial whose rules
    /// `key`'s extend: copied into `g`, its state into `cur`; returns its
    /// contradiction, the number of `key`'s rules it searched (without a
    /// match with parents at its last stall) and the search nodes it
    /// counted.
    pub(super) fn lookup(
        &mut self,
        key: &PropKey,
        original: &State,
        source: u16,
        g: &mut Graph,
        cur: &mut Live,
    ) -> Option<Taken> {
        if self.state.as_ref() != Some(original) {
            return None;
        }
        let (t, i) = self
            .tables
            .iter()
            .filter(|t| t.key.prefix_of(key))
            .filter_map(|t| match t.at[usize::from(source)] {
                0 => None,
                i => Some((t, i as usize - 1)),
            })
            .max_by_key(|(t, _)| t.key.sig.len())?;
        let m = &t.chains[i];
        g.restore(&m.graph);
        *cur = m.cur;
        let found = Taken {
            absurd: m.absurd,
            skip: t.key.sig.len(),
            nodes: m.nodes,
        };
        if found.absurd.is_none() && found.skip < key.sig.len() {
            self.resumed += 1;
        }
        Some(found)
    }

    /// Keeps the finished propagation of `key` (applying `rules`) from
    /// `source` in `original`: its graph `g`, its contradiction, the
    /// branch's state where it stopped and the nodes it counted.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
        &mut self,
        key: &PropKey,
        rules: &[AppliedRule],
        original: &State,
        source: u16,
        g: &Graph,
        absurd: Option<(u32, u32)>,
        cur: &Live,
        nodes: u64,
    ) {
        if self.state.as_ref() != Some(original) {
            self.state = Some(*original);
            for t in &mut self.tables {
                t.at.fill(0);
                t.used = 0;
            }
        }
        let t = match self.tables.iter().position(|t| t.key == *key) {
            Some(k) => &mut self.tables[k],
            None => {
                self.tables.push(MemoTable {
                    key: key.clone(),
                    searchers: rules.iter().map(|r| r.searcher.clone()).collect(),
                    at: vec![0; 2 * N_CANDS],
                    chains: Vec::new(),
                    used: 0,
                });
                self.tables.last_mut().expect("just pushed")
            }
        };
        let at = &mut t.at[usize::from(source)];
        let i = match *at {
            0 => {
                t.used += 1;
                *at = t.used as u32;
                if t.chains.len() < t.used {
                    t.chains.push(MemoChain {
                        graph: SavedGraph::default(),
                        absurd: None,
                        cur: *cur,
                        nodes: 0,
                    });
                }
                t.used - 1
            }
            i => i as usize - 1,
        };
        let m = &mut t.chains[i];
        g.save(&mut m.graph);
        m.absurd = absurd;
        m.cur = *cur;
        m.nodes = nodes;
    }
}
