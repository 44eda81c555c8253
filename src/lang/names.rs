//! The one table of the language's words: keywords, type names, built-in
//! functions, quantifiers, named values, and the words that chain and
//! trial clauses take (`others z-first`, `links target-or-any`, `increment
//! se-length`, `reads original`, …). The parser's messages, the checker's
//! look-ups and its "expected one of …" lists all read from here; the
//! grammar's `keyword` and `quant_kw` rules repeat [`KEYWORDS`] and
//! [`QUANTIFIERS`] (tests keep them equal).

use crate::grid::geometry::Space;
use crate::search::chain::{Ending, Linking};
use crate::search::pattern::{Elem, Geo, OrChain, Order, Quant, SumFn};
use crate::search::trial::{Increment, Mode, Reads};

/// Words that cannot name a variable.
pub const KEYWORDS: &[&str] = &[
    "let",
    "where",
    "eliminate",
    "assert",
    "show",
    "complexity",
    "level",
    "rating",
    "rule",
    "chain",
    "trial",
    "in",
    "then",
    "and",
    "or",
    "not",
    "for",
    "at",
];

/// Type names and the element types they stand for.
pub const TYPES: &[(&str, Elem)] = &[
    ("digit", Elem::Digit),
    ("row", Elem::Row),
    ("column", Elem::Column),
    ("block", Elem::Block),
    ("house", Elem::House),
    ("cell", Elem::Cell),
    ("cand", Elem::Cand),
    ("var", Elem::Var(None)),
    ("rc", Elem::Var(Some(Space::Rc))),
    ("rn", Elem::Var(Some(Space::Rn))),
    ("cn", Elem::Var(Some(Space::Cn))),
    ("bn", Elem::Var(Some(Space::Bn))),
];

/// The built-in functions, as the checker tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fun {
    Cands,
    Digits,
    Cells,
    Rows,
    Columns,
    Blocks,
    Houses,
    Vars,
    Linked,
    /// `forcing_whips(G, N)`, `contrad_whips(G, N)`,
    /// `strict_contrad_whips(G, N)`, `or_whips(G, N)`: what chains of that kind of N variables at most from the
    /// disjunction G eliminate (`search::forcing`).
    OrWhips(OrChain),
    Peers,
    First,
    Last,
    Count,
    Within,
    /// A single-valued function of one element (`row(x)`, `band(x)`, …).
    Geo(Geo),
    /// `value(C)`: the digit placed in a decided cell.
    Value,
    /// `given(C)`: is the cell given in the puzzle?
    Given,
    /// `below(C)`, `above(C)`: the cells a chain of the type's order
    /// relations (Futoshiki's signs, thermometers) leads down or up to.
    Order(Order),
    /// `rise(Y, X)`, `run(Y, X)`: the length of the longest chain of
    /// order relations from cell Y up to cell X (anywhere; along their
    /// line only), 0 when there is none.
    Rise(bool),
    /// `number(d)`, `area(x)`, `cages(x)` (and `sum(x)` of one element,
    /// which the checker tells from the fold `sum(X in S: N)`).
    Sum(SumFn),
}

/// A built-in function: its name, its number of arguments, and which it
/// is.
pub struct Builtin {
    pub name: &'static str,
    pub arity: usize,
    pub fun: Fun,
}

