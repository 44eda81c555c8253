//! Unit tests of the input module: every format, every error kind, streaming
//! against whole-string parsing, and property tests of line accounting.

use super::*;
use std::io::{self, BufReader, Read};

use super::assemble::{
    EXPECTED_CANDIDATE, EXPECTED_MARK, find_duplicate, givens_masks, givens_text, marks_text,
};

/// A classic puzzle (Wikipedia's example).
const P: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Candidates left in `P` by its givens (basic eliminations only).
const PM: &str = "....5......3......12.4......2...6.........7...2.4.6.8.1..4...8912.4....9.2.4...8......6....2.4..7...2.4..7..1................9....5......34..78..234......2.4..78.12...............9.......8..23........34......2.4.....1.345.7.......6....2.4..7.........8.12..5....12..5...9....5.7.9.....6...1..4..7.....45.7.9.2.45...9..3.........4......2..5.....2..56..9.......8.....5......3..........5.7.9.2..5...91..............7..1...5....1.3.5...9....5...9.2.......1..4........45..89...45...9.....6...1.3.....9.....6...1.345.7.9..3.5.7....3.5..........7...2..............8....4......23.......2....78..23...7.....4.....1................9..3..6.....3..........5....123......12.45....12345.....23.56..........8..2...6...1.34.6.........7..........9";
/// The same candidates as SudoRules-style groups, one row per line.
const RS_ROWS: [&str; 9] = [
    "5 3 124 26 7 2468 1489 1249 248",
    "6 247 247 1 9 5 3478 234 2478",
    "12 9 8 23 34 24 13457 6 247",
    "8 125 1259 579 6 147 4579 2459 3",
    "4 25 2569 8 5 3 579 259 1",
    "7 15 1359 59 2 14 4589 459 6",
    "139 6 134579 357 35 7 2 8 4",
    "23 278 237 4 1 9 36 3 5",
    "123 1245 12345 2356 8 26 1346 7 9",
];

fn rows_of(p: &str) -> Vec<String> {
    (0..9).map(|r| p[r * 9..r * 9 + 9].to_owned()).collect()
}

fn spaced_grid(p: &str) -> String {
    let mut s = String::new();
    for (r, row) in rows_of(p).iter().enumerate() {
        if r == 3 || r == 6 {
            s.push_str("------+-------+------\n");
        }
        let cells: Vec<String> = row.chars().map(String::from).collect();
        s.push_str(&format!(
            "{} | {} | {}\n",
            cells[0..3].join(" "),
            cells[3..6].join(" "),
            cells[6..9].join(" ")
        ));
    }
    s
}

fn bordered_rs(sep: char) -> String {
    let bar = "   +-------------------+-------------------+-------------------+\n";
    let mut s = String::from(bar);
    for (r, row) in RS_ROWS.iter().enumerate() {
        let g: Vec<&str> = row.split(' ').collect();
        let band = |b: usize| {
            g[b * 3..b * 3 + 3]
                .iter()
                .map(|x| format!("{x:<6}"))
                .collect::<String>()
        };
        s.push_str(&format!(
            "   {sep} {}{sep} {}{sep} {}{sep}\n",
            band(0),
            band(1),
            band(2)
        ));
        if r % 3 == 2 {
            s.push_str(bar);
        }
    }
    s
}

fn one(text: &str) -> Puzzle {
    let recs = parse_str("t.txt", text);
    assert_eq!(recs.len(), 1, "{recs:#?}");
    match recs.into_iter().next() {
        Some(Ok(p)) => p,
        other => panic!("expected a puzzle, got {other:?}"),
    }
}

