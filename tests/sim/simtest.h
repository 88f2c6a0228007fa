/* Helpers for the simulator tests: run a synthetic pipeline on a list of
 * (entry stage, reads) requests and bubbles, capture the cycle log and the
 * results. */
#ifndef LPM_SIMTEST_H
#define LPM_SIMTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/sim.h"
#include "../../sim/walk_synth.h"

typedef struct st_req {
    unsigned entry, reads;
} st_req;

typedef struct st_run {
    /* in */
    const st_req *req;
    size_t nreq, pos;
    const lpm_sim_bubble *bub;
    size_t nbub, bpos;
    /* out */
    char *log;
    size_t log_len;
    lpm_sim_result res[256];
    size_t nres;
    lpm_sim_stats st;
    int rc;
    lpm_err err;
} st_run;

static int st_src(void *ctx, lpm_addr *key, lpm_err *err)
{
    st_run *r = ctx;
    (void)err;
    if (r->pos == r->nreq)
        return 0;
    *key = lpm_sim_synth_key(r->req[r->pos].entry, r->req[r->pos].reads);
    r->pos++;
    return 1;
}

static int st_bsrc(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    st_run *r = ctx;
    (void)err;
    if (r->bpos == r->nbub)
        return 0;
    *b = r->bub[r->bpos++];
    return 1;
}

static int st_sink(void *ctx, const lpm_sim_result *x, lpm_err *err)
{
    st_run *r = ctx;
    (void)err;
    if (r->nres < sizeof r->res / sizeof r->res[0])
        r->res[r->nres] = *x;
    r->nres++;
    return 0;
}

/* Runs and keeps the log (caller frees r->log). */
static void st_go(st_run *r, unsigned stages, int ring, const lpm_sim_cfg *cfg0, int with_log)
{
    lpm_sim_synth sy;
    lpm_sim_walker w;
    lpm_sim_synth_init(&sy, stages, ring, &w);
    lpm_sim_cfg cfg = *cfg0;
    FILE *fp = NULL;
    if (with_log) {
        fp = open_memstream(&r->log, &r->log_len);
        cfg.cycle_log = fp;
    }
    lpm_sim *s;
    r->rc = lpm_sim_new(&s, &w, &cfg, &r->err);
    if (r->rc == 0) {
        r->rc = lpm_sim_run(s, st_src, r, r->nbub ? st_bsrc : NULL, r, st_sink, r, &r->err);
        r->st = *lpm_sim_get_stats(s);
        r->st.qhist = NULL;
        r->st.lat_hist = NULL;
        lpm_sim_free(s);
    }
    if (fp)
        fclose(fp);
}

#endif
