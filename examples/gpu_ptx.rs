//! The GPU census kernels as PTX, compiled by NVRTC without a GPU (scripts/gpu-kernel-check.sh
//! assembles it with ptxas). Usage: gpu_ptx MAJOR.MINOR OUT.ptx, e.g. gpu_ptx 9.0 census.ptx;
//! prints the threads per block the engine launches with, which the registers must allow.

use sprague::games::wall::census::gpu::device::{compile, THREADS};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arch = args.first().and_then(|a| a.split_once('.')).and_then(|(major, minor)| Some((major.parse().ok()?, minor.parse().ok()?)));
    let (Some(arch), Some(out), 2) = (arch, args.get(1), args.len()) else {
        eprintln!("usage: gpu_ptx MAJOR.MINOR OUT.ptx   (a compute capability, e.g. 9.0)");
        return ExitCode::from(2);
    };
    let written = compile(arch).and_then(|ptx| std::fs::write(out, ptx.to_src()).map_err(|e| sprague::error::Error::io(out, e)));
    match written {
        Ok(()) => {
            println!("threads per block: {THREADS}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gpu_ptx: {e}");
            ExitCode::from(2)
        }
    }
}
