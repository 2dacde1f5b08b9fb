//! Per-size tallies of a verification run (patterns, mismatches, Grundy distribution) and merging.

use crate::output::records::{Answer, Columns, DistributionRow, MismatchRow, SummaryRow};
use std::collections::BTreeMap;

/// Counts for one size (rows × cols) of one game and rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SizeTally {
    pub rows: u32,
    pub cols: u32,
    pub patterns: u64,
    pub mismatches: u64,
    /// (key, claimed Grundy value) → patterns; the key is what the game counts in a position,
    /// its distribution.csv column ([`Columns::key`]).
    pub distribution: BTreeMap<(u32, u32), u64>,
}

impl SizeTally {
    pub fn new(rows: u32, cols: u32) -> Self {
        SizeTally { rows, cols, ..Default::default() }
    }

    /// Counts `weight` patterns with key `key` and claimed value `grundy`. Counts saturate
    /// rather than wrap: a count read from a damaged file cannot wrap round to a total that
    /// looks right (no real count comes near 2^64; the totals checks then refuse it).
    pub fn record(&mut self, key: u32, grundy: u32, weight: u64) {
        self.patterns = self.patterns.saturating_add(weight);
        let count = self.distribution.entry((key, grundy)).or_default();
        *count = count.saturating_add(weight);
    }

    /// Records flat counters: `counts[key * slots + grundy]` patterns per (key, value).
    pub fn record_flat(&mut self, counts: &[u64], slots: usize) {
        for (i, &n) in counts.iter().enumerate().filter(|&(_, &n)| n > 0) {
            self.record((i / slots) as u32, (i % slots) as u32, n);
        }
    }

    /// Adds another tally of the same size.
    pub fn merge(&mut self, other: &SizeTally) {
        assert_eq!((self.rows, self.cols), (other.rows, other.cols), "merging tallies of different sizes");
        self.patterns = self.patterns.saturating_add(other.patterns);
        self.mismatches = self.mismatches.saturating_add(other.mismatches);
        for (&key, &n) in &other.distribution {
            let count = self.distribution.entry(key).or_default();
            *count = count.saturating_add(n);
        }
    }

    /// Patterns whose claimed Grundy value is 0 (saturating, as [`SizeTally::record`]).
    pub fn p_positions(&self) -> u64 {
        self.distribution.iter().filter(|((_, g), _)| *g == 0).fold(0u64, |sum, (_, &n)| sum.saturating_add(n))
    }

    /// Largest claimed Grundy value seen (0 when nothing was counted).
    pub fn max_grundy(&self) -> u32 {
        self.distribution.keys().map(|&(_, g)| g).max().unwrap_or(0)
    }
}

/// A position on which the claim and the naive oracle disagree, as mismatches.csv shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement<'a> {
    /// The position in the game's compact text form.
    pub position: String,
    pub claimed: u32,
    /// The oracle's value of the same kind, when it computes one.
    pub naive_value: Option<u32>,
    /// The oracle's outcome: `First`, `Second` (or `Draw` for loopy games).
    pub naive_outcome: &'a str,
    /// Which answer fails, for games that check several per position (their
    /// [`Columns::answer`] is set); `None` for the others.
    pub answer: Option<Answer>,
}

/// Everything a verification run of one game and rule produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunResults {
    pub game: String,
    pub rule: String,
    /// What the game calls the size, key and position columns of its files.
    pub columns: Columns,
    /// Keyed by (rows, cols).
    pub sizes: BTreeMap<(u32, u32), SizeTally>,
    pub mismatches: Vec<MismatchRow>,
    /// CSV lines of a game's own per-position file (a file with one row per position group), in any order.
    pub extra_rows: Vec<String>,
}

impl RunResults {
    /// Empty results of `game` and `rule`, under [`Columns::BOARD`] until
    /// [`RunResults::with_columns`] names the game's own.
    pub fn new(game: impl Into<String>, rule: impl Into<String>) -> Self {
        RunResults { game: game.into(), rule: rule.into(), ..Default::default() }
    }

    /// The same results, written and read under the game's `columns` ([`super::Verification::columns`]).
    pub fn with_columns(self, columns: Columns) -> Self {
        RunResults { columns, ..self }
    }