fn one_err(text: &str) -> InputError {
    let recs = parse_str("t.txt", text);
    assert_eq!(recs.len(), 1, "{recs:#?}");
    match recs.into_iter().next() {
        Some(Err(e)) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

/// (line, code) of each record: code "ok" for a puzzle.
fn summary(recs: &[Result<Puzzle, InputError>]) -> Vec<(usize, &'static str)> {
    recs.iter()
        .map(|r| match r {
            Ok(p) => (p.line, "ok"),
            Err(e) => (e.line, e.kind.code()),
        })
        .collect()
}

#[test]
fn line81_with_metadata() {
    let p = one(&format!("  {P} 126732  \n"));
    assert_eq!(p.format, Format::Line81);
    assert_eq!(p.line, 1);
    assert_eq!(p.last_line, 1);
    assert_eq!(p.metadata, "126732");
    assert_eq!(p.text, P);
    assert_eq!(p.givens[0], 5);
    assert_eq!(p.givens[2], 0);
    assert_eq!(p.masks[0], 1 << 4);
    assert_eq!(p.masks[2], 0x1FF);
    assert_eq!(p.given_count(), 30);
    assert_eq!(one(&format!("{P} 11.9/11.9/3.4")).metadata, "11.9/11.9/3.4");
    assert_eq!(one(&format!("{P}\t# a name ")).metadata, "# a name");
    assert_eq!(one(P).metadata, "");
}

#[test]
fn line81_empty_cell_characters() {
    for empty in ['0', '*', '_'] {
        let p = one(&P.replace('.', &empty.to_string()));
        assert_eq!(p.text, P);
        assert_eq!(p.format, Format::Line81);
    }
}

#[test]
fn grid9_plain() {
    let text = rows_of(P).join("\n");
    let p = one(&text);
    assert_eq!(p.format, Format::Grid9);
    assert_eq!((p.line, p.last_line), (1, 9));
    assert_eq!(p.text, P);
    assert_eq!(p.metadata, "");
}

#[test]
fn grid9_with_separators() {
    let p = one(&format!("\n\n{}", spaced_grid(P)));
    assert_eq!(p.format, Format::Grid9);
    assert_eq!((p.line, p.last_line), (3, 13));
    assert_eq!(p.text, P);

    let bar = "+-------+-------+-------+";
    let mut s = String::new();
    for (r, row) in rows_of(P).iter().enumerate() {
        if r % 3 == 0 {
            s.push_str(bar);
            s.push('\n');
        }
        let c: Vec<char> = row.chars().collect();
        s.push_str(&format!(
            "| {} {} {} ! {} {} {} | {} {} {} |\n",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
        ));
    }
    s.push_str(bar);
    let p = one(&s);
    assert_eq!((p.line, p.last_line), (1, 13));
    assert_eq!(p.text, P);

    // Rows grouped by bands, box-drawing borders.
    let mut s = String::from("┌───┬───┬───┐\n");
    for row in rows_of(P) {
        s.push_str(&format!("│{}│{}│{}│\n", &row[0..3], &row[3..6], &row[6..9]));
    }
    s.push_str("└───┴───┴───┘\n");
    assert_eq!(one(&s).text, P);
}

#[test]
fn pencil_marks_729() {
    let p = one(&format!("{PM} rated 7.1"));
    assert_eq!(p.format, Format::PencilMarks729);
    assert_eq!(p.text, PM);
    assert_eq!(p.metadata, "rated 7.1");
    assert_eq!(p.givens, [0; 81]);
    assert_eq!(p.masks[0], 1 << 4);
    assert_eq!(p.masks[2], 0b1011); // 1, 2, 4
    // '0' for absent candidates.
    assert_eq!(one(&PM.replace('.', "0")).text, PM);
}

#[test]
fn pencil_marks_as_groups() {
    let groups: Vec<&str> = (0..81).map(|c| &PM[c * 9..c * 9 + 9]).collect();
    let p = one(&format!("{} 42", groups.join(" ")));
    assert_eq!(p.format, Format::PencilMarks729);
    assert_eq!(p.text, PM);
    assert_eq!(p.metadata, "42");
}

#[test]
fn resolution_state() {
    for sep in ['!', '|'] {
        let text = format!("Resolution state after Singles:\n{}", bordered_rs(sep));
        let p = one(&text);
        assert_eq!(p.format, Format::ResolutionState);
        assert_eq!((p.line, p.last_line), (1, 14));
        assert_eq!(p.text, PM);
        assert_eq!(p.givens, [0; 81]);
    }
    // Without borders.
    let p = one(&RS_ROWS.join("\n"));
    assert_eq!(p.format, Format::ResolutionState);
    assert_eq!(p.text, PM);
}

/// `ruledoku solve` prints `Resolution state:` above the grid it got stuck
/// on; SudoRules prints `Resolution state after …:`. Either label is read
/// with its grid, as one record starting at the label.
#[test]
fn resolution_state_label_introduces_its_grid() {
    for label in [
        "Resolution state:",
        "Resolution state after Singles and whips[1]:",
        "  Resolution state:  ",
    ] {
        let p = one(&format!("{label}\n{}", bordered_rs('!')));
        assert_eq!(p.format, Format::ResolutionState, "{label:?}");
        assert_eq!((p.line, p.last_line), (1, 14), "{label:?}");
        assert_eq!(p.text, PM);
        let p = one(&format!("{label}\n{}", RS_ROWS.join("\n")));
        assert_eq!((p.line, p.last_line, p.text.as_str()), (1, 10, PM));
    }
    // Amid other records: the label ends what came before it.
    let text = format!("{P}\nResolution state:\n{}{P}\n", bordered_rs('!'));
    let recs = parse_str("t.txt", &text);
    assert_eq!(summary(&recs), vec![(1, "ok"), (2, "ok"), (16, "ok")]);
    // Two grids back to back: the label goes with the first.
    let text = format!(
        "Resolution state:\n{}{}",
        bordered_rs('!'),
        bordered_rs('!')
    );
    let recs = parse_str("t.txt", &text);
    assert_eq!(summary(&recs), vec![(1, "ok"), (15, "ok")]);
    check_accounting(&text, &recs);
}

/// A fully solved grid under a label is still a candidate state, not givens.
#[test]
fn labelled_solved_grid_reads_as_candidates() {
    let sol = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let rows: Vec<String> = rows_of(sol)
        .iter()
        .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join("  "))
        .collect();
    let p = one(&format!("Resolution state:\n{}", rows.join("\n")));
    assert_eq!(p.format, Format::ResolutionState);
    assert_eq!(p.givens, [0; 81]);
    assert_eq!(
        p.masks,
        givens_masks(&std::array::from_fn(|i| sol.as_bytes()[i] - b'0'))
    );
}

#[test]
fn error_label_without_grid() {
    let e = one_err("Resolution state:");
    assert_eq!(
        e.to_string(),
        "t.txt:1: \"Resolution state:\" is not directly followed by a 9-row grid"
    );
    assert_eq!(e.kind.code(), "label-without-grid");
    // A blank line, a comment or a one-line record between label and grid.
    for gap in ["", "# the grid", P] {
        let text = format!("Resolution state:\n{gap}\n{}", bordered_rs('!'));
        let recs = parse_str("t.txt", &text);
        let mut want = vec![(1, "label-without-grid")];
        if gap == P {
            want.push((2, "ok"));
        }
        want.push((3, "ok"));
        assert_eq!(summary(&recs), want, "{gap:?}");
        check_accounting(&text, &recs);
    }
    // The label and the separator lines under it make one error.
    let e = one_err("Resolution state after Singles:\n+-----+-----+\n");
    assert_eq!(e.kind.code(), "label-without-grid");
    assert_eq!((e.first_line, e.last_line), (1, 2));
    // Two labels: the first one has no grid.
    let recs = parse_str("t.txt", &format!("Resolution state:\n{}", one_label_grid()));
    assert_eq!(summary(&recs), vec![(1, "label-without-grid"), (2, "ok")]);
    // A label over too few rows, or over a grid of givens.
    let e = one_err(&format!("Resolution state:\n{}", RS_ROWS[..3].join("\n")));
    assert_eq!(e.to_string(), "t.txt:1: grid has 3 rows, expected 9");
    assert_eq!((e.first_line, e.last_line), (1, 4));
    let e = one_err(&format!("Resolution state:\n{}", rows_of(P).join("\n")));
    assert_eq!(e.kind.code(), "bad-char");
    // Other text is still no puzzle.
    for text in [
        "Resolution state: x",
        "resolution state:",
        "Resolution state after",
    ] {
        assert_eq!(one_err(text).kind.code(), "not-a-puzzle", "{text:?}");
    }
}

fn one_label_grid() -> String {
    format!("Resolution state:\n{}", bordered_rs('!'))
}

/// Files saved by Windows editors start with a byte-order mark: it used to
/// make the first puzzle a "bad character '\u{feff}'".
#[test]
fn byte_order_mark_is_skipped() {
    let text = format!("\u{feff}{P}\r\n{P}\r\n");
    let recs = parse_str("t.txt", &text);
    assert_eq!(summary(&recs), vec![(1, "ok"), (2, "ok")]);
    let streamed: Vec<_> = PuzzleReader::new("t.txt", text.as_bytes()).collect();
    assert_eq!(streamed, recs);
    assert_eq!(
        parse_puzzle(&format!("\u{feff}{P}")).map(|p| p.text),
        Ok(P.to_owned())
    );
    // Columns count from after the mark.
    let e = one_err(&format!("\u{feff}x{}", &P[1..]));
    assert_eq!(
        e.to_string(),
        "t.txt:1:1: bad character 'x' (expected 1-9, '.' or '0')"
    );
    // Only at the start of the input.
    let e = one_err(&format!("# a comment\n\u{feff}{P}"));
    assert_eq!(e.kind.code(), "bad-char");
}

#[test]
fn too_long_lines_are_errors_unless_comments() {
    let long = "1".repeat(MAX_LINE_BYTES + 1);
    let text = format!("{P}\n{long}\n# {long}\n{P}\n");
    let recs = parse_str("t.txt", &text);
    assert_eq!(
        summary(&recs),
        vec![(1, "ok"), (2, "line-too-long"), (4, "ok")]
    );
    assert_eq!(
        recs[1].as_ref().unwrap_err().to_string(),
        format!("t.txt:2: line longer than {MAX_LINE_BYTES} bytes: not a puzzle")
    );
    let streamed: Vec<_> =
        PuzzleReader::new("t.txt", BufReader::with_capacity(4096, text.as_bytes())).collect();
    assert_eq!(streamed, recs);
    // A line of exactly the limit is read as usual.
    let e = one_err(&"1".repeat(MAX_LINE_BYTES));
    assert_eq!(e.kind.code(), "wrong-length");
}

/// The reader keeps no more of a line than the limit: an endless line of
/// NUL bytes (as from `/dev/zero`) does not fill the memory.
#[test]
fn reader_memory_is_bounded_on_an_endless_line() {
    let zeros = io::repeat(0).take(8 * MAX_LINE_BYTES as u64);
    let mut reader = PuzzleReader::new("zeros", BufReader::new(zeros));
    assert_eq!(
        summary(&reader.by_ref().collect::<Vec<_>>()),
        vec![(1, "line-too-long")]
    );
    assert!(
        reader.lines.buf.capacity() <= 2 * (MAX_LINE_BYTES + 1),
        "{}",
        reader.lines.buf.capacity()
    );
}

/// A too-long line is reported as soon as the limit is passed, not when the
/// line ends: on endless input (`ruledoku check /dev/zero`) the user sees the
/// error at once instead of a silent run. The rest of a cut line is skipped,
/// whatever its terminator.
#[test]
fn a_too_long_line_is_reported_before_its_end() {
    let mut endless = PuzzleReader::new("zeros", BufReader::new(io::repeat(0)));
    let first = endless.next().expect("a record");
    assert_eq!(first.unwrap_err().kind.code(), "line-too-long");
    for eol in ["\n", "\r\n", "\r"] {
        let long = "1".repeat(3 * MAX_LINE_BYTES);
        let text = format!("{long}{eol}{P}{eol}");
        let recs: Vec<_> =
            PuzzleReader::new("t.txt", BufReader::with_capacity(4096, text.as_bytes())).collect();
        assert_eq!(
            summary(&recs),
            vec![(1, "line-too-long"), (2, "ok")],
            "{eol:?}"
        );
    }
}

#[test]
fn solved_candidate_grid_reads_as_givens() {
    let sol = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let text: Vec<String> = rows_of(sol)
        .iter()
        .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join("  "))
        .collect();
    let p = one(&text.join("\n"));
    assert_eq!(p.format, Format::Grid9);
    assert_eq!(p.text, sol);
    assert_eq!(p.given_count(), 81);
}

