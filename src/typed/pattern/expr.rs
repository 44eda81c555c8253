//! A plan's expressions ([`Op`]) read for a type: each element type of
//! the language resolved to the type's elements ([`E`]), and what has no
//! meaning on the type refused ([`Unfit`]).
//!
//! - `digit`: a symbol; `cell`: a cell; `cand`: a live candidate;
//! - `row`, `column`: the type's rows and columns; `block`: its blocks,
//!   or its irregular regions (the YAML `regions`); a type without them
//!   leaves a rule that names blocks out ([`Unfit::Space`]);
//! - `house`: every house of the type, of every kind (on a pandiagonal
//!   square its diagonals and anti-diagonals too; windows, disjoint
//!   groups and extra regions where the type has them);
//! - `var` and the spaces `rc`, `rn`, `cn`, `bn`: the frame's variables
//!   (of that space);
//! - `band(x)` and `stack(x)` need regular blocks (`sudoku:N`, a YAML
//!   `blocks:` entry): on other types they are [`Unfit::Unsupported`].

use super::super::{Unfit, space_named};
use crate::model::Model;
use crate::search::pattern::{CmpOp, Elem, Geo, IntOp, Op, Order, Quant, SetOp, SumFn};

/// An element type resolved on a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum E {
    Digit,
    Cell,
    Cand,
    /// Houses of one kind (index in [`Model::kinds`]), or of any.
    Houses(Option<u16>),
    /// Variables of one model space, or of any.
    Vars(Option<u16>),
}

/// An expression of a pattern rule on a type: [`Op`] with its element
/// types resolved.
#[derive(Clone, Debug)]
pub enum X {
    Int(i64),
    Slot(usize),
    Grid,
    Decided,
    Givens,
    Symbols,
    Cands(E, Box<X>),
    Project(E, Box<X>),
    Linked(Box<X>),
    Peers(Box<X>),
    First(Box<X>),
    Last(Box<X>),
    Len(Box<X>),
    SetBin(SetOp, Box<X>, Box<X>),
    IntBin(IntOp, Box<X>, Box<X>),
    Cmp(CmpOp, Box<X>, Box<X>),
    SetEq(bool, Box<X>, Box<X>),
    SubsetOf(Box<X>, Box<X>),
    In(Box<X>, Box<X>),
    And(Box<X>, Box<X>),
    Or(Box<X>, Box<X>),
    Not(Box<X>),
    Quant(Box<QuantX>),
    Geo(Geo, E, Box<X>),
    CellAt(Box<X>, Box<X>),
    Value(Box<X>),
    At(E, E, Box<X>, Box<X>),
    Order(Order, Box<X>),
    Rise(bool, Box<X>, Box<X>),
    /// `number(d)`, `sum(x)`, `area(x)`, `cages(x)` (see [`SumFn`]).
    Sum(SumFn, E, Box<X>),
}

/// A quantifier or a fold (see [`crate::search::pattern::QuantOp`]).
#[derive(Clone, Debug)]
pub struct QuantX {
    pub q: Quant,
    pub slot: usize,
    pub domain: X,
    pub body: X,
    pub pre: Vec<(usize, X)>,
}

/// What the expressions of one rule are read against.
pub struct Ctx<'a> {
    pub model: &'a Model,
    /// The space a rule for other types names (`let V: dn`), which its
    /// `var` generators mean.
    pub foreign: Option<&'a str>,
}

/// The house kind named `name`.
fn kind(model: &Model, name: &str) -> Option<u16> {
    model
        .kinds()
        .iter()
        .position(|k| k.name == name)
        .map(|k| k as u16)
}