/// The built-in functions, in the order error messages list them.
pub const FUNCTIONS: &[Builtin] = &[
    Builtin {
        name: "cands",
        arity: 1,
        fun: Fun::Cands,
    },
    Builtin {
        name: "digits",
        arity: 1,
        fun: Fun::Digits,
    },
    Builtin {
        name: "cells",
        arity: 1,
        fun: Fun::Cells,
    },
    Builtin {
        name: "rows",
        arity: 1,
        fun: Fun::Rows,
    },
    Builtin {
        name: "columns",
        arity: 1,
        fun: Fun::Columns,
    },
    Builtin {
        name: "blocks",
        arity: 1,
        fun: Fun::Blocks,
    },
    Builtin {
        name: "houses",
        arity: 2,
        fun: Fun::Houses,
    },
    Builtin {
        name: "vars",
        arity: 2,
        fun: Fun::Vars,
    },
    Builtin {
        name: "linked",
        arity: 1,
        fun: Fun::Linked,
    },
    Builtin {
        name: "forcing_whips",
        arity: 2,
        fun: Fun::OrWhips(OrChain::Forcing),
    },
    Builtin {
        name: "contrad_whips",
        arity: 2,
        fun: Fun::OrWhips(OrChain::Contrad),
    },
    Builtin {
        name: "strict_contrad_whips",
        arity: 2,
        fun: Fun::OrWhips(OrChain::StrictContrad),
    },
    Builtin {
        name: "or_whips",
        arity: 2,
        fun: Fun::OrWhips(OrChain::Whip),
    },
    Builtin {
        name: "peers",
        arity: 1,
        fun: Fun::Peers,
    },
    Builtin {
        name: "first",
        arity: 1,
        fun: Fun::First,
    },
    Builtin {
        name: "last",
        arity: 1,
        fun: Fun::Last,
    },
    Builtin {
        name: "count",
        arity: 1,
        fun: Fun::Count,
    },
    Builtin {
        name: "within",
        arity: 2,
        fun: Fun::Within,
    },
    Builtin {
        name: "row",
        arity: 1,
        fun: Fun::Geo(Geo::Row),
    },
    Builtin {
        name: "column",
        arity: 1,
        fun: Fun::Geo(Geo::Column),
    },
    Builtin {
        name: "block",
        arity: 1,
        fun: Fun::Geo(Geo::Block),
    },
    Builtin {
        name: "band",
        arity: 1,
        fun: Fun::Geo(Geo::Band),
    },
    Builtin {
        name: "stack",
        arity: 1,
        fun: Fun::Geo(Geo::Stack),
    },
    Builtin {
        name: "digit",
        arity: 1,
        fun: Fun::Geo(Geo::Digit),
    },
    Builtin {
        name: "value",
        arity: 1,
        fun: Fun::Value,
    },
    Builtin {
        name: "given",
        arity: 1,
        fun: Fun::Given,
    },
    Builtin {
        name: "below",
        arity: 1,
        fun: Fun::Order(Order::Below),
    },
    Builtin {
        name: "above",
        arity: 1,
        fun: Fun::Order(Order::Above),
    },
    Builtin {
        name: "rise",
        arity: 2,
        fun: Fun::Rise(false),
    },
    Builtin {
        name: "run",
        arity: 2,
        fun: Fun::Rise(true),
    },
    // `cell(z)` of a candidate, or `cell(R, C)` at a row and a column.
    Builtin {
        name: "cell",
        arity: 1,
        fun: Fun::Geo(Geo::Cell),
    },
    Builtin {
        name: "number",
        arity: 1,
        fun: Fun::Sum(SumFn::Number),
    },
    Builtin {
        name: "area",
        arity: 1,
        fun: Fun::Sum(SumFn::Area),
    },
    Builtin {
        name: "cages",
        arity: 1,
        fun: Fun::Sum(SumFn::Cages),
    },
];

/// The quantifiers: `all(X in S: C)`, `any(…)`, `none(…)`, `count(…)`,
/// `select(…)` (the members of S for which C holds).
pub const QUANTIFIERS: &[(&str, Quant)] = &[
    ("all", Quant::All),
    ("any", Quant::Any),
    ("none", Quant::None),
    ("count", Quant::Count),
    ("select", Quant::Select),
    ("sum", Quant::Sum),
    ("min", Quant::Min),
    ("max", Quant::Max),
];

/// The name of the whole grid: every live candidate (a set of `cand`).
/// `cells(grid)` are the undecided cells, `vars(rn, grid)` the row
/// variables with a candidate left.
pub const GRID: &str = "grid";

/// The decided cells (a set of `cell`): given or placed.
pub const DECIDED: &str = "decided";

/// The cells given in the puzzle (a set of `cell`), placed values aside.
pub const GIVENS: &str = "givens";

/// Every symbol of the puzzle type (a set of `digit`), live or not:
/// `number(last(symbols))` is the type's side N.
pub const SYMBOLS: &str = "symbols";