#[test]
fn error_wrong_length() {
    let e = one_err(&P[..80]);
    assert_eq!(e.kind, ErrorKind::WrongLength { found: 80 });
    assert_eq!(
        e.to_string(),
        "t.txt:1:81: line has 80 cell characters, expected 81 (or 729 for pencil marks)"
    );
    let e = one_err(&format!("{P}. 5"));
    assert_eq!(e.kind, ErrorKind::WrongLength { found: 82 });
    let e = one_err(&PM[..728]);
    assert_eq!(e.kind, ErrorKind::WrongLength { found: 728 });
}

#[test]
fn error_bad_char() {
    let mut s: Vec<char> = P.chars().collect();
    s[39] = 'x';
    let text: String = s.into_iter().collect();
    let recs = parse_str(
        "puzzles.txt",
        &format!("{P}\n{P}\n# c\n\n\n\n\n\n\n\n\n{text} 1"),
    );
    let Some(Err(e)) = recs.get(2) else {
        panic!("{recs:?}")
    };
    assert_eq!(
        e.to_string(),
        "puzzles.txt:12:40: bad character 'x' (expected 1-9, '.' or '0')"
    );
    assert_eq!(e.column, Some(40));
    // In a pencil-mark line.
    let e = one_err(&format!("*{}", &PM[1..]));
    assert_eq!(
        e.kind,
        ErrorKind::BadChar {
            ch: '*',
            expected: EXPECTED_MARK
        }
    );
    // In a grid row, with the column in that row.
    let mut rows = rows_of(P);
    rows[4] = "4..8.3z.1".to_owned();
    let e = one_err(&rows.join("\n"));
    assert_eq!((e.line, e.column), (5, Some(7)));
    assert_eq!((e.first_line, e.last_line), (1, 9));
    assert_eq!(e.kind.code(), "bad-char");
    // In a candidate grid.
    let mut rows = RS_ROWS.map(String::from);
    rows[1] = rows[1].replace("247 1", "247 a");
    let e = one_err(&rows.join("\n"));
    assert_eq!((e.line, e.column), (2, Some(11)));
    assert_eq!(
        e.kind,
        ErrorKind::BadChar {
            ch: 'a',
            expected: EXPECTED_CANDIDATE
        }
    );
}

