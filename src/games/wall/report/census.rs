//! The census part of the wall report: a table row per census size (results/wall/census and
//! its subdirectories) and two plots, when the results directory holds a census.

use crate::error::{Error, Result};
use crate::output::verify_files::VerifyRows;
use crate::output::plots::{self, Panel, PlotResult, Series};
use crate::output::records::{DistributionRow, SummaryRow};
use crate::output::digests::Recorded;
use crate::output::verify_files::{DISTRIBUTION, MISMATCHES, SUMMARY};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Where the census results live under the results directory.
pub const CENSUS_DIR: &str = "wall/census";
pub const CENSUS_HISTOGRAM_SVG: &str = "census_histogram.svg";
pub const CENSUS_P_BY_X_SVG: &str = "census_p_by_x.svg";
pub const CENSUS_HISTOGRAM_TITLE: &str = "Grundy value distribution of the census sizes";
pub const CENSUS_P_BY_X_TITLE: &str = "P-position share against number of X cells (census sizes)";

/// One census size: its summary row and its distribution rows.
pub struct CensusSize {
    pub summary: SummaryRow,
    pub distribution: Vec<DistributionRow>,
}

/// Every size of every census directory: `wall/census` and its subdirectories (not shards),
/// smallest size first (each file checked against its digest in `recorded` first); none when
/// there is no census.
pub fn read_census(results: &Path, recorded: &Recorded) -> Result<Vec<CensusSize>> {
    let root = results.join(CENSUS_DIR);
    let mut dirs = vec![root.clone()];
    if let Ok(entries) = std::fs::read_dir(&root) {
        let mut subdirs: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        subdirs.sort();
        dirs.extend(subdirs);
    }
    let mut sizes = Vec::new();
    let mut found: BTreeMap<(u32, u32), &Path> = BTreeMap::new();
    for dir in dirs.iter().filter(|d| d.join(SUMMARY).is_file()) {
        recorded.check_existing(dir, &[SUMMARY, DISTRIBUTION, MISMATCHES])?;
        let VerifyRows { summary: rows, distribution, .. } = super::read_sizes(dir)?;
        for summary in rows {
            // A size counted twice (a comparison run beside the census) would be shown twice.
            if let Some(first) = found.insert((summary.rows, summary.cols), dir) {
                let message = format!("size {}x{} is also in {}: the census report shows each size once (move one of them out of {CENSUS_DIR})", summary.rows, summary.cols, first.display());
                return Err(Error::malformed(dir.join(SUMMARY), message));
            }
            let rows = distribution.iter().filter(|r| (r.rows, r.cols) == (summary.rows, summary.cols)).cloned().collect();
            sizes.push(CensusSize { summary, distribution: rows });
        }
    }
    sizes.sort_by_key(|s| (s.summary.rows * s.summary.cols, s.summary.rows));
    Ok(sizes)
}

/// Patterns per value, and the fewest X cells with which each value occurs.
fn per_value(size: &CensusSize) -> BTreeMap<u32, (u64, u32)> {
    let mut values: BTreeMap<u32, (u64, u32)> = BTreeMap::new();
    for r in &size.distribution {
        let entry = values.entry(r.grundy).or_insert((0, r.xs));
        entry.0 += r.patterns;
        entry.1 = entry.1.min(r.xs);
    }
    values
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The report's census section: one row per size and the two plots.
pub fn census_markdown(sizes: &[CensusSize]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "## Census sizes\n");
    let _ = writeln!(md, "From `{CENSUS_DIR}/` and its subdirectories: the rectangle DP alone on every X-pattern (nothing cross-checked).\n");
    let _ = writeln!(md, "| size | patterns | P-positions % | max Grundy | commonest values | first X count per value |");
    let _ = writeln!(md, "|---|---:|---:|---:|---|---|");
    for size in sizes {
        let s = &size.summary;
        let values = per_value(size);
        let mut by_share: Vec<(&u32, &(u64, u32))> = values.iter().collect();
        by_share.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
        let commonest: Vec<String> = by_share.iter().take(3).map(|(g, (n, _))| format!("{g} ({:.1} %)", percent(*n, s.patterns))).collect();
        let first: Vec<String> = values.iter().map(|(g, (_, xs))| format!("{g}: {xs}")).collect();
        let _ = writeln!(
            md,
            "| {}x{} | {} | {:.2} | {} | {} | {} |",
            s.rows,
            s.cols,
            s.patterns,
            percent(s.p_positions, s.patterns),
            s.max_grundy,
            commonest.join(", "),
            first.join(", ")
        );
    }
    let _ = writeln!(md, "\n![{CENSUS_HISTOGRAM_TITLE}]({CENSUS_HISTOGRAM_SVG})\n");
    let _ = writeln!(md, "![{CENSUS_P_BY_X_TITLE}]({CENSUS_P_BY_X_SVG})\n");
    md
}

/// The census plots: value shares per size (one panel each) and the P-share by X count.
pub fn census_plots(sizes: &[CensusSize]) -> [(&'static str, PlotResult<String>); 2] {
    let panels: Vec<Panel> = sizes
        .iter()
        .map(|size| {
            let shares = per_value(size).into_iter().map(|(g, (n, _))| (g, n as f64 / size.summary.patterns.max(1) as f64)).collect();
            Panel { label: format!("{}x{}", size.summary.rows, size.summary.cols), shares }
        })
        .collect();
    let series: Vec<Series> = sizes
        .iter()
        .map(|size| {
            let mut per_xs: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
            for r in &size.distribution {
                let entry = per_xs.entry(r.xs).or_default();
                entry.0 += if r.grundy == 0 { r.patterns } else { 0 };
                entry.1 += r.patterns;
            }
            let points = per_xs.into_iter().map(|(xs, (p, n))| (f64::from(xs), p as f64 / n.max(1) as f64)).collect();
            Series { label: format!("{}x{}", size.summary.rows, size.summary.cols), points }
        })
        .collect();
    [
        (CENSUS_HISTOGRAM_SVG, plots::histograms(CENSUS_HISTOGRAM_TITLE, "Grundy value", "share of patterns", (1, panels.len()), &panels)),
        (CENSUS_P_BY_X_SVG, plots::line_chart(CENSUS_P_BY_X_TITLE, "number of X cells", "fraction of patterns that are P-positions", &series)),
    ]
}
