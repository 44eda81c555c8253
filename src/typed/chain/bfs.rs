//! The breadth-first search of one target, on a frame: the classic search
//! (`search::chain::bfs`) over local candidates in sets of `W` words.
//!
//! Partial chains of one depth are kept once per key with their members
//! (those that differ in the left-linking candidates later steps can
//! read). A key is the last right-linking candidate (when linking is
//! `Previous`), the right-linking candidates (a set of `W` words) and, in
//! a word arena with one fixed stride per search, the g-candidates used as
//! right-linking ones and the variables that can still matter (the frame's
//! groups and variables may outnumber its candidates, so they are not
//! sets of `W` words). Nothing is allocated per partial chain: nodes,
//! partial chains, members and key words live in vectors kept from one
//! target to the next, and the bytes they hold are counted in the search
//! context ([`SearchCx::hold`]), which stops the search at its memory cap.

use super::reach::Reach;
use super::{TypedChain, right_links};
use crate::grid::bits::BitSet;
use crate::search::SearchCx;
use crate::search::chain::{ChainEvidence, Link, Linking};
use crate::typed::frame::Frame;
use crate::typed::state::State;
use std::mem::size_of;

const NONE: u32 = u32::MAX;

/// A partial chain's last variable, for reading a found chain back.
#[derive(Clone, Copy)]
struct Node {
    /// The previous partial chain's node (`NONE`: none).
    parent: u32,
    var: u32,
    left: u32,
    /// A local candidate, or `frame.len() + group`.
    right: u32,
}

/// The partial chains of one depth with one key.
#[derive(Clone, Copy)]
struct Partial<const W: usize> {
    /// The last right-linking candidate when it links the next
    /// left-linking one (`NONE` otherwise, and for the empty chain).
    last: u32,
    rights: BitSet<W>,
    /// Live candidates linked to some right-linking candidate so far.
    t_cover: BitSet<W>,
    /// First and last member (a list through [`Member::next`]), and their
    /// number.
    first: u32,
    last_member: u32,
    len: u32,
}

/// One partial chain: its node and its left-linking candidates.
#[derive(Clone, Copy)]
struct Member<const W: usize> {
    node: u32,
    lefts: BitSet<W>,
    next: u32,
    part: u32,
}

/// A partial chain with this many members or more finds a new member's
/// twin through [`Buffers::member_seen`].
const SCAN: u32 = 8;

#[inline]
fn mix(h: u64, w: u64) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    (h.rotate_left(5) ^ w).wrapping_mul(K)
}

#[inline]
fn finish(mut h: u64) -> u32 {
    h ^= h >> 29;
    (h.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32) as u32
}

fn key_hash<const W: usize>(last: u32, rights: &BitSet<W>, extra: &[u64]) -> u32 {
    let mut h = u64::from(last).wrapping_mul(0x517c_c1b7_2722_0a95);
    for w in rights.0.iter().chain(extra) {
        h = mix(h, *w);
    }
    finish(h)
}

fn lefts_hash<const W: usize>(c: u32, lefts: &BitSet<W>) -> u32 {
    let mut h = u64::from(c).wrapping_mul(0x517c_c1b7_2722_0a95);
    for w in &lefts.0 {
        h = mix(h, *w);
    }
    finish(h)
}

/// An open-addressing table of indices with their hashes.
#[derive(Default)]
struct Seen {
    slots: Vec<(u32, u32)>,
    used: Vec<u32>,
}

const EMPTY: (u32, u32) = (u32::MAX, 0);

