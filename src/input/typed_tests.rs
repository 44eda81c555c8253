//! Tests of the typed reader: every format of every type, and the errors.

use super::ErrorKind;
use super::typed::{TypedFormat, TypedPuzzle, parse_typed};
use crate::model::{Model, builtin::builtin};

fn model(name: &str) -> Model {
    Model::build(builtin(name).unwrap())
}

fn ok(m: &Model, text: &str) -> Vec<TypedPuzzle> {
    parse_typed(m, "t", text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn err(m: &Model, text: &str) -> String {
    let recs = parse_typed(m, "t", text);
    let e = recs
        .iter()
        .find_map(|r| r.as_ref().err())
        .unwrap_or_else(|| panic!("no error in {text:?}"));
    e.to_string()
}

const TAREK: &str = "\
 . . . . C . . . . B . 1 8 . 6 . 
 1 5 . E . . 7 4 D . . . C . B . 
 . . B . . 9 . . . . 5 . . . . . 
 3 A . . . . G F 8 6 . . . . 4 E 
 9 F . . . . . 2 A E . . . . G . 
 . . 7 . . E . . . . 9 . . 3 . . 
 E . . G . . 1 B . 4 . . 7 . 8 . 
 . C . 8 6 . D . . . . F 5 . . . 
 . . . 6 E . . . . F . 9 1 . 2 . 
 G . . 3 . . 6 . . A . . D . . C 
 . . 5 . . 2 . . . . 6 . . 4 . . 
 A . . . . . . 5 7 8 . . . . . G 
 . 8 . . . . . . B 9 . . . . 5 . 
 . . 1 . . 7 . . . . E . . B . . 
 . E . B 8 . 2 . . C . . 4 . A 9 
 . 7 . D . . 9 . . 3 . A 6 . C . 
";

#[test]
fn sixteen_by_sixteen_grids_and_lines() {
    let m = model("sudoku:16");
    let p = ok(&m, TAREK);
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].line, p[0].last_line, p[0].format),
        (1, 16, TypedFormat::Grid)
    );
    assert_eq!(p[0].given_count(), 91);
    assert_eq!(p[0].givens[4], Some(11), "C is 12");
    assert_eq!(p[0].givens[9 * 16], Some(15), "G is 16");
    // Its line form reads back to the same puzzle, with metadata.
    let line = format!("{} W9\n", p[0].text);
    let q = ok(&m, &line);
    assert_eq!(
        (q[0].givens.clone(), q[0].format),
        (p[0].givens.clone(), TypedFormat::Line)
    );
    assert_eq!(q[0].metadata, "W9");
    // Numbers work as well as letters, in a token line.
    let tokens: Vec<String> = p[0]
        .givens
        .iter()
        .map(|g| g.map_or(".".to_string(), |s| (s + 1).to_string()))
        .collect();
    assert_eq!(ok(&m, &tokens.join(" "))[0].givens, p[0].givens);
}

#[test]
fn grids_with_bands_separated_by_blank_lines() {
    // A 6×6 Sudoku (2×3 blocks): bands of two rows.
    let m = model("sudoku:6");
    let text = "1 2 3 4 5 6\n4 5 6 1 2 3\n\n2 3 1 5 6 4\n5 6 4 2 3 1\n\n3 1 2 6 4 5\n6 4 5 3 1 2\n";
    let p = ok(&m, text);
    assert_eq!((p.len(), p[0].line, p[0].last_line), (1, 1, 8));
    assert_eq!(p[0].text, "123456456123231564564231312645645312");
    // A blank line inside a band ends the grid.
    let e = err(&m, "1 2 3 4 5 6\n\n4 5 6 1 2 3\n");
    assert!(e.starts_with("t:1: grid has 1 row, expected 6"), "{e}");
}

