//! Reports of the run directories under a results tree (any `out/`): an index for report.md
//! and, per run, a report.md with its plots in a directory of its own — the game's own report
//! when it has one ([`crate::game::Game::report`], handed down by the caller), else a summary
//! table and the distribution of claimed values.

use super::atomic::write_bytes_atomic;
use super::manifest::Manifest;
use super::plots::{self, Panel};
use super::records::{Columns, Values};
use super::digests::Recorded;
use super::lock::LOCK_FILE;
use super::verify_files::{dir_under, first_game, manifest_dirs, tree_dirs, unsealed, unwalked_text, walk_tree, VerifyRows, CHECKPOINT, DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY, UNFINISHED};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The generic plot of a run: a bar chart of claimed values per size.
pub const DISTRIBUTION_SVG: &str = "distribution.svg";
/// At most this many sizes get a panel of their own (the smallest ones).
const MAX_PANELS: usize = 48;
/// Panels per row of the distribution plot.
const PANEL_COLUMNS: usize = 6;

/// A report of one run directory `dir`: writes its plots into `out` and returns its report.md
/// text and the files written.
pub type RunReport = fn(dir: &Path, out: &Path) -> Result<(String, Vec<PathBuf>)>;

/// What the caller knows of a game: its column names, what its value column means and its own
/// report (`None`: the generic one).
#[derive(Clone, Copy)]
pub struct KnownGame {
    pub columns: Columns,
    pub values: Values,
    pub report: Option<RunReport>,
}

/// What the caller knows of a game, by name; `None` for a name it does not know (its files are
/// read as their headers say, its values taken for Grundy values).
pub type Games<'a> = &'a dyn Fn(&str) -> Option<KnownGame>;

/// The unsharded run directories under a results tree, read ([`read_runs`]) before anything is
/// written, by game and path, and those holding a run that has not finished ([`unfinished_dirs`]).
pub struct Runs(Vec<Run>, Vec<String>);

impl Runs {
    /// The directories of the runs not finished (so not reported) under `root`, as paths.
    pub fn unfinished(&self, root: &Path) -> Vec<PathBuf> {
        self.1.iter().map(|rel| dir_under(root, rel)).collect()
    }

    /// report.md's section naming the runs under `root` left out as not finished (empty when none).
    pub fn unfinished_section(&self, root: &Path) -> String {
        let dirs = self.unfinished(root);
        if dirs.is_empty() {
            return String::new();
        }
        let named: Vec<String> = dirs.iter().map(|dir| format!("`{}`", dir.display())).collect();
        format!(
            "\n## Unfinished runs\n\nNot reported: {} {} a run that has not finished (stopped, killed, or running now). Resume or finish it, or remove it, and report again.\n",
            named.join(", "),
            if dirs.len() == 1 { "holds" } else { "hold" }
        )
    }
}

/// One run read by [`read_runs`].
struct Run {
    game: String,
    /// Its path under the tree (`.` for the tree itself).
    rel: String,
    rows: VerifyRows,
    /// Whether it checked the claim against an oracle ([`cross_checked`]).
    checked: bool,
}

/// Reads every unsharded run directory under `root` but those `skip` names (relative paths),
/// each run's files read under its game's columns (`games`) once they are checked against the
/// digests `recorded` finds for them: a changed or unprotected file is refused, naming it, and
/// so is a summary that disagrees with its distribution ([`VerifyRows::consistency`]).
pub fn read_runs(root: &Path, skip: &dyn Fn(&str) -> bool, games: Games, recorded: &Recorded) -> Result<Runs> {
    refuse_unwalked(root)?;
    refuse_unsealed(root, skip, recorded)?;
    let mut runs = Vec::new();
    for (rel, is_run) in manifest_dirs(root) {
        let dir = dir_under(root, &rel);
        if !is_run || skip(&rel) {
            continue;
        }
        let manifest = Manifest::read(&dir.join(MANIFEST))?;
        if manifest.parameters.get("shard").and_then(|s| s.as_str()).is_some_and(|s| s != "1/1") {
            continue;
        }
        // Every file of the run is checked against its digest before any is read.
        recorded.check_run(&dir, &manifest, &[SUMMARY, DISTRIBUTION, MISMATCHES])?;
        // A game the caller knows is read under its own column names (which a damaged header's
        // error then names); another under its headers'.
        let rows = match first_game(&dir)?.and_then(|game| games(&game)) {
            Some(known) => VerifyRows::read_as(&dir, known.columns)?,
            None => VerifyRows::read(&dir)?,
        };
        // Digests prove the files are the ones sealed, not that they agree: a summary resealed
        // after an edit would be shown as it says.
        rows.check_consistent(&dir)?;
        runs.push(Run { game: rows.summary[0].game.clone(), rel, rows, checked: cross_checked(&manifest) });
    }
    runs.sort_by(|a: &Run, b: &Run| (&a.game, &a.rel).cmp(&(&b.game, &b.rel)));
    Ok(Runs(runs, unfinished_dirs(root, skip)))
}

