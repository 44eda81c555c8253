//! The rule language, in pipeline order:
//!
//! 1. [`parse`]: text → pest pairs (grammar `grammar/rules.pest`) → AST
//!    with spans ([`ast`]), within the parser's limits (nesting, operators,
//!    lengths), so that no later pass can run out of stack;
//! 2. [`expand`]: a rule's family → one parameter tuple per instance;
//! 3. [`check`]: names and types of one instance → checked operations
//!    (a pattern rule's [`crate::search::pattern::Checked`]), or a chain's
//!    or trial's spec;
//! 4. [`lower`]: checked rules → searchers: a file's pattern rules through
//!    the pattern compiler's passes at once ([`crate::search::pattern::compile`],
//!    which also finds the prefixes they share), and an estimate of each
//!    plan's search space (warnings for huge ones);
//! 5. [`diag`]: every error and warning with file, line, column and an
//!    excerpt, in a fixed order.
//!
//! [`names`] is the one table of keywords, type names and functions.
//!
//! Entry points: [`decode_source`] (a file's bytes → text, or an error at
//! the first byte that is not UTF-8), then [`compile_source`] (errors
//! only) or [`compile_source_with_warnings`] (rules and warnings).

pub mod ast;
pub mod check;
pub mod diag;
pub mod expand;
pub mod lower;
pub mod names;
pub mod parse;

pub use diag::{Diagnostic, Diagnostics, Severity, SourceMap, decode_source};

use crate::rule::{Rule, RuleHead};
use ast::{RuleAst, RuleBody, Span};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Most errors reported for one file. Beyond it, one more error says how
/// many were left out (a generated file can have millions).
pub const MAX_ERRORS: usize = 100;

/// Whether rules beyond the search-space estimate are measured on
/// reference states before they are warned about
/// ([`measure_huge_searches`]).
static MEASURE: AtomicBool = AtomicBool::new(false);

/// Measure rules beyond the search-space estimate on reference states
/// ([`lower::measured_search`], about 10 ms for the `se` set) and warn only
/// about those that pass the budget. `rules check`, which shows warnings,
/// turns it on; other commands never show them and skip the measure.
pub fn measure_huge_searches(on: bool) {
    MEASURE.store(on, Ordering::Relaxed);
}

/// A compiled rule file: its rules, and warnings that do not stop it from
/// loading (today: rules whose search space is huge, see
/// [`lower::search_space`]).
#[derive(Clone)]
pub struct Compiled {
    /// The rules, in file order; those for other puzzle types only have
    /// the space they name in [`RuleHead::space`].
    pub rules: Vec<Rule>,
    /// Ordered by line and column.
    pub warnings: Vec<Diagnostic>,
}

/// Parses, checks and lowers one rule file's text. On error, returns every
/// diagnostic of the file (at most [`MAX_ERRORS`] and a last one counting
/// the rest), ordered by line and column. A leading byte-order mark is
/// ignored.
pub fn compile_source(file: &str, source: &str) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    compile_source_with_warnings(file, source).map(|c| c.rules)
}

/// [`compile_source`], also returning the file's warnings when it
/// compiles. `rules check` prints them (see [`Diagnostics`]).
pub fn compile_source_with_warnings(file: &str, source: &str) -> Result<Compiled, Vec<Diagnostic>> {
    let source = source.strip_prefix('\u{FEFF}').unwrap_or(source);
    let asts = parse::parse_file(file, source).map_err(|d| vec![d])?;
    compile_file(file, source, &asts)
}

/// A rule instance checked: its rule, or, for a pattern rule, its head and
/// the index of its plan among the file's (plans are made a file at a
/// time: [`lower::lower_patterns`]).
enum Checked {
    Rule(Rule),
    Pattern(RuleHead, usize),
    /// A pattern rule for other types: its head, the index of its plan
    /// among the file's foreign ones, and the space it names.
    Foreign(RuleHead, usize, String),
}

