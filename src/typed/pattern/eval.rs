//! Evaluation of a pattern rule's expressions ([`X`]) on a state of a
//! frame, with the values of its names in slots.
//!
//! A value is an integer, a condition, one element (its index) or a set
//! of elements ([`V`]). An undefined value (`first` of an empty set, a
//! single-valued function of no element or several) sets
//! [`Env::undefined`] and stands in as 0: the caller drops the clause.

use super::super::elems::Elems;
use super::super::frame::Frame;
use super::super::state::State;
use super::expr::{E, QuantX, X};
use crate::grid::bits::BitSet;
use crate::search::Clock;
use crate::search::pattern::{CmpOp, Geo, IntOp, Order, Quant, SetOp, SumFn};

/// A value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum V<const W: usize> {
    Int(i64),
    Bool(bool),
    Idx(usize),
    Set(BitSet<W>),
}

impl<const W: usize> V<W> {
    /// The value as a set (an element: the set of it).
    #[inline]
    pub fn set(&self) -> BitSet<W> {
        match self {
            V::Set(s) => *s,
            V::Idx(i) if *i < 64 * W => BitSet::single(*i),
            _ => BitSet::EMPTY,
        }
    }
    #[inline]
    pub fn idx(&self) -> usize {
        match self {
            V::Idx(i) => *i,
            _ => usize::MAX,
        }
    }
    #[inline]
    pub fn int(&self) -> i64 {
        match self {
            V::Int(i) => *i,
            _ => 0,
        }
    }
    #[inline]
    pub fn bool(&self) -> bool {
        matches!(self, V::Bool(true))
    }
}

/// What an expression is evaluated in.
pub struct Env<'a, const W: usize> {
    pub frame: &'a Frame<W>,
    pub el: &'a Elems<W>,
    pub st: &'a State<W>,
    pub vals: &'a mut [V<W>],
    pub undefined: bool,
    /// The search's clock, charged with the members quantifiers look at
    /// when it counts them (a deadline or a budget); `None` when
    /// rendering.
    pub clock: Option<&'a mut Clock>,
}

