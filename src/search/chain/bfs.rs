//! The breadth-first search of one target: partial chains one variable
//! longer at each depth, kept once per key (last right-linking candidate,
//! right-linking candidates, variables that can still matter) with their
//! members (the left-linking candidates later steps can read), until
//! chains of the lengths asked for end.
//!
//! One search may look for chains of several lengths at once (a family's
//! rules, [`super::target`]): the partial chains of a depth (their keys)
//! are the same whatever length is asked for, and their members keep the
//! left-linking candidates the longest length can read (a superset of what
//! a shorter one reads), so a chain of length `n` is found at depth `n`
//! whenever the search for length `n` alone finds one.
//!
//! Memory: a found chain is read back from a light node per member (its
//! variable, linking candidates and parent); the sets a partial chain is
//! extended with are kept for the current depth and the next only, and
//! partial chains are told apart by a table of indices into the next depth
//! (the key of a partial chain has one right-linking candidate or segment
//! per variable, so keys of different depths never meet, and the table is
//! emptied at each depth). The bytes held are counted in the search
//! context ([`SearchCx::hold`]), which stops the search at its memory cap.

use super::reach::Reach;
use super::{ChainSearch, G_BASE, Linking, SEGMENTS, right_links};
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

/// What the extensions of a partial chain read besides its left-linking
/// candidates ([`ChainSearch::key`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    /// The last right-linking candidate, when the next left-linking one is
    /// linked to it (`u16::MAX` otherwise, and for the empty chain).
    pub(super) last: u16,
    pub(super) rights: Bits,
    /// Segments of the g-candidates used as right-linking candidates.
    pub(super) g_rights: Bits,
    /// The variables used that can still matter.
    pub(super) vars: VarSet,
}

impl Key {
    const ROOT: Key = Key {
        last: u16::MAX,
        rights: Bits::EMPTY,
        g_rights: Bits::EMPTY,
        vars: VarSet::EMPTY,
    };

    /// The key's hash (FxHash's mix, then a final avalanche).
    #[inline]
    fn hash(&self) -> u32 {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = u64::from(self.last).wrapping_mul(K);
        let words = self
            .rights
            .0
            .iter()
            .chain(&self.g_rights.0)
            .chain(&self.vars.0);
        for w in words {
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        h ^= h >> 29;
        (h.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32) as u32
    }
}

/// The partial chains of the current or next depth with one key: what they
/// have used and covered, and their members (those that differ in their
/// left-linking candidates).
#[derive(Clone, Copy)]
struct Partial {
    key: Key,
    /// Live candidates linked to some right-linking candidate so far.
    t_cover: Bits,
    /// The first and last of its members (a list through
    /// [`Member::next`] in the depth's members), and their number.
    first: u32,
    last: u32,
    len: u32,
}

/// One partial chain: its node and its left-linking candidates.
#[derive(Clone, Copy)]
pub(super) struct Member {
    /// Its node (`u32::MAX`: the empty chain a search starts from).
    node: u32,
    /// Its left-linking candidates that later steps can still read
    /// ([`ChainSearch::lefts_kept`]).
    pub(super) lefts: Bits,
    /// The next member of its partial chain (`u32::MAX`: none).
    next: u32,
    /// Its partial chain (an index into the depth's partial chains).
    part: u32,
}

const NONE: u32 = u32::MAX;

const ROOT: Partial = Partial {
    key: Key::ROOT,
    t_cover: Bits::EMPTY,
    first: 0,
    last: 0,
    len: 1,
};

const ROOT_MEMBER: Member = Member {
    node: NONE,
    lefts: Bits::EMPTY,
    next: NONE,
    part: 0,
};

/// A partial chain with this many members or more finds a new member's
/// twin through [`Buffers::member_seen`]; one with fewer looks through its
/// members.
const SCAN: u32 = 8;

/// The hash of a member's left-linking candidates in partial chain `c`.
#[inline]
fn lefts_hash(c: u32, lefts: &Bits) -> u32 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = u64::from(c).wrapping_mul(K);
    for w in &lefts.0 {
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    h ^= h >> 29;
    (h.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32) as u32
}

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

    /// The index of the partial chain of `parts` with this key, if any.
    #[inline]
    fn find(&self, h: u32, parts: &[Partial], key: &Key) -> Option<u32> {
        self.find_by(h, |idx| parts[idx as usize].key == *key)
    }

