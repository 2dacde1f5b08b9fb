//! `--answer move`: the program prints a move, or the word of a lost position, instead of the
//! winner. A move is right when it is legal and leaves the opponent a lost position (any
//! winning move is accepted); the lost word is right when the position is lost. A game opts in
//! with [`Moves`]; [`ByMove`] is its contest side in this mode.

use super::answer::single_token;
use super::contest::{Cases, Contest, Generator, Source};
use crate::output::text::{counted, shorten};
use std::fmt;

/// A game whose positions have moves a program can print.
pub trait Moves: Generator {
    /// A move, displayed in the format the program prints it.
    type Move: Clone + Send + Sync + PartialEq + fmt::Display;
    /// What a program prints when the player to move loses (wall: `Second`; kings: the
    /// other side's name, hence the case).
    fn lost_word(&self, case: &Self::Case) -> &'static str;
    /// The legal moves that leave the opponent a lost position, by the trusted solver (none:
    /// the position is lost).
    fn winning_moves(&self, case: &Self::Case) -> Vec<Self::Move>;
    /// Reads a move; `Err` says why `text` is not one in the game's format.
    fn parse_move(&self, case: &Self::Case, text: &str) -> Result<Self::Move, String>;
    /// Why `mv` is not a legal move in `case`, when it is not.
    fn illegal(&self, case: &Self::Case, mv: &Self::Move) -> Option<String>;
}

/// Reads a move of `count` whole numbers ≥ 1 (`format` shows it, e.g. `r c`, for the error).
pub fn numbers(text: &str, count: usize, format: &str) -> Result<Vec<u64>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |s: &&str| s.parse::<u64>().ok().filter(|&n| n >= 1 && s.bytes().all(|b| b.is_ascii_digit()));
    let read: Vec<u64> = words.iter().filter_map(number).collect();
    if words.len() != count || read.len() != count {
        return Err(format!("expected `{format}` ({count} whole numbers, from 1), found {:?}", shorten(text)));
    }
    Ok(read)
}

/// A trusted answer or a program's answer in move mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveAnswer<M> {
    /// The position is lost (the game's lost word).
    Lost(&'static str),
    /// Moves: every winning move for the trusted answer (shown as the first), the printed
    /// one for a program's.
    Moves(Vec<M>),
}

impl<M: fmt::Display> fmt::Display for MoveAnswer<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveAnswer::Lost(word) => f.write_str(word),
            MoveAnswer::Moves(moves) => moves.first().map_or(Ok(()), |m| m.fmt(f)),
        }
    }
}

/// The contest side of `G` with move answers.
pub struct ByMove<G>(pub G);

impl<G: Moves> ByMove<G> {
    /// A program's output `out` on `case` judged: accepted or not, and why not (the format
    /// error when it is not a move or the lost word). For the games' tests.
    pub fn judge(&self, case: &G::Case, out: &str) -> Result<(bool, String), String> {
        let expected = self.answer(case);
        self.parse_output(case, out).map(|got| (self.accepts(&expected, &got), self.why_wrong(case, &expected, &got)))
    }
}

impl<G: Moves> Contest for ByMove<G> {
    type Case = G::Case;
    type Answer = MoveAnswer<G::Move>;

    fn write_input(&self, case: &G::Case, out: &mut Vec<u8>) {
        self.0.write_input(case, out)
    }
    fn answer(&self, case: &G::Case) -> Self::Answer {
        match self.0.winning_moves(case) {
            moves if moves.is_empty() => MoveAnswer::Lost(self.0.lost_word(case)),
            moves => MoveAnswer::Moves(moves),
        }
    }
    fn parse_output(&self, case: &G::Case, stdout: &str) -> Result<Self::Answer, String> {
        let lost = self.0.lost_word(case);
        if single_token(stdout) == Ok(lost) {
            return Ok(MoveAnswer::Lost(lost));
        }
        let text = stdout.trim();
        let mv = self.0.parse_move(case, text).map_err(|e| format!("{e} (expected a move or {lost})"))?;
        Ok(MoveAnswer::Moves(vec![mv]))
    }
    fn accepts(&self, expected: &Self::Answer, got: &Self::Answer) -> bool {
        match (expected, got) {
            (MoveAnswer::Lost(_), MoveAnswer::Lost(_)) => true,
            (MoveAnswer::Moves(winning), MoveAnswer::Moves(printed)) => printed.first().is_some_and(|m| winning.contains(m)),
            _ => false,
        }
    }
    fn why_wrong(&self, case: &G::Case, expected: &Self::Answer, got: &Self::Answer) -> String {
        let count = |moves: &[G::Move]| counted(moves.len() as u64, "winning move");
        match (expected, got) {
            (MoveAnswer::Moves(winning), MoveAnswer::Lost(_)) => format!("the position is won ({})", count(winning)),
            (_, MoveAnswer::Moves(printed)) => match printed.first().and_then(|m| self.0.illegal(case, m)) {
                Some(why) => format!("illegal move: {why}"),
                None if matches!(expected, MoveAnswer::Lost(_)) => "the position is lost: every move leaves the opponent a win".into(),
                None => "the move leaves the opponent a win".into(),
            },
            _ => String::new(),
        }
    }
    fn describe(&self, case: &G::Case) -> String {
        self.0.describe(case)
    }
    fn shrink_candidates(&self, case: &G::Case) -> Vec<G::Case> {
        self.0.shrink_candidates(case)
    }
    fn shrinks_from_the_first(&self) -> bool {
        self.0.shrinks_from_the_first()
    }
    fn size_key(&self, case: &G::Case) -> Option<Vec<u64>> {
        self.0.size_key(case)
    }
    fn parts(&self, case: &G::Case) -> super::contest::Parts<G::Case> {
        self.0.parts(case)
    }
    fn parts_name(&self) -> &'static str {
        self.0.parts_name()
    }
    fn answers_moves(&self) -> bool {
        true
    }
    // The trusted side is the game's: its failures, deadlines and second asks are its own.
    fn take_failure(&self) -> Option<crate::error::Error> {
        self.0.take_failure()
    }
    fn set_deadline(&self, deadline: Option<std::time::Instant>, budget: &str) {
        self.0.set_deadline(deadline, budget)
    }
    fn confirm(&self, case: &G::Case) -> crate::error::Result<()> {
        self.0.confirm(case)
    }
}

impl<G: Moves> Generator for ByMove<G> {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, G::Case> {
        self.0.cases(source, seed)
    }
    fn by_size(&self, case: &G::Case) -> Cases<'_, G::Case> {
        self.0.by_size(case)
    }
}
