//! `sprague search wall --size HxW --maximize grundy`: rounds of the annealing search (seeds
//! seed, seed + 1, …, `--threads` at a time) until `--rounds` ran or the budget is spent; the
//! best board per size is kept in `DIR/best.csv` (a row is replaced only by a larger value).

use crate::games::wall::board::{Board, Shape, MAX_SIDE};
use crate::games::wall::board::dims::parse_dims;
use crate::games::wall::claim::dp::RectDp;
use super::{anneal, BestRow, SearchParams};
use crate::check::{compare_rows, Difference};
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::output::csv::{read_csv, write_csv};
use crate::output::digests::check_digest;
use crate::output::manifest::{Manifest, RunClock};
use crate::output::verify_files::MANIFEST;
use rayon::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

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
                OptSpec::value("budget", "SECONDS", "Time for the whole search; a round still running when it ends is cut short (default: 60, or no limit with --rounds)."),
                OptSpec::value("rounds", "N", "Stop after N rounds (seeds seed … seed + N - 1): the same best board on any machine, unless a --budget cuts it short."),
                OptSpec::value("evaluations", "N", "Boards evaluated per round (the cooling schedule's length).").default("40000"),
                OptSpec::value("threads", "N", "Rounds run at once (default: 1).").aliases(&["jobs"]),
                OptSpec::value("out", "DIR", "Output directory of best.csv and manifest.json.").default("out/search"),
                crate::game::vocabulary::QUIET,
            ],
            examples: &[
                "sprague search wall --size 20x20 --maximize grundy --seed 1 --budget 600 --out results/wall/search",
                "sprague search wall --size 20x20 --maximize grundy --seed 533 --rounds 1 --evaluations 10000 --out out/search-20x20",
            ],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let shape = parse_dims(args.text("size").unwrap_or("")).map_err(|e| Error::Usage(format!("--size: {e}")))?;
        if shape.rows > MAX_SIDE || shape.cols > MAX_SIDE {
            return Err(Error::Usage(format!("--size {shape}: boards have at most {MAX_SIDE} rows and columns")));
        }
        let stop = Stop::from_args(args)?;
        let (seed, evaluations): (u64, u64) = (args.require("seed")?, args.require("evaluations")?);
        if evaluations == 0 {
            return Err(Error::Usage("--evaluations must be at least 1 (boards evaluated per round), not 0".into()));
        }
        let jobs = args.get::<usize>("threads")?.unwrap_or(1).clamp(1, 256);
        let out = std::path::PathBuf::from(args.require::<String>("out")?);
        let clock = RunClock::start(session.command_line.clone(), jobs);
        let _lock = clock.lock(&out, "wall")?;
        // Checked before the search, so that a damaged file costs no search.
        let earlier = earlier_best(&out.join(BEST))?;
        session.progress.start(&format!("search wall {shape}"), None, 0);
        let found = rounds(shape, seed, evaluations, jobs, &stop, session)?;
        session.progress.finish();
        let best = &found.best;
        let kept = keep_best(&out.join(BEST), earlier, best)?;
        let mut manifest = clock.finish(&out, &[BEST])?;
        manifest.parameters.insert("options".into(), args.to_json(&["size", "maximize", "seed", "budget", "rounds", "evaluations", "threads"]));
        let ran = found.describe(&stop);
        manifest.notes.push(format!("{ran}; best {shape} board of this run: Grundy {} (seed {}, evaluation {})", best.grundy, best.seed, best.at_evaluation));
        manifest.write(&out.join(MANIFEST))?;
        let verdict = match kept {
            Some(old) if old.grundy >= best.grundy => format!("{BEST} keeps its {} (seed {})", old.grundy, old.seed),
            _ => format!("written to {BEST}"),
        };
        let line = format!(
            "search wall {shape}: Grundy {} (seed {}, evaluation {} of {}) after {ran}; {verdict} in {}\n{}\n",
            best.grundy, best.seed, best.at_evaluation, best.evaluations, out.display(), Board::from_slashed(&best.board)?
        );
        session.print(&line)?;
        Ok(Status::Ok)
    }
}

/// When a search stops: after `rounds` rounds, at `deadline`, whichever comes first.
struct Stop {
    rounds: Option<u64>,
    deadline: Option<Instant>,
}

impl Stop {
    /// `--rounds` and `--budget`; without either, a budget of 60 s.
    fn from_args(args: &Args) -> Result<Stop> {
        let rounds = args.get::<u64>("rounds")?;
        if rounds == Some(0) {
            return Err(Error::Usage("--rounds must be at least 1, not 0".into()));
        }
        let budget = match (args.positive_seconds("budget")?, rounds) {
            (None, None) => Some(Duration::from_secs(60)),
            (budget, _) => budget,
        };
        Ok(Stop { rounds, deadline: budget.map(|b| Instant::now() + b) })
    }

    /// How many rounds the next batch runs after `ran`: up to `jobs`, none once the search stops.
    fn next_batch(&self, ran: u64, jobs: usize) -> u64 {
        let left = self.rounds.map_or(u64::MAX, |n| n.saturating_sub(ran));
        let time_left = self.deadline.is_none_or(|d| Instant::now() < d);
        if time_left { left.min(jobs as u64) } else { 0 }
    }
}

