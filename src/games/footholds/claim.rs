//! The claimed solver: memoized negamax with a "win fast, lose slow" score.

use super::{Geometry, Outcome, Position};
use rustc_hash::FxHashMap;

/// Score of a lost position with no moves left; a win in t moves scores `SCALE − t`, a loss
/// in t moves `−(SCALE − t)`, so the larger score is always the better one for the mover.
pub const SCALE: i32 = 64;

/// How the loser plays: `LoseSlow` is the game's rule; `LoseFast` is a deliberately wrong
/// variant (the loser also hurries) used to show the verifier can fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    LoseSlow,
    LoseFast,
}

/// A memoized search over one shape; the memo is kept between positions of that shape.
pub struct Solver {
    geometry: Geometry,
    policy: Policy,
    memo: FxHashMap<u64, i8>,
}

impl Solver {
    pub fn new(rows: usize, cols: usize, policy: Policy) -> Solver {
        Solver { geometry: Geometry::new(rows, cols), policy, memo: FxHashMap::default() }
    }

    /// The outcome of `pos` (whose shape must be this solver's).
    pub fn solve(&mut self, pos: &Position) -> Outcome {
        let s = self.score(pos.board, pos.a, pos.b);
        Outcome { first_wins: s > 0, moves: (SCALE - s.abs()) as u32 }
    }

    /// Score for the mover standing on `cur`, the other piece on `other`.
    fn score(&mut self, board: u32, cur: u8, other: u8) -> i32 {
        if board >> cur & 1 == 0 {
            return -SCALE;
        }
        let key = u64::from(board) | u64::from(cur) << 25 | u64::from(other) << 30;
        if let Some(&s) = self.memo.get(&key) {
            return i32::from(s);
        }
        let left = board & !(1 << cur);
        let mut best: Option<i32> = None;
        for next in self.geometry.steps(board, cur) {
            let mine = -self.score(left, other, next);
            // One more move: a win or a loss is one move further away.
            let mine = mine - mine.signum();
            best = Some(match best {
                None => mine,
                Some(b) if b < 0 && mine < 0 && self.policy == Policy::LoseFast => b.min(mine),
                Some(b) => b.max(mine),
            });
        }
        let s = best.unwrap_or(-SCALE);
        self.memo.insert(key, s as i8);
        s
    }
}

/// The outcome of one position with a fresh memo.
pub fn solve(pos: &Position) -> Outcome {
    Solver::new(pos.rows as usize, pos.cols as usize, Policy::LoseSlow).solve(pos)
}
