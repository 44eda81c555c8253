//! Checking: one expanded rule instance → names resolved, expressions
//! typed and turned into [`Op`]s, each with the generator depth it needs.
//!
//! Every error of an instance is collected (unknown names and types, type
//! mismatches, unused variables, missing or duplicate conclusions) with its
//! span. What comes out, a [`CheckedPattern`], is typed but not yet
//! scheduled: [`super::lower`] decides where each definition and filter
//! runs.

use super::ast::*;
use super::expand::{Errors, Params, substitute};
use super::names::{self, Other, elem_of};
use crate::rating::Rating;
use crate::search::ConclusionKind;
use crate::search::chain::{ChainSpec, Ending, Extras, Linking};
use crate::search::pattern::*;
use std::collections::HashMap;

#[path = "check_trial.rs"]
mod trial;
pub use trial::{CheckedTrial, check_trial};

/// Static types of expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// The type of an expression that already has an error: it fits
    /// everywhere, so one mistake is reported once.
    Error,
    Int,
    Bool,
    Text,
    /// A type name used as a value (`houses(column, S)`).
    Kind(Elem),
    One(Elem),
    Set(Elem),
}

impl Ty {
    pub fn name(self) -> String {
        match self {
            Ty::Error => POISON.into(),
            Ty::Int => "integer".into(),
            Ty::Bool => "condition".into(),
            Ty::Text => "text".into(),
            Ty::Kind(e) => format!("type name `{}`", e.name()),
            Ty::One(e) => e.name(),
            Ty::Set(e) => format!("set of {}", e.name()),
        }
    }

    /// The name with its article: "an integer", "a set of cell".
    pub fn a(self) -> String {
        let n = self.name();
        if n.starts_with(['a', 'e', 'i', 'o', 'u']) {
            format!("an {n}")
        } else {
            format!("a {n}")
        }
    }

    /// How a value of this type prints in a show template.
    fn shape(self) -> Shape {
        match self {
            Ty::One(e) => Shape::One(e),
            Ty::Set(e) => Shape::Set(e),
            _ => Shape::Int,
        }
    }
}

/// A checked pattern rule instance: its head and its typed, unscheduled
/// clauses.
#[derive(Clone, Debug)]
pub struct CheckedPattern {
    pub name: String,
    pub complexity: i64,
    pub level: Rating,
    pub label: Option<String>,
    /// Number of value slots.
    pub slots: usize,
    /// The generators, in written order (each an [`Instr::Gen`]).
    pub gens: Vec<Instr>,
    /// Definitions and filters, in written order, each with the number of
    /// generators it depends on (0 = none, k = the k-th and earlier).
    pub placed: Vec<(usize, Instr)>,
    pub conclusion: ConclusionKind,
    pub target: Op,
    /// `parents EXPR`: the candidates whose absence a match relies on.
    pub parents: Option<Op>,
    pub show: Vec<ShowPart>,
    /// What each slot holds when a match is reported (an element or a set
    /// of elements); `None` for integers, conditions, quantified names and
    /// working names (`_X`).
    pub slot_shapes: Vec<Option<Shape>>,
}

/// Checks one instance of a pattern rule.
pub fn check_pattern(
    ast: &RuleAst,
    clauses: &[Clause],
    params: &Params,
) -> Result<CheckedPattern, Errors> {
    Checker::new(params).pattern(ast, clauses)
}

/// Messages that mention the error type are follow-ons of an error
/// already reported; [`Ty::Error`]'s name marks them.
const POISON: &str = "\u{0}error\u{0}";

#[derive(Clone)]
struct Binding {
    slot: usize,
    ty: Ty,
    span: Span,
    used: bool,
    /// Generator depth: 0 = before any generator, k = after generator k.
    depth: usize,
}

struct Checker<'p> {
    params: &'p Params,
    scope: HashMap<String, Binding>,
    slots: usize,
    /// One entry per slot: see [`CheckedPattern::slot_shapes`].
    slot_shapes: Vec<Option<Shape>>,
    gens: usize,
    errs: Errors,
    /// Deepest generator referenced by the expression being checked.
    cur_depth: usize,
    /// Did the expression being checked use a family parameter?
    used_param: bool,
}

type Typed = (Op, Ty);

impl<'p> Checker<'p> {
    fn new(params: &'p Params) -> Self {
        Checker {
            params,
            scope: HashMap::new(),
            slots: 0,
            slot_shapes: Vec::new(),
            gens: 0,
            errs: Vec::new(),
            cur_depth: 0,
            used_param: false,
        }
    }

    /// Records an error, unless one was already reported at the same
    /// place (a follow-on of the first, e.g. the type of an unknown name).
    fn err(&mut self, sp: Span, m: impl Into<String>) {
        let m = m.into();
        if !self.errs.iter().any(|(s, _)| s.start == sp.start) && !m.contains(POISON) {
            self.errs.push((sp, m));
        }
    }

