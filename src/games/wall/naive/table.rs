//! Naive oracle for every X-pattern of one shape at once: a dense table of whole-board states.
//!
//! A state is (wall mask, X cells that are still free). For rules whose rays ignore X, the
//! walls a move adds depend only on the wall mask, so the reachable wall masks are few
//! (5×6: 32,192) and a state is stored at `offset(walls) + pext(X, free cells)`. Every state
//! except the starting one (no walls) is filled once, most walls first, from its whole-board
//! children via [`crate::games::wall::board::rules::apply_move`] — no rectangles, no XOR. The starting states are
//! the X-patterns themselves and are evaluated on demand with [`StateTable::root_verdict`].

use crate::games::wall::board::Shape;
use crate::games::wall::naive::NaiveVerdict;
use crate::games::wall::board::rules::{apply_move, bits, Rule};
use crate::bits::Extract;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// A move from one wall mask: where the child's states start, and which of the parent's free
/// cells stay free in the child. Move k chooses the parent's k-th free cell (bit k of a state).
#[derive(Debug, Clone, Copy)]
struct Move {
    child_offset: usize,
    keep: u64,
}

/// A reachable non-empty wall mask and its block of states.
#[derive(Debug, Clone)]
struct WallBlock {
    walls: u64,
    offset: usize,
    moves: Vec<Move>,
}

/// One byte per state: the Grundy value (mex of the children's) in bits 0–6, and in bit 7
/// whether the player to move wins by minimax.
const WINS: u8 = 0x80;

/// Whole-board state values of one shape under one rule, for all X-patterns.
pub struct StateTable {
    stuck_player_wins: bool,
    blocks: Vec<WallBlock>,
    root_moves: Vec<Move>,
    values: Vec<u8>,
}

/// Reachable wall masks other than the empty one, most walls first (ties by mask).
fn reachable_walls(shape: Shape, rule: Rule) -> Vec<u64> {
    let full = shape.full_mask();
    let mut seen: FxHashMap<u64, ()> = FxHashMap::default();
    let mut stack = vec![0u64];
    while let Some(walls) = stack.pop() {
        for cell in bits(full & !walls) {
            let child = apply_move(shape, rule, 0, walls, cell);
            if seen.insert(child, ()).is_none() {
                stack.push(child);
            }
        }
    }
    let mut masks: Vec<u64> = seen.into_keys().collect();
    masks.sort_unstable_by_key(|&m| (std::cmp::Reverse(m.count_ones()), m));
    masks
}

/// Number of stored states (all reachable wall masks but the empty one) and wall masks.
pub fn state_count(shape: Shape, rule: Rule) -> (u64, usize) {
    let masks = reachable_walls(shape, rule);
    let states = masks.iter().map(|m| 1u64 << (shape.cells() - m.count_ones() as usize)).sum();
    (states, masks.len())
}

impl StateTable {
    /// Builds the table; `rule` must have rays that ignore X. At most 64 cells.
    pub fn build<E: Extract>(shape: Shape, rule: Rule) -> Self {
        assert!(rule.rays_ignore_x() && shape.cells() < 64, "no state table for {shape} under {rule}");
        let full = shape.full_mask();
        let masks = reachable_walls(shape, rule);
        let mut offsets = FxHashMap::default();
        let mut total = 0usize;
        for &walls in &masks {
            offsets.insert(walls, total);
            total += 1 << (full & !walls).count_ones();
        }
        let moves_from = |walls: u64, index_space: u64| -> Vec<Move> {
            bits(full & !walls)
                .map(|cell| {
                    let child = apply_move(shape, rule, 0, walls, cell);
                    Move {
                        child_offset: offsets[&child],
                        keep: E::extract(full & !child, index_space),
                    }
                })
                .collect()
        };
        let blocks: Vec<WallBlock> = masks
            .iter()
            .map(|&walls| WallBlock { walls, offset: offsets[&walls], moves: moves_from(walls, full & !walls) })
            .collect();
        let root_moves = moves_from(0, full);
        let mut table = StateTable { stuck_player_wins: rule.stuck_player_wins(), blocks, root_moves, values: vec![0; total] };
        table.fill::<E>();
        table
    }