/// Directories under `root` (but those `skip` names) holding a run that has not finished: its
/// checkpoint.json or unfinished.json (stopped, or running now), or the lock a run took with no
/// manifest beside it (one killed before it sealed anything). A report leaves them out, and says so.
pub fn unfinished_dirs(root: &Path, skip: &dyn Fn(&str) -> bool) -> Vec<String> {
    let unfinished = |dir: &Path| dir.join(CHECKPOINT).exists() || dir.join(UNFINISHED).exists() || (dir.join(LOCK_FILE).exists() && !dir.join(MANIFEST).exists());
    tree_dirs(root).into_iter().filter(|(rel, dir)| !skip(rel) && unfinished(dir)).map(|(rel, _)| rel).collect()
}

/// Refuses a tree with a directory the walk cannot list in full (unreadable, or a path under it
/// longer than PATH_MAX: [`walk_tree`], as `check` names it): the runs under it would be left
/// out of the report without a word.
fn refuse_unwalked(root: &Path) -> Result<()> {
    match walk_tree(root).unreachable.into_iter().next() {
        Some((dir, error)) => {
            let why = unwalked_text(&dir, error);
            Err(Error::malformed(&dir, format!("{why}; the runs under it would be left out, so refusing to report (move them out, or make it readable)")))
        }
        None => Ok(()),
    }
}

/// Refuses a directory under `root` (but those `skip` names) that holds a run's files
/// (summary.csv) without the manifest.json that protects them (a finished run whose manifest
/// was deleted; not a run in progress, which has checkpoint.json), unless another digest
/// protects them (SHA256SUMS): it would be left out of the report without a word.
fn refuse_unsealed(root: &Path, skip: &dyn Fn(&str) -> bool, recorded: &Recorded) -> Result<()> {
    for (_, dir) in tree_dirs(root).into_iter().filter(|(rel, dir)| !skip(rel) && dir.join(SUMMARY).is_file() && unsealed(dir)) {
        recorded.check(&dir.join(SUMMARY)).map_err(|_| {
            Error::malformed(&dir, format!("holds a run's files ({SUMMARY}) but no {MANIFEST}, so they cannot be checked; refusing to report it (restore the manifest or move the directory out)"))
        })?;
    }
    Ok(())
}

/// Writes a report of each of `runs` (read from `root`) into `out/<run>/`, by its game's report
/// (`games`); returns the index lines for report.md (empty when there was no run) and the
/// files written.
pub fn report_runs(runs: &Runs, root: &Path, out: &Path, games: Games) -> Result<(String, Vec<PathBuf>)> {
    let (mut index, mut written) = (String::new(), Vec::new());
    let root_page = root_page_dir(runs);
    let mut game = "";
    for Run { game: name, rel, rows, checked } in &runs.0 {
        if name != game {
            let _ = writeln!(index, "\n### {name}\n");
            game = name;
        }
        let target = out.join(if rel == "." { root_page.as_str() } else { rel });
        let known = games(name);
        let values = known.map_or(Values::GRUNDY, |k| k.values);
        let (markdown, files) = match known.and_then(|k| k.report) {
            Some(report) => report(&dir_under(root, rel), &target)?,
            None => generic_report(&dir_under(root, rel), &target, values)?,
        };
        let page = target.join("report.md");
        write_bytes_atomic(&page, markdown.as_bytes())?;
        written.extend(files);
        written.push(page);
        let link = target.strip_prefix(out).unwrap_or(&target).join("report.md");
        let (name, target) = (super::text::markdown_code(rel), super::text::markdown_target(&link.to_string_lossy()));
        let _ = writeln!(index, "- [{name}]({target}): {}", totals(rows, values, *checked));
    }
    Ok((index, written))
}

/// The folder of the report of a run at the root of the tree: `run`, or `run-2`, `run-3` … when
/// another run's path starts with that name (a run in `DIR/run` as well as one in `DIR`).
fn root_page_dir(runs: &Runs) -> String {
    let taken = |name: &str| runs.0.iter().any(|run| run.rel.split('/').next() == Some(name));
    std::iter::once("run".to_string()).chain((2..).map(|n| format!("run-{n}"))).find(|name| !taken(name)).expect("a free name")
}

/// Whether the run `manifest` records checked the claim against an oracle: a census counts
/// the claim's values alone (its mismatches column is 0 by construction).
fn cross_checked(manifest: &Manifest) -> bool {
    manifest.kind().as_deref() != Some("census")
}

