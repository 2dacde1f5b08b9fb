//! What a game provides to be stress-tested: inputs, the trusted answer, answer checking and
//! shrink candidates ([`Contest`]), and seeded input streams ([`Generator`]).

use std::fmt;
use std::str::FromStr;

/// A game's contest problem, seen from the stress tester.
pub trait Contest: Sync {
    /// One test input (a position, or a whole test file's worth of positions).
    type Case: Clone + Send + Sync;
    /// An answer, as the trusted solver gives it and as the program's output is read.
    type Answer: Clone + Send + Sync + PartialEq + fmt::Display;

    /// Appends the contest input text of `case` to `out`.
    fn write_input(&self, case: &Self::Case, out: &mut Vec<u8>);
    /// The trusted answer (the project's verified solver, never the program under test).
    fn answer(&self, case: &Self::Case) -> Self::Answer;
    /// Reads a program's stdout; `Err` says why it is not an answer in the problem's format.
    fn parse_output(&self, case: &Self::Case, stdout: &str) -> Result<Self::Answer, String>;
    /// True when `got` is an accepted answer (equality unless the problem allows several).
    fn accepts(&self, expected: &Self::Answer, got: &Self::Answer) -> bool {
        expected == got
    }
    /// False when the trusted side declines to judge a case (`expected` says it is not a
    /// legal input): the run then counts as passing, so shrinking never keeps such a case.
    fn judges(&self, _expected: &Self::Answer) -> bool {
        true
    }
    /// The size of a case for people, e.g. `20x20, 143 X`.
    fn describe(&self, case: &Self::Case) -> String;
    /// Strictly smaller cases derived from `case`, the most promising (largest cut) first.
    /// Shrinking keeps the first that still fails the same way, so the order is the policy.
    fn shrink_candidates(&self, case: &Self::Case) -> Vec<Self::Case>;
    /// True when every shrinking step tries the candidates from the first, so that where a case
    /// shrinks to depends on the case alone (wall: where `verify wall --shrink` takes it).
    /// False (the default): a step starts where the last reduction was found, so that runs of
    /// similar reductions cost one try each.
    fn shrinks_from_the_first(&self) -> bool {
        false
    }

    /// The game's size order, for the search for the smallest failing input
    /// ([`super::smallest`]): keys compared as tuples, smaller first (wall: its shrinking
    /// order, cells, X cells, rows, then the cells). `None` (the default): no size order, so no search below a shrunk case (the
    /// exhaustive stream's order is not enough: a shrunk case need not be in it at all).
    fn size_key(&self, _case: &Self::Case) -> Option<Vec<u64>> {
        None
    }
    /// The standalone inputs the trusted answer is built from, each named for people (wall:
    /// the board's proper sub-rectangles with their Grundy values), those the case's own value
    /// combines directly first: asked in turn, the first one the program gets wrong says where
    /// its answer goes wrong. Default: none.
    fn parts(&self, _case: &Self::Case) -> Parts<Self::Case> {
        Parts::default()
    }
    /// What [`Contest::parts`] are called, plural (`sub-rectangles`).
    fn parts_name(&self) -> &'static str {
        "parts"
    }
    /// True for the contest side of `--answer move` ([`super::moves::ByMove`]).
    fn answers_moves(&self) -> bool {
        false
    }
    /// Why an answer in the format was refused, for failures.csv (default: nothing to add).
    fn why_wrong(&self, _case: &Self::Case, _expected: &Self::Answer, _got: &Self::Answer) -> String {
        String::new()
    }

    /// The trusted side's own failure, if it had one (a game program that crashed or broke its
    /// protocol): its streams and answers may have ended early because of it, so a run stops
    /// with this error before it writes anything. Taken: reported once. Default: none.
    fn take_failure(&self) -> Option<crate::error::Error> {
        None
    }

    /// From now on the trusted side's own work (a game program's exploration) stops at
    /// `deadline`, failing ([`Contest::take_failure`]) with an error naming `budget`
    /// (`--budget 5 s`). Default: nothing to bound (the answers are sprague's own).
    fn set_deadline(&self, _deadline: Option<std::time::Instant>, _budget: &str) {}

    /// Asks the trusted side again what the trusted answer of `case` rests on, before the case
    /// is reported as a failure of the program under test: an error when it now answers
    /// otherwise (a non-deterministic game program is refused, the solution not blamed) or has
    /// failed ([`Contest::take_failure`]). Default: nothing to ask (the answer is sprague's own).
    fn confirm(&self, _case: &Self::Case) -> crate::error::Result<()> {
        Ok(())
    }

    /// The contest input text of `case`.
    fn input_text(&self, case: &Self::Case) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_input(case, &mut out);
        out
    }
}

