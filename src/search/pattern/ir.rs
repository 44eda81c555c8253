//! The checked pattern IR: element types, values, expressions ([`Op`]),
//! instructions ([`Instr`]) and show templates, as the checker makes them
//! ([`crate::lang::check`]) and the passes read and rewrite them. Nothing
//! here evaluates: the typed stage ([`super::typed`]) makes what the
//! matcher runs.

use crate::grid::bits::Bits;
use crate::grid::geometry::Space;
use crate::search::ConclusionKind;

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
    pub(super) fn set(&self) -> Bits {
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
    pub(super) fn int(&self) -> i64 {
        match self {
            Val::Int(i) => *i,
            _ => 0,
        }
    }
    #[inline]
    pub(super) fn bool(&self) -> bool {
        matches!(self, Val::Bool(true))
    }
}

/// The static type of an expression, as the checker decides it
/// ([`crate::lang::check`]). The checker records each slot's
/// ([`Checked::slot_types`]) and each set operation's element type; every
/// other expression's type follows from its operation ([`Op::ty`]), so the
/// typed stage reads the checker's types rather than inferring its own.
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
    /// The element type of an element or a set of elements.
    pub fn elem(self) -> Option<Elem> {
        match self {
            Ty::One(e) | Ty::Set(e) => Some(e),
            _ => None,
        }
    }

    /// How a value of this type prints in a show template.
    pub fn shape(self) -> Shape {
        match self {
            Ty::One(e) => Shape::One(e),
            Ty::Set(e) => Shape::Set(e),
            _ => Shape::Int,
        }
    }
}

/// The shape of a value shown in a template: how to print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Int,
    One(Elem),
    Set(Elem),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetOp {
    Union,
    Inter,
    Minus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    /// `min(a, b)`: the lesser.
    Min,
    /// `max(a, b)`: the greater.
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A checked expression: what the checker makes of the rule's text, over
/// slots (the values of names) and element types. The passes analyse and
/// rewrite it; the typed stage ([`super::typed`]) turns it into what the
/// matcher evaluates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Int(i64),
    Slot(usize),
    /// Live candidates of an element or a set of elements.
    Cands(Elem, Box<Op>),
    /// Projection of a candidate set onto element type.
    Project(Elem, Box<Op>),
    /// Live candidates nrc-linked to every candidate of a set.
    Linked(Box<Op>),
    /// `forcing_whips(G, N)`, `contrad_whips(G, N)`,
    /// `strict_contrad_whips(G, N)`, `or_whips(G, N)`: the live candidates
    /// outside G that chains of that kind, of N variables at most, from the
    /// disjunction G eliminate.
    OrWhips(OrChain, Box<Op>, Box<Op>),
    /// Cells sharing a house with every cell of a set.
    Peers(Box<Op>),
    First(Box<Op>),
    Last(Box<Op>),
    Len(Box<Op>),
    /// A union, intersection or difference of sets, whose members are of
    /// the element type the checker gave it.
    SetBin(SetOp, Elem, Box<Op>, Box<Op>),
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
    /// A single-valued function of one element of the given type
    /// (`row(x)`, `band(x)`, `digit(z)`; see [`Geo`]). A set operand of
    /// one member counts as that member; of none or several, or an
    /// element the function has no value for, the value is undefined.
    Geo(Geo, Elem, Box<Op>),
    /// `cell(R, C)`: the cell at row R and column C.
    CellAt(Box<Op>, Box<Op>),
    /// The decided cells (the language's `decided`).
    Decided,
    /// The cells given in the puzzle (`givens`; see
    /// [`crate::grid::state::State::givens`]).
    Givens,
    /// Every symbol of the type (the language's `symbols`), live or not.
    Symbols,
    /// `value(C)`: the digit placed in the decided cell C (undefined for
    /// an undecided cell; a set of one cell counts as that cell).
    Value(Box<Op>),
    /// `S at H`: the one member of S (of the first element type) whose
    /// candidates, live or not, meet H's (H of the second type): the cell
    /// of S in a house, the candidate of S in a cell or of a digit, the
    /// house of S through a cell. Undefined when no member or several do.
    At(Elem, Elem, Box<Op>, Box<Op>),
    /// `below(C)`, `above(C)`: the cells from which a chain of the type's
    /// order relations rises to the cell C (`below`), or to which one
    /// rises from C (`above`), live or not; empty on a type without
    /// order relations (classic Sudoku).
    Order(Order, Box<Op>),
    /// `rise(Y, X)` (`false`) and `run(Y, X)` (`true`): the number of
    /// relations on the longest chain from cell Y up to cell X (for
    /// `run`, the chain along the cells of their common row or column,
    /// one neighbour to the next); 0 when there is none.
    Rise(bool, Box<Op>, Box<Op>),
    /// A function of sums (see [`SumFn`]) of an operand of the given
    /// element type.
    Sum(SumFn, Elem, Box<Op>),
}

