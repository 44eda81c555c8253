//! Shared prefixes of pattern plans: the bindings that the first
//! instructions of several plans make, computed once per state.
//!
//! The rules of one file often start alike: Sudoku Explainer's unique
//! loops are a dozen rules that all find the same loops before each
//! checks its own type. When two plans of a file begin with the same
//! instructions (the same generators, definitions and filters, on the same
//! slots), [`share`] marks such prefixes of each plan with a [`Prefix`]
//! (several, nested, when a plan shares a short prefix with many plans and
//! a longer one with a few). The first plan searched on a state runs its
//! prefix alone and records every binding that passes it (in the order
//! the prefix makes them); any plan with the same prefix searched on the
//! same live candidates replays those bindings and runs only the rest of
//! its instructions. A plan reads nothing of a state but its live
//! candidates, so the recorded bindings are exactly those the plan would
//! make: the matches and their order do not change.
//!
//! A prefix is known by its instructions: its key is a hash of them,
//! computed the same way in every file and thread (equal instructions,
//! equal keys), and a record is replayed only for the same instructions
//! (compared when the two plans do not share one copy of them). The
//! records are kept by the search context ([`Records`], in
//! [`super::Scratch`]): the last state seen for each key, dropped when it
//! grows beyond [`MAX_RECORDED`] bindings (the plan then runs whole, as
//! without sharing).

use super::ir::{Instr, Val};
use crate::grid::bits::Bits;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// Bindings of one prefix beyond which they are not recorded (the plan
/// then runs whole).
pub const MAX_RECORDED: usize = 1 << 14;

/// The shared prefix of a plan: its first `len` instructions, the same in
/// every plan with the same `key`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prefix {
    /// A hash of the instructions, the same in every file and thread.
    pub key: u64,
    pub len: usize,
    /// The slots that a binding of the prefix is recorded and replayed
    /// by: the first ones, up to the last that a generator, a walk or a
    /// definition of the prefix binds. The plan's other slots (its later names, and
    /// quantifiers' variables and moved parts, which are bound before
    /// they are read) do not carry over from the prefix to the rest.
    pub width: usize,
    /// The instructions (one copy for the plans of a file that share
    /// them).
    pub instrs: Arc<[Instr]>,
}

/// The slots that the bindings of `instrs` (a prefix) are kept by: see
/// [`Prefix::width`]. Every slot an instruction writes counts (a walk
/// writes its loop, its even cells, its `next` cell and what it gathers;
/// a quantifier its variable and moved parts, left holding their last
/// values, which a match's bindings show).
fn width_of(instrs: &[Instr]) -> usize {
    (instrs.iter())
        .flat_map(Instr::writes)
        .map(|s| s + 1)
        .max()
        .unwrap_or(0)
}

/// The key of a prefix: a hash of its instructions, with fixed keys (the
/// same in every run, file and thread).
fn key_of(instrs: &[Instr]) -> u64 {
    let mut h = DefaultHasher::new();
    instrs.hash(&mut h);
    h.finish()
}

/// The prefixes each plan shares with other plans of `plans` (the
/// instructions of the plans of one file): for every other plan, the
/// instructions both begin with, when they hold a generator. A plan sharing
/// a short prefix with many plans and a longer one with a few gets both,
/// shortest first: the longer prefix's bindings are made from the shorter
/// one's.
///
/// The plans go into a trie of their instructions (each node counting the
/// plans through it), so that a file of many rules costs the total length
/// of its plans, not their number squared: a plan shares its first `d`
/// instructions exactly with the other plans through its node at depth
/// `d` that do not go on through its node at depth `d + 1`.
pub fn share(plans: &[&[Instr]]) -> Vec<Vec<Prefix>> {
    let trie = Trie::of(plans);
    // One copy of each distinct prefix, so that plans sharing it compare
    // records by address.
    let mut copies: HashMap<&[Instr], Arc<[Instr]>> = HashMap::new();
    let mut out = Vec::with_capacity(plans.len());
    for instrs in plans {
        // The other plans through each node of this plan's path.
        let others: Vec<usize> = trie.path(instrs).map(|n| trie.count[n] - 1).collect();
        let lens = (0..=instrs.len())
            .filter(|&d| others[d] > others.get(d + 1).copied().unwrap_or(0))
            .filter(|&len| instrs[..len].iter().any(Instr::is_gen));
        out.push(
            lens.map(|len| {
                let p = &instrs[..len];
                Prefix {
                    key: key_of(p),
                    len,
                    width: width_of(p),
                    instrs: copies.entry(p).or_insert_with(|| p.into()).clone(),
                }
            })
            .collect(),
        );
    }
    out
}

/// The plans' instructions as a trie: node 0 is the root (no instruction
/// yet), each node's children by their next instruction, and how many
/// plans go through each node.
struct Trie<'a> {
    children: Vec<HashMap<&'a Instr, usize>>,
    count: Vec<usize>,
}

