//! Board sizes as options give them: `HxW` (any size, or one exhaustive verification takes, of
//! at most 63 cells and sides of at most 20), and every size up to a maximum (`--max`).

use super::Shape;
use crate::game::vocabulary::split_pair;

/// Checks `HxW` with 1 ≤ H, W.
pub fn parse_dims(s: &str) -> std::result::Result<Shape, String> {
    let bad = || format!("invalid size {s:?}: expected HxW, e.g. 5x5");
    let (rows, cols) = split_pair(s).ok_or_else(bad)?;
    if rows == 0 || cols == 0 {
        return Err(format!("invalid size {s:?}: a board has at least 1 row and 1 column"));
    }
    let side = |n: u64| usize::try_from(n).map_err(|_| bad());
    Ok(Shape::new(side(rows)?, side(cols)?))
}

/// Most cells of a size exhaustive verification takes: its 2^cells patterns are counted in 64 bits.
pub const MAX_VERIFY_CELLS: usize = 63;

/// Checks `HxW` with 1 ≤ H, W and H·W ≤ [`MAX_VERIFY_CELLS`].
pub fn parse_shape(s: &str) -> std::result::Result<Shape, String> {
    let shape = parse_dims(s)?;
    verifiable(shape)?;
    Ok(shape)
}

/// An error when `shape` has more than [`MAX_VERIFY_CELLS`] cells, or a side longer than the
/// claim's DP holds ([`super::MAX_SIDE`], the contest's limit).
pub fn verifiable(shape: Shape) -> std::result::Result<(), String> {
    let side = shape.rows.max(shape.cols);
    if side > super::MAX_SIDE {
        let limit = super::MAX_SIDE;
        return Err(format!("size {shape} has a side of {side}; the claim's DP takes sides up to {limit} (the contest's {limit}×{limit}, BOJ 11717)"));
    }
    if shape.cells() > MAX_VERIFY_CELLS {
        return Err(format!("size {shape} has {} cells; a run over every pattern (verify, census) handles at most {MAX_VERIFY_CELLS} (2^{MAX_VERIFY_CELLS} patterns)", shape.cells()));
    }
    Ok(())
}

/// Every size h×w with h ≤ max.rows and w ≤ max.cols, row by row.
pub fn sizes_up_to(max: Shape) -> Vec<Shape> {
    (1..=max.rows).flat_map(|r| (1..=max.cols).map(move |c| Shape::new(r, c))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_bad_ones_are_named() {
        assert_eq!(parse_dims("5x7"), Ok(Shape::new(5, 7)));
        assert_eq!(parse_dims("20X20"), Ok(Shape::new(20, 20)));
        for bad in ["5", "axb", "-3x5", ""] {
            assert!(parse_dims(bad).unwrap_err().contains("expected HxW"), "{bad}");
        }
        for empty in ["0x3", "3x0", "0x0"] {
            assert!(parse_dims(empty).unwrap_err().ends_with("a board has at least 1 row and 1 column"), "{empty}");
        }
        assert_eq!(parse_shape("7x9"), Ok(Shape::new(7, 9)));
        assert!(parse_shape("9x8").unwrap_err().contains("72 cells"));
        // The option's check and the run refuse alike (8x8 passed the one, not the other).
        assert_eq!(parse_shape("8x8").unwrap_err(), "size 8x8 has 64 cells; a run over every pattern (verify, census) handles at most 63 (2^63 patterns)");
        // Sides past the DP's tables, tall or wide (1x21 panicked in the DP).
        assert_eq!(parse_shape("1x21").unwrap_err(), "size 1x21 has a side of 21; the claim's DP takes sides up to 20 (the contest's 20×20, BOJ 11717)");
        assert!(parse_shape("33x1").unwrap_err().contains("a side of 33"));
        assert_eq!(parse_shape("20x3"), Ok(Shape::new(20, 3)));
    }
}
