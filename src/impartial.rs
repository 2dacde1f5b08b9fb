//! Impartial games in general and their brute force: mex and minimax over whole-position moves, memoized.

use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

thread_local! {
    /// This thread's stop flag, while [`stoppable`] work runs.
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
    /// Whether [`stopped`] has answered true during that work.
    static SEEN: Cell<bool> = const { Cell::new(false) };
}

/// How many [`stoppable`] works run now, on all threads: while none does (verify, census,
/// every command but `serve`), [`stopped`] is this one load and reads no thread-local.
static STOPPABLE: AtomicUsize = AtomicUsize::new(0);

/// Runs `work` on this thread with `stop` as its stop flag: once the flag is set, the searches
/// below (and any solver that asks [`stopped`]) give up at their next step, returning values
/// that mean nothing (never memoized). Returns what `work` returned and whether it was stopped
/// so (a step saw the flag set), when that is to be discarded; work that ended before any step
/// saw the flag returned its true result.
pub fn stoppable<T>(stop: Arc<AtomicBool>, work: impl FnOnce() -> T) -> (T, bool) {
    /// Puts back the flag that was there before, also when `work` panics.
    struct Restore(Option<Arc<AtomicBool>>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            STOP.with(|flag| *flag.borrow_mut() = self.0.take());
            SEEN.with(|seen| seen.set(self.1));
            STOPPABLE.fetch_sub(1, Ordering::Relaxed);
        }
    }
    STOPPABLE.fetch_add(1, Ordering::Relaxed);
    let _restore = Restore(STOP.with(|flag| flag.replace(Some(stop))), SEEN.with(|seen| seen.replace(false)));
    let result = work();
    (result, SEEN.with(Cell::get))
}

/// Whether this thread's stop flag ([`stoppable`]) is set; false outside stoppable work. Asked
/// at every step of the brute force, so outside `serve` it is one relaxed load: this thread's
/// own [`stoppable`] counted itself before its work began, and no other thread's sets this one's.
#[inline]
pub fn stopped() -> bool {
    STOPPABLE.load(Ordering::Relaxed) != 0 && stopped_here()
}

/// [`stopped`] once some work is stoppable: this thread's flag.
#[cold]
#[inline(never)]
fn stopped_here() -> bool {
    let stop = STOP.with(|flag| flag.borrow().as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed)));
    if stop {
        SEEN.with(|seen| seen.set(true));
    }
    stop
}

/// Who wins when the player to move has no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convention {
    /// No move ⇒ the player to move loses.
    Normal,
    /// No move ⇒ the player to move wins (the last mover lost).
    Misere,
}

/// An impartial game given by its move rule alone. The brute force below knows nothing else.
pub trait Impartial {
    /// A whole position, compared and hashed exactly.
    type Position: Clone + Eq + Hash;
    /// Every position reachable in one move (duplicates allowed).
    fn moves(&self, position: &Self::Position) -> Vec<Self::Position>;
    /// The play convention; normal play unless overridden.
    fn convention(&self) -> Convention {
        Convention::Normal
    }
}

/// Smallest value not set in `seen` (bit i ⇔ value i present); values ≥ 64 are not expected.
pub fn mex_bits(seen: u64) -> u32 {
    (!seen).trailing_zeros()
}

/// Smallest natural number not in `values` (a bit set below 64, a list only above).
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let (mut low, mut high) = (0u64, Vec::new());
    for v in values {
        if v < 64 {
            low |= 1 << v;
        } else {
            high.push(v);
        }
    }
    let mut value = mex_bits(low);
    high.sort_unstable();
    for v in high {
        if v == value {
            value += 1;
        }
    }
    value
}

/// The preperiod that period `p` leaves in `values`: one past the last n with
/// values[n] != values[n + p] (0 when there is none).
pub fn preperiod<T: PartialEq>(values: &[T], p: usize) -> usize {
    (0..values.len().saturating_sub(p)).rev().find(|&n| values[n] != values[n + p]).map_or(0, |n| n + 1)
}

/// A period seen on a finite sequence: g(n + period) = g(n) for every n ≥ preperiod in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub preperiod: usize,
    pub period: usize,
}

