//! Reading a program's stdout in the common answer formats: one word of a fixed set, one
//! number, or one number per line. Each `Err` says why the output is not in the format.

use crate::output::text::shorten;

/// The one token the program printed (blanks and line ends around it ignored).
pub fn single_token(stdout: &str) -> Result<&str, String> {
    let mut tokens = stdout.split_whitespace();
    match (tokens.next(), tokens.next()) {
        (None, _) => Err("empty output".into()),
        (Some(token), None) => Ok(token),
        (Some(_), Some(_)) => Err(format!("expected one answer, found {:?}", shorten(stdout))),
    }
}

/// The one word the program printed, which must be one of `words` (exact case).
pub fn one_of(stdout: &str, words: &[&str]) -> Result<String, String> {
    let expected = || words.join(" or ");
    let token = single_token(stdout).map_err(|e| format!("{e} (expected {})", expected()))?;
    match words.iter().find(|&&w| w == token) {
        Some(word) => Ok(word.to_string()),
        None => Err(format!("expected {}, found {:?}", expected(), shorten(token))),
    }
}

/// The one non-negative integer the program printed (no sign, no leading `+`).
pub fn number(stdout: &str) -> Result<u64, String> {
    let token = single_token(stdout).map_err(|e| format!("{e} (expected a number)"))?;
    parse_number(token)
}

/// Exactly `count` non-negative integers, one per line (blank lines around them ignored).
pub fn numbers_per_line(stdout: &str, count: usize) -> Result<Vec<u64>, String> {
    let lines: Vec<&str> = stdout.trim().lines().map(str::trim).collect();
    if stdout.trim().is_empty() {
        return Err(format!("empty output (expected {count} numbers, one per line)"));
    }
    if lines.len() != count {
        return Err(format!("expected {count} lines, found {}", lines.len()));
    }
    lines.iter().enumerate().map(|(i, line)| parse_number(line).map_err(|e| format!("line {}: {e}", i + 1))).collect()
}

fn parse_number(token: &str) -> Result<u64, String> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a number, found {:?}", shorten(token)));
    }
    token.parse().map_err(|_| format!("number {:?} is too large", shorten(token)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_numbers() {
        assert_eq!(one_of(" First\r\n", &["First", "Second"]), Ok("First".into()));
        assert!(one_of("first", &["First", "Second"]).unwrap_err().contains("expected First or Second"));
        assert!(one_of("", &["A", "B"]).unwrap_err().starts_with("empty output"));
        assert!(one_of("A B", &["A", "B"]).unwrap_err().contains("one answer"));
        assert_eq!(number("42\n"), Ok(42));
        assert!(number("-1").is_err() && number("1.5").is_err() && number("99999999999999999999").is_err());
        assert_eq!(numbers_per_line("3\n4\n", 2), Ok(vec![3, 4]));
        assert!(numbers_per_line("3 4\n", 2).unwrap_err().contains("expected 2 lines"));
        assert!(numbers_per_line("3\nx\n", 2).unwrap_err().starts_with("line 2"));
    }
}
