//! Take-and-break games given by their code: octal (`0.07`, `4.07`), hexadecimal (`0x0.8`),
//! subtraction sets (`{1,3,4}`) and Grundy's game (`grundy`), one engine for all.
//!
//! [`code`] reads a code and holds the move rule; [`values`] computes one-heap values by plain
//! mex and by the sparse-space method (the split of [`split`]); [`period`] finds and proves
//! periodicity; [`brute`] is the oracle (whole positions, never XORs); [`verify`] checks the
//! XOR of one-heap values against it; [`compute`] serves the commands. The contest input of
//! `solve octal`: the code, then n, then n heap sizes.

pub mod brute;
pub mod code;
pub mod commands;
pub mod compute;
pub mod contest;
pub mod equivalence;
pub mod estimate;
pub mod explore;
pub mod family;
pub mod family_check;
pub mod family_rows;
pub mod family_run;
pub mod fast;
pub mod moves;
pub mod period;
pub mod pipeline;
pub mod prove;
pub mod resume;
pub mod runs;
pub mod split;
pub mod stats;
pub mod table;
pub mod totals;
pub mod values;
pub mod verify;

pub use commands::GAME;

use crate::error::Result;
use crate::input::Scanner;
use code::Code;

/// Most heaps in a contest input.
pub const MAX_HEAPS: usize = 1000;
/// Largest heap in a contest input.
pub const MAX_HEAP: usize = 10_000;
/// Largest heap in a contest input whose code has three-heap moves (plain mex, O(n³)).
pub const MAX_HEAP_THREE: usize = 2000;

/// A contest input: the code and the heaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub code: Code,
    pub heaps: Vec<usize>,
}

/// The largest heap of a contest input under `code`.
pub fn largest_heap(code: &Code) -> usize {
    if code.digits.iter().any(|d| d & code::THREE != 0) { MAX_HEAP_THREE } else { MAX_HEAP }
}

/// Reads the contest input: a line with the code, a line with n, then n heap sizes; the
/// error names line and column (and, for a bad code, the character inside it).
pub fn parse_input(source_name: &str, text: &str) -> Result<Input> {
    parse_position(source_name, text, 1)
}

/// [`parse_input`] with at least `min_heaps` heaps (0: every heap is gone).
pub fn parse_position(source_name: &str, text: &str, min_heaps: usize) -> Result<Input> {
    let mut s = Scanner::new(source_name, text);
    let code = read_code(&mut s)?;
    let n: usize = s.number("n (number of heaps)", min_heaps, MAX_HEAPS)?;
    let heaps = (1..=n).map(|i| s.number(&format!("heap {i}"), 1, largest_heap(&code))).collect::<Result<Vec<usize>>>()?;
    s.expect_end()?;
    Ok(Input { code, heaps })
}

/// The code: the first token, which must be on line 1 (tokens are read across lines, so a
/// missing code line would otherwise take n for the code).
fn read_code(s: &mut Scanner) -> Result<Code> {
    let what = "the take-and-break code (e.g. 0.07)";
    let tok = s.token(what)?;
    if tok.line != 1 {
        return Err(s.error_at(1, 1, format!("{what} is missing: line 1 is empty (the input starts with {} on line {})", crate::input::quoted(tok.text), tok.line)));
    }
    Code::parse(tok.text).map_err(|e| s.error_at(tok.line, tok.col, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_name_the_place() {
        let input = parse_input("in", "0.07\n2\n3 4\n").unwrap();
        assert_eq!((input.code.to_string(), input.heaps), ("0.07".to_string(), vec![3, 4]));
        let err = |t: &str| parse_input("in", t).unwrap_err().to_string();
        assert_eq!(err(""), "in:1:1: expected the take-and-break code (e.g. 0.07), found end of input");
        assert_eq!(err("0.09\n1\n3\n"), "in:1:1: take-and-break code \"0.09\": character '9' at position 4 is not an octal digit (0-7)");
        assert_eq!(err("0.07\n2\n3 0\n"), "in:3:3: heap 2 must be between 1 and 10000, found 0");
        assert_eq!(err("0x0.8\n1\n2001\n"), "in:3:1: heap 1 must be between 1 and 2000, found 2001");
        assert_eq!(err("0.07\n1\n3 4\n"), "in:3:3: unexpected extra input \"4\"");
        // A missing code line is named, not blamed on n read as a code.
        assert_eq!(err("\n\n1\n3\n"), "in:1:1: the take-and-break code (e.g. 0.07) is missing: line 1 is empty (the input starts with \"1\" on line 3)");
        assert_eq!(err("  \t\n1\n3\n"), "in:1:1: the take-and-break code (e.g. 0.07) is missing: line 1 is empty (the input starts with \"1\" on line 2)");
        assert_eq!(err("\n\n"), "in:1:1: expected the take-and-break code (e.g. 0.07), found end of input");
    }
}
