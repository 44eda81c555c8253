//! The typed forms ([`super::typed`]) against the wide evaluation of the
//! checked expressions they are made from, on random states.

use super::ir::*;
use super::sets::*;
use super::typed::*;
use crate::grid::bits::Bits;
use crate::grid::geometry::{N_CELLS, cand};
use crate::grid::state::State;

fn slot(s: usize) -> Box<Op> {
    Box::new(Op::Slot(s))
}
fn bx(op: Op) -> Box<Op> {
    Box::new(op)
}
fn cands(e: Elem, x: Box<Op>) -> Box<Op> {
    bx(Op::Cands(e, x))
}
fn digits(e: Elem, x: Box<Op>) -> Op {
    Op::Project(Elem::Digit, cands(e, x))
}
fn quant(q: Quant, slot: usize, domain: Op, body: Op) -> Op {
    Op::Quant(Box::new(QuantOp {
        q,
        slot,
        domain,
        body,
        pre: Vec::new(),
    }))
}

// Slots: 0, 1 cells; 2 a set of cells; 3 a digit; 4 a candidate; 5 a
// house; 6 a set of digits; 7 the empty set of cells; 8 a quantified
// cell; 9 a quantified digit; 10 a set of houses; 11 a row; 12 a
// quantified candidate; 13 a moved part (a set of digits); 14 a set of
// candidates; 15 a set of candidates defined as the product [`def_15`].
// Their types, as the checker records them.
const TYPES: [Ty; 16] = [
    Ty::One(Elem::Cell),
    Ty::One(Elem::Cell),
    Ty::Set(Elem::Cell),
    Ty::One(Elem::Digit),
    Ty::One(Elem::Cand),
    Ty::One(Elem::House),
    Ty::Set(Elem::Digit),
    Ty::Set(Elem::Cell),
    Ty::One(Elem::Cell),
    Ty::One(Elem::Digit),
    Ty::Set(Elem::House),
    Ty::One(Elem::Row),
    Ty::One(Elem::Cand),
    Ty::Set(Elem::Digit),
    Ty::Set(Elem::Cand),
    Ty::Set(Elem::Cand),
];

/// The definition of slot 15: `cands(H) & cands(X)` of the house in
/// slot 5 and the digit in slot 3.
fn def_15() -> Op {
    Op::SetBin(
        SetOp::Inter,
        Elem::Cand,
        cands(Elem::House, slot(5)),
        cands(Elem::Digit, slot(3)),
    )
}

