//! The typed stage: a plan's expressions recompiled, once, by the static
//! type of their values, into an expression type of its own ([`TOp`]).
//!
//! Every value of the language is carried as a [`Bits`](crate::grid::bits::Bits) (729 bits, twelve
//! words), whatever it holds. But the type of each expression is known
//! when the plan is built: a set of digits or of houses has its members
//! below 64, so one `u64` holds it; a set of cells fits a `u128`; only
//! sets of candidates and of CSP variables need the wide form. [`Typed`]
//! is made from a plan's instructions (and what [`super::fold`] left of
//! its filters): each expression is rewritten into operations chosen for
//! its operands' types —
//!
//! - [`WOp`], a set of digits or houses computed in one word: bound
//!   values, `digits(x)` of one cell or candidate (its 9-bit mask),
//!   `digits(S)` of a set of cells, `digits(H)` of one house, unions,
//!   intersections and differences, `select` over such a domain;
//! - [`COp`], a set of cells computed in two words: bound values,
//!   `peers(..)`, `cells(H)` of one house, set operations, `select`;
//! - the operations on them ([`TOp::WLen`], [`TOp::WEq`], [`TOp::WSub`],
//!   [`TOp::WIn`] and their cell forms; [`TOp::MaskLen`] for `|x|` of one
//!   cell or candidate), quantifiers whose domain is iterated in its own
//!   width ([`TQuant`]), and flattened `and`/`or` chains ([`TOp::AllOf`],
//!   [`TOp::AnyOf`], whose terms the matcher evaluates in place, two
//!   chains deep);
//! - comparisons whose operands' types are known: of two integers
//!   ([`TOp::ICmp`], each read with no [`Val`](super::Val) in between) and of two
//!   bound elements ([`TOp::XCmp`], by index).
//! - products of cells and digits ([`Prod`]: `cands(H) & cands(X)` and
//!   the like) read from the cells of each digit's live candidates: their
//!   size, cells, digits and houses ([`TOp::ProdLen`], ...), `S <= T` of
//!   two of them ([`TOp::ProdSub`]; a name defined as a product counts as
//!   that product, a slot being bound once per plan and the state fixed
//!   while it runs), and, where the product is read wide, its few
//!   candidates set one by one ([`TOp::ProdSet`], for a region and some
//!   digits, neither all).
//!
//! Anything else (candidate sets, variables, `first`/`last`, `linked`)
//! keeps the wide form ([`TOp::wide`]), [`WOp::Wide`] and [`COp::Wide`]
//! reading a wide value's first words. The shapes are decided here, so the
//! evaluators ([`super::eval`]) have no runtime tests of an operand's
//! shape. A typed expression has the same value as the checked one it was
//! made from on every state and binding (the unit tests compare them on
//! random states); the plan's checked instructions stay as they are
//! (shared prefixes and count plans read them).

use super::fold::{Folded, Rest};
use super::ir::{
    CmpOp, Elem, Geo, Instr, IntOp, Op, OrChain, Order, Quant, QuantOp, SetOp, ShowPart, SumFn,
    Test, Ty,
};
use super::schedule::Scheduled;
use crate::grid::geometry::N_CELLS;

