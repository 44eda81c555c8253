//! Variable rules on any type: a pattern rule whose one generator binds a
//! CSP variable (`let V: rc`, `let V: var`) and whose conditions,
//! conclusion and show template read that variable's live candidates and
//! their links. Singles and whip[1] are such rules.
//!
//! The rule's compiled plan ([`Plan`]) is read as it is: its generator's
//! space is looked up by name in the type ([`super::space_named`]), its
//! filters and target are evaluated here over the frame's sets. A plan
//! that holds more than this fragment (a second generator, cells, rows,
//! digits, quantifiers) is [`Unfit::Unsupported`] here and goes to the
//! general interpreter ([`super::pattern`]); this one is its fast path.

use super::frame::Frame;
use super::state::State;
use super::{Evidence, Found, Unfit, space_named};
use crate::grid::bits::BitSet;
use crate::model::Model;
use crate::search::pattern::{CmpOp, Elem, Instr, Op, Plan, SetOp, ShowPart};
use crate::search::{ConclusionKind, SearchCx};
use std::ops::ControlFlow;

/// A compiled variable rule.
#[derive(Clone, Debug)]
pub struct VarRule {
    /// The model space of its variable (`None`: every variable).
    space: Option<usize>,
    filters: Vec<Op>,
    target: Op,
    conclusion: ConclusionKind,
    show: Vec<ShowPart>,
}

/// A value of the fragment.
#[derive(Clone, Copy)]
enum Val<const W: usize> {
    Int(i64),
    Var(usize),
    Cands(BitSet<W>),
}

impl VarRule {
    /// The variable rule of `plan` on `model`, or why it is none;
    /// `foreign` is the space of other types the rule names, if any
    /// ([`crate::rule::RuleHead::space`]).
    pub fn of(plan: &Plan, model: &Model, foreign: Option<&str>) -> Result<VarRule, Unfit> {
        let mut instrs = plan.instrs.iter();
        let space = match instrs.next() {
            Some(Instr::Gen {
                slot: 0,
                elem: Elem::Var(sp),
                size: None,
                domain: None,
                order,
            }) if order.is_empty() => match sp {
                None => match foreign {
                    None => None,
                    Some(f) => {
                        Some(space_named(model, f).ok_or_else(|| Unfit::Space(f.to_string()))?)
                    }
                },
                Some(s) => Some(
                    space_named(model, s.name())
                        .ok_or_else(|| Unfit::Space(s.name().to_string()))?,
                ),
            },
            _ => {
                return Err(Unfit::Unsupported(
                    "its pattern binds more than one CSP variable (the typed back end runs \
                     rules over one variable, chains and trials)"
                        .into(),
                ));
            }
        };
        let mut filters = Vec::new();
        for i in instrs {
            match i {
                Instr::Filter(op) => {
                    check(op)?;
                    filters.push(op.clone());
                }
                _ => {
                    return Err(Unfit::Unsupported(
                        "its pattern binds more than one CSP variable or defines values".into(),
                    ));
                }
            }
        }
        check(&plan.target)?;
        for part in &plan.show {
            match part {
                ShowPart::Lit(_) => {}
                ShowPart::Value(_, op) => check(op)?,
                ShowPart::Within { ctx, x, .. } => {
                    check(ctx)?;
                    check(x)?;
                }
            }
        }
        Ok(VarRule {
            space,
            filters,
            target: plan.target.clone(),
            conclusion: plan.conclusion,
            show: plan.show.clone(),
        })
    }

    /// The first variable (in model order) that matches, with its
    /// conclusions.
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

    /// Each variable that matches, in model order, with its conclusions,
    /// until `f` breaks.
    pub fn each<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        f: &mut dyn FnMut(Found<W>) -> ControlFlow<()>,
    ) {
        for (v, var) in frame.vars.iter().enumerate() {
            if self.space.is_some_and(|s| s != var.space as usize) {
                continue;
            }
            if cx.tick() {
                return;
            }
            let ok = self
                .filters
                .iter()
                .all(|f| matches!(eval(f, v, frame, st), Val::Int(b) if b != 0));
            if !ok {
                continue;
            }
            let Val::Cands(t) = eval(&self.target, v, frame, st) else {
                continue;
            };
            let conclusions = t.and(&st.cands);
            if !conclusions.is_empty() {
                let found = Found {
                    kind: self.conclusion,
                    conclusions,
                    grade: None,
                    evidence: Evidence::Var(v),
                };
                if f(found).is_break() {
                    return;
                }
            }
        }
    }

    /// The show template for variable `v` in state `before`.
    pub fn render<const W: usize>(&self, frame: &Frame<W>, before: &State<W>, v: usize) -> String {
        let mut out = String::new();
        for part in &self.show {
            match part {
                ShowPart::Lit(s) => out.push_str(s),
                ShowPart::Value(_, op) => out.push_str(&shown(eval(op, v, frame, before), frame)),
                ShowPart::Within { ctx, x, .. } => {
                    let Val::Var(cv) = eval(ctx, v, frame, before) else {
                        continue;
                    };
                    if let Val::Cands(s) = eval(x, v, frame, before) {
                        let names: Vec<String> =
                            s.iter().map(|z| frame.cand_in_var(cv, z)).collect();
                        out.push_str(&names.join(" "));
                    }
                }
            }
        }
        out
    }
}