/// What the rounds found: the best row (the first seed's among equal values), the rounds
/// run and how many of them the budget cut short of their evaluations.
struct Found {
    best: BestRow,
    ran: u64,
    cut: u64,
}

impl Found {
    /// "N rounds", or "N of M rounds", and what the budget cut short or left unrun (such a
    /// result depends on the machine's speed; one of `--rounds` alone does not).
    fn describe(&self, stop: &Stop) -> String {
        let short = stop.rounds.filter(|&n| n > self.ran);
        let ran = match short {
            Some(n) => format!("{} of {n} rounds", self.ran),
            None => format!("{} rounds", self.ran),
        };
        match (self.cut, short) {
            (0, None) => ran,
            (0, Some(_)) => format!("{ran} (the budget ran out)"),
            (cut, _) => format!("{ran} ({cut} cut short of {} evaluations by the budget)", self.best.evaluations),
        }
    }
}

/// Rounds of up to `jobs` searches at a time until `stop`.
fn rounds(shape: Shape, seed: u64, evaluations: u64, jobs: usize, stop: &Stop, session: &Session) -> Result<Found> {
    let mut found: Option<Found> = None;
    let mut ran = 0u64;
    // The first batch runs whatever the clock says, so that there is a board to report.
    let mut batch = stop.next_batch(0, jobs).max(1);
    while batch > 0 {
        let seeds: Vec<u64> = (ran..ran + batch).map(|k| seed.wrapping_add(k)).collect();
        let rows: Vec<(BestRow, bool)> = seeds.par_iter().map(|&s| one_round(shape, s, evaluations, stop.deadline)).collect();
        ran += batch;
        for (row, cut) in rows {
            let f = found.get_or_insert_with(|| Found { best: row.clone(), ran, cut: 0 });
            if row.grundy > f.best.grundy {
                f.best = row;
            }
            (f.ran, f.cut) = (ran, f.cut + u64::from(cut));
        }
        if let Some(f) = &found {
            session.progress.message(&format!("search wall {shape}: {ran} rounds, best Grundy {} (seed {})", f.best.grundy, f.best.seed));
        }
        batch = stop.next_batch(ran, jobs);
    }
    found.ok_or_else(|| Error::Usage(format!("search wall {shape}: no round ran")))
}

/// One round: the annealing search of seed `seed`, and whether `deadline` cut it short.
fn one_round(shape: Shape, seed: u64, evaluations: u64, deadline: Option<Instant>) -> (BestRow, bool) {
    let params = SearchParams { deadline, ..SearchParams::new(shape, seed, evaluations) };
    let (best, cut) = anneal(&params, |_| {});
    (BestRow::new(&best, seed, evaluations), cut)
}

/// Writes the best-boards file at `path`: the `earlier` rows (read by [`earlier_best`]) with
/// `row` in place of the one of its size unless that one has at least its value; returns the
/// row that was there.
fn keep_best(path: &Path, mut rows: Vec<BestRow>, row: &BestRow) -> Result<Option<BestRow>> {
    let old = rows.iter().position(|r| (r.rows, r.cols) == (row.rows, row.cols)).map(|i| rows.remove(i));
    let keep_old = old.as_ref().is_some_and(|o| o.grundy >= row.grundy);
    rows.push(if keep_old { old.clone().expect("checked") } else { row.clone() });
    rows.sort_by_key(|r| (r.rows, r.cols));
    write_csv(path, &rows)?;
    Ok(old)
}

/// The rows of the best.csv at `path` that earlier searches wrote, checked before one is kept:
/// the file must be the one its directory's manifest.json records (when there is one: a search
/// killed before it wrote its manifest leaves none), and each row's board must parse, be of its
/// row's size, have the Grundy value the row says and be the only row of that size.
fn earlier_best(path: &Path) -> Result<Vec<BestRow>> {
    if path.symlink_metadata().is_err() {
        return Ok(Vec::new());
    }
    let manifest_path = path.with_file_name(MANIFEST);
    if manifest_path.symlink_metadata().is_ok() {
        let manifest = Manifest::read(&manifest_path)?;
        let digest = manifest.files.get(BEST).ok_or_else(|| {
            Error::malformed(path, format!("{} lists no digest of it; restore the earlier best.csv, or choose another --out", manifest_path.display()))
        })?;
        check_digest(path, digest, MANIFEST)?;
    }
    let rows: Vec<BestRow> = read_csv(path)?;
    for (i, row) in rows.iter().enumerate() {
        let wrong = |why: String| Error::malformed(path, format!("line {}: {why}", i + 2));
        let board = Board::from_slashed(&row.board).map_err(|e| wrong(format!("board: {e}")))?;
        if (board.rows(), board.cols()) != (row.rows, row.cols) {
            return Err(wrong(format!("the board is {}, not the row's {}x{}", board.shape(), row.rows, row.cols)));
        }
        if rows[..i].iter().any(|r| (r.rows, r.cols) == (row.rows, row.cols)) {
            return Err(wrong(format!("a second row of {}x{}", row.rows, row.cols)));
        }
        let grundy = RectDp::new(&board).grundy();
        if grundy != row.grundy {
            return Err(wrong(format!("the board's Grundy value is {grundy}, not the {} the row says", row.grundy)));
        }
    }
    Ok(rows)
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