#[test]
fn error_duplicate_givens() {
    // Row: r3c7 gets a second 9 (r3c2 has one); no 9 in column 7 or block 3.
    let mut g: Vec<char> = P.chars().collect();
    g[2 * 9 + 6] = '9';
    let text: String = g.iter().collect();
    let e = one_err(&text);
    assert_eq!(
        e.kind,
        ErrorKind::DuplicateGiven {
            digit: 9,
            house: House::Row(3),
            first: 19,
            second: 24
        }
    );
    assert_eq!(
        e.to_string(),
        "t.txt:1:25: digit 9 given twice in row 3 (r3c2, r3c7)"
    );
    // Column: r9c1 gets a second 5 (r1c1).
    let mut g: Vec<char> = P.chars().collect();
    g[72] = '5';
    let e = one_err(&g.iter().collect::<String>());
    assert_eq!(
        e.to_string(),
        "t.txt:1:73: digit 5 given twice in column 1 (r1c1, r9c1)"
    );
    // Block: r2c3 gets a second 8 (r3c3 has one; reading order finds r3c3 second).
    let mut g: Vec<char> = P.chars().collect();
    g[11] = '8';
    g[20] = '.';
    g[19] = '8'; // r3c2 = 8, r2c3 = 8: same block, different rows and columns
    let e = one_err(&g.iter().collect::<String>());
    assert_eq!(
        e.to_string(),
        "t.txt:1:20: digit 8 given twice in block 1 (r2c3, r3c2)"
    );
    // In a grid: line and column of the second cell.
    let mut rows = rows_of(P);
    rows[8] = "5...8..79".to_owned(); // 5 in column 1 again
    let e = one_err(&format!("# grid\n{}", spaced_grid(&rows.concat())));
    assert_eq!(
        e.to_string(),
        "t.txt:12:1: digit 5 given twice in column 1 (r1c1, r9c1)"
    );
    assert_eq!((e.first_line, e.last_line), (2, 12));
}

