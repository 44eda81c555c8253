//! What linking gives a trial search's passes: the rule set a pass
//! propagates with (`propagate with SET`), prepared for the branch runner,
//! and the rules it applies at its stalls (`apply SET`), with the key of
//! its propagations ([`PropKey`]).
//!
//! The linker (`ruleset::Library`) resolves the names a spec writes and
//! hands the sets over; the search layer runs other rules through the
//! [`Searcher`] trait only.

use super::prepared::Prepared;
use super::spec::{Reads, Steps, TrialSpec};
use crate::search::Searcher;
use std::sync::Arc;

/// The searchers of a linked rule set, in the set's order.
pub type Linked = Vec<Arc<dyn Searcher>>;

/// The rules a pass applies between implication rounds (`apply SET`), in
/// the set's order.
pub type Applied = Vec<AppliedRule>;

/// One rule a pass applies in its branches.
#[derive(Clone, Debug)]
pub struct AppliedRule {
    /// Rules of equal complexity form one group.
    pub complexity: i64,
    /// The rule's name, shown beside the literals its matches conclude.
    pub name: Arc<str>,
    pub searcher: Arc<dyn Searcher>,
}

/// What decides the graph a propagation from one assumption makes in a
/// state: the implication steps, whether they read the branch, and the
/// rules applied at its stalls, in order: each one's searcher (its address:
/// the linker gives a rule file's rules to every set that includes it) and
/// its complexity (which groups it). Two passes with one key make the same
/// propagations; one whose rules begin with another's, a whole number of
/// groups, makes the same as the other until the other's stops.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PropKey {
    pub(super) steps: Steps,
    pub(super) dynamic: bool,
    pub(super) sig: Vec<(usize, i64)>,
}

impl PropKey {
    pub(super) fn new(steps: Steps, dynamic: bool, rules: &[AppliedRule]) -> PropKey {
        let sig = rules
            .iter()
            .map(|r| (Arc::as_ptr(&r.searcher) as *const () as usize, r.complexity))
            .collect();
        PropKey {
            steps,
            dynamic,
            sig,
        }
    }

    /// Does a propagation of `self` make the same graph as one of `long`
    /// until it stops (the same steps, and `long`'s rules begin with
    /// `self`'s, a whole number of groups)?
    pub(super) fn prefix_of(&self, long: &PropKey) -> bool {
        let k = self.sig.len();
        let sig = &long.sig;
        self.steps == long.steps
            && self.dynamic == long.dynamic
            && sig.len() >= k
            && sig[..k] == self.sig
            && (k == 0 || k == sig.len() || sig[k].1 != sig[k - 1].1)
    }

    /// Does `self` apply more rules than `short`, beginning with them (see
    /// [`PropKey::prefix_of`])?
    pub(super) fn extends(&self, short: &PropKey) -> bool {
        self.sig.len() > short.sig.len() && short.prefix_of(self)
    }
}

/// What linking gave one pass, with the key of its propagations.
#[derive(Debug)]
pub(super) struct PassLinks {
    /// The rule set its `propagate with` names, prepared for the branch
    /// runner.
    set: Option<Prepared>,
    /// The rules its `apply` names.
    applied: Option<Applied>,
    /// The key of its propagations (its applied rules' signature once
    /// linked).
    pub(super) key: PropKey,
}

impl PassLinks {
    /// One for each pass of `spec`, nothing linked.
    pub(super) fn of(spec: &TrialSpec) -> Vec<PassLinks> {
        (spec.passes.iter())
            .map(|p| PassLinks {
                set: None,
                applied: None,
                key: PropKey::new(p.steps, p.reads == Reads::Branch, &[]),
            })
            .collect()
    }

    /// Gives the pass the searchers of the set its `propagate with` names.
    pub(super) fn link_set(&mut self, searchers: &Linked) {
        self.set = Some(Prepared::new(searchers));
    }

    /// Gives the pass the rules its `apply` names.
    pub(super) fn link_applied(&mut self, rules: Applied) {
        self.key = PropKey::new(self.key.steps, self.key.dynamic, &rules);
        self.applied = Some(rules);
    }

    /// The set the pass propagates with, if linked.
    pub(super) fn set(&self) -> Option<&Prepared> {
        self.set.as_ref()
    }

    /// The rules the pass applies, if linked.
    pub(super) fn applied(&self) -> Option<&[AppliedRule]> {
        self.applied.as_deref()
    }
}
