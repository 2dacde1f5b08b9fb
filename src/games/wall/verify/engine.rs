//! Size engines: how all X-patterns of one board shape are evaluated (claim and naive side).
//!
//! A pattern is an X mask, row-major bit r·cols+c. An engine is built once per size (possibly
//! with large tables), then asked for ranges of patterns from many threads ([`Evaluate`]).

use crate::games::wall::census::bands::BandTables;
use crate::games::wall::naive::table::StateTable;
use crate::games::wall::board::symmetry::Symmetries;
use crate::games::wall::census::tables::GrundyTables;
use crate::games::wall::{claim, naive, board::{Board, Shape, rules::Rule}};
use crate::bits::{Extract, Portable};
use crate::output::records::outcome_name;
use crate::runner::{Disagreement, Evaluate, RunResults};
use std::collections::BTreeMap;
use std::ops::Range;

/// Whether the claim under test holds for one board: under misère play the claim is only
/// "first player wins iff the DP value is non-zero"; otherwise the Grundy values must match too
/// (the rectangle DP for standard and x-blocks, the three-piece DP for t-split).
pub fn claim_holds(rule: Rule, claimed_grundy: u32, truth: naive::NaiveVerdict) -> bool {
    let outcome_agrees = (claimed_grundy != 0) == truth.first_player_wins;
    match rule {
        Rule::Misere => outcome_agrees,
        Rule::Standard | Rule::XBlocks | Rule::TSplit => outcome_agrees && claimed_grundy == truth.grundy,
    }
}

/// The per-board reference path: the claimed engine and the naive oracle on each board.
pub struct ReferenceEngine {
    pub shape: Shape,
    pub rule: Rule,
}

impl Evaluate for ReferenceEngine {
    fn evaluate(&self, patterns: Range<u64>, results: &mut RunResults) -> crate::error::Result<()> {
        let (shape, rule) = (self.shape, self.rule);
        let (rows, cols) = (shape.rows as u32, shape.cols as u32);
        results.size_mut(rows, cols);
        for x in patterns {
            let board = Board::from_mask(shape, x);
            let claimed = claim::claimed_grundy(&board, rule);
            let truth = naive::solve(&board, rule)?;
            results.size_mut(rows, cols).record(x.count_ones(), claimed, 1);
            if !claim_holds(rule, claimed, truth) {
                record_mismatch(results, shape, x, claimed, truth);
            }
        }
        Ok(())
    }
}

/// Counts a mismatch of pattern `x` and keeps its row for mismatches.csv.
fn record_mismatch(results: &mut RunResults, shape: Shape, x: u64, claimed: u32, truth: naive::NaiveVerdict) {
    let disagreement = Disagreement {
        position: Board::from_mask(shape, x).to_slashed(),
        claimed,
        naive_value: Some(truth.grundy),
        naive_outcome: outcome_name(truth.first_player_wins),
        answer: None,
    };
    results.mismatch((shape.rows as u32, shape.cols as u32), disagreement);
}

/// The table engine: the rectangle DP read from per-shape tables of the quadrant shapes, and
/// the naive oracle read from a [`StateTable`] of whole-board states. Standard and misère only
/// (the rules whose claim is the rectangle DP and whose rays ignore X).
pub struct TableEngine<E: Extract> {
    shape: Shape,
    rule: Rule,
    bands: BandTables,
    states: StateTable,
    /// When set, only the least pattern of each symmetry orbit is evaluated, weighted by the
    /// orbit's size (both sides are invariant under the board's symmetries).
    symmetries: Option<Symmetries>,
    extract: std::marker::PhantomData<E>,
}

/// Largest Grundy value + 1 a board of at most 64 cells can have (a value needs that many moves).
const GRUNDY_SLOTS: usize = 66;

impl<E: Extract> TableEngine<E> {
    /// Builds the tables, or `None` when the shape's values do not fit the band tables.
    fn build(shape: Shape, rule: Rule, symmetric: bool) -> Option<Self> {
        let tables = GrundyTables::build::<E>(Shape::new(shape.rows - 1, shape.cols - 1));
        let bands = BandTables::build::<E>(shape, &tables).ok()?;
        drop(tables);
        let states = StateTable::build::<E>(shape, rule);
        let symmetries = symmetric.then(|| Symmetries::of(shape));
        Some(TableEngine { shape, rule, bands, states, symmetries, extract: std::marker::PhantomData })
    }

