//! What a game program claims of positions (`claim`, `components`) against their exact values from the move graph, and a failing position shrunk with `smaller`.
//!
//! The exact values come from the [`Explorer`] (moves only); `claim` and `components` are asked
//! here, in batches, and only of the positions being judged.

use super::protocol::{self, Verb};
use super::Explorer;
use crate::error::Result;
use crate::impartial::Convention;
use crate::custom::Verdict;

/// Most steps a shrink takes (each goes to a strictly smaller position, so it ends anyway).
const MAX_SHRINK_STEPS: usize = 10_000;
/// Positions asked `moves` again before a failure is reported, beyond the failing position and
/// its moves (always all asked): one batch, cheap next to the exploration.
const CONFIRMED_POSITIONS: usize = 256;

/// The verdicts on positions `ids` (already interned): exact values by brute force, then the
/// program's `claim` and, under normal play, its `components` (each part's exact value).
pub fn judge(explorer: &mut Explorer, ids: &[u32]) -> Result<Vec<Verdict>> {
    let exact = explorer.values(ids)?;
    let claims = claims(explorer, ids)?;
    let splits = splits(explorer, ids)?;
    Ok((0..ids.len()).map(|i| Verdict { exact: exact[i], claim: claims[i], split: splits[i] }).collect())
}

/// The program's answers to `verb` about every position of `ids` (none asked when it is empty).
fn ask(explorer: &Explorer, verb: Verb, ids: &[u32]) -> Result<Vec<String>> {
    let args: Vec<&str> = ids.iter().map(|&id| explorer.token(id)).collect();
    if args.is_empty() { Ok(Vec::new()) } else { explorer.program().ask(verb, &args) }
}

/// The claim of each position of `ids` (`None`: no claim, or the program makes none).
fn claims(explorer: &Explorer, ids: &[u32]) -> Result<Vec<Option<u32>>> {
    if !explorer.program().verbs().has(Verb::Claim) {
        return Ok(vec![None; ids.len()]);
    }
    let answers = ask(explorer, Verb::Claim, ids)?;
    let read = |(&id, answer): (&u32, &String)| {
        protocol::number(answer, true).map_err(|why| explorer.bad_answer(&protocol::request(Verb::Claim, explorer.token(id)), why))
    };
    ids.iter().zip(&answers).map(read).collect()
}

/// The number of components of each position of `ids` and the XOR of their exact values
/// (`None`: it does not split, the program gives no components, or the convention is misère).
fn splits(explorer: &mut Explorer, ids: &[u32]) -> Result<Vec<Option<(u32, u32)>>> {
    if !explorer.program().verbs().has(Verb::Components) || explorer.convention() == Convention::Misere {
        return Ok(vec![None; ids.len()]);
    }
    let answers = ask(explorer, Verb::Components, ids)?;
    let mut parts: Vec<Option<Vec<u32>>> = Vec::with_capacity(ids.len());
    for (&id, answer) in ids.iter().zip(&answers) {
        let request = protocol::request(Verb::Components, explorer.token(id));
        let listed = protocol::components(answer).map_err(|why| explorer.bad_answer(&request, why))?;
        parts.push(listed.map(|list| list.into_iter().map(|part| explorer.intern(part, &request)).collect()).transpose()?);
    }
    let all: Vec<u32> = parts.iter().flatten().flatten().copied().collect();
    let values = explorer.values(&all)?;
    let mut next = values.into_iter();
    Ok(parts.iter().map(|p| p.as_ref().map(|ids| (ids.len() as u32, next.by_ref().take(ids.len()).fold(0, |x, v| x ^ v)))).collect())
}

/// Asks again about the failing position `id` before it is reported with `verdict`: the moves
/// its exact value rests on ([`confirm_moves`]), its `claim` and `components`; an error when an
/// answer differs (a non-deterministic program, not a counterexample).
pub fn confirm(explorer: &mut Explorer, id: u32, verdict: Verdict) -> Result<()> {
    confirm_moves(explorer, id)?;
    let claim = claims(explorer, &[id])?.remove(0);
    if claim != verdict.claim {
        let show = |c: Option<u32>| c.map_or("no claim".to_string(), |c| c.to_string());
        return Err(explorer.changed(Verb::Claim, id, &show(verdict.claim), &show(claim)));
    }
    let split = splits(explorer, &[id])?.remove(0);
    if split != verdict.split {
        let show = |s: Option<(u32, u32)>| s.map_or("no split".to_string(), |(parts, xor)| format!("{parts} components XOR {xor}"));
        return Err(explorer.changed(Verb::Components, id, &show(verdict.split), &show(split)));
    }
    Ok(())
}

/// Asks `moves` again of `id`, of every one of its moves, then of the positions below them
/// breadth first up to [`CONFIRMED_POSITIONS`] in all (those asked before only): an error
/// naming the request and both answers when one differs. The exact value of `id` rests on
/// these answers, so a failure is blamed on the program judged only once they hold.
pub fn confirm_moves(explorer: &mut Explorer, id: u32) -> Result<()> {
    explorer.recheck(&below(explorer, id))
}

/// `id`, its moves, then positions further below, breadth first: every move of `id` (however
/// many), deeper ones while fewer than [`CONFIRMED_POSITIONS`] are queued; only positions whose
/// moves were asked, each once.
fn below(explorer: &Explorer, id: u32) -> Vec<u32> {
    let children = explorer.moves(id).unwrap_or_default();
    let mut queue: std::collections::VecDeque<u32> = std::iter::once(id).chain(children.iter().copied()).collect();
    let mut deeper = 0;
    let mut seen = rustc_hash::FxHashSet::default();
    let mut listed = Vec::new();
    while let Some(at) = queue.pop_front() {
        let Some(moves) = explorer.moves(at).filter(|_| seen.insert(at)) else { continue };
        listed.push(at);
        let room = if at == id { 0 } else { CONFIRMED_POSITIONS - deeper };
        queue.extend(moves.iter().copied().take(room));
        deeper += room.min(moves.len());
    }
    listed
}

