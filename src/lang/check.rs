//! Validation and compilation: expanded rule ASTs → typed [`Plan`]s.
//!
//! Every error of a file is collected (unknown names and types, type
//! mismatches, unused variables, unbounded or malformed families, missing
//! or duplicate conclusions) and reported together with spans.
//!
//! Placement: generators run in the order written (each generator's domain
//! may only use earlier names); every `let … =` definition and every `where`
//! filter is hoisted to run right after the last generator it depends on, so
//! a condition prunes the search as early as it can.

use super::ast::*;
use super::diag::Diagnostic;
use crate::geometry::Space;
use crate::matcher::*;
use std::collections::HashMap;

/// A rule ready to run.
#[derive(Clone, Debug)]
pub struct CompiledRule {
    pub name: String,
    pub docs: Vec<String>,
    pub file: String,
    pub line: usize,
    pub complexity: i64,
    /// Rating label (e.g. `FSHT`, `W[1]`) and level (0 = singles).
    pub rating: Option<String>,
    pub level: i64,
    pub plan: Plan,
}

/// Largest number of instances a family may expand to.
const MAX_FAMILY: usize = 256;

/// Compiles every rule of a parsed file; returns the rules or all errors.
pub fn compile_file(
    file: &str,
    source: &str,
    asts: &[RuleAst],
) -> Result<Vec<CompiledRule>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for ast in asts {
        let instances = match expand(ast) {
            Ok(i) => i,
            Err(e) => {
                errs.extend(
                    e.into_iter()
                        .map(|(sp, m)| Diagnostic::new(file, source, sp, m)),
                );
                continue;
            }
        };
        let mut seen_errs = Vec::new();
        for params in instances {
            match Compiler::new(&params).rule(ast) {
                Ok((name, (complexity, level), rating, plan)) => out.push(CompiledRule {
                    name,
                    docs: ast.docs.clone(),
                    file: file.to_string(),
                    line: source[..ast.name_span.start].matches('\n').count() + 1,
                    complexity,
                    rating,
                    level,
                    plan,
                }),
                Err(es) => {
                    for (sp, m) in es {
                        // One instance's errors usually repeat in every instance.
                        if !seen_errs.contains(&(sp, m.clone())) {
                            seen_errs.push((sp, m));
                        }
                    }
                }
            }
        }
        errs.extend(
            seen_errs
                .into_iter()
                .map(|(sp, m)| Diagnostic::new(file, source, sp, m)),
        );
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

type Params = HashMap<String, Atom>;
type Errors = Vec<(Span, String)>;
/// A compiled rule instance: name, (complexity, level), rating, plan.
type Compiled = (String, (i64, i64), Option<String>, Plan);

/// Expands a rule's family into its parameter tuples.
fn expand(ast: &RuleAst) -> Result<Vec<Params>, Errors> {
    let mut errs = Vec::new();
    let mut instances: Vec<Params> = vec![HashMap::new()];
    let mut names_seen: Vec<String> = Vec::new();
    for b in &ast.family {
        let (names, tuples): (Vec<&Ident>, Vec<Vec<Atom>>) = match b {
            FamBind::Range { name, lo, hi, span } => {
                if lo > hi {
                    errs.push((*span, format!("empty family: {lo} > {hi}")));
                    continue;
                }
                if hi - lo >= MAX_FAMILY as i64 {
                    errs.push((
                        *span,
                        format!(
                            "unbounded family: {} values (at most {MAX_FAMILY})",
                            hi - lo + 1
                        ),
                    ));
                    continue;
                }
                (
                    vec![name],
                    (*lo..=*hi).map(|i| vec![Atom::Int(i)]).collect(),
                )
            }
            FamBind::List { names, tuples, .. } => {
                let mut ok = Vec::new();
                for (t, sp) in tuples {
                    if t.len() != names.len() {
                        errs.push((
                            *sp,
                            format!(
                                "expected a tuple of {} values, found {}",
                                names.len(),
                                t.len()
                            ),
                        ));
                    } else {
                        ok.push(t.clone());
                    }
                }
                (names.iter().collect(), ok)
            }
        };
        for n in &names {
            if names_seen.contains(&n.name) {
                errs.push((
                    n.span,
                    format!("family parameter `{}` is bound twice", n.name),
                ));
            }
            names_seen.push(n.name.clone());
        }
        let mut next = Vec::new();
        for inst in &instances {
            for t in &tuples {
                let mut p = inst.clone();
                for (n, a) in names.iter().zip(t) {
                    p.insert(n.name.clone(), a.clone());
                }
                next.push(p);
            }
        }
        instances = next;
        if instances.len() > MAX_FAMILY {
            errs.push((
                ast.span,
                format!("unbounded family: more than {MAX_FAMILY} rules"),
            ));
            return Err(errs);
        }
    }
    // Holes in the name must be parameters.
    for (hole, sp) in holes(&ast.name, ast.name_span.start) {
        if !names_seen.contains(&hole) {
            errs.push((
                sp,
                format!("`{{{hole}}}` in the rule name is not a family parameter"),
            ));
        }
    }
    if errs.is_empty() {
        Ok(instances)
    } else {
        Err(errs)
    }
}

/// `{NAME}` holes of a template, with their spans.
fn holes(text: &str, base: usize) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut off = 0;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        let name = &rest[i + 1..i + j];
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push((
                name.to_string(),
                Span {
                    start: base + off + i,
                    end: base + off + i + j + 1,
                },
            ));
        }
        off += i + j + 1;
        rest = &rest[i + j + 1..];
    }
    out
}