/// A case's parts ([`Contest::parts`]): the inputs with their names, the first `direct` of
/// them those the case's own answer combines directly (wall: the rectangles its moves leave,
/// the largest value first).
#[derive(Debug, Clone)]
pub struct Parts<C> {
    pub list: Vec<(C, String)>,
    pub direct: usize,
}

impl<C> Default for Parts<C> {
    fn default() -> Self {
        Parts { list: Vec::new(), direct: 0 }
    }
}

/// Where inputs come from. Every stream is deterministic given its seed, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// Every position up to the game's size limit, smallest first (the seed is unused).
    Exhaustive,
    /// Sizes and values over the whole legal range, boundaries included.
    Random,
    /// Inputs aimed at how solutions break: largest sizes, losing positions with large
    /// Grundy values inside, slow cases for memoized search.
    Adversarial,
}

impl Source {
    pub const ALL: [Source; 3] = [Source::Exhaustive, Source::Random, Source::Adversarial];

    pub fn name(self) -> &'static str {
        match self {
            Source::Exhaustive => "exhaustive",
            Source::Random => "random",
            Source::Adversarial => "adversarial",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Source {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Source::ALL.into_iter().find(|g| g.name() == s).ok_or_else(|| {
            format!("unknown generator {s:?} (expected exhaustive, random or adversarial)")
        })
    }
}

/// A stream of cases, owned by the pool's dispatcher.
pub type Cases<'a, C> = Box<dyn Iterator<Item = C> + Send + 'a>;

/// A contest whose inputs can be generated.
pub trait Generator: Contest {
    /// The cases of one source; the same seed gives the same cases in the same order.
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Self::Case>;

    /// Every input in the game's size order, smallest first, for the search for the smallest
    /// failing input below `case`: every input of a size comes before the first of a larger
    /// size (as far as the stream goes); only cases of a smaller [`Contest::size_key`] are
    /// judged. `case` is there for inputs with a fixed part the order keeps (octal: the code).
    /// Default: nothing (a game with a [`Contest::size_key`] lists its inputs here).
    fn by_size(&self, _case: &Self::Case) -> Cases<'_, Self::Case> {
        Box::new(std::iter::empty())
    }

    /// The selected sources, taken in turn one case each (the mix a run uses). Smallest
    /// inputs first: mixed with others, the adversarial source (the largest inputs) joins
    /// after the first [`ADVERSARIAL_AFTER`] cases.
    /// The adversarial stream is taken in windows of [`ADVERSARIAL_WINDOW`] cases, each in an
    /// order drawn from the seed ([`shuffled_windows`]).
    fn mixed(&self, sources: &[Source], seed: u64) -> Cases<'_, Self::Case> {
        let delay = sources.len() > 1 && sources.contains(&Source::Adversarial);
        let stream = |s: Source| if s == Source::Adversarial { shuffled_windows(self.cases(s, seed), seed) } else { self.cases(s, seed) };
        let now = sources.iter().filter(|&&s| !(delay && s == Source::Adversarial));
        let streams = now.map(|&s| stream(s)).collect();
        let late = delay.then(|| (ADVERSARIAL_AFTER, stream(Source::Adversarial)));
        Box::new(Interleave { streams, next: 0, late, produced: 0 })
    }
}

