//! `sprague census wall`: the census of one size or of every size up to one, on the CPU or
//! the GPU (`--device`). The engine is not recorded among the manifest's options: both write
//! the same files, so shards of either merge, resume and are checked alike (on the CPU).

use super::sizes::{shapes, size_options};
use super::board::Shape;
use super::census::gpu::{self, device::probe};
use super::verify::{Engine, WallRun};
use crate::error::{Error, Result};
use crate::game::commands::{run_verification, RUN_OPTIONS};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::runner::Verification;

/// `--device`: where the census counts.
const DEVICE: OptSpec = OptSpec::value("device", "DEVICE", "Where to count: the CPU, the GPU (CUDA driver and NVRTC loaded at run time), or auto (the GPU when one can be used).")
    .default("cpu")
    .choices(&[("cpu", "the CPU engine (every core)"), ("gpu", "the GPU kernel; exit 2 when no GPU can be used"), ("auto", "the GPU when one can be used, else the CPU")]);

/// The census command.
pub struct CensusCommand;

impl Command for CensusCommand {
    fn verb(&self) -> Verb {
        Verb::Census
    }

    fn spec(&self) -> CommandSpec {
        let mut options = size_options().to_vec();
        options.push(DEVICE);
        options.extend_from_slice(RUN_OPTIONS);
        CommandSpec {
            name: "wall",
            about: "Wall Making Game: rectangle-DP Grundy values of every X-pattern (summary, distribution).",
            options,
            examples: &["sprague census wall --size 6x6 --out out/census", "sprague census wall --size 6x6 --shard 3/8", "sprague census wall --size 7x7 --device gpu"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let (shapes, label) = shapes(args)?;
        let engine = engine(args, &shapes, session)?;
        let run = WallRun::census_on(shapes, label, engine)?;
        let own: Vec<&str> = size_options().iter().map(|o| o.name).collect();
        run_verification(&run, &own, args, session)
    }

    /// The census as its manifest's options describe it (`merge`, `check`): on the CPU.
    fn verification(&self, args: &Args) -> Option<Result<Box<dyn Verification>>> {
        Some(shapes(args).and_then(|(shapes, label)| Ok(Box::new(WallRun::census(shapes, label)?) as Box<dyn Verification>)))
    }
}

/// The engine `--device` asks for: `gpu` refused (exit 2) with the reason when no GPU can be
/// used; `auto` falls back to the CPU and says why on stderr.
fn engine(args: &Args, shapes: &[Shape], session: &mut Session) -> Result<Engine> {
    let device = args.text("device").unwrap_or("cpu");
    // A size no engine takes is named before any CUDA library is looked for.
    if let Some(&bad) = shapes.iter().find(|&&s| device != "cpu" && !gpu::supports(s)) {
        return Err(gpu::unsupported(bad));
    }
    match device {
        "cpu" => Ok(Engine::Cpu),
        "gpu" => match probe() {
            Ok(_) => Ok(Engine::Gpu),
            Err(why) => Err(Error::Usage(format!("--device gpu: {why}; use --device cpu (or auto) to count on the CPU"))),
        },
        "auto" => Ok(match probe() {
            Ok(device) => {
                session.report(&format!("census: counting on the GPU ({})", device.name));
                Engine::Gpu
            }
            Err(why) => {
                session.report(&format!("census: no GPU engine ({why}); counting on the CPU"));
                Engine::Cpu
            }
        }),
        other => Err(Error::Usage(format!("--device must be cpu, gpu or auto, not {other}"))),
    }
}