impl Ctx<'_> {
    /// The type's elements for the language's element type `e`.
    pub fn elem(&self, e: Elem) -> Result<E, Unfit> {
        let m = self.model;
        let house = |name: &str| {
            kind(m, name)
                .map(|k| E::Houses(Some(k)))
                .ok_or_else(|| Unfit::Space(format!("{name}s")))
        };
        let space = |name: &str| {
            space_named(m, name)
                .map(|s| E::Vars(Some(s as u16)))
                .ok_or_else(|| Unfit::Space(name.to_string()))
        };
        match e {
            Elem::Digit => Ok(E::Digit),
            Elem::Cell => Ok(E::Cell),
            Elem::Cand => Ok(E::Cand),
            Elem::Row => house("row"),
            Elem::Column => house("column"),
            Elem::Block => house("block"),
            Elem::House => Ok(E::Houses(None)),
            Elem::Var(Some(s)) => space(s.name()),
            Elem::Var(None) => match self.foreign {
                Some(f) => space(f),
                None => Ok(E::Vars(None)),
            },
        }
    }

    /// `op` read on the type.
    pub fn x(&self, op: &Op) -> Result<X, Unfit> {
        let b = |o: &Op| self.x(o).map(Box::new);
        Ok(match op {
            Op::Int(i) => X::Int(*i),
            Op::Slot(s) => X::Slot(*s),
            Op::Grid => X::Grid,
            Op::Decided => X::Decided,
            Op::Givens => X::Givens,
            Op::Symbols => X::Symbols,
            Op::Cands(e, x) => X::Cands(self.elem(*e)?, b(x)?),
            Op::Project(e, x) => X::Project(self.elem(*e)?, b(x)?),
            Op::Linked(x) => X::Linked(b(x)?),
            Op::Peers(x) => X::Peers(b(x)?),
            Op::First(x) => X::First(b(x)?),
            Op::Last(x) => X::Last(b(x)?),
            Op::Len(x) => X::Len(b(x)?),
            Op::SetBin(o, e, x, y) => {
                self.elem(*e)?;
                X::SetBin(*o, b(x)?, b(y)?)
            }
            Op::IntBin(o, x, y) => X::IntBin(*o, b(x)?, b(y)?),
            Op::Cmp(o, x, y) => X::Cmp(*o, b(x)?, b(y)?),
            Op::SetEq(eq, x, y) => X::SetEq(*eq, b(x)?, b(y)?),
            Op::SubsetOf(x, y) => X::SubsetOf(b(x)?, b(y)?),
            Op::In(x, y) => X::In(b(x)?, b(y)?),
            Op::And(x, y) => X::And(b(x)?, b(y)?),
            Op::Or(x, y) => X::Or(b(x)?, b(y)?),
            Op::Not(x) => X::Not(b(x)?),
            Op::Quant(q) => {
                let pre = (q.pre.iter())
                    .map(|(s, v)| Ok((*s, self.x(v)?)))
                    .collect::<Result<Vec<_>, Unfit>>()?;
                X::Quant(Box::new(QuantX {
                    q: q.q,
                    slot: q.slot,
                    domain: self.x(&q.domain)?,
                    body: self.x(&q.body)?,
                    pre,
                }))
            }
            Op::Geo(g, e, x) => {
                match g {
                    Geo::Row => {
                        self.elem(Elem::Row)?;
                    }
                    Geo::Column => {
                        self.elem(Elem::Column)?;
                    }
                    Geo::Block => {
                        self.elem(Elem::Block)?;
                    }
                    Geo::Band | Geo::Stack => {
                        self.elem(Elem::Block)?;
                        if self.model.spec.boxes.is_none() {
                            return Err(Unfit::Unsupported(format!(
                                "its pattern uses `{}(…)`, which needs regular blocks (bands and \
                                 stacks of blocks); type `{}` has irregular regions",
                                g.name(),
                                self.model.name()
                            )));
                        }
                    }
                    Geo::Digit | Geo::Cell => {}
                }
                X::Geo(*g, self.elem(*e)?, b(x)?)
            }
            Op::CellAt(r, c) => X::CellAt(b(r)?, b(c)?),
            Op::Value(x) => X::Value(b(x)?),
            Op::Sum(g, e, x) => {
                if *g == SumFn::Cages && space_named(self.model, "kc").is_none() {
                    return Err(Unfit::Space("kc".into()));
                }
                X::Sum(*g, self.elem(*e)?, b(x)?)
            }
            Op::At(e, h, s, x) => X::At(self.elem(*e)?, self.elem(*h)?, b(s)?, b(x)?),
            Op::Order(o, x) => X::Order(*o, b(x)?),
            Op::Rise(l, y, x) => X::Rise(*l, b(y)?, b(x)?),
            Op::OrWhips(k, ..) => {
                return Err(Unfit::Unsupported(format!(
                    "its pattern uses `{}(…)`, whose partial whips run on classic Sudoku only",
                    k.name()
                )));
            }
        })
    }
}
