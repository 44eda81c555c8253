//! f-puzzles puzzles (f-puzzles.com, the setters' editor): one record per
//! line, read into a puzzle type of its own (size, regions, variant
//! rules) and its givens; and written back.
//!
//! A record is the editor's address (`https://f-puzzles.com/?load=…`,
//! escapes such as `%2B` allowed), the compressed string alone
//! (lz-string's base64 form of the puzzle's JSON), or the JSON itself
//! (a line starting with `{`). Of the JSON ruledoku reads `size`, `grid`
//! (per cell `value` with `given: true`, and `region` for irregular
//! regions), the variant rules `diagonal+` / `diagonal-`, `antiknight`,
//! `antiking`, `nonconsecutive`, `disjointgroups`, `extraregion`,
//! `difference` (white dots), `ratio` (black dots), `xv`, `negative`
//! (`ratio`, `xv`), `thermometer`; and the metadata `title`, `author`,
//! `ruleset`, `solution` and the editor's display settings. Anything else
//! that is not empty (killer cages, arrows, cosmetic lines or text whose
//! meaning the rules text gives, …) is an error that names it: a puzzle
//! is never checked with a constraint silently left out.

use crate::model::spec::{HouseSpec, TypeSpec};
use crate::model::variant::{self, Variant};
use crate::model::{Family, Model};
use serde_json::{Map, Value, json};

/// The longest compressed record read: 64 KiB (a 16×16 puzzle with
/// hundreds of constraints is a few KiB; lz-string's output can grow
/// quadratically in its input, so the input is bounded).
pub const MAX_COMPRESSED: usize = 64 << 10;

/// The longest JSON record read: 4 MiB.
pub const MAX_JSON: usize = 4 << 20;

/// The address f-puzzles opens a puzzle at.
pub const URL_PREFIX: &str = "https://f-puzzles.com/?load=";

/// A puzzle read from an f-puzzles record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FPuzzle {
    /// Its own type: grid, regions and variant rules.
    pub spec: TypeSpec,
    /// Each cell's given symbol (0-based), `None` when empty.
    pub givens: Vec<Option<usize>>,
    /// The JSON's `title`, or empty.
    pub title: String,
}

/// The keys that carry no constraint (metadata and display).
const METADATA: [&str; 10] = [
    "activeConstraints",
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
];

/// Every variant key read.
const VARIANT_KEYS: [&str; 13] = [
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "disjointgroups",
    "extraregion",
    "difference",
    "ratio",
    "xv",
    "negative",
    "thermometer",
    "killercage",
];

/// The regular regions f-puzzles draws for a side: (rows, columns) of a
/// block, or `None` (the grid has no default regions).
pub fn default_blocks(n: usize) -> Option<(usize, usize)> {
    match n {
        4 => Some((2, 2)),
        6 => Some((2, 3)),
        8 => Some((2, 4)),
        9 => Some((3, 3)),
        10 => Some((2, 5)),
        12 => Some((3, 4)),
        14 => Some((2, 7)),
        15 => Some((3, 5)),
        16 => Some((4, 4)),
        _ => None,
    }
}

/// The JSON text of a record (address, compressed string or JSON).
pub fn decode(record: &str) -> Result<String, String> {
    let t = record.trim();
    if t.starts_with('{') {
        if t.len() > MAX_JSON {
            return Err(format!("JSON record longer than {MAX_JSON} bytes"));
        }
        return Ok(t.to_string());
    }
    let data = match t.find("load=") {
        Some(i) => &t[i + 5..],
        None if t.contains("f-puzzles.com") => {
            return Err("an f-puzzles address without `?load=`".into());
        }
        None => t,
    };
    let data = data.split(['&', '#']).next().unwrap_or("");
    let data = percent_decode(data)?.replace(' ', "+");
    if data.is_empty() {
        return Err("no puzzle data after `load=`".into());
    }
    if data.len() > MAX_COMPRESSED {
        return Err(format!(
            "compressed record longer than {MAX_COMPRESSED} bytes (not read)"
        ));
    }
    if let Some((i, c)) = data
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || "+/=-$".contains(c)))
    {
        return Err(format!(
            "character {c:?} at position {} is not base64 (the compressed form)",
            i + 1
        ));
    }
    let units = lz_str::decompress_from_base64(&data)
        .ok_or_else(|| "the compressed string does not decompress (bad base64 data)".to_string())?;
    let json = String::from_utf16(&units)
        .map_err(|_| "the decompressed data is not text (bad base64 data)".to_string())?;
    if !json.trim_start().starts_with('{') {
        return Err("the decompressed data is not a JSON object (bad base64 data)".into());
    }
    Ok(json)
}

fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad escape at position {} of the address", i + 1))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "escapes that are not UTF-8 in the address".into())
}

/// A cell name of f-puzzles (`R3C12`, any case) → its index.
fn cell(name: &Value, n: usize) -> Result<usize, String> {
    let s = name
        .as_str()
        .ok_or_else(|| format!("{name} is no cell name (expected \"R1C1\"…)"))?;
    let parsed = s
        .strip_prefix(['R', 'r'])
        .and_then(|x| x.split_once(['C', 'c']))
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    match parsed {
        Some((r, c)) if (1..=n).contains(&r) && (1..=n).contains(&c) => Ok((r - 1) * n + c - 1),
        _ => Err(format!(
            "{s:?} is no cell of a {n}×{n} grid (expected R1C1 to R{n}C{n})"
        )),
    }
}

fn cells(v: &Value, n: usize, what: &str) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or_else(|| format!("{what}: `cells` is not a list"))?
        .iter()
        .map(|c| cell(c, n))
        .collect()
}

/// The entries of a list-valued key.
fn entries<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(format!("`{key}` is not a list: {other}")),
    }
}

fn flag(o: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("`{key}` is not true or false: {other}")),
    }
}

/// Whether a key's value says nothing (absent, null, false, empty).
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::String(s) => s.is_empty(),
        Value::Number(_) => false,
    }
}

