//! The Wall Making Game (BOJ 11717, JAG Spring Contest 2015).

pub mod bands;
pub mod board;
pub mod census;
pub mod claim;
pub mod commands;
pub mod dp;
pub mod engine;
pub mod naive;
pub mod naive_table;
pub mod report;
pub mod rules;
pub mod shrink;
pub mod symmetry;
pub mod t_split;
pub mod tables;
pub mod verify;

pub use commands::GAME;

pub use board::{Board, Shape};
pub use rules::Rule;
