//! A lower bound on the variables a partial chain still needs, for the
//! chains whose variables hold nothing but their linking candidates
//! (no extras, no g-candidates, left-linking candidates linked to the
//! previous right-linking one) and that end on a right-linking candidate
//! linked to the target: bivalue chains and their typed forms.
//!
//! Such a chain, read without its conditions on repeated candidates, is a
//! walk in the graph whose arcs go from a candidate `r` to a candidate `r'`
//! when some variable holds exactly `r'` and a live candidate `l` linked to
//! `r`. A chain that goes on from a partial chain whose last right-linking
//! candidate is `r` with `d` more variables is such a walk of `d` arcs from
//! `r` to a candidate linked to the target. So the distance in that graph
//! from `r` to the target's links ([`Reach::need`]) is at most the number
//! of variables still needed: a partial chain of `k` variables whose `k +
//! need` passes the longest length asked for has no extension that ends,
//! and the breadth-first search ([`super::bfs`]) drops it. Nothing is lost:
//! every chain found without the bound is found with it.
//!
//! The distances are computed per target, backwards from the target's
//! links, from a table of arcs into each candidate made once per state.
//! Where no walk reaches the target's links at all (the target is true in
//! every solution the arcs allow, for instance), the search ends at once
//! instead of enumerating every partial chain up to the longest length.
//!
//! A chain's candidates all differ and none is the target, so the rest of
//! a chain is such a walk through candidates (right-linking ones, and the
//! left-linking one each arc passes through) that the partial chain has not
//! used: [`Reach::reaches`] asks for one of those for each partial chain.
//! Without the used left-linking candidates the bound let through partial
//! chains whose only walks went back through them, and a target with walks
//! but no chain cost every partial chain to the longest length (seconds
//! per target for bivalue chains up to 20).

use super::{ChainSearch, Ending, Extras, Linking};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::state::State;
use crate::grid::tables::TABLES;

/// The longest length asked for from which the bound is computed: below,
/// the search is cheap and the bound would cost more than it saves.
const FROM_LENGTH: usize = 6;

/// Unreachable.
const FAR: u8 = u8::MAX;

/// The arcs into each candidate of one state, and one target's distances.
#[derive(Default)]
pub(super) struct Reach {
    /// The live candidates the table was made for.
    made_for: Option<Bits>,
    /// Per candidate `r'`: the candidates `r` with an arc `r → r'`.
    into: Vec<Bits>,
    /// Per candidate `r'`: the candidates `l` of the variables that hold
    /// exactly `l` and `r'` (an arc `r → r'` passes through one of them).
    partners: Vec<Bits>,
    /// Per candidate: the distance to the target's links (`FAR`: none).
    need: Vec<u8>,
    /// The target's links (level 0 of the distances) and the live
    /// candidates, for [`Reach::reaches`].
    goal: Bits,
    live: Bits,
    /// No bound (tests compare the search with and without it).
    #[cfg(test)]
    pub(super) off: bool,
}

impl Reach {
    pub(super) fn bytes(&self) -> usize {
        (self.into.capacity() + self.partners.capacity()) * std::mem::size_of::<Bits>()
            + self.need.capacity()
    }

    /// The variables a partial chain whose last right-linking candidate is
    /// `r` still needs, at least (after [`Reach::prepare`] made it for the
    /// target; `0` when it was not made).
    #[inline]
    pub(super) fn need(&self, r: usize) -> usize {
        match self.need.get(r) {
            Some(&d) if d == FAR => usize::MAX / 2,
            Some(&d) => usize::from(d),
            None => 0,
        }
    }