/// Reads a record's JSON into a puzzle.
pub fn from_json(text: &str) -> Result<FPuzzle, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
    let o = v.as_object().ok_or("the JSON is not an object")?;
    for (k, val) in o {
        if METADATA.contains(&k.as_str()) || VARIANT_KEYS.contains(&k.as_str()) || is_empty(val) {
            continue;
        }
        return Err(format!(
            "constraint `{k}` is not supported (ruledoku reads diagonals, antiknight, antiking, \
             nonconsecutive, disjointgroups, extraregion, difference, ratio, xv, negative, \
             thermometer and killercage; remove it to check the rest)"
        ));
    }
    let n = o
        .get("size")
        .and_then(Value::as_u64)
        .ok_or("no `size` (a whole number)")? as usize;
    if !(2..=crate::model::yaml::MAX_SIDE).contains(&n) {
        return Err(format!(
            "size {n}: the side is from 2 to {}",
            crate::model::yaml::MAX_SIDE
        ));
    }
    let grid = o
        .get("grid")
        .and_then(Value::as_array)
        .ok_or("no `grid` (a list of rows)")?;
    if grid.len() != n {
        return Err(format!("`grid` has {} rows, expected {n}", grid.len()));
    }
    let mut givens = vec![None; n * n];
    let mut region: Vec<Option<usize>> = vec![None; n * n];
    for (r, row) in grid.iter().enumerate() {
        let row = row
            .as_array()
            .ok_or_else(|| format!("`grid` row {} is not a list", r + 1))?;
        if row.len() != n {
            return Err(format!(
                "`grid` row {} has {} cells, expected {n}",
                r + 1,
                row.len()
            ));
        }
        for (c, cellv) in row.iter().enumerate() {
            let at = || format!("r{}c{}", r + 1, c + 1);
            let Some(co) = cellv.as_object() else {
                if cellv.is_null() {
                    continue;
                }
                return Err(format!("cell {} of `grid` is not an object", at()));
            };
            if co.get("given").and_then(Value::as_bool) == Some(true) {
                match co.get("value").and_then(Value::as_u64) {
                    Some(k) if (1..=n as u64).contains(&k) => {
                        givens[r * n + c] = Some(k as usize - 1)
                    }
                    Some(k) => {
                        return Err(format!("cell {}: given {k} is not from 1 to {n}", at()));
                    }
                    None => return Err(format!("cell {}: a given without a `value`", at())),
                }
            }
            match co.get("region") {
                None | Some(Value::Null) => {}
                Some(x) => match x.as_u64() {
                    Some(k) if (k as usize) < n => region[r * n + c] = Some(k as usize),
                    _ => {
                        return Err(format!(
                            "cell {}: region {x} is not from 0 to {}",
                            at(),
                            n - 1
                        ));
                    }
                },
            }
        }
    }
    let mut spec = TypeSpec::grid("f-puzzles", Family::User, n);
    let default = default_blocks(n);
    let block_of = |cell: usize| -> Option<usize> {
        let (rows, cols) = default?;
        let (r, c) = (cell / n, cell % n);
        Some(r / rows * (n / cols) + c / cols)
    };
    let jigsaw = (0..n * n).any(|c| region[c].is_some() && region[c] != block_of(c));
    if !jigsaw {
        if let Some((rows, cols)) = default {
            spec.add_blocks(rows, cols);
        }
    } else {
        let mut by_region: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (c, r) in region.iter().enumerate() {
            let k = r.or(block_of(c)).ok_or_else(|| {
                format!(
                    "cell r{}c{} has no region while others have one",
                    c / n + 1,
                    c % n + 1
                )
            })?;
            by_region[k].push(c);
        }
        if let Some((k, cs)) = by_region.iter().enumerate().find(|(_, cs)| cs.len() != n) {
            return Err(format!(
                "region {} has {} cells, expected {n}",
                k + 1,
                cs.len()
            ));
        }
        let kind = spec.add_kind("block", "b");
        for cs in by_region {
            spec.houses.push(HouseSpec { kind, cells: cs });
        }
    }
    let vs = &mut spec.variants;
    if flag(o, "diagonal-")? {
        vs.push(Variant::MainDiagonal);
    }
    if flag(o, "diagonal+")? {
        vs.push(Variant::AntiDiagonal);
    }
    if flag(o, "disjointgroups")? {
        vs.push(Variant::DisjointGroups);
    }
    for e in entries(o, "extraregion")? {
        let cs = cells(e.get("cells").unwrap_or(&Value::Null), n, "extraregion")?;
        vs.push(Variant::ExtraRegion(cs));
    }
    if flag(o, "antiknight")? {
        vs.push(Variant::AntiKnight);
    }
    if flag(o, "antiking")? {
        vs.push(Variant::AntiKing);
    }
    let number = |e: &Value, default: usize, what: &str| -> Result<usize, String> {
        match e.get("value") {
            None | Some(Value::Null) => Ok(default),
            Some(Value::String(s)) if s.is_empty() => Ok(default),
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map_err(|_| format!("{what}: value {s:?} is not a whole number")),
            Some(Value::Number(x)) => x
                .as_u64()
                .map(|x| x as usize)
                .ok_or_else(|| format!("{what}: value {x} is not a whole number")),
            Some(other) => Err(format!("{what}: value {other} is not a whole number")),
        }
    };
    let pair = |e: &Value, what: &str| -> Result<(usize, usize), String> {
        let cs = cells(e.get("cells").unwrap_or(&Value::Null), n, what)?;
        match cs[..] {
            [a, b] => Ok((a, b)),
            _ => Err(format!("{what}: {} cells, expected 2", cs.len())),
        }
    };
    for e in entries(o, "difference")? {
        let (a, b) = pair(e, "difference")?;
        let diff = number(e, 1, "difference")?;
        vs.push(Variant::WhiteDot { a, b, diff });
    }
    for e in entries(o, "ratio")? {
        let (a, b) = pair(e, "ratio")?;
        let ratio = number(e, 2, "ratio")?;
        vs.push(Variant::BlackDot { a, b, ratio });
    }
    let negative: Vec<&str> = entries(o, "negative")?
        .iter()
        .map(|x| {
            x.as_str()
                .ok_or(format!("`negative` holds {x}, not a name"))
        })
        .collect::<Result<_, _>>()?;
    if let Some(bad) = negative.iter().find(|x| !["ratio", "xv"].contains(x)) {
        return Err(format!(
            "negative constraint `{bad}` is not supported (only `ratio` and `xv`)"
        ));
    }
    if negative.contains(&"ratio") {
        vs.push(Variant::NegativeBlack);
    }
    if flag(o, "nonconsecutive")? {
        vs.push(Variant::NonConsecutive);
    }
    for e in entries(o, "xv")? {
        let (a, b) = pair(e, "xv")?;
        let sum = match e.get("value").and_then(Value::as_str) {
            Some("X") | Some("x") => 10,
            Some("V") | Some("v") => 5,
            other => {
                return Err(format!(
                    "xv: value {} is not X or V",
                    other.map_or("(none)".to_string(), |s| format!("{s:?}"))
                ));
            }
        };
        vs.push(Variant::Xv { a, b, sum });
    }
    if negative.contains(&"xv") {
        vs.push(Variant::NegativeXv);
    }
    for e in entries(o, "thermometer")? {
        let lines = e
            .get("lines")
            .and_then(Value::as_array)
            .ok_or("thermometer: no `lines`")?;
        for l in lines {
            vs.push(Variant::Thermometer(cells(l, n, "thermometer")?));
        }
    }
    for e in entries(o, "killercage")? {
        let cs = cells(
            e.get("cells").ok_or("killercage: no `cells`")?,
            n,
            "killercage",
        )?;
        // f-puzzles writes the sum as a string; a cage without one only
        // forbids repeats.
        let sum = match e.get("value") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => None,
            Some(Value::String(s)) => Some(
                s.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("killercage: value {s:?} is not a sum"))?,
            ),
            Some(Value::Number(k)) => Some(
                k.as_u64()
                    .ok_or(format!("killercage: value {k} is not a sum"))? as usize,
            ),
            Some(other) => return Err(format!("killercage: value {other} is not a sum")),
        };
        vs.push(Variant::KillerCage { cells: cs, sum });
    }
    variant::apply(&mut spec)?;
    let title = o
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    Ok(FPuzzle {
        spec,
        givens,
        title,
    })
}

