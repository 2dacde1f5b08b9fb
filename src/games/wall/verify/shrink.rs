//! Counterexample shrinking for `verify wall --shrink`: each failing board walked down the
//! boards' shrinking order ([`crate::games::wall::board::smaller`], the one `stress wall` uses
//! too) to a locally minimal one, the naive oracle judging, verdicts and results remembered.

use crate::runner::tally::RunResults;
use super::engine::claim_holds;
use crate::error::{Error, Result};
use crate::games::wall::{claim, naive, board::{Board, rules::Rule}};
use crate::games::wall::board::smaller::{size_key, smaller_neighbours, SizeKey};
use crate::output::csv::write_csv;
use crate::output::records::{outcome_name, CounterexampleRow};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::path::Path;

/// File name of the shrunk counterexamples in a run directory.
pub const COUNTEREXAMPLES: &str = "counterexamples.csv";

/// True when the claim under `rule` fails on `board` (at most 64 cells).
pub fn claim_fails(board: &Board, rule: Rule) -> Result<bool> {
    let truth = naive::solve(board, rule)?;
    Ok(!claim_holds(rule, claim::claimed_grundy(board, rule), truth))
}

/// Shrinks boards under one rule, remembering verdicts and results across calls.
pub struct Shrinker {
    rule: Rule,
    fails: FxHashMap<Board, bool>,
    minimal: FxHashMap<Board, Board>,
}

impl Shrinker {
    pub fn new(rule: Rule) -> Self {
        Shrinker { rule, fails: FxHashMap::default(), minimal: FxHashMap::default() }
    }

    fn fails(&mut self, board: &Board) -> bool {
        if let Some(&known) = self.fails.get(board) {
            return known;
        }
        let fails = claim_fails(board, self.rule).expect("boards of at most 64 cells fit the naive oracle");
        self.fails.insert(board.clone(), fails);
        fails
    }

    /// The locally minimal failing board reached from `board`, which must fail.
    pub fn shrink(&mut self, board: &Board) -> Result<Board> {
        if !board.shape().fits_mask() || !claim_fails(board, self.rule)? {
            return Err(not_a_counterexample(board, self.rule));
        }
        Ok(self.descend(board.clone()))
    }

    /// Walks down to the first failing smaller neighbour until none is left; remembers the path.
    fn descend(&mut self, start: Board) -> Board {
        let mut path = Vec::new();
        let mut current = start;
        let result = loop {
            if let Some(known) = self.minimal.get(&current) {
                break known.clone();
            }
            let next = smaller_neighbours(&current).find(|n| self.fails(n));
            path.push(current);
            match next {
                Some(n) => current = n,
                None => break path.last().expect("just pushed").clone(),
            }
        };
        for visited in path {
            self.minimal.insert(visited, result.clone());
        }
        result
    }
}

fn not_a_counterexample(board: &Board, rule: Rule) -> Error {
    Error::Usage(format!(
        "board {} is not a counterexample under rule {rule} (of at most 64 cells)",
        board.to_slashed()
    ))
}

/// The distinct minimal boards the failing `boards` shrink to, in shrinking order. The
/// boards are checked in parallel, then shrunk smallest first with shared memory.
pub fn minimal_counterexamples(boards: &[Board], rule: Rule) -> Result<Vec<Board>> {
    let mut sorted: Vec<&Board> = boards.iter().collect();
    sorted.sort_by_cached_key(|b| size_key(b));
    let verdicts: Vec<bool> = sorted
        .par_iter()
        .map(|b| if b.shape().fits_mask() { claim_fails(b, rule) } else { Ok(false) })
        .collect::<Result<_>>()?;
    if let Some(i) = verdicts.iter().position(|&f| !f) {
        return Err(not_a_counterexample(sorted[i], rule));
    }
    let mut shrinker = Shrinker::new(rule);
    shrinker.fails.extend(sorted.iter().map(|&b| (b.clone(), true)));
    let distinct: BTreeMap<SizeKey, Board> =
        sorted.into_iter().map(|b| shrinker.descend(b.clone())).map(|m| (size_key(&m), m)).collect();
    Ok(distinct.into_values().collect())
}

/// counterexamples.csv rows for the mismatches of a wall run: its distinct minimal boards.
pub fn counterexample_rows(results: &RunResults) -> Result<Vec<CounterexampleRow>> {
    let rule: Rule = results.rule.parse().map_err(Error::Usage)?;
    let boards = results.mismatch_rows().iter().map(|m| Board::from_slashed(&m.board)).collect::<Result<Vec<_>>>()?;
    minimal_counterexamples(&boards, rule)?
        .into_iter()
        .map(|board| {
            let (claimed, actual) = claim_and_truth(&board, rule)?;
            Ok(CounterexampleRow {
                game: results.game.clone(),
                rule: rule.name().into(),
                rows: board.rows() as u32,
                cols: board.cols() as u32,
                board: board.to_slashed(),
                claimed,
                actual,
            })
        })
        .collect()
}

