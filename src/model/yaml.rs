//! User puzzle types: a YAML file read into a [`TypeSpec`], with errors
//! that name the file, the line and what was wrong ([`TypeError`]). The
//! format is documented in `docs/puzzle-types.md`.

use super::spec::{Constraint, Family, HouseSpec, TypeSpec, default_symbols};
use super::variant::{self, Variant};
use serde::Deserialize;
use std::fmt;

/// The largest side of a user type.
pub const MAX_SIDE: usize = 64;

/// An error in a type file: `FILE:LINE[:COLUMN]: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for TypeError {}

/// A list written either as one string of space-separated words or as a
/// YAML sequence.
#[derive(Deserialize)]
#[serde(untagged)]
enum Words {
    One(String),
    Many(Vec<serde_yaml::Value>),
}

impl Words {
    fn list(&self) -> Vec<String> {
        match self {
            Words::One(s) => s.split_whitespace().map(str::to_string).collect(),
            Words::Many(v) => v.iter().map(scalar).collect(),
        }
    }
}

fn scalar(v: &serde_yaml::Value) -> String {
    match v {
        serde_yaml::Value::String(s) => s.clone(),
        serde_yaml::Value::Number(n) => n.to_string(),
        serde_yaml::Value::Bool(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawType {
    name: Option<String>,
    size: usize,
    symbols: Option<Words>,
    blocks: Option<String>,
    regions: Option<String>,
    #[serde(default)]
    houses: Vec<RawHouse>,
    #[serde(default)]
    constraints: Vec<RawConstraint>,
    #[serde(default)]
    signs: bool,
    /// X-Sudoku: `both`, `main` or `anti`.
    diagonals: Option<String>,
    #[serde(default)]
    windoku: bool,
    #[serde(default, rename = "disjoint-groups")]
    disjoint_groups: bool,
    #[serde(default, rename = "extra-regions")]
    extra_regions: Vec<Words>,
    #[serde(default, rename = "anti-knight")]
    anti_knight: bool,
    #[serde(default, rename = "anti-king")]
    anti_king: bool,
    #[serde(default, rename = "non-consecutive")]
    non_consecutive: bool,
    kropki: Option<RawKropki>,
    xv: Option<RawXv>,
    #[serde(default)]
    thermometers: Vec<Words>,
    /// Killer cages: cells and (optionally) their sum.
    #[serde(default)]
    cages: Vec<RawCage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCage {
    cells: Words,
    sum: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKropki {
    #[serde(default)]
    white: Vec<Words>,
    #[serde(default)]
    black: Vec<Words>,
    /// `true` (both colours), `white` or `black`: every pair of
    /// orthogonal neighbours without such a dot is not in its relation.
    negative: Option<serde_yaml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawXv {
    #[serde(default)]
    x: Vec<Words>,
    #[serde(default)]
    v: Vec<Words>,
    #[serde(default)]
    negative: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHouse {
    kind: String,
    prefix: Option<String>,
    cells: Words,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConstraint {
    cells: Words,
    relation: Option<String>,
    forbid: Option<Vec<Vec<serde_yaml::Value>>>,
}

/// Where things are in the file's text, for errors past the YAML syntax.
struct Locator<'a> {
    file: &'a str,
    lines: Vec<&'a str>,
}

impl Locator<'_> {
    fn err(&self, line: Option<usize>, message: String) -> TypeError {
        TypeError {
            file: self.file.to_string(),
            line,
            column: None,
            message,
        }
    }

    /// The 1-based line of top-level key `key`.
    fn key(&self, key: &str) -> Option<usize> {
        let head = format!("{key}:");
        self.lines
            .iter()
            .position(|l| l.starts_with(&head))
            .map(|i| i + 1)
    }

    /// The line of item `i` (0-based) of the sequence under `key`.
    fn item(&self, key: &str, i: usize) -> Option<usize> {
        let start = self.key(key)?;
        self.lines[start..]
            .iter()
            .enumerate()
            .take_while(|(_, l)| l.is_empty() || l.starts_with([' ', '-', '#']))
            .filter(|(_, l)| l.trim_start().starts_with('-'))
            .nth(i)
            .map(|(k, _)| start + k + 1)
    }

    /// The line of row `r` (0-based) of the block under `key`.
    fn row(&self, key: &str, r: usize) -> Option<usize> {
        let start = self.key(key)?;
        self.lines[start..]
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .nth(r)
            .map(|(k, _)| start + k + 1)
    }
}

/// Reads a user type from the text of a YAML file named `file`.
pub fn parse_type(file: &str, text: &str) -> Result<TypeSpec, TypeError> {
    let at = Locator {
        file,
        lines: text.lines().collect(),
    };
    let raw: RawType = serde_yaml::from_str(text).map_err(|e| TypeError {
        file: file.to_string(),
        line: e.location().map(|l| l.line()),
        column: e.location().map(|l| l.column()),
        message: e
            .to_string()
            .split(" at line ")
            .next()
            .unwrap_or("")
            .to_string(),
    })?;
    let n = raw.size;
    if !(2..=MAX_SIDE).contains(&n) {
        return Err(at.err(
            at.key("size"),
            format!("size {n}: the side of a type is from 2 to {MAX_SIDE}"),
        ));
    }
    let name = raw.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or("user".to_string(), |s| s.to_string_lossy().into_owned())
    });
    let mut spec = TypeSpec::grid(&name, Family::User, n);
    spec.puzzle_signs = raw.signs;
    if let Some(sym) = &raw.symbols {
        spec.symbols = symbols(&at, sym, n)?;
    } else {
        spec.symbols = default_symbols(n);
    }
    match (&raw.blocks, &raw.regions) {
        (Some(_), Some(_)) => {
            return Err(at.err(
                at.key("regions"),
                "a type has `blocks` (regular) or `regions` (irregular), not both".into(),
            ));
        }
        (Some(b), None) => {
            let shape = b
                .split_once(['x', '×'])
                .and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)));
            match shape {
                Some((r, c)) if r * c == n && r > 0 => spec.add_blocks(r, c),
                _ => {
                    return Err(at.err(
                        at.key("blocks"),
                        format!(
                            "blocks `{b}`: expected ROWSxCOLUMNS with ROWS × COLUMNS = {n} (e.g. 2x3)"
                        ),
                    ));
                }
            }
        }
        (None, Some(grid)) => regions(&at, &mut spec, grid)?,
        (None, None) => {}
    }
    for (i, h) in raw.houses.iter().enumerate() {
        house(&at, &mut spec, h, i)?;
    }
    for (i, c) in raw.constraints.iter().enumerate() {
        let line = at.item("constraints", i);
        spec.constraints.push(constraint(&at, &spec, c, line)?);
    }
    variants(&at, &mut spec, &raw)?;
    Ok(spec)
}

/// The variant rules of the file, in a fixed order, then their houses and
/// constraints ([`variant::apply`]).
fn variants(at: &Locator, spec: &mut TypeSpec, raw: &RawType) -> Result<(), TypeError> {
    let n = spec.n;
    let mut first_line = None;
    let mut push = |spec: &mut TypeSpec, key: &str, v: Variant| {
        first_line = first_line.or(at.key(key));
        spec.variants.push(v);
    };
    if let Some(d) = &raw.diagonals {
        let line = at.key("diagonals");
        match d.as_str() {
            "both" => {
                push(spec, "diagonals", Variant::MainDiagonal);
                push(spec, "diagonals", Variant::AntiDiagonal);
            }
            "main" => push(spec, "diagonals", Variant::MainDiagonal),
            "anti" => push(spec, "diagonals", Variant::AntiDiagonal),
            other => {
                return Err(at.err(
                    line,
                    format!("diagonals `{other}`: expected both, main or anti"),
                ));
            }
        }
    }
    if raw.windoku {
        push(spec, "windoku", Variant::Windoku);
    }
    if raw.disjoint_groups {
        push(spec, "disjoint-groups", Variant::DisjointGroups);
    }
    for (i, w) in raw.extra_regions.iter().enumerate() {
        let line = at.item("extra-regions", i);
        let cells = cells_of(at, w, n, line)?;
        push(spec, "extra-regions", Variant::ExtraRegion(cells));
    }
    if raw.anti_knight {
        push(spec, "anti-knight", Variant::AntiKnight);
    }
    if raw.anti_king {
        push(spec, "anti-king", Variant::AntiKing);
    }
    let mut non_consecutive = raw.non_consecutive;
    if let Some(k) = &raw.kropki {
        let line = at.key("kropki");
        for w in &k.white {
            let [a, b] = two_cells(at, w, n, line, "a white dot")?;
            push(spec, "kropki", Variant::WhiteDot { a, b, diff: 1 });
        }
        for w in &k.black {
            let [a, b] = two_cells(at, w, n, line, "a black dot")?;
            push(spec, "kropki", Variant::BlackDot { a, b, ratio: 2 });
        }
        let (white, black) = match k.negative.as_ref().map(scalar).as_deref() {
            None | Some("false") => (false, false),
            Some("true") | Some("both") => (true, true),
            Some("white") => (true, false),
            Some("black") => (false, true),
            Some(other) => {
                return Err(at.err(
                    line,
                    format!("kropki negative `{other}`: expected true, white, black or false"),
                ));
            }
        };
        non_consecutive |= white;
        if black {
            push(spec, "kropki", Variant::NegativeBlack);
        }
    }
    if non_consecutive {
        push(spec, "non-consecutive", Variant::NonConsecutive);
    }
    if let Some(x) = &raw.xv {
        let line = at.key("xv");
        for (words, sum, what) in [(&x.x, 10, "an X"), (&x.v, 5, "a V")] {
            for w in words {
                let [a, b] = two_cells(at, w, n, line, what)?;
                push(spec, "xv", Variant::Xv { a, b, sum });
            }
        }
        if x.negative {
            push(spec, "xv", Variant::NegativeXv);
        }
    }
    for (i, w) in raw.thermometers.iter().enumerate() {
        let line = at.item("thermometers", i);
        let cells = cells_of(at, w, n, line)?;
        push(spec, "thermometers", Variant::Thermometer(cells));
    }
    for (i, c) in raw.cages.iter().enumerate() {
        let line = at.item("cages", i);
        let cells = cells_of(at, &c.cells, n, line)?;
        let cage = Variant::KillerCage { cells, sum: c.sum };
        // Checked here, so that the error names the cage's own line.
        let mut alone = TypeSpec::grid("", spec.family, n);
        alone.variants.push(cage.clone());
        variant::validate(&alone).map_err(|e| at.err(line, e))?;
        push(spec, "cages", cage);
    }
    variant::apply(spec).map_err(|e| at.err(first_line, e))
}

/// The two cells of a dot or mark.
fn two_cells(
    at: &Locator,
    w: &Words,
    n: usize,
    line: Option<usize>,
    what: &str,
) -> Result<[usize; 2], TypeError> {
    let cells = cells_of(at, w, n, line)?;
    <[usize; 2]>::try_from(cells.as_slice()).map_err(|_| {
        at.err(
            line,
            format!("{what} is between two cells, not {}", cells.len()),
        )
    })
}

fn symbols(at: &Locator, sym: &Words, n: usize) -> Result<Vec<String>, TypeError> {
    let list: Vec<String> = match sym {
        Words::One(s) if !s.contains(char::is_whitespace) => s.chars().map(String::from).collect(),
        other => other.list(),
    };
    let line = at.key("symbols");
    if list.len() != n {
        return Err(at.err(
            line,
            format!("{} symbols for a type of size {n}", list.len()),
        ));
    }
    for (i, s) in list.iter().enumerate() {
        if s == "." || s == "0" || s.contains(['|', '-', '+', ',', '#']) {
            return Err(at.err(
                line,
                format!("symbol `{s}` is reserved (`.` and `0` mark empty cells)"),
            ));
        }
        if list[..i].contains(s) {
            return Err(at.err(line, format!("symbol `{s}` is listed twice")));
        }
    }
    Ok(list)
}

fn regions(at: &Locator, spec: &mut TypeSpec, grid: &str) -> Result<(), TypeError> {
    let n = spec.n;
    let rows: Vec<Vec<char>> = grid
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    if rows.len() != n {
        return Err(at.err(
            at.key("regions"),
            format!("regions: {} rows, expected {n}", rows.len()),
        ));
    }
    let mut letters: Vec<char> = Vec::new();
    let mut cells: Vec<Vec<usize>> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if row.len() != n {
            return Err(at.err(
                at.row("regions", r),
                format!(
                    "regions: row {} has {} cells, expected {n}",
                    r + 1,
                    row.len()
                ),
            ));
        }
        for (c, ch) in row.iter().enumerate() {
            let k = letters.iter().position(|l| l == ch).unwrap_or_else(|| {
                letters.push(*ch);
                cells.push(Vec::new());
                letters.len() - 1
            });
            cells[k].push(r * n + c);
        }
    }
    if letters.len() != n {
        return Err(at.err(
            at.key("regions"),
            format!("regions: {} regions, expected {n}", letters.len()),
        ));
    }
    let kind = spec.add_kind("block", "b");
    for (letter, cs) in letters.iter().zip(cells) {
        if cs.len() != n {
            return Err(at.err(
                at.key("regions"),
                format!("region `{letter}` has {} cells, expected {n}", cs.len()),
            ));
        }
        spec.houses.push(HouseSpec { kind, cells: cs });
    }
    Ok(())
}

