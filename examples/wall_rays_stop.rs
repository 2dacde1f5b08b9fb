//! Test program for `sprague stress wall`: WRONG RULE READING — rays stop *before* an X cell
//! (and the X stays X) instead of walling it. Plays whole positions, memoized on the walls.
mod common;

use std::collections::HashMap;

type Walls = [u64; 7];

struct Game {
    h: usize,
    w: usize,
    x: Vec<bool>,
    memo: HashMap<Walls, bool>,
}

impl Game {
    fn wall(walls: &Walls, i: usize) -> bool {
        walls[i / 64] >> (i % 64) & 1 == 1
    }

    fn after(&self, walls: &Walls, r: usize, c: usize) -> Walls {
        let mut next = *walls;
        next[(r * self.w + c) / 64] |= 1 << ((r * self.w + c) % 64);
        for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            let (mut i, mut j) = (r as isize + dr, c as isize + dc);
            while i >= 0 && j >= 0 && (i as usize) < self.h && (j as usize) < self.w {
                let cell = i as usize * self.w + j as usize;
                if Game::wall(walls, cell) || self.x[cell] {
                    break;
                }
                next[cell / 64] |= 1 << (cell % 64);
                i += dr;
                j += dc;
            }
        }
        next
    }

    /// True when the player to move wins.
    fn wins(&mut self, walls: Walls) -> bool {
        if let Some(&known) = self.memo.get(&walls) {
            return known;
        }
        let cells = (0..self.h).flat_map(|r| (0..self.w).map(move |c| (r, c))).collect::<Vec<_>>();
        let win = cells.into_iter().any(|(r, c)| {
            let i = r * self.w + c;
            !self.x[i] && !Game::wall(&walls, i) && !self.wins(self.after(&walls, r, c))
        });
        self.memo.insert(walls, win);
        win
    }
}

fn main() {
    let board = common::read_board();
    let (h, w) = (board.len(), board[0].len());
    let x = board.concat();
    let mut game = Game { h, w, x, memo: HashMap::new() };
    common::print_winner(game.wins([0; 7]) as u32);
}
