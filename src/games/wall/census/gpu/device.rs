//! The CUDA side: finding a GPU and its libraries ([`probe`]), compiling the kernels with
//! NVRTC, filling the quadrant tables on the device and counting ranges of positions
//! ([`GpuCensus`], an [`Evaluate`] like the CPU engine). Not yet run on a GPU in this
//! repository's history (docs/census.md): `scripts/gpu-census.sh` validates it.

use super::{table_limit, Range, Tables, HEADER, KERNEL};
use crate::error::{Error, Result};
use crate::games::wall::board::Shape;
use crate::runner::{Evaluate, RunResults};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileError, CompileOptions, Ptx};
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

// SAFETY: both are #[repr(C)] plain data laid out as census.h's SgTables and SgRange.
unsafe impl DeviceRepr for Tables {}
unsafe impl DeviceRepr for Range {}

/// GPU memory left free beside the tables (context, counts, the kernels' stacks).
const RESERVE: u64 = 2 << 30;
/// Threads per block of the census kernel.
pub const THREADS: u32 = 256;

/// The first GPU, with the figures the engine plans with.
pub struct Device {
    ctx: Arc<CudaContext>,
    /// e.g. "NVIDIA H100 80GB HBM3".
    pub name: String,
    /// Free device memory in bytes.
    pub free: u64,
    sms: u32,
    arch: (i32, i32),
}

/// The first GPU, or why none can be used: the library that was not found (the CUDA driver's
/// libcuda, NVRTC's libnvrtc), no device, or the driver's error.
pub fn probe() -> std::result::Result<Device, String> {
    // SAFETY: this only tries dlopen on the candidate library names.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda.so.1, installed with the NVIDIA driver) was not found".into());
    }
    nvrtc_present()?;
    // A driver older than the CUDA 13 bindings may lack a symbol, which cudarc reports by
    // panicking: caught, and said in the refusal rather than by the panic hook.
    quietly(open).unwrap_or_else(|panic| {
        let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(format!("the CUDA libraries could not be used: {}", message.unwrap_or_default()))
    })
}

/// `f`'s result, or its panic caught without the panic hook's message on stderr. Only for
/// the probe, which runs while no other thread works (the hook is process-wide).
fn quietly<T>(f: impl FnOnce() -> T + std::panic::UnwindSafe) -> std::thread::Result<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(f);
    std::panic::set_hook(hook);
    result
}

fn open() -> std::result::Result<Device, String> {
    let count = CudaContext::device_count().map_err(|e| format!("the CUDA driver found no usable GPU ({e:?})"))?;
    if count < 1 {
        return Err("the CUDA driver found no GPU".into());
    }
    let ctx = CudaContext::new(0).map_err(|e| format!("cannot open GPU 0 ({e:?})"))?;
    let failed = |e| format!("cannot query GPU 0 ({e:?})");
    let name = ctx.name().map_err(failed)?;
    let free = ctx.mem_get_info().map_err(failed)?.0 as u64;
    use cudarc::driver::sys::CUdevice_attribute::*;
    let sms = ctx.attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).map_err(failed)? as u32;
    let major = ctx.attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR).map_err(failed)?;
    let minor = ctx.attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR).map_err(failed)?;
    Ok(Device { ctx, name, free, sms, arch: (major, minor) })
}

/// Whether NVRTC can be loaded, or why not.
fn nvrtc_present() -> std::result::Result<(), String> {
    // SAFETY: this only tries dlopen on the candidate library names.
    if unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        Ok(())
    } else {
        Err("the NVRTC library (libnvrtc.so, from the CUDA toolkit; LD_LIBRARY_PATH may need its lib64 folder) was not found".into())
    }
}

