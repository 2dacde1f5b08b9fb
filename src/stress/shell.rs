//! A shell command line made to work from the private directory the program runs in: its words
//! that name the user's files (`./a.out`, `sol.py`, `< in.txt`) made absolute, as a direct
//! command's are. Quoted or expanded words, options, command names looked up on PATH and the
//! targets of `>` are left as typed (a program never writes into the user's directory by a
//! relative name).

use super::command::absolute_if_file;

/// Characters that end a word: blanks and the shell's operators.
const OPERATORS: &[char] = &['|', '&', ';', '<', '>', '(', ')', '\n'];
/// A word holding any of these is quoted, expanded or an assignment: left as typed.
const SPECIAL: &[char] = &['\'', '"', '\\', '$', '`', '*', '?', '[', ']', '{', '}', '~', '=', '#', '!'];

/// `text` with every plain word naming an existing file or directory made absolute, except a
/// command name without a '/' (sh looks it up on PATH) and the target of `>`.
pub fn absolute_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut command_position = true;
    let mut redirect: Option<char> = None;
    let mut last: Option<char> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == ' ' || c == '\t' || OPERATORS.contains(&c) {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            if OPERATORS.contains(&c) {
                let fd_copy = c == '&' && matches!(last, Some('<' | '>'));
                if matches!(c, '<' | '>') {
                    redirect = Some(c);
                } else if !fd_copy {
                    command_position = c != ')';
                }
            }
            last = Some(c);
            continue;
        }
        let end = word_end(rest);
        let (word, after) = rest.split_at(end);
        let fd_number = after.starts_with(['<', '>']);
        let plain = !word.contains(SPECIAL) && !word.starts_with('-');
        let looked_up = command_position && !word.contains('/') && redirect.is_none();
        if plain && !fd_number && !looked_up && redirect != Some('>') {
            let absolute = absolute_if_file(word);
            out.push_str(&shlex::try_quote(&absolute).map_or(absolute.clone(), |q| q.into_owned()));
        } else {
            out.push_str(word);
        }
        if redirect.take().is_none() && !(command_position && word.contains('=')) {
            command_position = false;
        }
        last = word.chars().last();
        rest = after;
    }
    out
}

/// The length of the word at the start of `text`: up to a blank or an operator outside quotes
/// (a quoted part, or a character after a backslash, belongs to the word).
fn word_end(text: &str) -> usize {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"'), '\\') | (None, '\\') => escaped = true,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c == ' ' || c == '\t' || OPERATORS.contains(&c) => return at,
            (None, _) => {}
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here(name: &str) -> String {
        std::path::absolute(name).unwrap().to_string_lossy().into_owned()
    }

    #[test]
    fn files_named_relatively_become_absolute() {
        let (toml, src) = (here("Cargo.toml"), here("src"));
        assert_eq!(absolute_words("cat Cargo.toml | wc -l"), format!("cat {toml} | wc -l"));
        assert_eq!(absolute_words("./src/x < Cargo.toml"), format!("./src/x < {toml}"), "a missing program stays as typed");
        assert_eq!(absolute_words("ls src 2>&1 | head"), format!("ls {src} 2>&1 | head"));
        assert_eq!(absolute_words("src; cat Cargo.toml"), format!("src; cat {toml}"), "command names are looked up on PATH");
    }

    #[test]
    fn quoted_options_outputs_and_missing_files_stay() {
        for text in ["cat 'Cargo.toml' | wc", "cat \"a b\" Cargo.toml.nope | wc", "echo hi > Cargo.toml", "wc --files0-from=Cargo.toml | x", "cat $HOME/Cargo.toml | wc"] {
            assert_eq!(absolute_words(text), text);
        }
        assert_eq!(absolute_words("sh -c 'cat Cargo.toml | wc'"), "sh -c 'cat Cargo.toml | wc'");
    }
}
