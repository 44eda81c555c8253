//! Pattern rules: a plan of generators, definitions and filters over
//! bitsets, and the depth-first search that runs it on a state.
//!
//! A [`Plan`] is produced by the rule compiler ([`crate::lang::lower`]).
//! Every value is an index or a [`Bits`] set, so each operation of an
//! expression is a whole-set operation of a few machine words; the search
//! never looks at a rule's text or AST.
//!
//! Architecture Invariant: a plan only reads the state it is given; it never
//! mutates it. Conclusions are returned to the engine, which applies them.

use super::count::{Strategy, count_head};
use super::fold::Folded;
use super::prefix::{self, MAX_RECORDED, Prefix, Recorded};
use super::typed::{self, COp, Prod, TQuant, WOp, cells_bits, word_bits};
use super::{ConclusionKind, Evidence, Found, SearchCx, Searcher, SearcherKind};
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::*;
use crate::grid::links::common_links_in;
use crate::grid::state::State;
use crate::grid::state::cell_masks;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::LazyLock;

/// The element types of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    Digit,
    Row,
    Column,
    Block,
    /// Any house; rows, columns and blocks are houses too.
    House,
    Cell,
    Cand,
    /// A CSP variable, of one space or of any.
    Var(Option<Space>),
}

impl Elem {
    pub fn name(self) -> String {
        match self {
            Elem::Digit => "digit".into(),
            Elem::Row => "row".into(),
            Elem::Column => "column".into(),
            Elem::Block => "block".into(),
            Elem::House => "house".into(),
            Elem::Cell => "cell".into(),
            Elem::Cand => "cand".into(),
            Elem::Var(None) => "var".into(),
            Elem::Var(Some(s)) => s.name().into(),
        }
    }

    /// Can a value of type `self` be used where `other` is expected?
    pub fn fits(self, other: Elem) -> bool {
        self == other
            || (other == Elem::House && matches!(self, Elem::Row | Elem::Column | Elem::Block))
            || (other == Elem::Var(None) && matches!(self, Elem::Var(_)))
    }

    /// The common supertype of two element types, if any.
    pub fn join(self, other: Elem) -> Option<Elem> {
        if self.fits(other) {
            Some(other)
        } else if other.fits(self) {
            Some(self)
        } else if self.is_house() && other.is_house() {
            Some(Elem::House)
        } else if matches!((self, other), (Elem::Var(_), Elem::Var(_))) {
            Some(Elem::Var(None))
        } else {
            None
        }
    }

    pub fn is_house(self) -> bool {
        matches!(self, Elem::Row | Elem::Column | Elem::Block | Elem::House)
    }
}

/// Runtime values. `Copy`, so the matcher's inner loop has no drop glue;
/// text exists only when a match is rendered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    Int(i64),
    Bool(bool),
    Idx(usize),
    Set(Bits),
}

impl Val {
    #[inline]
    fn set(&self) -> Bits {
        match self {
            Val::Set(b) => *b,
            Val::Idx(i) => Bits::single(*i),
            _ => Bits::EMPTY,
        }
    }
    #[inline]
    pub(super) fn idx(&self) -> usize {
        match self {
            Val::Idx(i) => *i,
            _ => usize::MAX,
        }
    }
    #[inline]
    fn int(&self) -> i64 {
        match self {
            Val::Int(i) => *i,
            _ => 0,
        }
    }
    #[inline]
    fn bool(&self) -> bool {
        matches!(self, Val::Bool(true))
    }
}

/// The shape of a value shown in a template: how to print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Int,
    One(Elem),
    Set(Elem),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOp {
    Union,
    Inter,
    Minus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A compiled expression. Types were checked by the compiler, so
/// evaluation trusts them.
#[derive(Clone, Debug)]
pub enum Op {
    Int(i64),
    Slot(usize),
    /// Live candidates of an element or a set of elements.
    Cands(Elem, Box<Op>),
    /// Projection of a candidate set onto element type.
    Project(Elem, Box<Op>),
    /// Live candidates nrc-linked to every candidate of a set.
    Linked(Box<Op>),
    /// Cells sharing a house with every cell of a set.
    Peers(Box<Op>),
    First(Box<Op>),
    Last(Box<Op>),
    Len(Box<Op>),
    SetBin(SetOp, Box<Op>, Box<Op>),
    IntBin(IntOp, Box<Op>, Box<Op>),
    /// Comparison of integers or indices (`Int`/`Idx` values).
    Cmp(CmpOp, Box<Op>, Box<Op>),
    /// Equality of sets (after promoting scalars).
    SetEq(bool, Box<Op>, Box<Op>),
    /// Subset comparison `a <= b` on sets.
    SubsetOf(Box<Op>, Box<Op>),
    In(Box<Op>, Box<Op>),
    And(Box<Op>, Box<Op>),
    Or(Box<Op>, Box<Op>),
    Not(Box<Op>),
    /// Every live candidate of the grid (the language's `grid`).
    Grid,
    /// A quantifier (boxed: rare, and `Op` stays three words).
    Quant(Box<QuantOp>),
    // Typed operations, made from the ones above when a plan is built
    // ([`super::typed`]); no analysis runs on them (they are leaves to
    // [`Op::operands`]).
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
    /// [`super::typed::Prod`]).
    ProdLen(Box<Prod>),
    /// The candidates of a product (see [`super::typed::Prod`]) of some
    /// cells and some digits, neither all: a wide set built from the
    /// cells of each digit, one bit per candidate, with no twelve-word
    /// set of its factors in between.
    ProdSet(Box<Prod>),
    /// `S <= T` of two products (see [`super::typed::Prod`]; a name
    /// defined as one counts as one): each digit's cells of S within T's
    /// region, with no candidate set in between.
    ProdSub(Box<(Prod, Prod)>),
    /// `|cands(x) & S|` of the element (not a candidate) bound in a slot
    /// and a candidate set S that is no product (a moved part, say): a
    /// cell's mask against the nine bits S has in it, another element's
    /// candidates counted in one pass over the words, with no candidate
    /// set in between.
    ElemAndLen(Box<(Elem, usize, Op)>),
    /// `S == T` (`true`) or `S != T` of digits or houses.
    WEq(bool, Box<(WOp, WOp)>),
    /// `S == T` (`true`) or `S != T` of cells.
    CEq(bool, Box<(COp, COp)>),
    /// `S <= T` of digits or houses.
    WSub(Box<(WOp, WOp)>),
    /// `S <= T` of cells.
    CSub(Box<(COp, COp)>),
    /// `x in S` of digits or houses.
    WIn(Box<(Op, WOp)>),
    /// `x in S` of cells.
    CIn(Box<(Op, COp)>),
    /// A comparison of two integers (counts, sizes, constants, names
    /// bound to integers), each read in place with no [`Val`] in
    /// between.
    ICmp(CmpOp, Box<(Op, Op)>),
    /// A comparison of two bound elements (`A < B`, `z == w`) by their
    /// indices.
    XCmp(CmpOp, usize, usize),
    /// A flattened chain of `and`.
    AllOf(Box<[Op]>),
    /// A flattened chain of `or`.
    AnyOf(Box<[Op]>),
    /// A quantifier whose domain is iterated in its width.
    TQuant(Box<TQuant>),
}

/// A quantifier: binds `slot` to each member of `domain` in turn and
/// evaluates `body` (a condition), stopping as soon as the answer is known.
#[derive(Clone, Debug)]
pub struct QuantOp {
    pub q: Quant,
    pub slot: usize,
    pub domain: Op,
    pub body: Op,
    /// Parts of `body` that are the same for every member, each evaluated
    /// into its slot before the first member (see [`super::hoist`]).
    pub pre: Vec<(usize, Op)>,
}

/// The quantifiers of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    /// `all(X in S: C)`: C holds for every member (true on an empty set).
    All,
    /// `any(X in S: C)`: C holds for some member.
    Any,
    /// `none(X in S: C)`: C holds for no member.
    None,
    /// `count(X in S: C)`: the number of members for which C holds.
    Count,
    /// `select(X in S: C)`: the members for which C holds (a set of S's
    /// element type).
    Select,
}

/// Precomputed peers (20 per cell).
pub(super) static CELL_PEERS: LazyLock<Vec<Bits>> = LazyLock::new(|| {
    (0..N_CELLS)
        .map(|c| {
            let hs = cell_houses(c);
            let mut b = Bits::EMPTY;
            for h in hs {
                for x in house_cells(h) {
                    b.insert(x);
                }
            }
            b.remove(c);
            b
        })
        .collect()
});

/// Each cell's three houses as bits of one word (row, column, block).
pub(super) static CELL_HOUSE_BITS: LazyLock<[u64; N_CELLS]> =
    LazyLock::new(|| std::array::from_fn(|c| cell_houses(c).iter().fold(0, |a, &h| a | 1 << h)));

/// Live candidates of one element.
#[inline]
fn cands_of(state: &State, e: Elem, i: usize) -> Bits {
    let t = &*TABLES;
    let all = match e {
        Elem::Digit => &t.digit[i],
        Elem::Row | Elem::Column | Elem::Block | Elem::House => &t.house[i],
        Elem::Cell => &t.cell[i],
        Elem::Var(_) => &t.var[i],
        Elem::Cand => {
            return if state.cands.contains(i) {
                Bits::single(i)
            } else {
                Bits::EMPTY
            };
        }
    };
    state.cands.and(all)
}

/// The live candidates of an element (`Idx`) or of a set of elements.
#[inline]
fn cands_val(state: &State, e: Elem, v: Val) -> Bits {
    match v {
        Val::Idx(i) => cands_of(state, e, i),
        Val::Set(s) => {
            if e == Elem::Cand {
                return s.and(&state.cands);
            }
            // Every candidate of the elements, then the live ones.
            let t = &*TABLES;
            let all: &[Bits] = match e {
                Elem::Digit => &t.digit,
                Elem::Row | Elem::Column | Elem::Block | Elem::House => &t.house,
                Elem::Cell => &t.cell,
                Elem::Var(_) => &t.var,
                Elem::Cand => unreachable!("handled above"),
            };
            let mut acc = Bits::EMPTY;
            for i in s.iter() {
                acc = acc.or(&all[i]);
            }
            acc.and(&state.cands)
        }
        _ => Bits::EMPTY,
    }
}

