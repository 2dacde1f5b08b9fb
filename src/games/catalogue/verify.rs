//! Verification of the catalogue games: every position of every size, claim vs brute force, in parallel.
//!
//! What the size columns mean per game (summary.csv / distribution.csv):
//! - Nim family (nim, nim-count, misere-nim, odd-even-nim, pimber): rows = number of piles,
//!   cols = largest pile, xs = total stones; a size holds every multiset with exactly that many
//!   piles and that largest pile.
//! - polygon: rows = 1, cols = xs = vertices (the empty polygon); cross: rows = 1, cols = xs =
//!   cells (the empty strip); divisor: rows = 1, cols = k for 10^(k−1) < n ≤ 10^k (k = 0: n = 1),
//!   xs = Ω(n).
//!
//! The `grundy` column holds the claimed value: a Grundy value, except nim-count (the number of
//! winning moves) and misere-nim / cross-solver (1 = first player wins, 0 = loses).

use crate::runner::tally::RunResults;
use crate::error::{Error, Result};
use crate::impartial::{BruteForce};
use super::claimed::{Claimed};
use crate::games::catalogue::{cross, divisor, misere_nim, nim, odd_even_nim, pimber, polygon};
use crate::output::csv::CsvRecord;
use crate::output::records::{outcome_name, MismatchRow};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The catalogue's game names, as the CLI and the verify files spell them.
pub const GAMES: &[&str] = &["nim", "nim-count", "misere-nim", "odd-even-nim", "pimber", "polygon", "cross", "divisor"];

/// sequence.csv: the file of single-heap brute-force values.
pub const SEQUENCE: &str = "sequence.csv";

/// One row of sequence.csv: the brute-force Grundy value of the single heap (polygon, strip,
/// number) of size `n`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SequenceRow {
    pub game: String,
    pub n: u64,
    pub grundy: u32,
}

impl CsvRecord for SequenceRow {
    const HEADER: &'static [&'static str] = &["game", "n", "grundy"];
}

/// A catalogue game behind one object-safe face (for dispatch by name).
pub trait Verifier: Sync {
    fn game(&self) -> &'static str;
    fn rule(&self) -> &'static str;
    /// Number of positions of size (rows, cols).
    fn count(&self, rows: u32, cols: u32) -> u64;
    /// Checks every position of one size; `progress` gets counts of positions done.
    fn verify_size(&self, rows: u32, cols: u32, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults>;
    /// Brute-force values of single heaps 0..=max (empty when the game has no heaps).
    fn sequence(&self, max: u32) -> Vec<SequenceRow>;
    /// The claim's own remarks for the manifest.
    fn notes(&self) -> Vec<String>;
}

impl<C: Claimed> Verifier for C
where
    C::Position: Send + Sync,
{
    fn game(&self) -> &'static str {
        Claimed::game(self)
    }
    fn rule(&self) -> &'static str {
        Claimed::rule(self)
    }
    fn count(&self, rows: u32, cols: u32) -> u64 {
        self.positions(rows, cols).len() as u64
    }
    fn verify_size(&self, rows: u32, cols: u32, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
        if !self.size_allowed(rows, cols) {
            return Err(Error::Usage(format!(
                "{} size {rows}x{cols} is beyond what the brute force handles",
                Claimed::game(self)
            )));
        }
        let shared = self.prepare(rows, cols);
        let checked: Vec<(String, super::claimed::Checked)> = self
            .positions(rows, cols)
            .par_iter()
            .map_init(
                || BruteForce::new(self),
                |brute, position| {
                    let result = self.check(&shared, brute, position);
                    progress(1);
                    (if result.agrees { String::new() } else { self.show(position) }, result)
                },
            )
            .collect();
        let mut results = RunResults::new(Claimed::game(self), Claimed::rule(self));
        results.size_mut(rows, cols);
        for (shown, c) in checked {
            let tally = results.size_mut(c.rows, c.cols);
            tally.record(c.xs, c.claimed, 1);
            if !c.agrees {
                tally.mismatches += 1;
                results.mismatches.push(MismatchRow {
                    game: Claimed::game(self).into(),
                    rule: Claimed::rule(self).into(),
                    rows: c.rows,
                    cols: c.cols,
                    board: shown,
                    dp_grundy: c.claimed,
                    naive_grundy: c.naive_value,
                    naive_outcome: outcome_name(c.naive_first_wins).into(),
                });
            }
        }
        Ok(results)
    }
    fn notes(&self) -> Vec<String> {
        Claimed::notes(self)
    }
    fn sequence(&self, max: u32) -> Vec<SequenceRow> {
        let mut brute = BruteForce::new(self);
        (0..=max)
            .filter_map(|n| self.heap(n).map(|p| (n, p)))
            .map(|(n, p)| SequenceRow { game: Claimed::game(self).into(), n: n.into(), grundy: brute.grundy(&p) })
            .collect()
    }
}