/// An expression of the typed stage: what the matcher evaluates
/// ([`super::eval`]). The checked operations keep their wide form (a
/// [`Bits`](crate::grid::bits::Bits) of twelve words, their operands typed); the others are the
/// typed forms this stage chooses by the static types of the operands.
#[derive(Clone, Debug)]
pub enum TOp {
    // The checked operations (see [`Op`]), evaluated wide.
    Int(i64),
    Slot(usize),
    Cands(Elem, Box<TOp>),
    Project(Elem, Box<TOp>),
    Linked(Box<TOp>),
    OrWhips(OrChain, Box<TOp>, Box<TOp>),
    Peers(Box<TOp>),
    First(Box<TOp>),
    Last(Box<TOp>),
    Len(Box<TOp>),
    SetBin(SetOp, Box<TOp>, Box<TOp>),
    IntBin(IntOp, Box<TOp>, Box<TOp>),
    Cmp(CmpOp, Box<TOp>, Box<TOp>),
    SetEq(bool, Box<TOp>, Box<TOp>),
    SubsetOf(Box<TOp>, Box<TOp>),
    In(Box<TOp>, Box<TOp>),
    And(Box<TOp>, Box<TOp>),
    Or(Box<TOp>, Box<TOp>),
    Not(Box<TOp>),
    Grid,
    /// A quantifier over a wide domain.
    Quant(Box<WideQuant>),
    // The typed forms.
    /// A set of digits or houses computed in one word.
    WSet(Box<WOp>),
    /// A set of cells computed in two words.
    CSet(Box<COp>),
    /// `|S|` of a set of digits or houses.
    WLen(Box<WOp>),
    /// `|S|` of a set of cells.
    CLen(Box<COp>),
    /// `|x|` of the cell or candidate bound in a slot: its mask's bits.
    MaskLen(Elem, usize),
    /// `|S|` of the candidates of some cells in some digits (see
    /// [`Prod`]).
    ProdLen(Box<Prod>),
    /// The candidates of a product (see [`Prod`]) of some cells and some
    /// digits, neither all: a wide set built from the cells of each
    /// digit, one bit per candidate, with no twelve-word set of its
    /// factors in between.
    ProdSet(Box<Prod>),
    /// `S <= T` of two products (see [`Prod`]; a name defined as one
    /// counts as one): each digit's cells of S within T's region, with no
    /// candidate set in between.
    ProdSub(Box<(Prod, Prod)>),
    /// `|cands(x) & S|` of the element (not a candidate) bound in a slot
    /// and a candidate set S that is no product (a moved part, say): a
    /// cell's mask against the nine bits S has in it, another element's
    /// candidates counted in one pass over the words, with no candidate
    /// set in between.
    ElemAndLen(Box<(Elem, usize, TOp)>),
    /// `S == T` (`true`) or `S != T` of digits or houses.
    WEq(bool, Box<(WOp, WOp)>),
    /// `S == T` (`true`) or `S != T` of cells.
    CEq(bool, Box<(COp, COp)>),
    /// `S <= T` of digits or houses.
    WSub(Box<(WOp, WOp)>),
    /// `S <= T` of cells.
    CSub(Box<(COp, COp)>),
    /// `x in S` of digits or houses.
    WIn(Box<(TOp, WOp)>),
    /// `x in S` of cells.
    CIn(Box<(TOp, COp)>),
    /// A comparison of two integers (counts, sizes, constants, names
    /// bound to integers), each read in place with no [`Val`](super::Val) in
    /// between.
    ICmp(CmpOp, Box<(TOp, TOp)>),
    /// A comparison of two bound elements (`A < B`, `z == w`) by their
    /// indices.
    XCmp(CmpOp, usize, usize),
    /// A flattened chain of `and`.
    AllOf(Box<[TOp]>),
    /// A flattened chain of `or`.
    AnyOf(Box<[TOp]>),
    /// A quantifier whose domain is iterated in its width.
    TQuant(Box<TQuant>),
    /// A single-valued function of an element (see [`Op::Geo`]).
    Geo(Geo, Elem, Box<TOp>),
    /// `cell(R, C)`.
    CellAt(Box<TOp>, Box<TOp>),
    /// The decided cells.
    Decided,
    /// The given cells.
    Givens,
    /// Every digit.
    Symbols,
    /// `value(C)`.
    Value(Box<TOp>),
    /// `below(C)`, `above(C)`: classic Sudoku has no order relations, so
    /// always empty (see [`Op::Order`]).
    Order(Order, Box<TOp>),
    /// `rise(Y, X)`, `run(Y, X)`: always 0 on classic Sudoku.
    Rise(bool, Box<TOp>, Box<TOp>),
    /// `S at H` (see [`Op::At`]).
    At(Elem, Elem, Box<TOp>, Box<TOp>),
    /// `sum`, `min` or `max` over a wide domain (see [`Quant::is_fold`]).
    Fold(Box<WideQuant>),
    /// `number(d)`, `sum(x)`, `area(x)`, `cages(x)` (see [`SumFn`]).
    Sum(SumFn, Elem, Box<TOp>),
}

/// A quantifier over a wide domain (the checked [`QuantOp`], its parts
/// typed): binds `slot` to each member of `domain` in turn and evaluates
/// `body`, stopping as soon as the answer is known.
#[derive(Clone, Debug)]
pub struct WideQuant {
    pub q: Quant,
    pub slot: usize,
    pub domain: TOp,
    pub body: TOp,
    /// Parts of `body` that are the same for every member (see
    /// [`super::hoist`]).
    pub pre: Vec<(usize, TOp)>,
}

impl TOp {
    /// The wide form of a checked expression: the same operations, on
    /// wide values (what targets, `then` parts, `parents` and show
    /// templates are evaluated as).
    pub fn wide(op: &Op) -> TOp {
        TOp::mirror(op, &mut TOp::wide)
    }

