//! The catalogue's eight games as registry entries: names, help, solvers, results, stress bounds.

use super::commands::{CatalogueGame, PILES};
use crate::game::Oracle;
use crate::output::records::Columns;
use super::contest::{divisor_special, pile_of, Family};
use super::moves::{self, MoveRule};
use super::verify::Layout;
use super::{cross, divisor, explore, explore_polygon, explore_strip, misere_nim, nim, odd_even_nim, pimber, polygon};
use crate::error::{Error, Result};

/// The oracle of a pile game whose move rule is `rules/<file>`: it may use the pile rule and the
/// generic brute force only (`super::piles` is rules::piles, not the claims' piles.rs).
macro_rules! pile_oracle {
    ($file:literal) => {
        Oracle {
            files: &[concat!("src/games/catalogue/rules/", $file), "src/games/catalogue/rules/piles.rs", "src/games/catalogue/rules/mod.rs", "src/impartial.rs"],
            may_use: &["super::piles", "crate::impartial"],
        }
    };
}

/// The oracle of a one-number game whose move rule is `rules/<file>`: the generic brute force only.
macro_rules! own_oracle {
    ($file:literal) => {
        Oracle { files: &[concat!("src/games/catalogue/rules/", $file), "src/games/catalogue/rules/mod.rs", "src/impartial.rs"], may_use: &["crate::impartial"] }
    };
}

/// The catalogue's games, in the order of the registry: the one list behind their registry
/// entries ([`crate::games::REGISTRY`]), commands, verifiers, size layouts and columns.
pub static GAMES: [&CatalogueGame; 8] = [&NIM, &NIM_COUNT, &MISERE_NIM, &ODD_EVEN_NIM, &PIMBER, &POLYGON, &CROSS, &DIVISOR];

/// The catalogue game named `name`.
pub fn entry(name: &str) -> Result<&'static CatalogueGame> {
    GAMES.into_iter().find(|g| g.name == name).ok_or_else(|| Error::Usage(format!("unknown catalogue game {name:?}")))
}

const WINNER: &[&str] = &["koosaga", "cubelover"];
const ONE_TWO: &[&str] = &["1", "2"];
const PILE_MAX: &str = "Largest pile: every multiset of piles of 1..=MAX stones.";

const NIM_PILES: Family = Family::Piles {
    max_piles: nim::MAX_PILES as u64,
    max_pile: nim::MAX_PILE as u64,
    heap_value: |v| v,
    with_value: pile_of,
};

