//! Text for people: counted nouns, program text shortened onto one line, byte sizes.

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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn formats_bytes() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
    }
}
