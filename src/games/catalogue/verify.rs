//! Verification of the catalogue games: every position of every size, claim vs brute force, in parallel.
//!
//! What the size columns mean per game (summary.csv / distribution.csv; each game's names for
//! them are its `columns` in commands.rs):
//! - Nim family (nim, nim-count, misere-nim, odd-even-nim, pimber): rows = number of piles,
//!   cols = largest pile, xs = total stones; a size holds every multiset with exactly that many
//!   piles and that largest pile.
//! - polygon: rows = 1, cols = xs = vertices (the empty polygon); cross: rows = 1, cols = xs =
//!   cells (the empty strip); divisor: rows = 1, cols = k for 10^(k−1) < n ≤ 10^k (k = 0: n = 1),
//!   xs = Ω(n).
//!
//! The `grundy` column holds the claimed value: a Grundy value, except nim-count (the number of
//! winning moves) and misere-nim / cross-solver (1 = first player wins, 0 = loses).

use super::claimed::{Checked, Claimed};
use super::entries::entry;
use crate::error::{Error, Result};
use crate::impartial::BruteForce;
use crate::output::records::{outcome_name, SequenceRow};
use crate::runner::{Disagreement, Evaluate, RunResults};
use std::ops::Range;

/// sequence.csv: the file of single-heap brute-force values.
pub const SEQUENCE: &str = "sequence.csv";