/// The set whose members are the bits of `w` (members 0 to 63).
#[inline]
fn word_set(w: u64) -> Bits {
    let mut b = Bits::EMPTY;
    b.0[0] = w;
    b
}

/// The digits of the live candidates of one cell or one candidate, as a
/// 9-bit mask (bit `d` for digit `d`).
#[inline]
pub(super) fn digit_mask(state: &State, e: Elem, i: usize) -> u64 {
    match e {
        Elem::Cand => {
            if state.cands.contains(i) {
                1 << cand_digit(i)
            } else {
                0
            }
        }
        _ => {
            let b = i * 9;
            let (w, off) = (b >> 6, b & 63);
            let mut v = state.cands.0[w] >> off;
            if off > 55 {
                v |= state.cands.0[w + 1] << (64 - off);
            }
            v & 0x1FF
        }
    }
}

/// The cells (`e` = cell) or the digits (`e` = digit) of the live
/// candidates of house `h`, from its nine cells' digit masks.
#[inline]
fn house_project(state: &State, e: Elem, h: usize) -> Bits {
    let cells = &HOUSE_CELLS[h];
    if e == Elem::Digit {
        let all = cells
            .iter()
            .fold(0, |a, &c| a | digit_mask(state, Elem::Cell, c));
        return word_set(all);
    }
    let mut out = Bits::EMPTY;
    for &c in cells {
        if digit_mask(state, Elem::Cell, c) != 0 {
            out.insert(c);
        }
    }
    out
}

/// `digits(H)` of house `h`: the union of its nine cells' masks.
#[inline]
pub(super) fn house_digits_mask(state: &State, h: usize) -> u64 {
    HOUSE_CELLS[h]
        .iter()
        .fold(0, |a, &c| a | digit_mask(state, Elem::Cell, c))
}

/// The indices `i` with `i op j` (`op` an order; `==` and `!=` keep
/// all): the members a bound on a generator's element keeps
/// ([`super::fold::bound_of`]).
fn side(op: CmpOp, j: usize) -> Bits {
    let below = |n: usize| Bits::first(n.min(Bits::CAPACITY));
    let all = below(Bits::CAPACITY);
    match op {
        CmpOp::Lt => below(j),
        CmpOp::Le => below(j + 1),
        CmpOp::Gt => all.minus(&below(j + 1)),
        CmpOp::Ge => all.minus(&below(j)),
        CmpOp::Eq | CmpOp::Ne => all,
    }
}

/// How many words of a [`Bits`] the members of a set of `e` can be in:
/// digits and houses are below 64, cells below 128.
#[inline(always)]
fn elem_words(e: Elem) -> usize {
    match e {
        Elem::Digit | Elem::Row | Elem::Column | Elem::Block | Elem::House => 1,
        Elem::Cell => 2,
        Elem::Cand | Elem::Var(_) => Bits::CAPACITY / 64,
    }
}

/// Sets with at most this many members are projected member by member;
/// larger ones through per-cell masks.
const SMALL_SET: usize = 24;

/// Projection of a candidate set onto an element type.
pub fn project(e: Elem, s: &Bits) -> Bits {
    match e {
        Elem::Cand => *s,
        Elem::Cell => cells_in(s),
        Elem::Row | Elem::Column | Elem::Block | Elem::House => {
            // Houses are members 0 to 26: one word, the union of the
            // present cells' house bits.
            let keep: u64 = match e {
                Elem::Row => 0x1FF,
                Elem::Column => 0x1FF << 9,
                Elem::Block => 0x1FF << 18,
                _ => 0x7FF_FFFF,
            };
            let c = cells_in(s);
            let mut all = 0;
            for (w, &word) in c.0[..2].iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    all |= CELL_HOUSE_BITS[w * 64 + m.trailing_zeros() as usize];
                    m &= m - 1;
                }
            }
            word_set(all & keep)
        }
        Elem::Digit if s.len() > SMALL_SET => {
            let mut out = Bits::EMPTY;
            for (d, all) in TABLES.digit.iter().enumerate() {
                if s.intersects(all) {
                    out.insert(d);
                }
            }
            out
        }
        _ if s.len() <= SMALL_SET => project_members(e, s),
        _ => project_masks(e, s),
    }
}

/// The cells of a candidate set: each found member skips the rest of its
/// cell, so the cost is one step per cell present.
fn cells_in(s: &Bits) -> Bits {
    let mut out = Bits::EMPTY;
    let words = s.0.len();
    let (mut w, mut word) = (0, s.0[0]);
    loop {
        while word == 0 {
            w += 1;
            if w == words {
                return out;
            }
            word = s.0[w];
        }
        let c = (w * 64 + word.trailing_zeros() as usize) / 9;
        out.insert(c);
        let next = (c + 1) * 9;
        if next >= N_CANDS {
            return out;
        }
        if next / 64 != w {
            w = next / 64;
            word = s.0[w];
        }
        word &= !0u64 << (next % 64);
    }
}

/// Projection of a small set: each member adds its elements.
fn project_members(e: Elem, s: &Bits) -> Bits {
    let mut out = Bits::EMPTY;
    for z in s.iter() {
        let c = cand_cell(z);
        match e {
            Elem::Cand => out.insert(z),
            Elem::Digit => out.insert(cand_digit(z)),
            Elem::Cell => out.insert(c),
            Elem::Row => out.insert(cell_houses(c)[0]),
            Elem::Column => out.insert(cell_houses(c)[1]),
            Elem::Block => out.insert(cell_houses(c)[2]),
            Elem::House => {
                for h in cell_houses(c) {
                    out.insert(h);
                }
            }
            Elem::Var(sp) => {
                for v in cand_vars(z) {
                    if sp.is_none_or(|sp| var_space(v) == sp) {
                        out.insert(v);
                    }
                }
            }
        }
    }
    out
}

