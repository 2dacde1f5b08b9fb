//! The exact value of a position beside what a game claims of it (a value, a split into parts): the distribution key and the disagreement.

use crate::impartial::Convention;
use crate::output::records::{outcome_name, Answer};
use crate::runner::Disagreement;

/// The exact value of a position and what the program says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Grundy value (normal play), or the outcome (misère: 1 = the player to move wins).
    pub exact: u32,
    /// The program's claim, when it makes one.
    pub claim: Option<u32>,
    /// Number of components and the XOR of their exact values, when the position splits.
    pub split: Option<(u32, u32)>,
}

impl Verdict {
    /// The distribution key: (number of components, the claim, else the XOR of the parts,
    /// else the exact value).
    pub fn key(&self) -> (u32, u32) {
        let claimed = self.claim.or(self.split.map(|(_, xor)| xor)).unwrap_or(self.exact);
        (self.split.map_or(0, |(parts, _)| parts), claimed)
    }

    /// The answers that disagree with the exact value, each with the value it gives: the claim,
    /// then the XOR of the components' exact values. Under misère a claim is read as an outcome
    /// (0: the player to move loses) and the components are not checked.
    pub fn wrong(&self, convention: Convention) -> impl Iterator<Item = (Answer, u32)> {
        let exact = self.exact;
        let claim = self.claim.filter(|&c| match convention {
            Convention::Normal => c != exact,
            Convention::Misere => (c != 0) != (exact != 0),
        });
        let components = self.split.map(|(_, xor)| xor).filter(|&xor| convention == Convention::Normal && xor != exact);
        let claim = claim.map(|c| (Answer::Claim, c));
        claim.into_iter().chain(components.map(|xor| (Answer::Components, xor)))
    }

    /// Whether any answer disagrees with the exact value ([`Verdict::wrong`]).
    pub fn fails(&self, convention: Convention) -> bool {
        self.wrong(convention).next().is_some()
    }

    /// The disagreements on `position`, one per wrong answer (none when the game is right
    /// about it).
    pub fn disagreements<'p>(&self, position: &'p str, convention: Convention) -> impl Iterator<Item = Disagreement<'static>> + 'p {
        let (exact, normal) = (self.exact, convention == Convention::Normal);
        self.wrong(convention).map(move |(answer, claimed)| Disagreement {
            position: position.to_string(),
            claimed,
            naive_value: normal.then_some(exact),
            naive_outcome: outcome_name(exact != 0),
            answer: Some(answer),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(verdict: Verdict, convention: Convention) -> Vec<(Answer, u32)> {
        verdict.wrong(convention).collect()
    }

    #[test]
    fn each_wrong_answer_is_named_with_its_value() {
        let right_claim = Verdict { exact: 2, claim: Some(2), split: Some((2, 0)) };
        assert_eq!(answers(right_claim, Convention::Normal), [(Answer::Components, 0)]);
        let right_split = Verdict { exact: 2, claim: Some(1), split: Some((2, 2)) };
        assert_eq!(answers(right_split, Convention::Normal), [(Answer::Claim, 1)]);
        let both = Verdict { exact: 2, claim: Some(1), split: Some((2, 3)) };
        assert_eq!(answers(both, Convention::Normal), [(Answer::Claim, 1), (Answer::Components, 3)]);
        let rows: Vec<Disagreement> = both.disagreements("p", Convention::Normal).collect();
        assert_eq!(rows.iter().map(|d| (d.answer, d.claimed, d.naive_value)).collect::<Vec<_>>(), [(Some(Answer::Claim), 1, Some(2)), (Some(Answer::Components), 3, Some(2))]);
        assert!(!Verdict { exact: 2, claim: None, split: Some((2, 2)) }.fails(Convention::Normal));
    }

    #[test]
    fn under_misere_only_the_claim_is_checked_as_an_outcome() {
        let verdict = Verdict { exact: 1, claim: Some(5), split: Some((2, 0)) };
        assert!(!verdict.fails(Convention::Misere));
        let wrong = Verdict { exact: 1, claim: Some(0), split: Some((2, 1)) };
        assert_eq!(answers(wrong, Convention::Misere), [(Answer::Claim, 0)]);
        assert_eq!(wrong.disagreements("p", Convention::Misere).next().map(|d| d.naive_value), Some(None));
    }
}
