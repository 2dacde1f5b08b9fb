//! The catalogue's claim interface: a game with positions by size, a claimed evaluator and the brute force.

use crate::impartial::{BruteForce, Impartial};

/// One position checked against its claim: size labels, claimed value and brute-force truth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub rows: u32,
    pub cols: u32,
    /// The size-specific count recorded in distribution.csv (stones, vertices, cells, Ω(n)).
    pub xs: u32,
    /// The claimed value (Grundy value, winning-move count, or 1/0 for an outcome claim).
    pub claimed: u32,
    /// The brute-force value of the same kind, when the brute force computes one.
    pub naive_value: Option<u32>,
    /// Brute-force outcome: the player to move wins.
    pub naive_first_wins: bool,
    pub agrees: bool,
}

/// A catalogue game: an impartial game with an enumeration of its positions by size and a
/// claimed evaluator, checked against [`BruteForce`] position by position.
pub trait Claimed: Impartial + Sync + Sized
where
    Self::Position: Send + Sync,
{
    /// Data built once per size and shared by all workers (e.g. a table of claimed values).
    type Shared: Sync;
    /// Game name written in the verify files.
    fn game(&self) -> &'static str;
    /// Rule / claim variant written in the verify files.
    fn rule(&self) -> &'static str;
    /// Every position of size (rows, cols); sizes partition the positions.
    fn positions(&self, rows: u32, cols: u32) -> Vec<Self::Position>;
    /// How many positions size (rows, cols) has (by default, by listing them).
    fn position_count(&self, rows: u32, cols: u32) -> u64 {
        self.positions(rows, cols).len() as u64
    }
    /// Bytes a position of size (rows, cols) holds outside itself (a list's heap block).
    fn position_heap_bytes(&self, _rows: u32) -> f64 {
        0.0
    }
    /// Estimated peak bytes of preparing size (rows, cols)'s shared data (`prepare`), kept for
    /// the whole job; 0 when small.
    fn shared_bytes(&self, _rows: u32, _cols: u32) -> f64 {
        0.0
    }
    /// Prepares the per-size shared data.
    fn prepare(&self, rows: u32, cols: u32) -> Self::Shared;
    /// Evaluates the claim and the brute force on one position.
    fn check(&self, shared: &Self::Shared, brute: &mut BruteForce<Self>, position: &Self::Position) -> Checked;
    /// The position as text for mismatches.csv.
    fn show(&self, position: &Self::Position) -> String;
    /// The single-heap position of size `n` (for sequence.csv), if the game has heaps.
    fn heap(&self, n: u32) -> Option<Self::Position>;
    /// Whether the brute force is meant to handle size (rows, cols).
    fn size_allowed(&self, rows: u32, cols: u32) -> bool;
    /// Facts about the claim worth recording in the manifest (e.g. a period found).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Estimated peak bytes of one brute force (one worker's memo) checking positions of
    /// `sizes`, the sizes of one parallel chunk; `None` when its memo stays small whatever the
    /// size (the run's base memory covers it).
    fn memo_bytes(&self, _sizes: &[(u32, u32)]) -> Option<f64> {
        None
    }
    /// Estimated core-seconds of one brute force (from an empty memo) checking the positions
    /// of `sizes`, the sizes of one parallel chunk; `None` when unknown.
    fn memo_seconds(&self, _sizes: &[(u32, u32)]) -> Option<f64> {
        None
    }
    /// Estimated core-seconds of each position of size (rows, cols) besides the brute force's
    /// memo (a game whose naive value comes from a table: the claim, the look-up and its share
    /// of `prepare`); `None` when unknown or counted in [`Claimed::memo_seconds`].
    fn position_seconds(&self, _rows: u32, _cols: u32) -> Option<f64> {
        None
    }
}