/// A cell's name `rYcX` (1-based) → its index.
fn cell_of(name: &str, n: usize) -> Option<usize> {
    let rest = name.strip_prefix(['r', 'R'])?;
    let (r, c) = rest.split_once(['c', 'C'])?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    ((1..=n).contains(&r) && (1..=n).contains(&c)).then(|| (r - 1) * n + c - 1)
}

fn cells_of(
    at: &Locator,
    words: &Words,
    n: usize,
    line: Option<usize>,
) -> Result<Vec<usize>, TypeError> {
    let mut out = Vec::new();
    for w in words.list() {
        let Some(c) = cell_of(&w, n) else {
            return Err(at.err(
                line,
                format!("`{w}` is no cell (expected rYcX with Y and X from 1 to {n})"),
            ));
        };
        if out.contains(&c) {
            return Err(at.err(line, format!("cell {w} is listed twice")));
        }
        out.push(c);
    }
    Ok(out)
}

fn house(at: &Locator, spec: &mut TypeSpec, h: &RawHouse, i: usize) -> Result<(), TypeError> {
    let line = at.item("houses", i);
    let n = spec.n;
    if h.kind == "row" || h.kind == "column" {
        return Err(at.err(
            line,
            format!(
                "kind `{}`: rows and columns are houses of every type already",
                h.kind
            ),
        ));
    }
    if h.kind.is_empty() || !h.kind.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        return Err(at.err(
            line,
            format!(
                "kind `{}`: a kind is a lower-case word (letters and `-`)",
                h.kind
            ),
        ));
    }
    let prefix = h
        .prefix
        .clone()
        .unwrap_or_else(|| h.kind.chars().take(1).collect());
    if prefix.is_empty() || !prefix.chars().all(|c| c.is_ascii_lowercase()) || prefix == "n" {
        return Err(at.err(
            line,
            format!("prefix `{prefix}`: a prefix is lower-case letters, and not `n`"),
        ));
    }
    if let Some(other) = spec
        .kinds
        .iter()
        .find(|k| k.prefix == prefix && k.name != h.kind)
    {
        return Err(at.err(
            line,
            format!(
                "prefix `{prefix}` of kind `{}` is already the prefix of kind `{}` (give `prefix:`)",
                h.kind, other.name
            ),
        ));
    }
    if let Some(k) = spec.kinds.iter().find(|k| k.name == h.kind)
        && k.prefix != prefix
    {
        return Err(at.err(
            line,
            format!("kind `{}` has prefix `{}` already", h.kind, k.prefix),
        ));
    }
    let cells = cells_of(at, &h.cells, n, line)?;
    if cells.len() != n {
        return Err(at.err(
            line,
            format!(
                "a house holds each symbol once: it has {n} cells, not {}",
                cells.len()
            ),
        ));
    }
    let kind = spec.add_kind(&h.kind, &prefix);
    // Houses stay grouped by kind, in kind order.
    let at_end = spec.houses.iter().rposition(|x| x.kind == kind);
    let house = HouseSpec { kind, cells };
    match at_end {
        Some(p) => spec.houses.insert(p + 1, house),
        None => spec.houses.push(house),
    }
    Ok(())
}

