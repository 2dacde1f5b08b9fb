//! Shrinking any text input: smaller texts derived from one, the largest cut first — blocks of
//! lines deleted, single tokens deleted, numbers lowered — each deletion also offered with a
//! count lowered to match (a number of the first line, or of the line before the deleted part),
//! so that inputs whose first line says how many lines or numbers follow can shrink while a
//! validator keeps them consistent.

use crate::output::text::counted;
use crate::stress::numbers;

/// A text input split into lines of tokens (whitespace-separated words).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Text {
    lines: Vec<Vec<String>>,
    /// The text ended with a line end.
    newline: bool,
}

impl Text {
    fn parse(input: &[u8]) -> Text {
        let text = String::from_utf8_lossy(input);
        let newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(&text);
        let lines = if text.is_empty() { Vec::new() } else { body.split('\n').map(|l| l.split_whitespace().map(str::to_string).collect()).collect() };
        Text { lines, newline }
    }

    fn render(&self) -> Vec<u8> {
        let mut out = self.lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n");
        if self.newline && !self.lines.is_empty() {
            out.push('\n');
        }
        out.into_bytes()
    }

    /// Positions (line, token) of the integer tokens of line `line`.
    fn numbers_on(&self, line: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let tokens = self.lines.get(line).map_or(&[][..], |l| &l[..]);
        tokens.iter().enumerate().filter(|(_, t)| integer(t).is_some()).map(move |(i, _)| (line, i))
    }

    /// The counts a deletion at line `line` may have to lower: the numbers of the first line and
    /// of the line before `line`.
    fn counts_before(&self, line: usize) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = if line > 0 { self.numbers_on(0).collect() } else { Vec::new() };
        if line > 1 {
            out.extend(self.numbers_on(line - 1));
        }
        out
    }

    /// This text with the integer at `at` changed by `delta`, if it stays non-negative.
    fn changed(&self, at: (usize, usize), delta: i128) -> Option<Text> {
        let value = integer(&self.lines[at.0][at.1])? + delta;
        let mut out = self.clone();
        out.lines[at.0][at.1] = value.to_string();
        (value >= 0).then_some(out)
    }
}

/// The value of an integer token (an optional sign and digits).
fn integer(token: &str) -> Option<i128> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    (!digits.is_empty() && digits.len() <= 30 && digits.bytes().all(|b| b.is_ascii_digit())).then(|| token.parse().ok()).flatten()
}

/// Smaller texts derived from `input`, the largest cut first; none equal to it, none repeated.
pub fn candidates(input: &[u8]) -> Vec<Vec<u8>> {
    let text = Text::parse(input);
    let mut out: Vec<Text> = Vec::new();
    line_deletions(&text, &mut out);
    token_deletions(&text, &mut out);
    number_lowerings(&text, &mut out);
    let mut seen = std::collections::HashSet::new();
    out.into_iter().map(|t| t.render()).filter(|r| r[..] != *input && seen.insert(r.clone())).collect()
}

/// `with` and, after it, `with` with each count before `line` lowered by `by` (and by 1).
fn with_counts(text: &Text, with: Text, line: usize, by: u64, out: &mut Vec<Text>) {
    let counts = text.counts_before(line);
    out.push(with.clone());
    for by in [by, 1].into_iter().take(if by > 1 { 2 } else { 1 }) {
        out.extend(counts.iter().filter_map(|&at| with.changed(at, -(by as i128))));
    }
}

/// Blocks of lines deleted: halves, quarters, … single lines.
fn line_deletions(text: &Text, out: &mut Vec<Text>) {
    let n = text.lines.len();
    let mut size = n / 2;
    while size >= 1 {
        for start in (0..n).step_by(size) {
            let end = (start + size).min(n);
            let mut cut = text.clone();
            cut.lines.drain(start..end);
            with_counts(text, cut, start, (end - start) as u64, out);
        }
        size /= 2;
    }
}

/// Single tokens deleted (a line left empty is deleted with its last token).
fn token_deletions(text: &Text, out: &mut Vec<Text>) {
    for (l, tokens) in text.lines.iter().enumerate().filter(|(_, t)| t.len() > 1) {
        for t in 0..tokens.len() {
            let mut cut = text.clone();
            cut.lines[l].remove(t);
            with_counts(text, cut, l, 1, out);
        }
    }
}

/// Integers lowered towards 0 (magnitudes of negative ones): 0, 1, halfway, minus one or two.
fn number_lowerings(text: &Text, out: &mut Vec<Text>) {
    for (l, tokens) in text.lines.iter().enumerate() {
        for (t, token) in tokens.iter().enumerate() {
            let Some(value) = integer(token).filter(|v| v.unsigned_abs() <= u64::MAX as u128) else { continue };
            for lower in numbers::lower(value.unsigned_abs() as u64, 0) {
                let mut next = text.clone();
                next.lines[l][t] = if value < 0 && lower > 0 { format!("-{lower}") } else { lower.to_string() };
                out.push(next);
            }
        }
    }
}