    /// `op`'s operation, its operands made by `f`.
    fn mirror(op: &Op, f: &mut dyn FnMut(&Op) -> TOp) -> TOp {
        let mut b = |x: &Op| Box::new(f(x));
        match op {
            Op::Int(i) => TOp::Int(*i),
            Op::Slot(s) => TOp::Slot(*s),
            Op::Grid => TOp::Grid,
            Op::Cands(e, x) => TOp::Cands(*e, b(x)),
            Op::Project(e, x) => TOp::Project(*e, b(x)),
            Op::Linked(x) => TOp::Linked(b(x)),
            Op::OrWhips(k, x, n) => TOp::OrWhips(*k, b(x), b(n)),
            Op::Peers(x) => TOp::Peers(b(x)),
            Op::First(x) => TOp::First(b(x)),
            Op::Last(x) => TOp::Last(b(x)),
            Op::Len(x) => TOp::Len(b(x)),
            Op::Not(x) => TOp::Not(b(x)),
            Op::SetBin(o, _, x, y) => TOp::SetBin(*o, b(x), b(y)),
            Op::IntBin(o, x, y) => TOp::IntBin(*o, b(x), b(y)),
            Op::Cmp(o, x, y) => TOp::Cmp(*o, b(x), b(y)),
            Op::SetEq(eq, x, y) => TOp::SetEq(*eq, b(x), b(y)),
            Op::SubsetOf(x, y) => TOp::SubsetOf(b(x), b(y)),
            Op::In(x, y) => TOp::In(b(x), b(y)),
            Op::And(x, y) => TOp::And(b(x), b(y)),
            Op::Or(x, y) => TOp::Or(b(x), b(y)),
            Op::Geo(g, e, x) => TOp::Geo(*g, *e, b(x)),
            Op::CellAt(x, y) => TOp::CellAt(b(x), b(y)),
            Op::Decided => TOp::Decided,
            Op::Givens => TOp::Givens,
            Op::Symbols => TOp::Symbols,
            Op::Value(x) => TOp::Value(b(x)),
            Op::Order(o, x) => TOp::Order(*o, b(x)),
            Op::Rise(l, x, y) => TOp::Rise(*l, b(x), b(y)),
            Op::Sum(g, e, x) => TOp::Sum(*g, *e, b(x)),
            Op::At(e, h, x, y) => TOp::At(*e, *h, b(x), b(y)),
            Op::Quant(qo) if qo.q.is_fold() => TOp::Fold(Box::new(WideQuant {
                q: qo.q,
                slot: qo.slot,
                domain: f(&qo.domain),
                body: f(&qo.body),
                pre: qo.pre.iter().map(|(t, p)| (*t, f(p))).collect(),
            })),
            Op::Quant(qo) => TOp::Quant(Box::new(WideQuant {
                q: qo.q,
                slot: qo.slot,
                domain: f(&qo.domain),
                body: f(&qo.body),
                pre: qo.pre.iter().map(|(t, p)| (*t, f(p))).collect(),
            })),
        }
    }
}

/// Every cell.
pub const ALL_CELLS: u128 = (1 << N_CELLS) - 1;

/// Every digit.
pub const ALL_DIGITS: u64 = 0x1FF;

/// A set of digits or houses (members below 64) as one word.
#[derive(Clone, Debug)]
pub enum WOp {
    /// A bound element or set.
    Slot(usize),
    /// `digits(x)` of the cell (`Elem::Cell`) or candidate bound in a slot.
    Mask(Elem, usize),
    /// `digits(S)` of a set of cells: the union of their masks.
    CellsMask(Box<COp>),
    /// `digits(H)` of the house bound in a slot.
    HouseDigits(usize),
    /// A constant (every digit).
    Const(u64),
    /// `digits(S)` of a product S ([`Prod`]).
    ProdDigits(Box<Prod>),
    /// `houses(S)` (those of the kinds in the mask: rows, columns,
    /// blocks) of a product S.
    ProdHouses(u64, Box<Prod>),
    Bin(SetOp, Box<WOp>, Box<WOp>),
    /// `select` over a domain of digits or houses.
    Select(Box<TQuant>),
    /// Any other expression, evaluated wide (its first word).
    Wide(TOp),
}