/// One expression of each typed form, and what each must become.
fn cases() -> Vec<(&'static str, Op)> {
    use Elem::{Cand, Cell, Digit, House};
    let union = |a, b| bx(Op::SetBin(SetOp::Union, Cell, a, b));
    let peers1 = || bx(Op::Peers(slot(0)));
    let cell_sel = quant(
        Quant::Select,
        8,
        Op::Project(Cell, bx(Op::Grid)),
        Op::Cmp(
            crate::search::pattern::CmpOp::Eq,
            bx(Op::Len(cands(Cell, slot(8)))),
            bx(Op::Int(2)),
        ),
    );
    let digit_sel = quant(
        Quant::Select,
        9,
        Op::Slot(6),
        Op::In(slot(9), bx(digits(Cell, slot(0)))),
    );
    let in_cell = |q| {
        quant(
            q,
            8,
            Op::Slot(2),
            Op::SubsetOf(bx(digits(Cell, slot(8))), slot(6)),
        )
    };
    let in_digits = |q| quant(q, 9, digits(Cell, slot(1)), Op::In(slot(9), slot(6)));
    vec![
        ("WSet Mask cell", digits(Cell, slot(0))),
        ("WSet Mask cand", digits(Cand, slot(4))),
        ("WSet CellsMask", digits(Cell, slot(2))),
        ("WSet HouseDigits", digits(House, slot(5))),
        ("WSet HouseDigits row", digits(Elem::Row, slot(11))),
        (
            "WSet Bin union",
            Op::SetBin(SetOp::Union, Digit, slot(3), slot(6)),
        ),
        (
            "WSet Bin inter",
            Op::SetBin(SetOp::Inter, Digit, bx(digits(Cell, slot(0))), slot(6)),
        ),
        (
            "WSet Bin minus",
            Op::SetBin(SetOp::Minus, Digit, bx(digits(Cell, slot(1))), slot(3)),
        ),
        ("WSet Select", digit_sel.clone()),
        ("WSet Wide", Op::Project(House, cands(Cand, slot(4)))),
        (
            "WSet ProdHouses of cells",
            Op::Project(House, cands(Cell, slot(2))),
        ),
        (
            "WSet Bin of houses",
            Op::SetBin(SetOp::Union, House, slot(10), slot(11)),
        ),
        (
            "WSet ProdDigits",
            Op::Project(
                Digit,
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(House, slot(5)),
                    cands(House, slot(11)),
                )),
            ),
        ),
        (
            "WSet ProdHouses",
            Op::Project(Elem::Row, cands(Digit, slot(3))),
        ),
        (
            "WSet ProdHouses of houses",
            Op::Project(
                House,
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(Digit, slot(6)),
                    cands(House, slot(10)),
                )),
            ),
        ),
        (
            "CSet ProdCells",
            Op::Project(
                Cell,
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(House, slot(5)),
                    cands(Digit, slot(6)),
                )),
            ),
        ),
        (
            "ProdLen",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Cell, slot(2)),
                cands(Digit, slot(3)),
            ))),
        ),
        (
            "ProdSet of a house and a digit",
            Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(House, slot(5)),
                cands(Digit, slot(3)),
            ),
        ),
        (
            "ProdSet of a digit and cells",
            Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Digit, slot(6)),
                cands(Cell, slot(2)),
            ),
        ),
        (
            "ProdSet of the rows of a product and a digit",
            Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(
                    Elem::Row,
                    bx(Op::Project(
                        Elem::Row,
                        bx(Op::SetBin(
                            SetOp::Inter,
                            Elem::Cand,
                            cands(House, slot(5)),
                            cands(Digit, slot(3)),
                        )),
                    )),
                ),
                cands(Digit, slot(3)),
            ),
        ),
        (
            "SetBin of a house and every digit",
            Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(House, slot(5)),
                bx(Op::Grid),
            ),
        ),
        (
            "ProdSub of two products",
            Op::SubsetOf(
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(House, slot(5)),
                    cands(Digit, slot(6)),
                )),
                cands(Elem::Row, slot(11)),
            ),
        ),
        (
            "ProdSub of cells in a house's",
            Op::SubsetOf(
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(Cell, slot(2)),
                    cands(Digit, slot(3)),
                )),
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(House, slot(5)),
                    cands(Digit, slot(6)),
                )),
            ),
        ),
        (
            "ProdSub of a name defined as a product",
            Op::SubsetOf(slot(15), cands(Elem::Row, slot(11))),
        ),
        (
            "ProdSub of a name defined as a product, in a row's digit",
            Op::SubsetOf(
                slot(15),
                bx(Op::SetBin(
                    SetOp::Inter,
                    Elem::Cand,
                    cands(Elem::Row, slot(11)),
                    cands(Digit, slot(3)),
                )),
            ),
        ),
        (
            "SubsetOf of a set that is no product",
            Op::SubsetOf(slot(14), cands(Elem::Row, slot(11))),
        ),
        (
            "ProdLen of a cell",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Cell, slot(0)),
                cands(Digit, slot(6)),
            ))),
        ),
        (
            "ElemAndLen of a digit",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                slot(14),
                cands(Digit, slot(3)),
            ))),
        ),
        (
            "ElemAndLen of a house",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(House, slot(5)),
                slot(14),
            ))),
        ),
        (
            "ElemAndLen of a row and a candidate",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Elem::Row, slot(11)),
                slot(4),
            ))),
        ),
        (
            "ElemAndLen of a digit computed",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Digit, slot(3)),
                cands(Cand, slot(14)),
            ))),
        ),
        (
            "ElemAndLen of a cell",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Cell, slot(0)),
                slot(14),
            ))),
        ),
        (
            "ElemAndLen of a cell reversed",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                slot(14),
                cands(Cell, slot(1)),
            ))),
        ),
        (
            "ElemAndLen of a cell of a candidate",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Cell, slot(0)),
                slot(4),
            ))),
        ),
        (
            "ElemAndLen of a cell computed",
            Op::Len(bx(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                cands(Cell, slot(1)),
                cands(Cand, slot(14)),
            ))),
        ),
        ("CSet PeersOne", Op::Peers(slot(0))),
        ("CSet Peers", Op::Peers(slot(2))),
        ("CSet Peers union", Op::Peers(union(slot(0), slot(1)))),
        ("CSet Peers empty", Op::Peers(union(slot(7), slot(1)))),
        ("CSet Peers none", Op::Peers(slot(7))),
        ("CSet HouseCells", Op::Project(Cell, cands(House, slot(5)))),
        (
            "CSet Bin",
            Op::SetBin(SetOp::Minus, Cell, peers1(), slot(2)),
        ),
        ("CSet Select", cell_sel.clone()),
        ("CSet Wide", Op::Project(Cell, cands(Cand, slot(4)))),
        (
            "CSet ProdCells of the grid",
            Op::Project(Cell, bx(Op::Grid)),
        ),
        (
            "CSet ProdCells of a digit",
            Op::Project(Cell, cands(Digit, slot(3))),
        ),
        ("WLen", Op::Len(bx(digits(Cell, slot(2))))),
        ("CLen", Op::Len(peers1())),
        ("MaskLen cell", Op::Len(cands(Cell, slot(0)))),
        ("MaskLen cand", Op::Len(cands(Cand, slot(4)))),
        (
            "WEq",
            Op::SetEq(true, bx(digits(Cell, slot(0))), bx(digits(Cell, slot(1)))),
        ),
        (
            "WEq ne",
            Op::SetEq(false, bx(digits(Cell, slot(0))), slot(6)),
        ),
        ("CEq", Op::SetEq(true, peers1(), bx(Op::Peers(slot(1))))),
        ("WSub", Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
        ("CSub", Op::SubsetOf(slot(2), peers1())),
        ("WIn", Op::In(slot(3), bx(digits(Cell, slot(0))))),
        ("WIn one", Op::In(slot(3), bx(Op::First(slot(6))))),
        ("CIn", Op::In(slot(1), peers1())),
        (
            "AllOf",
            Op::And(
                bx(Op::In(slot(3), slot(6))),
                bx(Op::And(
                    bx(Op::In(slot(1), peers1())),
                    bx(Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
                )),
            ),
        ),
        (
            "AnyOf",
            Op::Or(
                bx(Op::Or(
                    bx(Op::In(slot(3), slot(6))),
                    bx(Op::In(slot(1), peers1())),
                )),
                bx(Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
            ),
        ),
        (
            // Chains three deep: an `or` of `and`s of `or`s.
            "AnyOf nested",
            Op::Or(
                bx(Op::And(
                    bx(Op::In(slot(3), slot(6))),
                    bx(Op::Or(
                        bx(Op::In(slot(1), peers1())),
                        bx(Op::SubsetOf(bx(digits(Cell, slot(0))), slot(6))),
                    )),
                )),
                bx(Op::And(
                    bx(Op::Not(bx(Op::In(slot(3), slot(6))))),
                    bx(Op::Cmp(
                        crate::search::pattern::CmpOp::Eq,
                        bx(Op::Len(cands(Cell, slot(1)))),
                        bx(Op::Int(2)),
                    )),
                )),
            ),
        ),
        ("TQuant all within", in_cell(Quant::All)),
        ("TQuant any moved within", {
            // `any(x in S: digits(x) <= d | D)`, its bound moved out.
            let body = Op::SubsetOf(
                bx(digits(Cell, slot(8))),
                bx(Op::SetBin(SetOp::Union, Digit, slot(3), slot(6))),
            );
            let mut next = 13;
            let (pre, body) = super::hoist::hoist(body, 8, &mut next);
            assert_eq!(pre.len(), 1);
            Op::Quant(Box::new(QuantOp {
                q: Quant::Any,
                slot: 8,
                domain: Op::Slot(2),
                body,
                pre,
            }))
        }),
        ("TQuant any within", in_cell(Quant::Any)),
        ("TQuant none within", in_cell(Quant::None)),
        ("TQuant count within", in_cell(Quant::Count)),
        ("TQuant all digits", in_digits(Quant::All)),
        ("TQuant any digits", in_digits(Quant::Any)),
        ("TQuant count digits", in_digits(Quant::Count)),
        (
            "TQuant count cells",
            quant(
                Quant::Count,
                8,
                Op::Project(Cell, bx(Op::Grid)),
                Op::In(slot(3), bx(digits(Cell, slot(8)))),
            ),
        ),
        (
            "ICmp of a count",
            Op::Cmp(
                crate::search::pattern::CmpOp::Ge,
                bx(in_digits(Quant::Count)),
                bx(Op::Int(2)),
            ),
        ),
        (
            "ICmp of sizes",
            Op::Cmp(
                crate::search::pattern::CmpOp::Lt,
                bx(Op::Len(cands(Cell, slot(0)))),
                bx(Op::Len(bx(digits(Cell, slot(2))))),
            ),
        ),
        (
            "ICmp of a sum",
            Op::Cmp(
                crate::search::pattern::CmpOp::Eq,
                bx(Op::IntBin(
                    crate::search::pattern::IntOp::Sub,
                    bx(Op::Len(peers1())),
                    bx(Op::Int(19)),
                )),
                bx(Op::Len(cands(Cand, slot(4)))),
            ),
        ),
        (
            "XCmp of two bound elements",
            Op::Cmp(crate::search::pattern::CmpOp::Le, slot(0), slot(1)),
        ),
        (
            "XCmp of a digit and a row",
            Op::Cmp(crate::search::pattern::CmpOp::Ne, slot(3), slot(11)),
        ),
        (
            "Cmp of a bound element and a set",
            Op::Cmp(crate::search::pattern::CmpOp::Lt, slot(0), slot(2)),
        ),
        (
            "TQuant wide domain",
            quant(
                Quant::Count,
                12,
                Op::Cands(Cell, slot(0)),
                Op::In(slot(12), bx(Op::Grid)),
            ),
        ),
        (
            "undefined in a quantifier",
            quant(
                Quant::Select,
                9,
                Op::Slot(6),
                Op::In(bx(Op::First(slot(7))), peers1()),
            ),
        ),
    ]
}

/// The name of the outermost typed form of an expression.
fn form(op: &TOp) -> String {
    let w = |w: &WOp| format!("{w:?}").split('(').next().unwrap_or("").to_string();
    let c = |c: &COp| format!("{c:?}").split('(').next().unwrap_or("").to_string();
    match op {
        TOp::WSet(x) => format!("WSet {}", w(x)),
        TOp::CSet(x) => format!("CSet {}", c(x)),
        _ => format!("{op:?}")
            .split('(')
            .next()
            .unwrap_or("")
            .to_string(),
    }
}

/// Every typed operator has the value of the expression it was made
/// from, on random states and bindings.
#[test]
fn typed_forms_agree_with_wide_evaluation() {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % n) as usize
    };
    let mut t = Typer {
        types: &TYPES,
        defs: Vec::new(),
    };
    let def = t.prod(&def_15()).expect("a product");
    t.def(15, def);
    let cases = cases();
    let typed: Vec<TOp> = cases.iter().map(|(_, op)| t.op(op)).collect();
    // Each case became the form it names.
    for ((name, _), op) in cases.iter().zip(&typed) {
        let want = name.split(' ').take(2).collect::<Vec<_>>().join(" ");
        let got = form(op);
        assert!(
            want.starts_with(&got) || name.starts_with("undefined"),
            "{name}: {got}"
        );
        if let TOp::TQuant(tq) = op {
            assert_eq!(tq.within.is_some(), name.ends_with("within"), "{name}");
            // A moved part read by the condition only is computed in
            // place.
            assert!(tq.pre.is_empty(), "{name}");
            assert_eq!(
                matches!(tq.within, Some((_, WOp::Bin(..)))),
                name.contains("moved"),
                "{name}"
            );
        }
    }
    let mut differ = 0;
    for round in 0..300 {
        let mut masks = [0u16; N_CELLS];
        for m in masks.iter_mut() {
            // Some empty cells, some bivalue ones.
            *m = match next(4) {
                0 => 0,
                1 => [3, 5, 6, 0x101, 0x180][next(5)],
                _ => next(512) as u16,
            };
        }
        let state = State::from_masks(&masks, &[0; N_CELLS]);
        let (c1, c2) = (next(81), next(81));
        let cells = Bits::from_indices((0..1 + next(4)).map(|_| next(81)));
        let digit_set = word_bits(next(512) as u64);
        let houses = word_bits(next(1 << 27) as u64);
        let mut vals = vec![
            Val::Idx(c1),
            Val::Idx(if round % 5 == 0 { c1 } else { c2 }),
            Val::Set(cells),
            Val::Idx(next(9)),
            Val::Idx(cand(c1, next(9))),
            Val::Idx(next(27)),
            Val::Set(digit_set),
            Val::Set(Bits::EMPTY),
            Val::Int(0),
            Val::Int(0),
            Val::Set(houses),
            Val::Idx(next(9)),
            Val::Int(0),
            Val::Int(0),
            Val::Set(Bits::from_indices((0..next(200)).map(|_| next(729)))),
            Val::Int(0),
        ];
        vals[15] = TOp::wide(&def_15())
            .value(&state, &mut vals)
            .expect("defined");
        for ((name, wide), typed) in cases.iter().zip(&typed) {
            let a = TOp::wide(wide).value(&state, &mut vals);
            let b = typed.value(&state, &mut vals);
            assert_eq!(a, b, "{name} on round {round}");
            differ += usize::from(a != TOp::wide(&cases[0].1).value(&state, &mut vals));
        }
    }
    // The cases are not all one value.
    assert!(differ > 1000, "{differ}");
}