/// Checks and lowers every rule of a parsed file.
pub fn compile_file(
    file: &str,
    source: &str,
    asts: &[RuleAst],
) -> Result<Compiled, Vec<Diagnostic>> {
    let map = SourceMap::new(file, source);
    let mut checked: Vec<Checked> = Vec::new();
    let mut patterns: Vec<crate::search::pattern::Checked> = Vec::new();
    // Plans of other types' rules, compiled apart (they share no prefix
    // with the classic plans, which stay as they are).
    let mut foreign: Vec<crate::search::pattern::Checked> = Vec::new();
    // Each pattern family and its instances (a range of `checked`).
    let mut families: Vec<(&RuleAst, std::ops::Range<usize>)> = Vec::new();
    let mut errs: Vec<(Span, String)> = Vec::new();
    // Each rule name and the line of the rule that defined it first.
    let mut defined: std::collections::HashMap<String, usize> = Default::default();
    for ast in asts {
        let instances = match expand::expand(ast) {
            Ok(i) => i,
            Err(e) => {
                errs.extend(e);
                continue;
            }
        };
        let line = map.line_of(ast.name_span.start);
        let column = map.column_of(ast.name_span.start);
        let mut seen_errs = Vec::new();
        // The head of one instance: the family's docs and place, the
        // instance's name and grade.
        let rated = !ast
            .head
            .iter()
            .any(|h| matches!(h.kind, crate::lang::ast::HeadKind::Unrated));
        let head = |name, complexity, level, label| RuleHead {
            space: None,
            rated,
            name,
            docs: ast.docs.clone(),
            file: file.to_string(),
            line,
            column,
            complexity,
            level,
            label,
        };
        let first = checked.len();
        for params in instances {
            let result = match &ast.body {
                RuleBody::Pattern(clauses) => {
                    check::check_pattern(ast, clauses, &params).map(|c| {
                        let h = head(c.name, c.complexity, c.level, c.label);
                        match c.foreign {
                            Some(space) => {
                                foreign.push(c.body);
                                Checked::Foreign(h, foreign.len() - 1, space)
                            }
                            None => {
                                patterns.push(c.body);
                                Checked::Pattern(h, patterns.len() - 1)
                            }
                        }
                    })
                }
                RuleBody::Chain(clauses) => check::check_chain(ast, clauses, &params).map(|c| {
                    Checked::Rule(Rule {
                        head: head(c.name, c.complexity, c.level, c.label),
                        searcher: Arc::new(lower::lower_chain(c.spec)),
                    })
                }),
                RuleBody::Trial(clauses) => check::check_trial(ast, clauses, &params).map(|c| {
                    Checked::Rule(Rule {
                        head: head(c.name, c.complexity, c.level, c.label),
                        searcher: Arc::new(lower::lower_trial(c.spec)),
                    })
                }),
            };
            match result {
                Ok(c) => {
                    let name = match &c {
                        Checked::Rule(r) => &r.head.name,
                        Checked::Pattern(head, _) | Checked::Foreign(head, ..) => &head.name,
                    };
                    match defined.get(name) {
                        Some(&first) if first != line => seen_errs.push((
                            ast.name_span,
                            format!(
                                "rule `{name}` is defined twice (first at line {first}): give each rule a name of its own"
                            ),
                        )),
                        _ => {
                            defined.insert(name.clone(), line);
                        }
                    }
                    checked.push(c)
                }
                Err(es) => {
                    for (sp, m) in es {
                        // One instance's errors usually repeat in every instance.
                        if !seen_errs.contains(&(sp, m.clone())) {
                            seen_errs.push((sp, m));
                        }
                    }
                }
            }
        }
        errs.extend(seen_errs);
        if matches!(ast.body, RuleBody::Pattern(_)) {
            families.push((ast, first..checked.len()));
        }
    }
    if errs.is_empty() {
        let plans = lower::lower_patterns(patterns);
        let mut warnings: Vec<Diagnostic> = families
            .into_iter()
            .filter_map(|(ast, range)| {
                let family = checked[range].iter().filter_map(|c| match c {
                    Checked::Pattern(head, i) => Some((head, &plans[*i])),
                    Checked::Rule(_) | Checked::Foreign(..) => None,
                });
                huge_search_warning(ast, family).map(|(sp, m)| map.warning(sp, m))
            })
            .collect();
        let mut plans: Vec<Option<crate::search::pattern::Plan>> =
            plans.into_iter().map(Some).collect();
        let mut other: Vec<Option<crate::search::pattern::Plan>> = if foreign.is_empty() {
            Vec::new()
        } else {
            lower::lower_patterns(foreign)
                .into_iter()
                .map(Some)
                .collect()
        };
        let mut rules = Vec::with_capacity(checked.len());
        for c in checked {
            match c {
                Checked::Rule(rule) => rules.push(rule),
                Checked::Pattern(head, i) => rules.push(Rule {
                    head,
                    searcher: Arc::new(plans[i].take().expect("each plan is taken once")),
                }),
                Checked::Foreign(mut head, i, space) => {
                    head.space = Some(space);
                    rules.push(Rule {
                        head,
                        searcher: Arc::new(other[i].take().expect("each plan is taken once")),
                    })
                }
            }
        }
        diag::sort(&mut warnings);
        return Ok(Compiled { rules, warnings });
    }
    // Byte order within one file is line and column order.
    errs.sort_by(|(a, m), (b, n)| (a.start, m).cmp(&(b.start, n)));
    let more = errs.len().saturating_sub(MAX_ERRORS);
    let mut shown: Vec<Diagnostic> = errs
        .iter()
        .take(MAX_ERRORS)
        .map(|(sp, m)| map.error(*sp, m.clone()))
        .collect();
    if more > 0 {
        shown.push(map.error(
            errs[MAX_ERRORS].0,
            format!("too many errors: {more} more from here on are not shown"),
        ));
    }
    Err(shown)
}

/// The warning of a pattern family whose search space is huge: the
/// instance with the largest space beyond the estimate's threshold (see
/// [`lower::search_space`]), and how many are beyond it. An instance that
/// its filters bound on the reference states is not huge, when rules are
/// measured ([`measure_huge_searches`]; the plan measured alone, sharing
/// no prefix).
fn huge_search_warning<'a>(
    ast: &RuleAst,
    family: impl Iterator<Item = (&'a RuleHead, &'a crate::search::pattern::Plan)>,
) -> Option<(Span, String)> {
    let mut huge: Option<(f64, Span, String)> = None;
    let mut n_huge = 0;
    for (head, plan) in family {
        let space = lower::search_space(plan);
        if let Some((sp, m)) = lower::huge_search_warning(ast, &head.name, &space)
            && !(MEASURE.load(Ordering::Relaxed) && lower::measured_search(&plan.alone()).is_some())
        {
            n_huge += 1;
            if huge.as_ref().is_none_or(|(t, _, _)| space.total > *t) {
                huge = Some((space.total, sp, m));
            }
        }
    }
    let (_, sp, mut m) = huge?;
    if n_huge > 1 {
        m.push_str(&format!(
            "; {n_huge} rules of this family are above {}",
            lower::approx(lower::HUGE_SEARCH)
        ));
    }
    Some((sp, m))
}
