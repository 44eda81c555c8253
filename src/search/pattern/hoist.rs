//! Parts of a quantifier's condition that do not change from member to
//! member, computed once per evaluation of the quantifier.
//!
//! In `count(x in cells(grid): digits(x) <= digits(P) - D)`, `digits(P) -
//! D` is the same for each of the 81 cells: [`hoist`] moves it to the
//! quantifier's [`QuantOp::pre`], which the matcher evaluates before the
//! first member into a slot of its own, and the condition reads that slot.
//! A part is moved when it reads neither the quantifier's variable nor a
//! name bound inside the condition (an inner quantifier's variable or its
//! own moved parts), and cannot be undefined (no `first` or `last`): an
//! undefined part evaluated where the condition would not have evaluated
//! it would change the answer. Parts that cost nothing to read (a bound
//! value, a constant, `grid`) stay, and so do products of cells and
//! digits (`cands(D)`, `cands(H) & cands(D)`; see [`is_product`]), which
//! the typed evaluator reads from the cells' digit masks in place, while
//! moved they would be candidate sets; their operands may move.
//! An inner quantifier's moved part that moves on whole to an outer one
//! leaves no copy behind: the inner condition reads the outer slot.
//!
//! The pass ([`hoist_all`]) moves the parts of every quantifier of a
//! checked rule, inner ones first, then numbers the slots they take as if
//! each quantifier's had been taken when the checker finished it: right
//! after the last slot its condition binds (its variable, or an inner
//! quantifier's), inner quantifiers' first. So the slots follow the
//! rule's text as the other slots do, and plans that begin alike still
//! share their prefixes ([`super::prefix`]).

use super::ir::{Checked, Elem, Instr, Op, QuantOp, SetOp, ShowPart, Ty, free_slots};
use std::cmp::Reverse;
use std::collections::HashMap;

/// Moves the parts of each quantifier's condition in `c` that are the
/// same for every member into slots of their own (see the module
/// documentation), numbered in the order of the rule's text.
pub fn hoist_all(mut c: Checked) -> Checked {
    let mut pass = Pass {
        quants: HashMap::new(),
        next: c.slots,
        moved: Vec::new(),
        types: std::mem::take(&mut c.slot_types),
    };
    // Where each quantifier's moved parts go: after the last slot its
    // condition binds, deeper quantifiers' first.
    for op in exprs(&mut c) {
        pass.survey(op, 0);
    }
    for op in exprs(&mut c) {
        *op = pass.visit(std::mem::replace(op, Op::Int(0)));
    }
    // The checker's slots, each moved part's after its quantifier's last.
    let mut order: Vec<(usize, usize, Reverse<usize>, usize)> = (0..c.slots)
        .map(|s| (s, 0, Reverse(0), s))
        .chain(
            pass.moved
                .iter()
                .map(|&(t, m, depth)| (m, 1, Reverse(depth), t)),
        )
        .collect();
    order.sort_unstable();
    let mut map = vec![0; order.len()];
    for (new, &(.., old)) in order.iter().enumerate() {
        map[old] = new;
    }
    for op in exprs(&mut c) {
        renumber(op, &map);
    }
    for g in c.gens.iter_mut().chain(c.placed.iter_mut().map(|(_, i)| i)) {
        match g {
            Instr::Gen { slot, .. } | Instr::Def { slot, .. } => *slot = map[*slot],
            Instr::Walk(w) => {
                for s in w.slots_mut() {
                    *s = map[*s];
                }
            }
            Instr::Cluster(k) => {
                k.cands = map[k.cands];
                k.colour = map[k.colour];
            }
            Instr::Als(a) => a.slot = map[a.slot],
            Instr::Filter(_) => {}
        }
    }
    for (_, slot) in &mut c.name_holes {
        *slot = map[*slot];
    }
    // A `then` generator's domain is the union of its parts, as moved.
    for g in &mut c.gens {
        if let Instr::Gen {
            elem,
            domain,
            order,
            ..
        } = g
            && !order.is_empty()
        {
            *domain = order
                .iter()
                .cloned()
                .reduce(|a, b| Op::SetBin(SetOp::Union, *elem, Box::new(a), Box::new(b)));
        }
    }
    let n = order.len();
    let mut types = vec![Ty::Error; n];
    let mut shapes = vec![None; n];
    for (old, &new) in map.iter().enumerate() {
        types[new] = pass.types[old];
        if old < c.slots {
            shapes[new] = c.slot_shapes[old];
        }
    }
    c.slots = n;
    c.slot_types = types;
    c.slot_shapes = shapes;
    c
}

