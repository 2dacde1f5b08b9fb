//! Take-and-break codes and their move rule: octal `0.07`, `4.07`, hexadecimal `0x0.8`,
//! subtraction sets `{1,3,4}` (or `s:1,3,4`, safe from the shell's brace expansion) and
//! Grundy's game `grundy`.
//!
//! Digit d_k says what a move that removes k tokens from one heap may leave (Winning Ways,
//! ch. 4): bit 1 no heap (the heap had exactly k), bit 2 one non-empty heap, bit 4 two
//! non-empty heaps, bit 8 (hexadecimal) three non-empty heaps. d_0 (before the point) may only
//! split: bits 4 and 8.

use crate::error::{Error, Result};
use crate::input::describe_char;
use std::fmt;

/// Longest code accepted: t, the most tokens one move removes.
pub const MAX_TAKE: usize = 65_535;

/// How the code was written (it decides the canonical spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Octal,
    Hex,
    Subtraction,
    /// Grundy's game: split one heap into two heaps of different sizes.
    Grundy,
}

/// A take-and-break game: its digits d_0..=d_t (d_t ≠ 0 unless there is no move at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    pub kind: Kind,
    pub digits: Vec<u8>,
    /// The two heaps a split leaves must differ in size (Grundy's game).
    pub unequal: bool,
}

/// Moves leaving no heap, one, two, three heaps.
pub const NONE: u8 = 1;
pub const ONE: u8 = 2;
pub const TWO: u8 = 4;
pub const THREE: u8 = 8;

impl Code {
    /// Reads a code; the error names the offending character and its 1-based position.
    pub fn parse(text: &str) -> Result<Code> {
        let code = if text == "grundy" {
            Code::grundy()
        } else if let Some(set) = text.strip_prefix("s:") {
            subtraction(text, set, 3)?
        } else if let Some(set) = text.strip_prefix('{') {
            let Some(set) = set.strip_suffix('}') else { return Err(bad(text, "a subtraction set must end with '}'")) };
            subtraction(text, set, 2)?
        } else if let Some(rest) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            digits(text, rest, 2, Kind::Hex)?
        } else {
            digits(text, text, 0, Kind::Octal)?
        };
        Ok(code.trimmed())
    }

    /// Grundy's game: a heap splits into two non-empty heaps of different sizes.
    pub fn grundy() -> Code {
        Code { kind: Kind::Grundy, digits: vec![TWO], unequal: true }
    }

    fn trimmed(mut self) -> Code {
        while self.digits.len() > 1 && self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        self
    }

    /// t: the most tokens one move removes.
    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }

    /// The k (tokens removed) whose digit has `bit`.
    pub fn takes(&self, bit: u8) -> Vec<usize> {
        (0..self.digits.len()).filter(|&k| self.digits[k] & bit != 0).collect()
    }

    /// True when some move splits a heap (bit 4 or 8 somewhere).
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & (TWO | THREE) != 0)
    }

    /// Every position (heaps, ascending) one move on a heap of `n` leaves; the move rule itself.
    pub fn options(&self, n: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for (k, &d) in self.digits.iter().enumerate().take(n + 1) {
            let m = n - k;
            if d & NONE != 0 && m == 0 && k > 0 {
                out.push(vec![]);
            }
            if d & ONE != 0 && m >= 1 && k > 0 {
                out.push(vec![m]);
            }
            if d & TWO != 0 {
                out.extend((1..=m / 2).filter(|&a| !(self.unequal && 2 * a == m)).map(|a| vec![a, m - a]));
            }
            if d & THREE != 0 {
                out.extend((1..=m / 3).flat_map(|a| (a..=(m - a) / 2).map(move |b| vec![a, b, m - a - b])));
            }
        }
        out
    }
}

/// `code: message` as a usage error.
fn bad(code: &str, message: impl fmt::Display) -> Error {
    Error::Usage(format!("take-and-break code {}: {message}", crate::input::quoted(code)))
}

/// `D.DDD` (octal, or hexadecimal after `0x`): `skip` characters of `code` precede `body`.
fn digits(code: &str, body: &str, skip: usize, kind: Kind) -> Result<Code> {
    let (radix, name) = if kind == Kind::Hex { (16, "a hexadecimal digit (0-9, a-f)") } else { (8, "an octal digit (0-7)") };
    let Some(point) = body.find('.') else {
        return Err(bad(code, "expected a point, as in 0.07, 4.07, 0x0.8, {1,3,4} or grundy"));
    };
    let mut out = Vec::new();
    let too_many = || bad(code, format!("more than {MAX_TAKE} digits after the point"));
    for (n, (i, c)) in body.char_indices().enumerate().filter(|&(_, (i, _))| i != point) {
        let at = skip + n + 1;
        let digit = c.to_digit(radix).ok_or_else(|| bad(code, format!("character {} at position {at} is not {name}", describe_char(c))))?;
        if i < point && i > 0 {
            return Err(bad(code, format!("character {} at position {at}: one digit (d0) before the point", describe_char(c))));
        }
        if i < point && digit & u32::from(NONE | ONE) != 0 {
            return Err(bad(code, format!("digit {c} at position {at}: d0 (removing nothing) may only split, so it is 0 or 4 (8 or c in hexadecimal)")));
        }
        out.push(digit as u8);
        // Stopped at once: a line of millions of digits is refused without reading it all.
        if out.len() > MAX_TAKE + 1 {
            return Err(too_many());
        }
    }
    if point == 0 {
        out.insert(0, 0);
    }
    if out.len() > MAX_TAKE + 1 {
        return Err(too_many());
    }
    Ok(Code { kind, digits: out, unequal: false })
}

