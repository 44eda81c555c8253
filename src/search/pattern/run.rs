//! The matcher: a plan's instructions run depth-first on a state, in a
//! `Frame` (the bound values, each generator's default domain, the
//! context, the callback), with generators enumerating members or
//! k-subsets of a bitset domain (no allocation, increasing order) and
//! shared prefixes replayed from their records.
//!
//! Architecture Invariant: a plan only reads the state it is given; it
//! never mutates it. Conclusions are returned to the engine, which
//! applies them.

use super::eval::{Env, cond};
use super::ir::{Als, CmpOp, Elem, Instr, Op, ShowPart, Val};
use super::plan::Plan;
use super::prefix::{MAX_RECORDED, Recorded, Records};
use super::sets::{DigitCells, live_domain_in};
use super::typed::TOp;
use crate::grid::bits::Bits;
use crate::grid::state::State;
use crate::search::{Clock, ConclusionKind, Evidence, Found, SearchCx};
use std::ops::ControlFlow;
use std::rc::Rc;

/// What pattern searches keep from one search to the next within a run,
/// carried by the search context ([`SearchCx`]'s `pattern`; regex-automata's
/// `Cache` is the model): the frames of finished searches (their vectors
/// reused), the cells of each digit's candidates of the last state
/// searched, and the shared prefixes' recorded bindings ([`Records`]).
/// Nothing here changes what a search finds; the records change how many
/// nodes a search visits (a replayed binding is one node), the same way
/// for the same searches in the same order.
#[derive(Debug, Default)]
pub struct Scratch {
    frames: Vec<FrameBufs>,
    digit_cells: DigitCells,
    records: Records,
    /// The almost locked sets of the last state an ALS generator ran on.
    pub(super) als: super::als::AlsCache,
}

impl Scratch {
    /// The almost locked sets of `state` (kept while its candidates stay
    /// those of the state asked about last): the ALS generator's list,
    /// which chains with ALS nodes read too.
    pub(crate) fn als_list(&mut self, state: &State) -> std::rc::Rc<super::als::AlsList> {
        self.als.of(state)
    }
}

/// A frame's vectors: bound values, default domains.
type FrameBufs = (Vec<Val>, Vec<Option<Bits>>);

/// What one search of a plan works with.
pub(super) struct Frame<'a, 'f> {
    pub(super) state: &'a State,
    /// The cells of each digit's candidates in `state`, then of any
    /// digit's, read once for the search.
    pub(super) dc: [u128; 10],
    pub(super) env: Vec<Val>,
    /// Each generator's default domain, computed once per search.
    pub(super) live: Vec<Option<Bits>>,
    pub(super) cx: &'a mut SearchCx,
    pub(super) f: &'a mut (dyn FnMut(Found) -> ControlFlow<()> + 'f),
    /// When recording a prefix: the instruction it ends before (else
    /// `usize::MAX`), the slots kept of each binding that reaches it
    /// ([`Prefix::width`]), those bindings, and whether they were too many
    /// to keep.
    pub(super) stop: usize,
    pub(super) width: usize,
    pub(super) sink: Vec<Val>,
    pub(super) overflow: bool,
}

