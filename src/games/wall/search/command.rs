//! `sprague search wall --size HxW --maximize grundy`: rounds of the annealing search (seeds
//! seed, seed + 1, …, `--threads` at a time) until the budget is spent; the best board per size
//! is kept in `DIR/best.csv` (a row is replaced only by a larger value), with manifest.json.

use crate::games::wall::board::{Board, Shape, MAX_SIDE};
use crate::games::wall::board::dims::parse_dims;
use crate::games::wall::claim::dp::RectDp;
use super::{maximize_grundy, BestRow, SearchParams};
use crate::check::{compare_rows, Difference};
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::output::csv::{read_csv, write_csv};
use crate::output::manifest::RunClock;
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// The file of best boards in a search output directory (and in results/wall/search/).
pub const BEST: &str = "best.csv";

/// `sprague search wall`.
#[derive(Clone, Copy)]
pub struct SearchCommand;

impl Command for SearchCommand {
    fn verb(&self) -> Verb {
        Verb::Search
    }

    fn spec(&self) -> CommandSpec {
        CommandSpec {
            name: "wall",
            about: "Wall Making Game: anneal X cells towards a board of the largest Grundy value; best board per size in DIR/best.csv.",
            options: vec![
                OptSpec::value("size", "HxW", "Board size (at most 20x20).").required().validate(|s| parse_dims(s).map(|_| ())),
                OptSpec::value("maximize", "VALUE", "What to maximize.").default("grundy").choices(&[("grundy", "The Grundy value of the whole board.")]),
                OptSpec::value("seed", "N", "Seed of the first round; round k uses seed + k.").default("1"),
                OptSpec::value("budget", "SECONDS", "Time for the whole search.").default("60"),
                OptSpec::value("evaluations", "N", "Boards evaluated per round (the cooling schedule's length).").default("40000"),
                OptSpec::value("threads", "N", "Rounds run at once (default: 1).").aliases(&["jobs"]),
                OptSpec::value("out", "DIR", "Output directory of best.csv and manifest.json.").default("out/search"),
                OptSpec::flag("quiet", "No progress line.").short('q'),
            ],
            examples: &["sprague search wall --size 20x20 --maximize grundy --seed 1 --budget 600 --out results/wall/search"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let shape = parse_dims(args.text("size").unwrap_or("")).map_err(|e| Error::Usage(format!("--size: {e}")))?;
        if shape.rows > MAX_SIDE || shape.cols > MAX_SIDE {
            return Err(Error::Usage(format!("--size {shape}: boards have at most {MAX_SIDE} rows and columns")));
        }
        let budget = args.positive_seconds("budget")?.ok_or_else(|| Error::Usage("--budget is required".into()))?;
        let (seed, evaluations): (u64, u64) = (args.require("seed")?, args.require("evaluations")?);
        if evaluations == 0 {
            return Err(Error::Usage("--evaluations must be at least 1 (boards evaluated per round), not 0".into()));
        }
        let jobs = args.get::<usize>("threads")?.unwrap_or(1).clamp(1, 256);
        let out = std::path::PathBuf::from(args.require::<String>("out")?);
        let clock = RunClock::start(session.command_line.clone(), jobs);
        let _lock = clock.lock(&out)?;
        let deadline = Instant::now() + budget;
        session.progress.start(&format!("search wall {shape}"), None, 0);
        let (best, rounds) = rounds(shape, seed, evaluations, jobs, deadline, session);
        session.progress.finish();
        let kept = keep_best(&out.join(BEST), &best)?;
        let mut manifest = clock.finish(&out, &[BEST])?;
        manifest.parameters.insert("options".into(), args.to_json(&["size", "maximize", "seed", "budget", "evaluations", "threads"]));
        manifest.notes.push(format!("{rounds} rounds; best {shape} board of this run: Grundy {} (seed {}, evaluation {})", best.grundy, best.seed, best.at_evaluation));
        manifest.write(&out.join(crate::stress::MANIFEST))?;
        let verdict = match kept {
            Some(old) if old.grundy >= best.grundy => format!("{BEST} keeps its {} (seed {})", old.grundy, old.seed),
            _ => format!("written to {BEST}"),
        };
        let line = format!(
            "search wall {shape}: Grundy {} (seed {}, evaluation {} of {}) after {rounds} rounds; {verdict} in {}\n{}\n",
            best.grundy, best.seed, best.at_evaluation, best.evaluations, out.display(), Board::from_slashed(&best.board)?
        );
        session.stdout.write_all(line.as_bytes()).map_err(|e| Error::io("<stdout>", e))?;
        Ok(Status::Ok)
    }
}

/// Rounds of `jobs` searches at a time until `deadline`: the best row and the rounds run.
fn rounds(shape: Shape, seed: u64, evaluations: u64, jobs: usize, deadline: Instant, session: &Session) -> (BestRow, u64) {
    let mut best: Option<BestRow> = None;
    let mut round = 0u64;
    while Instant::now() < deadline {
        let seeds: Vec<u64> = (0..jobs as u64).map(|k| seed.wrapping_add(round + k)).collect();
        let found: Vec<BestRow> = seeds
            .par_iter()
            .map(|&s| {
                let params = SearchParams { deadline: Some(deadline), ..SearchParams::new(shape, s, evaluations) };
                BestRow::new(&maximize_grundy(&params, |_| {}), s, evaluations)
            })
            .collect();
        round += jobs as u64;
        for row in found {
            if best.as_ref().is_none_or(|b| row.grundy > b.grundy) {
                best = Some(row);
            }
        }
        let b = best.as_ref().expect("at least one round ran");
        session.progress.message(&format!("search wall {shape}: {round} rounds, best Grundy {} (seed {})", b.grundy, b.seed));
    }
    (best.expect("a round runs before the deadline is checked again"), round)
}

/// Puts `row` into the best-boards file at `path` unless that file holds a row of the same
/// size with at least its value; returns the row that was there.
pub fn keep_best(path: &Path, row: &BestRow) -> Result<Option<BestRow>> {
    let mut rows: Vec<BestRow> = if path.exists() { read_csv(path)? } else { Vec::new() };
    let old = rows.iter().position(|r| (r.rows, r.cols) == (row.rows, row.cols)).map(|i| rows.remove(i));
    let keep_old = old.as_ref().is_some_and(|o| o.grundy >= row.grundy);
    rows.push(if keep_old { old.clone().expect("checked") } else { row.clone() });
    rows.sort_by_key(|r| (r.rows, r.cols));
    write_csv(path, &rows)?;
    Ok(old)
}

/// For `check`: recomputes the Grundy value of every committed board and compares.
pub fn compare_best(path: &Path) -> Result<Vec<Difference>> {
    let committed: Vec<BestRow> = read_csv(path)?;
    let mut fresh = Vec::with_capacity(committed.len());
    for row in &committed {
        let board = Board::from_slashed(&row.board).map_err(|e| Error::malformed(path, format!("board of {}x{}: {e}", row.rows, row.cols)))?;
        let grundy = RectDp::new(&board).grundy();
        fresh.push(BestRow { rows: board.rows(), cols: board.cols(), grundy, ..row.clone() });
    }
    let lines: Vec<_> = committed.iter().enumerate().map(|(i, r)| (i + 2, r)).collect();
    Ok(compare_rows(path, &lines, &fresh, |r| (r.rows, r.cols, r.board.clone())))
}