/// The puzzle as f-puzzles JSON: its size, givens, regions when they are
/// not f-puzzles' default, and its variant rules. An error when the type
/// holds houses or constraints that f-puzzles cannot express (a
/// Futoshiki sign, a raw forbidden pair, a second kind of extra house
/// written as `houses`).
pub fn to_json(m: &Model, givens: &[Option<usize>]) -> Result<String, String> {
    let spec = &m.spec;
    let n = spec.n;
    if spec.puzzle_signs {
        return Err("f-puzzles has no inequality signs (Futoshiki)".into());
    }
    let name = |c: usize| format!("R{}C{}", c / n + 1, c % n + 1);
    let names = |cs: &[usize]| cs.iter().map(|&c| name(c)).collect::<Vec<_>>();
    let block_kind = spec.kinds.iter().position(|k| k.name == "block");
    let mut region = vec![None; n * n];
    if let Some(bk) = block_kind {
        for (k, h) in spec.houses.iter().filter(|h| h.kind == bk).enumerate() {
            for &c in &h.cells {
                region[c] = Some(k);
            }
        }
    }
    let default_regions = match default_blocks(n) {
        Some((rows, cols)) => {
            (0..n * n).all(|c| region[c] == Some(c / n / rows * (n / cols) + c % n / cols))
        }
        None => block_kind.is_none(),
    };
    let mut grid = Vec::with_capacity(n);
    for r in 0..n {
        let mut row = Vec::with_capacity(n);
        for c in 0..n {
            let mut o = Map::new();
            if let Some(s) = givens[r * n + c] {
                o.insert("value".into(), json!(s + 1));
                o.insert("given".into(), json!(true));
            }
            if !default_regions && let Some(k) = region[r * n + c] {
                o.insert("region".into(), json!(k));
            }
            row.push(Value::Object(o));
        }
        grid.push(Value::Array(row));
    }
    let mut o = Map::new();
    o.insert("size".into(), json!(n));
    o.insert("title".into(), json!(""));
    o.insert("author".into(), json!(""));
    o.insert("ruleset".into(), json!(""));
    o.insert("grid".into(), Value::Array(grid));
    let mut list = |key: &str, v: Value| {
        match o.entry(key.to_string()).or_insert_with(|| json!([])) {
            Value::Array(a) => a.push(v),
            _ => unreachable!("list keys hold lists"),
        };
    };
    for v in &spec.variants {
        match v {
            Variant::ExtraRegion(cs) => list("extraregion", json!({"cells": names(cs)})),
            &Variant::WhiteDot { a, b, diff } => {
                let mut e = json!({"cells": [name(a), name(b)]});
                if diff != 1 {
                    e["value"] = json!(diff.to_string());
                }
                list("difference", e);
            }
            &Variant::BlackDot { a, b, ratio } => {
                let mut e = json!({"cells": [name(a), name(b)]});
                if ratio != 2 {
                    e["value"] = json!(ratio.to_string());
                }
                list("ratio", e);
            }
            &Variant::Xv { a, b, sum } => {
                let value = match sum {
                    10 => "X",
                    5 => "V",
                    _ => return Err(format!("f-puzzles has no XV mark of sum {sum}")),
                };
                list("xv", json!({"cells": [name(a), name(b)], "value": value}));
            }
            Variant::Thermometer(cs) => list("thermometer", json!({"lines": [names(cs)]})),
            Variant::KillerCage { cells, sum } => {
                let mut e = json!({"cells": names(cells)});
                if let Some(s) = sum {
                    e["value"] = json!(s.to_string());
                }
                list("killercage", e);
            }
            Variant::NegativeBlack => list("negative", json!("ratio")),
            Variant::NegativeXv => list("negative", json!("xv")),
            Variant::Windoku => {
                for cs in variant::windoku_windows() {
                    list("extraregion", json!({"cells": names(&cs)}));
                }
            }
            _ => {}
        }
    }
    for (v, key) in [
        (Variant::MainDiagonal, "diagonal-"),
        (Variant::AntiDiagonal, "diagonal+"),
        (Variant::AntiKnight, "antiknight"),
        (Variant::AntiKing, "antiking"),
        (Variant::NonConsecutive, "nonconsecutive"),
        (Variant::DisjointGroups, "disjointgroups"),
    ] {
        if spec.variants.contains(&v) {
            o.insert(key.into(), json!(true));
        }
    }
    let text = Value::Object(o).to_string();
    // The written puzzle must read back as the same CSP: anything the
    // type holds beyond its variants (raw constraints, other houses) is
    // refused rather than dropped.
    let back = from_json(&text)?;
    if !same_csp(spec, &back.spec) {
        return Err(format!(
            "type {} has houses or constraints f-puzzles cannot express (only regions and the \
             variant rules are written)",
            spec.name
        ));
    }
    Ok(text)
}