impl<'a> Trie<'a> {
    fn of(plans: &[&'a [Instr]]) -> Trie<'a> {
        let mut trie = Trie {
            children: vec![HashMap::new()],
            count: vec![0],
        };
        for instrs in plans {
            let mut node = 0;
            trie.count[0] += 1;
            for x in *instrs {
                node = match trie.children[node].get(x) {
                    Some(&c) => c,
                    None => {
                        let c = trie.count.len();
                        trie.children.push(HashMap::new());
                        trie.count.push(0);
                        trie.children[node].insert(x, c);
                        c
                    }
                };
                trie.count[node] += 1;
            }
        }
        trie
    }

    /// The nodes of a plan's path (it must be in the trie): the root,
    /// then one per instruction.
    fn path<'t>(&'t self, instrs: &'t [Instr]) -> impl Iterator<Item = usize> + 't {
        let mut node = 0;
        std::iter::once(0).chain(instrs.iter().map(move |x| {
            node = self.children[node][x];
            node
        }))
    }
}

/// The bindings recorded for one prefix: `stride` values each (the
/// prefix's [`Prefix::width`] first slots), for the
/// live candidates `cands`; not `complete` when there were more than
/// [`MAX_RECORDED`] (then the plans run whole on that state).
pub struct Recorded {
    pub cands: Bits,
    pub stride: usize,
    pub complete: bool,
    pub vals: Vec<Val>,
    /// The prefix's instructions.
    instrs: Arc<[Instr]>,
}

/// Spare vectors above this capacity (in values) are freed, not kept.
const MAX_SPARE: usize = 1 << 16;

/// The recorded bindings of the prefixes searched, by key: the last
/// state's for each. Part of a search context's scratch.
#[derive(Default)]
pub struct Records {
    records: HashMap<u64, Rc<Recorded>>,
    /// The emptied vectors of records that were replaced, by key: the
    /// next recording of the key fills one instead of growing a new vector
    /// (and copying it at each doubling) as its bindings come.
    spare: HashMap<u64, Vec<Val>>,
}

impl Records {
    /// An empty vector to record the bindings of `p` in: the one of the
    /// key's last replaced record when there is one, else a new one.
    pub fn spare(&mut self, p: &Prefix) -> Vec<Val> {
        self.spare.remove(&p.key).unwrap_or_default()
    }

    /// The bytes the records and spare vectors hold.
    pub fn bytes(&self) -> usize {
        let vals: usize = self
            .records
            .values()
            .map(|r| r.vals.capacity())
            .sum::<usize>()
            + self.spare.values().map(Vec::capacity).sum::<usize>();
        vals * std::mem::size_of::<Val>()
    }

    /// The bindings recorded for `p` on the live candidates `cands`, if
    /// any.
    pub fn recorded(&self, p: &Prefix, cands: &Bits) -> Option<Rc<Recorded>> {
        self.records
            .get(&p.key)
            .filter(|rec| {
                rec.cands == *cands
                    && (Arc::ptr_eq(&rec.instrs, &p.instrs) || rec.instrs == p.instrs)
            })
            .cloned()
    }

    /// Keeps the bindings of `p` for the live candidates `cands` they were
    /// made on.
    pub fn record(
        &mut self,
        p: &Prefix,
        cands: Bits,
        complete: bool,
        vals: Vec<Val>,
    ) -> Rc<Recorded> {
        let rec = Rc::new(Recorded {
            cands,
            stride: p.width,
            complete,
            vals,
            instrs: p.instrs.clone(),
        });
        let old = self.records.insert(p.key, rec.clone());
        // A replaced record nobody replays any more gives its vector back.
        if let Some(Ok(old)) = old.map(Rc::try_unwrap)
            && old.vals.capacity() <= MAX_SPARE
        {
            let mut vals = old.vals;
            vals.clear();
            self.spare.insert(p.key, vals);
        }
        rec
    }
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Records({} prefixes)", self.records.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::ir::{Elem, Op};

    /// The definition [`share`] implements, plan against plan.
    fn pairwise(plans: &[&[Instr]]) -> Vec<Vec<usize>> {
        (0..plans.len())
            .map(|i| {
                let mut lens: Vec<usize> = (0..plans.len())
                    .filter(|&j| j != i)
                    .map(|j| {
                        (plans[i].iter().zip(plans[j].iter()))
                            .take_while(|(a, b)| a == b)
                            .count()
                    })
                    .filter(|&l| plans[i][..l].iter().any(|x| matches!(x, Instr::Gen { .. })))
                    .collect();
                lens.sort_unstable();
                lens.dedup();
                lens
            })
            .collect()
    }

    #[test]
    fn the_trie_finds_every_shared_prefix() {
        let g = |slot| Instr::Gen {
            slot,
            elem: Elem::Cell,
            size: None,
            domain: None,
            order: vec![],
        };
        let f = |k| Instr::Filter(Op::Int(k));
        let plans: Vec<Vec<Instr>> = vec![
            vec![g(0), f(1), g(1), f(2)],
            vec![g(0), f(1), g(1), f(3)],
            vec![g(0), f(1), g(1)],
            vec![g(0), f(1), g(1)],
            vec![g(0), f(4)],
            vec![f(1), g(0)],
            vec![f(1), g(0), f(2)],
            vec![g(1)],
            vec![],
        ];
        let refs: Vec<&[Instr]> = plans.iter().map(Vec::as_slice).collect();
        let got: Vec<Vec<usize>> = share(&refs)
            .iter()
            .map(|ps| ps.iter().map(|p| p.len).collect())
            .collect();
        assert_eq!(got, pairwise(&refs));
        assert_eq!(
            got[0],
            vec![1, 3],
            "with the fifth plan, then the second to fourth"
        );
        assert_eq!(got[2], vec![1, 3]);
        assert_eq!(got[5], vec![2]);
        assert_eq!(got[7], Vec::<usize>::new());
        // Equal prefixes are one copy.
        let s = share(&refs);
        assert!(Arc::ptr_eq(&s[0][1].instrs, &s[1][1].instrs));
    }
}