/// The simplest period, at most `max_period`, that a finite sequence shows: of the
/// (preperiod, period) with g(n + period) = g(n) for every n ≥ preperiod and two whole periods
/// or more in g(preperiod..), the one with the smallest preperiod + period (ties: the smaller
/// period); `None` if there is none. Observed only: the sequence may change after its end.
pub fn observed_period<T: PartialEq>(values: &[T], max_period: usize) -> Option<Period> {
    let mut best: Option<Period> = None;
    for period in 1..=max_period.min(values.len() / 2) {
        // Every later candidate has preperiod + period ≥ period.
        if best.is_some_and(|b| b.preperiod + b.period <= period) {
            break;
        }
        let preperiod = preperiod(values, period);
        let shown = values.len() - preperiod >= 2 * period;
        if shown && best.is_none_or(|b| preperiod + period < b.preperiod + b.period) {
            best = Some(Period { preperiod, period });
        }
    }
    best
}

/// Values already known, looked up and stored by the brute force ([`evaluate`]).
pub trait Memo<P, V> {
    fn known(&self, position: &P) -> Option<V>;
    fn store(&mut self, position: P, value: V);
}

impl<P: Eq + Hash, V: Copy> Memo<P, V> for FxHashMap<P, V> {
    fn known(&self, position: &P) -> Option<V> {
        self.get(position).copied()
    }
    fn store(&mut self, position: P, value: V) {
        self.insert(position, value);
    }
}

/// Memoized brute force on whole positions: Grundy values by mex (normal play) and outcomes by
/// minimax (any convention). Iterative, so deep games do not overflow the stack.
pub struct BruteForce<'g, G: Impartial> {
    game: &'g G,
    grundy: FxHashMap<G::Position, u32>,
    wins: FxHashMap<G::Position, bool>,
}

impl<'g, G: Impartial> BruteForce<'g, G> {
    pub fn new(game: &'g G) -> Self {
        BruteForce { game, grundy: FxHashMap::default(), wins: FxHashMap::default() }
    }

    /// The game searched.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Grundy value of `position` under normal play: mex of the values of its moves.
    pub fn grundy(&mut self, position: &G::Position) -> u32 {
        let game = self.game;
        grundy_with(position, &mut self.grundy, |p| game.moves(p))
    }

    /// True when the player to move wins `position` (minimax under the game's convention).
    pub fn first_player_wins(&mut self, position: &G::Position) -> bool {
        let game = self.game;
        let misere = game.convention() == Convention::Misere;
        let memo = &mut self.wins;
        evaluate(position, memo, |p| game.moves(p), |children: &[bool], none| {
            if none {
                misere
            } else {
                children.iter().any(|&w| !w)
            }
        })
    }

    /// Number of moves from `position` after which the player to move loses (winning moves).
    pub fn winning_move_count(&mut self, position: &G::Position) -> u64 {
        let moves = self.game.moves(position);
        moves.iter().filter(|q| !self.first_player_wins(q)).count() as u64
    }
}

/// Grundy value of `root` under normal play from the move rule alone, values kept in `memo`.
pub fn grundy_with<P: Clone>(root: &P, memo: &mut impl Memo<P, u32>, moves: impl Fn(&P) -> Vec<P>) -> u32 {
    evaluate(root, memo, moves, |children: &[u32], _| mex(children.iter().copied()))
}

