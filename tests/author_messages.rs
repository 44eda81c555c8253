//! Messages a rule author met (issue 25), each in full: file, line,
//! column, what was expected, and what to write instead.

mod common;

use common::*;
use ruledoku::lang::{Diagnostics, compile_source};

/// The errors of `src` (file `a.rules`) as `rules check` prints them.
fn rendered(src: &str) -> String {
    match compile_source("a.rules", src) {
        Ok(r) => panic!("compiled {} rule(s), expected errors", r.len()),
        Err(es) => Diagnostics(es).to_string(),
    }
}

/// A rule whose clauses are `body`.
fn rule(body: &str) -> String {
    format!("rule a {{\n{body}\n}}\n")
}

const HEAD: &str = "    complexity 1\n    level 1";

#[test]
fn a_negative_complexity_says_what_is_allowed() {
    let src = rule("    complexity -1\n    let C: cell\n    eliminate cands(C)");
    assert_eq!(
        rendered(&src),
        "error: syntax error: expected an expression, found `-1`; `complexity` is a whole number, 0 or more: a number, a family parameter, or `+ - *` of them (`100 * N + 17`)
  --> a.rules:2:16
  |
2 |     complexity -1
  |                ^

1 error(s)"
    );
    let src = rule("    complexity 1\n    level -2\n    let C: cell\n    eliminate cands(C)");
    assert_eq!(
        places(&errors(&src)),
        [(
            3,
            11,
            "syntax error: expected an expression, found `-2`; `level` is 0 or more: a whole number, a decimal (`7.5`), a family parameter, or `+ - *` of them (`N + 1`)"
        )]
    );
    let src = rule(&format!(
        "{HEAD}\n    let C: cell\n    where |C| > -1\n    eliminate cands(C)"
    ));
    assert_eq!(
        places(&errors(&src)),
        [(
            5,
            17,
            "syntax error: expected an expression, found `-1`; numbers are written without a sign: for a negative value, subtract (`0 - 1`)"
        )]
    );
    // What it says to write compiles.
    let fixed = src.replace("> -1", "> 0 - 1");
    assert!(compile_source("a.rules", &fixed).is_ok());
}

#[test]
fn a_single_equals_sign_suggests_two() {
    let src = rule(&format!(
        "{HEAD}\n    let A: cell\n    where |A| = 2\n    eliminate cands(A)\n    show \"${{A}}\""
    ));
    assert_eq!(
        rendered(&src),
        "error: syntax error: expected an operator or the next clause, found `=`; to compare, write `==` (a single `=` only defines a name: `let X = EXPR`)
  --> a.rules:5:15
  |
5 |     where |A| = 2
  |               ^

1 error(s)"
    );
    assert!(compile_source("a.rules", &src.replace("| = 2", "| == 2")).is_ok());
}

#[test]
fn an_element_in_a_set_of_another_type_suggests_the_projection() {
    let src = rule(&format!(
        "{HEAD}\n    let A: rn\n    where A in cands(grid)\n    eliminate cands(A)\n    show \"${{A}}\""
    ));
    assert_eq!(
        rendered(&src),
        "error: type mismatch: `in` between rn and set of cand; write `A in vars(rn, cands(grid))` (the rn variables with a candidate in it), or `cands(A) & cands(grid)` for the candidates of `A` in it
  --> a.rules:5:11
  |
5 |     where A in cands(grid)
  |           ^^^^^^^^^^^^^^^^

1 error(s)"
    );
    // Both suggestions compile.
    assert!(
        compile_source(
            "a.rules",
            &src.replace("A in cands(grid)", "A in vars(rn, cands(grid))")
        )
        .is_ok()
    );
    assert!(
        compile_source(
            "a.rules",
            &src.replace("A in cands(grid)", "|cands(A) & cands(grid)| > 0")
        )
        .is_ok()
    );
    // A cell in a set of rows: the rows' cells.
    let src = rule(&format!(
        "{HEAD}\n    let C: cell\n    let R: row\n    where C in R\n    eliminate cands(C)"
    ));
    assert_eq!(
        places(&errors(&src)),
        [(
            6,
            11,
            "type mismatch: `in` between cell and row; write `C in cells(R)` (the cells with a candidate in it), or `cands(C) & cands(R)` for the candidates of `C` in it"
        )]
    );
}

#[test]
fn a_missing_complexity_names_the_optional_clauses_missing_too() {
    let src = "rule a {\n    let A: rn\n    eliminate cands(A)\n}\n";
    assert_eq!(
        rendered(src),
        "error: missing `complexity` clause: every rule needs one (`complexity 100`; smaller runs first); also missing, and optional: `level` (level 0), `rating` (the rule's name is its label), `show` (a step shows its conclusions only)
  --> a.rules:1:6
  |
1 | rule a {
  |      ^

1 error(s)"
    );
    // With the others present, complexity alone.
    let src = "rule a {\n    level 1\n    rating \"A\"\n    let A: rn\n    eliminate cands(A)\n    show \"${A}\"\n}\n";
    assert_eq!(
        places(&errors(src)),
        [(
            1,
            6,
            "missing `complexity` clause: every rule needs one (`complexity 100`; smaller runs first)"
        )]
    );
}

#[test]
fn a_rule_defined_twice_in_a_file_is_placed_and_quoted() {
    let one = rule(&format!("{HEAD}\n    let A: rn\n    eliminate cands(A)"));
    let src = format!("{one}\n{one}");
    assert_eq!(
        rendered(&src),
        "error: rule `a` is defined twice (first at line 1): give each rule a name of its own
  --> a.rules:8:6
  |
8 | rule a {
  |      ^

1 error(s)"
    );
    // A family member against a rule of the same name.
    let fam = "rule a[{N}] for N in 1..=3 {\n    complexity N\n    let A: rn\n    eliminate cands(A)\n}\n";
    let src = format!("{fam}rule a[2] {{\n{HEAD}\n    let A: rn\n    eliminate cands(A)\n}}\n");
    assert_eq!(
        places(&errors(&src)),
        [(
            6,
            6,
            "rule `a[2]` is defined twice (first at line 1): give each rule a name of its own"
        )]
    );
}

/// Two files defining one name: both places, with their columns.
#[test]
fn a_rule_defined_in_two_files_names_both_places() {
    let dir = tempfile::tempdir().unwrap();
    let one = rule(&format!("{HEAD}\n    let A: rn\n    eliminate cands(A)"));
    std::fs::write(dir.path().join("x.rules"), &one).unwrap();
    std::fs::write(dir.path().join("y.rules"), format!("\n  {one}")).unwrap();
    let run = ruledoku_in(dir.path(), ["rules", "check", "./"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stdout,
        "./y.rules:2:8: rule `a` is defined twice (first at ./x.rules:1:6)\n"
    );
}

#[test]
fn conclusions_in_a_show_template_are_an_error() {
    let src = rule(&format!(
        "{HEAD}\n    let A: rn\n    eliminate cands(A)\n    show \"${{A}} ==> ${{cands(A)}}\""
    ));
    assert_eq!(
        rendered(&src),
        "error: `==>` in a show template: a step prints as `NAME: TEMPLATE ==> CONCLUSIONS`, the conclusions added after the template; leave them out of it
  --> a.rules:6:16
  |
6 |     show \"${A} ==> ${cands(A)}\"
  |                ^^^

1 error(s)"
    );
}

/// The (line, column, message) of each error.
fn places(errs: &[(usize, usize, String)]) -> Vec<(usize, usize, &str)> {
    errs.iter().map(|(l, c, m)| (*l, *c, m.as_str())).collect()
}
