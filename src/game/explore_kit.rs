//! What the games' explorers share: the limit on listed moves, one position's evaluation
//! (a Grundy value or only the winner), and the explorer of sums of heaps (Nim, Grundy's game,
//! take-and-break codes) where a move changes one heap into some parts.

use super::explore::{Analysis, MoveInfo, Winner};
use crate::error::{Error, Result};
use serde_json::{json, Value};

/// Most moves one analysis lists (each with its resulting position and value); a position with
/// more is refused.
pub const MAX_MOVES: u64 = 10_000;

/// The name errors in a position's text are reported under.
pub const SOURCE: &str = "position";

/// Refuses a position with more than [`MAX_MOVES`] moves (`count` of them).
pub fn check_moves(game: &str, count: u64) -> Result<()> {
    if count > MAX_MOVES {
        return Err(Error::Usage(format!(
            "{game}: this position has {count} legal moves; the explorer lists at most {MAX_MOVES} (each with the value it leads to)"
        )));
    }
    Ok(())
}

/// Most text the moves' positions may take in all (each repeats most of the position).
pub const MAX_TEXT: u64 = 16 << 20;

/// Refuses `moves` positions of about `each` bytes of text when they pass [`MAX_TEXT`].
pub fn check_text(game: &str, moves: u64, each: usize) -> Result<()> {
    let total = moves.saturating_mul(each as u64);
    if total > MAX_TEXT {
        return Err(Error::Usage(format!(
            "{game}: the {moves} moves' positions would take {} MiB of text (each repeats the position); the explorer sends at most {} MiB",
            total >> 20,
            MAX_TEXT >> 20
        )));
    }
    Ok(())
}

/// A position's value: its Grundy value, or only who wins (minimax and misère games).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval {
    pub value: Option<u64>,
    pub winner: Winner,
}

impl Eval {
    /// A Grundy value (normal play: the player to move wins iff it is not 0).
    pub fn grundy(value: u64) -> Eval {
        Eval { value: Some(value), winner: Winner::of_value(value) }
    }

    /// Only the outcome: whether the player to move wins.
    pub fn outcome(first_wins: bool) -> Eval {
        Eval { value: None, winner: if first_wins { Winner::First } else { Winner::Second } }
    }
}

/// A move to a position of value `eval`: winning when it leaves the opponent a lost position.
pub fn move_info(name: String, position: String, eval: Eval, detail: Value) -> MoveInfo {
    MoveInfo { name, position, value: eval.value, winning: eval.winner == Winner::Second, detail }
}

/// The analysis of a position of value `eval`.
pub fn analysis(position: String, eval: Eval, drawing: Value, moves: Vec<MoveInfo>) -> Analysis {
    Analysis { position, value: eval.value, winner: eval.winner, drawing, moves }
}

/// One move on one heap: its name (`take 3`, `split into 3+4`) and the heaps it leaves there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapMove {
    pub name: String,
    /// The heaps that replace the one moved on (none: it is gone).
    pub parts: Vec<u64>,
}

/// A game on a row of heaps where a move replaces one heap by parts.
pub trait HeapRules {
    /// The game's name, for errors.
    fn game(&self) -> &str;
    /// How many moves a heap of `n` has (asked before they are listed).
    fn count(&self, n: u64) -> u64;
    /// The moves on a heap of `n`.
    fn moves(&self, n: u64) -> Vec<HeapMove>;
    /// The value of a whole row of heaps.
    fn eval(&self, heaps: &[u64]) -> Eval;
    /// The row as position text (what the game's parser reads).
    fn text(&self, heaps: &[u64]) -> String;
    /// Most heaps the position text holds (a move making more is refused).
    fn max_heaps(&self) -> usize {
        usize::MAX
    }
    /// Fields drawn besides `heaps` (e.g. the code).
    fn extra(&self) -> Value {
        json!({})
    }
}

