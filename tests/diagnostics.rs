//! Rule-file diagnostics at the edges: the parser's limits (deep nesting,
//! long expressions, long names and strings, huge numbers, huge files),
//! excerpts of long lines, tabs, CRLF, end of file, byte-order marks and
//! bytes that are not UTF-8, syntax-error wording, and warnings about huge
//! search spaces.

mod common;

use common::{FSHT, root, ruledoku, shipped};
use ruledoku::lang::parse::{MAX_NAME, MAX_NESTING, MAX_OPERATORS, MAX_SOURCE, MAX_STRING};
use ruledoku::lang::{
    Diagnostic, Diagnostics, Severity, compile_source, compile_source_with_warnings, decode_source,
};

/// A rule whose `where` clause (line 4, from column 9) is `cond`.
fn rule_where(cond: &str) -> String {
    format!("rule t {{\n  complexity 1\n  let V: cell\n  where {cond}\n  eliminate V\n}}\n")
}

/// The same with `V` a set of two cells, so that `V - V - …` is set
/// algebra between sets of one element type.
fn rule_where_sets(cond: &str) -> String {
    rule_where(cond).replace("let V: cell", "let V: 2 cell")
}

/// Compiles `source` on a thread with `stack_kb` KiB of stack (a crash
/// there fails the test) and returns its errors.
fn errors_with_stack(source: &str, stack_kb: usize) -> Vec<Diagnostic> {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(stack_kb * 1024)
        .spawn(move || compile_source("t.rules", &source).err().unwrap_or_default())
        .unwrap()
        .join()
        .expect("compiling must not crash")
}

fn errors(source: &str) -> Vec<Diagnostic> {
    errors_with_stack(source, 8 * 1024)
}

fn places(ds: &[Diagnostic]) -> Vec<(usize, usize, &str)> {
    ds.iter()
        .map(|d| (d.line, d.column, d.message.as_str()))
        .collect()
}

fn nesting() -> String {
    format!(
        "expression nested too deeply: more than {MAX_NESTING} levels of parentheses, `|…|` and calls (split it with `let` definitions)"
    )
}

fn too_long() -> String {
    format!(
        "expression too long: more than {MAX_OPERATORS} operators (split it with `let` definitions)"
    )
}

/// The same single error whatever the stack: a small one, where pest runs
/// out of stack first, and a large one, where it parses and the limit is
/// found in its tree.
fn one_error_in_any_stack(source: &str) -> (usize, usize, String) {
    let small = errors_with_stack(source, 256);
    let large = errors_with_stack(source, 64 * 1024);
    assert_eq!(small, large);
    assert_eq!(small.len(), 1, "{}", Diagnostics(small.clone()));
    let d = &small[0];
    assert!(d.excerpt.len() < 500, "excerpt cut to a sensible width");
    (d.line, d.column, d.message.clone())
}

#[test]
fn seven_thousand_nested_parentheses_are_one_error() {
    let src = rule_where(&format!("{}|V| == 1{}", "(".repeat(7000), ")".repeat(7000)));
    // The first parenthesis beyond the limit.
    assert_eq!(
        one_error_in_any_stack(&src),
        (4, 9 + MAX_NESTING, nesting())
    );
    // A syntax error before it comes first.
    let src = src.replace("complexity 1", "complexity 1 +");
    assert_eq!(
        one_error_in_any_stack(&src),
        (
            3,
            3,
            "syntax error: expected `not` or a name or an expression or an integer, found `let`"
                .to_string()
        )
    );
}

#[test]
fn deeply_nested_counts_and_calls_are_one_error() {
    let counts = rule_where(&format!(
        "{}V{} == 1",
        "|".repeat(100_000),
        "|".repeat(100_000)
    ));
    assert_eq!(
        one_error_in_any_stack(&counts),
        (4, 9 + MAX_NESTING, nesting())
    );
    let calls = rule_where(&format!(
        "|{}V{}| == 1",
        "cands(".repeat(7000),
        ")".repeat(7000)
    ));
    // The count is the first level; the error points at the call beyond.
    let col = 9 + 1 + (MAX_NESTING - 1) * "cands(".len();
    assert_eq!(one_error_in_any_stack(&calls), (4, col, nesting()));
}

