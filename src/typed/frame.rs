//! A run's CSP: the puzzle type's candidates, variables, links and groups
//! restricted to the candidates still live once the givens are placed,
//! renumbered `0..len` ("local" candidates), with fixed-width sets.
//!
//! A 16×16 puzzle has about 1,000 live candidates of its 4,096, a 49×49
//! one about 20,000 of 117,649: renumbering makes every set of a run as
//! small as its puzzle, and the links of each live candidate can then be
//! kept as a set (as CSP-Rules builds its links at `init-links`), which
//! the whole model could not afford (sudoku:49 has ten million links).
//! The width `W` (64-bit words) is chosen per run from the live count
//! ([`super::dispatch`]).
//!
//! Architecture Invariant: a frame is built once per puzzle and never
//! changes; states ([`super::state::State`]) are sets over its local
//! candidates.

use super::elems::Elems;
use crate::grid::bits::BitSet;
use crate::model::{GroupKind, Model};
use std::sync::{Arc, OnceLock};

/// No local candidate (a model candidate dead before the run).
pub const NONE: u32 = u32::MAX;

/// A CSP variable with at least one live candidate.
#[derive(Clone, Debug)]
pub struct FrameVar<const W: usize> {
    /// The model's variable.
    pub var: u32,
    /// Its space (index in [`Model::spaces`]).
    pub space: u16,
    /// Its live candidates at the start (local).
    pub cands: BitSet<W>,
}

/// A g-candidate of the run: a model group with two or more live
/// candidates.
#[derive(Clone, Debug)]
pub struct FrameGroup<const W: usize> {
    /// The model's group (index in [`Model::groups`]).
    pub group: u32,
    /// Its live candidates at the start (local).
    pub cands: BitSet<W>,
    /// The local candidates linked to every one of them.
    pub glinks: BitSet<W>,
    /// The frame variables holding all of its candidates (the two house
    /// variables of its symbol), in increasing order.
    pub vars: Vec<u32>,
}

/// The run's CSP (see the module docs).
#[derive(Clone, Debug)]
pub struct Frame<const W: usize> {
    pub model: Arc<Model>,
    /// Local candidate → model candidate.
    pub global: Vec<u32>,
    /// Model candidate → local candidate, or [`NONE`].
    pub local: Vec<u32>,
    /// Per local candidate, the local candidates linked to it.
    pub links: Vec<BitSet<W>>,
    /// The variables with a live candidate, in model order.
    pub vars: Vec<FrameVar<W>>,
    /// Per local candidate, its frame variables (increasing).
    pub cand_vars: Vec<Vec<u32>>,
    /// The g-candidates (groups with two or more live candidates).
    pub groups: Vec<FrameGroup<W>>,
    /// Per frame variable, the g-candidates within it.
    pub var_groups: Vec<Vec<u32>>,
    /// The given candidates (model indices), in increasing order.
    pub givens: Vec<usize>,
    /// The cells without a given: a run is solved when each has a value.
    pub open_cells: usize,
    /// The local candidates that are cells' (`0..cell_cands`); those
    /// from here on are killer cages' combinations.
    pub cell_cands: usize,
    /// All local candidates.
    pub all: BitSet<W>,
    /// The pattern language's element tables, built when a pattern rule
    /// first runs on the frame ([`Frame::elems`]).
    elems: OnceLock<Elems<W>>,
}

/// Why a puzzle has no frame: its givens contradict each other, or some
/// variable has no candidate left once they are placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoFrame(pub String);

/// The number of live candidates once the givens are placed (what the
/// width of a run's sets must hold), or why the givens contradict.
pub fn live_after_givens(m: &Model, givens: &[Option<usize>]) -> Result<Vec<bool>, NoFrame> {
    let mut live = vec![true; m.n_cands];
    let names = m;
    let mut given_cands = Vec::new();
    for (cell, g) in givens.iter().enumerate() {
        if let Some(s) = g {
            given_cands.push(m.cand(cell, *s));
        }
    }
    for &z in &given_cands {
        if !live[z] {
            return Err(NoFrame(format!(
                "the givens contradict: {} is linked to another given",
                names.asserted_name(z)
            )));
        }
        for w in m.links(z) {
            live[w] = false;
        }
    }
    for &z in &given_cands {
        live[z] = false;
    }
    // Cells with a given keep no candidate; check every other variable.
    let given_set: std::collections::HashSet<usize> = given_cands.iter().copied().collect();
    for v in 0..m.n_vars {
        let cands: Vec<usize> = m.var_cands(v).collect();
        if cands.iter().any(|z| given_set.contains(z)) {
            continue;
        }
        if !cands.iter().any(|&z| live[z]) {
            return Err(NoFrame(format!(
                "the givens leave no candidate for {}",
                m.var_name(v)
            )));
        }
    }
    Ok(live)
}

