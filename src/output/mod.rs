//! Output formats: atomic files, typed CSV, the verify files and run manifests.

pub mod atomic;
pub mod csv;
pub mod lock;
pub mod manifest;
pub mod panels;
pub mod plots;
pub mod records;
pub mod run_report;
pub mod takeover;
pub mod verify_files;

/// `n` and its noun, plural unless `n` is 1: "1 size", "16 sizes", "2 mismatches".
pub fn counted(n: u64, noun: &str) -> String {
    let plural = match n {
        1 => "",
        _ if ["s", "x", "z", "ch", "sh"].iter().any(|end| noun.ends_with(end)) => "es",
        _ => "s",
    };
    format!("{n} {noun}{plural}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn counted_nouns() {
        let said: Vec<String> = [(1, "size"), (16, "size"), (0, "mismatch"), (1, "mismatch"), (2, "P-position")].iter().map(|&(n, noun)| super::counted(n, noun)).collect();
        assert_eq!(said, ["1 size", "16 sizes", "0 mismatches", "1 mismatch", "2 P-positions"]);
    }
}
