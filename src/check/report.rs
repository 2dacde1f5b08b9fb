//! The text `check` prints: the damage, the differences, what the budget left out, the totals.

use super::{Outcome, Plan};
use crate::output::text::counted;
use std::fmt::Write;

/// The report of a check run with `budget` estimated seconds, a line each.
pub fn report(plan: &Plan, outcome: &Outcome, budget: f64) -> String {
    let mut text = String::new();
    let damaged_files: std::collections::BTreeSet<&std::path::Path> = plan.damage.iter().chain(&outcome.damage).map(|d| d.file.as_path()).collect();
    let damaged = damaged_files.len();
    for damage in plan.damage.iter().chain(&outcome.damage) {
        line(&mut text, format_args!("{damage}"));
    }
    for difference in &outcome.differences {
        line(&mut text, format_args!("{difference}"));
    }
    skipped(plan, &mut text);
    for note in plan.notes() {
        line(&mut text, format_args!("{note}"));
    }
    for dir in &plan.unregistered {
        line(&mut text, format_args!("not checked: {dir} (no entry in the check registry, or no verify files): its files were compared with their digests only, nothing in it was recomputed"));
    }
    if !plan.unregistered.is_empty() {
        let dirs = match plan.unregistered.len() {
            1 => "1 directory".to_string(),
            n => format!("{n} directories"),
        };
        line(&mut text, format_args!("NOT CHECKED: {dirs} (listed above) beyond their digests; the exit status vouches for nothing else in them"));
    }
    let estimate = plan.selected().map(|u| u.estimate).fold(0.0, |a, b| a + b);
    line(
        &mut text,
        format_args!(
            "checked every committed file against its manifest ({damaged} damaged); recomputed {} in {:.1} s (estimated {estimate:.1} s, budget {} s): {}",
            counted(outcome.checked as u64, "unit"),
            outcome.seconds,
            budget_text(budget),
            counted(outcome.differences.len() as u64, "difference")
        ),
    );
    text
}

/// A budget as the report shows it: as given up to 10^9 s (`100000`, `0.5`), beyond that in
/// powers of ten (`1e300`, not 301 digits), `inf` when infinite.
pub fn budget_text(budget: f64) -> String {
    if budget < 1e9 || budget.is_infinite() {
        budget.to_string()
    } else {
        format!("{budget:e}")
    }
}

/// Whether the check found nothing wrong: no damage and no difference.
pub fn passed(plan: &Plan, outcome: &Outcome) -> bool {
    plan.damage.is_empty() && outcome.damage.is_empty() && outcome.differences.is_empty()
}

/// The units the budget left out, with their estimates.
fn skipped(plan: &Plan, text: &mut String) {
    let skipped: Vec<_> = plan.skipped().collect();
    if skipped.is_empty() {
        return;
    }
    let estimate = skipped.iter().map(|u| u.estimate).filter(|s| s.is_finite()).fold(0.0, |a, b| a + b);
    let on_device = skipped.iter().filter(|u| u.estimate.is_infinite()).count();
    let device = if on_device > 0 { format!(" without the {on_device} whose CPU time is unknown (a device counted them, or an older merge records no shard times): --budget inf takes them") } else { String::new() };
    line(text, format_args!("skipped for budget ({} units, estimated {estimate:.1} s{device}; raise --budget to include them):", skipped.len()));
    for unit in skipped {
        match unit.estimate {
            s if s.is_finite() => line(text, format_args!("  {} (estimated {s:.2} s)", unit.label)),
            _ => line(text, format_args!("  {} (no CPU estimate: counted on a device, or an older merge)", unit.label)),
        }
    }
}

fn line(text: &mut String, args: std::fmt::Arguments) {
    // Writing into a String cannot fail.
    let _ = text.write_fmt(args);
    text.push('\n');
}