#[test]
fn error_no_candidate() {
    let text = format!("{}.........{}", &PM[..9 * 40], &PM[9 * 41..]);
    let e = one_err(&text);
    assert_eq!(e.to_string(), "t.txt:1:361: r5c5 has no candidate");
    let mut rows = RS_ROWS.map(String::from);
    rows[3] = "8 125 1259 579 . 147 4579 2459 3".to_owned();
    let e = one_err(&rows.join("\n"));
    assert_eq!(e.to_string(), "t.txt:4:16: r4c5 has no candidate");
    // A candidate with a single candidate clashing with a neighbour is fine.
    let text = format!("{}....5....{}", &PM[..9], &PM[18..]);
    assert_eq!(one(&text).masks[1], 1 << 4);
}

#[test]
fn error_misplaced_candidate_and_group_length() {
    let text = format!("5........{}", &PM[9..]);
    let e = one_err(&text);
    assert_eq!(
        e.kind,
        ErrorKind::MisplacedCandidate {
            cell: 0,
            digit: 5,
            position: 1
        }
    );
    assert_eq!(e.column, Some(1));
    let mut groups: Vec<&str> = (0..81).map(|c| &PM[c * 9..c * 9 + 9]).collect();
    groups[10] = "12";
    let e = one_err(&groups.join(" "));
    assert_eq!(
        e.kind,
        ErrorKind::GroupLength {
            group: 11,
            found: 2
        }
    );
    assert_eq!(e.column, Some(101));
}

#[test]
fn error_grid_rows_and_row_cells() {
    let rows = rows_of(P);
    let e = one_err(&rows[..8].join("\n"));
    assert_eq!(e.to_string(), "t.txt:1: grid has 8 rows, expected 9");
    assert_eq!((e.first_line, e.last_line), (1, 8));
    let spaced = spaced_grid(P);
    let lines: Vec<&str> = spaced.lines().collect();
    let e = one_err(&lines[..6].join("\n"));
    assert_eq!(e.kind, ErrorKind::GridRows { found: 5 });

    let mut rows = rows_of(P);
    rows[3] = "8...6...3.".to_owned();
    let e = one_err(&rows.join("\n"));
    assert_eq!(
        e.to_string(),
        "t.txt:4: grid row 4 has 10 cells, expected 9"
    );
    let mut rows = RS_ROWS.map(String::from);
    rows[6] = "139 6 134579 357 35 7 2 8".to_owned();
    let e = one_err(&rows.join("\n"));
    assert_eq!(e.to_string(), "t.txt:7: grid row 7 has 8 cells, expected 9");
}

#[test]
fn error_not_a_puzzle_and_stray_separator() {
    let e = one_err("  hello world");
    assert_eq!(e.to_string(), "t.txt:1:3: not a puzzle: \"hello world\"");
    let e = one_err("(solve \"53..7....\")");
    assert_eq!(e.kind.code(), "not-a-puzzle");
    let e = one_err("-----\n+---+");
    assert_eq!(e.to_string(), "t.txt:1: separator line outside a grid");
    assert_eq!((e.first_line, e.last_line), (1, 2));
}

#[test]
fn short_lines_versus_grids() {
    // A short line on its own or amid one-line puzzles is a wrong-length line.
    let recs = parse_str("t", &format!("{P}\n12345\n{P}"));
    assert_eq!(
        summary(&recs),
        vec![(1, "ok"), (2, "wrong-length"), (3, "ok")]
    );
    let recs = parse_str("t", "12345\n6789.\n..x");
    assert_eq!(
        summary(&recs),
        vec![(1, "wrong-length"), (2, "wrong-length"), (3, "bad-char")]
    );
    // Lines shaped like grid rows make a grid block.
    assert_eq!(one_err("53..7....").kind, ErrorKind::GridRows { found: 1 });
    // Grids written back to back.
    let plain = rows_of(P).join("\n");
    let recs = parse_str("t", &format!("{plain}\n{plain}\n{plain}"));
    assert_eq!(summary(&recs), vec![(1, "ok"), (10, "ok"), (19, "ok")]);
    let bordered = format!("+---+\n{}+---+", spaced_grid(P));
    let recs = parse_str("t", &format!("{bordered}\n{bordered}"));
    assert_eq!(summary(&recs), vec![(1, "ok"), (14, "ok")]);
    assert_eq!(
        recs.iter()
            .map(|r| r.as_ref().map(|p| p.last_line).unwrap_or(0))
            .collect::<Vec<_>>(),
        vec![13, 26]
    );
    let shared = format!("{}------\n{}", spaced_grid(P), spaced_grid(P));
    let recs = parse_str("t", &shared);
    assert_eq!(summary(&recs), vec![(1, "ok"), (12, "ok")]);
    // A block that cannot be cut into grids: no grid is made up.
    let mut ten = rows_of(P);
    ten.insert(4, "8...6...3".to_owned());
    let recs = parse_str("t", &format!("{plain}\n{}\n\n{P}", ten.join("\n")));
    assert_eq!(
        summary(&recs),
        vec![(1, "ok"), (10, "grid-rows"), (21, "ok")]
    );
    let Err(e) = &recs[1] else { unreachable!() };
    assert_eq!(e.kind, ErrorKind::GridRows { found: 10 });
    assert_eq!((e.first_line, e.last_line), (10, 19));
}