    /// A constant integer clause (`complexity`, `level`): literals,
    /// family parameters and arithmetic, 0 or more.
    fn constant(&mut self, e: &Expr, what: &str) -> Option<i64> {
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
    fn instance(&self) -> String {
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
    fn head(&mut self, ast: &RuleAst) -> (Option<i64>, Rating, Option<String>) {
        let mut complexity = None;
        let mut level = Rating::level(0);
        let mut label = None;
        let mut seen: Vec<&str> = Vec::new();
        for cl in &ast.head {
            let word = match cl.kind {
                HeadKind::Complexity(_) => "complexity",
                HeadKind::Level(_) => "level",
                HeadKind::Rating(..) => "rating",
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
            }
        }
        if complexity.is_none() {
            self.err(ast.name_span, "missing `complexity` clause");
        }
        (complexity.flatten(), level, label)
    }

    fn pattern(mut self, ast: &RuleAst, clauses: &[Clause]) -> Result<CheckedPattern, Errors> {
        let name = substitute(&ast.name, self.params);
        let (complexity, level, label) = self.head(ast);
        let mut conclusion: Option<(ConclusionKind, Op)> = None;
        let mut assert_target: Option<(&Expr, Ty, Op)> = None;
        let mut show = Vec::new();
        let mut parents: Option<Op> = None;
        let mut gens: Vec<Instr> = Vec::new();
        let mut placed: Vec<(usize, Instr)> = Vec::new();
        for cl in clauses {
            self.cur_depth = 0;
            match &cl.kind {
                ClauseKind::Gen {
                    name: n,
                    size,
                    ty,
                    domain,
                    then,
                } => {
                    let word = match self.params.get(&ty.name) {
                        Some(Atom::Word(w)) => w.clone(),
                        Some(a) => {
                            let what = match a {
                                Atom::Int(_) => "an integer",
                                Atom::Decimal(_) => "a decimal",
                                _ => "a string",
                            };
                            self.err(
                                ty.span,
                                format!("family parameter `{}` is {what}, not a type", ty.name),
                            );
                            // Bound with an unknown type: no follow-on errors.
                            self.bind(n, Ty::Error, self.gens);
                            continue;
                        }
                        None => ty.name.clone(),
                    };
                    let Some(elem) = elem_of(&word) else {
                        self.err(
                            ty.span,
                            format!(
                                "unknown type `{word}`, expected one of {}",
                                names::type_list()
                            ),
                        );
                        self.bind(n, Ty::Error, self.gens);
                        continue;
                    };
                    let written_size = size.is_some();
                    let size = match size {
                        None => None,
                        Some(Size::Lit(n, sp)) => self.size(*n, *sp),
                        Some(Size::Param(p)) => match self.params.get(&p.name) {
                            Some(Atom::Int(n)) => self.size(*n, p.span),
                            Some(_) => {
                                self.err(
                                    p.span,
                                    format!("family parameter `{}` is not an integer", p.name),
                                );
                                None
                            }
                            None => {
                                self.err(
                                    p.span,
                                    format!(
                                        "unbounded family: size `{}` is not a family parameter",
                                        p.name
                                    ),
                                );
                                None
                            }
                        },
                    };
                    self.cur_depth = 0;
                    let mut dom = domain.as_ref().map(|d| {
                        let t = self.expr(d);
                        self.coerce_domain(t, elem, size, d.span)
                    });
                    // `in A then B then C`: the domain is their union,
                    // taken in that order.
                    let mut order = Vec::new();
                    if let (Some(first), Some(t0)) = (&dom, then.first()) {
                        if written_size {
                            self.err(
                                t0.span,
                                "`then` orders the elements of a one-element generator; a set generator takes its subsets in increasing order".to_string(),
                            );
                        }
                        order.push(first.clone());
                        for d in then {
                            let t = self.expr(d);
                            order.push(self.coerce_domain(t, elem, size, d.span));
                        }
                        dom = order
                            .iter()
                            .cloned()
                            .reduce(|a, b| Op::SetBin(SetOp::Union, Box::new(a), Box::new(b)));
                    }
                    let ty = match (size, written_size) {
                        (Some(_), _) => Ty::Set(elem),
                        // A size with an error: the type is unknown.
                        (None, true) => Ty::Error,
                        (None, false) => Ty::One(elem),
                    };
                    let slot = self.bind(n, ty, self.gens + 1);
                    self.gens += 1;
                    gens.push(Instr::Gen {
                        slot,
                        elem,
                        size,
                        domain: dom,
                        order,
                    });
                }
                ClauseKind::Def { name: n, expr } => {
                    self.cur_depth = 0;
                    let (op, ty) = self.expr(expr);
                    let depth = self.cur_depth;
                    let slot = self.bind(n, ty, depth);
                    placed.push((depth, Instr::Def { slot, op }));
                }
                ClauseKind::Where(e) => {
                    self.cur_depth = 0;
                    let (op, ty) = self.expr(e);
                    if ty != Ty::Bool {
                        self.err(e.span, format!("expected a condition, found {}", ty.name()));
                    }
                    placed.push((self.cur_depth, Instr::Filter(op)));
                }
                ClauseKind::Eliminate(e) | ClauseKind::Assert(e) => {
                    let kind = if matches!(cl.kind, ClauseKind::Eliminate(_)) {
                        ConclusionKind::Eliminate
                    } else {
                        ConclusionKind::Assert
                    };
                    if conclusion.is_some() {
                        self.err(
                            cl.span,
                            "a rule has one conclusion (`eliminate` or `assert`)",
                        );
                    }
                    let t = self.expr(e);
                    // A second conclusion is reported as such, no more.
                    if kind == ConclusionKind::Assert && conclusion.is_none() {
                        assert_target = Some((e, t.1, t.0.clone()));
                    }
                    let op = self.coerce_cands(t, e.span);
                    conclusion = Some((kind, op));
                }
                ClauseKind::Parents(e) => {
                    if parents.is_some() {
                        self.err(cl.span, "`parents` given twice");
                    }
                    let t = self.expr(e);
                    parents = Some(self.coerce_cands(t, e.span));
                }
                ClauseKind::Show(text, sp) => show = self.template(text, *sp),
            }
        }
        if let Some((e, ty, op)) = assert_target {
            self.check_assert(e, ty, &op, &placed);
        }
        let mut unused: Vec<(Span, String)> = self
            .scope
            .iter()
            .filter(|(_, b)| !b.used)
            .map(|(n, b)| (b.span, format!("unused variable `{n}`")))
            .collect();
        unused.sort_by_key(|(sp, _)| sp.start);
        self.errs.extend(unused);
        let Some((kind, target)) = conclusion else {
            self.err(
                ast.name_span,
                "missing conclusion: expected `eliminate` or `assert`",
            );
            return Err(self.errs);
        };
        if !self.errs.is_empty() {
            return Err(self.errs);
        }
        Ok(CheckedPattern {
            name,
            complexity: complexity.unwrap_or(0),
            level,
            label,
            slots: self.slots,
            gens,
            placed,
            conclusion: kind,
            target,
            parents,
            show,
            slot_shapes: self.slot_shapes,
        })
    }

    fn size(&mut self, n: i64, sp: Span) -> Option<usize> {
        if !(1..=9).contains(&n) {
            self.err(sp, format!("a set size must be between 1 and 9, found {n}"));
            None
        } else {
            Some(n as usize)
        }
    }

    /// `assert X` places one candidate: X must be a `cand`, or a name
    /// whose count is bounded by 1 in a `where` clause (`where |V| == 1`),
    /// so that a match never asserts two candidates of one variable.
    fn check_assert(&mut self, e: &Expr, ty: Ty, op: &Op, placed: &[(usize, Instr)]) {
        if !matches!(ty, Ty::One(_) | Ty::Set(_)) || ty == Ty::One(Elem::Cand) {
            // A `cand` is one candidate; other types were reported as not
            // candidates at all.
            return;
        }
        let named = match (&e.kind, op) {
            (ExprKind::Name(n), Op::Slot(s)) if matches!(ty, Ty::One(_) | Ty::Set(Elem::Cand)) => {
                Some((n, *s))
            }
            _ => None,
        };
        if let Some((n, slot)) = named {
            let guarded = placed.iter().any(|(_, i)| match i {
                Instr::Filter(f) => at_most_one(f, slot),
                _ => false,
            });
            if !guarded {
                let what = match ty {
                    Ty::One(e) => {
                        format!("`{n}` is a {}, which may hold several candidates", e.name())
                    }
                    _ => format!("`{n}` is a set of candidates"),
                };
                self.err(
                    e.span,
                    format!(
                        "`assert` places one candidate, but {what}: add `where |{n}| == 1`, or assert a `cand`"
                    ),
                );
            }
            return;
        }
        let (found, value) = match ty {
            Ty::Set(Elem::Cand) => ("a set of candidates".to_string(), text(e)),
            Ty::One(el) => (
                format!("a {}, which may hold several candidates", el.name()),
                text(e),
            ),
            _ => (ty.name(), cands_text(e, ty)),
        };
        self.err(
            e.span,
            format!(
                "`assert` places one candidate, found {found}: write `let Z = {value}`, `where |Z| == 1` and `assert Z`, or assert a `cand`"
            ),
        );
    }

    /// Errors of a name that is bound by a `let` or a quantifier.
    fn check_new_name(&mut self, n: &Ident) {
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

    fn bind(&mut self, n: &Ident, ty: Ty, depth: usize) -> usize {
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

    /// Converts a value of element type to its live candidates.
    fn coerce_cands(&mut self, (op, ty): Typed, sp: Span) -> Op {
        match ty {
            Ty::One(e) | Ty::Set(e) => Op::Cands(e, Box::new(op)),
            t => {
                self.err(sp, format!("expected candidates, found {}", t.name()));
                Op::Int(0)
            }
        }
    }

    fn coerce_domain(&mut self, (op, ty): Typed, elem: Elem, size: Option<usize>, sp: Span) -> Op {
        match ty {
            Ty::One(e) if size.is_some_and(|n| n > 1) && (e.fits(elem) || elem.fits(e)) => {
                self.err(
                    sp,
                    format!(
                        "a set of size {} cannot be taken from a single {}: the rule never matches",
                        size.unwrap_or(0),
                        e.name()
                    ),
                );
                op
            }
            Ty::Set(e) | Ty::One(e) if e.fits(elem) || elem.fits(e) => op,
            Ty::Set(_) | Ty::One(_) => {
                let c = self.coerce_cands((op, ty), sp);
                Op::Project(elem, Box::new(c))
            }
            Ty::Kind(k) => {
                self.err(
                    sp,
                    format!(
                        "expected a set of {}, found type name `{}` (every live {} is the default domain: write `let X: {}`)",
                        elem.name(),
                        k.name(),
                        k.name(),
                        k.name()
                    ),
                );
                Op::Int(0)
            }
            t => {
                self.err(
                    sp,
                    format!("expected a set of {}, found {}", elem.name(), t.name()),
                );
                Op::Int(0)
            }
        }
    }

    fn template(&mut self, text: &str, sp: Span) -> Vec<ShowPart> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut off = sp.start;
        while let Some(i) = rest.find("${") {
            if i > 0 {
                parts.push(ShowPart::Lit(substitute(&rest[..i], self.params)));
            }
            let Some(j) = rest[i..].find('}') else {
                self.err(
                    Span {
                        start: off + i,
                        end: off + i + 2,
                    },
                    "unclosed `${` in show template",
                );
                return parts;
            };
            let inner = &rest[i + 2..i + j];
            let inner_span = Span {
                start: off + i + 2,
                end: off + i + j,
            };
            match super::parse::parse_expr(inner) {
                Ok(mut e) => {
                    shift(&mut e, inner_span.start);
                    if let Some(part) = self.hole(&e) {
                        parts.push(part);
                    }
                }
                Err(p) => self.err(
                    Span {
                        start: inner_span.start + p,
                        end: inner_span.start + p + 1,
                    },
                    "syntax error in `${…}`: expected an expression",
                ),
            }
            off += i + j + 1;
            rest = &rest[i + j + 1..];
        }
        if !rest.is_empty() {
            parts.push(ShowPart::Lit(substitute(rest, self.params)));
        }
        parts
    }

    /// One `${…}` hole of a show template: a text parameter, a value
    /// printed by its type, or `within(ctx, x)`.
    fn hole(&mut self, e: &Expr) -> Option<ShowPart> {
        match &e.kind {
            ExprKind::Str(s) => return Some(ShowPart::Lit(s.clone())),
            ExprKind::Name(n) => match self.params.get(n) {
                Some(Atom::Str(s)) => return Some(ShowPart::Lit(s.clone())),
                Some(Atom::Word(w)) if elem_of(w).is_none() => {
                    return Some(ShowPart::Lit(w.clone()));
                }
                _ => {}
            },
            ExprKind::Call(f, args) if f.name == "within" => {
                if args.len() != 2 {
                    self.err(
                        e.span,
                        format!("`within` takes 2 argument(s), found {}", args.len()),
                    );
                    return None;
                }
                let (ctx, cty) = self.expr(&args[0]);
                let ctx_elem = match cty {
                    Ty::One(
                        e @ (Elem::Var(_) | Elem::Row | Elem::Column | Elem::Block | Elem::House),
                    ) => e,
                    t => {
                        self.err(
                            args[0].span,
                            format!("`within` expects a variable or a house, found {}", t.name()),
                        );
                        Elem::House
                    }
                };
                let (x, xty) = self.expr(&args[1]);
                if !matches!(xty, Ty::One(_) | Ty::Set(_)) {
                    self.err(args[1].span, format!("cannot show {}", xty.a()));
                }
                return Some(ShowPart::Within {
                    ctx_elem,
                    ctx,
                    shape: xty.shape(),
                    x,
                });
            }
            _ => {}
        }
        let (op, ty) = self.expr(e);
        match ty {
            Ty::Bool | Ty::Kind(_) | Ty::Text => {
                self.err(e.span, format!("cannot show {}", ty.a()));
                None
            }
            t => Some(ShowPart::Value(t.shape(), op)),
        }
    }

    fn expr(&mut self, e: &Expr) -> Typed {
        match &e.kind {
            ExprKind::Int(i) => (Op::Int(*i), Ty::Int),
            ExprKind::Str(_) => (Op::Int(0), Ty::Text),
            ExprKind::Name(n) => self.name(n, e.span),
            ExprKind::Count(x) => self.call_count(x),
            ExprKind::Not(x) => {
                let (op, ty) = self.expr(x);
                if ty != Ty::Bool {
                    self.err(
                        x.span,
                        format!("`not` expects a condition, found {}", ty.name()),
                    );
                }
                (Op::Not(Box::new(op)), Ty::Bool)
            }
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Quant {
                q,
                var,
                domain,
                body,
            } => self.quant(q, var, domain, body),
        }
    }

    /// `all(X in S: C)` and its siblings: `X` is bound to each member of
    /// `S` (one element of `S`'s type) while `C` is checked.
    fn quant(&mut self, q: &Ident, var: &Ident, domain: &Expr, body: &Expr) -> Typed {
        let quant = names::quantifier(&q.name);
        if quant.is_none() {
            self.err(q.span, format!("unknown quantifier `{}`", q.name));
        }
        let (dop, dty) = self.expr(domain);
        let elem = match dty {
            Ty::Set(e) | Ty::One(e) => Some(e),
            Ty::Error => None,
            Ty::Kind(k) => {
                self.err(
                    domain.span,
                    format!(
                        "`{}` ranges over a set, found type name `{}` (for every live {}, write `{}`)",
                        q.name,
                        k.name(),
                        k.name(),
                        live_set(k)
                    ),
                );
                None
            }
            t => {
                self.err(
                    domain.span,
                    format!("`{}` ranges over a set, found {}", q.name, t.name()),
                );
                None
            }
        };
        self.check_new_name(var);
        let slot = self.slots;
        self.slots += 1;
        self.slot_shapes.push(None);
        let outer = self.scope.insert(
            var.name.clone(),
            Binding {
                slot,
                // Unknown when the domain has an error: no follow-on errors.
                ty: elem.map_or(Ty::Error, Ty::One),
                span: var.span,
                used: false,
                // The bound name is local: it adds no generator dependency.
                depth: 0,
            },
        );
        let (bop, bty) = self.expr(body);
        let bound = self.scope.remove(&var.name).expect("bound above");
        if let Some(o) = outer {
            self.scope.insert(var.name.clone(), o);
        }
        if !bound.used {
            self.err(var.span, format!("unused variable `{}`", var.name));
        }
        if !matches!(bty, Ty::Bool | Ty::Error) {
            self.err(
                body.span,
                format!("expected a condition, found {}", bty.name()),
            );
        }
        let quant = quant.unwrap_or(Quant::All);
        let first_temp = self.slots;
        let (pre, bop) = crate::search::hoist::hoist(bop, slot, &mut self.slots);
        self.slot_shapes
            .resize(self.slot_shapes.len() + self.slots - first_temp, None);
        let op = Op::Quant(Box::new(QuantOp {
            q: quant,
            slot,
            domain: dop,
            body: bop,
            pre,
        }));
        let ty = match (quant, elem) {
            (Quant::Count, _) => Ty::Int,
            (Quant::Select, Some(e)) => Ty::Set(e),
            (Quant::Select, None) => Ty::Error,
            _ => Ty::Bool,
        };
        (op, ty)
    }

    fn name(&mut self, n: &str, sp: Span) -> Typed {
        self.used_param |= self.params.contains_key(n);
        match self.params.get(n) {
            Some(Atom::Int(i)) => return (Op::Int(*i), Ty::Int),
            Some(Atom::Str(_)) => return (Op::Int(0), Ty::Text),
            Some(Atom::Decimal(d)) => {
                let d = d.clone();
                self.err(
                    sp,
                    format!("family parameter `{n}` is the decimal {d}: a decimal parameter may only be a `level`"),
                );
                return (Op::Int(0), Ty::Error);
            }
            Some(Atom::Word(w)) => {
                let w = w.clone();
                return match elem_of(&w) {
                    Some(e) => (Op::Int(0), Ty::Kind(e)),
                    None => (Op::Int(0), Ty::Text),
                };
            }
            None => {}
        }
        if let Some(b) = self.scope.get_mut(n) {
            b.used = true;
            self.cur_depth = self.cur_depth.max(b.depth);
            return (Op::Slot(b.slot), b.ty);
        }
        if let Some(e) = elem_of(n) {
            return (Op::Int(0), Ty::Kind(e));
        }
        if n == names::GRID {
            return (Op::Grid, Ty::Set(Elem::Cand));
        }
        self.err(sp, format!("unknown name `{n}`"));
        (Op::Int(0), Ty::Error)
    }

    fn call_count(&mut self, x: &Expr) -> Typed {
        // `count(X in S)` with a new name X: a quantifier without condition.
        if let ExprKind::Binary(BinOp::In, v, _) = &x.kind
            && let ExprKind::Name(n) = &v.kind
            && !self.scope.contains_key(n)
            && !self.params.contains_key(n)
        {
            self.err(
                x.span,
                "cannot count a condition: to count the members of a set that satisfy a condition, write `count(X in S: condition)`",
            );
            return (Op::Int(0), Ty::Int);
        }
        let t = self.expr(x);
        let op = match t.1 {
            Ty::Set(_) => t.0,
            Ty::One(_) => self.coerce_cands(t, x.span),
            ty => {
                self.err(x.span, format!("cannot count {}", ty.a()));
                t.0
            }
        };
        (Op::Len(Box::new(op)), Ty::Int)
    }

    fn call(&mut self, f: &Ident, args: &[Expr], sp: Span) -> Typed {
        let arity = |c: &mut Self, n: usize| {
            if args.len() != n {
                c.err(
                    sp,
                    format!("`{}` takes {n} argument(s), found {}", f.name, args.len()),
                );
                false
            } else {
                true
            }
        };
        let proj = |c: &mut Self, e: Elem| -> Typed {
            if !arity(c, 1) {
                return (Op::Int(0), Ty::Set(e));
            }
            let t = c.expr(&args[0]);
            let op = c.coerce_cands(t, args[0].span);
            (Op::Project(e, Box::new(op)), Ty::Set(e))
        };
        match f.name.as_str() {
            "cands" => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Set(Elem::Cand));
                }
                let t = self.expr(&args[0]);
                (self.coerce_cands(t, args[0].span), Ty::Set(Elem::Cand))
            }
            "digits" => proj(self, Elem::Digit),
            "cells" => proj(self, Elem::Cell),
            "rows" => proj(self, Elem::Row),
            "columns" => proj(self, Elem::Column),
            "blocks" => proj(self, Elem::Block),
            "houses" | "vars" => {
                if !arity(self, 2) {
                    return (Op::Int(0), Ty::Set(Elem::House));
                }
                let (_, k) = self.expr(&args[0]);
                let want_var = f.name == "vars";
                let e = match k {
                    Ty::Kind(e) if e.is_house() && !want_var => e,
                    Ty::Kind(e @ Elem::Var(_)) if want_var => e,
                    t => {
                        let what = if want_var {
                            "a space (rc, rn, cn, bn or var)"
                        } else {
                            "a house type (row, column, block or house)"
                        };
                        self.err(args[0].span, format!("expected {what}, found {}", t.name()));
                        Elem::House
                    }
                };
                let t = self.expr(&args[1]);
                let op = self.coerce_cands(t, args[1].span);
                (Op::Project(e, Box::new(op)), Ty::Set(e))
            }
            "linked" => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Set(Elem::Cand));
                }
                let t = self.expr(&args[0]);
                let op = self.coerce_cands(t, args[0].span);
                (Op::Linked(Box::new(op)), Ty::Set(Elem::Cand))
            }
            "peers" => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Set(Elem::Cell));
                }
                let (op, ty) = self.expr(&args[0]);
                if !matches!(ty, Ty::One(Elem::Cell) | Ty::Set(Elem::Cell)) {
                    self.err(
                        args[0].span,
                        format!("`peers` expects cells, found {}", ty.name()),
                    );
                }
                (Op::Peers(Box::new(op)), Ty::Set(Elem::Cell))
            }
            "first" | "last" => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::One(Elem::Cand));
                }
                let t = self.expr(&args[0]);
                let (op, e) = match t.1 {
                    Ty::Set(e) => (t.0, e),
                    Ty::One(_) => (self.coerce_cands(t, args[0].span), Elem::Cand),
                    ty => {
                        self.err(args[0].span, format!("expected a set, found {}", ty.name()));
                        (t.0, Elem::Cand)
                    }
                };
                let op = if f.name == "first" {
                    Op::First(Box::new(op))
                } else {
                    Op::Last(Box::new(op))
                };
                (op, Ty::One(e))
            }
            "count" => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Int);
                }
                self.call_count(&args[0])
            }
            "within" => {
                self.err(f.span, "`within(…)` can only be used in a `show` template");
                (Op::Int(0), Ty::Error)
            }
            other if names::quantifier(other).is_some() => {
                self.err(
                    f.span,
                    format!("`{other}` is a quantifier: write `{other}(X in S: condition)`"),
                );
                for a in args {
                    self.expr(a);
                }
                (Op::Int(0), Ty::Error)
            }
            other => {
                self.err(
                    f.span,
                    format!(
                        "unknown function `{other}`, expected one of {}",
                        names::function_list()
                    ),
                );
                for a in args {
                    self.expr(a);
                }
                (Op::Int(0), Ty::Error)
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Typed {
        let (x, tx) = self.expr(a);
        let (y, ty) = self.expr(b);
        if (tx == Ty::Error || ty == Ty::Error) && !matches!(op, BinOp::And | BinOp::Or) {
            let t = match op {
                BinOp::Plus | BinOp::Minus | BinOp::Times if tx == Ty::Int || ty == Ty::Int => {
                    Ty::Int
                }
                _ => Ty::Error,
            };
            return (Op::Int(0), t);
        }
        let bx = Box::new(x);
        let by = Box::new(y);
        let mismatch = |c: &mut Self, hint: String| {
            c.err(
                sp,
                format!(
                    "type mismatch: `{}` between {} and {}{hint}",
                    op.symbol(),
                    tx.name(),
                    ty.name()
                ),
            );
            (Op::Int(0), Ty::Error)
        };
        // Both sides' element types, when both are elements or sets.
        let elems = match (tx, ty) {
            (Ty::One(p) | Ty::Set(p), Ty::One(q) | Ty::Set(q)) => Some((p, q)),
            _ => None,
        };
        // The candidates of both sides, as the author may have meant.
        let as_cands = format!(
            "`{} {} {}`",
            cands_text(a, tx),
            op.symbol(),
            cands_text(b, ty)
        );
        // Element types that share no element (a row is never a column,
        // an rn variable never a cn one; a candidate is not a variable).
        if let Some((p, q)) = elems
            && !p.fits(q)
            && !q.fits(p)
            && !matches!(
                op,
                BinOp::And | BinOp::Or | BinOp::Times | BinOp::Union | BinOp::Plus
            )
        {
            // Where reading both sides as candidates makes sense.
            let on_sets = matches!(op, BinOp::Inter | BinOp::Minus)
                || (matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Le | BinOp::Ge)
                    && matches!((tx, ty), (Ty::Set(_), Ty::Set(_))));
            if p.join(q).is_some() {
                let (always, reading) = match op {
                    BinOp::Inter => ("is always empty", "common candidates"),
                    BinOp::Minus => ("removes nothing", "candidates"),
                    BinOp::Ne => ("is always true", "candidates"),
                    BinOp::Lt | BinOp::Gt => ("compares unrelated numbers", "candidates"),
                    _ => ("is always false", "candidates"),
                };
                let hint = if on_sets {
                    format!(": for their {reading} write {as_cands}")
                } else {
                    String::new()
                };
                self.err(
                    sp,
                    format!(
                        "`{}` between {} and {} {always} (no {} is a {}){hint}",
                        op.symbol(),
                        tx.name(),
                        ty.name(),
                        p.name(),
                        q.name()
                    ),
                );
                return (Op::Int(0), Ty::Error);
            }
            let hint = if on_sets {
                mixed(p, q, &as_cands)
            } else if op == BinOp::In && p == Elem::Cand && matches!(tx, Ty::One(_)) {
                format!(
                    " (a {} is not a candidate); write `{} in {}`",
                    q.name(),
                    text(a),
                    cands_text(b, ty)
                )
            } else {
                String::new()
            };
            return mismatch(self, hint);
        }
        match op {
            BinOp::And | BinOp::Or => {
                // A side with an error keeps the other (a guard of `assert`).
                let ok = |t: Ty| matches!(t, Ty::Bool | Ty::Error);
                if !ok(tx) || !ok(ty) {
                    return mismatch(self, String::new());
                }
                let o = if op == BinOp::And {
                    Op::And(bx, by)
                } else {
                    Op::Or(bx, by)
                };
                (o, Ty::Bool)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let cmp = match op {
                    BinOp::Eq => CmpOp::Eq,
                    BinOp::Ne => CmpOp::Ne,
                    BinOp::Lt => CmpOp::Lt,
                    BinOp::Le => CmpOp::Le,
                    BinOp::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                match (tx, ty) {
                    (Ty::Int, Ty::Int) => (Op::Cmp(cmp, bx, by), Ty::Bool),
                    (Ty::One(_), Ty::One(_)) => (Op::Cmp(cmp, bx, by), Ty::Bool),
                    (Ty::Set(_), Ty::Set(_)) => match op {
                        BinOp::Eq => (Op::SetEq(true, bx, by), Ty::Bool),
                        BinOp::Ne => (Op::SetEq(false, bx, by), Ty::Bool),
                        BinOp::Le => (Op::SubsetOf(bx, by), Ty::Bool),
                        BinOp::Ge => (Op::SubsetOf(by, bx), Ty::Bool),
                        _ => mismatch(self, "; for inclusion write `<=` or `>=`".into()),
                    },
                    (Ty::One(_), Ty::Set(_)) => mismatch(
                        self,
                        format!("; for membership write `{} in {}`", text(a), text(b)),
                    ),
                    (Ty::Set(_), Ty::One(_)) => mismatch(
                        self,
                        format!("; for membership write `{} in {}`", text(b), text(a)),
                    ),
                    _ => mismatch(self, String::new()),
                }
            }
            BinOp::In => match (tx, ty) {
                (Ty::One(_), Ty::Set(_) | Ty::One(_)) => (Op::In(bx, by), Ty::Bool),
                (Ty::Set(_), Ty::Set(_) | Ty::One(_)) => mismatch(
                    self,
                    format!(
                        "; `in` tests one element: for inclusion write `{} <= {}`",
                        text(a),
                        text(b)
                    ),
                ),
                _ => mismatch(self, String::new()),
            },
            BinOp::Plus | BinOp::Minus | BinOp::Times if tx == Ty::Int && ty == Ty::Int => {
                let o = match op {
                    BinOp::Plus => IntOp::Add,
                    BinOp::Minus => IntOp::Sub,
                    _ => IntOp::Mul,
                };
                // Constants are folded here, with overflow an error.
                if let (Op::Int(i), Op::Int(j)) = (&*bx, &*by) {
                    let v = match o {
                        IntOp::Add => i.checked_add(*j),
                        IntOp::Sub => i.checked_sub(*j),
                        IntOp::Mul => i.checked_mul(*j),
                    };
                    return match v {
                        Some(v) => (Op::Int(v), Ty::Int),
                        None => {
                            self.err(
                                sp,
                                format!(
                                    "integer overflow: `{i} {} {j}` does not fit in 64 bits",
                                    op.symbol()
                                ),
                            );
                            (Op::Int(0), Ty::Error)
                        }
                    };
                }
                (Op::IntBin(o, bx, by), Ty::Int)
            }
            BinOp::Union | BinOp::Inter | BinOp::Minus | BinOp::Plus => {
                let sop = match op {
                    BinOp::Inter => SetOp::Inter,
                    BinOp::Minus => SetOp::Minus,
                    _ => SetOp::Union,
                };
                let Some((p, q)) = elems else {
                    return mismatch(self, String::new());
                };
                if sop != SetOp::Union && matches!((tx, ty), (Ty::One(_), Ty::One(_))) {
                    let compare = if sop == SetOp::Inter { "==" } else { "!=" };
                    self.err(
                        sp,
                        format!(
                            "`{}` between two single elements ({} and {}) is a set of at most one of them, not their candidates: compare them with `{compare}`, or write {as_cands}",
                            op.symbol(),
                            tx.name(),
                            ty.name()
                        ),
                    );
                    return (Op::Int(0), Ty::Error);
                }
                let Some(join) = p.join(q) else {
                    return mismatch(self, mixed(p, q, &as_cands));
                };
                let elem = match sop {
                    SetOp::Union => join,
                    // The members of both are of the narrower type.
                    SetOp::Inter if p.fits(q) => p,
                    SetOp::Inter => q,
                    SetOp::Minus => p,
                };
                (Op::SetBin(sop, bx, by), Ty::Set(elem))
            }
            BinOp::Times => mismatch(self, String::new()),
        }
    }
}