/// The direction of an order function (see [`Op::Order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    Below,
    Above,
}

/// The functions of the language that read numbers and sums: what killer
/// cages' rules (the 45 rule) are written with (`docs/language.md`,
/// "Numbers and sums").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SumFn {
    /// `number(d)`: the number a digit counts for (symbol `s` counts
    /// `s + 1`), an integer.
    Number,
    /// `sum(x)` of one element: a house's total, `N(N + 1)/2` (each
    /// number once); a killer cage's (a `kc` variable's) stated sum.
    /// Undefined for any other element.
    Total,
    /// `area(x)`: every cell of the elements of `x`, live or not (a cell
    /// itself, a house's cells, a killer cage's cells, a variable's
    /// cells).
    Area,
    /// `cages(x)`: the killer cages (`kc` variables) holding a cell of
    /// `x`'s area, live or not.
    Cages,
}

impl SumFn {
    pub fn name(self) -> &'static str {
        match self {
            SumFn::Number => "number",
            SumFn::Total => "sum",
            SumFn::Area => "area",
            SumFn::Cages => "cages",
        }
    }

    /// The type of the value.
    pub fn ty(self) -> Ty {
        match self {
            SumFn::Number | SumFn::Total => Ty::Int,
            SumFn::Area => Ty::Set(Elem::Cell),
            SumFn::Cages => Ty::Set(Elem::Var(None)),
        }
    }
}

/// The chains from a disjunction "one of G is true" (CSP-Rules'
/// OR_k-chains; `search::forcing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrChain {
    /// `forcing_whips`: a partial whip from each member of G to a
    /// candidate linked to the target.
    Forcing,
    /// `contrad_whips`: a partial whip from the target after which every
    /// member of G is false (the disjunction is the last variable).
    Contrad,
    /// `strict_contrad_whips`: the same with every member of G linked to
    /// a right-linking candidate, none to the target only (CSP-Rules'
    /// definition).
    StrictContrad,
    /// `or_whips`: a whip from the target with the disjunction as one of
    /// its variables before the last.
    Whip,
}

impl OrChain {
    /// The function's name in rule text.
    pub fn name(self) -> &'static str {
        match self {
            OrChain::Forcing => "forcing_whips",
            OrChain::Contrad => "contrad_whips",
            OrChain::StrictContrad => "strict_contrad_whips",
            OrChain::Whip => "or_whips",
        }
    }
}

/// The single-valued functions of one element (`row(x)` …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geo {
    /// The row of a cell, candidate, rc or rn variable (a row: itself).
    Row,
    /// The column of a cell, candidate, rc or cn variable.
    Column,
    /// The block of a cell, candidate, rc or bn variable.
    Block,
    /// The band (1 to 3, top to bottom) of a cell, row or block, … (an
    /// integer).
    Band,
    /// The stack (1 to 3, left to right) of a cell, column or block, …
    Stack,
    /// The digit of a candidate or an rn, cn or bn variable.
    Digit,
    /// The cell of a candidate or an rc variable.
    Cell,
}

impl Geo {
    pub fn name(self) -> &'static str {
        match self {
            Geo::Row => "row",
            Geo::Column => "column",
            Geo::Block => "block",
            Geo::Band => "band",
            Geo::Stack => "stack",
            Geo::Digit => "digit",
            Geo::Cell => "cell",
        }
    }

    /// The type of the value: an element, or an integer (band, stack).
    pub fn ty(self) -> Ty {
        match self {
            Geo::Row => Ty::One(Elem::Row),
            Geo::Column => Ty::One(Elem::Column),
            Geo::Block => Ty::One(Elem::Block),
            Geo::Digit => Ty::One(Elem::Digit),
            Geo::Cell => Ty::One(Elem::Cell),
            Geo::Band | Geo::Stack => Ty::Int,
        }
    }
}