/// The shrinking order of `ids`: the program's `size` (its token's length without it), then
/// the token (`verify custom` and `stress custom` shrink by it).
pub fn order(explorer: &Explorer, ids: &[u32]) -> Result<Vec<(u64, String)>> {
    let token = |id: u32| explorer.token(id).to_string();
    if !explorer.program().verbs().has(Verb::Size) {
        return Ok(ids.iter().map(|&id| (explorer.token(id).len() as u64, token(id))).collect());
    }
    let answers = ask(explorer, Verb::Size, ids)?;
    let read = |(&id, answer): (&u32, &String)| match protocol::number(answer, false) {
        Ok(size) => Ok((u64::from(size.unwrap_or_default()), token(id))),
        Err(why) => Err(explorer.bad_answer(&protocol::request(Verb::Size, explorer.token(id)), why)),
    };
    ids.iter().zip(&answers).map(read).collect()
}

/// From the failing position `start`, the smallest failing candidate of `smaller` that is
/// smaller in the shrinking order, again and again until none fails: a locally smallest
/// failing position and its verdict (`start` itself when the program has no `smaller`).
pub fn shrink(explorer: &mut Explorer, start: u32, verdict: Verdict) -> Result<(u32, Verdict)> {
    let mut current = (start, verdict);
    if !explorer.program().verbs().has(Verb::Smaller) {
        return Ok(current);
    }
    let convention = explorer.convention();
    let mut rank = order(explorer, &[start])?.remove(0);
    for _ in 0..MAX_SHRINK_STEPS {
        let answer = ask(explorer, Verb::Smaller, &[current.0])?.remove(0);
        let request = protocol::request(Verb::Smaller, explorer.token(current.0));
        let mut candidates = explorer.intern_all(&answer, &request)?;
        candidates.sort_unstable();
        candidates.dedup();
        let ranks = order(explorer, &candidates)?;
        let (ids, ranks): (Vec<u32>, Vec<(u64, String)>) = candidates.into_iter().zip(ranks).filter(|(_, r)| *r < rank).unzip();
        let verdicts = judge(explorer, &ids)?;
        let failing = (0..ids.len()).filter(|&i| verdicts[i].fails(convention));
        let Some(best) = failing.min_by(|&a, &b| ranks[a].cmp(&ranks[b])) else { break };
        current = (ids[best], verdicts[best]);
        rank = ranks[best].clone();
    }
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::custom::program::fake::Fake;
    use crate::custom::program::GraphLimits;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Take-one-or-two on one heap with the claim n mod 3; once `changed` is set, `verb` of
    /// position 3 answers otherwise.
    fn changing(verb: Verb) -> (Arc<AtomicBool>, Explorer, u32) {
        let changed = Arc::new(AtomicBool::new(false));
        let flag = changed.clone();
        let game = Arc::new(Fake::new("positions moves claim components", move |asked, arg: &str| {
            let n: u32 = arg.parse().ok()?;
            let odd = flag.load(Ordering::Relaxed) && asked == verb && n == 3;
            Some(match asked {
                Verb::Moves if odd => "2".into(),
                Verb::Moves => [1, 2].iter().filter(|&&k| k <= n).map(|k| (n - k).to_string()).collect::<Vec<_>>().join(" "),
                Verb::Claim => (n % 3 + u32::from(odd)).to_string(),
                Verb::Components if odd => "1 2".into(),
                _ => "-".into(),
            })
        }));
        let mut explorer = Explorer::new(game, Convention::Normal, GraphLimits::default());
        let id = explorer.intern("3", "test").unwrap();
        (changed, explorer, id)
    }

    #[test]
    fn a_confirmed_position_answers_the_same() {
        let (_, mut explorer, id) = changing(Verb::Moves);
        let verdict = judge(&mut explorer, &[id]).unwrap()[0];
        confirm(&mut explorer, id, verdict).unwrap();
    }

    #[test]
    fn a_changed_answer_about_a_failing_position_is_non_deterministic() {
        for (verb, request) in [(Verb::Moves, "`moves 3`"), (Verb::Claim, "`claim 3`"), (Verb::Components, "`components 3`")] {
            let (changed, mut explorer, id) = changing(verb);
            let verdict = judge(&mut explorer, &[id]).unwrap()[0];
            changed.store(true, Ordering::Relaxed);
            let err = confirm(&mut explorer, id, verdict).unwrap_err().to_string();
            assert!(err.contains(request) && err.contains("non-deterministic"), "{verb}: {err}");
        }
    }

    #[test]
    fn moves_below_the_failing_positions_moves_are_asked_again() {
        // 6 moves to 5 and 4, which move to 3: its changed moves change the value of 6.
        let (changed, mut explorer, _) = changing(Verb::Moves);
        let six = explorer.intern("6", "test").unwrap();
        let verdict = judge(&mut explorer, &[six]).unwrap()[0];
        assert_eq!(below(&explorer, six).iter().map(|&id| explorer.token(id)).collect::<Vec<_>>(), ["6", "5", "4", "3", "2", "1", "0"]);
        changed.store(true, Ordering::Relaxed);
        let err = confirm(&mut explorer, six, verdict).unwrap_err().to_string();
        assert!(err.contains("`moves 3`") && err.contains("first \"1 2\", then \"2\""), "{err}");
    }
}