#[test]
fn flat_expressions_of_20_000_and_100_000_terms_are_one_error() {
    for n in [20_000, 100_000] {
        let src = rule_where_sets(&format!("|V{}| == 1", " - V".repeat(n)));
        // `  where |V` then ` - V` per term: the operator beyond the limit.
        let col = "  where |V".len() + 4 * MAX_OPERATORS + 2;
        assert_eq!(one_error_in_any_stack(&src), (4, col, too_long()), "{n}");
    }
    let nots = rule_where(&format!("{}|V| == 1", "not ".repeat(100_000)));
    assert_eq!(
        one_error_in_any_stack(&nots),
        (4, 9 + 4 * MAX_OPERATORS, too_long())
    );
}

#[test]
fn expressions_at_the_limits_compile() {
    let deep = rule_where(&format!(
        "{}|V| == 1{}",
        "(".repeat(MAX_NESTING - 1),
        ")".repeat(MAX_NESTING - 1)
    ));
    assert_eq!(errors(&deep), []);
    let long = rule_where_sets(&format!("|V{}| == 1", " - V".repeat(MAX_OPERATORS - 1)));
    assert_eq!(errors(&long), []);
    let one_more = rule_where_sets(&format!("|V{}| == 1", " - V".repeat(MAX_OPERATORS)));
    assert_eq!(errors(&one_more).len(), 1);
}

#[test]
fn the_deepest_expression_allowed_compiles_on_a_small_stack() {
    // A count, 63 calls and 256 differences under them: every level of
    // nesting and every operator on one path of the tree. As a definition,
    // it is also evaluated (by the search-space estimate).
    let deepest = format!(
        "|{}V{}{}|",
        "cands(".repeat(MAX_NESTING - 1),
        " - V".repeat(MAX_OPERATORS),
        ")".repeat(MAX_NESTING - 1)
    );
    let src =
        rule_where_sets("D == 1").replace("  where", &format!("  let D = {deepest}\n  where"));
    let kib = if cfg!(debug_assertions) { 4096 } else { 512 };
    assert_eq!(errors_with_stack(&src, kib), []);
    let src = src.replace(")|\n", ")| + 1\n");
    let col = src.lines().nth(3).unwrap().find('+').unwrap() + 1;
    assert_eq!(
        places(&errors_with_stack(&src, kib)),
        [(4, col, too_long().as_str())]
    );
}

#[test]
fn a_one_megabyte_line_gives_one_short_error() {
    // A megabyte of conditions: the operator beyond the limit.
    let cond = format!("|V| == 1{}", " and |V| == 1".repeat(80_000));
    let src = rule_where(&cond);
    assert!(src.len() > 1_000_000);
    let ops: Vec<usize> = cond
        .match_indices(['=', 'a'])
        .filter(|(i, _)| !cond[..*i].ends_with('='))
        .map(|(i, _)| i)
        .collect();
    let col = 9 + ops[MAX_OPERATORS];
    assert_eq!(one_error_in_any_stack(&src), (4, col, too_long()));
    // A megabyte of comment after an unknown name: the excerpt is cut.
    let src = format!(
        "rule t {{\n  complexity 1\n  let V: cell\n  eliminate Q # {}\n}}\n",
        "x".repeat(1_000_000)
    );
    let errs = errors(&src);
    assert_eq!(
        places(&errs),
        [(3, 7, "unused variable `V`"), (4, 13, "unknown name `Q`")]
    );
    let shown = format!("  eliminate Q # {}...", "x".repeat(117));
    assert_eq!(
        errs[1].excerpt,
        format!("  |\n4 | {shown}\n  |             ^")
    );
}