/// How a run of instructions ends when an evaluation gave no value:
/// undefined (the binding does not match, the search goes on), or stopped
/// at the deadline (the search stops).
#[inline]
fn stopped(clock: &Clock) -> ControlFlow<()> {
    if clock.interrupted() {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

impl Frame<'_, '_> {
    /// [`stopped`] for the frame's search.
    #[inline]
    fn stopped(&self) -> ControlFlow<()> {
        stopped(&self.cx.clock)
    }
}

impl Plan {
    /// The matches of the instructions from `k` on: definitions and
    /// filters go on to the next instruction in this call (a loop, not a
    /// call per instruction); a generator calls it again per value.
    pub(super) fn run(&self, mut k: usize, fr: &mut Frame) -> ControlFlow<()> {
        loop {
            if k == fr.stop {
                if fr.sink.len() >= MAX_RECORDED * fr.width {
                    fr.overflow = true;
                    return ControlFlow::Break(());
                }
                fr.sink.extend_from_slice(&fr.env[..fr.width]);
                return ControlFlow::Continue(());
            }
            let Some(instr) = self.instrs.get(k) else {
                let Some(t) = (self.typed.target).defined_in(
                    fr.state,
                    &fr.dc,
                    &mut fr.env,
                    fr.cx.clock_and_givens(),
                    TOp::eval_set,
                ) else {
                    return fr.stopped();
                };
                let t = t.and(&fr.state.cands);
                if t.is_empty() {
                    return ControlFlow::Continue(());
                }
                if !self.showable(fr.state, &fr.dc, &mut fr.env, fr.cx.clock_and_givens()) {
                    return fr.stopped();
                }
                // The checker proves it (`assert` of a `cand` or of a name
                // whose count a filter bounds by one).
                debug_assert!(self.conclusion == ConclusionKind::Eliminate || t.len() == 1);
                return (fr.f)(Found {
                    kind: self.conclusion,
                    conclusions: t,
                    grade: None,
                    evidence: Evidence::Bindings(fr.env.clone()),
                });
            };
            match instr {
                Instr::Def { .. } | Instr::Filter(_) => {
                    // A run of definitions and filters, in one environment,
                    // up to the next generator (or the prefix's end).
                    let ops = &self.typed.ops;
                    let stop = fr.stop;
                    let mut cx = Env {
                        state: fr.state,
                        vals: &mut fr.env,
                        undefined: false,
                        dc: &fr.dc,
                        clock: &mut fr.cx.clock,
                        givens: &fr.cx.givens,
                    };
                    while k != stop {
                        match self.instrs.get(k) {
                            Some(Instr::Def { slot, .. }) => {
                                let Some(Some(op)) = ops.get(k) else {
                                    unreachable!("a definition has its typed expression")
                                };
                                op.eval_into(&mut cx, *slot);
                                if cx.undefined {
                                    return ControlFlow::Continue(());
                                }
                            }
                            // What fold left of the filter, typed (its
                            // chain's terms in place: [`cond`]).
                            Some(Instr::Filter(_)) => {
                                // Undefined, or past the deadline: the
                                // search stops at its next node.
                                if let Some(Some(op)) = ops.get(k)
                                    && (!cond(op, &mut cx) || cx.undefined)
                                {
                                    return ControlFlow::Continue(());
                                }
                            }
                            _ => break,
                        }
                        k += 1;
                    }
                }
                Instr::Walk(w) => return self.run_walk(k, w, fr),
                Instr::Cluster(c) => return self.run_cluster(k, c, fr),
                Instr::Als(a) => return self.run_als(k, a, fr),
                Instr::Gen {
                    slot,
                    elem,
                    size,
                    domain,
                    order,
                } => {
                    let mut dom = match fr.live[k] {
                        Some(d) => d,
                        None => {
                            let d = self.default_domain(
                                k,
                                *slot,
                                *elem,
                                fr.state,
                                &fr.dc,
                                &mut fr.env,
                                fr.cx.clock_and_givens(),
                            );
                            fr.live[k] = Some(d);
                            d
                        }
                    };
                    if domain.is_some()
                        && let Some(d) = &self.typed.ops[k]
                    {
                        let Some(d) = d.defined_in(
                            fr.state,
                            &fr.dc,
                            &mut fr.env,
                            fr.cx.clock_and_givens(),
                            TOp::eval_set,
                        ) else {
                            return fr.stopped();
                        };
                        dom = dom.and(&d);
                    }
                    if let Some((op, s)) = self.folded.bounds.get(k).copied().flatten()
                        && let Val::Idx(j) = fr.env[s]
                    {
                        dom = dom.and(&side(op, j));
                    }
                    if !order.is_empty() {
                        return self.run_ordered(k, *slot, &self.typed.orders[k], dom, fr);
                    }
                    return match *size {
                        None => {
                            // The members, from the words the element type
                            // can have members in only.
                            for (w, &word) in dom.0[..elem_words(*elem)].iter().enumerate() {
                                let mut m = word;
                                while m != 0 {
                                    let i = w * 64 + m.trailing_zeros() as usize;
                                    m &= m - 1;
                                    if fr.cx.tick() {
                                        return ControlFlow::Break(());
                                    }
                                    fr.env[*slot] = Val::Idx(i);
                                    self.run(k + 1, fr)?;
                                }
                            }
                            ControlFlow::Continue(())
                        }
                        Some(0) => ControlFlow::Continue(()),
                        Some(n) => {
                            let count = dom.len();
                            self.subsets(k, *slot, n, dom, count, Bits::EMPTY, fr)
                        }
                    };
                }
            }
        }
    }

    /// Generator `k` over `dom` taken in the order of its `then` parts.
    fn run_ordered(
        &self,
        k: usize,
        slot: usize,
        order: &[TOp],
        dom: Bits,
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        let mut left = dom;
        for part in order {
            let Some(p) = part.defined_in(
                fr.state,
                &fr.dc,
                &mut fr.env,
                fr.cx.clock_and_givens(),
                TOp::eval_set,
            ) else {
                if fr.cx.interrupted() {
                    return ControlFlow::Break(());
                }
                continue;
            };
            let take = left.and(&p);
            left = left.minus(&take);
            for i in take.iter() {
                if fr.cx.tick() {
                    return ControlFlow::Break(());
                }
                fr.env[slot] = Val::Idx(i);
                self.run(k + 1, fr)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The bindings that reach the end of shared prefix `level`: recorded
    /// for this state by any plan with the same prefix, or made now (from
    /// those of the level below) and recorded. `Err` when the deadline
    /// passed.
    pub(super) fn bindings(
        &self,
        level: usize,
        fr: &mut Frame,
    ) -> Result<Rc<Recorded>, ControlFlow<()>> {
        let p = &self.prefixes[level];
        if let Some(rec) = fr.cx.pattern.records.recorded(p, &fr.state.cands) {
            return Ok(rec);
        }
        let below = match level {
            0 => None,
            _ => Some(self.bindings(level - 1, fr)?).filter(|r| r.complete),
        };
        fr.stop = p.len;
        fr.width = p.width;
        fr.sink = fr.cx.pattern.records.spare(p);
        let flow = match &below {
            Some(rec) => self.replay(rec, self.prefixes[level - 1].len, fr),
            None => self.run(0, fr),
        };
        fr.stop = usize::MAX;
        let overflow = std::mem::take(&mut fr.overflow);
        let vals = std::mem::take(&mut fr.sink);
        if flow.is_break() && !overflow {
            // The deadline passed: nothing complete to keep.
            return Err(flow);
        }
        let cands = fr.state.cands;
        let rec = fr.cx.pattern.records.record(p, cands, !overflow, vals);
        // The records are bounded (MAX_RECORDED bindings a prefix) but
        // held from one search to the next: looked at against the memory
        // cap as they are made.
        if fr.cx.memory_limit().is_some() {
            let held = fr.cx.pattern.records.bytes();
            if fr.cx.over(held) {
                return Err(ControlFlow::Break(()));
            }
        }
        Ok(rec)
    }

    /// The default domain of generator `k` (the elements with a live
    /// candidate), less those that fail a condition folded into it.
    #[allow(clippy::too_many_arguments)]
    fn default_domain(
        &self,
        k: usize,
        slot: usize,
        elem: Elem,
        state: &State,
        dc: &[u128; 10],
        env: &mut [Val],
        (clock, givens): (&mut Clock, &Option<Bits>),
    ) -> Bits {
        let mut dom = if self.typed.dead[k] {
            // Decided elements too (`let C: cell in decided`).
            all_elements(elem)
        } else {
            live_domain_in(state, elem, dc)
        };
        let conds = &self.typed.conds[k];
        if !conds.is_empty() {
            for i in dom.iter() {
                env[slot] = Val::Idx(i);
                if !(conds.iter()).all(|c| {
                    c.defined_in(state, dc, env, (clock, givens), TOp::eval_bool)
                        .unwrap_or(false)
                }) {
                    dom.remove(i);
                }
            }
        }
        dom
    }

    /// Runs the plan from instruction `k` on each recorded binding (the
    /// values of its prefix's first slots).
    pub(super) fn replay(&self, rec: &Recorded, k: usize, fr: &mut Frame) -> ControlFlow<()> {
        for env in rec.vals.chunks(rec.stride) {
            if fr.cx.tick() {
                return ControlFlow::Break(());
            }
            let n = env.len().min(fr.env.len());
            fr.env[..n].copy_from_slice(&env[..n]);
            self.run(k, fr)?;
        }
        ControlFlow::Continue(())
    }

    /// Is every hole of the show template defined? A match is only found
    /// where it can be shown (`first` or `last` of an empty set in a hole
    /// makes it no match, as anywhere else in the rule).
    fn showable(
        &self,
        state: &State,
        dc: &[u128; 10],
        env: &mut [Val],
        (clock, givens): (&mut Clock, &Option<Bits>),
    ) -> bool {
        let mut defined = |op: &Op, t: &TOp, env: &mut [Val]| {
            !op.may_fail()
                || t.defined_in(state, dc, env, (clock, givens), TOp::eval)
                    .is_some()
        };
        (self.show.iter().zip(&self.typed.show)).all(|p| match p {
            (ShowPart::Lit(_), _) => true,
            (ShowPart::Value(_, op), ShowPart::Value(_, t)) => defined(op, t, env),
            (
                ShowPart::Within { ctx, x, .. },
                ShowPart::Within {
                    ctx: tctx, x: tx, ..
                },
            ) => defined(ctx, tctx, env) && defined(x, tx, env),
            _ => unreachable!("the typed template is made from the checked one"),
        })
    }

    /// Binds `slot` to every `need`-subset of `from` (which has `count`
    /// members) joined to `acc`, in lexicographic order of members.
    #[allow(clippy::too_many_arguments)]
    fn subsets(
        &self,
        k: usize,
        slot: usize,
        need: usize,
        from: Bits,
        count: usize,
        acc: Bits,
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        if need == 0 {
            if fr.cx.tick() {
                return ControlFlow::Break(());
            }
            fr.env[slot] = Val::Set(acc);
            return self.run(k + 1, fr);
        }
        let mut rest = from;
        let mut left = count;
        for i in from.iter() {
            if left < need {
                break;
            }
            rest.remove(i);
            left -= 1;
            let mut with = acc;
            with.insert(i);
            self.subsets(k, slot, need - 1, rest, left, with, fr)?;
        }
        ControlFlow::Continue(())
    }

    /// Runs `body` on a fresh frame for one search of this plan on
    /// `state`. The frame's vectors come from the context's pool
    /// ([`Scratch`]): a trial's branches search their rules thousands of
    /// times a step.
    pub(super) fn framed(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
        body: impl FnOnce(&Plan, &mut Frame) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (mut env, mut live) = cx.pattern.frames.pop().unwrap_or_default();
        env.clear();
        env.resize(self.slots, Val::Int(0));
        live.clear();
        live.resize(self.instrs.len(), None);
        let dc = *cx.pattern.digit_cells.of(&state.cands);
        let mut fr = Frame {
            state,
            dc,
            env,
            live,
            cx,
            f,
            stop: usize::MAX,
            width: 0,
            sink: Vec::new(),
            overflow: false,
        };
        let flow = body(self, &mut fr);
        let bufs = (std::mem::take(&mut fr.env), std::mem::take(&mut fr.live));
        fr.cx.pattern.frames.push(bufs);
        flow
    }
}

/// The indices `i` with `i op j` (`op` an order; `==` and `!=` keep
/// all): the members a bound on a generator's element keeps
/// ([`super::fold::bound_of`]).
fn side(op: CmpOp, j: usize) -> Bits {
    let below = |n: usize| Bits::first(n.min(Bits::CAPACITY));
    let all = below(Bits::CAPACITY);
    match op {
        CmpOp::Lt => below(j),
        CmpOp::Le => below(j + 1),
        CmpOp::Gt => all.minus(&below(j + 1)),
        CmpOp::Ge => all.minus(&below(j)),
        CmpOp::Eq | CmpOp::Ne => all,
    }
}

/// How many words of a [`Bits`] the members of a set of `e` can be in:
/// digits and houses are below 64, cells below 128.
#[inline(always)]
fn elem_words(e: Elem) -> usize {
    match e {
        Elem::Digit | Elem::Row | Elem::Column | Elem::Block | Elem::House => 1,
        Elem::Cell => 2,
        Elem::Cand | Elem::Var(_) => Bits::CAPACITY / 64,
    }
}

/// Every element of a type, live or not.
#[cold]
fn all_elements(e: Elem) -> Bits {
    use crate::grid::geometry::{N_CANDS, N_CELLS, N_HOUSES, N_VARS};
    match e {
        Elem::Cand => Bits::first(N_CANDS),
        Elem::Cell => Bits::first(N_CELLS),
        Elem::Digit => Bits::first(9),
        Elem::Row => Bits::first(9),
        Elem::Column => Bits::first(18).minus(&Bits::first(9)),
        Elem::Block => Bits::first(N_HOUSES).minus(&Bits::first(18)),
        Elem::House => Bits::first(N_HOUSES),
        Elem::Var(None) => Bits::first(N_VARS),
        Elem::Var(Some(s)) => {
            let lo = s as usize * 81;
            Bits::first(lo + 81).minus(&Bits::first(lo))
        }
    }
}

impl Plan {
    /// Runs ALS generator `k` on the current binding: each ALS of its
    /// sizes whose cells lie in its domain, then the rest of the plan.
    pub(super) fn run_als(&self, k: usize, a: &Als, fr: &mut Frame) -> ControlFlow<()> {
        // An undefined domain or `holding` ends this binding: the search
        // stops when the clock interrupted it, and goes on otherwise.
        let undefined = |fr: &Frame| {
            if fr.cx.interrupted() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let set_of = |op: &TOp, fr: &mut Frame| {
            op.defined_in(
                fr.state,
                &fr.dc,
                &mut fr.env,
                fr.cx.clock_and_givens(),
                TOp::eval_set,
            )
        };
        let domain = match (&a.domain, self.typed.ops.get(k)) {
            (Some(_), Some(Some(d))) => match set_of(d, fr) {
                Some(d) => super::als::cell_word(&d),
                None => return undefined(fr),
            },
            _ => u128::MAX,
        };
        let holding = match self.typed.holdings.get(k) {
            Some(Some(h)) => match set_of(h, fr) {
                Some(h) => (h.0[0] & 0x1FF) as u16,
                None => return undefined(fr),
            },
            _ => 0,
        };
        let list = fr.cx.pattern.als.of(fr.state);
        for s in list.sized(a.min, a.max) {
            if s.cells & !domain != 0 || s.digits & holding != holding {
                continue;
            }
            if fr.cx.tick() {
                return ControlFlow::Break(());
            }
            fr.env[a.slot] = Val::Set(s.set);
            self.run(k + 1, fr)?;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members a bound keeps: those on its side of the index.
    #[test]
    fn sides_of_an_index() {
        let of = |op, j| side(op, j).iter().collect::<Vec<_>>();
        assert_eq!(of(CmpOp::Lt, 3), [0, 1, 2]);
        assert_eq!(of(CmpOp::Le, 3), [0, 1, 2, 3]);
        assert_eq!(of(CmpOp::Gt, 764), [765, 766, 767]);
        assert_eq!(of(CmpOp::Ge, 765), [765, 766, 767]);
        assert!(side(CmpOp::Lt, 0).is_empty());
        assert!(side(CmpOp::Gt, 767).is_empty());
        assert_eq!(side(CmpOp::Ne, 5).len(), Bits::CAPACITY);
        for j in [0, 1, 63, 64, 80, 400, 728] {
            let (lt, ge) = (side(CmpOp::Lt, j), side(CmpOp::Ge, j));
            assert!(!lt.intersects(&ge));
            assert_eq!(lt.len() + ge.len(), Bits::CAPACITY);
            assert_eq!(side(CmpOp::Le, j).len(), j + 1);
        }
    }
}
