//! What `sprague serve` shows of kings' bridge: the bridges with both kings, every slide of the
//! king to move, and the winner the claim gives (Nim on the free cells between the kings).

use super::claim::winner;
use super::{read_game, Game, Side, MAX_BRIDGES, MAX_LENGTH};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, check_moves, check_text, move_info, Eval, SOURCE};
use crate::input::Scanner;
use serde_json::json;

pub fn explorer() -> Box<dyn Explore> {
    Box::new(KingsExplorer)
}

/// Longest bridge drawn cell by cell in the text picture.
const DRAWN: u64 = 60;

struct KingsExplorer;

/// A position: the bridges, who moves, and each king's cell (1-based; White below Black).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bridges {
    game: Game,
    white: Vec<u64>,
    black: Vec<u64>,
}

impl Bridges {
    /// The contest input, then optionally White's cells and Black's cells (a line each).
    fn parse(text: &str) -> Result<Bridges> {
        let mut s = Scanner::new(SOURCE, text);
        let game = read_game(&mut s)?;
        let (mut white, mut black): (Vec<u64>, Vec<u64>) = (vec![1; game.lengths.len()], game.lengths.clone());
        if !s.at_end() {
            for (i, &a) in game.lengths.iter().enumerate() {
                white[i] = s.number(&format!("White's cell on bridge {}", i + 1), 1, a - 1)?;
            }
            for (i, &a) in game.lengths.iter().enumerate() {
                black[i] = s.number(&format!("Black's cell on bridge {} (past White's, {})", i + 1, white[i]), white[i] + 1, a)?;
            }
        }
        s.expect_end()?;
        Ok(Bridges { game, white, black })
    }

    fn text(&self) -> String {
        let line = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let mut text = format!("{}\n{}\n{}\n", self.game.lengths.len(), line(&self.game.lengths), self.game.first.name());
        if self.white.iter().any(|&w| w != 1) || self.black != self.game.lengths {
            text += &format!("{}\n{}\n", line(&self.white), line(&self.black));
        }
        text
    }

    /// The claim on the segment between the kings of each bridge: Nim on the free cells.
    fn eval(&self) -> Eval {
        let between = self.white.iter().zip(&self.black).map(|(w, b)| b - w + 1).collect();
        Eval::outcome(winner(&Game { lengths: between, first: self.game.first }) == self.game.first)
    }

    /// The cells the king to move may reach on bridge `i`.
    fn reach(&self, i: usize) -> std::ops::RangeInclusive<u64> {
        match self.game.first {
            Side::White => 1..=self.black[i] - 1,
            Side::Black => self.white[i] + 1..=self.game.lengths[i],
        }
    }

    fn picture(&self, i: usize) -> String {
        let (a, w, b) = (self.game.lengths[i], self.white[i], self.black[i]);
        if a > DRAWN {
            return format!("bridge {}: {a} cells, W on {w}, B on {b}", i + 1);
        }
        let cells: Vec<&str> = (1..=a).map(|c| if c == w { "W" } else if c == b { "B" } else { "." }).collect();
        format!("bridge {}: {}", i + 1, cells.join(" "))
    }
}

impl Explore for KingsExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "kings",
            title: "Kings' bridge".to_string(),
            view: View::Text,
            format: format!(
                "The contest input: N (1 to {MAX_BRIDGES}), N bridge lengths (2 to {MAX_LENGTH}), the player to move (Whiteking or Blackking); then optionally a line with White's cell on each bridge and a line with Black's (1-based; by default the two ends). The drawing adds `bridges` (length, white, black)."
            ),
            example: "2\n4 5\nWhiteking\n".to_string(),
            grundy: false,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let here = Bridges::parse(position)?;
        let count = (0..here.white.len()).map(|i| here.reach(i).count() as u64 - 1).sum();
        check_moves("kings", count)?;
        check_text("kings", count, here.text().len() + 2 * here.white.len() * MAX_LENGTH.to_string().len())?;
        let mover = here.game.first;
        let mut moves = Vec::new();
        // Stopped once its client has left (`analyse_unless` then discards what it listed).
        'bridges: for i in 0..here.white.len() {
            let from = if mover == Side::White { here.white[i] } else { here.black[i] };
            for to in here.reach(i).filter(|&c| c != from) {
                if crate::impartial::stopped() {
                    break 'bridges;
                }
                let mut next = here.clone();
                next.game.first = mover.other();
                *if mover == Side::White { &mut next.white[i] } else { &mut next.black[i] } = to;
                let name = format!("bridge {}: {} {from} → {to}", i + 1, mover.name());
                let detail = json!({"bridge": i + 1, "from": from, "to": to, "gap": next.black[i] - next.white[i] - 1});
                moves.push(move_info(name, next.text(), next.eval(), detail));
            }
        }
        let pictures: Vec<String> = (0..here.white.len()).map(|i| here.picture(i)).collect();
        let bridges: Vec<_> = (0..here.white.len()).map(|i| json!({"length": here.game.lengths[i], "white": here.white[i], "black": here.black[i]})).collect();
        let drawing = json!({"text": format!("{} to move\n{}", mover.name(), pictures.join("\n")), "bridges": bridges});
        Ok(analysis(here.text(), here.eval(), drawing, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;
    use crate::games::kings::retro;

    /// The listing of the moves stops once the client has left.
    #[test]
    fn a_client_that_left_cancels_the_listing() {
        crate::game::explore::assert_cancellable(&*explorer(), "2\n4 5\nWhiteking\n");
    }

    #[test]
    fn moves_slide_the_king_to_move() {
        let analysis = explorer().analyse("1\n4\nWhiteking\n").unwrap();
        let names: Vec<&str> = analysis.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["bridge 1: Whiteking 1 → 2", "bridge 1: Whiteking 1 → 3"]);
        assert_eq!(analysis.moves[0].position, "1\n4\nBlackking\n2\n4\n");
        assert!(analysis.moves[1].winning, "no free cell left between the kings");
        assert_eq!(explorer().analyse(&analysis.moves[1].position).unwrap().winner, Winner::Second);
    }

    #[test]
    fn every_position_of_small_bridges_agrees_with_the_retrograde_analysis() {
        let lengths = [3u64, 4, 5];
        let truth = retro::Analysis::new(&lengths).unwrap();
        let pairs = |a: u64| (1..a).flat_map(move |w| (w + 1..=a).map(move |b| (w, b)));
        for (w0, b0) in pairs(3) {
            for (w1, b1) in pairs(4) {
                for (w2, b2) in pairs(5) {
                    for first in [Side::White, Side::Black] {
                        let here = Bridges { game: Game { lengths: lengths.to_vec(), first }, white: vec![w0, w1, w2], black: vec![b0, b1, b2] };
                        let cells: Vec<(u8, u8)> = here.white.iter().zip(&here.black).map(|(&w, &b)| (w as u8 - 1, b as u8 - 1)).collect();
                        let want = truth.at(&cells, first) == retro::Value::Win;
                        assert_eq!(explorer().analyse(&here.text()).unwrap().winner == Winner::First, want, "{here:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn start_positions_agree_with_the_retrograde_analysis() {
        for lengths in [vec![3, 3], vec![4, 5], vec![2, 6], vec![3, 4, 5]] {
            let game = Game { lengths: lengths.clone(), first: Side::Black };
            let analysis = explorer().analyse(&Bridges { white: vec![1; lengths.len()], black: lengths, game: game.clone() }.text()).unwrap();
            let truth = retro::start_value(&game).unwrap();
            assert_eq!(analysis.winner == Winner::First, truth == retro::Value::Win, "{game:?}");
        }
    }
}
