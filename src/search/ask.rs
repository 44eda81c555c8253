//! Asking a list of rules about conclusions: which of the wanted
//! eliminations and assertions do they make, with searches for those
//! conclusions ([`Searcher::search_for`]) rather than whole searches.
//!
//! The rules are asked in groups: chain rules whose clauses differ in their
//! length alone (a family: `whip[3]` … `whip[36]`, or the typed whips of one
//! space) make one group, searched together ([`chain::target::Family`]),
//! and every other rule is a group of its own. Nothing here names a rule
//! or a technique: a family is what the specs say.

use super::chain::target::Family;
use super::{Found, SearchCx, Searcher, SearcherKind, Targets};
use crate::grid::state::State;
use std::ops::ControlFlow;

#[cfg(doc)]
use super::chain;

/// Rules asked together.
#[derive(Clone, Debug)]
pub enum Group<'a> {
    /// One rule: its index in the list and its searcher.
    One(usize, &'a dyn Searcher),
    /// A family of chain rules (members by their index in the list).
    Chains(Family<'a>),
}

impl Group<'_> {
    /// The indices of the group's rules.
    pub fn ids(&self) -> Vec<usize> {
        match self {
            Group::One(i, _) => vec![*i],
            Group::Chains(f) => f.ids().collect(),
        }
    }

    /// The group's matches that make some of `wanted`, as
    /// [`Searcher::search_for`]; `f` gets the index of the rule of each.
    pub fn search_for(
        &self,
        cx: &mut SearchCx,
        state: &State,
        wanted: &Targets,
        f: &mut dyn FnMut(usize, Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            Group::One(i, s) => s.search_for(cx, state, wanted, &mut |m| f(*i, m)),
            Group::Chains(fam) => fam.search_for(cx, state, wanted, f),
        }
    }
}

/// The groups of `rules`, in the order of their first rules: each chain
/// rule joins the first family it fits (see [`Family::admits`]).
pub fn groups<'a>(rules: &[&'a dyn Searcher]) -> Vec<Group<'a>> {
    let mut out: Vec<Group<'a>> = Vec::new();
    for (i, s) in rules.iter().enumerate() {
        if let SearcherKind::Chain(c) = s.kind()
            && !c.alternating()
        {
            let fam = out.iter_mut().find_map(|g| match g {
                Group::Chains(f) if f.admits(c) => Some(f),
                _ => None,
            });
            match fam {
                Some(f) => f.add(i, c),
                None => out.push(Group::Chains(Family::new(i, c))),
            }
        } else {
            out.push(Group::One(i, *s));
        }
    }
    out
}