    /// Makes the distances for target `z` of `search` in `state`, when the
    /// chains searched (up to `longest` variables) are of the kind the
    /// bound holds for; otherwise leaves no bound. With `within`, only
    /// chains whose last right-linking candidate is one of those are
    /// wanted.
    pub(super) fn prepare(
        &mut self,
        search: &ChainSearch,
        state: &State,
        z: usize,
        longest: usize,
        within: Option<&Bits>,
    ) {
        self.need.clear();
        let spec = &search.spec;
        #[cfg(test)]
        if self.off {
            return;
        }
        if longest < FROM_LENGTH
            || spec.extras != Extras::default()
            || spec.groups
            || spec.linking != Linking::Previous
            || spec.ending != Ending::LinkedToTarget
        {
            return;
        }
        let live = &state.cands;
        if self.made_for != Some(*live) {
            self.arcs(search, live);
        }
        self.need.resize(N_CANDS, FAR);
        let mut goal = links(z).and(live);
        if spec.one_digit {
            goal = goal.and(&TABLES.digit[cand_digit(z)]);
        }
        if let Some(w) = within {
            goal = goal.and(w);
        }
        // Level d: the candidates with an arc into level d − 1 (level 0:
        // the target's links, which the last right-linking candidate is
        // one of).
        self.goal = goal;
        self.live = *live;
        let mut seen = Bits::EMPTY;
        let mut level = goal;
        for d in 1..=longest.min(usize::from(FAR - 1)) {
            let mut next = Bits::EMPTY;
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
    /// through none of `used` (the candidates of a partial chain and the
    /// target, which no later candidate of the chain may be: neither a
    /// right-linking candidate nor the left-linking one an arc passes
    /// through)? A partial chain for which it cannot has no extension that
    /// ends in time. `true` when no bound was made.
    pub(super) fn reaches(&self, r: usize, used: &Bits, steps: usize) -> bool {
        if self.need.is_empty() {
            return true;
        }
        let open = self.live.minus(used);
        let mut seen = Bits::EMPTY;
        let mut level = self.goal.and(&open);
        for _ in 0..steps {
            let mut next = Bits::EMPTY;
            for x in level.iter() {
                for l in self.partners[x].and(&open).iter() {
                    next = next.or(links(l));
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
    fn arcs(&mut self, search: &ChainSearch, live: &Bits) {
        self.into.clear();
        self.into.resize(N_CANDS, Bits::EMPTY);
        self.partners.clear();
        self.partners.resize(N_CANDS, Bits::EMPTY);
        for r2 in live.iter() {
            let mut from = Bits::EMPTY;
            let mut partners = Bits::EMPTY;
            for v in cand_vars(r2) {
                if !search.space_ok(v) {
                    continue;
                }
                let mut others = live.and(&TABLES.var[v]);
                others.remove(r2);
                if others.len() != 1 {
                    continue;
                }
                for l in others.iter() {
                    from = from.or(&links(l).and(live));
                    partners.insert(l);
                }
            }
            self.into[r2] = from;
            self.partners[r2] = partners;
        }
        self.made_for = Some(*live);
    }
}

#[cfg(test)]
mod tests {
    use super::super::bfs::{After, Buffers, Outcome};
    use super::super::{ChainSpec, Extras};
    use super::*;
    use crate::engine::Runner;
    use crate::grid::geometry::{cand, cell};
    use crate::ruleset;
    use crate::test_data::CBG_FIRST1000;

    fn biv(length: usize, spaces: [bool; 4]) -> ChainSearch {
        ChainSearch::new(ChainSpec {
            length,
            spaces,
            extras: Extras::default(),
            linking: Linking::Previous,
            ending: Ending::LinkedToTarget,
            show_last_right: true,
            groups: false,
            all_targets: true,
            one_digit: false,
            left_groups: false,
            als_nodes: false,
        })
    }

    #[test]
    fn the_bound_is_made_only_for_long_chains() {
        let s = State::empty_grid();
        let mut r = Reach::default();
        r.prepare(&biv(8, [true; 4]), &s, cand(cell(0, 0), 0), 8, None);
        // The empty grid has no bivalue variable: nothing reaches.
        assert_eq!(r.need(cand(cell(4, 4), 3)), usize::MAX / 2);
        r.prepare(&biv(3, [true; 4]), &s, cand(cell(0, 0), 0), 3, None);
        assert_eq!(r.need(cand(cell(4, 4), 3)), 0);
    }

    /// The lengths at which each target has a chain, and the search's
    /// nodes, with or without the bound.
    fn lengths(c: &ChainSearch, state: &State, off: bool) -> (Vec<u64>, u64) {
        let mut cx = crate::search::SearchCx::new(None);
        let mut buf = Buffers::default();
        buf.reach.off = off;
        let all: u64 = (2..=c.spec.length).map(|n| 1u64 << n).sum();
        let mut out = Vec::new();
        for z in state.cands.iter() {
            let mut got = 0u64;
            let o = c.bfs(&mut cx, state, z, all, &mut buf, &mut |n, _| {
                got |= 1 << n;
                After::Deeper
            });
            assert_eq!(o, Outcome::Done);
            out.push(got);
        }
        (out, cx.nodes)
    }

    /// With the bound, a bivalue chain (and a typed one) of each length is
    /// found for the same targets as without it, on the states of W paths,
    /// and the search visits fewer nodes.
    #[test]
    fn the_bound_loses_no_chain() {
        let set = ruleset::load("w").unwrap();
        let (mut with, mut without) = (0, 0);
        for line in CBG_FIRST1000.lines().skip(1).take(3) {
            let givens: [u8; 81] =
                std::array::from_fn(|i| line.as_bytes()[i].saturating_sub(b'0').min(9));
            let run = Runner::new(&set).run(State::from_givens(&givens));
            for st in run.steps.iter().map(|s| s.before).step_by(7) {
                for c in [biv(8, [true; 4]), biv(8, [true, false, false, false])] {
                    let (a, na) = lengths(&c, &st, false);
                    let (b, nb) = lengths(&c, &st, true);
                    assert_eq!(a, b);
                    with += na;
                    without += nb;
                }
            }
        }
        assert!(
            with < without,
            "{with} nodes with the bound, {without} without"
        );
    }
}
