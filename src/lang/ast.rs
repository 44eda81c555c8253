//! The abstract syntax of rule files, with byte spans into the source.
//!
//! One [`RuleAst`] is one rule item as written, before its family is
//! expanded. Expansion ([`super::expand`]) yields one parameter tuple per
//! concrete rule; checking ([`super::check`]) names and types each
//! instance; lowering ([`super::lower`]) turns it into a searcher.
//!
//! The AST's shape says which clauses each kind of rule allows: the head
//! clauses ([`HeadClause`]) are shared, the body is the kind's own
//! ([`RuleBody`]), so no check by hand is needed for a misplaced clause.

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// An identifier with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RuleAst {
    /// Doc comment lines (`///`), without the slashes.
    pub docs: Vec<String>,
    /// The name template, e.g. `naked-{W}-in-a-{K}`.
    pub name: String,
    pub name_span: Span,
    pub family: Vec<FamBind>,
    /// Clauses every kind has: complexity, level, rating.
    pub head: Vec<HeadClause>,
    /// The kind's own clauses, in written order.
    pub body: RuleBody,
    pub span: Span,
}

/// The body of a rule, by kind. Chain and trial rules will be further
/// variants with clause types of their own (ARCHITECTURE.md).
#[derive(Clone, Debug, PartialEq)]
pub enum RuleBody {
    /// `rule NAME { … }`: a fixed pattern.
    Pattern(Vec<Clause>),
    /// `chain NAME { … }`: a chain family of one length.
    Chain(Vec<ChainClause>),
    /// `trial NAME { … }`: assumptions, propagation, conclusions.
    Trial(Vec<TrialClause>),
}

/// A clause of a trial rule's body (or of one of its passes).
#[derive(Clone, Debug, PartialEq)]
pub struct TrialClause {
    pub kind: TrialKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TrialKind {
    /// `pass { … }`: one pass's clauses.
    Pass(Vec<TrialClause>),
    /// `increment se-length` / `increment none`.
    Increment(Ident),
    /// `assume on, off`.
    Assume(Vec<Ident>),
    /// `cells 2..=9`: the cells whose candidates are assumed, by size.
    Cells(i64, i64),
    /// `on-off cell, house`.
    OnOff(Vec<Ident>),
    /// `off-on cell, house`.
    OffOn(Vec<Ident>),
    /// `reads original` / `reads branch`.
    Reads(Ident),
    /// `propagate with SET [rounds N]`: a rule set run in each branch.
    Propagate {
        set: Ident,
        rounds: Option<(i64, Span)>,
    },
    /// `apply SET`: a rule set applied to the branch whenever its
    /// implication steps are exhausted.
    Apply(Ident),
    /// `sweep`: the pass's one match is every assumption refuted in one
    /// pass over the candidates, each removed before the next is tried.
    Sweep,
    /// `conclude WORD [level D] [key N] [rating "S"] [cells A..=B]`.
    Conclude {
        what: Ident,
        level: Option<(String, Span)>,
        key: Option<(i64, Span)>,
        rating: Option<String>,
        cells: Option<(i64, i64, Span)>,
    },
}

/// A clause of a chain rule's body.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainClause {
    pub kind: ChainKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ChainKind {
    /// `length N`: the number of CSP variables.
    Length(Expr),
    /// `spaces rc, rn, cn, bn`: where the variables may come from.
    Spaces(Vec<Ident>),
    /// `others z, t`: what a variable may hold besides its linking candidates.
    Others(Vec<Ident>),
    /// `links previous` / `links target-or-any`.
    Links(Ident),
    /// `ends contradiction` / `ends linked-to-target` / `ends lasso`.
    Ends(Ident),
    /// `nodes candidates` / `nodes g-candidates`.
    Nodes(Ident),
    /// `targets one` / `targets all`.
    Targets(Ident),
    /// `digits any` / `digits same` (every candidate of the target's digit).
    Digits(Ident),
}

/// A clause of the head (shared by every rule kind).
#[derive(Clone, Debug, PartialEq)]
pub struct HeadClause {
    pub kind: HeadKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum HeadKind {
    Complexity(Expr),
    /// The rating level the rule stands for (0 = singles).
    Level(LevelExpr),
    Rating(String, Span),
    /// `unrated`: the rule's steps never rate a run (FutoRules' order
    /// rules, which CSP-Rules keeps outside the rating).
    Unrated,
}

/// A level: an integer expression (`level N`) or a decimal (`level 7.5`).
#[derive(Clone, Debug, PartialEq)]
pub enum LevelExpr {
    Int(Expr),
    Decimal(String, Span),
}

/// One binding of a family clause.
#[derive(Clone, Debug, PartialEq)]
pub enum FamBind {
    /// `N in 2..=4`
    Range {
        name: Ident,
        lo: i64,
        hi: i64,
        span: Span,
    },
    /// `(N, W) in [(2, pairs), (3, triplets)]`
    List {
        names: Vec<Ident>,
        tuples: Vec<(Vec<Atom>, Span)>,
        span: Span,
    },
}

/// A family parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    Int(i64),
    Str(String),
    Word(String),
    /// A decimal such as `4.6`: only a `level` may use it.
    Decimal(String),
}

impl std::fmt::Display for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Atom::Int(i) => write!(f, "{i}"),
            Atom::Str(s) | Atom::Word(s) | Atom::Decimal(s) => write!(f, "{s}"),
        }
    }
}

