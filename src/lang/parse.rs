//! Rule file text → [`RuleAst`]s, with the pest grammar in
//! `grammar/rules.pest` and a Pratt parser for expressions.

use super::ast::*;
use super::diag::Diagnostic;
use pest::Parser;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest_derive::Parser;
use std::sync::LazyLock;

#[derive(Parser)]
#[grammar = "../grammar/rules.pest"]
struct RulesParser;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Assoc::Left))
        .op(Op::infix(Rule::and_op, Assoc::Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::eq, Assoc::Left)
            | Op::infix(Rule::ne, Assoc::Left)
            | Op::infix(Rule::lt, Assoc::Left)
            | Op::infix(Rule::le, Assoc::Left)
            | Op::infix(Rule::gt, Assoc::Left)
            | Op::infix(Rule::ge, Assoc::Left)
            | Op::infix(Rule::in_op, Assoc::Left))
        .op(Op::infix(Rule::union, Assoc::Left)
            | Op::infix(Rule::minus, Assoc::Left)
            | Op::infix(Rule::plus, Assoc::Left))
        .op(Op::infix(Rule::inter, Assoc::Left) | Op::infix(Rule::times, Assoc::Left))
});

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span {
        start: s.start(),
        end: s.end(),
    }
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span(&p),
    }
}

/// Human words for grammar rules, used in "expected …" messages.
fn describe(r: &Rule) -> &'static str {
    match r {
        Rule::pattern_rule | Rule::kw_rule => "`rule`",
        Rule::chain_rule | Rule::kw_chain => "`chain`",
        Rule::length_c => "`length`",
        Rule::spaces_c => "`spaces`",
        Rule::others_c => "`others`",
        Rule::links_c => "`links`",
        Rule::ends_c => "`ends`",
        Rule::word => "a word",
        Rule::doc => "a `///` doc comment",
        Rule::name_tpl => "a rule name",
        Rule::family => "`for`",
        Rule::complexity => "`complexity`",
        Rule::level => "`level`",
        Rule::rating => "`rating`",
        Rule::let_gen | Rule::let_def => "`let`",
        Rule::where_c => "`where`",
        Rule::eliminate => "`eliminate`",
        Rule::assert_c => "`assert`",
        Rule::show => "`show`",
        Rule::expr | Rule::call | Rule::paren | Rule::count => "an expression",
        Rule::ident | Rule::ty => "a name",
        Rule::int | Rule::size => "an integer",
        Rule::decimal => "a decimal number",
        Rule::string => "a string",
        Rule::fam_tuple | Rule::fam_atom => "a parameter value",
        Rule::fam_pattern | Rule::fam_bind | Rule::fam_range | Rule::fam_list => "a family binding",
        Rule::EOI => "end of file",
        Rule::or_op
        | Rule::and_op
        | Rule::in_op
        | Rule::eq
        | Rule::ne
        | Rule::le
        | Rule::ge
        | Rule::lt
        | Rule::gt
        | Rule::union
        | Rule::inter
        | Rule::minus
        | Rule::plus
        | Rule::times => "an operator",
        Rule::not_op => "`not`",
        _ => "something else",
    }
}

/// Parses one rule file. A syntax error stops parsing (pest reports the
/// first one); everything after parsing reports all errors at once.
pub fn parse_file(file: &str, source: &str) -> Result<Vec<RuleAst>, Diagnostic> {
    let mut pairs = RulesParser::parse(Rule::file, source).map_err(|e| {
        let pos = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        };
        let msg = match &e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => {
                let mut words: Vec<&str> = positives.iter().map(describe).collect();
                // Wherever a clause may start, the rule may also end.
                if positives.contains(&Rule::complexity) {
                    words.push("`}`");
                }
                words.sort();
                words.dedup();
                let found = source[pos..]
                    .split_whitespace()
                    .next()
                    .map_or("end of file".to_string(), |w| format!("`{w}`"));
                if words.is_empty() {
                    format!("syntax error: unexpected {found}")
                } else {
                    format!(
                        "syntax error: expected {}, found {found}",
                        words.join(" or ")
                    )
                }
            }
            pest::error::ErrorVariant::CustomError { message } => message.clone(),
        };
        Diagnostic::new(
            file,
            source,
            Span {
                start: pos,
                end: pos + 1,
            },
            msg,
        )
    })?;
    let file_pair = pairs.next().expect("grammar: file");
    Ok(file_pair
        .into_inner()
        .filter_map(|p| match p.as_rule() {
            Rule::pattern_rule | Rule::chain_rule => Some(rule_item(p)),
            _ => None,
        })
        .collect())
}

