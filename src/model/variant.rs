//! Variant rules of Sudoku setters, as data: the diagonals of X-Sudoku,
//! windoku windows, disjoint groups, extra regions, anti-knight, anti-king,
//! non-consecutive neighbours, Kropki dots, XV marks and thermometers.
//!
//! A [`Variant`] is a declarative record kept in [`TypeSpec::variants`]
//! (so that a type can be written back, e.g. to f-puzzles, and drawn);
//! [`apply`] turns the list into what the CSP is made of: extra houses
//! (each symbol once) and binary constraints (the pairs of symbols two
//! cells cannot hold together), which become CSP variables and links.
//! Symbol `s` stands for the number `s + 1` wherever a rule does
//! arithmetic (dots, sums, thermometers).
//!
//! The negative constraints leave out the pairs that carry a mark: every
//! pair of orthogonal neighbours without a Kropki dot (of either colour)
//! is not consecutive (non-consecutive) and not in ratio 2 (negative black
//! dots), as Kropki puzzles state it ("no dot: neither consecutive nor
//! double", so 1 and 2 may carry either dot); every pair without an X or V
//! mark sums to neither 10 nor 5.

use super::spec::{Constraint, HouseSpec, TypeSpec};
use std::collections::BTreeSet;

/// One variant rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The main diagonal (r1c1 … rNcN) is a house (f-puzzles `diagonal-`).
    MainDiagonal,
    /// The anti-diagonal (r1cN … rNc1) is a house (f-puzzles `diagonal+`).
    AntiDiagonal,
    /// Windoku: four extra 3×3 windows of a 9×9 grid (rows and columns
    /// 2–4 and 6–8) are houses.
    Windoku,
    /// Disjoint groups: the cells at one position of every block form a
    /// house (regular blocks only).
    DisjointGroups,
    /// An extra region: `N` cells are a house; fewer cannot repeat a
    /// symbol.
    ExtraRegion(Vec<usize>),
    /// Cells a chess knight's move apart differ.
    AntiKnight,
    /// Cells a chess king's move apart differ.
    AntiKing,
    /// Orthogonal neighbours are not consecutive, except across a Kropki
    /// dot (the negative constraint of white dots).
    NonConsecutive,
    /// A white Kropki dot: the two cells differ by `diff` (1 by default).
    WhiteDot { a: usize, b: usize, diff: usize },
    /// A black Kropki dot: one cell is `ratio` (2 by default) times the
    /// other.
    BlackDot { a: usize, b: usize, ratio: usize },
    /// Orthogonal neighbours without a Kropki dot are not in ratio 2.
    NegativeBlack,
    /// An X (sum 10) or V (sum 5) mark between two cells.
    Xv { a: usize, b: usize, sum: usize },
    /// Orthogonal neighbours without an X or V mark sum to neither 10 nor
    /// 5.
    NegativeXv,
    /// A thermometer: strictly increasing from the bulb (first cell) along
    /// its cells.
    Thermometer(Vec<usize>),
    /// A killer cage: its cells hold distinct symbols, summing to `sum`
    /// when it is stated (a cage without a sum only forbids repeats). A
    /// cage with a sum is a CSP variable whose candidates are its possible
    /// combinations ([`cage_combinations`], [`super::Model::cages`]).
    KillerCage {
        cells: Vec<usize>,
        sum: Option<usize>,
    },
}

impl Variant {
    /// The variant's name in messages and docs.
    pub fn name(&self) -> &'static str {
        match self {
            Variant::MainDiagonal => "main diagonal",
            Variant::AntiDiagonal => "anti-diagonal",
            Variant::Windoku => "windoku",
            Variant::DisjointGroups => "disjoint groups",
            Variant::ExtraRegion(_) => "extra region",
            Variant::AntiKnight => "anti-knight",
            Variant::AntiKing => "anti-king",
            Variant::NonConsecutive => "non-consecutive",
            Variant::WhiteDot { .. } => "white dot",
            Variant::BlackDot { .. } => "black dot",
            Variant::NegativeBlack => "negative black dots",
            Variant::Xv { .. } => "XV mark",
            Variant::NegativeXv => "negative XV",
            Variant::Thermometer(_) => "thermometer",
            Variant::KillerCage { .. } => "killer cage",
        }
    }
}

