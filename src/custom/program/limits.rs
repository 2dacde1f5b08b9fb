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

/// The memory an explorer takes to keep `positions` positions, estimated (about 100 bytes each).
pub fn kept_bytes(positions: usize) -> u64 {
    100 * positions as u64
}
