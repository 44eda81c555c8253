//! Checking: one expanded rule instance → names resolved, expressions
//! typed and turned into [`Op`]s, each with the generator depth it needs.
//!
//! Every error of an instance is collected (unknown names and types, type
//! mismatches, unused variables, missing or duplicate conclusions) with its
//! span. What comes out of a pattern rule, a [`CheckedPattern`], is typed
//! but not yet scheduled: the pattern compiler's passes
//! ([`crate::search::pattern`]) decide where each definition and filter
//! runs. Chain and trial rules come out as their searches' specs.
//!
//! One `Checker` serves every kind: `pattern` (pattern rules: clauses,
//! conclusions, show templates), `expr` (expressions and their types),
//! `chain` and `trial` (the clauses of those kinds, whose words are
//! read from [`super::names`]); `types` names the static types in
//! messages.

mod chain;
mod expr;
mod pattern;
mod trial;
mod types;

pub use crate::search::pattern::Ty;
pub use chain::{CheckedChain, MAX_CHAIN_LENGTH, check_chain};
pub use pattern::{CheckedPattern, check_pattern};
pub use trial::{CheckedTrial, check_trial};
pub use types::Named;

use super::ast::*;
use super::expand::{Errors, Params, substitute};
use super::names;
use crate::rating::Rating;
use crate::search::pattern::{Op, Shape};
use std::collections::HashMap;
use types::POISON;

#[derive(Clone)]
struct Binding {
    slot: usize,
    ty: Ty,
    span: Span,
    used: bool,
    /// Generator depth: 0 = before any generator, k = after generator k.
    depth: usize,
}

/// The state of checking one rule instance: its names in scope, the
/// slots they take, the errors so far.
struct Checker<'p> {
    params: &'p Params,
    scope: HashMap<String, Binding>,
    slots: usize,
    /// One entry per slot: see [`crate::search::pattern::Checked::slot_shapes`].
    slot_shapes: Vec<Option<Shape>>,
    /// One entry per slot: its value's type (see
    /// [`crate::search::pattern::Checked::slot_types`]).
    slot_types: Vec<Ty>,
    gens: usize,
    errs: Errors,
    /// Deepest generator referenced by the expression being checked.
    cur_depth: usize,
    /// Did the expression being checked use a family parameter?
    used_param: bool,
    /// The size of each set generator's slot (`let C: 2 cell`): a set
    /// known to hold several elements, which a single-valued function
    /// (`row(C)`) refuses.
    set_sizes: HashMap<usize, usize>,
    /// The space of another puzzle type a generator named (`dn`): the
    /// instance is for those types only ([`names::FOREIGN_SPACES`]).
    foreign: Option<String>,
}

type Typed = (Op, Ty);

impl<'p> Checker<'p> {
    fn new(params: &'p Params) -> Self {
        Checker {
            params,
            scope: HashMap::new(),
            slots: 0,
            slot_shapes: Vec::new(),
            slot_types: Vec::new(),
            foreign: None,
            gens: 0,
            errs: Vec::new(),
            cur_depth: 0,
            used_param: false,
            set_sizes: HashMap::new(),
        }
    }

    /// Records an error, unless one was already reported at the same
    /// place (a follow-on of the first, e.g. the type of an unknown name).
    pub(super) fn err(&mut self, sp: Span, m: impl Into<String>) {
        let m = m.into();
        if !self.errs.iter().any(|(s, _)| s.start == sp.start) && !m.contains(POISON) {
            self.errs.push((sp, m));
        }
    }

    /// A constant integer clause (`complexity`, `level`): literals,
    /// family parameters and arithmetic, 0 or more.
    pub(super) fn constant(&mut self, e: &Expr, what: &str) -> Option<i64> {
        self.cur_depth = 0;
        self.used_param = false;
        let (op, ty) = self.expr(e);
        let value = match (ty, &op) {
            (Ty::Error, _) => return None,
            (Ty::Int, Op::Int(i)) => *i,
            _ => {
                self.err(e.span, format!("expected a constant integer for `{what}`"));
                return None;
            }
        };
        if value < 0 {
            self.err(
                e.span,
                format!(
                    "`{what}` must be 0 or more, found {value}{}",
                    self.instance()
                ),
            );
            return None;
        }
        Some(value)
    }

    /// ` (for N = 2, K = row)`: which instance of a family a message is
    /// about, when the expression checked last used a parameter.
    pub(super) fn instance(&self) -> String {
        if !self.used_param {
            return String::new();
        }
        let mut ps: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        ps.sort();
        format!(" (for {})", ps.join(", "))
    }

