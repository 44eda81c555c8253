//! Pattern rules on any type: a compiled plan ([`Plan`]) interpreted over
//! a run's [`Frame`], its cells, digits, houses, variables and candidates
//! being the type's ([`super::elems`], [`expr`]).
//!
//! The plan is read as the classic matcher reads it: its instructions in
//! their scheduled order (generators, definitions and filters; each
//! filter runs right after the last generator it needs, so it prunes as
//! early as the plan says), then the conclusion and the show template.
//! A generator binds the elements of its type with a live candidate (all
//! of them when its domain reads `decided` or `givens`) within its
//! domain, one at a time in increasing order (or in its `then` order), or
//! the `N`-subsets of them in increasing order: only live elements are
//! ever combined. Every match with a non-empty conclusion is reported, in
//! that order, so that on the typed model of `sudoku:9` a run finds what
//! the classic one finds, step for step.
//!
//! What the language's elements mean on other types is [`expr`]'s to
//! say; `peers(C)` are the cells sharing a house (of any kind) with every
//! cell of C.

pub mod eval;
pub mod expr;

use super::frame::Frame;
use super::state::State;
use super::{Evidence, Found, Unfit};
use crate::grid::bits::BitSet;
use crate::model::Model;
use crate::search::pattern::cluster::colour_clusters;
use crate::search::pattern::plan::fill_name;
use crate::search::pattern::{Elem, Instr, Plan, Shape, ShowPart};
use crate::search::{ConclusionKind, SearchCx};
use eval::{Env, V};
use expr::{Ctx, E, X};
use std::ops::ControlFlow;

/// One instruction of a plan on a type.
#[derive(Clone, Debug)]
enum Step {
    Gen {
        slot: usize,
        elem: E,
        size: Option<usize>,
        domain: Option<X>,
        order: Vec<X>,
        /// The domain reads `decided` or `givens`: elements without a
        /// live candidate are bound too.
        dead: bool,
    },
    Def {
        slot: usize,
        op: X,
    },
    Filter(X),
    /// The colour clusters of the domain's candidates under the type's
    /// variables ([`colour_clusters`]).
    Cluster {
        cands: usize,
        colour: usize,
        domain: X,
    },
}

/// A pattern rule compiled for a type.
#[derive(Clone, Debug)]
pub struct PatternRule {
    slots: usize,
    steps: Vec<Step>,
    target: X,
    conclusion: ConclusionKind,
    show: Vec<ShowPart<X>>,
    /// The name's holes its match binds ([`Plan::name_holes`]): matches
    /// are reported in increasing order of their values.
    name_holes: Vec<(String, usize)>,
}

/// A match's bound values, kept to show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bindings(Vec<Bound>);

/// One bound value, whatever the run's width.
#[derive(Clone, Debug, PartialEq)]
enum Bound {
    Int(i64),
    Bool(bool),
    Idx(usize),
    Set(Box<[u64]>),
}

impl Bindings {
    fn of<const W: usize>(vals: &[V<W>]) -> Bindings {
        Bindings(
            vals.iter()
                .map(|v| match v {
                    V::Int(i) => Bound::Int(*i),
                    V::Bool(b) => Bound::Bool(*b),
                    V::Idx(i) => Bound::Idx(*i),
                    V::Set(s) => Bound::Set(s.0.to_vec().into_boxed_slice()),
                })
                .collect(),
        )
    }

    fn vals<const W: usize>(&self) -> Vec<V<W>> {
        self.0
            .iter()
            .map(|b| match b {
                Bound::Int(i) => V::Int(*i),
                Bound::Bool(b) => V::Bool(*b),
                Bound::Idx(i) => V::Idx(*i),
                Bound::Set(words) => {
                    let mut s = BitSet::<W>::EMPTY;
                    for (w, x) in s.0.iter_mut().zip(words.iter()) {
                        *w = *x;
                    }
                    V::Set(s)
                }
            })
            .collect()
    }
}

/// Does `op` read the decided or the given cells?
fn reads_decided(op: &crate::search::pattern::Op) -> bool {
    use crate::search::pattern::Op;
    matches!(op, Op::Decided | Op::Givens | Op::Order(..))
        || op.operands().into_iter().flatten().any(reads_decided)
}

