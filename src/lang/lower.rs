//! Lowering: a checked rule → its searcher, and an estimate of its search
//! space.
//!
//! Pattern rules are lowered a file at a time by the pattern compiler's
//! passes ([`lower_patterns`], [`pattern::compile`]): scheduling (each
//! definition and filter right after the last generator it depends on),
//! the prefixes the file's plans share, folding, typing. A chain or trial
//! rule's spec is its search's configuration.
//!
//! [`search_space`] estimates how many bindings a plan's generators can
//! make, before any filter prunes them: the product over generators of
//! their domain size `n` (or `C(n, k)` for a set of `k`), measured on an
//! empty grid, where every domain is as large as it gets. A domain written
//! with `in …` is measured by evaluating it with each earlier generator
//! bound to its first value (the empty grid is symmetric enough for this to
//! be typical), or, when it uses a value that cannot be computed that way
//! (`first`, `last`), bounded by its type's size. A `select` is measured by
//! its domain (see `upper`): the values it keeps are among them.
//!
//! The estimate is a worst case: it ignores the `where` filters, which
//! bound many rules in practice (`where |S| == 2` keeps a loop's first cell
//! among the few bivalue cells, and what follows among the cells holding
//! its two digits). So a rule beyond [`HUGE_SEARCH`] is also searched on
//! reference states (`reference-states.txt`: real states from the middle
//! of resolutions, some right before an eight-cell loop) with a budget of
//! [`MEASURE_BUDGET`] units of work each ([`measured_search`]); only a rule that
//! goes beyond the budget on one of them gets the warning
//! ([`huge_search_warning`]) in `rules check`.

use super::ast::{ClauseKind, RuleAst, RuleBody, Span};
use crate::grid::bits::Bits;
use crate::grid::geometry::N_CANDS;
use crate::grid::state::State;
use crate::search::chain::{ChainSearch, ChainSpec};
use crate::search::pattern::{
    self, Checked, Env, Instr, Op, Plan, Quant, SetOp, TOp, Val, live_domain,
};

/// The plans of the checked pattern rules of one file, made by the
/// pattern compiler's passes ([`pattern::compile`]: scheduling, shared
/// prefixes, folding, typing), the file's at once.
pub fn lower_patterns(checked: Vec<Checked>) -> Vec<Plan> {
    pattern::compile(checked)
}

/// Estimated bindings beyond which `rules check` warns. Matching visits
/// about ten million bindings a second (measured with `--stats` on a
/// three-candidate generator), so this is a minute and a half for one
/// search, and a rule is searched again after every step.
pub const HUGE_SEARCH: f64 = 1e9;

/// One generator's share of a search space.
#[derive(Clone, Debug, PartialEq)]
pub struct GenSpace {
    /// Domain size on an empty grid.
    pub domain: usize,
    /// Set size (`let X: k T`), or `None` for one element.
    pub size: Option<usize>,
    /// Values the generator binds: `domain`, or `C(domain, size)`.
    pub bindings: f64,
}

/// The estimated search space of a plan: one entry per generator, in
/// written order, and their product; and what its expressions cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpace {
    pub gens: Vec<GenSpace>,
    pub total: f64,
    /// The members the quantifiers of the plan's expressions may look at
    /// in one search: for each definition, filter and domain, the
    /// bindings of the generators before it times what one evaluation
    /// looks at ([`quantified_work`]), summed.
    pub evaluation: f64,
    /// The most that one evaluation of one of them looks at.
    pub one_evaluation: f64,
}

/// The most members the quantifiers of `op` can look at in one
/// evaluation, each quantifier's domain bounded by its element type (729
/// candidates, 324 variables, 81 cells, 27 houses, 9 digits, rows, columns
/// or blocks); nested quantifiers multiply. 0 when `op` holds none.
pub fn quantified_work(op: &Op, slots: &[pattern::Ty]) -> f64 {
    match op {
        Op::Quant(qo) => {
            let members = match qo.domain.ty(slots).elem() {
                Some(pattern::Elem::Cand) | None => 729.0,
                Some(pattern::Elem::Var(None)) => 324.0,
                Some(pattern::Elem::Var(Some(_)) | pattern::Elem::Cell) => 81.0,
                Some(pattern::Elem::House) => 27.0,
                Some(_) => 9.0,
            };
            let pre: f64 = qo.pre.iter().map(|(_, p)| quantified_work(p, slots)).sum();
            members * (1.0 + quantified_work(&qo.body, slots))
                + quantified_work(&qo.domain, slots)
                + pre
        }
        _ => (op.operands().into_iter().flatten())
            .map(|x| quantified_work(x, slots))
            .sum(),
    }
}

