//! What `sprague serve` shows of the card game: one row of cards, taking the left or the right
//! end, each move with the totals both players then collect under best play.

use super::claim::first_total;
use super::contest::CardsContest;
use super::{parse_rows, MAX_CARDS, MAX_VALUE};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, Eval, SOURCE};
use crate::game::explore::MoveInfo;
use crate::stress::Contest;
use serde_json::json;

pub fn explorer() -> Box<dyn Explore> {
    Box::new(CardsExplorer)
}

struct CardsExplorer;

/// The row as a contest input of one case.
fn text(row: &[u32]) -> String {
    let mut out = Vec::new();
    CardsContest { exhaustive_max: 0 }.write_input(&vec![row.iter().map(|&c| u64::from(c)).collect()], &mut out);
    String::from_utf8(out).expect("the input is ASCII")
}

/// The totals of the player to move and of the other under best play from `row`.
fn totals(row: &[u32]) -> (u64, u64) {
    let best = first_total(row);
    (best, row.iter().map(|&c| u64::from(c)).sum::<u64>() - best)
}

/// The player to move wins when their best total is larger (a tie counts for the other).
fn eval(row: &[u32]) -> Eval {
    let (mine, theirs) = totals(row);
    Eval::outcome(mine > theirs)
}

impl Explore for CardsExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "cards",
            title: "Card game (take the left or the right card, BOJ 11062)".to_string(),
            view: View::Text,
            format: format!(
                "The contest input with one case: T = 1, then N (0 to {MAX_CARDS}; 0 once every card is taken) and N cards (1 to {MAX_VALUE}). The player to move wins when they collect more than the other from here on (a tie counts as a loss); a move is winning when it keeps the best total. The drawing adds `cards` and `totals` (both players' totals from here under best play)."
            ),
            example: "1\n4\n1 2 5 2\n".to_string(),
            grundy: false,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let rows = parse_rows(SOURCE, position, 0)?;
        let [row] = &rows[..] else {
            return Err(crate::error::Error::Input {
                source_name: SOURCE.into(),
                line: 1,
                col: 1,
                message: format!("the explorer takes one case: T must be 1, found {}", rows.len()),
            });
        };
        let (best, _) = totals(row);
        let ends: &[(&str, usize)] = match row.len() {
            0 => &[],
            1 => &[("left", 0)],
            n => &[("left", 0), ("right", n - 1)],
        };
        let moves = ends
            .iter()
            .map(|&(end, i)| {
                let rest: Vec<u32> = if i == 0 { row[1..].to_vec() } else { row[..i].to_vec() };
                let (theirs, later) = totals(&rest);
                let mine = u64::from(row[i]) + later;
                let detail = json!({"card": row[i], "end": end, "totals": [mine, theirs]});
                let after = eval(&rest);
                MoveInfo { name: format!("take the {end} card ({})", row[i]), position: text(&rest), value: after.value, winning: mine == best, detail }
            })
            .collect();
        let (mine, theirs) = totals(row);
        let shown: Vec<String> = row.iter().map(u32::to_string).collect();
        let drawing = json!({"text": shown.join(" "), "cards": row, "totals": [mine, theirs]});
        Ok(analysis(text(row), eval(row), drawing, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    #[test]
    fn best_moves_keep_the_best_total() {
        // BOJ 11062's sample: 1 2 5 2, the first player collects 6 (the 1, then the 5 the
        // opponent has to leave); taking the right 2 first gives only 4.
        let analysis = explorer().analyse("1\n4\n1 2 5 2\n").unwrap();
        assert_eq!(analysis.drawing["totals"], json!([6, 4]));
        assert_eq!(analysis.winner, Winner::First);
        let winning: Vec<(&str, bool)> = analysis.moves.iter().map(|m| (m.name.as_str(), m.winning)).collect();
        assert_eq!(winning, [("take the left card (1)", true), ("take the right card (2)", false)]);
        assert_eq!(analysis.moves[1].position, "1\n3\n1 2 5\n");
        assert_eq!(analysis.moves[1].detail["totals"], json!([4, 6]));
        let err = explorer().analyse("2\n1\n5\n1\n4\n").unwrap_err().to_string();
        assert_eq!(err, "position:1:1: the explorer takes one case: T must be 1, found 2");
    }
}
