//! Typed evaluation: a plan's expressions recompiled, once, by the static
//! type of their values.
//!
//! Every value of the language is carried as a [`Bits`] (729 bits, twelve
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
//! - the operations on them ([`Op::WLen`], [`Op::WEq`], [`Op::WSub`],
//!   [`Op::WIn`] and their cell forms; [`Op::MaskLen`] for `|x|` of one
//!   cell or candidate), quantifiers whose domain is iterated in its own
//!   width ([`TQuant`]), and flattened `and`/`or` chains ([`Op::AllOf`],
//!   [`Op::AnyOf`], whose terms the matcher evaluates in place, two chains
//!   deep);
//! - comparisons whose operands' types are known: of two integers
//!   ([`Op::ICmp`], each read with no [`Val`] in between) and of two bound
//!   elements ([`Op::XCmp`], by index).
//!
//! - products of cells and digits ([`Prod`]: `cands(H) & cands(X)` and
//!   the like) read from the cells of each digit's live candidates: their
//!   size, cells, digits and houses ([`Op::ProdLen`], ...), `S <= T` of
//!   two of them ([`Op::ProdSub`]; a name defined as a product counts as
//!   that product, a slot being bound once per plan and the state fixed
//!   while it runs), and, where the product is read wide, its few
//!   candidates set one by one ([`Op::ProdSet`], for a region and some
//!   digits, neither all).
//!
//! Anything else (candidate sets, variables, `first`/`last`, `linked`)
//! keeps the wide form, [`WOp::Wide`] and [`COp::Wide`] reading a wide
//! value's first words. The shapes are decided here, so the evaluators
//! have no runtime tests of an operand's shape. A typed expression has
//! the same value as the one it was made from on every state and binding
//! (the unit tests compare them on random states); the plan's written
//! instructions stay as they are (shared prefixes and count plans read
//! them).

use super::fold::{Folded, Rest};
use super::pattern::{
    Elem, Env, Instr, Op, Quant, QuantOp, SetOp, Val, cond, digit_mask, house_digits_mask,
};
use crate::grid::bits::Bits;
use crate::grid::geometry::{CELL_HOUSE_BITS, CELL_PEERS, HOUSE_CELL_WORDS, N_CELLS};
use crate::grid::state::row_bits;

/// The static type of an expression's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    One(Elem),
    Set(Elem),
    /// Not known here (an error stand-in): left wide.
    Unknown,
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

impl Kind {
    fn elem(self) -> Option<Elem> {
        match self {
            Kind::One(e) | Kind::Set(e) => Some(e),
            _ => None,
        }
    }

    fn width(self) -> Width {
        match self.elem() {
            Some(Elem::Digit | Elem::Row | Elem::Column | Elem::Block | Elem::House) => Width::Word,
            Some(Elem::Cell) => Width::Cells,
            _ => Width::Wide,
        }
    }
}

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
    Wide(Op),
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
    Wide(Op),
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

