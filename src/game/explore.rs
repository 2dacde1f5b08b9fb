//! What a game shows in `sprague serve`: one position analysed (value, winner, how to draw it)
//! and every legal move with the position it leads to and that position's value.
//!
//! The JSON shapes below are the web API's (docs/serve.md); a game opts in with
//! [`crate::game::GameEntry::explore`].

use crate::error::Result;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How the page draws a game's positions (the shape of [`Analysis::drawing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// A grid of cells (wall): `{"rows", "cols", "cells": ["..X#", …], "regions": [Region]}`,
    /// a region `{"top", "left", "rows", "cols", "value"}` (0-based corner). The page draws each
    /// move on the cell its detail names (`"cell": [row, column]`, 0-based).
    Board,
    /// Heaps drawn as rows of tokens: `{"heaps": [n, …]}` plus game-specific fields (octal:
    /// `code`; polygon: `vertices`, `chords`, `regions`; docs/serve.md lists them).
    Heaps,
    /// A directed graph with tokens: `{"nodes": [{"id", "label"}], "edges": [[from, to]],
    /// "tokens": [node, …]}` (DAGame adds `colours`, each token's).
    Graph,
    /// Anything else: the position's text, shown as it is (`{"text"}`), plus fields a game
    /// adds (footholds `rows`, `total_moves`; cards `cards`, `totals`; kings `bridges`).
    Text,
}

/// Who wins with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Winner {
    /// The player to move.
    First,
    /// The other player.
    Second,
}

impl Winner {
    /// The winner of a position of Grundy value `value` under normal play.
    pub fn of_value(value: u64) -> Winner {
        if value == 0 {
            Winner::Second
        } else {
            Winner::First
        }
    }
}

/// A game as the page lists it (`GET /api/games`).
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// The registry name (`wall`), as in `sprague solve NAME`.
    pub name: &'static str,
    /// For people (`Wall Making Game (BOJ 11717)`).
    pub title: String,
    pub view: View,
    /// The position format in one or two sentences (what a position's text holds).
    pub format: String,
    /// A position to start from, in that format.
    pub example: String,
    /// True when values are Grundy values; false when only win/lose is known (minimax games).
    pub grundy: bool,
}

/// One position analysed (`POST /api/games/NAME/analyse`).
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The position's text, normalized (reading it again gives the same analysis).
    pub position: String,
    /// The Grundy value, or `None` where only the winner is known.
    pub value: Option<u64>,
    pub winner: Winner,
    /// What the page draws, in the shape [`GameInfo::view`] names.
    pub drawing: serde_json::Value,
    /// Every legal move, in the game's order (wall: row-major).
    pub moves: Vec<MoveInfo>,
}

/// A legal move and where it leads.
#[derive(Debug, Clone, Serialize)]
pub struct MoveInfo {
    /// The move as the game writes it (wall: `r c`, 1-based, as `stress --answer move` reads).
    pub name: String,
    /// The position it leads to, in the game's text format.
    pub position: String,
    /// That position's value (`None` where only the winner is known).
    pub value: Option<u64>,
    /// True when the move leaves the opponent a lost position.
    pub winning: bool,
    /// What the move does, for hovering (wall: `{"cell": [r, c], "walls": [[r, c], …], "parts":
    /// [Region]}`, the cell chosen, the new wall cells and the regions the move's region splits
    /// into, each with its value; 0-based). The page shows any other fields as they are.
    pub detail: serde_json::Value,
}

/// Set when an analysis is no longer wanted (its client left): an analysis that checks it
/// ([`Explore::analyse_unless`]) stops at its next check.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for a solver that cannot name this type.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

/// The error of an analysis of `game` cancelled `after` it started: its client left.
pub fn cancelled(game: &str, position: &str, after: std::time::Duration) -> crate::Error {
    crate::Error::Usage(format!("{game}: the analysis of {position:?} was cancelled {:.1} s in: its client left", after.as_secs_f64()))
}

/// A game that `sprague serve` can show.
pub trait Explore: Send + Sync {
    fn info(&self) -> GameInfo;
    /// The analysis of `position` (the game's text format). Malformed text is an
    /// [`crate::Error::Input`] (line and column); a position too large or too expensive to solve
    /// exactly is an [`crate::Error::Usage`] that says why (with the estimate), never a guess.
    fn analyse(&self, position: &str) -> Result<Analysis>;
    /// [`Explore::analyse`], stopped early (an error) once `cancel` is set. Default: the
    /// analysis with `cancel` as its thread's stop flag ([`crate::impartial::stoppable`]), which
    /// the brute force and the octal engine look at every step; an analysis stopped there is
    /// [`cancelled`]'s error, one that ended first its answer.
    fn analyse_unless(&self, position: &str, cancel: &Cancel) -> Result<Analysis> {
        let started = std::time::Instant::now();
        match crate::impartial::stoppable(cancel.flag(), || self.analyse(position)) {
            (_, true) => Err(cancelled(self.info().name, position, started.elapsed())),
            (analysis, false) => analysis,
        }
    }
    /// Analyses of this game that may run at once (`None`: as many as the server runs). Past
    /// it, requests wait for a turn as they wait for a solver, and get 503 after the same wait.
    fn at_once(&self) -> Option<usize> {
        None
    }
}

/// For tests: `explorer`'s analysis of `position` for a client already gone is [`cancelled`]'s
/// error, and for a client that stays the analysis [`Explore::analyse`] gives.
#[cfg(test)]
pub(crate) fn assert_cancellable(explorer: &dyn Explore, position: &str) {
    let gone = Cancel::default();
    gone.cancel();
    let err = explorer.analyse_unless(position, &gone).expect_err("its client is gone").to_string();
    let start = format!("{}: the analysis of {position:?} was cancelled ", explorer.info().name);
    assert!(err.starts_with(&start) && err.ends_with(" s in: its client left"), "{err}");
    let stays = explorer.analyse_unless(position, &Cancel::default()).expect("its client stays");
    let json = |analysis: &Analysis| serde_json::to_value(analysis).expect("an analysis is JSON");
    assert_eq!(json(&stays), json(&explorer.analyse(position).expect("the position is valid")));
}
