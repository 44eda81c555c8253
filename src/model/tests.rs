//! The model's tests: built-in sizes, the classic grid's equality, names,
//! groups, and user types read from YAML with their errors.

use super::builtin::builtin;
use super::yaml::parse_type;
use super::*;
use crate::grid::geometry::{self as g, Space as GSpace};
use crate::grid::links::GRAPH;
use crate::grid::segments::SEGMENTS;

fn model(name: &str) -> Model {
    Model::build(builtin(name).unwrap())
}

/// Architecture Invariant: `sudoku:9` is the classic grid.
#[test]
fn sudoku_9_is_the_classic_grid() {
    let m = model("sudoku");
    assert!(m.is_classic());
    assert_eq!(
        (m.n_cells, m.n_cands, m.n_vars),
        (g::N_CELLS, g::N_CANDS, g::N_VARS)
    );
    // Spaces by name and order, each variable's candidates and name.
    let names: Vec<&str> = m.spaces.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, GSpace::ALL.map(GSpace::name));
    for (s, sp) in m.spaces.iter().zip(GSpace::ALL) {
        assert_eq!(s.first, g::var(sp, 0));
        assert_eq!(s.len, 81);
    }
    for v in 0..g::N_VARS {
        assert_eq!(m.var_cands(v).collect::<Vec<_>>(), g::var_cands(v).to_vec());
        assert_eq!(m.var_name(v), g::var_name(v));
        assert_eq!(m.var_space(v), g::var_space(v) as usize);
        for z in m.var_cands(v) {
            assert_eq!(
                m.cand_in_var(v, z),
                g::cand_in_var(g::var_space(v), z),
                "{} in {}",
                g::cand_name(z),
                g::var_name(v)
            );
        }
    }
    for z in 0..g::N_CANDS {
        assert_eq!(m.cand_vars(z).collect::<Vec<_>>(), g::cand_vars(z).to_vec());
        assert_eq!(m.cand_name(z), g::cand_name(z));
        let want: Vec<usize> = GRAPH.links[z].iter().collect();
        assert_eq!(m.links(z), want, "{}", g::cand_name(z));
        assert_eq!(m.link_set(z).iter().collect::<Vec<_>>(), want);
    }
    assert_eq!(m.link_count(), GRAPH.link_count());
    assert_eq!(m.graph.node_count(), GRAPH.graph.node_count());
    assert_eq!(m.graph.edge_count(), GRAPH.graph.edge_count());
    for h in 0..g::N_HOUSES {
        assert_eq!(m.house_name(h), g::house_name(h));
        assert_eq!(m.houses[h].cells, g::house_cells(h).to_vec());
        assert_eq!(m.house_kind_name(h), g::house_kind(h).name());
    }
    // Groups are the segments, in order, with the same g-links.
    assert_eq!(m.groups.len(), SEGMENTS.len());
    for (k, (grp, seg)) in m.groups.iter().zip(SEGMENTS.iter()).enumerate() {
        assert_eq!(grp.cands, seg.cands.iter().collect::<Vec<_>>(), "group {k}");
        assert_eq!(grp.symbol(), Some(seg.digit));
        assert_eq!(m.group_links(k), seg.glinks.iter().collect::<Vec<_>>());
    }
}

#[test]
fn built_in_sizes() {
    for (name, cands, vars, links_per_cand, groups) in [
        ("sudoku:4", 64, 64, 3 * 3 + 1, 4 * 4 * 4),
        ("sudoku:6", 216, 144, 5 + 5 + 5 + 2, 6 * 6 * 5),
        ("sudoku:16", 4096, 1024, 15 * 3 + 9, 16 * 16 * 8),
        ("latin:9", 729, 243, 24, 0),
        ("pandiagonal:7", 343, 245, 6 * 5, 0),
        ("futoshiki:5", 125, 75, 12, 0),
    ] {
        let m = model(name);
        assert_eq!((m.n_cands, m.n_vars), (cands, vars), "{name}");
        assert_eq!(m.groups.len(), groups, "{name}");
        for z in 0..m.n_cands {
            assert_eq!(
                m.links(z).len(),
                links_per_cand,
                "{name} {}",
                m.cand_name(z)
            );
        }
        assert!(!m.is_classic());
        // Each group joins its two house variables, both ways; a candidate's
        // positions are its place in each of its variables.
        let overlaps: usize = (0..m.n_vars).map(|v| m.var_overlaps(v).len()).sum();
        assert_eq!(overlaps, 2 * groups, "{name}");
        for z in 0..m.n_cands {
            let (vars, pos) = m.cand_var_slots(z);
            for (&v, &p) in vars.iter().zip(pos) {
                assert_eq!(m.var_cand_slice(v as usize)[p as usize] as usize, z);
            }
        }
    }
    // sudoku:4: block 1 (r1c1, r1c2, r2c1, r2c2) meets rows 1, 2 and
    // columns 1, 2 in two cells each.
    let m = model("sudoku:4");
    let var = |name: &str| (0..m.n_vars).find(|&v| m.var_name(v) == name).unwrap();
    let o = m.var_overlaps(var("b1n1"));
    let seen: Vec<(usize, u64, u64)> = o
        .iter()
        .map(|o| (o.other as usize, o.mine, o.theirs))
        .collect();
    assert_eq!(
        seen,
        [
            (var("r1n1"), 0b0011, 0b0011),
            (var("r2n1"), 0b1100, 0b0011),
            (var("c1n1"), 0b0101, 0b0011),
            (var("c2n1"), 0b1010, 0b0011),
        ]
    );
    // The largest ones are built quickly, with no table of links.
    let m = model("sudoku:49");
    assert_eq!((m.n_cands, m.n_vars), (117_649, 4 * 2401));
    assert_eq!(m.links(0).len(), 48 * 3 + 36);
    assert_eq!(model("latin:64").n_cands, 262_144);
}

