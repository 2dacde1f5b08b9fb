/* The GPU kernels' logic on the CPU, for the tests (gpu/tests.rs compiles this with `cc`):
 * the same census.h functions, called in the order sg_fill and sg_census call them, one
 * middle pattern and one board at a time.
 *
 * stdin:  H W TABLE_BYTES, then the SG_DIM² table offsets (SG_NONE for none), then ranges
 *         "m_first m_last lo hi", one per line, until the end.
 * stdout: "xs value count" for every non-zero count, summed over the ranges.
 * Exit 0; 1 on bad input; 3 when a value flag was raised (SG_FLAG_VALUE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "census.h"

/* sg_fill for every tabled shape, rows then columns ascending (gpu/mod.rs fills in the same
 * order: a shape's quadrants are smaller in both dimensions). */
static unsigned fill_tables(const SgTables *t, sg_u8 *tables) {
    unsigned flags = 0;
    for (int rows = 1; rows < SG_DIM; rows++)
        for (int cols = 1; cols < SG_DIM; cols++) {
            if (t->offsets[rows * SG_DIM + cols] == SG_NONE) continue;
            sg_u64 count = 1ull << (rows * cols);
            for (sg_u64 x = 0; x < count; x++) {
                unsigned v = sg_recurse(t, tables, rows, cols, x);
                if (v >= 16) flags |= SG_FLAG_VALUE;
                tables[t->offsets[rows * SG_DIM + cols] + x] = (sg_u8)v;
            }
        }
    return flags;
}

/* sg_census over one range, into counts. */
static unsigned census(const SgTables *t, const sg_u8 *tables, const SgRange *range, sg_u64 *counts, sg_u8 *band) {
    unsigned flags = 0;
    int bands = 2 * sg_band_bytes(t), boards = 1 << (2 * t->w);
    for (sg_u64 m = range->m_first; m <= range->m_last; m++) {
        unsigned weight = sg_weight(t->h - 2, t->w, m);
        if (weight == 0) continue;
        for (int k = 0; k < bands; k++) band[k] = sg_band_entry(t, tables, m, k, &flags);
        for (int b = 0; b < boards; b++) {
            unsigned r0 = b & ((1 << t->w) - 1), rl = b >> t->w;
            if (!sg_in_range(range, m, (sg_u64)b)) continue;
            counts[sg_slot(m, r0, rl, sg_board(t, band, m, r0, rl))] += weight;
        }
    }
    return flags;
}

int main(void) {
    SgTables t;
    sg_u64 bytes;
    if (scanf("%d %d %llu", &t.h, &t.w, &bytes) != 3 || t.h < 2 || t.w < 1 || t.w > 8 || t.h > 8) return 1;
    for (int k = 0; k < SG_DIM * SG_DIM; k++)
        if (scanf("%llu", &t.offsets[k]) != 1) return 1;
    sg_u8 *tables = calloc(bytes ? bytes : 1, 1);
    sg_u8 *band = malloc((size_t)2 * sg_band_bytes(&t));
    int slots = (t.h * t.w + 1) * SG_SLOTS;
    sg_u64 *counts = calloc(slots, sizeof(sg_u64));
    if (!tables || !band || !counts) return 1;
    unsigned flags = fill_tables(&t, tables);
    SgRange range;
    while (scanf("%llu %llu %llu %llu", &range.m_first, &range.m_last, &range.lo, &range.hi) == 4)
        flags |= census(&t, tables, &range, counts, band);
    for (int k = 0; k < slots; k++)
        if (counts[k]) printf("%d %d %llu\n", k / SG_SLOTS, k % SG_SLOTS, counts[k]);
    return flags ? 3 : 0;
}
