//! How a match's bound values are shown in SudoRules notation: elements
//! (`r1c2`, `n5`, `b3`), sets of them, and elements inside a context
//! (`within(ctx, x)`: the coordinate that varies in a variable or house).

use super::ir::{Elem, Shape, Val};
use crate::grid::geometry::*;

/// Display of one element.
pub fn show_elem(e: Elem, i: usize) -> String {
    match e {
        Elem::Digit => format!("n{}", i + 1),
        Elem::Row | Elem::Column | Elem::Block | Elem::House => house_name(i),
        Elem::Cell => cell_name(i),
        Elem::Cand => cand_name(i),
        Elem::Var(_) => var_name(i),
    }
}

/// Display of an element inside a context element (a variable or house):
/// the coordinate that varies inside it.
pub(super) fn show_within(ctx: Elem, c: usize, e: Elem, i: usize) -> String {
    match (ctx, e) {
        (Elem::Var(_), Elem::Cand) => cand_in_var(var_space(c), i),
        (Elem::Var(_), Elem::Cell) if var_space(c) != Space::Rc => {
            cand_in_var(var_space(c), cand(i, 0))
        }
        (Elem::Row | Elem::Column | Elem::Block | Elem::House, Elem::Cell) => match house_kind(c) {
            HouseKind::Row => format!("c{}", cell_col(i) + 1),
            HouseKind::Column => format!("r{}", cell_row(i) + 1),
            HouseKind::Block => cell_name(i),
        },
        (Elem::Row | Elem::Column | Elem::Block | Elem::House, Elem::Cand) => match house_kind(c) {
            HouseKind::Row => format!("n{}c{}", cand_digit(i) + 1, cell_col(cand_cell(i)) + 1),
            HouseKind::Column => format!("n{}r{}", cand_digit(i) + 1, cell_row(cand_cell(i)) + 1),
            HouseKind::Block => cand_name(i),
        },
        _ => show_elem(e, i),
    }
}

pub(super) fn show_value(shape: Shape, v: &Val, f: impl Fn(Elem, usize) -> String) -> String {
    match (shape, v) {
        (Shape::One(e), Val::Idx(i)) => f(e, *i),
        (Shape::Set(e), Val::Set(s)) => {
            let parts: Vec<String> = s.iter().map(|i| f(e, i)).collect();
            format!("{{{}}}", parts.join(" "))
        }
        (_, Val::Int(i)) => i.to_string(),
        (_, Val::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}
