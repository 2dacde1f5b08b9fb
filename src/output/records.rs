//! The rows of the verify files: summary.csv, distribution.csv, mismatches.csv, and the names
//! each game gives their position columns.

use super::csv::CsvRecord;
use serde::{Deserialize, Serialize};

/// The names a game gives the position columns of its verify files: the two size columns
/// (fields `rows`, `cols` of the records), the distribution key (`xs`) and the position in
/// mismatches.csv (`board`), and whether mismatches.csv ends with an `answer` column. Each game
/// declares them once ([`crate::game::Game::columns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    pub size: [&'static str; 2],
    pub key: &'static str,
    pub position: &'static str,
    /// mismatches.csv ends with [`ANSWER`]: which of the game's answers a row's position fails
    /// (games that check more than one answer per position; every row then names one).
    pub answer: bool,
}

/// The name of the last column of mismatches.csv of games whose [`Columns::answer`] is set.
pub const ANSWER: &str = "answer";

impl Columns {
    /// Board games: rows, cols, X cells, the board (also what the files of games no registry
    /// entry names are read and written with).
    pub const BOARD: Columns = Columns { size: ["rows", "cols"], key: "xs", position: "board", answer: false };

    /// `name` as a `&'static str`: column names read from a file's header (each distinct name
    /// is kept once for the life of the process).
    pub fn intern(name: &str) -> &'static str {
        static NAMES: std::sync::Mutex<std::collections::BTreeSet<&'static str>> = std::sync::Mutex::new(std::collections::BTreeSet::new());
        let mut names = NAMES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&known) = names.get(name) {
            return known;
        }
        let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
        names.insert(leaked);
        leaked
    }

    /// The header of summary.csv.
    pub fn summary(&self) -> Vec<&'static str> {
        let [a, b] = self.size;
        vec!["game", "rule", a, b, "patterns", "mismatches", "p_positions", "max_grundy"]
    }

    /// The header of distribution.csv.
    pub fn distribution(&self) -> Vec<&'static str> {
        let [a, b] = self.size;
        vec!["game", "rule", a, b, self.key, "grundy", "patterns"]
    }

    /// The header of mismatches.csv.
    pub fn mismatches(&self) -> Vec<&'static str> {
        let [a, b] = self.size;
        let mut header = vec!["game", "rule", a, b, self.position, "dp_grundy", "naive_grundy", "naive_outcome"];
        header.extend(self.answer.then_some(ANSWER));
        header
    }

    /// Whether `row` has the answer these columns write: one when they have the column, none
    /// when not (`Err` says what is wrong, for a row read back from a file or a checkpoint).
    pub fn check_answer(&self, row: &MismatchRow) -> std::result::Result<(), String> {
        match (self.answer, row.answer) {
            (true, None) => Err(format!("no {ANSWER} (expected {})", Answer::ALL.map(Answer::name).join(" or "))),
            (false, Some(answer)) => Err(format!("{ANSWER} {answer}, but the {} columns have no {ANSWER} column", self)),
            _ => Ok(()),
        }
    }
}

/// The four names, comma-separated: size, size, key, position (and `answer` when mismatches.csv
/// has that column).
impl std::fmt::Display for Columns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b] = self.size;
        write!(f, "{a},{b},{},{}", self.key, self.position)?;
        if self.answer {
            write!(f, ",{ANSWER}")?;
        }
        Ok(())
    }
}

impl Default for Columns {
    fn default() -> Self {
        Columns::BOARD
    }
}

/// What a game's value column means (`grundy` of distribution.csv; `p_positions` of
/// summary.csv counts the positions of value 0), in the words of its reports. Each game declares
/// it once ([`crate::game::Game::values`]); impartial games keep [`Values::GRUNDY`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Values {
    /// The value, as an axis title: "Grundy value".
    pub value: &'static str,
    /// A position of value 0, singular and plural: "P-position", "P-positions".
    pub zero: [&'static str; 2],
}

impl Values {
    /// Grundy values, whose zeros are the P-positions (second-player wins).
    pub const GRUNDY: Values = Values { value: "Grundy value", zero: ["P-position", "P-positions"] };

    /// `n` positions of value 0 and their name: "1 P-position", "3 P-positions".
    pub fn zeros(&self, n: u64) -> String {
        format!("{n} {}", self.zero[usize::from(n != 1)])
    }
}

impl Default for Values {
    fn default() -> Self {
        Values::GRUNDY
    }
}

/// One row of summary.csv: one size of one game and rule (columns named by [`Columns`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SummaryRow {
    pub game: String,
    pub rule: String,
    pub rows: u32,
    pub cols: u32,
    pub patterns: u64,
    pub mismatches: u64,
    pub p_positions: u64,
    pub max_grundy: u32,
}


/// One row of distribution.csv: how many patterns of a size with key `xs` (the game's key
/// column, [`Columns::key`]) have `grundy`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DistributionRow {
    pub game: String,
    pub rule: String,
    pub rows: u32,
    pub cols: u32,
    pub xs: u32,
    pub grundy: u32,
    pub patterns: u64,
}


/// One row of mismatches.csv: a position where the claim and the naive search disagree.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MismatchRow {
    pub game: String,
    pub rule: String,
    pub rows: u32,
    pub cols: u32,
    /// The position; for boards, rows joined by '/'.
    pub board: String,
    /// The claimed value (the fast engine's Grundy value).
    pub dp_grundy: u32,
    /// The naive Grundy value, when the naive side computes one.
    pub naive_grundy: Option<u32>,
    /// The naive outcome: `First` or `Second` (the player to move first wins / loses).
    pub naive_outcome: String,
    /// Which answer the position fails, for games whose columns have [`ANSWER`] (absent from
    /// the files of the others, and from their checkpoints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
}

/// Which of a game's answers about a position disagrees with the exact value: its claimed
/// value, or its decomposition (the XOR of its components' exact values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Claim,
    Components,
}

impl Answer {
    /// Every answer, in the order of their rows.
    pub const ALL: [Answer; 2] = [Answer::Claim, Answer::Components];

    /// The name the files write: `claim` or `components`.
    pub fn name(self) -> &'static str {
        match self {
            Answer::Claim => "claim",
            Answer::Components => "components",
        }
    }
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}


/// `First` when the player to move wins, else `Second`.
pub fn outcome_name(first_player_wins: bool) -> &'static str {
    if first_player_wins {
        "First"
    } else {
        "Second"
    }
}

/// One row of sequence.csv: the brute-force Grundy value of the single heap of size `n` (heap
/// games: one pile, polygon, strip, number).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SequenceRow {
    pub game: String,
    pub n: u64,
    pub grundy: u32,
}

impl CsvRecord for SequenceRow {
    const HEADER: &'static [&'static str] = &["game", "n", "grundy"];
}

/// One row of counterexamples.csv: a minimal board on which the claim under test fails.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CounterexampleRow {
    pub game: String,
    pub rule: String,
    pub rows: u32,
    pub cols: u32,
    /// The board, rows joined by '/'.
    pub board: String,
    /// What the claim says: the claimed Grundy value, or for misère the claimed winner.
    pub claimed: String,
    /// What whole-board search finds, in the same terms.
    pub actual: String,
}

impl CsvRecord for CounterexampleRow {
    const HEADER: &'static [&'static str] = &["game", "rule", "rows", "cols", "board", "claimed", "actual"];
}
