//! The claimed Grundy value of a wall board under each rule: the claim a verification tests.
//!
//! Standard, x-blocks and misère all claim the unchanged rectangle DP ([`dp`]); for
//! x-blocks and misère that claim is false on purpose (negative controls). T-split claims its
//! own three-piece rectangle DP ([`t_split`]).

pub mod dp;
#[cfg(target_arch = "x86_64")]
mod gather;
pub mod mex;
pub mod packed;
pub mod t_split;

use crate::games::wall::board::Board;
use dp::{RectDp, Solution};
use crate::games::wall::board::rules::Rule;
use t_split::TSplitDp;

/// The claimed Grundy value of `board` under `rule`.
pub fn claimed_grundy(board: &Board, rule: Rule) -> u32 {
    match rule {
        Rule::Standard | Rule::XBlocks | Rule::Misere => RectDp::new(board).grundy(),
        Rule::TSplit => TSplitDp::new(board).grundy(),
    }
}

/// The claimed Grundy value and the moves the claim calls winning (those leaving value 0).
pub fn solve(board: &Board, rule: Rule) -> Solution {
    match rule {
        Rule::Standard | Rule::XBlocks | Rule::Misere => dp::solve(board),
        Rule::TSplit => t_split::solve(board),
    }
}
