//! Rule file text → [`RuleAst`]s, with the pest grammar in
//! `grammar/rules.pest` and a Pratt parser for expressions.

use super::ast::*;
use super::diag::Diagnostic;
use super::names;
use pest::Parser;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest_derive::Parser;
use std::sync::LazyLock;

#[derive(Parser)]
#[grammar = "../grammar/rules.pest"]
struct RulesParser;

/// The operators' precedence, loosest first (docs/language.md,
/// "Precedence"): `|` is the loosest set operator (`A | B - C` is
/// `A | (B - C)`), then `+` and `-`, then `&` and `*` (intersection binds
/// like a product: `A - B & C` is `A - (B & C)`).
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
        .op(Op::infix(Rule::at_op, Assoc::Left))
        .op(Op::infix(Rule::union, Assoc::Left))
        .op(Op::infix(Rule::minus, Assoc::Left) | Op::infix(Rule::plus, Assoc::Left))
        .op(Op::infix(Rule::inter, Assoc::Left) | Op::infix(Rule::times, Assoc::Left))
});

/// The table before issue 28 (`|`, `-` and `+` on one level, `&` and `*`
/// on the next): the test `shipped_rules_parse_as_before` parses every
/// shipped rule file with both tables and asks for the same trees. `at`,
/// which came with the new table, has the same place in both.
#[cfg(test)]
static OLD_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
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
        .op(Op::infix(Rule::at_op, Assoc::Left))
        .op(Op::infix(Rule::union, Assoc::Left)
            | Op::infix(Rule::minus, Assoc::Left)
            | Op::infix(Rule::plus, Assoc::Left))
        .op(Op::infix(Rule::inter, Assoc::Left) | Op::infix(Rule::times, Assoc::Left))
});

#[cfg(test)]
thread_local! {
    /// Tests only: parse with [`OLD_PRATT`] on this thread.
    static USE_OLD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn pratt() -> &'static PrattParser<Rule> {
    #[cfg(test)]
    if USE_OLD.with(|u| u.get()) {
        return &OLD_PRATT;
    }
    &PRATT
}

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

/// Deepest nesting of parentheses, `|…|` counts and function calls in
/// one expression.
pub const MAX_NESTING: usize = 64;
/// Most operators (binary operators and `not`) in one expression, nested
/// parts included. With [`MAX_NESTING`] this bounds the depth of every
/// expression tree, so no later pass (checking, lowering, matching) can run
/// out of stack however the rule is written.
pub const MAX_OPERATORS: usize = 256;
/// Longest rule name template or identifier, in characters.
pub const MAX_NAME: usize = 256;
/// Longest string (rating label, show template), in characters.
pub const MAX_STRING: usize = 1000;
/// Largest rule file, in bytes: 2 MiB, some 250 times all the shipped
/// rules together (parsing that much takes a second or two).
pub const MAX_SOURCE: usize = 2 << 20;

/// Human words for grammar rules, used in "expected …" messages.
fn describe(r: &Rule) -> String {
    match word(r) {
        Some(w) => w.to_string(),
        // A grammar rule added without a word below: name it after the
        // rule (`kw_all` → `all`); a test asks for a word for every rule.
        None => fallback_word(r),
    }
}

/// The grammar's operators: the infix ones and `not` (what the operator
/// limit counts).
fn is_operator(r: Rule) -> bool {
    matches!(
        r,
        Rule::or_op
            | Rule::and_op
            | Rule::in_op
            | Rule::at_op
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
            | Rule::times
            | Rule::not_op
    )
}

