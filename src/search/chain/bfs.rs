//! The breadth-first search of one target: partial chains one variable
//! longer at each depth, kept once per last right-linking candidate and set
//! of right-linking candidates, until chains of the lengths asked for end.
//!
//! One search may look for chains of several lengths at once (a family's
//! rules, [`super::target`]): the partial chains of a depth are the same
//! whatever length is asked for, so a chain of length `n` found at depth `n`
//! is the one the search for length `n` alone finds, and its node count up
//! to there is the same.
//!
//! Memory: a found chain is read back from a light node per partial chain
//! (its variable, linking candidates and parent); the sets a partial chain
//! is extended with are kept for the current depth and the next only, and
//! partial chains are told apart by a table of indices into the next depth
//! (the key of a partial chain has one right-linking candidate or segment
//! per variable, so keys of different depths never meet, and the table is
//! emptied at each depth). The bytes held are counted in the search
//! context ([`SearchCx::hold`]), which stops the search at its memory cap.

use super::{ChainSearch, Decided, G_BASE, Linking, SEGMENTS};
use crate::grid::bits::{Bits, VarSet};
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::segments::segment_of;
use crate::grid::state::State;
use crate::grid::tables::*;
use crate::search::{ConclusionKind, Evidence, Found, SearchCx};
use std::mem::size_of;

/// A partial chain's last variable, for reading a found chain back.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// The previous partial chain's node (`u32::MAX`: none).
    pub(super) parent: u32,
    pub(super) var: u16,
    pub(super) left: u16,
    /// A candidate, or `G_BASE + segment` for a g-candidate.
    pub(super) right: u16,
}

/// A partial chain of the current or next depth: what it has used and
/// covered.
#[derive(Clone, Copy)]
struct Partial {
    /// Its node (`u32::MAX`: the empty chain a search starts from).
    node: u32,
    /// The last part of its key: the last right-linking candidate (or
    /// `u16::MAX` when only the set of them counts, braids).
    key_last: u16,
    rights: Bits,
    /// Segments of the g-candidates used as right-linking candidates.
    g_rights: Bits,
    lefts: Bits,
    vars: VarSet,
    /// Live candidates linked to some right-linking candidate so far.
    t_cover: Bits,
}

const ROOT: Partial = Partial {
    node: u32::MAX,
    key_last: u16::MAX,
    rights: Bits::EMPTY,
    g_rights: Bits::EMPTY,
    lefts: Bits::EMPTY,
    vars: VarSet::EMPTY,
    t_cover: Bits::EMPTY,
};

/// The partial chains of one depth, told apart by key: an open-addressing
/// table of indices into the depth's partial chains (with their hashes),
/// emptied slot by slot, or anew when it is much larger than the depth
/// needs.
#[derive(Default)]
struct Seen {
    /// (index into the depth's partial chains, hash): `EMPTY` when free.
    slots: Vec<(u32, u32)>,
    /// The slots in use.
    used: Vec<u32>,
}

const EMPTY: (u32, u32) = (u32::MAX, 0);

impl Seen {
    /// Empties the table for a depth that starts from `frontier` partial
    /// chains.
    fn clear(&mut self, frontier: usize) {
        let want = (4 * frontier).next_power_of_two().max(64);
        if self.slots.len() < want || self.slots.len() > 8 * want {
            self.slots.clear();
            self.slots.resize(want, EMPTY);
        } else {
            for &i in &self.used {
                self.slots[i as usize] = EMPTY;
            }
        }
        self.used.clear();
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * size_of::<(u32, u32)>() + self.used.capacity() * 4
    }