/// Whether cells `a` and `b` of a grid of side `n` are orthogonal
/// neighbours.
pub fn orthogonal(n: usize, a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// Whether cells `a` and `b` touch (orthogonally or diagonally).
pub fn touching(n: usize, a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
    a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
}

fn name(n: usize, c: usize) -> String {
    format!("r{}c{}", c / n + 1, c % n + 1)
}

/// Checks each variant against the grid (cells in range, dots between
/// neighbours, thermometers along touching cells, windoku on 9×9,
/// disjoint groups with regular blocks): the first problem, or `Ok`.
pub fn validate(spec: &TypeSpec) -> Result<(), String> {
    let n = spec.n;
    let in_range = |c: usize| -> Result<(), String> {
        if c < n * n {
            Ok(())
        } else {
            Err(format!("cell {c} is outside the {n}×{n} grid"))
        }
    };
    let mut marked: BTreeSet<(usize, usize, &str)> = BTreeSet::new();
    for v in &spec.variants {
        match v {
            Variant::Windoku if n != 9 => {
                return Err(format!(
                    "windoku is defined on 9×9 grids, not {n}×{n} (write its windows as `houses`)"
                ));
            }
            Variant::DisjointGroups if spec.boxes.is_none() => {
                return Err(
                    "disjoint groups need regular blocks (`blocks:`), not irregular regions".into(),
                );
            }
            Variant::ExtraRegion(cells) => {
                for &c in cells {
                    in_range(c)?;
                }
                let set: BTreeSet<usize> = cells.iter().copied().collect();
                if set.len() != cells.len() {
                    return Err("an extra region lists a cell twice".into());
                }
                if cells.len() > n {
                    return Err(format!(
                        "an extra region holds each symbol at most once: it has {} cells, more than {n}",
                        cells.len()
                    ));
                }
            }
            Variant::WhiteDot { a, b, .. }
            | Variant::BlackDot { a, b, .. }
            | Variant::Xv { a, b, .. } => {
                in_range(*a)?;
                in_range(*b)?;
                if !orthogonal(n, *a, *b) {
                    return Err(format!(
                        "a {} is between two orthogonal neighbours, not {} and {}",
                        v.name(),
                        name(n, *a),
                        name(n, *b)
                    ));
                }
                let family = if matches!(v, Variant::Xv { .. }) {
                    "xv"
                } else if matches!(v, Variant::WhiteDot { .. }) {
                    "white"
                } else {
                    "black"
                };
                if !marked.insert(((*a).min(*b), (*a).max(*b), family)) {
                    return Err(format!(
                        "two {}s between {} and {}",
                        v.name(),
                        name(n, *a),
                        name(n, *b)
                    ));
                }
            }
            Variant::KillerCage { cells, sum } => {
                for &c in cells {
                    in_range(c)?;
                }
                let first = cells.first().map_or(String::new(), |&c| name(n, c));
                let set: BTreeSet<usize> = cells.iter().copied().collect();
                if cells.is_empty() {
                    return Err("a killer cage has one cell or more".into());
                }
                if set.len() != cells.len() {
                    return Err(format!("the killer cage at {first} lists a cell twice"));
                }
                if cells.len() > n {
                    return Err(format!(
                        "the killer cage at {first} has {} cells: its symbols differ, so it has at most {n}",
                        cells.len()
                    ));
                }
                if let &Some(sum) = sum {
                    let combos = cage_combinations(n, cells.len(), sum).len();
                    if combos == 0 {
                        return Err(format!(
                            "the killer cage at {first}: {} distinct numbers from 1 to {n} never sum to {sum}",
                            cells.len()
                        ));
                    }
                    if combos > MAX_CAGE_COMBINATIONS {
                        return Err(format!(
                            "the killer cage at {first} has {combos} combinations of {} numbers summing to {sum}, more than {MAX_CAGE_COMBINATIONS}",
                            cells.len()
                        ));
                    }
                }
            }
            Variant::Thermometer(cells) => {
                for &c in cells {
                    in_range(c)?;
                }
                if cells.len() < 2 {
                    return Err("a thermometer has two cells or more".into());
                }
                for w in cells.windows(2) {
                    if !touching(n, w[0], w[1]) {
                        return Err(format!(
                            "a thermometer goes from cell to touching cell, not from {} to {}",
                            name(n, w[0]),
                            name(n, w[1])
                        ));
                    }
                }
                let set: BTreeSet<usize> = cells.iter().copied().collect();
                if set.len() != cells.len() {
                    return Err("a thermometer passes a cell twice".into());
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The most combinations a cage may have: a CSP variable holds at most 64
/// candidates (the generic oracle keeps a variable's live candidates in
/// one word). On 9×9 a cage has at most 12 (4 cells summing to 20).
pub const MAX_CAGE_COMBINATIONS: usize = 64;

/// The combinations of a cage of `size` cells summing to `sum` in a grid
/// of side `n`: the sets of `size` distinct symbols (0-based, increasing;
/// symbol `s` counts `s + 1`) whose numbers sum to `sum`, in lexicographic
/// order. Stops counting past [`MAX_CAGE_COMBINATIONS`] + 1.
pub fn cage_combinations(n: usize, size: usize, sum: usize) -> Vec<Vec<usize>> {
    fn walk(
        n: usize,
        from: usize,
        left: usize,
        sum: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if out.len() > MAX_CAGE_COMBINATIONS {
            return;
        }
        if left == 0 {
            if sum == 0 {
                out.push(cur.clone());
            }
            return;
        }
        for s in from..n {
            // The smallest numbers still to come: s + 1, s + 2, …
            let least = left * (s + 1) + left * (left - 1) / 2;
            if least > sum {
                break;
            }
            cur.push(s);
            walk(n, s + 1, left - 1, sum - (s + 1), cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    if size <= n {
        walk(n, 0, size, sum, &mut Vec::with_capacity(size), &mut out);
    }
    out
}

/// Windoku's four windows of a 9×9 grid (rows and columns 2–4 and 6–8),
/// each in reading order.
pub fn windoku_windows() -> Vec<Vec<usize>> {
    [(1, 1), (1, 5), (5, 1), (5, 5)]
        .iter()
        .map(|&(r0, c0)| (0..9).map(|k| (r0 + k / 3) * 9 + c0 + k % 3).collect())
        .collect()
}

/// The houses a variant adds, each with its kind's name and prefix.
fn houses(spec: &TypeSpec, v: &Variant) -> Vec<(&'static str, &'static str, Vec<usize>)> {
    let n = spec.n;
    match v {
        Variant::MainDiagonal => vec![("diagonal", "d", (0..n).map(|i| i * n + i).collect())],
        Variant::AntiDiagonal => vec![(
            "diagonal",
            "d",
            (0..n).map(|i| i * n + (n - 1 - i)).collect(),
        )],
        Variant::Windoku => windoku_windows()
            .into_iter()
            .map(|cells| ("window", "w", cells))
            .collect(),
        Variant::DisjointGroups => {
            let (rows, cols) = spec.boxes.expect("validated: regular blocks");
            let per_row = n / cols;
            (0..n)
                .map(|pos| {
                    let cells = (0..n)
                        .map(|b| {
                            let (r0, c0) = (b / per_row * rows, b % per_row * cols);
                            (r0 + pos / cols) * n + c0 + pos % cols
                        })
                        .collect();
                    ("disjoint-group", "g", cells)
                })
                .collect()
        }
        Variant::ExtraRegion(cells) if cells.len() == n => {
            let mut cells = cells.clone();
            cells.sort_unstable();
            vec![("extra-region", "e", cells)]
        }
        _ => Vec::new(),
    }
}

/// Adds the houses and constraints of `spec.variants` to `spec` (once,
/// after every variant is known: the negative constraints leave out the
/// marked pairs). Constraints between cells that already share a house
/// and only forbid equal symbols are not added (the house links them).
pub fn apply(spec: &mut TypeSpec) -> Result<(), String> {
    validate(spec)?;
    let n = spec.n;
    let variants = spec.variants.clone();
    for v in &variants {
        for (kind, prefix, mut cells) in houses(spec, v) {
            cells.sort_unstable();
            if let Some(k) = spec.kinds.iter().find(|k| k.name == kind)
                && k.prefix != prefix
            {
                return Err(format!(
                    "kind `{kind}` of the {} has prefix `{}` in this type already",
                    v.name(),
                    k.prefix
                ));
            }
            if let Some(k) = spec
                .kinds
                .iter()
                .find(|k| k.prefix == prefix && k.name != kind)
            {
                return Err(format!(
                    "the {}'s houses are named `{prefix}…`, which kind `{}` uses already",
                    v.name(),
                    k.name
                ));
            }
            let kind = spec.add_kind(kind, prefix);
            let house = HouseSpec { kind, cells };
            match spec.houses.iter().rposition(|x| x.kind == kind) {
                Some(p) => spec.houses.insert(p + 1, house),
                None => spec.houses.push(house),
            }
        }
    }
    // Cells that share a house: a `≠` between them adds nothing.
    let mut house_of: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for (h, house) in spec.houses.iter().enumerate() {
        for &c in &house.cells {
            house_of[c].push(h);
        }
    }
    let share = |a: usize, b: usize| house_of[a].iter().any(|h| house_of[b].contains(h));
    let pair = |a: usize, b: usize| (a.min(b), a.max(b));
    let dots: BTreeSet<(usize, usize)> = variants
        .iter()
        .filter_map(|v| match v {
            Variant::WhiteDot { a, b, .. } | Variant::BlackDot { a, b, .. } => Some(pair(*a, *b)),
            _ => None,
        })
        .collect();
    let xv: BTreeSet<(usize, usize)> = variants
        .iter()
        .filter_map(|v| match v {
            Variant::Xv { a, b, .. } => Some(pair(*a, *b)),
            _ => None,
        })
        .collect();
    let neighbours = |d: &[(isize, isize)]| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in 0..n * n {
            let (r, c) = ((a / n) as isize, (a % n) as isize);
            for &(dr, dc) in d {
                let (r2, c2) = (r + dr, c + dc);
                if r2 < 0 || c2 < 0 || r2 >= n as isize || c2 >= n as isize {
                    continue;
                }
                let b = r2 as usize * n + c2 as usize;
                if a < b {
                    out.push((a, b));
                }
            }
        }
        out
    };
    const ORTHO: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    const KING: [(isize, isize); 8] = [
        (0, 1),
        (1, 0),
        (0, -1),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    const KNIGHT: [(isize, isize); 8] = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];
    let value = |s: usize| s + 1;
    let mut out: Vec<Constraint> = Vec::new();
    for v in &variants {
        match v {
            Variant::ExtraRegion(cells) | Variant::KillerCage { cells, .. }
                if cells.len() < n || matches!(v, Variant::KillerCage { .. }) =>
            {
                for (i, &a) in cells.iter().enumerate() {
                    for &b in &cells[i + 1..] {
                        if !share(a, b) {
                            out.push(Constraint::forbidding(a, b, n, |x, y| x == y));
                        }
                    }
                }
            }
            Variant::AntiKnight | Variant::AntiKing => {
                let d = if matches!(v, Variant::AntiKnight) {
                    &KNIGHT[..]
                } else {
                    &KING[..]
                };
                for (a, b) in neighbours(d) {
                    if !share(a, b) {
                        out.push(Constraint::forbidding(a, b, n, |x, y| x == y));
                    }
                }
            }
            Variant::NonConsecutive => {
                for (a, b) in neighbours(&ORTHO) {
                    if !dots.contains(&(a, b)) {
                        out.push(Constraint::forbidding(a, b, n, |x, y| x.abs_diff(y) == 1));
                    }
                }
            }
            Variant::NegativeBlack => {
                for (a, b) in neighbours(&ORTHO) {
                    if !dots.contains(&(a, b)) {
                        out.push(Constraint::forbidding(a, b, n, |x, y| {
                            value(x) == 2 * value(y) || value(y) == 2 * value(x)
                        }));
                    }
                }
            }
            Variant::NegativeXv => {
                for (a, b) in neighbours(&ORTHO) {
                    if !xv.contains(&(a, b)) {
                        out.push(Constraint::forbidding(a, b, n, |x, y| {
                            let s = value(x) + value(y);
                            s == 5 || s == 10
                        }));
                    }
                }
            }
            &Variant::WhiteDot { a, b, diff } => {
                out.push(Constraint::forbidding(a, b, n, |x, y| {
                    x.abs_diff(y) != diff
                }));
            }
            &Variant::BlackDot { a, b, ratio } => {
                out.push(Constraint::forbidding(a, b, n, |x, y| {
                    value(x) != ratio * value(y) && value(y) != ratio * value(x)
                }));
            }
            &Variant::Xv { a, b, sum } => {
                out.push(Constraint::forbidding(a, b, n, |x, y| {
                    value(x) + value(y) != sum
                }));
            }
            Variant::Thermometer(cells) => {
                for w in cells.windows(2) {
                    out.push(Constraint::less(w[0], w[1], n));
                }
            }
            _ => {}
        }
    }
    // A constraint that forbids nothing (a dot's own pair under a
    // negative rule it is exempt from never gets here) is dropped.
    out.retain(|c| !c.forbidden.is_empty());
    spec.constraints.extend(out);
    Ok(())
}
