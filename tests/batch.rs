//! `rate` as a batch (issue 27): slices with absolute line numbers, an
//! output file with its summary, SIGTERM (and SIGKILL) at random moments
//! then `--resume` (byte for byte an uninterrupted run, in text, CSV and
//! JSON), 20,000
//! records in 7 shards rated in any order and merged into the single run's
//! output, `merge` refusing gaps and overlaps, and bad values of every new
//! option refused with nothing overwritten.

use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

mod common;
use common::*;

/// The first 1000 puzzles of cbg-000, `times` times over.
fn sample_times(dir: &Path, times: usize) -> String {
    let one = fs::read_to_string(data(CBG_SAMPLE)).unwrap();
    let path = dir.join(format!("x{times}.txt"));
    fs::write(&path, one.repeat(times)).unwrap();
    path.display().to_string()
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    ruledoku_in(dir, args)
}

fn summary(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// A small generator of pseudo-random numbers (the moments of the signals).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn sigterm_at_random_moments_then_resume_is_the_uninterrupted_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample_times(dir.path(), 1);
    let mut interrupted = 0;
    let mut killed = 0;
    for (form, flag) in [
        ("text", None),
        ("csv", Some("--csv")),
        ("json", Some("--json")),
    ] {
        let mut base: Vec<&str> = vec!["rate", &input, "--rules", "sfin", "--no-time"];
        base.extend(flag);
        let whole = dir.path().join(format!("whole.{form}"));
        let mut args = base.clone();
        args.extend(["--output", whole.to_str().unwrap()]);
        assert_eq!(run_in(dir.path(), &args).code, Some(0));
        let expected = fs::read(&whole).unwrap();
        assert!(expected.len() > 50_000, "{form}");
        for seed in 1..=3u64 {
            let mut rng = Lcg(seed * 7919 + form.len() as u64);
            let out = dir.path().join(format!("cut-{seed}.{form}"));
            let mut args = base.clone();
            args.extend(["--output", out.to_str().unwrap(), "--resume"]);
            // Signals until a run completes (each run resumes the last).
            for attempt in 0.. {
                assert!(attempt < 40, "never completed");
                let (mut cmd, _) = command(&args);
                let mut child = cmd
                    .current_dir(dir.path())
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                std::thread::sleep(Duration::from_millis(20 + rng.below(300)));
                // Seed 3 starts with SIGKILL, as a node failure (no
                // warning; the summary may be up to a second behind the
                // output, or be the first one only).
                let signal = if seed == 3 && attempt == 0 {
                    libc::SIGKILL
                } else {
                    libc::SIGTERM
                };
                // SAFETY: kill on the child's own process id.
                unsafe { libc::kill(child.id() as i32, signal) };
                let status = child.wait().unwrap();
                match status.code() {
                    Some(0) => break,
                    None if signal == libc::SIGKILL => killed += 1,
                    Some(5) => {
                        interrupted += 1;
                        let part = dir.path().join(format!("cut-{seed}.{form}.part"));
                        let s =
                            summary(&dir.path().join(format!("cut-{seed}.{form}.summary.json")));
                        assert_eq!(s["done"], false);
                        assert_eq!(s["interrupted"], "SIGTERM");
                        // Every line written is complete and counted.
                        let text = fs::read(&part).unwrap();
                        assert_eq!(s["output_bytes"].as_u64(), Some(text.len() as u64));
                        assert!(text.is_empty() || text.ends_with(b"\n"));
                        let lines = text.iter().filter(|&&c| c == b'\n').count() as u64;
                        let header = u64::from(form == "csv" && !text.is_empty());
                        assert_eq!(s["records"].as_u64(), Some(lines - header));
                    }
                    other => panic!("exit status {other:?} (seed {seed}, {form})"),
                }
            }
            assert_eq!(fs::read(&out).unwrap(), expected, "seed {seed}, {form}");
            let s = summary(&dir.path().join(format!("cut-{seed}.{form}.summary.json")));
            assert_eq!(s["done"], true);
            assert_eq!(s["records"], 1000);
            assert!(!dir.path().join(format!("cut-{seed}.{form}.part")).exists());
        }
    }
    assert!(interrupted >= 4, "only {interrupted} runs were interrupted");
    assert_eq!(killed, 3, "one run killed per form");
}

