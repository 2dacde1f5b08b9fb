//! The wall report: report.md (per-size table, empty-board table) and its SVG plots.

pub mod census;
pub mod empty;
pub mod runs;

use crate::output::atomic::write_bytes_atomic;
use crate::output::text::counted;
use crate::output::csv::read_csv;
use crate::output::verify_files::VerifyRows;
use crate::output::manifest::Manifest;
use crate::output::panels::{self, LinePanel};
use crate::output::plots::{self, Panel, PlotResult, Series};
use crate::output::records::{Columns, DistributionRow, SummaryRow};
use crate::output::digests::Recorded;
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use crate::error::{Error, Result};
use crate::games::wall::board::MAX_SIDE;
use crate::games::wall::empty::dp::{EmptyRow, EMPTY};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where the report's data lives under the results directory.
pub const WALL_DIR: &str = "wall/standard";
pub const REPORT: &str = "report.md";
pub const HISTOGRAM_SVG: &str = "grundy_histogram.svg";
pub const P_FRACTION_SVG: &str = "p_fraction.svg";
pub const MEAN_GRUNDY_SVG: &str = "mean_grundy_by_x.svg";
pub const HEAT_MAP_SVG: &str = "empty_heat_map.svg";
/// Histogram panels at most, and panels per row when they are not laid out on the size grid.
const MAX_HISTOGRAMS: usize = 64;
const HISTOGRAM_COLUMNS: usize = 8;

/// The plot titles (each SVG contains its own).
pub const HISTOGRAM_TITLE: &str = "Grundy value distribution per board size";
pub const P_FRACTION_TITLE: &str = "P-position fraction against board area";
pub const MEAN_GRUNDY_TITLE: &str = "Mean Grundy value against number of X cells";
pub const HEAT_MAP_TITLE: &str = "Grundy value of the empty board";

/// What the report is made of: the wall results of one results directory.
pub struct WallResults {
    /// Where the verify files were read, as report.md names it (e.g. `wall/standard/` of the
    /// results directory).
    pub source: String,
    pub summary: Vec<SummaryRow>,
    pub distribution: Vec<DistributionRow>,
    pub empty: Vec<EmptyRow>,
    /// The run's manifest, when there is one (for the provenance line).
    pub manifest: Option<Manifest>,
    /// The census sizes under wall/census, if any (a section and two plots of their own).
    pub census: Vec<census::CensusSize>,
}

impl WallResults {
    /// Reads `results/wall/standard/` (summary.csv, distribution.csv, empty.csv; manifest.json
    /// if present), each file checked against its digest in `recorded` first.
    pub fn read(results: &Path, recorded: &Recorded) -> Result<Self> {
        let dir = results.join(WALL_DIR);
        recorded.check_existing(&dir, &[SUMMARY, DISTRIBUTION, MISMATCHES, EMPTY])?;
        let manifest_path = dir.join(MANIFEST);
        let VerifyRows { summary, distribution, .. } = read_sizes(&dir)?;
        Ok(WallResults {
            source: format!("`{WALL_DIR}/` of the results directory"),
            summary,
            distribution,
            empty: read_empty(&dir.join(EMPTY))?,
            manifest: if manifest_path.exists() { Some(Manifest::read(&manifest_path)?) } else { None },
            census: census::read_census(results, recorded)?,
        })
    }
}

/// Reads the verify files of `dir` as the wall's, every size within the board's sides (what
/// keeps the report's tables and plots small whatever the files say) and the summary agreeing
/// with the distribution.
pub fn read_sizes(dir: &Path) -> Result<VerifyRows> {
    let rows = VerifyRows::read_as(dir, Columns::BOARD)?;
    check_sides(&dir.join(SUMMARY), rows.summary.iter().map(|r| (r.rows, r.cols)), MAX_SIDE)?;
    check_sides(&dir.join(DISTRIBUTION), rows.distribution.iter().map(|r| (r.rows, r.cols)), MAX_SIDE)?;
    rows.check_consistent(dir)?;
    Ok(rows)
}

/// Reads an empty.csv of board sizes (within the board's sides).
pub fn read_empty(path: &Path) -> Result<Vec<EmptyRow>> {
    let empty: Vec<EmptyRow> = read_csv(path)?;
    check_sides(path, empty.iter().map(|r| (r.rows, r.cols)), MAX_SIDE)?;
    Ok(empty)
}

/// An error naming the line (the header is line 1) of the first size in `sizes` with a side
/// outside 1..=`max`.
pub fn check_sides(path: &Path, sizes: impl Iterator<Item = (u32, u32)>, max: usize) -> Result<()> {
    let within = |side: u32| (1..=max).contains(&(side as usize));
    match sizes.enumerate().find(|(_, (rows, cols))| !within(*rows) || !within(*cols)) {
        Some((at, (rows, cols))) => Err(Error::malformed(path, format!("line {}: size {rows}x{cols} is outside the sides the report draws (1 to {max})", at + 2))),
        None => Ok(()),
    }
}

