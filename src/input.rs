//! Position-tracking scanner for contest-style text input (tokens and lines, CRLF tolerant).

use crate::error::{Error, Result};
use std::fmt::Display;
use std::io::{BufRead, Read};
use std::str::FromStr;

/// Most bytes one input (a whole file, or one line of a `--batch` stream) may hold: far above
/// any contest input (a 20x20 board is 440 bytes), low enough that `/dev/zero` or a runaway
/// pipe is refused in well under a second instead of filling memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The error for an input that went past [`MAX_INPUT_BYTES`]; `what` says which part.
fn too_large(source_name: &str, what: &str) -> Error {
    Error::Usage(format!("{source_name}: {what} is larger than {} MiB; not a game input", MAX_INPUT_BYTES >> 20))
}

/// Reads `reader` to its end, refusing an input of more than [`MAX_INPUT_BYTES`].
pub fn read_capped(source_name: &str, reader: &mut dyn Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).map_err(|e| Error::io(source_name, e))?;
    match bytes.len() as u64 > MAX_INPUT_BYTES {
        true => Err(too_large(source_name, "input")),
        false => Ok(bytes),
    }
}

/// Longest piece of offending input an error message quotes.
const QUOTED_CHARS: usize = 40;

/// `text` quoted for an error message: in full when short, else its first [`QUOTED_CHARS`]
/// characters and its length (a 10 MB row must not become a 10 MB error line).
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((at, _)) => format!("{:?}… ({} bytes)", &text[..at], text.len()),
        None => format!("{text:?}"),
    }
}

/// A whole number as an error message shows it: in full when short, else its first
/// [`QUOTED_CHARS`] digits and how many there are.
fn long_number(text: &str) -> String {
    match text.len() > QUOTED_CHARS {
        true => format!("{}… ({} digits)", &text[..QUOTED_CHARS], text.trim_start_matches(['-', '+']).len()),
        false => text.to_string(),
    }
}

/// A character as an error message names it: a tab, a space, a Unicode space by its code
/// point (it looks like a space), or quoted (`'a'`).
pub fn describe_char(c: char) -> String {
    match c {
        '\t' => "a tab".to_string(),
        ' ' => "a space".to_string(),
        other if other.is_whitespace() => format!("a Unicode space (U+{:04X})", other as u32),
        other => format!("{other:?}"),
    }
}

/// Whether `c` separates tokens of contest input: ASCII whitespace as C's `isspace` knows it
/// (space, tab, line breaks, vertical tab, form feed), what a judge's `scanf` or `cin` skips.
/// A Unicode space (U+00A0, U+3000 …) is not one: a contest program would fail on it.
pub fn is_separator(c: char) -> bool {
    c.is_ascii_whitespace() || c == '\u{0b}'
}

/// Whether `text` holds nothing but separators ([`is_separator`]): a blank line.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(is_separator)
}

/// Reads whitespace-separated tokens or whole lines, reporting 1-based line:column on error.
#[derive(Clone)]
pub struct Scanner<'a> {
    source_name: String,
    /// The whole input, less a final line break; lines are found as they are reached (no
    /// index of every line: an input of blank lines stays at its own size in memory).
    body: &'a str,
    /// Lines of `body`.
    line_count: usize,
    /// Index of the current line.
    line: usize,
    /// The current line (without its line break and CR); empty past the end (a column there
    /// counts as on an empty line).
    current: &'a str,
    /// Byte offset in `body` where the line after the current one starts.
    next_start: usize,
    /// Byte offset inside the current line (columns in messages count characters).
    col: usize,
    /// Characters of the current line before `col`, kept as `col` moves (a column is never
    /// counted from the line's start: a 10 MB line stays linear to read).
    chars_before: usize,
    /// Lines of the whole input before `lines[0]` (when reading a piece of a stream).
    offset: usize,
}

/// A token together with its 1-based position (the column in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub line: usize,
    pub col: usize,
}

impl<'a> Scanner<'a> {
    /// A scanner over `text`; `source_name` is used in messages (a path or `<stdin>`).
    pub fn new(source_name: impl Into<String>, text: &'a str) -> Self {
        // A final line break ends the last line; it does not start an empty one.
        let body = text.strip_suffix('\n').unwrap_or(text);
        let line_count = body.bytes().filter(|&b| b == b'\n').count() + 1;
        let mut scanner = Scanner { source_name: source_name.into(), body, line_count, line: 0, current: "", next_start: 0, col: 0, chars_before: 0, offset: 0 };
        scanner.load_line();
        scanner
    }