impl PatternRule {
    /// The rule of `plan` on `model`, or why it cannot run there;
    /// `foreign` is the space of other types the rule names, if any.
    pub fn of(plan: &Plan, model: &Model, foreign: Option<&str>) -> Result<PatternRule, Unfit> {
        let cx = Ctx { model, foreign };
        let mut steps = Vec::with_capacity(plan.instrs.len());
        for i in &plan.instrs {
            steps.push(match i {
                Instr::Gen {
                    slot,
                    elem,
                    size,
                    domain,
                    order,
                } => Step::Gen {
                    slot: *slot,
                    elem: cx.elem(*elem)?,
                    size: *size,
                    domain: domain.as_ref().map(|d| cx.x(d)).transpose()?,
                    order: order.iter().map(|o| cx.x(o)).collect::<Result<_, _>>()?,
                    dead: domain.as_ref().is_some_and(reads_decided),
                },
                Instr::Def { slot, op } => Step::Def {
                    slot: *slot,
                    op: cx.x(op)?,
                },
                Instr::Filter(op) => Step::Filter(cx.x(op)?),
                Instr::Walk(_) => {
                    return Err(Unfit::Unsupported(
                        "a loop generator (`let Q, A: loop from …`) runs on classic Sudoku only"
                            .into(),
                    ));
                }
                Instr::Als(_) => {
                    return Err(Unfit::Unsupported(
                        "an ALS generator (`let A: als …`) runs on classic Sudoku only".into(),
                    ));
                }
                Instr::Cluster(c) => Step::Cluster {
                    cands: c.cands,
                    colour: c.colour,
                    domain: cx.x(&c.domain)?,
                },
            });
        }
        let mut show = Vec::with_capacity(plan.show.len());
        for p in &plan.show {
            show.push(match p {
                ShowPart::Lit(s) => ShowPart::Lit(s.clone()),
                ShowPart::Value(shape, op) => {
                    check_shape(&cx, *shape)?;
                    ShowPart::Value(*shape, cx.x(op)?)
                }
                ShowPart::Within {
                    ctx_elem,
                    ctx,
                    shape,
                    x,
                } => {
                    cx.elem(*ctx_elem)?;
                    check_shape(&cx, *shape)?;
                    ShowPart::Within {
                        ctx_elem: *ctx_elem,
                        ctx: cx.x(ctx)?,
                        shape: *shape,
                        x: cx.x(x)?,
                    }
                }
            });
        }
        Ok(PatternRule {
            slots: plan.slots,
            steps,
            target: cx.x(&plan.target)?,
            conclusion: plan.conclusion,
            show,
            name_holes: plan.name_holes.clone(),
        })
    }

    /// The rule's first match on `st`.
    pub fn first<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Found<W>> {
        let mut out = None;
        self.each(cx, frame, st, &mut |f| {
            out = Some(f);
            ControlFlow::Break(())
        });
        out
    }

