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
use super::names::{self, elem_of};
use crate::rating::Rating;
use crate::search::ConclusionKind;
use crate::search::chain::{ChainSpec, Ending, Extras, Linking};
use crate::search::pattern::*;
use std::collections::HashMap;

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
    pub show: Vec<ShowPart>,
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
    gens: usize,
    errs: Errors,
    /// Deepest generator referenced by the expression being checked.
    cur_depth: usize,
}

type Typed = (Op, Ty);

impl<'p> Checker<'p> {
    fn new(params: &'p Params) -> Self {
        Checker {
            params,
            scope: HashMap::new(),
            slots: 0,
            gens: 0,
            errs: Vec::new(),
            cur_depth: 0,
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

    /// A constant integer clause (`complexity`, `level`).
    fn constant(&mut self, e: &Expr, what: &str) -> Option<i64> {
        self.cur_depth = 0;
        let (op, ty) = self.expr(e);
        match op.eval(&crate::grid::state::State::empty_grid(), &[]) {
            Val::Int(i) if ty == Ty::Int && self.cur_depth == 0 => Some(i),
            _ => {
                if ty != Ty::Error {
                    self.err(e.span, format!("expected a constant integer for `{what}`"));
                }
                None
            }
        }
    }

    /// The head clauses: complexity, level, rating label.
    fn head(&mut self, ast: &RuleAst) -> (Option<i64>, Rating, Option<String>) {
        let mut complexity = None;
        let mut level = Rating::level(0);
        let mut label = None;
        for cl in &ast.head {
            match &cl.kind {
                HeadKind::Complexity(e) => {
                    if complexity.is_some() {
                        self.err(cl.span, "`complexity` given twice");
                    }
                    complexity = Some(self.constant(e, "complexity"));
                }
                HeadKind::Level(LevelExpr::Int(e)) => {
                    if let Some(i) = self.constant(e, "level") {
                        level = Rating::level(i);
                    }
                }
                HeadKind::Level(LevelExpr::Decimal(text, sp)) => match Rating::parse(text) {
                    Some(r) => level = r,
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
        let mut show = Vec::new();
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
                } => {
                    let word = match self.params.get(&ty.name) {
                        Some(Atom::Word(w)) => w.clone(),
                        _ => ty.name.clone(),
                    };
                    let Some(elem) = elem_of(&word) else {
                        self.err(
                            ty.span,
                            format!(
                                "unknown type `{word}`, expected one of {}",
                                names::type_list()
                            ),
                        );
                        continue;
                    };
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
                    let dom = domain.as_ref().map(|d| {
                        let t = self.expr(d);
                        self.coerce_domain(t, elem, d.span)
                    });
                    let slot = self.bind(
                        n,
                        if size.is_some() {
                            Ty::Set(elem)
                        } else {
                            Ty::One(elem)
                        },
                        self.gens + 1,
                    );
                    self.gens += 1;
                    gens.push(Instr::Gen {
                        slot,
                        elem,
                        size,
                        domain: dom,
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
                    let op = self.coerce_cands(t, e.span);
                    conclusion = Some((kind, op));
                }
                ClauseKind::Show(text, sp) => show = self.template(text, *sp),
            }
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
            show,
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

    fn bind(&mut self, n: &Ident, ty: Ty, depth: usize) -> usize {
        if self.params.contains_key(&n.name) {
            self.err(n.span, format!("`{}` is a family parameter", n.name));
        }
        if self.scope.contains_key(&n.name) {
            self.err(n.span, format!("`{}` is already defined", n.name));
        }
        if names::is_reserved(&n.name) {
            self.err(n.span, format!("`{}` is a reserved name", n.name));
        }
        let slot = self.slots;
        self.slots += 1;
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

    fn coerce_domain(&mut self, (op, ty): Typed, elem: Elem, sp: Span) -> Op {
        match ty {
            Ty::Set(e) | Ty::One(e) if e.fits(elem) || elem.fits(e) => op,
            Ty::Set(_) | Ty::One(_) => {
                let c = self.coerce_cands((op, ty), sp);
                Op::Project(elem, Box::new(c))
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
                    self.err(args[1].span, format!("cannot show a {}", xty.name()));
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
                self.err(e.span, format!("cannot show a {}", ty.name()));
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
        }
    }

    fn name(&mut self, n: &str, sp: Span) -> Typed {
        match self.params.get(n) {
            Some(Atom::Int(i)) => return (Op::Int(*i), Ty::Int),
            Some(Atom::Str(_)) => return (Op::Int(0), Ty::Text),
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
        self.err(sp, format!("unknown name `{n}`"));
        (Op::Int(0), Ty::Error)
    }

    fn call_count(&mut self, x: &Expr) -> Typed {
        let t = self.expr(x);
        let op = match t.1 {
            Ty::Set(_) => t.0,
            Ty::One(_) => self.coerce_cands(t, x.span),
            ty => {
                self.err(x.span, format!("cannot count a {}", ty.name()));
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
        let bx = Box::new(x);
        let by = Box::new(y);
        let mismatch = |c: &mut Self| {
            c.err(
                sp,
                format!(
                    "type mismatch: `{}` between {} and {}",
                    op.symbol(),
                    tx.name(),
                    ty.name()
                ),
            );
            (Op::Int(0), Ty::Bool)
        };
        let elems = |t: Ty| match t {
            Ty::One(e) | Ty::Set(e) => Some(e),
            _ => None,
        };
        match op {
            BinOp::And | BinOp::Or => {
                if tx != Ty::Bool || ty != Ty::Bool {
                    return mismatch(self);
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
                    (Ty::One(p), Ty::One(q)) if p.join(q).is_some() => {
                        (Op::Cmp(cmp, bx, by), Ty::Bool)
                    }
                    (Ty::Set(p), Ty::Set(q)) if p.join(q).is_some() => match op {
                        BinOp::Eq => (Op::SetEq(true, bx, by), Ty::Bool),
                        BinOp::Ne => (Op::SetEq(false, bx, by), Ty::Bool),
                        BinOp::Le => (Op::SubsetOf(bx, by), Ty::Bool),
                        BinOp::Ge => (Op::SubsetOf(by, bx), Ty::Bool),
                        _ => mismatch(self),
                    },
                    _ => mismatch(self),
                }
            }
            BinOp::In => match (tx, ty) {
                (Ty::One(p), Ty::Set(q)) | (Ty::One(p), Ty::One(q)) if p.join(q).is_some() => {
                    (Op::In(bx, by), Ty::Bool)
                }
                (Ty::One(Elem::Cand), Ty::Set(_) | Ty::One(_)) => {
                    let c = self.coerce_cands((*by, ty), b.span);
                    (Op::In(bx, Box::new(c)), Ty::Bool)
                }
                _ => mismatch(self),
            },
            BinOp::Plus | BinOp::Minus | BinOp::Times if tx == Ty::Int && ty == Ty::Int => {
                let o = match op {
                    BinOp::Plus => IntOp::Add,
                    BinOp::Minus => IntOp::Sub,
                    _ => IntOp::Mul,
                };
                (Op::IntBin(o, bx, by), Ty::Int)
            }
            BinOp::Union | BinOp::Inter | BinOp::Minus | BinOp::Plus => {
                let sop = match op {
                    BinOp::Inter => SetOp::Inter,
                    BinOp::Minus => SetOp::Minus,
                    _ => SetOp::Union,
                };
                let (Some(p), Some(q)) = (elems(tx), elems(ty)) else {
                    return mismatch(self);
                };
                if let Some(j) = p.join(q) {
                    (Op::SetBin(sop, bx, by), Ty::Set(j))
                } else {
                    let cx = self.coerce_cands((*bx, tx), a.span);
                    let cy = self.coerce_cands((*by, ty), b.span);
                    (
                        Op::SetBin(sop, Box::new(cx), Box::new(cy)),
                        Ty::Set(Elem::Cand),
                    )
                }
            }
            BinOp::Times => mismatch(self),
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
        _ => {}
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
                    match c.param_word(w).as_str() {
                        "none" => none = true,
                        "z" => e.z = true,
                        "z-first" => {
                            e.z = true;
                            e.z_in_first_only = true;
                        }
                        "t" => e.t = true,
                        other => c.err(
                            w.span,
                            format!("unknown kind of candidate `{other}`, expected none, z, z-first or t"),
                        ),
                    }
                }
                if none && (e.z || e.t) {
                    c.err(cl.span, "`others none` cannot be joined with z or t");
                }
                once(&mut c, &mut extras, e, cl.span, "others");
            }
            ChainKind::Links(w) => {
                let l = match c.param_word(w).as_str() {
                    "previous" => Some(Linking::Previous),
                    "target-or-any" => Some(Linking::TargetOrAny),
                    other => {
                        c.err(
                            w.span,
                            format!(
                                "unknown linking `{other}`, expected previous or target-or-any"
                            ),
                        );
                        None
                    }
                };
                if let Some(l) = l {
                    once(&mut c, &mut linking, l, cl.span, "links");
                }
            }
            ChainKind::Ends(w) => {
                let e = match c.param_word(w).as_str() {
                    "contradiction" => Some(Ending::Contradiction),
                    "linked-to-target" => Some(Ending::LinkedToTarget),
                    other => {
                        c.err(
                            w.span,
                            format!(
                                "unknown ending `{other}`, expected contradiction or linked-to-target"
                            ),
                        );
                        None
                    }
                };
                if let Some(e) = e {
                    once(&mut c, &mut ending, e, cl.span, "ends");
                }
            }
        }
    }
    if length.is_none() {
        c.err(ast.name_span, "missing `length` clause");
    }
    if ending.is_none() {
        c.err(ast.name_span, "missing `ends` clause");
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
        },
    })
}

impl Checker<'_> {
    /// A word of a chain clause, or the word a family parameter stands for.
    fn param_word(&self, w: &Ident) -> String {
        match self.params.get(&w.name) {
            Some(Atom::Word(v) | Atom::Str(v)) => v.clone(),
            Some(Atom::Int(i)) => i.to_string(),
            None => w.name.clone(),
        }
    }
}
