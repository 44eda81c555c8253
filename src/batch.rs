//! Batches cut into pieces: the slice of an input's records that one
//! process rates (`--skip`, `--limit`, `--shard i/n`, `--line-offset`),
//! the summary written beside a piece's output (what made it, how far it
//! got, its counts), and the check that pieces tile their input before
//! `merge` joins them. The command line's side (reading, writing, signals)
//! is `batch_cli.rs`; this module holds the arithmetic and the summary's
//! format, and imports nothing else of the crate.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of a summary's `summary` field: its kind and format version.
pub const SUMMARY_KIND: &str = "ruledoku batch summary 1";

/// `--shard I/N`: the `index`-th (1-based) of `count` contiguous slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parses `I/N` with 1 ≤ I ≤ N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let err = || format!("`{s}` is no shard: expected I/N with 1 ≤ I ≤ N, e.g. 3/8");
        let (i, n) = s.trim().split_once('/').ok_or_else(err)?;
        let index: u64 = i.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        if count == 0 {
            return Err(format!("`{s}`: the number of shards must be 1 or more"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "`{s}`: the shard number must be from 1 to {count} (shards are numbered from 1)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The records `[first, end)` of this shard among `total`: contiguous
    /// slices whose sizes differ by one at most, the larger ones last.
    pub fn range(self, total: u64) -> (u64, u64) {
        let cut = |k: u64| (u128::from(k) * u128::from(total) / u128::from(self.count)) as u64;
        (cut(self.index - 1), cut(self.index))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Which records of the input a piece holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Slice {
    /// `--shard`, as written (`3/8`), if given.
    pub shard: Option<String>,
    /// The index (0-based) of the slice's first record among the records
    /// of the inputs, as this process read them.
    pub first_record: u64,
    /// The records the slice holds at most (`None`: up to the end).
    pub limit: Option<u64>,
    /// The records of the inputs, when counted (with `--shard`).
    pub total_records: Option<u64>,
    /// `--line-offset`: the lines of the original input before this
    /// process's input (a slice piped in).
    pub line_offset: u64,
}

/// The sidecar summary of an output (`FILE.summary.json`). `Default`
/// is every count at zero, nothing done.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// [`SUMMARY_KIND`].
    pub summary: String,
    /// The version of ruledoku that wrote it, and the commit it was built
    /// from (`unknown` outside a git checkout).
    pub version: String,
    pub commit: String,
    /// The command (`rate`, or `merge` for a merged output).
    pub command: String,
    /// The rule set's name, as given, and the digest of its rules.
    pub rules: String,
    pub rules_digest: String,
    /// Every option that changes the output's bytes.
    pub options: BTreeMap<String, serde_json::Value>,
    /// The input files, as named on the command line (`-`: standard input).
    pub inputs: Vec<String>,
    pub slice: Slice,
    /// The output file (without `.part`).
    pub output: String,
    /// The bytes of the output that this summary accounts for; a resumed
    /// run cuts the output there and goes on.
    pub output_bytes: u64,
    /// Whether the slice is complete (the output has its final name).
    pub done: bool,
    /// The signal that stopped the run, when one did (`SIGTERM`, `SIGINT`).
    pub interrupted: Option<String>,
    /// Whether the records ran out before the slice's limit (the slice
    /// reaches the end of the input).
    pub reached_end: bool,
    /// The lines this process read, once at the end of its input.
    pub lines_read: Option<u64>,
    /// Records written: each has one line (a row, an object) of output.
    pub records: u64,
    /// The first and last input line of those records (absolute: with
    /// the line offset).
    pub first_line: Option<u64>,
    pub last_line: Option<u64>,
    /// Records that were not puzzles (stop `invalid`).
    pub invalid: u64,
    /// Records by stop reason (`solved`, `stuck`, …, `invalid`,
    /// `no-solution`, `multiple-solutions`).
    pub by_stop: BTreeMap<String, u64>,
    /// Rated records by rating.
    pub by_rating: BTreeMap<String, u64>,
    /// Processor time (user + system) and wall-clock time, summed over the
    /// runs that wrote this output (a resumed run adds its own).
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
    /// The largest resident set of the runs that wrote it, in KiB.
    #[serde(default)]
    pub max_rss_kib: u64,
    /// For a merged output: the pieces, in input order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<String>,
}

impl Summary {
    /// What made the output (version, commit, command, rule set, options,
    /// inputs, slice, output name), every count at zero.
    pub fn made_alike(&self) -> Summary {
        Summary {
            summary: self.summary.clone(),
            version: self.version.clone(),
            commit: self.commit.clone(),
            command: self.command.clone(),
            rules: self.rules.clone(),
            rules_digest: self.rules_digest.clone(),
            options: self.options.clone(),
            inputs: self.inputs.clone(),
            slice: self.slice.clone(),
            output: self.output.clone(),
            ..Summary::default()
        }
    }

    /// The summary's path for an output file: `FILE.summary.json`.
    pub fn path_for(output: &std::path::Path) -> std::path::PathBuf {
        let mut s = output.as_os_str().to_owned();
        s.push(".summary.json");
        s.into()
    }

    /// Adds one record's outcome.
    pub fn count(&mut self, line: u64, stop: &str, rating: Option<&str>) {
        self.records += 1;
        self.first_line.get_or_insert(line);
        self.last_line = Some(line);
        if stop == "invalid" {
            self.invalid += 1;
        }
        *self.by_stop.entry(stop.to_string()).or_default() += 1;
        if let Some(r) = rating {
            *self.by_rating.entry(r.to_string()).or_default() += 1;
        }
    }

    /// Records that were not rated: invalid, or without a unique solution.
    pub fn unrated(&self) -> u64 {
        ["invalid", "no-solution", "multiple-solutions"]
            .iter()
            .map(|k| self.by_stop.get(*k).copied().unwrap_or(0))
            .sum()
    }

    /// What makes two summaries' outputs comparable (the same program,
    /// rule set, options and inputs), as a list of differences, each
    /// `field: this vs other`.
    pub fn differences(&self, other: &Summary) -> Vec<String> {
        let mut d = Vec::new();
        let mut cmp = |name: &str, a: String, b: String| {
            if a != b {
                d.push(format!("{name}: {a} vs {b}"));
            }
        };
        cmp("version", self.version.clone(), other.version.clone());
        cmp("commit", self.commit.clone(), other.commit.clone());
        cmp(
            "rules",
            format!("{} ({})", self.rules, self.rules_digest),
            format!("{} ({})", other.rules, other.rules_digest),
        );
        cmp("inputs", self.inputs.join(" "), other.inputs.join(" "));
        let keys: std::collections::BTreeSet<&String> =
            self.options.keys().chain(other.options.keys()).collect();
        for k in keys {
            let show = |v: Option<&serde_json::Value>| v.map_or("-".into(), ToString::to_string);
            cmp(
                &format!("option {k}"),
                show(self.options.get(k)),
                show(other.options.get(k)),
            );
        }
        d
    }

    /// Adds another piece's counts and times (for `merge`).
    pub fn add(&mut self, other: &Summary) {
        self.records += other.records;
        self.invalid += other.invalid;
        for (k, v) in &other.by_stop {
            *self.by_stop.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &other.by_rating {
            *self.by_rating.entry(k.clone()).or_default() += v;
        }
        self.cpu_seconds += other.cpu_seconds;
        self.wall_seconds += other.wall_seconds;
        self.max_rss_kib = self.max_rss_kib.max(other.max_rss_kib);
        self.first_line = match (self.first_line, other.first_line) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last_line = self.last_line.max(other.last_line);
    }
}

/// What one piece covers, in records or in lines: `[start, start + len)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: u64,
    pub len: u64,
    /// The piece reaches the end of the input.
    pub to_end: bool,
}

/// Checks that named spans tile `[0, total)` (or `[0, end)` of the last
/// span when the total is unknown) with no gap and no overlap, and
/// returns their indices in order. `unit` names what is counted
/// (`record`, `line`) in messages, which number from 1.
pub fn tile(
    spans: &[(String, Span)],
    total: Option<u64>,
    unit: &str,
    need_end: bool,
) -> Result<Vec<usize>, String> {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| (spans[i].1.start, spans[i].1.len));
    let mut at = 0u64;
    let mut prev: Option<&str> = None;
    for &i in &order {
        let (name, s) = (&spans[i].0, spans[i].1);
        if s.start > at {
            return Err(format!(
                "gap: {unit}s {}–{} are in no piece (between {} and {name})",
                at + 1,
                s.start,
                prev.unwrap_or("the start of the input")
            ));
        }
        if s.start < at {
            return Err(format!(
                "overlap: {name} starts at {unit} {} but {} already covers {unit}s up to {at}",
                s.start + 1,
                prev.unwrap_or("?"),
            ));
        }
        at = s.start + s.len;
        prev = Some(name);
    }
    if let Some(t) = total
        && at != t
    {
        return Err(format!(
            "gap: the pieces end at {unit} {at} but the input has {t} {unit}s"
        ));
    }
    if need_end {
        let last = order.last().map(|&i| &spans[i]);
        if let Some((name, s)) = last
            && !s.to_end
        {
            return Err(format!(
                "gap: the last piece, {name}, ends at {unit} {at}, before the end of the input"
            ));
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_tile() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/3", "4/3", "1/0", "x/3", "3", "", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("0/3").unwrap_err().contains("from 1 to 3"));
        // 20,000 records in 7 shards: contiguous, sizes 2857 or 2858.
        let mut at = 0;
        for i in 1..=7 {
            let (a, b) = Shard { index: i, count: 7 }.range(20_000);
            assert_eq!(a, at);
            assert!(b - a == 2857 || b - a == 2858);
            at = b;
        }
        assert_eq!(at, 20_000);
        // More shards than records: some are empty.
        assert_eq!(Shard { index: 1, count: 3 }.range(2), (0, 0));
        assert_eq!(Shard { index: 3, count: 3 }.range(2), (1, 2));
    }

    fn span(start: u64, len: u64, to_end: bool) -> Span {
        Span { start, len, to_end }
    }

    #[test]
    fn tiling_finds_gaps_and_overlaps() {
        let named = |v: &[Span]| -> Vec<(String, Span)> {
            v.iter()
                .enumerate()
                .map(|(i, s)| (format!("p{i}"), *s))
                .collect()
        };
        let ok = named(&[span(10, 5, true), span(0, 10, false)]);
        assert_eq!(tile(&ok, Some(15), "record", true), Ok(vec![1, 0]));
        let gap = named(&[span(0, 10, false), span(11, 4, true)]);
        assert_eq!(
            tile(&gap, None, "record", true).unwrap_err(),
            "gap: records 11–11 are in no piece (between p0 and p1)"
        );
        let overlap = named(&[span(0, 10, false), span(9, 6, true)]);
        assert!(
            tile(&overlap, None, "record", true)
                .unwrap_err()
                .starts_with("overlap: p1 starts at record 10")
        );
        let short = named(&[span(0, 10, false)]);
        assert!(tile(&short, None, "record", true).is_err());
        assert!(tile(&short, Some(12), "record", false).is_err());
        assert_eq!(tile(&short, None, "line", false), Ok(vec![0]));
        let late = named(&[span(3, 10, true)]);
        assert!(
            tile(&late, None, "record", true)
                .unwrap_err()
                .contains("1–3")
        );
    }
}
