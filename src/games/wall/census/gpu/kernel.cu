/* The census kernels, compiled at run time by NVRTC after census.h (gpu/mod.rs prepends it).
 * Everything they compute is in census.h's functions; these only spread them over threads.
 * host.c drives the same functions in the same order on the CPU for the tests. */

/* Entries [start, start + count) of the table of rows×cols, each by the recursion over the
 * smaller tables (filled before). */
extern "C" __global__ void sg_fill(SgTables t, sg_u8 *tables, int rows, int cols, sg_u64 start, sg_u64 count, unsigned *flags) {
    unsigned local = 0;
    sg_u64 stride = (sg_u64)gridDim.x * blockDim.x;
    for (sg_u64 i = (sg_u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        unsigned v = sg_recurse(&t, tables, rows, cols, start + i);
        if (v >= 16) local |= SG_FLAG_VALUE;
        tables[t.offsets[rows * SG_DIM + cols] + start + i] = (sg_u8)v;
    }
    if (local) atomicOr(flags, local);
}

/* One block per middle pattern in turn (grid-stride over the range's middle patterns): the
 * pattern's weight, its bands in shared memory, then every board of it in range, counted per
 * (X count, value) in shared memory and added, times the weight, to `counts` (u64). */
extern "C" __global__ void sg_census(SgTables t, const sg_u8 *tables, SgRange range, sg_u64 *counts, unsigned *flags) {
    extern __shared__ unsigned shared[];
    int slots = (t.h * t.w + 1) * SG_SLOTS, bands = 2 * sg_band_bytes(&t), boards = 1 << (2 * t.w);
    unsigned *tally = shared;
    sg_u8 *band = (sg_u8 *)(shared + slots);
    unsigned local = 0;
    for (sg_u64 m = range.m_first + blockIdx.x; m <= range.m_last; m += gridDim.x) {
        unsigned weight = sg_weight(t.h - 2, t.w, m);
        if (weight == 0) continue;
        for (int k = threadIdx.x; k < slots; k += blockDim.x) tally[k] = 0;
        for (int k = threadIdx.x; k < bands; k += blockDim.x) band[k] = sg_band_entry(&t, tables, m, k, &local);
        __syncthreads();
        for (int b = threadIdx.x; b < boards; b += blockDim.x) {
            unsigned r0 = b & ((1 << t.w) - 1), rl = b >> t.w;
            if (!sg_in_range(&range, m, (sg_u64)b)) continue;
            atomicAdd(&tally[sg_slot(m, r0, rl, sg_board(&t, band, m, r0, rl))], 1u);
        }
        __syncthreads();
        for (int k = threadIdx.x; k < slots; k += blockDim.x)
            if (tally[k]) atomicAdd(&counts[k], (sg_u64)tally[k] * weight);
        __syncthreads();
    }
    if (local) atomicOr(flags, local);
}
