/* The simulator's speed limit: a plain K-way interleaved walk of the image
 * (K lookups in flight, one stage read each per round, a finished one
 * replaced at once), with no cycle model at all. make bench compares the
 * simulator's lookups/s with this. */
#include <stdlib.h>

#include "sim.h"

int lpm_sim_walk_baseline(lpm_image *img, unsigned k, lpm_sim_source_fn src, void *src_ctx,
                          uint64_t *lookups, uint64_t *checksum, lpm_err *err);

int lpm_sim_walk_baseline(lpm_image *img, unsigned k, lpm_sim_source_fn src, void *src_ctx,
                          uint64_t *lookups, uint64_t *checksum, lpm_err *err)
{
    lpm_visit *v = calloc(k, sizeof *v);
    uint8_t *live = calloc(k, 1);
    if (!v || !live) {
        free(v);
        free(live);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    uint64_t n = 0, sum = 0;
    unsigned active = 0;
    int done = 0, rc = LPM_OK;
    do {
        for (unsigned i = 0; i < k; i++) {
            if (!live[i]) {
                if (done)
                    continue;
                lpm_addr key;
                int got = src(src_ctx, &key, err);
                if (got < 0) {
                    rc = LPM_EINPUT;
                    goto out;
                }
                if (got == 0) {
                    done = 1;
                    continue;
                }
                lpm_image_dispatch(img, &key, &v[i]);
                live[i] = 1;
                active++;
            }
            if (!v[i].done)
                lpm_image_visit(img, &v[i]);
            if (v[i].done) {
                sum += v[i].best_nh;
                n++;
                live[i] = 0;
                active--;
            }
        }
    } while (!done || active);
out:
    *lookups = n;
    *checksum = sum;
    free(v);
    free(live);
    return rc;
}