/// Every expression of a checked rule (a `then` generator's parts, not
/// its domain, which is their union).
fn exprs(c: &mut Checked) -> Vec<&mut Op> {
    let mut out = Vec::new();
    for g in &mut c.gens {
        match g {
            Instr::Gen { domain, order, .. } => {
                if order.is_empty() {
                    out.extend(domain.as_mut());
                } else {
                    out.extend(order.iter_mut());
                }
            }
            Instr::Walk(w) => out.extend(w.ops_mut()),
            Instr::Cluster(k) => out.push(&mut k.domain),
            Instr::Als(a) => out.extend(a.domain.as_mut().into_iter().chain(a.holding.as_mut())),
            Instr::Def { .. } | Instr::Filter(_) => {}
        }
    }
    for (_, i) in &mut c.placed {
        match i {
            Instr::Def { op, .. } | Instr::Filter(op) => out.push(op),
            Instr::Gen { .. } | Instr::Walk(_) | Instr::Cluster(_) | Instr::Als(_) => {}
        }
    }
    out.push(&mut c.target);
    out.extend(c.parents.as_mut());
    for p in &mut c.show {
        match p {
            ShowPart::Lit(_) => {}
            ShowPart::Value(_, op) => out.push(op),
            ShowPart::Within { ctx, x, .. } => {
                out.push(ctx);
                out.push(x);
            }
        }
    }
    out
}

/// The state of the pass over one rule.
struct Pass {
    /// For each quantifier (by its variable's slot): the last slot its
    /// condition binds, and how deep it is nested.
    quants: HashMap<usize, (usize, usize)>,
    /// The next slot to take (numbered from the checker's last).
    next: usize,
    /// Each slot taken: the slot, its quantifier's last slot and depth.
    moved: Vec<(usize, usize, usize)>,
    /// The type of each slot, the checker's and the moved parts'.
    types: Vec<Ty>,
}

impl Pass {
    /// Records the last slot each quantifier's condition binds and its
    /// depth; returns the last slot a quantifier in `op` binds (0 if
    /// none).
    fn survey(&mut self, op: &Op, depth: usize) -> usize {
        match op {
            Op::Quant(q) => {
                let outer = self.survey(&q.domain, depth + 1);
                let last = q.slot.max(self.survey(&q.body, depth + 1));
                self.quants.insert(q.slot, (last, depth));
                outer.max(last)
            }
            _ => (op.operands().into_iter().flatten())
                .map(|x| self.survey(x, depth))
                .max()
                .unwrap_or(0),
        }
    }

    /// `op` with the parts of its quantifiers moved, inner ones first.
    fn visit(&mut self, mut op: Op) -> Op {
        let Op::Quant(q) = op else {
            for x in op.operands_mut().into_iter().flatten() {
                *x = self.visit(std::mem::replace(x, Op::Int(0)));
            }
            return op;
        };
        let QuantOp {
            q: kind,
            slot,
            domain,
            body,
            pre: _,
        } = *q;
        let domain = self.visit(domain);
        let body = self.visit(body);
        let first = self.next;
        let (pre, body) = hoist(body, slot, &mut self.next);
        let (last, depth) = self.quants[&slot];
        self.moved
            .extend((first..self.next).map(|t| (t, last, depth)));
        // A moved part's slot holds the part's value.
        self.types.resize(self.next, Ty::Error);
        for (t, p) in &pre {
            self.types[*t] = p.ty(&self.types);
        }
        Op::Quant(Box::new(QuantOp {
            q: kind,
            slot,
            domain,
            body,
            pre,
        }))
    }
}