    /// Fills all blocks, one level (wall count) at a time; a level only reads earlier levels.
    fn fill<E: Extract>(&mut self) {
        let mut start = 0;
        while start < self.blocks.len() {
            let level = self.blocks[start].walls.count_ones();
            let end = start + self.blocks[start..].iter().take_while(|b| b.walls.count_ones() == level).count();
            let level_offset = self.blocks[start].offset;
            let (done, rest) = self.values.split_at_mut(level_offset);
            let mut slices = Vec::with_capacity(end - start);
            let mut rest = rest;
            for block in &self.blocks[start..end] {
                let len = 1usize << block.moves.len(); // one move per free cell
                let (slice, tail) = std::mem::take(&mut rest).split_at_mut(len);
                slices.push((block, slice));
                rest = tail;
            }
            let stuck = self.stuck_player_wins;
            slices.into_par_iter().for_each(|(block, slice)| {
                for (y, entry) in slice.iter_mut().enumerate() {
                    *entry = value_of::<E>(&block.moves, done, y as u64, stuck);
                }
            });
            start = end;
        }
    }

    /// Bytes the table of `shape` under `rule` takes (states plus move lists).
    pub fn bytes(shape: Shape, rule: Rule) -> u64 {
        let (states, masks) = state_count(shape, rule);
        states + masks as u64 * (shape.cells() as u64 * std::mem::size_of::<Move>() as u64 + 64)
    }

    /// The oracle's verdict on the board whose X cells are `x` (no walls yet).
    #[inline(always)]
    pub fn root_verdict<E: Extract>(&self, x: u64) -> NaiveVerdict {
        let v = value_of::<E>(&self.root_moves, &self.values, x, self.stuck_player_wins);
        NaiveVerdict { grundy: (v & !WINS) as u32, first_player_wins: v & WINS != 0 }
    }
}

/// A state's byte: mex of the children's Grundy values, and whether some child loses.
#[inline(always)]
fn value_of<E: Extract>(moves: &[Move], values: &[u8], y: u64, stuck_player_wins: bool) -> u8 {
    // Values stay below 64: a Grundy value needs as many moves, and boards have < 64 cells.
    let mut seen = 0u64;
    let mut wins = false;
    let mut legal = !y & ((1u64 << moves.len()) - 1);
    let wins = if legal == 0 { stuck_player_wins } else {
        while legal != 0 {
            let m = &moves[legal.trailing_zeros() as usize];
            legal &= legal - 1;
            let child = values[m.child_offset + E::extract(y, m.keep) as usize];
            seen |= 1 << (child & !WINS);
            wins |= child & WINS == 0;
        }
        wins
    };
    (!seen).trailing_zeros() as u8 | if wins { WINS } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Portable;
    use crate::games::wall::{naive, board::Board};

    #[test]
    fn matches_per_board_oracle() {
        for rule in [Rule::Standard, Rule::Misere, Rule::TSplit] {
            for (h, w) in [(1, 1), (1, 4), (2, 3), (3, 3), (3, 4)] {
                let shape = Shape::new(h, w);
                let table = StateTable::build::<Portable>(shape, rule);
                for x in 0..1u64 << shape.cells() {
                    let board = Board::from_mask(shape, x);
                    assert_eq!(table.root_verdict::<Portable>(x), naive::solve(&board, rule).unwrap(), "{rule} {board}");
                }
            }
        }
    }

    #[test]
    fn published_state_counts() {
        // Counts measured for the verify issue: 5×5 has 6,991 reachable wall masks, 37.1 M states.
        let (states, masks) = state_count(Shape::new(5, 5), Rule::Standard);
        assert_eq!(masks + 1, 6_991);
        assert_eq!((states + (1 << 25)) / 100_000, 371);
    }
}
