//! The move rule of the Wall Making Game on a whole board (walls as a 64-bit mask).
//!
//! This is the only code shared by the naive oracle and the fast engines.

use crate::games::wall::board::Shape;
use std::fmt;
use std::str::FromStr;

/// Which variant of the game is played. `Standard` is BOJ 11717; the others are
/// controls for the verifier (see the README).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// BOJ 11717: rays run to the first wall or the edge; X cells on the way become wall.
    Standard,
    /// Rays also stop before X cells, which stay X (breaks the rectangle decomposition).
    XBlocks,
    /// Standard moves, but the player who cannot move wins.
    Misere,
    /// Rays run only left, right and down (an upside-down T): a wall-bounded rectangle splits
    /// into the band above and two rectangles below, so a three-piece rectangle DP is exact.
    TSplit,
}

impl Rule {
    pub const ALL: [Rule; 4] = [Rule::Standard, Rule::XBlocks, Rule::Misere, Rule::TSplit];

    /// The name used on the command line and in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Standard => "standard",
            Rule::XBlocks => "x-blocks",
            Rule::Misere => "misere",
            Rule::TSplit => "t-split",
        }
    }

    /// True when the player left without a move wins (misère play).
    pub fn stuck_player_wins(self) -> bool {
        self == Rule::Misere
    }

    /// True when a ray stops before an X cell instead of walling it.
    fn x_stops_rays(self) -> bool {
        self == Rule::XBlocks
    }

    /// True when the walls a move adds do not depend on where the X cells are, so whole-board
    /// states of every X-pattern can share one table of wall masks.
    pub fn rays_ignore_x(self) -> bool {
        !self.x_stops_rays()
    }

    /// True when the rays' directions are the same transposed, so that a board and its
    /// transpose (rows for columns) have the same value: false for t-split's upside-down T.
    pub fn transpose_symmetric(self) -> bool {
        let directions = self.ray_directions();
        directions.iter().all(|&(r, c)| directions.contains(&(c, r)))
    }

    /// The directions (row step, column step) in which a move's rays run.
    fn ray_directions(self) -> &'static [(isize, isize)] {
        match self {
            Rule::TSplit => &[(1, 0), (0, -1), (0, 1)],
            Rule::Standard | Rule::XBlocks | Rule::Misere => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Rule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| {
            let names: Vec<_> = Rule::ALL.iter().map(|r| r.name()).collect();
            format!("unknown rule {s:?} (expected one of: {})", names.join(", "))
        })
    }
}

/// Cells a player may choose: neither wall nor X.
pub fn legal_cells(shape: Shape, x_mask: u64, walls: u64) -> u64 {
    shape.full_mask() & !walls & !x_mask
}

/// The wall mask after choosing `cell` (which must be legal): the cell and, in each of the
/// rule's directions (all four; for t-split left, right and down), every cell up to the
/// first wall or the edge become wall.
pub fn apply_move(shape: Shape, rule: Rule, x_mask: u64, walls: u64, cell: usize) -> u64 {
    debug_assert!(legal_cells(shape, x_mask, walls) >> cell & 1 == 1, "illegal move {cell}");
    let (rows, cols) = (shape.rows as isize, shape.cols as isize);
    let (r0, c0) = ((cell / shape.cols) as isize, (cell % shape.cols) as isize);
    let stops = if rule.x_stops_rays() { walls | x_mask } else { walls };
    let mut next = walls | 1u64 << cell;
    for &(dr, dc) in rule.ray_directions() {
        let (mut r, mut c) = (r0 + dr, c0 + dc);
        while (0..rows).contains(&r) && (0..cols).contains(&c) {
            let bit = 1u64 << (r * cols + c);
            if stops & bit != 0 {
                break;
            }
            next |= bit;
            r += dr;
            c += dc;
        }
    }
    next
}

/// Iterates over the set bits of a mask, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_stops_at_walls_and_walls_x() {
        // 3x3, X at the centre; choose top-middle: column ray walls the X and the bottom.
        let s = Shape::new(3, 3);
        let x = 1 << 4;
        let w = apply_move(s, Rule::Standard, x, 0, 1);
        assert_eq!(w, 0b010_010_111);
        // Then choose bottom-left: its row ray stops at the wall at (2,1).
        let w2 = apply_move(s, Rule::Standard, x, w, 6);
        assert_eq!(w2, w | 1 << 6 | 1 << 3);
    }

    #[test]
    fn x_blocks_stops_before_x() {
        let s = Shape::new(3, 3);
        let x = 1 << 4;
        let w = apply_move(s, Rule::XBlocks, x, 0, 1);
        assert_eq!(w, 0b000_000_111);
        assert_eq!(legal_cells(s, x, w), 0b111_101_000);
    }

    #[test]
    fn t_split_walls_row_and_downward_ray_only() {
        // 3x3, X at the centre; choose the centre-left cell: its row (X included) and the
        // cell below it become wall, nothing above.
        let s = Shape::new(3, 3);
        let x = 1 << 4;
        let w = apply_move(s, Rule::TSplit, x, 0, 3);
        assert_eq!(w, 0b001_111_000);
        assert_eq!(legal_cells(s, x, w), 0b110_000_111);
    }

    #[test]
    fn only_t_split_is_not_transpose_symmetric() {
        let symmetric: Vec<Rule> = Rule::ALL.into_iter().filter(|r| r.transpose_symmetric()).collect();
        assert_eq!(symmetric, [Rule::Standard, Rule::XBlocks, Rule::Misere]);
    }

    #[test]
    fn rule_names_round_trip() {
        for r in Rule::ALL {
            assert_eq!(r.name().parse::<Rule>().unwrap(), r);
        }
        assert!("nope".parse::<Rule>().unwrap_err().contains("standard"));
    }
}
