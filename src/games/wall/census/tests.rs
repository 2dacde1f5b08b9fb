use super::*;
use crate::games::wall::board::rules::Rule;
use crate::games::wall::verify::engine::tests::run;
use crate::games::wall::verify::engine::{prepare, ReferenceEngine};
use super::few_x;

/// The census of `shape` split at unaligned points (so that part middles occur too).
fn split_census(census: &CensusEngine, shape: Shape) -> RunResults {
    let total = 1u64 << shape.cells();
    let (a, b) = (total / 3, (total / 3 + 5).min(total));
    let mut split = run(census, Rule::Standard, 0..a);
    split.merge(&run(census, Rule::Standard, a..b));
    split.merge(&run(census, Rule::Standard, b..total));
    split
}

#[test]
fn census_counts_equal_the_verified_distribution() {
    for (h, w) in [(1, 1), (1, 5), (2, 1), (2, 5), (3, 4), (4, 3), (5, 2), (9, 2), (3, 5), (4, 4)] {
        let shape = Shape::new(h, w);
        let verified = run(&*prepare(shape, Rule::Standard), Rule::Standard, 0..1 << shape.cells());
        for avx2 in [false, crate::bits::avx2_available()] {
            let census = CensusEngine { avx2, ..CensusEngine::build(shape) };
            let split = split_census(&census, shape);
            assert_eq!(split.distribution_rows(), verified.distribution_rows(), "{shape} avx2 {avx2}");
            assert_eq!(split.summary_rows(), verified.summary_rows(), "{shape}");
        }
        if shape.cells() <= 9 {
            let reference = run(&ReferenceEngine { shape, rule: Rule::Standard }, Rule::Standard, 0..1 << shape.cells());
            assert_eq!(verified.summary_rows(), reference.summary_rows());
        }
    }
}

#[test]
fn wide_census_equals_the_table_recursion() {
    // 5 and 6 columns take the vectorized path; 4×6's quadrants (3×5) come from block-filled tables.
    for (h, w) in [(3, 6), (4, 6), (2, 8)] {
        let shape = Shape::new(h, w);
        let census = CensusEngine::build(shape);
        let tables = GrundyTables::build::<Portable>(shape);
        let plan = tables.plan(shape);
        let mut expected = RunResults::new("wall", "standard");
        let tally = expected.size_mut(h as u32, w as u32);
        for x in 0..1u64 << shape.cells() {
            tally.record(x.count_ones(), tables.grundy::<Portable>(&plan, x) as u32, 1);
        }
        assert_eq!(split_census(&census, shape).distribution_rows(), expected.distribution_rows(), "{shape}");
    }
}

#[test]
fn transposed_sizes_have_the_same_distribution() {
    let count = |h: usize, w: usize| {
        let results = run(&CensusEngine::build(Shape::new(h, w)), Rule::Standard, 0..1 << (h * w));
        results.sizes[&(h as u32, w as u32)].distribution.clone()
    };
    assert_eq!(count(4, 6), count(6, 4));
    assert_eq!(count(7, 3), count(3, 7));
}

#[test]
fn few_x_rows_match_the_rectangle_dp() {
    for (h, w, k) in [(3, 4, 2), (4, 5, 3), (5, 3, 7), (5, 7, 3)] {
        let shape = Shape::new(h, w);
        let census = CensusEngine::build(shape).only_extremes(k);
        let results = run(&census, Rule::Standard, 0..1 << shape.cells());
        let differences = few_x::differences(shape, k, &results.sizes[&(h as u32, w as u32)]);
        assert!(differences.is_empty(), "{shape}: {differences:?}");
    }
    // A wrong count is caught.
    let shape = Shape::new(3, 3);
    let mut results = run(&CensusEngine::build(shape), Rule::Standard, 0..512);
    let tally = results.size_mut(3, 3);
    *tally.distribution.get_mut(&(1, 1)).unwrap() += 1;
    assert_eq!(few_x::differences(shape, 1, tally).len(), 1);
}

#[test]
fn limits_and_estimates() {
    for (h, w, ok) in [(6, 7, true), (7, 7, true), (6, 8, true), (7, 8, false), (8, 6, false), (9, 4, true), (3, 9, false)] {
        assert_eq!(supports(Shape::new(h, w)), ok, "{h}x{w}");
    }
    // 6×7 reads quadrants up to 5×6 (2^30 bytes); 7×7 leaves its 6×6 corners out.
    let gib = |bytes: u64| bytes as f64 / (1u64 << 30) as f64;
    assert!((1.0..1.2).contains(&gib(estimate_peak_bytes(Shape::new(6, 7)))));
    assert!((2.0..2.3).contains(&gib(estimate_peak_bytes(Shape::new(7, 7)))));
    assert!(estimate_peak_bytes(Shape::new(1, 4)) < 100 << 20);
}

/// The few-X check at the size of the long run: every 6×7 pattern with at most 4 X cells or
/// at most 4 free cells (248,628 boards) by the per-board DP, against the census rows.
#[test]
#[ignore = "builds 1.1 GiB of quadrant tables; run with --ignored"]
fn few_x_rows_of_6x7_match_the_rectangle_dp() {
    let shape = Shape::new(6, 7);
    let census = CensusEngine::build(shape).only_extremes(4);
    let swept = run(&census, Rule::Standard, 0..1 << 42);
    let differences = few_x::differences(shape, 4, &swept.sizes[&(6, 7)]);
    assert!(differences.is_empty(), "{differences:?}");
}
