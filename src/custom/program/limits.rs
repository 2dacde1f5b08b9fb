//! How a message about a game program's limit says to get within it, and the memory an
//! explorer keeps per position.

/// The option that makes a run smaller (`--max`), where the command has one: messages about a
/// limit advise lowering it besides raising the limit ([`advice`]).
pub const SMALLER: Option<&str> = Some("--max");

/// How to get within a limit: lower `smaller` (when the command has such an option), or
/// `raise` (an option, and when).
pub fn advice(smaller: Option<&str>, raise: &str) -> String {
    match smaller {
        Some(option) => format!("lower {option}, or {raise}"),
        None => raise.to_string(),
    }
}

/// The memory a run takes at its peak for `positions` positions with short tokens, estimated:
/// about 250 bytes each (measured: 248 for 1.6 million positions answered by one `positions`
/// line, kept and judged, `verify custom`), the positions kept and the requests and answers
/// about them held at once.
pub fn kept_bytes(positions: usize) -> u64 {
    250 * positions as u64
}