#[test]
fn names_as_csp_rules_prints_them() {
    let m = model("sudoku:16");
    let z = m.cand(m.spec.cell(11, 2), 6);
    assert_eq!(m.asserted_name(z), "r12c3 = 7");
    assert_eq!(
        m.eliminated_name(m.cand(m.spec.cell(4, 12), 10)),
        "r5c13 ≠ 11"
    );
    let r1n5 = m.spaces[1].first + 4;
    assert_eq!(m.var_name(r1n5), "r1n5");
    assert_eq!(m.cand_in_var(r1n5, m.cand(5, 4)), "c6");
    let c2n2 = m.spaces[2].first + 16 + 1;
    assert_eq!(m.var_name(c2n2), "c2n2");
    let b3n4 = m.spaces[3].first + 2 * 16 + 3;
    assert_eq!(m.var_name(b3n4), "b3n4");
    assert_eq!(m.cand_in_var(b3n4, m.cand(m.spec.cell(1, 9), 3)), "r2c10");
    assert_eq!(m.symbol_text(9), "A");
    assert_eq!(m.symbol_text(15), "G");
    // Pandiagonal: the examples' d4n1{r7c5 .}, a7n4{r7c6 .}, d3n3{r5c6 .}.
    let p = model("pandiagonal:7");
    let var_of = |prefix: &str, cell: usize, s: usize| {
        let z = p.cand(cell, s);
        p.cand_vars(z)
            .find(|&v| p.var_name(v).starts_with(prefix))
            .map(|v| (p.var_name(v), p.cand_in_var(v, z)))
    };
    assert_eq!(
        var_of("d", p.spec.cell(6, 4), 0),
        Some(("d4n1".into(), "r7c5".into()))
    );
    assert_eq!(
        var_of("a", p.spec.cell(6, 5), 3),
        Some(("a7n4".into(), "r7c6".into()))
    );
    assert_eq!(
        var_of("d", p.spec.cell(4, 5), 2),
        Some(("d3n3".into(), "r5c6".into()))
    );
    let q = model("pandiagonal:13");
    let z = q.cand(q.spec.cell(6, 11), 12);
    assert!(q.cand_vars(z).any(|v| q.var_name(v) == "a6n13"));
    let houses: Vec<&str> = (0..q.houses.len()).map(|h| q.house_kind_name(h)).collect();
    assert!(houses.contains(&"anti-diagonal") && houses.contains(&"diagonal"));
    // Symbols beyond 35 are numbers.
    assert_eq!(model("sudoku:36").symbol_text(35), "36");
}

#[test]
fn unknown_types_are_clear_errors() {
    for (name, want) in [
        ("sudoku:10", "no built-in sudoku of side 10"),
        ("latin", "`latin` needs a size"),
        ("latin:65", "from 2 to 64"),
        ("latin:x", "`x` is no size"),
        ("kakuro", "unknown puzzle type `kakuro`"),
    ] {
        let e = builtin(name).unwrap_err();
        assert!(e.contains(want), "{name}: {e}");
    }
}

#[test]
fn futoshiki_signs_are_links() {
    let m = model("futoshiki:4");
    let p = m.with_constraints(&[Constraint::less(0, 1, 4)]);
    // r1c1 < r1c2: r1c1 = 4 is linked to every value of r1c2 (besides
    // the row's own link to r1c2 = 4), r1c2 = 1 to every value of r1c1.
    assert!(p.linked(p.cand(0, 3), p.cand(1, 0)));
    assert!(p.linked(p.cand(0, 1), p.cand(1, 1)));
    assert!(!p.linked(p.cand(0, 0), p.cand(1, 1)));
    assert!(!m.linked(p.cand(0, 3), p.cand(1, 0)));
    assert_eq!(
        p.link_count(),
        m.link_count() + 6,
        "10 pairs x ≥ y, 4 of them (x = y) linked by the row already"
    );
}

