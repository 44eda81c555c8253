//! Conditions folded into generators' domains.
//!
//! A `where` clause runs right after the last generator it depends on
//! ([`super::schedule`]). When a condition, or a term of a top-level
//! `and`, reads nothing but the element that generator binds (`let X:
//! digit; where |houses(row, cands(X))| >= 4`, or `|A| >= 2` in `where A < B
//! and |A| >= 2`), its answer for an element is the same under every
//! binding of the earlier generators. [`fold`] finds such conditions; the
//! matcher then tests them once per search on the generator's default
//! domain (the elements with a live candidate, computed once per search
//! anyway) instead of once per binding that reaches them, and runs what is
//! left of the filter.
//!
//! Only single-element generators are folded. The folded conditions are
//! tested on the generator's default domain; a generator with an `in`
//! domain keeps the members of that domain that are in it, which are the
//! members that pass the conditions (the default domain is computed for
//! every generator, on the first binding that reaches it). Conditions
//! are pure (an undefined value makes one fail, wherever it is tested), so
//! testing a term earlier, or apart from the other terms of its `and`,
//! changes no match and no order of matches. The plan's instructions are
//! left as they are: shared prefixes and the branch runner's count plans
//! read them. The typed stage ([`super::typed`]) then types each generator's
//! folded conditions and what is left of each filter.

use super::ir::{CmpOp, Instr, Op, free_slots};

/// What [`fold`] found in a plan, indexed by instruction.
#[derive(Clone, Debug, Default)]
pub struct Folded {
    /// For a generator: the conditions on its element alone, tested once
    /// per search on its default domain (empty for other instructions).
    pub conds: Vec<Vec<Op>>,
    /// For a filter: what is left of it to test per binding.
    pub rest: Vec<Rest>,
    /// For a single-element generator: a comparison `X < S` (`<=`, `>`,
    /// `>=`) of its element X with an element S bound before it, found in
    /// a filter that follows it (`where A < B`, `e < D2`): the matcher
    /// keeps only the members on the right side of S's index in the
    /// generator's domain (see [`bound_of`]). The filter still tests it.
    pub bounds: Vec<Option<(CmpOp, usize)>>,
}

/// What is left of a filter once its terms on one generator's element are
/// folded into that generator's domain.
#[derive(Clone, Debug, Default)]
pub enum Rest {
    /// Nothing was folded: the filter runs as written.
    #[default]
    Whole,
    /// The terms of the top-level `and` that were not folded, in order.
    Part(Op),
    /// Every term was folded: the filter always holds here.
    Nothing,
}

/// The conditions of `instrs` that can be folded into a generator's
/// domain, and what is left of each filter. `prefixes` are the lengths of
/// the plan's shared prefixes ([`super::prefix`]): a condition is not
/// folded across the end of one, since the bindings recorded there are
/// replayed by plans whose instructions after it differ.
pub fn fold(instrs: &[Instr], prefixes: &[usize]) -> Folded {
    let mut out = Folded {
        conds: vec![Vec::new(); instrs.len()],
        rest: vec![Rest::Whole; instrs.len()],
        bounds: vec![None; instrs.len()],
    };
    for k in 0..instrs.len() {
        out.bounds[k] = bound_of(instrs, k, prefixes);
    }
    for (k, instr) in instrs.iter().enumerate() {
        let Instr::Gen {
            slot, size: None, ..
        } = instr
        else {
            continue;
        };
        for (j, op) in filters_after(instrs, k, prefixes) {
            let mut terms = Vec::new();
            conjuncts(op, &mut terms);
            let (on_slot, left): (Vec<&Op>, Vec<&Op>) =
                terms.into_iter().partition(|t| reads_only(t, *slot));
            if on_slot.is_empty() {
                continue;
            }
            out.conds[k].extend(on_slot.into_iter().cloned());
            out.rest[j] = left
                .into_iter()
                .cloned()
                .reduce(|a, b| Op::And(Box::new(a), Box::new(b)))
                .map_or(Rest::Nothing, Rest::Part);
        }
    }
    out
}

