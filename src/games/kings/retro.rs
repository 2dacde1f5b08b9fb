//! Retrograde analysis of the position graph of small bridges.

use super::{Game, Side};
use crate::error::{Error, Result};

/// Most positions (kings' cells on every bridge × side to move) the analysis accepts.
pub const MAX_STATES: usize = 20_000_000;

/// The value of a position for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

/// Every position of one set of bridges, solved.
pub struct Analysis {
    /// Per bridge: its length and the (white, black) cell pairs w < b (0-based) in index order.
    pairs: Vec<Vec<(u8, u8)>>,
    /// Indexed by configuration · 2 + side (0 White, 1 Black to move).
    values: Vec<Value>,
}

impl Analysis {
    /// Builds and solves the graph; a usage error when it has more than [`MAX_STATES`].
    pub fn new(lengths: &[u64]) -> Result<Analysis> {
        let too_big = || Error::Usage(format!("bridges {lengths:?} have more than {MAX_STATES} positions for the retrograde analysis"));
        let mut states = 2usize;
        for &a in lengths {
            let pairs = usize::try_from(a * (a - 1) / 2).map_err(|_| too_big())?;
            states = states.checked_mul(pairs).filter(|&n| n <= MAX_STATES).ok_or_else(too_big)?;
        }
        let pairs: Vec<Vec<(u8, u8)>> = lengths
            .iter()
            .map(|&a| (0..a as u8).flat_map(|w| (w + 1..a as u8).map(move |b| (w, b))).collect())
            .collect();
        let mut analysis = Analysis { pairs, values: vec![Value::Draw; states] };
        analysis.solve();
        Ok(analysis)
    }

    /// The value of the start position with `first` to move.
    pub fn start(&self, first: Side) -> Value {
        let config = self.pairs.iter().rev().fold(0usize, |c, p| {
            let last = p.iter().map(|&(_, b)| b).max().expect("bridge has cells");
            let start = p.iter().position(|&(w, b)| w == 0 && b == last).expect("start pair");
            c * p.len() + start
        });
        self.values[config * 2 + first as usize]
    }

    /// The value of the position with the kings on `cells` (0-based (white, black) per
    /// bridge) and `side` to move.
    pub fn at(&self, cells: &[(u8, u8)], side: Side) -> Value {
        let config = self.pairs.iter().zip(cells).rev().fold(0usize, |c, (p, cell)| {
            c * p.len() + p.iter().position(|pair| pair == cell).expect("white below black on the bridge")
        });
        self.values[config * 2 + side as usize]
    }

    /// Positions by value: (wins, losses, draws) for the side to move, over all positions.
    pub fn counts(&self) -> (u64, u64, u64) {
        let count = |v: Value| self.values.iter().filter(|&&x| x == v).count() as u64;
        (count(Value::Win), count(Value::Loss), count(Value::Draw))
    }

    /// Every configuration reached when `side` moves one king from `config`. The graph of
    /// one side's moves is symmetric (a step back is again a legal move), so this also lists
    /// the predecessors of `config` with the other side to move.
    fn moves(&self, config: usize, side: Side, out: &mut Vec<usize>) {
        out.clear();
        let (mut rest, mut stride) = (config, 1usize);
        for pairs in &self.pairs {
            let here = rest % pairs.len();
            rest /= pairs.len();
            let (w, b) = pairs[here];
            for (i, &(w2, b2)) in pairs.iter().enumerate() {
                let legal = match side {
                    Side::White => b2 == b && w2 != w,
                    Side::Black => w2 == w && b2 != b,
                };
                if legal {
                    out.push(config - here * stride + i * stride);
                }
            }
            stride *= pairs.len();
        }
    }

    /// Standard retrograde propagation: no move ⇒ loss; a move to a loss ⇒ win; all moves to
    /// wins ⇒ loss; whatever is never settled is a draw.
    fn solve(&mut self) {
        let states = self.values.len();
        let side_of = |s: usize| if s.is_multiple_of(2) { Side::White } else { Side::Black };
        let mut unresolved = vec![0u32; states];
        let mut settled = vec![false; states];
        let mut queue = Vec::new();
        let mut buf = Vec::new();
        for s in 0..states {
            self.moves(s / 2, side_of(s), &mut buf);
            unresolved[s] = buf.len() as u32;
            if buf.is_empty() {
                self.values[s] = Value::Loss;
                settled[s] = true;
                queue.push(s);
            }
        }
        while let Some(s) = queue.pop() {
            let mover = side_of(s).other();
            self.moves(s / 2, mover, &mut buf);
            for &config in &buf {
                let p = config * 2 + mover as usize;
                if settled[p] {
                    continue;
                }
                unresolved[p] -= 1;
                if self.values[s] == Value::Loss || unresolved[p] == 0 {
                    self.values[p] = if self.values[s] == Value::Loss { Value::Win } else { Value::Loss };
                    settled[p] = true;
                    queue.push(p);
                }
            }
        }
    }
}

/// The value of `game`'s start for its first player.
pub fn start_value(game: &Game) -> Result<Value> {
    Ok(Analysis::new(&game.lengths)?.start(game.first))
}
