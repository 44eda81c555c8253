//! Targeted chain searches: chains for the wanted targets only, for one
//! rule or for a *family* of rules (chain rules whose clauses differ in
//! their length alone, as `whip[3]` … `whip[36]`), searched together: one
//! breadth-first search per target finds the first chain of every length
//! (see [`super::bfs`]), instead of one search per length.
//!
//! A chain rule concludes its target, and with `targets all` every other
//! candidate the same chain fits ([`ChainSearch::fits`]). So a wanted
//! candidate that no chain of its own concludes may still be concluded by
//! the chain of another target: when some wanted candidates are left, the
//! targets whose chains could fit them (linked to a candidate linked to
//! them) are searched too, at every length not searched yet. What is
//! reported is thus exactly what the rules' whole searches conclude among
//! the wanted candidates ([`crate::search::Searcher::search_for`]).

use super::bfs::{After, Buffers, Lengths, Outcome};
use super::{ChainSearch, ChainSpec, Linking};
use crate::grid::bits::Bits;
use crate::grid::geometry::cand_digit;
use crate::grid::links::links;
use crate::grid::state::State;
use crate::grid::tables::TABLES;
use crate::search::{Found, SearchCx, Stop, Targets};
use std::ops::ControlFlow;

/// The longest lengths of the bands a targeted search looks at in turn
/// (every target to 4 variables, then to 8, …).
const BANDS: [usize; 4] = [4, 8, 16, 63];

/// The set of one length (none for length 0, which has no chains).
pub(super) fn lengths_of(n: usize) -> Lengths {
    if (1..64).contains(&n) { 1 << n } else { 0 }
}

/// Chain rules searched together: their clauses but the length are equal.
#[derive(Clone, Debug)]
pub struct Family<'a> {
    /// The first member (its clauses, but the length, are every member's).
    base: &'a ChainSearch,
    /// Each member's id (given by the caller) by length.
    by_length: Vec<Option<usize>>,
    lengths: Lengths,
}