#[test]
fn latin_squares_in_every_form() {
    let m = model("latin:9");
    let line = "....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8";
    let grid: String = line
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    let a = ok(&m, line);
    let b = ok(&m, &grid);
    assert_eq!(a[0].givens, b[0].givens);
    assert_eq!(a[0].given_count(), 38);
    // 13×13 pandiagonal with letters and trailing text.
    let p = model("pandiagonal:13");
    let x = ok(
        &p,
        "12..56.8...C..4.......................................A.......................................................B.D..........D.B.......BD............9.....7...9.......C.A.  note",
    );
    assert_eq!((x[0].given_count(), x[0].metadata.as_str()), (19, "note"));
}

#[test]
fn large_types_read_numbers() {
    let m = model("sudoku:36");
    let row: Vec<String> = (1..=36).map(|k| k.to_string()).collect();
    let mut text = String::new();
    for r in 0..36 {
        let mut cells = vec!["."; 36];
        cells[r] = &row[r];
        text.push_str(&format!(" {} \n", cells.join(" ")));
    }
    let p = ok(&m, &text);
    assert_eq!(p[0].given_count(), 36);
    assert!(p[0].text.starts_with("1 . ."), "{}", &p[0].text[..10]);
    assert_eq!(ok(&m, &p[0].text)[0].givens, p[0].givens);
}

#[test]
fn errors_have_line_and_column() {
    let m = model("latin:4");
    for (text, want) in [
        ("123.\n4...\n....\n", "t:1: grid has 3 rows, expected 4"),
        (
            "12341234123412341\n",
            "t:1:1: line has 17 cells, expected 16",
        ),
        ("1234\n2x41\n3412\n4123\n", "t:2:2: bad symbol \"x\""),
        (
            "1234\n234\n3412\n4123\n",
            "t:2: grid row 2 has 3 cells, expected 4",
        ),
        (
            "1.1.............\n",
            "t:1:3: givens r1c1 = 1 and r1c3 = 1 contradict each other (both in row 1)",
        ),
        (
            "1...\n....\n1...\n....\n",
            "t:3:1: givens r1c1 = 1 and r3c1 = 1 contradict each other (both in column 1)",
        ),
        ("---\n", "t:1: separator line outside a grid"),
    ] {
        let e = err(&m, text);
        assert!(e.starts_with(want), "{text:?}:\n got  {e}\n want {want}");
    }
    let s = model("sudoku:4");
    let e = err(&s, "1...\n.1..\n....\n....\n");
    assert!(e.contains("(both in block 1)"), "{e}");
    // A bad record does not stop the others.
    let recs = parse_typed(&m, "t", "1234\n\n12.4341221434321\n123\n");
    let kinds: Vec<bool> = recs.iter().map(Result::is_ok).collect();
    assert_eq!(kinds, [false, true, false]);
}

// CSP-Rules' 7×7 ATK H733 (Futoshiki/ATK/7x7-H733-W9,gW8,gB7.clp).
const H733: &str = "\
\".................................................\"
\"<--<<-->->>---<>>------>>>--<-<-<----><---\"
\"----->-<---------->----------------<>->---\"
";

#[test]
fn futoshiki_in_csp_rules_layout() {
    let m = model("futoshiki:7");
    let p = ok(&m, H733);
    assert_eq!((p.len(), p[0].line, p[0].last_line), (1, 1, 3));
    // The path starts asc[1]: r1c1<r1c2, r2c7<r1c7, r7c1<r6c1<r6c2.
    let has = |a: usize, b: usize| p[0].signs.iter().any(|c| (c.a, c.b) == (a, b));
    assert!(has(0, 1), "r1c1 < r1c2");
    assert!(has(13, 6), "r2c7 < r1c7");
    assert!(has(42, 35) && has(35, 36), "r7c1 < r6c1 < r6c2");
    assert!(has(32, 33), "r5c5 < r5c6");
    assert_eq!(p[0].signs.len(), 17 + 6);
    // The one-line form check prints reads back the same.
    let q = ok(&m, &p[0].text);
    assert_eq!(q[0].signs, p[0].signs);
    assert_eq!(q[0].format, TypedFormat::Signs);
}

