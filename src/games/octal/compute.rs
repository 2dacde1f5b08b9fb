//! Values for the commands: the CODE argument and the options of every run that computes
//! values, the refusals (memory, time) with their estimates, progress, the values file.

use super::code::{Code, THREE, TWO};
use super::family::DENSE_SHARE;
use super::estimate::{check_time, PROBE};
use super::values::{Engine, Method};
use crate::error::{Error, Result};
use crate::game::{Args, OptSpec, Session};
use crate::game::commands::{memory_limit, MEMORY_LIMIT};
use crate::output::csv::{write_csv_rows, CsvRecord};
use crate::runner::progress::Progress;
use crate::output::text::format_bytes;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Plain mex steps (options of three-heap moves marked) a second, about: 'f'·100 (0x0.fff…)
/// to heap 2000, 2.1·10^10 steps, took 30 s on a loaded machine.
const STEPS_PER_SECOND: f64 = 5e8;
/// Three-heap codes: the plain mex steps beyond which a run needs --force (about a minute).
const MAX_STEPS: f64 = 60.0 * STEPS_PER_SECOND;

/// The CODE argument of `table`, `prove` and `verify`.
pub const CODE: OptSpec = OptSpec::positional(
    "code",
    "Take-and-break code: octal 0.07 or 4.07 (d0 before the point), hexadecimal 0x0.8, subtraction set {1,3,4} or s:1,3,4, or grundy.",
)
.required();

const METHODS: &[(&str, &str)] = &[("sparse", "Rare and common values (exact; plain mex where it does not apply)."), ("plain", "Plain mex over every option.")];

/// Options of every run that computes values.
pub fn value_options() -> [OptSpec; 5] {
    [
        OptSpec::value("threads", "N", "Threads (default: all cores); the sparse method uses two (docs/octal.md)."),
        OptSpec::value("method", "METHOD", "How values are computed.").default("sparse").choices(METHODS).hidden(),
        OptSpec::flag("force", "Run even when the estimate says it takes too long (more than an hour; for codes with three-heap moves, more than a minute)."),
        crate::game::vocabulary::QUIET,
        MEMORY_LIMIT,
    ]
}

/// The code argument.
pub fn code_arg(args: &Args) -> Result<Code> {
    Code::parse(args.text("code").ok_or_else(|| Error::Usage("a take-and-break code is required".into()))?)
}

/// Refuses, with an estimate, values up to `max` that would not fit in memory ([`check_size`])
/// or, timed by a probe (`progress` shows it), take more than an hour without --force,
/// --budget or --resume ([`check_time`]).
pub fn check_fits(code: &Code, max: usize, args: &Args, progress: &dyn Progress) -> Result<()> {
    check_size(code, max, args)?;
    if time_checked(code, max, args) {
        check_time(code, max, engine(code, args), progress)?;
    }
    Ok(())
}

/// Whether a run to `max` is timed before it starts: long enough to be worth a probe, two-heap
/// codes (three-heap ones are bounded by [`check_size`]), and neither --force, --resume nor
/// --budget given.
pub fn time_checked(code: &Code, max: usize, args: &Args) -> bool {
    !code.digits.iter().any(|d| d & THREE != 0) && max >= 4 * PROBE && !args.flag("force") && !args.flag("resume") && args.text("budget").is_none()
}

/// Refuses heaps past 2^32 − 1 (`--max` of `table`, `prove octal` and `prove octal-family`,
/// checked before anything starts).
pub fn check_heap_limit(max: usize) -> Result<()> {
    match max > u32::MAX as usize {
        true => Err(Error::Usage(format!("--max: heaps up to 2^32 − 1 = {} at most (the rare heaps are kept as 32-bit numbers), not {max}", u32::MAX))),
        false => Ok(()),
    }
}

/// Refuses values up to `max` that would not fit in memory, or (plain mex of three-heap moves)
/// take more than about a minute without --force.
pub fn check_size(code: &Code, max: usize, args: &Args) -> Result<()> {
    check_heap_limit(max)?;
    let bytes = (max as u64).saturating_add(1).saturating_mul(2).saturating_add(1 << 20);
    let available = memory_limit(args)?;
    if let Some(available) = available.filter(|&a| bytes > a) {
        return Err(Error::Usage(format!("the values of {code} up to {max} need about {} of memory (2 bytes each); only {} is available", format_bytes(bytes), format_bytes(available))));
    }
    check_three_heap_time(code, max, args.flag("force"))
}