/// A quantifier: binds `slot` to each member of `domain` in turn and
/// evaluates `body` (a condition), stopping as soon as the answer is known.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// `sum(X in S: N)`: the sum of the integer N over the members (0 on
    /// an empty set).
    Sum,
    /// `min(X in S: N)`: the least N (undefined on an empty set).
    Min,
    /// `max(X in S: N)`: the greatest N (undefined on an empty set).
    Max,
}

impl Quant {
    /// Is it a fold (`sum`, `min`, `max`: an integer body, an integer
    /// value)?
    pub fn is_fold(self) -> bool {
        matches!(self, Quant::Sum | Quant::Min | Quant::Max)
    }

    /// The quantifier as a test of each member (`None` for a fold).
    pub fn test(self) -> Option<Test> {
        match self {
            Quant::All => Some(Test::All),
            Quant::Any => Some(Test::Any),
            Quant::None => Some(Test::None),
            Quant::Count => Some(Test::Count),
            Quant::Select => Some(Test::Select),
            Quant::Sum | Quant::Min | Quant::Max => None,
        }
    }
}

/// A quantifier that tests a condition on each member: every [`Quant`]
/// but the folds. A typed quantifier runs one
/// ([`super::typed::TQuant`]); an enum of its own so that the loop that
/// runs it matches on these five only (with the folds in its `match`, the
/// classic sets' searches ran 0.5% more instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    All,
    Any,
    None,
    Count,
    Select,
}

impl Op {
    /// The operands of an operation (every operation has at most two):
    /// one walker for the analyses of a tree.
    pub fn operands(&self) -> [Option<&Op>; 2] {
        match self {
            Op::Int(_) | Op::Slot(_) | Op::Grid | Op::Decided | Op::Givens | Op::Symbols => {
                [None, None]
            }
            Op::Quant(qo) => [Some(&qo.domain), Some(&qo.body)],
            Op::Cands(_, x)
            | Op::Project(_, x)
            | Op::Linked(x)
            | Op::Peers(x)
            | Op::First(x)
            | Op::Last(x)
            | Op::Len(x)
            | Op::Geo(_, _, x)
            | Op::Value(x)
            | Op::Order(_, x)
            | Op::Sum(_, _, x)
            | Op::Not(x) => [Some(x), None],
            Op::SetBin(_, _, a, b)
            | Op::IntBin(_, a, b)
            | Op::Cmp(_, a, b)
            | Op::SetEq(_, a, b)
            | Op::SubsetOf(a, b)
            | Op::In(a, b)
            | Op::And(a, b)
            | Op::CellAt(a, b)
            | Op::At(_, _, a, b)
            | Op::Rise(_, a, b)
            | Op::OrWhips(_, a, b)
            | Op::Or(a, b) => [Some(a), Some(b)],
        }
    }

    /// The operands of an operation, to change them in place (a
    /// quantifier's are its domain and condition, as in [`Op::operands`]).
    pub fn operands_mut(&mut self) -> [Option<&mut Op>; 2] {
        match self {
            Op::Int(_) | Op::Slot(_) | Op::Grid | Op::Decided | Op::Givens | Op::Symbols => {
                [None, None]
            }
            Op::Quant(qo) => [Some(&mut qo.domain), Some(&mut qo.body)],
            Op::Cands(_, x)
            | Op::Project(_, x)
            | Op::Linked(x)
            | Op::Peers(x)
            | Op::First(x)
            | Op::Last(x)
            | Op::Len(x)
            | Op::Geo(_, _, x)
            | Op::Value(x)
            | Op::Order(_, x)
            | Op::Sum(_, _, x)
            | Op::Not(x) => [Some(x), None],
            Op::SetBin(_, _, a, b)
            | Op::IntBin(_, a, b)
            | Op::Cmp(_, a, b)
            | Op::SetEq(_, a, b)
            | Op::SubsetOf(a, b)
            | Op::In(a, b)
            | Op::And(a, b)
            | Op::CellAt(a, b)
            | Op::At(_, _, a, b)
            | Op::Rise(_, a, b)
            | Op::OrWhips(_, a, b)
            | Op::Or(a, b) => [Some(a), Some(b)],
        }
    }

