//! Names, as CSP-Rules prints them for each application: cells `r12c3`,
//! symbols by number (`13`, never a letter), candidates `n7r12c3` and
//! `r12c3 = 7` / `r12c3 ≠ 7`, houses `r3`, `c5`, `b7`, `d4`, `a7`,
//! variables `r12c3`, `r1n5`, `c2n2`, `b3n4`, `d4n1`, and a candidate
//! inside a variable's braces (`n5` in a cell, `c6` in a row, `r1` in a
//! column, `r7c3` in any other house: `r1n5{c6 c3}`, `d4n1{r7c5 .}`).
//! For `sudoku:9` every name is the classic grid's (`grid::geometry`).

use super::csp::Model;

impl Model {
    /// `r12c3`.
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", self.cell_row(cell) + 1, self.cell_col(cell) + 1)
    }

    /// A symbol as paths print it: its number, `1..=N`.
    pub fn symbol_name(&self, s: usize) -> String {
        (s + 1).to_string()
    }

    /// A symbol as puzzle text writes it (`A` for 10 up to side 35).
    pub fn symbol_text(&self, s: usize) -> &str {
        &self.spec.symbols[s]
    }

    /// A cage's combination as paths print it: its symbols run together
    /// (`1259`), or separated by `+` beyond 9 symbols (`2+11+14`).
    pub fn combo_name(&self, combo: &[usize]) -> String {
        let sep = if self.n > 9 { "+" } else { "" };
        combo
            .iter()
            .map(|&s| self.symbol_name(s))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// `k3`: a cage (0-based `k`), as paths name its variable.
    pub fn cage_name(&self, k: usize) -> String {
        format!("k{}", k + 1)
    }

    /// `n7r12c3`; a cage's combination `k3=1259`.
    pub fn cand_name(&self, z: usize) -> String {
        if let Some((k, i)) = self.cage_cand(z) {
            return format!(
                "{}={}",
                self.cage_name(k),
                self.combo_name(&self.cages[k].combos[i])
            );
        }
        format!(
            "n{}{}",
            self.cand_symbol(z) + 1,
            self.cell_name(self.cand_cell(z))
        )
    }

    /// `r12c3 = 7`, as a path asserts a candidate (`k3 = 1259`).
    pub fn asserted_name(&self, z: usize) -> String {
        if let Some((k, i)) = self.cage_cand(z) {
            let combo = self.combo_name(&self.cages[k].combos[i]);
            return format!("{} = {combo}", self.cage_name(k));
        }
        format!(
            "{} = {}",
            self.cell_name(self.cand_cell(z)),
            self.cand_symbol(z) + 1
        )
    }

    /// `r12c3 ≠ 7`, as a path eliminates a candidate (`k3 ≠ 1259`).
    pub fn eliminated_name(&self, z: usize) -> String {
        if let Some((k, i)) = self.cage_cand(z) {
            let combo = self.combo_name(&self.cages[k].combos[i]);
            return format!("{} ≠ {combo}", self.cage_name(k));
        }
        format!(
            "{} ≠ {}",
            self.cell_name(self.cand_cell(z)),
            self.cand_symbol(z) + 1
        )
    }

    /// `r3`, `c5`, `b7`, `d4`.
    pub fn house_name(&self, h: usize) -> String {
        let house = &self.houses[h];
        format!("{}{}", self.kinds()[house.kind].prefix, house.rank + 1)
    }

    /// `row`, `column`, `block`, `diagonal`, `anti-diagonal`, …
    pub fn house_kind_name(&self, h: usize) -> &str {
        &self.kinds()[self.houses[h].kind].name
    }

    /// `r12c3` (a cell's variable), `r1n5`, `c2n2`, `b3n4`, `d4n1`.
    pub fn var_name(&self, v: usize) -> String {
        if let Some(k) = self.cage_var(v) {
            return self.cage_name(k);
        }
        match self.var_house(v) {
            None => self.cell_name(v),
            Some(h) => format!(
                "{}n{}",
                self.house_name(h),
                (v - self.spaces[self.var_space(v)].first) % self.n + 1
            ),
        }
    }

    /// How candidate `z` is written inside the braces of variable `v`:
    /// `n5` in a cell, `c6` in a row, `r1` in a column, `r7c3` elsewhere.
    pub fn cand_in_var(&self, v: usize, z: usize) -> String {
        if let Some((k, i)) = self.cage_cand(z) {
            return self.combo_name(&self.cages[k].combos[i]);
        }
        let cell = self.cand_cell(z);
        match self.var_house(v).map(|h| self.houses[h].kind) {
            None => format!("n{}", self.cand_symbol(z) + 1),
            Some(0) => format!("c{}", self.cell_col(cell) + 1),
            Some(1) => format!("r{}", self.cell_row(cell) + 1),
            Some(_) => self.cell_name(cell),
        }
    }
}