/// What a report shows in a mismatches column: the count, or for a run that checked nothing
/// ([`cross_checked`]) a dash.
const NOT_CHECKED: &str = "—";

/// rule, sizes, positions, positions of value 0 (P-positions, in the words of `values`) and
/// mismatches of a run (`checked`: whether it cross-checked the claim), in one line.
fn totals(rows: &VerifyRows, values: Values, checked: bool) -> String {
    let sum = |f: fn(&super::records::SummaryRow) -> u64| rows.summary.iter().map(f).sum::<u64>();
    let mismatches = match checked {
        true => super::text::counted(sum(|r| r.mismatches), "mismatch"),
        false => "a census: the claim's values, not cross-checked".to_string(),
    };
    format!(
        "rule {}, {}, {}, {}, {mismatches}",
        rows.summary[0].rule,
        super::text::counted(rows.summary.len() as u64, "size"),
        super::text::counted(sum(|r| r.patterns), "position"),
        values.zeros(sum(|r| r.p_positions)),
    )
}

/// The generic report of run directory `dir`: provenance, a table row per size (in the game's
/// column names) and the distribution of claimed values per size, both named by what the
/// game's value column means (`values`).
pub fn generic_report(dir: &Path, out: &Path, values: Values) -> Result<(String, Vec<PathBuf>)> {
    let rows = VerifyRows::read(dir)?;
    let manifest = Manifest::read(&dir.join(MANIFEST))?;
    let [a, b] = rows.columns.size;
    let first = &rows.summary[0];
    let mut md = format!("# {} ({}): {}\n\n", first.game, first.rule, dir.display());
    let _ = writeln!(md, "The run was `{}` at commit `{}`.\n", manifest.command_line.join(" "), manifest.git_commit.as_deref().unwrap_or("unknown"));
    let zeros = values.zero[1];
    let _ = writeln!(md, "Value of a position: {}; value 0: {zeros}.\n", values.value);
    let checked = cross_checked(&manifest);
    if !checked {
        let _ = writeln!(md, "A census: the values are the claim's, not checked against an oracle (mismatches: {NOT_CHECKED}).\n");
    }
    let _ = writeln!(md, "| {a} | {b} | positions | {zeros} | {zeros} % | max value | mismatches |");
    let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows.summary {
        let share = 100.0 * r.p_positions as f64 / r.patterns.max(1) as f64;
        let mismatches = if checked { r.mismatches.to_string() } else { NOT_CHECKED.to_string() };
        let _ = writeln!(md, "| {} | {} | {} | {} | {share:.2} | {} | {mismatches} |", r.rows, r.cols, r.patterns, r.p_positions, r.max_grundy);
    }
    let title = format!("{}: claimed value distribution per size ({a}, {b})", first.game);
    let _ = writeln!(md, "\n![{title}]({DISTRIBUTION_SVG})");
    let path = out.join(DISTRIBUTION_SVG);
    let svg = plots::histograms(&title, values.value, "share of positions", grid(panels(&rows).len()), &panels(&rows))
        .map_err(|e| Error::Usage(format!("{}: cannot draw the plot: {e}", path.display())))?;
    write_bytes_atomic(&path, svg.as_bytes())?;
    Ok((md, vec![path]))
}

/// One panel per size, or when there are more than [`MAX_PANELS`] sizes one per value of the
/// first size column (all of the second together), at most [`MAX_PANELS`]: the share of its
/// positions per claimed value.
fn panels(rows: &VerifyRows) -> Vec<Panel> {
    let sizes: std::collections::BTreeSet<(u32, u32)> = rows.distribution.iter().map(|d| (d.rows, d.cols)).collect();
    let whole_sizes = sizes.len() <= MAX_PANELS;
    let mut groups: BTreeMap<(u32, Option<u32>), BTreeMap<u32, u64>> = BTreeMap::new();
    for d in &rows.distribution {
        let key = (d.rows, whole_sizes.then_some(d.cols));
        *groups.entry(key).or_default().entry(d.grundy).or_default() += d.patterns;
    }
    let [a, b] = rows.columns.size;
    (groups.into_iter().take(MAX_PANELS))
        .map(|((r, c), values)| {
            let total = values.values().sum::<u64>().max(1) as f64;
            let label = match c {
                Some(c) => format!("{a} {r}, {b} {c}"),
                None => format!("{a} {r}, every {b}"),
            };
            Panel { label, shares: values.into_iter().map(|(g, n)| (g, n as f64 / total)).collect() }
        })
        .collect()
}

/// Rows and columns of a grid of `n` panels.
fn grid(n: usize) -> (usize, usize) {
    let columns = n.clamp(1, PANEL_COLUMNS);
    (n.div_ceil(columns).max(1), columns)
}