impl<const W: usize> Env<'_, W> {
    /// Every candidate of element `i` of type `e` in the frame, live or
    /// not.
    #[inline]
    fn all_cands(&self, e: E, i: usize) -> BitSet<W> {
        let el = self.el;
        let get = |v: &Vec<BitSet<W>>| v.get(i).copied().unwrap_or(BitSet::EMPTY);
        match e {
            E::Digit => get(&el.digit_cands),
            E::Cell => get(&el.cell_cands),
            E::Houses(_) => get(&el.house_cands),
            E::Vars(_) => self.frame.vars.get(i).map_or(BitSet::EMPTY, |v| v.cands),
            E::Cand => V::Idx(i).set(),
        }
    }

    /// The live candidates of an element or a set of elements of type `e`.
    #[inline]
    fn cands_val(&self, e: E, v: V<W>) -> BitSet<W> {
        match v {
            V::Idx(i) => self.all_cands(e, i).and(&self.st.cands),
            V::Set(s) if e == E::Cand => s.and(&self.st.cands),
            V::Set(s) => {
                let mut acc = BitSet::EMPTY;
                for i in s.iter() {
                    acc = acc.or(&self.all_cands(e, i));
                }
                acc.and(&self.st.cands)
            }
            _ => BitSet::EMPTY,
        }
    }

    /// The value of `x`.
    pub fn eval(&mut self, x: &X) -> V<W> {
        match x {
            X::Int(i) => V::Int(*i),
            X::Slot(s) => self.vals[*s],
            X::Len(a) => V::Int(match self.eval(a) {
                V::Set(s) => s.len() as i64,
                V::Idx(_) => 1,
                _ => 0,
            }),
            X::IntBin(o, a, b) => {
                let (a, b) = (self.eval(a).int(), self.eval(b).int());
                V::Int(match o {
                    IntOp::Add => a.saturating_add(b),
                    IntOp::Sub => a.saturating_sub(b),
                    IntOp::Mul => a.saturating_mul(b),
                    IntOp::Min => a.min(b),
                    IntOp::Max => a.max(b),
                })
            }
            X::Cmp(..)
            | X::SetEq(..)
            | X::SubsetOf(..)
            | X::In(..)
            | X::And(..)
            | X::Or(..)
            | X::Not(_) => V::Bool(self.cond(x)),
            X::First(a) => {
                let s = self.set_of(a);
                self.defined(s.min()).map_or(V::Idx(0), V::Idx)
            }
            X::Last(a) => {
                let s = self.set_of(a);
                self.defined(s.max()).map_or(V::Idx(0), V::Idx)
            }
            X::Quant(q) => self.quant(q),
            X::Geo(g, e, a) => {
                let v = self.one_of(a).and_then(|i| self.geo(*g, *e, i));
                let v = self.defined(v).unwrap_or(0);
                match g {
                    Geo::Band | Geo::Stack => V::Int(v as i64),
                    _ => V::Idx(v),
                }
            }
            X::CellAt(r, c) => {
                let (r, c) = (self.one_of(r), self.one_of(c));
                let m = &*self.frame.model;
                let cell = match (r, c) {
                    (Some(r), Some(c))
                        if m.houses.get(r).is_some_and(|h| h.kind == 0)
                            && m.houses.get(c).is_some_and(|h| h.kind == 1) =>
                    {
                        Some(m.houses[r].rank * m.n + m.houses[c].rank)
                    }
                    _ => None,
                };
                V::Idx(self.defined(cell).unwrap_or(0))
            }
            X::Value(a) => {
                let d = self.one_of(a).and_then(|c| self.value(c));
                V::Idx(self.defined(d).unwrap_or(0))
            }
            X::Rise(line, y, a) => {
                let (y, x) = (self.one_of(y), self.one_of(a));
                let orders = &self.frame.model.orders;
                let r = match (y, x) {
                    (Some(y), Some(x)) if *line => orders.run(y, x),
                    (Some(y), Some(x)) => orders.rise(y, x),
                    _ => None,
                };
                V::Int(r.map_or(0, |r| r as i64))
            }
            X::Order(o, a) => {
                let table = match o {
                    Order::Below => &self.el.below,
                    Order::Above => &self.el.above,
                };
                let s = self.one_of(a).and_then(|c| table.get(c).copied());
                V::Set(s.unwrap_or(BitSet::EMPTY))
            }
            X::Sum(g, e, a) => self.sum_fn(*g, *e, a),
            X::At(e, h, s, a) => {
                let members = self.set_of(s);
                let hit = self.one_of(a).and_then(|x| {
                    let mut hits = members.iter().filter(|&m| self.meets(*e, m, *h, x));
                    match (hits.next(), hits.next()) {
                        (Some(m), None) => Some(m),
                        _ => None,
                    }
                });
                V::Idx(self.defined(hit).unwrap_or(0))
            }
            _ => V::Set(self.set_of(x)),
        }
    }

    /// `v`, or undefined.
    #[inline]
    fn defined<T>(&mut self, v: Option<T>) -> Option<T> {
        if v.is_none() {
            self.undefined = true;
        }
        v
    }

    /// The value of `x` as a set.
    pub fn set_of(&mut self, x: &X) -> BitSet<W> {
        match x {
            X::Slot(s) => self.vals[*s].set(),
            X::Grid => self.st.cands,
            X::Cands(e, a) => {
                let v = self.eval(a);
                self.cands_val(*e, v)
            }
            X::Project(e, a) => {
                let s = self.set_of(a);
                self.project(*e, &s)
            }
            X::SetBin(o, a, b) => {
                let (a, b) = (self.set_of(a), self.set_of(b));
                match o {
                    SetOp::Union => a.or(&b),
                    SetOp::Inter => a.and(&b),
                    SetOp::Minus => a.minus(&b),
                }
            }
            X::Linked(a) => {
                let s = self.set_of(a);
                if s.is_empty() {
                    return BitSet::EMPTY;
                }
                let mut acc = self.st.cands;
                for z in s.iter() {
                    acc = acc.and(&self.frame.links[z]);
                }
                acc
            }
            X::Peers(a) => {
                let s = self.set_of(a);
                self.peers(&s)
            }
            X::Decided => {
                let mut d = self.el.given_cells;
                // A killer cage's combination decides no cell.
                for z in self.st.values.iter() {
                    if let Some(&c) = self.el.cand_cell.get(z) {
                        d.insert(c as usize);
                    }
                }
                d
            }
            X::Givens => self.el.given_cells,
            X::Symbols => self.el.all_digits,
            X::Quant(q) => match self.quant(q) {
                V::Set(s) => s,
                _ => BitSet::EMPTY,
            },
            _ => self.eval(x).set(),
        }
    }

    /// The value of a condition (`false` unless it is `true`).
    pub fn cond(&mut self, x: &X) -> bool {
        match x {
            X::Slot(s) => self.vals[*s].bool(),
            X::Not(a) => !self.cond(a),
            X::And(a, b) => self.cond(a) && self.cond(b),
            X::Or(a, b) => self.cond(a) || self.cond(b),
            X::Cmp(o, a, b) => {
                let (a, b) = (self.eval(a), self.eval(b));
                let (a, b) = match (a, b) {
                    (V::Int(a), V::Int(b)) => (a, b),
                    (a, b) => (a.idx() as i64, b.idx() as i64),
                };
                match o {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                }
            }
            X::SetEq(eq, a, b) => (self.set_of(a) == self.set_of(b)) == *eq,
            X::SubsetOf(a, b) => {
                let a = self.set_of(a);
                a.is_subset(&self.set_of(b))
            }
            X::In(a, b) => {
                let i = self.eval(a).idx();
                i < 64 * W && self.set_of(b).contains(i)
            }
            _ => self.eval(x).bool(),
        }
    }

    /// The one element a single-valued operand holds: an element, or a
    /// set of one member.
    fn one_of(&mut self, x: &X) -> Option<usize> {
        match self.eval(x) {
            V::Idx(i) => Some(i),
            V::Set(s) if s.len() == 1 => s.min(),
            _ => None,
        }
    }

    /// Charges `n` members of a quantifier's domain to the clock, when it
    /// counts them: `true` (and the value undefined) when the search must
    /// stop.
    #[inline]
    fn charge(&mut self, n: usize) -> bool {
        let stop = match self.clock.as_deref_mut() {
            Some(c) => c.counts_evaluation() && c.charge(n as u64),
            None => false,
        };
        self.undefined |= stop;
        stop
    }

    /// A quantifier's or a fold's value.
    fn quant(&mut self, q: &QuantX) -> V<W> {
        let dom = self.set_of(&q.domain);
        if self.charge(dom.len()) {
            return V::Bool(false);
        }
        if dom.is_empty() {
            return match q.q {
                Quant::All | Quant::None => V::Bool(true),
                Quant::Any => V::Bool(false),
                Quant::Count | Quant::Sum => V::Int(0),
                Quant::Select => V::Set(BitSet::EMPTY),
                Quant::Min | Quant::Max => {
                    self.undefined = true;
                    V::Int(0)
                }
            };
        }
        for (t, v) in &q.pre {
            self.vals[*t] = self.eval(v);
        }
        let (mut count, mut chosen, mut acc) = (0i64, BitSet::EMPTY, None::<i64>);
        for i in dom.iter() {
            self.vals[q.slot] = V::Idx(i);
            if q.q.is_fold() {
                let n = self.eval(&q.body).int();
                if self.undefined {
                    return V::Int(0);
                }
                acc = Some(match (q.q, acc) {
                    (_, None) => n,
                    (Quant::Min, Some(a)) => a.min(n),
                    (Quant::Max, Some(a)) => a.max(n),
                    (_, Some(a)) => a.saturating_add(n),
                });
                continue;
            }
            let holds = self.cond(&q.body);
            if self.undefined {
                return V::Bool(false);
            }
            match (q.q, holds) {
                (Quant::All, false) | (Quant::None, true) => return V::Bool(false),
                (Quant::Any, true) => return V::Bool(true),
                (Quant::Count, true) => count += 1,
                (Quant::Select, true) => chosen.insert(i),
                _ => {}
            }
        }
        match q.q {
            Quant::All | Quant::None => V::Bool(true),
            Quant::Any => V::Bool(false),
            Quant::Count => V::Int(count),
            Quant::Select => V::Set(chosen),
            Quant::Sum | Quant::Min | Quant::Max => V::Int(acc.unwrap_or(0)),
        }
    }

    /// The elements of type `e` that candidates of `s` occupy.
    pub fn project(&self, e: E, s: &BitSet<W>) -> BitSet<W> {
        let el = self.el;
        let mut out = BitSet::EMPTY;
        match e {
            E::Cand => return *s,
            E::Cell => {
                for z in s.iter() {
                    if let Some(&c) = el.cand_cell.get(z) {
                        out.insert(c as usize);
                    }
                }
            }
            E::Digit => {
                for z in s.iter() {
                    if let Some(&d) = el.cand_digit.get(z) {
                        out.insert(d as usize);
                    }
                }
            }
            E::Houses(k) => {
                let m = &*self.frame.model;
                let mut cells = BitSet::<W>::EMPTY;
                for z in s.iter() {
                    if let Some(&c) = el.cand_cell.get(z) {
                        cells.insert(c as usize);
                    }
                }
                for c in cells.iter() {
                    for h in m.cell_houses(c) {
                        if k.is_none_or(|k| m.houses[h].kind == k as usize) {
                            out.insert(h);
                        }
                    }
                }
            }
            E::Vars(sp) => {
                for z in s.iter() {
                    for &v in &self.frame.cand_vars[z] {
                        if sp.is_none_or(|sp| self.frame.vars[v as usize].space == sp) {
                            out.insert(v as usize);
                        }
                    }
                }
            }
        }
        out
    }

    /// The cells that share a house with every cell of `s`, none of `s`.
    fn peers(&self, s: &BitSet<W>) -> BitSet<W> {
        if s.is_empty() {
            return BitSet::EMPTY;
        }
        let m = &*self.frame.model;
        let mut acc = self.el.all_cells;
        for c in s.iter() {
            let mut seen = BitSet::EMPTY;
            for h in m.cell_houses(c) {
                seen = seen.or(&self.el.house_cells[h]);
            }
            acc = acc.and(&seen);
        }
        acc.minus(s)
    }

    /// `number(d)`, `sum(x)`, `area(x)`, `cages(x)` (see [`SumFn`]).
    fn sum_fn(&mut self, g: SumFn, e: E, a: &X) -> V<W> {
        let m = &*self.frame.model;
        match g {
            SumFn::Number | SumFn::Total => {
                let v = self.one_of(a).and_then(|i| match (g, e) {
                    (SumFn::Number, E::Digit) => (i < m.n).then_some(i as i64 + 1),
                    (SumFn::Total, E::Houses(_)) => {
                        let n = m.n as i64;
                        (i < m.houses.len()).then_some(n * (n + 1) / 2)
                    }
                    (SumFn::Total, E::Vars(_)) => self.el.cage_sum.get(i).copied().flatten(),
                    _ => None,
                });
                V::Int(self.defined(v).unwrap_or(0))
            }
            SumFn::Area => V::Set(self.area(e, a)),
            SumFn::Cages => {
                let mut out = BitSet::EMPTY;
                for c in self.area(e, a).iter() {
                    if let Some(k) = self.el.cell_cages.get(c) {
                        out = out.or(k);
                    }
                }
                V::Set(out)
            }
        }
    }

    /// Every cell of the elements of `a` (of type `e`), live or not.
    fn area(&mut self, e: E, a: &X) -> BitSet<W> {
        let s = self.set_of(a);
        let (m, el) = (&*self.frame.model, self.el);
        let mut out = BitSet::EMPTY;
        for i in s.iter() {
            match e {
                E::Cell => out.insert(i),
                E::Houses(_) => {
                    if let Some(h) = el.house_cells.get(i) {
                        out = out.or(h);
                    }
                }
                E::Vars(_) => match el.cage_sum.get(i) {
                    Some(Some(_)) => out = out.or(&el.cage_cells[i]),
                    Some(None) => {
                        let v = self.frame.vars[i].var as usize;
                        for z in m.var_cands(v).filter(|&z| m.is_cell_cand(z)) {
                            out.insert(m.cand_cell(z));
                        }
                    }
                    None => {}
                },
                E::Digit | E::Cand => {}
            }
        }
        out
    }

    /// The digit of decided cell `c`.
    fn value(&self, c: usize) -> Option<usize> {
        if let Some(d) = self.el.given.get(c).copied().flatten() {
            return Some(d as usize);
        }
        let placed = self.st.values.and(self.el.cell_cands.get(c)?);
        placed.min().map(|z| self.el.cand_digit[z] as usize)
    }

    /// `g(x)` of element `i` of type `e` (see [`X::Geo`]).
    fn geo(&self, g: Geo, e: E, i: usize) -> Option<usize> {
        let m = &*self.frame.model;
        let (mut cell, mut digit, mut house) = (None, None, None);
        match e {
            E::Cell => cell = Some(i),
            E::Cand => {
                cell = Some(*self.el.cand_cell.get(i)? as usize);
                digit = Some(self.el.cand_digit[i] as usize);
            }
            E::Digit => digit = Some(i),
            E::Houses(_) => house = Some(i),
            E::Vars(_) => {
                let v = self.frame.vars.get(i)?.var as usize;
                match m.var_house(v) {
                    None if !m.is_cell_var(v) => {}
                    None => cell = Some(v),
                    Some(h) => {
                        house = Some(h);
                        digit = Some((v - m.spaces[m.var_space(v)].first) % m.n);
                    }
                }
            }
        }
        let kind_of = |name: &str| m.kinds().iter().position(|k| k.name == name);
        let house_of = |name: &str| {
            let k = kind_of(name)?;
            match cell {
                Some(c) => m.cell_houses(c).find(|&h| m.houses[h].kind == k),
                None => house.filter(|&h| m.houses.get(h).is_some_and(|x| x.kind == k)),
            }
        };
        let (br, bc) = m.spec.boxes.unwrap_or((1, 1));
        let rank = |name: &str| house_of(name).map(|h| m.houses[h].rank);
        match g {
            Geo::Row => house_of("row"),
            Geo::Column => house_of("column"),
            Geo::Block => house_of("block"),
            Geo::Band => match cell {
                Some(c) => Some(m.cell_row(c) / br + 1),
                None => (rank("row").map(|r| r / br))
                    .or(rank("block").map(|b| b / (m.n / bc)))
                    .map(|x| x + 1),
            },
            Geo::Stack => match cell {
                Some(c) => Some(m.cell_col(c) / bc + 1),
                None => (rank("column").map(|c| c / bc))
                    .or(rank("block").map(|b| b % (m.n / bc)))
                    .map(|x| x + 1),
            },
            Geo::Digit => digit,
            Geo::Cell => cell,
        }
    }

    /// Do element `a` of type `ea` and element `b` of type `eb` share a
    /// model candidate (live or not)?
    fn meets(&self, ea: E, a: usize, eb: E, b: usize) -> bool {
        let size = |e: E| match e {
            E::Cand => 0,
            E::Cell | E::Vars(_) => 1,
            E::Digit | E::Houses(_) => 2,
        };
        let (ea, a, eb, b) = if size(ea) <= size(eb) {
            (ea, a, eb, b)
        } else {
            (eb, b, ea, a)
        };
        let m = &*self.frame.model;
        let has = |z: usize| -> bool {
            match eb {
                // A killer cage's combination is in no cell, digit or
                // house: only in its cage's variable.
                E::Digit => m.is_cell_cand(z) && m.cand_symbol(z) == b,
                E::Cell => m.is_cell_cand(z) && m.cand_cell(z) == b,
                E::Cand => self.frame.global.get(b).is_some_and(|&g| g as usize == z),
                E::Houses(_) => m.is_cell_cand(z) && m.cell_houses(m.cand_cell(z)).any(|h| h == b),
                E::Vars(_) => (self.frame.vars.get(b))
                    .is_some_and(|v| m.cand_vars(z).any(|w| w == v.var as usize)),
            }
        };
        match ea {
            E::Cand => self.frame.global.get(a).is_some_and(|&g| has(g as usize)),
            E::Cell => (0..m.n).any(|s| has(m.cand(a, s))),
            E::Vars(_) => {
                (self.frame.vars.get(a)).is_some_and(|v| m.var_cands(v.var as usize).any(has))
            }
            E::Digit => (0..m.n_cells).any(|c| has(m.cand(c, a))),
            E::Houses(_) => (m.houses.get(a))
                .is_some_and(|h| h.cells.iter().any(|&c| (0..m.n).any(|s| has(m.cand(c, s))))),
        }
    }
}