impl<const W: usize> Frame<W> {
    /// The frame of a puzzle of `model` with `givens` whose live
    /// candidates are `live` ([`live_after_givens`]); `W` words must hold
    /// them all.
    pub fn build(model: Arc<Model>, givens: &[Option<usize>], live: &[bool]) -> Frame<W> {
        let m = &*model;
        let mut global = Vec::new();
        let mut local = vec![NONE; m.n_cands];
        for z in 0..m.n_cands {
            if live[z] {
                local[z] = global.len() as u32;
                global.push(z as u32);
            }
        }
        let n = global.len();
        let cell_cands = global.partition_point(|&z| m.is_cell_cand(z as usize));
        assert!(n <= 64 * W, "a frame of {n} candidates in {W} words");
        let mut all = BitSet::<W>::EMPTY;
        for i in 0..n {
            all.insert(i);
        }
        let links: Vec<BitSet<W>> = global
            .iter()
            .map(|&z| {
                let mut s = BitSet::<W>::EMPTY;
                for w in m.links(z as usize) {
                    if local[w] != NONE {
                        s.insert(local[w] as usize);
                    }
                }
                s
            })
            .collect();
        let mut vars = Vec::new();
        for v in 0..m.n_vars {
            let mut cands = BitSet::<W>::EMPTY;
            for z in m.var_cands(v) {
                if local[z] != NONE {
                    cands.insert(local[z] as usize);
                }
            }
            if !cands.is_empty() {
                vars.push(FrameVar {
                    var: v as u32,
                    space: m.var_space(v) as u16,
                    cands,
                });
            }
        }
        let mut cand_vars = vec![Vec::new(); n];
        for (fv, var) in vars.iter().enumerate() {
            for z in var.cands.iter() {
                cand_vars[z].push(fv as u32);
            }
        }
        let mut groups = Vec::new();
        let mut var_groups = vec![Vec::new(); vars.len()];
        for (g, group) in m.groups.iter().enumerate() {
            let mut cands = BitSet::<W>::EMPTY;
            for &z in &group.cands {
                if local[z] != NONE {
                    cands.insert(local[z] as usize);
                }
            }
            if cands.len() < 2 {
                continue;
            }
            // The candidates linked to every one of its candidates. For a
            // house group, its live ones or all give the same; a segment
            // of a cell's symbols is linked as a whole, as CSP-Rules links
            // its g-labels (with only its live symbols, a constraint with
            // a third cell may link more).
            let glinks = match group.kind {
                GroupKind::Houses { .. } => {
                    let mut glinks = all;
                    for z in cands.iter() {
                        glinks = glinks.and(&links[z]);
                    }
                    glinks
                }
                GroupKind::Segment { .. } => {
                    let mut glinks = BitSet::<W>::EMPTY;
                    for z in m.group_links(g) {
                        if local[z] != NONE {
                            glinks.insert(local[z] as usize);
                        }
                    }
                    glinks
                }
            };
            let gi = groups.len() as u32;
            let vars_of: Vec<u32> = cand_vars[cands.min().expect("two candidates")]
                .iter()
                .copied()
                .filter(|&fv| cands.is_subset(&vars[fv as usize].cands))
                .collect();
            for &fv in &vars_of {
                var_groups[fv as usize].push(gi);
            }
            groups.push(FrameGroup {
                group: g as u32,
                cands,
                glinks,
                vars: vars_of,
            });
        }
        let mut given_list: Vec<usize> = givens
            .iter()
            .enumerate()
            .filter_map(|(c, g)| g.map(|s| m.cand(c, s)))
            .collect();
        given_list.sort_unstable();
        let open_cells = givens.iter().filter(|g| g.is_none()).count();
        Frame {
            model,
            global,
            local,
            links,
            vars,
            cand_vars,
            groups,
            var_groups,
            givens: given_list,
            open_cells,
            cell_cands,
            all,
            elems: OnceLock::new(),
        }
    }

    /// The element tables of pattern rules ([`Elems`]), built on first use.
    pub fn elems(&self) -> &Elems<W> {
        self.elems.get_or_init(|| Elems::build(self))
    }

    /// The number of local candidates.
    pub fn len(&self) -> usize {
        self.global.len()
    }

    /// Whether the frame has no candidate (every cell given).
    pub fn is_empty(&self) -> bool {
        self.global.is_empty()
    }

    /// The model candidate of local candidate `z`.
    #[inline]
    pub fn cand(&self, z: usize) -> usize {
        self.global[z] as usize
    }

    /// CSP-Rules' name of local candidate `z` (`r12c3n5` style).
    pub fn cand_name(&self, z: usize) -> String {
        self.model.cand_name(self.cand(z))
    }

    /// The name of frame variable `v` (`r1c2`, `r1n5`, …).
    pub fn var_name(&self, v: usize) -> String {
        self.model.var_name(self.vars[v].var as usize)
    }

    /// Candidate `z` as written inside variable `v` (`n5` in `r1c2`, `c3`
    /// in `r1n5`).
    pub fn cand_in_var(&self, v: usize, z: usize) -> String {
        self.model
            .cand_in_var(self.vars[v].var as usize, self.cand(z))
    }

    /// The name of a space.
    pub fn space_name(&self, space: usize) -> &str {
        &self.model.spaces[space].name
    }
}
