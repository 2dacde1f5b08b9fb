//! The games: each module holds a game's rules, its claimed solver and its brute force.

pub mod wall;
pub mod dagame;
