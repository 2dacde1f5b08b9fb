//! The Sprague–Grundy catalogue: Nim and its variants, Pimber, polygon chords, cross strip, divisor game.

pub mod claimed;
pub mod commands;
pub mod contest;
pub mod cross;
pub mod divisor;
pub mod entries;
pub mod explore;
pub mod explore_polygon;
pub mod explore_strip;
pub mod misere_nim;
pub mod moves;
pub mod nim;
pub mod odd_even_nim;
pub mod piles;
pub mod pimber;
pub mod polygon;
pub mod rules;
pub mod run;
pub mod verify;

pub use entries::{entry, GAMES};

/// The column names of catalogue game `name` (the Nim family's for a name it does not have).
pub fn columns(name: &str) -> crate::output::records::Columns {
    entry(name).map_or(commands::PILES, |g| g.columns)
}