    /// The index recorded with hash `h` that `same` accepts, if any.
    #[inline]
    fn find_by(&self, h: u32, same: impl Fn(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let (idx, sh) = self.slots[i];
            if idx == u32::MAX {
                return None;
            }
            if sh == h && same(idx) {
                return Some(idx);
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
    /// The members of the frontier's partial chains, and of the next's.
    members: Vec<Member>,
    next_members: Vec<Member>,
    seen: Seen,
    /// The members of the next depth's partial chains of [`SCAN`] members
    /// or more, told apart by their left-linking candidates.
    member_seen: Seen,
    /// The variables a partial chain still needs, at least (bivalue
    /// chains: [`super::reach`]).
    pub(super) reach: Reach,
    /// Only chains that may conclude one of these too (besides the
    /// target) are wanted: the first left-linking candidate (and, for a
    /// chain that ends linked to the target, the last right-linking one)
    /// is linked to one of them ([`ChainSearch::fits`]).
    pub(super) fit: Option<Bits>,
    /// Bytes counted in the search context ([`SearchCx::hold`]).
    held: usize,
}

impl Buffers {
    fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>()
            + (self.frontier.capacity() + self.next.capacity()) * size_of::<Partial>()
            + (self.members.capacity() + self.next_members.capacity()) * size_of::<Member>()
            + self.seen.bytes()
            + self.member_seen.bytes()
            + self.reach.bytes()
    }

    /// Would the next child's buffers grow past the memory cap? A vector
    /// that grows holds its old and its new buffer at once: the search
    /// stops before, so that what it holds stays below the cap
    /// ([`SearchCx::over`]).
    #[inline]
    fn full(&self, cx: &mut SearchCx) -> bool {
        fn growth<T>(v: &Vec<T>) -> usize {
            if v.len() == v.capacity() {
                2 * v.capacity().max(4) * size_of::<T>()
            } else {
                0
            }
        }
        let mut g = growth(&self.nodes) + growth(&self.next) + growth(&self.next_members);
        for seen in [&self.seen, &self.member_seen] {
            if (seen.used.len() + 1) * 2 > seen.slots.len() {
                g += 2 * seen.slots.len() * size_of::<(u32, u32)>() + growth(&seen.used);
            }
        }
        g > 0 && cx.memory_limit().is_some() && cx.over(g)
    }

    /// Counts the bytes held now in `cx`; `true` when over the cap.
    fn count(&mut self, cx: &mut SearchCx) -> bool {
        let now = self.bytes();
        if now > self.held {
            let more = now - self.held;
            self.held = now;
            cx.hold(more) || cx.look()
        } else {
            cx.look()
        }
    }

    /// Gives the counted bytes back and frees the buffers.
    pub(super) fn release(&mut self, cx: &mut SearchCx) {
        cx.release(self.held);
        *self = Buffers::default();
    }

    /// The first member of frontier partial chain `p` that `ok` accepts.
    fn first_member(&self, p: &Partial, ok: impl Fn(&Bits) -> bool) -> Option<&Member> {
        let mut m = p.first;
        while m != NONE {
            let mb = &self.members[m as usize];
            if ok(&mb.lefts) {
                return Some(mb);
            }
            m = mb.next;
        }
        None
    }

    /// Adds to next partial chain `c` a member extending `parent` by
    /// `step` with left-linking candidates `lefts`, unless one of its
    /// members has the same (it has the same extensions).
    fn add_member(&mut self, c: u32, parent: u32, step: (usize, usize, usize), lefts: Bits) {
        let part = &self.next[c as usize];
        let mut h = 0;
        if part.len < SCAN {
            let mut m = part.first;
            while m != NONE {
                let mb = &self.next_members[m as usize];
                if mb.lefts == lefts {
                    return;
                }
                m = mb.next;
            }
        } else {
            h = lefts_hash(c, &lefts);
            let members = &self.next_members;
            let twin = self.member_seen.find_by(h, |i| {
                let mb = &members[i as usize];
                mb.part == c && mb.lefts == lefts
            });
            if twin.is_some() {
                return;
            }
        }
        let (var, left, right) = step;
        self.nodes.push(Node {
            parent,
            var: var as u16,
            left: left as u16,
            right: right as u16,
        });
        let new = self.next_members.len() as u32;
        self.next_members.push(Member {
            node: (self.nodes.len() - 1) as u32,
            lefts,
            next: NONE,
            part: c,
        });
        let part = &mut self.next[c as usize];
        if part.last == NONE {
            part.first = new;
        } else {
            self.next_members[part.last as usize].next = new;
        }
        part.last = new;
        part.len += 1;
        if part.len > SCAN {
            self.member_seen.insert(h, new);
        } else if part.len == SCAN {
            // From now on its members are found by their hash.
            let mut m = part.first;
            while m != NONE {
                let mb = &self.next_members[m as usize];
                self.member_seen.insert(lefts_hash(c, &mb.lefts), m);
                m = mb.next;
            }
        }
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
    ///
    /// The partial chains of length `k + 1` are the children of those of
    /// length `k`. A child goes to the partial chain of its key (made when
    /// first needed) as a member; a member with the same relevant
    /// left-linking candidates as another of its partial chain is dropped,
    /// as it has the same extensions (see [`ChainSearch::key`]). So a chain
    /// of each length asked for is found whenever one exists. A partial
    /// chain is extended once per `(L, V)` for all its members, and each
    /// member is tested only where its left-linking candidates are read.
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
        let previous = self.spec.linking == Linking::Previous;
        let vars_matter = self.candidate_vars_matter();
        // The candidates linked to one of the others the chains must fit.
        let fit_links = buf.fit.map(|ys| {
            let mut yl = Bits::EMPTY;
            for y in ys.iter() {
                yl = yl.or(links(y));
            }
            yl.and(live)
        });
        buf.reach.prepare(self, state, z, n, fit_links.as_ref());
        buf.nodes.clear();
        buf.frontier.clear();
        buf.frontier.push(ROOT);
        buf.members.clear();
        buf.members.push(ROOT_MEMBER);
        for k in 0..n {
            let mut ends_here = lengths & (1 << (k + 1)) != 0;
            let extend = k + 1 < n;
            buf.next.clear();
            buf.next_members.clear();
            buf.seen.clear(buf.frontier.len());
            buf.member_seen.clear(buf.member_seen.used.len());
            let mut pushed = 0u32;
            for fi in 0..buf.frontier.len() {
                let p = buf.frontier[fi];
                let Key {
                    last,
                    rights,
                    g_rights,
                    vars,
                } = p.key;
                let t_cover = p.t_cover;
                let mut ls = if k == 0 {
                    fit_links.map_or(nz, |yl| nz.and(&yl))
                } else if previous {
                    right_links(last as usize, live)
                } else {
                    nz.or(&t_cover)
                };
                ls = ls.minus(&rights);
                ls.remove(z);
                if self.spec.one_digit {
                    ls = ls.and(&TABLES.digit[cand_digit(z)]);
                }
                if previous && k > 0 {
                    // An `l` every member used already is no member's.
                    let mut all = Bits::first(N_CANDS);
                    let mut m = p.first;
                    while m != NONE {
                        let mb = &buf.members[m as usize];
                        all = all.and(&mb.lefts);
                        m = mb.next;
                    }
                    ls = ls.minus(&all);
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
                            && let Some((shown, cond)) =
                                self.ends(&live_v, l, &cover, &nz, &t_cover, &rights)
                            && let Some(mb) = buf.first_member(&p, |lefts| {
                                !(previous && lefts.contains(l)) && cond.holds(lefts)
                            })
                        {
                            let evidence = self.evidence(&buf.nodes, mb.node, z, v, l, shown);
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
                                if r == z || rights.contains(r) || r == l {
                                    continue;
                                }
                                if k + 1 + buf.reach.need(r) > n {
                                    // No extension of it can end in time.
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
                                let mut ng = g_rights;
                                ng.insert(sg);
                                (G_BASE + sg, seg.glinks.and(live), rights, ng)
                            }
                            _ => continue,
                        };
                        let single = r < G_BASE;
                        let mut new_vars = vars;
                        if vars_matter || !single {
                            new_vars.insert(v);
                        }
                        let key = self.key(r, new_rights, new_g_rights, new_vars);
                        let new_t_cover = t_cover.or(&r_links);
                        let h = key.hash();
                        let mut child = buf.seen.find(h, &buf.next, &key);
                        let kept = self.lefts_kept((k, n), r, &new_t_cover, &nz, live);
                        let mut m = p.first;
                        while m != NONE {
                            let mb = buf.members[m as usize];
                            m = mb.next;
                            // Members that used `l` or `r` as a left-linking
                            // candidate already make no child.
                            if (previous && mb.lefts.contains(l))
                                || (single && mb.lefts.contains(r))
                            {
                                continue;
                            }
                            if buf.full(cx) {
                                return Outcome::Stopped;
                            }
                            let mut new_lefts = mb.lefts;
                            new_lefts.insert(l);
                            if single && k + 2 < n && buf.reach.need(r) > 1 {
                                // Every candidate of the chain so far is
                                // used (lefts are all kept before the last
                                // two steps).
                                let mut used = new_lefts.or(&new_rights);
                                used.insert(z);
                                if !buf.reach.reaches(r, &used, n - k - 1) {
                                    continue;
                                }
                            }
                            let new_lefts = new_lefts.and(&kept);
                            let c = match child {
                                Some(c) => c,
                                None => {
                                    let c = buf.next.len() as u32;
                                    buf.next.push(Partial {
                                        key,
                                        t_cover: new_t_cover,
                                        first: NONE,
                                        last: NONE,
                                        len: 0,
                                    });
                                    buf.seen.insert(h, c);
                                    child = Some(c);
                                    c
                                }
                            };
                            buf.add_member(c, mb.node, (v, l, r), new_lefts);
                            pushed += 1;
                            if pushed.is_multiple_of(1024) && buf.count(cx) {
                                return Outcome::Stopped;
                            }
                        }
                    }
                }
            }
            if buf.next.is_empty() {
                break;
            }
            std::mem::swap(&mut buf.frontier, &mut buf.next);
            std::mem::swap(&mut buf.members, &mut buf.next_members);
            if buf.count(cx) {
                return Outcome::Stopped;
            }
        }
        Outcome::Done
    }
}