/// The kernels as PTX for compute capability `major.minor`, compiled by NVRTC. Needs only
/// libnvrtc, no GPU and no driver: `scripts/gpu-kernel-check.sh` assembles this PTX with
/// ptxas for the GPU generations the engine targets, on a machine without one.
pub fn compile((major, minor): (i32, i32)) -> Result<Ptx> {
    nvrtc_present().map_err(|why| Error::Usage(format!("GPU census: {why}")))?;
    let options = CompileOptions { options: vec![format!("--gpu-architecture=compute_{major}{minor}")], ..Default::default() };
    compile_ptx_with_opts(format!("{HEADER}\n{KERNEL}"), options).map_err(|e| match e {
        CompileError::CompileError { options, log, .. } => {
            Error::Usage(format!("GPU census: NVRTC could not compile the kernel ({}):\n{}", options.join(" "), log.to_string_lossy().trim_end()))
        }
        other => cuda("compiling the kernel with NVRTC", other),
    })
}

/// A CUDA failure as a library error.
fn cuda(what: &str, error: impl std::fmt::Debug) -> Error {
    Error::Usage(format!("GPU census: {what} failed: {error:?}"))
}

/// What the GPU censuses of a run measured, a line per size for the manifest's notes: the
/// GPU, compile and fill times, then the census kernels' time and rate so far (updated after
/// every launch, so a run stopped midway keeps what it measured).
#[derive(Clone, Default)]
pub struct Timings(Arc<Mutex<BTreeMap<String, String>>>);

impl Timings {
    /// The lines, by size.
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).values().cloned().collect()
    }

    fn set(&self, shape: Shape, line: String) {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(shape.to_string(), line);
    }
}

impl std::fmt::Debug for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Timings").field(&self.lines()).finish()
    }
}

/// The census of one shape (at least 2 rows) on the GPU.
pub struct GpuCensus {
    shape: Shape,
    inner: Mutex<Inner>,
    timings: Timings,
    /// The GPU and the set-up's figures, e.g. "NVIDIA H200 (sm_90, 132 SMs): kernels compiled in 0.31 s, ...".
    setup: String,
}

struct Inner {
    stream: Arc<CudaStream>,
    census: CudaFunction,
    layout: Tables,
    tables: CudaSlice<u8>,
    counts: CudaSlice<u64>,
    flags: CudaSlice<u32>,
    grid: u32,
    /// Time in the census kernels (launch to counts read back), and the boards they counted.
    kernel: Duration,
    boards: u64,
}

impl GpuCensus {
    /// Compiles the kernels for `device` and fills the quadrant tables of `shape` on it; what
    /// it measures goes to `timings`.
    pub fn build(device: &Device, shape: Shape, timings: &Timings) -> Result<GpuCensus> {
        let limit = table_limit(shape, device.free, RESERVE).ok_or_else(|| {
            let need = Tables::layout(shape, super::BASE_LIMIT).1 + RESERVE;
            Error::Usage(format!("GPU census of {shape}: needs {:.1} GiB of GPU memory, {} has {:.1} GiB free", gib(need), device.name, gib(device.free)))
        })?;
        let (layout, bytes) = Tables::layout(shape, limit);
        let start = Instant::now();
        let ptx = compile(device.arch)?;
        let module = device.ctx.load_module(ptx).map_err(|e| cuda("loading the kernel", e))?;
        let function = |name: &str| module.load_function(name).map_err(|e| cuda(name, e));
        let (fill, census) = (function("sg_fill")?, function("sg_census")?);
        // NVRTC's PTX and the driver's translation of it for this GPU.
        let compiled = start.elapsed();
        let stream = device.ctx.default_stream();
        let alloc = |e| cuda("allocating GPU memory", e);
        let mut inner = Inner {
            tables: stream.alloc_zeros::<u8>(bytes.max(1) as usize).map_err(alloc)?,
            counts: stream.alloc_zeros::<u64>(layout.slots()).map_err(alloc)?,
            flags: stream.alloc_zeros::<u32>(1).map_err(alloc)?,
            stream,
            census,
            layout,
            grid: device.sms * 16,
            kernel: Duration::ZERO,
            boards: 0,
        };
        let start = Instant::now();
        inner.fill(&fill)?;
        let (major, minor) = device.arch;
        let setup = format!(
            "{} (sm_{major}{minor}, {} SMs): kernels compiled in {:.2} s, quadrant tables of {:.2} GiB (shapes up to {limit} cells) filled in {:.2} s",
            device.name,
            device.sms,
            compiled.as_secs_f64(),
            gib(bytes),
            start.elapsed().as_secs_f64()
        );
        let census = GpuCensus { shape, inner: Mutex::new(inner), timings: timings.clone(), setup };
        census.note(Duration::ZERO, 0);
        Ok(census)
    }