/// A set of cells as two words.
#[derive(Clone, Debug)]
pub enum COp {
    /// A bound cell or set of cells.
    Slot(usize),
    /// `peers(x)` of the cell bound in a slot.
    PeersOne(usize),
    /// `peers(S)`: the cells sharing a house with every cell of S.
    Peers(Box<COp>),
    /// `cells(H)` of the house bound in a slot.
    HouseCells(usize),
    /// A constant (every cell).
    Const(u128),
    /// Every cell of the houses of a set (live or not).
    HousesAll(Box<WOp>),
    /// Every cell of the house bound in a slot (live or not), read in
    /// place.
    HouseAll(usize),
    /// `cells(S)` of a product S ([`Prod`]).
    ProdCells(Box<Prod>),
    Bin(SetOp, Box<COp>, Box<COp>),
    /// `select` over a domain of cells.
    Select(Box<TQuant>),
    /// Any other expression, evaluated wide (its first two words).
    Wide(TOp),
}

/// A set of candidates that is a product: the live candidates of some
/// cells (`cells`, live or not) in some digits (`digits`). `grid` is one,
/// `cands(X)` of
/// cells or houses is one (in every digit), `cands(D)` of digits is one
/// (in every cell), and the intersection of two products is one (`cands(H)
/// & cands(D)`). Its cells, digits, houses and size are read from the
/// cells' digit masks, with no candidate set in between.
#[derive(Clone, Debug)]
pub struct Prod {
    pub cells: COp,
    pub digits: WOp,
}

/// A quantifier's domain, in its width.
#[derive(Clone, Debug)]
pub enum Dom {
    Word(WOp),
    Cells(COp),
    Wide(TOp),
}

/// A typed quantifier (see [`QuantOp`]).
#[derive(Clone, Debug)]
pub struct TQuant {
    /// Never a fold (a fold is a [`TOp::Fold`]).
    pub q: Test,
    pub slot: usize,
    pub dom: Dom,
    pub body: TOp,
    pub pre: Vec<(usize, TOp)>,
    /// When the body is `digits(x) <= S` with x the quantified cell or
    /// candidate and S the same for every member: S, computed once for
    /// all members (its slot, or the moved part itself when nothing else
    /// reads it).
    pub within: Option<(Elem, WOp)>,
}

/// The typed expressions of a plan, by instruction, and its other
/// expressions in their wide form.
#[derive(Clone, Debug)]
pub struct Typed {
    /// A definition's expression; a filter's condition (what
    /// [`super::fold`] left of it, `None` when nothing is left); a
    /// generator's `in` domain (`None` when it has none).
    pub ops: Vec<Option<TOp>>,
    /// Each generator's folded conditions.
    pub conds: Vec<Vec<TOp>>,
    /// Each generator's `then` parts (wide, as written).
    pub orders: Vec<Vec<TOp>>,
    /// The conclusion's candidates (wide).
    pub target: TOp,
    /// `parents EXPR` (wide).
    pub parents: Option<TOp>,
    /// The show template's values (wide).
    pub show: Vec<ShowPart<TOp>>,
    /// By instruction: a generator whose domain reads `decided` or
    /// `givens`, so its elements may have no live candidate (its domain is
    /// not cut to the live elements).
    pub dead: Vec<bool>,
    /// By instruction: a walk's typed expressions.
    pub walks: Vec<Option<TWalk>>,
    /// By instruction: a cluster generator's domain, typed.
    pub clusters: Vec<Option<TOp>>,
    /// By instruction: an ALS generator's `holding` digits, typed.
    pub holdings: Vec<Option<TOp>>,
}

/// The typed expressions of a walk ([`super::ir::Walk`]), as
/// [`super::walk`] evaluates them.
#[derive(Clone, Debug)]
pub struct TWalk {
    pub start: TOp,
    pub through: TOp,
    pub gather: Option<TOp>,
    pub when: Option<TOp>,
}