/// Projection of a large set through the 81 per-cell digit masks.
fn project_masks(e: Elem, s: &Bits) -> Bits {
    let mut out = Bits::EMPTY;
    let m = cell_masks(s);
    match e {
        Elem::Cand => return *s,
        Elem::Digit => {
            let all = m.iter().fold(0u16, |a, &x| a | x);
            for d in 0..9 {
                if all & (1 << d) != 0 {
                    out.insert(d);
                }
            }
        }
        Elem::Cell => {
            for (c, &x) in m.iter().enumerate() {
                if x != 0 {
                    out.insert(c);
                }
            }
        }
        Elem::Row | Elem::Column | Elem::Block | Elem::House => {
            let kinds: &[usize] = match e {
                Elem::Row => &[0],
                Elem::Column => &[1],
                Elem::Block => &[2],
                _ => &[0, 1, 2],
            };
            for (c, &x) in m.iter().enumerate() {
                if x != 0 {
                    let hs = cell_houses(c);
                    for &k in kinds {
                        out.insert(hs[k]);
                    }
                }
            }
        }
        Elem::Var(sp) => {
            let spaces: &[Space] = match sp {
                Some(Space::Rc) => &[Space::Rc],
                Some(Space::Rn) => &[Space::Rn],
                Some(Space::Cn) => &[Space::Cn],
                Some(Space::Bn) => &[Space::Bn],
                None => &Space::ALL,
            };
            for &sp in spaces {
                if sp == Space::Rc {
                    for (c, &x) in m.iter().enumerate() {
                        if x != 0 {
                            out.insert(var(Space::Rc, c));
                        }
                    }
                    continue;
                }
                let kind = sp as usize - 1;
                for h in 0..9 {
                    let or = house_cells(kind * 9 + h)
                        .iter()
                        .fold(0u16, |a, &c| a | m[c]);
                    for d in 0..9 {
                        if or & (1 << d) != 0 {
                            out.insert(var(sp, h * 9 + d));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The default domain of a generator: the elements of type `e` that still
/// have a live candidate (undecided cells, variables and houses with work
/// left, digits not yet placed everywhere, live candidates).
///
/// Digits, houses and cells are read from the cells of each digit's live
/// candidates ([`typed::with_digit_cells`], kept per candidate set);
/// candidates and variables from the per-cell masks.
pub fn live_domain(state: &State, e: Elem) -> Bits {
    let keep: u64 = match e {
        Elem::Cand | Elem::Var(_) => return project_masks(e, &state.cands),
        Elem::Cell => return typed::with_digit_cells(&state.cands, |dc| cells_bits(dc[9])),
        Elem::Digit => {
            let live = typed::with_digit_cells(&state.cands, |dc| {
                (0..9).filter(|&d| dc[d] != 0).fold(0, |a, d| a | 1 << d)
            });
            return word_set(live);
        }
        Elem::Row => 0x1FF,
        Elem::Column => 0x1FF << 9,
        Elem::Block => 0x1FF << 18,
        Elem::House => 0x7FF_FFFF,
    };
    let houses = typed::with_digit_cells(&state.cands, |dc| typed::houses_of_cells(dc[9]));
    word_set(houses & keep)
}

/// Display of one element.
pub fn show_elem(e: Elem, i: usize) -> String {
    match e {
        Elem::Digit => format!("n{}", i + 1),
        Elem::Row | Elem::Column | Elem::Block | Elem::House => house_name(i),
        Elem::Cell => cell_name(i),
        Elem::Cand => cand_name(i),
        Elem::Var(_) => var_name(i),
    }
}

/// Display of an element inside a context element (a variable or house):
/// the coordinate that varies inside it.
fn show_within(ctx: Elem, c: usize, e: Elem, i: usize) -> String {
    match (ctx, e) {
        (Elem::Var(_), Elem::Cand) => cand_in_var(var_space(c), i),
        (Elem::Var(_), Elem::Cell) if var_space(c) != Space::Rc => {
            cand_in_var(var_space(c), cand(i, 0))
        }
        (Elem::Row | Elem::Column | Elem::Block | Elem::House, Elem::Cell) => match house_kind(c) {
            HouseKind::Row => format!("c{}", cell_col(i) + 1),
            HouseKind::Column => format!("r{}", cell_row(i) + 1),
            HouseKind::Block => cell_name(i),
        },
        (Elem::Row | Elem::Column | Elem::Block | Elem::House, Elem::Cand) => match house_kind(c) {
            HouseKind::Row => format!("n{}c{}", cand_digit(i) + 1, cell_col(cand_cell(i)) + 1),
            HouseKind::Column => format!("n{}r{}", cand_digit(i) + 1, cell_row(cand_cell(i)) + 1),
            HouseKind::Block => cand_name(i),
        },
        _ => show_elem(e, i),
    }
}

fn show_value(shape: Shape, v: &Val, f: impl Fn(Elem, usize) -> String) -> String {
    match (shape, v) {
        (Shape::One(e), Val::Idx(i)) => f(e, *i),
        (Shape::Set(e), Val::Set(s)) => {
            let parts: Vec<String> = s.iter().map(|i| f(e, i)).collect();
            format!("{{{}}}", parts.join(" "))
        }
        (_, Val::Int(i)) => i.to_string(),
        (_, Val::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

/// What an expression is evaluated with: the state, the bound values, and
/// whether an undefined value was met (`first` or `last` of an empty
/// set). An undefined value makes the clause being evaluated fail: the
/// rule does not match there. `dc` holds the cells of each digit's
/// candidates in the state, then of any digit's
/// ([`typed::digit_cells_copy`]), read once for the evaluation (a search
/// reads them once for all of its own).
pub struct Env<'a> {
    pub state: &'a State,
    pub vals: &'a mut [Val],
    pub undefined: bool,
    pub dc: &'a [u128; 10],
}

impl<'a> Env<'a> {
    /// `f` of an environment on `state` with the bound values `vals`.
    pub fn on<R>(state: &'a State, vals: &'a mut [Val], f: impl FnOnce(&mut Env) -> R) -> R {
        let dc = typed::digit_cells_copy(&state.cands);
        f(&mut Env {
            state,
            vals,
            undefined: false,
            dc: &dc,
        })
    }
}

/// A quantifier's value (kept out of [`Op::eval`], whose frame stays
/// small for the common operations): binds `slot` to each member of the
/// domain until the answer is known.
#[inline(never)]
fn quantify(qo: &QuantOp, cx: &mut Env) -> Val {
    let QuantOp {
        q,
        slot,
        domain,
        body,
        pre,
    } = qo;
    let (q, slot) = (*q, *slot);
    let dom = set_of(domain, cx);
    if !dom.is_empty() {
        for (t, v) in pre {
            v.eval_into(cx, *t);
        }
    }
    // `digits(x) <= S`, with S the same for every member (a moved part
    // or a name bound outside): each member's 9-bit mask against S's
    // first word.
    let within = match body {
        Op::SubsetOf(a, b) => match (&**a, &**b) {
            (Op::Project(Elem::Digit, x), Op::Slot(t)) if *t != slot => match &**x {
                Op::Cands(e @ (Elem::Cell | Elem::Cand), y) if matches!(**y, Op::Slot(s) if s == slot) => {
                    Some((*e, first_word(b, cx)))
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let mut count = 0;
    let mut chosen = Bits::EMPTY;
    for i in dom.iter() {
        cx.vals[slot] = Val::Idx(i);
        let holds = match within {
            Some((e, w)) => digit_mask(cx.state, e, i) & !w == 0,
            None => body.eval_bool(cx),
        };
        if cx.undefined {
            return Val::Bool(false);
        }
        match (q, holds) {
            (Quant::All, false) | (Quant::None, true) => return Val::Bool(false),
            (Quant::Any, true) => return Val::Bool(true),
            (Quant::Count, true) => count += 1,
            (Quant::Select, true) => chosen.insert(i),
            _ => {}
        }
    }
    match q {
        Quant::All | Quant::None => Val::Bool(true),
        Quant::Any => Val::Bool(false),
        Quant::Count => Val::Int(count),
        Quant::Select => Val::Set(chosen),
    }
}

/// The value of an operand: a bound value or a constant is read in place,
/// anything else evaluated (leaves are about half of the nodes evaluated,
/// and the call of [`Op::eval`] costs more than reading them).
#[inline(always)]
fn ev(op: &Op, cx: &mut Env) -> Val {
    match op {
        Op::Slot(s) => cx.vals[*s],
        Op::Int(i) => Val::Int(*i),
        _ => op.eval(cx),
    }
}

/// The value of a set operand: a bound value, the live candidates of a
/// bound element, or `grid` are read in place, anything else evaluated by
/// [`Op::eval_set`] (these leaves are most of the operands of set
/// operations, and a call of `eval_set`, whose frame holds 96-byte sets,
/// costs more than reading them).
#[inline(always)]
fn set_of(op: &Op, cx: &mut Env) -> Bits {
    match op {
        Op::Slot(s) => cx.vals[*s].set(),
        Op::Cands(e, x) => match &**x {
            Op::Slot(s) => match &cx.vals[*s] {
                Val::Idx(i) => cands_of(cx.state, *e, *i),
                v => cands_val(cx.state, *e, *v),
            },
            _ => op.eval_set(cx),
        },
        Op::Grid => cx.state.cands,
        _ => op.eval_set(cx),
    }
}

/// The value of a condition operand: the terms of an `and` or `or`
/// chain, and of a chain inside it (`(z == w and B in SA) or ...`), are
/// evaluated in place, each by [`leaf`], with no call of
/// [`Op::eval_bool`] per chain.
#[inline(always)]
pub(super) fn cond(op: &Op, cx: &mut Env) -> bool {
    // One loop site for both kinds of chain (and a lone condition, a
    // chain of one), so that [`term`] is inlined once.
    let (ts, all) = match op {
        Op::AllOf(ts) => (&ts[..], true),
        Op::AnyOf(ts) => (&ts[..], false),
        _ => (std::slice::from_ref(op), true),
    };
    for t in ts {
        if term(t, cx) != all {
            return !all;
        }
    }
    all
}

/// [`cond`] of a term of a chain: a chain in it evaluated in place, its
/// terms by [`leaf`].
#[inline(always)]
fn term(op: &Op, cx: &mut Env) -> bool {
    let (ts, all) = match op {
        Op::AllOf(ts) => (&ts[..], true),
        Op::AnyOf(ts) => (&ts[..], false),
        _ => return leaf(op, cx),
    };
    for t in ts {
        if leaf(t, cx) != all {
            return !all;
        }
    }
    all
}

/// A condition that is no chain: a bound condition, a comparison of two
/// bound values or of two integers, `x in S` of a bound element, read in
/// place; a typed quantifier run with no frame of [`Op::eval_bool`] in
/// between; anything else evaluated by it.
#[inline(always)]
fn leaf(op: &Op, cx: &mut Env) -> bool {
    match op {
        Op::Slot(s) => cx.vals[*s].bool(),
        Op::TQuant(tq) => matches!(
            typed::quantify(tq, cx, &mut |_| {}),
            typed::Answer::Bool(true)
        ),
        Op::ICmp(c, ab) => {
            let a = int_of(&ab.0, cx);
            compare(*c, a, int_of(&ab.1, cx))
        }
        Op::CIn(xs) if matches!(xs.0, Op::Slot(_)) => {
            let Op::Slot(x) = xs.0 else {
                unreachable!("matched above")
            };
            let i = cx.vals[x].idx();
            i < 128 && xs.1.eval(cx) >> i & 1 != 0
        }
        Op::WIn(xs) if matches!(xs.0, Op::Slot(_)) => {
            let Op::Slot(x) = xs.0 else {
                unreachable!("matched above")
            };
            let i = cx.vals[x].idx();
            i < 64 && xs.1.eval(cx) >> i & 1 != 0
        }
        Op::XCmp(c, x, y) => {
            let a = cx.vals[*x].idx() as i64;
            compare(*c, a, cx.vals[*y].idx() as i64)
        }
        // A comparison of two bound values (`z == u`).
        Op::Cmp(c, a, b) if matches!((&**a, &**b), (Op::Slot(_), Op::Slot(_))) => {
            let (Op::Slot(x), Op::Slot(y)) = (&**a, &**b) else {
                unreachable!("matched above")
            };
            let (a, b) = compared(&cx.vals[*x], &cx.vals[*y]);
            compare(*c, a, b)
        }
        _ => op.eval_bool(cx),
    }
}

/// The value of an integer operand: a constant or a bound integer is read
/// in place, anything else evaluated by [`Op::eval_int`].
#[inline(always)]
fn int_of(op: &Op, cx: &mut Env) -> i64 {
    match op {
        Op::Int(i) => *i,
        Op::Slot(s) => cx.vals[*s].int(),
        // `|S|` of a bound set, counted in place.
        Op::Len(x) if matches!(**x, Op::Slot(_)) => {
            let Op::Slot(s) = **x else {
                unreachable!("matched above")
            };
            match &cx.vals[s] {
                Val::Set(b) => b.len() as i64,
                Val::Idx(_) => 1,
                _ => 0,
            }
        }
        // Sizes of typed sets, read where the caller is.
        Op::MaskLen(e, s) => digit_mask(cx.state, *e, cx.vals[*s].idx()).count_ones() as i64,
        Op::WLen(w) => w.eval(cx).count_ones() as i64,
        Op::CLen(c) => c.eval(cx).count_ones() as i64,
        Op::ElemAndLen(xs) => elem_and_len(xs.0, xs.1, &xs.2, cx),
        // A count, with no `Val` in between.
        Op::TQuant(tq) => count_of(tq, cx),
        _ => op.eval_int(cx),
    }
}

/// The value of a typed `count` quantifier (0 for any other quantifier,
/// as `Val`'s `int` gives it; an undefined member leaves `cx.undefined`
/// set).
#[inline(always)]
fn count_of(tq: &TQuant, cx: &mut Env) -> i64 {
    match typed::quantify(tq, cx, &mut |_| {}) {
        typed::Answer::Count(n) => n,
        _ => 0,
    }
}

/// The nine bits a candidate set has in cell `c` (bit `d` for digit `d`).
#[inline(always)]
pub(super) fn nine_bits(s: &Bits, c: usize) -> u64 {
    let b = c * 9;
    let (w, off) = (b >> 6, b & 63);
    let mut v = s.0[w] >> off;
    if off > 55 {
        v |= s.0[w + 1] << (64 - off);
    }
    v & 0x1FF
}

/// `|cands(x) & S|` of the element of type `e` bound in slot `s`
/// ([`Op::ElemAndLen`]): a bound S is read in place.
#[inline(always)]
fn elem_and_len(e: Elem, s: usize, other: &Op, cx: &mut Env) -> i64 {
    let x = cx.vals[s].idx();
    if e == Elem::Cell {
        let m = digit_mask(cx.state, Elem::Cell, x);
        let w = match other {
            Op::Slot(t) => match &cx.vals[*t] {
                Val::Set(b) => nine_bits(b, x),
                Val::Idx(i) if cand_cell(*i) == x => 1 << cand_digit(*i),
                _ => 0,
            },
            _ => nine_bits(&set_of(other, cx), x),
        };
        return i64::from((m & w).count_ones());
    }
    let t = &*TABLES;
    let all = match e {
        Elem::Digit => &t.digit[x],
        Elem::Row | Elem::Column | Elem::Block | Elem::House => &t.house[x],
        Elem::Var(_) => &t.var[x],
        Elem::Cell | Elem::Cand => unreachable!("made for other elements only"),
    };
    let live = &cx.state.cands;
    let and3 = |b: &Bits| -> i64 {
        (live.0.iter().zip(&all.0).zip(&b.0))
            .map(|((p, q), r)| i64::from((p & q & r).count_ones()))
            .sum()
    };
    match other {
        Op::Slot(u) => match &cx.vals[*u] {
            Val::Set(b) => and3(b),
            Val::Idx(i) => i64::from(live.contains(*i) && all.contains(*i)),
            _ => 0,
        },
        _ => {
            let b = set_of(other, cx);
            and3(&b)
        }
    }
}

/// The cells sharing a house with every cell of the set `op`, or `None`
/// when the set is empty (whose `peers` are empty). One bound cell's are
/// read from the table; those of a union `P | Q` are the peers of P that
/// are peers of Q (of the non-empty ones), so `peers(A | B)` builds no set
/// of A and B.
fn peers_of(op: &Op, cx: &mut Env) -> Option<Bits> {
    match op {
        Op::Slot(s) if matches!(cx.vals[*s], Val::Idx(_)) => Some(CELL_PEERS[cx.vals[*s].idx()]),
        Op::SetBin(SetOp::Union, p, q) => match (peers_of(p, cx), peers_of(q, cx)) {
            (Some(a), Some(b)) => Some(a.and(&b)),
            (a, None) => a,
            (None, b) => b,
        },
        _ => {
            let s = set_of(op, cx);
            let mut cells = s.iter();
            let first = cells.next()?;
            Some(cells.fold(CELL_PEERS[first], |acc, c| acc.and(&CELL_PEERS[c])))
        }
    }
}

/// The digits of one cell or one candidate as a 9-bit mask, when `op`
/// is `digits(X)` (the projection onto digits of `cands(X)`) and X is
/// bound to one element; `None` for any other expression (the caller
/// evaluates it as a set). X is evaluated only when the shape fits.
#[inline(always)]
fn one_digit_mask(op: &Op, cx: &mut Env) -> Option<u64> {
    let Op::Project(Elem::Digit, x) = op else {
        return None;
    };
    let Op::Cands(inner @ (Elem::Cell | Elem::Cand), y) = &**x else {
        return None;
    };
    let Op::Slot(s) = &**y else {
        return None;
    };
    match cx.vals[*s] {
        Val::Idx(i) => Some(digit_mask(cx.state, *inner, i)),
        _ => None,
    }
}

/// The first word of a set operand (members 0 to 63): a bound value is
/// read in place.
#[inline(always)]
fn first_word(op: &Op, cx: &mut Env) -> u64 {
    match op {
        Op::Slot(s) => match &cx.vals[*s] {
            Val::Set(b) => b.0[0],
            Val::Idx(i) if *i < 64 => 1 << i,
            _ => 0,
        },
        _ => set_of(op, cx).0[0],
    }
}

/// Two values compared as integers: integers as they are, anything else
/// (indices) by its index.
#[inline(always)]
fn compared(a: &Val, b: &Val) -> (i64, i64) {
    match (a, b) {
        (Val::Int(a), Val::Int(b)) => (*a, *b),
        (a, b) => (a.idx() as i64, b.idx() as i64),
    }
}

/// `a op b` of two compared values.
#[inline(always)]
fn compare(op: CmpOp, a: i64, b: i64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// The index of an element operand that is not a bound value, out of
/// line: its [`Val`] lives on this call's stack, not its caller's.
#[inline(never)]
fn idx_of(op: &Op, cx: &mut Env) -> usize {
    op.eval(cx).idx()
}

impl Op {
    /// The value of the expression on `state` with the bound values
    /// `vals`; `None` when it is undefined (`first` or `last` of an empty
    /// set was met).
    #[inline]
    pub fn value(&self, state: &State, vals: &mut [Val]) -> Option<Val> {
        self.defined(state, vals, Op::eval)
    }

    /// Is the condition true on `state` with the bound values `vals`
    /// (`false` when it is undefined)?
    #[inline]
    pub fn holds(&self, state: &State, vals: &mut [Val]) -> bool {
        self.defined(state, vals, Op::eval_bool).unwrap_or(false)
    }

    /// The value of a set expression on `state` with the bound values
    /// `vals` (as [`Op::value`], then [`Val`]'s set).
    #[inline]
    pub fn value_set(&self, state: &State, vals: &mut [Val]) -> Option<Bits> {
        self.defined(state, vals, Op::eval_set)
    }

    /// `eval` (one of the evaluators) of the expression on `state` with
    /// the bound values `vals`, when defined.
    #[inline]
    fn defined<T>(
        &self,
        state: &State,
        vals: &mut [Val],
        eval: impl FnOnce(&Op, &mut Env) -> T,
    ) -> Option<T> {
        let dc = typed::digit_cells_copy(&state.cands);
        self.defined_in(state, &dc, vals, eval)
    }

    /// [`Op::defined`] with the cells of each digit's candidates in
    /// `state` given (`dc`, as a search keeps them).
    #[inline]
    fn defined_in<T>(
        &self,
        state: &State,
        dc: &[u128; 10],
        vals: &mut [Val],
        eval: impl FnOnce(&Op, &mut Env) -> T,
    ) -> Option<T> {
        let mut cx = Env {
            state,
            vals,
            undefined: false,
            dc,
        };
        let v = eval(self, &mut cx);
        (!cx.undefined).then_some(v)
    }

    /// Evaluates the expression in `cx`. When `first` or `last` meets an
    /// empty set, `cx.undefined` is set and a stand-in index (0) is used,
    /// so evaluation goes on harmlessly; the caller drops the result.
    /// Quantifiers bind their variable in `cx.vals`.
    ///
    /// Sets, integers and conditions are computed by [`Op::eval_set`],
    /// [`Op::eval_int`] and [`Op::eval_bool`], which an operation calls
    /// for operands of a known kind: a condition or a count then travels
    /// in a register, not as a [`Val`] of a hundred bytes.
    pub fn eval(&self, cx: &mut Env) -> Val {
        match self {
            Op::Int(i) => Val::Int(*i),
            Op::Slot(s) => cx.vals[*s],
            Op::Grid
            | Op::Cands(..)
            | Op::Project(..)
            | Op::Linked(_)
            | Op::Peers(_)
            | Op::SetBin(..)
            | Op::WSet(_)
            | Op::CSet(_)
            | Op::ProdSet(_) => Val::Set(self.eval_set(cx)),
            Op::WLen(_) | Op::CLen(_) | Op::MaskLen(..) | Op::ProdLen(_) | Op::ElemAndLen(_) => {
                Val::Int(self.eval_int(cx))
            }
            Op::WEq(..)
            | Op::CEq(..)
            | Op::WSub(_)
            | Op::CSub(_)
            | Op::ProdSub(_)
            | Op::WIn(_)
            | Op::CIn(_)
            | Op::ICmp(..)
            | Op::XCmp(..)
            | Op::AllOf(_)
            | Op::AnyOf(_) => Val::Bool(self.eval_bool(cx)),
            Op::TQuant(tq) => typed::quant_val(tq, cx),
            Op::First(x) => {
                let s = set_of(x, cx);
                Val::Idx(s.min().unwrap_or_else(|| {
                    cx.undefined = true;
                    0
                }))
            }
            Op::Last(x) => {
                let s = set_of(x, cx);
                Val::Idx(s.max().unwrap_or_else(|| {
                    cx.undefined = true;
                    0
                }))
            }
            Op::Len(_) | Op::IntBin(..) => Val::Int(self.eval_int(cx)),
            Op::Cmp(..)
            | Op::SetEq(..)
            | Op::SubsetOf(..)
            | Op::In(..)
            | Op::And(..)
            | Op::Or(..)
            | Op::Not(_) => Val::Bool(self.eval_bool(cx)),
            Op::Quant(qo) => quantify(qo, cx),
        }
    }

    /// `cx.vals[slot] = self.eval(cx)`, with a condition, an integer or a
    /// set computed by its own evaluator and stored as it is (no whole
    /// [`Val`] is returned and copied).
    #[inline]
    pub fn eval_into(&self, cx: &mut Env, slot: usize) {
        match self {
            Op::Cmp(..)
            | Op::SetEq(..)
            | Op::SubsetOf(..)
            | Op::In(..)
            | Op::And(..)
            | Op::Or(..)
            | Op::Not(_)
            | Op::WEq(..)
            | Op::CEq(..)
            | Op::WSub(_)
            | Op::CSub(_)
            | Op::WIn(_)
            | Op::CIn(_)
            | Op::ICmp(..)
            | Op::XCmp(..)
            | Op::AllOf(_)
            | Op::AnyOf(_) => {
                let b = self.eval_bool(cx);
                cx.vals[slot] = Val::Bool(b);
            }
            Op::WSet(w) => {
                let w = w.eval(cx);
                cx.vals[slot] = Val::Set(word_bits(w));
            }
            Op::CSet(c) => {
                let c = c.eval(cx);
                cx.vals[slot] = Val::Set(cells_bits(c));
            }
            Op::Len(_)
            | Op::IntBin(..)
            | Op::WLen(_)
            | Op::CLen(_)
            | Op::MaskLen(..)
            | Op::ProdLen(_)
            | Op::ElemAndLen(_) => {
                let i = self.eval_int(cx);
                cx.vals[slot] = Val::Int(i);
            }
            Op::Grid
            | Op::Cands(..)
            | Op::Project(..)
            | Op::Linked(_)
            | Op::Peers(_)
            | Op::SetBin(..)
            | Op::ProdSet(_) => {
                let b = self.eval_set(cx);
                cx.vals[slot] = Val::Set(b);
            }
            _ => {
                let v = self.eval(cx);
                cx.vals[slot] = v;
            }
        }
    }

    /// `self.eval(cx)` as a set (an index is the set of it; an integer or
    /// a condition the empty set).
    pub fn eval_set(&self, cx: &mut Env) -> Bits {
        match self {
            Op::Slot(s) => match &cx.vals[*s] {
                Val::Set(b) => *b,
                Val::Idx(i) => Bits::single(*i),
                _ => Bits::EMPTY,
            },
            Op::Grid => cx.state.cands,
            Op::ProdSet(p) => p.set(cx),
            Op::Cands(e, x) => match &**x {
                Op::Slot(s) => match &cx.vals[*s] {
                    Val::Idx(i) => cands_of(cx.state, *e, *i),
                    v => cands_val(cx.state, *e, *v),
                },
                x => {
                    let v = ev(x, cx);
                    cands_val(cx.state, *e, v)
                }
            },
            Op::Project(e, x) => {
                // `digits(C)` of one cell or one candidate reads the cell's
                // 9-bit mask, with no 12-word set in between.
                if *e == Elem::Digit
                    && let Op::Cands(inner @ (Elem::Cell | Elem::Cand), y) = &**x
                {
                    return match ev(y, cx) {
                        Val::Idx(i) => word_set(digit_mask(cx.state, *inner, i)),
                        // The digits of a set of cells: the union of their
                        // masks.
                        Val::Set(cells) if *inner == Elem::Cell => word_set(
                            cells
                                .iter()
                                .fold(0, |a, c| a | digit_mask(cx.state, Elem::Cell, c)),
                        ),
                        v => project(*e, &cands_val(cx.state, *inner, v)),
                    };
                }
                // `cells(H)` and `digits(H)` of one house read its nine
                // cells' masks.
                if matches!(e, Elem::Cell | Elem::Digit)
                    && let Op::Cands(inner, y) = &**x
                    && inner.is_house()
                {
                    return match ev(y, cx) {
                        Val::Idx(h) => house_project(cx.state, *e, h),
                        v => project(*e, &cands_val(cx.state, *inner, v)),
                    };
                }
                project(*e, &set_of(x, cx))
            }
            Op::Linked(x) => {
                let s = set_of(x, cx);
                if s.is_empty() {
                    Bits::EMPTY
                } else {
                    common_links_in(&s, &cx.state.cands)
                }
            }
            Op::Peers(x) => peers_of(x, cx).unwrap_or(Bits::EMPTY),
            Op::WSet(w) => word_bits(w.eval(cx)),
            Op::CSet(c) => cells_bits(c.eval(cx)),
            Op::SetBin(op, a, b) => {
                let a = set_of(a, cx);
                let b = set_of(b, cx);
                match op {
                    SetOp::Union => a.or(&b),
                    SetOp::Inter => a.and(&b),
                    SetOp::Minus => a.minus(&b),
                }
            }
            _ => self.eval(cx).set(),
        }
    }

    /// `self.eval(cx)` as an integer (0 for anything else).
    pub fn eval_int(&self, cx: &mut Env) -> i64 {
        match self {
            Op::Int(i) => *i,
            Op::Slot(s) => cx.vals[*s].int(),
            Op::Len(x) => {
                // A bound set is counted in place.
                if let Op::Slot(s) = &**x {
                    return match &cx.vals[*s] {
                        Val::Set(b) => b.len() as i64,
                        Val::Idx(_) => 1,
                        _ => 0,
                    };
                }
                // `|C|` of one cell counts its mask's bits.
                if let Op::Cands(Elem::Cell, y) = &**x {
                    return match ev(y, cx) {
                        Val::Idx(c) => digit_mask(cx.state, Elem::Cell, c).count_ones() as i64,
                        v => cands_val(cx.state, Elem::Cell, v).len() as i64,
                    };
                }
                // `|S & T|` (or `|S - T|`, `|S | T|`) of two operands read
                // in place: no set is returned.
                if let Op::SetBin(op, a, b) = &**x {
                    let a = set_of(a, cx);
                    let b = set_of(b, cx);
                    return match op {
                        SetOp::Union => a.or(&b),
                        SetOp::Inter => a.and(&b),
                        SetOp::Minus => a.minus(&b),
                    }
                    .len() as i64;
                }
                set_of(x, cx).len() as i64
            }
            Op::WLen(w) => w.eval(cx).count_ones() as i64,
            Op::CLen(c) => c.eval(cx).count_ones() as i64,
            Op::MaskLen(e, s) => {
                let i = cx.vals[*s].idx();
                digit_mask(cx.state, *e, i).count_ones() as i64
            }
            Op::ProdLen(p) => p.len(cx),
            Op::ElemAndLen(xs) => elem_and_len(xs.0, xs.1, &xs.2, cx),
            Op::TQuant(tq) => count_of(tq, cx),
            Op::IntBin(op, a, b) => {
                let a = a.eval_int(cx);
                let b = b.eval_int(cx);
                match op {
                    IntOp::Add => a.saturating_add(b),
                    IntOp::Sub => a.saturating_sub(b),
                    IntOp::Mul => a.saturating_mul(b),
                }
            }
            _ => self.eval(cx).int(),
        }
    }

    /// Is the value always an integer (so a comparison may read it with
    /// [`Op::eval_int`])?
    fn is_int(&self) -> bool {
        match self {
            Op::Int(_)
            | Op::Len(_)
            | Op::IntBin(..)
            | Op::WLen(_)
            | Op::CLen(_)
            | Op::MaskLen(..)
            | Op::ProdLen(_)
            | Op::ElemAndLen(_) => true,
            Op::Quant(qo) => qo.q == Quant::Count,
            Op::TQuant(tq) => tq.q == Quant::Count,
            _ => false,
        }
    }

    /// `self.eval(cx)` as a condition (`false` for anything but `true`).
    ///
    /// The typed conditions, which compute in registers, are evaluated
    /// here; those that may build a wide set go to [`Op::eval_bool_wide`],
    /// kept out of line so that this frequent, often recursive, call keeps
    /// a small frame (no 96-byte sets on its stack to set up and restore).
    pub fn eval_bool(&self, cx: &mut Env) -> bool {
        match self {
            Op::Slot(s) => cx.vals[*s].bool(),
            Op::Not(a) => !cond(a, cx),
            Op::Cmp(op, a, b) => {
                let (a, b) = if a.is_int() && b.is_int() {
                    (int_of(a, cx), int_of(b, cx))
                } else if let (Op::Slot(x), Op::Slot(y)) = (&**a, &**b) {
                    // Two bound values (`A < B`, `z == w`), read in place.
                    compared(&cx.vals[*x], &cx.vals[*y])
                } else {
                    return self.eval_bool_wide(cx);
                };
                compare(*op, a, b)
            }
            Op::WEq(eq, ab) => {
                let a = ab.0.eval(cx);
                (a == ab.1.eval(cx)) == *eq
            }
            Op::CEq(eq, ab) => {
                let a = ab.0.eval(cx);
                (a == ab.1.eval(cx)) == *eq
            }
            Op::WSub(ab) => {
                let a = ab.0.eval(cx);
                a & !ab.1.eval(cx) == 0
            }
            Op::CSub(ab) => {
                let a = ab.0.eval(cx);
                a & !ab.1.eval(cx) == 0
            }
            Op::WIn(xs) => {
                let i = match &xs.0 {
                    Op::Slot(x) => cx.vals[*x].idx(),
                    a => idx_of(a, cx),
                };
                i < 64 && xs.1.eval(cx) >> i & 1 != 0
            }
            Op::CIn(xs) => {
                let i = match &xs.0 {
                    Op::Slot(x) => cx.vals[*x].idx(),
                    a => idx_of(a, cx),
                };
                i < 128 && xs.1.eval(cx) >> i & 1 != 0
            }
            Op::ProdSub(pq) => pq.0.within(&pq.1, cx),
            Op::AllOf(_) | Op::AnyOf(_) => cond(self, cx),
            Op::ICmp(c, ab) => {
                let a = int_of(&ab.0, cx);
                compare(*c, a, int_of(&ab.1, cx))
            }
            Op::XCmp(c, x, y) => {
                let a = cx.vals[*x].idx() as i64;
                compare(*c, a, cx.vals[*y].idx() as i64)
            }
            Op::TQuant(tq) => matches!(
                typed::quantify(tq, cx, &mut |_| {}),
                typed::Answer::Bool(true)
            ),
            _ => self.eval_bool_wide(cx),
        }
    }

    /// [`Op::eval_bool`] of the conditions that may read or build wide
    /// values (comparisons, untyped set conditions, untyped quantifiers).
    #[inline(never)]
    fn eval_bool_wide(&self, cx: &mut Env) -> bool {
        match self {
            Op::Slot(s) => cx.vals[*s].bool(),
            Op::Cmp(op, a, b) => {
                let (a, b) = if a.is_int() && b.is_int() {
                    (int_of(a, cx), int_of(b, cx))
                } else if let (Op::Slot(x), Op::Slot(y)) = (&**a, &**b) {
                    // Two bound values (`A < B`, `z == w`), read in place.
                    compared(&cx.vals[*x], &cx.vals[*y])
                } else {
                    compared(&ev(a, cx), &ev(b, cx))
                };
                match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                }
            }
            Op::SetEq(eq, a, b) => {
                // `digits(z) == digits(w)` of two single elements: their
                // masks.
                if let Some(m) = one_digit_mask(a, cx)
                    && let Some(n) = one_digit_mask(b, cx)
                {
                    return (m == n) == *eq;
                }
                let a = set_of(a, cx);
                (a == set_of(b, cx)) == *eq
            }
            Op::SubsetOf(a, b) => {
                // `digits(x) <= S` of one cell or candidate: its 9-bit
                // mask against S's first word (the mask has no other).
                if let Some(m) = one_digit_mask(a, cx) {
                    return m & !first_word(b, cx) == 0;
                }
                let a = set_of(a, cx);
                a.is_subset(&set_of(b, cx))
            }
            Op::In(a, b) => {
                let i = match &**a {
                    Op::Slot(x) => cx.vals[*x].idx(),
                    a => ev(a, cx).idx(),
                };
                // `d in digits(x)` of one cell or candidate: its mask.
                if let Some(m) = one_digit_mask(b, cx) {
                    return i < 64 && m >> i & 1 != 0;
                }
                match &**b {
                    // A bound set or element, read in place.
                    Op::Slot(s) => match &cx.vals[*s] {
                        Val::Set(b) => b.contains(i),
                        Val::Idx(j) => *j == i,
                        _ => false,
                    },
                    // `B in peers(A)` of one bound cell: the table.
                    Op::Peers(x) => match &**x {
                        Op::Slot(s) if matches!(cx.vals[*s], Val::Idx(_)) => {
                            CELL_PEERS[cx.vals[*s].idx()].contains(i)
                        }
                        _ => set_of(b, cx).contains(i),
                    },
                    b => set_of(b, cx).contains(i),
                }
            }
            Op::And(a, b) => cond(a, cx) && cond(b, cx),
            Op::Or(a, b) => cond(a, cx) || cond(b, cx),
            Op::Quant(qo) => quantify(qo, cx).bool(),
            _ => self.eval(cx).bool(),
        }
    }

    /// The operands of an operation (every operation has at most two):
    /// one walker for the analyses of a tree.
    pub fn operands(&self) -> [Option<&Op>; 2] {
        match self {
            Op::Int(_) | Op::Slot(_) | Op::Grid => [None, None],
            Op::WSet(_)
            | Op::CSet(_)
            | Op::WLen(_)
            | Op::CLen(_)
            | Op::MaskLen(..)
            | Op::ProdLen(_)
            | Op::ProdSet(_)
            | Op::ProdSub(_)
            | Op::ElemAndLen(_)
            | Op::WEq(..)
            | Op::CEq(..)
            | Op::WSub(_)
            | Op::CSub(_)
            | Op::WIn(_)
            | Op::CIn(_)
            | Op::ICmp(..)
            | Op::XCmp(..)
            | Op::AllOf(_)
            | Op::AnyOf(_)
            | Op::TQuant(_) => [None, None],
            Op::Quant(qo) => [Some(&qo.domain), Some(&qo.body)],
            Op::Cands(_, x)
            | Op::Project(_, x)
            | Op::Linked(x)
            | Op::Peers(x)
            | Op::First(x)
            | Op::Last(x)
            | Op::Len(x)
            | Op::Not(x) => [Some(x), None],
            Op::SetBin(_, a, b)
            | Op::IntBin(_, a, b)
            | Op::Cmp(_, a, b)
            | Op::SetEq(_, a, b)
            | Op::SubsetOf(a, b)
            | Op::In(a, b)
            | Op::And(a, b)
            | Op::Or(a, b) => [Some(a), Some(b)],
        }
    }

    /// The operands of an operation, to change them in place (a
    /// quantifier's are its domain and condition, as in [`Op::operands`]).
    pub fn operands_mut(&mut self) -> [Option<&mut Op>; 2] {
        match self {
            Op::Int(_) | Op::Slot(_) | Op::Grid => [None, None],
            Op::WSet(_)
            | Op::CSet(_)
            | Op::WLen(_)
            | Op::CLen(_)
            | Op::MaskLen(..)
            | Op::ProdLen(_)
            | Op::ProdSet(_)
            | Op::ProdSub(_)
            | Op::ElemAndLen(_)
            | Op::WEq(..)
            | Op::CEq(..)
            | Op::WSub(_)
            | Op::CSub(_)
            | Op::WIn(_)
            | Op::CIn(_)
            | Op::ICmp(..)
            | Op::XCmp(..)
            | Op::AllOf(_)
            | Op::AnyOf(_)
            | Op::TQuant(_) => [None, None],
            Op::Quant(qo) => [Some(&mut qo.domain), Some(&mut qo.body)],
            Op::Cands(_, x)
            | Op::Project(_, x)
            | Op::Linked(x)
            | Op::Peers(x)
            | Op::First(x)
            | Op::Last(x)
            | Op::Len(x)
            | Op::Not(x) => [Some(x), None],
            Op::SetBin(_, a, b)
            | Op::IntBin(_, a, b)
            | Op::Cmp(_, a, b)
            | Op::SetEq(_, a, b)
            | Op::SubsetOf(a, b)
            | Op::In(a, b)
            | Op::And(a, b)
            | Op::Or(a, b) => [Some(a), Some(b)],
        }
    }

    /// Can evaluation be undefined (does it use `first` or `last`)?
    pub fn may_fail(&self) -> bool {
        matches!(self, Op::First(_) | Op::Last(_))
            || self.operands().into_iter().flatten().any(Op::may_fail)
    }
}

/// One instruction of a plan, run in order.
#[derive(Clone, Debug)]
pub enum Instr {
    /// Binds `slot` to each element of the domain (`size: None`) or to each
    /// `size`-subset of it, in increasing order; or, when `order` is not
    /// empty (`in A then B …`, whose union is `domain`), to the elements
    /// of the domain in A in increasing order, then those in B not taken
    /// yet, and so on.
    Gen {
        slot: usize,
        elem: Elem,
        size: Option<usize>,
        domain: Option<Op>,
        order: Vec<Op>,
    },
    Def {
        slot: usize,
        op: Op,
    },
    Filter(Op),
}

/// A piece of a show template.
#[derive(Clone, Debug)]
pub enum ShowPart {
    /// Literal text (family parameters already substituted).
    Lit(String),
    /// A value, printed by its shape.
    Value(Shape, Op),
    /// Elements printed relative to a context element (`within(ctx, x)`).
    Within {
        ctx_elem: Elem,
        ctx: Op,
        shape: Shape,
        x: Op,
    },
}

/// A compiled pattern rule: the [`Searcher`] of the `rule` kind.
#[derive(Clone, Debug)]
pub struct Plan {
    pub slots: usize,
    pub instrs: Vec<Instr>,
    pub conclusion: ConclusionKind,
    pub target: Op,
    /// `parents EXPR`: the candidates whose absence a match relies on,
    /// evaluated with the match's bound values on another state (see
    /// [`Searcher::parents`]).
    pub parents: Option<Op>,
    pub show: Vec<ShowPart>,
    /// What each slot of [`Evidence::Bindings`] holds (an element or a set
    /// of elements; `None` for integers, conditions and quantified names),
    /// so that tools such as the pictures of `draw` can read a match's
    /// bound values without knowing the rule.
    pub slot_shapes: Vec<Option<Shape>>,
    /// The first instructions this plan shares with other plans of its
    /// file, whose bindings are computed once per state (see
    /// [`super::prefix`]): shorter prefixes first, each shared with more
    /// plans; empty when it shares none.
    pub prefixes: Vec<Prefix>,
    /// Conditions folded into generators' domains (see [`super::fold`]).
    pub folded: Folded,
    /// How the first match is found on a board: by the plan's
    /// instructions, or off the board's counts (see [`super::count`]).
    pub strategy: Strategy,
}

thread_local! {
    /// Vectors of finished searches' frames (bound values, default
    /// domains), reused by the next ones.
    static FRAMES: std::cell::RefCell<Vec<FrameBufs>> = const { std::cell::RefCell::new(Vec::new()) };
}

type FrameBufs = (Vec<Val>, Vec<Option<Bits>>);

/// What one search of a plan works with.
struct Frame<'a, 'f> {
    state: &'a State,
    /// The cells of each digit's candidates in `state`, then of any
    /// digit's, read once for the search.
    dc: [u128; 10],
    env: Vec<Val>,
    /// Each generator's default domain, computed once per search.
    live: Vec<Option<Bits>>,
    cx: &'a mut SearchCx,
    f: &'a mut (dyn FnMut(Found) -> ControlFlow<()> + 'f),
    /// When recording a prefix: the instruction it ends before (else
    /// `usize::MAX`), the slots kept of each binding that reaches it
    /// ([`Prefix::width`]), those bindings, and whether they were too many
    /// to keep.
    stop: usize,
    width: usize,
    sink: Vec<Val>,
    overflow: bool,
}

impl Plan {
    /// The matches of the instructions from `k` on: definitions and
    /// filters go on to the next instruction in this call (a loop, not a
    /// call per instruction); a generator calls it again per value.
    fn run(&self, mut k: usize, fr: &mut Frame) -> ControlFlow<()> {
        loop {
            if k == fr.stop {
                if fr.sink.len() >= MAX_RECORDED * fr.width {
                    fr.overflow = true;
                    return ControlFlow::Break(());
                }
                fr.sink.extend_from_slice(&fr.env[..fr.width]);
                return ControlFlow::Continue(());
            }
            let Some(instr) = self.instrs.get(k) else {
                let Some(t) = self
                    .target
                    .defined_in(fr.state, &fr.dc, &mut fr.env, Op::eval_set)
                else {
                    return ControlFlow::Continue(());
                };
                let t = t.and(&fr.state.cands);
                if t.is_empty() || !self.showable(fr.state, &mut fr.env) {
                    return ControlFlow::Continue(());
                }
                // The checker proves it (`assert` of a `cand` or of a name
                // whose count a filter bounds by one).
                debug_assert!(self.conclusion == ConclusionKind::Eliminate || t.len() == 1);
                return (fr.f)(Found {
                    kind: self.conclusion,
                    conclusions: t,
                    grade: None,
                    evidence: Evidence::Bindings(fr.env.clone()),
                });
            };
            match instr {
                Instr::Def { .. } | Instr::Filter(_) => {
                    // A run of definitions and filters, in one environment,
                    // up to the next generator (or the prefix's end).
                    let ops = &self.folded.typed.ops;
                    let stop = fr.stop;
                    let mut cx = Env {
                        state: fr.state,
                        vals: &mut fr.env,
                        undefined: false,
                        dc: &fr.dc,
                    };
                    while k != stop {
                        match self.instrs.get(k) {
                            Some(Instr::Def { slot, .. }) => {
                                let Some(Some(op)) = ops.get(k) else {
                                    unreachable!("a definition has its typed expression")
                                };
                                op.eval_into(&mut cx, *slot);
                                if cx.undefined {
                                    return ControlFlow::Continue(());
                                }
                            }
                            // What fold left of the filter, typed (its
                            // chain's terms in place: [`cond`]).
                            Some(Instr::Filter(_)) => {
                                if let Some(Some(op)) = ops.get(k)
                                    && (!cond(op, &mut cx) || cx.undefined)
                                {
                                    return ControlFlow::Continue(());
                                }
                            }
                            _ => break,
                        }
                        k += 1;
                    }
                }
                Instr::Gen {
                    slot,
                    elem,
                    size,
                    domain,
                    order,
                } => {
                    let mut dom = match fr.live[k] {
                        Some(d) => d,
                        None => {
                            let d =
                                self.default_domain(k, *slot, *elem, fr.state, &fr.dc, &mut fr.env);
                            fr.live[k] = Some(d);
                            d
                        }
                    };
                    if domain.is_some()
                        && let Some(d) = &self.folded.typed.ops[k]
                    {
                        let Some(d) = d.defined_in(fr.state, &fr.dc, &mut fr.env, Op::eval_set)
                        else {
                            return ControlFlow::Continue(());
                        };
                        dom = dom.and(&d);
                    }
                    if let Some((op, s)) = self.folded.bounds.get(k).copied().flatten()
                        && let Val::Idx(j) = fr.env[s]
                    {
                        dom = dom.and(&side(op, j));
                    }
                    if !order.is_empty() {
                        return self.run_ordered(k, *slot, order, dom, fr);
                    }
                    return match *size {
                        None => {
                            // The members, from the words the element type
                            // can have members in only.
                            for (w, &word) in dom.0[..elem_words(*elem)].iter().enumerate() {
                                let mut m = word;
                                while m != 0 {
                                    let i = w * 64 + m.trailing_zeros() as usize;
                                    m &= m - 1;
                                    if fr.cx.tick() {
                                        return ControlFlow::Break(());
                                    }
                                    fr.env[*slot] = Val::Idx(i);
                                    self.run(k + 1, fr)?;
                                }
                            }
                            ControlFlow::Continue(())
                        }
                        Some(0) => ControlFlow::Continue(()),
                        Some(n) => {
                            let count = dom.len();
                            self.subsets(k, *slot, n, dom, count, Bits::EMPTY, fr)
                        }
                    };
                }
            }
        }
    }

    /// Generator `k` over `dom` taken in the order of its `then` parts.
    fn run_ordered(
        &self,
        k: usize,
        slot: usize,
        order: &[Op],
        dom: Bits,
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        let mut left = dom;
        for part in order {
            let Some(p) = part.defined_in(fr.state, &fr.dc, &mut fr.env, Op::eval_set) else {
                continue;
            };
            let take = left.and(&p);
            left = left.minus(&take);
            for i in take.iter() {
                if fr.cx.tick() {
                    return ControlFlow::Break(());
                }
                fr.env[slot] = Val::Idx(i);
                self.run(k + 1, fr)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The bindings that reach the end of shared prefix `level`: recorded
    /// for this state by any plan with the same prefix, or made now (from
    /// those of the level below) and recorded. `Err` when the deadline
    /// passed.
    fn bindings(&self, level: usize, fr: &mut Frame) -> Result<Rc<Recorded>, ControlFlow<()>> {
        let p = self.prefixes[level];
        if let Some(rec) = prefix::recorded(p.key, &fr.state.cands) {
            return Ok(rec);
        }
        let below = match level {
            0 => None,
            _ => Some(self.bindings(level - 1, fr)?).filter(|r| r.complete),
        };
        fr.stop = p.len;
        fr.width = p.width;
        fr.sink = prefix::spare(p.key);
        let flow = match &below {
            Some(rec) => self.replay(rec, self.prefixes[level - 1].len, fr),
            None => self.run(0, fr),
        };
        fr.stop = usize::MAX;
        let overflow = std::mem::take(&mut fr.overflow);
        let vals = std::mem::take(&mut fr.sink);
        if flow.is_break() && !overflow {
            // The deadline passed: nothing complete to keep.
            return Err(flow);
        }
        Ok(prefix::record(
            p.key,
            Recorded {
                cands: fr.state.cands,
                stride: p.width,
                complete: !overflow,
                vals,
            },
        ))
    }

    /// The default domain of generator `k` (the elements with a live
    /// candidate), less those that fail a condition folded into it.
    fn default_domain(
        &self,
        k: usize,
        slot: usize,
        elem: Elem,
        state: &State,
        dc: &[u128; 10],
        env: &mut [Val],
    ) -> Bits {
        let mut dom = live_domain(state, elem);
        let conds = &self.folded.typed.conds[k];
        if !conds.is_empty() {
            for i in dom.iter() {
                env[slot] = Val::Idx(i);
                if !(conds.iter())
                    .all(|c| c.defined_in(state, dc, env, Op::eval_bool).unwrap_or(false))
                {
                    dom.remove(i);
                }
            }
        }
        dom
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

    /// Runs the plan from instruction `k` on each recorded binding (the
    /// values of its prefix's first slots).
    fn replay(&self, rec: &Recorded, k: usize, fr: &mut Frame) -> ControlFlow<()> {
        for env in rec.vals.chunks(rec.stride) {
            if fr.cx.tick() {
                return ControlFlow::Break(());
            }
            let n = env.len().min(fr.env.len());
            fr.env[..n].copy_from_slice(&env[..n]);
            self.run(k, fr)?;
        }
        ControlFlow::Continue(())
    }

    /// Is every hole of the show template defined? A match is only found
    /// where it can be shown (`first` or `last` of an empty set in a hole
    /// makes it no match, as anywhere else in the rule).
    fn showable(&self, state: &State, env: &mut [Val]) -> bool {
        let defined = |op: &Op, env: &mut [Val]| !op.may_fail() || op.value(state, env).is_some();
        self.show.iter().all(|p| match p {
            ShowPart::Lit(_) => true,
            ShowPart::Value(_, op) => defined(op, env),
            ShowPart::Within { ctx, x, .. } => defined(ctx, env) && defined(x, env),
        })
    }

    /// Binds `slot` to every `need`-subset of `from` (which has `count`
    /// members) joined to `acc`, in lexicographic order of members.
    #[allow(clippy::too_many_arguments)]
    fn subsets(
        &self,
        k: usize,
        slot: usize,
        need: usize,
        from: Bits,
        count: usize,
        acc: Bits,
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        if need == 0 {
            if fr.cx.tick() {
                return ControlFlow::Break(());
            }
            fr.env[slot] = Val::Set(acc);
            return self.run(k + 1, fr);
        }
        let mut rest = from;
        let mut left = count;
        for i in from.iter() {
            if left < need {
                break;
            }
            rest.remove(i);
            left -= 1;
            let mut with = acc;
            with.insert(i);
            self.subsets(k, slot, need - 1, rest, left, with, fr)?;
        }
        ControlFlow::Continue(())
    }
}

/// For the `i`-th house of a space's variables (row, column or block `i`
/// for rn, cn, bn): the digits with at least one live place in it, and
/// those with exactly `k`, from the cells' digit masks.
fn house_digits(space: Space, i: usize, masks: &[u16; N_CELLS], k: usize) -> (u16, u16) {
    let h = match space {
        Space::Rn => i,
        Space::Cn => 9 + i,
        _ => 18 + i,
    };
    let cells = &HOUSE_CELLS[h];
    if k == 1 {
        // Bit-sliced: `one` has the digits seen once or more, `two` twice
        // or more.
        let (mut one, mut two) = (0u16, 0u16);
        for &c in cells {
            let m = masks[c];
            two |= one & m;
            one |= m;
        }
        return (one, one & !two);
    }
    let mut n = [0usize; 9];
    let mut live = 0u16;
    for &c in cells {
        live |= masks[c];
        let mut m = masks[c];
        while m != 0 {
            n[m.trailing_zeros() as usize] += 1;
            m &= m - 1;
        }
    }
    let exact = (0..9).filter(|&d| n[d] == k).fold(0u16, |a, d| a | 1 << d);
    (live, exact)
}

impl Plan {
    /// Runs a plan with a count head ([`count_head`]): the live variables
    /// of the space count as the generator's nodes (nine at a time); those
    /// with K live candidates, in index order, go on to the third
    /// instruction.
    fn run_counted(&self, head: (usize, Space, usize), fr: &mut Frame) -> ControlFlow<()> {
        let (slot, space, k) = head;
        let masks = cell_masks(&fr.state.cands);
        let base = var(space, 0);
        for i in 0..9 {
            // The space's variables 9i..9i+9: a cell's digits (rc), or a
            // house's digits.
            let (live, exact) = match space {
                Space::Rc => {
                    let mut live = 0u16;
                    let mut exact = 0u16;
                    for j in 0..9 {
                        let m = masks[9 * i + j];
                        if m != 0 {
                            live |= 1 << j;
                        }
                        if m.count_ones() as usize == k {
                            exact |= 1 << j;
                        }
                    }
                    (live, exact)
                }
                _ => house_digits(space, i, &masks, k),
            };
            // The generator's nodes are the live variables, counted up to
            // each match before it goes on (as one at a time would).
            let mut ticked = 0u16;
            let mut m = exact & live;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let upto = live & ((2u16 << j) - 1) & !ticked;
                ticked |= upto;
                if fr.cx.tick_n(upto.count_ones()) {
                    return ControlFlow::Break(());
                }
                fr.env[slot] = Val::Idx(base + 9 * i + j);
                self.run(2, fr)?;
            }
            if fr.cx.tick_n((live & !ticked).count_ones()) {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

impl Plan {
    /// Runs `body` on a fresh frame for one search of this plan on
    /// `state`. The frame's vectors come from a per-thread pool: a trial's
    /// branches search their rules thousands of times a step.
    fn framed(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
        body: impl FnOnce(&Plan, &mut Frame) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (mut env, mut live) = FRAMES.with(|p| p.borrow_mut().pop()).unwrap_or_default();
        env.clear();
        env.resize(self.slots, Val::Int(0));
        live.clear();
        live.resize(self.instrs.len(), None);
        let mut fr = Frame {
            state,
            dc: typed::digit_cells_copy(&state.cands),
            env,
            live,
            cx,
            f,
            stop: usize::MAX,
            width: 0,
            sink: Vec::new(),
            overflow: false,
        };
        let flow = body(self, &mut fr);
        let bufs = (std::mem::take(&mut fr.env), std::mem::take(&mut fr.live));
        FRAMES.with(|p| p.borrow_mut().push(bufs));
        flow
    }
}

impl Searcher for Plan {
    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.framed(cx, state, f, |plan, fr| plan.search_in(fr))
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
        let (Some(op), Evidence::Bindings(env)) = (&self.parents, evidence) else {
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
        for p in &self.show {
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

    fn plan_mut(&mut self) -> Option<&mut Plan> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members a bound keeps: those on its side of the index.
    #[test]
    fn sides_of_an_index() {
        let of = |op, j| side(op, j).iter().collect::<Vec<_>>();
        assert_eq!(of(CmpOp::Lt, 3), [0, 1, 2]);
        assert_eq!(of(CmpOp::Le, 3), [0, 1, 2, 3]);
        assert_eq!(of(CmpOp::Gt, 764), [765, 766, 767]);
        assert_eq!(of(CmpOp::Ge, 765), [765, 766, 767]);
        assert!(side(CmpOp::Lt, 0).is_empty());
        assert!(side(CmpOp::Gt, 767).is_empty());
        assert_eq!(side(CmpOp::Ne, 5).len(), Bits::CAPACITY);
        for j in [0, 1, 63, 64, 80, 400, 728] {
            let (lt, ge) = (side(CmpOp::Lt, j), side(CmpOp::Ge, j));
            assert!(!lt.intersects(&ge));
            assert_eq!(lt.len() + ge.len(), Bits::CAPACITY);
            assert_eq!(side(CmpOp::Le, j).len(), j + 1);
        }
    }

    /// The shapes read from tables and masks (`peers` of one cell or of a
    /// union, `digits(x) <= S`, `d in digits(x)`, `digits(z) ==
    /// digits(w)`, `digits` of a set of cells, a quantifier over
    /// `digits(x) <= S`) give what the sets they stand for give, on
    /// random states.
    #[test]
    fn mask_and_table_shapes_agree_with_sets() {
        let b = Box::new;
        let slot = |s| b(Op::Slot(s));
        let digits_of = |e: Elem, s| Op::Project(Elem::Digit, b(Op::Cands(e, slot(s))));
        let mut x: u64 = 0x5851_F42D_4C95_7F2D;
        let mut next = |n: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % n) as usize
        };
        let mut checked = 0;
        for _ in 0..200 {
            let mut masks = [0u16; N_CELLS];
            for m in masks.iter_mut() {
                *m = next(512) as u16;
            }
            let state = State::from_masks(&masks, &[0; N_CELLS]);
            let digits = |c: usize| word_set(u64::from(masks[c]));
            let (c1, c2, c3) = (next(81), next(81), next(81));
            let cells = Bits::from_indices([c1, c2, c3]);
            let d = next(9);
            let z = cand(c1, next(9));
            let w = cand(c2, next(9));
            let sub = word_set(next(512) as u64);
            // Slots: 0, 1 cells; 2 a set of cells; 3 a digit; 4, 5
            // candidates; 6 a digit set; 7 the empty set; 8 a quantifier.
            let mut vals = vec![
                Val::Idx(c1),
                Val::Idx(c2),
                Val::Set(cells),
                Val::Idx(d),
                Val::Idx(z),
                Val::Idx(w),
                Val::Set(sub),
                Val::Set(Bits::EMPTY),
                Val::Int(0),
            ];
            let peers = |c: usize| CELL_PEERS[c];
            let set = |op: &Op, vals: &mut Vec<Val>| op.value_set(&state, vals).unwrap();
            let cond = |op: &Op, vals: &mut Vec<Val>| op.holds(&state, vals);
            assert_eq!(set(&Op::Peers(slot(0)), &mut vals), peers(c1));
            let union = Op::Peers(b(Op::SetBin(SetOp::Union, slot(0), slot(1))));
            assert_eq!(set(&union, &mut vals), peers(c1).and(&peers(c2)));
            let with_empty = Op::Peers(b(Op::SetBin(SetOp::Union, slot(7), slot(1))));
            assert_eq!(set(&with_empty, &mut vals), peers(c2));
            assert_eq!(set(&Op::Peers(slot(7)), &mut vals), Bits::EMPTY);
            let all3 = peers(c1).and(&peers(c2)).and(&peers(c3));
            assert_eq!(set(&Op::Peers(slot(2)), &mut vals), all3);
            assert_eq!(
                cond(&Op::In(slot(1), b(Op::Peers(slot(0)))), &mut vals),
                peers(c1).contains(c2)
            );
            assert_eq!(
                cond(
                    &Op::SubsetOf(b(digits_of(Elem::Cell, 0)), slot(6)),
                    &mut vals
                ),
                digits(c1).is_subset(&sub)
            );
            assert_eq!(
                cond(&Op::In(slot(3), b(digits_of(Elem::Cell, 1))), &mut vals),
                digits(c2).contains(d)
            );
            let live = |z: usize| state.cands.contains(z);
            let dz = if live(z) {
                Bits::single(cand_digit(z))
            } else {
                Bits::EMPTY
            };
            let dw = if live(w) {
                Bits::single(cand_digit(w))
            } else {
                Bits::EMPTY
            };
            let same = Op::SetEq(
                true,
                b(digits_of(Elem::Cand, 4)),
                b(digits_of(Elem::Cand, 5)),
            );
            assert_eq!(cond(&same, &mut vals), dz == dw);
            assert_eq!(
                set(&digits_of(Elem::Cell, 2), &mut vals),
                digits(c1).or(&digits(c2)).or(&digits(c3))
            );
            let any = Op::Quant(Box::new(QuantOp {
                q: Quant::Any,
                slot: 8,
                domain: Op::Slot(2),
                body: Op::SubsetOf(b(digits_of(Elem::Cell, 8)), slot(6)),
                pre: Vec::new(),
            }));
            let expect = [c1, c2, c3].iter().any(|&c| digits(c).is_subset(&sub));
            assert_eq!(cond(&any, &mut vals), expect);
            checked += 1;
        }
        assert_eq!(checked, 200);
    }

    /// `cells(H)` and `digits(H)` read from the cells' masks are the
    /// projections of the house's live candidates, on states from full to
    /// nearly empty.
    #[test]
    fn house_projections_agree() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut checked = 0;
        for density in [0u64, 2, 16, 128, 250, 256] {
            for _ in 0..20 {
                let mut masks = [0u16; N_CELLS];
                for m in masks.iter_mut() {
                    for d in 0..9 {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        if (x >> 56) < density {
                            *m |= 1 << d;
                        }
                    }
                }
                let state = State::from_masks(&masks, &[0; N_CELLS]);
                // The default domains too.
                for e in [
                    Elem::Digit,
                    Elem::Row,
                    Elem::Column,
                    Elem::Block,
                    Elem::House,
                    Elem::Cell,
                    Elem::Cand,
                    Elem::Var(None),
                ] {
                    assert_eq!(
                        live_domain(&state, e),
                        project_masks(e, &state.cands),
                        "{e:?}"
                    );
                }
                for h in 0..N_HOUSES {
                    let live = state.cands.and(&TABLES.house[h]);
                    for e in [Elem::Cell, Elem::Digit] {
                        assert_eq!(house_project(&state, e, h), project(e, &live), "{e:?} {h}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 20 * N_HOUSES * 2);
    }

    /// The fast projections agree with the per-cell masks on sets of every
    /// size, member-wise ones included.
    #[test]
    fn projections_agree_with_cell_masks() {
        let elems = [
            Elem::Digit,
            Elem::Row,
            Elem::Column,
            Elem::Block,
            Elem::House,
            Elem::Cell,
            Elem::Cand,
            Elem::Var(None),
            Elem::Var(Some(Space::Bn)),
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for density in [1u64, 3, 8, 40, 128, 255] {
            for _ in 0..50 {
                let mut s = Bits::EMPTY;
                for z in 0..N_CANDS {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (x >> 56) < density {
                        s.insert(z);
                    }
                }
                for e in elems {
                    assert_eq!(project(e, &s), project_masks(e, &s), "{e:?} {s:?}");
                }
            }
        }
        for e in elems {
            assert_eq!(project(e, &Bits::EMPTY), Bits::EMPTY);
            assert_eq!(
                project(e, &Bits::single(728)),
                project_masks(e, &Bits::single(728))
            );
        }
    }
}