/// The analysis of `heaps` under `rules`: every move on every heap, heap order kept, a heap of
/// 0 dropped. Refused past [`MAX_MOVES`] moves; the listing stops once
/// [`crate::impartial::stopped`] (its client left: what it returns is then discarded).
pub fn analyse_heaps(rules: &dyn HeapRules, heaps: &[u64]) -> Result<Analysis> {
    let count = heaps.iter().map(|&n| rules.count(n)).sum();
    check_moves(rules.game(), count)?;
    let text = rules.text(heaps);
    check_text(rules.game(), count, text.len())?;
    let mut moves = Vec::new();
    'heaps: for (i, &n) in heaps.iter().enumerate() {
        for HeapMove { name, parts } in rules.moves(n) {
            if crate::impartial::stopped() {
                break 'heaps;
            }
            let kept: Vec<u64> = parts.iter().copied().filter(|&p| p > 0).collect();
            if heaps.len() - 1 + kept.len() > rules.max_heaps() {
                return Err(Error::Usage(format!(
                    "{}: heap {}: {name} would leave {} heaps; the position text holds at most {}",
                    rules.game(),
                    i + 1,
                    heaps.len() - 1 + kept.len(),
                    rules.max_heaps()
                )));
            }
            let after: Vec<u64> = heaps[..i].iter().chain(&kept).chain(&heaps[i + 1..]).copied().collect();
            let detail = json!({"heap": i + 1, "from": n, "to": kept});
            moves.push(move_info(format!("heap {}: {name}", i + 1), rules.text(&after), rules.eval(&after), detail));
        }
    }
    let mut drawing = rules.extra();
    drawing["heaps"] = json!(heaps);
    Ok(analysis(text, rules.eval(heaps), drawing, moves))
}

/// The XOR of one-heap values `g` (the Sprague–Grundy sum).
pub fn xor_of(heaps: &[u64], g: impl Fn(u64) -> u64) -> Eval {
    Eval::grundy(heaps.iter().fold(0, |x, &n| x ^ g(n)))
}

/// `count` on the first line, the heaps on the second (the contest format of heap games).
pub fn counted_heaps(heaps: &[u64]) -> String {
    let row: Vec<String> = heaps.iter().map(u64::to_string).collect();
    format!("{}\n{}\n", heaps.len(), row.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim with heaps of at most 3 (moves listed), valued by XOR.
    struct SmallNim;

    impl HeapRules for SmallNim {
        fn game(&self) -> &str {
            "small nim"
        }
        fn count(&self, n: u64) -> u64 {
            n
        }
        fn moves(&self, n: u64) -> Vec<HeapMove> {
            (1..=n).map(|k| HeapMove { name: format!("take {k}"), parts: vec![n - k] }).collect()
        }
        fn eval(&self, heaps: &[u64]) -> Eval {
            xor_of(heaps, |n| n)
        }
        fn text(&self, heaps: &[u64]) -> String {
            counted_heaps(heaps)
        }
    }

    #[test]
    fn heap_moves_keep_the_order_and_drop_empty_heaps() {
        let analysis = analyse_heaps(&SmallNim, &[1, 3]).unwrap();
        assert_eq!((analysis.value, analysis.winner), (Some(2), Winner::First));
        let names: Vec<&str> = analysis.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["heap 1: take 1", "heap 2: take 1", "heap 2: take 2", "heap 2: take 3"]);
        assert_eq!(analysis.moves[0].position, "1\n3\n");
        assert_eq!(analysis.moves[2].position, "2\n1 1\n");
        let winning: Vec<bool> = analysis.moves.iter().map(|m| m.winning).collect();
        assert_eq!(winning, [false, false, true, false]);
        assert_eq!(analysis.drawing["heaps"], json!([1, 3]));
    }

    #[test]
    fn too_many_moves_are_refused_with_the_count() {
        let err = analyse_heaps(&SmallNim, &[6000, 6000]).unwrap_err();
        assert!(matches!(err, Error::Usage(_)));
        assert!(err.to_string().contains("12000 legal moves"), "{err}");
        // 5000 moves, each position's text about 10 kB: 47 MiB.
        let err = analyse_heaps(&SmallNim, &[1; 5000]).unwrap_err();
        assert!(matches!(err, Error::Usage(_)) && err.to_string().contains("47 MiB"), "{err}");
    }
}