    /// The head clauses: complexity, level, rating label.
    pub(super) fn head(&mut self, ast: &RuleAst) -> (Option<i64>, Rating, Option<String>) {
        let mut complexity = None;
        let mut level = Rating::level(0);
        let mut label = None;
        let mut seen: Vec<&str> = Vec::new();
        for cl in &ast.head {
            let word = match cl.kind {
                HeadKind::Complexity(_) => "complexity",
                HeadKind::Level(_) => "level",
                HeadKind::Rating(..) => "rating",
                HeadKind::Unrated => "unrated",
            };
            if seen.contains(&word) {
                self.err(cl.span, format!("`{word}` given twice"));
                continue;
            }
            seen.push(word);
            match &cl.kind {
                HeadKind::Complexity(e) => complexity = Some(self.constant(e, "complexity")),
                // `level L` with a decimal family parameter L (`4.6`).
                HeadKind::Level(LevelExpr::Int(e))
                    if let ExprKind::Name(n) = &e.kind
                        && let Some(Atom::Decimal(text)) = self.params.get(n) =>
                {
                    match Rating::parse(text) {
                        Some(r) => level = r,
                        None => self.err(
                            e.span,
                            format!("level {text} is not a rating with one decimal"),
                        ),
                    }
                }
                HeadKind::Level(LevelExpr::Int(e)) => {
                    if let Some(i) = self.constant(e, "level") {
                        if i.checked_mul(10).is_some() {
                            level = Rating::level(i);
                        } else {
                            self.err(e.span, format!("level {i} is too large{}", self.instance()));
                        }
                    }
                }
                HeadKind::Level(LevelExpr::Decimal(text, sp)) => match Rating::parse(text) {
                    Some(r) => level = r,
                    None if text.split_once('.').is_some_and(|(_, d)| d.len() == 1) => {
                        self.err(*sp, format!("level {text} is too large"))
                    }
                    None => self.err(
                        *sp,
                        format!("expected a level with at most one decimal, found `{text}`"),
                    ),
                },
                HeadKind::Rating(s, _) => label = Some(substitute(s, self.params)),
                // Read from the AST by the rule's head (`RuleHead::rated`).
                HeadKind::Unrated => {}
            }
        }
        if complexity.is_none() {
            self.err(ast.name_span, missing_complexity(ast, &seen));
        }
        (complexity.flatten(), level, label)
    }

    /// Errors of a name that is bound by a `let` or a quantifier.
    pub(super) fn check_new_name(&mut self, n: &Ident) {
        if self.params.contains_key(&n.name) {
            self.err(n.span, format!("`{}` is a family parameter", n.name));
        }
        if self.scope.contains_key(&n.name) {
            self.err(n.span, format!("`{}` is already defined", n.name));
        }
        if names::is_reserved(&n.name) {
            self.err(n.span, format!("`{}` is a reserved name", n.name));
        }
    }

    pub(super) fn bind(&mut self, n: &Ident, ty: Ty, depth: usize) -> usize {
        self.check_new_name(n);
        let slot = self.slots;
        self.slots += 1;
        self.slot_shapes.push(match ty {
            // A working name (`_X`, a leading underscore) is no part of
            // what a match shows: pictures leave it out.
            _ if n.name.starts_with('_') => None,
            Ty::One(_) | Ty::Set(_) => Some(ty.shape()),
            _ => None,
        });
        self.slot_types.push(ty);
        self.scope.insert(
            n.name.clone(),
            Binding {
                slot,
                ty,
                span: n.span,
                used: false,
                depth,
            },
        );
        slot
    }

    /// A word of a chain clause, or the word a family parameter stands for.
    pub(super) fn param_word(&self, w: &Ident) -> String {
        match self.params.get(&w.name) {
            Some(Atom::Word(v) | Atom::Str(v) | Atom::Decimal(v)) => v.clone(),
            Some(Atom::Int(i)) => i.to_string(),
            None => w.name.clone(),
        }
    }

    /// What the word `w` of a clause stands for among `words`, or an
    /// error (`unknown {what} `…`, expected …`).
    pub(super) fn word_of<T: Copy>(
        &mut self,
        w: &Ident,
        words: &names::Words<T>,
        what: &str,
    ) -> Option<T> {
        let word = self.param_word(w);
        let v = words.get(&word);
        if v.is_none() {
            self.err(
                w.span,
                format!("unknown {what} `{word}`, expected {}", words.list()),
            );
        }
        v
    }
}

/// The error of a rule without `complexity`, which every rule needs; the
/// other head clauses and a pattern's `show` that are missing too are
/// named with what their absence means (they are optional).
fn missing_complexity(ast: &RuleAst, seen: &[&str]) -> String {
    let mut optional = Vec::new();
    if !seen.contains(&"level") {
        optional.push("`level` (level 0)");
    }
    if !seen.contains(&"rating") {
        optional.push("`rating` (the rule's name is its label)");
    }
    if let RuleBody::Pattern(clauses) = &ast.body
        && !clauses
            .iter()
            .any(|c| matches!(c.kind, ClauseKind::Show(..)))
    {
        optional.push("`show` (a step shows its conclusions only)");
    }
    let mut m = "missing `complexity` clause: every rule needs one (`complexity 100`; \
                 smaller runs first)"
        .to_string();
    if !optional.is_empty() {
        m += &format!("; also missing, and optional: {}", optional.join(", "));
    }
    m
}
