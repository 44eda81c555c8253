//! Checking a pattern rule: its generators, definitions, filters,
//! conclusion, `parents` and show template.

use super::expr::{cands_text, text};
use super::types::Named;
use super::{Checker, Typed};
use crate::lang::ast::*;
use crate::lang::expand::{Errors, Params, holes, substitute};
use crate::lang::names::{self, Fun, elem_of};
use crate::rating::Rating;
use crate::search::ConclusionKind;
use crate::search::pattern::*;

/// The most cells a loop (`let Q, A: loop …`) may have.
pub const MAX_LOOP: usize = 32;

/// A checked pattern rule instance: its head and its typed, unscheduled
/// clauses.
#[derive(Clone, Debug)]
pub struct CheckedPattern {
    pub name: String,
    pub complexity: i64,
    pub level: Rating,
    pub label: Option<String>,
    /// The clauses, typed and not yet scheduled: what the pattern
    /// compiler's passes take ([`crate::search::pattern::compile`]).
    pub body: Checked,
    /// The space of other puzzle types its variable comes from (`dn`),
    /// if any: then the instance does not run on classic Sudoku, and its
    /// generator reads as one over every variable until a type with that
    /// space takes it ([`crate::typed`]).
    pub foreign: Option<String>,
}

/// Checks one instance of a pattern rule.
pub fn check_pattern(
    ast: &RuleAst,
    clauses: &[Clause],
    params: &Params,
) -> Result<CheckedPattern, Errors> {
    Checker::new(params).pattern(ast, clauses)
}