/// `C(n, k)` as a float (exact for the sizes that occur here).
pub fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Estimates the search space of a plan on an empty grid (see the module
/// documentation).
pub fn search_space(plan: &Plan) -> SearchSpace {
    let state = State::empty_grid();
    let mut env = vec![Val::Int(0); plan.slots];
    // Slots holding a value computed from generators' first values.
    let mut known = vec![false; plan.slots];
    let mut gens = Vec::new();
    let (mut evaluation, mut one_evaluation) = (0.0f64, 0.0f64);
    for instr in &plan.instrs {
        let evaluated = match instr {
            Instr::Gen { domain, order, .. } => domain.iter().chain(order).collect(),
            Instr::Walk(w) => w.ops().collect(),
            Instr::Cluster(c) => vec![&c.domain],
            Instr::Als(a) => a.domain.iter().chain(&a.holding).collect(),
            Instr::Def { op, .. } | Instr::Filter(op) => vec![op],
        };
        for op in evaluated {
            let one = quantified_work(op, &plan.slot_types);
            let bindings: f64 = gens.iter().map(|g: &GenSpace| g.bindings).product();
            evaluation += bindings * one;
            one_evaluation = one_evaluation.max(one);
        }
        match instr {
            Instr::Gen {
                slot,
                elem,
                size,
                domain,
                ..
            } => {
                let all = live_domain(&state, *elem);
                let k = size.unwrap_or(1);
                let bound = domain.as_ref().map(upper);
                let dom = match &bound {
                    Some(d) if evaluable(d, &known) => {
                        let v = Env::on(&state, &mut env, |cx| TOp::wide(d).eval(cx));
                        let dom = all.and(&as_set(v));
                        // Too few values for a first binding: estimate by
                        // the type instead.
                        if dom.len() < k { all } else { dom }
                    }
                    Some(_) | None => all,
                };
                let n = dom.len();
                let bindings = match size {
                    Some(k) => binomial(n, *k),
                    None => n as f64,
                };
                gens.push(GenSpace {
                    domain: n,
                    size: *size,
                    bindings,
                });
                env[*slot] = match size {
                    Some(k) => Val::Set(Bits::from_indices(dom.iter().take(*k))),
                    None => dom.min().map_or(Val::Int(0), Val::Idx),
                };
                known[*slot] = n >= k;
            }
            // A walk of N cells by K kinds of house: at most 8·(K - 1)
            // cells to step to from each cell but the start (8·K), on an
            // empty grid (its domain: the walks).
            Instr::Walk(w) => {
                let k = w.by.len().max(2) as f64;
                let bindings = 8.0 * k * (8.0 * (k - 1.0)).powi(w.length as i32 - 2);
                gens.push(GenSpace {
                    domain: bindings.min(1e18) as usize,
                    size: None,
                    bindings,
                });
            }
            // A cluster holds at least two candidates, linked in pairs:
            // at most half the candidates, times two colours.
            Instr::Cluster(_) => {
                let bindings = N_CANDS as f64;
                gens.push(GenSpace {
                    domain: N_CANDS,
                    size: None,
                    bindings,
                });
            }
            // An ALS is a subset of a house's cells: at most C(9, N)
            // per house and size (an empty grid has none but those of
            // eight cells; the estimate is of the sets looked at).
            Instr::Als(a) => {
                let per_house: f64 = (a.min..=a.max).map(|n| binomial(9, n)).sum();
                let bindings = 27.0 * per_house;
                gens.push(GenSpace {
                    domain: bindings as usize,
                    size: None,
                    bindings,
                });
            }
            Instr::Def { slot, op } => {
                let op = upper(op);
                if evaluable(&op, &known) {
                    env[*slot] = Env::on(&state, &mut env, |cx| TOp::wide(&op).eval(cx));
                    known[*slot] = true;
                }
            }
            // Filters prune; an estimate of the space ignores them (and a
            // definition it cannot compute stays unknown).
            _ => {}
        }
    }
    let total = gens.iter().map(|g| g.bindings).product();
    SearchSpace {
        gens,
        total,
        evaluation,
        one_evaluation,
    }
}

fn as_set(v: Val) -> Bits {
    match v {
        Val::Set(b) => b,
        Val::Idx(i) => Bits::single(i),
        _ => Bits::EMPTY,
    }
}

/// A set that holds every value of `op`: `op` with each `select(x in D:
/// C)` replaced by its domain `D` where a larger set can only make the
/// value larger (operands of union, intersection, the left of a
/// difference, candidates and projections). The estimate then sees the
/// domain a selection filters (`let P = select(x in cells(R) & cells(K):
/// …)` has at most the cells of rows R and columns K).
fn upper(op: &Op) -> Op {
    let up = |x: &Op| Box::new(upper(x));
    match op {
        Op::Quant(q) if q.q == Quant::Select => upper(&q.domain),
        Op::SetBin(SetOp::Minus, e, a, b) => Op::SetBin(SetOp::Minus, *e, up(a), b.clone()),
        Op::SetBin(o, e, a, b) => Op::SetBin(*o, *e, up(a), up(b)),
        Op::Cands(e, x) => Op::Cands(*e, up(x)),
        Op::Project(e, x) => Op::Project(*e, up(x)),
        _ => op.clone(),
    }
}

/// Whether `op` can be evaluated with generators bound to their first
/// values: it reads only known slots, and no `first`/`last` (which give no
/// element on an empty set, and no element cannot be looked up).
fn evaluable(op: &Op, known: &[bool]) -> bool {
    match op {
        Op::Slot(s) => known[*s],
        // `grid` and quantifiers are bounded by their type.
        Op::First(_)
        | Op::Last(_)
        | Op::Grid
        | Op::Quant(_)
        | Op::Geo(..)
        | Op::CellAt(..)
        | Op::Value(_)
        | Op::Sum(..)
        | Op::At(..) => false,
        _ => op
            .operands()
            .into_iter()
            .flatten()
            .all(|x| evaluable(x, known)),
    }
}

/// A number for a message: `1.7e12` beyond a million, digits below.
pub fn approx(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        let e = x.log10().floor() as i32;
        let m = x / 10f64.powi(e);
        // 9.96 would round to "10.0e11"; keep one digit before the point.
        if format!("{m:.1}") == "10.0" {
            format!("1.0e{}", e + 1)
        } else {
            format!("{m:.1}e{e}")
        }
    }
}

