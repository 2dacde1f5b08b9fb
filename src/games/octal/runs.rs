//! The committed long runs (`results/octal/runs/NAME/`): the `--stats` files of `table octal`
//! runs too long to repeat in CI (Grundy's game to 2^30 in 82 minutes; Officers 0.6 for one
//! hour; Treblecross 0.007 for 20 minutes), checked by `check` for consistency and against the
//! first values recomputed (a few seconds each).

use super::code::Code;
use super::compute::ValueRow;
use super::split::Rule;
use super::stats::{Summary, ValueStat, RARE_LISTED};
use super::values::{domain_parity, values, Method};
use crate::check::{Difference, Recompute, ResultsDir, Row};
use crate::error::{Error, Result};
use crate::output::csv::read_csv;
use std::path::Path;

/// The runs, relative to results/.
pub const RUNS: &[&str] = &["octal/runs/grundy", "octal/runs/officers", "octal/runs/treblecross"];

/// Values recomputed by `check` (the statistics of the first ones are compared).
pub const RECOMPUTED: usize = 1 << 20;
/// Fewer for a run with more rare heaps than [`MANY_RARE`], whose values each cost as many
/// steps (0.007: 22,000 rare heaps, 2^17 values in about 3 s).
const RECOMPUTED_MANY_RARE: usize = 1 << 17;
const MANY_RARE: u64 = 10_000;

/// How many of a run's first values `check` recomputes.
fn recomputed(summary: &Summary) -> usize {
    let most = if summary.rare_heaps > MANY_RARE { RECOMPUTED_MANY_RARE } else { RECOMPUTED };
    (summary.heaps as usize).min(most)
}

/// Each run as a results directory: its summary.csv, checked by [`check_run`].
pub fn results() -> Vec<ResultsDir> {
    RUNS.iter().map(|&dir| ResultsDir { dir, recompute: Recompute::Table { file: "summary.csv", seconds: 5.0, compare: check_run } }).collect()
}

/// A difference on line `line` of `file` (None: the file as a whole).
fn difference(file: &Path, line: Option<usize>, committed: String, recomputed: String) -> Difference {
    Difference { file: file.to_path_buf(), row: line.map_or(Row::Missing, Row::Line), committed: Some(committed), recomputed: Some(recomputed) }
}

/// The run's three files against each other and against its first values recomputed ([`recomputed`]).
pub fn check_run(summary_file: &Path) -> Result<Vec<Difference>> {
    let dir = summary_file.parent().unwrap_or(Path::new("."));
    let summary = read_csv::<Summary>(summary_file)?.into_iter().next().ok_or_else(|| Error::malformed(summary_file, "no summary row"))?;
    let (values_file, rare_file) = (dir.join("values.csv"), dir.join("rare.csv"));
    let stats = read_csv::<ValueStat>(&values_file)?;
    let rare = read_csv::<ValueRow>(&rare_file)?;
    let code = Code::parse(&summary.code)?;
    let domain = match summary.split.as_str() {
        "range" => false,
        "domain" => true,
        other => return Err(Error::malformed(summary_file, format!("split must be range or domain, not {other:?}"))),
    };
    let rule = Rule::recorded(summary.mask, domain, domain_parity(&code))
        .ok_or_else(|| Error::malformed(summary_file, format!("split domain, but {code}'s splits remove tokens of both parities")))?;
    let mut out = totals(summary_file, &summary, &stats, &rare);
    let bad_rare = rare.iter().enumerate().filter(|(_, r)| !rule.is_rare(r.n as usize, r.grundy));
    out.extend(bad_rare.map(|(i, r)| difference(&rare_file, Some(i + 2), format!("{},{}", r.n, r.grundy), format!("a heap that is not rare under mask {:#x} ({})", rule.mask, rule.kind()))));
    let prefix = recomputed(&summary);
    let g = values(&code, prefix.saturating_sub(1), Method::Sparse)?;
    out.extend(against_prefix(&rare_file, &values_file, &rare, &stats, &g[..prefix], rule));
    Ok(out)
}

/// The summary's totals against values.csv and rare.csv.
fn totals(file: &Path, s: &Summary, stats: &[ValueStat], rare: &[ValueRow]) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut expect = |what: &str, committed: u64, derived: u64, from: &str| {
        if committed != derived {
            out.push(difference(file, Some(2), format!("{what} {committed}"), format!("{derived} by {from}")));
        }
    };
    expect("heaps", s.heaps, stats.iter().map(|v| v.count).sum(), "the counts of values.csv");
    expect("rare_heaps", s.rare_heaps, stats.iter().map(|v| v.rare_heaps).sum(), "the rare heaps of values.csv");
    expect("distinct_values", s.distinct_values, stats.len() as u64, "the rows of values.csv");
    expect("largest_value", u64::from(s.largest_value), stats.last().map_or(0, |v| u64::from(v.value)), "the last row of values.csv");
    expect("largest_first_heap", s.largest_first_heap, stats.last().map_or(0, |v| v.first_heap), "the last row of values.csv");
    expect("rare_listed", s.rare_listed, rare.len() as u64, "the rows of rare.csv");
    expect("rare_listed", s.rare_listed, s.rare_heaps.min(RARE_LISTED as u64), "the rare heaps, at most 10^6");
    if s.rare_listed == s.rare_heaps {
        expect("last_rare_heap", s.last_rare_heap.unwrap_or(0), rare.last().map_or(0, |r| r.n), "the last row of rare.csv");
    }
    out
}

