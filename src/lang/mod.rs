//! The rule language, in pipeline order:
//!
//! 1. [`parse`]: text → pest pairs (grammar `grammar/rules.pest`) → AST
//!    with spans ([`ast`]);
//! 2. [`expand`]: a rule's family → one parameter tuple per instance;
//! 3. [`check`]: names and types of one instance → typed operations;
//! 4. [`lower`]: typed operations → a searcher (a scheduled pattern plan);
//! 5. [`diag`]: every error with file, line, column and an excerpt, in a
//!    fixed order.
//!
//! [`names`] is the one table of keywords, type names and functions.

pub mod ast;
pub mod check;
pub mod diag;
pub mod expand;
pub mod lower;
pub mod names;
pub mod parse;

pub use diag::{Diagnostic, Diagnostics};

use crate::rule::{Rule, RuleHead};
use ast::{RuleAst, RuleBody};
use std::sync::Arc;

/// Parses, checks and lowers one rule file's text. On error, returns every
/// diagnostic of the file, ordered by line and column.
pub fn compile_source(file: &str, source: &str) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    let asts = parse::parse_file(file, source).map_err(|d| vec![d])?;
    compile_file(file, source, &asts)
}

/// Checks and lowers every rule of a parsed file.
pub fn compile_file(
    file: &str,
    source: &str,
    asts: &[RuleAst],
) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for ast in asts {
        let instances = match expand::expand(ast) {
            Ok(i) => i,
            Err(e) => {
                errs.extend(
                    e.into_iter()
                        .map(|(sp, m)| Diagnostic::new(file, source, sp, m)),
                );
                continue;
            }
        };
        let line = source[..ast.name_span.start].matches('\n').count() + 1;
        let mut seen_errs = Vec::new();
        for params in instances {
            let result = match &ast.body {
                RuleBody::Pattern(clauses) => {
                    check::check_pattern(ast, clauses, &params).map(|c| {
                        let head = RuleHead {
                            name: c.name.clone(),
                            docs: ast.docs.clone(),
                            file: file.to_string(),
                            line,
                            complexity: c.complexity,
                            level: c.level,
                            label: c.label.clone(),
                        };
                        Rule {
                            head,
                            searcher: Arc::new(lower::lower_pattern(c)),
                        }
                    })
                }
                RuleBody::Chain(clauses) => {
                    check::check_chain(ast, clauses, &params).map(|c| Rule {
                        head: RuleHead {
                            name: c.name,
                            docs: ast.docs.clone(),
                            file: file.to_string(),
                            line,
                            complexity: c.complexity,
                            level: c.level,
                            label: c.label,
                        },
                        searcher: Arc::new(lower::lower_chain(c.spec)),
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
        errs.extend(
            seen_errs
                .into_iter()
                .map(|(sp, m)| Diagnostic::new(file, source, sp, m)),
        );
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        diag::sort(&mut errs);
        Err(errs)
    }
}