impl<'a> Family<'a> {
    /// A family of one rule (id 0).
    pub fn of(rule: &'a ChainSearch) -> Family<'a> {
        Family::new(0, rule)
    }

    /// A family of one rule, with the caller's `id`.
    pub fn new(id: usize, rule: &'a ChainSearch) -> Family<'a> {
        let mut f = Family {
            base: rule,
            by_length: Vec::new(),
            lengths: 0,
        };
        f.add(id, rule);
        f
    }

    /// Whether `rule` may join: the same clauses but the length, and a
    /// length no member has.
    pub fn admits(&self, rule: &ChainSearch) -> bool {
        let strip = |s: &ChainSpec| ChainSpec {
            length: 0,
            ..s.clone()
        };
        strip(&self.base.spec) == strip(&rule.spec)
            && lengths_of(rule.spec.length) & self.lengths == 0
    }

    /// Adds `rule` (see [`Family::admits`]) with the caller's `id`.
    pub fn add(&mut self, id: usize, rule: &'a ChainSearch) {
        let n = rule.spec.length;
        if lengths_of(n) == 0 {
            return;
        }
        if self.by_length.len() <= n {
            self.by_length.resize(n + 1, None);
        }
        self.by_length[n] = Some(id);
        self.lengths |= lengths_of(n);
    }

    /// The members' ids, shortest first.
    pub fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.by_length.iter().flatten().copied()
    }

    fn id(&self, length: usize) -> usize {
        self.by_length[length].expect("a chain is found at a member's length")
    }

    /// Can a chain found for one target conclude others?
    fn fits_others(&self) -> bool {
        self.base.spec.all_targets && self.base.spec.linking == Linking::Previous
    }

    /// The targets whose chains could conclude one of `ys` too: linked to
    /// a live candidate linked to it (a chain's first left-linking
    /// candidate is linked to both), of its digit for one-digit chains.
    fn reach(&self, state: &State, ys: &Bits) -> Bits {
        let live = &state.cands;
        let mut mid = Bits::EMPTY;
        for y in ys.iter() {
            mid = mid.or(links(y));
        }
        let mut out = Bits::EMPTY;
        for c in mid.and(live).iter() {
            out = out.or(links(c));
        }
        if self.base.spec.one_digit {
            let mut digits = Bits::EMPTY;
            for y in ys.iter() {
                digits = digits.or(&TABLES.digit[cand_digit(y)]);
            }
            out = out.and(&digits);
        }
        out.and(live)
    }

    /// For bivalue chains (no other candidates, left-linking candidates
    /// linked to the previous right-linking one, ending linked to the
    /// target) of every length from 2 to the longest: the live candidates
    /// `y` that some variable of an allowed space with exactly two live
    /// candidates, both linked to `y` and neither `y`, points at; `None`
    /// for other families.
    ///
    /// Claim: a chain of another target `t` that concludes a candidate `y`
    /// whose own search found no chain of any length holds such a variable.
    /// Its candidates all differ, `L1` and `Rn` are linked to `y`, and `y`
    /// is in the chain (else the chain is one of `y`'s own, of the same
    /// length). If `y = Rk` (`k < n`), `Vk+1..Vn` is a chain for `y`
    /// (`Lk+1` is linked to `Rk = y`, `Rn` to `y`), of length `n − k`, so
    /// `n − k = 1`: `Vn` holds `Ln`, linked to `Rn−1 = y`, and `Rn`, linked
    /// to `y`. If `y = Lk` (`k > 1`: `L1` is linked to `y`), `V1..Vk−1` is
    /// a chain for `y` (`L1` and `Rk−1` are linked to `Lk = y`) of length
    /// `k − 1`, so `k = 2`: `V1` holds `L1` and `R1`, both linked to `y`.
    /// (The digits of a one-digit chain, the spaces of a typed one, are
    /// those of the sub-chain too.) So the targets whose own search found
    /// nothing and that no such variable points at are concluded by no
    /// other target's chain either.
    fn pointed(&self, state: &State) -> Option<Bits> {
        let spec = &self.base.spec;
        let n = 63 - self.lengths.leading_zeros() as usize;
        let every_length = n >= 2 && self.lengths == (2u64 << n) - 4;
        if !every_length
            || spec.extras != super::Extras::default()
            || spec.groups
            || spec.ending != super::Ending::LinkedToTarget
        {
            return None;
        }
        let live = &state.cands;
        let mut out = Bits::EMPTY;
        for v in 0..crate::grid::geometry::N_VARS {
            if !self.base.space_ok(v) {
                continue;
            }
            let cands = live.and(&TABLES.var[v]);
            if cands.len() != 2 {
                continue;
            }
            let mut both = Bits::first(crate::grid::geometry::N_CANDS);
            for c in cands.iter() {
                both = both.and(links(c));
            }
            out = out.or(&both.and(live).minus(&cands));
        }
        Some(out)
    }

    /// The members' matches that conclude some of `wanted`'s eliminations
    /// (chain rules only eliminate), as [`Searcher::search_for`]
    /// (`f` gets the member's id): each wanted candidate that some member's
    /// whole search concludes is concluded by a match reported.
    ///
    /// [`Searcher::search_for`]: crate::search::Searcher::search_for
    pub fn search_for(
        &self,
        cx: &mut SearchCx,
        state: &State,
        wanted: &Targets,
        f: &mut dyn FnMut(usize, Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let zs = wanted.elim.and(&state.cands);
        if zs.is_empty() || self.lengths == 0 {
            return ControlFlow::Continue(());
        }
        let mut buf = Buffers::default();
        let flow = self.search_in(cx, state, zs, &mut buf, f);
        buf.release(cx);
        flow
    }

    fn search_in(
        &self,
        cx: &mut SearchCx,
        state: &State,
        zs: Bits,
        buf: &mut Buffers,
        f: &mut dyn FnMut(usize, Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let longest = 63 - self.lengths.leading_zeros() as usize;
        // The wanted candidates concluded so far.
        let mut got = Bits::EMPTY;
        // Per target: the lengths its search has not looked at yet.
        let mut left = vec![self.lengths; crate::grid::geometry::N_CANDS];
        let mut gave_up = Bits::EMPTY;
        // Each wanted target's own chains, up to the first: every target
        // to a few variables, then those without a chain yet further, band
        // after band (a target that has no chain costs the most; the
        // others are settled before it).
        let upto = |n: usize| if n >= 63 { u64::MAX } else { (2u64 << n) - 1 };
        let mut from = 0usize;
        for to in BANDS {
            if from >= longest {
                break;
            }
            let band = self.lengths & upto(to) & !upto(from);
            from = to;
            if band == 0 {
                continue;
            }
            for z in zs.iter() {
                if got.contains(z) || gave_up.contains(z) || left[z] & band == 0 {
                    continue;
                }
                let mut broke = false;
                let mut seen_to = 0;
                let out = self.base.bfs(cx, state, z, band, buf, &mut |n, found| {
                    seen_to = n;
                    got = got.or(&found.conclusions.and(&zs));
                    if f(self.id(n), found).is_break() {
                        broke = true;
                        return After::Abort;
                    }
                    After::NextTarget
                });
                match out {
                    Outcome::Done => left[z] &= !band,
                    Outcome::Cut => {
                        left[z] = if seen_to >= longest {
                            0
                        } else {
                            self.lengths & !((2u64 << seen_to) - 1)
                        }
                    }
                    Outcome::Aborted => return ControlFlow::Break(()),
                    Outcome::Stopped if broke => return ControlFlow::Break(()),
                    Outcome::Stopped => {
                        if cx.stop() != Some(Stop::Memory) {
                            return ControlFlow::Break(());
                        }
                        cx.resume();
                        cx.undecided.elim.insert(z);
                        gave_up.insert(z);
                    }
                }
            }
        }
        let mut rest = zs.minus(&got).minus(&gave_up);
        if !self.fits_others() || rest.is_empty() {
            return ControlFlow::Continue(());
        }
        if let Some(pointed) = self.pointed(state) {
            rest = rest.and(&pointed);
            if rest.is_empty() {
                return ControlFlow::Continue(());
            }
        }
        // Other targets' chains that may fit what is left.
        let mut unsure = false;
        for t in self.reach(state, &rest).iter() {
            if rest.is_empty() {
                break;
            }
            if gave_up.contains(t) {
                unsure = true;
                continue;
            }
            if left[t] == 0 {
                continue;
            }
            let mut broke = false;
            buf.fit = Some(rest);
            let out = self.base.bfs(cx, state, t, left[t], buf, &mut |n, found| {
                if !found.conclusions.intersects(&rest) {
                    return After::Deeper;
                }
                rest = rest.minus(&found.conclusions);
                if f(self.id(n), found).is_break() {
                    broke = true;
                    return After::Abort;
                }
                if rest.is_empty() {
                    After::NextTarget
                } else {
                    After::Deeper
                }
            });
            buf.fit = None;
            match out {
                Outcome::Done | Outcome::Cut => {}
                Outcome::Aborted => return ControlFlow::Break(()),
                Outcome::Stopped if broke => return ControlFlow::Break(()),
                Outcome::Stopped => {
                    if cx.stop() != Some(Stop::Memory) {
                        return ControlFlow::Break(());
                    }
                    cx.resume();
                    unsure = true;
                }
            }
        }
        if unsure {
            cx.undecided.elim = cx.undecided.elim.or(&rest);
        }
        ControlFlow::Continue(())
    }

    /// The first match of the family's first member, in the order of its
    /// whole search, that concludes some of `wanted`, as
    /// [`Searcher::first_for`]: a rule that concludes its target alone
    /// only searches the wanted targets, one with `targets all` the targets
    /// whose chains could meet them.
    ///
    /// [`Searcher::first_for`]: crate::search::Searcher::first_for
    pub fn first_for(&self, cx: &mut SearchCx, state: &State, wanted: &Targets) -> Option<Found> {
        let zs = wanted.elim.and(&state.cands);
        if zs.is_empty() || self.lengths == 0 {
            return None;
        }
        let order = if self.fits_others() {
            zs.or(&self.reach(state, &zs))
        } else {
            zs
        };
        let mut buf = Buffers::default();
        let mut hit = None;
        for z in order.iter() {
            let out = self
                .base
                .bfs(cx, state, z, self.lengths, &mut buf, &mut |_, found| {
                    if found.conclusions.intersects(&zs) {
                        hit = Some(found);
                        After::Abort
                    } else {
                        After::NextTarget
                    }
                });
            if matches!(out, Outcome::Aborted | Outcome::Stopped) {
                break;
            }
        }
        buf.release(cx);
        hit
    }
}