    /// The type of the expression's value, read off its operation and
    /// the checker's types of the slots it reads (`slots`) and of its set
    /// operations.
    pub fn ty(&self, slots: &[Ty]) -> Ty {
        match self {
            Op::Int(_) | Op::Len(_) | Op::IntBin(..) => Ty::Int,
            Op::Slot(s) => slots.get(*s).copied().unwrap_or(Ty::Error),
            Op::Cands(..) | Op::Linked(_) | Op::OrWhips(..) | Op::Grid => Ty::Set(Elem::Cand),
            Op::Project(e, _) | Op::SetBin(_, e, ..) => Ty::Set(*e),
            Op::Peers(_) => Ty::Set(Elem::Cell),
            Op::First(x) | Op::Last(x) => x.ty(slots).elem().map_or(Ty::Error, Ty::One),
            Op::Cmp(..)
            | Op::SetEq(..)
            | Op::SubsetOf(..)
            | Op::In(..)
            | Op::And(..)
            | Op::Or(..)
            | Op::Not(_) => Ty::Bool,
            Op::Geo(g, ..) => g.ty(),
            Op::CellAt(..) => Ty::One(Elem::Cell),
            Op::Decided | Op::Givens => Ty::Set(Elem::Cell),
            Op::Symbols => Ty::Set(Elem::Digit),
            Op::Value(_) => Ty::One(Elem::Digit),
            Op::At(e, ..) => Ty::One(*e),
            Op::Order(..) => Ty::Set(Elem::Cell),
            Op::Rise(..) => Ty::Int,
            Op::Sum(f, ..) => f.ty(),
            Op::Quant(qo) => match qo.q {
                Quant::Count | Quant::Sum | Quant::Min | Quant::Max => Ty::Int,
                Quant::Select => (slots.get(qo.slot).copied())
                    .and_then(Ty::elem)
                    .map_or(Ty::Error, Ty::Set),
                _ => Ty::Bool,
            },
        }
    }

    /// Can evaluation be undefined (does it use `first`, `last`, a
    /// single-valued function, `at`, `min` or `max`)?
    pub fn may_fail(&self) -> bool {
        matches!(
            self,
            Op::First(_)
                | Op::Last(_)
                | Op::Geo(..)
                | Op::CellAt(..)
                | Op::At(..)
                | Op::Value(_)
                | Op::Sum(SumFn::Number | SumFn::Total, ..)
        ) || matches!(self, Op::Quant(q) if matches!(q.q, Quant::Min | Quant::Max))
            || self.operands().into_iter().flatten().any(Op::may_fail)
    }
}

/// The slots `op` reads that no quantifier inside it binds (its variable
/// and its moved parts), pushed on `out`.
pub fn free_slots(op: &Op, bound: &mut Vec<usize>, out: &mut Vec<usize>) {
    match op {
        Op::Slot(s) => {
            if !bound.contains(s) {
                out.push(*s);
            }
        }
        Op::Quant(q) => {
            free_slots(&q.domain, bound, out);
            let depth = bound.len();
            bound.push(q.slot);
            for (t, v) in &q.pre {
                free_slots(v, bound, out);
                bound.push(*t);
            }
            free_slots(&q.body, bound, out);
            bound.truncate(depth);
        }
        _ => {
            for x in op.operands().into_iter().flatten() {
                free_slots(x, bound, out);
            }
        }
    }
}

/// One instruction of a plan, run in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
    /// A generator of closed walks (`let Q, A: loop from …`; see
    /// [`Walk`]): binds its slots to each loop found, in the walk's order.
    Walk(Box<Walk>),
    /// A generator of colour clusters (`let K, A: cluster in P`; see
    /// [`Cluster`]): binds its two slots to each cluster and colour.
    Cluster(Box<Cluster>),
    /// A generator of almost locked sets (`let A: als size N to M in P`;
    /// see [`Als`]): binds its slot to each ALS's cells.
    Als(Box<Als>),
}

impl Instr {
    /// Does it enumerate values (a generator: the search branches there)?
    pub fn is_gen(&self) -> bool {
        matches!(
            self,
            Instr::Gen { .. } | Instr::Walk(_) | Instr::Cluster(_) | Instr::Als(_)
        )
    }

    /// Every slot the instruction writes (a walk writes several), pushed
    /// on `out`: what a shared prefix must record and replay, and what a
    /// renumbering of the slots must change.
    pub fn binds(&self, out: &mut Vec<usize>) {
        match self {
            Instr::Gen { slot, .. } | Instr::Def { slot, .. } => out.push(*slot),
            Instr::Filter(_) => {}
            Instr::Walk(w) => out.extend(w.slots()),
            Instr::Cluster(c) => out.extend([c.cands, c.colour]),
            Instr::Als(a) => out.push(a.slot),
        }
    }

    /// The slots the instruction writes (see [`Instr::binds`]).
    pub fn bound(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.binds(&mut out);
        out
    }

