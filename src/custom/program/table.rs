//! The exact value of every starting position of a game program up to a size, and the period a sequence of them is seen to have.
//!
//! Values come from [`Explorer::values`] (brute force: mex, or the outcome by minimax); the
//! period is only observed on the table, never proved.

use super::split::Splitter;
use super::{protocol, Explorer, Verb};
use crate::error::Result;
use crate::output::csv::CsvRecord;
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
pub use crate::impartial::Period;

/// One row of the table: a starting position of `size` and its exact value (Grundy value, or
/// outcome 1/0 under misère play).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRow {
    pub size: u32,
    pub position: String,
    pub value: u32,
}

impl CsvRecord for TableRow {
    const HEADER: &'static [&'static str] = &["size", "position", "value"];
}

/// The starting positions of every size 0..=max (`positions N`): ids in the program's order,
/// a position listed twice in one size kept once.
pub fn starting_positions(explorer: &mut Explorer, max: u32) -> Result<Vec<Vec<u32>>> {
    let sizes: Vec<String> = (0..=max).map(|n| n.to_string()).collect();
    let args: Vec<&str> = sizes.iter().map(String::as_str).collect();
    let program = explorer.program().clone();
    let answers = program.ask(Verb::Positions, &args)?;
    let listed = answers.iter().zip(&sizes).map(|(answer, n)| {
        let mut ids = explorer.intern_all(answer, &protocol::request(Verb::Positions, n))?;
        let mut seen = FxHashSet::default();
        ids.retain(|&id| seen.insert(id));
        Ok(ids)
    });
    listed.collect()
}

/// A table and what the program's `components` answers said that may be a bug.
#[derive(Debug)]
pub struct Table {
    pub rows: Vec<TableRow>,
    /// Positions (tokens) whose `components` answer was empty, taken as value 0.
    pub empty_splits: Vec<String>,
}

/// The table of sizes 0..=max: by size, then in the order the program lists them. With
/// `split`, the program's `components` are trusted ([`Splitter`]: normal play only).
pub fn table(explorer: &mut Explorer, max: u32, split: bool) -> Result<Table> {
    let starts = starting_positions(explorer, max)?;
    let ids: Vec<u32> = starts.iter().flatten().copied().collect();
    let (values, empty) = if split {
        let mut splitter = Splitter::new(explorer);
        (splitter.values(&ids)?, splitter.empty_splits().to_vec())
    } else {
        (explorer.values(&ids)?, Vec::new())
    };
    let sizes = starts.iter().enumerate().flat_map(|(size, ids)| ids.iter().map(move |_| size as u32));
    let rows = sizes.zip(&ids).zip(values).map(|((size, &id), value)| TableRow { size, position: explorer.token(id).to_string(), value });
    let empty_splits = empty.iter().map(|&id| explorer.token(id).to_string()).collect();
    Ok(Table { rows: rows.collect(), empty_splits })
}

/// The values of a table in which every size has exactly one starting position (a sequence:
/// one heap of 0, 1, 2, … stones); `None` otherwise.
pub fn sequence(rows: &[TableRow], max: u32) -> Option<Vec<u32>> {
    let one_each = rows.len() == max as usize + 1 && rows.iter().enumerate().all(|(i, r)| r.size as usize == i);
    one_each.then(|| rows.iter().map(|r| r.value).collect())
}

/// The period a sequence is seen to have ([`crate::impartial::observed_period`], any length).
pub fn observed_period(values: &[u32]) -> Option<Period> {
    crate::impartial::observed_period(values, usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::custom::program::fake::{subtraction, Fake};
    use crate::custom::program::GraphLimits;
    use crate::impartial::Convention;
    use std::sync::Arc;

    #[test]
    fn periods_are_observed_twice_at_least() {
        let seven: Vec<u32> = (0..30).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
        assert_eq!(observed_period(&seven), Some(Period { preperiod: 0, period: 7 }));
        assert_eq!(observed_period(&seven[..14]), Some(Period { preperiod: 0, period: 7 }));
        assert_eq!(observed_period(&seven[..13]), None, "seen less than twice");
        let late: Vec<u32> = [5, 4, 5].into_iter().chain((0..12).map(|n| n % 3)).collect();
        assert_eq!(observed_period(&late), Some(Period { preperiod: 3, period: 3 }));
        assert_eq!(observed_period(&[0, 1, 2, 3, 4]), None);
        assert_eq!(observed_period(&[]), None);
        assert_eq!(observed_period(&[2, 2]), Some(Period { preperiod: 0, period: 1 }));
    }

    /// One heap of each size, a move takes one of `take` stones.
    fn heaps(take: &'static [u32]) -> impl Fn(Verb, &str) -> Option<String> {
        move |verb, arg: &str| {
            let n: u32 = arg.parse().ok()?;
            match verb {
                Verb::Positions => Some(arg.to_string()),
                Verb::Moves => Some(take.iter().filter(|&&k| k <= n).map(|k| (n - k).to_string()).collect::<Vec<_>>().join(" ")),
                _ => None,
            }
        }
    }

    #[test]
    fn equal_last_values_are_no_period_of_one() {
        let seen = |take: &'static [u32], convention, max| {
            let mut explorer = Explorer::new(Arc::new(Fake::new("positions moves", heaps(take))), convention, GraphLimits::default());
            observed_period(&sequence(&table(&mut explorer, max, false).unwrap().rows, max).unwrap())
        };
        for max in 10..=30 {
            assert_eq!(seen(&[2, 3], Convention::Normal, max), Some(Period { preperiod: 0, period: 5 }), "subtraction {{2, 3}}, max {max}");
        }
        for max in 25..=35 {
            assert_eq!(seen(&[1, 2], Convention::Misere, max), Some(Period { preperiod: 0, period: 3 }), "misère {{1, 2}}, max {max}");
        }
    }

    #[test]
    fn the_table_lists_every_size_in_the_programs_order() {
        let game = Arc::new(Fake::new("positions moves", subtraction));
        let mut explorer = Explorer::new(game, Convention::Normal, GraphLimits::default());
        let rows = table(&mut explorer, 20, false).unwrap().rows;
        assert_eq!(rows[4], TableRow { size: 4, position: "4".into(), value: 2 });
        let values = sequence(&rows, 20).expect("one heap per size");
        assert_eq!(values, (0..=20).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect::<Vec<u32>>());
        assert_eq!(observed_period(&values), Some(Period { preperiod: 0, period: 7 }));
        // Two positions of size 1, one listed twice: kept once each, in the program's order.
        let pairs = Arc::new(Fake::new("positions moves", |verb, arg: &str| match (verb, arg) {
            (Verb::Positions, "1") => Some("b a b".into()),
            (Verb::Positions, _) => Some(String::new()),
            (Verb::Moves, "b") => Some("a".into()),
            (Verb::Moves, _) => Some(String::new()),
            _ => None,
        }));
        let mut explorer = Explorer::new(pairs, Convention::Misere, GraphLimits::default());
        let rows = table(&mut explorer, 2, false).unwrap().rows;
        let shown: Vec<(u32, &str, u32)> = rows.iter().map(|r| (r.size, r.position.as_str(), r.value)).collect();
        assert_eq!(shown, [(1, "b", 0), (1, "a", 1)], "misère: a (no move) wins, b loses");
        assert_eq!(sequence(&rows, 2), None);
    }
}
