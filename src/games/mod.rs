//! The games, one folder each: rules, input format, claimed solver, naive oracle, verification.

pub mod cards;
pub mod catalogue;
pub mod dagame;
pub mod footholds;
pub mod kings;
pub mod wall;