    /// Sets `current` to line `line`, which starts at `next_start`, and finds where the next
    /// one starts.
    fn load_line(&mut self) {
        if self.line >= self.line_count {
            self.current = "";
            return;
        }
        let rest = &self.body[self.next_start..];
        let end = rest.find('\n').unwrap_or(rest.len());
        self.current = rest[..end].strip_suffix('\r').unwrap_or(&rest[..end]);
        self.next_start += end + 1;
    }

    /// The same scanner over a piece of a longer input that starts on 1-based line `first`,
    /// so that positions are reported in the whole input's numbering.
    pub fn starting_at_line(self, first: usize) -> Self {
        Scanner { offset: first.saturating_sub(1), ..self }
    }

    /// The name used in error messages.
    pub fn source_name(&self) -> &str {
        &self.source_name
    }

    /// An input error at the given 1-based position.
    pub fn error_at(&self, line: usize, col: usize, message: impl Into<String>) -> Error {
        Error::Input { source_name: self.source_name.clone(), line: line + self.offset, col, message: message.into() }
    }

    /// An input error at the current position.
    pub fn error_here(&self, message: impl Into<String>) -> Error {
        let (line, col) = self.position();
        self.error_at(line, col, message)
    }

    /// Current 1-based (line, column), the column in characters.
    pub fn position(&self) -> (usize, usize) {
        let line = self.line.min(self.line_count - 1);
        (line + 1, self.column(0))
    }

    /// The 1-based column, in characters, of the byte `ahead` bytes past the current position
    /// on the current line: what an editor shows, wherever a character before it takes more
    /// than one byte.
    fn column(&self, ahead: usize) -> usize {
        let text = self.current.get(self.col..self.col + ahead);
        self.chars_before + text.map_or(ahead, |t| t.chars().count()) + 1
    }

    /// Moves `bytes` bytes along the current line.
    fn advance(&mut self, bytes: usize) {
        self.chars_before += self.current[self.col..self.col + bytes].chars().count();
        self.col += bytes;
    }

    /// Moves to the start of the next line.
    fn next_line(&mut self) {
        self.line += 1;
        self.col = 0;
        self.chars_before = 0;
        self.load_line();
    }

    /// Skips whitespace (including line breaks); true if a token follows.
    pub fn skip_blank(&mut self) -> bool {
        while self.line < self.line_count {
            let rest = &self.current[self.col..];
            let trimmed = rest.trim_start_matches(is_separator);
            let (skipped, more) = (rest.len() - trimmed.len(), !trimmed.is_empty());
            self.advance(skipped);
            if more {
                return true;
            }
            self.next_line();
        }
        false
    }

    /// True when only whitespace remains.
    pub fn at_end(&mut self) -> bool {
        !self.skip_blank()
    }

