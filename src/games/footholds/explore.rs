//! What `sprague serve` shows of disappearing footholds: the board with both pieces, every
//! step of the piece to move (A), and the outcome with the total number of moves under best play.

use super::claim::solve;
use super::contest::FootholdsContest;
use super::{Geometry, Position, MAX_SIDE};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, move_info, Eval, SOURCE};
use crate::stress::Contest;
use serde_json::json;

pub fn explorer() -> Box<dyn Explore> {
    Box::new(FootholdsExplorer)
}

struct FootholdsExplorer;

/// The position as contest input (A, the piece to move, first).
fn text(pos: &Position) -> String {
    let mut out = Vec::new();
    FootholdsContest { exhaustive_max: 0 }.write_input(pos, &mut out);
    String::from_utf8(out).expect("the input is ASCII")
}

/// The board for people: `#` a foothold, `.` none, `A` and `B` the pieces (`*` both on one cell: one character, so the rows stay aligned).
fn picture(pos: &Position) -> Vec<String> {
    let cols = pos.cols as usize;
    (0..pos.rows as usize)
        .map(|r| {
            let cell = |c: usize| {
                let i = r * cols + c;
                match (i == pos.a as usize, i == pos.b as usize) {
                    (true, true) => '*',
                    (true, false) => 'A',
                    (false, true) => 'B',
                    _ => if pos.board >> i & 1 == 1 { '#' } else { '.' },
                }
            };
            (0..cols).map(|c| cell(c).to_string()).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

/// The outcome for the player to move, and the total moves of best play, of `pos`.
fn eval(pos: &Position) -> (Eval, u32) {
    let outcome = solve(pos);
    (Eval::outcome(outcome.first_wins), outcome.moves)
}

impl Explore for FootholdsExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "footholds",
            title: "Disappearing footholds".to_string(),
            view: View::Text,
            format: format!(
                "The contest input: `R C` (1 to {MAX_SIDE}), R rows of C cells (1 a foothold, 0 none), then `ar ac br bc` (0-based): A is the piece to move. A may stand on a 0 (B just stepped off their shared cell: A has lost). The drawing adds `rows` (the board, # foothold, A and B the pieces, * both on one cell) and `total_moves` (both players' moves under best play)."
            ),
            example: "3 3\n1 1 1\n1 1 1\n1 1 1\n1 0 1 2\n".to_string(),
            grundy: false,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let pos = Position::parse_position(SOURCE, position, true)?;
        let cols = pos.cols as usize;
        let cell = |i: u8| [i as usize / cols, i as usize % cols];
        let geometry = Geometry::new(pos.rows as usize, cols);
        let steps: Vec<u8> = if pos.board >> pos.a & 1 == 1 { geometry.steps(pos.board, pos.a).collect() } else { Vec::new() };
        let moves = steps
            .into_iter()
            .map(|to| {
                let next = Position { board: pos.board & !(1 << pos.a), a: pos.b, b: to, ..pos };
                let (value, total) = eval(&next);
                let [r, c] = cell(to);
                move_info(format!("A to ({r}, {c})"), text(&next), value, json!({"from": cell(pos.a), "to": [r, c], "total_moves": total}))
            })
            .collect();
        let (value, total) = eval(&pos);
        let pictured = picture(&pos);
        let drawing = json!({"text": pictured.join("\n"), "rows": pictured, "total_moves": total});
        Ok(analysis(text(&pos), value, drawing, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    #[test]
    fn stepping_off_a_shared_cell_leaves_the_other_piece_on_nothing() {
        // 1×3, both pieces on the middle cell: A steps left or right and B has lost.
        let analysis = explorer().analyse("1 3\n1 1 1\n0 1 0 1\n").unwrap();
        assert_eq!(analysis.winner, Winner::First);
        assert_eq!(analysis.moves[0].position, "1 3\n1 0 1\n0 1 0 0\n");
        let after = explorer().analyse(&analysis.moves[0].position).unwrap();
        assert_eq!((after.winner, after.moves.len()), (Winner::Second, 0));
        assert!(Position::parse_input("t", &analysis.moves[0].position).is_err(), "the contest never starts there");
        assert_eq!(analysis.drawing["rows"], json!(["# * #"]));
    }

    /// A shared cell is one character, so the rows stay aligned.
    #[test]
    fn a_shared_cell_is_drawn_as_one_character() {
        let analysis = explorer().analyse("2 2\n1 1\n1 1\n0 0 0 0\n").unwrap();
        assert_eq!(analysis.drawing["rows"], json!(["* #", "# #"]));
    }
}