/// A catalogue game behind one object-safe face (for dispatch by name).
pub trait Verifier: Sync {
    fn game(&self) -> &'static str;
    fn rule(&self) -> &'static str;
    /// Whether the brute force is meant to handle size (rows, cols).
    fn size_allowed(&self, rows: u32, cols: u32) -> bool;
    /// Number of positions of `sizes`.
    fn count(&self, sizes: &[(u32, u32)]) -> u64;
    /// The positions of `sizes` in order, checked by index: (count, evaluator).
    fn positions_of(&self, sizes: &[(u32, u32)]) -> (u64, Box<dyn Evaluate + '_>);
    /// Brute-force values of single heaps 0..=max (empty when the game has no heaps).
    fn sequence(&self, max: u32) -> Vec<SequenceRow>;
    /// The claim's own remarks for the manifest.
    fn notes(&self) -> Vec<String>;
    /// Estimated peak bytes of the brute forces checking `sizes` in chunks of `chunk` positions
    /// on `threads` threads, besides the run's base memory.
    fn memo_peak_bytes(&self, sizes: &[(u32, u32)], chunk: u64, threads: usize) -> f64;
    /// Estimated core-seconds of checking `positions` of `sizes` (indices in size order) in
    /// chunks of `chunk` positions, each chunk with a brute force of its own; `None` when unknown.
    fn seconds(&self, sizes: &[(u32, u32)], positions: Range<u64>, chunk: u64) -> Option<f64>;
}

/// Every position of a list of sizes, with each size's shared data, checked by index.
struct Positions<'a, C: Claimed>
where
    C::Position: Send + Sync,
{
    game: &'a C,
    shared: Vec<C::Shared>,
    /// (index into `shared`, position), in size order.
    positions: Vec<(usize, C::Position)>,
}

impl<C: Claimed> Evaluate for Positions<'_, C>
where
    C::Position: Send + Sync,
{
    fn evaluate(&self, range: Range<u64>, results: &mut RunResults) -> Result<()> {
        let mut brute = BruteForce::new(self.game);
        for (size, position) in &self.positions[range.start as usize..range.end as usize] {
            let checked = self.game.check(&self.shared[*size], &mut brute, position);
            record(&checked, || self.game.show(position), results);
        }
        Ok(())
    }
}

/// Tallies one checked position, keeping it when the claim is wrong.
fn record(c: &Checked, show: impl FnOnce() -> String, results: &mut RunResults) {
    let failed = (!c.agrees).then(|| Disagreement {
        position: show(),
        claimed: c.claimed,
        naive_value: c.naive_value,
        naive_outcome: outcome_name(c.naive_first_wins),
        answer: None,
    });
    results.check((c.rows, c.cols), (c.xs, c.claimed), failed);
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
    fn size_allowed(&self, rows: u32, cols: u32) -> bool {
        Claimed::size_allowed(self, rows, cols)
    }
    fn count(&self, sizes: &[(u32, u32)]) -> u64 {
        sizes.iter().map(|&(r, c)| self.position_count(r, c)).sum()
    }
    fn positions_of(&self, sizes: &[(u32, u32)]) -> (u64, Box<dyn Evaluate + '_>) {
        let shared = sizes.iter().map(|&(r, c)| self.prepare(r, c)).collect();
        let positions: Vec<(usize, C::Position)> =
            sizes.iter().enumerate().flat_map(|(i, &(r, c))| self.positions(r, c).into_iter().map(move |p| (i, p))).collect();
        (positions.len() as u64, Box::new(Positions { game: self, shared, positions }))
    }
    fn notes(&self) -> Vec<String> {
        Claimed::notes(self)
    }
    /// Each worker's chunk has a brute force of its own: the last `threads` chunks (the
    /// largest sizes come last) are the hungriest that can run at once.
    /// The job's positions are listed in memory too (a list grown by doubling), beside every
    /// size's shared data.
    fn memo_peak_bytes(&self, sizes: &[(u32, u32)], chunk: u64, threads: usize) -> f64 {
        let memos: f64 = last_chunks(sizes.iter().rev().map(|&(r, c)| ((r, c), self.position_count(r, c))), chunk, threads)
            .iter()
            .filter_map(|chunk_sizes| self.memo_bytes(chunk_sizes))
            .sum();
        let inline = std::mem::size_of::<(usize, C::Position)>() as f64;
        let count = self.count(sizes);
        let outside: f64 = sizes.iter().map(|&(r, c)| self.position_count(r, c) as f64 * self.position_heap_bytes(r)).sum();
        let listed = count.checked_next_power_of_two().unwrap_or(count) as f64 * inline + outside;
        let shared: f64 = sizes.iter().map(|&(r, c)| self.shared_bytes(r, c)).sum();
        memos + listed + shared
    }
    /// The chunks' brute forces ([`Claimed::memo_seconds`]) and the positions' own work
    /// ([`Claimed::position_seconds`]), either unknown counting nothing; `None` when both are.
    fn seconds(&self, sizes: &[(u32, u32)], positions: Range<u64>, chunk: u64) -> Option<f64> {
        let counted: Vec<((u32, u32), u64)> = sizes.iter().map(|&(r, c)| ((r, c), self.position_count(r, c))).collect();
        let memos: Option<f64> = chunks_between(counted.iter().copied(), positions.clone(), chunk).iter().map(|chunk_sizes| self.memo_seconds(chunk_sizes)).sum();
        let mut first = 0;
        let each: Option<f64> = counted
            .iter()
            .map(|&((rows, cols), count)| {
                let within = (first + count).min(positions.end).saturating_sub(first.max(positions.start));
                first += count;
                if within > 0 { self.position_seconds(rows, cols).map(|seconds| seconds * within as f64) } else { Some(0.0) }
            })
            .sum();
        match (memos, each) {
            (None, None) => None,
            (memos, each) => Some(memos.unwrap_or(0.0) + each.unwrap_or(0.0)),
        }
    }
    fn sequence(&self, max: u32) -> Vec<SequenceRow> {
        let mut brute = BruteForce::new(self);
        (0..=max)
            .filter_map(|n| self.heap(n).map(|p| (n, p)))
            .map(|(n, p)| SequenceRow { game: Claimed::game(self).into(), n: n.into(), grundy: brute.grundy(&p) })
            .collect()
    }
}

/// The sizes of each of the first `count` chunks of `chunk` positions, given the sizes and
/// their position counts from the last: the last chunks of a run, counted from its end.
fn last_chunks(sizes: impl Iterator<Item = ((u32, u32), u64)>, chunk: u64, count: usize) -> Vec<Vec<(u32, u32)>> {
    let mut chunks: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut room = 0;
    for (size, mut positions) in sizes {
        while positions > 0 {
            if room == 0 {
                if chunks.len() == count {
                    return chunks;
                }
                chunks.push(Vec::new());
                room = chunk.max(1);
            }
            chunks.last_mut().expect("a chunk is open").push(size);
            let taken = positions.min(room);
            (positions, room) = (positions - taken, room - taken);
        }
    }
    chunks
}

/// The sizes of each chunk of `chunk` positions from `positions.start` to `positions.end`,
/// given every size and its position count in order.
fn chunks_between(sizes: impl Iterator<Item = ((u32, u32), u64)>, positions: Range<u64>, chunk: u64) -> Vec<Vec<(u32, u32)>> {
    let chunk = chunk.max(1);
    let mut chunks: Vec<Vec<(u32, u32)>> = vec![Vec::new(); positions.end.saturating_sub(positions.start).div_ceil(chunk) as usize];
    let mut first = 0;
    for (size, count) in sizes {
        let (start, end) = (first.max(positions.start), (first + count).min(positions.end));
        first += count;
        if start < end {
            let (from, to) = ((start - positions.start) / chunk, (end - 1 - positions.start) / chunk);
            for sizes in &mut chunks[from as usize..=to as usize] {
                sizes.push(size);
            }
        }
    }
    chunks
}

/// How a catalogue game's sizes are laid out (each entry's `layout`, in entries.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Pile games: size (k, m) holds the multisets of k piles with largest pile m; a run covers
    /// per pile count 1..=`--piles` every largest pile 1..=`--max`, then single heaps up to `--heaps`.
    Piles,
    /// One row: size (1, n) for n in first..=`--max` (polygon: from 0 vertices, cross: from 1 cell).
    Line { first: u32 },
    /// Decades: size (1, k) for k in 0..=log10(`--max`), `--max` a power of ten up to
    /// 10^max_decade; `limit` says why no larger one is taken.
    Decades { max_decade: u32, limit: &'static str },
}

/// The verifier of `game` under claim variant `rule`.
pub fn verifier(game: &str, rule: &str) -> Result<Box<dyn Verifier>> {
    let boxed = (entry(game)?.verifier)(Some(rule));
    if boxed.rule() != rule {
        return Err(Error::Usage(format!("game {game} has no rule {rule:?} (it has {:?})", boxed.rule())));
    }
    Ok(boxed)
}

/// The default rule of a game (the first claim it checks; "standard" for a name it does not know).
pub fn default_rule(game: &str) -> &'static str {
    entry(game).map_or("standard", |g| (g.verifier)(None).rule())
}

