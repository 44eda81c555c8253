//! Diagnostics for rule files: a severity, file, line, column, message and
//! an excerpt of the offending source line with carets under the span.
//!
//! Excerpts are rendered by `annotate-snippets` (the renderer rustc uses):
//! tabs are expanded so that carets line up, control characters are shown
//! as visible symbols, and a long line is cut around the span (`...` on the
//! cut sides), so a diagnostic stays a few short lines whatever the input.
//! A [`SourceMap`] places many diagnostics in one file cheaply (line starts
//! are computed once); [`decode_source`] turns a rule file's bytes into
//! text, reporting the place of the first byte that is not UTF-8.

use super::ast::Span;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::fmt;

/// How bad a diagnostic is: an error stops a rule file from loading; a
/// warning does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    /// The word printed before the message.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One error or warning found in a rule file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column of the span's start, in characters (a tab counts one).
    pub column: usize,
    pub message: String,
    /// The source line (cut around the span when long) and a caret line
    /// under the span, with a line-number gutter.
    pub excerpt: String,
}

/// Bytes of a long line kept on each side of a span's start before the
/// renderer cuts the line to the terminal width. Keeps rendering cheap on
/// lines of megabytes.
const WINDOW: usize = 1024;

/// A rule file's text with the byte offset of each line start.
pub struct SourceMap<'a> {
    file: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> SourceMap<'a> {
    pub fn new(file: &'a str, text: &'a str) -> SourceMap<'a> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceMap {
            file,
            text,
            line_starts,
        }
    }

    /// The 1-based line holding byte `pos` (clamped to the text).
    pub fn line_of(&self, pos: usize) -> usize {
        self.line_starts
            .partition_point(|&s| s <= pos.min(self.text.len()))
    }

    /// The 1-based column (in characters) of byte `pos`.
    pub fn column_of(&self, pos: usize) -> usize {
        let pos = self.text.floor_char_boundary(pos.min(self.text.len()));
        let start = self.line_starts[self.line_of(pos) - 1];
        self.text[start..pos].chars().count() + 1
    }

    /// An error at `span`.
    pub fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.diagnostic(Severity::Error, span, message)
    }

    /// A warning at `span`.
    pub fn warning(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.diagnostic(Severity::Warning, span, message)
    }

    /// A diagnostic at `span`: its line and column are those of the span's
    /// start; the caret line covers the span up to the end of that line.
    pub fn diagnostic(
        &self,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let text = self.text;
        let start = text.floor_char_boundary(span.start.min(text.len()));
        let line = self.line_of(start);
        let line_start = self.line_starts[line - 1];
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line_text = text[line_start..line_end]
            .strip_suffix('\r')
            .unwrap_or(&text[line_start..line_end]);
        let column = text[line_start..start].chars().count() + 1;
        let lo = start - line_start;
        let hi = text
            .ceil_char_boundary(span.end.clamp(start, line_end))
            .saturating_sub(line_start)
            .min(line_text.len());
        Diagnostic {
            severity,
            file: self.file.to_string(),
            line,
            column,
            // Text quoted from the file may hold control characters (an
            // escape sequence would reach the terminal): shown as symbols.
            message: annotate_snippets::normalize_untrusted_str(&message.into()),
            excerpt: excerpt(line, line_text, lo, hi),
        }
    }
}

/// Renders one source line with carets under bytes `lo..hi` of it.
fn excerpt(line_no: usize, line: &str, lo: usize, hi: usize) -> String {
    let lo = lo.min(line.len());
    // An empty span points at one character when there is one.
    let mut hi = hi.max(lo);
    if hi == lo && lo < line.len() {
        hi = line.ceil_char_boundary(lo + 1);
    }
    // Long lines: keep a window around the span; the renderer cuts it
    // further to the terminal width and marks the cuts with `...`.
    let (from, to) = if line.len() > 2 * WINDOW {
        let from = line.floor_char_boundary(lo.saturating_sub(WINDOW));
        let to = line.ceil_char_boundary((lo + WINDOW).min(line.len()));
        (from, to)
    } else {
        (0, line.len())
    };
    let hi = hi.min(to);
    let report = [Group::with_level(Level::ERROR).element(
        Snippet::source(&line[from..to])
            .line_start(line_no)
            .annotation(AnnotationKind::Primary.span(lo - from..hi - from)),
    )];
    Renderer::plain().render(&report)
}

impl Diagnostic {
    /// Builds an error for `span` of `source`. To place many diagnostics
    /// in one file, use a [`SourceMap`].
    pub fn new(file: &str, source: &str, span: Span, message: impl Into<String>) -> Diagnostic {
        SourceMap::new(file, source).error(span, message)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.severity.word(), self.message)?;
        // The arrow is indented two spaces, more when the line number
        // (and so the excerpt's gutter) is wider.
        let pad = " ".repeat(self.line.to_string().len().max(2));
        writeln!(f, "{pad}--> {}:{}:{}", self.file, self.line, self.column)?;
        write!(f, "{}", self.excerpt)
    }
}

/// Diagnostics printed one after the other, then a count: `3 error(s)`,
/// `1 warning(s)` or `2 error(s), 1 warning(s)`. This is how `rules check`
/// prints a file's errors, and how it should print warnings.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}\n")?;
        }
        let errors = self.0.iter().filter(|d| d.is_error()).count();
        let warnings = self.0.len() - errors;
        match (errors, warnings) {
            (e, 0) => write!(f, "{e} error(s)"),
            (0, w) => write!(f, "{w} warning(s)"),
            (e, w) => write!(f, "{e} error(s), {w} warning(s)"),
        }
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

