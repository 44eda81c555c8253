//! The order relations of a type: the pairs of cells whose constraint
//! says that one holds a smaller symbol than the other (Futoshiki's signs,
//! greater-than marks, thermometers), and the chains they make. The rule
//! language reads them through `below(C)`, `above(C)`, `rise(Y, X)` and
//! `run(Y, X)` (`docs/language.md`, "Order between cells"), which is how
//! FutoRules' ascending chains, hills and valleys are written
//! (`rules/futoshiki.rules`).
//!
//! A constraint is an order relation when the pairs it forbids are
//! exactly those of `a < b` (every `(x, y)` with `x ≥ y`) or of `a > b`;
//! other constraints (Kropki dots, XV, non-consecutive) are not orders.

use super::spec::Constraint;

/// The order relations between the cells of a type, and the longest
/// chain between any two cells.
#[derive(Clone, Debug, Default)]
pub struct Orders {
    n: usize,
    /// Per cell, the cells directly above it (one relation `c < d`).
    up: Vec<Vec<usize>>,
    /// `rise[y * n_cells + x]`: the number of relations on the longest
    /// chain from y up to x, 0 when there is none. Empty when the type
    /// has no order relation, or when they make a cycle (no puzzle of the
    /// type has a solution then, and no chain is read).
    rise: Vec<u16>,
}

impl Orders {
    /// The order relations among `constraints` of a type of side `n`.
    pub fn of(constraints: &[Constraint], n: usize) -> Orders {
        let n_cells = n * n;
        let mut up = vec![Vec::new(); n_cells];
        let mut any = false;
        for c in constraints {
            let pair = if same_pairs(&c.forbidden, |x, y| x >= y, n) {
                Some((c.a, c.b))
            } else if same_pairs(&c.forbidden, |x, y| x <= y, n) {
                Some((c.b, c.a))
            } else {
                None
            };
            if let Some((lo, hi)) = pair
                && !up[lo].contains(&hi)
            {
                up[lo].push(hi);
                any = true;
            }
        }
        for u in &mut up {
            u.sort_unstable();
        }
        let rise = if any {
            longest_chains(&up).unwrap_or_default()
        } else {
            Vec::new()
        };
        Orders { n, up, rise }
    }

    /// Whether the type has order relations that make chains.
    pub fn is_empty(&self) -> bool {
        self.rise.is_empty()
    }

    /// The relations on the longest chain from cell `y` up to cell `x`;
    /// `None` when there is none (and for `y == x`).
    pub fn rise(&self, y: usize, x: usize) -> Option<usize> {
        let n_cells = self.n * self.n;
        if self.rise.is_empty() || y >= n_cells || x >= n_cells {
            return None;
        }
        match self.rise[y * n_cells + x] {
            0 => None,
            r => Some(r as usize),
        }
    }

    /// The cells from which a chain rises to `x`.
    pub fn below(&self, x: usize) -> impl Iterator<Item = usize> + '_ {
        let n_cells = if self.rise.is_empty() {
            0
        } else {
            self.n * self.n
        };
        (0..n_cells).filter(move |&y| self.rise(y, x).is_some())
    }

    /// The cells a chain rises to from `y`.
    pub fn above(&self, y: usize) -> impl Iterator<Item = usize> + '_ {
        let n_cells = if self.rise.is_empty() {
            0
        } else {
            self.n * self.n
        };
        (0..n_cells).filter(move |&x| self.rise(y, x).is_some())
    }

    /// The relations of the chain from `y` up to `x` along their common
    /// row or column, one neighbour to the next through every cell
    /// between them; `None` when they share no line or a link is
    /// missing.
    pub fn run(&self, y: usize, x: usize) -> Option<usize> {
        let n = self.n;
        if self.rise.is_empty() || y == x || y >= n * n || x >= n * n {
            return None;
        }
        let (ry, cy, rx, cx) = (y / n, y % n, x / n, x % n);
        let step: isize = if ry == rx {
            if cx > cy { 1 } else { -1 }
        } else if cy == cx {
            if rx > ry { n as isize } else { -(n as isize) }
        } else {
            return None;
        };
        let mut c = y;
        let mut len = 0;
        while c != x {
            let next = (c as isize + step) as usize;
            if !self.up[c].contains(&next) {
                return None;
            }
            c = next;
            len += 1;
        }
        Some(len)
    }
}