#[test]
fn line_endings() {
    let text = format!("# c\r\n{P} 1\r\n\r\n{}\r{P}\r", rows_of(P).join("\r\n"));
    let recs = parse_str("t", &text);
    assert_eq!(summary(&recs), vec![(2, "ok"), (4, "ok"), (13, "ok")]);
    assert_eq!(recs[0].as_ref().map(|p| p.metadata.clone()), Ok("1".into()));
}

#[test]
fn reader_matches_parse_str() {
    let text = format!(
        "# mixed\r\n{P} 1\n\n{}\r\n\r{}\n12345\nhello\n{PM}",
        spaced_grid(P).replace('\n', "\r\n"),
        bordered_rs('!')
    );
    let expected = parse_str("r", &text);
    for cap in [1, 2, 3, 7, 64, 1 << 16] {
        let reader = PuzzleReader::new("r", BufReader::with_capacity(cap, text.as_bytes()));
        assert_eq!(reader.collect::<Vec<_>>(), expected, "capacity {cap}");
    }
}

#[test]
fn reader_reports_io_error_once() {
    struct Failing(usize);
    impl io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            let line = format!("{P}\n");
            buf[..82].copy_from_slice(line.as_bytes());
            Ok(82)
        }
    }
    let reader = PuzzleReader::new("f", BufReader::with_capacity(100, Failing(2)));
    let recs: Vec<_> = reader.collect();
    assert_eq!(summary(&recs), vec![(1, "ok"), (2, "ok"), (3, "io")]);
    assert_eq!(
        recs[2].as_ref().err().map(|e| e.to_string()),
        Some("f:3: read error: disk on fire".to_owned())
    );
}

#[test]
fn open_file_and_missing_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("p.txt");
    std::fs::write(&path, format!("{P}\n{PM}\n")).expect("write");
    let recs: Vec<_> = open(path.to_str().expect("utf-8 path"))
        .expect("open")
        .collect();
    assert_eq!(summary(&recs), vec![(1, "ok"), (2, "ok")]);
    assert!(open("/nonexistent/dir/p.txt").is_err());
}

#[test]
fn parse_puzzle_single_string() {
    assert_eq!(parse_puzzle(P).map(|p| p.text), Ok(P.to_owned()));
    assert_eq!(
        parse_puzzle(&spaced_grid(P)).map(|p| p.format),
        Ok(Format::Grid9)
    );
    assert_eq!(
        parse_puzzle(&bordered_rs('|')).map(|p| p.format),
        Ok(Format::ResolutionState)
    );
    let e = parse_puzzle(&P[1..]).unwrap_err();
    assert_eq!(e.source_name, "<arg>");
    assert_eq!(e.kind, ErrorKind::WrongLength { found: 80 });
    assert_eq!(
        parse_puzzle(" \n# x\n").unwrap_err().kind,
        ErrorKind::NoPuzzle
    );
    assert_eq!(
        parse_puzzle(&format!("{P}\n{P}")).unwrap_err().kind,
        ErrorKind::ExtraInput { found: 2 }
    );
    assert_eq!(
        parse_puzzle(&format!("{P}\nhello"))
            .unwrap_err()
            .kind
            .code(),
        "not-a-puzzle"
    );
}

