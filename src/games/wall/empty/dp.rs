//! The X-free boards by the rectangle DP: empty.csv (every size up to 20×20) and its rows,
//! which the table files of any size share.

use crate::error::{Error, Result};
use crate::games::wall::board::dims::sizes_up_to;
use crate::games::wall::board::{Board, Shape, MAX_SIDE};
use crate::games::wall::claim::dp;
use crate::output::csv::CsvRecord;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// empty.csv: the Grundy value of every board with no X up to 20×20.
pub const EMPTY: &str = "empty.csv";

/// One row of empty.csv: the rectangle DP's Grundy value of the rows×cols board with no X.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EmptyRow {
    pub rows: u32,
    pub cols: u32,
    pub grundy: u32,
}

impl CsvRecord for EmptyRow {
    const HEADER: &'static [&'static str] = &["rows", "cols", "grundy"];
}

/// The empty-board table for every size up to `max` (each side at most 20), sorted by rows,
/// then cols; each value from a full run of the rectangle DP on the X-free board.
pub fn empty_table(max: Shape) -> Result<Vec<EmptyRow>> {
    if max.rows == 0 || max.cols == 0 || max.rows > MAX_SIDE || max.cols > MAX_SIDE {
        return Err(Error::Usage(format!("the empty-board table takes sides 1 to {MAX_SIDE}, not {max}")));
    }
    Ok(sizes_up_to(max)
        .into_par_iter()
        .map(|shape| EmptyRow {
            rows: shape.rows as u32,
            cols: shape.cols as u32,
            grundy: dp::solve(&Board::empty(shape)).grundy,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_table_is_sorted_and_matches_the_size_recurrence() {
        let table = empty_table(Shape::new(6, 7)).unwrap();
        assert_eq!(table.len(), 42);
        assert!(table.windows(2).all(|w| (w[0].rows, w[0].cols) < (w[1].rows, w[1].cols)));
        for row in &table {
            assert_eq!(row.grundy, u32::from(dp::empty_grundy(row.rows as usize, row.cols as usize)), "{row:?}");
        }
        assert!(empty_table(Shape::new(21, 1)).is_err());
        assert!(empty_table(Shape::new(0, 3)).is_err());
    }
}
