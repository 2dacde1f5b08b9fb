//! The move graph of a game program's positions, explored on demand in batches, and every position's exact value by brute force.
//!
//! Each position is asked `moves` once; the answers are kept as ids. The exact value is the mex
//! of the moves' values (normal play) or the outcome by minimax (1 = the player to move wins),
//! computed in post-order with an explicit stack; a move back onto the stack is a cycle, and
//! the cycle is the error. Nothing here asks `claim` or `components`.

use super::protocol::{self, Verb};
use super::Ask;
use crate::error::{Error, Result};
use crate::impartial::{mex, Convention};
use crate::output::text::{counted, format_bytes, shorten};
use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A value not computed yet.
const UNKNOWN: u32 = u32::MAX;
/// Every position with a smaller id is asked `moves` a second time, to catch a program that
/// answers differently (a small game is sampled whole)…
const RECHECK_ALL: u32 = 256;
/// …and past them, one position in this many.
const RECHECK_EVERY: u32 = 97;
/// Most positions asked in one batch when exploring against a deadline (each answer is
/// awaited until the deadline at most).
pub const DEADLINE_BATCH: usize = 1024;

/// How large an exploration may grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphLimits {
    /// Positions kept in all.
    pub max_positions: usize,
    /// Moves from one position.
    pub max_moves: usize,
    /// Bytes the positions kept may take: their tokens, their entries and their moves.
    pub max_bytes: u64,
    /// The option that makes the run smaller, named in the limits' messages ([`super::limits::advice`]).
    pub smaller: Option<&'static str>,
}

impl Default for GraphLimits {
    fn default() -> Self {
        GraphLimits { max_positions: 20_000_000, max_moves: 1_000_000, max_bytes: u64::MAX, smaller: super::limits::SMALLER }
    }
}

/// Bytes one kept position is counted besides its token against half the memory budget: its
/// entries in the token set, the move and value lists (about 70), and as much again for the
/// requests and answers about it held while it is judged, which the other half does not
/// cover when there are millions (a run's peak is about 250 bytes a position: [`super::limits::kept_bytes`]).
const POSITION_BYTES: u64 = 128;

/// Every position seen so far, its moves once asked, and its value once computed.
pub struct Explorer {
    ask: Arc<dyn Ask>,
    convention: Convention,
    limits: GraphLimits,
    tokens: IndexSet<Box<str>, FxBuildHasher>,
    moves: Vec<Option<Box<[u32]>>>,
    values: Vec<u32>,
    /// Bytes the kept positions take (counted against [`GraphLimits::max_bytes`]).
    bytes: u64,
    /// When [`Explorer::values`] stops exploring, and the budget it is (for the error).
    deadline: Option<(Instant, String)>,
    /// Set when the exploration is no longer wanted ([`Explorer::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// Which positions are on the stack of [`Explorer::solve`]; all false between calls, kept
    /// so that solving each of many roots does not clear a vector of every position again.
    on_stack: Vec<bool>,
}

impl Explorer {
    pub fn new(ask: Arc<dyn Ask>, convention: Convention, limits: GraphLimits) -> Self {
        Explorer { ask, convention, limits, tokens: IndexSet::default(), moves: Vec::new(), values: Vec::new(), bytes: 0, deadline: None, stop: None, on_stack: Vec::new() }
    }

    /// The program asked.
    pub fn program(&self) -> &Arc<dyn Ask> {
        &self.ask
    }

    /// How large it may grow.
    pub fn limits(&self) -> GraphLimits {
        self.limits
    }

    /// Normal play (values are Grundy values) or misère (values are outcomes).
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// Number of positions seen.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The token of position `id`.
    pub fn token(&self, id: u32) -> &str {
        &self.tokens[id as usize]
    }

    /// The moves of position `id`, once asked (ids, in the program's order).
    pub fn moves(&self, id: u32) -> Option<&[u32]> {
        self.moves[id as usize].as_deref()
    }