#[test]
fn rules_check_prints_one_short_error_for_each_huge_expression() {
    let dir = tempfile::tempdir().unwrap();
    for (name, cond) in [
        (
            "parens",
            format!("{}|V| == 1{}", "(".repeat(7000), ")".repeat(7000)),
        ),
        ("flat", format!("|V{}| == 1", " - V".repeat(100_000))),
    ] {
        let path = dir.path().join(format!("{name}.rules"));
        std::fs::write(&path, rule_where(&cond)).unwrap();
        let out = ruledoku(["rules", "check", path.to_str().unwrap()]);
        let stdout = &out.stdout;
        assert_eq!(out.code, Some(1), "{name}: {stdout}");
        assert!(stdout.ends_with("\n1 error(s)\n"), "{name}: {stdout}");
        assert!(stdout.len() < 800, "{name}: {stdout}");
        assert!(out.stderr.is_empty(), "{name}");
        let msg = if name == "parens" {
            nesting()
        } else {
            too_long()
        };
        assert!(stdout.starts_with(&format!("error: {msg}\n")), "{stdout}");
    }
}

#[test]
fn holes_of_show_templates_have_the_same_limits() {
    let src = format!(
        "rule t {{\n  complexity 1\n  let V: cell\n  eliminate V\n  show \"at ${{{}V{}}}\"\n}}\n",
        "(".repeat(100),
        ")".repeat(100)
    );
    // `  show "at ${` is 13 characters.
    assert_eq!(
        places(&errors(&src)),
        [(5, 14 + MAX_NESTING, nesting().as_str())]
    );
}

#[test]
fn long_names_strings_and_numbers_are_errors() {
    let name = format!(
        "rule {} {{\n  complexity 1\n  let V: cell\n  eliminate V\n}}\n",
        "a".repeat(100_000)
    );
    let quoted = format!("`{}…`", "a".repeat(24));
    assert_eq!(
        places(&errors(&name)),
        [(
            1,
            6,
            format!("rule name too long: 100000 characters, at most {MAX_NAME}: {quoted}").as_str()
        )]
    );
    let ident = rule_where("|V| == 1").replace("let V", &format!("let {}", "V".repeat(300)));
    assert_eq!(
        places(&errors(&ident)),
        [(
            3,
            7,
            format!(
                "name too long: 300 characters, at most {MAX_NAME}: `{}…`",
                "V".repeat(24)
            )
            .as_str()
        )]
    );
    let holes = format!(
        "rule t {{\n  complexity 1\n  let V: cell\n  eliminate V\n  show \"{}\"\n}}\n",
        "${V}".repeat(10_000)
    );
    assert_eq!(
        places(&errors(&holes)),
        [(
            5,
            9,
            format!("string too long: 40000 characters, at most {MAX_STRING}").as_str()
        )]
    );
    let big = "123456789012345678901234567890";
    let msg = format!(
        "number too large: `{}…` (at most 9223372036854775807)",
        &big[..24]
    );
    for (src, line, col) in [
        (
            rule_where("|V| == 1").replace("complexity 1", &format!("complexity {big}")),
            2,
            14,
        ),
        (
            rule_where("|V| == 1").replace("let V: cell", &format!("let V: {big} cell")),
            3,
            10,
        ),
        (rule_where(&format!("|V| == {big}")), 4, 16),
        (
            rule_where("|V| == 1")
                .replace("complexity 1", &format!("complexity 1\n  level {big}.5")),
            3,
            9,
        ),
        (
            rule_where("|V| == N").replace("rule t", &format!("rule t for N in 1..={big}")),
            1,
            21,
        ),
    ] {
        assert_eq!(places(&errors(&src)), [(line, col, msg.as_str())], "{src}");
    }
}

#[test]
fn huge_files_and_many_errors_are_cut_short() {
    // Too large: one error at the first byte beyond the limit.
    let huge = "rule a{}".repeat(MAX_SOURCE / 8 + 1);
    let msg = format!(
        "rule file too large: {} bytes, at most {MAX_SOURCE} (2 MiB); the error points at the first byte beyond",
        huge.len()
    );
    assert_eq!(places(&errors(&huge)), [(1, MAX_SOURCE + 1, msg.as_str())]);
    // A thousand empty rules, an error each: the first hundred, then a
    // count of the rest at the place of the next.
    let many = "rule a{}".repeat(1000);
    let errs = errors(&many);
    assert_eq!(errs.len(), ruledoku::lang::MAX_ERRORS + 1);
    assert_eq!(
        (errs[0].line, errs[0].column, errs[0].message.as_str()),
        (
            1,
            6,
            "missing `complexity` clause: every rule needs one (`complexity 100`; smaller runs first); also missing, and optional: `level` (level 0), `rating` (the rule's name is its label), `show` (a step shows its conclusions only)"
        )
    );
    assert_eq!(
        places(&errs[100..]),
        [(
            1,
            100 * 8 + 6,
            "too many errors: 900 more from here on are not shown"
        )]
    );
}