impl Checker<'_> {
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
                    let foreign = names::FOREIGN_SPACES.contains(&word.as_str());
                    if foreign {
                        if let Some(other) = self.foreign.as_deref()
                            && other != word
                        {
                            self.err(
                                ty.span,
                                format!(
                                    "this rule already reads space `{other}` of other types \
                                     (a generator, or `cages(…)` for `kc`): a rule reads one \
                                     space of other types"
                                ),
                            );
                        }
                        self.foreign = Some(word.clone());
                    }
                    let elem = if foreign {
                        Some(Elem::Var(None))
                    } else {
                        elem_of(&word)
                    };
                    let Some(elem) = elem else {
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
                        dom = order.iter().cloned().reduce(|a, b| {
                            Op::SetBin(SetOp::Union, elem, Box::new(a), Box::new(b))
                        });
                    }
                    let ty = match (size, written_size) {
                        (Some(_), _) => Ty::Set(elem),
                        // A size with an error: the type is unknown.
                        (None, true) => Ty::Error,
                        (None, false) => Ty::One(elem),
                    };
                    let slot = self.bind(n, ty, self.gens + 1);
                    if let Some(k) = size {
                        self.set_sizes.insert(slot, k);
                    }
                    self.gens += 1;
                    gens.push(Instr::Gen {
                        slot,
                        elem,
                        size,
                        domain: dom,
                        order,
                    });
                }
                ClauseKind::Walk(w) => {
                    let instr = self.walk(w);
                    gens.push(instr);
                }
                ClauseKind::Cluster {
                    cands,
                    colour,
                    domain,
                } => {
                    let instr = self.cluster(cands, colour, domain.as_ref());
                    gens.push(instr);
                }
                ClauseKind::Als {
                    name,
                    size,
                    domain,
                    holding,
                } => {
                    let instr = self.als(name, size.as_ref(), domain.as_ref(), holding.as_ref());
                    gens.push(instr);
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
                    self.no_givens(&t.0, e, "`parents`");
                    parents = Some(self.coerce_cands(t, e.span));
                }
                ClauseKind::Show(text, sp) => show = self.template(text, *sp),
            }
        }
        if let Some((e, ty, op)) = assert_target {
            self.check_assert(e, ty, &op, &placed);
        }
        let name_holes = self.name_holes(ast);
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
            foreign: self.foreign.take(),
            name,
            complexity: complexity.unwrap_or(0),
            level,
            label,
            body: Checked {
                slots: self.slots,
                slot_types: self.slot_types,
                slot_shapes: self.slot_shapes,
                gens,
                placed,
                conclusion: kind,
                target,
                parents,
                show,
                name_holes,
            },
        })
    }

    /// The holes of the rule's name that are no family parameter: each
    /// must name an integer the rule binds outside any quantifier
    /// (`asc[{K}]` with `let K = rise(S, T)`), read from the match.
    fn name_holes(&mut self, ast: &RuleAst) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for (hole, sp) in holes(&ast.name, ast.name_span.start) {
            if self.params.contains_key(&hole) || out.iter().any(|(h, _)| *h == hole) {
                continue;
            }
            let Some(b) = self.scope.get_mut(&hole) else {
                self.err(
                    sp,
                    format!(
                        "`{{{hole}}}` in the rule name is neither a family parameter nor a name \
                         the rule binds: bind it (`let {hole} = …`, an integer) or add it to the \
                         family (`for {hole} in …`)"
                    ),
                );
                continue;
            };
            b.used = true;
            match b.ty {
                Ty::Int => out.push((hole, b.slot)),
                Ty::Error => {}
                ty => {
                    let found = ty.a();
                    self.err(
                        sp,
                        format!(
                            "`{{{hole}}}` in the rule name must be an integer (the match's \
                             value printed in the step's name), found {found}"
                        ),
                    );
                }
            }
        }
        out
    }

    /// A walk generator (`let Q, A: loop from S through P by K … length N
    /// [next z] [gather X = G] [when C]`): Q and A are cells bound by it
    /// (a generator: later clauses may read them), z and X names of its
    /// own `gather` and `when` (bound only there, as a quantifier's
    /// variable is); `when` reads Q and A too, as the walk so far.
    fn walk(&mut self, w: &WalkClause) -> Instr {
        self.cur_depth = 0;
        let (start, sty) = self.expr(&w.from);
        if !matches!(sty, Ty::One(Elem::Cell) | Ty::Error) {
            self.err(
                w.from.span,
                format!("a loop starts from a cell, found {}", sty.name()),
            );
        }
        let t = self.expr(&w.through);
        let through = self.coerce_domain(t, Elem::Cell, None, w.through.span);
        let mut by = Vec::new();
        for k in &w.by {
            let word = self.param_word(k);
            match elem_of(&word) {
                Some(e @ (Elem::Row | Elem::Column | Elem::Block)) if !by.contains(&e) => {
                    by.push(e)
                }
                Some(Elem::Row | Elem::Column | Elem::Block) => {
                    self.err(k.span, format!("`{word}` is listed twice"))
                }
                _ => self.err(
                    k.span,
                    format!("a loop steps by row, column or block, found `{word}`"),
                ),
            }
        }
        // A kind refused above has its own error: this one is for a list
        // of one kind.
        if w.by.len() < 2 {
            self.err(
                w.by[0].span,
                "a loop steps by two kinds of house at least (a step never goes by the kind of the step before)",
            );
        }
        let length = self.walk_length(&w.length);
        let length_max = match &w.length_max {
            None => length,
            Some(m) => {
                let max = self.walk_length(m);
                if let (Some(n), Some(x)) = (length, max)
                    && x < n
                {
                    let sp = match m {
                        Size::Lit(_, sp) => *sp,
                        Size::Param(p) => p.span,
                    };
                    self.err(
                        sp,
                        format!("`length {n} to {x}`: the greatest length is less than the least"),
                    );
                }
                max
            }
        };
        // Q and A: bound by this generator, read by `when` as the walk so
        // far.
        let depth = self.gens + 1;
        let lp = self.bind(&w.cells, Ty::Set(Elem::Cell), depth);
        let even = self.bind(&w.even, Ty::Set(Elem::Cell), depth);
        self.gens += 1;
        // z and X: names of the walk's own clauses.
        let mut local = Vec::new();
        // Like a quantifier's variable, no part of what a match shows.
        let next = w.next.as_ref().map(|z| {
            let s = self.bind(z, Ty::One(Elem::Cell), 0);
            self.slot_shapes[s] = None;
            local.push(z);
            s
        });
        if let (true, Some((x, _))) = (w.once, &w.gather) {
            self.err(
                x.span,
                "`once` keeps the first of a loop's walks, whose gathered sets may differ: a walk with `gather` cannot take `once`",
            );
        }
        let gather = w.gather.as_ref().map(|(x, g)| {
            let (op, ty) = self.expr(g);
            let ty = match ty {
                Ty::Set(_) | Ty::Error => ty,
                Ty::One(e) => Ty::Set(e),
                t => {
                    self.err(g.span, format!("`gather` unites sets, found {}", t.name()));
                    Ty::Error
                }
            };
            let s = self.bind(x, ty, 0);
            self.slot_shapes[s] = None;
            local.push(x);
            (s, op)
        });
        let when = w.when.as_ref().map(|c| {
            let (op, ty) = self.expr(c);
            if !matches!(ty, Ty::Bool | Ty::Error) {
                self.err(c.span, format!("expected a condition, found {}", ty.name()));
            }
            op
        });
        for n in local {
            if let Some(b) = self.scope.remove(&n.name)
                && !b.used
            {
                self.err(n.span, format!("unused variable `{}`", n.name));
            }
        }
        Instr::Walk(Box::new(Walk {
            lp,
            even,
            start,
            through,
            by,
            min_length: length.unwrap_or(0),
            length: length_max.unwrap_or(0),
            once: w.once,
            next,
            gather,
            when,
        }))
    }

    /// A cluster generator (`let K, A: cluster [in P]`): K and A are sets
    /// of candidates bound by it; P, a set of candidates (or of elements,
    /// read as their candidates), defaults to every live candidate.
    fn cluster(&mut self, cands: &Ident, colour: &Ident, domain: Option<&Expr>) -> Instr {
        self.cur_depth = 0;
        let domain = match domain {
            Some(d) => {
                let t = self.expr(d);
                match t.1 {
                    Ty::Set(_) | Ty::One(_) | Ty::Error => {
                        self.coerce_domain(t, Elem::Cand, None, d.span)
                    }
                    ty => {
                        self.err(
                            d.span,
                            format!(
                                "a cluster is made of candidates: expected a set of candidates, found {}",
                                ty.name()
                            ),
                        );
                        Op::Grid
                    }
                }
            }
            None => Op::Grid,
        };
        let depth = self.gens + 1;
        let k = self.bind(cands, Ty::Set(Elem::Cand), depth);
        let a = self.bind(colour, Ty::Set(Elem::Cand), depth);
        self.gens += 1;
        Instr::Cluster(Box::new(Cluster {
            cands: k,
            colour: a,
            domain,
        }))
    }

    /// A walk's length (`length N`, or either end of `length N to M`): an
    /// integer or an integer family parameter, checked by
    /// [`Self::loop_length`].
    fn walk_length(&mut self, size: &Size) -> Option<usize> {
        match size {
            Size::Lit(n, sp) => self.loop_length(*n, *sp),
            Size::Param(p) => match self.params.get(&p.name) {
                Some(Atom::Int(n)) => self.loop_length(*n, p.span),
                _ => {
                    self.err(
                        p.span,
                        format!("`{}` is not an integer family parameter", p.name),
                    );
                    None
                }
            },
        }
    }

    /// An ALS generator (`let A: als [size N [to M]] [in P]`): A, a set
    /// of cells bound by it; P, a set of cells (or of elements, read as
    /// their cells); the size 1 to [`MAX_ALS`] cells.
    fn als(
        &mut self,
        name: &Ident,
        size: Option<&(Size, Option<Size>)>,
        domain: Option<&Expr>,
        holding: Option<&Expr>,
    ) -> Instr {
        self.cur_depth = 0;
        let domain = domain.map(|d| {
            let t = self.expr(d);
            match t.1 {
                Ty::Set(_) | Ty::One(_) | Ty::Error => {
                    self.coerce_domain(t, Elem::Cell, None, d.span)
                }
                ty => {
                    self.err(
                        d.span,
                        format!(
                            "an almost locked set is taken among cells: expected a set of cells (or a house), found {}",
                            ty.name()
                        ),
                    );
                    Op::Int(0)
                }
            }
        });
        let holding = holding.map(|d| {
            let t = self.expr(d);
            match t.1 {
                Ty::Set(Elem::Digit) | Ty::One(Elem::Digit) | Ty::Error => t.0,
                ty => {
                    self.err(
                        d.span,
                        format!(
                            "`holding` names digits an almost locked set holds: expected a digit or a set of digits, found {}",
                            ty.name()
                        ),
                    );
                    Op::Int(0)
                }
            }
        });
        let (mut min, mut max) = (1, MAX_ALS);
        if let Some((least, most)) = size {
            let lo = self.als_size(least);
            let hi = match most {
                Some(m) => self.als_size(m),
                None => lo,
            };
            if let (Some(n), Some(x), Some(m)) = (lo, hi, most)
                && x < n
            {
                let sp = match m {
                    Size::Lit(_, sp) => *sp,
                    Size::Param(p) => p.span,
                };
                self.err(
                    sp,
                    format!("`size {n} to {x}`: the greatest size is less than the least"),
                );
            }
            min = lo.unwrap_or(1);
            max = hi.unwrap_or(MAX_ALS).max(min);
        }
        let depth = self.gens + 1;
        let slot = self.bind(name, Ty::Set(Elem::Cell), depth);
        if min == max {
            self.set_sizes.insert(slot, min);
        }
        self.gens += 1;
        Instr::Als(Box::new(Als {
            slot,
            min,
            max,
            domain,
            holding,
        }))
    }

    /// The number of cells of an ALS: 1 to [`MAX_ALS`].
    fn als_size(&mut self, size: &Size) -> Option<usize> {
        let (n, sp) = match size {
            Size::Lit(n, sp) => (*n, *sp),
            Size::Param(p) => match self.params.get(&p.name) {
                Some(Atom::Int(n)) => (*n, p.span),
                _ => {
                    self.err(
                        p.span,
                        format!("`{}` is not an integer family parameter", p.name),
                    );
                    return None;
                }
            },
        };
        if !(1..=MAX_ALS as i64).contains(&n) {
            self.err(
                sp,
                format!(
                    "an almost locked set has 1 to {MAX_ALS} cells (N cells of a house holding N + 1 digits), found {n}"
                ),
            );
            None
        } else {
            Some(n as usize)
        }
    }

    /// The length of a loop: 3 cells to [`MAX_LOOP`].
    fn loop_length(&mut self, n: i64, sp: Span) -> Option<usize> {
        if !(3..=MAX_LOOP as i64).contains(&n) {
            self.err(sp, format!("a loop has 3 to {MAX_LOOP} cells, found {n}"));
            None
        } else {
            Some(n as usize)
        }
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

    /// Converts a value of element type to its live candidates.
    pub(super) fn coerce_cands(&mut self, (op, ty): Typed, sp: Span) -> Op {
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
        // The conclusions are added after the template: written in it,
        // they would show twice.
        if let Some(i) = text.find("==>") {
            self.err(
                Span {
                    start: sp.start + i,
                    end: sp.start + i + 3,
                },
                "`==>` in a show template: a step prints as `NAME: TEMPLATE ==> CONCLUSIONS`, \
                 the conclusions added after the template; leave them out of it",
            );
        }
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
            match crate::lang::parse::parse_expr(inner) {
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
            ExprKind::Call(f, args) if names::fun(&f.name) == Some(Fun::Within) => {
                if args.len() != 2 {
                    self.err(
                        e.span,
                        format!("`within` takes 2 argument(s), found {}", args.len()),
                    );
                    return None;
                }
                let (ctx, cty) = self.expr(&args[0]);
                self.no_givens(&ctx, &args[0], "a show template");
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
                self.no_givens(&x, &args[1], "a show template");
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
        self.no_givens(&op, e, "a show template");
        match ty {
            Ty::Bool | Ty::Kind(_) | Ty::Text => {
                self.err(e.span, format!("cannot show {}", ty.a()));
                None
            }
            t => Some(ShowPart::Value(t.shape(), op)),
        }
    }

    /// `givens` (and `given(C)`) belong to the run that searches (the
    /// cells decided when it started: [`crate::search::SearchCx`]), which
    /// a step shown later, or its parents read on a branch, no longer
    /// has: `where` they are read, an error pointing to a name bound in
    /// the pattern instead.
    fn no_givens(&mut self, op: &Op, e: &Expr, place: &str) {
        if reads_givens(op) {
            self.err(
                e.span,
                format!(
                    "`givens` cannot be read in {place} (a step is shown without the run that found it): \
                     bind what you need in the pattern (`let G = givens & …`) and write its name"
                ),
            );
        }
    }
}

/// Does `op` read the run's given cells?
fn reads_givens(op: &Op) -> bool {
    matches!(op, Op::Givens) || op.operands().into_iter().flatten().any(reads_givens)
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
