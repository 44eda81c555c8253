//! A lower bound on the variables a partial chain still needs, for the
//! chains whose variables hold nothing but their linking candidates and
//! that end on a right-linking candidate linked to the target (bivalue
//! chains and their typed forms): the classic bound (`search::chain::reach`,
//! whose module docs hold the argument) over a frame's local candidates.
//! It only drops partial chains no extension of which ends, so the search
//! finds the same chains with it, in the same order as the classic search.

use super::TypedChain;
use crate::grid::bits::BitSet;
use crate::search::chain::{Ending, Extras, Linking};
use crate::typed::frame::Frame;
use crate::typed::state::State;

/// The longest length from which the bound is computed (as the classic).
const FROM_LENGTH: usize = 6;

/// Unreachable.
const FAR: u8 = u8::MAX;

/// The arcs into each candidate of one state, and one target's distances.
pub(super) struct Reach<const W: usize> {
    made_for: Option<BitSet<W>>,
    /// Per candidate `r'`: the candidates `r` with an arc `r → r'`.
    into: Vec<BitSet<W>>,
    /// Per candidate `r'`: the candidates `l` of the variables that hold
    /// exactly `l` and `r'`.
    partners: Vec<BitSet<W>>,
    /// Per candidate: the distance to the target's links (`FAR`: none).
    need: Vec<u8>,
    goal: BitSet<W>,
    live: BitSet<W>,
}

impl<const W: usize> Default for Reach<W> {
    fn default() -> Self {
        Reach {
            made_for: None,
            into: Vec::new(),
            partners: Vec::new(),
            need: Vec::new(),
            goal: BitSet::EMPTY,
            live: BitSet::EMPTY,
        }
    }
}

impl<const W: usize> Reach<W> {
    pub(super) fn bytes(&self) -> usize {
        (self.into.capacity() + self.partners.capacity()) * std::mem::size_of::<BitSet<W>>()
            + self.need.capacity()
    }

    /// The variables a partial chain whose last right-linking candidate is
    /// `r` still needs, at least (`0` when no bound was made).
    #[inline]
    pub(super) fn need(&self, r: usize) -> usize {
        match self.need.get(r) {
            Some(&d) if d == FAR => usize::MAX / 2,
            Some(&d) => usize::from(d),
            None => 0,
        }
    }

    /// Makes the distances for target `z` of `chain` in `st`, when the
    /// chains searched (`longest` variables) are of the kind the bound
    /// holds for; otherwise leaves no bound.
    pub(super) fn prepare(
        &mut self,
        chain: &TypedChain,
        frame: &Frame<W>,
        st: &State<W>,
        z: usize,
        longest: usize,
    ) {
        self.need.clear();
        let spec = &chain.spec;
        if longest < FROM_LENGTH
            || spec.extras != Extras::default()
            || spec.groups
            || spec.linking != Linking::Previous
            || spec.ending != Ending::LinkedToTarget
        {
            return;
        }
        let live = &st.cands;
        if self.made_for != Some(*live) {
            self.arcs(chain, frame, live);
        }
        self.need.resize(frame.len(), FAR);
        let mut goal = frame.links[z].and(live);
        if spec.one_digit {
            let m = &frame.model;
            let s = m.cand_symbol(frame.cand(z));
            goal = BitSet::from_indices(goal.iter().filter(|&x| m.cand_symbol(frame.cand(x)) == s));
        }
        self.goal = goal;
        self.live = *live;
        let mut seen = BitSet::EMPTY;
        let mut level = goal;
        for d in 1..=longest.min(usize::from(FAR - 1)) {
            let mut next = BitSet::EMPTY;
            for r in level.iter() {
                next = next.or(&self.into[r]);
            }
            next = next.minus(&seen);
            if next.is_empty() {
                break;
            }
            for r in next.iter() {
                self.need[r] = d as u8;
            }
            seen = seen.or(&next);
            level = next;
        }
    }

    /// Can a walk of at most `steps` arcs go from `r` to the target's links
    /// through none of `used`? `true` when no bound was made.
    pub(super) fn reaches(
        &self,
        frame: &Frame<W>,
        r: usize,
        used: &BitSet<W>,
        steps: usize,
    ) -> bool {
        if self.need.is_empty() {
            return true;
        }
        let open = self.live.minus(used);
        let mut seen = BitSet::EMPTY;
        let mut level = self.goal.and(&open);
        for _ in 0..steps {
            let mut next = BitSet::EMPTY;
            for x in level.iter() {
                for l in self.partners[x].and(&open).iter() {
                    next = next.or(&frame.links[l]);
                }
            }
            if next.contains(r) {
                return true;
            }
            seen = seen.or(&level);
            level = next.and(&open).minus(&seen);
            if level.is_empty() {
                return false;
            }
        }
        false
    }

    /// The table of arcs for the live candidates `live`.
    fn arcs(&mut self, chain: &TypedChain, frame: &Frame<W>, live: &BitSet<W>) {
        self.into.clear();
        self.into.resize(frame.len(), BitSet::EMPTY);
        self.partners.clear();
        self.partners.resize(frame.len(), BitSet::EMPTY);
        for r2 in live.iter() {
            let mut from = BitSet::EMPTY;
            let mut partners = BitSet::EMPTY;
            for &v in &frame.cand_vars[r2] {
                let v = v as usize;
                if !chain.space_ok(frame, v) {
                    continue;
                }
                let mut others = live.and(&frame.vars[v].cands);
                others.remove(r2);
                if others.len() != 1 {
                    continue;
                }
                for l in others.iter() {
                    from = from.or(&frame.links[l].and(live));
                    partners.insert(l);
                }
            }
            self.into[r2] = from;
            self.partners[r2] = partners;
        }
        self.made_for = Some(*live);
    }
}