/// The word for each grammar rule, or `None` for a rule not listed yet (the
/// test `every_grammar_rule_has_a_word` fails until it is).
fn word(r: &Rule) -> Option<&'static str> {
    #[allow(unreachable_patterns)]
    Some(match r {
        Rule::file | Rule::item | Rule::pattern_rule | Rule::kw_rule => "`rule`",
        Rule::chain_rule | Rule::kw_chain => "`chain`",
        Rule::length_c => "`length`",
        Rule::spaces_c => "`spaces`",
        Rule::others_c => "`others`",
        Rule::links_c => "`links`",
        Rule::ends_c => "`ends`",
        Rule::nodes_c => "`nodes`",
        Rule::targets_c => "`targets`",
        Rule::digits_c => "`digits`",
        Rule::trial_rule | Rule::kw_trial => "`trial`",
        Rule::trial_clause | Rule::pass_clause => "a clause",
        Rule::increment_c => "`increment`",
        Rule::pass_c => "`pass`",
        Rule::assume_c => "`assume`",
        Rule::cells_c | Rule::c_cells => "`cells`",
        Rule::on_off_c => "`on-off`",
        Rule::off_on_c => "`off-on`",
        Rule::reads_c => "`reads`",
        Rule::propagate_c => "`propagate`",
        Rule::apply_c => "`apply`",
        Rule::sweep_c => "`sweep`",
        Rule::conclude_c => "`conclude`",
        Rule::c_level => "`level`",
        Rule::c_key => "`key`",
        Rule::c_rating => "`rating`",
        Rule::doc => "a `///` doc comment",
        Rule::name_tpl | Rule::name_part => "a rule name",
        Rule::family => "`for`",
        Rule::head_clause | Rule::pattern_clause | Rule::chain_clause => "a clause",
        Rule::complexity => "`complexity`",
        Rule::level => "`level`",
        Rule::rating => "`rating`",
        Rule::unrated => "`unrated`",
        Rule::let_gen | Rule::let_def | Rule::let_walk | Rule::let_cluster | Rule::let_als => {
            "`let`"
        }
        Rule::als_kw => "`als`",
        Rule::als_size => "`size`",
        Rule::als_holding => "`holding`",
        Rule::walk_len => "`length`",
        Rule::walk_once => "`once`",
        Rule::walk_next => "`next`",
        Rule::walk_gather => "`gather`",
        Rule::walk_when => "`when`",
        Rule::where_c => "`where`",
        Rule::eliminate => "`eliminate`",
        Rule::assert_c => "`assert`",
        Rule::parents_c => "`parents`",
        Rule::show => "`show`",
        Rule::expr
        | Rule::primary
        | Rule::call
        | Rule::paren
        | Rule::count
        | Rule::quant
        | Rule::quant_kw => "an expression",
        Rule::ident | Rule::ty => "a name",
        Rule::ident_char => "a letter, digit or `_`",
        Rule::word => "a word",
        Rule::keyword => "a keyword",
        Rule::int | Rule::size => "an integer",
        Rule::decimal => "a decimal number",
        Rule::string | Rule::str_inner => "a string",
        Rule::fam_tuple | Rule::fam_atom => "a parameter value",
        Rule::fam_pattern | Rule::fam_bind | Rule::fam_range | Rule::fam_list => "a family binding",
        Rule::WHITESPACE => "a space",
        Rule::COMMENT => "a comment",
        Rule::EOI => "end of file",
        Rule::prefix | Rule::not_op => "`not`",
        r if *r == Rule::infix || is_operator(*r) => "an operator",
        _ => return None,
    })
}

/// A description made from a grammar rule's name.
fn fallback_word(r: &Rule) -> String {
    let name = format!("{r:?}");
    match name.strip_prefix("kw_") {
        Some(kw) => format!("`{kw}`"),
        None => format!("a {}", name.trim_end_matches("_c").replace('_', " ")),
    }
}

/// A parse error: where, and what to say.
type ParseError = (Span, String);

/// `text` shortened to `max` characters for quoting in a message.
fn quote(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("`{}…`", &text[..i]),
        None => format!("`{text}`"),
    }
}

/// The message and place of a pest error.
fn pest_error(source: &str, e: &pest::error::Error<Rule>) -> ParseError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let at = |pos: usize| Span {
        start: pos,
        end: pos + 1,
    };
    match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<String> = positives.iter().map(describe).collect();
            // Wherever a clause may start, the rule may also end.
            if positives.contains(&Rule::complexity) {
                words.push("`}`".to_string());
            }
            words.sort();
            words.dedup();
            let word = source[pos..].split_whitespace().next();
            let found = word.map_or("end of file".to_string(), |w| quote(w, 24));
            let msg = if let Some(m) = mistake(source, pos, word.unwrap_or(""), &words) {
                m
            } else if words.is_empty() {
                format!("syntax error: unexpected {found}")
            } else {
                format!(
                    "syntax error: expected {}, found {found}",
                    words.join(" or ")
                )
            };
            (at(pos), msg)
        }
        // pest's own guard against running out of stack: only nesting
        // makes its recursion deep in this grammar.
        pest::error::ErrorVariant::CustomError { message } if message.contains("limit") => {
            (at(too_deep(source).unwrap_or(pos)), nesting_message())
        }
        pest::error::ErrorVariant::CustomError { message } => (at(pos), message.clone()),
    }
}