    /// Each match on `st`, in the plan's order, until `f` breaks.
    pub fn each<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        f: &mut dyn FnMut(Found<W>) -> ControlFlow<()>,
    ) {
        if self.name_holes.is_empty() {
            return self.search(cx, frame, st, f);
        }
        // Ordered by the name's holes: every match, sorted (stably), then
        // reported, as the family of one rule per value would find them.
        let mut all: Vec<(Vec<i64>, Found<W>)> = Vec::new();
        self.search(cx, frame, st, &mut |m| {
            all.push((self.hole_key(&m.evidence), m));
            ControlFlow::Continue(())
        });
        if cx.interrupted() {
            return;
        }
        all.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, m) in all {
            if f(m).is_break() {
                return;
            }
        }
    }

    /// Each match on `st`, in binding order, until `f` breaks.
    fn search<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        f: &mut dyn FnMut(Found<W>) -> ControlFlow<()>,
    ) {
        let mut s = Search {
            rule: self,
            frame,
            st,
            vals: vec![V::Int(0); self.slots],
            live: Vec::new(),
            cx,
            f,
        };
        let _ = s.run(0);
    }

    /// The values of the name's holes in a match, in the name's order.
    fn hole_key(&self, evidence: &Evidence) -> Vec<i64> {
        let Evidence::Pattern(Bindings(vals)) = evidence else {
            return Vec::new();
        };
        self.name_holes
            .iter()
            .map(|&(_, slot)| match vals.get(slot) {
                Some(Bound::Int(i)) => *i,
                _ => 0,
            })
            .collect()
    }

    /// The name a match prints under, when the rule's name (`rule`) has
    /// holes the match binds (`asc[{K}]`: `asc[3]`); `None`: the rule's.
    pub fn step_name(&self, rule: &str, evidence: &Evidence) -> Option<String> {
        if self.name_holes.is_empty() {
            return None;
        }
        Some(fill_name(rule, &self.name_holes, &self.hole_key(evidence)))
    }

    /// The show template of a match (`bindings`) on `before`.
    pub fn render<const W: usize>(
        &self,
        frame: &Frame<W>,
        before: &State<W>,
        bindings: &Bindings,
    ) -> String {
        let mut vals = bindings.vals::<W>();
        if vals.len() < self.slots {
            return String::new();
        }
        let mut env = Env {
            frame,
            el: frame.elems(),
            st: before,
            vals: &mut vals,
            undefined: false,
            clock: None,
        };
        let mut out = String::new();
        for p in &self.show {
            match p {
                ShowPart::Lit(s) => out.push_str(s),
                ShowPart::Value(shape, op) => {
                    env.undefined = false;
                    let v = env.eval(op);
                    if !env.undefined {
                        out.push_str(&show_value(*shape, &v, |e, i| show_elem(frame, e, i)));
                    }
                }
                ShowPart::Within {
                    ctx_elem,
                    ctx,
                    shape,
                    x,
                } => {
                    env.undefined = false;
                    let c = env.eval(ctx).idx();
                    let v = env.eval(x);
                    if !env.undefined {
                        out.push_str(&show_value(*shape, &v, |e, i| {
                            show_within(frame, *ctx_elem, c, e, i)
                        }));
                    }
                }
            }
        }
        out
    }
}

/// A shape's element type must exist on the type.
fn check_shape(cx: &Ctx, shape: Shape) -> Result<(), Unfit> {
    match shape {
        Shape::One(e) | Shape::Set(e) => cx.elem(e).map(|_| ()),
        Shape::Int => Ok(()),
    }
}

/// One search of a rule on a state.
struct Search<'a, const W: usize> {
    rule: &'a PatternRule,
    frame: &'a Frame<W>,
    st: &'a State<W>,
    vals: Vec<V<W>>,
    /// The default domains computed in this search, by element type.
    live: Vec<(E, bool, BitSet<W>)>,
    cx: &'a mut SearchCx,
    f: &'a mut dyn FnMut(Found<W>) -> ControlFlow<()>,
}

