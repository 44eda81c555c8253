//! Evaluation of typed expressions ([`TOp`], [`WOp`], [`COp`], products
//! and quantifiers) in an [`Env`]: a state, the bound values, and the
//! cells of each digit's live candidates read once per search.
//!
//! The evaluators keep their frequent cases small: [`WOp::eval`] and
//! [`COp::eval`] (always inlined) read a bound value, a constant, one
//! element's digits or one cell's peers where they are called, and a set
//! operation on two such operands, and leave the rest to an out-of-line
//! `eval_rest`; [`TOp::eval_bool`] evaluates the typed conditions in a
//! small frame and leaves comparisons of non-scalar operands and untyped
//! set conditions to `eval_bool_wide`, whose frame holds wide sets. The
//! terms of an `and`/`or` chain are read in place ([`cond`]).

use super::ir::{CmpOp, Elem, Geo, IntOp, OrChain, Quant, SetOp, SumFn, Test, Val};
use super::sets::*;
use super::typed::{ALL_DIGITS, COp, Dom, Prod, TOp, TQuant, WOp, WideQuant};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::common_links_in;
use crate::grid::plane::HOUSE81;
use crate::grid::state::State;
use crate::grid::tables::*;
use crate::search::Clock;

/// What an expression is evaluated with: the state, the bound values, and
/// whether an undefined value was met (`first` or `last` of an empty
/// set). An undefined value makes the clause being evaluated fail: the
/// rule does not match there. `dc` holds the cells of each digit's
/// candidates in the state, then of any digit's ([`digit_cells`]), read
/// once for the evaluation (a search reads them once for all of its own,
/// from its context's [`DigitCells`]). Each quantifier charges the members
/// of its domain to the search's `clock` before it looks at them: past the
/// deadline the evaluation stops as if undefined (so nested quantifiers
/// over the grid cannot outlive `--max-seconds`), and the search stops at
/// its next node. `givens` are the run's given values ([`SearchCx`]'s;
/// `None` outside a run: every decided cell counts as a given).
///
/// [`SearchCx`]: crate::search::SearchCx
pub struct Env<'a> {
    pub state: &'a State,
    pub vals: &'a mut [Val],
    pub undefined: bool,
    pub dc: &'a [u128; 10],
    pub clock: &'a mut Clock,
    pub givens: &'a Option<Bits>,
}

impl<'a> Env<'a> {
    /// `f` of an environment on `state` with the bound values `vals` (an
    /// evaluation outside a search: no deadline).
    pub fn on<R>(state: &'a State, vals: &'a mut [Val], f: impl FnOnce(&mut Env) -> R) -> R {
        let dc = digit_cells(&state.cands);
        f(&mut Env {
            state,
            vals,
            undefined: false,
            dc: &dc,
            clock: &mut Clock::default(),
            givens: &None,
        })
    }

    /// Charges a quantifier's `n` members to the clock, when it counts
    /// them (a search with a deadline or a budget): `true` (and the
    /// evaluation made undefined) when the search must stop.
    #[inline(always)]
    fn charge(&mut self, n: impl FnOnce() -> u64) -> bool {
        self.clock.counts_evaluation() && self.charge_now(n())
    }

    /// [`Env::charge`] when the clock counts (kept out of the evaluators:
    /// most runs have no limit).
    #[cold]
    #[inline(never)]
    fn charge_now(&mut self, n: u64) -> bool {
        if self.clock.charge(n) {
            self.undefined = true;
            return true;
        }
        false
    }
}

