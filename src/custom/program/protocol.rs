//! The game-program line protocol (version 1, docs/custom-programs.md): requests, the handshake, and answers read back.

use std::fmt;

/// The protocol version `sprague` speaks (the handshake request `sprague 1`).
pub const VERSION: u32 = 1;
/// Longest position token accepted.
pub const MAX_TOKEN: usize = 4096;
/// The token meaning "none" in `claim` and `components` answers.
pub const NONE: &str = "-";

/// A request about one position (or one size, for `positions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verb {
    Positions,
    Moves,
    Claim,
    Components,
    Size,
    Smaller,
}

impl Verb {
    pub const ALL: [Verb; 6] = [Verb::Positions, Verb::Moves, Verb::Claim, Verb::Components, Verb::Size, Verb::Smaller];

    pub fn name(self) -> &'static str {
        match self {
            Verb::Positions => "positions",
            Verb::Moves => "moves",
            Verb::Claim => "claim",
            Verb::Components => "components",
            Verb::Size => "size",
            Verb::Smaller => "smaller",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The requests a program answers, read from its answer to the handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Verbs(u8);

impl Verbs {
    /// Reads the handshake answer: known request names separated by spaces; `positions` and
    /// `moves` must be among them.
    pub fn parse(answer: &str) -> Result<Verbs, String> {
        let mut verbs = Verbs::default();
        for word in answer.split_ascii_whitespace() {
            let verb = Verb::ALL.into_iter().find(|v| v.name() == word).ok_or_else(|| {
                format!("the answer to `sprague {VERSION}` names {word:?}, which is not a request of protocol {VERSION} (positions moves claim components size smaller)")
            })?;
            verbs.0 |= verb.bit();
        }
        if let Some(missing) = [Verb::Positions, Verb::Moves].into_iter().find(|v| !verbs.has(*v)) {
            return Err(format!("the answer to `sprague {VERSION}` ({answer:?}) does not list `{missing}`, which every game program must answer"));
        }
        Ok(verbs)
    }

    pub fn has(self, verb: Verb) -> bool {
        self.0 & verb.bit() != 0
    }

    /// The names, in protocol order, separated by spaces.
    pub fn names(self) -> String {
        Verb::ALL.into_iter().filter(|v| self.has(*v)).map(Verb::name).collect::<Vec<_>>().join(" ")
    }
}

/// True when `line` reads as an answer to `sprague 1`: one or more request names, nothing else.
pub fn lists_requests(line: &str) -> bool {
    let mut words = line.split_ascii_whitespace().peekable();
    words.peek().is_some() && words.all(|w| Verb::ALL.into_iter().any(|v| v.name() == w))
}

/// The request line for `verb` about `arg` (no newline).
pub fn request(verb: Verb, arg: &str) -> String {
    format!("{verb} {arg}")
}

/// A list of positions (`positions`, `moves`, `smaller`): tokens separated by spaces, each
/// at most [`MAX_TOKEN`] bytes and not `-`.
pub fn tokens(answer: &str) -> Result<Vec<&str>, String> {
    answer.split_ascii_whitespace().map(check_token).collect()
}

/// One position token, checked.
pub fn check_token(token: &str) -> Result<&str, String> {
    if token == NONE {
        return Err(format!("{NONE:?} is not a position (it means none, in claim and components answers)"));
    }
    if token.len() > MAX_TOKEN {
        return Err(format!("a position of {} bytes (at most {MAX_TOKEN})", token.len()));
    }
    Ok(token)
}

/// A number (`claim`, `size`): the whole line, canonical decimal digits (no sign, no leading
/// zero, no blanks), at most u32::MAX; `-` is `None` where `none_allowed`.
pub fn number(answer: &str, none_allowed: bool) -> Result<Option<u32>, String> {
    if none_allowed && answer == NONE {
        return Ok(None);
    }
    let canonical = answer.bytes().all(|b| b.is_ascii_digit()) && (answer == "0" || !answer.starts_with('0'));
    match answer.parse::<u32>() {
        Ok(n) if canonical => Ok(Some(n)),
        _ if answer.is_empty() => Err("an empty line where a number was expected".to_string()),
        _ => Err(format!("{answer:?} is not a number from 0 to {} (decimal digits only: no sign, leading zero or blank)", u32::MAX)),
    }
}

/// A `components` answer: `-` (no split) or the parts (an empty line: no parts, value 0).
pub fn components(answer: &str) -> Result<Option<Vec<&str>>, String> {
    if answer.trim() == NONE {
        return Ok(None);
    }
    tokens(answer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_lists_known_requests_and_needs_the_two_required() {
        let verbs = Verbs::parse("positions  moves claim").unwrap();
        assert!(verbs.has(Verb::Claim) && !verbs.has(Verb::Components));
        assert_eq!(verbs.names(), "positions moves claim");
        assert!(Verbs::parse("positions").unwrap_err().contains("does not list `moves`"));
        assert!(Verbs::parse("positions moves value").unwrap_err().contains("\"value\""));
    }

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(tokens(" a  b\tc ").unwrap(), ["a", "b", "c"]);
        assert!(tokens("").unwrap().is_empty());
        assert!(tokens("a -").unwrap_err().contains("not a position"));
        assert!(tokens(&"x".repeat(MAX_TOKEN + 1)).unwrap_err().contains("4097 bytes"));
        assert_eq!(number("7", false).unwrap(), Some(7));
        assert_eq!(number("-", true).unwrap(), None);
        assert!(number("-", false).unwrap_err().contains("not a number"));
        assert!(number("", true).unwrap_err().contains("empty line"));
        assert!(number("99999999999", true).unwrap_err().contains("not a number"));
        assert_eq!(number("0", false).unwrap(), Some(0));
        assert_eq!(number("4294967295", false).unwrap(), Some(u32::MAX));
        for bad in ["+0", "00", " 0 ", "07", "0 ", "-0", "0x0", "1e3", " -"] {
            assert!(number(bad, true).unwrap_err().contains("is not a number"), "{bad:?} refused");
        }
        assert_eq!(components("-").unwrap(), None);
        assert_eq!(components("3 5").unwrap(), Some(vec!["3", "5"]));
        assert_eq!(components("").unwrap(), Some(vec![]));
        assert_eq!(request(Verb::Moves, "3.5"), "moves 3.5");
    }
}