/// Moves an expression parsed from a template hole to its place in the file.
fn shift(e: &mut Expr, by: usize) {
    e.span.start += by;
    e.span.end += by;
    match &mut e.kind {
        ExprKind::Count(x) | ExprKind::Not(x) => shift(x, by),
        ExprKind::Binary(_, a, b) => {
            shift(a, by);
            shift(b, by);
        }
        ExprKind::Call(f, args) => {
            f.span.start += by;
            f.span.end += by;
            for a in args {
                shift(a, by);
            }
        }
        ExprKind::Quant {
            q,
            var,
            domain,
            body,
        } => {
            for sp in [&mut q.span, &mut var.span] {
                sp.start += by;
                sp.end += by;
            }
            shift(domain, by);
            shift(body, by);
        }
        _ => {}
    }
}

/// Does the filter `f` bound the count of slot `slot` by 1? True when
/// one of its top-level `and` terms is `|X| == 1`, `|X| <= 1`, `|X| < 2`
/// (or the same written the other way round, or with 0).
fn at_most_one(f: &Op, slot: usize) -> bool {
    let counted = |x: &Op| match x {
        Op::Len(inner) => match &**inner {
            Op::Slot(s) => *s == slot,
            Op::Cands(_, y) => matches!(**y, Op::Slot(s) if s == slot),
            _ => false,
        },
        _ => false,
    };
    match f {
        Op::And(a, b) => at_most_one(a, slot) || at_most_one(b, slot),
        Op::Cmp(op, a, b) => match (&**a, &**b) {
            (x, Op::Int(k)) if counted(x) => match op {
                CmpOp::Eq | CmpOp::Le => *k <= 1,
                CmpOp::Lt => *k <= 2,
                _ => false,
            },
            (Op::Int(k), x) if counted(x) => match op {
                CmpOp::Eq | CmpOp::Ge => *k <= 1,
                CmpOp::Gt => *k <= 2,
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}

/// The text of an expression, for suggestions in messages (long
/// sub-expressions are cut to `…`).
fn text(e: &Expr) -> String {
    let t = match &e.kind {
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Call(f, args) => format!(
            "{}({})",
            f.name,
            args.iter().map(text).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Count(x) => format!("|{}|", text(x)),
        ExprKind::Not(x) => format!("not {}", text(x)),
        ExprKind::Binary(op, a, b) => {
            let side = |x: &Expr| match x.kind {
                ExprKind::Binary(..) => format!("({})", text(x)),
                _ => text(x),
            };
            format!("{} {} {}", side(a), op.symbol(), side(b))
        }
        ExprKind::Quant { q, var, domain, .. } => {
            format!("{}({} in {}: …)", q.name, var.name, text(domain))
        }
    };
    if t.chars().count() > 40 {
        "…".into()
    } else {
        t
    }
}

/// The hint of a mismatch between unrelated element types.
fn mixed(p: Elem, q: Elem, as_cands: &str) -> String {
    if p == Elem::Cand || q == Elem::Cand {
        let other = if p == Elem::Cand { q } else { p };
        format!(
            " (a {} is not a candidate); for candidates write {as_cands}",
            other.name()
        )
    } else {
        format!("; for candidates write {as_cands}")
    }
}

/// The expression for every live element of a type (`cells(grid)`).
fn live_set(e: Elem) -> String {
    match e {
        Elem::Cand => names::GRID.to_string(),
        Elem::Digit => format!("digits({})", names::GRID),
        Elem::Cell => format!("cells({})", names::GRID),
        Elem::Row => format!("rows({})", names::GRID),
        Elem::Column => format!("columns({})", names::GRID),
        Elem::Block => format!("blocks({})", names::GRID),
        Elem::House => format!("houses(house, {})", names::GRID),
        Elem::Var(_) => format!("vars({}, {})", e.name(), names::GRID),
    }
}

/// `cands(x)` for an operand of element type, `x` for candidates.
fn cands_text(e: &Expr, t: Ty) -> String {
    match t {
        Ty::One(Elem::Cand) | Ty::Set(Elem::Cand) => text(e),
        _ => format!("cands({})", text(e)),
    }
}

/// A checked chain rule instance: its head and its search configuration.
#[derive(Clone, Debug)]
pub struct CheckedChain {
    pub name: String,
    pub complexity: i64,
    pub level: Rating,
    pub label: Option<String>,
    pub spec: ChainSpec,
}

/// Longest chain a rule may ask for (SudoRules' own limit is 36).
pub const MAX_CHAIN_LENGTH: i64 = 64;

/// Checks one instance of a chain rule.
pub fn check_chain(
    ast: &RuleAst,
    clauses: &[ChainClause],
    params: &Params,
) -> Result<CheckedChain, Errors> {
    let mut c = Checker::new(params);
    let name = substitute(&ast.name, params);
    let (complexity, level, label) = c.head(ast);
    let mut length = None;
    let mut spaces = None;
    let mut extras = None;
    let mut linking = None;
    let mut ending = None;
    let mut groups = None;
    let mut all_targets = None;
    let mut one_digit = None;
    // A `length` clause with an error is not also a missing one.
    let mut length_seen = false;
    let mut ends_seen = false;
    // A word clause given twice is an error at its second place.
    fn once<T>(c: &mut Checker, slot: &mut Option<T>, v: T, sp: Span, what: &str) {
        if slot.is_some() {
            c.err(sp, format!("`{what}` given twice"));
        }
        *slot = Some(v);
    }
    for cl in clauses {
        match &cl.kind {
            ChainKind::Length(e) => {
                length_seen = true;
                if let Some(n) = c.constant(e, "length") {
                    if !(1..=MAX_CHAIN_LENGTH).contains(&n) {
                        c.err(
                            e.span,
                            format!(
                                "a chain length must be between 1 and {MAX_CHAIN_LENGTH}, found {n}"
                            ),
                        );
                    } else {
                        once(&mut c, &mut length, n as usize, cl.span, "length");
                    }
                }
            }
            ChainKind::Spaces(words) => {
                let mut set = [false; 4];
                for w in words {
                    let word = c.param_word(w);
                    match crate::grid::geometry::Space::from_name(&word) {
                        Some(sp) => set[sp as usize] = true,
                        None => c.err(
                            w.span,
                            format!("unknown space `{word}`, expected rc, rn, cn or bn"),
                        ),
                    }
                }
                once(&mut c, &mut spaces, set, cl.span, "spaces");
            }
            ChainKind::Others(words) => {
                let mut e = Extras::default();
                let mut none = false;
                for w in words {
                    let word = c.param_word(w);
                    match names::CHAIN_OTHERS.get(&word) {
                        Some(Other::None) => none = true,
                        Some(Other::Z) => e.z = true,
                        Some(Other::ZFirst) => {
                            e.z = true;
                            e.z_in_first_only = true;
                        }
                        Some(Other::T) => e.t = true,
                        None => c.err(
                            w.span,
                            format!(
                                "unknown kind of candidate `{word}`, expected {}",
                                names::CHAIN_OTHERS.list()
                            ),
                        ),
                    }
                }
                if none && (e.z || e.t) {
                    c.err(cl.span, "`others none` cannot be joined with z or t");
                }
                once(&mut c, &mut extras, e, cl.span, "others");
            }
            ChainKind::Links(w) => {
                let l = c.word_of(w, &names::CHAIN_LINKS, "linking");
                if let Some(l) = l {
                    once(&mut c, &mut linking, l, cl.span, "links");
                }
            }
            ChainKind::Targets(w) => {
                let a = c.word_of(w, &names::CHAIN_TARGETS, "targets");
                if let Some(a) = a {
                    once(&mut c, &mut all_targets, a, cl.span, "targets");
                }
            }
            ChainKind::Digits(w) => {
                let a = c.word_of(w, &names::CHAIN_DIGITS, "digits");
                if let Some(a) = a {
                    once(&mut c, &mut one_digit, a, cl.span, "digits");
                }
            }
            ChainKind::Nodes(w) => {
                let g = c.word_of(w, &names::CHAIN_NODES, "nodes");
                if let Some(g) = g {
                    once(&mut c, &mut groups, g, cl.span, "nodes");
                }
            }
            ChainKind::Ends(w) => {
                ends_seen = true;
                let e = c.word_of(w, &names::CHAIN_ENDS, "ending");
                if let Some(e) = e {
                    once(&mut c, &mut ending, e, cl.span, "ends");
                }
            }
        }
    }
    // Both missing clauses in one message: errors at one place are kept once.
    let missing: Vec<&str> = [(length_seen, "`length`"), (ends_seen, "`ends`")]
        .into_iter()
        .filter(|(seen, _)| !seen)
        .map(|(_, w)| w)
        .collect();
    match missing[..] {
        [] => {}
        [one] => c.err(ast.name_span, format!("missing {one} clause")),
        _ => c.err(ast.name_span, "missing `length` and `ends` clauses"),
    }
    if !c.errs.is_empty() {
        return Err(c.errs);
    }
    let extras = extras.unwrap_or_default();
    let ending = ending.unwrap_or(Ending::Contradiction);
    Ok(CheckedChain {
        name,
        complexity: complexity.unwrap_or(0),
        level,
        label,
        spec: ChainSpec {
            length: length.unwrap_or(1),
            spaces: spaces.unwrap_or([true; 4]),
            extras,
            linking: linking.unwrap_or(Linking::Previous),
            ending,
            // Bivalue chains print their last cell whole; the others `{Ln .}`.
            show_last_right: ending == Ending::LinkedToTarget && !extras.z && !extras.t,
            groups: groups.unwrap_or(false),
            all_targets: all_targets.unwrap_or(false),
            one_digit: one_digit.unwrap_or(false),
        },
    })
}

impl Checker<'_> {
    /// A word of a chain clause, or the word a family parameter stands for.
    fn param_word(&self, w: &Ident) -> String {
        match self.params.get(&w.name) {
            Some(Atom::Word(v) | Atom::Str(v) | Atom::Decimal(v)) => v.clone(),
            Some(Atom::Int(i)) => i.to_string(),
            None => w.name.clone(),
        }
    }

    /// What the word `w` of a clause stands for among `words`, or an
    /// error (`unknown {what} `…`, expected …`).
    fn word_of<T: Copy>(&mut self, w: &Ident, words: &names::Words<T>, what: &str) -> Option<T> {
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
