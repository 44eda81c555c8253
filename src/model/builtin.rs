//! The built-in puzzle types, by name: `sudoku` (classic 9×9, the
//! default), `sudoku:N` (N = 4, 6, 8, 9, 12, 16, 25, 36, 49), `latin:N`,
//! `pandiagonal:N` and `futoshiki:N` (2 ≤ N ≤ 64).

use super::spec::{Family, TypeSpec};

/// The sides `sudoku:N` accepts, with their blocks (rows × columns).
pub const SUDOKU_SIZES: [(usize, usize, usize); 9] = [
    (4, 2, 2),
    (6, 2, 3),
    (8, 2, 4),
    (9, 3, 3),
    (12, 3, 4),
    (16, 4, 4),
    (25, 5, 5),
    (36, 6, 6),
    (49, 7, 7),
];

/// The largest side of the Latin families.
pub const MAX_LATIN: usize = 64;

/// What `--type` accepts, for messages.
pub const NAMES: &str = "sudoku, sudoku:N (N = 4, 6, 8, 9, 12, 16, 25, 36, 49), latin:N, \
                         pandiagonal:N, futoshiki:N (N from 2 to 64), or a .yaml file";

/// The built-in type `name`, or why there is none.
pub fn builtin(name: &str) -> Result<TypeSpec, String> {
    let (family, size) = match name.split_once(':') {
        Some((f, s)) => (f, Some(s)),
        None => (name, None),
    };
    let side = |default: Option<usize>| -> Result<usize, String> {
        match size {
            None => default.ok_or_else(|| format!("`{name}` needs a size: `{name}:N`")),
            Some(s) => s
                .parse::<usize>()
                .map_err(|_| format!("`{s}` is no size in `{name}` (expected a whole number)")),
        }
    };
    match family {
        "sudoku" => {
            let n = side(Some(9))?;
            let Some(&(_, rows, cols)) = SUDOKU_SIZES.iter().find(|s| s.0 == n) else {
                return Err(format!(
                    "no built-in sudoku of side {n} (the sides are 4, 6, 8, 9, 12, 16, 25, 36 and 49; \
                     write a .yaml type for others)"
                ));
            };
            let mut spec = TypeSpec::grid(&format!("sudoku:{n}"), Family::Sudoku, n);
            spec.add_blocks(rows, cols);
            Ok(spec)
        }
        "latin" | "pandiagonal" | "futoshiki" => {
            let n = side(None)?;
            if !(2..=MAX_LATIN).contains(&n) {
                return Err(format!(
                    "`{name}`: the side of a {family} type is from 2 to {MAX_LATIN}"
                ));
            }
            let fam = match family {
                "latin" => Family::Latin,
                "pandiagonal" => Family::Pandiagonal,
                _ => Family::Futoshiki,
            };
            let mut spec = TypeSpec::grid(&format!("{family}:{n}"), fam, n);
            if fam == Family::Pandiagonal {
                spec.add_broken_diagonals();
            }
            spec.puzzle_signs = fam == Family::Futoshiki;
            Ok(spec)
        }
        _ => Err(format!("unknown puzzle type `{name}`: expected {NAMES}")),
    }
}