    /// Every slot running the instruction writes: [`Instr::binds`] and
    /// the variables and moved parts of the quantifiers in its
    /// expressions (which hold their last member's value after it).
    pub fn writes(&self) -> Vec<usize> {
        let mut out = self.bound();
        let ops: Vec<&Op> = match self {
            Instr::Gen { domain, order, .. } => domain.iter().chain(order).collect(),
            Instr::Def { op, .. } | Instr::Filter(op) => vec![op],
            Instr::Walk(w) => w.ops().collect(),
            Instr::Cluster(c) => vec![&c.domain],
            Instr::Als(a) => a.domain.iter().chain(&a.holding).collect(),
        };
        for op in ops {
            quantified_slots(op, &mut out);
        }
        out
    }
}

/// The slots the quantifiers in `op` bind (their variables and moved
/// parts), pushed on `out`.
pub fn quantified_slots(op: &Op, out: &mut Vec<usize>) {
    if let Op::Quant(q) = op {
        out.push(q.slot);
        for (t, v) in &q.pre {
            out.push(*t);
            quantified_slots(v, out);
        }
    }
    for x in op.operands().into_iter().flatten() {
        quantified_slots(x, out);
    }
}

/// A walk from a cell, house to house, that closes into loops
/// (`let Q, A: loop from S through P by block then row then column length
/// N next z gather X = G when C`): from the start S, each step goes to a
/// cell of P in a house of the current cell, of each of the listed kinds
/// in turn (not the kind of the step that led there), that cell's house
/// members taken in increasing order; a cell already on the walk is not
/// visited again. When a step of a walk of `min_length` to `length` cells
/// reaches S back, the loop closes (loops of several lengths in the order
/// the walk closes them): `lp` holds its cells and `even` those at an even
/// place (S first, place 0). Before each cell z (`next`) is stepped to,
/// `gather` adds G (evaluated with z bound) to X, a set kept along the
/// walk: X holds the G of every cell looked at so far on the way from S,
/// those the walk did not step to included; the step is taken when C
/// holds (`when`; `lp` and `even` hold the walk so far, z not included).
/// At a match, `next` holds S and X what it held when the loop closed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Walk {
    /// The loop's cells (a set of cells).
    pub lp: usize,
    /// Its cells at even places.
    pub even: usize,
    /// The start cell.
    pub start: Op,
    /// The cells the walk may step to.
    pub through: Op,
    /// The kinds of house the steps go by, in order (rows, columns,
    /// blocks: house indices 0-8, 9-17, 18-26).
    pub by: Vec<Elem>,
    /// The least number of cells of a loop (`length N to M`: N; `length
    /// N`: N, as `length`).
    pub min_length: usize,
    /// The greatest number of cells of a loop (the walk goes no further).
    pub length: usize,
    /// `once`: a loop closes only the first time the walk (from one
    /// start) meets its cells and even cells, not again in the other
    /// direction or through houses of other kinds.
    pub once: bool,
    /// The cell looked at (`next z`), if named.
    pub next: Option<usize>,
    /// `gather X = G`: the slot X and G.
    pub gather: Option<(usize, Op)>,
    /// `when C`: the condition of a step.
    pub when: Option<Op>,
}

impl Walk {
    /// The slots the walk writes.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        [
            Some(self.lp),
            Some(self.even),
            self.next,
            self.gather.as_ref().map(|g| g.0),
        ]
        .into_iter()
        .flatten()
    }

    /// The slots the walk writes, to renumber them.
    pub fn slots_mut(&mut self) -> Vec<&mut usize> {
        let mut out = vec![&mut self.lp, &mut self.even];
        out.extend(self.next.as_mut());
        out.extend(self.gather.as_mut().map(|g| &mut g.0));
        out
    }

    /// Its expressions: start, cells, then `gather` and `when` (which
    /// are evaluated once per cell looked at).
    pub fn ops(&self) -> impl Iterator<Item = &Op> {
        [Some(&self.start), Some(&self.through)]
            .into_iter()
            .flatten()
            .chain(self.gather.as_ref().map(|g| &g.1))
            .chain(self.when.as_ref())
    }

    /// Its expressions, to change them in place.
    pub fn ops_mut(&mut self) -> Vec<&mut Op> {
        let mut out = vec![&mut self.start, &mut self.through];
        out.extend(self.gather.as_mut().map(|g| &mut g.1));
        out.extend(self.when.as_mut());
        out
    }
}

