//! A puzzle type as data, before its graph is built: [`TypeSpec`], the
//! grid side, the symbols, the kinds of houses ([`Kind`]), the houses
//! ([`HouseSpec`]) and the binary constraints between cells
//! ([`Constraint`]). Built-in types ([`super::builtin`]) and YAML files
//! ([`super::yaml`]) both produce one; [`super::Model::build`] turns it
//! into the CSP.

/// A kind of house: its name (`row`, `column`, `block`, `diagonal`,
/// `anti-diagonal`, or a user's) and the prefix its houses and its space
/// are named with (`r`: houses `r1`…, space `rn`, variables `r1n5`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    pub name: String,
    pub prefix: String,
}

impl Kind {
    pub fn new(name: &str, prefix: &str) -> Kind {
        Kind {
            name: name.to_string(),
            prefix: prefix.to_string(),
        }
    }
}

/// A house: `N` distinct cells (0-based `row * N + column`) that hold each
/// symbol exactly once; `kind` indexes [`TypeSpec::kinds`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseSpec {
    pub kind: usize,
    pub cells: Vec<usize>,
}

/// A binary constraint between two cells: the pairs of symbols (0-based;
/// the first of cell `a`, the second of cell `b`) they cannot hold
/// together. Futoshiki's `a < b` forbids every pair `(x, y)` with `x ≥ y`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub a: usize,
    pub b: usize,
    pub forbidden: Vec<(usize, usize)>,
}

impl Constraint {
    /// `a < b` on symbols' order, in a type of side `n`.
    pub fn less(a: usize, b: usize, n: usize) -> Constraint {
        Constraint::forbidding(a, b, n, |x, y| x >= y)
    }

    /// The constraint forbidding the pairs `(x, y)` for which `bad` holds.
    pub fn forbidding(
        a: usize,
        b: usize,
        n: usize,
        bad: impl Fn(usize, usize) -> bool,
    ) -> Constraint {
        let forbidden = (0..n)
            .flat_map(|x| (0..n).map(move |y| (x, y)))
            .filter(|&(x, y)| bad(x, y))
            .collect();
        Constraint { a, b, forbidden }
    }
}

/// What a type's puzzles are, for the readers and the commands: a family
/// decides the input formats a puzzle may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Sudoku with regular blocks (`sudoku:N`).
    Sudoku,
    /// Latin squares (`latin:N`).
    Latin,
    /// Pandiagonal Latin squares (`pandiagonal:N`).
    Pandiagonal,
    /// Latin squares whose puzzles carry inequality signs (`futoshiki:N`).
    Futoshiki,
    /// A type read from a YAML file.
    User,
}

/// A puzzle type as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeSpec {
    /// The name the type is known by: `sudoku:16`, `latin:9`, or a user's.
    pub name: String,
    pub family: Family,
    /// The grid's side `N`: `N × N` cells, `N` symbols.
    pub n: usize,
    /// How each symbol is written in puzzle text (symbol `s` is
    /// `symbols[s]`); paths print symbol numbers, `s + 1`, as CSP-Rules.
    pub symbols: Vec<String>,
    /// Regular blocks' shape (rows, columns), when the blocks are regular:
    /// bands of blocks may be separated by blank lines in grids.
    pub boxes: Option<(usize, usize)>,
    /// The kinds of houses; the first two are always `row` and `column`.
    pub kinds: Vec<Kind>,
    /// The houses, grouped by kind in kind order; rows and columns first.
    pub houses: Vec<HouseSpec>,
    /// Binary constraints every puzzle of the type has.
    pub constraints: Vec<Constraint>,
    /// Whether each puzzle brings constraints of its own (Futoshiki's
    /// inequality signs).
    pub puzzle_signs: bool,
    /// The variant rules the houses and constraints above came from, in
    /// part ([`super::variant`]): kept to write the type back and draw it.
    pub variants: Vec<super::variant::Variant>,
}

/// The symbols' default spelling for a side `n`: `1`–`9` then `A`, `B`, …
/// up to 35 symbols; beyond, every symbol as its number (as CSP-Rules'
/// 36×36 and 49×49 grids write them).
pub fn default_symbols(n: usize) -> Vec<String> {
    const CHARS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if n <= CHARS.len() {
        CHARS.chars().take(n).map(String::from).collect()
    } else {
        (1..=n).map(|k| k.to_string()).collect()
    }
}

impl TypeSpec {
    /// A square grid of side `n` with its rows and columns as houses and
    /// nothing else yet.
    pub fn grid(name: &str, family: Family, n: usize) -> TypeSpec {
        let mut houses = Vec::with_capacity(3 * n);
        for r in 0..n {
            houses.push(HouseSpec {
                kind: 0,
                cells: (0..n).map(|c| r * n + c).collect(),
            });
        }
        for c in 0..n {
            houses.push(HouseSpec {
                kind: 1,
                cells: (0..n).map(|r| r * n + c).collect(),
            });
        }
        TypeSpec {
            name: name.to_string(),
            family,
            n,
            symbols: default_symbols(n),
            boxes: None,
            kinds: vec![Kind::new("row", "r"), Kind::new("column", "c")],
            houses,
            constraints: Vec::new(),
            puzzle_signs: false,
            variants: Vec::new(),
        }
    }

    /// Adds regular blocks of `rows × cols` cells (numbered row by row).
    pub fn add_blocks(&mut self, rows: usize, cols: usize) {
        let n = self.n;
        let kind = self.add_kind("block", "b");
        for b in 0..n {
            let (r0, c0) = (b / (n / cols) * rows, b % (n / cols) * cols);
            let cells = (0..n)
                .map(|k| (r0 + k / cols) * n + c0 + k % cols)
                .collect();
            self.houses.push(HouseSpec { kind, cells });
        }
        self.boxes = Some((rows, cols));
    }

    /// Adds the `n` broken diagonals and `n` broken anti-diagonals of a
    /// pandiagonal square, numbered as CSP-Rules' LatinRules numbers them:
    /// cell (r, c) (1-based) is on diagonal `1 + (r + c − 2) mod N` and
    /// anti-diagonal `1 + (c − r) mod N`.
    pub fn add_broken_diagonals(&mut self) {
        let n = self.n;
        let diag = self.add_kind("diagonal", "d");
        for k in 0..n {
            let mut cells: Vec<usize> = (0..n).map(|r| r * n + (k + n - r) % n).collect();
            cells.sort_unstable();
            self.houses.push(HouseSpec { kind: diag, cells });
        }
        let anti = self.add_kind("anti-diagonal", "a");
        for k in 0..n {
            let mut cells: Vec<usize> = (0..n).map(|r| r * n + (r + k) % n).collect();
            cells.sort_unstable();
            self.houses.push(HouseSpec { kind: anti, cells });
        }
    }

    /// Adds a kind (or finds it by name) and gives its index.
    pub fn add_kind(&mut self, name: &str, prefix: &str) -> usize {
        if let Some(k) = self.kinds.iter().position(|k| k.name == name) {
            return k;
        }
        self.kinds.push(Kind::new(name, prefix));
        self.kinds.len() - 1
    }

    /// The cell at 0-based row `r` and column `c`.
    pub fn cell(&self, r: usize, c: usize) -> usize {
        r * self.n + c
    }
}