/// Writes report.md and the four SVG plots into `out`; returns the paths written.
pub fn write_report(data: &WallResults, out: &Path) -> Result<Vec<PathBuf>> {
    let mut plots: Vec<(&str, PlotResult<String>)> = vec![
        (HISTOGRAM_SVG, histogram_plot(data)),
        (P_FRACTION_SVG, p_fraction_plot(data)),
        (MEAN_GRUNDY_SVG, mean_grundy_plot(data)),
    ];
    if !data.empty.is_empty() {
        plots.push((HEAT_MAP_SVG, heat_map_plot(data)));
    }
    if !data.census.is_empty() {
        plots.extend(census::census_plots(&data.census));
    }
    let mut written = write_plots(out, plots)?;
    let path = out.join(REPORT);
    write_bytes_atomic(&path, markdown(data).as_bytes())?;
    written.push(path);
    Ok(written)
}

/// Writes each drawn plot as `out/NAME`; returns the paths written.
pub fn write_plots(out: &Path, plots: impl IntoIterator<Item = (&'static str, PlotResult<String>)>) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (name, svg) in plots {
        let path = out.join(name);
        let svg = svg.map_err(|e| Error::Usage(format!("{}: cannot draw the plot: {e}", path.display())))?;
        write_bytes_atomic(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// Percentage with two decimals.
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// report.md: provenance, the per-size table, the plots, the empty-board table.
pub fn markdown(data: &WallResults) -> String {
    let mut md = String::new();
    let (max_rows, max_cols) = grid(data);
    let _ = writeln!(md, "# Wall Making Game: results up to {max_rows}x{max_cols}\n");
    let _ = writeln!(
        md,
        "From {}: `{SUMMARY}` and `{DISTRIBUTION}` \
         (every X-pattern of every size, rectangle DP against the naive whole-board search){}.",
        data.source,
        if data.empty.is_empty() { String::new() } else { format!(" and `{EMPTY}` (the rectangle DP on the board with no X)") }
    );
    if let Some(m) = &data.manifest {
        let commit = m.git_commit.as_deref().unwrap_or("unknown");
        let _ = writeln!(md, "The verify run was `{}` at commit `{commit}`.", m.command_line.join(" "));
    }
    let _ = writeln!(md, "\n## Per board size\n");
    let _ = writeln!(md, "| size | patterns | P-positions | P-positions % | max Grundy | mismatches |");
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|");
    for r in &data.summary {
        let _ = writeln!(
            md,
            "| {}x{} | {} | {} | {:.2} | {} | {} |",
            r.rows,
            r.cols,
            r.patterns,
            r.p_positions,
            percent(r.p_positions, r.patterns),
            r.max_grundy,
            r.mismatches
        );
    }
    let patterns: u64 = data.summary.iter().map(|r| r.patterns).sum();
    let mismatches: u64 = data.summary.iter().map(|r| r.mismatches).sum();
    let (sizes, patterns, mismatches) = (counted(data.summary.len() as u64, "size"), counted(patterns, "pattern"), counted(mismatches, "mismatch"));
    let _ = writeln!(md, "\n{sizes}, {patterns}, {mismatches}.\n");
    for (title, file) in [(HISTOGRAM_TITLE, HISTOGRAM_SVG), (P_FRACTION_TITLE, P_FRACTION_SVG), (MEAN_GRUNDY_TITLE, MEAN_GRUNDY_SVG)] {
        let _ = writeln!(md, "![{title}]({file})\n");
    }
    if !data.empty.is_empty() {
        empty_section(&mut md, &data.empty);
    }
    if !data.census.is_empty() {
        let _ = writeln!(md, "\n{}", census::census_markdown(&data.census).trim_end());
    }
    md
}

/// The empty-board table and heat map of report.md.
fn empty_section(md: &mut String, empty: &[EmptyRow]) {
    let (rows, cols) = empty_extent(empty);
    let _ = writeln!(md, "## Empty boards\n");
    let _ = writeln!(md, "Grundy value of the H×W board with no X (H down, W across), 1 ≤ H ≤ {rows}, 1 ≤ W ≤ {cols}.\n");
    let values = empty_grid(empty);
    let header: Vec<String> = (1..=cols).map(|c| c.to_string()).collect();
    let _ = writeln!(md, "| H \\ W | {} |", header.join(" | "));
    let _ = writeln!(md, "|---|{}", "---:|".repeat(cols as usize));
    for (r, row) in values.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|v| v.map_or("".to_string(), |v| v.to_string())).collect();
        let _ = writeln!(md, "| **{}** | {} |", r + 1, cells.join(" | "));
    }
    let _ = writeln!(md, "\n![{HEAT_MAP_TITLE}]({HEAT_MAP_SVG})");
}

/// The largest rows and cols among the summary's sizes.
fn grid(data: &WallResults) -> (u32, u32) {
    let rows = data.summary.iter().map(|r| r.rows).max().unwrap_or(0);
    let cols = data.summary.iter().map(|r| r.cols).max().unwrap_or(0);
    (rows, cols)
}

/// The largest rows and cols in the empty-board table.
fn empty_extent(empty: &[EmptyRow]) -> (u32, u32) {
    (empty.iter().map(|r| r.rows).max().unwrap_or(0), empty.iter().map(|r| r.cols).max().unwrap_or(0))
}

/// The empty-board table as rows of cells (None where the file has no value).
fn empty_grid(empty: &[EmptyRow]) -> Vec<Vec<Option<u32>>> {
    let (rows, cols) = empty_extent(empty);
    let mut grid = vec![vec![None; cols as usize]; rows as usize];
    for r in empty.iter().filter(|r| r.rows >= 1 && r.cols >= 1) {
        grid[r.rows as usize - 1][r.cols as usize - 1] = Some(r.grundy);
    }
    grid
}

/// Patterns per (size) → (xs, grundy) → count, from distribution.csv.
fn by_size(data: &WallResults) -> BTreeMap<(u32, u32), Vec<&DistributionRow>> {
    let mut sizes: BTreeMap<(u32, u32), Vec<&DistributionRow>> = BTreeMap::new();
    for r in &data.distribution {
        sizes.entry((r.rows, r.cols)).or_default().push(r);
    }
    sizes
}

/// A panel per size on the rows × cols grid when the files hold every size of it and it has at
/// most [`MAX_HISTOGRAMS`] places, else one per size the files hold (the first
/// [`MAX_HISTOGRAMS`]), [`HISTOGRAM_COLUMNS`] a row: no panel is empty.
fn histogram_plot(data: &WallResults) -> PlotResult<String> {
    let (rows, cols) = grid(data);
    let sizes = by_size(data);
    let places = rows as usize * cols as usize;
    let whole_grid = places <= MAX_HISTOGRAMS && sizes.len() == places;
    let shown: Vec<(u32, u32)> = match whole_grid {
        true => (1..=rows).flat_map(|r| (1..=cols).map(move |c| (r, c))).collect(),
        false => sizes.keys().copied().take(MAX_HISTOGRAMS).collect(),
    };
    let layout = match whole_grid {
        true => (rows as usize, cols as usize),
        false => {
            let columns = shown.len().clamp(1, HISTOGRAM_COLUMNS);
            (shown.len().div_ceil(columns), columns)
        }
    };
    let panels: Vec<Panel> = shown.iter().map(|size| histogram_panel(*size, sizes.get(size).map_or(&[][..], Vec::as_slice))).collect();
    plots::histograms(HISTOGRAM_TITLE, "Grundy value", "share of patterns", layout, &panels)
}

/// The share of a size's patterns per Grundy value.
fn histogram_panel((r, c): (u32, u32), rows_of: &[&DistributionRow]) -> Panel {
    let total: u64 = rows_of.iter().map(|d| d.patterns).sum();
    let mut per_g: BTreeMap<u32, u64> = BTreeMap::new();
    for d in rows_of {
        *per_g.entry(d.grundy).or_default() += d.patterns;
    }
    let shares = per_g.into_iter().map(|(g, n)| (g, n as f64 / total.max(1) as f64)).collect();
    Panel { label: format!("{r}x{c}"), shares }
}

fn p_fraction_plot(data: &WallResults) -> PlotResult<String> {
    let mut by_rows: BTreeMap<u32, Vec<(f64, f64)>> = BTreeMap::new();
    for r in data.summary.iter().filter(|r| r.patterns > 0) {
        by_rows.entry(r.rows).or_default().push((f64::from(r.rows * r.cols), r.p_positions as f64 / r.patterns as f64));
    }
    let series: Vec<Series> = by_rows.into_iter().map(|(h, points)| Series { label: format!("H = {h}"), points }).collect();
    plots::line_chart(P_FRACTION_TITLE, "board area (cells)", "fraction of patterns that are P-positions", &series)
}

/// Small multiples: a panel per row count H, a line per width W (mean claimed value against
/// the number of X cells), so that no panel holds more than a few lines.
fn mean_grundy_plot(data: &WallResults) -> PlotResult<String> {
    let mut panels: BTreeMap<u32, Vec<Series>> = BTreeMap::new();
    for ((r, c), rows) in by_size(data) {
        let mut per_xs: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for d in rows {
            let e = per_xs.entry(d.xs).or_default();
            e.0 += u64::from(d.grundy) * d.patterns;
            e.1 += d.patterns;
        }
        let points = per_xs.into_iter().map(|(xs, (sum, n))| (f64::from(xs), sum as f64 / n.max(1) as f64)).collect();
        panels.entry(r).or_default().push(Series { label: format!("W = {c}"), points });
    }
    let panels: Vec<LinePanel> = panels.into_iter().map(|(h, series)| LinePanel { label: format!("H = {h}"), series }).collect();
    let columns = if panels.len() > 4 { 3 } else { 2 };
    panels::line_panels(MEAN_GRUNDY_TITLE, "number of X cells", "mean Grundy value", &panels, columns)
}

fn heat_map_plot(data: &WallResults) -> PlotResult<String> {
    let values: Vec<Vec<u32>> = empty_grid(&data.empty).into_iter().map(|row| row.into_iter().map(|v| v.unwrap_or(0)).collect()).collect();
    plots::heat_map(HEAT_MAP_TITLE, "W (columns)", "H (rows)", &values)
}
