//! Kings' bridge with move answers (`stress kings --answer move`): the program prints a winning
//! move as `i c` — the king to move slides on bridge i (1-based) to cell c (1-based, counted
//! from White's end) — or the other side's name (`Whiteking` or `Blackking`, the winner) when
//! the side to move loses. From the start a king can only advance; a move wins when Nim on
//! the free cells between the kings (the claim `verify kings` checks) is left at 0.

use super::contest::KingsContest;
use super::{Game, Side};
use crate::stress::moves::{numbers, Moves};
use std::fmt;

/// A slide: the king to move goes to cell `cell` of bridge `bridge` (both 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    pub bridge: usize,
    pub cell: u64,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.bridge, self.cell)
    }
}

/// The cell where the side to move leaves `free` free cells on a bridge of `length` (White
/// starts on cell 1, Black on cell `length`).
fn cell_leaving(side: Side, length: u64, free: u64) -> u64 {
    match side {
        Side::White => length - 1 - free,
        Side::Black => free + 2,
    }
}

impl Moves for KingsContest {
    type Move = Slide;

    fn lost_word(&self, game: &Game) -> &'static str {
        game.first.other().name()
    }

    /// For every bridge whose free cells exceed what the others' XOR needs, the slide down to it.
    fn winning_moves(&self, game: &Game) -> Vec<Slide> {
        let xor = game.lengths.iter().fold(0, |x, &a| x ^ (a - 2));
        let fits = game.lengths.iter().enumerate().filter(|&(_, &a)| xor ^ (a - 2) < a - 2);
        fits.map(|(i, &a)| Slide { bridge: i + 1, cell: cell_leaving(game.first, a, xor ^ (a - 2)) }).collect()
    }

    fn parse_move(&self, _game: &Game, text: &str) -> Result<Slide, String> {
        let read = numbers(text, 2, "i c")?;
        Ok(Slide { bridge: read[0] as usize, cell: read[1] })
    }

    fn illegal(&self, game: &Game, mv: &Slide) -> Option<String> {
        let Some(&a) = game.lengths.get(mv.bridge - 1) else {
            return Some(format!("there is no bridge {} (of {})", mv.bridge, game.lengths.len()));
        };
        let (king, other) = match game.first {
            Side::White => (1, a),
            Side::Black => (a, 1),
        };
        let why = match mv.cell {
            c if c > a => format!("bridge {} has {a} cells, not {c}", mv.bridge),
            c if c == king => format!("the {} is on cell {c} already", game.first.name()),
            c if c == other || (c > other) == (king < other) => format!("the {} may not reach or pass the other king (on cell {other})", game.first.name()),
            _ => return None,
        };
        Some(why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kings::retro::{Analysis, Value};
    use crate::stress::moves::{ByMove, MoveAnswer};
    use crate::stress::{Contest, Generator, Source};

    #[test]
    fn any_winning_move_is_right_and_losing_or_illegal_ones_are_not() {
        let game = ByMove(KingsContest { exhaustive_max: 6 });
        // Free cells 3 and 1: White wins by sliding on bridge 1 from cell 1 to 3 (1 free cell left).
        let case = Game { lengths: vec![5, 3], first: Side::White };
        let expected = game.answer(&case);
        assert_eq!(expected, MoveAnswer::Moves(vec![Slide { bridge: 1, cell: 3 }]));
        let judge = |out: &str| game.judge(&case, out);
        assert!(judge("1 3").unwrap().0);
        assert_eq!(judge("1 2").unwrap().1, "the move leaves the opponent a win");
        assert_eq!(judge("1 5").unwrap().1, "illegal move: the Whiteking may not reach or pass the other king (on cell 5)");
        assert_eq!(judge("1 1").unwrap().1, "illegal move: the Whiteking is on cell 1 already");
        assert_eq!(judge("2 4").unwrap().1, "illegal move: bridge 2 has 3 cells, not 4");
        assert_eq!(judge("Blackking").unwrap().1, "the position is won (1 winning move)");
        let black = Game { lengths: vec![5, 3], first: Side::Black };
        assert_eq!(game.answer(&black), MoveAnswer::Moves(vec![Slide { bridge: 1, cell: 3 }]), "Black slides from 5 to 3");
        let lost = Game { lengths: vec![4, 4], first: Side::Black };
        assert_eq!(game.answer(&lost), MoveAnswer::Lost("Whiteking"));
    }

    /// On every small start position, the winning moves are exactly the advances after which
    /// the retrograde analysis of the real (loopy) game finds the opponent lost.
    #[test]
    fn winning_moves_are_those_of_the_retrograde_analysis() {
        let side = KingsContest { exhaustive_max: 9 };
        for game in side.cases(Source::Exhaustive, 1).take_while(|g| g.lengths.iter().sum::<u64>() <= 9) {
            let analysis = Analysis::new(&game.lengths).unwrap();
            let start: Vec<(u8, u8)> = game.lengths.iter().map(|&a| (0, a as u8 - 1)).collect();
            let mut expected = Vec::new();
            for (i, &a) in game.lengths.iter().enumerate() {
                for cell in 1..=a {
                    let mv = Slide { bridge: i + 1, cell };
                    let legal = cell > 1 && cell < a;
                    assert_eq!(side.illegal(&game, &mv).is_none(), legal, "{game:?} {mv}");
                    let mut cells = start.clone();
                    match game.first {
                        Side::White if legal => cells[i].0 = cell as u8 - 1,
                        Side::Black if legal => cells[i].1 = cell as u8 - 1,
                        _ => continue,
                    }
                    if analysis.at(&cells, game.first.other()) == Value::Loss {
                        expected.push(mv);
                    }
                }
            }
            assert_eq!(side.winning_moves(&game), expected, "{game:?}");
        }
    }
}