#[test]
fn tabs_crlf_and_end_of_file_are_shown_as_an_editor_shows_them() {
    let crlf = "rule a {\r\n\tcomplexity 1\r\n\tlet V: cell\r\n\teliminate Q\r\n}\r\n";
    let errs = errors(crlf);
    assert_eq!(
        places(&errs),
        [(3, 6, "unused variable `V`"), (4, 12, "unknown name `Q`")]
    );
    assert_eq!(
        errs[1].excerpt,
        "  |\n4 |     eliminate Q\n  |               ^"
    );
    // A shipped rule file with CRLF line ends compiles alike.
    let wings = shipped("wings.rules");
    let n = compile_source("w.rules", &wings).unwrap().len();
    assert_eq!(
        compile_source("w.rules", &wings.replace('\n', "\r\n"))
            .unwrap()
            .len(),
        n
    );
    // End of file, without a final newline.
    let eof = "rule a {\n complexity 1\n let V: cell\n eliminate V";
    let errs = errors(eof);
    assert_eq!(
        places(&errs),
        [(
            4,
            13,
            "syntax error: expected `assert` or `complexity` or `eliminate` or `let` or `level` or `parents` or `rating` or `show` or `unrated` or `where` or `}` or an operator, found end of file"
        )]
    );
    assert_eq!(errs[0].excerpt, "  |\n4 |  eliminate V\n  |             ^");
}

#[test]
fn syntax_errors_name_what_was_expected() {
    assert_eq!(
        places(&errors("hello")),
        [(1, 1, "syntax error: expected `rule`, found `hello`")]
    );
    let src = format!("rule x {{\n complexity 1\n lett{}", "x".repeat(100));
    let found = format!("`lett{}…`", "x".repeat(20));
    assert_eq!(
        places(&errors(&src)),
        [(3, 2, format!("syntax error: expected `assert` or `complexity` or `eliminate` or `let` or `level` or `parents` or `rating` or `show` or `unrated` or `where` or `}}` or an operator, found {found}").as_str())]
    );
    // Quoted text cannot send escape sequences to the terminal.
    let errs = errors("rule x {\n complexity 1\n \u{1b}[2J\n}");
    assert!(
        errs[0].message.ends_with(", found `\u{241b}[2J`"),
        "{}",
        errs[0].message
    );
    assert!(!errs[0].to_string().contains('\u{1b}'));
    // Every kind of damage to a rule says what was expected.
    let good = rule_where("|V| == 1");
    for cut in 0..good.len() {
        for junk in ["", "@", "|", "(", "\"", "{", "let", "0"] {
            let src = format!("{}{junk}", &good[..cut]);
            for d in errors(&src) {
                assert!(
                    !d.message.contains("something else"),
                    "{src}: {}",
                    d.message
                );
                assert!(!d.message.contains("limit reached"), "{src}: {}", d.message);
            }
        }
    }
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let src = format!("\u{FEFF}{}", rule_where("|V| == 1"));
    assert_eq!(compile_source("t.rules", &src).unwrap().len(), 1);
    // Columns on line 1 are those an editor shows.
    assert_eq!(
        places(&errors("\u{FEFF}rul t {}")),
        [(1, 1, "syntax error: expected `rule`, found `rul`")]
    );
    let text = decode_source(
        "t.rules",
        format!("\u{FEFF}{}", rule_where("|V| == 1")).into_bytes(),
    )
    .unwrap();
    assert_eq!(text, rule_where("|V| == 1"));
}

#[test]
fn a_byte_that_is_not_utf8_is_placed() {
    let mut bytes = rule_where("|V| == 1").into_bytes();
    bytes.splice(28..28, *b"\xE9t\xE9");
    let d = decode_source("t.rules", bytes).unwrap_err();
    assert_eq!((d.line, d.column), (3, 5));
    assert_eq!(
        d.message,
        "invalid UTF-8: byte 0xE9 cannot start or continue a character here (rule files must be UTF-8 text)"
    );
    assert_eq!(
        d.excerpt,
        "  |\n3 |   le\u{FFFD}t\u{FFFD}t V: cell\n  |     ^"
    );
}