/// Whether `forbidden` holds exactly the pairs of `n` symbols for which
/// `bad` holds.
fn same_pairs(forbidden: &[(usize, usize)], bad: impl Fn(usize, usize) -> bool, n: usize) -> bool {
    let want = (0..n)
        .flat_map(|x| (0..n).map(move |y| (x, y)))
        .filter(|&(x, y)| bad(x, y))
        .count();
    forbidden.len() == want && forbidden.iter().all(|&(x, y)| x < n && y < n && bad(x, y)) && {
        let mut f = forbidden.to_vec();
        f.sort_unstable();
        f.dedup();
        f.len() == want
    }
}

/// The longest chain between every two cells of the graph `up` (a cell
/// to the cells directly above it), as a flat table; `None` when the
/// relations make a cycle.
fn longest_chains(up: &[Vec<usize>]) -> Option<Vec<u16>> {
    let n_cells = up.len();
    // Kahn's order: every cell after the cells below it.
    let mut indeg = vec![0usize; n_cells];
    for u in up {
        for &v in u {
            indeg[v] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n_cells).filter(|&c| indeg[c] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let c = order[i];
        for &v in &up[c] {
            indeg[v] -= 1;
            if indeg[v] == 0 {
                order.push(v);
            }
        }
        i += 1;
    }
    if order.len() < n_cells {
        return None;
    }
    let mut rise = vec![0u16; n_cells * n_cells];
    for y in 0..n_cells {
        if up[y].is_empty() {
            continue;
        }
        let row = &mut rise[y * n_cells..(y + 1) * n_cells];
        for &c in &order {
            // Only cells reached from y (or y itself) spread.
            if c != y && row[c] == 0 {
                continue;
            }
            let next = row[c] + 1;
            for &v in &up[c] {
                if row[v] < next {
                    row[v] = next;
                }
            }
        }
    }
    Some(rise)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_rise_along_signs() {
        // 4×4: r1c1 < r1c2 < r1c3, r1c3 > r1c4, r1c1 < r2c1 < r2c2 < r1c2.
        let n = 4;
        let cons = vec![
            Constraint::less(0, 1, n),
            Constraint::less(1, 2, n),
            Constraint::less(3, 2, n),
            Constraint::less(0, 4, n),
            Constraint::less(4, 5, n),
            Constraint::less(5, 1, n),
        ];
        let o = Orders::of(&cons, n);
        assert_eq!(o.rise(0, 2), Some(4)); // 0 < 4 < 5 < 1 < 2
        assert_eq!(o.rise(0, 1), Some(3));
        assert_eq!(o.rise(2, 0), None);
        assert_eq!(o.rise(3, 2), Some(1));
        assert_eq!(o.run(0, 2), Some(2)); // along row 1
        assert_eq!(o.run(3, 2), Some(1));
        assert_eq!(o.run(0, 5), None); // no common line
        assert_eq!(o.run(0, 4), Some(1)); // along column 1
        assert_eq!(o.below(1).collect::<Vec<_>>(), vec![0, 4, 5]);
        assert_eq!(o.above(4).collect::<Vec<_>>(), vec![1, 2, 5]);
    }

    #[test]
    fn a_greater_sign_is_an_order_and_a_dot_is_not() {
        let n = 4;
        let greater = Constraint::forbidding(0, 1, n, |x, y| x <= y); // r1c1 > r1c2
        let dot = Constraint::forbidding(1, 2, n, |x, y| x.abs_diff(y) != 1);
        let o = Orders::of(&[greater, dot], n);
        assert_eq!(o.rise(1, 0), Some(1));
        assert_eq!(o.rise(1, 2), None);
        assert_eq!(o.rise(2, 1), None);
    }

    #[test]
    fn a_cycle_of_signs_makes_no_chain() {
        let n = 4;
        let cons = vec![
            Constraint::less(0, 1, n),
            Constraint::less(1, 5, n),
            Constraint::less(5, 4, n),
            Constraint::less(4, 0, n),
        ];
        let o = Orders::of(&cons, n);
        assert!(o.is_empty());
        assert_eq!(o.rise(0, 1), None);
        assert_eq!(o.below(1).count(), 0);
    }
}