/// Makes every slot `s` that `op` reads or binds slot `map[s]`.
fn renumber(op: &mut Op, map: &[usize]) {
    match op {
        Op::Slot(s) => *s = map[*s],
        Op::Quant(q) => {
            q.slot = map[q.slot];
            renumber(&mut q.domain, map);
            for (t, v) in &mut q.pre {
                *t = map[*t];
                renumber(v, map);
            }
            renumber(&mut q.body, map);
        }
        _ => {
            for x in op.operands_mut().into_iter().flatten() {
                renumber(x, map);
            }
        }
    }
}

/// Moves the parts of `body` (the condition of a quantifier over `slot`)
/// that are the same for every member into slots numbered from `*next`
/// on, which it advances. Returns those parts, each with its slot, in the
/// order they must be evaluated, and the condition that reads them.
pub fn hoist(body: Op, slot: usize, next: &mut usize) -> (Vec<(usize, Op)>, Op) {
    let mut pre = Vec::new();
    let body = visit(body, &[slot], &mut pre, next);
    (pre, body)
}

fn visit(op: Op, bound: &[usize], pre: &mut Vec<(usize, Op)>, next: &mut usize) -> Op {
    if matches!(
        op,
        Op::Slot(_) | Op::Int(_) | Op::Grid | Op::Decided | Op::Givens | Op::Symbols
    ) {
        return op;
    }
    if !op.may_fail() && !reads_any(&op, bound) {
        if is_product(&op) {
            // Kept in place; its operands may still move.
            return match op {
                Op::Cands(e, x) => Op::Cands(e, Box::new(visit(*x, bound, pre, next))),
                Op::SetBin(o, e, a, b) => Op::SetBin(
                    o,
                    e,
                    Box::new(visit(*a, bound, pre, next)),
                    Box::new(visit(*b, bound, pre, next)),
                ),
                other => other,
            };
        }
        let t = *next;
        *next += 1;
        pre.push((t, op));
        return Op::Slot(t);
    }
    let mut go = |x: Box<Op>| Box::new(visit(*x, bound, pre, next));
    match op {
        Op::Cands(e, x) => Op::Cands(e, go(x)),
        Op::Project(e, x) => Op::Project(e, go(x)),
        Op::Linked(x) => Op::Linked(go(x)),
        Op::OrWhips(k, x, n) => Op::OrWhips(k, go(x), go(n)),
        Op::Peers(x) => Op::Peers(go(x)),
        Op::First(x) => Op::First(go(x)),
        Op::Last(x) => Op::Last(go(x)),
        Op::Len(x) => Op::Len(go(x)),
        Op::Not(x) => Op::Not(go(x)),
        Op::SetBin(o, e, a, b) => Op::SetBin(o, e, go(a), go(b)),
        Op::IntBin(o, a, b) => Op::IntBin(o, go(a), go(b)),
        Op::Cmp(o, a, b) => Op::Cmp(o, go(a), go(b)),
        Op::SetEq(eq, a, b) => Op::SetEq(eq, go(a), go(b)),
        Op::SubsetOf(a, b) => Op::SubsetOf(go(a), go(b)),
        Op::In(a, b) => Op::In(go(a), go(b)),
        Op::And(a, b) => Op::And(go(a), go(b)),
        Op::Or(a, b) => Op::Or(go(a), go(b)),
        Op::Geo(g, e, x) => Op::Geo(g, e, go(x)),
        Op::CellAt(a, b) => Op::CellAt(go(a), go(b)),
        Op::Value(x) => Op::Value(go(x)),
        Op::Order(o, x) => Op::Order(o, go(x)),
        Op::Rise(l, a, b) => Op::Rise(l, go(a), go(b)),
        Op::Sum(f, e, x) => Op::Sum(f, e, go(x)),
        Op::At(e, h, a, b) => Op::At(e, h, go(a), go(b)),
        Op::Quant(q) => {
            // An inner quantifier: its domain and moved parts are evaluated
            // once per member of ours; its condition sees its own variable
            // and moved parts too.
            let QuantOp {
                q: kind,
                slot,
                domain,
                body,
                pre: inner,
            } = *q;
            let domain = visit(domain, bound, pre, next);
            let mut inner_bound = bound.to_vec();
            inner_bound.push(slot);
            let inner: Vec<(usize, Op)> = inner
                .into_iter()
                .map(|(t, v)| {
                    inner_bound.push(t);
                    (t, visit(v, bound, pre, next))
                })
                .collect();
            let mut body = visit(body, &inner_bound, pre, next);
            // A moved part that moved on whole is now a slot of ours: the
            // inner condition reads that slot instead of a copy of it.
            let inner = inner
                .into_iter()
                .filter(|(t, v)| match v {
                    Op::Slot(s) => {
                        rename(&mut body, *t, *s);
                        false
                    }
                    _ => true,
                })
                .collect();
            Op::Quant(Box::new(QuantOp {
                q: kind,
                slot,
                domain,
                body,
                pre: inner,
            }))
        }
        leaf @ (Op::Slot(_) | Op::Int(_) | Op::Grid | Op::Decided | Op::Givens | Op::Symbols) => {
            leaf
        }
    }
}

