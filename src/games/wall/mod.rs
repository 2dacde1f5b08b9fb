//! The Wall Making Game (BOJ 11717, JAG Spring Contest 2015).

pub mod bands;
pub mod board;
pub mod claim;
pub mod contest;
pub mod dp;
pub mod generate;
pub mod mex;
pub mod naive;
pub mod packed;
pub mod rules;
pub mod search;
pub mod symmetry;
pub mod t_split;
pub mod tables;
pub mod naive_table;

pub use board::{Board, Shape};
pub use rules::Rule;
