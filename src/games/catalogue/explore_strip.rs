//! What `sprague serve` shows of the cross strip (a 1×N strip, three x's in a row win) and of
//! the divisor game (replace N by a proper divisor).

use super::cross::{has_three, Cross, CrossClaim, MAX_N as MAX_STRIP};
use super::divisor::{claimed_grundy, prime_factors, MAX_N};
use crate::error::{Error, Result};
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, check_moves, move_info, Eval, SOURCE};
use crate::impartial::BruteForce;
use crate::input::Scanner;
use serde_json::json;

pub fn cross() -> Box<dyn Explore> {
    Box::new(CrossExplorer)
}

pub fn divisor() -> Box<dyn Explore> {
    Box::new(DivisorExplorer)
}

/// Longest strip the explorer solves: by real play over the whole strip (the claim covers
/// empty strips only, and a position part-way through is not one).
pub const MAX_SEARCH: u32 = 20;

struct CrossExplorer;

/// Reads N, then optionally the strip (N characters: `.` empty, `x` written).
fn parse_strip(text: &str) -> Result<(u32, u64)> {
    let mut s = Scanner::new(SOURCE, text);
    let n = s.number::<u32>("N (strip length)", 1, MAX_STRIP)?;
    if n > MAX_SEARCH {
        return Err(Error::Usage(format!(
            "cross: a strip of {n} cells is too long to explore; the explorer plays the whole strip out (up to 2^N positions) and takes at most {MAX_SEARCH} cells"
        )));
    }
    let mut x = 0u64;
    if !s.at_end() {
        let tok = s.token("the strip")?;
        if tok.text.chars().count() != n as usize {
            return Err(s.error_at(tok.line, tok.col, format!("the strip must have N = {n} cells, found {}", tok.text.chars().count())));
        }
        for (i, c) in tok.text.chars().enumerate() {
            match c {
                '.' => {}
                'x' => x |= 1 << i,
                _ => return Err(s.error_at(tok.line, tok.col + i, format!("cell {} must be '.' or 'x', found {c:?}", i + 1))),
            }
        }
    }
    s.expect_end()?;
    Ok((n, x))
}

fn strip_text(n: u32, x: u64) -> String {
    let cells: String = (0..n).map(|c| if x >> c & 1 == 1 { 'x' } else { '.' }).collect();
    format!("{n}\n{cells}\n")
}

impl Explore for CrossExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "cross",
            title: "Cross on a 1×N strip (Treblecross)".to_string(),
            view: View::Text,
            format: format!(
                "N (1 to {MAX_SEARCH} here; the contest allows {MAX_STRIP}), then optionally the strip: N characters, `.` empty and `x` written. Outcomes by real play (three x's in a row win)."
            ),
            example: "7\n".to_string(),
            grundy: false,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let (n, x) = parse_strip(position)?;
        let game = Cross(CrossClaim::Solver);
        let mut search = BruteForce::new(&game);
        let free: Vec<u32> = if has_three(x) { Vec::new() } else { (0..n).filter(|&c| x >> c & 1 == 0).collect() };
        let moves = free
            .iter()
            .map(|&c| {
                let after = x | 1 << c;
                let eval = Eval::outcome(search.first_player_wins(&(n, after)));
                move_info(format!("cell {}", c + 1), strip_text(n, after), eval, json!({"cell": c + 1, "three": has_three(after)}))
            })
            .collect();
        let text = strip_text(n, x);
        let drawing = json!({"text": text.lines().nth(1).unwrap_or_default(), "cells": n});
        Ok(analysis(text, Eval::outcome(search.first_player_wins(&(n, x))), drawing, moves))
    }
}

struct DivisorExplorer;

/// The divisors d of n with 1 < d < n, ascending, from its prime factors.
fn proper_divisors(n: u64) -> Result<Vec<u64>> {
    let factors = prime_factors(n);
    let mut powers: Vec<(u64, u32)> = Vec::new();
    for p in factors {
        match powers.last_mut() {
            Some((q, e)) if *q == p => *e += 1,
            _ => powers.push((p, 1)),
        }
    }
    let count: u64 = powers.iter().map(|&(_, e)| u64::from(e) + 1).product();
    check_moves("divisor", count.saturating_sub(2))?;
    let mut divisors = vec![1u64];
    for (p, e) in powers {
        let known = divisors.clone();
        let mut power = 1;
        for _ in 0..e {
            power *= p;
            divisors.extend(known.iter().map(|d| d * power));
        }
    }
    divisors.sort_unstable();
    divisors.retain(|&d| d != 1 && d != n);
    Ok(divisors)
}

impl Explore for DivisorExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "divisor",
            title: "Divisor game".to_string(),
            view: View::Text,
            format: format!("The contest input: N (1 to {MAX_N}). A move replaces N by a divisor other than 1 and N."),
            example: "12\n".to_string(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let mut s = Scanner::new(SOURCE, position);
        let n = s.number::<u64>("N", 1, MAX_N)?;
        s.expect_end()?;
        let moves = proper_divisors(n)?
            .into_iter()
            .map(|d| move_info(format!("to {d}"), format!("{d}\n"), Eval::grundy(u64::from(claimed_grundy(d))), json!({"divisor": d})))
            .collect();
        let factors: Vec<String> = prime_factors(n).iter().map(u64::to_string).collect();
        let shown = if factors.len() > 1 { format!("{n} = {}", factors.join(" · ")) } else { n.to_string() };
        let drawing = json!({"text": shown, "factors": prime_factors(n)});
        Ok(analysis(format!("{n}\n"), Eval::grundy(u64::from(claimed_grundy(n))), drawing, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    #[test]
    fn divisors_and_their_values() {
        let analysis = divisor().analyse("12").unwrap();
        let names: Vec<&str> = analysis.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["to 2", "to 3", "to 4", "to 6"]);
        assert_eq!(analysis.value, Some(2));
        assert_eq!(analysis.drawing["text"], "12 = 2 · 2 · 3");
        let err = divisor().analyse("97821761637600\n").unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "17280 divisors: {err}");
    }

    #[test]
    fn cross_plays_the_strip() {
        let analysis = cross().analyse("2\n").unwrap();
        assert_eq!(analysis.winner, Winner::Second, "x then x fills the strip");
        let analysis = cross().analyse("5\nx.x..\n").unwrap();
        assert!(analysis.moves[0].winning, "cell 2 makes three");
        assert!(matches!(cross().analyse("21\n").unwrap_err(), Error::Usage(_)));
        assert_eq!(cross().analyse("3\nx.y\n").unwrap_err().to_string(), "position:2:3: cell 3 must be '.' or 'x', found 'y'");
    }

    /// The longest strip's search stops once its client has left (the brute force looks at the
    /// flag at every step: impartial's tests), and the next analysis is answered.
    #[test]
    fn a_cancelled_search_stops_and_the_next_one_is_answered() {
        use crate::game::explore::Cancel;
        let explorer = cross();
        let cancel = Cancel::default();
        let stopped = std::thread::scope(|scope| {
            let running = scope.spawn(|| explorer.analyse_unless("20\n", &cancel));
            cancel.cancel();
            running.join().unwrap()
        });
        let err = stopped.unwrap_err().to_string();
        assert!(err.starts_with("cross: the analysis of \"20\\n\" was cancelled ") && err.ends_with(" s in: its client left"), "{err}");
        let analysis = explorer.analyse_unless("2\n", &Cancel::default()).unwrap();
        assert_eq!(analysis.winner, Winner::Second);
    }
}
