//! The abstract syntax of rule files, with byte spans into the source.
//!
//! One [`RuleAst`] is one `rule` item as written, before its family is
//! expanded. Expansion ([`super::expand`]) substitutes family parameters and
//! yields one concrete rule per parameter tuple; checking
//! ([`super::check`]) then types it and compiles it into a plan.

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

/// The kind of a rule. Only pattern rules exist today; chain and trial rules
/// will be further variants sharing the clause language (ARCHITECTURE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    Pattern,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RuleAst {
    pub kind: RuleKind,
    /// Doc comment lines (`///`), without the slashes.
    pub docs: Vec<String>,
    /// The name template, e.g. `naked-{W}-in-a-{K}`.
    pub name: String,
    pub name_span: Span,
    pub family: Vec<FamBind>,
    pub clauses: Vec<Clause>,
    pub span: Span,
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
}

impl std::fmt::Display for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Atom::Int(i) => write!(f, "{i}"),
            Atom::Str(s) | Atom::Word(s) => write!(f, "{s}"),
        }
    }
}

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
    Complexity(Expr),
    /// The rating level (0 = singles) the rule stands for.
    Level(Expr),
    Rating(String, Span),
    /// `let X: [size] type [in domain]`
    Gen {
        name: Ident,
        size: Option<Size>,
        ty: Ident,
        domain: Option<Expr>,
    },
    /// `let X = expr`
    Def {
        name: Ident,
        expr: Expr,
    },
    Where(Expr),
    Eliminate(Expr),
    Assert(Expr),
    /// The display template and the span of its text (inside the quotes).
    Show(String, Span),
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
}