/// The warning for one rule instance whose search space is beyond
/// [`HUGE_SEARCH`]: the span of its largest generator's name and the
/// message, or `None` when the space is smaller.
pub fn huge_search_warning(
    ast: &RuleAst,
    name: &str,
    space: &SearchSpace,
) -> Option<(Span, String)> {
    let RuleBody::Pattern(clauses) = &ast.body else {
        return None;
    };
    if space.total < HUGE_SEARCH {
        return huge_evaluation_warning(clauses, name, space);
    }
    // Generators appear in the plan in written order.
    let gen_names: Vec<&super::ast::Ident> = clauses
        .iter()
        .filter_map(|c| match &c.kind {
            ClauseKind::Gen { name, .. } => Some(name),
            ClauseKind::Walk(w) => Some(&w.cells),
            ClauseKind::Cluster { cands, .. } => Some(cands),
            ClauseKind::Als { name, .. } => Some(name),
            _ => None,
        })
        .collect();
    let (i, g) = space
        .gens
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.bindings.total_cmp(&b.1.bindings))?;
    let ident = gen_names.get(i)?;
    let how = match g.size {
        Some(k) => format!("C({}, {k}) = {}", g.domain, approx(g.bindings)),
        None => format!("{}", g.domain),
    };
    Some((
        ident.span,
        format!(
            "huge search space: rule `{name}` may try about {} bindings; generator `{}` alone has {how} on an empty grid (restrict its domain with `in …`)",
            approx(space.total),
            ident.name
        ),
    ))
}

/// The warning for a rule whose quantifiers may look at more than
/// [`HUGE_SEARCH`] members in one search (nested quantifiers over the
/// grid): the span of the outermost quantifier of the most deeply nested
/// ones, and the message; `None` when they look at fewer.
fn huge_evaluation_warning(
    clauses: &[super::ast::Clause],
    name: &str,
    space: &SearchSpace,
) -> Option<(Span, String)> {
    if space.evaluation < HUGE_SEARCH {
        return None;
    }
    let (depth, span) = clauses
        .iter()
        .flat_map(|c| match &c.kind {
            ClauseKind::Gen { domain, then, .. } => domain.iter().chain(then).collect(),
            ClauseKind::Walk(w) => [&w.from, &w.through]
                .into_iter()
                .chain(w.gather.as_ref().map(|g| &g.1))
                .chain(w.when.as_ref())
                .collect(),
            ClauseKind::Cluster { domain, .. } => domain.iter().collect(),
            ClauseKind::Als {
                domain, holding, ..
            } => domain.iter().chain(holding).collect(),
            ClauseKind::Def { expr, .. } | ClauseKind::Where(expr) => vec![expr],
            _ => vec![],
        })
        .filter_map(deepest_quantifier)
        .max_by_key(|(depth, _)| *depth)?;
    let these = if depth > 1 {
        format!("these {depth} nested quantifiers")
    } else {
        "this quantifier".to_string()
    };
    Some((
        span,
        format!(
            "huge evaluation: rule `{name}` may look at about {} members of quantifiers' domains in one search; {these} alone may look at {} in one evaluation on an empty grid (restrict their domains, e.g. `cells(H)` rather than `grid`)",
            approx(space.evaluation),
            approx(space.one_evaluation)
        ),
    ))
}

