//! The rule language: grammar (`grammar/rules.pest`) → pairs → AST with
//! spans ([`ast`], [`parse`]) → family expansion, validation and compilation
//! to matcher plans ([`check`]) → diagnostics ([`diag`]).

pub mod ast;
pub mod check;
pub mod diag;
pub mod parse;

pub use check::CompiledRule;
pub use diag::{Diagnostic, Diagnostics};

/// Parses, validates and compiles one rule file's text.
pub fn compile_source(file: &str, source: &str) -> Result<Vec<CompiledRule>, Vec<Diagnostic>> {
    let asts = parse::parse_file(file, source).map_err(|d| vec![d])?;
    check::compile_file(file, source, &asts)
}