/// The words one clause takes, each with what it stands for, in the
/// order error messages list them.
pub struct Words<T: 'static>(pub &'static [(&'static str, T)]);

impl<T: Copy> Words<T> {
    /// What `word` stands for.
    pub fn get(&self, word: &str) -> Option<T> {
        self.0.iter().find(|(w, _)| *w == word).map(|&(_, v)| v)
    }

    /// The words for a message: `a, b or c`.
    pub fn list(&self) -> String {
        let words: Vec<&str> = self.0.iter().map(|(w, _)| *w).collect();
        match words.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// What `others` lets a chain's variables hold besides its candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Other {
    /// Nothing else.
    None,
    /// z-candidates (linked to the target).
    Z,
    /// z-candidates in the first variable only.
    ZFirst,
    /// t-candidates (linked to an earlier right-linking candidate).
    T,
}

/// A chain's `others` clause.
pub const CHAIN_OTHERS: Words<Other> = Words(&[
    ("none", Other::None),
    ("z", Other::Z),
    ("z-first", Other::ZFirst),
    ("t", Other::T),
]);

/// A chain's `links` clause.
pub const CHAIN_LINKS: Words<Linking> = Words(&[
    ("previous", Linking::Previous),
    ("target-or-any", Linking::TargetOrAny),
]);

/// A chain's `targets` clause: does a hit conclude every target the same
/// chain fits (`all`)?
pub const CHAIN_TARGETS: Words<bool> = Words(&[("one", false), ("all", true)]);

/// A chain's `digits` clause: are its candidates of one digit (`same`)?
pub const CHAIN_DIGITS: Words<bool> = Words(&[("any", false), ("same", true)]);

/// A chain's `nodes` clause: may a right-linking candidate be a
/// g-candidate (`g-candidates`), or any node, either side of a link and
/// either end (`groups`)? Or are the nodes a digit's candidates in an
/// almost locked set (`als`)?
pub const CHAIN_NODES: Words<Nodes> = Words(&[
    ("candidates", Nodes::Candidates),
    ("g-candidates", Nodes::RightGroups),
    ("groups", Nodes::Groups),
    ("als", Nodes::Als),
]);

/// What a chain's nodes may be (its `nodes` clause).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nodes {
    Candidates,
    /// Right-linking candidates may be g-candidates.
    RightGroups,
    /// Any node may be a g-candidate.
    Groups,
    /// Every node is a digit's candidates in an almost locked set, strongly
    /// linked to the set's other digits (ALS chains).
    Als,
}

/// A chain's `ends` clause.
pub const CHAIN_ENDS: Words<Ending> = Words(&[
    ("contradiction", Ending::Contradiction),
    ("linked-to-target", Ending::LinkedToTarget),
    ("lasso", Ending::Lasso),
    ("loop", Ending::Loop),
    ("back-to-start", Ending::BackToStart),
]);

/// A trial rule's `increment` clause.
pub const TRIAL_INCREMENT: Words<Increment> = Words(&[
    ("se-length", Increment::SeLength),
    ("none", Increment::None),
]);

/// A pass's `assume` clause: candidates assumed on (`true`) or off.
pub const TRIAL_ASSUME: Words<bool> = Words(&[("on", true), ("off", false)]);

/// What an implication step of `on-off` or `off-on` goes by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepBy {
    Cell,
    House,
    None,
}

/// A pass's `on-off` and `off-on` clauses.
pub const TRIAL_STEPS: Words<StepBy> = Words(&[
    ("cell", StepBy::Cell),
    ("house", StepBy::House),
    ("none", StepBy::None),
]);

/// A pass's `reads` clause.
pub const TRIAL_READS: Words<Reads> =
    Words(&[("original", Reads::Original), ("branch", Reads::Branch)]);

/// A pass's `conclude` clause (each mode's [`Mode::word`]).
pub const TRIAL_CONCLUDE: Words<Mode> = Words(&[
    ("cycle", Mode::Cycle),
    ("forcing", Mode::Forcing),
    ("contradiction", Mode::Contradiction),
    ("double", Mode::Double),
    ("cell", Mode::Cell),
    ("region", Mode::Region),
]);

/// The spaces of other puzzle types than classic Sudoku that rule files
/// may name (`docs/puzzle-types.md`): diagonals (`dn`, pandiagonal
/// squares' and X-Sudoku's), anti-diagonals (`an`), windoku windows (`wn`),
/// disjoint groups (`gn`), extra regions (`en`), killer cages (`kc`: a
/// cage's combinations). An instance whose generator names one is left
/// out on classic Sudoku and run on the types that have the space.
pub const FOREIGN_SPACES: &[&str] = &["dn", "an", "wn", "gn", "en", "kc"];

/// The element type named by a word.
pub fn elem_of(word: &str) -> Option<Elem> {
    TYPES.iter().find(|(n, _)| *n == word).map(|&(_, e)| e)
}

/// Which built-in function `name` names.
pub fn fun(name: &str) -> Option<Fun> {
    builtin(name).map(|b| b.fun)
}

/// The built-in function named `name`.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The quantifier named by a word.
pub fn quantifier(word: &str) -> Option<Quant> {
    QUANTIFIERS
        .iter()
        .find(|(n, _)| *n == word)
        .map(|&(_, q)| q)
}

/// Is `name` a keyword, a type name, a function, a quantifier or `grid`?
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name)
        || elem_of(name).is_some()
        || builtin(name).is_some()
        || quantifier(name).is_some()
        || name == GRID
        || name == DECIDED
        || name == GIVENS
        || name == SYMBOLS
}

