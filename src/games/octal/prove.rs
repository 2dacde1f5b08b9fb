//! `prove octal CODE`: values computed in doubling steps until the periodicity theorem proves a
//! period ([`super::period`]) or `--max` is reached; values.csv with its SHA-256, manifest.json.

use super::compute::{check_size, code_arg, engine, extend, time_checked, method_note, value_options, write_values, CODE};
use super::code::Code;
use super::estimate::{Probe, PROBE};
use super::period::{prove, Bound, Periodicity};
use super::values::Engine;
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::output::atomic::sha256_file;
use crate::output::takeover::{game_of_code, replaced_count};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The values file of a proof.
pub const VALUES: &str = "values.csv";
/// Values computed before the first attempt (then doubled).
const FIRST_STEP: usize = 1024;

const THEOREM: &str = "periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4): g(n + p) = g(n) for n0 ≤ n < bound implies it for every n ≥ n0";

/// `prove octal CODE --max N`.
#[derive(Clone, Copy)]
pub struct ProveOctal;

impl Command for ProveOctal {
    fn verb(&self) -> Verb {
        Verb::Prove
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            CODE,
            OptSpec::value("max", "N", "Compute values up to heap N at most while looking for a proof.").default("100000"),
            OptSpec::value("out", "DIR", "Directory for values.csv and manifest.json.").default("out/octal-proof"),
        ];
        options.extend(value_options());
        CommandSpec {
            name: "octal",
            about: "Take-and-break game: find the period and preperiod and prove them by the periodicity theorem (exit 0 proved, 3 not within --max).",
            options,
            examples: &["sprague prove octal 0.77 --out out/kayles", "sprague prove octal 0.177 --max 5000 --out out/0.177"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let code = code_arg(args)?;
        let bound = Bound::of(&code).map_err(|why| Error::Usage(format!("{code} is not proved: {why}")))?;
        let max: usize = args.require("max")?;
        super::compute::check_heap_limit(max)?;
        let dir = PathBuf::from(args.require::<String>("out")?);
        let clock = session.clock();
        let _lock = clock.lock(&dir, &game_of_code("octal", &code.to_string()))?;
        let (engine, proof) = search(&code, bound, max, args, session)?;
        let g = engine.values();
        let kept = proof.map_or(g.len(), |p| p.values);
        write_values(&dir.join(VALUES), &g[..kept])?;
        let digest = sha256_file(&dir.join(VALUES))?;
        if let Some(line) = replaced_count(&dir, "values", kept as u64, "values") {
            session.report(&line);
        }
        let mut manifest = clock.finish(&dir, &[VALUES])?;
        manifest.parameters = parameters(&code, bound, proof, kept, &engine);
        manifest.notes.push(THEOREM.to_string());
        manifest.write(&dir.join("manifest.json"))?;
        let t = code.max_take();
        let lines = match proof {
            Some(p) => vec![
                format!("{code} (t = {t}): period {} from n0 = {}{}", p.period, p.preperiod, last_exception(p)),
                format!("proved: g(n + {}) = g(n) for {} ≤ n < {}, hence for every n ≥ {} (periodicity theorem, Guy & Smith 1956)", p.period, p.preperiod, bound.formula(p.preperiod, p.period, t), p.preperiod),
            ],
            None => vec![format!("{code} (t = {t}): no period proved with values up to heap {} ({})", g.len() - 1, method_note(&engine))],
        };
        for line in lines.iter().chain([&format!("{}: {kept} values, sha256 {digest}", dir.join(VALUES).display())]) {
            session.println(&line)?;
        }
        Ok(if proof.is_some() { Status::Ok } else { Status::Interrupted })
    }
}

/// Where the exceptions end: ` (last exception at n = 70)`, or periodic from the start.
fn last_exception(p: Periodicity) -> String {
    match p.preperiod {
        1 => " (periodic from the start)".to_string(),
        n0 => format!(" (last exception at n = {})", n0 - 1),
    }
}

/// Values in doubling steps up to `max` until a period is proved.
fn search(code: &Code, bound: Bound, max: usize, args: &Args, session: &mut Session) -> Result<(Engine, Option<Periodicity>)> {
    let mut engine = engine(code, args);
    let mut size = FIRST_STEP.min(max);
    let (started, mut step) = (Instant::now(), Duration::ZERO);
    loop {
        let len = engine.values().len();
        // The time to heap `size`: what it took so far and the next step's, from the last one's.
        let timed = (len >= PROBE && time_checked(code, size, args)).then(|| Probe::of(&engine, started.elapsed(), step, len / 2));
        if let Err(refused) = check_size(code, size, args).and_then(|()| timed.map_or(Ok(()), |probe| probe.check(code, size, started.elapsed().as_secs_f64()))) {
            if engine.values().is_empty() {
                return Err(refused);
            }
            session.report(&format!("stopped before heap {size}: {refused}"));
            return Ok((engine, None));
        }
        let before = Instant::now();
        extend(&mut engine, size, session)?;
        step = before.elapsed();
        let proof = prove(engine.values(), bound, code.max_take());
        if proof.is_some() || size >= max {
            return Ok((engine, proof));
        }
        size = size.saturating_mul(2).min(max);
    }
}

/// The manifest's record of the proof.
fn parameters(code: &Code, bound: Bound, proof: Option<Periodicity>, kept: usize, engine: &Engine) -> BTreeMap<String, serde_json::Value> {
    let mut out = BTreeMap::from([
        ("game".to_string(), "octal".into()),
        ("code".to_string(), code.to_string().into()),
        ("t".to_string(), code.max_take().into()),
        ("proved".to_string(), proof.is_some().into()),
        ("values".to_string(), kept.into()),
        ("method".to_string(), method_note(engine).into()),
        ("largest_value".to_string(), engine.values().iter().max().copied().unwrap_or(0).into()),
    ]);
    if let Some(p) = proof {
        out.insert("preperiod".to_string(), p.preperiod.into());
        out.insert("period".to_string(), p.period.into());
        out.insert("checked".to_string(), format!("g(n + p) = g(n) for n0 ≤ n < {}", bound.formula(p.preperiod, p.period, code.max_take())).into());
    }
    out
}