#[test]
fn futoshiki_in_tathams_form() {
    // Tatham's 9x9-Extreme-W2, as CSP-Rules' (solve-tatham 9 "...").
    let m = model("futoshiki:9");
    let desc = "0D,0,0D,0,0R,0D,0RD,0D,0D,0,0R,0D,0R,0R,0,0L,0R,0,0R,0,0D,0,0,0D,0D,0R,0,0U,0,0,0,0L,0,0,4,0L,0U,0,3L,0UR,0,0,0,0,0U,3D,0,0R,0,0U,0,0L,0U,0U,0,0D,0L,0L,0,0,0,0U,0UD,0U,0,0D,0L,0R,0,0L,0DL,0L,0,8,0R,0,0U,0,0UL,0R,0,";
    let t = ok(&m, desc);
    // CSP-Rules' translation of it.
    let csp = "..................................4...3......3...........................8....... \
               ---->->-->->><->>------>---<---<-<->------>--<---<<-------<-><<<-->--<-> \
               >-<<-><------->->>>---->---<--------<--<>->----->->----<>---<<->>--<<<>-";
    let c = ok(&m, csp);
    assert_eq!(t[0].text, c[0].text);
    assert_eq!(t[0].format, TypedFormat::Tatham);
    let mut a = t[0].signs.clone();
    let mut b = c[0].signs.clone();
    a.sort_by_key(|x| (x.a, x.b));
    b.sort_by_key(|x| (x.a, x.b));
    assert_eq!(a, b);
    // Tatham's own examples: run-length letters and a size prefix.
    let g = model("futoshiki:5");
    let p = ok(
        &g,
        "5:0,0,0,4L,0L,0,2LU,0L,0U,0,0,0U,0,0,0,0,0D,0,3LRUD,0,0R,3,0L,0,0,",
    );
    assert_eq!(p[0].given_count(), 4);
    let q = ok(&g, "b2,a3L,t");
    assert_eq!(q[0].givens[2], Some(1));
    assert_eq!(q[0].givens[4], Some(2));
}

#[test]
fn futoshiki_errors() {
    let m = model("futoshiki:3");
    for (text, want) in [
        (
            "0,0,0,0,0,0,0,0\n",
            "t:1:15: Tatham description: 8 cells, expected 9",
        ),
        (
            "0U,0,0,0,0,0,0,0,0\n",
            "t:1:1: Tatham description: the mark U of r1c1 points off the grid",
        ),
        (
            "0R,0L,0,0,0,0,0,0,0\n",
            "t:1:1: Tatham description: r1c1 and r1c2 are each marked greater",
        ),
        (
            "0,4,0,0,0,0,0,0,0\n",
            "t:1:3: Tatham description: number 4 out of range",
        ),
        (
            "4:0,0\n",
            "t:1:1: Tatham description: the puzzle is of size 4",
        ),
        (
            "0X,0,0,0,0,0,0,0,0\n",
            "t:1:2: Tatham description: expected a mark",
        ),
        (
            "11.......\n<-----\n------\n",
            "t:1:2: givens r1c1 = 1 and r1c2 = 1",
        ),
        (
            "21.......\n<-----\n------\n",
            "t:1:2: givens r1c1 = 2 and r1c2 = 1 contradict each other (the sign r1c1 < r1c2)",
        ),
        (
            ".........\n<----\n------\n",
            "t:2:1: the row-inequality line has 5 signs, expected 6",
        ),
        (".........\n<--x--\n------\n", "t:2:4: bad character 'x'"),
        (
            ".........\n<-----\n",
            "t:1: the givens are not followed by their column-inequality line",
        ),
        (
            "........\n<-----\n------\n",
            "t:1:1: line has 8 cells, expected 9",
        ),
    ] {
        let e = err(&m, text);
        assert!(e.starts_with(want), "{text:?}:\n got  {e}\n want {want}");
    }
    assert!(matches!(
        parse_typed(&m, "t", "0R,0L,0,0,0,0,0,0,0")[0]
            .as_ref()
            .unwrap_err()
            .kind,
        ErrorKind::Tatham { .. }
    ));
}