    #[inline(always)]
    fn evaluate_inline(&self, patterns: Range<u64>, results: &mut RunResults) {
        let mut counts = vec![0u64; (self.shape.cells() + 1) * GRUNDY_SLOTS];
        for x in patterns {
            let weight = match &self.symmetries {
                None => 1,
                Some(symmetries) => match symmetries.canonical_weight(x) {
                    Some(orbit_size) => orbit_size,
                    None => continue,
                },
            };
            let claimed = self.bands.grundy(x);
            let truth = self.states.root_verdict::<E>(x);
            counts[x.count_ones() as usize * GRUNDY_SLOTS + claimed as usize] += weight;
            if !claim_holds(self.rule, claimed as u32, truth) {
                let orbit = self.symmetries.as_ref().map_or_else(|| vec![x], |s| s.orbit(x));
                for y in orbit {
                    let (claimed, truth) = (self.bands.grundy(y), self.states.root_verdict::<E>(y));
                    record_mismatch(results, self.shape, y, claimed as u32, truth);
                }
            }
        }
        let tally = results.size_mut(self.shape.rows as u32, self.shape.cols as u32);
        tally.record_flat(&counts, GRUNDY_SLOTS);
    }
}

impl Evaluate for TableEngine<Portable> {
    fn evaluate(&self, patterns: Range<u64>, results: &mut RunResults) -> crate::error::Result<()> {
        self.evaluate_inline(patterns, results);
        Ok(())
    }
}

#[cfg(target_arch = "x86_64")]
impl Evaluate for TableEngine<crate::bits::Bmi2> {
    fn evaluate(&self, patterns: Range<u64>, results: &mut RunResults) -> crate::error::Result<()> {
        // SAFETY: a Bmi2 engine is only built after `bmi2_available()` returned true.
        unsafe { crate::bits::with_bmi2(|| self.evaluate_inline(patterns, results)) };
        Ok(())
    }
}

/// The DP tables of every quadrant shape of `shape`, with `pext` where the CPU has it.
pub fn build_quadrant_tables(shape: Shape) -> GrundyTables {
    let quadrants = Shape::new(shape.rows - 1, shape.cols - 1);
    #[cfg(target_arch = "x86_64")]
    if crate::bits::bmi2_available() {
        // SAFETY: the CPU has BMI2.
        return unsafe { crate::bits::with_bmi2(|| GrundyTables::build::<crate::bits::Bmi2>(quadrants)) };
    }
    GrundyTables::build::<Portable>(quadrants)
}

/// The band tables of `shape` from its quadrant tables, with `pext` where the CPU has it.
pub fn build_bands(shape: Shape, tables: &GrundyTables) -> Result<BandTables, crate::games::wall::census::bands::BandError> {
    #[cfg(target_arch = "x86_64")]
    if crate::bits::bmi2_available() {
        // SAFETY: the CPU has BMI2.
        return unsafe { crate::bits::with_bmi2(|| BandTables::build::<crate::bits::Bmi2>(shape, tables)) };
    }
    BandTables::build::<Portable>(shape, tables)
}

/// True when `rule` can use the table engine on `shape`.
pub fn tables_apply(shape: Shape, rule: Rule) -> bool {
    matches!(rule, Rule::Standard | Rule::Misere) && shape.cells() <= 36 && shape.cols <= 8
}

/// The engine settings read from the environment (`SPRAGUE_ENGINE`, `SPRAGUE_SYMMETRY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// `SPRAGUE_ENGINE=reference`: the per-board reference engine for every size.
    pub forced_reference: bool,
    /// False under `SPRAGUE_SYMMETRY=off`: every pattern evaluated, not one per orbit.
    pub symmetric: bool,
}

impl Settings {
    /// The settings this process runs under.
    pub fn from_env() -> Settings {
        Settings {
            forced_reference: std::env::var("SPRAGUE_ENGINE").is_ok_and(|v| v == "reference"),
            symmetric: !std::env::var("SPRAGUE_SYMMETRY").is_ok_and(|v| v == "off"),
        }
    }

    /// The settings that differ from the default, as `VARIABLE = value`: a checkpoint records
    /// them (its coverage depends on them), so one without them was written under the default.
    pub fn identity(self) -> BTreeMap<String, serde_json::Value> {
        let mut identity = BTreeMap::new();
        if self.forced_reference {
            identity.insert("SPRAGUE_ENGINE".to_string(), "reference".into());
        }
        if !self.symmetric {
            identity.insert("SPRAGUE_SYMMETRY".to_string(), "off".into());
        }
        identity
    }
}