impl<const W: usize> Search<'_, W> {
    fn env(&mut self) -> Env<'_, W> {
        Env {
            frame: self.frame,
            el: self.frame.elems(),
            st: self.st,
            vals: &mut self.vals,
            undefined: false,
            clock: Some(&mut self.cx.clock),
        }
    }

    /// The set `x` evaluates to, and whether it is undefined.
    fn set_value(&mut self, x: &X) -> (BitSet<W>, bool) {
        let mut env = self.env();
        let s = env.set_of(x);
        (s, env.undefined)
    }

    /// The elements of type `e` with a live candidate (`dead`: all of
    /// them).
    fn domain(&mut self, e: E, dead: bool) -> BitSet<W> {
        if let Some((_, _, d)) = self.live.iter().find(|(x, y, _)| *x == e && *y == dead) {
            return *d;
        }
        let el = self.frame.elems();
        let d = if dead {
            match e {
                E::Digit => el.all_digits,
                E::Cell => el.all_cells,
                E::Cand => self.frame.all,
                E::Houses(None) => el.all_houses,
                E::Houses(Some(k)) => el.kind_houses[k as usize],
                E::Vars(None) => el.all_vars,
                E::Vars(Some(s)) => el.space_vars[s as usize],
            }
        } else {
            let cands = self.st.cands;
            match e {
                E::Cand => cands,
                E::Vars(sp) => {
                    let all = match sp {
                        None => el.all_vars,
                        Some(s) => el.space_vars[s as usize],
                    };
                    let mut d = BitSet::EMPTY;
                    for v in all.iter() {
                        if self.frame.vars[v].cands.intersects(&cands) {
                            d.insert(v);
                        }
                    }
                    d
                }
                _ => self.env().project(e, &cands),
            }
        };
        self.live.push((e, dead, d));
        d
    }

    /// The stop of an evaluation that gave no value: the deadline stops
    /// the search, an undefined value only this binding.
    fn stopped(&self) -> ControlFlow<()> {
        if self.cx.interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The matches of the steps from `k` on.
    fn run(&mut self, mut k: usize) -> ControlFlow<()> {
        let rule = self.rule;
        loop {
            let Some(step) = rule.steps.get(k) else {
                return self.report();
            };
            match step {
                Step::Def { slot, op } => {
                    let mut env = self.env();
                    let v = env.eval(op);
                    if env.undefined {
                        return ControlFlow::Continue(());
                    }
                    self.vals[*slot] = v;
                }
                Step::Filter(op) => {
                    let mut env = self.env();
                    if !env.cond(op) || env.undefined {
                        return ControlFlow::Continue(());
                    }
                }
                Step::Cluster {
                    cands,
                    colour,
                    domain,
                } => {
                    let (d, undefined) = self.set_value(domain);
                    if undefined {
                        return self.stopped();
                    }
                    // The strong links: variables whose only two live
                    // candidates are in the domain.
                    let live = d.and(&self.st.cands);
                    let mut pairs = Vec::new();
                    for var in &self.frame.vars {
                        let pair = live.and(&var.cands);
                        if pair.len() == 2
                            && self.st.cands.and(&var.cands).len() == 2
                            && let (Some(a), Some(b)) = (pair.min(), pair.max())
                        {
                            pairs.push((a, b));
                        }
                    }
                    let (cands, colour) = (*cands, *colour);
                    return colour_clusters::<W>(&pairs, |all, col| {
                        self.bind(cands, V::Set(all))?;
                        self.vals[colour] = V::Set(col);
                        self.run(k + 1)
                    });
                }
                Step::Gen {
                    slot,
                    elem,
                    size,
                    domain,
                    order,
                    dead,
                } => {
                    let mut dom = self.domain(*elem, *dead);
                    if let Some(d) = domain {
                        let (d, undefined) = self.set_value(d);
                        if undefined {
                            return self.stopped();
                        }
                        dom = dom.and(&d);
                    }
                    if !order.is_empty() {
                        let mut left = dom;
                        for part in order {
                            let (p, undefined) = self.set_value(part);
                            if undefined {
                                continue;
                            }
                            let take = left.and(&p);
                            left = left.minus(&take);
                            for i in take.iter() {
                                self.bind(*slot, V::Idx(i))?;
                                self.run(k + 1)?;
                            }
                        }
                        return ControlFlow::Continue(());
                    }
                    return match size {
                        None => {
                            for i in dom.iter() {
                                self.bind(*slot, V::Idx(i))?;
                                self.run(k + 1)?;
                            }
                            ControlFlow::Continue(())
                        }
                        Some(0) => ControlFlow::Continue(()),
                        Some(n) => {
                            let count = dom.len();
                            self.subsets(k, *slot, *n, dom, count, BitSet::EMPTY)
                        }
                    };
                }
            }
            k += 1;
        }
    }

    /// Binds `slot` to `v`, or stops at the deadline.
    #[inline]
    fn bind(&mut self, slot: usize, v: V<W>) -> ControlFlow<()> {
        if self.cx.tick() {
            return ControlFlow::Break(());
        }
        self.vals[slot] = v;
        ControlFlow::Continue(())
    }

    /// The `need`-subsets of `from` (`count` members) added to `acc`, in
    /// increasing order, each bound in turn.
    fn subsets(
        &mut self,
        k: usize,
        slot: usize,
        need: usize,
        from: BitSet<W>,
        count: usize,
        acc: BitSet<W>,
    ) -> ControlFlow<()> {
        if need == 0 {
            self.bind(slot, V::Set(acc))?;
            return self.run(k + 1);
        }
        let (mut rest, mut left) = (from, count);
        for i in from.iter() {
            if left < need {
                break;
            }
            rest.remove(i);
            left -= 1;
            let mut with = acc;
            with.insert(i);
            self.subsets(k, slot, need - 1, rest, left, with)?;
        }
        ControlFlow::Continue(())
    }

    /// The end of the steps: the conclusion, reported when it is not
    /// empty and the match can be shown.
    fn report(&mut self) -> ControlFlow<()> {
        let rule = self.rule;
        let (t, undefined) = self.set_value(&rule.target);
        if undefined {
            return self.stopped();
        }
        let t = t.and(&self.st.cands);
        if t.is_empty() {
            return ControlFlow::Continue(());
        }
        // A match is found only where every hole of its template is
        // defined.
        let mut env = self.env();
        for p in &rule.show {
            match p {
                ShowPart::Lit(_) => {}
                ShowPart::Value(_, op) => {
                    env.eval(op);
                }
                ShowPart::Within { ctx, x, .. } => {
                    env.eval(ctx);
                    env.eval(x);
                }
            }
        }
        if env.undefined {
            return self.stopped();
        }
        let found = Found {
            kind: rule.conclusion,
            conclusions: t,
            grade: None,
            evidence: Evidence::Pattern(Bindings::of(&self.vals)),
        };
        (self.f)(found)
    }
}