    /// The next whitespace-separated token; `what` names it in the error when input ends.
    pub fn token(&mut self, what: &str) -> Result<Token<'a>> {
        if !self.skip_blank() {
            let (line, col) = self.end_position();
            return Err(self.error_at(line, col, format!("expected {what}, found end of input")));
        }
        let full: &'a str = self.current;
        let rest = &full[self.col..];
        if rest.starts_with('\u{feff}') {
            let (line, col) = (self.line + 1, self.column(0));
            return Err(self.error_at(line, col, "a UTF-8 byte-order mark (U+FEFF) where the input expects text: save the file without one"));
        }
        let len = rest.find(is_separator).unwrap_or(rest.len());
        if let Some((at, c)) = rest[..len].char_indices().find(|(_, c)| c.is_whitespace()) {
            let (line, col) = (self.line + 1, self.column(at));
            return Err(self.error_at(line, col, format!("{}, not a separator: contest input separates tokens with ASCII spaces, tabs and line breaks", describe_char(c))));
        }
        let token = Token { text: &rest[..len], line: self.line + 1, col: self.column(0) };
        self.advance(len);
        Ok(token)
    }

    /// The next token parsed as a number in `range` (inclusive); errors name `what`.
    pub fn number<T>(&mut self, what: &str, min: T, max: T) -> Result<T>
    where
        T: FromStr + PartialOrd + Display + Copy,
    {
        let tok = self.token(what)?;
        let out_of_range = |text: &str| format!("{what} must be between {min} and {max}, found {text}");
        let value: T = tok.text.parse().map_err(|_| {
            let digits = tok.text.strip_prefix(['-', '+']).unwrap_or(tok.text);
            let message = match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                true => out_of_range(&long_number(tok.text)), // a whole number the type cannot hold
                false => format!("expected {what} (a number), found {}", quoted(tok.text)),
            };
            self.error_at(tok.line, tok.col, message)
        })?;
        if value < min || value > max {
            return Err(self.error_at(
                tok.line,
                tok.col,
                out_of_range(&value.to_string()),
            ));
        }
        Ok(value)
    }

    /// The next token, which must be one of `choices`.
    pub fn word(&mut self, what: &str, choices: &[&str]) -> Result<Token<'a>> {
        let tok = self.token(what)?;
        if !choices.contains(&tok.text) {
            return Err(self.error_at(
                tok.line,
                tok.col,
                format!("expected {what} ({}), found {}", choices.join(" or "), quoted(tok.text)),
            ));
        }
        Ok(tok)
    }

    /// The rest of the current line (trailing whitespace removed) and its 1-based line number,
    /// then moves to the next line. `None` at end of input.
    pub fn line(&mut self) -> Option<(usize, &'a str)> {
        if self.line >= self.line_count {
            return None;
        }
        let full: &'a str = self.current;
        let text = full[self.col..].trim_end_matches(is_separator);
        let number = self.line + 1;
        self.next_line();
        Some((number, text))
    }

    /// Moves past the rest of the current line if only whitespace is left on it.
    pub fn finish_line(&mut self) -> Result<()> {
        if self.line < self.line_count {
            let rest = &self.current[self.col..];
            let left = rest.trim_matches(is_separator);
            if !left.is_empty() {
                let offset = rest.len() - rest.trim_start_matches(is_separator).len();
                let col = self.column(offset);
                return Err(self.error_at(self.line + 1, col, format!("unexpected {}", quoted(left))));
            }
            self.next_line();
        }
        Ok(())
    }

    /// Errors if anything but whitespace remains.
    pub fn expect_end(&mut self) -> Result<()> {
        if self.skip_blank() {
            let tok = self.token("")?;
            return Err(self.error_at(tok.line, tok.col, format!("unexpected extra input {}", quoted(tok.text))));
        }
        Ok(())
    }

    /// Position just after the last non-blank text (where a missing token was expected).
    fn end_position(&self) -> (usize, usize) {
        let lines = self.body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
        let last = lines.enumerate().filter(|(_, l)| !is_blank(l)).last();
        match last {
            Some((i, text)) => (i + 1, text.trim_end_matches(is_separator).chars().count() + 1),
            None => (1, 1),
        }
    }
}

/// Whole lines of a stream, counted, as UTF-8 text.
pub struct LineReader<'a> {
    source_name: &'a str,
    reader: &'a mut dyn BufRead,
    /// Lines read so far.
    read: usize,
}

impl<'a> LineReader<'a> {
    pub fn new(source_name: &'a str, reader: &'a mut dyn BufRead) -> Self {
        LineReader { source_name, reader, read: 0 }
    }

    /// The next line with its line break; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<String>> {
        let mut bytes = Vec::new();
        let mut capped = Read::take(&mut *self.reader, MAX_INPUT_BYTES + 1);
        let n = capped.read_until(b'\n', &mut bytes).map_err(|e| Error::io(self.source_name, e))?;
        if n == 0 {
            return Ok(None);
        }
        self.read += 1;
        if n as u64 > MAX_INPUT_BYTES {
            return Err(too_large(self.source_name, &format!("line {}", self.read)));
        }
        String::from_utf8(bytes).map(Some).map_err(|e| not_utf8(self.source_name, &e.as_bytes()[..e.utf8_error().valid_up_to()], self.read))
    }

    /// The next line that is not blank, with its 1-based number.
    pub fn next_non_blank(&mut self) -> Result<Option<(usize, String)>> {
        while let Some(line) = self.next_line()? {
            if !is_blank(&line) {
                return Ok(Some((self.read, line)));
            }
        }
        Ok(None)
    }
}