/// The puzzle as an f-puzzles address.
pub fn to_url(m: &Model, givens: &[Option<usize>]) -> Result<String, String> {
    Ok(format!(
        "{URL_PREFIX}{}",
        lz_str::compress_to_base64(&to_json(m, givens)?)
    ))
}

/// Whether two types have the same houses (as sets of cells) and the
/// same forbidden pairs, whatever their names and order.
pub fn same_csp(a: &TypeSpec, b: &TypeSpec) -> bool {
    use std::collections::BTreeSet;
    let houses = |s: &TypeSpec| -> BTreeSet<Vec<usize>> {
        s.houses
            .iter()
            .map(|h| {
                let mut c = h.cells.clone();
                c.sort_unstable();
                c
            })
            .collect()
    };
    let pairs = |s: &TypeSpec| -> BTreeSet<(usize, usize, usize, usize)> {
        s.constraints
            .iter()
            .flat_map(|c| {
                c.forbidden.iter().map(move |&(x, y)| {
                    if c.a < c.b {
                        (c.a, x, c.b, y)
                    } else {
                        (c.b, y, c.a, x)
                    }
                })
            })
            .collect()
    };
    let cages = |s: &TypeSpec| -> BTreeSet<(Vec<usize>, usize)> {
        s.variants
            .iter()
            .filter_map(|v| match v {
                Variant::KillerCage {
                    cells,
                    sum: Some(sum),
                } => {
                    let mut c = cells.clone();
                    c.sort_unstable();
                    Some((c, *sum))
                }
                _ => None,
            })
            .collect()
    };
    a.n == b.n && houses(a) == houses(b) && pairs(a) == pairs(b) && cages(a) == cages(b)
}

/// The first two givens (in reading order) that a house or constraint of
/// One record read whole: an address or JSON decoded, its type built, and
/// its givens checked against that type's links (the error of whichever
/// stage fails).
pub fn read(record: &str) -> Result<(Model, Vec<Option<usize>>), String> {
    let p = from_json(&decode(record)?)?;
    let m = Model::build(p.spec);
    match contradiction(&m, &p.givens) {
        Some(e) => Err(e),
        None => Ok((m, p.givens)),
    }
}

/// `m` forbids together, as a message.
pub fn contradiction(m: &Model, givens: &[Option<usize>]) -> Option<String> {
    for (cell, g) in givens.iter().enumerate() {
        let Some(s) = *g else { continue };
        let z = m.cand(cell, s);
        for w in m.links(z) {
            let other = m.cand_cell(w);
            if other < cell && givens[other] == Some(m.cand_symbol(w)) {
                return Some(format!(
                    "givens {} and {} contradict each other",
                    m.asserted_name(w),
                    m.asserted_name(z)
                ));
            }
        }
    }
    None
}