/// The text of a rule file read as bytes: UTF-8, with a leading byte-order
/// mark dropped (so columns on line 1 are those an editor shows). A byte
/// that is not UTF-8 is an error at its line and column.
pub fn decode_source(file: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let byte = bytes[bad];
        // The line up to the end of the file or line, with the bad bytes
        // shown as U+FFFD; the error points at the first of them.
        let line_end = bytes[bad..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| bad + i);
        let valid = std::str::from_utf8(&bytes[..bad]).expect("valid prefix");
        let shown = format!(
            "{valid}{}",
            String::from_utf8_lossy(&bytes[bad..line_end])
        );
        SourceMap::new(file, &shown).error(
            Span {
                start: bad,
                end: bad + '\u{FFFD}'.len_utf8(),
            },
            format!(
                "invalid UTF-8: byte 0x{byte:02X} cannot start or continue a character here (rule files must be UTF-8 text)"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(source: &str, start: usize, end: usize) -> Diagnostic {
        Diagnostic::new("t.rules", source, Span { start, end }, "m")
    }

    #[test]
    fn excerpt_underlines_the_span() {
        let d = at("rule x {\n  let Q: cell\n}\n", 15, 16);
        assert_eq!((d.line, d.column), (2, 7));
        assert_eq!(d.excerpt, "  |\n2 |   let Q: cell\n  |       ^");
        assert_eq!(
            d.to_string(),
            "error: m\n  --> t.rules:2:7\n  |\n2 |   let Q: cell\n  |       ^"
        );
    }

    #[test]
    fn tabs_are_expanded_and_carets_line_up() {
        let d = at("\tlet\tQ: cell\n", 5, 6);
        assert_eq!((d.line, d.column), (1, 6));
        assert_eq!(d.excerpt, "  |\n1 |     let    Q: cell\n  |            ^");
    }

    #[test]
    fn crlf_lines_keep_their_columns_and_lose_the_cr() {
        let d = at("rule x {\r\n  let Q: cell\r\n}\r\n", 16, 17);
        assert_eq!((d.line, d.column), (2, 7));
        assert_eq!(d.excerpt, "  |\n2 |   let Q: cell\n  |       ^");
    }

    #[test]
    fn end_of_file_points_past_the_last_character() {
        let d = at("rule x {", 8, 9);
        assert_eq!((d.line, d.column), (1, 9));
        assert_eq!(d.excerpt, "  |\n1 | rule x {\n  |         ^");
        let d = at("rule x {\n", 9, 10);
        assert_eq!((d.line, d.column), (2, 1));
        assert_eq!(d.excerpt, "  |\n2 |\n  | ^");
    }

    #[test]
    fn long_lines_are_cut_around_the_span() {
        let line = format!("where {}|Q| == 1", "|V| == 1 and ".repeat(80_000));
        let at_q = line.find('Q').unwrap();
        let d = at(&line, at_q, at_q + 1);
        assert_eq!(d.column, at_q + 1);
        let shown = format!("...{}| == 1 and |Q| == 1", "| == 1 and |V".repeat(4));
        let carets = format!("{}^", " ".repeat(shown.len() - 7));
        assert_eq!(d.excerpt, format!("  |\n1 | {shown}\n  | {carets}"));
        let d = at(&line, 0, 5);
        let shown = format!("where {}|V| == 1 a...", "|V| == 1 and ".repeat(9));
        assert_eq!(d.excerpt, format!("  |\n1 | {shown}\n  | ^^^^^"));
    }

    #[test]
    fn control_characters_are_shown_as_symbols() {
        let d = Diagnostic::new(
            "t.rules",
            "a\u{1b}[31mb",
            Span { start: 1, end: 2 },
            "found `\u{1b}[31m\u{202e}`",
        );
        assert_eq!(d.message, "found `\u{241b}[31m\u{fffd}`");
        assert_eq!(d.excerpt, "  |\n1 | a\u{241b}[31mb\n  |  ^");
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let text = decode_source("t.rules", b"\xEF\xBB\xBFrule x {}".to_vec()).unwrap();
        assert_eq!(text, "rule x {}");
    }

    #[test]
    fn a_byte_that_is_not_utf8_has_a_place() {
        let d = decode_source("t.rules", b"rule x {\n  # caf\xE9\n}\n".to_vec()).unwrap_err();
        assert_eq!((d.line, d.column), (2, 8));
        assert_eq!(
            d.message,
            "invalid UTF-8: byte 0xE9 cannot start or continue a character here (rule files must be UTF-8 text)"
        );
        assert_eq!(d.excerpt, "  |\n2 |   # caf\u{FFFD}\n  |        ^");
    }

    #[test]
    fn counts_name_errors_and_warnings() {
        let map = SourceMap::new("t.rules", "x\n");
        let e = map.error(Span { start: 0, end: 1 }, "bad");
        let w = map.warning(Span { start: 0, end: 1 }, "slow");
        assert!(w.to_string().starts_with("warning: slow\n"));
        assert!(
            Diagnostics(vec![e.clone()])
                .to_string()
                .ends_with("\n1 error(s)")
        );
        assert!(
            Diagnostics(vec![w.clone()])
                .to_string()
                .ends_with("\n1 warning(s)")
        );
        assert!(
            Diagnostics(vec![e, w])
                .to_string()
                .ends_with("\n1 error(s), 1 warning(s)")
        );
    }
}