/// One element as paths print it: `n5`, `r3`, `b7`, `d4`, `r1c2`,
/// `n5r1c2`, `r1n5`.
fn show_elem<const W: usize>(frame: &Frame<W>, e: Elem, i: usize) -> String {
    let m = &*frame.model;
    match e {
        Elem::Digit => format!("n{}", m.symbol_name(i)),
        Elem::Row | Elem::Column | Elem::Block | Elem::House => {
            if i < m.houses.len() {
                m.house_name(i)
            } else {
                String::new()
            }
        }
        Elem::Cell => m.cell_name(i),
        Elem::Cand if i < frame.len() => frame.cand_name(i),
        Elem::Var(_) if i < frame.vars.len() => frame.var_name(i),
        Elem::Cand | Elem::Var(_) => String::new(),
    }
}

/// An element inside a variable or a house (`within(ctx, x)`): the
/// coordinate that varies in it (`c6` in a row, `r7c3` in a block).
fn show_within<const W: usize>(frame: &Frame<W>, ctx: Elem, c: usize, e: Elem, i: usize) -> String {
    let m = &*frame.model;
    match (ctx, e) {
        (Elem::Var(_), Elem::Cand) if c < frame.vars.len() && i < frame.len() => {
            frame.cand_in_var(c, i)
        }
        (Elem::Var(_), Elem::Cell) if c < frame.vars.len() => {
            let v = frame.vars[c].var as usize;
            if m.var_house(v).is_some() {
                m.cand_in_var(v, m.cand(i, 0))
            } else {
                show_elem(frame, e, i)
            }
        }
        (Elem::Row | Elem::Column | Elem::Block | Elem::House, Elem::Cell)
            if c < m.houses.len() =>
        {
            match m.houses[c].kind {
                0 => format!("c{}", m.cell_col(i) + 1),
                1 => format!("r{}", m.cell_row(i) + 1),
                _ => m.cell_name(i),
            }
        }
        (Elem::Row | Elem::Column | Elem::Block | Elem::House, Elem::Cand)
            if c < m.houses.len() && i < frame.len() =>
        {
            let z = frame.cand(i);
            let (d, cell) = (m.cand_symbol(z) + 1, m.cand_cell(z));
            match m.houses[c].kind {
                0 => format!("n{d}c{}", m.cell_col(cell) + 1),
                1 => format!("n{d}r{}", m.cell_row(cell) + 1),
                _ => m.cand_name(z),
            }
        }
        _ => show_elem(frame, e, i),
    }
}

/// A value as a show template prints it.
fn show_value<const W: usize>(shape: Shape, v: &V<W>, f: impl Fn(Elem, usize) -> String) -> String {
    match (shape, v) {
        (Shape::One(e), V::Idx(i)) => f(e, *i),
        (Shape::Set(e), V::Set(s)) => {
            let parts: Vec<String> = s.iter().map(|i| f(e, i)).collect();
            format!("{{{}}}", parts.join(" "))
        }
        (_, V::Int(i)) => i.to_string(),
        (_, V::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}
