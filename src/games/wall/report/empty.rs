//! The empty-board part of `sprague report`: a heat map of the committed table and plots of the
//! proof's start p_h and constant c_h against h, with a section for report.md.

use crate::games::wall::empty::files::{ProofRow, ZeroRow, ROWS, TABLE_CSV, VERDICT, ZEROS};
use crate::error::{Error, Result};
use crate::games::wall::empty::commands::MAX_SIDE as TABLE_MAX_SIDE;
use crate::games::wall::empty::dp::EmptyRow;
use crate::output::csv::read_csv;
use crate::output::digests::Recorded;
use crate::output::plots::{self, Series};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where the empty-board results live under the results directory.
pub const EMPTY_DIR: &str = "wall/empty";
pub const TABLE_HEAT_MAP_SVG: &str = "empty_table_heat_map.svg";
pub const START_SVG: &str = "empty_start.svg";
pub const CONSTANT_SVG: &str = "empty_constant.svg";


/// Checks the files [`write`] reads against their digests in `recorded`.
pub fn check_digests(results: &Path, recorded: &Recorded) -> Result<()> {
    let dir = results.join(EMPTY_DIR);
    recorded.check_existing(&dir.join("table"), &[TABLE_CSV])?;
    recorded.check_existing(&dir.join("proof"), &[ROWS, ZEROS, VERDICT])
}

/// Writes the plots of results/wall/empty/ into `out` and returns the report.md section and
/// the files written (the caller checks their digests first: [`check_digests`]); `None` when
/// the results directory has no wall/empty/.
pub fn write(results: &Path, out: &Path) -> Result<Option<(String, Vec<PathBuf>)>> {
    let dir = results.join(EMPTY_DIR);
    if !dir.is_dir() {
        return Ok(None);
    }
    let table_path = dir.join("table").join(TABLE_CSV);
    let table: Vec<EmptyRow> = read_csv(&table_path)?;
    let rows: Vec<ProofRow> = read_csv(&dir.join("proof").join(ROWS))?;
    let zeros: Vec<ZeroRow> = read_csv(&dir.join("proof").join(ZEROS))?;
    let verdict_path = dir.join("proof").join(VERDICT);
    let verdict = std::fs::read_to_string(&verdict_path).map_err(|e| Error::io(&verdict_path, e))?;
    super::check_sides(&table_path, table.iter().map(|r| (r.rows, r.cols)), TABLE_MAX_SIDE)?;
    let (height, width) = (table.iter().map(|r| r.rows).max().unwrap_or(0), table.iter().map(|r| r.cols).max().unwrap_or(0));
    let cells: Vec<(usize, usize, u32)> = table.iter().map(|r| (r.rows as usize, r.cols as usize, r.grundy)).collect();
    let marks: Vec<(usize, usize)> = table.iter().filter(|r| r.grundy == 0).map(|r| (r.rows as usize, r.cols as usize)).collect();
    let points = |f: fn(&ProofRow) -> u32| rows.iter().map(|r| (f64::from(r.rows), f64::from(f(r)))).collect::<Vec<_>>();
    let title = format!("Grundy value of the X-free board up to {height}x{width}");
    let plots = [
        (TABLE_HEAT_MAP_SVG, plots::block_heat_map(&title, "W (columns)", "H (rows)", &cells, &marks)),
        (START_SVG, plots::line_chart("Start p_h of the constant part of row h", "height h", "width", &[
            Series { label: "start p_h".into(), points: points(|r| r.start) },
            Series { label: "computed_to".into(), points: points(|r| r.computed_to) },
        ])),
        (CONSTANT_SVG, plots::line_chart("Constant c_h of row h", "height h", "c_h = g(h x n), n >= p_h", &[Series { label: "c_h".into(), points: points(|r| r.constant) }])),
    ];
    let written = super::write_plots(out, plots)?;
    let mut md = String::new();
    let _ = writeln!(md, "\n## X-free boards beyond 20×20\n");
    let _ = writeln!(md, "From `{EMPTY_DIR}/`: the table (values up to {height}×{width} in `table/{TABLE_CSV}`) and the proof of every row up to height {} (`proof/`, docs/empty-board.md).\n", rows.len());
    let _ = writeln!(md, "**Verdict:** {}\n", verdict.trim());
    let wins: Vec<String> = zeros.iter().map(|z| format!("{}x{}", z.rows, z.cols)).collect();
    let _ = writeln!(md, "Second-player wins with a side ≤ {}: {}.\n", rows.len(), if wins.is_empty() { "none".into() } else { wins.join(", ") });
    let _ = writeln!(md, "![{title}]({TABLE_HEAT_MAP_SVG})\n\n![start p_h]({START_SVG})\n\n![constant c_h]({CONSTANT_SVG})");
    Ok(Some((md, written)))
}
