//! The games, one folder each (rules, input format, claimed solver, naive oracle, verification,
//! commands), and the registry from which the command line, `check` and the tests are derived.

pub mod cards;
pub mod catalogue;
pub mod dagame;
pub mod footholds;
pub mod kings;
pub mod wall;

use crate::game::Game;

/// Every game, in the order the help lists them. Adding a game is one line here.
pub static REGISTRY: &[&dyn Game] = &[
    &wall::GAME,
    &catalogue::NIM,
    &catalogue::NIM_COUNT,
    &catalogue::MISERE_NIM,
    &catalogue::ODD_EVEN_NIM,
    &catalogue::PIMBER,
    &catalogue::POLYGON,
    &catalogue::CROSS,
    &catalogue::DIVISOR,
    &dagame::GAME,
    &footholds::GAME,
    &cards::GAME,
    &kings::GAME,
];

/// The game named `name`.
pub fn find(name: &str) -> Option<&'static dyn Game> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}
