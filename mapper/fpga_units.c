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

/* AMD block RAM of one part in RAMB18 halves: a RAMB36 shape costs two, a
 * RAMB18 shape (16Kx1 .. 512x36) one. */
static uint64_t halves(uint64_t depth, unsigned width)
{
    static const unsigned bram36[][2] = { { 32768, 1 }, { 16384, 2 }, { 8192, 4 }, { 4096, 9 },
                                          { 2048, 18 }, { 1024, 36 }, { 512, 72 } };
    static const unsigned bram18[][2] = { { 16384, 1 }, { 8192, 2 }, { 4096, 4 },
                                          { 2048, 9 },  { 1024, 18 }, { 512, 36 } };
    uint64_t a = 2 * tiles(depth, width, bram36, 7), b = tiles(depth, width, bram18, 6);
    return a < b ? a : b;
}

/* Column split by dynamic programming over the word's bits: best[k][w] is
 * the fewest RAMB18 halves for the low w bits in k parts. A memory an
 * iCE40 HX8K can hold (32 blocks of 256x16 .. 2048x2) is split only when
 * that costs it no block. */
unsigned lpm_fpga_split(uint64_t depth, unsigned width, unsigned parts[LPM_FPGA_MAX_PARTS])
{
    static const unsigned ice40[][2] = { { 256, 16 }, { 512, 8 }, { 1024, 4 }, { 2048, 2 } };
    enum { MAXW = 128 };
    uint64_t best[LPM_FPGA_MAX_PARTS + 1][MAXW + 1];
    unsigned last[LPM_FPGA_MAX_PARTS + 1][MAXW + 1];
    parts[0] = width;
    if (!depth || width < 2 || width > MAXW)
        return 1;
    for (unsigned k = 0; k <= LPM_FPGA_MAX_PARTS; k++)
        for (unsigned w = 0; w <= width; w++) {
            best[k][w] = w ? UINT64_MAX : 0;
            last[k][w] = 0;
            for (unsigned c = 1; k && c <= w; c++) {
                if (best[k - 1][w - c] == UINT64_MAX)
                    continue;
                uint64_t t = halves(depth, c) + best[k - 1][w - c];
                if (t < best[k][w]) {
                    best[k][w] = t;
                    last[k][w] = c;
                }
            }
        }
    unsigned k = 1;
    for (unsigned j = 2; j <= LPM_FPGA_MAX_PARTS; j++)
        if (best[j][width] < best[k][width])
            k = j;
    if (k == 1)
        return 1;
    unsigned n = 0;
    uint64_t ice = 0, whole = tiles(depth, width, ice40, 4);
    for (unsigned w = width; w; w -= parts[n - 1], k--) {
        parts[n++] = last[k][w];
        ice += tiles(depth, last[k][w], ice40, 4);
    }
    if (whole <= 32 && ice > whole) {
        parts[0] = width;
        return 1;
    }
    for (unsigned i = 0; i < n / 2; i++) { /* peeled from the top: low bits first */
        unsigned t = parts[i];
        parts[i] = parts[n - 1 - i];
        parts[n - 1 - i] = t;
    }
    return n;
}