fn constraint(
    at: &Locator,
    spec: &TypeSpec,
    c: &RawConstraint,
    line: Option<usize>,
) -> Result<Constraint, TypeError> {
    let n = spec.n;
    let cells = cells_of(at, &c.cells, n, line)?;
    let [a, b] = cells[..] else {
        return Err(at.err(
            line,
            format!("a constraint is between two cells, not {}", cells.len()),
        ));
    };
    match (&c.relation, &c.forbid) {
        (Some(rel), None) => {
            let bad: fn(usize, usize) -> bool = match rel.as_str() {
                "<" => |x, y| x >= y,
                ">" => |x, y| x <= y,
                "!=" | "≠" => |x, y| x == y,
                "=" => |x, y| x != y,
                "consecutive" => |x, y| x.abs_diff(y) != 1,
                "non-consecutive" => |x, y| x.abs_diff(y) == 1,
                _ => {
                    return Err(at.err(
                        line,
                        format!(
                            "relation `{rel}`: expected <, >, !=, =, consecutive or non-consecutive"
                        ),
                    ));
                }
            };
            Ok(Constraint::forbidding(a, b, n, bad))
        }
        (None, Some(pairs)) => {
            let symbol = |v: &serde_yaml::Value| -> Result<usize, TypeError> {
                let s = scalar(v);
                spec.symbols
                    .iter()
                    .position(|x| *x == s)
                    .ok_or_else(|| at.err(line, format!("`{s}` is not a symbol of this type")))
            };
            let mut forbidden = Vec::new();
            for p in pairs {
                let [x, y] = &p[..] else {
                    return Err(at.err(
                        line,
                        format!("a forbidden pair has two symbols, not {}", p.len()),
                    ));
                };
                forbidden.push((symbol(x)?, symbol(y)?));
            }
            Ok(Constraint { a, b, forbidden })
        }
        _ => Err(at.err(
            line,
            "a constraint has either `relation` or `forbid` (one of them)".into(),
        )),
    }
}
