//! [`Altered`]: a game's stress side as it is, but for the methods a test overrides.

use sprague::stress::moves::Moves;
use sprague::stress::{Cases, Contest, Generator, Parts, Source};
use sprague::{Error, Result};
use std::time::Instant;

/// Overrides, each given `inner`: its cases of a source, a case's parts, its confirmation.
type CasesOf<G> = fn(&G, Source, u64) -> Cases<'_, <G as Contest>::Case>;
type PartsOf<G> = fn(&G, &<G as Contest>::Case) -> Parts<<G as Contest>::Case>;
type ConfirmOf<G> = fn(&G, &<G as Contest>::Case) -> Result<()>;

/// `inner`'s [`Contest`], [`Generator`] and [`Moves`]: every method is `inner`'s, but those
/// whose override is set (each is given `inner`).
pub struct Altered<G: Contest> {
    pub inner: G,
    pub cases: Option<CasesOf<G>>,
    pub parts: Option<PartsOf<G>>,
    pub take_failure: Option<fn(&G) -> Option<Error>>,
    pub confirm: Option<ConfirmOf<G>>,
}

impl<G: Contest> Altered<G> {
    /// `inner` with nothing overridden.
    pub fn new(inner: G) -> Self {
        Altered { inner, cases: None, parts: None, take_failure: None, confirm: None }
    }
}

impl<G: Contest> Contest for Altered<G> {
    type Case = G::Case;
    type Answer = G::Answer;
    fn write_input(&self, case: &G::Case, out: &mut Vec<u8>) {
        self.inner.write_input(case, out)
    }
    fn answer(&self, case: &G::Case) -> G::Answer {
        self.inner.answer(case)
    }
    fn parse_output(&self, case: &G::Case, stdout: &str) -> std::result::Result<G::Answer, String> {
        self.inner.parse_output(case, stdout)
    }
    fn accepts(&self, expected: &G::Answer, got: &G::Answer) -> bool {
        self.inner.accepts(expected, got)
    }
    fn judges(&self, expected: &G::Answer) -> bool {
        self.inner.judges(expected)
    }
    fn describe(&self, case: &G::Case) -> String {
        self.inner.describe(case)
    }
    fn shrink_candidates(&self, case: &G::Case) -> Vec<G::Case> {
        self.inner.shrink_candidates(case)
    }
    fn shrinks_from_the_first(&self) -> bool {
        self.inner.shrinks_from_the_first()
    }
    fn size_key(&self, case: &G::Case) -> Option<Vec<u64>> {
        self.inner.size_key(case)
    }
    fn parts(&self, case: &G::Case) -> Parts<G::Case> {
        self.parts.map_or_else(|| self.inner.parts(case), |parts| parts(&self.inner, case))
    }
    fn parts_name(&self) -> &'static str {
        self.inner.parts_name()
    }
    fn answers_moves(&self) -> bool {
        self.inner.answers_moves()
    }
    fn why_wrong(&self, case: &G::Case, expected: &G::Answer, got: &G::Answer) -> String {
        self.inner.why_wrong(case, expected, got)
    }
    fn take_failure(&self) -> Option<Error> {
        self.take_failure.map_or_else(|| self.inner.take_failure(), |failure| failure(&self.inner))
    }
    fn set_deadline(&self, deadline: Option<Instant>, budget: &str) {
        self.inner.set_deadline(deadline, budget)
    }
    fn confirm(&self, case: &G::Case) -> Result<()> {
        self.confirm.map_or_else(|| self.inner.confirm(case), |confirm| confirm(&self.inner, case))
    }
}

impl<G: Generator> Generator for Altered<G> {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, G::Case> {
        self.cases.map_or_else(|| self.inner.cases(source, seed), |cases| cases(&self.inner, source, seed))
    }
    fn by_size(&self, case: &G::Case) -> Cases<'_, G::Case> {
        self.inner.by_size(case)
    }
}

impl<G: Moves> Moves for Altered<G> {
    type Move = G::Move;
    fn lost_word(&self, case: &G::Case) -> &'static str {
        self.inner.lost_word(case)
    }
    fn winning_moves(&self, case: &G::Case) -> Vec<G::Move> {
        self.inner.winning_moves(case)
    }
    fn parse_move(&self, case: &G::Case, text: &str) -> std::result::Result<G::Move, String> {
        self.inner.parse_move(case, text)
    }
    fn illegal(&self, case: &G::Case, mv: &G::Move) -> Option<String> {
        self.inner.illegal(case, mv)
    }
}