/// Larger texts derived from `input` (for the slowest-input search): each integer raised
/// (doubled, by a tenth, by one), each line repeated and each line's last token repeated, with
/// the counts before them raised by one as well.
pub fn larger(input: &[u8]) -> Vec<Vec<u8>> {
    let text = Text::parse(input);
    let mut out: Vec<Text> = Vec::new();
    for (l, tokens) in text.lines.iter().enumerate() {
        for (t, token) in tokens.iter().enumerate() {
            let Some(value) = integer(token).filter(|v| *v >= 0) else { continue };
            for raised in [value.saturating_mul(2), value + (value / 10).max(1), value + 1] {
                let mut next = text.clone();
                next.lines[l][t] = raised.to_string();
                out.push(next);
            }
        }
        let Some(last) = tokens.last() else { continue };
        let mut repeated = text.clone();
        repeated.lines.insert(l, tokens.clone());
        let mut longer = text.clone();
        longer.lines[l].push(last.clone());
        for grown in [repeated, longer] {
            out.push(grown.clone());
            out.extend(text.counts_before(l).into_iter().filter_map(|at| grown.changed(at, 1)));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.into_iter().map(|t| t.render()).filter(|r| r[..] != *input && seen.insert(r.clone())).collect()
}

/// The size of a text input for people: `3 lines, 7 tokens`.
pub fn describe(input: &[u8]) -> String {
    let text = Text::parse(input);
    let tokens: usize = text.lines.iter().map(Vec::len).sum();
    format!("{}, {}, {}", counted(text.lines.len() as u64, "line"), counted(tokens as u64, "token"), counted(input.len() as u64, "byte"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<String> {
        candidates(input.as_bytes()).into_iter().map(|c| String::from_utf8(c).unwrap()).collect()
    }

    #[test]
    fn lines_then_tokens_then_numbers() {
        let all = texts("2\n5 x\n");
        assert_eq!(all[0], "5 x\n", "the first half of the lines first");
        assert!(all.contains(&"2\n".to_string()) && all.contains(&"1\n5 x\n".to_string()));
        assert!(all.contains(&"2\nx\n".to_string()) && all.contains(&"2\n5\n".to_string()));
        for lowered in ["0\n5 x\n", "1\n5 x\n", "2\n2 x\n", "2\n4 x\n"] {
            assert!(all.contains(&lowered.to_string()), "{lowered} in {all:?}");
        }
        assert!(!all.contains(&"2\n5 x\n".to_string()));
        assert_eq!(describe(b"2\n5 x\n"), "2 lines, 3 tokens, 6 bytes");
        assert_eq!(describe(b""), "0 lines, 0 tokens, 0 bytes");
    }

    #[test]
    fn a_deletion_comes_with_its_count_lowered() {
        // The first line counts the lines after it: deleting one needs the count lowered too.
        let all = texts("3\na\nb\nc\n");
        let at = |t: &str| all.iter().position(|c| c == t).unwrap_or_else(|| panic!("{t} not in {all:?}"));
        assert!(at("3\nb\nc\n") < at("2\nb\nc\n"), "plain deletion, then with the count");
        assert!(all.contains(&"2\na\nb\n".to_string()) && all.contains(&"1\na\n".to_string()), "two lines cut, the count lowered by 2");
        // Tokens counted on the line before them.
        let all = texts("1\n3\n7 8 9\n");
        assert!(all.contains(&"1\n2\n7 9\n".to_string()), "{all:?}");
    }

    #[test]
    fn larger_texts_raise_numbers_and_repeat_with_their_counts() {
        let all: Vec<String> = larger(b"2\n5 7\n").into_iter().map(|c| String::from_utf8(c).unwrap()).collect();
        for grown in ["4\n5 7\n", "3\n5 7\n", "2\n10 7\n", "2\n5 7 7\n", "3\n5 7 7\n", "2\n5 7\n5 7\n", "3\n5 7\n5 7\n"] {
            assert!(all.contains(&grown.to_string()), "{grown} in {all:?}");
        }
    }

    #[test]
    fn negative_numbers_and_texts_without_a_final_line_end() {
        let all = texts("-8");
        assert_eq!(all, ["0", "-1", "-4", "-5", "-6", "-7"]);
        assert_eq!(Text::parse(b"a  b\n\nc").render(), b"a b\n\nc");
        assert_eq!(integer("12"), Some(12));
        assert_eq!(integer("-"), None);
        assert_eq!(integer("1.5"), None);
    }
}
