//! The reference: plain full-tree DFS on a mutable board, no memo.

use super::{Geometry, Outcome, Position};

/// The outcome of `pos` by exploring the whole game tree.
pub fn solve(pos: &Position) -> Outcome {
    let geometry = Geometry::new(pos.rows as usize, pos.cols as usize);
    let mut board = pos.board;
    let (wins, moves) = dfs(&geometry, &mut board, pos.a, pos.b);
    Outcome { first_wins: wins, moves }
}

/// (mover wins, total moves from here) for the mover on `cur`.
fn dfs(geometry: &Geometry, board: &mut u32, cur: u8, other: u8) -> (bool, u32) {
    if *board >> cur & 1 == 0 {
        return (false, 0);
    }
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss: Option<u32> = None;
    for next in geometry.steps(*board, cur) {
        *board &= !(1 << cur);
        let (other_wins, rest) = dfs(geometry, board, other, next);
        *board |= 1 << cur;
        if other_wins {
            slowest_loss = Some(slowest_loss.map_or(rest + 1, |m| m.max(rest + 1)));
        } else {
            fastest_win = Some(fastest_win.map_or(rest + 1, |m| m.min(rest + 1)));
        }
    }
    match (fastest_win, slowest_loss) {
        (Some(t), _) => (true, t),
        (None, Some(t)) => (false, t),
        (None, None) => (false, 0),
    }
}