/// The verifier of `game` under claim variant `rule`.
pub fn verifier(game: &str, rule: &str) -> Result<Box<dyn Verifier>> {
    let boxed: Box<dyn Verifier> = match game {
        "nim" => Box::new(nim::Nim),
        "nim-count" => Box::new(nim::NimCount),
        "misere-nim" => Box::new(misere_nim::MisereNim),
        "odd-even-nim" => Box::new(odd_even_nim::OddEvenNim),
        "pimber" => Box::new(pimber::Pimber),
        "polygon" => Box::new(polygon::Polygon),
        "cross" if rule == "solver" => Box::new(cross::Cross(cross::CrossClaim::Solver)),
        "cross" => Box::new(cross::Cross(cross::CrossClaim::Published)),
        "divisor" => Box::new(divisor::Divisor),
        _ => return Err(Error::Usage(format!("unknown game {game:?}; the catalogue has {}", GAMES.join(", ")))),
    };
    if boxed.rule() != rule {
        return Err(Error::Usage(format!("game {game} has no rule {rule:?} (it has {:?})", boxed.rule())));
    }
    Ok(boxed)
}

/// The default rule of a game (the first claim it checks).
pub fn default_rule(game: &str) -> &'static str {
    match game {
        "misere-nim" => "misere",
        "cross" => "published",
        _ => "standard",
    }
}

/// Recomputes one size of a committed result (for `check`): same positions, same claim.
pub fn recompute_size(game: &str, rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    verifier(game, rule)?.verify_size(rows, cols, &|_| {})
}

/// The sizes a run covers: piles 1..=piles × largest pile 1..=max, plus single heaps up to
/// `heaps` (pile games); 1 × (0 or 1)..=max otherwise; divisor: decades 0..=log10(max).
pub fn sizes(game: &str, piles: u32, max: u64, heaps: u64) -> Result<Vec<(u32, u32)>> {
    let max32 = u32::try_from(max).map_err(|_| Error::Usage(format!("--max {max} is too large")))?;
    Ok(match game {
        "polygon" => (0..=max32).map(|n| (1, n)).collect(),
        "cross" => (1..=max32).map(|n| (1, n)).collect(),
        "divisor" => {
            let k = (0..=divisor::MAX_DECADE).find(|&k| 10u64.pow(k) == max).ok_or_else(|| {
                Error::Usage(format!("divisor --max must be a power of ten up to 10^{}, found {max}", divisor::MAX_DECADE))
            })?;
            (0..=k).map(|d| (1, d)).collect()
        }
        _ => {
            let mut out: Vec<(u32, u32)> = (1..=piles).flat_map(|k| (1..=max32).map(move |m| (k, m))).collect();
            let heaps = u32::try_from(heaps).map_err(|_| Error::Usage(format!("--heaps {heaps} is too large")))?;
            out.extend((max32 + 1..=heaps).map(|m| (1, m)));
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_family_sizes_agree() {
        for game in ["nim", "nim-count", "misere-nim", "odd-even-nim", "pimber"] {
            let v = verifier(game, default_rule(game)).unwrap();
            let r = v.verify_size(3, 5, &|_| {}).unwrap();
            // Multisets of 3 piles from 1..=5 with largest 5: C(6, 2) = 15.
            assert_eq!(r.sizes[&(3, 5)].patterns, 15, "{game}");
            assert!(r.all_agree(), "{game}: {:?}", r.mismatches);
        }
    }

    #[test]
    fn cross_published_claim_fails_at_two() {
        let v = verifier("cross", "published").unwrap();
        let r = v.verify_size(1, 2, &|_| {}).unwrap();
        assert_eq!(r.mismatches.len(), 1);
        assert_eq!((r.mismatches[0].board.as_str(), r.mismatches[0].naive_outcome.as_str()), ("..", "Second"));
        assert!(verifier("cross", "solver").unwrap().verify_size(1, 2, &|_| {}).unwrap().all_agree());
    }

    #[test]
    fn bad_names_and_sizes() {
        assert!(verifier("chess", "standard").is_err());
        assert!(verifier("nim", "misere").is_err());
        assert!(recompute_size("polygon", "standard", 1, 40).is_err());
        assert!(sizes("divisor", 0, 999, 0).is_err());
        assert_eq!(sizes("divisor", 0, 100, 0).unwrap(), vec![(1, 0), (1, 1), (1, 2)]);
        assert_eq!(sizes("pimber", 2, 2, 4).unwrap(), vec![(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (1, 4)]);
    }

    #[test]
    fn sequences_of_heap_games() {
        let seq = verifier("polygon", "standard").unwrap().sequence(6);
        assert_eq!(seq.iter().map(|r| r.grundy).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 0, 3]);
        assert!(verifier("nim-count", "standard").unwrap().sequence(6).is_empty());
    }
}
