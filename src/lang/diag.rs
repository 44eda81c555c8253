//! Diagnostics for rule files: file, line, column, message and a caret
//! excerpt of the offending source line.

use super::ast::Span;
use std::fmt;

/// One error found in a rule file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The source line and a caret line under the span.
    pub excerpt: String,
}

impl Diagnostic {
    /// Builds a diagnostic for `span` of `source`.
    pub fn new(file: &str, source: &str, span: Span, message: impl Into<String>) -> Diagnostic {
        let mut start = span.start.min(source.len());
        while !source.is_char_boundary(start) {
            start -= 1;
        }
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let line = source[..start].matches('\n').count() + 1;
        let column = source[line_start..start].chars().count() + 1;
        let text = source[line_start..line_end].trim_end_matches('\r');
        let mut end = span.end.clamp(start, line_end);
        while !source.is_char_boundary(end) {
            end += 1;
        }
        let width = source[start..end].chars().count().max(1);
        let gutter = format!("{line}");
        let excerpt = format!(
            "{pad} |\n{gutter} | {text}\n{pad} | {spaces}{carets}",
            pad = " ".repeat(gutter.len()),
            spaces = " ".repeat(column - 1),
            carets = "^".repeat(width)
        );
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
            excerpt,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.message)?;
        writeln!(f, "  --> {}:{}:{}", self.file, self.line, self.column)?;
        write!(f, "{}", self.excerpt)
    }
}

/// All diagnostics of a load, printed one after the other.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}\n")?;
        }
        write!(f, "{} error(s)", self.0.len())
    }
}

impl std::error::Error for Diagnostics {}

/// Puts diagnostics in their fixed order: by file, line, column, then
/// message (so every run prints them alike).
pub fn sort(d: &mut [Diagnostic]) {
    d.sort_by(|a, b| {
        (&a.file, a.line, a.column, &a.message).cmp(&(&b.file, b.line, b.column, &b.message))
    });
}