#[test]
fn seven_shards_in_any_order_merge_into_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = sample_times(d, 20);
    let base = ["rate", &input, "--rules", "singles", "--no-time", "--csv"];
    let single = run_in(d, &[&base[..], &["--output", "single.csv"]].concat());
    assert_eq!(single.code, Some(0), "{}", single.stderr);
    for i in [5, 2, 7, 1, 4, 6, 3] {
        let shard = format!("{i}/7");
        let out = format!("s{i}.csv");
        let r = run_in(
            d,
            &[&base[..], &["--shard", &shard, "--output", &out]].concat(),
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let s = summary(&d.join(format!("s{i}.csv.summary.json")));
        assert_eq!(s["slice"]["total_records"], 20_000);
        let n = s["records"].as_u64().unwrap();
        assert!(n == 2857 || n == 2858, "{n}");
    }
    let m = run_in(
        d,
        &[
            "merge",
            "s3.csv",
            "s1.csv",
            "s7.csv",
            "s2.csv",
            "s6.csv",
            "s4.csv",
            "s5.csv",
            "--output",
            "merged.csv",
        ],
    );
    assert_eq!(m.code, Some(0), "{}", m.stderr);
    assert!(
        m.stderr
            .contains("merged 7 pieces: records 1–20000 of 20000, no gap, no overlap"),
        "{}",
        m.stderr
    );
    assert_eq!(
        fs::read(d.join("merged.csv")).unwrap(),
        fs::read(d.join("single.csv")).unwrap()
    );
    let (a, b) = (
        summary(&d.join("merged.csv.summary.json")),
        summary(&d.join("single.csv.summary.json")),
    );
    assert_eq!(a["records"], 20_000);
    assert_eq!(a["by_stop"], b["by_stop"]);
    assert_eq!(a["by_rating"], b["by_rating"]);
    // Line numbers are absolute: shard 2's first row is record 2858's line.
    let s2 = fs::read_to_string(d.join("s2.csv")).unwrap();
    assert!(s2.lines().nth(1).unwrap().starts_with("2858,"), "{s2:.200}");

    // A missing shard and an overlap are refused, and nothing is written.
    let gap = run_in(
        d,
        &[
            "merge", "s1.csv", "s2.csv", "s4.csv", "s5.csv", "s6.csv", "s7.csv", "--output",
            "g.csv",
        ],
    );
    assert_eq!(gap.code, Some(2));
    assert!(
        gap.stderr
            .contains("gap: records 5715–8571 are in no piece"),
        "{}",
        gap.stderr
    );
    let over = run_in(
        d,
        &[
            "merge", "s1.csv", "s2.csv", "s2.csv", "s3.csv", "s4.csv", "s5.csv", "s6.csv", "s7.csv",
        ],
    );
    assert_eq!(over.code, Some(2));
    assert!(
        over.stderr
            .contains("overlap: s2.csv starts at record 2858"),
        "{}",
        over.stderr
    );
    assert!(over.stdout.is_empty());
    let end = run_in(
        d,
        &[
            "merge", "s1.csv", "s2.csv", "s3.csv", "s4.csv", "s5.csv", "s6.csv",
        ],
    );
    assert!(
        end.stderr
            .contains("gap: the pieces end at record 17142 but the input has 20000 records"),
        "{}",
        end.stderr
    );
    assert!(!d.join("g.csv").exists() && !d.join("g.csv.part").exists());
    // Pieces made otherwise are refused.
    let r = run_in(
        d,
        &[
            "rate", &input, "--rules", "singles", "--csv", "--shard", "7/7", "--output", "t7.csv",
        ],
    );
    assert_eq!(r.code, Some(0));
    let other = run_in(
        d,
        &[
            "merge", "s1.csv", "s2.csv", "s3.csv", "s4.csv", "s5.csv", "s6.csv", "t7.csv",
        ],
    );
    assert_eq!(other.code, Some(2));
    assert!(
        other.stderr.contains("option no_time: true vs false"),
        "{}",
        other.stderr
    );
}