    /// The key's hash (FxHash's mix, then a final avalanche).
    #[inline]
    fn hash(last: u16, rights: &Bits, g_rights: &Bits) -> u32 {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = u64::from(last).wrapping_mul(K);
        for w in rights.0.iter().chain(g_rights.0.iter()) {
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        h ^= h >> 29;
        (h.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32) as u32
    }

    /// The index of the partial chain of `parts` with this key, if any.
    #[inline]
    fn find(&self, h: u32, parts: &[Partial], key: (u16, &Bits, &Bits)) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let (idx, sh) = self.slots[i];
            if idx == u32::MAX {
                return None;
            }
            if sh == h {
                let p = &parts[idx as usize];
                if p.key_last == key.0 && p.rights == *key.1 && p.g_rights == *key.2 {
                    return Some(idx);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Records that `parts[idx]` has a key of hash `h` (not there yet).
    #[inline]
    fn insert(&mut self, h: u32, idx: u32) {
        if (self.used.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        while self.slots[i].0 != u32::MAX {
            i = (i + 1) & mask;
        }
        self.slots[i] = (idx, h);
        self.used.push(i as u32);
    }

    #[cold]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        self.used.clear();
        let mask = size - 1;
        for (idx, h) in old {
            if idx != u32::MAX {
                let mut i = h as usize & mask;
                while self.slots[i].0 != u32::MAX {
                    i = (i + 1) & mask;
                }
                self.slots[i] = (idx, h);
                self.used.push(i as u32);
            }
        }
    }
}

/// The buffers of a chain search, kept from one target to the next.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) nodes: Vec<Node>,
    frontier: Vec<Partial>,
    next: Vec<Partial>,
    seen: Seen,
    /// Bytes counted in the search context ([`SearchCx::hold`]).
    held: usize,
}

impl Buffers {
    fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>()
            + (self.frontier.capacity() + self.next.capacity()) * size_of::<Partial>()
            + self.seen.bytes()
    }

    /// Counts the bytes held now in `cx`; `true` when over the cap.
    fn count(&mut self, cx: &mut SearchCx) -> bool {
        let now = self.bytes();
        if now > self.held {
            let more = now - self.held;
            self.held = now;
            cx.hold(more)
        } else {
            cx.interrupted()
        }
    }

    /// Gives the counted bytes back and frees the buffers.
    pub(super) fn release(&mut self, cx: &mut SearchCx) {
        cx.release(self.held);
        *self = Buffers::default();
    }
}

/// How a search of one target ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Every length asked for was searched.
    Done,
    /// The caller ended it after a chain ([`After::NextTarget`]).
    Cut,
    /// The caller stopped every search ([`After::Abort`]).
    Aborted,
    /// The search context stopped it (deadline, node limit, memory cap).
    Stopped,
}

/// What a search does after a chain of one length was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum After {
    /// Go on to the longer lengths asked for.
    Deeper,
    /// Stop this target's search.
    NextTarget,
    /// Stop every search.
    Abort,
}

/// A set of chain lengths (1 to 63), as bits.
pub(super) type Lengths = u64;

