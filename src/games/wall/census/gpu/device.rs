//! The CUDA side: finding a GPU and its libraries ([`probe`]), compiling the kernels with
//! NVRTC, filling the quadrant tables on the device and counting ranges of positions
//! ([`GpuCensus`], an [`Evaluate`] like the CPU engine). Not yet run on a GPU in this
//! repository's history (docs/census.md): `scripts/gpu-census.sh` validates it.

use super::{table_limit, Range, Tables, HEADER, KERNEL};
use crate::error::{Error, Result};
use crate::games::wall::board::Shape;
use crate::runner::{Evaluate, RunResults};
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg};
use std::sync::{Arc, Mutex};

// SAFETY: both are #[repr(C)] plain data laid out as census.h's SgTables and SgRange.
unsafe impl DeviceRepr for Tables {}
unsafe impl DeviceRepr for Range {}

/// GPU memory left free beside the tables (context, counts, the kernels' stacks).
const RESERVE: u64 = 2 << 30;
/// Threads per block of the census kernel.
const THREADS: u32 = 256;

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
    // SAFETY: these only try dlopen on the candidate library names.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda.so.1, installed with the NVIDIA driver) was not found".into());
    }
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err("the NVRTC library (libnvrtc.so, from the CUDA toolkit; LD_LIBRARY_PATH may need its lib64 folder) was not found".into());
    }
    // A driver older than the CUDA 13 bindings may lack a symbol, which cudarc reports by panicking.
    std::panic::catch_unwind(open).unwrap_or_else(|panic| {
        let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(format!("the CUDA libraries could not be used: {}", message.unwrap_or_default()))
    })
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

/// A CUDA failure as a library error.
fn cuda(what: &str, error: impl std::fmt::Debug) -> Error {
    Error::Usage(format!("GPU census: {what} failed: {error:?}"))
}

/// The census of one shape (at least 2 rows) on the GPU.
pub struct GpuCensus {
    shape: Shape,
    inner: Mutex<Inner>,
}

struct Inner {
    stream: Arc<CudaStream>,
    census: CudaFunction,
    layout: Tables,
    tables: CudaSlice<u8>,
    counts: CudaSlice<u64>,
    flags: CudaSlice<u32>,
    grid: u32,
}

impl GpuCensus {
    /// Compiles the kernels for `device` and fills the quadrant tables of `shape` on it.
    pub fn build(device: &Device, shape: Shape) -> Result<GpuCensus> {
        let limit = table_limit(shape, device.free, RESERVE).ok_or_else(|| {
            let need = Tables::layout(shape, super::BASE_LIMIT).1 + RESERVE;
            Error::Usage(format!("GPU census of {shape}: needs {:.1} GiB of GPU memory, {} has {:.1} GiB free", gib(need), device.name, gib(device.free)))
        })?;
        let (layout, bytes) = Tables::layout(shape, limit);
        let (major, minor) = device.arch;
        let options = cudarc::nvrtc::CompileOptions { arch: Some(Box::leak(format!("compute_{major}{minor}").into_boxed_str())), ..Default::default() };
        let ptx = cudarc::nvrtc::compile_ptx_with_opts(format!("{HEADER}\n{KERNEL}"), options).map_err(|e| cuda("compiling the kernel with NVRTC", e))?;
        let module = device.ctx.load_module(ptx).map_err(|e| cuda("loading the kernel", e))?;
        let function = |name: &str| module.load_function(name).map_err(|e| cuda(name, e));
        let (fill, census) = (function("sg_fill")?, function("sg_census")?);
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
        };
        inner.fill(&fill)?;
        Ok(GpuCensus { shape, inner: Mutex::new(inner) })
    }
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
        let shared = (self.layout.slots() * 4 + self.layout.band_bytes()) as u32;
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
    fn evaluate(&self, positions: std::ops::Range<u64>, results: &mut RunResults) {
        if positions.is_empty() {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // The runner's evaluators cannot fail: a GPU failure mid-run stops the run loudly
        // (the checkpoint keeps what was counted before).
        let counts = inner.count(self.shape, &positions).unwrap_or_else(|e| panic!("{e}"));
        let tally = results.size_mut(self.shape.rows as u32, self.shape.cols as u32);
        tally.record_flat(&counts, super::super::SLOTS);
    }
}
