//! Custom games from Rust (`sprague::custom`): the subtraction game {1, 3, 4} agrees with its
//! period-7 claim, a wrong claim and a wrong decomposition are caught with the smallest
//! counterexample (each row naming the answer that fails), and the brute force never calls the
//! claim or the components.

use sprague::custom::{exact_values, verify, CustomGame};
use sprague::output::records::Answer;
use sprague::runner::directory::Report;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const VALUES: [u32; 7] = [0, 1, 0, 1, 2, 3, 2];

/// One heap, S = {1, 3, 4}; the claim repeats `period` values of the true table. With `split`,
/// wrong components: heap n splits into heaps 1 and n - 1 (values 1 xor the value of n - 1:
/// wrong first at n = 4, where 1 ^ 1 = 0, exact 2). With a `slot`, positions indexed:
/// positions(n) = [n], so n is (n, `slot`), and slot 0 is right.
struct Subtraction {
    period: usize,
    split: bool,
    slot: Option<usize>,
}

/// [`Subtraction`] with its right claim, no components and no index.
const RIGHT: Subtraction = Subtraction { period: 7, split: false, slot: None };

impl CustomGame for Subtraction {
    type Position = u32;
    fn positions(&self, size: u32) -> Vec<u32> {
        vec![size]
    }
    fn moves(&self, &n: &u32) -> Vec<u32> {
        [1, 3, 4].into_iter().filter(|&k| k <= n).map(|k| n - k).collect()
    }
    fn claim(&self, &n: &u32) -> Option<u32> {
        Some(VALUES[n as usize % self.period])
    }
    fn components(&self, &n: &u32) -> Option<Vec<u32>> {
        (self.split && n >= 2).then(|| vec![1, n - 1])
    }
    fn index(&self, &n: &u32) -> Option<(u32, usize)> {
        self.slot.map(|slot| (n, slot))
    }
}

/// Two heaps (sorted) of S = {1, 3, 4}; with `joint`, a move may also take one stone from
/// each heap, so the heaps are no longer independent. Claim and components count their calls.
#[derive(Default)]
struct TwoHeaps {
    joint: bool,
    claims: AtomicU64,
    splits: AtomicU64,
}

impl CustomGame for TwoHeaps {
    type Position = Vec<u16>;
    fn name(&self) -> &str {
        "two-heaps"
    }
    fn positions(&self, size: u32) -> Vec<Vec<u16>> {
        let size = size as u16;
        (0..=size / 2).map(|a| vec![a, size - a]).collect()
    }
    fn moves(&self, heaps: &Vec<u16>) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        for i in 0..heaps.len() {
            for k in [1, 3, 4].into_iter().filter(|&k| k <= heaps[i]) {
                let mut next = heaps.clone();
                next[i] -= k;
                next.sort_unstable();
                out.push(next);
            }
        }
        if self.joint && heaps.len() == 2 && heaps.iter().all(|&h| h > 0) {
            out.push(heaps.iter().map(|h| h - 1).collect());
        }
        out
    }
    fn claim(&self, heaps: &Vec<u16>) -> Option<u32> {
        self.claims.fetch_add(1, Relaxed);
        Some(heaps.iter().fold(0, |x, &h| x ^ VALUES[usize::from(h) % 7]))
    }
    fn components(&self, heaps: &Vec<u16>) -> Option<Vec<Vec<u16>>> {
        self.splits.fetch_add(1, Relaxed);
        Some(heaps.iter().map(|&h| vec![h]).collect())
    }
}

fn run<G: CustomGame>(game: &G, max: u32) -> (Report, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    (verify(game, max, dir.path()).unwrap(), dir)
}

fn positions(report: &Report) -> u64 {
    report.results.sizes.values().map(|t| t.patterns).sum()
}

#[test]
fn subtraction_agrees_with_its_period_7_claim_up_to_1000() {
    let (report, dir) = run(&RIGHT, 1000);
    assert!(report.all_agree(), "{:?}", report.results.mismatches);
    assert_eq!(positions(&report), 1001);
    assert_eq!(report.results.sizes[&(1, 6)].distribution[&(0, 2)], 1);
    for file in ["summary.csv", "distribution.csv", "mismatches.csv", "manifest.json"] {
        assert!(dir.path().join(file).exists(), "{file}");
    }
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    assert!(summary.starts_with("game,rule,rows,size,patterns"), "{summary}");
}