    /// Sets this size's line in the timings.
    fn note(&self, kernel: Duration, boards: u64) {
        self.timings.set(self.shape, timing_line(self.shape, &self.setup, kernel, boards));
    }
}

/// A size's line in the timings: the set-up, then the census kernels' time and rate.
pub fn timing_line(shape: Shape, setup: &str, kernel: Duration, boards: u64) -> String {
    let seconds = kernel.as_secs_f64();
    let rate = if seconds > 0.0 { format!(" ({:.3e} boards/s)", boards as f64 / seconds) } else { String::new() };
    format!("GPU census of {shape} on {setup}; census kernels {seconds:.2} s for {boards} boards{rate}")
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

impl Inner {
    /// Every tabled shape in order, in launches of at most 2^30 entries.
    fn fill(&mut self, fill: &CudaFunction) -> Result<()> {
        let shapes: Vec<(usize, usize)> = self.layout.filled().collect();
        for (rows, cols) in shapes {
            let total = 1u64 << (rows * cols);
            for start in (0..total).step_by(1 << 30) {
                let count = (total - start).min(1 << 30);
                let config = LaunchConfig { grid_dim: (self.grid, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
                let (r, c) = (rows as i32, cols as i32);
                let mut launch = self.stream.launch_builder(fill);
                launch.arg(&self.layout).arg(&mut self.tables).arg(&r).arg(&c).arg(&start).arg(&count).arg(&mut self.flags);
                // SAFETY: the arguments match sg_fill's parameters in kernel.cu.
                unsafe { launch.launch(config) }.map_err(|e| cuda("filling the quadrant tables", e))?;
            }
        }
        self.check_flags()
    }

    fn check_flags(&self) -> Result<()> {
        let flags = self.stream.clone_dtoh(&self.flags).map_err(|e| cuda("reading the flags", e))?;
        if flags[0] != 0 {
            return Err(Error::Usage("GPU census: a quadrant value does not fit the 16-value option sets".into()));
        }
        Ok(())
    }

    /// The counts (X count × 32 + value) of `positions`.
    fn count(&mut self, shape: Shape, positions: &std::ops::Range<u64>) -> Result<Vec<u64>> {
        let range = Range::of(positions, shape);
        self.stream.memset_zeros(&mut self.counts).map_err(|e| cuda("clearing the counts", e))?;
        let middles = range.m_last - range.m_first + 1;
        let shared = self.layout.shared_bytes() as u32;
        let config = LaunchConfig { grid_dim: (middles.min(self.grid as u64) as u32, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: shared };
        let mut launch = self.stream.launch_builder(&self.census);
        launch.arg(&self.layout).arg(&self.tables).arg(&range).arg(&mut self.counts).arg(&mut self.flags);
        // SAFETY: the arguments match sg_census's parameters in kernel.cu; `shared` is its shared memory.
        unsafe { launch.launch(config) }.map_err(|e| cuda("the census kernel", e))?;
        let counts = self.stream.clone_dtoh(&self.counts).map_err(|e| cuda("reading the counts", e))?;
        self.check_flags()?;
        Ok(counts)
    }
}

impl Evaluate for GpuCensus {
    /// A GPU failure mid-run is an error that stops the run (its checkpoint keeps what was
    /// counted before, for `--resume`).
    fn evaluate(&self, positions: std::ops::Range<u64>, results: &mut RunResults) -> Result<()> {
        if positions.is_empty() {
            return Ok(());
        }
        let mut inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let start = Instant::now();
        let counts = inner.count(self.shape, &positions)?;
        inner.kernel += start.elapsed();
        inner.boards += positions.end - positions.start;
        self.note(inner.kernel, inner.boards);
        let tally = results.size_mut(self.shape.rows as u32, self.shape.cols as u32);
        tally.record_flat(&counts, super::super::SLOTS);
        Ok(())
    }
}