impl ChainSearch {
    /// Searches partial chains for target `z` breadth-first, up to the
    /// longest length of `lengths`; at each length of `lengths`, calls
    /// `hit` with the first chain of that length (in the order of
    /// [`ChainSearch::search`]), which says whether to go on.
    pub(super) fn bfs(
        &self,
        cx: &mut SearchCx,
        state: &State,
        z: usize,
        lengths: Lengths,
        buf: &mut Buffers,
        hit: &mut dyn FnMut(usize, Found) -> After,
    ) -> Outcome {
        let live = &state.cands;
        let nz = links(z).and(live);
        if nz.is_empty() || lengths == 0 {
            return Outcome::Done;
        }
        let n = 63 - lengths.leading_zeros() as usize;
        buf.nodes.clear();
        buf.frontier.clear();
        buf.frontier.push(ROOT);
        for k in 0..n {
            let mut ends_here = lengths & (1 << (k + 1)) != 0;
            let extend = k + 1 < n;
            buf.next.clear();
            buf.seen.clear(buf.frontier.len());
            let mut pushed = 0u32;
            for fi in 0..buf.frontier.len() {
                let p = buf.frontier[fi];
                let rlast = (p.node != u32::MAX).then(|| buf.nodes[p.node as usize].right as usize);
                let Partial {
                    rights,
                    g_rights,
                    lefts,
                    vars,
                    t_cover,
                    ..
                } = p;
                let mut ls = match (rlast, self.spec.linking) {
                    (None, _) => nz,
                    (Some(r), Linking::Previous) if r >= G_BASE => {
                        SEGMENTS[r - G_BASE].glinks.and(live)
                    }
                    (Some(r), Linking::Previous) => links(r).and(live),
                    (Some(_), Linking::TargetOrAny) => nz.or(&t_cover),
                };
                ls = ls.minus(&rights);
                ls.remove(z);
                if self.spec.one_digit {
                    ls = ls.and(&TABLES.digit[cand_digit(z)]);
                }
                if self.spec.linking == Linking::Previous {
                    ls = ls.minus(&lefts);
                }
                let cover = self.cover(k, &nz, &t_cover);
                for l in ls.iter() {
                    for v in cand_vars(l) {
                        if cx.tick() {
                            return Outcome::Stopped;
                        }
                        if !self.space_ok(v) || vars.contains(v) {
                            continue;
                        }
                        let live_v = live.and(&TABLES.var[v]);
                        if ends_here
                            && let Some(shown) = self.ends(
                                &live_v,
                                l,
                                &cover,
                                &nz,
                                Decided {
                                    t_cover,
                                    lefts,
                                    rights,
                                },
                            )
                        {
                            let evidence = self.evidence(&buf.nodes, p.node, z, v, l, shown);
                            let mut conclusions = Bits::single(z);
                            if self.spec.all_targets {
                                // Another target fits only when linked to the
                                // first left-linking candidate (links are
                                // symmetric): the others are not tried.
                                let first = evidence.links[0].left;
                                for t in links(first).and(live).iter() {
                                    if t != z && self.fits(state, t, &evidence.links) {
                                        conclusions.insert(t);
                                    }
                                }
                            }
                            let found = Found {
                                kind: ConclusionKind::Eliminate,
                                conclusions,
                                grade: None,
                                evidence: Evidence::Chain(evidence),
                            };
                            match hit(k + 1, found) {
                                After::Deeper => ends_here = false,
                                After::NextTarget => return Outcome::Cut,
                                After::Abort => return Outcome::Aborted,
                            }
                        }
                        if !extend {
                            continue;
                        }
                        let mut rest = live_v.minus(&cover);
                        rest.remove(l);
                        let (r, r_links, new_rights, new_g_rights) = match rest.len() {
                            1 => {
                                let r = rest.min().unwrap_or(0);
                                if r == z || rights.contains(r) || lefts.contains(r) || r == l {
                                    continue;
                                }
                                let mut nr = rights;
                                nr.insert(r);
                                (r, links(r).and(live), nr, g_rights)
                            }
                            2.. if self.spec.groups => {
                                let Some(sg) = segment_of(v, &rest) else {
                                    continue;
                                };
                                let seg = &SEGMENTS[sg];
                                if seg.cands.contains(l)
                                    || seg.cands.contains(z)
                                    || seg.cands.intersects(&rights)
                                    || g_rights.contains(sg)
                                {
                                    continue;
                                }
                                // A candidate R of the segment after the same
                                // R's is preferred to the g-candidate (as
                                // CSP-Rules keeps it).
                                let prefer_single = seg.cands.and(live).iter().any(|c| {
                                    let mut nr = rights;
                                    nr.insert(c);
                                    let h = Seen::hash(c as u16, &nr, &g_rights);
                                    buf.seen
                                        .find(h, &buf.next, (c as u16, &nr, &g_rights))
                                        .is_some()
                                });
                                if prefer_single {
                                    continue;
                                }
                                let mut ng = g_rights;
                                ng.insert(sg);
                                (G_BASE + sg, seg.glinks.and(live), rights, ng)
                            }
                            _ => continue,
                        };
                        let key_last = match self.spec.linking {
                            Linking::Previous => r as u16,
                            Linking::TargetOrAny => u16::MAX,
                        };
                        let h = Seen::hash(key_last, &new_rights, &new_g_rights);
                        if buf
                            .seen
                            .find(h, &buf.next, (key_last, &new_rights, &new_g_rights))
                            .is_some()
                        {
                            continue;
                        }
                        let mut new_lefts = lefts;
                        new_lefts.insert(l);
                        let mut new_vars = vars;
                        new_vars.insert(v);
                        buf.nodes.push(Node {
                            parent: p.node,
                            var: v as u16,
                            left: l as u16,
                            right: r as u16,
                        });
                        let idx = buf.next.len() as u32;
                        buf.next.push(Partial {
                            node: (buf.nodes.len() - 1) as u32,
                            key_last,
                            rights: new_rights,
                            g_rights: new_g_rights,
                            lefts: new_lefts,
                            vars: new_vars,
                            t_cover: t_cover.or(&r_links),
                        });
                        buf.seen.insert(h, idx);
                        pushed += 1;
                        if pushed.is_multiple_of(1024) && buf.count(cx) {
                            return Outcome::Stopped;
                        }
                    }
                }
            }
            if buf.next.is_empty() {
                break;
            }
            std::mem::swap(&mut buf.frontier, &mut buf.next);
            if buf.count(cx) {
                return Outcome::Stopped;
            }
        }
        Outcome::Done
    }
}
