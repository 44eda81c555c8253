//! A compiled pattern rule: its checked instructions (what shared prefixes
//! and count plans are recognised from), the prefixes it shares with the
//! plans of its file, what folding found, and its typed expressions (what
//! the matcher runs).

use super::fold::Folded;
use super::ir::{Instr, Op, Shape, ShowPart, Ty};
use super::prefix::Prefix;
use super::strategy::Strategy;
use super::typed::Typed;
use crate::search::ConclusionKind;

/// A compiled pattern rule: the [`Searcher`](crate::search::Searcher) of the `rule` kind.
#[derive(Clone, Debug)]
pub struct Plan {
    pub slots: usize,
    pub instrs: Vec<Instr>,
    pub conclusion: ConclusionKind,
    pub target: Op,
    /// `parents EXPR`: the candidates whose absence a match relies on,
    /// evaluated with the match's bound values on another state (see
    /// [`Searcher::parents`](crate::search::Searcher::parents)).
    pub parents: Option<Op>,
    pub show: Vec<ShowPart>,
    /// The name's holes bound by the match, each with the slot of its
    /// integer ([`super::Checked::name_holes`]): the step's name is the
    /// rule's with them filled in, and matches are reported in increasing
    /// order of their values (a stable sort: binding order among equals),
    /// as the family of one rule per value would find them.
    pub name_holes: Vec<(String, usize)>,
    /// What each slot of [`Evidence::Bindings`](crate::search::Evidence::Bindings) holds (an element or a set
    /// of elements; `None` for integers, conditions and quantified names),
    /// so that tools such as the pictures of `draw` can read a match's
    /// bound values without knowing the rule.
    pub slot_shapes: Vec<Option<Shape>>,
    /// The checker's type of each slot ([`super::Checked::slot_types`]).
    pub slot_types: Vec<Ty>,
    /// The first instructions this plan shares with other plans of its
    /// file, whose bindings are computed once per state (see
    /// [`super::prefix`]): shorter prefixes first, each shared with more
    /// plans; empty when it shares none.
    pub prefixes: Vec<Prefix>,
    /// Conditions folded into generators' domains (see [`super::fold`]).
    pub folded: Folded,
    /// What the matcher evaluates (see [`super::typed`]).
    pub typed: Typed,
    /// How the first match is found on a board: by the plan's
    /// instructions, or off the board's counts (see [`super::strategy`]).
    pub strategy: Strategy,
}

impl Plan {
    /// The values of the name's holes in a match's bound values, in the
    /// name's order (`None`: one is not an integer there).
    pub fn hole_values(&self, value: impl Fn(usize) -> Option<i64>) -> Option<Vec<i64>> {
        self.name_holes
            .iter()
            .map(|&(_, slot)| value(slot))
            .collect()
    }
}

/// `template` (a rule's name) with each hole of `holes` replaced by its
/// value (`asc[{K}]` with K = 3: `asc[3]`).
pub fn fill_name(template: &str, holes: &[(String, usize)], values: &[i64]) -> String {
    let mut s = template.to_string();
    for ((hole, _), v) in holes.iter().zip(values) {
        s = s.replace(&format!("{{{hole}}}"), &v.to_string());
    }
    s
}
