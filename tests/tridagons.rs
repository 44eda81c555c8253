//! Tridagons and the OR_k-chains from their guardians
//! (`rules/advanced/tridagon.rules`, `rules/tridagon-forcing-whips.rules`,
//! `rules/tridagon-contrad-whips.rules`, `rules/tridagon-or-whips.rules`,
//! the sets `w-trid`, `w-trid-orw`, `w-trid-orcw`, the pattern functions
//! `forcing_whips`, `contrad_whips`, `or_whips`), checked against
//! CSP-Rules-Examples' Sudoku-a/Tridagons (`tests/data/tridagons/`): the
//! steps CSP-Rules' paths print, and the ratings of docs/advanced.md's
//! table where they agree.

mod common;

use common::{data, errors};
use ruledoku::engine::{self, Limits};
use ruledoku::grid::state::State;
use ruledoku::path::render_run;
use ruledoku::{input, ruleset};

/// The puzzle of the Tridagons file whose name starts with `name`.
fn puzzle(name: &str) -> String {
    let text = std::fs::read_to_string(data("tridagons/puzzles.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') || l.contains('\t'))
        .find_map(|l| {
            let (p, file) = l.split_once('\t')?;
            file.starts_with(name).then(|| p.to_string())
        })
        .unwrap_or_else(|| panic!("no puzzle {name}"))
}

/// The `w-trid` path of a puzzle.
fn path(puzzle: &str) -> String {
    path_with("w-trid", puzzle)
}

/// The path of a puzzle with a set.
fn path_with(set: &str, puzzle: &str) -> String {
    let set = ruleset::load(set).unwrap();
    let p = input::parse_puzzle(puzzle).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    render_run(&p.text, &set, &run)
}

/// The steps of a path whose rule name starts with `rule`, up to ` ==> `
/// and after it (the pattern shown and the conclusions).
fn steps(path: &str, rule: &str) -> Vec<String> {
    path.lines()
        .filter(|l| l.starts_with(rule))
        .map(str::to_string)
        .collect()
}

/// The hardest rule of a run, from the path's rating line.
fn rating(path: &str) -> String {
    path.lines()
        .find(|l| l.starts_with("rating:"))
        .unwrap_or_default()
        .to_string()
}

const TRID_3329: &str = "{n1 n5 n8} in {r4c3 r4c8 r5c1 r5c9 r6c2 r6c7 r7c2 r7c9 r8c3 r8c8 r9c1 r9c7}, guardians {n9r4c3 n3r6c2}";

/// #4401 (`Trid+W8`): the tridagon of digits 3, 4, 7 in blocks 5, 6, 8
/// and 9 has its one guardian in r4c4, which is therefore not 3, 4 or 7,
/// CSP-Rules' first step; the rest needs whips of length 8.
#[test]
fn tridagon_4401() {
    let p = path(&puzzle("#4401-"));
    assert_eq!(
        steps(&p, "tridagon"),
        [
            "tridagon: {n3 n4 n7} in {r4c4 r4c7 r5c6 r5c8 r6c5 r6c9 r7c4 r7c7 r8c6 r8c9 r9c5 r9c8}, guardians {n9r4c4} ==> r4c4 ≠ 7, r4c4 ≠ 4, r4c4 ≠ 3"
        ]
    );
    assert_eq!(rating(&p), "rating: W[8] (level 8, hardest rule: whip[8])");
}

/// #3329 (`OR2FW3`): CSP-Rules' OR2-anti-tridagon for digits 1, 5, 8 in
/// blocks 4, 6, 7, 9, guardians n9r4c3 and n3r6c2, and its first
/// OR2-forcing-whip[3] (n3r6c2: r6c5{n3 n1}; n9r4c3: r6n9{c1 c6}) ==>
/// r6c6≠1; then its forcing whips of length 4 (CSP-Rules: r5c5≠1,
/// r5c5≠4, r4c4≠9, r4c6≠9, r9c5≠1, r3c5≠6, r3c5≠4, one a step).
#[test]
fn or2_forcing_whips_3329() {
    let p = path(&puzzle("#3329-OR2FW3"));
    let fw = steps(&p, "OR");
    assert_eq!(
        fw[0],
        format!("OR2-forcing-whip[3]: {TRID_3329} ==> r6c6 ≠ 1")
    );
    assert!(
        fw[1].starts_with(&format!("OR2-forcing-whip[4]: {TRID_3329} ==> ")),
        "{fw:?}"
    );
    for c in [
        "r5c5 ≠ 1",
        "r5c5 ≠ 4",
        "r4c4 ≠ 9",
        "r4c6 ≠ 9",
        "r3c5 ≠ 6",
        "r3c5 ≠ 4",
    ] {
        assert!(fw[1].contains(c), "{c} in {fw:?}");
    }
}

/// #16150 (`W6+9xOR2FW5`): CSP-Rules' OR2-anti-tridagon for digits 2, 6,
/// 7 in blocks 1, 2, 7, 8 (guardians n1r2c4 and n4r7c5, once the hidden
/// pairs of row 2 are gone) and its first three forcing whips: [3] ==>
/// r3c8≠4, [4] ==> r8c9≠6, [5] ==> r5c6≠6.
#[test]
fn or2_forcing_whips_16150() {
    let p = path(&puzzle("#16150-"));
    let fw = steps(&p, "OR");
    let trid = "{n2 n6 n7} in {r1c2 r1c6 r2c3 r2c4 r3c1 r3c5 r7c2 r7c5 r8c1 r8c6 r9c3 r9c4}, guardians {n1r2c4 n4r7c5}";
    assert_eq!(fw[0], format!("OR2-forcing-whip[3]: {trid} ==> r3c8 ≠ 4"));
    assert_eq!(fw[1], format!("OR2-forcing-whip[4]: {trid} ==> r8c9 ≠ 6"));
    assert!(
        fw[2].starts_with(&format!("OR2-forcing-whip[5]: {trid} ==> "))
            && fw[2].contains("r5c6 ≠ 6"),
        "{fw:?}"
    );
}

/// `forcing_whips(G, N)` takes a set of candidates and an integer; other
/// arguments are errors that say so.
#[test]
fn forcing_whips_arguments() {
    let rule = |cond: &str| {
        format!(
            "rule t {{\n    complexity 1\n    let C: cell\n    let E = {cond}\n    where |E| > 0\n    eliminate E\n}}\n"
        )
    };
    let es = errors(&rule("forcing_whips(cands(C), C)"));
    assert_eq!(es.len(), 1, "{es:?}");
    assert!(
        es[0].2.contains(
            "`forcing_whips(G, N)` takes the longest length N as an integer, found a cell"
        ),
        "{es:?}"
    );
    let es = errors(&rule("forcing_whips(cands(C))"));
    assert!(
        es.iter()
            .any(|e| e.2 == "`forcing_whips` takes 2 argument(s), found 1"),
        "{es:?}"
    );
}

const TRID_42040: &str = "{n1 n5 n8} in {r1c1 r1c5 r2c2 r2c4 r3c3 r3c6 r7c3 r7c6 r8c1 r8c4 r9c2 r9c5}, guardians {n4r3c3 n3r3c6}";

/// #42040 (`W7+OR2W8`), CSP-Rules' second run (config W+OR5FW+OR5W: the
/// set `w-trid-orw`): its OR2-whips of lengths 5, 6 and 8 eliminate what
/// CSP-Rules' do (r2c8≠8, 5, 1 and r2c9≠5, 1; r6c5≠1; r3c6≠8, 5), the
/// whips go up to 7 and the run is rated by the OR2-whip[8], as the
/// file's name says. (At length 4 an OR2-forcing-whip runs first here.)
#[test]
fn or2_whips_42040() {
    let p = path_with("w-trid-orw", &puzzle("#42040-"));
    let w = steps(&p, "OR2-whip");
    assert_eq!(
        w,
        [
            format!(
                "OR2-whip[5]: {TRID_42040} ==> r2c9 ≠ 5, r2c9 ≠ 1, r2c8 ≠ 8, r2c8 ≠ 5, r2c8 ≠ 1"
            ),
            format!("OR2-whip[6]: {TRID_42040} ==> r6c5 ≠ 1"),
            format!("OR2-whip[8]: {TRID_42040} ==> r3c6 ≠ 8, r3c6 ≠ 5"),
        ]
    );
    assert_eq!(hardest(&p).0, 7);
    assert_eq!(
        rating(&p),
        "rating: ORW[8] (level 8, hardest rule: OR2-whip[8])"
    );
}

/// #5 (`W5+OR2W5`): with OR_k-whips the run is rated OR2-whip[5], its
/// longest whip of length 5, as the file's name says; its OR2-whips
/// conclude what CSP-Rules' do (r2c7≠1 at length 4; r1c7≠1, r1c8≠1,
/// r1c9≠1, r3c7≠1 at 5), and a little more (one step concludes all the
/// whips of one length; CSP-Rules' r7c4≠6 is an OR2-forcing-whip[4]
/// here, the forcing whips running first).
#[test]
fn or2_whips_5() {
    let p = path_with("w-trid-orw", &puzzle("*#5-"));
    assert_eq!(hardest(&p).0, 5);
    assert_eq!(
        rating(&p),
        "rating: ORW[5] (level 5, hardest rule: OR2-whip[5])"
    );
    let trid = "{n1 n2 n5} in {r1c1 r1c5 r2c2 r2c4 r3c3 r3c6 r4c1 r4c4 r5c3 r5c6 r6c2 r6c5}, guardians {n6r2c4 n9r3c3}";
    assert_eq!(
        steps(&p, "OR"),
        [
            format!("OR2-forcing-whip[4]: {trid} ==> r7c4 ≠ 6"),
            format!("OR2-whip[4]: {trid} ==> r9c4 ≠ 6, r2c8 ≠ 6, r2c7 ≠ 1"),
            format!("OR2-whip[5]: {trid} ==> r3c7 ≠ 1, r2c7 ≠ 7, r1c9 ≠ 1, r1c8 ≠ 1, r1c7 ≠ 1"),
        ]
    );
}

/// #26529 (`BC4+OR3CW4`, config W+OR5CW: the set `w-trid-orcw`): the
/// OR3-contrad-whip here is of length 3, one shorter than CSP-Rules'
/// [4]: its guardian n4r3c9 is linked to the target n4r6c9 itself, which
/// a whip's last variable may be (CSP-Rules' contrad-whips link every
/// guardian to a right-linking candidate).
#[test]
fn or3_contrad_whip_26529() {
    let p = path_with("w-trid-orcw", &puzzle("#26529-"));
    let trid = "{n1 n5 n6} in {r1c1 r1c8 r2c2 r2c7 r3c3 r3c9 r7c3 r7c8 r8c1 r8c9 r9c2 r9c7}, guardians {n8r1c8 n2r2c7 n4r3c9}";
    assert_eq!(
        steps(&p, "OR"),
        [format!(
            "OR3-contrad-whip[3]: {trid} ==> r6c9 ≠ 4, r6c7 ≠ 2, r4c7 ≠ 2, r3c8 ≠ 2, r2c5 ≠ 2"
        )]
    );
    assert_eq!(
        rating(&p),
        "rating: ORCW[3] (level 3, hardest rule: OR3-contrad-whip[3])"
    );
}

/// #26529 with CSP-Rules' own contrad-whips (`strict_contrad_whips`, the
/// set `w-trid-orcw-csp`: every guardian linked to a right-linking
/// candidate): the contrad-whip is of length 4 and the run is rated
/// ORCW[4], as the file's name (`OR3CW4`) says; its eliminations include
/// CSP-Rules' four (r3c5≠1, 3, 5, 6 by r3n2{c5 c8} - r6c8{n2 n8} -
/// r6c9{n8 n4} - OR3).
#[test]
fn or3_strict_contrad_whip_26529() {
    let p = path_with("w-trid-orcw-csp", &puzzle("#26529-"));
    let trid = "{n1 n5 n6} in {r1c1 r1c8 r2c2 r2c7 r3c3 r3c9 r7c3 r7c8 r8c1 r8c9 r9c2 r9c7}, guardians {n8r1c8 n2r2c7 n4r3c9}";
    assert_eq!(
        steps(&p, "OR"),
        [format!(
            "OR3-ctr-whip[4]: {trid} ==> r6c8 ≠ 8, r6c7 ≠ 3, r6c7 ≠ 2, r6c3 ≠ 2, r6c1 ≠ 2, r4c7 ≠ 2, r3c9 ≠ 6, r3c9 ≠ 5, r3c9 ≠ 1, r3c8 ≠ 2, r3c7 ≠ 4, r3c6 ≠ 4, r3c5 ≠ 6, r3c5 ≠ 5, r3c5 ≠ 3, r3c5 ≠ 1, r3c4 ≠ 4, r2c9 ≠ 8, r2c7 ≠ 6, r2c7 ≠ 5, r2c7 ≠ 1, r2c5 ≠ 2, r1c7 ≠ 4, r1c5 ≠ 8"
        )]
    );
    assert_eq!(
        rating(&p),
        "rating: ORCW[4] (level 4, hardest rule: OR3-ctr-whip[4])"
    );
}

const TRID_20958: &str = "{n3 n5 n9} in {r1c5 r1c9 r2c6 r2c8 r3c4 r3c7 r7c4 r7c9 r8c5 r8c7 r9c6 r9c8}, guardians {n4r2c6 n2r9c8}";

/// #20958 (`W4+OR2W3`): the paths part at the first OR_k-chain, after
/// the hidden pair of row 2. With the forcing whips first (CSP-Rules'
/// default order, `w-trid-orw-csp`) it is an OR2-forcing-whip[3], as in
/// the file's first run; the file's second run (OR2-whips[3] ==> r4c6≠4,
/// r6c8≠2, r9c2≠2, r5c4≠5, r5c5≠5) was made with the forcing whips last,
/// which `w-trid-orw-fw-last` reproduces. Both are rated W[5]: CSP-Rules'
/// two paths in the file have a biv-chain[5] (r9c1≠5) too.
#[test]
fn or2_whips_20958() {
    let elims = "r9c2 ≠ 2, r8c3 ≠ 7, r6c8 ≠ 2, r5c5 ≠ 5, r5c4 ≠ 5, r4c6 ≠ 4, r1c3 ≠ 2";
    let p = path_with("w-trid-orw-csp", &puzzle("#20958-"));
    assert_eq!(
        steps(&p, "OR"),
        [format!("OR2-forcing-whip[3]: {TRID_20958} ==> {elims}")]
    );
    assert_eq!(rating(&p), "rating: W[5] (level 5, hardest rule: whip[5])");
    let p = path_with("w-trid-orw-fw-last", &puzzle("#20958-"));
    assert_eq!(
        steps(&p, "OR"),
        [format!("OR2-whip[3]: {TRID_20958} ==> {elims}")]
    );
    assert_eq!(rating(&p), "rating: W[5] (level 5, hardest rule: whip[5])");
}

const TRID_34498: &str =
    "{n1 n3 n8} in {r4c2 r4c9 r5c1 r5c7 r6c3 r6c8 r7c3 r7c9 r8c2 r8c8 r9c1 r9c7}";

/// #34498 (`W8+OR3W1`): the paths part at the first whip[8]: both
/// programs reach the same state (after whip[7] ==> r6c5≠7), where
/// CSP-Rules' whip[8] eliminates r6c3≠7 and ours r5c1≠9 (two whips[8] of
/// that state; CSP-Rules' path applies both). Ours leaves four guardians
/// and an OR4-forcing-whip[2] ==> r7c2≠7; from CSP-Rules' state (r6c3≠7
/// gone) the same rules give CSP-Rules' OR3 relation and its
/// length-1 chain (CSP-Rules' `OR3-whip[1]`), rated W8 as the file says.
#[test]
fn or3_forcing_whip_1_34498() {
    let p = path(&puzzle("#34498-"));
    let fw = steps(&p, "OR");
    assert_eq!(
        fw,
        [format!(
            "OR4-forcing-whip[2]: {TRID_34498}, guardians {{n7r4c2 n7r6c3 n7r7c3 n7r9c1}} ==> r7c2 ≠ 7"
        )]
    );
    let i = p.lines().position(|l| l.starts_with("OR4")).unwrap();
    assert!(
        p.lines().nth(i - 1).unwrap().starts_with("whip[8]: ")
            && p.lines().nth(i - 1).unwrap().ends_with("==> r5c1 ≠ 9"),
        "{p}"
    );
    assert_eq!(hardest(&p), (8, Some((2, 4))));
    // CSP-Rules' state after its whip[8] ==> r6c3≠7 (pencil marks).
    let state = "1.3....8.123....8.1.3....8..2.4.........5.........6.........7..1.34...8.........9...4......23.5.7....3..67..1...............8.........9.23........3.56.....3.56...1......8912..5..891....6.8...3.........4..7...2.4..7..12.....8.1..45..8.1...56.8..2.......1.3...78....4...........78.1.3...7......5.........6...........91.3....8.1.3....89.....6..9....5.....2...6.891.3.....912.....8.1.3....8.......7.....4.....1.3...7891.3..67891.3....8....4.6.891.34....91.34..78.....5....1.3....8..2...........5....1.3...78.1.3...78....4..78......6...1.34..78.........9.2.......1.3....8......6...1.3....8.........9....5.....2.......1.3....8....4.....1.3....8.......7..1.3...78....4......2.............7891.3...7.91.3...78.1.3....8.....56.......56...";
    let p = path(state);
    assert_eq!(
        steps(&p, "OR"),
        [format!(
            "OR3-forcing-whip[1]: {TRID_34498}, guardians {{n7r4c2 n7r7c3 n7r9c1}} ==> r7c2 ≠ 7"
        )]
    );
    assert_eq!(hardest(&p), (8, Some((1, 3))));
}

/// `contrad_whips`, `strict_contrad_whips` and `or_whips` check their arguments as
/// `forcing_whips` does, naming themselves.
#[test]
fn contrad_and_or_whips_arguments() {
    let rule = |cond: &str| {
        format!(
            "rule t {{\n    complexity 1\n    let C: cell\n    let E = {cond}\n    where |E| > 0\n    eliminate E\n}}\n"
        )
    };
    for f in ["contrad_whips", "strict_contrad_whips", "or_whips"] {
        let es = errors(&rule(&format!("{f}(cands(C), C)")));
        assert_eq!(es.len(), 1, "{es:?}");
        assert!(
            es[0].2.contains(&format!(
                "`{f}(G, N)` takes the longest length N as an integer, found a cell"
            )),
            "{es:?}"
        );
        let es = errors(&rule(&format!("{f}(cands(C), 3, 4)")));
        assert!(
            es.iter()
                .any(|e| e.2 == format!("`{f}` takes 2 argument(s), found 3")),
            "{es:?}"
        );
    }
}

/// The longest whip-family step (whips, z-chains, t-whips, bivalue
/// chains) of a path, and its hardest forcing whip as (length, k).
fn hardest(path: &str) -> (usize, Option<(usize, usize)>) {
    let num = |s: &str| s.parse::<usize>().unwrap();
    let mut w = 0;
    let mut fw = None;
    for l in path.lines() {
        let name = l.split(':').next().unwrap_or_default();
        let Some((fam, rest)) = name.split_once('[') else {
            continue;
        };
        let n = num(rest.trim_end_matches(']'));
        if ["whip", "z-chain", "t-whip", "biv-chain"].contains(&fam) {
            w = w.max(n);
        } else if let Some(k) = fam
            .strip_prefix("OR")
            .and_then(|f| f.strip_suffix("-forcing-whip"))
        {
            fw = fw.max(Some((n, num(k))));
        }
    }
    (w, fw)
}

/// The puzzles whose `w-trid` rating agrees with the name CSP-Rules gave
/// its file, whips and forcing whips alike (docs/advanced.md, "Tridagons",
/// has the whole table and the differences).
#[test]
fn ratings_that_agree_with_csp_rules() {
    for (name, w, fw) in [
        ("#16150-W6+9xOR2FW5", 6, Some((5, 2))),
        ("#1914-W6+OR3FW2", 6, Some((2, 3))),
        ("#274-W3+OR2FW3", 3, Some((3, 2))),
        ("#45728-W5+11xOR2FW5", 5, Some((5, 2))),
        ("#6514-W8+OR2FW4", 8, Some((4, 2))),
        ("#6050(6277)-Trid+W6", 6, None),
    ] {
        let p = path(&puzzle(name));
        assert_eq!(hardest(&p), (w, fw), "{name}");
    }
}