/// The set `1,3,4` (from position `skip + 1` of `code`): each member k may be removed from a heap of
/// at least k, leaving the rest (digit 3).
fn subtraction(code: &str, set: &str, first: usize) -> Result<Code> {
    let mut members = Vec::new();
    let mut at = first;
    for part in set.split(',') {
        let bad_char = part.char_indices().find(|(_, c)| !c.is_ascii_digit());
        if let Some((i, c)) = bad_char {
            return Err(bad(code, format!("character {} at position {} is not a digit or ','", describe_char(c), at + i)));
        }
        let k: usize = match part.parse() {
            Ok(k) => k,
            Err(_) if part.is_empty() => return Err(bad(code, format!("position {at}: expected a number"))),
            Err(_) => return Err(bad(code, format!("position {at}: {part} is not between 1 and {MAX_TAKE}"))),
        };
        if !(1..=MAX_TAKE).contains(&k) {
            return Err(bad(code, format!("position {at}: {k} is not between 1 and {MAX_TAKE}")));
        }
        if members.contains(&k) {
            return Err(bad(code, format!("position {at}: {k} is in the set twice")));
        }
        members.push(k);
        at += part.len() + 1;
    }
    let mut digits = vec![0; members.iter().max().map_or(1, |&m| m + 1)];
    for k in members {
        digits[k] = NONE | ONE;
    }
    Ok(Code { kind: Kind::Subtraction, digits, unequal: false })
}

impl fmt::Display for Code {
    /// The canonical spelling: trailing zero digits dropped, hexadecimal in lower case.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digit = |d: &u8| char::from_digit(u32::from(*d), 16).expect("digits are below 16");
        let tail = || self.digits[1..].iter().map(digit).collect::<String>();
        match self.kind {
            Kind::Grundy => write!(f, "grundy"),
            Kind::Octal => write!(f, "{}.{}", self.digits[0], tail()),
            Kind::Hex => write!(f, "0x{}.{}", digit(&self.digits[0]), tail()),
            Kind::Subtraction => {
                let members: Vec<String> = self.takes(ONE).iter().map(usize::to_string).collect();
                write!(f, "{{{}}}", members.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Code::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn codes_read_and_print_canonically() {
        let kayles = Code::parse("0.77").unwrap();
        assert_eq!((kayles.digits.clone(), kayles.max_take(), kayles.to_string()), (vec![0, 7, 7], 2, "0.77".to_string()));
        assert_eq!(Code::parse(".070").unwrap().to_string(), "0.07");
        assert_eq!(Code::parse("4.07").unwrap().takes(TWO), [0, 2]);
        assert_eq!(Code::parse("0X0.8F").unwrap().to_string(), "0x0.8f");
        let set = Code::parse("{1,3,4}").unwrap();
        assert_eq!((set.digits.clone(), set.to_string()), (vec![0, 3, 0, 3, 3], "{1,3,4}".to_string()));
        assert_eq!(Code::parse("s:4,1,3").unwrap(), set);
        assert!(Code::parse("grundy").unwrap().unequal);
    }

    #[test]
    fn errors_name_the_character_and_its_place() {
        assert_eq!(err("0.08"), "take-and-break code \"0.08\": character '8' at position 4 is not an octal digit (0-7)");
        assert_eq!(err("0x0.g"), "take-and-break code \"0x0.g\": character 'g' at position 5 is not a hexadecimal digit (0-9, a-f)");
        assert_eq!(err("{1,x}"), "take-and-break code \"{1,x}\": character 'x' at position 4 is not a digit or ','");
        assert_eq!(err("s:1,,2"), "take-and-break code \"s:1,,2\": position 5: expected a number");
        assert!(err("{18446744073709551616}").ends_with("position 2: 18446744073709551616 is not between 1 and 65535"), "{}", err("{18446744073709551616}"));
        assert_eq!(err("{1,3,1}"), "take-and-break code \"{1,3,1}\": position 6: 1 is in the set twice");
        assert!(err("{1,3").contains("must end with '}'"));
        assert!(err("077").contains("expected a point"));
        assert!(err("1.07").contains("position 1: d0 (removing nothing) may only split"));
        assert!(err("04.07").contains("character '4' at position 2: one digit (d0) before the point"));
        assert!(err("0.0.7").contains("character '.' at position 4"));
        // A huge code is quoted in part: the message stays one readable line.
        let long = format!("0.{}8", "7".repeat(70_000));
        assert!(err(&long).starts_with("take-and-break code \"0.777") && err(&long).contains("… (70003 bytes)") && err(&long).len() < 200, "{}", err(&long).len());
        // Ten million digits are refused at the 65,536th, without reading on (a scan that counted
        // each digit's place from the start took 26 s for a million).
        let huge = format!("0.{}", "7".repeat(10_000_000));
        assert!(err(&huge).ends_with(": more than 65535 digits after the point"), "{}", err(&huge));
    }

    #[test]
    fn the_move_rule_follows_the_digits() {
        // 0.137: take 1 from a heap of 1; take 2 leaving one heap or none; take 3 leaving any.
        let chess = Code::parse("0.137").unwrap();
        assert_eq!(chess.options(1), [Vec::<usize>::new()]);
        assert_eq!(chess.options(2), [Vec::<usize>::new()]);
        assert_eq!(chess.options(5), [vec![3], vec![2], vec![1, 1]]);
        assert_eq!(Code::parse("grundy").unwrap().options(6), [vec![1, 5], vec![2, 4]]);
        assert_eq!(Code::parse("4.0").unwrap().options(4), [vec![1, 3], vec![2, 2]]);
        assert_eq!(Code::parse("0x0.08").unwrap().options(5), [vec![1, 1, 1]]);
    }
}