const SLOW: &str =
    "rule slow {\n  complexity 1\n  let A: 5 cand\n  where |A| == 6\n  eliminate A\n}\n";

#[test]
fn a_huge_search_space_is_a_warning() {
    let c = compile_source_with_warnings("slow.rules", SLOW).unwrap();
    assert_eq!(c.rules.len(), 1);
    assert_eq!(c.warnings.len(), 1);
    let w = &c.warnings[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(
        (w.line, w.column, w.message.as_str()),
        (
            3,
            7,
            "huge search space: rule `slow` may try about 1.7e12 bindings; generator `A` alone has C(729, 5) = 1.7e12 on an empty grid (restrict its domain with `in …`)"
        )
    );
    assert_eq!(
        Diagnostics(c.warnings.clone()).to_string(),
        format!(
            "warning: {}\n  --> slow.rules:3:7\n  |\n3 |   let A: 5 cand\n  |       ^\n\n1 warning(s)",
            w.message
        )
    );
    // compile_source still succeeds, without the warnings.
    assert_eq!(compile_source("slow.rules", SLOW).unwrap().len(), 1);
}

#[test]
fn a_family_warns_once_for_its_largest_rule() {
    let src = "rule slow[{N}] for N in 3..=5 {\n  complexity 1\n  let A: N cand\n  where |A| == 6\n  eliminate A\n}\n";
    let c = compile_source_with_warnings("f.rules", src).unwrap();
    assert_eq!(c.rules.len(), 3);
    assert_eq!(
        places(&c.warnings),
        [(
            3,
            7,
            "huge search space: rule `slow[5]` may try about 1.7e12 bindings; generator `A` alone has C(729, 5) = 1.7e12 on an empty grid (restrict its domain with `in …`); 2 rules of this family are above 1.0e9"
        )]
    );
}

#[test]
fn restricted_domains_and_products_are_estimated() {
    // Five candidates of one house: 27 × C(81, 5), below the threshold.
    let ok = "rule r {\n  complexity 1\n  let H: house\n  let A: 5 cand in cands(H)\n  where |A| == 6\n  eliminate A\n}\n";
    assert_eq!(
        compile_source_with_warnings("r.rules", ok)
            .unwrap()
            .warnings,
        []
    );
    // Four cells, each anywhere: 81^4 × 729 is above it; the largest
    // generator is named.
    let wide = "rule w {\n  complexity 1\n  let A: cell\n  let B: cell\n  let C: cell\n  let D: cell\n  let Z: cand\n  where A < B and B < C and C < D and Z in cands(A)\n  eliminate Z\n}\n";
    let c = compile_source_with_warnings("w.rules", wide).unwrap();
    assert_eq!(
        places(&c.warnings),
        [(
            7,
            7,
            "huge search space: rule `w` may try about 3.1e10 bindings; generator `Z` alone has 729 on an empty grid (restrict its domain with `in …`)"
        )]
    );
}

/// A `select` is measured by its domain: the cells it keeps are among
/// those of one row. Without that, `Q` would count C(81, 4) and warn.
#[test]
fn a_selection_is_estimated_by_its_domain() {
    let src = "rule s {\n  complexity 1\n  let A: cell\n  let B: cell\n  let P = select(x in cells(rows(A)): |x| == 2)\n  let Q: 4 cell in P\n  where B in Q\n  eliminate cands(Q)\n}\n";
    let c = compile_source_with_warnings("s.rules", src).unwrap();
    assert_eq!(c.warnings, []);
    let plan = c.rules[0].plan().unwrap();
    let space = ruledoku::lang::lower::search_space(plan);
    let domains: Vec<usize> = space.gens.iter().map(|g| g.domain).collect();
    assert_eq!(domains, [81, 81, 9]);
    assert_eq!(space.total, 81.0 * 81.0 * 126.0);
    // A difference keeps its right side exact: cells of a row but `A`.
    let minus = src.replace("cells(rows(A)):", "cells(rows(A)) - A:");
    let c = compile_source_with_warnings("s.rules", &minus).unwrap();
    let plan = c.rules[0].plan().unwrap();
    assert_eq!(ruledoku::lang::lower::search_space(plan).gens[2].domain, 8);
}

/// The plan of the only rule of `src`, and the warnings of its file.
fn plan_of(src: &str) -> (ruledoku::search::pattern::Plan, Vec<Diagnostic>) {
    let c = compile_source_with_warnings("b.rules", src).unwrap();
    let plan = c.rules[0].plan().unwrap().clone();
    (plan, c.warnings)
}

/// A rule whose worst case on an empty grid is beyond the threshold:
/// five cells among 81 for each of 81 cells.
const FIVE_OF_A_PAIR: &str = "rule b {\n  complexity 1\n  let S: cell\n  where |S| == 2\n  let D = digits(S)\n  let P = select(x in cells(grid): cands(x) <= cands(D))\n  let Q: 5 cell in P - S\n  where |digits(Q)| == 2\n  eliminate cands(Q)\n}\n";

/// Beyond the estimate, a rule is measured on reference states: where its
/// filters bound it (`S` has two candidates, `Q` takes cells with only
/// those), it stays far under the budget and gets no warning; the same
/// rule without the bound on `Q`'s domain (five of the grid's cells for
/// each bivalue cell, then tested) goes beyond the budget and is warned
/// about.
#[test]
fn a_rule_its_filters_bound_is_measured_and_not_warned_about() {
    use ruledoku::lang::lower::{HUGE_SEARCH, MEASURE_BUDGET, measured_search, search_space};
    // As `rules check` does (other commands skip the measure).
    ruledoku::lang::measure_huge_searches(true);
    let (plan, warnings) = plan_of(FIVE_OF_A_PAIR);
    let space = search_space(&plan);
    // `cells(grid)` is bounded by the type: C(81, 5) for each of 81 cells,
    // with or without the domain.
    assert_eq!(space.total, 81.0 * 25_621_596.0);
    assert!(space.total > HUGE_SEARCH);
    let nodes = measured_search(&plan).expect("bounded");
    assert!(nodes < MEASURE_BUDGET / 100, "{nodes}");
    assert_eq!(warnings, []);

    // The same matches, with `P` a filter instead of a domain.
    let unbounded = FIVE_OF_A_PAIR.replace("in P - S\n  where ", "\n  where Q <= P - S and ");
    let (plan, warnings) = plan_of(&unbounded);
    assert_eq!(search_space(&plan).total, 81.0 * 25_621_596.0);
    assert_eq!(measured_search(&plan), None);
    assert_eq!(
        places(&warnings),
        [(
            7,
            7,
            "huge search space: rule `b` may try about 2.1e9 bindings; generator `Q` alone has C(81, 5) = 2.6e7 on an empty grid (restrict its domain with `in …`)"
        )]
    );
}

/// Eight cells of the grid, unrestricted, are huge on any grid.
#[test]
fn eight_cells_of_the_grid_are_a_huge_search_space() {
    let src = "rule e {\n  complexity 1\n  let A: 8 cell\n  where |digits(A)| == 2\n  eliminate cands(A)\n}\n";
    let (plan, warnings) = plan_of(src);
    assert_eq!(ruledoku::lang::lower::measured_search(&plan), None);
    assert_eq!(
        places(&warnings),
        [(
            3,
            7,
            "huge search space: rule `e` may try about 3.2e10 bindings; generator `A` alone has C(81, 8) = 3.2e10 on an empty grid (restrict its domain with `in …`)"
        )]
    );
}

/// Every rule file under `rules/` (its folders too) compiles without a
/// warning.
#[test]
fn the_shipped_rules_have_no_warnings() {
    ruledoku::lang::measure_huge_searches(true);
    let mut dirs = vec![root().join("rules")];
    let mut files = 0;
    while let Some(dir) = dirs.pop() {
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rules") {
                let src = std::fs::read_to_string(&p).unwrap();
                let c = compile_source_with_warnings("x.rules", &src).unwrap();
                assert_eq!(c.warnings, [], "{}", p.display());
                files += 1;
            }
        }
    }
    assert!(files > 30, "{files}");
}