fn substitute(text: &str, params: &Params) -> String {
    let mut s = text.to_string();
    for (k, v) in params {
        s = s.replace(&format!("{{{k}}}"), &v.to_string());
    }
    s
}

/// The element type named by a word.
fn elem_of(word: &str) -> Option<Elem> {
    Some(match word {
        "digit" => Elem::Digit,
        "row" => Elem::Row,
        "column" => Elem::Column,
        "block" => Elem::Block,
        "house" => Elem::House,
        "cell" => Elem::Cell,
        "cand" => Elem::Cand,
        "var" => Elem::Var(None),
        w => Elem::Var(Some(Space::from_name(w)?)),
    })
}

/// Messages that mention the error type are follow-ons of an error
/// already reported; [`Ty::Error`]'s name marks them.
const POISON: &str = "\u{0}error\u{0}";

const TYPE_NAMES: &str = "digit, row, column, block, house, cell, cand, var, rc, rn, cn, bn";
const FUNCTIONS: &str = "cands, digits, cells, rows, columns, blocks, houses, vars, linked, peers, first, last, count, within";

#[derive(Clone)]
struct Binding {
    slot: usize,
    ty: Ty,
    span: Span,
    used: bool,
    /// 0 = before any generator, k = after generator k.
    level: usize,
}

struct Compiler<'p> {
    params: &'p Params,
    scope: HashMap<String, Binding>,
    slots: usize,
    gens: usize,
    errs: Errors,
    /// Highest level referenced by the expression being compiled.
    cur_level: usize,
}

type Typed = (Op, Ty);

