//! The catalogue games' move rules and whole-position brute force: the naive oracle side, which names only these rules and `crate::impartial`, never a claim (tests/oracle_independence.rs).

pub mod cross;
pub mod divisor;
pub mod misere_nim;
pub mod nim;
pub mod odd_even_nim;
pub mod piles;
pub mod pimber;
pub mod polygon;