#[test]
fn slices_keep_absolute_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut text = cbg_input(20);
    text.insert_str(text.find('\n').unwrap() * 12 + 12, "12345\n"); // line 13: invalid
    fs::write(d.join("in.txt"), &text).unwrap();
    let rate = |extra: &[&str]| {
        run_in(
            d,
            &[
                &["rate", "in.txt", "--rules", "singles", "--no-time"][..],
                extra,
            ]
            .concat(),
        )
    };
    let all = rate(&[]);
    let lines = all.lines();
    assert_eq!(lines.len(), 21);
    let slice = rate(&["--skip", "10", "--limit", "5"]);
    assert_eq!(slice.lines(), lines[10..15].to_vec());
    assert_eq!(slice.code, Some(1), "an invalid record in the slice");
    assert!(slice.stderr.contains("in.txt:13:"), "{}", slice.stderr);
    assert!(
        slice.lines()[2].starts_with("13 - invalid"),
        "{}",
        slice.stdout
    );
    // The same slice piped in, with its line offset.
    let tail: String = text
        .lines()
        .skip(10)
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    let piped = ruledoku_stdin(
        [
            "rate",
            "-",
            "--rules",
            "singles",
            "--no-time",
            "--line-offset",
            "10",
        ],
        &tail,
    );
    assert_eq!(piped.stdout, slice.stdout);
    assert!(piped.stderr.contains("<stdin>:13:"), "{}", piped.stderr);
    // --limit 0 rates nothing; --skip past the end likewise.
    assert_eq!(rate(&["--limit", "0"]).stdout, "");
    assert_eq!(rate(&["--skip", "100"]).stdout, "");
}

#[test]
fn kept_fields_and_a_file_column() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = cbg_input(2);
    let lines: Vec<&str> = p.lines().collect();
    fs::write(d.join("a.txt"), format!("{} id-1 x\n", &lines[0][..81])).unwrap();
    fs::write(d.join("b.txt"), format!("{}\n", &lines[1][..81])).unwrap();
    let r = run_in(
        d,
        &[
            "rate",
            "a.txt",
            "b.txt",
            "--rules",
            "singles",
            "--no-time",
            "--keep-fields",
        ],
    );
    assert_eq!(r.code, Some(0));
    let out = r.lines();
    assert!(
        out[0].starts_with(&format!("a.txt 1 {} ", &lines[0][..81]))
            && out[0].ends_with("\tid-1 x"),
        "{out:?}"
    );
    assert!(
        out[1].starts_with("b.txt 1 ") && out[1].ends_with('\t'),
        "{out:?}"
    );
    let csv = run_in(
        d,
        &[
            "rate",
            "a.txt",
            "b.txt",
            "--rules",
            "singles",
            "--no-time",
            "--keep-fields",
            "--csv",
        ],
    );
    assert!(
        csv.lines()[0].starts_with("file,line,puzzle,")
            && csv.lines()[0].ends_with(",error,fields")
    );
    assert!(csv.lines()[1].starts_with("a.txt,1,") && csv.lines()[1].ends_with(",id-1 x"));
    let json = run_in(
        d,
        &[
            "rate",
            "a.txt",
            "b.txt",
            "--rules",
            "singles",
            "--no-time",
            "--keep-fields",
            "--json",
        ],
    );
    let o: Value = serde_json::from_str(json.lines()[0]).unwrap();
    assert_eq!(
        (o["file"].as_str(), o["line"].as_u64(), o["fields"].as_str()),
        (Some("a.txt"), Some(1), Some("id-1 x"))
    );
}