/// The message of a syntax error that is a known slip, saying what was
/// expected and what to write instead: `=` for `==`, a negative number.
fn mistake(source: &str, pos: usize, word: &str, expected: &[String]) -> Option<String> {
    let operator = expected.iter().any(|w| w == "an operator");
    if word.starts_with('=') && !word.starts_with("==") && operator {
        return Some(
            "syntax error: expected an operator or the next clause, found `=`; to compare, \
             write `==` (a single `=` only defines a name: `let X = EXPR`)"
                .to_string(),
        );
    }
    let negative = word
        .strip_prefix('-')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
    if negative && expected.iter().any(|w| w == "an expression") {
        let number = quote(word.trim_end_matches(|c: char| !c.is_ascii_digit()), 24);
        let line_start = source[..pos].rfind('\n').map_or(0, |i| i + 1);
        let clause = source[line_start..pos]
            .split_whitespace()
            .next()
            .unwrap_or("");
        let hint = match clause {
            "complexity" => "`complexity` is a whole number, 0 or more: a number, a family \
                             parameter, or `+ - *` of them (`100 * N + 17`)"
                .to_string(),
            "level" => "`level` is 0 or more: a whole number, a decimal (`7.5`), a family \
                        parameter, or `+ - *` of them (`N + 1`)"
                .to_string(),
            _ => "numbers are written without a sign: for a negative value, subtract \
                  (`0 - 1`)"
                .to_string(),
        };
        return Some(format!(
            "syntax error: expected an expression, found {number}; {hint}"
        ));
    }
    None
}

fn nesting_message() -> String {
    format!(
        "expression nested too deeply: more than {MAX_NESTING} levels of parentheses, `|…|` and calls (split it with `let` definitions)"
    )
}

/// Parses one rule file. A syntax error stops parsing (pest reports the
/// first one), as does a text beyond the parser's limits ([`MAX_SOURCE`],
/// [`MAX_NESTING`], [`MAX_OPERATORS`], [`MAX_NAME`], [`MAX_STRING`],
/// integers beyond `i64`); everything after parsing reports all errors at
/// once.
pub fn parse_file(file: &str, source: &str) -> Result<Vec<RuleAst>, Diagnostic> {
    let error = |(sp, msg): ParseError| Diagnostic::new(file, source, sp, msg);
    if source.len() > MAX_SOURCE {
        return Err(error((
            Span {
                start: MAX_SOURCE,
                end: MAX_SOURCE + 1,
            },
            format!(
                "rule file too large: {} bytes, at most {MAX_SOURCE} (2 MiB); the error points at the first byte beyond",
                source.len()
            ),
        )));
    }
    if let Some(deep) = too_deep(source) {
        // A syntax error before the deep place comes first: pest reads the
        // text up to there (nesting at most MAX_NESTING deep; should pest
        // run out of stack even so, the nesting is the error).
        let head = &source[..deep];
        if let Err(e) = RulesParser::parse(Rule::file, head)
            && matches!(e.variant, pest::error::ErrorVariant::ParsingError { .. })
        {
            let (sp, msg) = pest_error(head, &e);
            if sp.start < head.trim_end().len() {
                return Err(error((sp, msg)));
            }
        }
        return Err(error((
            Span {
                start: deep,
                end: deep + 1,
            },
            nesting_message(),
        )));
    }
    let mut pairs =
        RulesParser::parse(Rule::file, source).map_err(|e| error(pest_error(source, &e)))?;
    check_limits(pairs.clone(), 0).map_err(error)?;
    let file_pair = pairs.next().expect("grammar: file");
    Ok(file_pair
        .into_inner()
        .filter_map(|p| match p.as_rule() {
            Rule::pattern_rule | Rule::chain_rule | Rule::trial_rule => Some(rule_item(p)),
            _ => None,
        })
        .collect())
}