/// The largest n ≤ u32::MAX with `allowed(n)`, for `allowed` true up to a bound (0 when none).
fn largest(allowed: impl Fn(u32) -> bool) -> u32 {
    let (mut lo, mut hi) = (0u32, u32::MAX);
    if allowed(hi) {
        return hi;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if allowed(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Refuses, before any size is listed, a run beyond what `verifier`'s brute force handles,
/// naming the options and values given (`--max`, `--piles`, `--heaps`).
pub fn check_request(verifier: &dyn Verifier, piles: u32, max: u64, heaps: u64) -> Result<()> {
    let game = verifier.game();
    let allowed = |rows: u32, cols: u64| u32::try_from(cols).is_ok_and(|c| verifier.size_allowed(rows, c));
    let beyond = |what: String, limit: String| Err(Error::Usage(format!("{what} is beyond what the {game} brute force handles ({limit})")));
    let most_cols = |rows: u32| largest(|c| verifier.size_allowed(rows, c));
    match entry(game)?.layout {
        Layout::Decades { .. } => Ok(()),
        Layout::Line { .. } if !allowed(1, max) => beyond(format!("--max {max}"), format!("--max at most {}", most_cols(1))),
        Layout::Line { .. } => Ok(()),
        _ if piles > 0 && !allowed(piles, 1) => {
            beyond(format!("--piles {piles}"), format!("--piles at most {}", largest(|rows| verifier.size_allowed(rows, 1))))
        }
        _ if piles > 0 && !allowed(piles, max) => {
            beyond(format!("--max {max} with --piles {piles}"), format!("with --piles {piles}, --max at most {}", most_cols(piles)))
        }
        _ if heaps > max && !allowed(1, heaps) => beyond(format!("--heaps {heaps}"), format!("--heaps at most {}", most_cols(1))),
        _ => Ok(()),
    }
}

/// The last decade k of a run to `--max` = 10^k: refuses another `max`, saying that runs go
/// by decades and what the largest is (10^`max_decade`, for the reason `limit` gives).
fn decades(game: &str, max: u64, max_decade: u32, limit: &str) -> Result<u32> {
    let largest = 10u64.pow(max_decade);
    let limit = format!("--max at most 10^{max_decade} = {largest}: {limit}");
    match (0..=19).find(|&k| 10u64.checked_pow(k) == Some(max)) {
        Some(k) if k <= max_decade => Ok(k),
        Some(_) => Err(Error::Usage(format!("--max {max} is beyond what the {game} brute force handles ({limit})"))),
        None => Err(Error::Usage(format!(
            "--max {max} is not a power of ten: {game} runs check every N up to --max by decades (10^(k−1) < N ≤ 10^k), so --max is 1, 10, 100, … ({limit})"
        ))),
    }
}

/// Jobs of a catalogue run: a label and the sizes it covers.
pub type SizeGroups = Vec<(String, Vec<(u32, u32)>)>;

/// The sizes a run covers, grouped into jobs, as the game's [`Layout`] says: per pile count
/// 1..=piles every largest pile 1..=max, then the single heaps up to `heaps` (pile games);
/// 1 × first..=max (one row); decades 0..=log10(max).
pub fn size_groups(game: &str, piles: u32, max: u64, heaps: u64) -> Result<SizeGroups> {
    let max32 = || u32::try_from(max).map_err(|_| Error::Usage(format!("--max {max} is too large")));
    let all = |sizes: Vec<(u32, u32)>| vec![("sizes".to_string(), sizes)];
    Ok(match entry(game)?.layout {
        Layout::Line { first } => all((first..=max32()?).map(|n| (1, n)).collect()),
        Layout::Decades { max_decade, limit } => all((0..=decades(game, max, max_decade, limit)?).map(|d| (1, d)).collect()),
        Layout::Piles => {
            let max32 = max32()?;
            let heaps = u32::try_from(heaps).map_err(|_| Error::Usage(format!("--heaps {heaps} is too large")))?;
            let mut groups: SizeGroups =
                (1..=piles).map(|k| (format!("piles={k}"), (1..=max32).map(|m| (k, m)).collect())).collect();
            if heaps > max32 {
                groups.push(("heaps".to_string(), (max32 + 1..=heaps).map(|m| (1, m)).collect()));
            }
            groups
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::parallel::evaluate_range;
    use crate::runner::Silent;

    fn run(game: &str, rule: &str, sizes: &[(u32, u32)]) -> RunResults {
        let v = verifier(game, rule).unwrap();
        let (count, evaluator) = v.positions_of(sizes);
        evaluate_range(&*evaluator, &RunResults::new(game, rule), 0..count, 4, &Silent).unwrap()
    }

    #[test]
    fn nim_family_sizes_agree() {
        for game in ["nim", "nim-count", "misere-nim", "odd-even-nim", "pimber"] {
            let r = run(game, default_rule(game), &[(3, 5)]);
            // Multisets of 3 piles from 1..=5 with largest 5: C(6, 2) = 15.
            assert_eq!(r.sizes[&(3, 5)].patterns, 15, "{game}");
            assert!(r.all_agree(), "{game}: {:?}", r.mismatches);
        }
    }

    #[test]
    fn requests_beyond_the_brute_force_name_the_options() {
        let refused = |game: &str, piles, max, heaps| {
            check_request(&*verifier(game, default_rule(game)).unwrap(), piles, max, heaps).unwrap_err().to_string()
        };
        assert_eq!(refused("nim", 4, 3, 100_000_000), "--heaps 100000000 is beyond what the nim brute force handles (--heaps at most 100000)");
        assert_eq!(refused("nim", 10, 100, 0), "--piles 10 is beyond what the nim brute force handles (--piles at most 8)");
        assert_eq!(refused("nim", 2, 33, 0), "--max 33 with --piles 2 is beyond what the nim brute force handles (with --piles 2, --max at most 32)");
        assert_eq!(refused("polygon", 0, 18, 0), "--max 18 is beyond what the polygon brute force handles (--max at most 16)");
        assert_eq!(refused("cross", 0, 40, 0), "--max 40 is beyond what the cross brute force handles (--max at most 28)");
        assert_eq!(refused("nim", 4, 1 << 40, 0), format!("--max {} with --piles 4 is beyond what the nim brute force handles (with --piles 4, --max at most 32)", 1u64 << 40));
        assert!(check_request(&*verifier("nim", "standard").unwrap(), 4, 32, 100_000).is_ok());
    }

    #[test]
    fn divisor_limits_say_the_largest_max_and_why() {
        let refused = |max| size_groups("divisor", 0, max, 0).unwrap_err().to_string();
        let limit = "--max at most 10^8 = 100000000: the sieve over the divisor DAG holds 5 bytes per number (500 MB at 10^8)";
        assert_eq!(refused(1_000_000_000), format!("--max 1000000000 is beyond what the divisor brute force handles ({limit})"));
        assert_eq!(
            refused(999),
            format!("--max 999 is not a power of ten: divisor runs check every N up to --max by decades (10^(k−1) < N ≤ 10^k), so --max is 1, 10, 100, … ({limit})")
        );
        assert_eq!(size_groups("divisor", 0, 1000, 0).unwrap()[0].1, [(1, 0), (1, 1), (1, 2), (1, 3)]);
    }

    #[test]
    fn the_last_chunks_are_counted_from_the_end() {
        let sizes = [((1, 5), 1), ((1, 4), 1), ((1, 3), 1), ((1, 2), 1)];
        assert_eq!(last_chunks(sizes.into_iter(), 2, 2), vec![vec![(1, 5), (1, 4)], vec![(1, 3), (1, 2)]]);
        assert_eq!(last_chunks(sizes.into_iter(), 3, 1), vec![vec![(1, 5), (1, 4), (1, 3)]]);
        let piles = [((3, 9), 10), ((3, 8), 4)];
        assert_eq!(last_chunks(piles.into_iter(), 4, 4), vec![vec![(3, 9)], vec![(3, 9)], vec![(3, 9), (3, 8)], vec![(3, 8)]]);
    }

    #[test]
    fn cross_published_claim_fails_at_two() {
        let r = run("cross", "published", &[(1, 2)]);
        assert_eq!(r.mismatches.len(), 1);
        assert_eq!((r.mismatches[0].board.as_str(), r.mismatches[0].naive_outcome.as_str()), ("..", "Second"));
        assert!(run("cross", "solver", &[(1, 2)]).all_agree());
    }

    #[test]
    fn every_entry_builds_its_own_verifiers() {
        for game in crate::games::catalogue::GAMES {
            assert!(crate::games::find(game.name).is_some(), "{} is not in the registry", game.name);
            let rule = default_rule(game.name);
            assert_eq!(verifier(game.name, rule).unwrap().game(), game.name);
            assert_eq!(game.claims.first().map_or(rule, |&(first, _)| first), rule, "{}", game.name);
            for &(claim, _) in game.claims {
                assert_eq!(verifier(game.name, claim).unwrap().rule(), claim, "{}", game.name);
            }
        }
        assert_eq!((default_rule("misere-nim"), default_rule("cross"), default_rule("divisor")), ("misere", "published", "standard"));
        assert_eq!(size_groups("polygon", 0, 2, 0).unwrap(), vec![("sizes".into(), vec![(1, 0), (1, 1), (1, 2)])]);
        assert_eq!(size_groups("cross", 0, 2, 0).unwrap(), vec![("sizes".into(), vec![(1, 1), (1, 2)])]);
    }

    #[test]
    fn bad_names_and_sizes() {
        assert!(verifier("chess", "standard").is_err());
        assert!(verifier("nim", "misere").is_err());
        assert!(size_groups("divisor", 0, 999, 0).is_err());
        assert_eq!(size_groups("divisor", 0, 100, 0).unwrap(), vec![("sizes".into(), vec![(1, 0), (1, 1), (1, 2)])]);
        let groups = size_groups("pimber", 2, 2, 4).unwrap();
        let sizes: Vec<(u32, u32)> = groups.into_iter().flat_map(|(_, s)| s).collect();
        assert_eq!(sizes, vec![(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (1, 4)]);
    }

    #[test]
    fn sequences_of_heap_games() {
        let seq = verifier("polygon", "standard").unwrap().sequence(6);
        assert_eq!(seq.iter().map(|r| r.grundy).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 0, 3]);
        assert!(verifier("nim-count", "standard").unwrap().sequence(6).is_empty());
    }
}