/// A clause of a pattern rule's body.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub kind: ClauseKind,
    pub span: Span,
}

/// The size of a set generator: a literal or a family parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Size {
    Lit(i64, Span),
    Param(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ClauseKind {
    /// `let X: [size] type [in domain [then domain]…]`
    Gen {
        name: Ident,
        size: Option<Size>,
        ty: Ident,
        domain: Option<Expr>,
        /// The domains after `then`: the elements of `domain` are taken
        /// first, then those of each of these not taken yet.
        then: Vec<Expr>,
    },
    /// `let Q, A: loop from S through P by K then … length N [to M] [once] [next z]
    /// [gather X = G] [when C]`: a generator of closed walks.
    Walk(Box<WalkClause>),
    /// `let K, A: cluster [in P]`: a generator of colour clusters, K each
    /// cluster's candidates, A each of its two colours in turn.
    Cluster {
        cands: Ident,
        colour: Ident,
        domain: Option<Expr>,
    },
    /// `let A: als [size N [to M]] [in P]`: a generator of almost
    /// locked sets (N cells of one house holding N + 1 digits), A each
    /// ALS's cells.
    Als {
        name: Ident,
        /// The least number of cells and the greatest (`size N to M`; the
        /// greatest is the least with `size N`).
        size: Option<(Size, Option<Size>)>,
        domain: Option<Expr>,
        /// `holding D`: digits every ALS bound holds.
        holding: Option<Expr>,
    },
    /// `let X = expr`
    Def {
        name: Ident,
        expr: Expr,
    },
    Where(Expr),
    Eliminate(Expr),
    Assert(Expr),
    /// `parents EXPR`: the candidates whose absence the match relies on.
    Parents(Expr),
    /// The display template and the span of its text (inside the quotes).
    Show(String, Span),
}

/// A walk generator's clause, as written (see [`ClauseKind::Walk`]).
#[derive(Clone, Debug, PartialEq)]
pub struct WalkClause {
    /// The loop's cells.
    pub cells: Ident,
    /// Its cells at even places.
    pub even: Ident,
    pub from: Expr,
    pub through: Expr,
    /// The kinds of house after `by`, in order.
    pub by: Vec<Ident>,
    /// The number of cells of a loop (`length N`), or the least
    /// (`length N to M`).
    pub length: Size,
    /// The greatest number of cells of a loop (`length N to M`).
    pub length_max: Option<Size>,
    /// `once`: each loop (its cells and even cells) closed once per
    /// start, the first time the walk meets it.
    pub once: bool,
    pub next: Option<Ident>,
    pub gather: Option<(Ident, Expr)>,
    pub when: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    /// `S at H`: the member of S that lies in H.
    At,
    Union,
    Inter,
    Minus,
    Plus,
    Times,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::At => "at",
            BinOp::Union => "|",
            BinOp::Inter => "&",
            BinOp::Minus => "-",
            BinOp::Plus => "+",
            BinOp::Times => "*",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    /// A family parameter substituted by a string (only meaningful in show).
    Str(String),
    Name(String),
    Call(Ident, Vec<Expr>),
    Count(Box<Expr>),
    Not(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `all(X in S: C)`, `any(…)`, `none(…)`, `count(…)`: the quantifier's
    /// word, the bound name, the set it ranges over and the condition.
    Quant {
        q: Ident,
        var: Ident,
        domain: Box<Expr>,
        body: Box<Expr>,
    },
}
