//! Tests of the f-puzzles reader and writer: random variant puzzles of
//! the generator written as addresses and read back as the same CSP and
//! givens; real addresses; corrupted records.

use super::fpuzzles::{FPuzzle, decode, from_json, same_csp, to_json, to_url};
use crate::generate::generate_typed;
use crate::model::yaml::parse_type;
use crate::model::{DynBits, Model};
use crate::oracle::generic::{count_solutions, live_from_givens};

fn read(record: &str) -> Result<FPuzzle, String> {
    decode(record).and_then(|j| from_json(&j))
}

/// Variant types, each with the rules f-puzzles writes.
const TYPES: [&str; 8] = [
    "size: 9\nblocks: 3x3\ndiagonals: both\n",
    "size: 9\nblocks: 3x3\ndisjoint-groups: true\n",
    "size: 6\nblocks: 2x3\nanti-king: true\n",
    "size: 6\nblocks: 2x3\nanti-knight: true\n",
    "size: 6\nregions: |\n  A A A B B B\n  A A C C B B\n  A C C C B D\n  E E C F D D\n  E E F F F D\n  E E F F D D\ndiagonals: main\n",
    "size: 6\nblocks: 2x3\nkropki:\n  white: [r1c1 r1c2, r2c2 r2c3, r4c4 r5c4]\n  black: [r3c1 r4c1, r6c5 r6c6]\nxv:\n  v: [r5c1 r5c2]\nthermometers: [r3c3 r3c4 r2c4]\nextra-regions: [r5c5 r6c4 r6c3]\n",
    // Every dot and mark of the grid 342516/516342/453261/261435/135624/624153.
    "size: 6\nblocks: 2x3\nkropki:\n  white: [r1c1 r1c2, r2c1 r3c1, r2c4 r2c5, r2c4 r3c4, r2c6 r3c6, r3c1 r3c2, r3c2 r4c2, r3c3 r3c4, r4c1 r5c1, r4c4 r4c5, r4c5 r5c5, r4c6 r5c6, r5c2 r6c2, r5c3 r5c4, r5c3 r6c3, r5c6 r6c6]\n  black: [r1c2 r1c3, r2c3 r2c4, r2c3 r3c3, r2c5 r2c6, r3c1 r4c1, r3c4 r4c4, r3c5 r4c5, r4c2 r5c2, r5c5 r5c6, r6c2 r6c3]\n  negative: true\nxv:\n  x: [r2c5 r3c5, r4c4 r5c4]\n  v: [r1c2 r2c2, r1c5 r2c5, r2c4 r3c4, r3c3 r3c4, r4c3 r4c4, r4c5 r5c5, r5c2 r6c2, r6c3 r6c4]\n  negative: true\n",
    "size: 4\nblocks: 2x2\ndiagonals: anti\nthermometers: [r4c1 r3c2 r2c3]\n",
];

#[test]
fn two_hundred_generated_variant_puzzles_round_trip() {
    let mut done = 0;
    for (t, text) in TYPES.iter().enumerate() {
        let m = Model::build(parse_type("t.yaml", text).unwrap_or_else(|e| panic!("{e}")));
        for i in 0..25 {
            let g = generate_typed(&m, 7, i);
            let url = to_url(&m, &g.puzzle).unwrap_or_else(|e| panic!("type {t}: {e}"));
            assert!(url.starts_with("https://f-puzzles.com/?load=N4Ig"), "{url}");
            let back = read(&url).unwrap_or_else(|e| panic!("type {t} puzzle {i}: {e}"));
            assert!(same_csp(&m.spec, &back.spec), "type {t} puzzle {i}");
            assert_eq!(back.spec.variants, m.spec.variants, "type {t}");
            assert_eq!(back.givens, g.puzzle, "type {t} puzzle {i}");
            let bm = Model::build(back.spec);
            let live = live_from_givens(&bm, &back.givens);
            assert_eq!(count_solutions(&bm, &live, 2), 1, "type {t} puzzle {i}");
            // The JSON form reads the same; escaped addresses too.
            let json = to_json(&m, &g.puzzle).unwrap();
            assert_eq!(read(&json).unwrap().givens, g.puzzle);
            let escaped = url
                .replace('+', "%2B")
                .replace('/', "%2F")
                .replace('=', "%3D");
            let escaped = escaped.replacen(
                "%2F%2Ff-puzzles.com%2F?load%3D",
                "//f-puzzles.com/?load=",
                1,
            );
            assert_eq!(read(&escaped).unwrap().givens, g.puzzle, "{escaped}");
            done += 1;
        }
    }
    assert_eq!(done, 200);
}