#[test]
fn mixed_file_with_errors() {
    let mut rows = rows_of(P);
    rows[2] = ".98....6".to_owned(); // row with 8 cells
    let text = [
        "# mixed formats",                         // 1
        &format!("{P} 126732"),                    // 2  ok
        "",                                        // 3
        &P[..79],                                  // 4  wrong length
        &format!("{P} # name"),                    // 5  ok
        "   # indented comment",                   // 6
        &rows_of(P).join("\n"),                    // 7-15 ok grid
        "",                                        // 16
        &rows.join("\n"),                          // 17-25 row cells (line 19)
        "stray",                                   // 26 not a puzzle
        bordered_rs('!').trim_end(),               // 27-39 ok resolution state
        &format!("{PM} pm"),                       // 40 ok
        &format!("{}x{}", &PM[..100], &PM[101..]), // 41 bad char
        "\t",                                      // 42
        &P.replace('.', "0"),                      // 43 ok
    ]
    .join("\n");
    let recs = parse_str("m.txt", &text);
    assert_eq!(
        summary(&recs),
        vec![
            (2, "ok"),
            (4, "wrong-length"),
            (5, "ok"),
            (7, "ok"),
            (19, "row-cells"),
            (26, "not-a-puzzle"),
            (27, "ok"),
            (40, "ok"),
            (41, "bad-char"),
            (43, "ok"),
        ]
    );
    let formats: Vec<Format> = recs
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|p| p.format)
        .collect();
    assert_eq!(
        formats,
        vec![
            Format::Line81,
            Format::Line81,
            Format::Grid9,
            Format::ResolutionState,
            Format::PencilMarks729,
            Format::Line81
        ]
    );
    let Err(e) = &recs[8] else { unreachable!() };
    assert_eq!(e.column, Some(101));
    check_accounting(&text, &recs);
}

#[test]
fn broken_file() {
    let text = include_str!("../../tests/data/broken.txt");
    let recs = parse_str("broken.txt", text);
    let errors: Vec<(usize, &str)> = recs
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|e| (e.line, e.kind.code()))
        .collect();
    assert_eq!(
        errors,
        vec![
            (8, "wrong-length"),
            (11, "bad-char"),
            (13, "duplicate-given"),
            (15, "duplicate-given"),
            (17, "duplicate-given"),
            (22, "no-candidate"),
            (38, "grid-rows"),
            (48, "not-a-puzzle"),
        ]
    );
    let houses: Vec<String> = recs
        .iter()
        .filter_map(|r| match r {
            Err(InputError {
                kind: ErrorKind::DuplicateGiven { house, .. },
                ..
            }) => Some(house.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(houses, vec!["row 1", "column 1", "block 1"]);
    let good: Vec<(usize, Format)> = recs
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|p| (p.line, p.format))
        .collect();
    assert_eq!(
        good,
        vec![
            (5, Format::Line81),
            (6, Format::Line81),
            (9, Format::Line81),
            (20, Format::PencilMarks729),
            (25, Format::Grid9),
            (51, Format::ResolutionState),
            (66, Format::Grid9),
            (76, Format::Line81),
            (77, Format::Line81),
        ]
    );
    check_accounting(text, &recs);
    for e in recs.iter().filter_map(|r| r.as_ref().err()) {
        assert!(e.to_string().starts_with(&format!("broken.txt:{}", e.line)));
    }
}

/// The reference collection, when it is there: `$RULEDOKU_DATA/cbg-000/puzzles.txt`,
/// by default `../shared/data/` beside the crate. Says so when it is skipped.
#[test]
fn reference_collection() {
    let dir = std::env::var_os("RULEDOKU_DATA").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        std::path::PathBuf::from,
    );
    let path = dir.join("cbg-000/puzzles.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "skipped: reference collection {} is missing (set RULEDOKU_DATA)",
            path.display()
        );
        return;
    };
    let path = path.to_str().expect("a UTF-8 path");
    let start = std::time::Instant::now();
    let recs = parse_str("puzzles.txt", &text);
    let elapsed = start.elapsed();
    eprintln!("parsed {} records in {elapsed:?}", recs.len());
    assert_eq!(recs.len(), 21_375);
    for (i, r) in recs.iter().enumerate() {
        let p = r.as_ref().expect("all puzzles valid");
        assert_eq!(p.line, i + 1);
        assert_eq!(p.format, Format::Line81);
        assert!(!p.metadata.is_empty());
    }
    let start = std::time::Instant::now();
    let n = open(path).expect("open").filter(Result::is_ok).count();
    eprintln!("streamed {n} records in {:?}", start.elapsed());
    assert_eq!(n, 21_375);
}

// -----------------------------------------------------------------------
// Accounting and property tests

