/* The census's per-board logic, in a C subset that NVRTC (as CUDA C++) and a host C compiler
 * both take: the GPU kernels (kernel.cu) and the host test program (host.c) call these same
 * functions, so the logic the GPU runs is tested on machines without one (docs/census.md).
 *
 * A pattern of an h×w shape has bit r·w + c for cell (r, c); the quadrant tables hold the
 * rectangle-DP value of every pattern of each shape up to (H−1)×(W−1) with at most the
 * host's table limit of cells, at `offsets[rows * SG_DIM + cols]` in one byte array (SG_NONE:
 * no table; such a quadrant is computed by the recursion over its cells, whose own quadrants
 * always have tables). Middle rows outside, first and last row inside: for middle pattern m
 * (rows 1..H−2), `above` holds the band above rows 1..H−1 per column and first row r0, and
 * `below` the band below rows 0..H−2 per column and last row rL (census/middle.rs). */
#ifndef SG_CENSUS_H
#define SG_CENSUS_H

#ifdef __CUDACC__
#define SG_FN __device__ __forceinline__
#define sg_ctz(x) (__ffs(x) - 1)
#define sg_popcount(x) __popcll(x)
#else
#define SG_FN static inline
#define sg_ctz(x) __builtin_ctz(x)
#define sg_popcount(x) __builtin_popcountll(x)
#endif

typedef unsigned long long sg_u64;
typedef unsigned char sg_u8;

/* Shapes up to 8×8 are indexed rows * SG_DIM + cols. */
#define SG_DIM 9
#define SG_NONE 0xFFFFFFFFFFFFFFFFull
/* Values per X count in the counts (as the CPU engine's SLOTS). */
#define SG_SLOTS 32
/* Flags: a quadrant value too large for the 16-value option sets. */
#define SG_FLAG_VALUE 1u

/* The board size and where each quadrant table starts. Mirrored by `Tables` in gpu/mod.rs. */
typedef struct {
    int h, w;
    sg_u64 offsets[SG_DIM * SG_DIM];
} SgTables;

/* Middle patterns m_first..=m_last; of m_first only the boards at offset (r0 | rL << W)
 * ≥ lo, of m_last only those below hi. Mirrored by `Range` in gpu/mod.rs. */
typedef struct {
    sg_u64 m_first, m_last, lo, hi;
} SgRange;

/* Rows r0..r1, columns c0..c1 of pattern x (cols wide), packed (c1 − c0) wide. */
SG_FN sg_u64 sg_rect(sg_u64 x, int cols, int r0, int r1, int c0, int c1) {
    int width = c1 - c0;
    sg_u64 row = width > 0 ? (1ull << width) - 1 : 0, out = 0;
    for (int r = r0; r < r1; r++) out |= ((x >> (r * cols + c0)) & row) << ((r - r0) * width);
    return out;
}

/* A tabled quadrant's value (0 for an empty shape). */
SG_FN unsigned sg_lookup(const SgTables *t, const sg_u8 *tables, int rows, int cols, sg_u64 x) {
    if (rows == 0 || cols == 0) return 0;
    return tables[t->offsets[rows * SG_DIM + cols] + x];
}

/* The rectangle DP's value of pattern x of rows×cols by the recursion: the mex over free
 * cells of the XOR of the cell's four quadrants, each from its table. */
SG_FN unsigned sg_recurse(const SgTables *t, const sg_u8 *tables, int rows, int cols, sg_u64 x) {
    sg_u64 seen = 0;
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
            if ((x >> (i * cols + j)) & 1) continue;
            unsigned v = sg_lookup(t, tables, i, j, sg_rect(x, cols, 0, i, 0, j))
                ^ sg_lookup(t, tables, i, cols - 1 - j, sg_rect(x, cols, 0, i, j + 1, cols))
                ^ sg_lookup(t, tables, rows - 1 - i, j, sg_rect(x, cols, i + 1, rows, 0, j))
                ^ sg_lookup(t, tables, rows - 1 - i, cols - 1 - j, sg_rect(x, cols, i + 1, rows, j + 1, cols));
            seen |= 1ull << (v & 63);
        }
    }
    return (unsigned)sg_ctz((unsigned)~seen);
}

/* Any quadrant's value: its table when it has one, else the recursion. */
SG_FN unsigned sg_quadrant(const SgTables *t, const sg_u8 *tables, int rows, int cols, sg_u64 x) {
    if (rows == 0 || cols == 0) return 0;
    if (t->offsets[rows * SG_DIM + cols] != SG_NONE) return tables[t->offsets[rows * SG_DIM + cols] + x];
    return sg_recurse(t, tables, rows, cols, x);
}