impl Seen {
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
pub(super) struct Buffers<const W: usize> {
    nodes: Vec<Node>,
    frontier: Vec<Partial<W>>,
    next: Vec<Partial<W>>,
    /// The key words of the frontier's partial chains beyond `last` and
    /// `rights` (g-candidates, then variables), `stride` per partial chain,
    /// and the next depth's.
    words: Vec<u64>,
    next_words: Vec<u64>,
    members: Vec<Member<W>>,
    next_members: Vec<Member<W>>,
    seen: Seen,
    member_seen: Seen,
    /// A child's key words, being made.
    scratch: Vec<u64>,
    /// The variables a partial chain still needs, at least (bivalue
    /// chains: [`super::reach`]).
    reach: Reach<W>,
    /// A variable's right-linking candidates, being chosen.
    options: Vec<(usize, Option<usize>)>,
    held: usize,
}

impl<const W: usize> Default for Buffers<W> {
    fn default() -> Self {
        Buffers {
            nodes: Vec::new(),
            frontier: Vec::new(),
            next: Vec::new(),
            words: Vec::new(),
            next_words: Vec::new(),
            members: Vec::new(),
            next_members: Vec::new(),
            seen: Seen::default(),
            member_seen: Seen::default(),
            scratch: Vec::new(),
            reach: Reach::default(),
            options: Vec::new(),
            held: 0,
        }
    }
}

impl<const W: usize> Buffers<W> {
    fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>()
            + (self.frontier.capacity() + self.next.capacity()) * size_of::<Partial<W>>()
            + (self.words.capacity() + self.next_words.capacity() + self.scratch.capacity()) * 8
            + (self.members.capacity() + self.next_members.capacity()) * size_of::<Member<W>>()
            + self.seen.bytes()
            + self.member_seen.bytes()
            + self.reach.bytes()
    }

    /// Would the next child's buffers grow past the memory cap?
    #[inline]
    fn full(&self, cx: &mut SearchCx, stride: usize) -> bool {
        fn growth<T>(v: &Vec<T>, more: usize) -> usize {
            if v.len() + more > v.capacity() {
                2 * v.capacity().max(4).max(more) * size_of::<T>()
            } else {
                0
            }
        }
        let mut g = growth(&self.nodes, 1)
            + growth(&self.next, 1)
            + growth(&self.next_members, 1)
            + growth(&self.next_words, stride);
        for seen in [&self.seen, &self.member_seen] {
            if (seen.used.len() + 1) * 2 > seen.slots.len() {
                g += 2 * seen.slots.len() * size_of::<(u32, u32)>() + growth(&seen.used, 1);
            }
        }
        g > 0 && cx.memory_limit().is_some() && cx.over(g)
    }

    /// Counts the bytes held now in `cx`; `true` when the search must stop.
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
    fn first_member(&self, p: &Partial<W>, ok: impl Fn(&BitSet<W>) -> bool) -> Option<u32> {
        let mut m = p.first;
        while m != NONE {
            let mb = &self.members[m as usize];
            if ok(&mb.lefts) {
                return Some(mb.node);
            }
            m = mb.next;
        }
        None
    }

    /// Adds to next partial chain `c` a member extending node `parent` by
    /// `step`, unless one of its members has the same left-linking
    /// candidates (it has the same extensions).
    fn add_member(&mut self, c: u32, parent: u32, step: (usize, usize, usize), lefts: BitSet<W>) {
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
            var: var as u32,
            left: left as u32,
            right: right as u32,
        });
        let new = self.next_members.len() as u32;
        self.next_members.push(Member {
            node: (self.nodes.len() - 1) as u32,
            lefts,
            next: NONE,
            part: c,
        });
        let part = &mut self.next[c as usize];
        if part.last_member == NONE {
            part.first = new;
        } else {
            self.next_members[part.last_member as usize].next = new;
        }
        part.last_member = new;
        part.len += 1;
        if part.len > SCAN {
            self.member_seen.insert(h, new);
        } else if part.len == SCAN {
            let mut m = part.first;
            while m != NONE {
                let mb = &self.next_members[m as usize];
                self.member_seen.insert(lefts_hash(c, &mb.lefts), m);
                m = mb.next;
            }
        }
    }

    /// The chain ending with node `pi` and the last variable.
    fn evidence(&self, mut pi: u32, z: usize, last: Link) -> ChainEvidence {
        let mut out = vec![last];
        while pi != NONE {
            let p = &self.nodes[pi as usize];
            out.push(Link {
                var: p.var as usize,
                left: p.left as usize,
                right: Some(p.right as usize),
            });
            pi = p.parent;
        }
        out.reverse();
        ChainEvidence {
            target: z,
            links: out,
            als: Vec::new(),
        }
    }
}

