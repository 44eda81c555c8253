//! Shared prefixes of pattern plans: the bindings that the first
//! instructions of several plans make, computed once per state.
//!
//! The rules of one file often start alike: Sudoku Explainer's unique
//! loops are a dozen rules that all find the same loops before each
//! checks its own type. When two plans of a file begin with the same
//! instructions (the same generators, definitions and filters, on the same
//! slots), [`share_prefixes`] marks such prefixes of each plan with a
//! [`Prefix`] key (several, nested, when a plan shares a short prefix with
//! many plans and a longer one with a few). The first plan searched on a state runs its
//! prefix alone and records every binding that passes it (in the order the
//! prefix makes them); any plan with the same key searched on the same
//! live candidates replays those bindings and runs only the rest of its
//! instructions. A plan reads nothing of a state but its live candidates,
//! so the recorded bindings are exactly those the plan would make: the
//! matches and their order do not change.
//!
//! The record is per thread (the last state seen for each key) and is
//! dropped when it grows beyond [`MAX_RECORDED`] bindings; the plan then
//! runs whole, as without sharing.

use super::pattern::{Instr, Plan, Val};
use crate::grid::bits::Bits;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{LazyLock, Mutex};

/// Bindings of one prefix beyond which they are not recorded (the plan
/// then runs whole).
pub const MAX_RECORDED: usize = 1 << 14;

/// The shared prefix of a plan: its first `len` instructions, the same in
/// every plan with the same `key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix {
    pub key: u64,
    pub len: usize,
    /// The slots that a binding of the prefix is recorded and replayed
    /// by: the first ones, up to the last that a generator or a definition
    /// of the prefix binds. The plan's other slots (its later names, and
    /// quantifiers' variables and moved parts, which are bound before
    /// they are read) do not carry over from the prefix to the rest.
    pub width: usize,
}

/// The slots that the bindings of `instrs` (a prefix) are kept by: see
/// [`Prefix::width`].
fn width_of(instrs: &[Instr]) -> usize {
    (instrs.iter())
        .filter_map(|i| match i {
            Instr::Gen { slot, .. } | Instr::Def { slot, .. } => Some(slot + 1),
            Instr::Filter(_) => None,
        })
        .max()
        .unwrap_or(0)
}

/// Keys of the prefixes met so far, by their instructions' text: equal
/// instructions get equal keys in every file and thread.
static KEYS: LazyLock<Mutex<HashMap<String, u64>>> = LazyLock::new(Default::default);

fn key_of(instrs: &[Instr]) -> u64 {
    let text = format!("{instrs:?}");
    let mut keys = KEYS.lock().unwrap_or_else(|e| e.into_inner());
    let next = keys.len() as u64;
    *keys.entry(text).or_insert(next)
}

/// Marks, in each plan, the prefixes it shares with other plans of
/// `plans`: for every other plan, the instructions both begin with, when
/// they hold a generator. A plan sharing a short prefix with many plans and
/// a longer one with a few gets both, shortest first: the longer prefix's
/// bindings are made from the shorter one's.
pub fn share_prefixes(plans: &mut [&mut Plan]) {
    let texts: Vec<Vec<String>> = plans
        .iter()
        .map(|p| p.instrs.iter().map(|i| format!("{i:?}")).collect())
        .collect();
    for (i, plan) in plans.iter_mut().enumerate() {
        let mut lens: Vec<usize> = (0..texts.len())
            .filter(|&j| j != i)
            .map(|j| {
                texts[i]
                    .iter()
                    .zip(&texts[j])
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .filter(|&len| {
                plan.instrs[..len]
                    .iter()
                    .any(|x| matches!(x, Instr::Gen { .. }))
            })
            .collect();
        lens.sort_unstable();
        lens.dedup();
        plan.folded = super::fold::fold(&plan.instrs, &lens);
        plan.prefixes = lens
            .into_iter()
            .map(|len| Prefix {
                key: key_of(&plan.instrs[..len]),
                len,
                width: width_of(&plan.instrs[..len]),
            })
            .collect();
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
}

thread_local! {
    static RECORDS: RefCell<HashMap<u64, Rc<Recorded>>> = RefCell::new(HashMap::new());
    /// The emptied vectors of records that were replaced, by key: the
    /// next recording of the key fills one instead of growing a new vector
    /// (and copying it at each doubling) as its bindings come.
    static SPARE: RefCell<HashMap<u64, Vec<Val>>> = RefCell::new(HashMap::new());
}

/// Spare vectors above this capacity (in values) are freed, not kept.
const MAX_SPARE: usize = 1 << 16;

/// An empty vector to record the bindings of `key` in: the one of the
/// key's last replaced record when there is one, else a new one.
pub fn spare(key: u64) -> Vec<Val> {
    SPARE.with(|s| s.borrow_mut().remove(&key).unwrap_or_default())
}

/// The bindings recorded for `key` on the live candidates `cands`, if any.
pub fn recorded(key: u64, cands: &Bits) -> Option<Rc<Recorded>> {
    RECORDS.with(|r| {
        r.borrow()
            .get(&key)
            .filter(|rec| rec.cands == *cands)
            .cloned()
    })
}

/// Keeps the bindings of `key` for the live candidates they were made on.
pub fn record(key: u64, rec: Recorded) -> Rc<Recorded> {
    let rec = Rc::new(rec);
    let old = RECORDS.with(|r| r.borrow_mut().insert(key, rec.clone()));
    // A replaced record nobody replays any more gives its vector back.
    if let Some(Ok(old)) = old.map(Rc::try_unwrap)
        && old.vals.capacity() <= MAX_SPARE
    {
        let mut vals = old.vals;
        vals.clear();
        SPARE.with(|s| s.borrow_mut().insert(key, vals));
    }
    rec
}
