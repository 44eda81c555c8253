//! Futoshiki's signs: CSP-Rules' sign lines ([`signs`]) and Simon
//! Tatham's game descriptions ([`tatham`]), read into `a < b`
//! constraints between neighbouring cells ([`Constraint::less`]), each
//! with its text (`r1c1 < r1c2`) for messages.

use super::error::ErrorKind;
use crate::model::{Constraint, Model};

/// A sign: the constraint and its text.
pub(super) type Sign = (Constraint, String);

fn cell_name(n: usize, cell: usize) -> String {
    format!("r{}c{}", cell / n + 1, cell % n + 1)
}

/// `a < b` as a sign.
fn less(n: usize, a: usize, b: usize) -> Sign {
    (
        Constraint::less(a, b, n),
        format!("{} < {}", cell_name(n, a), cell_name(n, b)),
    )
}

/// One sign line of side `n`: the row line (`rows`: row by row, the
/// `n − 1` signs between columns `k` and `k + 1`, `<` when the left cell
/// is smaller) or the column line (column by column, the signs between
/// rows `k` and `k + 1`, `<` when the upper cell is smaller). `col0` is the
/// line's first column, for errors.
pub(super) fn signs(
    n: usize,
    line: &str,
    rows: bool,
    col0: usize,
) -> Result<Vec<Sign>, (usize, ErrorKind)> {
    let which = if rows { "row" } else { "column" };
    let chars: Vec<char> = line.trim_end().chars().collect();
    for (k, &c) in chars.iter().enumerate() {
        if !matches!(c, '<' | '>' | '-') {
            return Err((
                col0 + k,
                ErrorKind::BadChar {
                    ch: c,
                    expected: "'<', '>' or '-' in a sign line",
                },
            ));
        }
    }
    if chars.len() != n * (n - 1) {
        return Err((
            col0,
            ErrorKind::Signs {
                message: format!(
                    "the {which}-inequality line has {} signs, expected {} ({n} {which}s of {})",
                    chars.len(),
                    n * (n - 1),
                    n - 1
                ),
            },
        ));
    }
    let mut out = Vec::new();
    for (k, &c) in chars.iter().enumerate() {
        let (line_no, step) = (k / (n - 1), k % (n - 1));
        let (a, b) = if rows {
            (line_no * n + step, line_no * n + step + 1)
        } else {
            (step * n + line_no, (step + 1) * n + line_no)
        };
        match c {
            '<' => out.push(less(n, a, b)),
            '>' => out.push(less(n, b, a)),
            _ => {}
        }
    }
    Ok(out)
}

/// A cell as the typed reader keeps it: symbol, line, column.
pub(super) type Cell = (Option<usize>, usize, usize);

/// A Tatham description read: the cells and the signs.
pub(super) type Tatham = (Vec<Cell>, Vec<Sign>);

/// Simon Tatham's description of a Futoshiki ("Unequal") puzzle, with an
/// optional `N:` in front: per cell, in reading order, a value (`0`
/// empty) and marks `U`, `R`, `D`, `L` (this cell is greater than the one
/// above, right, below, left), cells separated by commas, a lower-case
/// letter standing for 1 (`a`) to 26 (`z`) empty cells. Errors as
/// `unequal.c`'s `load_game` gives them, with the column.
pub(super) fn tatham(
    m: &Model,
    desc: &str,
    line: usize,
) -> Result<Tatham, (Option<usize>, ErrorKind)> {
    let n = m.n;
    let err = |col: usize, message: String| (Some(col), ErrorKind::Tatham { message });
    let chars: Vec<char> = desc.chars().collect();
    let mut p = 0;
    // An optional `N:`.
    if let Some(colon) = chars.iter().position(|&c| c == ':') {
        let head: String = chars[..colon].iter().collect();
        match head.trim().parse::<usize>() {
            Ok(k) if k == n => p = colon + 1,
            Ok(k) => {
                return Err(err(
                    1,
                    format!(
                        "the puzzle is of size {k}, the type {} of size {n}",
                        m.name()
                    ),
                ));
            }
            Err(_) => return Err(err(1, format!("`{head}:` is no size"))),
        }
    }
    let mut cells: Vec<Cell> = Vec::with_capacity(n * n);
    let mut flags: Vec<[bool; 4]> = Vec::with_capacity(n * n);
    while p < chars.len() {
        while p < chars.len() && chars[p].is_ascii_lowercase() {
            for _ in 0..(chars[p] as u8 - b'a' + 1) {
                cells.push((None, line, p + 1));
                flags.push([false; 4]);
            }
            p += 1;
        }
        if p >= chars.len() {
            break;
        }
        if cells.len() >= n * n {
            return Err(err(p + 1, format!("more than {} cells", n * n)));
        }
        let start = p;
        while p < chars.len() && chars[p].is_ascii_digit() {
            p += 1;
        }
        if start == p {
            return Err(err(
                p + 1,
                format!("expected a number, found {:?}", chars[p]),
            ));
        }
        let num: String = chars[start..p].iter().collect();
        let v: usize = num.parse().unwrap_or(usize::MAX);
        if v > n {
            return Err(err(
                start + 1,
                format!("number {num} out of range 0 to {n}"),
            ));
        }
        let mut f = [false; 4];
        while p < chars.len() && matches!(chars[p], 'U' | 'R' | 'D' | 'L') {
            f["URDL".find(chars[p]).expect("a mark")] = true;
            p += 1;
        }
        cells.push(((v > 0).then(|| v - 1), line, start + 1));
        flags.push(f);
        if p < chars.len() {
            if chars[p] != ',' {
                return Err(err(
                    p + 1,
                    format!(
                        "expected a mark U, R, D, L or a comma, found {:?}",
                        chars[p]
                    ),
                ));
            }
            p += 1;
        } else if cells.len() < n * n {
            break;
        }
    }
    if cells.len() != n * n {
        return Err(err(
            chars.len().max(1),
            format!("{} cells, expected {}", cells.len(), n * n),
        ));
    }
    let mut out = Vec::new();
    for (cell, f) in flags.iter().enumerate() {
        let (r, c) = ((cell / n) as isize, (cell % n) as isize);
        for (k, (dr, dc)) in [(-1, 0), (0, 1), (1, 0), (0, -1)].into_iter().enumerate() {
            if !f[k] {
                continue;
            }
            let (nr, nc) = (r + dr, c + dc);
            let col = cells[cell].2;
            if nr < 0 || nc < 0 || nr >= n as isize || nc >= n as isize {
                return Err(err(
                    col,
                    format!(
                        "the mark {} of {} points off the grid",
                        &"URDL"[k..=k],
                        cell_name(n, cell)
                    ),
                ));
            }
            let other = (nr * n as isize + nc) as usize;
            if flags[other][(k + 2) % 4] {
                return Err(err(
                    col,
                    format!(
                        "{} and {} are each marked greater than the other",
                        cell_name(n, cell),
                        cell_name(n, other)
                    ),
                ));
            }
            out.push(less(n, other, cell));
        }
    }
    Ok((cells, out))
}