    /// The tally of one size, created empty on first use.
    pub fn size_mut(&mut self, rows: u32, cols: u32) -> &mut SizeTally {
        self.sizes.entry((rows, cols)).or_insert_with(|| SizeTally::new(rows, cols))
    }

    /// Counts `weight` positions of `size` under distribution key (`key`, `value`).
    pub fn count(&mut self, (rows, cols): (u32, u32), key: u32, value: u32, weight: u64) {
        self.size_mut(rows, cols).record(key, value, weight);
    }

    /// Records a position of `size` on which the claim fails (it is counted separately).
    pub fn mismatch(&mut self, size: (u32, u32), disagreement: Disagreement<'_>) {
        self.fail(size, [disagreement]);
    }

    /// Records a position of `size` on which some answers fail: one row per wrong answer, the
    /// position counted once as a mismatch (nothing when `wrong` is empty).
    pub fn fail<'a>(&mut self, (rows, cols): (u32, u32), wrong: impl IntoIterator<Item = Disagreement<'a>>) {
        let before = self.mismatches.len();
        for disagreement in wrong {
            self.mismatches.push(MismatchRow {
                game: self.game.clone(),
                rule: self.rule.clone(),
                rows,
                cols,
                board: disagreement.position,
                dp_grundy: disagreement.claimed,
                naive_grundy: disagreement.naive_value,
                naive_outcome: disagreement.naive_outcome.into(),
                answer: disagreement.answer,
            });
        }
        if self.mismatches.len() > before {
            self.size_mut(rows, cols).mismatches += 1;
        }
    }

    /// Counts one position and records the answers that fail on it (none: it agrees).
    pub fn check<'a>(&mut self, size: (u32, u32), (key, value): (u32, u32), failed: impl IntoIterator<Item = Disagreement<'a>>) {
        self.count(size, key, value, 1);
        self.fail(size, failed);
    }

    /// Adds another run's results of the same game and rule.
    pub fn merge(&mut self, other: &RunResults) {
        for tally in other.sizes.values() {
            self.size_mut(tally.rows, tally.cols).merge(tally);
        }
        self.mismatches.extend(other.mismatches.iter().cloned());
        self.extra_rows.extend(other.extra_rows.iter().cloned());
    }

    /// True when no position disagreed.
    pub fn all_agree(&self) -> bool {
        self.sizes.values().all(|t| t.mismatches == 0)
    }

    /// summary.csv rows, sorted by size.
    pub fn summary_rows(&self) -> Vec<SummaryRow> {
        self.sizes
            .values()
            .map(|t| SummaryRow {
                game: self.game.clone(),
                rule: self.rule.clone(),
                rows: t.rows,
                cols: t.cols,
                patterns: t.patterns,
                mismatches: t.mismatches,
                p_positions: t.p_positions(),
                max_grundy: t.max_grundy(),
            })
            .collect()
    }

    /// distribution.csv rows, sorted by size, key and value.
    pub fn distribution_rows(&self) -> Vec<DistributionRow> {
        self.sizes
            .values()
            .flat_map(|t| {
                t.distribution.iter().map(|(&(xs, grundy), &patterns)| DistributionRow {
                    game: self.game.clone(),
                    rule: self.rule.clone(),
                    rows: t.rows,
                    cols: t.cols,
                    xs,
                    grundy,
                    patterns,
                })
            })
            .collect()
    }

    /// The smallest disagreement: of the first size in `order` (the game's size order, e.g. its
    /// jobs' sizes; sizes not in it come after, by (rows, cols)), the shortest position, then
    /// the first in text order (its claim before its components when both fail).
    pub fn first_mismatch(&self, order: &[(u32, u32)]) -> Option<&MismatchRow> {
        let rank = |r: &MismatchRow| order.iter().position(|&s| s == (r.rows, r.cols)).unwrap_or(order.len());
        self.mismatches.iter().min_by_key(|r| (rank(r), r.rows, r.cols, r.board.len(), &r.board, r.answer))
    }

    /// The rows of `first`'s position (its size and board), one per wrong answer, claim first
    /// ([`RunResults::first_mismatch`] and the other answers failing there).
    pub fn rows_of<'r>(&'r self, first: &'r MismatchRow) -> Vec<&'r MismatchRow> {
        let mut rows: Vec<&MismatchRow> = self.mismatches.iter().filter(|r| (r.rows, r.cols, &r.board) == (first.rows, first.cols, &first.board)).collect();
        rows.sort_by_key(|r| r.answer);
        rows.dedup_by_key(|r| r.answer);
        rows
    }

    /// mismatches.csv rows, sorted (by size, then board, then answer).
    pub fn mismatch_rows(&self) -> Vec<MismatchRow> {
        let mut rows = self.mismatches.clone();
        rows.sort_by(|a, b| (a.rows, a.cols, &a.board, a.answer).cmp(&(b.rows, b.cols, &b.board, b.answer)));
        rows.dedup();
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count near 2^64 (a damaged file) saturates the sums instead of wrapping them back to
    /// the true total (2^64 - 1 + 3 patterns wrapped to 2).
    #[test]
    fn counts_saturate_rather_than_wrap() {
        let mut tally = SizeTally::new(3, 3);
        tally.record(1, 0, u64::MAX);
        tally.record(1, 0, 3);
        assert_eq!((tally.patterns, tally.p_positions()), (u64::MAX, u64::MAX));
        let mut other = SizeTally::new(3, 3);
        other.record(2, 0, 1);
        tally.merge(&other);
        assert_eq!((tally.patterns, tally.p_positions()), (u64::MAX, u64::MAX));
    }

    #[test]
    fn derived_columns_and_merge() {
        let mut a = RunResults::new("toy", "standard");
        a.size_mut(1, 1).record(0, 1, 1);
        let mut b = RunResults::new("toy", "standard");
        b.size_mut(1, 1).record(1, 0, 1);
        a.merge(&b);
        let summary = a.summary_rows();
        assert_eq!(summary.len(), 1);
        assert_eq!((summary[0].patterns, summary[0].p_positions, summary[0].max_grundy), (2, 1, 1));
        assert_eq!(a.distribution_rows().len(), 2);
        assert!(a.all_agree());
    }

    #[test]
    fn first_mismatch_follows_the_size_order() {
        let mut r = RunResults::new("toy", "standard");
        let wrong = |position: &str| Disagreement { position: position.into(), claimed: 1, naive_value: Some(0), naive_outcome: "Second", answer: None };
        r.mismatch((2, 1), wrong("X/."));
        r.mismatch((1, 3), wrong(".X."));
        r.mismatch((1, 3), wrong("X.."));
        r.mismatch((1, 3), wrong(".."));
        assert_eq!(r.first_mismatch(&[(2, 1), (1, 3)]).unwrap().board, "X/.");
        assert_eq!(r.first_mismatch(&[(1, 3), (2, 1)]).unwrap().board, "..");
        assert_eq!(r.first_mismatch(&[]).unwrap().board, "..");
        assert!(RunResults::new("toy", "standard").first_mismatch(&[]).is_none());
    }

    #[test]
    fn a_position_failing_two_answers_has_two_rows_and_counts_once() {
        let mut r = RunResults::new("toy", "standard");
        let wrong = |answer, claimed| Disagreement { position: "p".into(), claimed, naive_value: Some(0), naive_outcome: "Second", answer: Some(answer) };
        r.check((1, 1), (0, 1), [wrong(Answer::Components, 3), wrong(Answer::Claim, 1)]);
        r.check((1, 1), (0, 0), None);
        assert_eq!((r.sizes[&(1, 1)].patterns, r.sizes[&(1, 1)].mismatches), (2, 1));
        let answers: Vec<_> = r.mismatch_rows().iter().map(|row| (row.answer, row.dp_grundy)).collect();
        assert_eq!(answers, [(Some(Answer::Claim), 1), (Some(Answer::Components), 3)]);
        let first = r.first_mismatch(&[]).unwrap();
        assert_eq!(first.answer, Some(Answer::Claim));
        assert_eq!(r.rows_of(first).len(), 2);
    }
}
