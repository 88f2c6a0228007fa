/* Bubble files (sim --updates, rtl verify --updates) through
 * lpm_sim_bfile_open, which checks the whole file against the image; a file
 * that passes is then simulated: 64 lookups on a copy of the image with
 * its bubbles flowing through the pipeline (every write lands in the
 * memories), and each update's writes applied to a second copy walked by
 * the interpreter. A write the checks let through that the image cannot
 * take shows up here as an out-of-bounds access.
 *
 * The image is the one fuzz/seeds.sh makes its bubble seeds for:
 * `fib gen --family 4 --count 500 --seed 7`, mapped onto an 8-stage ring
 * (defaults otherwise). The header's CRC is not held against it (the
 * harness opens with --ignore-image-crc), so seeds from the CLI's image
 * reach the write checks even if the two images' bytes differ. */
#include "fuzz.h"

#include <stdlib.h>

#include "../core/synth.h"
#include "../mapper/map.h"
#include "../sim/bubble_file.h"
#include "../sim/sim_source.h"
#include "../sim/walk_image.h"

static lpm_image *base_image(lpm_fib **fib_out)
{
    static lpm_image *img;
    static lpm_fib fib;
    if (img) {
        *fib_out = &fib;
        return img;
    }
    lpm_err err;
    lpm_map_opts mo;
    lpm_map_opts_default(&mo);
    mo.stages = 8;
    lpm_image *built;
    lpm_fib_init(&fib);
    if (lpm_synth_fib(&fib, 4, 500, 7, 32, &err) || lpm_map_build(&built, &fib, &mo, NULL, &err))
        abort();
    /* Saved and loaded once, so that it carries a file CRC as the CLI's do. */
    const char *path = lpm_fuzz_path2(NULL, 0);
    if (lpm_image_save(built, path, &err) || lpm_image_load(&img, path, &err))
        abort();
    lpm_image_free(built);
    *fib_out = &fib;
    return img;
}

static int sink(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    (void)ctx;
    (void)r;
    (void)err;
    return 0;
}

static void simulate(const lpm_image *base, const lpm_fib *fib, const char *path)
{
    lpm_err err;
    lpm_image *img = lpm_image_clone(base);
    lpm_sim_walker w;
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    cfg.queue = 4;
    lpm_sim *sim = NULL;
    lpm_sim_gen_src gs;
    lpm_sim_bfile bf;
    if (!img)
        abort();
    lpm_sim_image_walker(img, &w);
    if (lpm_sim_bfile_open(&bf, path, base, 0.0, 1, &err) == LPM_OK) {
        if (lpm_sim_new(&sim, &w, &cfg, &err) == LPM_OK &&
            lpm_sim_gen_src_init(&gs, fib, LPM_TRACE_RANDOM_MATCH, 64, 1, &err) == LPM_OK) {
            (void)lpm_sim_run(sim, lpm_sim_gen_next, &gs, lpm_sim_bfile_next, &bf, sink, NULL, &err);
            lpm_sim_gen_src_free(&gs);
        }
        lpm_sim_free(sim);
        lpm_sim_bfile_close(&bf);
    }
    lpm_image_free(img);
}

/* Every write of the stream, applied in order, then the interpreter walks
 * each route's address. */
static void apply(const lpm_image *base, const char *path)
{
    lpm_err err;
    lpm_sim_bfile bf;
    if (lpm_sim_bfile_open(&bf, path, base, 0.0, 1, &err) != LPM_OK)
        return;
    lpm_image *img = lpm_image_clone(base);
    if (!img)
        abort();
    lpm_sim_bubble *b = malloc(sizeof *b);
    if (!b)
        abort();
    while (lpm_sim_bfile_next(&bf, b, &err) == 1)
        for (unsigned i = 0; i < b->nw; i++)
            lpm_image_write(img, b->w[i].stage == LPM_SIM_DIT ? LPM_IMAGE_DIT : b->w[i].stage, b->w[i].addr, b->w[i].word);
    const lpm_route *rt = lpm_image_routes(base);
    for (size_t i = 0; i < lpm_image_route_count(base); i++)
        (void)lpm_image_lookup(img, &rt[i].pfx.addr);
    free(b);
    lpm_image_free(img);
    lpm_sim_bfile_close(&bf);
}

int lpm_fuzz_bubbles(const uint8_t *data, size_t size)
{
    lpm_fib *fib;
    const lpm_image *base = base_image(&fib);
    const char *path = lpm_fuzz_path(data, size);
    apply(base, path);
    simulate(base, fib, path);
    return 0;
}
