/* Mapping a table onto pipeline stages: the CAMP ring (min-max coloring,
 * optional adaptive split) and the linear write-bubble mappings (level,
 * height, balanced). The result is a pipeline image (image.h) plus a
 * report of what the mapping cost. */
#ifndef LPM_MAP_H
#define LPM_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/err.h"
#include "../core/fib.h"
#include "image.h"

typedef struct lpm_map_opts {
    int kind;              /* enum lpm_map_kind */
    unsigned stages;       /* N; linear: 0 = as many as the table needs */
    unsigned x;            /* initial stride (direct index table bits) */
    unsigned stride;       /* block stride K, 1..8 (balanced: chosen per stage) */
    unsigned headroom_pct; /* free words per stage for updates, % of used */
    unsigned split;        /* adaptive ring: split height in levels (0: N) */
    unsigned nh_bits;      /* 0: enough for the table's next hops, plus one bit */
    unsigned copies;       /* 0 or 1: one copy; 2: a shadow copy for rebuilds (double buffering) */
    const uint8_t *strides;/* balanced: these per-stage strides (nstrides = stages) instead of the
                              dynamic program's, so that a rebuild keeps the hardware's */
    unsigned nstrides;
} lpm_map_opts;

void lpm_map_opts_default(lpm_map_opts *o);
/* The options a caller did not give (LPM_MAPSET_* bits of given) that
 * depend on the table: an IPv6 table maps with the split mapping (ring or
 * linear as asked), initial stride 14 and stride 2; IPv4 keeps the
 * defaults above (docs/cli-mapper.md, docs/results-mapping.md: why). */
enum { LPM_MAPSET_KIND = 1, LPM_MAPSET_X = 2, LPM_MAPSET_STRIDE = 4 };
#define LPM_SPLIT_V6_X 14
#define LPM_SPLIT_V6_STRIDE 2
void lpm_map_opts_family(lpm_map_opts *o, int family, int linear, unsigned given);
const char *lpm_map_kind_name(int kind);
int lpm_map_kind_parse(const char *arch, const char *mapping); /* -1 if unknown */
int lpm_map_kind_is_ring(int kind);
/* The split mapping's piece height in block levels when --split is not given. */
#define LPM_SPLIT_DEFAULT_H 4
/* Linear split without --stages: the trie's height, and at least this. */
#define LPM_SPLIT_LINEAR_STAGES 24

/* What a mapping cost. Figures from the image itself (per-stage words) are
 * filled by lpm_map_report_image; the rest by the mapper. */
typedef struct lpm_map_report {
    int kind, family, ring;
    unsigned stages, x, word_bits, dit_bits;
    uint32_t used[LPM_IMAGE_MAX_STAGES], depth[LPM_IMAGE_MAX_STAGES];
    uint8_t stride[LPM_IMAGE_MAX_STAGES];
    uint64_t words_used, words_alloc, bits_used, dit_entries, dit_bits_total;
    unsigned copies;        /* 2: every stage memory and the DIT are doubled */
    uint64_t memory_bits;   /* stage memories and DIT, every copy, at their word widths */
    uint64_t shadow_bits;   /* what the shadow copy adds to a one-copy image of the same depths */
    uint32_t fullest;       /* words in the fullest stage */
    double mean;            /* mean words per stage */
    double max_over_mean;   /* fullest / mean */
    /* against one memory holding the same blocks from the root (x = 0) */
    uint64_t unpiped_words, unpiped_bits;
    double overhead_words_pct, overhead_bits_pct;
    size_t routes;
    size_t subtrees;        /* colored units (subtrees, or pieces when split) */
    unsigned height_min, height_max; /* in blocks */
    double height_mean;
    unsigned max_loops;     /* most wraps any walk makes (ring) */
    size_t blocks_after_wrap;
    double seconds;         /* mapping time */
} lpm_map_report;

/* Maps a finished FIB. rep may be NULL. */
int lpm_map_build(lpm_image **out, const lpm_fib *f, const lpm_map_opts *o,
                  lpm_map_report *rep, lpm_err *err);

/* The same in two steps, so that one trie serves several stage counts and
 * mappings: a tree prepared with x and stride K serves ring, adaptive,
 * level and height images of that x and K; a balanced one only balanced
 * images of its stage count. The FIB must outlive the tree. */
typedef struct lpm_maptree lpm_maptree;
int lpm_maptree_new(lpm_maptree **m, const lpm_fib *f, const lpm_map_opts *o, lpm_err *err);
int lpm_maptree_image(lpm_maptree *m, const lpm_map_opts *o, lpm_image **out, lpm_map_report *rep, lpm_err *err);
void lpm_maptree_free(lpm_maptree *m);

/* FPGA memory blocks for a depth x width memory: AMD 36 Kb block RAMs
 * and 288 Kb UltraRAMs, Intel 20 Kb M20Ks (best aspect ratio each). */
typedef struct lpm_fpga_units_t {
    uint64_t bram36, uram288, m20k;
} lpm_fpga_units_t;
void lpm_fpga_units(uint64_t depth, unsigned width, lpm_fpga_units_t *u);

/* Fills the per-stage and memory figures of rep from an image. */
void lpm_map_report_image(const lpm_image *img, lpm_map_report *rep);
void lpm_map_report_json(const lpm_map_report *r, FILE *fp);
void lpm_map_report_table(const lpm_map_report *r, FILE *fp);

#endif