impl Typed {
    /// The typed expressions of the plan `s`, whose filters `folded`
    /// split.
    pub fn new(s: &Scheduled, folded: &Folded) -> Typed {
        let instrs = &s.instrs;
        let mut t = Typer {
            types: &s.slot_types,
            defs: Vec::new(),
        };
        for instr in instrs {
            if let Instr::Def { slot, op } = instr
                && let Some(p) = t.prod(op)
            {
                t.def(*slot, p);
            }
        }
        let ops = instrs
            .iter()
            .enumerate()
            .map(|(k, instr)| match instr {
                Instr::Gen { domain, .. } => domain.as_ref().map(|d| t.op(d)),
                Instr::Als(a) => a.domain.as_ref().map(|d| t.op(d)),
                Instr::Walk(_) | Instr::Cluster(_) => None,
                Instr::Def { op, .. } => Some(t.op(op)),
                Instr::Filter(op) => match folded.rest.get(k) {
                    Some(Rest::Nothing) => None,
                    Some(Rest::Part(rest)) => Some(t.op(rest)),
                    _ => Some(t.op(op)),
                },
            })
            .collect();
        let conds = folded
            .conds
            .iter()
            .map(|cs| cs.iter().map(|c| t.op(c)).collect())
            .collect();
        let orders = (instrs.iter())
            .map(|i| match i {
                Instr::Gen { order, .. } => order.iter().map(TOp::wide).collect(),
                _ => Vec::new(),
            })
            .collect();
        let dead = (instrs.iter())
            .map(|i| matches!(i, Instr::Gen { domain: Some(d), .. } if reads_decided(d)))
            .collect();
        let walks = (instrs.iter())
            .map(|i| match i {
                Instr::Walk(w) => Some(TWalk {
                    start: t.op(&w.start),
                    through: t.op(&w.through),
                    gather: w.gather.as_ref().map(|(_, g)| t.op(g)),
                    when: w.when.as_ref().map(|c| t.op(c)),
                }),
                _ => None,
            })
            .collect();
        let clusters = (instrs.iter())
            .map(|i| match i {
                Instr::Cluster(c) => Some(t.op(&c.domain)),
                _ => None,
            })
            .collect();
        let holdings = (instrs.iter())
            .map(|i| match i {
                Instr::Als(a) => a.holding.as_ref().map(|h| t.op(h)),
                _ => None,
            })
            .collect();
        Typed {
            holdings,
            dead,
            walks,
            clusters,
            ops,
            conds,
            orders,
            target: TOp::wide(&s.target),
            parents: s.parents.as_ref().map(TOp::wide),
            show: s.show.iter().map(|p| p.map(TOp::wide)).collect(),
        }
    }
}

/// How many words a set of an element type needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    /// Digits and houses: members below 64.
    Word,
    /// Cells: members below 128.
    Cells,
    /// Candidates, variables; and anything that is not a set.
    Wide,
}

/// How many words a set of a type's elements needs.
trait Wide {
    fn width(self) -> Width;
}

impl Wide for Ty {
    fn width(self) -> Width {
        match self.elem() {
            Some(Elem::Digit | Elem::Row | Elem::Column | Elem::Block | Elem::House) => Width::Word,
            Some(Elem::Cell) => Width::Cells,
            _ => Width::Wide,
        }
    }
}

/// The rewriting of a plan's expressions, by the checker's types of its
/// slots.
pub(super) struct Typer<'a> {
    /// The checker's type of each slot ([`Scheduled::slot_types`]).
    pub(super) types: &'a [Ty],
    /// The product ([`Prod`]) each name defined as one holds: a slot is
    /// bound once in a plan, and the state does not change while it runs,
    /// so the product's value, computed again, is the slot's.
    pub(super) defs: Vec<Option<Prod>>,
}

