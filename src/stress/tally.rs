//! What each generator handed out in a stress run: how many inputs, and the largest (the
//! longest input text, the last in byte order among equally long ones: `20` after `10`) with
//! its size for people.

use super::contest::{Cases, Contest, Source};
use crate::output::text::counted;
use serde_json::{json, Value};
use std::sync::Mutex;

/// The inputs one generator handed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratorTally {
    pub source: Source,
    pub runs: u64,
    /// The largest input: its size as the game describes it, and its length in bytes.
    pub largest: String,
    pub largest_bytes: usize,
}

/// The tallies of the generators of one run, filled as their cases are handed out, each with
/// its largest input's text.
pub struct Tallies(Mutex<Vec<(GeneratorTally, Vec<u8>)>>);

impl Tallies {
    pub fn new(sources: &[Source]) -> Self {
        let empty = |&source| (GeneratorTally { source, runs: 0, largest: String::new(), largest_bytes: 0 }, Vec::new());
        Tallies(Mutex::new(sources.iter().map(empty).collect()))
    }

    /// `cases`, counted into these tallies as they are taken.
    pub fn count<'a, G: Contest>(&'a self, game: &'a G, cases: Cases<'a, (Source, G::Case)>) -> Cases<'a, (Source, G::Case)> {
        let mut text = Vec::new();
        Box::new(cases.inspect(move |(source, case)| {
            text.clear();
            game.write_input(case, &mut text);
            let mut all = self.0.lock().expect("no panics while counting");
            if let Some((t, largest)) = all.iter_mut().find(|(t, _)| t.source == *source) {
                t.runs += 1;
                if t.runs == 1 || larger(&text, largest) {
                    t.largest_bytes = text.len();
                    t.largest = game.describe(case);
                    largest.clone_from(&text);
                }
            }
        }))
    }

    pub fn into_inner(self) -> Vec<GeneratorTally> {
        self.0.into_inner().expect("no panics while counting").into_iter().map(|(t, _)| t).collect()
    }
}

/// True when input `text` is larger than `than`: longer, or as long and later in byte order.
fn larger(text: &[u8], than: &[u8]) -> bool {
    (text.len(), text) > (than.len(), than)
}

/// The tallies in manifest.json: `{"random": {"runs": …, "largest": …, "largest_bytes": …}, …}`.
pub fn to_json(tallies: &[GeneratorTally]) -> Value {
    let entry = |t: &GeneratorTally| (t.source.name().to_string(), json!({"runs": t.runs, "largest": t.largest, "largest_bytes": t.largest_bytes}));
    Value::Object(tallies.iter().map(entry).collect())
}

/// The tallies for people: `exhaustive 120 runs (largest 3x3, 0 X); random …`.
pub fn text(tallies: &[GeneratorTally]) -> String {
    let one = |t: &GeneratorTally| match t.runs {
        0 => format!("{} no runs", t.source),
        n => format!("{} {} (largest {})", t.source, counted(n, "run"), t.largest),
    };
    tallies.iter().map(one).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_generator_and_keeps_the_largest() {
        let sample = GeneratorTally { source: Source::Random, runs: 3, largest: "2x2, 1 X".into(), largest_bytes: 8 };
        let none = GeneratorTally { source: Source::Adversarial, runs: 0, largest: String::new(), largest_bytes: 0 };
        assert_eq!(text(&[sample.clone(), none.clone()]), "random 3 runs (largest 2x2, 1 X); adversarial no runs");
        assert_eq!(to_json(&[sample])["random"]["runs"], 3);
    }

    #[test]
    fn the_largest_is_the_longest_then_the_last_in_byte_order() {
        assert!(larger(b"20\n", b"10\n") && larger(b"10\n", b"9\n") && !larger(b"9\n", b"10\n") && !larger(b"10\n", b"10\n"));
    }
}