/// The first bound of generator `k`'s element in the filters after it (up
/// to the next generator or the end of a shared prefix): a term `X op S`
/// or `S op X` of a filter's top-level `and`, where X is the generator's
/// element, `op` an order (`<`, `<=`, `>`, `>=`) and S a name bound by an
/// instruction before the generator, so that its value is known when the
/// generator runs. Returned as `(op, S)` with X on the left. A member on
/// the wrong side of S fails that filter, whatever comes between: leaving
/// it out of the domain changes no match and no order of matches (only
/// the nodes visited). Single-element generators only.
pub fn bound_of(instrs: &[Instr], k: usize, prefixes: &[usize]) -> Option<(CmpOp, usize)> {
    let Instr::Gen {
        slot: x,
        size: None,
        ..
    } = instrs[k]
    else {
        return None;
    };
    let before: Vec<usize> = instrs[..k].iter().flat_map(Instr::bound).collect();
    for (_, op) in filters_after(instrs, k, prefixes) {
        let mut terms = Vec::new();
        conjuncts(op, &mut terms);
        for t in terms {
            let Op::Cmp(c, a, b) = t else { continue };
            let flipped = match c {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::Le => CmpOp::Ge,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::Ge => CmpOp::Le,
                CmpOp::Eq | CmpOp::Ne => continue,
            };
            match (&**a, &**b) {
                (Op::Slot(l), Op::Slot(r)) if *l == x && before.contains(r) => {
                    return Some((*c, *r));
                }
                (Op::Slot(l), Op::Slot(r)) if *r == x && before.contains(l) => {
                    return Some((flipped, *l));
                }
                _ => {}
            }
        }
    }
    None
}

/// The filters that run after generator `k` while it is the last one
/// bound (up to the next generator or the end of a shared prefix), with
/// their instruction numbers.
fn filters_after<'a>(
    instrs: &'a [Instr],
    k: usize,
    prefixes: &'a [usize],
) -> impl Iterator<Item = (usize, &'a Op)> {
    instrs
        .iter()
        .enumerate()
        .skip(k + 1)
        .take_while(|(j, next)| !prefixes.contains(j) && !next.is_gen())
        .filter_map(|(j, next)| match next {
            Instr::Filter(op) => Some((j, op)),
            _ => None,
        })
}

/// The terms of a top-level `and`, left to right.
fn conjuncts<'a>(op: &'a Op, out: &mut Vec<&'a Op>) {
    match op {
        Op::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(op),
    }
}