    /// The exact value of position `id`, once computed by [`Explorer::values`].
    pub fn value(&self, id: u32) -> Option<u32> {
        Some(self.values[id as usize]).filter(|&v| v != UNKNOWN)
    }

    /// The id of `token`, new positions added (`context` names the request it came from).
    pub fn intern(&mut self, token: &str, context: &str) -> Result<u32> {
        if let Some(id) = self.tokens.get_index_of(token) {
            return Ok(id as u32);
        }
        protocol::check_token(token).map_err(|why| self.bad_answer(context, why))?;
        if self.tokens.len() >= self.limits.max_positions {
            return Err(self.too_many(context));
        }
        self.count_bytes(token.len() as u64 + POSITION_BYTES, context)?;
        self.tokens.insert(token.into());
        self.moves.push(None);
        self.values.push(UNKNOWN);
        Ok(self.tokens.len() as u32 - 1)
    }

    /// The ids of the positions listed in one answer line.
    pub fn intern_all(&mut self, answer: &str, context: &str) -> Result<Vec<u32>> {
        let tokens = protocol::tokens(answer).map_err(|why| self.bad_answer(context, why))?;
        tokens.into_iter().map(|t| self.intern(t, context)).collect()
    }

    /// From now on [`Explorer::values`] explores until `deadline` only (`None`: no limit);
    /// `budget` names it for the error, e.g. `--budget 5 s`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>, budget: &str) {
        self.deadline = deadline.map(|d| (d, budget.to_string()));
    }

    /// From now on exploring also stops, as at a deadline, once `stop` is set (`None`: never).
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// True when the flag of [`Explorer::set_stop`] is set.
    pub fn stop_asked(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The exact values of `roots`: their move graphs explored, then solved. An error once the
    /// deadline ([`Explorer::set_deadline`]) passes while exploring: drop the explorer then.
    pub fn values(&mut self, roots: &[u32]) -> Result<Vec<u32>> {
        if !self.explore_until(roots, self.deadline.as_ref().map(|(d, _)| *d))? {
            return Err(self.out_of_time());
        }
        for &root in roots {
            if self.values[root as usize] == UNKNOWN {
                self.solve(root)?;
            }
        }
        Ok(roots.iter().map(|&r| self.values[r as usize]).collect())
    }

    /// Asks `moves` of every position reachable from `roots` not asked before, a frontier at a time.
    pub fn explore(&mut self, roots: &[u32]) -> Result<()> {
        self.explore_until(roots, None).map(drop)
    }

    /// [`Explorer::explore`], stopped once `deadline` passes: it is checked between batches of
    /// at most [`DEADLINE_BATCH`] positions and by every wait for an answer ([`Ask::ask_until`]);
    /// the stop flag ([`Explorer::set_stop`]) is checked between batches.
    /// False when it stopped with positions left to ask: the positions asked then lead to some
    /// never asked, which no later call explores (it starts from the positions not asked yet),
    /// so drop this explorer; and a program stopped while it answered answers nothing more, so
    /// start a fresh one.
    pub fn explore_until(&mut self, roots: &[u32], deadline: Option<Instant>) -> Result<bool> {
        let batch = if deadline.is_none() && self.stop.is_none() { usize::MAX } else { DEADLINE_BATCH };
        let mut frontier = roots.to_vec();
        while !frontier.is_empty() {
            // The positions the batches of this frontier reach, the next frontier (one reached
            // from two batches is asked once: expand_by passes over those asked).
            let mut next = Vec::new();
            for now in frontier.chunks(batch) {
                if self.stop_asked() || deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                    return Ok(false);
                }
                let Some(reached) = self.expand_by(now, deadline)? else { return Ok(false) };
                next.extend(reached);
            }
            frontier = next;
        }
        Ok(true)
    }

    /// Asks `moves` of each of `ids` not asked before (one batch); the positions they reach
    /// that were not asked either, sorted.
    pub fn expand(&mut self, ids: &[u32]) -> Result<Vec<u32>> {
        self.expand_by(ids, None).map(Option::unwrap_or_default)
    }

    /// [`Explorer::expand`], `None` when `deadline` passed while the program answered.
    fn expand_by(&mut self, ids: &[u32], deadline: Option<Instant>) -> Result<Option<Vec<u32>>> {
        let mut frontier: Vec<u32> = ids.iter().copied().filter(|&r| self.moves[r as usize].is_none()).collect();
        frontier.sort_unstable();
        frontier.dedup();
        let args: Vec<&str> = frontier.iter().map(|&id| self.token(id)).collect();
        let Some(answers) = self.ask_moves(&args, deadline)? else { return Ok(None) };
        let mut next = Vec::new();
        for (&id, answer) in frontier.iter().zip(&answers) {
            let context = protocol::request(Verb::Moves, self.token(id));
            let children = self.intern_all(answer, &context)?;
            if children.len() > self.limits.max_moves {
                return Err(self.bad_answer(&context, format!("{} moves from one position (at most {}: --max-moves)", children.len(), self.limits.max_moves)));
            }
            self.count_bytes(4 * children.len() as u64, &context)?;
            next.extend(children.iter().copied().filter(|&c| self.moves[c as usize].is_none()));
            self.moves[id as usize] = Some(children.into_boxed_slice());
        }
        let sample: Vec<u32> = frontier.iter().copied().filter(|&id| id < RECHECK_ALL || id % RECHECK_EVERY == 0).collect();
        if !self.recheck_by(&sample, deadline)? {
            return Ok(None);
        }
        next.sort_unstable();
        next.dedup();
        Ok(Some(next))
    }

    /// The answers to `moves` of every `args`; `None` when `deadline` passed while the program
    /// answered (whatever error that gave: the program was stopped then).
    fn ask_moves(&self, args: &[&str], deadline: Option<Instant>) -> Result<Option<Vec<String>>> {
        if args.is_empty() {
            return Ok(Some(Vec::new()));
        }
        match self.ask.ask_until(Verb::Moves, args, deadline) {
            Err(_) if deadline.is_some_and(|d| Instant::now() >= d) => Ok(None),
            answered => answered.map(Some),
        }
    }

    /// Asks `moves` again of `sample` (positions asked before) and compares the answers as
    /// sets: an error naming the first that differs (a non-deterministic program).
    pub fn recheck(&mut self, sample: &[u32]) -> Result<()> {
        self.recheck_by(sample, None).map(drop)
    }

    /// [`Explorer::recheck`], false when `deadline` passed while the program answered.
    fn recheck_by(&mut self, sample: &[u32], deadline: Option<Instant>) -> Result<bool> {
        let args: Vec<&str> = sample.iter().map(|&id| self.token(id)).collect();
        let Some(answers) = self.ask_moves(&args, deadline)? else { return Ok(false) };
        for (&id, answer) in sample.iter().zip(&answers) {
            let mut again: Vec<&str> = answer.split_ascii_whitespace().collect();
            let mut first: Vec<&str> = self.moves[id as usize].iter().flatten().map(|&c| self.token(c)).collect();
            again.sort_unstable();
            again.dedup();
            first.sort_unstable();
            first.dedup();
            if again != first {
                return Err(self.changed(Verb::Moves, id, &first.join(" "), &again.join(" ")));
            }
        }
        Ok(true)
    }

    /// Computes the value of every unsolved position below `root` (already explored).
    fn solve(&mut self, root: u32) -> Result<()> {
        let mut on_stack = std::mem::take(&mut self.on_stack);
        on_stack.resize(self.tokens.len(), false);
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        let solved = self.solve_with(&mut stack, &mut on_stack);
        // A cycle leaves its stack marked: cleared, so that every mark is false again.
        for &(id, _) in &stack {
            on_stack[id as usize] = false;
        }
        self.on_stack = on_stack;
        solved
    }

    /// [`Explorer::solve`] of the position on `stack`, marking in `on_stack` those on it.
    fn solve_with(&mut self, stack: &mut Vec<(u32, usize)>, on_stack: &mut [bool]) -> Result<()> {
        on_stack[stack[0].0 as usize] = true;
        while let Some(&mut (id, ref mut next)) = stack.last_mut() {
            let children = self.moves[id as usize].as_deref().expect("explored");
            if let Some(&child) = children.get(*next) {
                *next += 1;
                if self.values[child as usize] != UNKNOWN {
                    continue;
                }
                if on_stack[child as usize] {
                    return Err(self.cycle(stack, child, "moves"));
                }
                on_stack[child as usize] = true;
                stack.push((child, 0));
                continue;
            }
            let values = children.iter().map(|&c| self.values[c as usize]);
            self.values[id as usize] = match self.convention {
                Convention::Normal => mex(values),
                Convention::Misere => u32::from(children.is_empty() || values.into_iter().any(|v| v == 0)),
            };
            on_stack[id as usize] = false;
            stack.pop();
        }
        Ok(())
    }

    /// The error for a cycle: the stack from `back_to` up, then `back_to` again; `through`
    /// names the answers that link it (`moves`, `components`, `moves and components`).
    pub(super) fn cycle(&self, stack: &[(u32, usize)], back_to: u32, through: &str) -> Error {
        let start = stack.iter().position(|&(id, _)| id == back_to).unwrap_or(0);
        let path: Vec<String> = stack[start..].iter().map(|&(id, _)| self.token(id)).chain([self.token(back_to)]).map(shorten).collect();
        let shown = if path.len() > 12 { [&path[..6], &["…".to_string()], &path[path.len() - 5..]].concat() } else { path.clone() };
        let why = match through {
            "moves" => "a loopy game; the brute force needs every play to end",
            _ => "`components` must split a position into parts that never lead back to it",
        };
        Error::Usage(format!("game program: the {through} form a cycle of {}: {} ({why})", counted(path.len() as u64 - 1, "position"), shown.join(" -> ")))
    }

    /// The error for a program that answered `verb` about position `id` first `first`, then `again`.
    pub fn changed(&self, verb: Verb, id: u32, first: &str, again: &str) -> Error {
        let why = format!("answered differently when asked twice (non-deterministic): first {first:?}, then {again:?}");
        self.bad_answer(&protocol::request(verb, self.token(id)), why)
    }

    /// The error for an answer that breaks the protocol.
    pub fn bad_answer(&self, request: &str, why: String) -> Error {
        Error::Usage(format!("game program: request `{}`: {why}", shorten(request)))
    }

    /// The error for an exploration stopped by the deadline.
    fn out_of_time(&self) -> Error {
        let budget = self.deadline.as_ref().map_or("", |(_, b)| b.as_str());
        Error::Usage(format!(
            "game program: exploring the game used the whole {budget} ({} positions seen, every position reachable from the ones judged must be asked its moves); lower --max, or give a larger budget",
            self.len()
        ))
    }

    fn too_many(&self, context: &str) -> Error {
        let bytes = super::limits::kept_bytes(self.limits.max_positions);
        Error::Usage(format!(
            "game program: more than {} reachable (reached while answering `{}`); keeping them takes about {} and more per size: {}",
            counted(self.limits.max_positions as u64, "position"),
            shorten(context),
            format_bytes(bytes),
            super::limits::advice(self.limits.smaller, "raise --max-positions if they fit")
        ))
    }

    /// Counts `bytes` more kept; refused past [`GraphLimits::max_bytes`], before they are allocated.
    fn count_bytes(&mut self, bytes: u64, context: &str) -> Result<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes <= self.limits.max_bytes {
            return Ok(());
        }
        let tokens: u64 = self.tokens.iter().map(|t| t.len() as u64).sum();
        Err(Error::Usage(format!(
            "game program: the positions explored take more than {} of memory ({} positions, {} of position tokens; reached while answering `{}`), half the memory budget (--memory-limit BYTES, by default the memory available); {}",
            format_bytes(self.limits.max_bytes),
            self.tokens.len(),
            format_bytes(tokens),
            shorten(context),
            super::limits::advice(self.limits.smaller, "raise --memory-limit if the machine has the room")
        )))
    }
}

#[cfg(test)]
mod tests;
