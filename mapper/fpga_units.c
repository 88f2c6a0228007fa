/* FPGA memory blocks a depth x width memory takes, as a synthesis tool
 * would tile it: the best aspect ratio of the block, ceil(depth / rows) x
 * ceil(width / columns) blocks. Block shapes from the vendors' memory
 * guides (AMD UG573: RAMB36 32Kx1 .. 512x72, URAM288 4Kx72; Intel M20K
 * 16Kx1 .. 512x40); docs/results-mapping.md uses them. */
#include "map.h"

static uint64_t tiles(uint64_t depth, unsigned width, const unsigned (*shape)[2], unsigned n)
{
    uint64_t best = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t = (depth + shape[i][0] - 1) / shape[i][0] * ((width + shape[i][1] - 1) / shape[i][1]);
        if (t < best)
            best = t;
    }
    return depth && width ? best : 0;
}

void lpm_fpga_units(uint64_t depth, unsigned width, lpm_fpga_units_t *u)
{
    static const unsigned bram36[][2] = { { 32768, 1 }, { 16384, 2 }, { 8192, 4 }, { 4096, 9 },
                                          { 2048, 18 }, { 1024, 36 }, { 512, 72 } };
    static const unsigned uram[][2] = { { 4096, 72 } };
    static const unsigned m20k[][2] = { { 16384, 1 }, { 8192, 2 }, { 4096, 5 }, { 2048, 10 },
                                        { 1024, 20 }, { 512, 40 } };
    u->bram36 = tiles(depth, width, bram36, 7);
    u->uram288 = tiles(depth, width, uram, 1);
    u->m20k = tiles(depth, width, m20k, 6);
}