/// Whether `op` stays within the fragment.
fn check(op: &Op) -> Result<(), Unfit> {
    let unsupported = |what: &str| {
        Err(Unfit::Unsupported(format!(
            "its pattern uses {what}, which the typed back end does not evaluate yet"
        )))
    };
    match op {
        Op::Int(_) | Op::Grid | Op::Slot(0) => Ok(()),
        Op::Slot(_) => unsupported("a second bound name"),
        Op::Cands(Elem::Var(_) | Elem::Cand, x)
        | Op::Linked(x)
        | Op::Len(x)
        | Op::First(x)
        | Op::Last(x)
        | Op::Not(x) => check(x),
        Op::SetBin(_, Elem::Cand, a, b)
        | Op::Cmp(_, a, b)
        | Op::And(a, b)
        | Op::Or(a, b)
        | Op::SubsetOf(a, b)
        | Op::SetEq(_, a, b) => {
            check(a)?;
            check(b)
        }
        Op::Cands(e, _) | Op::Project(e, _) | Op::SetBin(_, e, _, _) => {
            unsupported(&format!("sets of {e:?}"))
        }
        Op::Peers(_) => unsupported("peers (cells)"),
        Op::IntBin(..) => unsupported("arithmetic"),
        Op::In(..) => unsupported("`in`"),
        Op::Quant(_) => unsupported("a quantifier"),
        Op::Geo(..) | Op::CellAt(..) | Op::At(..) => unsupported("the grid's geometry"),
        Op::Decided | Op::Givens | Op::Value(_) => unsupported("placed values"),
        Op::Order(..) | Op::Rise(..) | Op::Symbols => unsupported("order relations"),
        Op::OrWhips(k, ..) => unsupported(&format!("`{}(…)`", k.name())),
        Op::Sum(..) => unsupported("numbers and sums"),
    }
}

/// The candidates of a value (a variable: its live candidates).
fn cands_of<const W: usize>(v: Val<W>, frame: &Frame<W>, st: &State<W>) -> BitSet<W> {
    match v {
        Val::Cands(s) => s,
        Val::Var(x) => st.var_live(frame, x),
        Val::Int(_) => BitSet::EMPTY,
    }
}

fn int<const W: usize>(v: Val<W>) -> i64 {
    match v {
        Val::Int(i) => i,
        Val::Var(_) | Val::Cands(_) => 0,
    }
}

/// Evaluates `op` with slot 0 bound to frame variable `v`.
fn eval<const W: usize>(op: &Op, v: usize, frame: &Frame<W>, st: &State<W>) -> Val<W> {
    let sub = |x: &Op| eval(x, v, frame, st);
    let set = |x: &Op| cands_of(eval(x, v, frame, st), frame, st);
    match op {
        Op::Int(i) => Val::Int(*i),
        Op::Slot(_) => Val::Var(v),
        Op::Grid => Val::Cands(st.cands),
        Op::Cands(_, x) => Val::Cands(set(x).and(&st.cands)),
        Op::Linked(x) => {
            let mut acc = st.cands;
            for z in set(x).iter() {
                acc = acc.and(&frame.links[z]);
            }
            Val::Cands(acc)
        }
        Op::Len(x) => Val::Int(set(x).len() as i64),
        Op::First(x) => Val::Cands(set(x).min().map_or(BitSet::EMPTY, BitSet::single)),
        Op::Last(x) => Val::Cands(set(x).max().map_or(BitSet::EMPTY, BitSet::single)),
        Op::Not(x) => Val::Int(i64::from(int(sub(x)) == 0)),
        Op::And(a, b) => Val::Int(i64::from(int(sub(a)) != 0 && int(sub(b)) != 0)),
        Op::Or(a, b) => Val::Int(i64::from(int(sub(a)) != 0 || int(sub(b)) != 0)),
        Op::Cmp(c, a, b) => {
            let (a, b) = (int(sub(a)), int(sub(b)));
            Val::Int(i64::from(match c {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
            }))
        }
        Op::SetBin(o, _, a, b) => {
            let (a, b) = (set(a), set(b));
            Val::Cands(match o {
                SetOp::Union => a.or(&b),
                SetOp::Inter => a.and(&b),
                SetOp::Minus => a.minus(&b),
            })
        }
        Op::SubsetOf(a, b) => Val::Int(i64::from(set(a).is_subset(&set(b)))),
        Op::SetEq(eq, a, b) => Val::Int(i64::from((set(a) == set(b)) == *eq)),
        // `check` keeps every other operation out.
        _ => Val::Int(0),
    }
}

/// A value as a show template prints it.
fn shown<const W: usize>(v: Val<W>, frame: &Frame<W>) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        Val::Var(x) => frame.var_name(x),
        Val::Cands(s) => s
            .iter()
            .map(|z| frame.cand_name(z))
            .collect::<Vec<_>>()
            .join(" "),
    }
}