impl Typer<'_> {
    pub(super) fn def(&mut self, slot: usize, p: Prod) {
        if self.defs.len() <= slot {
            self.defs.resize(slot + 1, None);
        }
        self.defs[slot] = Some(p);
    }

    /// The product `op` is, or the one the name `op` was defined as.
    fn prod_or_def(&self, op: &Op) -> Option<Prod> {
        match op {
            Op::Slot(s) => self.defs.get(*s).cloned().flatten(),
            _ => self.prod(op),
        }
    }

    /// The checker's type of slot `s`.
    fn slot(&self, s: usize) -> Ty {
        self.types.get(s).copied().unwrap_or(Ty::Error)
    }

    /// The type of an expression's value (read off it: [`Op::ty`]).
    fn kind(&self, op: &Op) -> Ty {
        op.ty(self.types)
    }

    /// The width both operands of a comparison of sets have, if the same.
    fn both(&self, a: &Op, b: &Op) -> Width {
        let (x, y) = (self.kind(a).width(), self.kind(b).width());
        if x == y { x } else { Width::Wide }
    }

    /// The typed form of an expression.
    pub(super) fn op(&self, op: &Op) -> TOp {
        match op {
            Op::Int(_) | Op::Slot(_) | Op::Grid | Op::Decided | Op::Givens | Op::Symbols => {
                TOp::wide(op)
            }
            Op::Len(x) => match self.kind(x).width() {
                Width::Word => TOp::WLen(Box::new(self.word(x))),
                Width::Cells => TOp::CLen(Box::new(self.cells(x))),
                Width::Wide => match &**x {
                    Op::Cands(e @ (Elem::Cell | Elem::Cand), y) if matches!(**y, Op::Slot(s) if self.slot(s) == Ty::One(*e)) =>
                    {
                        let Op::Slot(s) = **y else {
                            unreachable!("matched above")
                        };
                        TOp::MaskLen(*e, s)
                    }
                    _ => match (self.prod(x), self.cell_and(x)) {
                        (Some(p), _) => TOp::ProdLen(Box::new(p)),
                        (None, Some((e, s, other))) => {
                            TOp::ElemAndLen(Box::new((e, s, self.op(other))))
                        }
                        (None, None) => TOp::Len(Box::new(self.op(x))),
                    },
                },
            },
            Op::SetEq(eq, x, y) => match self.both(x, y) {
                Width::Word => TOp::WEq(*eq, Box::new((self.word(x), self.word(y)))),
                Width::Cells => TOp::CEq(*eq, Box::new((self.cells(x), self.cells(y)))),
                Width::Wide => TOp::SetEq(*eq, Box::new(self.op(x)), Box::new(self.op(y))),
            },
            Op::SubsetOf(x, y) => match self.both(x, y) {
                Width::Word => TOp::WSub(Box::new((self.word(x), self.word(y)))),
                Width::Cells => TOp::CSub(Box::new((self.cells(x), self.cells(y)))),
                Width::Wide => match (self.prod_or_def(x), self.prod_or_def(y)) {
                    (Some(p), Some(q)) => TOp::ProdSub(Box::new((p, q))),
                    _ => TOp::SubsetOf(Box::new(self.op(x)), Box::new(self.op(y))),
                },
            },
            // A comparison of two integers: no test of its operands' kinds
            // when it runs.
            Op::Cmp(c, x, y) if self.kind(x) == Ty::Int && self.kind(y) == Ty::Int => {
                TOp::ICmp(*c, Box::new((self.op(x), self.op(y))))
            }
            // Two bound elements: their indices.
            Op::Cmp(c, x, y)
                if matches!((&**x, &**y), (Op::Slot(_), Op::Slot(_)))
                    && matches!(self.kind(x), Ty::One(_))
                    && matches!(self.kind(y), Ty::One(_)) =>
            {
                let (Op::Slot(a), Op::Slot(b)) = (&**x, &**y) else {
                    unreachable!("matched above")
                };
                TOp::XCmp(*c, *a, *b)
            }
            Op::In(x, y) if matches!(self.kind(x), Ty::One(_)) => match self.both(x, y) {
                Width::Word => TOp::WIn(Box::new((self.op(x), self.word(y)))),
                Width::Cells => TOp::CIn(Box::new((self.op(x), self.cells(y)))),
                Width::Wide => TOp::In(Box::new(self.op(x)), Box::new(self.op(y))),
            },
            Op::And(..) | Op::Or(..) => {
                let and = matches!(op, Op::And(..));
                let mut terms = Vec::new();
                flatten(op, and, &mut terms);
                let terms: Box<[TOp]> = terms.into_iter().map(|t| self.op(t)).collect();
                if and {
                    TOp::AllOf(terms)
                } else {
                    TOp::AnyOf(terms)
                }
            }
            Op::Quant(qo) if !qo.q.is_fold() => match (qo.q, self.kind(op).width()) {
                (Quant::Select, Width::Word) => TOp::WSet(Box::new(self.word(op))),
                (Quant::Select, Width::Cells) => TOp::CSet(Box::new(self.cells(op))),
                _ => TOp::TQuant(Box::new(self.quant(qo))),
            },
            Op::SetBin(..) | Op::Project(..) | Op::Peers(_) => match self.kind(op).width() {
                Width::Word => TOp::WSet(Box::new(self.word(op))),
                Width::Cells => TOp::CSet(Box::new(self.cells(op))),
                Width::Wide => match self.prod(op) {
                    // A product of a region and some digits (`cands(H) &
                    // cands(X)`): its few candidates set one by one.
                    Some(p)
                        if !matches!(p.cells, COp::Const(ALL_CELLS))
                            && !matches!(p.digits, WOp::Const(ALL_DIGITS)) =>
                    {
                        TOp::ProdSet(Box::new(p))
                    }
                    _ => self.same(op),
                },
            },
            _ => self.same(op),
        }
    }

    /// `op` with its operands typed (the operation itself kept).
    fn same(&self, op: &Op) -> TOp {
        TOp::mirror(op, &mut |x| self.op(x))
    }

    /// `cands(x) & S` (or `S & cands(x)`) of a bound element x (not a
    /// candidate) and a set of candidates S: x's type and slot, and S
    /// ([`TOp::ElemAndLen`] counts it).
    fn cell_and<'a>(&self, op: &'a Op) -> Option<(Elem, usize, &'a Op)> {
        let Op::SetBin(SetOp::Inter, _, a, b) = op else {
            return None;
        };
        [(a, b), (b, a)].into_iter().find_map(|(p, q)| match &**p {
            Op::Cands(e, y)
                if *e != Elem::Cand
                    && matches!(**y, Op::Slot(s) if self.slot(s) == Ty::One(*e))
                    && matches!(self.kind(q), Ty::Set(Elem::Cand) | Ty::One(Elem::Cand)) =>
            {
                let Op::Slot(s) = **y else {
                    unreachable!("matched above")
                };
                Some((*e, s, &**q))
            }
            _ => None,
        })
    }

    /// The product ([`Prod`]) a candidate set is, if it is one.
    pub(super) fn prod(&self, op: &Op) -> Option<Prod> {
        match op {
            Op::Cands(e, x) => match (*e, self.kind(x)) {
                // The live candidates of a candidate set: the same product.
                (Elem::Cand, _) => self.prod(x),
                (Elem::Digit, k) if k.width() == Width::Word => Some(Prod {
                    cells: COp::Const(ALL_CELLS),
                    digits: self.word(x),
                }),
                (Elem::Cell, k) if k.width() == Width::Cells => Some(Prod {
                    cells: self.cells(x),
                    digits: WOp::Const(ALL_DIGITS),
                }),
                // One bound house: its cells from the table, in place.
                (h, Ty::One(k)) if h.is_house() && k.is_house() && matches!(**x, Op::Slot(_)) => {
                    let Op::Slot(s) = **x else {
                        unreachable!("matched above")
                    };
                    Some(Prod {
                        cells: COp::HouseAll(s),
                        digits: WOp::Const(ALL_DIGITS),
                    })
                }
                (h, k) if h.is_house() && k.elem().is_some_and(Elem::is_house) => Some(Prod {
                    cells: COp::HousesAll(Box::new(self.word(x))),
                    digits: WOp::Const(ALL_DIGITS),
                }),
                _ => None,
            },
            Op::Grid => Some(Prod {
                cells: COp::Const(ALL_CELLS),
                digits: WOp::Const(ALL_DIGITS),
            }),
            Op::SetBin(SetOp::Inter, _, a, b) => {
                let (p, q) = (self.prod(a)?, self.prod(b)?);
                let cells = match (p.cells, q.cells) {
                    (COp::Const(ALL_CELLS), c) | (c, COp::Const(ALL_CELLS)) => c,
                    (c, d) => COp::Bin(SetOp::Inter, Box::new(c), Box::new(d)),
                };
                let digits = match (p.digits, q.digits) {
                    (WOp::Const(ALL_DIGITS), d) | (d, WOp::Const(ALL_DIGITS)) => d,
                    (c, d) => WOp::Bin(SetOp::Inter, Box::new(c), Box::new(d)),
                };
                Some(Prod { cells, digits })
            }
            _ => None,
        }
    }

    /// A set of digits or houses (or one) as a word.
    fn word(&self, op: &Op) -> WOp {
        match op {
            Op::Slot(s) => WOp::Slot(*s),
            Op::Project(Elem::Digit, x) => match &**x {
                Op::Cands(inner, y) => match (&**y, self.kind(y)) {
                    (Op::Slot(s), Ty::One(e @ (Elem::Cell | Elem::Cand))) if e == *inner => {
                        WOp::Mask(e, *s)
                    }
                    (Op::Slot(s), Ty::One(h)) if h == *inner && h.is_house() => {
                        WOp::HouseDigits(*s)
                    }
                    (_, Ty::Set(Elem::Cell)) if *inner == Elem::Cell => {
                        WOp::CellsMask(Box::new(self.cells(y)))
                    }
                    _ => match self.prod(x) {
                        Some(p) => WOp::ProdDigits(Box::new(p)),
                        None => WOp::Wide(self.same(op)),
                    },
                },
                _ => match self.prod(x) {
                    Some(p) => WOp::ProdDigits(Box::new(p)),
                    None => WOp::Wide(self.same(op)),
                },
            },
            Op::Project(e, x) if e.is_house() && self.prod(x).is_some() => {
                let keep: u64 = match e {
                    Elem::Row => 0x1FF,
                    Elem::Column => 0x1FF << 9,
                    Elem::Block => 0x1FF << 18,
                    _ => 0x7FF_FFFF,
                };
                let p = self.prod(x).expect("matched above");
                WOp::ProdHouses(keep, Box::new(p))
            }
            Op::SetBin(o, _, x, y) if self.both(x, y) == Width::Word => {
                WOp::Bin(*o, Box::new(self.word(x)), Box::new(self.word(y)))
            }
            Op::Quant(qo) if qo.q == Quant::Select => WOp::Select(Box::new(self.quant(qo))),
            _ => WOp::Wide(self.same(op)),
        }
    }

    /// A set of cells (or one) as two words.
    fn cells(&self, op: &Op) -> COp {
        match op {
            Op::Slot(s) => COp::Slot(*s),
            Op::Peers(x) => match (&**x, self.kind(x)) {
                (Op::Slot(s), Ty::One(Elem::Cell)) => COp::PeersOne(*s),
                (_, k) if k.width() == Width::Cells => COp::Peers(Box::new(self.cells(x))),
                _ => COp::Wide(self.same(op)),
            },
            Op::Project(Elem::Cell, x) => match &**x {
                Op::Cands(h, y)
                    if h.is_house()
                        && matches!(**y, Op::Slot(s) if self.slot(s) == Ty::One(*h)) =>
                {
                    let Op::Slot(s) = **y else {
                        unreachable!("matched above")
                    };
                    COp::HouseCells(s)
                }
                _ => match self.prod(x) {
                    Some(p) => COp::ProdCells(Box::new(p)),
                    None => COp::Wide(self.same(op)),
                },
            },
            Op::SetBin(o, _, x, y) if self.both(x, y) == Width::Cells => {
                COp::Bin(*o, Box::new(self.cells(x)), Box::new(self.cells(y)))
            }
            Op::Quant(qo) if qo.q == Quant::Select => COp::Select(Box::new(self.quant(qo))),
            _ => COp::Wide(self.same(op)),
        }
    }

    fn quant(&self, qo: &QuantOp) -> TQuant {
        let dom = match self.kind(&qo.domain).width() {
            Width::Word => Dom::Word(self.word(&qo.domain)),
            Width::Cells => Dom::Cells(self.cells(&qo.domain)),
            Width::Wide => Dom::Wide(self.op(&qo.domain)),
        };
        let body = self.op(&qo.body);
        let mut pre: Vec<(usize, TOp)> = qo.pre.iter().map(|(t, p)| (*t, self.op(p))).collect();
        let within = match &body {
            TOp::WSub(ab) => match &**ab {
                (WOp::Mask(e, s), WOp::Slot(t)) if *s == qo.slot && *t != qo.slot => {
                    // A moved part read by this condition only: computed
                    // in place of its slot.
                    match pre
                        .iter()
                        .position(|(u, p)| u == t && matches!(p, TOp::WSet(_)))
                    {
                        Some(k) => match pre.remove(k).1 {
                            TOp::WSet(w) => Some((*e, *w)),
                            _ => unreachable!("matched above"),
                        },
                        None => Some((*e, WOp::Slot(*t))),
                    }
                }
                _ => None,
            },
            _ => None,
        };
        TQuant {
            q: (qo.q.test()).expect("a fold is typed as TOp::Fold, not as a TQuant"),
            slot: qo.slot,
            dom,
            body,
            pre,
            within,
        }
    }
}

/// Does `op` read the decided or the given cells?
fn reads_decided(op: &Op) -> bool {
    matches!(op, Op::Decided | Op::Givens | Op::Order(..))
        || op.operands().into_iter().flatten().any(reads_decided)
}

/// The terms of a chain of `and` (`and` true) or of `or`, in order.
fn flatten<'a>(op: &'a Op, and: bool, out: &mut Vec<&'a Op>) {
    match op {
        Op::And(a, b) if and => {
            flatten(a, and, out);
            flatten(b, and, out);
        }
        Op::Or(a, b) if !and => {
            flatten(a, and, out);
            flatten(b, and, out);
        }
        _ => out.push(op),
    }
}
