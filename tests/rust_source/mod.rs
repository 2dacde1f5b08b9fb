//! Reading Rust source for the structure tests: comments and literals stripped, test items
//! dropped, `use` trees expanded, the paths a module names resolved below `crate`.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::Path;

/// `source` without comments, string and character literals (each replaced by a space).
pub fn strip(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let (mut out, mut i) = (String::new(), 0);
    while i < chars.len() {
        let (c, next, after) = (chars[i], at(&chars, i + 1), at(&chars, i + 2));
        let find = |from: usize, end: &dyn Fn(usize) -> bool| (from..chars.len()).find(|&k| end(k)).unwrap_or(chars.len());
        let end = if c == '/' && next == '/' {
            find(i, &|k| chars[k] == '\n')
        } else if c == '/' && next == '*' {
            find(i + 2, &|k| chars[k] == '*' && at(&chars, k + 1) == '/') + 2
        } else if c == '"' || (c == 'r' && (next == '"' || next == '#' && "#\"".contains(after)) && !ident(out.chars().last())) {
            skip_string(&chars, i)
        } else if c == '\'' && after == '\'' {
            i + 3
        } else if c == '\'' && next == '\\' {
            find(i + 2, &|k| chars[k] == '\'') + 1
        } else {
            out.push(c);
            i += 1;
            continue;
        };
        out.push(' ');
        i = end;
    }
    out
}

fn at(chars: &[char], i: usize) -> char {
    chars.get(i).copied().unwrap_or(' ')
}

pub fn ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The index after the string literal (plain or raw) that starts at `i`.
fn skip_string(chars: &[char], mut i: usize) -> usize {
    if chars[i] == 'r' {
        let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
        i += 2 + hashes;
        while i < chars.len() && !(chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&c| c == '#')) {
            i += 1;
        }
        return i + 1 + hashes;
    }
    i += 1;
    while i < chars.len() && chars[i] != '"' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// `code` without the items marked `#[cfg(test)]` (a `mod x;` line or a braced item).
pub fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let end = match (item.find('{'), item.find(';')) {
            (Some(open), Some(semi)) if semi < open => semi + 1,
            (Some(open), _) => open + closing(&item[open..]),
            (None, Some(semi)) => semi + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out + rest
}

/// The length of the braced block at the start of `text`, braces included.
fn closing(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        depth += match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        };
        if depth == 0 {
            return i + 1;
        }
    }
    text.len()
}

/// The paths of one `use` tree under `prefix`, expanded (`a::{self, b, c::d}` → `a`, `a::b`,
/// `a::c::d`).
pub fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        out.push(format!("{prefix}{}", tree.split(" as ").next().unwrap_or_default().trim()).replace("::self", ""));
        return;
    };
    let (head, inner) = (&tree[..open], &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())]);
    let (mut depth, mut from) = (0, 0);
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if !inner[from..i].trim().is_empty() {
                    expand(&format!("{prefix}{head}"), &inner[from..i], out);
                }
                from = i + 1;
            }
            _ => {}
        }
    }
}

/// A word (identifier or keyword) or one punctuation character of stripped code.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Word(String),
    Punct(char),
}

pub fn tokens(code: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if ident(Some(c)) {
            let mut word = c.to_string();
            while let Some(&next) = chars.peek().filter(|&&n| ident(Some(n))) {
                word.push(next);
                chars.next();
            }
            out.push(Token::Word(word));
        } else if !c.is_whitespace() {
            out.push(Token::Punct(c));
        }
    }
    out
}

/// The text of `tokens` (a space between two words).
pub fn text(tokens: &[Token]) -> String {
    let mut out = String::new();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Word(w) if i > 0 && matches!(tokens[i - 1], Token::Word(_)) => out += &format!(" {w}"),
            Token::Word(w) => out += w,
            Token::Punct(c) => out.push(*c),
        }
    }
    out
}

/// Every path the code names (expanded `use` trees and `a::b` paths), with the inline modules
/// (`mod name { … }`) it is named in.
pub fn paths(code: &str) -> Vec<(Vec<String>, String)> {
    let tokens = tokens(code);
    let (mut scope, mut depth, mut out) = (Vec::<(String, usize)>::new(), 0, Vec::new());
    let mut i = 0;
    let word = |k: usize| match tokens.get(k) {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let colons = |k: usize| tokens.get(k) == Some(&Token::Punct(':')) && tokens.get(k + 1) == Some(&Token::Punct(':'));
    while i < tokens.len() {
        let inline: Vec<String> = scope.iter().map(|(n, _)| n.clone()).collect();
        match &tokens[i] {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                if scope.last().is_some_and(|&(_, d)| d == depth) {
                    scope.pop();
                }
                depth -= 1;
            }
            Token::Word(w) if w == "mod" && word(i + 1).is_some() && tokens.get(i + 2) == Some(&Token::Punct('{')) => {
                scope.push((word(i + 1).expect("checked").to_string(), depth + 1));
                i += 1;
            }
            Token::Word(w) if w == "use" => {
                let end = (i..tokens.len()).find(|&k| tokens[k] == Token::Punct(';')).unwrap_or(tokens.len());
                let mut used = Vec::new();
                expand("", &text(&tokens[i + 1..end]), &mut used);
                out.extend(used.into_iter().map(|p| (inline.clone(), p)));
                i = end;
            }
            Token::Word(_) if colons(i + 1) && (i < 2 || !colons(i - 2)) => {
                let mut end = i + 1;
                while colons(end) && word(end + 2).is_some() {
                    end += 3;
                }
                out.push((inline, text(&tokens[i..end])));
                i = end - 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `path`, named in module `here` (segments below `crate`), as segments below `crate`; None
/// when it names something outside the crate. `children`: the modules the file declares.
pub fn resolve(path: &str, here: &[String], children: &BTreeSet<String>) -> Option<Vec<String>> {
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty() && *s != "*").collect();
    let mut base = here.to_vec();
    let mut rest = &segments[..];
    match *rest.first()? {
        "crate" => {
            base.clear();
            rest = &rest[1..];
        }
        "self" => rest = &rest[1..],
        "super" => {
            while rest.first() == Some(&"super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        first if children.contains(first) => {}
        _ => return None,
    }
    Some(base.into_iter().chain(rest.iter().map(|s| s.to_string())).collect())
}

/// The module of a file under src/ (`games/wall/board/mod.rs` → games, wall, board).
pub fn module_of(relative: &Path) -> Vec<String> {
    let mut segments: Vec<String> = relative.with_extension("").iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if segments.last().is_some_and(|s| s == "mod" || s == "lib") {
        segments.pop();
    }
    segments
}

