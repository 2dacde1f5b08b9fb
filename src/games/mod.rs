//! The games: each module holds a game's rules, its claimed solver and its brute force.

pub mod wall;
pub mod cross;
pub mod divisor;
pub mod impartial;
pub mod misere_nim;
pub mod nim;
pub mod odd_even_nim;
pub mod piles;
pub mod pimber;
pub mod polygon;
pub mod dagame;
pub mod cards;
pub mod footholds;
pub mod kings;
