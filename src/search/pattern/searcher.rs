//! A plan as a [`Searcher`]: a search through its shared prefixes'
//! records, its count head or its instructions from the first; the
//! `parents` of a match; its text.

use super::ir::{ShowPart, Val};
use super::plan::{Plan, fill_name};
use super::run::Frame;
use super::show::{show_elem, show_value, show_within};
use super::strategy::{Strategy, count_head};
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::state::State;
use crate::search::{Evidence, Found, SearchCx, Searcher, SearcherKind};
use std::ops::ControlFlow;

impl Plan {
    /// The values of the name's holes in a match (the search binds each
    /// to an integer).
    fn hole_key(&self, evidence: &Evidence) -> Vec<i64> {
        let Evidence::Bindings(env) = evidence else {
            return Vec::new();
        };
        self.hole_values(|slot| match env.get(slot) {
            Some(Val::Int(i)) => Some(*i),
            _ => None,
        })
        .unwrap_or_default()
    }

    /// The whole search in a frame: through the shared prefixes' recorded
    /// bindings when there are some.
    fn search_in(&self, fr: &mut Frame) -> ControlFlow<()> {
        if let Some(p) = self.prefixes.last() {
            let rec = match self.bindings(self.prefixes.len() - 1, fr) {
                Ok(rec) => rec,
                Err(flow) => return flow,
            };
            if rec.complete {
                return self.replay(&rec, p.len, fr);
            }
        }
        if let Some(head) = count_head(&self.instrs) {
            return self.run_counted(head, fr);
        }
        self.run(0, fr)
    }
}

impl Searcher for Plan {
    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.name_holes.is_empty() {
            return self.framed(cx, state, f, |plan, fr| plan.search_in(fr));
        }
        // Ordered by the name's holes: every match, sorted (stably), then
        // reported.
        let mut all: Vec<(Vec<i64>, Found)> = Vec::new();
        let flow = self.framed(
            cx,
            state,
            &mut |m| {
                all.push((self.hole_key(&m.evidence), m));
                ControlFlow::Continue(())
            },
            |plan, fr| plan.search_in(fr),
        );
        if flow.is_break() {
            return flow;
        }
        all.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, m) in all {
            f(m)?;
        }
        ControlFlow::Continue(())
    }

    fn step_name(&self, rule: &str, evidence: &Evidence) -> Option<String> {
        if self.name_holes.is_empty() {
            return None;
        }
        Some(fill_name(rule, &self.name_holes, &self.hole_key(evidence)))
    }

    fn first(&self, cx: &mut SearchCx, board: &Board) -> Option<Found> {
        match &self.strategy {
            Strategy::Count(c) => c.first(cx, board),
            Strategy::Full => {
                let mut found = None;
                let _ = self.search(cx, &board.state, &mut |m| {
                    found = Some(m);
                    ControlFlow::Break(())
                });
                found
            }
        }
    }

    /// The `parents` expression, evaluated on `original` with the match's
    /// bound values: the candidates of `original` it names that are gone
    /// from `branch`.
    fn parents(&self, original: &State, branch: &State, evidence: &Evidence) -> Bits {
        let (Some(op), Evidence::Bindings(env)) = (&self.typed.parents, evidence) else {
            return Bits::EMPTY;
        };
        let mut env = env.clone();
        match op.value(original, &mut env) {
            Some(v) => v.set().and(&original.cands).minus(&branch.cands),
            None => Bits::EMPTY,
        }
    }

    fn render(&self, before: &State, evidence: &Evidence) -> String {
        // A match found without its bound values (an outcome-only count
        // plan's) shows nothing.
        let Evidence::Bindings(env) = evidence else {
            return String::new();
        };
        if env.len() < self.slots {
            return String::new();
        }
        let mut env = env.clone();
        let env = env.as_mut_slice();
        let mut out = String::new();
        for p in &self.typed.show {
            match p {
                ShowPart::Lit(s) => out.push_str(s),
                ShowPart::Value(shape, op) => {
                    if let Some(v) = op.value(before, env) {
                        out.push_str(&show_value(*shape, &v, show_elem))
                    }
                }
                ShowPart::Within {
                    ctx_elem,
                    ctx,
                    shape,
                    x,
                } => {
                    // The search checked that every hole is defined.
                    let (Some(c), Some(v)) = (ctx.value(before, env), x.value(before, env)) else {
                        continue;
                    };
                    let c = c.idx();
                    out.push_str(&show_value(*shape, &v, |e, i| {
                        show_within(*ctx_elem, c, e, i)
                    }));
                }
            }
        }
        out
    }

    fn kind(&self) -> SearcherKind<'_> {
        SearcherKind::Pattern(self)
    }
}