/// Is `op` a set of candidates that the typed evaluator reads as a
/// product of cells and digits ([`super::typed::Prod`]): `cands(X)` of
/// digits, cells or houses, the live candidates of such a set, an
/// intersection of such sets? Its size, cells, digits and houses are then
/// read from the cells' digit masks by digit, with no candidate set made;
/// moved into a slot it would be a candidate set (twelve words), and every
/// operation on it a wide one. So a product stays where it is (its
/// operands may move): `|cands(B) & cands(x)|` over the digits x of a
/// bound house B counts x's places in B from two words.
fn is_product(op: &Op) -> bool {
    match op {
        Op::Grid => true,
        Op::Cands(Elem::Cand, x) => is_product(x),
        Op::Cands(Elem::Var(_), _) => false,
        Op::Cands(..) => true,
        Op::SetBin(SetOp::Inter, _, a, b) => is_product(a) && is_product(b),
        _ => false,
    }
}

/// Makes every read of slot `from` in `op` a read of slot `to`.
fn rename(op: &mut Op, from: usize, to: usize) {
    match op {
        Op::Slot(s) if *s == from => *s = to,
        Op::Quant(q) => {
            rename(&mut q.domain, from, to);
            for (_, v) in &mut q.pre {
                rename(v, from, to);
            }
            rename(&mut q.body, from, to);
        }
        _ => {
            for x in op.operands_mut().into_iter().flatten() {
                rename(x, from, to);
            }
        }
    }
}