/// rare.csv and values.csv where they speak of heaps below `g.len()`, against `g`.
fn against_prefix(rare_file: &Path, values_file: &Path, rare: &[ValueRow], stats: &[ValueStat], g: &[u16], rule: Rule) -> Vec<Difference> {
    let end = g.len() as u64;
    let fresh: Vec<ValueRow> = g.iter().enumerate().filter(|&(n, &v)| rule.is_rare(n, v)).map(|(n, &grundy)| ValueRow { n: n as u64, grundy }).collect();
    let committed: Vec<&ValueRow> = rare.iter().take_while(|r| r.n < end).collect();
    let mut out = Vec::new();
    let rows = committed.len().max(fresh.len().min(rare.len()));
    for i in 0..rows {
        let (want, got) = (committed.get(i), fresh.get(i));
        if want.map(|r| (r.n, r.grundy)) != got.map(|r| (r.n, r.grundy)) {
            let show = |r: Option<&ValueRow>| r.map_or("no row".to_string(), |r| format!("{},{}", r.n, r.grundy));
            out.push(difference(rare_file, Some(i + 2), show(want.copied()), show(got)));
            break;
        }
    }
    let mut first = vec![u64::MAX; 1 << 16];
    for (n, &v) in g.iter().enumerate().rev() {
        first[usize::from(v)] = n as u64;
    }
    for (i, s) in stats.iter().enumerate() {
        let seen = first[usize::from(s.value)];
        if (s.first_heap < end || seen < end) && seen != s.first_heap {
            out.push(difference(values_file, Some(i + 2), format!("value {} first at heap {}", s.value, s.first_heap), format!("first at heap {seen} (recomputed up to {end})")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed(run: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results").join(run)
    }

    /// A copy of a committed run with `from` replaced by `to` in `file`.
    fn edited(file: &str, from: &str, to: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        for name in ["summary.csv", "values.csv", "rare.csv"] {
            let text = std::fs::read_to_string(committed(RUNS[0]).join(name)).unwrap();
            let text = if name == file {
                assert!(text.contains(from), "{from}");
                text.replacen(from, to, 1)
            } else {
                text
            };
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let summary = dir.path().join("summary.csv");
        (dir, summary)
    }

    #[test]
    fn the_committed_runs_agree_with_themselves_and_the_values_recomputed() {
        for run in RUNS {
            assert_eq!(check_run(&committed(run).join("summary.csv")).unwrap(), [], "{run}");
        }
    }

    #[test]
    fn a_changed_digit_is_found() {
        // A rare heap's value (rare.csv), a count (values.csv) and the mask (summary.csv).
        let rare = std::fs::read_to_string(committed(RUNS[0]).join("rare.csv")).unwrap();
        let line = rare.lines().nth(5).unwrap().to_string();
        let (n, v) = line.split_once(',').unwrap();
        let (_dir, path) = edited("rare.csv", &format!("\n{line}\n"), &format!("\n{n},{}\n", v.parse::<u16>().unwrap() ^ 2));
        assert!(!check_run(&path).unwrap().is_empty());
        let values = std::fs::read_to_string(committed(RUNS[0]).join("values.csv")).unwrap();
        let line = values.lines().nth(3).unwrap().to_string();
        let fields: Vec<&str> = line.split(',').collect();
        let count: u64 = fields[1].parse().unwrap();
        let changed = [fields[0], &(count + 1).to_string(), fields[2], fields[3], fields[4]].join(",");
        let (_dir, path) = edited("values.csv", &line, &changed);
        let found = check_run(&path).unwrap();
        assert!(found.iter().any(|d| d.to_string().contains("the counts of values.csv")), "{found:?}");
        let summary = std::fs::read_to_string(committed(RUNS[0]).join("summary.csv")).unwrap();
        let mask = summary.lines().nth(1).unwrap().split(',').nth(5).unwrap().to_string();
        let (_dir, path) = edited("summary.csv", &format!(",{mask},"), &format!(",{},", mask.parse::<u16>().unwrap() ^ 1));
        assert!(!check_run(&path).unwrap().is_empty());
    }
}
