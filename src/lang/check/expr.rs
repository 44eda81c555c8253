//! Checking expressions: each expression's type, and its [`Op`].

use super::types::Named;
use super::{Binding, Checker, Typed};
use crate::lang::ast::*;
use crate::lang::names::{self, Fun, elem_of};
use crate::search::pattern::*;

impl Checker<'_> {
    pub(super) fn expr(&mut self, e: &Expr) -> Typed {
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
        // Unknown when the domain has an error: no follow-on errors.
        self.slot_types.push(elem.map_or(Ty::Error, Ty::One));
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
        let quant = quant.unwrap_or(Quant::All);
        if quant.is_fold() {
            if !matches!(bty, Ty::Int | Ty::Error) {
                self.err(
                    body.span,
                    format!(
                        "`{}` folds integers: expected an integer, found {}{}",
                        q.name,
                        bty.a(),
                        if bty == Ty::Bool {
                            " (to count the members for which a condition holds, write `count(X in S: condition)`)"
                        } else {
                            ""
                        }
                    ),
                );
            }
        } else if !matches!(bty, Ty::Bool | Ty::Error) {
            self.err(
                body.span,
                format!("expected a condition, found {}", bty.name()),
            );
        }
        let op = Op::Quant(Box::new(QuantOp {
            q: quant,
            slot,
            domain: dop,
            body: bop,
            // Parts of the condition the same for every member are moved
            // out by the compiler's first pass (`hoist`).
            pre: Vec::new(),
        }));
        let ty = match (quant, elem) {
            (Quant::Count | Quant::Sum | Quant::Min | Quant::Max, _) => Ty::Int,
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
        if n == names::DECIDED {
            return (Op::Decided, Ty::Set(Elem::Cell));
        }
        if n == names::GIVENS {
            return (Op::Givens, Ty::Set(Elem::Cell));
        }
        if n == names::SYMBOLS {
            return (Op::Symbols, Ty::Set(Elem::Digit));
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
        match names::fun(&f.name) {
            Some(Fun::Cands) => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Set(Elem::Cand));
                }
                let t = self.expr(&args[0]);
                (self.coerce_cands(t, args[0].span), Ty::Set(Elem::Cand))
            }
            Some(Fun::Digits) => proj(self, Elem::Digit),
            Some(Fun::Cells) => proj(self, Elem::Cell),
            Some(Fun::Rows) => proj(self, Elem::Row),
            Some(Fun::Columns) => proj(self, Elem::Column),
            Some(Fun::Blocks) => proj(self, Elem::Block),
            Some(fun @ (Fun::Houses | Fun::Vars)) => {
                if !arity(self, 2) {
                    return (Op::Int(0), Ty::Set(Elem::House));
                }
                let (_, k) = self.expr(&args[0]);
                let want_var = fun == Fun::Vars;
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
            Some(Fun::Linked) => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Set(Elem::Cand));
                }
                let t = self.expr(&args[0]);
                let op = self.coerce_cands(t, args[0].span);
                (Op::Linked(Box::new(op)), Ty::Set(Elem::Cand))
            }
            Some(Fun::OrWhips(kind)) => {
                if !arity(self, 2) {
                    return (Op::Int(0), Ty::Set(Elem::Cand));
                }
                let t = self.expr(&args[0]);
                let or = self.coerce_cands(t, args[0].span);
                let (n, ty) = self.expr(&args[1]);
                match ty {
                    Ty::Int | Ty::Error => {}
                    t => self.err(
                        args[1].span,
                        format!(
                            "`{}(G, N)` takes the longest length N as an integer, found {}",
                            kind.name(),
                            t.a()
                        ),
                    ),
                }
                (
                    Op::OrWhips(kind, Box::new(or), Box::new(n)),
                    Ty::Set(Elem::Cand),
                )
            }
            Some(Fun::Peers) => {
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
            Some(fun @ (Fun::First | Fun::Last)) => {
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
                let op = if fun == Fun::First {
                    Op::First(Box::new(op))
                } else {
                    Op::Last(Box::new(op))
                };
                (op, Ty::One(e))
            }
            Some(Fun::Count) => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Int);
                }
                self.call_count(&args[0])
            }
            Some(Fun::Geo(g)) => self.geo(f, g, args, sp),
            Some(fun @ (Fun::Value | Fun::Given)) => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Error);
                }
                let (op, ty) = self.expr(&args[0]);
                if !self.single(
                    &args[0],
                    ty,
                    Elem::Cell,
                    &format!("{}(C)", f.name),
                    "a cell",
                ) {
                    return (Op::Int(0), Ty::Error);
                }
                if let Ty::Set(_) = ty {
                    if fun == Fun::Given {
                        self.err(
                            args[0].span,
                            format!(
                                "`given` takes one cell, found a set of cells: for a set write `{} <= givens`",
                                text(&args[0])
                            ),
                        );
                        return (Op::Int(0), Ty::Error);
                    }
                    if !self.not_several(&op, &args[0], f, Elem::Cell) {
                        return (Op::Int(0), Ty::Error);
                    }
                }
                if fun == Fun::Value {
                    (Op::Value(Box::new(op)), Ty::One(Elem::Digit))
                } else {
                    (Op::In(Box::new(op), Box::new(Op::Givens)), Ty::Bool)
                }
            }
            Some(Fun::Order(o)) => {
                if !arity(self, 1) {
                    return (Op::Int(0), Ty::Error);
                }
                match self.one_cell(&args[0], f) {
                    Some(op) => (Op::Order(o, Box::new(op)), Ty::Set(Elem::Cell)),
                    None => (Op::Int(0), Ty::Error),
                }
            }
            Some(Fun::Rise(line)) => {
                if !arity(self, 2) {
                    return (Op::Int(0), Ty::Error);
                }
                let y = self.one_cell(&args[0], f);
                let x = self.one_cell(&args[1], f);
                match (y, x) {
                    (Some(y), Some(x)) => (Op::Rise(line, Box::new(y), Box::new(x)), Ty::Int),
                    _ => (Op::Int(0), Ty::Error),
                }
            }
            Some(Fun::Sum(g)) => self.sum_fn(f, g, args, sp),
            // `sum(x)` of one element: a house's or a cage's sum.
            None if f.name == "sum" && args.len() == 1 => self.sum_fn(f, SumFn::Total, args, sp),
            Some(Fun::Within) => {
                self.err(f.span, "`within(…)` can only be used in a `show` template");
                (Op::Int(0), Ty::Error)
            }
            // `min(a, b, …)`, `max(a, b, …)` of integers.
            None if matches!(names::quantifier(&f.name), Some(Quant::Min | Quant::Max))
                && args.len() >= 2 =>
            {
                let o = if f.name == "min" {
                    IntOp::Min
                } else {
                    IntOp::Max
                };
                let mut acc: Option<Op> = None;
                let mut bad = false;
                for a in args {
                    let (op, ty) = self.expr(a);
                    match ty {
                        Ty::Int => {}
                        Ty::Error => bad = true,
                        t => {
                            self.err(
                                a.span,
                                format!(
                                    "`{}` of integers: expected an integer, found {}",
                                    f.name,
                                    t.a()
                                ),
                            );
                            bad = true;
                        }
                    }
                    acc = Some(match acc {
                        None => op,
                        Some(Op::Int(i)) if matches!(op, Op::Int(_)) => {
                            let Op::Int(j) = op else {
                                unreachable!("matched above")
                            };
                            Op::Int(if o == IntOp::Min { i.min(j) } else { i.max(j) })
                        }
                        Some(x) => Op::IntBin(o, Box::new(x), Box::new(op)),
                    });
                }
                if bad {
                    return (Op::Int(0), Ty::Error);
                }
                (acc.expect("two or more"), Ty::Int)
            }
            None if names::quantifier(&f.name).is_some() => {
                let other = &f.name;
                self.err(
                    f.span,
                    format!("`{other}` is a quantifier: write `{other}(X in S: condition)`"),
                );
                for a in args {
                    self.expr(a);
                }
                (Op::Int(0), Ty::Error)
            }
            None => {
                self.err(
                    f.span,
                    format!(
                        "unknown function `{}`, expected one of {}",
                        f.name,
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

    /// `row(x)` and the other single-valued functions of one element;
    /// `cell(R, C)`.
    fn geo(&mut self, f: &Ident, g: Geo, args: &[Expr], sp: Span) -> Typed {
        if g == Geo::Cell && args.len() == 2 {
            let r = self.expr(&args[0]);
            let c = self.expr(&args[1]);
            let ok_r = self.single(&args[0], r.1, Elem::Row, "cell(R, C)", "a row");
            let ok_c = self.single(&args[1], c.1, Elem::Column, "cell(R, C)", "a column");
            if !(ok_r && ok_c) {
                return (Op::Int(0), Ty::Error);
            }
            return (
                Op::CellAt(Box::new(r.0), Box::new(c.0)),
                Ty::One(Elem::Cell),
            );
        }
        if args.len() != 1 {
            let also = if g == Geo::Cell {
                " (or 2: a row and a column)"
            } else {
                ""
            };
            self.err(
                sp,
                format!("`{}` takes 1 argument{also}, found {}", f.name, args.len()),
            );
            return (Op::Int(0), Ty::Error);
        }
        let (op, ty) = self.expr(&args[0]);
        let e = match ty {
            Ty::One(e) | Ty::Set(e) => e,
            Ty::Error => return (Op::Int(0), Ty::Error),
            t => {
                self.err(
                    args[0].span,
                    format!("`{}` expects one element, found {}", f.name, t.a()),
                );
                return (Op::Int(0), Ty::Error);
            }
        };
        let takes: Vec<&str> = names::TYPES
            .iter()
            .filter(|(_, t)| geo_applies(g, *t))
            .map(|(n, _)| *n)
            .collect();
        if !geo_applies(g, e) {
            self.err(
                args[0].span,
                format!(
                    "`{}` of {} has no value: `{}` takes one {}",
                    f.name,
                    ty.a(),
                    f.name,
                    takes.join(", ")
                ),
            );
            return (Op::Int(0), Ty::Error);
        }
        if let Ty::Set(_) = ty
            && !self.not_several(&op, &args[0], f, e)
        {
            return (Op::Int(0), Ty::Error);
        }
        (Op::Geo(g, e, Box::new(op)), g.ty())
    }

    /// `number(d)`, `sum(x)`, `area(x)`, `cages(x)`: the functions of
    /// numbers and sums ([`SumFn`]).
    fn sum_fn(&mut self, f: &Ident, g: SumFn, args: &[Expr], sp: Span) -> Typed {
        if args.len() != 1 {
            self.err(
                sp,
                format!("`{}` takes 1 argument, found {}", f.name, args.len()),
            );
            return (Op::Int(0), Ty::Error);
        }
        let (op, ty) = self.expr(&args[0]);
        let e = match ty {
            Ty::One(e) | Ty::Set(e) => e,
            Ty::Error => return (Op::Int(0), Ty::Error),
            t => {
                let want = match g {
                    SumFn::Number => "one digit",
                    SumFn::Total => "one house or killer cage",
                    SumFn::Area | SumFn::Cages => "cells, houses or variables",
                };
                let hint = if g == SumFn::Total && t == Ty::Int {
                    "; to add integers up write `sum(X in S: N)`"
                } else {
                    ""
                };
                self.err(
                    args[0].span,
                    format!("`{}` expects {want}, found {}{hint}", f.name, t.a()),
                );
                return (Op::Int(0), Ty::Error);
            }
        };
        let fits = match g {
            SumFn::Number => e == Elem::Digit,
            SumFn::Total => e.is_house() || e == Elem::Var(None),
            SumFn::Area | SumFn::Cages => {
                e == Elem::Cell || e.is_house() || matches!(e, Elem::Var(_))
            }
        };
        if !fits {
            let (takes, hint) = match g {
                SumFn::Number => (
                    "one digit",
                    if e == Elem::Cell {
                        format!(
                            "; the number of a decided cell is `number(value({}))`",
                            text(&args[0])
                        )
                    } else {
                        String::new()
                    },
                ),
                SumFn::Total => (
                    "one house (its total, N(N+1)/2) or one killer cage (a `kc` variable: its sum)",
                    String::new(),
                ),
                SumFn::Area | SumFn::Cages => (
                    "cells, houses or variables (a killer cage is a `kc` variable)",
                    if e == Elem::Cand {
                        format!(
                            " (for the cells of candidates write `cells({})`)",
                            text(&args[0])
                        )
                    } else {
                        String::new()
                    },
                ),
            };
            self.err(
                args[0].span,
                format!(
                    "`{}` of {} has no value: `{}` takes {takes}{hint}",
                    f.name,
                    ty.a(),
                    f.name
                ),
            );
            return (Op::Int(0), Ty::Error);
        }
        if matches!(g, SumFn::Number | SumFn::Total)
            && let Ty::Set(_) = ty
            && !self.not_several(&op, &args[0], f, e)
        {
            return (Op::Int(0), Ty::Error);
        }
        if g == SumFn::Cages {
            // Killer cages are the `kc` space's variables: the rule runs
            // on the types that have cages only.
            match self.foreign.as_deref() {
                None => self.foreign = Some("kc".into()),
                Some("kc") => {}
                Some(other) => {
                    self.err(
                        f.span,
                        format!(
                            "`cages(…)` reads killer cages (space `kc`), and this rule's generator \
                             names space `{other}`: a rule reads one space of other types"
                        ),
                    );
                    return (Op::Int(0), Ty::Error);
                }
            }
        }
        (Op::Sum(g, e, Box::new(op)), g.ty())
    }

    /// A set argument where one element is expected: refused when it is
    /// known to hold several (a set generator of 2 or more); otherwise its
    /// one member is taken at run time (undefined on none or several).
    fn not_several(&mut self, op: &Op, arg: &Expr, f: &Ident, e: Elem) -> bool {
        if let Op::Slot(s) = op
            && let Some(&k) = self.set_sizes.get(s)
            && k > 1
        {
            let plural = match f.name.as_str() {
                "row" | "column" | "block" | "digit" | "cell" => {
                    format!(
                        "; for the {}s of its members write `{}s({})`",
                        f.name,
                        f.name,
                        text(arg)
                    )
                }
                _ => String::new(),
            };
            self.err(
                arg.span,
                format!(
                    "`{}` takes one element, and `{}` is a set of {k} {}s{plural}",
                    f.name,
                    text(arg),
                    e.name()
                ),
            );
            return false;
        }
        true
    }

    /// The operand of an order function (`below(C)`, `rise(Y, X)`): one
    /// cell, or a set that must hold one at run time.
    fn one_cell(&mut self, arg: &Expr, f: &Ident) -> Option<Op> {
        let (op, ty) = self.expr(arg);
        let what = format!("{}(…)", f.name);
        if !self.single(arg, ty, Elem::Cell, &what, "a cell") {
            return None;
        }
        if let Ty::Set(_) = ty
            && !self.not_several(&op, arg, f, Elem::Cell)
        {
            return None;
        }
        Some(op)
    }

    /// An operand that must be one element of type `want` (or a set of
    /// them whose one member is taken at run time).
    fn single(&mut self, arg: &Expr, ty: Ty, want: Elem, what: &str, a_want: &str) -> bool {
        match ty {
            Ty::Error => false,
            Ty::One(e) | Ty::Set(e) if e.fits(want) => true,
            t => {
                self.err(
                    arg.span,
                    format!("`{what}` expects {a_want}, found {}", t.a()),
                );
                false
            }
        }
    }

    /// `S at H`: the member of S that lies in the element H.
    fn at(&mut self, a: &Expr, b: &Expr, sp: Span) -> Typed {
        let (x, tx) = self.expr(a);
        let (y, ty) = self.expr(b);
        if tx == Ty::Error || ty == Ty::Error {
            return (Op::Int(0), Ty::Error);
        }
        let (Some(p), Some(q)) = (tx.elem(), ty.elem()) else {
            self.err(
                sp,
                format!(
                    "`at` looks up the member of a set that lies in one element (`S at H`), found {} at {}",
                    tx.name(),
                    ty.name()
                ),
            );
            return (Op::Int(0), Ty::Error);
        };
        let at = Ident {
            name: "at".into(),
            span: sp,
        };
        if let Ty::Set(_) = ty
            && !self.not_several(&y, b, &at, q)
        {
            return (Op::Int(0), Ty::Error);
        }
        (Op::At(p, q, Box::new(x), Box::new(y)), Ty::One(p))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Typed {
        if op == BinOp::At {
            return self.at(a, b, sp);
        }
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
            } else if op == BinOp::In && matches!(tx, Ty::One(_)) {
                // `A in S`, with A a variable, cell, digit or house and S
                // of another type: S read as A's type, or A's candidates.
                format!(
                    "; write `{} in {}` (the {} with a candidate in it), or `{} & {}` for the candidates of `{}` in it",
                    text(a),
                    projected_text(b, ty, p),
                    plural(p),
                    cands_text(a, tx),
                    cands_text(b, ty),
                    text(a)
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
                        IntOp::Min | IntOp::Max => unreachable!("not an operator"),
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
                (Op::SetBin(sop, elem, bx, by), Ty::Set(elem))
            }
            BinOp::Times => mismatch(self, String::new()),
            BinOp::At => unreachable!("checked above"),
        }
    }
}

/// The text of an expression, for suggestions in messages (long
/// sub-expressions are cut to `…`).
pub(super) fn text(e: &Expr) -> String {
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

/// Has `g` a value for some element of type `e` (`row` of a cell, not
/// of a digit)?
fn geo_applies(g: Geo, e: Elem) -> bool {
    let all = match e {
        Elem::Cand => 0..729,
        Elem::Var(_) => 0..324,
        Elem::Cell => 0..81,
        Elem::Digit => 0..9,
        _ => 0..27,
    };
    all.filter(|&i| match e {
        Elem::Row => i < 9,
        Elem::Column => (9..18).contains(&i),
        Elem::Block => i >= 18,
        Elem::Var(Some(s)) => i / 81 == s as usize,
        _ => true,
    })
    .any(|i| crate::search::pattern::geo(g, e, i).is_some())
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
/// The name of several elements of type `e` (`rn variables`, `cells`).
fn plural(e: Elem) -> String {
    match e {
        Elem::Var(None) => "variables".into(),
        Elem::Var(Some(_)) => format!("{} variables", e.name()),
        Elem::Cand => "candidates".into(),
        _ => format!("{}s", e.name()),
    }
}

/// The expression for the elements of type `onto` that a live candidate
/// of `e` (of type `t`) occupies: `cells(S)`, `vars(rn, S)`.
fn projected_text(e: &Expr, t: Ty, onto: Elem) -> String {
    let x = text(e);
    match onto {
        Elem::Cand => cands_text(e, t),
        Elem::Digit => format!("digits({x})"),
        Elem::Cell => format!("cells({x})"),
        Elem::Row => format!("rows({x})"),
        Elem::Column => format!("columns({x})"),
        Elem::Block => format!("blocks({x})"),
        Elem::House => format!("houses(house, {x})"),
        Elem::Var(_) => format!("vars({}, {x})", onto.name()),
    }
}

pub(super) fn cands_text(e: &Expr, t: Ty) -> String {
    match t {
        Ty::One(Elem::Cand) | Ty::Set(Elem::Cand) => text(e),
        _ => format!("cands({})", text(e)),
    }
}