/// Cases of a mixed run before the adversarial source joins.
pub const ADVERSARIAL_AFTER: u64 = 200;

/// Cases of the adversarial stream shuffled together by the seed.
pub const ADVERSARIAL_WINDOW: usize = 16;

/// `stream` in windows of [`ADVERSARIAL_WINDOW`], each shuffled by a generator seeded with
/// `seed`: a game's adversarial stream starts with fixed extremes (the largest boards, the
/// known hard ones) that every seed must try, so they stay in the first window while the
/// order they come in, and the cases after them, depend on the seed.
pub fn shuffled_windows<'a, C: Send + 'a>(mut stream: Cases<'a, C>, seed: u64) -> Cases<'a, C> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xad5e_75a1_0f0e_de12);
    let mut window: Vec<C> = Vec::with_capacity(ADVERSARIAL_WINDOW);
    Box::new(std::iter::from_fn(move || {
        if window.is_empty() {
            window.extend(stream.by_ref().take(ADVERSARIAL_WINDOW));
            window.shuffle(&mut rng);
        }
        window.pop()
    }))
}

/// Takes one item from each stream in turn, dropping streams as they end; a late stream
/// joins (last in turn) once the others have produced its number of items.
pub struct Interleave<'a, C> {
    streams: Vec<Cases<'a, C>>,
    next: usize,
    late: Option<(u64, Cases<'a, C>)>,
    produced: u64,
}

impl<C> Iterator for Interleave<'_, C> {
    type Item = C;
    fn next(&mut self) -> Option<C> {
        if self.late.as_ref().is_some_and(|(after, _)| self.produced >= *after || self.streams.is_empty()) {
            let (_, stream) = self.late.take().expect("checked");
            self.streams.push(stream);
        }
        while !self.streams.is_empty() {
            let at = self.next % self.streams.len();
            match self.streams[at].next() {
                Some(item) => {
                    self.next = at + 1;
                    self.produced += 1;
                    return Some(item);
                }
                None => {
                    drop(self.streams.remove(at));
                    self.next = at;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_takes_turns_and_drops_ended_streams() {
        let streams: Vec<Cases<'_, u32>> =
            vec![Box::new([1, 2].into_iter()), Box::new([10, 20, 30, 40].into_iter()), Box::new([100].into_iter())];
        let all: Vec<u32> = Interleave { streams, next: 0, late: None, produced: 0 }.collect();
        assert_eq!(all, [1, 10, 100, 2, 20, 30, 40]);
        let streams: Vec<Cases<'_, u32>> = vec![Box::new([1, 2, 3].into_iter()), Box::new([10, 20].into_iter())];
        let late: Cases<'_, u32> = Box::new([100, 200, 300].into_iter());
        let all: Vec<u32> = Interleave { streams, next: 0, late: Some((3, late)), produced: 0 }.collect();
        assert_eq!(all, [1, 10, 2, 20, 100, 3, 200, 300]);
    }

    #[test]
    fn adversarial_windows_keep_their_cases_in_a_seeded_order() {
        let take = |seed| shuffled_windows(Box::new(0..40u32), seed).collect::<Vec<_>>();
        let (one, two) = (take(1), take(2));
        assert_eq!(one, take(1), "the same seed gives the same order");
        assert_ne!(one[..ADVERSARIAL_WINDOW], two[..ADVERSARIAL_WINDOW], "another seed another order");
        let mut first: Vec<u32> = one[..ADVERSARIAL_WINDOW].to_vec();
        first.sort_unstable();
        assert_eq!(first, (0..16).collect::<Vec<_>>(), "the first window holds the stream's first cases");
        assert_eq!(one.len(), 40);
    }

    #[test]
    fn source_names_round_trip() {
        for s in Source::ALL {
            assert_eq!(s.name().parse::<Source>().unwrap(), s);
        }
        assert!("nope".parse::<Source>().is_err());
    }
}