#[test]
fn addresses_made_by_f_puzzles_itself_are_read() {
    // Published as examples of f-puzzles addresses (the lisudoku
    // sudoku-formats package's README and tests): a 9×9 with one given,
    // and one with givens 1 at r3c3 and 2 at r7c7.
    let one = read("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3vyGCRfALrJCwgTOlyJU0XKVKFsles1c1yrRu2S9R+Yd1nVp/Vdk7r58WK5A").unwrap();
    assert_eq!(one.spec.n, 9);
    assert_eq!(one.givens.iter().flatten().count(), 1);
    assert_eq!(one.givens[0], Some(0));
    let two = read("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1kANwEMAbAK5x4ARlRoI3GADsEAFwzCmK1kQ5tVmug216VGrUbWG1ZyjwHCEAJglTZCpTAO7j+nZw/7atIkA=").unwrap();
    assert_eq!((two.givens[20], two.givens[60]), (Some(0), Some(1)));
    assert!(two.spec.variants.is_empty());
    let classic = Model::build(crate::model::builtin::builtin("sudoku").unwrap());
    assert!(same_csp(&two.spec, &classic.spec));
}

#[test]
fn corrupted_records_each_get_one_clear_error() {
    let cage = r#"{"size":9,"grid":[[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}]],"killercage":[{"cells":["R1C1","R2C1"],"value":"9"}]}"#;
    let with = |key: &str| {
        cage.replace(
            r#""killercage":[{"cells":["R1C1","R2C1"],"value":"9"}]"#,
            key,
        )
    };
    let plain = with(r#""title":"t""#);
    for (record, want) in [
        (
            "https://f-puzzles.com/?load=1234".to_string(),
            "does not decompress",
        ),
        (
            "https://f-puzzles.com/?load=N4Ig!!".to_string(),
            "character '!' at position 5 is not base64",
        ),
        ("https://f-puzzles.com/?load=".to_string(), "no puzzle data"),
        ("https://f-puzzles.com/".to_string(), "without `?load=`"),
        (
            "https://f-puzzles.com/?load=N4%ZZ".to_string(),
            "bad escape",
        ),
        // {"x":3}
        (
            "https://f-puzzles.com/?load=N4IgHiBcDMC+Q===".to_string(),
            "constraint `x` is not supported",
        ),
        (
            cage.replace(r#""value":"9""#, r#""value":"nine""#),
            "killercage: value \"nine\" is not a sum",
        ),
        (
            cage.replace(r#""value":"9""#, r#""value":"18""#),
            "the killer cage at r1c1: 2 distinct numbers from 1 to 9 never sum to 18",
        ),
        (
            cage.replace(r#""cells":["R1C1","R2C1"]"#, r#""cells":["R1C1","R1C1"]"#),
            "the killer cage at r1c1 lists a cell twice",
        ),
        ("{\"size\":9,".to_string(), "bad JSON"),
        (
            with(r#""arrow":[{"cells":["R1C1"],"lines":[]}]"#),
            "constraint `arrow`",
        ),
        (
            with(r#""negative":["difference"]"#),
            "negative constraint `difference` is not supported",
        ),
        (
            with(r#""xv":[{"cells":["R1C1","R1C2"],"value":"Q"}]"#),
            "xv: value \"Q\" is not X or V",
        ),
        (
            with(r#""ratio":[{"cells":["R1C1","R2C2"]}]"#),
            "black dot is between two orthogonal neighbours",
        ),
        (
            with(r#""difference":[{"cells":["R1C1","R10C1"]}]"#),
            "\"R10C1\" is no cell of a 9×9 grid",
        ),
        (
            with(r#""antiknight":"yes""#),
            "`antiknight` is not true or false",
        ),
        (plain.replace("\"size\":9", "\"size\":1"), "size 1"),
        (
            plain.replacen("[{},{},{},{},{},{},{},{},{}],", "", 1),
            "`grid` has 8 rows, expected 9",
        ),
        (
            plain.replacen("{}", "{\"value\":12,\"given\":true}", 1),
            "given 12 is not from 1 to 9",
        ),
        (
            plain.replacen("{}", "{\"region\":3}", 1),
            "region 1 has 8 cells, expected 9",
        ),
    ] {
        let e = read(&record).map(|_| ()).unwrap_err();
        assert!(e.contains(want), "{record}:\n got  {e}\n want {want}");
    }
}

#[test]
fn types_f_puzzles_cannot_express_are_refused_when_written() {
    let raw = "size: 4\nblocks: 2x2\nconstraints:\n  - cells: r1c1 r2c3\n    relation: \"<\"\n";
    let m = Model::build(parse_type("t.yaml", raw).unwrap());
    let e = to_json(&m, &[None; 16]).unwrap_err();
    assert!(e.contains("cannot express"), "{e}");
    let f = Model::build(crate::model::builtin::builtin("futoshiki:4").unwrap());
    assert!(
        to_json(&f, &[None; 16])
            .unwrap_err()
            .contains("inequality signs")
    );
    // Windoku's windows are written as extra regions and read back as
    // the same houses.
    let w = Model::build(parse_type("t.yaml", "size: 9\nblocks: 3x3\nwindoku: true\n").unwrap());
    let back = from_json(&to_json(&w, &[None; 81]).unwrap()).unwrap();
    assert!(same_csp(&w.spec, &back.spec));
    let _ = DynBits::full(1);
}

#[test]
fn generated_killer_puzzles_round_trip_with_their_cages() {
    use crate::generate::generate_killer;
    use crate::model::Variant;
    let m = Model::build(crate::model::builtin::builtin("sudoku").unwrap());
    for i in 0..10 {
        let g = generate_killer(&m, 11, i);
        let empty = vec![None; 81];
        let url = to_url(&g.model, &empty).unwrap_or_else(|e| panic!("puzzle {i}: {e}"));
        let back = read(&url).unwrap_or_else(|e| panic!("puzzle {i}: {e}"));
        assert!(same_csp(&g.model.spec, &back.spec), "puzzle {i}");
        assert_eq!(back.spec.variants, g.model.spec.variants, "puzzle {i}");
        let cages = back
            .spec
            .variants
            .iter()
            .filter(|v| matches!(v, Variant::KillerCage { sum: Some(_), .. }))
            .count();
        assert_eq!(cages, g.cages.len());
        let bm = Model::build(back.spec);
        let live = live_from_givens(&bm, &back.givens);
        assert_eq!(count_solutions(&bm, &live, 2), 1, "puzzle {i}");
    }
    // A cage without a sum reads as a no-repeat cage, and is written back
    // without one.
    let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R2C2"]},{"cells":["R3C3","R3C4"],"value":"7"}]}"#;
    let p = read(json).unwrap();
    assert_eq!(
        p.spec.variants,
        [
            Variant::KillerCage {
                cells: vec![0, 5],
                sum: None
            },
            Variant::KillerCage {
                cells: vec![10, 11],
                sum: Some(7)
            }
        ]
    );
    let m = Model::build(p.spec);
    assert_eq!(m.cages.len(), 1);
    let out = to_json(&m, &p.givens).unwrap();
    assert!(
        out.contains(
            r#""killercage":[{"cells":["R1C1","R2C2"]},{"cells":["R3C3","R3C4"],"value":"7"}]"#
        ),
        "{out}"
    );
}