/// Refuses, unless `force`, values up to `max` of a code with three-heap moves that would take
/// plain mex more than about a minute ([`three_heap_steps`]), with the estimate.
pub fn check_three_heap_time(code: &Code, max: usize, force: bool) -> Result<()> {
    let steps = three_heap_steps(code, max);
    if steps <= MAX_STEPS || force {
        return Ok(());
    }
    let time = crate::runner::cost::format_duration(steps / STEPS_PER_SECOND);
    Err(Error::Usage(format!("{code} has three-heap moves (plain mex, about {steps:.1e} steps up to heap {max}, estimated {time}): more than a minute; add --force to run it anyway")))
}

/// The three-heap options plain mex visits for every heap up to `max`: a move removing k
/// tokens from heap n splits m = n − k into about m²/12 triples, so Σ over such k of
/// (max − k)³/36.
pub fn three_heap_steps(code: &Code, max: usize) -> f64 {
    code.takes(THREE).iter().filter(|&&k| k <= max).map(|&k| ((max - k) as f64).powi(3) / 36.0).sum()
}

/// Two-heap plain mex steps a second, about: `table octal` of 0. and 2000 sevens to heap 4000,
/// 4.7·10^9 steps, took 3.5 core-s.
const TWO_HEAP_STEPS_PER_SECOND: f64 = 1e9;
/// Below this many two-heap steps (a tenth of a second) `solve` takes the sparse method untimed.
const FEW_TWO_HEAP_STEPS: f64 = 1e8;
/// Values the sparse method computes first to tell a dense code, for which plain mex is faster.
const DENSE_PROBE: usize = 1024;

/// The two-heap options plain mex visits for every heap up to `max`: a move removing k tokens
/// from heap n splits n − k into about (n − k)/2 pairs, so Σ over such k of (max − k)²/4.
pub fn two_heap_steps(code: &Code, max: usize) -> f64 {
    code.takes(TWO).iter().filter(|&&k| k <= max).map(|&k| ((max - k) as f64).powi(2) / 4.0).sum()
}

/// The method that computes the values up to `max` fastest for `solve`: the sparse one, unless
/// the code has many two-heap moves and its first values are dense (more than 1 in
/// [`DENSE_SHARE`] rare), where plain mex is about twice as fast. A dense code whose plain
/// mex would take more than about a minute is refused unless `force`, with the estimate.
pub fn solve_method(code: &Code, max: usize, force: bool) -> Result<Method> {
    let steps = two_heap_steps(code, max);
    if steps <= FEW_TWO_HEAP_STEPS {
        return Ok(Method::Sparse);
    }
    let len = DENSE_PROBE.min(max + 1);
    let mut probe = Engine::new(code, Method::Sparse);
    probe.extend_to(len - 1, &mut |_| {})?;
    if probe.split().rare().len() * DENSE_SHARE <= len {
        return Ok(Method::Sparse);
    }
    let seconds = steps / TWO_HEAP_STEPS_PER_SECOND;
    if seconds > MAX_STEPS / STEPS_PER_SECOND && !force {
        let time = crate::runner::cost::format_duration(seconds);
        return Err(Error::Usage(format!("{code} has dense values and many two-heap moves (plain mex, about {steps:.1e} steps up to heap {max}, estimated {time}): more than a minute; add --force to run it anyway")));
    }
    Ok(Method::Plain)
}

/// The engine with values up to `max`, computed by the method `--method` names.
pub fn computed(code: &Code, max: usize, args: &Args, session: &mut Session) -> Result<Engine> {
    check_fits(code, max, args, session.progress)?;
    let mut engine = engine(code, args);
    extend(&mut engine, max, session)?;
    Ok(engine)
}

/// An engine with the method `--method` names, on the threads `--threads` gives (the rayon pool's size).
pub fn engine(code: &Code, args: &Args) -> Engine {
    let mut engine = Engine::new(code, method(args));
    engine.set_threads(rayon::current_num_threads());
    engine
}

/// The method `--method` names.
pub fn method(args: &Args) -> Method {
    if args.text("method") == Some("plain") {
        Method::Plain
    } else {
        Method::Sparse
    }
}

