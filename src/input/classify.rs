//! Classifying one line: character classes, [`LineClass`] and [`classify`], and the
//! token, group and column helpers the assembler uses to read a line.

/// A first token longer than this makes the line a one-line record.
const ROW_TOKEN_MAX: usize = 20;
/// A line whose first token is 9 characters long and which has at least this many
/// tokens is a pencil-mark line written as whitespace-separated groups.
const GROUPED_MIN_TOKENS: usize = 41;
/// Longest excerpt of a line quoted in a "not a puzzle" error.
const EXCERPT_MAX: usize = 40;

pub(super) fn is_cell_char(c: char) -> bool {
    matches!(c, '1'..='9' | '0' | '.' | '*' | '_')
}

/// `is_cell_char` for a byte, branch-free so that checks over a line vectorize.
pub(super) fn is_cell_byte(b: u8) -> bool {
    b.wrapping_sub(b'0') <= 9 || b == b'.' || b == b'*' || b == b'_'
}

pub(super) fn is_sep(c: char) -> bool {
    matches!(c, '|' | '!' | '+' | '-' | '=' | '\u{2500}'..='\u{257F}')
}

/// Value of a cell character: 1-9 for a digit, 0 for anything else.
pub(super) fn given_value(c: char) -> u8 {
    let v = u32::from(c).wrapping_sub(u32::from('0'));
    if (1..=9).contains(&v) { v as u8 } else { 0 }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LineClass {
    Blank,
    Comment,
    Sep,
    Record,
    Label,
    Text,
    Row,
}

/// Whether a line (without leading whitespace) is the label SudoRules and
/// `ruledoku solve` print above a candidate grid: `Resolution state:` or
/// `Resolution state after …:` (e.g. `Resolution state after Singles:`).
pub(super) fn is_state_label(t: &str) -> bool {
    let t = t.trim_end();
    t == "Resolution state:" || (t.starts_with("Resolution state after ") && t.ends_with(':'))
}

/// The first whitespace-separated token of `t` (which has no leading whitespace).
pub(super) fn first_token(t: &str) -> &str {
    // Fast scan for the first byte that may end the token (space, control, non-ASCII).
    let Some(i) = t.bytes().position(|b| b <= b' ' || b >= 0x80) else {
        return t;
    };
    if is_ws_byte(t.as_bytes()[i]) {
        return &t[..i];
    }
    let end = t[i..].find(char::is_whitespace).map_or(t.len(), |j| i + j);
    &t[..end]
}

/// ASCII bytes that are whitespace for `char::is_whitespace`.
fn is_ws_byte(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

pub(super) fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Whether a line whose first token is `tok` is a pencil-mark line written as groups.
pub(super) fn is_grouped_marks(t: &str, tok: &str) -> bool {
    char_len(tok) == 9 && t.split_whitespace().nth(GROUPED_MIN_TOKENS - 1).is_some()
}

pub(super) fn classify(line: &str) -> LineClass {
    let t = line.trim_start();
    let Some(first) = t.chars().next() else {
        return LineClass::Blank;
    };
    if first == '#' {
        return LineClass::Comment;
    }
    if t.chars().all(|c| is_sep(c) || c.is_whitespace()) {
        return LineClass::Sep;
    }
    let tok = first_token(t);
    if char_len(tok) > ROW_TOKEN_MAX || is_grouped_marks(t, tok) {
        return LineClass::Record;
    }
    if is_state_label(t) {
        return LineClass::Label;
    }
    if !(is_cell_char(first) || is_sep(first)) {
        return LineClass::Text;
    }
    LineClass::Row
}

/// Groups of a grid row: maximal runs of characters that are neither whitespace nor
/// separators, with their byte offsets.
pub(super) fn groups(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest_start = 0;
    std::iter::from_fn(move || {
        let rest = &s[rest_start..];
        let start = rest_start + rest.find(|c: char| !(c.is_whitespace() || is_sep(c)))?;
        let tail = &s[start..];
        let len = tail
            .find(|c: char| c.is_whitespace() || is_sep(c))
            .unwrap_or(tail.len());
        rest_start = start + len;
        Some((start, &s[start..start + len]))
    })
}

/// Whitespace-separated tokens with their byte offsets.
pub(super) fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest_start = 0;
    std::iter::from_fn(move || {
        let rest = &s[rest_start..];
        let start = rest_start + rest.find(|c: char| !c.is_whitespace())?;
        let tail = &s[start..];
        let len = tail.find(char::is_whitespace).unwrap_or(tail.len());
        rest_start = start + len;
        Some((start, &s[start..start + len]))
    })
}

/// 1-based character column of byte offset `byte` in `line`.
pub(super) fn column(line: &str, byte: usize) -> usize {
    line.get(..byte).map_or(byte, char_len) + 1
}

pub(super) fn excerpt(t: &str) -> String {
    let t = t.trim();
    match t.char_indices().nth(EXCERPT_MAX) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t.to_owned(),
    }
}

/// Whether a grid row has the shape of one: 9 cell characters or 9 groups.
pub(super) fn looks_like_grid_row(s: &str) -> bool {
    let cells = s
        .chars()
        .filter(|&c| !(c.is_whitespace() || is_sep(c)))
        .count();
    cells == 9 || groups(s).count() == 9
}

/// Whether a grid row is a row of candidate groups: at least 4 groups, one of which
/// has two or more digits 1-9.
pub(super) fn is_candidate_row(s: &str) -> bool {
    let mut n = 0;
    let mut multi = false;
    for (_, g) in groups(s) {
        n += 1;
        multi |= g.len() >= 2 && g.bytes().all(|b| (b'1'..=b'9').contains(&b));
    }
    n >= 4 && multi
}