/// A rule item of any kind: the shared head, and the kind's own body.
fn rule_item(p: Pair<Rule>) -> RuleAst {
    let sp = span(&p);
    let is_chain = p.as_rule() == Rule::chain_rule;
    let mut docs = Vec::new();
    let mut name = String::new();
    let mut name_span = Span::default();
    let mut family = Vec::new();
    let mut head = Vec::new();
    let mut clauses = Vec::new();
    let mut chain_clauses = Vec::new();
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::doc => docs.push(q.as_str().trim_start_matches("///").trim().to_string()),
            Rule::kw_rule | Rule::kw_chain => {}
            Rule::name_tpl => {
                name = q.as_str().to_string();
                name_span = span(&q);
            }
            Rule::family => family = q.into_inner().map(fam_bind).collect(),
            Rule::complexity | Rule::level | Rule::rating => head.push(head_clause(q)),
            _ if is_chain => chain_clauses.push(chain_clause(q)),
            _ => clauses.push(clause(q)),
        }
    }
    RuleAst {
        docs,
        name,
        name_span,
        family,
        head,
        body: if is_chain {
            RuleBody::Chain(chain_clauses)
        } else {
            RuleBody::Pattern(clauses)
        },
        span: sp,
    }
}

fn chain_clause(p: Pair<Rule>) -> ChainClause {
    let sp = span(&p);
    let which = p.as_rule();
    let mut it = p.into_inner();
    let kind = match which {
        Rule::length_c => ChainKind::Length(expr(it.next().unwrap())),
        Rule::spaces_c => ChainKind::Spaces(it.map(ident).collect()),
        Rule::others_c => ChainKind::Others(it.map(ident).collect()),
        Rule::links_c => ChainKind::Links(ident(it.next().unwrap())),
        Rule::ends_c => ChainKind::Ends(ident(it.next().unwrap())),
        r => unreachable!("grammar: unexpected chain clause {r:?}"),
    };
    ChainClause { kind, span: sp }
}

fn head_clause(p: Pair<Rule>) -> HeadClause {
    let sp = span(&p);
    let which = p.as_rule();
    let mut it = p.into_inner();
    let kind = match which {
        Rule::complexity => HeadKind::Complexity(expr(it.next().unwrap())),
        Rule::level => {
            let q = it.next().unwrap();
            if q.as_rule() == Rule::decimal {
                HeadKind::Level(LevelExpr::Decimal(q.as_str().to_string(), span(&q)))
            } else {
                HeadKind::Level(LevelExpr::Int(expr(q)))
            }
        }
        _ => {
            let s = it.next().unwrap();
            let inner = s.into_inner().next().unwrap();
            HeadKind::Rating(inner.as_str().to_string(), span(&inner))
        }
    };
    HeadClause { kind, span: sp }
}

fn fam_bind(p: Pair<Rule>) -> FamBind {
    let q = p.into_inner().next().expect("grammar: fam_bind");
    let sp = span(&q);
    match q.as_rule() {
        Rule::fam_range => {
            let mut it = q.into_inner();
            let name = ident(it.next().unwrap());
            let lo = it.next().unwrap().as_str().parse().unwrap_or(i64::MAX);
            let hi = it.next().unwrap().as_str().parse().unwrap_or(i64::MAX);
            FamBind::Range {
                name,
                lo,
                hi,
                span: sp,
            }
        }
        _ => {
            let mut it = q.into_inner();
            let names = it.next().unwrap().into_inner().map(ident).collect();
            let tuples = it
                .map(|t| {
                    let ts = span(&t);
                    (t.into_inner().map(atom).collect(), ts)
                })
                .collect();
            FamBind::List {
                names,
                tuples,
                span: sp,
            }
        }
    }
}