impl Prod {
    /// Calls `f` with the cells of each digit of the product that has
    /// candidates in its region (those cells, as bits of cells), read from
    /// the live candidates' cells by digit (the [`Env`]'s copy of
    /// [`DigitCells`]). The region
    /// and the digits are both evaluated, in that order, whatever they
    /// are.
    #[inline(always)]
    fn by_digit(&self, cx: &mut Env, mut f: impl FnMut(usize, u128)) {
        let region = self.cells.eval(cx);
        let digits = self.digits.eval(cx) & ALL_DIGITS;
        if region == 0 || digits == 0 {
            return;
        }
        let of = cx.dc;
        let mut m = digits;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let x = of[d] & region;
            if x != 0 {
                f(d, x);
            }
        }
    }

    /// The number of candidates.
    pub fn len(&self, cx: &mut Env) -> i64 {
        let mut n = 0;
        self.by_digit(cx, |_, x| n += i64::from(x.count_ones()));
        n
    }

    /// The candidates, as a wide set: bit `9c + d` for each cell `c` of
    /// each digit `d` ([`Op::ProdSet`]; made only for products with
    /// few candidates, of a region and some digits).
    pub fn set(&self, cx: &mut Env) -> Bits {
        let mut b = Bits::EMPTY;
        self.by_digit(cx, |d, mut x| {
            while x != 0 {
                b.insert(9 * x.trailing_zeros() as usize + d);
                x &= x - 1;
            }
        });
        b
    }

    /// Is every candidate of this product one of `other`'s (its cell in
    /// `other`'s region, its digit among `other`'s digits)? Both regions
    /// and digit sets are evaluated, whatever they are.
    pub fn within(&self, other: &Prod, cx: &mut Env) -> bool {
        let region = other.cells.eval(cx);
        let digits = other.digits.eval(cx);
        let mut inside = true;
        self.by_digit(cx, |d, x| {
            inside &= digits >> d & 1 != 0 && x & !region == 0;
        });
        inside
    }

    /// The digits of the candidates.
    fn digits(&self, cx: &mut Env) -> u64 {
        let mut all = 0;
        self.by_digit(cx, |d, _| all |= 1 << d);
        all
    }

    /// The cells of the candidates: the cells of each of the digits that
    /// hold a live candidate, in the region.
    fn cells(&self, cx: &mut Env) -> u128 {
        let region = self.cells.eval(cx);
        let digits = self.digits.eval(cx) & ALL_DIGITS;
        if region == 0 || digits == 0 {
            return 0;
        }
        let of = cx.dc;
        let all = if digits == ALL_DIGITS {
            of[9]
        } else {
            let mut m = digits;
            let mut all = 0;
            while m != 0 {
                all |= of[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            all
        };
        all & region
    }
}

/// The cells of each digit's live candidates (bit c for cell c), and last
/// the cells with any live candidate, of the last candidate set asked
/// about on this thread: an [`Env`] takes a copy of them when it is made
/// (once per search of a plan), and [`Prod::cells`] reads that instead of
/// gathering the cells of 81-bit rows on every call (the searches run on
/// one state mostly ask about that state).
struct DigitCells {
    cands: Bits,
    cells: [u128; 10],
}

impl DigitCells {
    /// The cells of `cands` by digit, computed when `cands` is not the
    /// set asked about last.
    #[inline]
    fn of(&mut self, cands: &Bits) -> &[u128; 10] {
        // Word by word, with no call: most calls find the same set.
        let differ = (self.cands.0.iter())
            .zip(&cands.0)
            .fold(0, |a, (x, y)| a | (x ^ y));
        if differ != 0 {
            self.cands = *cands;
            self.cells = digit_cells(cands);
        }
        &self.cells
    }
}

/// `f` of the cells of each digit's candidates in `cands`, then of any
/// digit's ([`DigitCells`]: kept from the last call with the same set).
#[inline]
pub(super) fn with_digit_cells<R>(cands: &Bits, f: impl FnOnce(&[u128; 10]) -> R) -> R {
    DIGIT_CELLS.with_borrow_mut(|dc| f(dc.of(cands)))
}

/// A copy of the cells of each digit's candidates in `cands`, then of any
/// digit's ([`with_digit_cells`]): what an [`Env`] reads them from, taken
/// once per search or evaluation rather than from the thread's cache on
/// every use.
#[inline]
pub(super) fn digit_cells_copy(cands: &Bits) -> [u128; 10] {
    with_digit_cells(cands, |dc| *dc)
}

/// The houses that hold a cell of `cells`, as bits of houses: rows
/// 0 to 8, columns 9 to 17, blocks 18 to 26 (a band's three rows ORed
/// give its columns, and its blocks in groups of three).
pub(super) fn houses_of_cells(cells: u128) -> u64 {
    let (mut rows, mut cols, mut blocks) = (0u64, 0u64, 0u64);
    for band in 0..3 {
        let mut or = 0;
        for i in 0..3 {
            let r = 3 * band + i;
            let m = (cells >> (9 * r)) as u64 & 0x1FF;
            rows |= u64::from(m != 0) << r;
            or |= m;
        }
        cols |= or;
        for stack in 0..3 {
            blocks |= u64::from(or >> (3 * stack) & 7 != 0) << (3 * band + stack);
        }
    }
    rows | cols << 9 | blocks << 18
}

thread_local! {
    static DIGIT_CELLS: std::cell::RefCell<DigitCells> = const {
        std::cell::RefCell::new(DigitCells {
            cands: Bits::EMPTY,
            cells: [0; 10],
        })
    };
}

/// The cells of each digit's candidates in `cands`, then the cells of
/// any.
#[inline(never)]
fn digit_cells(cands: &Bits) -> [u128; 10] {
    let mut out = [0u128; 10];
    for r in 0..9 {
        let row = row_bits(cands, r);
        if row == 0 {
            continue;
        }
        for (d, cells) in out[..9].iter_mut().enumerate() {
            // Bit 9k + d of the row to bit 9k, then bit 9k to bit 64 + k:
            // the terms 9k + 8j of the product are all distinct (no
            // carries), and j = 8 - k puts bit 9k at 64 + k.
            let low = (row >> d) & GROUP_LOWS;
            let m = (low.wrapping_mul(GATHER) >> 64) as u64 & 0x1FF;
            *cells |= u128::from(m) << (9 * r);
        }
    }
    out[9] = out[..9].iter().fold(0, |a, &x| a | x);
    out
}

/// Bit `9k` for each of a row's cells `k`.
const GROUP_LOWS: u128 = {
    let mut m = 0;
    let mut k = 0;
    while k < 9 {
        m |= 1 << (9 * k);
        k += 1;
    }
    m
};

/// Bit `8j` for j = 0 to 8: see [`Prod::cells`].
const GATHER: u128 = {
    let mut m = 0;
    let mut j = 0;
    while j < 9 {
        m |= 1 << (8 * j);
        j += 1;
    }
    m
};

/// Every cell.
const ALL_CELLS: u128 = (1 << N_CELLS) - 1;
/// Every digit.
const ALL_DIGITS: u64 = 0x1FF;

/// A quantifier's domain, in its width.
#[derive(Clone, Debug)]
pub enum Dom {
    Word(WOp),
    Cells(COp),
    Wide(Op),
}

/// A typed quantifier (see [`QuantOp`]).
#[derive(Clone, Debug)]
pub struct TQuant {
    pub q: Quant,
    pub slot: usize,
    pub dom: Dom,
    pub body: Op,
    pub pre: Vec<(usize, Op)>,
    /// When the body is `digits(x) <= S` with x the quantified cell or
    /// candidate and S the same for every member: S, computed once for
    /// all members (its slot, or the moved part itself when nothing else
    /// reads it).
    pub within: Option<(Elem, WOp)>,
}

/// The typed expressions of a plan, by instruction.
#[derive(Clone, Debug, Default)]
pub struct Typed {
    /// A definition's expression; a filter's condition (what
    /// [`super::fold`] left of it, `None` when nothing is left); a
    /// generator's `in` domain (`None` when it has none).
    pub ops: Vec<Option<Op>>,
    /// Each generator's folded conditions.
    pub conds: Vec<Vec<Op>>,
}

impl Typed {
    /// The typed expressions of `instrs`, whose filters `folded` split.
    pub fn new(instrs: &[Instr], folded: &Folded) -> Typed {
        let mut t = Typer {
            kinds: Vec::new(),
            defs: Vec::new(),
        };
        for instr in instrs {
            match instr {
                Instr::Gen {
                    slot,
                    elem,
                    size,
                    domain,
                    order,
                } => {
                    for op in domain.iter().chain(order) {
                        t.learn(op);
                    }
                    let k = if size.is_some() {
                        Kind::Set(*elem)
                    } else {
                        Kind::One(*elem)
                    };
                    t.set(*slot, k);
                }
                Instr::Def { slot, op } => {
                    t.learn(op);
                    let k = t.kind(op);
                    t.set(*slot, k);
                    if let Some(p) = t.prod(op) {
                        t.def(*slot, p);
                    }
                }
                Instr::Filter(op) => t.learn(op),
            }
        }
        let ops = instrs
            .iter()
            .enumerate()
            .map(|(k, instr)| match instr {
                Instr::Gen { domain, .. } => domain.as_ref().map(|d| t.op(d)),
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
        Typed { ops, conds }
    }
}

/// The types of a plan's slots, and the rewriting.
struct Typer {
    kinds: Vec<Kind>,
    /// The product ([`Prod`]) each name defined as one holds: a slot is
    /// bound once in a plan, and the state does not change while it runs,
    /// so the product's value, computed again, is the slot's.
    defs: Vec<Option<Prod>>,
}

impl Typer {
    fn def(&mut self, slot: usize, p: Prod) {
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

    fn set(&mut self, slot: usize, k: Kind) {
        if self.kinds.len() <= slot {
            self.kinds.resize(slot + 1, Kind::Unknown);
        }
        self.kinds[slot] = k;
    }

    fn slot(&self, s: usize) -> Kind {
        self.kinds.get(s).copied().unwrap_or(Kind::Unknown)
    }

    /// Records the types of the slots bound inside `op` (quantified names
    /// and hoisted parts), outer ones first.
    fn learn(&mut self, op: &Op) {
        if let Op::Quant(qo) = op {
            self.learn(&qo.domain);
            for (t, p) in &qo.pre {
                self.learn(p);
                let k = self.kind(p);
                self.set(*t, k);
            }
            let k = self
                .kind(&qo.domain)
                .elem()
                .map_or(Kind::Unknown, Kind::One);
            self.set(qo.slot, k);
            self.learn(&qo.body);
            return;
        }
        for x in op.operands().into_iter().flatten() {
            self.learn(x);
        }
    }

    /// The type of an (untyped) expression's value.
    fn kind(&self, op: &Op) -> Kind {
        match op {
            Op::Int(_) | Op::Len(_) | Op::IntBin(..) => Kind::Int,
            Op::Slot(s) => self.slot(*s),
            Op::Cands(..) | Op::Linked(_) | Op::Grid => Kind::Set(Elem::Cand),
            Op::Project(e, _) => Kind::Set(*e),
            Op::Peers(_) => Kind::Set(Elem::Cell),
            Op::First(x) | Op::Last(x) => self.kind(x).elem().map_or(Kind::Unknown, Kind::One),
            Op::SetBin(_, a, b) => match (self.kind(a).elem(), self.kind(b).elem()) {
                (Some(x), Some(y)) => x.join(y).map_or(Kind::Unknown, Kind::Set),
                _ => Kind::Unknown,
            },
            Op::Cmp(..)
            | Op::SetEq(..)
            | Op::SubsetOf(..)
            | Op::In(..)
            | Op::And(..)
            | Op::Or(..)
            | Op::Not(_) => Kind::Bool,
            Op::Quant(qo) => match qo.q {
                Quant::Count => Kind::Int,
                Quant::Select => self
                    .kind(&qo.domain)
                    .elem()
                    .map_or(Kind::Unknown, Kind::Set),
                _ => Kind::Bool,
            },
            _ => Kind::Unknown,
        }
    }

    /// The width both operands of a comparison of sets have, if the same.
    fn both(&self, a: &Op, b: &Op) -> Width {
        let (x, y) = (self.kind(a).width(), self.kind(b).width());
        if x == y { x } else { Width::Wide }
    }

    /// The typed form of an expression.
    fn op(&self, op: &Op) -> Op {
        match op {
            Op::Int(_) | Op::Slot(_) | Op::Grid => op.clone(),
            Op::Len(x) => match self.kind(x).width() {
                Width::Word => Op::WLen(Box::new(self.word(x))),
                Width::Cells => Op::CLen(Box::new(self.cells(x))),
                Width::Wide => match &**x {
                    Op::Cands(e @ (Elem::Cell | Elem::Cand), y) if matches!(**y, Op::Slot(s) if self.slot(s) == Kind::One(*e)) =>
                    {
                        let Op::Slot(s) = **y else {
                            unreachable!("matched above")
                        };
                        Op::MaskLen(*e, s)
                    }
                    _ => match (self.prod(x), self.cell_and(x)) {
                        (Some(p), _) => Op::ProdLen(Box::new(p)),
                        (None, Some((e, s, other))) => {
                            Op::ElemAndLen(Box::new((e, s, self.op(other))))
                        }
                        (None, None) => Op::Len(Box::new(self.op(x))),
                    },
                },
            },
            Op::SetEq(eq, x, y) => match self.both(x, y) {
                Width::Word => Op::WEq(*eq, Box::new((self.word(x), self.word(y)))),
                Width::Cells => Op::CEq(*eq, Box::new((self.cells(x), self.cells(y)))),
                Width::Wide => Op::SetEq(*eq, Box::new(self.op(x)), Box::new(self.op(y))),
            },
            Op::SubsetOf(x, y) => match self.both(x, y) {
                Width::Word => Op::WSub(Box::new((self.word(x), self.word(y)))),
                Width::Cells => Op::CSub(Box::new((self.cells(x), self.cells(y)))),
                Width::Wide => match (self.prod_or_def(x), self.prod_or_def(y)) {
                    (Some(p), Some(q)) => Op::ProdSub(Box::new((p, q))),
                    _ => Op::SubsetOf(Box::new(self.op(x)), Box::new(self.op(y))),
                },
            },
            // A comparison of two integers: no test of its operands' kinds
            // when it runs.
            Op::Cmp(c, x, y) if self.kind(x) == Kind::Int && self.kind(y) == Kind::Int => {
                Op::ICmp(*c, Box::new((self.op(x), self.op(y))))
            }
            // Two bound elements: their indices.
            Op::Cmp(c, x, y)
                if matches!((&**x, &**y), (Op::Slot(_), Op::Slot(_)))
                    && matches!(self.kind(x), Kind::One(_))
                    && matches!(self.kind(y), Kind::One(_)) =>
            {
                let (Op::Slot(a), Op::Slot(b)) = (&**x, &**y) else {
                    unreachable!("matched above")
                };
                Op::XCmp(*c, *a, *b)
            }
            Op::In(x, y) if matches!(self.kind(x), Kind::One(_)) => match self.both(x, y) {
                Width::Word => Op::WIn(Box::new((self.op(x), self.word(y)))),
                Width::Cells => Op::CIn(Box::new((self.op(x), self.cells(y)))),
                Width::Wide => Op::In(Box::new(self.op(x)), Box::new(self.op(y))),
            },
            Op::And(..) | Op::Or(..) => {
                let and = matches!(op, Op::And(..));
                let mut terms = Vec::new();
                flatten(op, and, &mut terms);
                let terms: Box<[Op]> = terms.into_iter().map(|t| self.op(t)).collect();
                if and {
                    Op::AllOf(terms)
                } else {
                    Op::AnyOf(terms)
                }
            }
            Op::Quant(qo) => match (qo.q, self.kind(op).width()) {
                (Quant::Select, Width::Word) => Op::WSet(Box::new(self.word(op))),
                (Quant::Select, Width::Cells) => Op::CSet(Box::new(self.cells(op))),
                _ => Op::TQuant(Box::new(self.quant(qo))),
            },
            Op::SetBin(..) | Op::Project(..) | Op::Peers(_) => match self.kind(op).width() {
                Width::Word => Op::WSet(Box::new(self.word(op))),
                Width::Cells => Op::CSet(Box::new(self.cells(op))),
                Width::Wide => match self.prod(op) {
                    // A product of a region and some digits (`cands(H) &
                    // cands(X)`): its few candidates set one by one.
                    Some(p)
                        if !matches!(p.cells, COp::Const(ALL_CELLS))
                            && !matches!(p.digits, WOp::Const(ALL_DIGITS)) =>
                    {
                        Op::ProdSet(Box::new(p))
                    }
                    _ => self.same(op),
                },
            },
            _ => self.same(op),
        }
    }

    /// `op` with its operands typed (the operation itself kept).
    fn same(&self, op: &Op) -> Op {
        let mut out = op.clone();
        let typed: Vec<Op> = op
            .operands()
            .into_iter()
            .flatten()
            .map(|x| self.op(x))
            .collect();
        for (slot, t) in out.operands_mut().into_iter().flatten().zip(typed) {
            *slot = t;
        }
        out
    }

    /// `cands(x) & S` (or `S & cands(x)`) of a bound element x (not a
    /// candidate) and a set of candidates S: x's type and slot, and S
    /// ([`Op::ElemAndLen`] counts it).
    fn cell_and<'a>(&self, op: &'a Op) -> Option<(Elem, usize, &'a Op)> {
        let Op::SetBin(SetOp::Inter, a, b) = op else {
            return None;
        };
        [(a, b), (b, a)].into_iter().find_map(|(p, q)| match &**p {
            Op::Cands(e, y)
                if *e != Elem::Cand
                    && matches!(**y, Op::Slot(s) if self.slot(s) == Kind::One(*e))
                    && matches!(self.kind(q), Kind::Set(Elem::Cand) | Kind::One(Elem::Cand)) =>
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
    fn prod(&self, op: &Op) -> Option<Prod> {
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
                (h, Kind::One(k)) if h.is_house() && k.is_house() && matches!(**x, Op::Slot(_)) => {
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
            Op::SetBin(SetOp::Inter, a, b) => {
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
                    (Op::Slot(s), Kind::One(e @ (Elem::Cell | Elem::Cand))) if e == *inner => {
                        WOp::Mask(e, *s)
                    }
                    (Op::Slot(s), Kind::One(h)) if h == *inner && h.is_house() => {
                        WOp::HouseDigits(*s)
                    }
                    (_, Kind::Set(Elem::Cell)) if *inner == Elem::Cell => {
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
            Op::SetBin(o, x, y) if self.both(x, y) == Width::Word => {
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
                (Op::Slot(s), Kind::One(Elem::Cell)) => COp::PeersOne(*s),
                (_, k) if k.width() == Width::Cells => COp::Peers(Box::new(self.cells(x))),
                _ => COp::Wide(self.same(op)),
            },
            Op::Project(Elem::Cell, x) => match &**x {
                Op::Cands(h, y)
                    if h.is_house()
                        && matches!(**y, Op::Slot(s) if self.slot(s) == Kind::One(*h)) =>
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
            Op::SetBin(o, x, y) if self.both(x, y) == Width::Cells => {
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
        let mut pre: Vec<(usize, Op)> = qo.pre.iter().map(|(t, p)| (*t, self.op(p))).collect();
        let within = match &body {
            Op::WSub(ab) => match &**ab {
                (WOp::Mask(e, s), WOp::Slot(t)) if *s == qo.slot && *t != qo.slot => {
                    // A moved part read by this condition only: computed
                    // in place of its slot.
                    match pre
                        .iter()
                        .position(|(u, p)| u == t && matches!(p, Op::WSet(_)))
                    {
                        Some(k) => match pre.remove(k).1 {
                            Op::WSet(w) => Some((*e, *w)),
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
            q: qo.q,
            slot: qo.slot,
            dom,
            body,
            pre,
            within,
        }
    }
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

/// A set of cells (members below 128) from a wide set.
#[inline(always)]
pub fn cells_word(b: &Bits) -> u128 {
    u128::from(b.0[0]) | u128::from(b.0[1]) << 64
}

/// The wide set of a set of cells.
#[inline(always)]
pub fn cells_bits(c: u128) -> Bits {
    let mut b = Bits::EMPTY;
    b.0[0] = c as u64;
    b.0[1] = (c >> 64) as u64;
    b
}

/// The wide set of a word.
#[inline(always)]
pub fn word_bits(w: u64) -> Bits {
    let mut b = Bits::EMPTY;
    b.0[0] = w;
    b
}

#[inline(always)]
fn bin<T>(op: SetOp, a: T, b: T) -> T
where
    T: std::ops::BitOr<Output = T> + std::ops::BitAnd<Output = T> + std::ops::Not<Output = T>,
{
    match op {
        SetOp::Union => a | b,
        SetOp::Inter => a & b,
        SetOp::Minus => a & !b,
    }
}

impl WOp {
    /// The set's word. Bound values, constants and one element's digits
    /// (the most frequent operands) are read where the caller is; the
    /// rest is computed by [`WOp::eval_rest`], out of line.
    #[inline(always)]
    pub fn eval(&self, cx: &mut Env) -> u64 {
        match self {
            // A set operation on two such operands (`z | w` of bound
            // digits) in place too.
            WOp::Bin(op, a, b) => {
                let a = a.leaf(cx);
                bin(*op, a, b.leaf(cx))
            }
            _ => self.leaf(cx),
        }
    }

    /// [`WOp::eval`] of an operand of a set operation: bound values,
    /// constants and one element's digits read in place.
    #[inline(always)]
    fn leaf(&self, cx: &mut Env) -> u64 {
        match self {
            // `z | w | u`: one more level of bound values in place.
            WOp::Bin(op, a, b) => {
                let a = a.atom(cx);
                bin(*op, a, b.atom(cx))
            }
            _ => self.atom(cx),
        }
    }

    /// [`WOp::leaf`] of an operand that is no set operation.
    #[inline(always)]
    fn atom(&self, cx: &mut Env) -> u64 {
        match self {
            WOp::Slot(s) => match &cx.vals[*s] {
                Val::Set(b) => b.0[0],
                Val::Idx(i) => 1 << i,
                _ => 0,
            },
            WOp::Const(w) => *w,
            WOp::Mask(e, s) => digit_mask(cx.state, *e, cx.vals[*s].idx()),
            _ => self.eval_rest(cx),
        }
    }

    /// [`WOp::eval`] of any operation, in its own frame.
    #[inline(never)]
    fn eval_rest(&self, cx: &mut Env) -> u64 {
        match self {
            WOp::Slot(s) => match &cx.vals[*s] {
                Val::Set(b) => b.0[0],
                Val::Idx(i) => 1 << i,
                _ => 0,
            },
            WOp::Mask(e, s) => digit_mask(cx.state, *e, cx.vals[*s].idx()),
            WOp::CellsMask(c) => {
                let mut m = c.eval(cx);
                let mut all = 0;
                while m != 0 {
                    all |= digit_mask(cx.state, Elem::Cell, m.trailing_zeros() as usize);
                    m &= m - 1;
                }
                all
            }
            WOp::HouseDigits(s) => house_digits_mask(cx.state, cx.vals[*s].idx()),
            WOp::Const(w) => *w,
            WOp::ProdDigits(p) => p.digits(cx),
            WOp::ProdHouses(keep, p) => {
                let mut m = p.cells(cx);
                let mut all = 0;
                while m != 0 {
                    all |= CELL_HOUSE_BITS[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                all & keep
            }
            WOp::Bin(op, a, b) => {
                let a = a.eval(cx);
                bin(*op, a, b.eval(cx))
            }
            WOp::Select(tq) => {
                let mut w = 0u64;
                match quantify(tq, cx, &mut |i| w |= 1 << i) {
                    Answer::Undefined => 0,
                    _ => w,
                }
            }
            WOp::Wide(op) => op.eval_set(cx).0[0],
        }
    }
}

impl COp {
    /// The set's two words. Bound values, constants and one cell's peers
    /// are read where the caller is; the rest is computed by
    /// [`COp::eval_rest`], out of line.
    #[inline(always)]
    pub fn eval(&self, cx: &mut Env) -> u128 {
        match self {
            // A set operation on two such operands (`peers(A) & T`) in
            // place too.
            COp::Bin(op, a, b) => {
                let a = a.leaf(cx);
                bin(*op, a, b.leaf(cx))
            }
            _ => self.leaf(cx),
        }
    }

    /// [`COp::eval`] of an operand of a set operation: bound values,
    /// constants and one cell's peers read in place.
    #[inline(always)]
    fn leaf(&self, cx: &mut Env) -> u128 {
        match self {
            // `(SA | SB) & T`: one more level of bound values in place.
            COp::Bin(op, a, b) => {
                let a = a.atom(cx);
                bin(*op, a, b.atom(cx))
            }
            _ => self.atom(cx),
        }
    }

    /// [`COp::leaf`] of an operand that is no set operation.
    #[inline(always)]
    fn atom(&self, cx: &mut Env) -> u128 {
        match self {
            COp::Slot(s) => match &cx.vals[*s] {
                Val::Set(b) => cells_word(b),
                Val::Idx(i) => 1 << i,
                _ => 0,
            },
            COp::Const(c) => *c,
            COp::PeersOne(s) => cells_word(&CELL_PEERS[cx.vals[*s].idx()]),
            COp::HouseAll(s) => HOUSE_CELL_WORDS[cx.vals[*s].idx()],
            _ => self.eval_rest(cx),
        }
    }

    /// [`COp::eval`] of any operation, in its own frame.
    #[inline(never)]
    fn eval_rest(&self, cx: &mut Env) -> u128 {
        match self {
            COp::Slot(s) => match &cx.vals[*s] {
                Val::Set(b) => cells_word(b),
                Val::Idx(i) => 1 << i,
                _ => 0,
            },
            COp::PeersOne(s) => cells_word(&CELL_PEERS[cx.vals[*s].idx()]),
            COp::Peers(c) => {
                let mut m = c.eval(cx);
                if m == 0 {
                    return 0;
                }
                let mut all = u128::MAX;
                while m != 0 {
                    all &= cells_word(&CELL_PEERS[m.trailing_zeros() as usize]);
                    m &= m - 1;
                }
                all
            }
            COp::HouseCells(s) => {
                let h = cx.vals[*s].idx();
                HOUSE_CELL_WORDS[h] & cx.dc[9]
            }
            COp::Const(c) => *c,
            COp::HouseAll(s) => HOUSE_CELL_WORDS[cx.vals[*s].idx()],
            COp::HousesAll(w) => {
                let mut m = w.eval(cx);
                let mut all = 0;
                while m != 0 {
                    all |= HOUSE_CELL_WORDS[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                all
            }
            COp::ProdCells(p) => p.cells(cx),
            COp::Bin(op, a, b) => {
                let a = a.eval(cx);
                bin(*op, a, b.eval(cx))
            }
            COp::Select(tq) => {
                let mut w = 0u128;
                match quantify(tq, cx, &mut |i| w |= 1 << i) {
                    Answer::Undefined => 0,
                    _ => w,
                }
            }
            COp::Wide(op) => cells_word(&op.eval_set(cx)),
        }
    }
}

/// What a quantifier found.
pub enum Answer {
    Bool(bool),
    Count(i64),
    /// `select`: the members were given to the caller.
    Chosen,
    /// An undefined value was met (the clause fails).
    Undefined,
}

/// Runs a typed quantifier: binds its slot to each member of the domain
/// until the answer is known; `select` gives each chosen member to `pick`.
#[inline(never)]
pub fn quantify(tq: &TQuant, cx: &mut Env, pick: &mut dyn FnMut(usize)) -> Answer {
    let TQuant {
        q,
        slot,
        dom,
        body,
        pre,
        within,
    } = tq;
    let (q, slot) = (*q, *slot);
    // The domain in its width; a wide one as its words.
    let wide;
    let narrow: [u64; 2];
    let words: &[u64] = match dom {
        Dom::Word(w) => {
            narrow = [w.eval(cx), 0];
            &narrow[..1]
        }
        Dom::Cells(c) => {
            let c = c.eval(cx);
            narrow = [c as u64, (c >> 64) as u64];
            &narrow[..]
        }
        Dom::Wide(op) => {
            wide = op.eval_set(cx);
            &wide.0[..]
        }
    };
    if words.iter().all(|&w| w == 0) {
        return match q {
            Quant::All | Quant::None => Answer::Bool(true),
            Quant::Any => Answer::Bool(false),
            Quant::Count => Answer::Count(0),
            Quant::Select => Answer::Chosen,
        };
    }
    for (t, v) in pre {
        v.eval_into(cx, *t);
    }
    if let Some((e, w)) = within {
        let w = w.eval(cx);
        return within_loop(q, slot, *e, !w, words, cx, pick);
    }
    let mut count = 0;
    for (k, &word) in words.iter().enumerate() {
        let mut m = word;
        while m != 0 {
            let i = k * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            cx.vals[slot] = Val::Idx(i);
            let holds = cond(body, cx);
            if cx.undefined {
                return Answer::Undefined;
            }
            match (q, holds) {
                (Quant::All, false) | (Quant::None, true) => return Answer::Bool(false),
                (Quant::Any, true) => return Answer::Bool(true),
                (Quant::Count, true) => count += 1,
                (Quant::Select, true) => pick(i),
                _ => {}
            }
        }
    }
    match q {
        Quant::All | Quant::None => Answer::Bool(true),
        Quant::Any => Answer::Bool(false),
        Quant::Count => Answer::Count(count),
        Quant::Select => Answer::Chosen,
    }
}

/// The members of a quantifier whose condition is `digits(x) <= S` (see
/// [`TQuant::within`]), with `outside` the digits not in S: each member's
/// mask, with no condition evaluated, the quantified slot left bound to
/// the last member looked at (as [`quantify`] leaves it).
#[inline(always)]
fn within_loop(
    q: Quant,
    slot: usize,
    e: Elem,
    outside: u64,
    words: &[u64],
    cx: &mut Env,
    pick: &mut dyn FnMut(usize),
) -> Answer {
    let mut count = 0;
    let mut last = 0;
    let mut answer = None;
    'members: for (k, &word) in words.iter().enumerate() {
        let mut m = word;
        while m != 0 {
            let i = k * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            last = i;
            let holds = digit_mask(cx.state, e, i) & outside == 0;
            match (q, holds) {
                (Quant::All, false) | (Quant::None, true) => {
                    answer = Some(false);
                    break 'members;
                }
                (Quant::Any, true) => {
                    answer = Some(true);
                    break 'members;
                }
                (Quant::Count, true) => count += 1,
                (Quant::Select, true) => pick(i),
                _ => {}
            }
        }
    }
    cx.vals[slot] = Val::Idx(last);
    match (answer, q) {
        (Some(b), _) => Answer::Bool(b),
        (None, Quant::All | Quant::None) => Answer::Bool(true),
        (None, Quant::Any) => Answer::Bool(false),
        (None, Quant::Count) => Answer::Count(count),
        (None, Quant::Select) => Answer::Chosen,
    }
}

/// The value of a typed quantifier as the untyped one gives it.
pub fn quant_val(tq: &TQuant, cx: &mut Env) -> Val {
    let mut chosen = Bits::EMPTY;
    match quantify(tq, cx, &mut |i| chosen.insert(i)) {
        Answer::Bool(b) => Val::Bool(b),
        Answer::Count(n) => Val::Int(n),
        Answer::Chosen => Val::Set(chosen),
        Answer::Undefined => Val::Bool(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::{N_CELLS, cand};
    use crate::grid::state::State;

    fn slot(s: usize) -> Box<Op> {
        Box::new(Op::Slot(s))
    }
    fn bx(op: Op) -> Box<Op> {
        Box::new(op)
    }
    fn cands(e: Elem, x: Box<Op>) -> Box<Op> {
        bx(Op::Cands(e, x))
    }
    fn digits(e: Elem, x: Box<Op>) -> Op {
        Op::Project(Elem::Digit, cands(e, x))
    }
    fn quant(q: Quant, slot: usize, domain: Op, body: Op) -> Op {
        Op::Quant(Box::new(QuantOp {
            q,
            slot,
            domain,
            body,
            pre: Vec::new(),
        }))
    }

    // Slots: 0, 1 cells; 2 a set of cells; 3 a digit; 4 a candidate; 5 a
    // house; 6 a set of digits; 7 the empty set of cells; 8 a quantified
    // cell; 9 a quantified digit; 10 a set of houses; 11 a row; 12 a
    // quantified candidate; 13 a moved part; 14 a set of candidates; 15 a
    // set of candidates defined as the product [`def_15`].
    const KINDS: [Kind; 16] = [
        Kind::One(Elem::Cell),
        Kind::One(Elem::Cell),
        Kind::Set(Elem::Cell),
        Kind::One(Elem::Digit),
        Kind::One(Elem::Cand),
        Kind::One(Elem::House),
        Kind::Set(Elem::Digit),
        Kind::Set(Elem::Cell),
        Kind::Unknown,
        Kind::Unknown,
        Kind::Set(Elem::House),
        Kind::One(Elem::Row),
        Kind::Unknown,
        Kind::Unknown,
        Kind::Set(Elem::Cand),
        Kind::Set(Elem::Cand),
    ];

    /// The definition of slot 15: `cands(H) & cands(X)` of the house in
    /// slot 5 and the digit in slot 3.
    fn def_15() -> Op {
        Op::SetBin(
            SetOp::Inter,
            cands(Elem::House, slot(5)),
            cands(Elem::Digit, slot(3)),
        )
    }

    /// One expression of each typed form, and what each must become.
    fn cases() -> Vec<(&'static str, Op)> {
        use Elem::{Cand, Cell, Digit, House};
        let union = |a, b| bx(Op::SetBin(SetOp::Union, a, b));
        let peers1 = || bx(Op::Peers(slot(0)));
        let cell_sel = quant(
            Quant::Select,
            8,
            Op::Project(Cell, bx(Op::Grid)),
            Op::Cmp(
                crate::search::pattern::CmpOp::Eq,
                bx(Op::Len(cands(Cell, slot(8)))),
                bx(Op::Int(2)),
            ),
        );
        let digit_sel = quant(
            Quant::Select,
            9,
            Op::Slot(6),
            Op::In(slot(9), bx(digits(Cell, slot(0)))),
        );
        let in_cell = |q| {
            quant(
                q,
                8,
                Op::Slot(2),
                Op::SubsetOf(bx(digits(Cell, slot(8))), slot(6)),
            )
        };
        let in_digits = |q| quant(q, 9, digits(Cell, slot(1)), Op::In(slot(9), slot(6)));
        vec![
            ("WSet Mask cell", digits(Cell, slot(0))),
            ("WSet Mask cand", digits(Cand, slot(4))),
            ("WSet CellsMask", digits(Cell, slot(2))),
            ("WSet HouseDigits", digits(House, slot(5))),
            ("WSet HouseDigits row", digits(Elem::Row, slot(11))),
            ("WSet Bin union", Op::SetBin(SetOp::Union, slot(3), slot(6))),
            (
                "WSet Bin inter",
                Op::SetBin(SetOp::Inter, bx(digits(Cell, slot(0))), slot(6)),
            ),
            (
                "WSet Bin minus",
                Op::SetBin(SetOp::Minus, bx(digits(Cell, slot(1))), slot(3)),
            ),
            ("WSet Select", digit_sel.clone()),
            ("WSet Wide", Op::Project(House, cands(Cand, slot(4)))),
            (
                "WSet ProdHouses of cells",
                Op::Project(House, cands(Cell, slot(2))),
            ),
            (
                "WSet Bin of houses",
                Op::SetBin(SetOp::Union, slot(10), slot(11)),
            ),
            (
                "WSet ProdDigits",
                Op::Project(
                    Digit,
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(House, slot(5)),
                        cands(House, slot(11)),
                    )),
                ),
            ),
            (
                "WSet ProdHouses",
                Op::Project(Elem::Row, cands(Digit, slot(3))),
            ),
            (
                "WSet ProdHouses of houses",
                Op::Project(
                    House,
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(Digit, slot(6)),
                        cands(House, slot(10)),
                    )),
                ),
            ),
            (
                "CSet ProdCells",
                Op::Project(
                    Cell,
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(House, slot(5)),
                        cands(Digit, slot(6)),
                    )),
                ),
            ),
            (
                "ProdLen",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    cands(Cell, slot(2)),
                    cands(Digit, slot(3)),
                ))),
            ),
            (
                "ProdSet of a house and a digit",
                Op::SetBin(SetOp::Inter, cands(House, slot(5)), cands(Digit, slot(3))),
            ),
            (
                "ProdSet of a digit and cells",
                Op::SetBin(SetOp::Inter, cands(Digit, slot(6)), cands(Cell, slot(2))),
            ),
            (
                "ProdSet of the rows of a product and a digit",
                Op::SetBin(
                    SetOp::Inter,
                    cands(
                        Elem::Row,
                        bx(Op::Project(
                            Elem::Row,
                            bx(Op::SetBin(
                                SetOp::Inter,
                                cands(House, slot(5)),
                                cands(Digit, slot(3)),
                            )),
                        )),
                    ),
                    cands(Digit, slot(3)),
                ),
            ),
            (
                "SetBin of a house and every digit",
                Op::SetBin(SetOp::Inter, cands(House, slot(5)), bx(Op::Grid)),
            ),
            (
                "ProdSub of two products",
                Op::SubsetOf(
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(House, slot(5)),
                        cands(Digit, slot(6)),
                    )),
                    cands(Elem::Row, slot(11)),
                ),
            ),
            (
                "ProdSub of cells in a house's",
                Op::SubsetOf(
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(Cell, slot(2)),
                        cands(Digit, slot(3)),
                    )),
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(House, slot(5)),
                        cands(Digit, slot(6)),
                    )),
                ),
            ),
            (
                "ProdSub of a name defined as a product",
                Op::SubsetOf(slot(15), cands(Elem::Row, slot(11))),
            ),
            (
                "ProdSub of a name defined as a product, in a row's digit",
                Op::SubsetOf(
                    slot(15),
                    bx(Op::SetBin(
                        SetOp::Inter,
                        cands(Elem::Row, slot(11)),
                        cands(Digit, slot(3)),
                    )),
                ),
            ),
            (
                "SubsetOf of a set that is no product",
                Op::SubsetOf(slot(14), cands(Elem::Row, slot(11))),
            ),
            (
                "ProdLen of a cell",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    cands(Cell, slot(0)),
                    cands(Digit, slot(6)),
                ))),
            ),
            (
                "ElemAndLen of a digit",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    slot(14),
                    cands(Digit, slot(3)),
                ))),
            ),
            (
                "ElemAndLen of a house",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    cands(House, slot(5)),
                    slot(14),
                ))),
            ),
            (
                "ElemAndLen of a row and a candidate",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    cands(Elem::Row, slot(11)),
                    slot(4),
                ))),
            ),
            (
                "ElemAndLen of a digit computed",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    cands(Digit, slot(3)),
                    cands(Cand, slot(14)),
                ))),
            ),
            (
                "ElemAndLen of a cell",
                Op::Len(bx(Op::SetBin(SetOp::Inter, cands(Cell, slot(0)), slot(14)))),
            ),
            (
                "ElemAndLen of a cell reversed",
                Op::Len(bx(Op::SetBin(SetOp::Inter, slot(14), cands(Cell, slot(1))))),
            ),
            (
                "ElemAndLen of a cell of a candidate",
                Op::Len(bx(Op::SetBin(SetOp::Inter, cands(Cell, slot(0)), slot(4)))),
            ),
            (
                "ElemAndLen of a cell computed",
                Op::Len(bx(Op::SetBin(
                    SetOp::Inter,
                    cands(Cell, slot(1)),
                    cands(Cand, slot(14)),
                ))),
            ),
            ("CSet PeersOne", Op::Peers(slot(0))),
            ("CSet Peers", Op::Peers(slot(2))),
            ("CSet Peers union", Op::Peers(union(slot(0), slot(1)))),
            ("CSet Peers empty", Op::Peers(union(slot(7), slot(1)))),
            ("CSet Peers none", Op::Peers(slot(7))),
            ("CSet HouseCells", Op::Project(Cell, cands(House, slot(5)))),
            ("CSet Bin", Op::SetBin(SetOp::Minus, peers1(), slot(2))),
            ("CSet Select", cell_sel.clone()),
            ("CSet Wide", Op::Project(Cell, cands(Cand, slot(4)))),
            (
                "CSet ProdCells of the grid",
                Op::Project(Cell, bx(Op::Grid)),
            ),
            (
                "CSet ProdCells of a digit",
                Op::Project(Cell, cands(Digit, slot(3))),
            ),
            ("WLen", Op::Len(bx(digits(Cell, slot(2))))),
            ("CLen", Op::Len(peers1())),
            ("MaskLen cell", Op::Len(cands(Cell, slot(0)))),
            ("MaskLen cand", Op::Len(cands(Cand, slot(4)))),
            (
                "WEq",
                Op::SetEq(true, bx(digits(Cell, slot(0))), bx(digits(Cell, slot(1)))),
            ),
            (
                "WEq ne",
                Op::SetEq(false, bx(digits(Cell, slot(0))), slot(6)),
            ),
            ("CEq", Op::SetEq(true, peers1(), bx(Op::Peers(slot(1))))),
            ("WSub", Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
            ("CSub", Op::SubsetOf(slot(2), peers1())),
            ("WIn", Op::In(slot(3), bx(digits(Cell, slot(0))))),
            ("WIn one", Op::In(slot(3), bx(Op::First(slot(6))))),
            ("CIn", Op::In(slot(1), peers1())),
            (
                "AllOf",
                Op::And(
                    bx(Op::In(slot(3), slot(6))),
                    bx(Op::And(
                        bx(Op::In(slot(1), peers1())),
                        bx(Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
                    )),
                ),
            ),
            (
                "AnyOf",
                Op::Or(
                    bx(Op::Or(
                        bx(Op::In(slot(3), slot(6))),
                        bx(Op::In(slot(1), peers1())),
                    )),
                    bx(Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
                ),
            ),
            (
                // Chains three deep: an `or` of `and`s of `or`s.
                "AnyOf nested",
                Op::Or(
                    bx(Op::And(
                        bx(Op::In(slot(3), slot(6))),
                        bx(Op::Or(
                            bx(Op::In(slot(1), peers1())),
                            bx(Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
                        )),
                    )),
                    bx(Op::And(
                        bx(Op::Not(bx(Op::In(slot(3), slot(6))))),
                        bx(Op::Cmp(
                            crate::search::pattern::CmpOp::Eq,
                            bx(Op::Len(cands(Cell, slot(1)))),
                            bx(Op::Int(2)),
                        )),
                    )),
                ),
            ),
            ("TQuant all within", in_cell(Quant::All)),
            ("TQuant any moved within", {
                // `any(x in S: digits(x) <= d | D)`, its bound moved out.
                let body = Op::SubsetOf(
                    bx(digits(Cell, slot(8))),
                    bx(Op::SetBin(SetOp::Union, slot(3), slot(6))),
                );
                let mut next = 13;
                let (pre, body) = crate::search::hoist::hoist(body, 8, &mut next);
                assert_eq!(pre.len(), 1);
                Op::Quant(Box::new(QuantOp {
                    q: Quant::Any,
                    slot: 8,
                    domain: Op::Slot(2),
                    body,
                    pre,
                }))
            }),
            ("TQuant any within", in_cell(Quant::Any)),
            ("TQuant none within", in_cell(Quant::None)),
            ("TQuant count within", in_cell(Quant::Count)),
            ("TQuant all digits", in_digits(Quant::All)),
            ("TQuant any digits", in_digits(Quant::Any)),
            ("TQuant count digits", in_digits(Quant::Count)),
            (
                "TQuant count cells",
                quant(
                    Quant::Count,
                    8,
                    Op::Project(Cell, bx(Op::Grid)),
                    Op::In(slot(3), bx(digits(Cell, slot(8)))),
                ),
            ),
            (
                "ICmp of a count",
                Op::Cmp(
                    crate::search::pattern::CmpOp::Ge,
                    bx(in_digits(Quant::Count)),
                    bx(Op::Int(2)),
                ),
            ),
            (
                "ICmp of sizes",
                Op::Cmp(
                    crate::search::pattern::CmpOp::Lt,
                    bx(Op::Len(cands(Cell, slot(0)))),
                    bx(Op::Len(bx(digits(Cell, slot(2))))),
                ),
            ),
            (
                "ICmp of a sum",
                Op::Cmp(
                    crate::search::pattern::CmpOp::Eq,
                    bx(Op::IntBin(
                        crate::search::pattern::IntOp::Sub,
                        bx(Op::Len(peers1())),
                        bx(Op::Int(19)),
                    )),
                    bx(Op::Len(cands(Cand, slot(4)))),
                ),
            ),
            (
                "XCmp of two bound elements",
                Op::Cmp(crate::search::pattern::CmpOp::Le, slot(0), slot(1)),
            ),
            (
                "XCmp of a digit and a row",
                Op::Cmp(crate::search::pattern::CmpOp::Ne, slot(3), slot(11)),
            ),
            (
                "Cmp of a bound element and a set",
                Op::Cmp(crate::search::pattern::CmpOp::Lt, slot(0), slot(2)),
            ),
            (
                "TQuant wide domain",
                quant(
                    Quant::Count,
                    12,
                    Op::Cands(Cell, slot(0)),
                    Op::In(slot(12), bx(Op::Grid)),
                ),
            ),
            (
                "undefined in a quantifier",
                quant(
                    Quant::Select,
                    9,
                    Op::Slot(6),
                    Op::In(bx(Op::First(slot(7))), peers1()),
                ),
            ),
        ]
    }

    /// The name of the outermost typed form of an expression.
    fn form(op: &Op) -> String {
        let w = |w: &WOp| format!("{w:?}").split('(').next().unwrap_or("").to_string();
        let c = |c: &COp| format!("{c:?}").split('(').next().unwrap_or("").to_string();
        match op {
            Op::WSet(x) => format!("WSet {}", w(x)),
            Op::CSet(x) => format!("CSet {}", c(x)),
            _ => format!("{op:?}")
                .split('(')
                .next()
                .unwrap_or("")
                .to_string(),
        }
    }

    /// Every typed operator has the value of the expression it was made
    /// from, on random states and bindings.
    #[test]
    fn typed_forms_agree_with_wide_evaluation() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % n) as usize
        };
        let mut t = Typer {
            kinds: Vec::new(),
            defs: Vec::new(),
        };
        for (s, k) in KINDS.iter().enumerate() {
            t.set(s, *k);
        }
        let def = t.prod(&def_15()).expect("a product");
        t.def(15, def);
        let cases = cases();
        for (_, op) in &cases {
            t.learn(op);
        }
        let typed: Vec<Op> = cases.iter().map(|(_, op)| t.op(op)).collect();
        // Each case became the form it names.
        for ((name, _), op) in cases.iter().zip(&typed) {
            let want = name.split(' ').take(2).collect::<Vec<_>>().join(" ");
            let got = form(op);
            assert!(
                want.starts_with(&got) || name.starts_with("undefined"),
                "{name}: {got}"
            );
            if let Op::TQuant(tq) = op {
                assert_eq!(tq.within.is_some(), name.ends_with("within"), "{name}");
                // A moved part read by the condition only is computed in
                // place.
                assert!(tq.pre.is_empty(), "{name}");
                assert_eq!(
                    matches!(tq.within, Some((_, WOp::Bin(..)))),
                    name.contains("moved"),
                    "{name}"
                );
            }
        }
        let mut differ = 0;
        for round in 0..300 {
            let mut masks = [0u16; N_CELLS];
            for m in masks.iter_mut() {
                // Some empty cells, some bivalue ones.
                *m = match next(4) {
                    0 => 0,
                    1 => [3, 5, 6, 0x101, 0x180][next(5)],
                    _ => next(512) as u16,
                };
            }
            let state = State::from_masks(&masks, &[0; N_CELLS]);
            let (c1, c2) = (next(81), next(81));
            let cells = Bits::from_indices((0..1 + next(4)).map(|_| next(81)));
            let digit_set = word_bits(next(512) as u64);
            let houses = word_bits(next(1 << 27) as u64);
            let mut vals = vec![
                Val::Idx(c1),
                Val::Idx(if round % 5 == 0 { c1 } else { c2 }),
                Val::Set(cells),
                Val::Idx(next(9)),
                Val::Idx(cand(c1, next(9))),
                Val::Idx(next(27)),
                Val::Set(digit_set),
                Val::Set(Bits::EMPTY),
                Val::Int(0),
                Val::Int(0),
                Val::Set(houses),
                Val::Idx(next(9)),
                Val::Int(0),
                Val::Int(0),
                Val::Set(Bits::from_indices((0..next(200)).map(|_| next(729)))),
                Val::Int(0),
            ];
            vals[15] = def_15().value(&state, &mut vals).expect("defined");
            for ((name, wide), typed) in cases.iter().zip(&typed) {
                let a = wide.value(&state, &mut vals);
                let b = typed.value(&state, &mut vals);
                assert_eq!(a, b, "{name} on round {round}");
                differ += usize::from(a != cases[0].1.value(&state, &mut vals));
            }
        }
        // The cases are not all one value.
        assert!(differ > 1000, "{differ}");
    }
}
