//! The exact value of a position beside what a game claims of it (a value, a split into parts): the distribution key and the disagreement.

use crate::impartial::Convention;
use crate::output::records::outcome_name;
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

    /// The claimed value that disagrees with the exact one, if any: under misère a claim is
    /// read as an outcome (0: the player to move loses).
    pub fn wrong(&self, convention: Convention) -> Option<u32> {
        match convention {
            Convention::Normal => self.claim.filter(|&c| c != self.exact).or(self.split.map(|(_, x)| x).filter(|&x| x != self.exact)),
            Convention::Misere => self.claim.filter(|&c| (c != 0) != (self.exact != 0)),
        }
    }

    /// The disagreement on `position`, if the program is wrong about it.
    pub fn disagreement(&self, position: &str, convention: Convention) -> Option<Disagreement<'static>> {
        self.wrong(convention).map(|claimed| Disagreement {
            position: position.to_string(),
            claimed,
            naive_value: (convention == Convention::Normal).then_some(self.exact),
            naive_outcome: outcome_name(self.exact != 0),
        })
    }
}