fn atom(p: Pair<Rule>) -> Atom {
    let q = p.into_inner().next().unwrap();
    match q.as_rule() {
        Rule::int => Atom::Int(q.as_str().parse().unwrap_or(i64::MAX)),
        Rule::string => Atom::Str(q.into_inner().next().unwrap().as_str().to_string()),
        _ => Atom::Word(q.as_str().to_string()),
    }
}

fn clause(p: Pair<Rule>) -> Clause {
    let sp = span(&p);
    let which = p.as_rule();
    let mut it = p.into_inner();
    let kind = match which {
        Rule::let_gen => {
            let name = ident(it.next().unwrap());
            let mut size = None;
            let mut next = it.next().unwrap();
            if next.as_rule() == Rule::size {
                let s = next.into_inner().next().unwrap();
                size = Some(if s.as_rule() == Rule::int {
                    Size::Lit(s.as_str().parse().unwrap_or(i64::MAX), span(&s))
                } else {
                    Size::Param(ident(s))
                });
                next = it.next().unwrap();
            }
            let ty = ident(next.into_inner().next().unwrap());
            let domain = it.next().map(expr);
            ClauseKind::Gen {
                name,
                size,
                ty,
                domain,
            }
        }
        Rule::let_def => {
            let name = ident(it.next().unwrap());
            ClauseKind::Def {
                name,
                expr: expr(it.next().unwrap()),
            }
        }
        Rule::where_c => ClauseKind::Where(expr(it.next().unwrap())),
        Rule::eliminate => ClauseKind::Eliminate(expr(it.next().unwrap())),
        Rule::assert_c => ClauseKind::Assert(expr(it.next().unwrap())),
        Rule::show => {
            let s = it.next().unwrap();
            let inner = s.into_inner().next().unwrap();
            ClauseKind::Show(inner.as_str().to_string(), span(&inner))
        }
        r => unreachable!("grammar: unexpected clause {r:?}"),
    };
    Clause { kind, span: sp }
}

/// Parses an `expr` pair.
pub(crate) fn expr(p: Pair<Rule>) -> Expr {
    PRATT
        .map_primary(primary)
        .map_prefix(|op, rhs| Expr {
            span: Span {
                start: op.as_span().start(),
                end: rhs.span.end,
            },
            kind: ExprKind::Not(Box::new(rhs)),
        })
        .map_infix(|lhs, op, rhs| {
            let bop = match op.as_rule() {
                Rule::or_op => BinOp::Or,
                Rule::and_op => BinOp::And,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::lt => BinOp::Lt,
                Rule::le => BinOp::Le,
                Rule::gt => BinOp::Gt,
                Rule::ge => BinOp::Ge,
                Rule::in_op => BinOp::In,
                Rule::union => BinOp::Union,
                Rule::inter => BinOp::Inter,
                Rule::minus => BinOp::Minus,
                Rule::plus => BinOp::Plus,
                Rule::times => BinOp::Times,
                r => unreachable!("grammar: operator {r:?}"),
            };
            Expr {
                span: Span {
                    start: lhs.span.start,
                    end: rhs.span.end,
                },
                kind: ExprKind::Binary(bop, Box::new(lhs), Box::new(rhs)),
            }
        })
        .parse(p.into_inner())
}

fn primary(p: Pair<Rule>) -> Expr {
    let sp = span(&p);
    let kind = match p.as_rule() {
        Rule::int => ExprKind::Int(p.as_str().parse().unwrap_or(i64::MAX)),
        Rule::ident => ExprKind::Name(p.as_str().to_string()),
        Rule::paren => return expr(p.into_inner().next().unwrap()),
        Rule::count => ExprKind::Count(Box::new(expr(p.into_inner().next().unwrap()))),
        Rule::call => {
            let mut it = p.into_inner();
            let f = ident(it.next().unwrap());
            ExprKind::Call(f, it.map(expr).collect())
        }
        Rule::expr => return expr(p),
        r => unreachable!("grammar: primary {r:?}"),
    };
    Expr { kind, span: sp }
}

/// Parses a standalone expression (used for `${…}` holes of show templates).
pub fn parse_expr(text: &str) -> Result<Expr, usize> {
    let mut pairs = RulesParser::parse(Rule::expr, text).map_err(|e| match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    })?;
    let p = pairs.next().unwrap();
    if p.as_span().end() != text.trim_end().len() {
        return Err(p.as_span().end());
    }
    Ok(expr(p))
}