pub static NIM: CatalogueGame = CatalogueGame {
    explore: explore::nim,
    name: "nim",
    solve_about: "Nim: N (≤ 100) then N piles (≤ 10^9); prints koosaga (first wins) or cubelover.",
    verify_about: "Nim: XOR vs brute force on every multiset of piles.",
    solve: nim::solve,
    results: &["nim"],
    columns: PILES,
    examples: &["printf '3\\n1 2 3\\n' | sprague solve nim"],
    verify_examples: &["sprague verify nim --piles 5 --max 10"],
    answers: WINNER,
    max_help: PILE_MAX,
    claims: &[],
    sequence: true,
    family: NIM_PILES,
    stress_max: "12",
    stress_examples: &["sprague stress nim --cmd ./a.out", "sprague stress nim --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: Some(MoveRule::Take { why_not: moves::nim_why_not, targets: moves::nim_targets }),
    oracle: pile_oracle!("nim.rs"),
    verifier: |_| Box::new(nim::Nim),
    layout: Layout::Piles,
};

pub static NIM_COUNT: CatalogueGame = CatalogueGame {
    explore: explore::nim_count,
    name: "nim-count",
    solve_about: "Nim: same input; prints the number of winning first moves.",
    verify_about: "Nim: the winning-move count formula vs brute force.",
    solve: nim::solve_count,
    results: &["nim-count"],
    columns: PILES,
    examples: &["printf '3\\n3 4 5\\n' | sprague solve nim-count"],
    verify_examples: &["sprague verify nim-count --piles 5 --max 10"],
    answers: &[],
    max_help: PILE_MAX,
    claims: &[],
    sequence: false,
    family: NIM_PILES,
    stress_max: "12",
    stress_examples: &["sprague stress nim-count --cmd ./a.out", "sprague stress nim-count --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: None,
    oracle: pile_oracle!("nim.rs"),
    verifier: |_| Box::new(nim::NimCount),
    layout: Layout::Piles,
};

pub static MISERE_NIM: CatalogueGame = CatalogueGame {
    explore: explore::misere_nim,
    name: "misere-nim",
    solve_about: "Misère Nim (last stone loses): same input; koosaga / cubelover.",
    verify_about: "Misère Nim: Bouton's misère rule vs minimax.",
    solve: misere_nim::solve,
    results: &["misere-nim"],
    columns: PILES,
    examples: &["printf '3\\n1 1 1\\n' | sprague solve misere-nim"],
    verify_examples: &["sprague verify misere-nim --piles 5 --max 10"],
    answers: WINNER,
    max_help: PILE_MAX,
    claims: &[],
    sequence: false,
    family: NIM_PILES,
    stress_max: "12",
    stress_examples: &["sprague stress misere-nim --cmd ./a.out", "sprague stress misere-nim --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: Some(MoveRule::MisereTake),
    oracle: pile_oracle!("misere_nim.rs"),
    verifier: |_| Box::new(misere_nim::MisereNim),
    layout: Layout::Piles,
};

pub static ODD_EVEN_NIM: CatalogueGame = CatalogueGame {
    explore: explore::odd_even_nim,
    name: "odd-even-nim",
    solve_about: "Odd-even Nim: same input; koosaga / cubelover.",
    verify_about: "Odd-even Nim: the closed form vs brute force.",
    solve: odd_even_nim::solve,
    results: &["odd-even-nim"],
    columns: PILES,
    examples: &["printf '2\\n3 6\\n' | sprague solve odd-even-nim"],
    verify_examples: &["sprague verify odd-even-nim --piles 5 --max 10 --heaps 400"],
    answers: WINNER,
    max_help: PILE_MAX,
    claims: &[],
    sequence: true,
    family: Family::Piles { max_piles: nim::MAX_PILES as u64, max_pile: nim::MAX_PILE as u64, heap_value: odd_even_nim::heap_value, with_value: odd_even_nim::heap_with_value },
    stress_max: "12",
    stress_examples: &["sprague stress odd-even-nim --cmd ./a.out", "sprague stress odd-even-nim --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: Some(MoveRule::Take { why_not: odd_even_nim::why_not, targets: odd_even_nim::targets }),
    oracle: pile_oracle!("odd_even_nim.rs"),
    verifier: |_| Box::new(odd_even_nim::OddEvenNim),
    layout: Layout::Piles,
};

pub static PIMBER: CatalogueGame = CatalogueGame {
    explore: explore::pimber,
    name: "pimber",
    solve_about: "Pimber (remove a Fibonacci number): N (≤ 10^5) then piles (≤ 3·10^6); koosaga / cubelover.",
    verify_about: "Pimber: the mex recurrence vs brute force.",
    solve: pimber::solve,
    results: &["pimber"],
    columns: PILES,
    examples: &["printf '2\\n4 9\\n' | sprague solve pimber"],
    verify_examples: &["sprague verify pimber --piles 5 --max 10 --heaps 1200"],
    answers: WINNER,
    max_help: PILE_MAX,
    claims: &[],
    sequence: true,
    family: Family::Piles { max_piles: pimber::MAX_PILES as u64, max_pile: pimber::MAX_PILE as u64, heap_value: pimber::heap_value, with_value: pimber::heap_with_value },
    stress_max: "12",
    stress_examples: &["sprague stress pimber --cmd ./a.out", "sprague stress pimber --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: Some(MoveRule::Take { why_not: pimber::why_not, targets: pimber::targets }),
    oracle: pile_oracle!("pimber.rs"),
    verifier: |_| Box::new(pimber::Pimber),
    layout: Layout::Piles,
};

pub static POLYGON: CatalogueGame = CatalogueGame {
    explore: explore_polygon::explorer,
    name: "polygon",
    solve_about: "Polygon chords: N (3..1000), optionally the N vertices; prints 1 or 2.",
    verify_about: "Polygon chords: the recurrence vs play on the polygon.",
    solve: polygon::solve,
    results: &["polygon"],
    columns: Columns { size: ["polygons", "vertices"], key: "free_vertices", position: "polygon", answer: false },
    examples: &["printf '5\\n' | sprague solve polygon"],
    verify_examples: &["sprague verify polygon --max 14"],
    answers: ONE_TWO,
    max_help: "Largest polygon: every N from 0 to MAX vertices.",
    claims: &[],
    sequence: true,
    family: Family::Number { min: polygon::MIN_N as u64, max: polygon::MAX_N as u64, vertices: true, special: Vec::new },
    stress_max: "1000",
    stress_examples: &["sprague stress polygon --cmd ./a.out", "sprague stress polygon --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: Some(MoveRule::Chord),
    oracle: own_oracle!("polygon.rs"),
    verifier: |_| Box::new(polygon::Polygon),
    layout: Layout::Line { first: 0 },
};

const CROSS_CLAIMS: &[(&str, &str)] = &[
    ("published", "The published recurrence (wrong at N = 2: the check shows it)."),
    ("solver", "The solver's table: the recurrence corrected at N = 2."),
];

pub static CROSS: CatalogueGame = CatalogueGame {
    explore: explore_strip::cross,
    name: "cross",
    solve_about: "Cross on a 1×N strip (N ≤ 2000), by real play; prints 1 or 2.",
    verify_about: "Cross: the published recurrence (or the solver) vs play on the strip.",
    solve: cross::solve,
    results: &["cross", "cross-solver"],
    columns: Columns { size: ["strips", "cells"], key: "free_cells", position: "strip", answer: false },
    examples: &["printf '7\\n' | sprague solve cross"],
    verify_examples: &["sprague verify cross --max 20", "sprague verify cross --max 20 --claim solver"],
    answers: ONE_TWO,
    max_help: "Longest strip: every N from 1 to MAX cells.",
    claims: CROSS_CLAIMS,
    sequence: true,
    family: Family::Number { min: 1, max: cross::MAX_N as u64, vertices: false, special: Vec::new },
    stress_max: "2000",
    stress_examples: &["sprague stress cross --cmd ./a.out", "sprague stress cross --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: None,
    oracle: own_oracle!("cross.rs"),
    verifier: |claim| Box::new(cross::Cross(if claim == Some("solver") { cross::CrossClaim::Solver } else { cross::CrossClaim::Published })),
    layout: Layout::Line { first: 1 },
};

pub static DIVISOR: CatalogueGame = CatalogueGame {
    explore: explore_strip::divisor,
    name: "divisor",
    solve_about: "Divisor game: N (≤ 10^18); koosaga / cubelover.",
    verify_about: "Divisor game: Ω(N) − 1 vs the divisor DAG (--max a power of ten).",
    solve: divisor::solve,
    results: &["divisor"],
    columns: Columns { size: ["numbers", "decade"], key: "prime_factors", position: "n", answer: false },
    examples: &["printf '12\\n' | sprague solve divisor"],
    verify_examples: &["sprague verify divisor --max 1000000"],
    answers: WINNER,
    max_help: "Every N up to MAX, a power of ten (10^k; sizes by decade).",
    claims: &[],
    sequence: true,
    family: Family::Number { min: 1, max: divisor::MAX_N, vertices: false, special: divisor_special },
    stress_max: "100000",
    stress_examples: &["sprague stress divisor --cmd ./a.out", "sprague stress divisor --cmd 'python3 sol.py' --generator random --seed 7"],
    moves: Some(MoveRule::Divisor),
    oracle: own_oracle!("divisor.rs"),
    verifier: |_| Box::new(divisor::Divisor),
    layout: Layout::Decades { max_decade: divisor::MAX_DECADE, limit: divisor::DECADE_LIMIT },
};