/// `rules check se`: the unique loops of eight cells are beyond the
/// estimate's threshold but bounded by their filters; no warning.
#[test]
fn rules_check_se_prints_no_warning() {
    let out = ruledoku(["rules", "check", "se"]);
    assert_eq!(out.code, Some(0));
    assert_eq!(out.stdout, "se: ok, 136 rules\n");
    assert_eq!(out.stderr, "");
}

/// `rules check` prints a rule's search-space warning and still passes it;
/// `solve --max-seconds` stops that rule inside its search.
#[test]
fn rules_check_prints_warnings_and_the_time_limit_stops_the_slow_rule() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.rules");
    std::fs::write(
        &path,
        "rule slow {\n complexity 1\n let A: 5 cand\n where |A| == 6\n eliminate A\n}\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let out = ruledoku(["rules", "check", p]);
    let text = &out.stdout;
    assert_eq!(out.code, Some(0), "{text}");
    assert!(
        text.starts_with("warning: huge search space: rule `slow`"),
        "{text}"
    );
    assert!(text.contains("slow.rules:3:6"), "{text}");
    assert!(text.contains("1 warning(s)\n"), "{text}");
    assert!(text.ends_with(&format!("{p}: ok, 1 rule\n")), "{text}");
    let t = std::time::Instant::now();
    let out = ruledoku(["solve", "--max-seconds", "0.5", "--rules", p, FSHT]);
    let text = &out.stdout;
    assert!(
        text.contains("PUZZLE NOT SOLVED (time limit reached)"),
        "{text}"
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(30));
}