/// The engine for one size: shared tables where the rule allows it, else the reference path.
/// `SPRAGUE_ENGINE=reference` in the environment forces the reference path, and
/// `SPRAGUE_SYMMETRY=off` makes the table engine evaluate every pattern instead of one per
/// symmetry orbit (the counts are the same either way).
pub fn prepare(shape: Shape, rule: Rule) -> Box<dyn Evaluate> {
    let settings = Settings::from_env();
    let symmetric = settings.symmetric;
    if settings.forced_reference || !tables_apply(shape, rule) {
        return Box::new(ReferenceEngine { shape, rule });
    }
    #[cfg(target_arch = "x86_64")]
    if crate::bits::bmi2_available() {
        // SAFETY: the CPU has BMI2.
        let engine = unsafe { crate::bits::with_bmi2(|| TableEngine::<crate::bits::Bmi2>::build(shape, rule, symmetric)) };
        return boxed_or_reference(engine, shape, rule);
    }
    boxed_or_reference(TableEngine::<Portable>::build(shape, rule, symmetric), shape, rule)
}

fn boxed_or_reference<E: Extract + 'static>(engine: Option<TableEngine<E>>, shape: Shape, rule: Rule) -> Box<dyn Evaluate>
where
    TableEngine<E>: Evaluate,
{
    match engine {
        Some(engine) => Box::new(engine),
        None => Box::new(ReferenceEngine { shape, rule }),
    }
}

/// Estimated core-seconds per pattern of `shape` under `rule` with [`prepare`]'s engine.
pub fn seconds_per_pattern(shape: Shape, rule: Rule) -> f64 {
    if tables_apply(shape, rule) {
        super::cost::TABLE_ENGINE_NS_PER_PATTERN * 1e-9
    } else {
        super::cost::reference_seconds_per_pattern(shape)
    }
}

/// Estimated peak memory in bytes of evaluating `shape` under `rule` with [`prepare`]'s engine
/// (tables plus a fixed allowance for the process, threads and results).
pub fn estimate_peak_bytes(shape: Shape, rule: Rule) -> u64 {
    let base = 64 << 20;
    if !tables_apply(shape, rule) {
        return base;
    }
    let quadrants = Shape::new(shape.rows - 1, shape.cols - 1);
    base + GrundyTables::bytes(quadrants) + BandTables::bytes(shape) + StateTable::bytes(shape, rule)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The results of `engine` on `patterns` of `shape` under `rule`.
    pub(crate) fn run(engine: &dyn Evaluate, rule: Rule, patterns: Range<u64>) -> RunResults {
        let mut results = RunResults::new("wall", rule.name());
        engine.evaluate(patterns, &mut results).unwrap();
        results
    }

    fn assert_same(a: RunResults, b: RunResults, what: &str) {
        assert_eq!(a.summary_rows(), b.summary_rows(), "{what}");
        assert_eq!(a.distribution_rows(), b.distribution_rows(), "{what}");
        assert_eq!(a.mismatch_rows(), b.mismatch_rows(), "{what}");
    }

    #[test]
    fn table_engines_match_reference() {
        for rule in [Rule::Standard, Rule::Misere] {
            for (h, w) in [(1, 1), (1, 6), (2, 1), (2, 4), (3, 3), (3, 4), (4, 2)] {
                let shape = Shape::new(h, w);
                let all = 0..1u64 << shape.cells();
                let reference = run(&ReferenceEngine { shape, rule }, rule, all.clone());
                for symmetric in [false, true] {
                    let portable = TableEngine::<Portable>::build(shape, rule, symmetric).unwrap();
                    let what = format!("portable {shape} {rule} symmetric {symmetric}");
                    assert_same(run(&portable, rule, all.clone()), reference.clone(), &what);
                }
                assert_same(run(&*prepare(shape, rule), rule, all.clone()), reference, &format!("prepared {shape} {rule}"));
            }
        }
    }

    #[test]
    fn split_ranges_merge_to_the_whole() {
        let shape = Shape::new(3, 3);
        let engine = prepare(shape, Rule::Misere);
        let mut parts = run(&*engine, Rule::Misere, 0..100);
        parts.merge(&run(&*engine, Rule::Misere, 100..512));
        assert_same(parts, run(&*engine, Rule::Misere, 0..512), "split");
    }

    #[test]
    fn estimates_grow_with_the_tables() {
        let small = estimate_peak_bytes(Shape::new(3, 3), Rule::Standard);
        let large = estimate_peak_bytes(Shape::new(5, 6), Rule::Standard);
        assert!(large > small + (60 << 20), "{small} {large}");
        assert_eq!(estimate_peak_bytes(Shape::new(3, 3), Rule::XBlocks), 64 << 20);
    }
}