/* Band arrays of one middle pattern: (H−1)·W·2^W bytes each. */
SG_FN int sg_band_bytes(const SgTables *t) {
    return (t->h - 1) * t->w << t->w;
}

/* Entry k of the bands of middle pattern m (k < 2 · sg_band_bytes): above first, then below;
 * within each by row, column, lane. Sets SG_FLAG_VALUE in *flags for a value of 16 or more. */
SG_FN sg_u8 sg_band_entry(const SgTables *t, const sg_u8 *tables, sg_u64 m, int k, unsigned *flags) {
    int h = t->h, w = t->w, half = sg_band_bytes(t), below = k >= half;
    int rest = below ? k - half : k, lane = rest & ((1 << w) - 1), row = (rest >> w) / w, j = (rest >> w) % w;
    /* The band's rows as one pattern w wide: above row i = row + 1, rows 0..i−1 (first row =
     * lane); below row i = row, rows i+1..H−1 (last row = lane). */
    int rows = below ? h - 1 - row : row + 1;
    sg_u64 x = below ? (m >> (w * row)) | ((sg_u64)lane << (w * (rows - 1)))
                     : (sg_u64)lane | ((m & ((1ull << (w * row)) - 1)) << w);
    unsigned v = sg_quadrant(t, tables, rows, j, sg_rect(x, w, 0, rows, 0, j))
        ^ sg_quadrant(t, tables, rows, w - 1 - j, sg_rect(x, w, 0, rows, j + 1, w));
    if (v >= 16) *flags |= SG_FLAG_VALUE;
    return (sg_u8)(v & 15);
}

/* The value of the board with middle pattern m (X cells `m`), first row r0 and last row rL,
 * from its bands (`bands`: above, then below). */
SG_FN unsigned sg_board(const SgTables *t, const sg_u8 *bands, sg_u64 m, unsigned r0, unsigned rl) {
    int h = t->h, w = t->w, lanes = 1 << w;
    const sg_u8 *above = bands, *below = bands + sg_band_bytes(t);
    unsigned seen = 0;
    for (int j = 0; j < w; j++)
        if (!((r0 >> j) & 1)) seen |= 1u << below[j * lanes + rl];
    for (int i = 1; i < h - 1; i++) {
        unsigned row = (unsigned)(m >> ((i - 1) * w));
        for (int j = 0; j < w; j++)
            if (!((row >> j) & 1))
                seen |= 1u << (above[((i - 1) * w + j) * lanes + r0] ^ below[(i * w + j) * lanes + rl]);
    }
    for (int j = 0; j < w; j++)
        if (!((rl >> j) & 1)) seen |= 1u << above[((h - 2) * w + j) * lanes + r0];
    return (unsigned)sg_ctz(~seen);
}

/* How many patterns middle pattern m (H−2 rows, W columns) stands for: the size of its orbit
 * under the up–down and left–right mirrors when m is the least of it, else 0 (as
 * Symmetries::canonical_weight). */
SG_FN unsigned sg_weight(int rows, int cols, sg_u64 m) {
    sg_u64 lr = 0, ud = 0, both = 0, row_mask = (1ull << cols) - 1;
    for (int r = 0; r < rows; r++) {
        sg_u64 row = (m >> (r * cols)) & row_mask, flipped = 0;
        for (int c = 0; c < cols; c++) flipped |= ((row >> c) & 1) << (cols - 1 - c);
        lr |= flipped << (r * cols);
        ud |= row << ((rows - 1 - r) * cols);
        both |= flipped << ((rows - 1 - r) * cols);
    }
    if (lr < m || ud < m || both < m) return 0;
    return 4u / (1u + (lr == m) + (ud == m) + (both == m));
}

/* True when board offset off = r0 | rL << W of middle pattern m lies in the range. */
SG_FN int sg_in_range(const SgRange *range, sg_u64 m, sg_u64 off) {
    return (m != range->m_first || off >= range->lo) && (m != range->m_last || off < range->hi);
}

/* The counts' slot of a board: X count × SG_SLOTS + value. */
SG_FN int sg_slot(sg_u64 m, unsigned r0, unsigned rl, unsigned value) {
    return (int)(sg_popcount(m) + sg_popcount(r0) + sg_popcount(rl)) * SG_SLOTS + (int)value;
}

#endif