/// Does `op` read slot `slot` and no other bound value (a quantifier's own
/// variable is not a bound value)?
fn reads_only(op: &Op, slot: usize) -> bool {
    let mut free = Vec::new();
    free_slots(op, &mut Vec::new(), &mut free);
    !free.is_empty() && free.iter().all(|&s| s == slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::ir::Elem;

    fn len_of(slot: usize) -> Op {
        Op::Len(Box::new(Op::Cands(Elem::Cell, Box::new(Op::Slot(slot)))))
    }

    fn ge(a: Op, k: i64) -> Op {
        Op::Cmp(CmpOp::Ge, Box::new(a), Box::new(Op::Int(k)))
    }

    fn cell_gen(slot: usize) -> Instr {
        Instr::Gen {
            slot,
            elem: Elem::Cell,
            size: None,
            domain: None,
            order: Vec::new(),
        }
    }

    /// `let B: cell; let A: cell; where A < B and |A| >= 2`: the second
    /// term is folded into A's generator, the first is left.
    #[test]
    fn a_term_on_the_last_generator_alone_is_folded() {
        let lt = Op::Cmp(CmpOp::Lt, Box::new(Op::Slot(1)), Box::new(Op::Slot(0)));
        let instrs = [
            cell_gen(0),
            cell_gen(1),
            Instr::Filter(Op::And(Box::new(lt), Box::new(ge(len_of(1), 2)))),
        ];
        let f = fold(&instrs, &[]);
        assert!(f.conds[0].is_empty());
        assert_eq!(f.conds[1].len(), 1);
        assert!(matches!(&f.rest[2], Rest::Part(Op::Cmp(CmpOp::Lt, ..))));
    }

    /// A filter that reads an earlier generator's element stays; a whole
    /// filter on the element alone is folded, after a generator with an
    /// `in` domain too (`let A: cell in peers(P); where |A| == 2`).
    #[test]
    fn only_conditions_on_one_element_are_folded() {
        let both = ge(
            Op::Len(Box::new(Op::SetBin(
                crate::search::pattern::ir::SetOp::Union,
                Elem::Cell,
                Box::new(Op::Slot(0)),
                Box::new(Op::Slot(1)),
            ))),
            2,
        );
        let instrs = [
            cell_gen(0),
            cell_gen(1),
            Instr::Filter(both),
            Instr::Filter(ge(len_of(1), 3)),
            Instr::Gen {
                slot: 2,
                elem: Elem::Cell,
                size: None,
                domain: Some(Op::Slot(0)),
                order: Vec::new(),
            },
            Instr::Filter(ge(len_of(2), 2)),
        ];
        let f = fold(&instrs, &[]);
        assert_eq!(f.conds[1].len(), 1);
        assert!(matches!(f.rest[2], Rest::Whole));
        assert!(matches!(f.rest[3], Rest::Nothing));
        assert_eq!(f.conds[4].len(), 1);
        assert!(matches!(f.rest[5], Rest::Nothing));
    }

    fn cmp(op: CmpOp, a: usize, b: usize) -> Op {
        Op::Cmp(op, Box::new(Op::Slot(a)), Box::new(Op::Slot(b)))
    }

    /// `let B: cell; let A: cell; where A < B and |A| >= 2`: A's members
    /// are bounded by B; written `B > A`, the same bound.
    #[test]
    fn an_order_with_an_earlier_element_bounds_a_generator() {
        for lt in [cmp(CmpOp::Lt, 1, 0), cmp(CmpOp::Gt, 0, 1)] {
            let instrs = [
                cell_gen(0),
                cell_gen(1),
                Instr::Filter(Op::And(Box::new(ge(len_of(1), 2)), Box::new(lt))),
            ];
            let f = fold(&instrs, &[]);
            assert_eq!(f.bounds, [None, Some((CmpOp::Lt, 0)), None]);
        }
        let instrs = [
            cell_gen(0),
            cell_gen(1),
            Instr::Filter(cmp(CmpOp::Ge, 0, 1)),
        ];
        assert_eq!(fold(&instrs, &[]).bounds[1], Some((CmpOp::Le, 0)));
    }

    /// No bound from a name defined after the generator (its value is not
    /// known yet), from `==` or `!=`, from a filter beyond the next
    /// generator or across the end of a shared prefix, nor on a subset.
    #[test]
    fn only_names_known_before_the_generator_bound_it() {
        let later = [
            cell_gen(0),
            cell_gen(1),
            Instr::Def {
                slot: 2,
                op: Op::Slot(0),
            },
            Instr::Filter(cmp(CmpOp::Lt, 1, 2)),
        ];
        assert_eq!(fold(&later, &[]).bounds, [None; 4]);
        let eq = [
            cell_gen(0),
            cell_gen(1),
            Instr::Filter(cmp(CmpOp::Ne, 1, 0)),
        ];
        assert_eq!(fold(&eq, &[]).bounds, [None; 3]);
        let beyond = [
            cell_gen(0),
            cell_gen(1),
            cell_gen(2),
            Instr::Filter(cmp(CmpOp::Lt, 1, 0)),
        ];
        assert_eq!(fold(&beyond, &[]).bounds, [None; 4]);
        let across = [
            cell_gen(0),
            cell_gen(1),
            Instr::Filter(cmp(CmpOp::Lt, 1, 0)),
        ];
        assert_eq!(fold(&across, &[2]).bounds, [None; 3]);
        let subset = [
            cell_gen(0),
            Instr::Gen {
                slot: 1,
                elem: Elem::Cell,
                size: Some(2),
                domain: None,
                order: Vec::new(),
            },
            Instr::Filter(cmp(CmpOp::Lt, 1, 0)),
        ];
        assert_eq!(fold(&subset, &[]).bounds, [None; 3]);
    }

    /// A filter after the end of a shared prefix is not folded into a
    /// generator inside it.
    #[test]
    fn nothing_is_folded_across_the_end_of_a_shared_prefix() {
        let instrs = [
            cell_gen(0),
            Instr::Filter(ge(len_of(0), 2)),
            Instr::Filter(ge(len_of(0), 3)),
        ];
        let f = fold(&instrs, &[2]);
        assert_eq!(f.conds[0].len(), 1);
        assert!(matches!(f.rest[1], Rest::Nothing));
        assert!(matches!(f.rest[2], Rest::Whole));
    }
}
