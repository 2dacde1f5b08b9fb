//! Text for people: counted nouns, program text shortened onto one line or kept by lines, bytes escaped, byte sizes, names in Markdown.

/// `n` and its noun, plural unless `n` is 1: "1 size", "16 sizes", "2 mismatches".
pub fn counted(n: u64, noun: &str) -> String {
    let plural = match n {
        1 => "",
        _ if ["s", "x", "z", "ch", "sh"].iter().any(|end| noun.ends_with(end)) => "es",
        _ => "s",
    };
    format!("{n} {noun}{plural}")
}

/// Longest program output or message [`shorten`] and [`shorten_end`] keep (characters).
const KEEP: usize = 200;

/// `text` trimmed and on one line, its other control characters (a terminal's escape
/// sequences, NUL) written as escapes such as `\u{1b}`: safe to print.
fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        match c {
            '\r' | '\n' | '\t' => out.push(' '),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

/// `text` trimmed, on one line, at most [`KEEP`] characters (an ellipsis marks a cut).
pub fn shorten(text: &str) -> String {
    let one_line = visible(text);
    match one_line.char_indices().nth(KEEP) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}

/// `text` trimmed, on one line, its last [`KEEP`] characters (an ellipsis marks a cut): the
/// end of a program's stderr, where the error is.
pub fn shorten_end(text: &str) -> String {
    let one_line = visible(text);
    let count = one_line.chars().count();
    match one_line.char_indices().nth(count.saturating_sub(KEEP)) {
        Some((at, _)) if at > 0 => format!("…{}", &one_line[at..]),
        _ => one_line,
    }
}

/// `bytes` as text: UTF-8 where it is, each other byte written `\xNN` (a program's output
/// that is not UTF-8, shown without reaching the terminal raw).
pub fn escaped(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|b| format!("\\x{b:02x}")));
    }
    out
}

/// Most lines of a program's stderr [`last_lines`] keeps.
pub const KEPT_LINES: usize = 12;

/// The end of `text` (a program's stderr, a Python traceback) with its line breaks: its last
/// [`KEPT_LINES`] non-blank lines, each shortened and its control characters escaped, every
/// one after a line break and `indent` (a line saying how many were left out first), or
/// `: line` for a single line; empty for none. A suffix for `exit 1`.
pub fn last_lines(text: &str, indent: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    let line = |l: &str| {
        let kept = visible(l.trim_start());
        let lead = &l[..l.len() - l.trim_start().len()];
        format!("{}{}", " ".repeat(lead.chars().count().min(16)), shorten(&kept))
    };
    match lines.len() {
        0 => String::new(),
        1 => format!(": {}", line(lines[0])),
        n => {
            let skipped = n.saturating_sub(KEPT_LINES);
            let mut out = String::from(":");
            if skipped > 0 {
                out.push_str(&format!("\n{indent}({} before these)", counted(skipped as u64, "line")));
            }
            for l in &lines[skipped..] {
                out.push_str(&format!("\n{indent}{}", line(l)));
            }
            out
        }
    }
}

/// Human-readable byte count, e.g. `1.50 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

/// `text` as a Markdown code span on one line: fenced by more backticks than it holds in a row
/// (padded when it starts or ends with one), line breaks shown as `\n`.
pub fn markdown_code(text: &str) -> String {
    let text = text.replace('\r', "\\r").replace('\n', "\\n");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A relative path as a Markdown link target: every byte but letters, digits, `-._~/`
/// percent-encoded (spaces, parentheses, brackets, line breaks).
pub fn markdown_target(path: &str) -> String {
    path.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_one_code_span_and_one_link_target() {
        assert_eq!(markdown_code("nim"), "`nim`");
        assert_eq!(markdown_code("back`tick"), "``back`tick``");
        assert_eq!(markdown_code("`x"), "`` `x ``");
        assert_eq!(markdown_code("a\nb"), "`a\\nb`");
        assert_eq!(markdown_target("a b/x](evil)/report.md"), "a%20b/x%5D%28evil%29/report.md");
        assert_eq!(markdown_target("é/report.md"), "%C3%A9/report.md");
    }

    #[test]
    fn counted_nouns() {
        let said: Vec<String> = [(1, "size"), (16, "size"), (0, "mismatch"), (1, "mismatch"), (2, "P-position"), (0, "heap")]
            .iter()
            .map(|&(n, noun)| counted(n, noun))
            .collect();
        assert_eq!(said, ["1 size", "16 sizes", "0 mismatches", "1 mismatch", "2 P-positions", "0 heaps"]);
    }

    #[test]
    fn shortens_long_and_multiline_text() {
        assert_eq!(shorten("  a\nb \n"), "a b");
        assert_eq!(shorten("\u{1b}]0;pwned\u{7}\u{1b}[31mred\0"), "\\u{1b}]0;pwned\\u{7}\\u{1b}[31mred\\u{0}");
        let long = "x".repeat(500);
        assert_eq!(shorten(&long).chars().count(), KEEP + 1);
        assert_eq!(shorten_end(" a\nb\n"), "a b");
        let traceback = format!("{}\nValueError: bad\n", "y".repeat(500));
        let end = shorten_end(&traceback);
        assert!(end.starts_with('…') && end.ends_with("ValueError: bad") && end.chars().count() == KEEP + 1, "{end}");
    }

    #[test]
    fn escapes_bytes_that_are_not_utf8() {
        assert_eq!(escaped(b"\xffred \xe2\x82\xac\xe2\x82"), "\\xffred \u{20ac}\\xe2\\x82");
        assert_eq!(escaped(b"plain"), "plain");
    }

    #[test]
    fn keeps_the_last_lines_of_stderr_indented() {
        assert_eq!(last_lines("", "  "), "");
        assert_eq!(last_lines("oops\n", "  "), ": oops");
        let traceback = "Traceback (most recent call last):\n  File \"g.py\", line 4\n    f()\nValueError: \u{1b}boom\n";
        assert_eq!(last_lines(traceback, "  "), ":\n  Traceback (most recent call last):\n    File \"g.py\", line 4\n      f()\n  ValueError: \\u{1b}boom");
        let long: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let kept = last_lines(&long, "> ");
        assert!(kept.starts_with(":\n> (8 lines before these)\n> line 9\n") && kept.ends_with("> line 20"), "{kept}");
    }

    #[test]
    fn formats_bytes() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
    }
}
