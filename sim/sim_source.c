#include "sim_source.h"

#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"
#include "walk_synth.h"

int lpm_sim_file_src_open(lpm_sim_file_src *fs, const char *path, int family, lpm_err *err)
{
    fs->family = family;
    return lpm_input_open(&fs->in, path, err);
}

void lpm_sim_file_src_close(lpm_sim_file_src *fs)
{
    if (fs->in)
        lpm_input_close(fs->in);
    fs->in = NULL;
}

int lpm_sim_file_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    lpm_sim_file_src *fs = ctx;
    char *line;
    size_t len;
    int r;
    while ((r = lpm_input_getline(fs->in, &line, &len, err)) == 1) {
        if (memchr(line, '\0', len))
            return lpm_err_at(err, LPM_EINPUT, lpm_input_name(fs->in), lpm_input_lineno(fs->in), "NUL byte in a trace line");
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        char *e = s + strcspn(s, " \t\r#");
        if (e == s)
            continue;
        *e = '\0';
        int fam;
        lpm_err perr;
        if (lpm_addr_parse(s, &fam, key, &perr)) {
            lpm_err_at(err, LPM_EINPUT, lpm_input_name(fs->in), lpm_input_lineno(fs->in), "%s", perr.msg);
            return -1;
        }
        if (fam != fs->family) {
            lpm_err_at(err, LPM_EINPUT, lpm_input_name(fs->in), lpm_input_lineno(fs->in),
                       "IPv%d address in a trace for an IPv%d pipeline", fam, fs->family);
            return -1;
        }
        return 1;
    }
    return r < 0 ? -1 : 0;
}

enum { GEN_CHUNK = 1 << 16, GEN_TRIES = 4096 };

int lpm_sim_gen_src_init(lpm_sim_gen_src *g, const lpm_fib *fib, int kind, uint64_t count, uint64_t seed,
                         double burst, lpm_sim_entry_fn entry, void *entry_ctx, lpm_err *err)
{
    memset(g, 0, sizeof *g);
    g->fib = fib;
    lpm_trace_opts_default(&g->opts);
    g->opts.kind = kind;
    g->opts.seed = seed;
    g->count = count;
    g->burst = burst;
    g->entry = burst > 1.0 ? entry : NULL;
    g->entry_ctx = entry_ctx;
    lpm_rng_seed((lpm_rng *)g->rng, seed ^ 0xB0257ULL);
    g->buf = malloc(GEN_CHUNK * sizeof *g->buf);
    if (!g->buf)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    return LPM_OK;
}

void lpm_sim_gen_src_free(lpm_sim_gen_src *g)
{
    free(g->buf);
    g->buf = NULL;
}

/* The next raw address from the generator, refilled a chunk at a time with
 * a seed derived from the chunk number. */
static int raw_next(lpm_sim_gen_src *g, lpm_addr *a, lpm_err *err)
{
    if (g->buf_pos == g->buf_n) {
        lpm_trace_opts o = g->opts;
        uint64_t x = g->opts.seed + g->chunk_no++;
        o.seed = lpm_splitmix64(&x);
        o.count = GEN_CHUNK;
        int rc = lpm_trace_gen(g->fib, &o, g->buf, err);
        if (rc)
            return -1;
        g->buf_n = GEN_CHUNK;
        g->buf_pos = 0;
    }
    *a = g->buf[g->buf_pos++];
    return 1;
}

int lpm_sim_gen_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    lpm_sim_gen_src *g = ctx;
    if (g->made == g->count)
        return 0;
    g->made++;
    if (!g->entry)
        return raw_next(g, key, err);
    /* Bursts: a run of requests with the entry class of its first one;
     * later members are the next generated addresses of that class. */
    if (g->run_left == 0) {
        g->run_left = lpm_sim_geometric(g->rng, g->burst);
        if (raw_next(g, &g->run_first, err) < 0)
            return -1;
        g->run_class = g->entry(g->entry_ctx, &g->run_first);
        g->run_left--;
        *key = g->run_first;
        return 1;
    }
    g->run_left--;
    for (int t = 0; t < GEN_TRIES; t++) {
        if (raw_next(g, key, err) < 0)
            return -1;
        if (g->entry(g->entry_ctx, key) == g->run_class)
            return 1;
    }
    *key = g->run_first; /* a rare class: repeat the run's first address */
    return 1;
}