const JIGSAW: &str = "\
# A 6×6 Sudoku with irregular regions.
name: jigsaw-6
size: 6
regions: |
  A A A B B B
  A A C C B B
  A C C C B D
  E E C F D D
  E E F F F D
  E E F F D D
houses:
  - kind: diagonal
    cells: r1c1 r2c2 r3c3 r4c4 r5c5 r6c6
constraints:
  - cells: [r1c1, r1c2]
    relation: \"<\"
  - cells: r6c5 r6c6
    forbid: [[1, 2], [2, 1]]
";

#[test]
fn a_user_type_from_yaml() {
    let spec = parse_type("jigsaw.yaml", JIGSAW).unwrap();
    let m = Model::build(spec);
    assert_eq!(m.name(), "jigsaw-6");
    let names: Vec<&str> = m.spaces.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["rc", "rn", "cn", "bn", "dn"]);
    assert_eq!(m.n_vars, 36 * 5 - 36 + 6);
    assert_eq!(m.houses[12].cells, vec![0, 1, 2, 6, 7, 12]);
    assert_eq!(m.house_name(18), "d1");
    assert!(m.linked(m.cand(0, 0), m.cand(35, 0)), "on the diagonal");
    assert!(m.linked(m.cand(34, 0), m.cand(35, 1)));
    assert!(!m.linked(m.cand(34, 0), m.cand(35, 2)));
    assert!(m.linked(m.cand(0, 5), m.cand(1, 2)), "r1c1 < r1c2");
}

#[test]
fn type_file_errors_name_the_line() {
    for (text, want) in [
        (
            "size: 6\nregionz: x\n",
            "jig.yaml:2:1: unknown field `regionz`",
        ),
        (
            "size: 70\n",
            "jig.yaml:1: size 70: the side of a type is from 2 to 64",
        ),
        ("size: 6\nblocks: 4x2\n", "jig.yaml:2: blocks `4x2`"),
        (
            "size: 4\nregions: |\n  AABB\n  AABB\n  CCDD\n  CCD\n",
            "jig.yaml:6: regions: row 4 has 3 cells, expected 4",
        ),
        (
            "size: 4\nregions: |\n  AABB\n  AABB\n  CCDD\n  CDDD\n",
            "jig.yaml:2: region `C` has 3 cells, expected 4",
        ),
        (
            "size: 4\nhouses:\n  - kind: x\n    cells: r1c1 r2c2 r3c3 r4c4\n  - kind: diag\n    cells: r1c1 r2c2 r3c3 r9c4\n",
            "jig.yaml:5: `r9c4` is no cell",
        ),
        (
            "size: 4\nhouses:\n  - kind: diag\n    cells: r1c1 r2c2 r3c3\n",
            "jig.yaml:3: a house holds each symbol once: it has 4 cells, not 3",
        ),
        (
            "size: 4\nconstraints:\n  - cells: r1c1 r1c2\n    relation: \"<<\"\n",
            "jig.yaml:3: relation `<<`",
        ),
        (
            "size: 4\nconstraints:\n  - cells: r1c1 r1c2\n    forbid: [[1, 7]]\n",
            "jig.yaml:3: `7` is not a symbol of this type",
        ),
        (
            "size: 3\nsymbols: ab.\n",
            "jig.yaml:2: symbol `.` is reserved",
        ),
        (
            "size: 4\nhouses:\n  - kind: row\n    cells: r1c1\n",
            "jig.yaml:3: kind `row`",
        ),
    ] {
        let e = parse_type("jig.yaml", text).unwrap_err().to_string();
        assert!(e.starts_with(want), "{text:?}:\n got  {e}\n want {want}");
    }
}

/// The example of docs/puzzle-types.md is a valid type, whose generated
/// puzzles have one solution.
#[test]
fn the_documented_example_is_a_type() {
    let doc = include_str!("../../docs/puzzle-types.md");
    let yaml = doc
        .split("```yaml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a yaml block");
    let m = Model::build(parse_type("jigsaw-6.yaml", yaml).unwrap());
    assert_eq!(m.name(), "jigsaw-6");
    let g = crate::generate::generate_typed(&m, 1, 0);
    let live = crate::oracle::generic::live_from_givens(&m, &g.puzzle);
    assert_eq!(crate::oracle::generic::count_solutions(&m, &live, 2), 1);
}