/// A quantifier's value (kept out of [`TOp::eval`], whose frame stays
/// small for the common operations): binds `slot` to each member of the
/// domain until the answer is known.
#[inline(never)]
fn quantify_wide(qo: &WideQuant, cx: &mut Env) -> Val {
    let WideQuant {
        q,
        slot,
        domain,
        body,
        pre,
    } = qo;
    let (q, slot) = (*q, *slot);
    let dom = set_of(domain, cx);
    if cx.charge(|| dom.len() as u64) {
        return Val::Bool(false);
    }
    if !dom.is_empty() {
        for (t, v) in pre {
            v.eval_into(cx, *t);
        }
    }
    // `digits(x) <= S`, with S the same for every member (a moved part
    // or a name bound outside): each member's 9-bit mask against S's
    // first word.
    let within = match body {
        TOp::SubsetOf(a, b) => match (&**a, &**b) {
            (TOp::Project(Elem::Digit, x), TOp::Slot(t)) if *t != slot => match &**x {
                TOp::Cands(e @ (Elem::Cell | Elem::Cand), y) if matches!(**y, TOp::Slot(s) if s == slot) => {
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
        // Folds are evaluated by `fold` (a quantifier never holds one).
        Quant::Count | Quant::Sum | Quant::Min | Quant::Max => Val::Int(count),
        Quant::Select => Val::Set(chosen),
    }
}

/// A fold's value (`sum`, `min`, `max` over the members; see
/// [`Quant::is_fold`]): the sum of an empty domain is 0, its least or
/// greatest member undefined.
#[inline(never)]
fn fold(qo: &WideQuant, cx: &mut Env) -> i64 {
    let WideQuant {
        q,
        slot,
        domain,
        body,
        pre,
    } = qo;
    let dom = set_of(domain, cx);
    if cx.charge(|| dom.len() as u64) {
        return 0;
    }
    if dom.is_empty() {
        if *q != Quant::Sum {
            cx.undefined = true;
        }
        return 0;
    }
    for (t, v) in pre {
        v.eval_into(cx, *t);
    }
    let mut acc: Option<i64> = None;
    for i in dom.iter() {
        cx.vals[*slot] = Val::Idx(i);
        let n = body.eval_int(cx);
        if cx.undefined {
            return 0;
        }
        acc = Some(match (q, acc) {
            (_, None) => n,
            (Quant::Min, Some(a)) => a.min(n),
            (Quant::Max, Some(a)) => a.max(n),
            (_, Some(a)) => a.saturating_add(n),
        });
    }
    acc.unwrap_or(0)
}

/// The decided cells of a state, one bit a cell (kept out of
/// [`TOp::eval_set`], whose common cases it would crowd).
#[cold]
#[inline(never)]
fn decided_cells(state: &State) -> Bits {
    cells_bits(state.decided_cells())
}

/// The given cells of the run (see [`Env::givens`]), one bit a cell.
#[cold]
#[inline(never)]
fn given_cells(cx: &Env) -> Bits {
    let values = cx.givens.as_ref().unwrap_or(&cx.state.values);
    let mut cells = Bits::EMPTY;
    for z in values.iter() {
        cells.insert(cand_cell(z));
    }
    cells
}

/// What a cell, candidate, house, digit or variable is made of, by
/// geometry (live candidates aside): its cell, its digit, its house.
#[derive(Clone, Copy, Default)]
struct Place {
    cell: Option<usize>,
    digit: Option<usize>,
    house: Option<usize>,
}

fn place(e: Elem, i: usize) -> Place {
    use crate::grid::geometry::{Space, var_space};
    let p = Place::default();
    match e {
        Elem::Cell => Place { cell: Some(i), ..p },
        Elem::Cand => Place {
            cell: Some(cand_cell(i)),
            digit: Some(cand_digit(i)),
            ..p
        },
        Elem::Digit => Place {
            digit: Some(i),
            ..p
        },
        Elem::Row | Elem::Column | Elem::Block | Elem::House => Place {
            house: Some(i),
            ..p
        },
        Elem::Var(_) => {
            let k = i % 81;
            let house = match var_space(i) {
                Space::Rc => {
                    return Place { cell: Some(k), ..p };
                }
                Space::Rn => k / 9,
                Space::Cn => 9 + k / 9,
                Space::Bn => 18 + k / 9,
            };
            Place {
                digit: Some(k % 9),
                house: Some(house),
                ..p
            }
        }
    }
}

/// `g(x)` of the element `i` of type `e` ([`Op::Geo`]): a house, digit or
/// cell index, or a band or stack number; `None` where `g` has no value
/// for it (the column of a row).
pub fn geo(g: Geo, e: Elem, i: usize) -> Option<usize> {
    let p = place(e, i);
    let cell = p.cell;
    let house = |kind: usize| p.house.filter(|h| h / 9 == kind);
    match g {
        Geo::Row => cell.map(cell_row).or(house(0)),
        Geo::Column => cell.map(|c| 9 + cell_col(c)).or(house(1)),
        Geo::Block => cell.map(|c| 18 + cell_block(c)).or(house(2)),
        Geo::Band => cell
            .map(|c| cell_row(c) / 3 + 1)
            .or(house(0).map(|h| h / 3 + 1))
            .or(house(2).map(|h| (h - 18) / 3 + 1)),
        Geo::Stack => cell
            .map(|c| cell_col(c) / 3 + 1)
            .or(house(1).map(|h| (h - 9) / 3 + 1))
            .or(house(2).map(|h| (h - 18) % 3 + 1)),
        Geo::Digit => p.digit,
        Geo::Cell => cell,
    }
}

/// The candidates of element `i` of type `e`, live or not.
fn all_cands(e: Elem, i: usize) -> Bits {
    let p = place(e, i);
    let mut b = Bits::EMPTY;
    for z in 0..N_CANDS {
        let c = cand_cell(z);
        if p.cell.is_none_or(|x| x == c)
            && p.digit.is_none_or(|d| d == cand_digit(z))
            && p.house.is_none_or(|h| cell_houses(c).contains(&h))
        {
            b.insert(z);
        }
    }
    b
}

/// `number(d)`, `sum(x)`, `area(x)` and `cages(x)` ([`SumFn`]) on
/// classic Sudoku, which has no killer cage: `cages(x)` is empty and
/// `sum(x)` is a house's 45.
#[inline(never)]
fn sum_fn(g: SumFn, e: Elem, x: &TOp, cx: &mut Env) -> Val {
    match g {
        SumFn::Number | SumFn::Total => {
            let v = one_of(x, cx).and_then(|i| match g {
                SumFn::Number => (e == Elem::Digit && i < 9).then_some(i as i64 + 1),
                _ => place(e, i).house.filter(|_| e.is_house()).map(|_| 45),
            });
            Val::Int(v.unwrap_or_else(|| {
                cx.undefined = true;
                0
            }))
        }
        SumFn::Area => {
            let mut cells = Bits::EMPTY;
            for i in set_of(x, cx).iter() {
                cells = cells.or(&project(Elem::Cell, &all_cands(e, i)));
            }
            Val::Set(cells)
        }
        SumFn::Cages => Val::Set(Bits::EMPTY),
    }
}

/// The one index a single-valued operand holds: a bound element, or a
/// set of exactly one member; `None` otherwise.
fn one_of(op: &TOp, cx: &mut Env) -> Option<usize> {
    match ev(op, cx) {
        Val::Idx(i) => Some(i),
        Val::Set(b) if b.len() == 1 => b.min(),
        _ => None,
    }
}

/// The value of a single-valued function, `cell(R, C)` or `S at H`
/// (undefined: `cx.undefined`, and a stand-in 0).
#[inline(never)]
fn single(op: &TOp, cx: &mut Env) -> Val {
    let v = match op {
        TOp::Geo(g, e, x) => one_of(x, cx).and_then(|i| geo(*g, *e, i)).map(|v| match g {
            Geo::Band | Geo::Stack => Val::Int(v as i64),
            _ => Val::Idx(v),
        }),
        TOp::Value(x) => one_of(x, cx).and_then(|c| {
            let m = crate::grid::state::cell_mask(&cx.state.values, c);
            (m != 0).then(|| Val::Idx(m.trailing_zeros() as usize))
        }),
        TOp::CellAt(r, c) => match (one_of(r, cx), one_of(c, cx)) {
            (Some(r), Some(c)) if r < 9 && (9..18).contains(&c) => {
                Some(Val::Idx(crate::grid::geometry::cell(r, c - 9)))
            }
            _ => None,
        },
        TOp::At(e, h, s, x) => {
            let members = set_of(s, cx);
            one_of(x, cx).and_then(|x| {
                let region = all_cands(*h, x);
                let mut hit = members
                    .iter()
                    .filter(|&m| all_cands(*e, m).intersects(&region));
                match (hit.next(), hit.next()) {
                    (Some(m), None) => Some(Val::Idx(m)),
                    _ => None,
                }
            })
        }
        _ => unreachable!("single-valued operations only"),
    };
    v.unwrap_or_else(|| {
        cx.undefined = true;
        match op {
            TOp::Geo(Geo::Band | Geo::Stack, ..) => Val::Int(0),
            _ => Val::Idx(0),
        }
    })
}

/// The value of an operand: a bound value or a constant is read in place,
/// anything else evaluated (leaves are about half of the nodes evaluated,
/// and the call of [`TOp::eval`] costs more than reading them).
#[inline(always)]
fn ev(op: &TOp, cx: &mut Env) -> Val {
    match op {
        TOp::Slot(s) => cx.vals[*s],
        TOp::Int(i) => Val::Int(*i),
        _ => op.eval(cx),
    }
}

/// The value of a set operand: a bound value, the live candidates of a
/// bound element, or `grid` are read in place, anything else evaluated by
/// [`TOp::eval_set`] (these leaves are most of the operands of set
/// operations, and a call of `eval_set`, whose frame holds 96-byte sets,
/// costs more than reading them).
#[inline(always)]
fn set_of(op: &TOp, cx: &mut Env) -> Bits {
    match op {
        TOp::Slot(s) => cx.vals[*s].set(),
        TOp::Cands(e, x) => match &**x {
            TOp::Slot(s) => match &cx.vals[*s] {
                Val::Idx(i) => cands_of(cx.state, *e, *i),
                v => cands_val(cx.state, *e, *v),
            },
            _ => op.eval_set(cx),
        },
        TOp::Grid => cx.state.cands,
        _ => op.eval_set(cx),
    }
}

/// The value of a condition operand: the terms of an `and` or `or`
/// chain, and of a chain inside it (`(z == w and B in SA) or ...`), are
/// evaluated in place, each by [`leaf`], with no call of
/// [`TOp::eval_bool`] per chain.
#[inline(always)]
pub(super) fn cond(op: &TOp, cx: &mut Env) -> bool {
    // One loop site for both kinds of chain (and a lone condition, a
    // chain of one), so that [`term`] is inlined once.
    let (ts, all) = match op {
        TOp::AllOf(ts) => (&ts[..], true),
        TOp::AnyOf(ts) => (&ts[..], false),
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
fn term(op: &TOp, cx: &mut Env) -> bool {
    let (ts, all) = match op {
        TOp::AllOf(ts) => (&ts[..], true),
        TOp::AnyOf(ts) => (&ts[..], false),
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
/// place; a typed quantifier run with no frame of [`TOp::eval_bool`] in
/// between; anything else evaluated by it.
#[inline(always)]
fn leaf(op: &TOp, cx: &mut Env) -> bool {
    match op {
        TOp::Slot(s) => cx.vals[*s].bool(),
        TOp::TQuant(tq) => matches!(quantify(tq, cx, &mut |_| {}), Answer::Bool(true)),
        TOp::ICmp(c, ab) => {
            let a = int_of(&ab.0, cx);
            compare(*c, a, int_of(&ab.1, cx))
        }
        TOp::CIn(xs) if matches!(xs.0, TOp::Slot(_)) => {
            let TOp::Slot(x) = xs.0 else {
                unreachable!("matched above")
            };
            let i = cx.vals[x].idx();
            i < 128 && xs.1.eval(cx) >> i & 1 != 0
        }
        TOp::WIn(xs) if matches!(xs.0, TOp::Slot(_)) => {
            let TOp::Slot(x) = xs.0 else {
                unreachable!("matched above")
            };
            let i = cx.vals[x].idx();
            i < 64 && xs.1.eval(cx) >> i & 1 != 0
        }
        TOp::XCmp(c, x, y) => {
            let a = cx.vals[*x].idx() as i64;
            compare(*c, a, cx.vals[*y].idx() as i64)
        }
        // A comparison of two bound values (`z == u`).
        TOp::Cmp(c, a, b) if matches!((&**a, &**b), (TOp::Slot(_), TOp::Slot(_))) => {
            let (TOp::Slot(x), TOp::Slot(y)) = (&**a, &**b) else {
                unreachable!("matched above")
            };
            let (a, b) = compared(&cx.vals[*x], &cx.vals[*y]);
            compare(*c, a, b)
        }
        _ => op.eval_bool(cx),
    }
}

/// The value of an integer operand: a constant or a bound integer is read
/// in place, anything else evaluated by [`TOp::eval_int`].
#[inline(always)]
fn int_of(op: &TOp, cx: &mut Env) -> i64 {
    match op {
        TOp::Int(i) => *i,
        TOp::Slot(s) => cx.vals[*s].int(),
        // `|S|` of a bound set, counted in place.
        TOp::Len(x) if matches!(**x, TOp::Slot(_)) => {
            let TOp::Slot(s) = **x else {
                unreachable!("matched above")
            };
            match &cx.vals[s] {
                Val::Set(b) => b.len() as i64,
                Val::Idx(_) => 1,
                _ => 0,
            }
        }
        // Sizes of typed sets, read where the caller is.
        TOp::MaskLen(e, s) => digit_mask(cx.state, *e, cx.vals[*s].idx()).count_ones() as i64,
        TOp::WLen(w) => w.eval(cx).count_ones() as i64,
        TOp::CLen(c) => c.eval(cx).count_ones() as i64,
        TOp::ElemAndLen(xs) => elem_and_len(xs.0, xs.1, &xs.2, cx),
        // A count, with no `Val` in between.
        TOp::TQuant(tq) => count_of(tq, cx),
        _ => op.eval_int(cx),
    }
}

/// The value of a typed `count` quantifier (0 for any other quantifier,
/// as `Val`'s `int` gives it; an undefined member leaves `cx.undefined`
/// set).
#[inline(always)]
fn count_of(tq: &TQuant, cx: &mut Env) -> i64 {
    match quantify(tq, cx, &mut |_| {}) {
        Answer::Count(n) => n,
        _ => 0,
    }
}

/// `|cands(x) & S|` of the element of type `e` bound in slot `s`
/// ([`TOp::ElemAndLen`]): a bound S is read in place.
#[inline(always)]
fn elem_and_len(e: Elem, s: usize, other: &TOp, cx: &mut Env) -> i64 {
    let x = cx.vals[s].idx();
    if e == Elem::Cell {
        let m = digit_mask(cx.state, Elem::Cell, x);
        let w = match other {
            TOp::Slot(t) => match &cx.vals[*t] {
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
        TOp::Slot(u) => match &cx.vals[*u] {
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
fn peers_of(op: &TOp, cx: &mut Env) -> Option<Bits> {
    match op {
        TOp::Slot(s) if matches!(cx.vals[*s], Val::Idx(_)) => Some(CELL_PEERS[cx.vals[*s].idx()]),
        TOp::SetBin(SetOp::Union, p, q) => match (peers_of(p, cx), peers_of(q, cx)) {
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
fn one_digit_mask(op: &TOp, cx: &mut Env) -> Option<u64> {
    let TOp::Project(Elem::Digit, x) = op else {
        return None;
    };
    let TOp::Cands(inner @ (Elem::Cell | Elem::Cand), y) = &**x else {
        return None;
    };
    let TOp::Slot(s) = &**y else {
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
fn first_word(op: &TOp, cx: &mut Env) -> u64 {
    match op {
        TOp::Slot(s) => match &cx.vals[*s] {
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
fn idx_of(op: &TOp, cx: &mut Env) -> usize {
    op.eval(cx).idx()
}

impl TOp {
    /// The value of the expression on `state` with the bound values
    /// `vals`; `None` when it is undefined (`first` or `last` of an empty
    /// set was met).
    #[inline]
    pub fn value(&self, state: &State, vals: &mut [Val]) -> Option<Val> {
        self.defined(state, vals, TOp::eval)
    }

    /// Is the condition true on `state` with the bound values `vals`
    /// (`false` when it is undefined)?
    #[inline]
    pub fn holds(&self, state: &State, vals: &mut [Val]) -> bool {
        self.defined(state, vals, TOp::eval_bool).unwrap_or(false)
    }

    /// The value of a set expression on `state` with the bound values
    /// `vals` (as [`TOp::value`], then [`Val`]'s set).
    #[inline]
    pub fn value_set(&self, state: &State, vals: &mut [Val]) -> Option<Bits> {
        self.defined(state, vals, TOp::eval_set)
    }

    /// `eval` (one of the evaluators) of the expression on `state` with
    /// the bound values `vals`, when defined (an evaluation outside a
    /// search, with no deadline: the cells of each digit's candidates are
    /// read for it).
    #[inline]
    fn defined<T>(
        &self,
        state: &State,
        vals: &mut [Val],
        eval: impl FnOnce(&TOp, &mut Env) -> T,
    ) -> Option<T> {
        let dc = digit_cells(&state.cands);
        self.defined_in(state, &dc, vals, (&mut Clock::default(), &None), eval)
    }

    /// [`TOp::defined`] with the cells of each digit's candidates in
    /// `state` given (`dc`, as a search keeps them), the search's clock
    /// and the run's givens (`None` also when the deadline passed during
    /// the evaluation).
    #[inline]
    pub fn defined_in<T>(
        &self,
        state: &State,
        dc: &[u128; 10],
        vals: &mut [Val],
        (clock, givens): (&mut Clock, &Option<Bits>),
        eval: impl FnOnce(&TOp, &mut Env) -> T,
    ) -> Option<T> {
        let mut cx = Env {
            state,
            vals,
            undefined: false,
            dc,
            clock,
            givens,
        };
        let v = eval(self, &mut cx);
        (!cx.undefined).then_some(v)
    }

    /// Evaluates the expression in `cx`. When `first` or `last` meets an
    /// empty set, `cx.undefined` is set and a stand-in index (0) is used,
    /// so evaluation goes on harmlessly; the caller drops the result.
    /// Quantifiers bind their variable in `cx.vals`.
    ///
    /// Sets, integers and conditions are computed by [`TOp::eval_set`],
    /// [`TOp::eval_int`] and [`TOp::eval_bool`], which an operation calls
    /// for operands of a known kind: a condition or a count then travels
    /// in a register, not as a [`Val`] of a hundred bytes.
    pub fn eval(&self, cx: &mut Env) -> Val {
        match self {
            TOp::Int(i) => Val::Int(*i),
            TOp::Slot(s) => cx.vals[*s],
            TOp::Grid
            | TOp::Cands(..)
            | TOp::Project(..)
            | TOp::Linked(_)
            | TOp::OrWhips(..)
            | TOp::Peers(_)
            | TOp::SetBin(..)
            | TOp::WSet(_)
            | TOp::CSet(_)
            | TOp::ProdSet(_) => Val::Set(self.eval_set(cx)),
            TOp::WLen(_)
            | TOp::CLen(_)
            | TOp::MaskLen(..)
            | TOp::ProdLen(_)
            | TOp::ElemAndLen(_) => Val::Int(self.eval_int(cx)),
            TOp::WEq(..)
            | TOp::CEq(..)
            | TOp::WSub(_)
            | TOp::CSub(_)
            | TOp::ProdSub(_)
            | TOp::WIn(_)
            | TOp::CIn(_)
            | TOp::ICmp(..)
            | TOp::XCmp(..)
            | TOp::AllOf(_)
            | TOp::AnyOf(_) => Val::Bool(self.eval_bool(cx)),
            TOp::TQuant(tq) => quant_val(tq, cx),
            TOp::First(x) => {
                let s = set_of(x, cx);
                Val::Idx(s.min().unwrap_or_else(|| {
                    cx.undefined = true;
                    0
                }))
            }
            TOp::Last(x) => {
                let s = set_of(x, cx);
                Val::Idx(s.max().unwrap_or_else(|| {
                    cx.undefined = true;
                    0
                }))
            }
            TOp::Len(_) | TOp::IntBin(..) => Val::Int(self.eval_int(cx)),
            TOp::Cmp(..)
            | TOp::SetEq(..)
            | TOp::SubsetOf(..)
            | TOp::In(..)
            | TOp::And(..)
            | TOp::Or(..)
            | TOp::Not(_) => Val::Bool(self.eval_bool(cx)),
            TOp::Quant(qo) => quantify_wide(qo, cx),
            TOp::Fold(qo) => Val::Int(fold(qo, cx)),
            TOp::Geo(..) | TOp::CellAt(..) | TOp::At(..) | TOp::Value(_) => single(self, cx),
            // Classic Sudoku has no order relations: no chain anywhere.
            TOp::Order(..) => Val::Set(Bits::EMPTY),
            TOp::Rise(..) => Val::Int(0),
            TOp::Decided | TOp::Givens | TOp::Symbols => Val::Set(self.eval_set(cx)),
            TOp::Sum(g, e, x) => sum_fn(*g, *e, x, cx),
        }
    }

    /// `cx.vals[slot] = self.eval(cx)`, with a condition, an integer or a
    /// set computed by its own evaluator and stored as it is (no whole
    /// [`Val`] is returned and copied).
    #[inline]
    pub fn eval_into(&self, cx: &mut Env, slot: usize) {
        match self {
            TOp::Cmp(..)
            | TOp::SetEq(..)
            | TOp::SubsetOf(..)
            | TOp::In(..)
            | TOp::And(..)
            | TOp::Or(..)
            | TOp::Not(_)
            | TOp::WEq(..)
            | TOp::CEq(..)
            | TOp::WSub(_)
            | TOp::CSub(_)
            | TOp::WIn(_)
            | TOp::CIn(_)
            | TOp::ICmp(..)
            | TOp::XCmp(..)
            | TOp::AllOf(_)
            | TOp::AnyOf(_) => {
                let b = self.eval_bool(cx);
                cx.vals[slot] = Val::Bool(b);
            }
            TOp::WSet(w) => {
                let w = w.eval(cx);
                cx.vals[slot] = Val::Set(word_bits(w));
            }
            TOp::CSet(c) => {
                let c = c.eval(cx);
                cx.vals[slot] = Val::Set(cells_bits(c));
            }
            TOp::Len(_)
            | TOp::IntBin(..)
            | TOp::WLen(_)
            | TOp::CLen(_)
            | TOp::MaskLen(..)
            | TOp::ProdLen(_)
            | TOp::ElemAndLen(_) => {
                let i = self.eval_int(cx);
                cx.vals[slot] = Val::Int(i);
            }
            TOp::Grid
            | TOp::Cands(..)
            | TOp::Project(..)
            | TOp::Linked(_)
            | TOp::OrWhips(..)
            | TOp::Peers(_)
            | TOp::SetBin(..)
            | TOp::ProdSet(_) => {
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
            TOp::Slot(s) => match &cx.vals[*s] {
                Val::Set(b) => *b,
                Val::Idx(i) => Bits::single(*i),
                _ => Bits::EMPTY,
            },
            TOp::Grid => cx.state.cands,
            TOp::ProdSet(p) => p.set(cx),
            TOp::Decided => decided_cells(cx.state),
            TOp::Givens => given_cells(cx),
            TOp::Symbols => {
                let mut digits = Bits::EMPTY;
                for d in 0..9 {
                    digits.insert(d);
                }
                digits
            }
            TOp::Cands(e, x) => match &**x {
                TOp::Slot(s) => match &cx.vals[*s] {
                    Val::Idx(i) => cands_of(cx.state, *e, *i),
                    v => cands_val(cx.state, *e, *v),
                },
                x => {
                    let v = ev(x, cx);
                    cands_val(cx.state, *e, v)
                }
            },
            TOp::Project(e, x) => {
                // `digits(C)` of one cell or one candidate reads the cell's
                // 9-bit mask, with no 12-word set in between.
                if *e == Elem::Digit
                    && let TOp::Cands(inner @ (Elem::Cell | Elem::Cand), y) = &**x
                {
                    return match ev(y, cx) {
                        Val::Idx(i) => word_bits(digit_mask(cx.state, *inner, i)),
                        // The digits of a set of cells: the union of their
                        // masks.
                        Val::Set(cells) if *inner == Elem::Cell => word_bits(
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
                    && let TOp::Cands(inner, y) = &**x
                    && inner.is_house()
                {
                    return match ev(y, cx) {
                        Val::Idx(h) => house_project(cx.state, *e, h),
                        v => project(*e, &cands_val(cx.state, *inner, v)),
                    };
                }
                project(*e, &set_of(x, cx))
            }
            TOp::Linked(x) => {
                let s = set_of(x, cx);
                if s.is_empty() {
                    Bits::EMPTY
                } else {
                    common_links_in(&s, &cx.state.cands)
                }
            }
            TOp::OrWhips(kind, x, n) => {
                let or = set_of(x, cx);
                let n = n.eval_int(cx);
                let f = match kind {
                    OrChain::Forcing => crate::search::forcing::forcing_whips,
                    OrChain::Contrad => crate::search::forcing::contrad_whips,
                    OrChain::StrictContrad => crate::search::forcing::strict_contrad_whips,
                    OrChain::Whip => crate::search::forcing::or_whips,
                };
                f(cx.state, &or, n)
            }
            TOp::Peers(x) => peers_of(x, cx).unwrap_or(Bits::EMPTY),
            TOp::WSet(w) => word_bits(w.eval(cx)),
            TOp::CSet(c) => cells_bits(c.eval(cx)),
            TOp::SetBin(op, a, b) => {
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
            TOp::Int(i) => *i,
            TOp::Slot(s) => cx.vals[*s].int(),
            TOp::Len(x) => {
                // A bound set is counted in place.
                if let TOp::Slot(s) = &**x {
                    return match &cx.vals[*s] {
                        Val::Set(b) => b.len() as i64,
                        Val::Idx(_) => 1,
                        _ => 0,
                    };
                }
                // `|C|` of one cell counts its mask's bits.
                if let TOp::Cands(Elem::Cell, y) = &**x {
                    return match ev(y, cx) {
                        Val::Idx(c) => digit_mask(cx.state, Elem::Cell, c).count_ones() as i64,
                        v => cands_val(cx.state, Elem::Cell, v).len() as i64,
                    };
                }
                // `|S & T|` (or `|S - T|`, `|S | T|`) of two operands read
                // in place: no set is returned.
                if let TOp::SetBin(op, a, b) = &**x {
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
            TOp::WLen(w) => w.eval(cx).count_ones() as i64,
            TOp::CLen(c) => c.eval(cx).count_ones() as i64,
            TOp::MaskLen(e, s) => {
                let i = cx.vals[*s].idx();
                digit_mask(cx.state, *e, i).count_ones() as i64
            }
            TOp::ProdLen(p) => p.len(cx),
            TOp::ElemAndLen(xs) => elem_and_len(xs.0, xs.1, &xs.2, cx),
            TOp::TQuant(tq) => count_of(tq, cx),
            TOp::IntBin(op, a, b) => {
                let a = a.eval_int(cx);
                let b = b.eval_int(cx);
                match op {
                    IntOp::Add => a.saturating_add(b),
                    IntOp::Sub => a.saturating_sub(b),
                    IntOp::Mul => a.saturating_mul(b),
                    IntOp::Min => a.min(b),
                    IntOp::Max => a.max(b),
                }
            }
            _ => self.eval(cx).int(),
        }
    }

    /// Is the value always an integer (so a comparison may read it with
    /// [`TOp::eval_int`])?
    fn is_int(&self) -> bool {
        match self {
            TOp::Int(_)
            | TOp::Len(_)
            | TOp::IntBin(..)
            | TOp::WLen(_)
            | TOp::CLen(_)
            | TOp::MaskLen(..)
            | TOp::ProdLen(_)
            | TOp::ElemAndLen(_) => true,
            TOp::Quant(qo) => qo.q == Quant::Count,
            TOp::TQuant(tq) => tq.q == Test::Count,
            TOp::Fold(_) | TOp::Geo(Geo::Band | Geo::Stack, ..) | TOp::Rise(..) => true,
            _ => false,
        }
    }

    /// `self.eval(cx)` as a condition (`false` for anything but `true`).
    ///
    /// The typed conditions, which compute in registers, are evaluated
    /// here; those that may build a wide set go to [`TOp::eval_bool_wide`],
    /// kept out of line so that this frequent, often recursive, call keeps
    /// a small frame (no 96-byte sets on its stack to set up and restore).
    pub fn eval_bool(&self, cx: &mut Env) -> bool {
        match self {
            TOp::Slot(s) => cx.vals[*s].bool(),
            TOp::Not(a) => !cond(a, cx),
            TOp::Cmp(op, a, b) => {
                let (a, b) = if a.is_int() && b.is_int() {
                    (int_of(a, cx), int_of(b, cx))
                } else if let (TOp::Slot(x), TOp::Slot(y)) = (&**a, &**b) {
                    // Two bound values (`A < B`, `z == w`), read in place.
                    compared(&cx.vals[*x], &cx.vals[*y])
                } else {
                    return self.eval_bool_wide(cx);
                };
                compare(*op, a, b)
            }
            TOp::WEq(eq, ab) => {
                let a = ab.0.eval(cx);
                (a == ab.1.eval(cx)) == *eq
            }
            TOp::CEq(eq, ab) => {
                let a = ab.0.eval(cx);
                (a == ab.1.eval(cx)) == *eq
            }
            TOp::WSub(ab) => {
                let a = ab.0.eval(cx);
                a & !ab.1.eval(cx) == 0
            }
            TOp::CSub(ab) => {
                let a = ab.0.eval(cx);
                a & !ab.1.eval(cx) == 0
            }
            TOp::WIn(xs) => {
                let i = match &xs.0 {
                    TOp::Slot(x) => cx.vals[*x].idx(),
                    a => idx_of(a, cx),
                };
                i < 64 && xs.1.eval(cx) >> i & 1 != 0
            }
            TOp::CIn(xs) => {
                let i = match &xs.0 {
                    TOp::Slot(x) => cx.vals[*x].idx(),
                    a => idx_of(a, cx),
                };
                i < 128 && xs.1.eval(cx) >> i & 1 != 0
            }
            TOp::ProdSub(pq) => pq.0.within(&pq.1, cx),
            TOp::AllOf(_) | TOp::AnyOf(_) => cond(self, cx),
            TOp::ICmp(c, ab) => {
                let a = int_of(&ab.0, cx);
                compare(*c, a, int_of(&ab.1, cx))
            }
            TOp::XCmp(c, x, y) => {
                let a = cx.vals[*x].idx() as i64;
                compare(*c, a, cx.vals[*y].idx() as i64)
            }
            TOp::TQuant(tq) => matches!(quantify(tq, cx, &mut |_| {}), Answer::Bool(true)),
            _ => self.eval_bool_wide(cx),
        }
    }

    /// [`TOp::eval_bool`] of the conditions that may read or build wide
    /// values (comparisons, untyped set conditions, untyped quantifiers).
    #[inline(never)]
    fn eval_bool_wide(&self, cx: &mut Env) -> bool {
        match self {
            TOp::Slot(s) => cx.vals[*s].bool(),
            TOp::Cmp(op, a, b) => {
                let (a, b) = if a.is_int() && b.is_int() {
                    (int_of(a, cx), int_of(b, cx))
                } else if let (TOp::Slot(x), TOp::Slot(y)) = (&**a, &**b) {
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
            TOp::SetEq(eq, a, b) => {
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
            TOp::SubsetOf(a, b) => {
                // `digits(x) <= S` of one cell or candidate: its 9-bit
                // mask against S's first word (the mask has no other).
                if let Some(m) = one_digit_mask(a, cx) {
                    return m & !first_word(b, cx) == 0;
                }
                let a = set_of(a, cx);
                a.is_subset(&set_of(b, cx))
            }
            TOp::In(a, b) => {
                let i = match &**a {
                    TOp::Slot(x) => cx.vals[*x].idx(),
                    a => ev(a, cx).idx(),
                };
                // `d in digits(x)` of one cell or candidate: its mask.
                if let Some(m) = one_digit_mask(b, cx) {
                    return i < 64 && m >> i & 1 != 0;
                }
                match &**b {
                    // A bound set or element, read in place.
                    TOp::Slot(s) => match &cx.vals[*s] {
                        Val::Set(b) => b.contains(i),
                        Val::Idx(j) => *j == i,
                        _ => false,
                    },
                    // `B in peers(A)` of one bound cell: the table.
                    TOp::Peers(x) => match &**x {
                        TOp::Slot(s) if matches!(cx.vals[*s], Val::Idx(_)) => {
                            CELL_PEERS[cx.vals[*s].idx()].contains(i)
                        }
                        _ => set_of(b, cx).contains(i),
                    },
                    b => set_of(b, cx).contains(i),
                }
            }
            TOp::And(a, b) => cond(a, cx) && cond(b, cx),
            TOp::Or(a, b) => cond(a, cx) || cond(b, cx),
            TOp::Quant(qo) => quantify_wide(qo, cx).bool(),
            _ => self.eval(cx).bool(),
        }
    }
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
    /// each digit `d` ([`TOp::ProdSet`]; made only for products with
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
            COp::HouseAll(s) => HOUSE81[cx.vals[*s].idx()],
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
                HOUSE81[h] & cx.dc[9]
            }
            COp::Const(c) => *c,
            COp::HouseAll(s) => HOUSE81[cx.vals[*s].idx()],
            COp::HousesAll(w) => {
                let mut m = w.eval(cx);
                let mut all = 0;
                while m != 0 {
                    all |= HOUSE81[m.trailing_zeros() as usize];
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
            Test::All | Test::None => Answer::Bool(true),
            Test::Any => Answer::Bool(false),
            Test::Count => Answer::Count(0),
            Test::Select => Answer::Chosen,
        };
    }
    if cx.charge(|| words.iter().map(|w| u64::from(w.count_ones())).sum()) {
        return Answer::Undefined;
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
                (Test::All, false) | (Test::None, true) => return Answer::Bool(false),
                (Test::Any, true) => return Answer::Bool(true),
                (Test::Count, true) => count += 1,
                (Test::Select, true) => pick(i),
                _ => {}
            }
        }
    }
    match q {
        Test::All | Test::None => Answer::Bool(true),
        Test::Any => Answer::Bool(false),
        Test::Count => Answer::Count(count),
        Test::Select => Answer::Chosen,
    }
}

/// The members of a quantifier whose condition is `digits(x) <= S` (see
/// [`TQuant::within`]), with `outside` the digits not in S: each member's
/// mask, with no condition evaluated, the quantified slot left bound to
/// the last member looked at (as [`quantify`] leaves it).
#[inline(always)]
fn within_loop(
    q: Test,
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
                (Test::All, false) | (Test::None, true) => {
                    answer = Some(false);
                    break 'members;
                }
                (Test::Any, true) => {
                    answer = Some(true);
                    break 'members;
                }
                (Test::Count, true) => count += 1,
                (Test::Select, true) => pick(i),
                _ => {}
            }
        }
    }
    cx.vals[slot] = Val::Idx(last);
    match (answer, q) {
        (Some(b), _) => Answer::Bool(b),
        (None, Test::All | Test::None) => Answer::Bool(true),
        (None, Test::Any) => Answer::Bool(false),
        (None, Test::Count) => Answer::Count(count),
        (None, Test::Select) => Answer::Chosen,
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

    /// The shapes read from tables and masks (`peers` of one cell or of a
    /// union, `digits(x) <= S`, `d in digits(x)`, `digits(z) ==
    /// digits(w)`, `digits` of a set of cells, a quantifier over
    /// `digits(x) <= S`) give what the sets they stand for give, on
    /// random states.
    #[test]
    fn mask_and_table_shapes_agree_with_sets() {
        let b = Box::new;
        let slot = |s| b(TOp::Slot(s));
        let digits_of = |e: Elem, s| TOp::Project(Elem::Digit, b(TOp::Cands(e, slot(s))));
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
            let digits = |c: usize| word_bits(u64::from(masks[c]));
            let (c1, c2, c3) = (next(81), next(81), next(81));
            let cells = Bits::from_indices([c1, c2, c3]);
            let d = next(9);
            let z = cand(c1, next(9));
            let w = cand(c2, next(9));
            let sub = word_bits(next(512) as u64);
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
            let set = |op: &TOp, vals: &mut Vec<Val>| op.value_set(&state, vals).unwrap();
            let cond = |op: &TOp, vals: &mut Vec<Val>| op.holds(&state, vals);
            assert_eq!(set(&TOp::Peers(slot(0)), &mut vals), peers(c1));
            let union = TOp::Peers(b(TOp::SetBin(SetOp::Union, slot(0), slot(1))));
            assert_eq!(set(&union, &mut vals), peers(c1).and(&peers(c2)));
            let with_empty = TOp::Peers(b(TOp::SetBin(SetOp::Union, slot(7), slot(1))));
            assert_eq!(set(&with_empty, &mut vals), peers(c2));
            assert_eq!(set(&TOp::Peers(slot(7)), &mut vals), Bits::EMPTY);
            let all3 = peers(c1).and(&peers(c2)).and(&peers(c3));
            assert_eq!(set(&TOp::Peers(slot(2)), &mut vals), all3);
            assert_eq!(
                cond(&TOp::In(slot(1), b(TOp::Peers(slot(0)))), &mut vals),
                peers(c1).contains(c2)
            );
            assert_eq!(
                cond(
                    &TOp::SubsetOf(b(digits_of(Elem::Cell, 0)), slot(6)),
                    &mut vals
                ),
                digits(c1).is_subset(&sub)
            );
            assert_eq!(
                cond(&TOp::In(slot(3), b(digits_of(Elem::Cell, 1))), &mut vals),
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
            let same = TOp::SetEq(
                true,
                b(digits_of(Elem::Cand, 4)),
                b(digits_of(Elem::Cand, 5)),
            );
            assert_eq!(cond(&same, &mut vals), dz == dw);
            assert_eq!(
                set(&digits_of(Elem::Cell, 2), &mut vals),
                digits(c1).or(&digits(c2)).or(&digits(c3))
            );
            let any = TOp::Quant(Box::new(WideQuant {
                q: Quant::Any,
                slot: 8,
                domain: TOp::Slot(2),
                body: TOp::SubsetOf(b(digits_of(Elem::Cell, 8)), slot(6)),
                pre: Vec::new(),
            }));
            let expect = [c1, c2, c3].iter().any(|&c| digits(c).is_subset(&sub));
            assert_eq!(cond(&any, &mut vals), expect);
            checked += 1;
        }
        assert_eq!(checked, 200);
    }
}
