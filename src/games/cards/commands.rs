//! The card game's commands: `solve cards` (contest input) and `verify cards`; its registry entry.

use super::verify::{CardsRun, RandomSpec, CLAIMS, MAX_BRUTE_LEN};
use super::{brute, claim, parse_input};
use crate::output::records::{Columns, Values};
use crate::error::{Error, Result};
use crate::game::vocabulary;
use crate::game::{Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Recompute, ResultsDir, Session, SolveCommand, Verb, VerifyCommand};
use crate::runner::cost::format_duration;
use crate::runner::Verification;

/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["cards", "max_value"], key: "tie", position: "row", answer: false };
/// The value column: 1 when the first player ends with the larger total, 0 on a tie or when he
/// ends with less (so `p_positions` counts the rows he does not win).
pub const VALUES: Values = Values { value: "1 = first player gets more", zero: ["row the first player does not win", "rows the first player does not win"] };

/// The card game (BOJ 11062).
pub static GAME: GameEntry = GameEntry {
    name: "cards",
    commands,
    results,
    oracle: Oracle {
        files: &["src/games/cards/brute.rs"],
        may_use: &[],
    },
    columns: COLUMNS,
    values: VALUES,
    report: None,
    explore: Some(super::explore::explorer),
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(super::contest::STRESS)]
}

fn results() -> Vec<ResultsDir> {
    ["cards", "cards/random"].map(|dir| ResultsDir { dir, recompute: Recompute::Sizes(|_, rule, r, c| super::verify::recompute_size(rule, r, c)) }).to_vec()
}

const ENGINES: &[(&str, &str)] = &[("claim", "O(N²) interval DP (verified)."), ("naive", "Plain minimax recursion (rows of at most 22 cards).")];

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "cards",
        about: "Card game: T, then per case N (≤ 1000) and N cards (≤ 10,000); prints the first player's totals.",
        options: vec![vocabulary::engine(ENGINES)],
        examples: &["printf '1\\n4\\n1 2 5 2\\n' | sprague solve cards"],
    },
    solve,
};

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let (name, text) = session.read_input(args.text("file"))?;
    let rows = parse_input(&name, &text)?;
    let brute_force = vocabulary::naive(args);
    if brute_force {
        check_naive(&rows, session)?;
    }
    for row in &rows {
        let total = if brute_force { brute::first_total(row) } else { claim::first_total(row) };
        session.println(&total.to_string())?;
    }
    Ok(())
}

/// Core-seconds per call of the naive recursion, which makes about 2^N calls on a row of N
/// cards: 20 cases of 22 cards took 3.0 s and 20 cases of 20 cards 0.78 s here on a busy
/// machine (36 ns a call), 100,000 cases of 22 cards about 44 min on a quiet one (6.3 ns a
/// call); 20 ns is the estimate.
pub const NAIVE_SECONDS_PER_CALL: f64 = 2e-8;

/// Estimated core-seconds of the naive engine on `rows`.
pub fn naive_seconds(rows: &[Vec<u32>]) -> f64 {
    rows.iter().map(|row| 2f64.powi(row.len() as i32) * NAIVE_SECONDS_PER_CALL).sum()
}

/// Refuses rows the naive engine does not take, and says on stderr how long a run of over a
/// minute will take (at most about 2.3 h: 100,000 cases of 22 cards, so none is refused for
/// time).
fn check_naive(rows: &[Vec<u32>], session: &mut Session) -> Result<()> {
    if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() > MAX_BRUTE_LEN) {
        return Err(Error::Usage(format!("case {} has {} cards; --engine naive takes at most {MAX_BRUTE_LEN}", i + 1, row.len())));
    }
    let seconds = naive_seconds(rows);
    if seconds > 60.0 {
        let line = format!(
            "the naive recursion on these {} cases will take an estimated {} (--engine claim answers at once)",
            rows.len(),
            format_duration(seconds)
        );
        writeln!(session.stderr, "{line}").map_err(|e| Error::io("<stderr>", e))?;
    }
    Ok(())
}

const CLAIM_CHOICES: &[(&str, &str)] = &[
    ("dp", "The O(N²) interval DP (the claim under test)."),
    ("greedy", "Take the larger end card — deliberately wrong, to show the check can fail."),
];

static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "cards",
        about: "Cards: interval DP vs plain minimax on every short row or random rows.",
        options: vec![
            OptSpec::value("max", "LENxVALUE", "Rows of length 1..=LEN (every row, or the bound of random rows) with card values 1..=VALUE; `LEN` alone: values 1..=4.")
                .default("10x4"),
            OptSpec::value("max-len", "LEN", "Old spelling of --max's LEN.").hidden(),
            OptSpec::value("max-value", "VALUE", "Old spelling of --max's VALUE.").hidden(),
            OptSpec::value("random", "COUNT", "Check COUNT random rows instead of every row."),
            OptSpec::value("seed", "SEED", "Seed of the random rows (ChaCha8; row i is stream i of the seed).").default("1").requires(&["random"]),
            OptSpec::value("claim", "CLAIM", "The claimed solver under test.").default("dp").choices(CLAIM_CHOICES),
        ],
        examples: &["sprague verify cards --max 8x4 --out out/cards", "sprague verify cards --claim greedy --max 5"],
    },
    build,
};

fn build(args: &Args) -> Result<Box<dyn Verification>> {
    let claim = CLAIMS.of(args.text("claim"))?;
    let (max_len, max_value) = vocabulary::max_pair(args, "LENxVALUE", Some(4), ["max-len", "max-value"])?;
    super::verify::check_len(max_len, max_value)?;
    let (max_len, max_value) = (max_len as usize, max_value as u32);
    Ok(Box::new(match args.get::<u64>("random")? {
        Some(count) => CardsRun::random(RandomSpec { seed: args.require("seed")?, count, max_len, max_value }, claim)?,
        None => CardsRun::exhaustive(max_len, max_value, claim)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_naive_estimate_doubles_with_each_card() {
        let rows = |cases: usize, cards: usize| vec![vec![1u32; cards]; cases];
        assert_eq!(naive_seconds(&rows(1, 21)) * 2.0, naive_seconds(&rows(1, 22)));
        // The audit's case, the most the input allows: 100,000 cases of 22 cards, hours.
        assert_eq!(format_duration(naive_seconds(&rows(super::super::MAX_CASES, MAX_BRUTE_LEN))), "2.3 h");
        assert!(naive_seconds(&rows(20, 20)) < 60.0, "small inputs say nothing");
    }
}