#[test]
fn bad_values_are_clear_errors_and_overwrite_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), cbg_input(30)).unwrap();
    for (shard, says) in [
        ("0/3", "from 1 to 3"),
        ("4/3", "from 1 to 3"),
        ("1/0", "1 or more"),
        ("a/b", "expected I/N"),
    ] {
        let r = run_in(
            d,
            &["rate", "in.txt", "--shard", shard, "--output", "o.txt"],
        );
        assert_eq!(r.code, Some(2), "{shard}");
        assert!(r.stderr.contains(says), "{shard}: {}", r.stderr);
    }
    assert!(fs::read_dir(d).unwrap().count() == 1, "nothing written");
    let r = ruledoku_stdin(["rate", "-", "--shard", "1/2"], "x\n");
    assert!(
        r.code == Some(2) && r.stderr.contains("--shard needs files"),
        "{}",
        r.stderr
    );
    let r = run_in(d, &["rate", "in.txt", "--resume"]);
    assert!(
        r.code == Some(2) && r.stderr.contains("--output"),
        "{}",
        r.stderr
    );

    // A complete output, then resumes with other options, another rule
    // set, another slice: refused before anything is touched.
    let ok = run_in(
        d,
        &[
            "rate",
            "in.txt",
            "--rules",
            "singles",
            "--no-time",
            "--output",
            "o.txt",
        ],
    );
    assert_eq!(ok.code, Some(0));
    let before = (
        fs::read(d.join("o.txt")).unwrap(),
        fs::read(d.join("o.txt.summary.json")).unwrap(),
    );
    for (extra, says) in [
        (
            &["--rules", "singles", "--no-time", "--csv"][..],
            "option form: \"csv\" vs \"text\"",
        ),
        (&["--rules", "sfin", "--no-time"][..], "rules: sfin"),
        (
            &["--rules", "singles", "--no-time", "--skip", "3"][..],
            "slice:",
        ),
        (&["--rules", "singles"][..], "option no_time: false vs true"),
    ] {
        let r = run_in(
            d,
            &[
                &["rate", "in.txt", "--output", "o.txt", "--resume"][..],
                extra,
            ]
            .concat(),
        );
        assert_eq!(r.code, Some(2), "{extra:?}");
        assert!(
            r.stderr.contains("was made otherwise, nothing overwritten") && r.stderr.contains(says),
            "{extra:?}: {}",
            r.stderr
        );
    }
    // Without --resume, an existing output is never overwritten.
    let r = run_in(
        d,
        &["rate", "in.txt", "--rules", "singles", "--output", "o.txt"],
    );
    assert!(
        r.code == Some(2) && r.stderr.contains("o.txt exists: nothing overwritten"),
        "{}",
        r.stderr
    );
    // The same command with --resume: complete already.
    let r = run_in(
        d,
        &[
            "rate",
            "in.txt",
            "--rules",
            "singles",
            "--no-time",
            "--output",
            "o.txt",
            "--resume",
        ],
    );
    assert!(
        r.code == Some(0) && r.stderr.contains("complete already"),
        "{}",
        r.stderr
    );
    let after = (
        fs::read(d.join("o.txt")).unwrap(),
        fs::read(d.join("o.txt.summary.json")).unwrap(),
    );
    assert!(before == after, "nothing overwritten");
    // A summary that is not one.
    fs::write(d.join("p.txt.summary.json"), "{}").unwrap();
    let r = run_in(d, &["rate", "in.txt", "--output", "p.txt", "--resume"]);
    assert!(
        r.code == Some(2) && r.stderr.contains("not a ruledoku summary"),
        "{}",
        r.stderr
    );
    let r = run_in(d, &["merge", "p.txt"]);
    assert!(
        r.code == Some(2) && r.stderr.contains("not a ruledoku summary"),
        "{}",
        r.stderr
    );
}