/// `digit, row, …` for messages.
pub fn type_list() -> String {
    TYPES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// `cands, digits, …` for messages.
pub fn function_list() -> String {
    FUNCTIONS
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grammar's `keyword` rule lists exactly [`KEYWORDS`].
    #[test]
    fn grammar_keywords_are_the_table() {
        let grammar = include_str!("../../grammar/rules.pest");
        let line = grammar
            .lines()
            .find(|l| l.trim_start().starts_with("keyword"))
            .expect("grammar has a keyword rule");
        let mut in_grammar: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        let mut table = KEYWORDS.to_vec();
        in_grammar.sort();
        table.sort();
        assert_eq!(in_grammar, table);
    }

    /// The grammar's `quant_kw` rule lists exactly [`QUANTIFIERS`].
    #[test]
    fn grammar_quantifiers_are_the_table() {
        let grammar = include_str!("../../grammar/rules.pest");
        let line = grammar
            .lines()
            .find(|l| l.trim_start().starts_with("quant_kw"))
            .expect("grammar has a quant_kw rule");
        let mut in_grammar: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        let mut table: Vec<&str> = QUANTIFIERS.iter().map(|(n, _)| *n).collect();
        in_grammar.sort();
        table.sort();
        assert_eq!(in_grammar, table);
    }

    #[test]
    fn every_word_is_found() {
        for (n, e) in TYPES {
            assert_eq!(elem_of(n), Some(*e));
            assert!(is_reserved(n));
        }
        for f in FUNCTIONS {
            assert_eq!(builtin(f.name).map(|b| b.arity), Some(f.arity));
        }
        for (n, q) in QUANTIFIERS {
            assert_eq!(quantifier(n), Some(*q));
            assert!(is_reserved(n));
        }
        assert!(is_reserved(GRID));
        assert_eq!(CHAIN_OTHERS.get("z-first"), Some(Other::ZFirst));
        assert_eq!(CHAIN_OTHERS.list(), "none, z, z-first or t");
        assert_eq!(TRIAL_READS.list(), "original or branch");
        assert_eq!(CHAIN_LINKS.get("next"), None);
        assert!(is_reserved("where"));
        assert!(!is_reserved("H"));
    }

    /// The words of `conclude` are the modes' own, every mode once.
    #[test]
    fn conclusion_words_are_the_modes() {
        assert_eq!(TRIAL_CONCLUDE.0.len(), Mode::ALL.len());
        for (w, m) in TRIAL_CONCLUDE.0 {
            assert_eq!(m.word(), *w);
        }
    }
}
