//! The rule language, in pipeline order:
//!
//! 1. [`parse`]: text → pest pairs (grammar `grammar/rules.pest`) → AST
//!    with spans ([`ast`]), within the parser's limits (nesting, operators,
//!    lengths), so that no later pass can run out of stack;
//! 2. [`expand`]: a rule's family → one parameter tuple per instance;
//! 3. [`check`]: names and types of one instance → typed operations;
//! 4. [`lower`]: typed operations → a searcher (a scheduled pattern plan),
//!    and an estimate of its search space (warnings for huge ones);
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

/// Checks and lowers every rule of a parsed file.
pub fn compile_file(
    file: &str,
    source: &str,
    asts: &[RuleAst],
) -> Result<Compiled, Vec<Diagnostic>> {
    let map = SourceMap::new(file, source);
    let mut out = Vec::new();
    let mut errs: Vec<(Span, String)> = Vec::new();
    let mut warnings = Vec::new();
    for ast in asts {
        let instances = match expand::expand(ast) {
            Ok(i) => i,
            Err(e) => {
                errs.extend(e);
                continue;
            }
        };
        let line = map.line_of(ast.name_span.start);
        let mut seen_errs = Vec::new();
        // The family's instance with the largest search space beyond the
        // warning threshold, and how many are beyond it.
        let mut huge: Option<(f64, Span, String)> = None;
        let mut n_huge = 0;
        // The head of one instance: the family's docs and place, the
        // instance's name and grade.
        let head = |name, complexity, level, label| RuleHead {
            name,
            docs: ast.docs.clone(),
            file: file.to_string(),
            line,
            complexity,
            level,
            label,
        };
        for params in instances {
            let result = match &ast.body {
                RuleBody::Pattern(clauses) => {
                    check::check_pattern(ast, clauses, &params).map(|c| {
                        let head = head(c.name.clone(), c.complexity, c.level, c.label.clone());
                        let plan = lower::lower_pattern(c);
                        let space = lower::search_space(&plan);
                        // Beyond the estimate's threshold, a rule that its
                        // filters bound on the reference states is not huge.
                        if let Some((sp, m)) = lower::huge_search_warning(ast, &head.name, &space)
                            && !(MEASURE.load(Ordering::Relaxed)
                                && lower::measured_search(&plan).is_some())
                        {
                            n_huge += 1;
                            if huge.as_ref().is_none_or(|(t, _, _)| space.total > *t) {
                                huge = Some((space.total, sp, m));
                            }
                        }
                        Rule {
                            head,
                            searcher: Arc::new(plan),
                        }
                    })
                }
                RuleBody::Chain(clauses) => {
                    check::check_chain(ast, clauses, &params).map(|c| Rule {
                        head: head(c.name, c.complexity, c.level, c.label),
                        searcher: Arc::new(lower::lower_chain(c.spec)),
                    })
                }
                RuleBody::Trial(clauses) => {
                    check::check_trial(ast, clauses, &params).map(|c| Rule {
                        head: head(c.name, c.complexity, c.level, c.label),
                        searcher: Arc::new(lower::lower_trial(c.spec)),
                    })
                }
            };
            match result {
                Ok(rule) => out.push(rule),
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
        if let Some((_, sp, mut m)) = huge {
            if n_huge > 1 {
                m.push_str(&format!(
                    "; {n_huge} rules of this family are above {}",
                    lower::approx(lower::HUGE_SEARCH)
                ));
            }
            warnings.push(map.warning(sp, m));
        }
    }
    if errs.is_empty() {
        share_prefixes(&mut out);
        diag::sort(&mut warnings);
        return Ok(Compiled {
            rules: out,
            warnings,
        });
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

/// Marks the prefixes that the pattern rules of one file share (see
/// [`crate::search::prefix`]). The rules were just made: each searcher is
/// held once.
fn share_prefixes(rules: &mut [Rule]) {
    let mut plans: Vec<&mut crate::search::pattern::Plan> = rules
        .iter_mut()
        .filter_map(|r| Arc::get_mut(&mut r.searcher))
        .filter_map(|s| s.plan_mut())
        .collect();
    crate::search::prefix::share_prefixes(&mut plans);
}