#[inline]
fn has(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 != 0
}

#[inline]
fn set(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

impl TypedChain {
    /// The first chain of the spec's length for target `z` (in the order
    /// of the classic search), as a match; `None` when there is none or
    /// the search context stopped the search.
    pub(super) fn bfs<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        z: usize,
        buf: &mut Buffers<W>,
    ) -> Option<crate::typed::Found<W>> {
        let live = &st.cands;
        let nz = frame.links[z].and(live);
        let n = self.spec.length;
        if nz.is_empty() || !(1..64).contains(&n) {
            return None;
        }
        let previous = self.spec.linking == Linking::Previous;
        let vars_matter = self.candidate_vars_matter();
        let base = frame.len();
        // Key words beyond `last` and `rights`: g-candidates, variables.
        let gw = if self.spec.groups {
            frame.groups.len().div_ceil(64)
        } else {
            0
        };
        let stride = gw + frame.vars.len().div_ceil(64);
        let symbol = |x: usize| frame.model.cand_symbol(frame.cand(x));
        let z_symbol = symbol(z);
        buf.reach.prepare(self, frame, st, z, n);
        buf.nodes.clear();
        buf.frontier.clear();
        buf.frontier.push(Partial {
            last: NONE,
            rights: BitSet::EMPTY,
            t_cover: BitSet::EMPTY,
            first: 0,
            last_member: 0,
            len: 1,
        });
        buf.words.clear();
        buf.words.resize(stride, 0);
        buf.members.clear();
        buf.members.push(Member {
            node: NONE,
            lefts: BitSet::EMPTY,
            next: NONE,
            part: 0,
        });
        buf.scratch.clear();
        buf.scratch.resize(stride, 0);
        for k in 0..n {
            let ends_here = k + 1 == n;
            let extend = k + 1 < n;
            buf.next.clear();
            buf.next_members.clear();
            buf.next_words.clear();
            buf.seen.clear(buf.frontier.len());
            buf.member_seen.clear(buf.member_seen.used.len());
            let mut pushed = 0u32;
            for fi in 0..buf.frontier.len() {
                let p = buf.frontier[fi];
                let rights = p.rights;
                let t_cover = p.t_cover;
                let pw = fi * stride;
                let mut ls = if k == 0 {
                    nz
                } else if previous {
                    right_links(frame, p.last as usize, live)
                } else {
                    nz.or(&t_cover)
                };
                ls = ls.minus(&rights);
                ls.remove(z);
                if self.spec.one_digit {
                    ls = BitSet::from_indices(ls.iter().filter(|&x| symbol(x) == z_symbol));
                }
                if previous && k > 0 {
                    // An `l` every member used already is no member's.
                    let mut all = frame.all;
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
                    for &v in &frame.cand_vars[l] {
                        let v = v as usize;
                        if cx.tick() {
                            return None;
                        }
                        if !self.space_ok(frame, v) || has(&buf.words[pw + gw..pw + stride], v) {
                            continue;
                        }
                        let live_v = st.var_live(frame, v);
                        if ends_here
                            && let Some((shown, cond)) =
                                self.ends(&live_v, l, &cover, &nz, &t_cover, &rights)
                            && let Some(node) = buf.first_member(&p, |lefts| {
                                !(previous && lefts.contains(l)) && cond.holds(lefts)
                            })
                        {
                            let last = Link {
                                var: v,
                                left: l,
                                right: shown,
                            };
                            let evidence = buf.evidence(node, z, last);
                            return Some(self.found(frame, st, evidence));
                        }
                        if !extend {
                            continue;
                        }
                        let mut rest = live_v.minus(&cover);
                        rest.remove(l);
                        // The right-linking candidate: the one candidate
                        // left, or each g-candidate holding all of them
                        // (a variable's house groups are disjoint: one at
                        // most; a cell's segments `n ≤ k`, `n ≥ k` are
                        // nested: several, and a larger one, with fewer
                        // g-links, may let a chain of this length go on
                        // where a smaller one ends it sooner).
                        let mut options = std::mem::take(&mut buf.options);
                        options.clear();
                        match rest.len() {
                            1 => {
                                let r = rest.min().unwrap_or(0);
                                let useless = r == z || rights.contains(r) || r == l;
                                // Or no extension of it can end in time.
                                if !useless && k + 1 + buf.reach.need(r) <= n {
                                    options.push((r, None));
                                }
                            }
                            2.. if self.spec.groups => {
                                for g in frame.var_groups[v].iter().map(|&g| g as usize) {
                                    let gc = &frame.groups[g].cands;
                                    if rest.is_subset(gc)
                                        && !gc.contains(l)
                                        && !gc.contains(z)
                                        && !gc.intersects(&rights)
                                        && !has(&buf.words[pw..pw + gw], g)
                                    {
                                        options.push((base + g, Some(g)));
                                    }
                                }
                            }
                            _ => {}
                        };
                        for &(r, group) in &options {
                            let r_links = match group {
                                None => frame.links[r].and(live),
                                Some(g) => frame.groups[g].glinks.and(live),
                            };
                            let mut new_rights = rights;
                            // The child's key.
                            buf.scratch.copy_from_slice(&buf.words[pw..pw + stride]);
                            match group {
                                None => new_rights.insert(r),
                                Some(g) => set(&mut buf.scratch, g),
                            }
                            if vars_matter || group.is_some() {
                                set(&mut buf.scratch[gw..], v);
                            }
                            let last = if previous { r as u32 } else { NONE };
                            let h = key_hash(last, &new_rights, &buf.scratch);
                            let (next, next_words, scratch) =
                                (&buf.next, &buf.next_words, &buf.scratch);
                            let mut child = buf.seen.find_by(h, |i| {
                                let q = &next[i as usize];
                                let at = i as usize * stride;
                                q.last == last
                                    && q.rights == new_rights
                                    && next_words[at..at + stride] == scratch[..]
                            });
                            let new_t_cover = t_cover.or(&r_links);
                            let kept = self.lefts_kept(frame, (k, n), r, &new_t_cover, &nz, live);
                            let single = group.is_none();
                            let mut m = p.first;
                            while m != NONE {
                                let mb = buf.members[m as usize];
                                m = mb.next;
                                if (previous && mb.lefts.contains(l))
                                    || (single && mb.lefts.contains(r))
                                {
                                    continue;
                                }
                                if buf.full(cx, stride) {
                                    return None;
                                }
                                let mut new_lefts = mb.lefts;
                                new_lefts.insert(l);
                                if single && k + 2 < n && buf.reach.need(r) > 1 {
                                    // Every candidate of the chain so far is
                                    // used (lefts are all kept before the last
                                    // two steps).
                                    let mut used = new_lefts.or(&new_rights);
                                    used.insert(z);
                                    if !buf.reach.reaches(frame, r, &used, n - k - 1) {
                                        continue;
                                    }
                                }
                                let new_lefts = new_lefts.and(&kept);
                                let c = match child {
                                    Some(c) => c,
                                    None => {
                                        let c = buf.next.len() as u32;
                                        buf.next.push(Partial {
                                            last,
                                            rights: new_rights,
                                            t_cover: new_t_cover,
                                            first: NONE,
                                            last_member: NONE,
                                            len: 0,
                                        });
                                        buf.next_words.extend_from_slice(&buf.scratch);
                                        buf.seen.insert(h, c);
                                        child = Some(c);
                                        c
                                    }
                                };
                                buf.add_member(c, mb.node, (v, l, r), new_lefts);
                                pushed += 1;
                                if pushed.is_multiple_of(1024) && buf.count(cx) {
                                    return None;
                                }
                            }
                        }
                        buf.options = options;
                    }
                }
            }
            if buf.next.is_empty() {
                break;
            }
            std::mem::swap(&mut buf.frontier, &mut buf.next);
            std::mem::swap(&mut buf.members, &mut buf.next_members);
            std::mem::swap(&mut buf.words, &mut buf.next_words);
            if buf.count(cx) {
                return None;
            }
        }
        None
    }
}