#[test]
fn a_wrong_claim_is_caught_with_the_smallest_counterexample() {
    let (report, dir) = run(&Subtraction { period: 6, ..RIGHT }, 100);
    assert!(!report.all_agree());
    let first = report.results.first_mismatch(&[]).unwrap();
    assert_eq!((first.board.as_str(), first.dp_grundy, first.naive_grundy), ("6", 0, Some(2)));
    let mismatches = std::fs::read_to_string(dir.path().join("mismatches.csv")).unwrap();
    assert_eq!(mismatches.lines().next(), Some("game,rule,rows,size,position,dp_grundy,naive_grundy,naive_outcome,answer"));
    assert_eq!(mismatches.lines().nth(1), Some("custom,exhaustive,1,6,6,0,2,First,claim"), "{mismatches}");
}

#[test]
fn wrong_components_beside_a_right_claim_are_named_as_such() {
    let (report, dir) = run(&Subtraction { split: true, ..RIGHT }, 30);
    let first = report.results.first_mismatch(&[]).unwrap();
    assert_eq!((first.board.as_str(), first.dp_grundy, first.naive_grundy, first.answer), ("4", 0, Some(2), Some(Answer::Components)));
    assert!(report.results.mismatches.iter().all(|r| r.answer == Some(Answer::Components)), "{:?}", report.results.mismatches);
    let mismatches = std::fs::read_to_string(dir.path().join("mismatches.csv")).unwrap();
    assert_eq!(mismatches.lines().nth(1), Some("custom,exhaustive,1,4,4,0,2,First,components"), "{mismatches}");
}

#[test]
fn an_index_gives_the_same_files_and_a_wrong_one_is_refused() {
    let (plain, plain_dir) = run(&RIGHT, 3000);
    let (indexed, dir) = run(&Subtraction { slot: Some(0), ..RIGHT }, 3000);
    assert_eq!((plain.results.sizes.len(), &plain.results.sizes), (3001, &indexed.results.sizes));
    for file in ["summary.csv", "distribution.csv"] {
        let read = |dir: &tempfile::TempDir| std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert_eq!(read(&plain_dir), read(&dir), "{file}");
    }
    let dir = tempfile::tempdir().unwrap();
    let err = verify(&Subtraction { slot: Some(1), ..RIGHT }, 10, dir.path()).unwrap_err().to_string();
    assert!(err.contains("index(0) is (0, 1), but that position is positions(0)[0]"), "{err}");
}

#[test]
fn independent_heaps_agree_and_a_wrong_decomposition_is_caught() {
    let (report, _dir) = run(&TwoHeaps::default(), 60);
    assert!(report.all_agree(), "{:?}", report.results.mismatches);
    assert_eq!(positions(&report), (0..=60u64).map(|s| s / 2 + 1).sum::<u64>());
    assert_eq!(report.results.sizes[&(1, 7)].distribution.keys().map(|k| k.0).max(), Some(2));

    let joint = TwoHeaps { joint: true, ..Default::default() };
    let (report, _dir) = run(&joint, 12);
    let first = report.results.first_mismatch(&[]).unwrap();
    // [1, 1]: moves to [0, 1] (1) and [0, 0] (0), value 2; the parts XOR to 1 ^ 1 = 0, and so
    // does the claim: one row per wrong answer, the position counted once.
    assert_eq!((first.cols, first.board.as_str(), first.dp_grundy, first.naive_grundy), (2, "[1, 1]", 0, Some(2)));
    let answers: Vec<_> = report.results.rows_of(first).iter().map(|r| r.answer).collect();
    assert_eq!(answers, [Some(Answer::Claim), Some(Answer::Components)]);
    assert_eq!(report.results.sizes[&(1, 2)].mismatches, 1);
}

#[test]
fn the_brute_force_never_calls_the_claim_or_the_components() {
    let game = TwoHeaps::default();
    let values = exact_values(&game, &[vec![0, 6], vec![3, 5], vec![10, 20]]);
    assert_eq!(values, [2, 1 ^ 3, 1 ^ 2], "values 2; 1, 3; 1, 2 by the period");
    assert_eq!((game.claims.load(Relaxed), game.splits.load(Relaxed)), (0, 0));
    // In a run, each is called once per position checked and never from the search below it.
    let (report, _dir) = run(&game, 40);
    assert_eq!((game.claims.load(Relaxed), game.splits.load(Relaxed)), (positions(&report), positions(&report)));
}
