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

enum { GEN_CHUNK = 1 << 16 };

int lpm_sim_gen_src_init(lpm_sim_gen_src *g, const lpm_fib *fib, int kind, uint64_t count, uint64_t seed,
                         lpm_err *err)
{
    memset(g, 0, sizeof *g);
    g->fib = fib;
    lpm_trace_opts_default(&g->opts);
    g->opts.kind = kind;
    g->opts.seed = seed;
    g->count = count;
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

/* Refilled a chunk at a time with a seed derived from the chunk number. */
int lpm_sim_gen_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    lpm_sim_gen_src *g = ctx;
    if (g->made == g->count)
        return 0;
    if (g->buf_pos == g->buf_n) {
        lpm_trace_opts o = g->opts;
        uint64_t x = g->opts.seed + g->chunk_no++;
        o.seed = lpm_splitmix64(&x);
        o.count = GEN_CHUNK;
        if (lpm_trace_gen(g->fib, &o, g->buf, err))
            return -1;
        g->buf_n = GEN_CHUNK;
        g->buf_pos = 0;
    }
    *key = g->buf[g->buf_pos++];
    g->made++;
    return 1;
}

int lpm_sim_burst_src_init(lpm_sim_burst_src *b, lpm_sim_source_fn inner, void *inner_ctx, double burst,
                           uint64_t seed, unsigned stages, lpm_sim_entry_fn entry, void *entry_ctx, lpm_err *err)
{
    memset(b, 0, sizeof *b);
    b->inner = inner;
    b->inner_ctx = inner_ctx;
    b->burst = burst;
    b->entry = entry;
    b->entry_ctx = entry_ctx;
    b->classes = stages + 1;
    b->pool = malloc((size_t)b->classes * LPM_SIM_BURST_POOL * sizeof *b->pool);
    b->head = calloc(b->classes, sizeof *b->head);
    b->n = calloc(b->classes, sizeof *b->n);
    lpm_rng_seed((lpm_rng *)b->rng, seed ^ 0xB0257ULL);
    if (!b->pool || !b->head || !b->n) {
        lpm_sim_burst_src_free(b);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    return LPM_OK;
}

void lpm_sim_burst_src_free(lpm_sim_burst_src *b)
{
    free(b->pool);
    free(b->head);
    free(b->n);
    b->pool = NULL;
    b->head = b->n = NULL;
}

static unsigned class_of(lpm_sim_burst_src *b, const lpm_addr *key)
{
    int c = b->entry(b->entry_ctx, key);
    return c < 0 || (unsigned)c >= b->classes - 1 ? b->classes - 1 : (unsigned)c;
}

static int pool_pop(lpm_sim_burst_src *b, unsigned c, lpm_addr *key)
{
    if (!b->n[c])
        return 0;
    *key = b->pool[(size_t)c * LPM_SIM_BURST_POOL + b->head[c]];
    b->head[c] = (b->head[c] + 1) % LPM_SIM_BURST_POOL;
    b->n[c]--;
    return 1;
}

static void pool_push(lpm_sim_burst_src *b, unsigned c, const lpm_addr *key)
{
    if (b->n[c] == LPM_SIM_BURST_POOL) {
        b->dropped++;
        return;
    }
    b->pool[(size_t)c * LPM_SIM_BURST_POOL + (b->head[c] + b->n[c]) % LPM_SIM_BURST_POOL] = *key;
    b->n[c]++;
}

int lpm_sim_burst_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    lpm_sim_burst_src *b = ctx;
    if (b->run_left == 0) {
        /* A new run: the next inner address, or at the end the fullest pool. */
        int r = b->inner_done ? 0 : b->inner(b->inner_ctx, key, err);
        if (r < 0)
            return r;
        if (r == 0) {
            b->inner_done = 1;
            unsigned best = 0;
            for (unsigned c = 1; c < b->classes; c++)
                if (b->n[c] > b->n[best])
                    best = c;
            if (!pool_pop(b, best, key))
                return 0;
            b->run_class = (int)best;
        } else {
            b->run_class = (int)class_of(b, key);
        }
        b->run_left = lpm_sim_geometric(b->rng, b->burst) - 1;
        return 1;
    }
    unsigned c = (unsigned)b->run_class;
    b->run_left--;
    if (pool_pop(b, c, key))
        return 1;
    while (!b->inner_done) {
        int r = b->inner(b->inner_ctx, key, err);
        if (r < 0)
            return r;
        if (r == 0) {
            b->inner_done = 1;
            break;
        }
        unsigned k = class_of(b, key);
        if (k == c)
            return 1;
        pool_push(b, k, key);
    }
    /* The class ran dry at the end: the run ends early. */
    b->run_left = 0;
    return lpm_sim_burst_next(ctx, key, err);
}