/// Does `op` read one of the slots `slots` (where a quantifier inside it
/// does not bind them anew)?
fn reads_any(op: &Op, slots: &[usize]) -> bool {
    let mut free = Vec::new();
    free_slots(op, &mut Vec::new(), &mut free);
    free.iter().any(|s| slots.contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::ir::{CmpOp, Elem, Quant, SetOp};

    fn b(op: Op) -> Box<Op> {
        Box::new(op)
    }

    /// `|cands(x) & (cands(D) - cands(E))| == 2` over `x` (slot 1), `D`
    /// in slot 0, `E` in slot 2: `cands(D) - cands(E)` moves to slot 5,
    /// the rest stays.
    #[test]
    fn the_part_without_the_variable_moves() {
        let minus = Op::SetBin(
            SetOp::Minus,
            Elem::Cand,
            b(Op::Cands(Elem::Digit, b(Op::Slot(0)))),
            b(Op::Cands(Elem::Cell, b(Op::Slot(2)))),
        );
        let body = Op::Cmp(
            CmpOp::Eq,
            b(Op::Len(b(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                b(Op::Cands(Elem::Cell, b(Op::Slot(1)))),
                b(minus),
            )))),
            b(Op::Int(2)),
        );
        let mut next = 5;
        let (pre, body) = hoist(body, 1, &mut next);
        assert_eq!(next, 6);
        assert_eq!(pre.len(), 1);
        assert_eq!(pre[0].0, 5);
        assert!(matches!(&pre[0].1, Op::SetBin(SetOp::Minus, ..)));
        let text = format!("{body:?}");
        assert!(
            text.contains("Slot(5)") && text.contains("Slot(1)") && !text.contains("Minus"),
            "{text}"
        );
    }

    /// `|cands(x) & cands(H) & cands(digits(P))| == 2` over `x` (slot 1),
    /// `H` a house in slot 0, `P` a cell in slot 2: the product
    /// `cands(H) & cands(digits(P))` stays in place (the typed evaluator
    /// reads it from the cells' digit masks), but its operand
    /// `digits(P)` moves to slot 7.
    #[test]
    fn a_product_stays_and_its_operands_move() {
        let digits_p = Op::Project(Elem::Digit, b(Op::Cands(Elem::Cell, b(Op::Slot(2)))));
        let product = Op::SetBin(
            SetOp::Inter,
            Elem::Cand,
            b(Op::Cands(Elem::House, b(Op::Slot(0)))),
            b(Op::Cands(Elem::Digit, b(digits_p))),
        );
        let body = Op::Cmp(
            CmpOp::Eq,
            b(Op::Len(b(Op::SetBin(
                SetOp::Inter,
                Elem::Cand,
                b(Op::Cands(Elem::Cell, b(Op::Slot(1)))),
                b(product),
            )))),
            b(Op::Int(2)),
        );
        let mut next = 7;
        let (pre, body) = hoist(body, 1, &mut next);
        assert_eq!(next, 8);
        assert_eq!(pre.len(), 1, "{pre:?}");
        assert!(matches!(&pre[0].1, Op::Project(Elem::Digit, _)), "{pre:?}");
        let text = format!("{body:?}");
        assert!(
            text.contains("Cands(House, Slot(0))") && text.contains("Cands(Digit, Slot(7))"),
            "{text}"
        );
        // A candidate set that is no product (`cands(x) - cands(H)` of
        // two bound names) moves whole.
        assert!(is_product(&Op::Grid));
        assert!(!is_product(&Op::Cands(Elem::Var(None), b(Op::Slot(0)))));
        assert!(!is_product(&Op::SetBin(
            SetOp::Minus,
            Elem::Cand,
            b(Op::Cands(Elem::Cell, b(Op::Slot(0)))),
            b(Op::Cands(Elem::House, b(Op::Slot(2)))),
        )));
    }

    /// `all(w in S0: all(u in S1: u in peers(D) and w < u))`, D in
    /// slot 2: the inner quantifier moves `peers(D)` out of its condition,
    /// then the outer one moves it on; the inner condition reads the outer
    /// slot and keeps no copy of it.
    #[test]
    fn a_part_moved_twice_is_read_where_it_lands() {
        let inner_body = Op::And(
            b(Op::In(b(Op::Slot(4)), b(Op::Peers(b(Op::Slot(2)))))),
            b(Op::Cmp(CmpOp::Lt, b(Op::Slot(3)), b(Op::Slot(4)))),
        );
        let mut next = 10;
        let (inner_pre, inner_body) = hoist(inner_body, 4, &mut next);
        assert_eq!(inner_pre.len(), 1);
        assert_eq!(inner_pre[0].0, 10);
        let inner = Op::Quant(Box::new(QuantOp {
            q: Quant::All,
            slot: 4,
            domain: Op::Slot(1),
            body: inner_body,
            pre: inner_pre,
        }));
        let (pre, body) = hoist(inner, 3, &mut next);
        assert_eq!(pre.len(), 1, "{pre:?}");
        assert_eq!(pre[0].0, 11);
        let Op::Quant(q) = &body else {
            panic!("{body:?}")
        };
        assert!(q.pre.is_empty(), "{:?}", q.pre);
        let mut free = Vec::new();
        free_slots(&q.body, &mut vec![4], &mut free);
        assert!(free.contains(&11) && !free.contains(&10), "{free:?}");
    }

    /// Nothing undefined moves (`first(S)`), nor a part that reads an inner
    /// quantifier's variable; an inner quantifier that does not read ours
    /// moves whole.
    #[test]
    fn undefined_parts_and_inner_variables_stay() {
        let first = Op::Cmp(CmpOp::Eq, b(Op::Slot(1)), b(Op::First(b(Op::Slot(0)))));
        let mut next = 9;
        let (pre, _) = hoist(first, 1, &mut next);
        assert!(pre.is_empty());
        // any(y in S0: y in S2) inside a quantifier over slot 1: reads no
        // slot 1, so it moves whole.
        let inner = Op::Quant(Box::new(QuantOp {
            q: Quant::Any,
            slot: 3,
            domain: Op::Slot(0),
            body: Op::In(b(Op::Slot(3)), b(Op::Slot(2))),
            pre: Vec::new(),
        }));
        let body = Op::And(b(Op::In(b(Op::Slot(1)), b(Op::Slot(0)))), b(inner));
        let (pre, body) = hoist(body, 1, &mut next);
        assert_eq!(pre.len(), 1, "{pre:?}");
        assert!(matches!(pre[0].1, Op::Quant(_)));
        assert!(matches!(body, Op::And(..)));
    }

    /// The pass numbers moved parts as the checker would have taken them
    /// when it finished each quantifier: `let A: cell; where any(x in
    /// cells(grid): all(u in peers(x): u in peers(A))); let B: cell`. The
    /// inner quantifier moves `peers(A)` (slot 3, after u), the outer one
    /// moves it on (slot 4; the inner condition reads it there), and B,
    /// written after them, comes after both (slot 5).
    #[test]
    fn moved_parts_are_numbered_in_the_order_of_the_text() {
        use crate::search::ConclusionKind;
        use crate::search::pattern::ir::{Instr, Shape, Ty};
        let cell = |slot| Instr::Gen {
            slot,
            elem: Elem::Cell,
            size: None,
            domain: None,
            order: Vec::new(),
        };
        let quant = |q, slot, domain, body| {
            Op::Quant(Box::new(QuantOp {
                q,
                slot,
                domain,
                body,
                pre: Vec::new(),
            }))
        };
        let inner = quant(
            Quant::All,
            2,
            Op::Peers(b(Op::Slot(1))),
            Op::In(b(Op::Slot(2)), b(Op::Peers(b(Op::Slot(0))))),
        );
        let outer = quant(Quant::Any, 1, Op::Project(Elem::Cell, b(Op::Grid)), inner);
        let one = Ty::One(Elem::Cell);
        let c = hoist_all(Checked {
            slots: 4,
            slot_types: vec![one; 4],
            slot_shapes: vec![
                Some(Shape::One(Elem::Cell)),
                None,
                None,
                Some(Shape::One(Elem::Cell)),
            ],
            gens: vec![cell(0), cell(3)],
            placed: vec![(1, Instr::Filter(outer))],
            conclusion: ConclusionKind::Eliminate,
            target: Op::Cands(Elem::Cell, b(Op::Slot(3))),
            parents: None,
            show: Vec::new(),
            name_holes: Vec::new(),
        });
        assert_eq!(c.slots, 6);
        assert!(matches!(c.gens[1], Instr::Gen { slot: 5, .. }));
        assert_eq!(c.target, Op::Cands(Elem::Cell, b(Op::Slot(5))));
        let Instr::Filter(Op::Quant(q)) = &c.placed[0].1 else {
            panic!("{:?}", c.placed)
        };
        assert_eq!(q.pre, [(4, Op::Peers(b(Op::Slot(0))))]);
        let Op::Quant(inner) = &q.body else {
            panic!("{:?}", q.body)
        };
        assert!(inner.pre.is_empty());
        assert_eq!(inner.body, Op::In(b(Op::Slot(2)), b(Op::Slot(4))));
        let set = Ty::Set(Elem::Cell);
        assert_eq!(c.slot_types, [one, one, one, set, set, one]);
        assert_eq!(
            c.slot_shapes[3..],
            [None, None, Some(Shape::One(Elem::Cell))]
        );
    }
}
