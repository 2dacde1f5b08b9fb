//! The verdict of a proof on the public claim: the second player wins on an X-free board only
//! on 2×2, 4×4, 4×6, 8×12 and 10×10 (and the transposes).

use super::prove::Proof;

/// The boards of the public claim, one orientation each.
pub const CLAIMED: [(usize, usize); 5] = [(2, 2), (4, 4), (4, 6), (8, 12), (10, 10)];

/// What a proof up to height A says about the claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub height: usize,
    /// Every second-player win with a side ≤ A, both orientations, sorted.
    pub zeros: Vec<(usize, usize)>,
    /// Rows constant 0 from their start on (infinitely many second-player wins).
    pub zero_constants: Vec<usize>,
    /// The claim restricted to boards with a side ≤ A, both orientations, sorted.
    pub claimed: Vec<(usize, usize)>,
}

impl Verdict {
    pub fn of(proof: &Proof) -> Verdict {
        let height = proof.height();
        let mut claimed: Vec<(usize, usize)> =
            CLAIMED.iter().flat_map(|&(r, c)| [(r, c), (c, r)]).filter(|&(r, c)| r.min(c) <= height).collect();
        claimed.sort_unstable();
        claimed.dedup();
        Verdict { height, zeros: proof.zeros(), zero_constants: proof.zero_constants(), claimed }
    }

    /// True when the proof contradicts the claim.
    pub fn refuted(&self) -> bool {
        !self.zero_constants.is_empty() || self.zeros != self.claimed
    }

    /// One line: PROVEN or REFUTED, the wins found and any row whose constant is 0.
    pub fn line(&self) -> String {
        let list = |boards: &[(usize, usize)]| {
            if boards.is_empty() {
                "none".to_string()
            } else {
                boards.iter().map(|(r, c)| format!("{r}x{c}")).collect::<Vec<_>>().join(", ")
            }
        };
        let a = self.height;
        if !self.zero_constants.is_empty() {
            let rows: Vec<String> = self.zero_constants.iter().map(ToString::to_string).collect();
            return format!(
                "REFUTED: rows {} are constant 0 from their start on, so the second player wins on infinitely many boards; wins with a side <= {a} in the prefixes: {}",
                rows.join(", "),
                list(&self.zeros)
            );
        }
        let found = list(&self.zeros);
        if self.refuted() {
            return format!("REFUTED for boards with a side <= {a}: the second player wins exactly on {found}; the claim says {}", list(&self.claimed));
        }
        format!("PROVEN for every X-free board with a side <= {a} (every row constant from its start, no constant is 0): the second player wins exactly on {found}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::empty::Lemma;

    #[test]
    fn small_proofs_agree_with_the_claim_and_a_changed_claim_is_refuted() {
        let mut proof = Proof::new();
        while proof.height() < 12 {
            proof.extend(Lemma::Proven, true).unwrap();
        }
        let verdict = Verdict::of(&proof);
        assert!(!verdict.refuted(), "{}", verdict.line());
        assert!(verdict.line().starts_with("PROVEN for every X-free board with a side <= 12"));
        assert!(verdict.line().ends_with("2x2, 4x4, 4x6, 6x4, 8x12, 10x10, 12x8"), "{}", verdict.line());
        let shorter = Verdict { claimed: verdict.claimed[1..].to_vec(), ..verdict.clone() };
        assert!(shorter.refuted() && shorter.line().starts_with("REFUTED for boards with a side <= 12"));
        let zero_row = Verdict { zero_constants: vec![7], ..verdict };
        assert!(zero_row.line().starts_with("REFUTED: rows 7 are constant 0"));
    }
}