/// The colour clusters of a set of candidates (`let K, A: cluster in
/// P`): two live candidates of P are strongly linked when they are the
/// only two live candidates of a variable (a conjugate pair of a house,
/// the two candidates of a bivalue cell); a cluster is a connected
/// component of that graph with two candidates or more, coloured in two
/// so that strongly linked candidates differ (exactly one of them is
/// true, so one colour class is true, the other false). `cands` is bound
/// to each cluster's candidates, clusters in order of their smallest
/// candidate, and for each `colour` to the class holding that candidate,
/// then to the other. A cluster that cannot be coloured in two (a cycle
/// of strong links of odd length: the state has no solution) is skipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cluster {
    /// The cluster's candidates (a set of candidates).
    pub cands: usize,
    /// One of its colour classes.
    pub colour: usize,
    /// The candidates clusters are made of (`grid` when not written).
    pub domain: Op,
}

/// The greatest number of cells of an almost locked set: nine cells of a
/// house hold at most nine digits, so N cells with N + 1 digits are 8 at
/// most.
pub const MAX_ALS: usize = 8;

/// The almost locked sets of the state (`let A: als size N to M in P`):
/// N undecided cells of one house whose candidates are N + 1 digits
/// (a bivalue cell is an ALS of one cell). `slot` is bound to each ALS's
/// cells of `min` to `max` cells lying in the domain (every undecided
/// cell when there is none), each set of cells once (one in a row or
/// column and a block is not found twice), in increasing size, then in
/// the order of the first house holding it (rows, columns, blocks), then
/// of its cells ([`super::als`]). With `holding D`, only the ALSs whose
/// digits include every digit of D.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Als {
    pub slot: usize,
    pub min: usize,
    pub max: usize,
    /// The cells an ALS is taken among (a set of cells).
    pub domain: Option<Op>,
    /// Digits every ALS bound holds (`holding D`: a set of digits).
    pub holding: Option<Op>,
}

/// A piece of a show template, over checked expressions ([`Op`]) or, in
/// the typed stage, over what the matcher evaluates.
#[derive(Clone, Debug)]
pub enum ShowPart<O = Op> {
    /// Literal text (family parameters already substituted).
    Lit(String),
    /// A value, printed by its shape.
    Value(Shape, O),
    /// Elements printed relative to a context element (`within(ctx, x)`).
    Within {
        ctx_elem: Elem,
        ctx: O,
        shape: Shape,
        x: O,
    },
}

impl<O> ShowPart<O> {
    /// The same part over `f` of each expression.
    pub fn map<P>(&self, mut f: impl FnMut(&O) -> P) -> ShowPart<P> {
        match self {
            ShowPart::Lit(s) => ShowPart::Lit(s.clone()),
            ShowPart::Value(shape, op) => ShowPart::Value(*shape, f(op)),
            ShowPart::Within {
                ctx_elem,
                ctx,
                shape,
                x,
            } => ShowPart::Within {
                ctx_elem: *ctx_elem,
                ctx: f(ctx),
                shape: *shape,
                x: f(x),
            },
        }
    }
}

/// A pattern rule as the checker makes it ([`crate::lang::check`]): its
/// expressions typed and checked, not yet scheduled. The input of the
/// compiler's passes ([`super::compile`]).
#[derive(Clone, Debug)]
pub struct Checked {
    /// Number of value slots.
    pub slots: usize,
    /// The type of each slot's value: a generator's element or set, a
    /// definition's expression, a quantifier's element, a moved part's
    /// expression.
    pub slot_types: Vec<Ty>,
    /// What each slot holds when a match is reported (an element or a set
    /// of elements); `None` for integers, conditions, quantified names and
    /// working names (`_X`).
    pub slot_shapes: Vec<Option<Shape>>,
    /// The generators, in written order (each an [`Instr::Gen`]).
    pub gens: Vec<Instr>,
    /// Definitions and filters, in written order, each with the number of
    /// generators it depends on (0 = none, k = the k-th and earlier).
    pub placed: Vec<(usize, Instr)>,
    pub conclusion: ConclusionKind,
    pub target: Op,
    /// `parents EXPR`: the candidates whose absence a match relies on.
    pub parents: Option<Op>,
    pub show: Vec<ShowPart>,
    /// The name's holes bound by the match (`asc[{K}]` with `let K =
    /// …`): each hole's name and the slot of its integer, in the order
    /// they appear in the name. Empty for a rule whose name is fixed.
    pub name_holes: Vec<(String, usize)>,
}