/// Extends `engine` to heap `max`, with a progress bar.
pub fn extend(engine: &mut Engine, max: usize, session: &mut Session) -> Result<()> {
    let progress = session.progress;
    progress.start("values", Some(max as u64 + 1), engine.values().len() as u64);
    engine.extend_to(max, &mut |done| progress.advance(done))?;
    progress.finish();
    Ok(())
}

/// How the values were computed, for the report line and the manifest.
pub fn method_note(engine: &Engine) -> String {
    match engine.method() {
        Method::Plain => "plain mex".to_string(),
        Method::Sparse => {
            let rare = engine.split().rare();
            let last = rare.last().map_or(String::new(), |n| format!(", the last at n = {n}"));
            let rule = engine.split().rule();
            let kind = if rule.domain.is_some() { " with the heap's parity (domain type)" } else { "" };
            format!("sparse space, mask {:#x}{kind}, {} rare values{last}", rule.mask, rare.len())
        }
    }
}

/// One row of a values file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueRow {
    pub n: u64,
    pub grundy: u16,
}

impl CsvRecord for ValueRow {
    const HEADER: &'static [&'static str] = &["n", "grundy"];
}

/// Writes g(0..len) as `n,grundy` to `path`, atomically.
pub fn write_values(path: &Path, g: &[u16]) -> Result<()> {
    write_csv_rows::<ValueRow, ValueRow>(path, g.iter().enumerate().map(|(n, &grundy)| ValueRow { n: n as u64, grundy }))
}

/// Writes g(0..len) as u16 little endian to `path` (the format of `FILE.values.bin`), atomically.
pub fn write_values_bin(path: &Path, g: &[u16]) -> Result<()> {
    crate::output::atomic::write_atomic(path, |w| {
        for chunk in g.chunks(1 << 16) {
            w.write_all(&le_bytes(chunk)).map_err(|e| Error::io(path, e))?;
        }
        Ok(())
    })
}

/// Values as the bytes of a values file: u16 little endian.
pub fn le_bytes(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_heap_steps_count_each_digit_from_its_own_k() {
        let steps = |code: &str, max| three_heap_steps(&Code::parse(code).unwrap(), max);
        assert_eq!(steps("0.77", 2000), 0.0);
        assert_eq!(steps("0x0.8", 2000), 1999f64.powi(3) / 36.0);
        // 2000 three-heap digits to heap 2000: Σ (2000 − k)³/36 ≈ 2000⁴/144, not 2000 · 2000³/36.
        let long = format!("0x0.{}", "f".repeat(2000));
        let ratio = steps(&long, 2000) / (2000f64.powi(4) / 144.0);
        assert!((0.99..1.01).contains(&ratio), "{ratio}");
        assert!(check_three_heap_time(&Code::parse(&long).unwrap(), 2000, true).is_ok());
        let refused = check_three_heap_time(&Code::parse(&long).unwrap(), 2000, false).unwrap_err().to_string();
        assert!(refused.contains("about 1.1e11 steps up to heap 2000, estimated 3.7 min") && refused.contains("--force"), "{refused}");
        assert!(check_three_heap_time(&Code::parse(&format!("0x0.{}", "f".repeat(100))).unwrap(), 2000, false).is_ok(), "2.1e10 steps: about 30 s");
    }

    #[test]
    fn solve_takes_plain_mex_for_dense_codes_and_refuses_the_longest() {
        let sevens = |n: usize| Code::parse(&format!("0.{}", "7".repeat(n))).unwrap();
        assert_eq!(solve_method(&Code::parse("0.07").unwrap(), 10_000, false).unwrap(), Method::Sparse, "few steps");
        // Σ (10000 − k)²/4 over k ≤ 2000: 4.1e10 steps, about 40 s (sparse: twice that).
        assert_eq!(two_heap_steps(&sevens(2000), 10_000).round(), (8000..10_000).map(|j: u64| (j * j) as f64 / 4.0).sum::<f64>().round());
        assert_eq!(solve_method(&sevens(2000), 10_000, false).unwrap(), Method::Plain);
        let refused = solve_method(&sevens(5000), 10_000, false).unwrap_err().to_string();
        assert!(refused.contains("about 7.3e10 steps up to heap 10000, estimated 73 s") && refused.contains("--force"), "{refused}");
        assert_eq!(solve_method(&sevens(5000), 10_000, true).unwrap(), Method::Plain);
    }
}