/// Every non-blank, non-comment line lies in exactly one record's range, records
/// come in order and cover nothing else; puzzles are self-consistent.
fn check_accounting(text: &str, recs: &[Result<Puzzle, InputError>]) {
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines: Vec<&str> = normalized.split('\n').collect();
    if normalized.ends_with('\n') || normalized.is_empty() {
        lines.pop();
    }
    let content: Vec<bool> = lines
        .iter()
        .map(|l| {
            let t = l.trim();
            !(t.is_empty() || t.starts_with('#'))
        })
        .collect();
    let mut covered = vec![0usize; lines.len()];
    let mut prev_end = 0;
    for r in recs {
        let (a, b) = match r {
            Ok(p) => {
                if p.format.is_candidates() {
                    assert_eq!(p.givens, [0; 81]);
                    assert_eq!(p.text, marks_text(&p.masks));
                } else {
                    assert_eq!(p.masks, givens_masks(&p.givens));
                    assert_eq!(p.text, givens_text(&p.givens));
                    assert_eq!(find_duplicate(&p.givens), None);
                }
                assert!(p.masks.iter().all(|&m| m != 0 && m <= 0x1FF));
                (p.line, p.last_line)
            }
            Err(e) => {
                assert!(e.first_line <= e.line && e.line <= e.last_line, "{e:?}");
                (e.first_line, e.last_line)
            }
        };
        assert!(
            a >= 1 && a <= b && b <= lines.len(),
            "range {a}..={b} of {r:?}"
        );
        assert!(a > prev_end, "records out of order at {a}");
        prev_end = b;
        for i in a..=b {
            assert!(content[i - 1], "line {i} is blank/comment but in {r:?}");
            covered[i - 1] += 1;
        }
    }
    for (i, (&c, &n)) in content.iter().zip(&covered).enumerate() {
        if c {
            assert_eq!(n, 1, "line {} ({:?}) accounted {n} times", i + 1, lines[i]);
        }
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    const GOOD: [&str; 4] = [
        P,
        "...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361",
        "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75",
        ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.",
    ];

    fn mutate(s: &str, pos: usize, op: u8, ch: char) -> String {
        let mut v: Vec<char> = s.chars().collect();
        let pos = pos % (v.len() + 1);
        match op % 4 {
            0 => v.truncate(pos),
            1 => v.insert(pos, ch),
            2 if pos < v.len() => v[pos] = ch,
            _ if pos < v.len() => {
                v.remove(pos);
            }
            _ => {}
        }
        v.into_iter().collect()
    }

    fn near_char() -> impl Strategy<Value = char> {
        prop_oneof![
            prop::sample::select(vec![
                '1', '5', '9', '0', '.', '*', '_', ' ', '\t', '|', '!', '-', '+', '#', 'x', '\r',
                '\n', 'é', '│'
            ]),
            any::<char>(),
        ]
    }

    fn grid_block() -> impl Strategy<Value = String> {
        (0..GOOD.len(), 0..4u8, any::<usize>(), 0..5u8, near_char()).prop_map(
            |(i, style, pos, op, ch)| {
                let mut lines: Vec<String> = match style {
                    0 => rows_of(GOOD[i]),
                    1 => spaced_grid(GOOD[i]).lines().map(String::from).collect(),
                    2 => bordered_rs('!').lines().map(String::from).collect(),
                    _ => RS_ROWS.iter().map(|s| s.to_string()).collect(),
                };
                let at = pos % lines.len();
                match op {
                    0 => {}
                    1 => {
                        lines.remove(at);
                    }
                    2 => {
                        let l = lines[at].clone();
                        lines.insert(at, l);
                    }
                    3 => lines[at] = mutate(&lines[at], pos / 7, (pos / 3) as u8, ch),
                    _ => lines[at].clear(),
                }
                lines.join("\n")
            },
        )
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => prop::sample::select(GOOD.to_vec()).prop_map(|s| format!("{s} 12345")),
            3 => (prop::sample::select(GOOD.to_vec()), any::<usize>(), any::<u8>(), near_char())
                .prop_map(|(s, pos, op, ch)| mutate(s, pos, op, ch)),
            1 => (any::<usize>(), any::<u8>(), near_char())
                .prop_map(|(pos, op, ch)| mutate(PM, pos, op, ch)),
            2 => "[1-9.]{7,10}",
            2 => "[1-9. |!+-]{0,24}",
            1 => "[-+|!= ]{0,30}",
            1 => "( [1-9]{1,4}){8,10}",
            1 => "[ \t]*#.{0,20}",
            2 => "[ \t]{0,3}",
            1 => "[a-z]{1,8}( [a-z0-9]{1,5})?",
            1 => prop::sample::select(vec!["Resolution state:", "Resolution state after Singles:"])
                .prop_map(String::from),
            1 => any::<String>(),
            2 => grid_block(),
        ]
    }

    fn terminator() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["\n", "\n", "\n", "\r\n", "\r"])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn random_lines_are_all_accounted_for(
            parts in prop::collection::vec((line(), terminator()), 0..40),
            last in prop::bool::ANY,
        ) {
            let mut text = String::new();
            for (l, t) in &parts {
                text.push_str(l);
                text.push_str(t);
            }
            if last {
                text.push_str(P);
            }
            let recs = parse_str("p", &text);
            check_accounting(&text, &recs);
            let streamed: Vec<_> =
                PuzzleReader::new("p", BufReader::with_capacity(5, text.as_bytes())).collect();
            prop_assert_eq!(streamed, recs);
        }

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..3000)) {
            let text = String::from_utf8_lossy(&bytes);
            let recs = parse_str("b", &text);
            check_accounting(&text, &recs);
            let streamed: Vec<_> =
                PuzzleReader::new("b", BufReader::with_capacity(16, &bytes[..])).collect();
            prop_assert_eq!(streamed, recs);
            let _ = parse_puzzle(&text);
        }

        #[test]
        fn random_ascii_never_panics(text in "[0-9. |!+\\-#a-z\\n\\r\\t*_]{0,2000}") {
            let recs = parse_str("a", &text);
            check_accounting(&text, &recs);
        }
    }
}
