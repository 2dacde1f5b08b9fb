//! Sealed JSON files: `{"format":F,"sha256":"…","content":{…}}`, the content under the SHA-256
//! of its exact text, so that no change to it (a flipped bit, an edited field) goes unnoticed
//! when it is read back: the state files of resumable runs (the checkpoints of verify, census
//! and `table octal`, the rows of `prove octal-family`).

use crate::error::{Error, Result};
use crate::output::atomic::sha256_hex;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file as read: the content's text is digested as it stands.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    format: u32,
    sha256: String,
    #[serde(borrow)]
    content: &'a serde_json::value::RawValue,
}

/// The text of a sealed file holding `content` in format `format` (one line).
pub fn seal<T: Serialize>(content: &T, format: u32) -> String {
    let content = serde_json::to_string(content).expect("state serializes");
    let digest = sha256_hex(content.as_bytes());
    format!("{{\"format\":{format},\"sha256\":\"{digest}\",\"content\":{content}}}\n")
}

/// The text of the sealed file at `path`, `None` when there is none; a file that is not UTF-8
/// text is refused as damaged, naming it (never taken for a missing one).
pub fn read_text(path: &Path) -> Result<Option<String>> {
    match crate::output::atomic::read_regular(path).and_then(|bytes| String::from_utf8(bytes).map_err(|_| std::io::ErrorKind::InvalidData.into())) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Err(Error::malformed(path, "unreadable: not UTF-8 text (the file is damaged)")),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// The content of `text`, read from `path`, refused (naming `path`) unless it is sealed in
/// format `format` and matches its digest.
pub fn unseal<T: DeserializeOwned>(path: &Path, text: &str, format: u32) -> Result<T> {
    let malformed = |e: serde_json::Error| Error::malformed(path, format!("line {} column {}: {e}", e.line(), e.column()));
    let envelope: Envelope = serde_json::from_str(text).map_err(malformed)?;
    if envelope.format != format {
        return Err(Error::malformed(path, format!("format {} is not {format} (written by another sprague version)", envelope.format)));
    }
    let content = envelope.content.get();
    if sha256_hex(content.as_bytes()) != envelope.sha256 {
        return Err(Error::malformed(path, "content does not match its sha256 (the file was changed or damaged)"));
    }
    serde_json::from_str(content).map_err(malformed)
}

/// The fields of `saved` and `now` (serialized as JSON objects) that differ, as
/// `name: LABEL0 A, LABEL1 B` (`labels` name the two sides).
pub fn differences<T: Serialize>(saved: &T, now: &T, labels: [&str; 2]) -> Vec<String> {
    let fields = |value: &T| match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (saved, now) = (fields(saved), fields(now));
    let missing = serde_json::Value::Null;
    now.iter()
        .filter(|(key, value)| saved.get(*key).unwrap_or(&missing) != *value)
        .map(|(key, value)| format!("{key}: {} {}, {} {value}", labels[0], saved.get(key).unwrap_or(&missing), labels[1]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct State {
        mask: u16,
        domain: bool,
    }

    #[test]
    fn round_trips_and_refuses_any_edit() {
        let path = Path::new("state.json");
        let text = seal(&State { mask: 5, domain: false }, 2);
        assert_eq!(unseal::<State>(path, &text, 2).unwrap(), State { mask: 5, domain: false });
        for edited in [text.replace("\"mask\":5", "\"mask\":7"), text.replace("false", "true")] {
            let err = unseal::<State>(path, &edited, 2).unwrap_err().to_string();
            assert!(err.contains("state.json") && err.contains("does not match its sha256"), "{err}");
        }
        let err = unseal::<State>(path, &text, 3).unwrap_err().to_string();
        assert!(err.contains("format 2 is not 3"), "{err}");
        let err = unseal::<State>(path, "{\"mask\": 5}", 2).unwrap_err().to_string();
        assert!(err.contains("state.json: line 1"), "{err}");
    }

    #[test]
    fn names_the_fields_that_differ() {
        let (a, b) = (State { mask: 5, domain: false }, State { mask: 7, domain: false });
        assert_eq!(differences(&a, &b, ["saved", "this run"]), ["mask: saved 5, this run 7"]);
        assert!(differences(&a, &a, ["saved", "this run"]).is_empty());
    }
}