/// Shrinks the run's mismatches and writes counterexamples.csv into `dir`; returns the rows.
pub fn write_counterexamples(dir: &Path, results: &RunResults) -> Result<Vec<CounterexampleRow>> {
    let rows = counterexample_rows(results)?;
    write_csv(&dir.join(COUNTEREXAMPLES), &rows)?;
    Ok(rows)
}

/// What the claim says and what search finds, in the claim's terms: Grundy values, or for
/// misère (whose claim is only about the winner) the winners.
fn claim_and_truth(board: &Board, rule: Rule) -> Result<(String, String)> {
    let claimed = claim::claimed_grundy(board, rule);
    let truth = naive::solve(board, rule)?;
    Ok(match rule {
        Rule::Misere => (outcome_name(claimed != 0).into(), outcome_name(truth.first_player_wins).into()),
        Rule::Standard | Rule::XBlocks | Rule::TSplit => (claimed.to_string(), truth.grundy.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_slashed(text).unwrap()
    }

    #[test]
    fn misere_shrinks_to_one_free_cell() {
        let mut s = Shrinker::new(Rule::Misere);
        assert_eq!(s.shrink(&board("X")).unwrap().to_slashed(), ".");
        assert_eq!(s.shrink(&board("../..")).unwrap().to_slashed(), ".");
    }

    /// Toy failing predicates whose least failing boards tie on cells and X cells with others
    /// (`.X` and `X.`, `..X` and `X..`, `../XX` and `XX/..`), so another tie order would pick
    /// another board.
    const TOYS: [fn(&Board) -> bool; 4] = [
        |b| b.shape().cells() >= 2 && b.x_count() >= 1,
        |b| b.x_count() == 1 && b.shape().cells() >= 3 && !b.is_x(b.rows() / 2, b.cols() / 2),
        |b| b.rows() >= 2 && b.cols() >= 2 && b.x_count() == 2,
        |b| b.is_x(0, 0) != b.is_x(b.rows() - 1, b.cols() - 1),
    ];

    #[test]
    fn the_shrinker_and_stress_pick_the_same_smallest_board() {
        use crate::games::wall::board::smaller::shrink_order;
        use crate::games::wall::search::{contest::WallContest, smallest::by_size};
        use crate::stress::Contest;
        let game = WallContest::default();
        // Every board up to 6 cells (their smaller neighbours are among them), in the order the
        // stress search lists them.
        let all: Vec<Board> = by_size().take_while(|b| b.shape().cells() <= 6).collect();
        for (t, fails) in TOYS.into_iter().enumerate() {
            let mut shrinker = Shrinker::new(Rule::Standard);
            shrinker.fails.extend(all.iter().map(|b| (b.clone(), fails(b))));
            let failing: Vec<&Board> = all.iter().filter(|b| fails(b)).collect();
            let least = *failing.iter().min_by(|a, b| shrink_order(a, b)).expect("a failing board");
            assert_eq!(failing[0], least, "toy {t}: the search meets the least failing board first");
            for &start in &failing {
                // Stress: shrink along the same neighbours, then judge every board of a smaller
                // key in its listing order, keeping the first failing one.
                let shrunk = shrinker.descend(start.clone());
                assert!(shrink_order(&shrunk, start).is_le() && fails(&shrunk));
                assert!(game.shrink_candidates(&shrunk).iter().all(|n| !fails(n)), "toy {t}: {} is locally minimal", shrunk.to_slashed());
                let key = game.size_key(&shrunk);
                let found = all.iter().take_while(|c| game.size_key(c) < key).find(|c| fails(c)).unwrap_or(&shrunk);
                assert_eq!(found, least, "toy {t} from {}", start.to_slashed());
                // The shrinker: the least failing board is minimal, and its counterexample list
                // (distinct minimal boards, in the shrinking order) starts with it.
                assert_eq!(&shrinker.descend(least.clone()), least);
            }
            let mut minimal: Vec<Board> = failing.iter().map(|&b| shrinker.descend(b.clone())).collect();
            minimal.sort_by_cached_key(size_key);
            assert_eq!(&minimal[0], least, "toy {t}");
        }
    }

    #[test]
    fn refuses_a_board_where_the_claim_holds() {
        let err = Shrinker::new(Rule::Standard).shrink(&board("../..")).unwrap_err();
        assert!(err.to_string().contains("not a counterexample under rule standard"), "{err}");
    }
}