impl<'p> Compiler<'p> {
    fn new(params: &'p Params) -> Self {
        Compiler {
            params,
            scope: HashMap::new(),
            slots: 0,
            gens: 0,
            errs: Vec::new(),
            cur_level: 0,
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

    fn rule(mut self, ast: &RuleAst) -> Result<Compiled, Errors> {
        let name = substitute(&ast.name, self.params);
        let mut complexity = None;
        let mut level = 0;
        let mut rating = None;
        let mut conclusion: Option<(ConclusionKind, Op)> = None;
        let mut show = Vec::new();
        let mut gens: Vec<Step> = Vec::new();
        // (level, step) for definitions and filters, in written order.
        let mut placed: Vec<(usize, Step)> = Vec::new();
        for cl in &ast.clauses {
            self.cur_level = 0;
            match &cl.kind {
                ClauseKind::Complexity(e) => {
                    if complexity.is_some() {
                        self.err(cl.span, "`complexity` given twice");
                    }
                    let (op, ty) = self.expr(e);
                    if ty != Ty::Int || self.cur_level > 0 {
                        self.err(e.span, "expected a constant integer for `complexity`");
                    } else {
                        complexity = Some(op.eval(&crate::state::State::empty_grid(), &[]));
                    }
                }
                ClauseKind::Level(e) => {
                    let (op, ty) = self.expr(e);
                    match op.eval(&crate::state::State::empty_grid(), &[]) {
                        Val::Int(i) if ty == Ty::Int && self.cur_level == 0 => level = i,
                        _ => self.err(e.span, "expected a constant integer for `level`"),
                    }
                }
                ClauseKind::Rating(s, _) => rating = Some(substitute(s, self.params)),
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
                            format!("unknown type `{word}`, expected one of {TYPE_NAMES}"),
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
                    self.cur_level = 0;
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
                    gens.push(Step::Gen {
                        slot,
                        elem,
                        size,
                        domain: dom,
                    });
                }
                ClauseKind::Def { name: n, expr } => {
                    self.cur_level = 0;
                    let (op, ty) = self.expr(expr);
                    let level = self.cur_level;
                    let slot = self.bind(n, ty, level);
                    placed.push((level, Step::Def { slot, op }));
                }
                ClauseKind::Where(e) => {
                    self.cur_level = 0;
                    let (op, ty) = self.expr(e);
                    if ty != Ty::Bool {
                        self.err(e.span, format!("expected a condition, found {}", ty.name()));
                    }
                    placed.push((self.cur_level, Step::Filter(op)));
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
        for (n, b) in &self.scope {
            if !b.used {
                self.errs.push((b.span, format!("unused variable `{n}`")));
            }
        }
        if complexity.is_none() {
            self.err(ast.name_span, "missing `complexity` clause");
        }
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
        let mut steps = Vec::new();
        for level in 0..=gens.len() {
            if level > 0 {
                steps.push(gens[level - 1].clone());
            }
            steps.extend(
                placed
                    .iter()
                    .filter(|(l, _)| *l == level)
                    .map(|(_, s)| s.clone()),
            );
        }
        let complexity = match complexity {
            Some(Val::Int(i)) => i,
            _ => 0,
        };
        Ok((
            name,
            (complexity, level),
            rating,
            Plan {
                slots: self.slots,
                steps,
                conclusion: kind,
                target,
                show,
            },
        ))
    }

    fn size(&mut self, n: i64, sp: Span) -> Option<usize> {
        if !(1..=9).contains(&n) {
            self.err(sp, format!("a set size must be between 1 and 9, found {n}"));
            None
        } else {
            Some(n as usize)
        }
    }

    fn bind(&mut self, n: &Ident, ty: Ty, level: usize) -> usize {
        if self.params.contains_key(&n.name) {
            self.err(n.span, format!("`{}` is a family parameter", n.name));
        }
        if self.scope.contains_key(&n.name) {
            self.err(n.span, format!("`{}` is already defined", n.name));
        }
        if elem_of(&n.name).is_some() || FUNCTIONS.split(", ").any(|f| f == n.name) {
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
                level,
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
                    let (op, ty) = self.expr(&e);
                    parts.push(ShowPart::Hole(match ty {
                        Ty::Text => op,
                        Ty::Bool | Ty::Kind(_) => {
                            self.err(e.span, format!("cannot show a {}", ty.name()));
                            op
                        }
                        t => Op::Display(t, Box::new(op)),
                    }));
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

    fn expr(&mut self, e: &Expr) -> Typed {
        match &e.kind {
            ExprKind::Int(i) => (Op::Int(*i), Ty::Int),
            ExprKind::Str(s) => (Op::Text(s.clone()), Ty::Text),
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
            Some(Atom::Str(s)) => return (Op::Text(s.clone()), Ty::Text),
            Some(Atom::Word(w)) => {
                let w = w.clone();
                return match elem_of(&w) {
                    Some(e) => (Op::Int(0), Ty::Kind(e)),
                    None => (Op::Text(w), Ty::Text),
                };
            }
            None => {}
        }
        if let Some(b) = self.scope.get_mut(n) {
            b.used = true;
            self.cur_level = self.cur_level.max(b.level);
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
                if !arity(self, 2) {
                    return (Op::Int(0), Ty::Text);
                }
                let (cop, cty) = self.expr(&args[0]);
                let ce = match cty {
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
                let (xop, xty) = self.expr(&args[1]);
                if !matches!(xty, Ty::One(_) | Ty::Set(_)) {
                    self.err(args[1].span, format!("cannot show a {}", xty.name()));
                }
                (Op::Within(ce, Box::new(cop), xty, Box::new(xop)), Ty::Text)
            }
            other => {
                self.err(
                    f.span,
                    format!("unknown function `{other}`, expected one of {FUNCTIONS}"),
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