/// The quantifier of `e` with the most quantifiers nested in it (its
/// depth, 1 for one alone, and its span), if `e` has one.
fn deepest_quantifier(e: &super::ast::Expr) -> Option<(usize, Span)> {
    use super::ast::ExprKind;
    let inner = |xs: &[&super::ast::Expr]| {
        xs.iter()
            .filter_map(|x| deepest_quantifier(x))
            .max_by_key(|(d, _)| *d)
    };
    match &e.kind {
        ExprKind::Quant { domain, body, .. } => {
            let below = inner(&[domain, body]).map_or(0, |(d, _)| d);
            Some((below + 1, e.span))
        }
        ExprKind::Call(_, args) => inner(&args.iter().collect::<Vec<_>>()),
        ExprKind::Count(x) | ExprKind::Not(x) => inner(&[x]),
        ExprKind::Binary(_, a, b) => inner(&[a, b]),
        ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Name(_) => None,
    }
}

/// Work a search may do on each reference state for a rule beyond
/// [`HUGE_SEARCH`] to be bounded in practice (search nodes, and the
/// members nested quantifiers look at: [`crate::search::Clock`]): a tenth
/// of a second of matching, a thousandth of the threshold.
pub const MEASURE_BUDGET: u64 = 1_000_000;

/// The states a rule beyond [`HUGE_SEARCH`] is searched on
/// (`reference-states.txt`: states from the middle of resolutions, with
/// many bivalue cells, and a puzzle's givens).
fn reference_states() -> Vec<State> {
    crate::input::parse_str("reference-states.txt", include_str!("reference-states.txt"))
        .into_iter()
        .flatten()
        .map(|p| {
            // A cell with one candidate left is decided.
            let givens = std::array::from_fn(|c| match p.givens[c] {
                0 if p.masks[c].count_ones() == 1 => p.masks[c].trailing_zeros() as u8 + 1,
                g => g,
            });
            State::from_masks(&p.masks, &givens)
        })
        .collect()
}

/// The most nodes a search of `plan` visits on one reference state, or
/// `None` when a search goes beyond [`MEASURE_BUDGET`] of work (it is stopped
/// there). The estimate of [`search_space`] is a worst case that ignores
/// filters; this measure sees what the filters and the data leave: a rule
/// whose filters bound it (`where |S| == 2` before a loop of eight cells)
/// stays far under the budget, a generator that nothing bounds (eight
/// cells of the grid) goes beyond it.
pub fn measured_search(plan: &Plan) -> Option<u64> {
    let mut most = 0;
    for state in reference_states() {
        let mut cx = crate::search::SearchCx::with_work_limit(MEASURE_BUDGET);
        let _ = crate::search::Searcher::search(plan, &mut cx, &state, &mut |_| {
            std::ops::ControlFlow::Continue(())
        });
        if cx.interrupted() {
            return None;
        }
        most = most.max(cx.nodes);
    }
    Some(most)
}

/// The search of a checked trial rule: the spec is the configuration.
pub fn lower_trial(spec: crate::search::trial::TrialSpec) -> crate::search::trial::TrialSearch {
    crate::search::trial::TrialSearch::new(spec)
}

/// The search of a checked chain rule: the spec is the configuration.
pub fn lower_chain(spec: ChainSpec) -> ChainSearch {
    ChainSearch::new(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert!((binomial(729, 5) - 1_692_336_415_770.0).abs() < 1.0);
        assert_eq!(binomial(9, 4), 126.0);
        assert_eq!(binomial(3, 4), 0.0);
        assert_eq!(binomial(81, 0), 1.0);
    }

    #[test]
    fn approximations() {
        assert_eq!(approx(126.0), "126");
        assert_eq!(approx(1_692_336_415_770.0), "1.7e12");
        assert_eq!(approx(9.96e11), "1.0e12");
        assert_eq!(approx(1e9), "1.0e9");
    }
}