/// Checks the parser's limits on a parse tree, in one pass over its
/// tokens in text order (no recursion, so any depth is fine here); the
/// first excess is the error. `offset` is added to every span (for the
/// holes of show templates).
fn check_limits(pairs: Pairs<Rule>, offset: usize) -> Result<(), ParseError> {
    let at = |p: &Pair<Rule>| {
        let s = p.as_span();
        Span {
            start: s.start() + offset,
            end: s.end() + offset,
        }
    };
    // Open `expr`, `call`, `count` and `paren` pairs: their end and whether
    // they nest.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut nesting = 0;
    let mut operators = 0;
    for p in pairs.flatten() {
        let start = p.as_span().start();
        while open.last().is_some_and(|&(end, _)| end <= start) {
            if open.pop().is_some_and(|(_, nests)| nests) {
                nesting -= 1;
            }
        }
        match p.as_rule() {
            Rule::expr => {
                if open.is_empty() {
                    operators = 0;
                }
                open.push((p.as_span().end(), false));
            }
            Rule::call | Rule::count | Rule::paren => {
                nesting += 1;
                open.push((p.as_span().end(), true));
                if nesting > MAX_NESTING {
                    let sp = at(&p);
                    let opener = Span {
                        start: sp.start,
                        end: sp.start + 1,
                    };
                    return Err((opener, nesting_message()));
                }
            }
            r if is_operator(r) => {
                operators += 1;
                if operators > MAX_OPERATORS {
                    return Err((
                        at(&p),
                        format!(
                            "expression too long: more than {MAX_OPERATORS} operators (split it with `let` definitions)"
                        ),
                    ));
                }
            }
            Rule::int if p.as_str().parse::<i64>().is_err() => {
                return Err((at(&p), too_large(p.as_str())));
            }
            Rule::decimal => {
                let whole = p.as_str().split('.').next().unwrap_or("");
                if whole.parse::<i64>().is_err() {
                    return Err((at(&p), too_large(p.as_str())));
                }
            }
            Rule::name_tpl | Rule::ident | Rule::word => {
                let n = p.as_str().chars().count();
                if n > MAX_NAME {
                    let what = if p.as_rule() == Rule::name_tpl {
                        "rule name"
                    } else {
                        "name"
                    };
                    return Err((
                        at(&p),
                        format!(
                            "{what} too long: {n} characters, at most {MAX_NAME}: {}",
                            quote(p.as_str(), 24)
                        ),
                    ));
                }
            }
            Rule::str_inner => {
                let n = p.as_str().chars().count();
                if n > MAX_STRING {
                    return Err((
                        at(&p),
                        format!("string too long: {n} characters, at most {MAX_STRING}"),
                    ));
                }
            }
            Rule::show => {
                let mut inner = p.clone().into_inner().flatten();
                if let Some(t) = inner.find(|q| q.as_rule() == Rule::str_inner)
                    && t.as_str().chars().count() <= MAX_STRING
                {
                    check_holes(t.as_str(), t.as_span().start() + offset)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn too_large(literal: &str) -> String {
    format!(
        "number too large: {} (at most {})",
        quote(literal, 24),
        i64::MAX
    )
}

/// Checks the limits in the `${…}` holes of a show template that starts
/// at byte `at` of the file. Holes are found as the checker finds them;
/// their syntax errors are left to the checker, which reports all of them.
fn check_holes(template: &str, at: usize) -> Result<(), ParseError> {
    let mut from = 0;
    while let Some(i) = template[from..].find("${") {
        let open = from + i + 2;
        let Some(j) = template[open..].find('}') else {
            break;
        };
        let hole = &template[open..open + j];
        if let Some(deep) = too_deep(hole) {
            let start = at + open + deep;
            return Err((
                Span {
                    start,
                    end: start + 1,
                },
                nesting_message(),
            ));
        }
        match RulesParser::parse(Rule::expr, hole) {
            Ok(pairs) => check_limits(pairs, at + open)?,
            Err(e) => {
                if let pest::error::ErrorVariant::CustomError { .. } = e.variant {
                    let (sp, msg) = pest_error(hole, &e);
                    return Err((
                        Span {
                            start: sp.start + at + open,
                            end: sp.end + at + open,
                        },
                        msg,
                    ));
                }
            }
        }
        from = open + j + 1;
    }
    Ok(())
}

/// Where nesting first goes deeper than [`MAX_NESTING`], found by reading
/// the text before pest parses it: pest's recursion on deep nesting needs
/// stack, and on nested `|…|` time (quadratic, as it tries each `|` both as
/// a union and as a count), so such text is refused unparsed.
///
/// Parentheses nest; a `|` opens a count where an operand is expected, and
/// where an operator is expected it closes the innermost count unless an
/// operand follows (then it is a union). A well-formed expression is read
/// exactly; only `X | |…` (a union with a count, or a count of a count,
/// both type errors) may count a level too many.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    // Whether the last token ends an operand (so an operator may follow).
    let mut after_operand = false;
    // Whether an operand starts at `i`, after spaces: a name (not an
    // operator word), a number, `(` or `|`.
    let starts_operand = |i: usize| {
        let rest = text[i..].trim_start();
        let word = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        match rest.bytes().next() {
            Some(b'(' | b'|') => true,
            Some(c) if c.is_ascii_alphanumeric() || c == b'_' => {
                !matches!(word, "and" | "or" | "in")
            }
            _ => false,
        }
    };
    // The start of the last token when it is a name (a call's name when
    // `(` follows).
    let mut name_start = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !c.is_ascii_whitespace() && c != b'(' {
            name_start = None;
        }
        match c {
            b'#' => {
                i = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| i + k);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| i + k);
                continue;
            }
            b'"' => {
                i = b[i + 1..]
                    .iter()
                    .position(|&c| c == b'"')
                    .map_or(b.len(), |k| i + 1 + k);
                after_operand = true;
            }
            b'(' => {
                stack.push(c);
                after_operand = false;
                // A call's nesting error points at the function's name.
                let at = name_start.take().unwrap_or(i);
                if stack.len() > MAX_NESTING {
                    return Some(at);
                }
            }
            b')' => {
                while let Some(top) = stack.pop() {
                    if top == b'(' {
                        break;
                    }
                }
                after_operand = true;
            }
            b'|' if !after_operand => stack.push(c),
            b'|' => {
                if stack.last() == Some(&b'|') && !starts_operand(i + 1) {
                    stack.pop();
                } else {
                    after_operand = false;
                }
            }
            b'{' | b'}' => {
                stack.clear();
                after_operand = false;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let end = b[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(b.len(), |k| i + k);
                let word = &text[i..end];
                if matches!(word, "and" | "or" | "not" | "in") {
                    after_operand = false;
                } else if names::KEYWORDS.contains(&word) {
                    // A clause starts: every expression before it ended.
                    stack.clear();
                    after_operand = false;
                } else {
                    after_operand = true;
                    name_start = Some(i);
                }
                i = end;
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => after_operand = false,
        }
        if stack.len() > MAX_NESTING {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// A rule item of any kind: the shared head, and the kind's own body.
fn rule_item(p: Pair<Rule>) -> RuleAst {
    let sp = span(&p);
    let is_chain = p.as_rule() == Rule::chain_rule;
    let is_trial = p.as_rule() == Rule::trial_rule;
    let mut trial_clauses = Vec::new();
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
            Rule::kw_rule | Rule::kw_chain | Rule::kw_trial => {}
            Rule::name_tpl => {
                name = q.as_str().to_string();
                name_span = span(&q);
            }
            Rule::family => family = q.into_inner().map(fam_bind).collect(),
            Rule::complexity | Rule::level | Rule::rating | Rule::unrated => {
                head.push(head_clause(q))
            }
            _ if is_chain => chain_clauses.push(chain_clause(q)),
            _ if is_trial => trial_clauses.push(trial_clause(q)),
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
        } else if is_trial {
            RuleBody::Trial(trial_clauses)
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
        Rule::nodes_c => ChainKind::Nodes(ident(it.next().unwrap())),
        Rule::targets_c => ChainKind::Targets(ident(it.next().unwrap())),
        Rule::digits_c => ChainKind::Digits(ident(it.next().unwrap())),
        r => unreachable!("grammar: unexpected chain clause {r:?}"),
    };
    ChainClause { kind, span: sp }
}

/// The two bounds of `A..=B`.
fn range(it: &mut pest::iterators::Pairs<Rule>) -> (i64, i64) {
    let a = it
        .next()
        .map_or(0, |q| q.as_str().parse().unwrap_or(i64::MAX));
    let b = it
        .next()
        .map_or(0, |q| q.as_str().parse().unwrap_or(i64::MAX));
    (a, b)
}

/// A rule set's name: a word, or a path in quotes.
fn set_name(q: Pair<Rule>) -> Ident {
    if q.as_rule() == Rule::string {
        let inner = q.into_inner().next().unwrap();
        Ident {
            name: inner.as_str().to_string(),
            span: span(&inner),
        }
    } else {
        ident(q)
    }
}

fn trial_clause(p: Pair<Rule>) -> TrialClause {
    let sp = span(&p);
    let which = p.as_rule();
    let mut it = p.into_inner();
    let kind = match which {
        Rule::pass_c => TrialKind::Pass(it.map(trial_clause).collect()),
        Rule::increment_c => TrialKind::Increment(ident(it.next().unwrap())),
        Rule::assume_c => TrialKind::Assume(it.map(ident).collect()),
        Rule::cells_c => {
            let (a, b) = range(&mut it);
            TrialKind::Cells(a, b)
        }
        Rule::on_off_c => TrialKind::OnOff(it.map(ident).collect()),
        Rule::off_on_c => TrialKind::OffOn(it.map(ident).collect()),
        Rule::reads_c => TrialKind::Reads(ident(it.next().unwrap())),
        Rule::apply_c => TrialKind::Apply(set_name(it.next().unwrap())),
        Rule::sweep_c => TrialKind::Sweep,
        Rule::propagate_c => {
            let q = it.next().unwrap();
            let set = if q.as_rule() == Rule::string {
                let inner = q.into_inner().next().unwrap();
                Ident {
                    name: inner.as_str().to_string(),
                    span: span(&inner),
                }
            } else {
                ident(q)
            };
            let rounds = it
                .next()
                .map(|k| (k.as_str().parse().unwrap_or(i64::MAX), span(&k)));
            TrialKind::Propagate { set, rounds }
        }
        Rule::conclude_c => {
            let what = ident(it.next().unwrap());
            let (mut level, mut key, mut rating, mut cells) = (None, None, None, None);
            for q in it {
                let qs = span(&q);
                let r = q.as_rule();
                let mut inner = q.into_inner();
                match r {
                    Rule::c_level => {
                        let d = inner.next().unwrap();
                        level = Some((d.as_str().to_string(), span(&d)));
                    }
                    Rule::c_key => {
                        let k = inner.next().unwrap();
                        key = Some((k.as_str().parse().unwrap_or(i64::MAX), span(&k)));
                    }
                    Rule::c_rating => {
                        let s = inner.next().unwrap().into_inner().next().unwrap();
                        rating = Some(s.as_str().to_string());
                    }
                    _ => {
                        let (a, b) = range(&mut inner);
                        cells = Some((a, b, qs));
                    }
                }
            }
            TrialKind::Conclude {
                what,
                level,
                key,
                rating,
                cells,
            }
        }
        r => unreachable!("grammar: unexpected trial clause {r:?}"),
    };
    TrialClause { kind, span: sp }
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
        Rule::unrated => HeadKind::Unrated,
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
        Rule::decimal => Atom::Decimal(q.as_str().to_string()),
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
            let then = it.map(expr).collect();
            ClauseKind::Gen {
                name,
                size,
                ty,
                domain,
                then,
            }
        }
        Rule::let_cluster => {
            let cands = ident(it.next().unwrap());
            let colour = ident(it.next().unwrap());
            let domain = it.next().map(expr);
            ClauseKind::Cluster {
                cands,
                colour,
                domain,
            }
        }
        Rule::let_als => {
            let name = ident(it.next().unwrap());
            let mut size = None;
            let mut domain = None;
            let mut holding = None;
            for q in it {
                match q.as_rule() {
                    Rule::als_kw => {}
                    Rule::als_size => {
                        let bound = |s: Pair<Rule>| {
                            if s.as_rule() == Rule::int {
                                Size::Lit(s.as_str().parse().unwrap_or(i64::MAX), span(&s))
                            } else {
                                Size::Param(ident(s))
                            }
                        };
                        let mut b = q.into_inner();
                        let least = bound(b.next().unwrap());
                        size = Some((least, b.next().map(bound)));
                    }
                    Rule::expr => domain = Some(expr(q)),
                    Rule::als_holding => holding = Some(expr(q.into_inner().next().unwrap())),
                    r => unreachable!("grammar: unexpected part of an ALS generator {r:?}"),
                }
            }
            ClauseKind::Als {
                name,
                size,
                domain,
                holding,
            }
        }
        Rule::let_walk => {
            let cells = ident(it.next().unwrap());
            let even = ident(it.next().unwrap());
            let from = expr(it.next().unwrap());
            let through = expr(it.next().unwrap());
            let mut by = Vec::new();
            let mut w = WalkClause {
                cells,
                even,
                from,
                through,
                by: Vec::new(),
                length: Size::Lit(0, sp),
                length_max: None,
                once: false,
                next: None,
                gather: None,
                when: None,
            };
            for q in it {
                match q.as_rule() {
                    Rule::ident => by.push(ident(q)),
                    Rule::walk_len => {
                        let size = |s: Pair<Rule>| {
                            if s.as_rule() == Rule::int {
                                Size::Lit(s.as_str().parse().unwrap_or(i64::MAX), span(&s))
                            } else {
                                Size::Param(ident(s))
                            }
                        };
                        let mut sizes = q.into_inner();
                        w.length = size(sizes.next().unwrap());
                        w.length_max = sizes.next().map(size);
                    }
                    Rule::walk_once => w.once = true,
                    Rule::walk_next => w.next = Some(ident(q.into_inner().next().unwrap())),
                    Rule::walk_gather => {
                        let mut g = q.into_inner();
                        let name = ident(g.next().unwrap());
                        w.gather = Some((name, expr(g.next().unwrap())));
                    }
                    Rule::walk_when => w.when = Some(expr(q.into_inner().next().unwrap())),
                    r => unreachable!("grammar: unexpected part of a walk {r:?}"),
                }
            }
            w.by = by;
            ClauseKind::Walk(Box::new(w))
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
        Rule::parents_c => ClauseKind::Parents(expr(it.next().unwrap())),
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
    pratt()
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
                Rule::at_op => BinOp::At,
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
        Rule::quant => {
            let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::in_op);
            let q = ident(it.next().unwrap());
            let var = ident(it.next().unwrap());
            let domain = Box::new(expr(it.next().unwrap()));
            let body = Box::new(expr(it.next().unwrap()));
            ExprKind::Quant {
                q,
                var,
                domain,
                body,
            }
        }
        Rule::expr => return expr(p),
        r => unreachable!("grammar: primary {r:?}"),
    };
    Expr { kind, span: sp }
}

/// Parses a standalone expression (used for `${…}` holes of show templates).
///
/// The error is the byte offset of a syntax error or of an excess over
/// the parser's limits (which [`parse_file`] reports first with its own
/// message, for the holes of a rule file's templates).
pub fn parse_expr(text: &str) -> Result<Expr, usize> {
    if let Some(deep) = too_deep(text) {
        return Err(deep);
    }
    let mut pairs =
        RulesParser::parse(Rule::expr, text).map_err(|e| pest_error(text, &e).0.start)?;
    check_limits(pairs.clone(), 0).map_err(|(sp, _)| sp.start)?;
    let p = pairs.next().unwrap();
    if p.as_span().end() != text.trim_end().len() {
        return Err(p.as_span().end());
    }
    Ok(expr(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_rule_has_a_word() {
        let missing: Vec<String> = Rule::all_rules()
            .iter()
            .filter(|r| word(r).is_none())
            .map(|r| format!("{r:?}"))
            .collect();
        assert!(
            missing.is_empty(),
            "give these grammar rules a word in `word`: {missing:?}"
        );
    }

    #[test]
    fn rules_without_a_word_are_named_after_the_grammar() {
        assert_eq!(fallback_word(&Rule::kw_rule), "`rule`");
        assert_eq!(fallback_word(&Rule::where_c), "a where");
        assert_eq!(fallback_word(&Rule::fam_range), "a fam range");
    }

    #[test]
    fn nesting_is_found_by_reading_the_text() {
        let deep = |open: &str, close: &str, n: usize| {
            format!("where {}V{} == 1", open.repeat(n), close.repeat(n))
        };
        // The first opener beyond the limit, 6 bytes in.
        assert_eq!(too_deep(&deep("(", ")", 100)), Some(6 + MAX_NESTING));
        assert_eq!(too_deep(&deep("|", "|", 100)), Some(6 + MAX_NESTING));
        assert_eq!(too_deep(&deep("(", ")", MAX_NESTING)), None);
        let calls = deep("cands (", ")", 100);
        assert_eq!(too_deep(&calls), Some(6 + MAX_NESTING * "cands (".len()));
        // Counts that close do not add up, nor do unions.
        let flat = format!(
            "where {} 0 == 1",
            "|A| + |B | C| + |(D)|+|cands(E)| + |F|and |G|in H or ".repeat(500)
        );
        assert_eq!(too_deep(&flat), None);
        // `||` after an operand may close two counts or be a union and a
        // count (both type errors): it is read as the latter.
        assert_eq!(too_deep(&deep("|", "|", 40)), Some(6 + 40 + 1 + 25));
        // Comments and strings are not read; clauses start afresh.
        let text = format!(
            "# {}\nshow \"{}\"\nwhere (\nlet (",
            "(".repeat(100),
            "(".repeat(100)
        );
        assert_eq!(too_deep(&text), None);
    }

    /// Every `.rules` file under `dir`, recursively, in path order.
    fn rule_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                rule_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "rules") {
                out.push(p);
            }
        }
    }

    /// The expressions of a file's show templates (`${…}` holes).
    fn holes(asts: &[RuleAst]) -> Vec<Result<Expr, usize>> {
        let mut out = Vec::new();
        for a in asts {
            if let RuleBody::Pattern(cs) = &a.body {
                for c in cs {
                    if let ClauseKind::Show(t, _) = &c.kind {
                        let mut rest = t.as_str();
                        while let Some(i) = rest.find("${") {
                            let Some(j) = rest[i..].find('}') else { break };
                            out.push(parse_expr(&rest[i + 2..i + j]));
                            rest = &rest[i + j + 1..];
                        }
                    }
                }
            }
        }
        out
    }

    /// Issue 28 changed the precedence table: every shipped rule file (and
    /// each show template's holes) must parse to the same trees with the
    /// old table and the new one, so no shipped rule changes its meaning.
    #[test]
    fn shipped_rules_parse_as_before() {
        let mut files = Vec::new();
        rule_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"),
            &mut files,
        );
        assert!(files.len() > 20, "{files:?}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f.display().to_string();
            let new = parse_file(&name, &text).unwrap();
            USE_OLD.with(|u| u.set(true));
            let old = parse_file(&name, &text).unwrap();
            let old_holes = holes(&old);
            USE_OLD.with(|u| u.set(false));
            let mut changed = Vec::new();
            for (n, o) in new.iter().zip(&old) {
                if n == o {
                    continue;
                }
                match (&n.body, &o.body) {
                    (RuleBody::Pattern(a), RuleBody::Pattern(b)) => {
                        for (x, y) in a.iter().zip(b) {
                            if x != y {
                                changed.push(text[x.span.start..x.span.end].to_string());
                            }
                        }
                    }
                    _ => changed.push(n.name.clone()),
                }
            }
            assert!(
                changed.is_empty(),
                "{name}: these parse differently now (add parentheses):\n{}",
                changed.join("\n")
            );
            assert!(
                holes(&new) == old_holes,
                "{name}: a show hole parses differently now"
            );
        }
    }

    /// The table: `|` loosest, then `-` and `+` (left to right), then
    /// `&` and `*`.
    #[test]
    fn precedence_is_the_documented_table() {
        let show = |text: &str| sexp(&parse_expr(text).unwrap());
        assert_eq!(show("A | B - C"), "(| A (- B C))");
        assert_eq!(show("A - B | C"), "(| (- A B) C)");
        assert_eq!(show("A | B & C"), "(| A (& B C))");
        assert_eq!(show("A & B | C"), "(| (& A B) C)");
        assert_eq!(show("A - B & C"), "(- A (& B C))");
        assert_eq!(show("A & B - C"), "(- (& A B) C)");
        assert_eq!(show("A + B | C - D"), "(| (+ A B) (- C D))");
        assert_eq!(show("A + B - C"), "(- (+ A B) C)");
        assert_eq!(show("A - B - C"), "(- (- A B) C)");
        assert_eq!(show("1 + 2 * 3"), "(+ 1 (* 2 3))");
        assert_eq!(show("A | B == C & D"), "(== (| A B) (& C D))");
        assert_eq!(
            show("not A in B and C or D"),
            "(or (and (not (in A B)) C) D)"
        );
        assert_eq!(show("(A | B) - C"), "(- (| A B) C)");
    }

    fn sexp(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::Not(x) => format!("(not {})", sexp(x)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), sexp(a), sexp(b)),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn quotes_are_cut() {
        assert_eq!(quote("abc", 24), "`abc`");
        assert_eq!(quote("≠≠≠≠", 2), "`≠≠…`");
    }
}