/// Post-order evaluation with an explicit stack, knowing only the move rule: a position is
/// combined once all its moves are known. `combine(values, no_moves)` turns the moves' values
/// into the position's value.
pub fn evaluate<P: Clone, V: Copy>(
    root: &P,
    memo: &mut impl Memo<P, V>,
    moves: impl Fn(&P) -> Vec<P>,
    combine: impl Fn(&[V], bool) -> V,
) -> V {
    if let Some(v) = memo.known(root) {
        return v;
    }
    let children = moves(root);
    let mut values: Vec<V> = Vec::with_capacity(children.len());
    if children.iter().all(|c| memo.known(c).map(|v| values.push(v)).is_some()) {
        let value = combine(&values, children.is_empty());
        memo.store(root.clone(), value);
        return value;
    }
    // Each frame: a position and its moves (expanded once).
    let mut stack: Vec<(P, Vec<P>)> = vec![(root.clone(), children)];
    let mut value = None;
    while let Some((position, children)) = stack.last() {
        if stopped() {
            return combine(&[], true);
        }
        values.clear();
        let unknown = children.iter().find(|c| memo.known(c).map(|v| values.push(v)).is_none());
        if let Some(next) = unknown {
            let next = next.clone();
            let grandchildren = moves(&next);
            stack.push((next, grandchildren));
            continue;
        }
        let combined = combine(&values, children.is_empty());
        memo.store(position.clone(), combined);
        value = Some(combined);
        stack.pop();
    }
    value.unwrap_or_else(|| unreachable!("the root is combined last"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_search_gives_up_and_keeps_nothing() {
        let stop = Arc::new(AtomicBool::new(true));
        let game = TakeOneOrTwo(Convention::Normal);
        let mut brute = BruteForce::new(&game);
        assert!(stoppable(stop.clone(), || brute.grundy(&1000)).1, "stopped");
        assert!(brute.grundy.len() <= 1, "a stopped search memoized {} positions", brute.grundy.len());
        assert!(!stopped(), "the flag is this thread's only while the work runs");
        assert_eq!(stoppable(stop.clone(), || brute.grundy(&0)), (0, false), "no step: its true result");
        stop.store(false, Ordering::Relaxed);
        assert_eq!(stoppable(stop, || brute.grundy(&1000)), (1, false), "1000 mod 3");
    }

    /// Work that panics leaves the thread as it found it: no stop flag, [`stopped`] false.
    #[test]
    fn a_panicking_work_puts_the_flag_back() {
        let stop = Arc::new(AtomicBool::new(true));
        let panicked = std::panic::catch_unwind(|| stoppable(stop, || panic!("the work fails")));
        assert!(panicked.is_err());
        assert!(!stopped(), "the flag of work that panicked is no longer this thread's");
        assert_eq!(stoppable(Arc::new(AtomicBool::new(false)), stopped), (false, false));
    }

    #[test]
    fn the_observed_period_is_the_simplest_explanation() {
        // Subtraction {2, 3}: 0 0 1 1 2, period 5 from 0. Its last two values are equal at
        // some lengths, which period 1 after a long preperiod also explains.
        let sub23: Vec<u32> = (0..=40).map(|n| [0, 0, 1, 1, 2][n % 5]).collect();
        for max in 10..=30 {
            assert_eq!(observed_period(&sub23[..=max], usize::MAX), Some(Period { preperiod: 0, period: 5 }), "max {max}");
        }
        let short = observed_period(&sub23[..9], usize::MAX);
        assert_eq!(short, Some(Period { preperiod: 7, period: 1 }), "period 5 seen less than twice: only the last two values repeat");
        // A long preperiod is kept when nothing simpler explains the data.
        assert_eq!(observed_period(&[5, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1], usize::MAX), Some(Period { preperiod: 6, period: 1 }));
        assert_eq!(observed_period(&[2, 2], usize::MAX), Some(Period { preperiod: 0, period: 1 }));
        assert_eq!(observed_period(&sub23[..20], 4), None, "periods above the bound are not looked for");
        assert_eq!(observed_period::<u8>(&[], usize::MAX), None);
    }

    #[test]
    fn preperiod_is_one_past_the_last_break() {
        assert_eq!(preperiod(&[5, 0, 1, 0, 1, 0], 2), 1);
        assert_eq!(preperiod(&[0, 1, 0, 1], 2), 0);
        assert_eq!(preperiod(&[1, 2, 3], 5), 0);
        assert_eq!(preperiod::<u8>(&[], 1), 0);
    }

    /// One heap; a move removes 1 or 2 stones (Grundy n mod 3).
    struct TakeOneOrTwo(Convention);
    impl Impartial for TakeOneOrTwo {
        type Position = u32;
        fn moves(&self, &n: &u32) -> Vec<u32> {
            [1, 2].iter().filter(|&&k| k <= n).map(|k| n - k).collect()
        }
        fn convention(&self) -> Convention {
            self.0
        }
    }

    #[test]
    fn mex_values() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex_bits(0b1011), 2);
        assert_eq!(mex((0..64).chain([65, 64, 67])), 66);
        assert_eq!(mex([64, 65]), 0);
    }

    #[test]
    fn subtraction_game_values_and_outcomes() {
        let game = TakeOneOrTwo(Convention::Normal);
        let mut bf = BruteForce::new(&game);
        for n in 0..30 {
            assert_eq!(bf.grundy(&n), n % 3);
            assert_eq!(bf.first_player_wins(&n), n % 3 != 0);
        }
        assert_eq!(bf.winning_move_count(&4), 1);
        // Deep chains run without recursion.
        assert_eq!(bf.grundy(&200_000), 200_000 % 3);
    }

    #[test]
    fn misere_outcomes() {
        // Misère take-1-or-2: the player to move loses iff n ≡ 1 (mod 3).
        let game = TakeOneOrTwo(Convention::Misere);
        let mut bf = BruteForce::new(&game);
        for n in 0..30 {
            assert_eq!(bf.first_player_wins(&n), n % 3 != 1, "n = {n}");
        }
    }
}