/// The error for input that stops being UTF-8 right after `valid` (its valid start), placed at
/// the bad byte's line and column, 1-based (`first_line`: the line `valid` starts on).
pub fn not_utf8(source_name: &str, valid: &[u8], first_line: usize) -> Error {
    let text = std::str::from_utf8(valid).unwrap_or_default();
    let line_start = text.rfind('\n').map_or(0, |i| i + 1);
    Error::Input {
        source_name: source_name.to_string(),
        line: first_line + text.matches('\n').count(),
        col: text[line_start..].chars().count() + 1,
        message: "not UTF-8 text".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_tokens_are_quoted_in_part() {
        let row = "y".repeat(10_000_000);
        let err = Scanner::new("t", &format!("{row} 3\n")).number::<u32>("H", 1, 20).unwrap_err().to_string();
        assert!(err.len() < 200, "{} bytes", err.len());
        assert!(err.ends_with(&format!("\"{}\"… (10000000 bytes)", "y".repeat(40))), "{err}");
        assert_eq!(quoted("X.X"), "\"X.X\"");
        // A number too large for its type, of 10 million digits: shown by its start and length.
        let nines = "9".repeat(10_000_000);
        let err = Scanner::new("t", &format!("{nines}\n")).number::<u64>("N", 1, 100).unwrap_err().to_string();
        assert_eq!(err, format!("t:1:1: N must be between 1 and 100, found {}… (10000000 digits)", "9".repeat(40)));
        let err = Scanner::new("t", "123456789012345678901234567890\n").number::<u64>("N", 1, 100).unwrap_err().to_string();
        assert_eq!(err, "t:1:1: N must be between 1 and 100, found 123456789012345678901234567890");
    }

    #[test]
    fn lines_are_found_as_they_are_reached() {
        // A million blank lines, then tokens: placed by the whole input's numbering.
        let text = format!("{}  7 x\r\n\n\n", "\n".repeat(1_000_000));
        let mut scanner = Scanner::new("t", &text);
        assert_eq!(scanner.number::<u32>("N", 1, 9).unwrap(), 7);
        assert_eq!(scanner.position(), (1_000_001, 4));
        let err = scanner.number::<u32>("M", 1, 9).unwrap_err().to_string();
        assert_eq!(err, "t:1000001:5: expected M (a number), found \"x\"");
        let err = scanner.number::<u32>("K", 1, 9).unwrap_err().to_string();
        assert_eq!(err, "t:1000001:6: expected K, found end of input");
        assert!(scanner.at_end() && scanner.line().is_none());
        assert_eq!(Scanner::new("t", "").position(), (1, 1));
        let mut lines = Scanner::new("t", "a\r\nb c\n\nd");
        let all: Vec<_> = std::iter::from_fn(|| lines.line()).collect();
        assert_eq!(all, [(1, "a"), (2, "b c"), (3, ""), (4, "d")]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_placed_by_line_and_column() {
        assert_eq!(not_utf8("t", "2 2\né.".as_bytes(), 1).to_string(), "t:2:3: not UTF-8 text");
        assert_eq!(not_utf8("t", b"", 4).to_string(), "t:4:1: not UTF-8 text");
        let mut stream = "2 2\n".as_bytes().chain(&[b'.', 0xff, b'\n'][..]);
        let mut lines = LineReader::new("s", &mut stream);
        lines.next_line().unwrap();
        assert_eq!(lines.next_line().unwrap_err().to_string(), "s:2:2: not UTF-8 text");
    }

    #[test]
    fn endless_input_is_refused_at_the_cap() {
        let err = read_capped("/dev/zero", &mut std::io::repeat(0)).unwrap_err().to_string();
        assert_eq!(err, "/dev/zero: input is larger than 256 MiB; not a game input");
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let err = LineReader::new("z", &mut zeros).next_line().unwrap_err().to_string();
        assert_eq!(err, "z: line 1 is larger than 256 MiB; not a game input");
        assert_eq!(read_capped("t", &mut "2 2\n..\n".as_bytes()).unwrap(), b"2 2\n..\n");
    }

    /// Columns count characters, not bytes: `é` is one column (two bytes in UTF-8).
    #[test]
    fn columns_count_characters() {
        let mut s = Scanner::new("t", "ééé 3 x\n");
        assert_eq!(s.token("a").unwrap().col, 1);
        assert_eq!(s.number::<u32>("n", 0, 9).unwrap(), 3);
        assert_eq!(s.expect_end().unwrap_err().to_string(), "t:1:7: unexpected extra input \"x\"");
        let mut s = Scanner::new("t", "éé 1\n");
        s.token("a").unwrap();
        assert_eq!(s.position(), (1, 3));
        assert_eq!(s.number::<u32>("n", 0, 0).unwrap_err().to_string(), "t:1:4: n must be between 0 and 0, found 1");
        assert_eq!(Scanner::new("t", "ü x\n").finish_line().unwrap_err().to_string(), "t:1:1: unexpected \"ü x\"");
        let mut s = Scanner::new("t", "1 ü\n");
        s.token("a").unwrap();
        assert_eq!(s.finish_line().unwrap_err().to_string(), "t:1:3: unexpected \"ü\"");
        let mut s = Scanner::new("t", "éé\n");
        s.token("a").unwrap();
        assert_eq!(s.token("b").unwrap_err().to_string(), "t:1:3: expected b, found end of input");
    }

    /// Only ASCII whitespace separates tokens (what a contest program's `scanf` skips): a
    /// Unicode space between, before or after tokens is named at its column, not skipped.
    #[test]
    fn a_unicode_space_is_named_not_skipped() {
        for (text, col, code) in [("3\u{a0}4", 2, "00A0"), ("\u{3000}3 4", 1, "3000"), ("3 4\u{2003}", 4, "2003")] {
            let mut scanner = Scanner::new("t", text);
            let err = (0..2).map(|_| scanner.number::<u32>("H", 1, 20)).find_map(Result::err).unwrap_or_else(|| scanner.expect_end().unwrap_err());
            let expected = format!("t:1:{col}: a Unicode space (U+{code}), not a separator: contest input separates tokens with ASCII spaces");
            assert!(err.to_string().starts_with(&expected), "{text:?}: {err}");
        }
        let mut scanner = Scanner::new("t", "1\t\u{0b}\u{0c}2\r\n");
        assert_eq!((scanner.number::<u32>("a", 0, 9).unwrap(), scanner.number::<u32>("b", 0, 9).unwrap()), (1, 2));
        assert!(scanner.at_end());
        let mut scanner = Scanner::new("t", "..\u{a0}\n");
        assert_eq!(scanner.line(), Some((1, "..\u{a0}")));
    }

    #[test]
    fn a_byte_order_mark_is_named() {
        let err = Scanner::new("t", "\u{feff}2 2\n").number::<u32>("H", 1, 20).unwrap_err().to_string();
        assert_eq!(err, "t:1:1: a UTF-8 byte-order mark (U+FEFF) where the input expects text: save the file without one");
    }

    #[test]
    fn numbers_and_positions() {
        let mut s = Scanner::new("t", "3 4\r\n  x\n");
        assert_eq!(s.number::<u32>("H", 1, 20).unwrap(), 3);
        assert_eq!(s.number::<u32>("W", 1, 20).unwrap(), 4);
        let err = s.number::<u32>("N", 1, 9).unwrap_err().to_string();
        assert_eq!(err, "t:2:3: expected N (a number), found \"x\"");
        let err = s.number::<u32>("N", 1, 9).unwrap_err().to_string();
        assert_eq!(err, "t:2:4: expected N, found end of input");
    }

    #[test]
    fn range_error_names_value() {
        let mut s = Scanner::new("t", "21");
        let err = s.number::<u32>("H", 1, 20).unwrap_err().to_string();
        assert_eq!(err, "t:1:1: H must be between 1 and 20, found 21");
    }

    #[test]
    fn lines_strip_cr_and_trailing_space() {
        let mut s = Scanner::new("t", "2 2 \r\n.X  \r\n");
        s.number::<u8>("H", 1, 20).unwrap();
        s.number::<u8>("W", 1, 20).unwrap();
        s.finish_line().unwrap();
        assert_eq!(s.line(), Some((2, ".X")));
    }
}