/// A cluster generator with mistakes: each is reported where it is, with
/// what was expected.
#[test]
fn cluster_generators_report_their_mistakes() {
    let rule = |clause: &str| {
        format!("rule t {{\n  complexity 1\n  let D: digit\n  {clause}\n  eliminate A\n}}\n")
    };
    for ok in [
        "let K, A: cluster in cands(D)\n  where first(K) in A",
        "let K, A: cluster in D\n  where first(K) in A",
        "let K, A: cluster\n  where first(K) in A and D in digits(K)",
    ] {
        assert!(
            errors(&rule(ok)).is_empty(),
            "{ok}: {}",
            Diagnostics(errors(&rule(ok)))
        );
    }
    let cases = [
        (
            "let K, A: cluster in 3\n  where first(K) in A and D in digits(K)",
            (
                4,
                24,
                "a cluster is made of candidates: expected a set of candidates, found integer",
            ),
        ),
        (
            "let K, A: cluster in cands(D)",
            (4, 7, "unused variable `K`"),
        ),
        (
            "let K, A: cluster in cands(D)\n  where first(K) in A\n  let D = 2",
            (6, 7, "`D` is already defined"),
        ),
    ];
    for (clause, want) in cases {
        let got = errors(&rule(clause));
        assert_eq!(
            places(&got).first().copied(),
            Some(want),
            "{clause}: {}",
            Diagnostics(got.clone())
        );
    }
}

/// An ALS generator with mistakes: each is reported where it is, with
/// what was expected.
#[test]
fn als_generators_report_their_mistakes() {
    let rule = |clause: &str| {
        format!(
            "rule t {{\n  complexity 1\n  let H: house\n  let D: digit\n  {clause}\n  eliminate cands(A) & cands(D) - cands(H)\n}}\n"
        )
    };
    for ok in [
        "let A: als",
        "let A: als size 2",
        "let A: als size 1 to 4 in H",
        "let A: als in cells(H) - cells(cands(D)) holding D",
        "let A: als size 1 to 8 holding digits(H)\n  where |A| == 3",
    ] {
        assert!(
            errors(&rule(ok)).is_empty(),
            "{ok}: {}",
            Diagnostics(errors(&rule(ok)))
        );
    }
    let cases = [
        (
            "let A: als size 0",
            (
                5,
                19,
                "an almost locked set has 1 to 8 cells (N cells of a house holding N + 1 digits), found 0",
            ),
        ),
        (
            "let A: als size 2 to 9",
            (
                5,
                24,
                "an almost locked set has 1 to 8 cells (N cells of a house holding N + 1 digits), found 9",
            ),
        ),
        (
            "let A: als size 4 to 2",
            (
                5,
                24,
                "`size 4 to 2`: the greatest size is less than the least",
            ),
        ),
        (
            "let A: als size N",
            (5, 19, "`N` is not an integer family parameter"),
        ),
        (
            "let A: als in 3",
            (
                5,
                17,
                "an almost locked set is taken among cells: expected a set of cells (or a house), found integer",
            ),
        ),
        (
            "let A: als in house",
            (
                5,
                17,
                "an almost locked set is taken among cells: expected a set of cells (or a house), found type name `house`",
            ),
        ),
        (
            "let A: als holding H",
            (
                5,
                22,
                "`holding` names digits an almost locked set holds: expected a digit or a set of digits, found house",
            ),
        ),
        ("let A: als\n  let A: als", (6, 7, "`A` is already defined")),
    ];
    for (clause, want) in cases {
        let got = errors(&rule(clause));
        assert_eq!(
            places(&got).first().copied(),
            Some(want),
            "{clause}: {}",
            Diagnostics(got.clone())
        );
    }
}

/// A loop generator with mistakes: each is reported where it is, with
/// what was expected.
#[test]
fn loop_generators_report_their_mistakes() {
    let walk = |clause: &str| {
        format!(
            "rule t {{\n  complexity 1\n  let S: cell\n  let D = digits(S)\n  {clause}\n  eliminate cands(Q - A) & cands(D)\n}}\n"
        )
    };
    let ok = "let Q, A: loop from S through cells(cands(D)) by row then column length 4 next z gather X = digits(z) - D when |X| <= 1";
    assert!(
        errors(&walk(ok)).is_empty(),
        "{}",
        Diagnostics(errors(&walk(ok)))
    );
    // Loops of several lengths, in the walk's order.
    let range = "let Q, A: loop from S through cells(cands(D)) by row then column length 4 to 8";
    assert!(errors(&walk(range)).is_empty());
    // Each loop once.
    let once = "let Q, A: loop from S through cells(cands(D)) by row then column length 4 to 8 once next z when |z| == 2";
    assert!(errors(&walk(once)).is_empty());
    let cases = [
        (
            "let Q, A: loop from D through cells(cands(D)) by row then column length 4",
            (5, 23, "a loop starts from a cell, found set of digit"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row length 4",
            (
                5,
                52,
                "a loop steps by two kinds of house at least (a step never goes by the kind of the step before)",
            ),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then digit length 4",
            (5, 61, "a loop steps by row, column or block, found `digit`"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then row then block length 4",
            (5, 61, "`row` is listed twice"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then column length 2",
            (5, 75, "a loop has 3 to 32 cells, found 2"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then column length 6 to 4",
            (
                5,
                80,
                "`length 6 to 4`: the greatest length is less than the least",
            ),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then column length 4 to 40",
            (5, 80, "a loop has 3 to 32 cells, found 40"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then column length 4 next z",
            (5, 82, "unused variable `z`"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then column length 4 when 3",
            (5, 82, "expected a condition, found integer"),
        ),
        (
            "let Q, A: loop from S through cells(cands(D)) by row then column length 4 once next z gather X = digits(z) - D when |X| <= 1",
            (
                5,
                96,
                "`once` keeps the first of a loop's walks, whose gathered sets may differ: a walk with `gather` cannot take `once`",
            ),
        ),
    ];
    for (clause, want) in cases {
        let got = errors(&walk(clause));
        assert_eq!(
            places(&got).first().copied(),
            Some(want),
            "{clause}: {}",
            Diagnostics(got.clone())
        );
    }
}

/// `unrated` is a head clause: once per rule.
#[test]
fn unrated_given_twice_is_an_error() {
    let src = "rule t {\n  complexity 1\n  unrated\n  unrated\n  let V: cell\n  eliminate V\n}\n";
    assert_eq!(places(&errors(src)), [(4, 3, "`unrated` given twice")]);
    let once = "rule t {\n  complexity 1\n  unrated\n  let V: cell\n  eliminate V\n}\n";
    assert!(errors(once).is_empty());
}
