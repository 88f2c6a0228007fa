/* lpmpipe model verify: the SystemC cycle-accurate model against the C
 * simulator (and with --cosim the Verilated RTL against the model, cycle
 * by cycle inside one SystemC kernel) on one stimulus (the same requests, the same bubbles with the
 * same ready cycles, each run on its own copy of the image): cycle logs
 * line by line, results field by field, and (without bubbles) every answer
 * against the reference LPM. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_model.h"
#include "../core/ref_lpm.h"
#include "../sim/cycle_log.h"
#include "../sim/walk_image.h"

static const char *cmd = "model verify";
#define SHOW 3 /* differences printed in full */

static int collect(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    if (lpm_model_results_grow(ctx, r))
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    return 0;
}

/* The simulator's run: the golden cycle log and results. */
static int run_sim(const lpm_model_opts *o, lpm_image *img, lpm_model_keys *k, lpm_sim_bfile *bf, FILE *log,
                   lpm_model_results *out, lpm_err *err)
{
    lpm_sim_walker w;
    lpm_sim_image_walker(img, &w);
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    cfg.hop = o->mc.hop;
    cfg.ports = o->mc.ports;
    cfg.queue = o->mc.queue;
    cfg.width = o->mc.width;
    cfg.rob = o->mc.rob;
    cfg.result_fifo = o->mc.result_fifo;
    cfg.dit_queue = o->mc.dit_queue;
    cfg.result_ready = o->mc.result_ready;
    cfg.load = o->mc.load;
    cfg.cycle_log = log;
    lpm_sim *s = NULL;
    int rc = lpm_sim_new(&s, &w, &cfg, err);
    k->pos = 0;
    if (!rc)
        rc = lpm_sim_run(s, lpm_model_keys_next, k, o->updates ? lpm_sim_bfile_next : NULL, bf, collect, out, err);
    lpm_sim_free(s);
    return rc;
}

/* Line by line; the header first (it names the configuration). */
static uint64_t compare_logs(FILE *a, FILE *b, uint64_t *cycles, uint64_t *first)
{
    rewind(a);
    rewind(b);
    char *la = NULL, *lb = NULL;
    size_t ca = 0, cb = 0;
    uint64_t bad = 0, line = 0;
    for (;; line++) {
        char *x = lpm_sim_log_line(a, &la, &ca), *y = lpm_sim_log_line(b, &lb, &cb);
        if (!x && !y)
            break;
        if (x && y && !strcmp(x, y))
            continue;
        uint64_t cyc = line ? line - 1 : 0;
        if (bad++ < SHOW)
            fprintf(stderr, "lpmpipe: %s: %s %" PRIu64 " differs:\n  sim:   %s\n  model: %s\n", cmd,
                    line ? "cycle" : "header, cycle", cyc, x ? x : "(log ended)", y ? y : "(log ended)");
        if (cyc < *first)
            *first = cyc;
    }
    *cycles = line ? line - 1 : 0;
    free(la);
    free(lb);
    return bad;
}

/* Field by field, in output order; na, nb name the two sides. */
static uint64_t compare_results(const lpm_model_results *s, const lpm_model_results *m, const char *na, const char *nb,
                                uint64_t *first)
{
    uint64_t bad = 0;
    size_t n = s->n > m->n ? s->n : m->n;
    for (size_t i = 0; i < n; i++) {
        const lpm_sim_result *x = i < s->n ? &s->a[i] : NULL, *y = i < m->n ? &m->a[i] : NULL;
        if (x && y && x->id == y->id && x->nh == y->nh && x->dit_cycle == y->dit_cycle && x->exit_cycle == y->exit_cycle &&
            x->out_cycle == y->out_cycle)
            continue;
        if (bad++ < SHOW) {
            char tx[160] = "(no more results)", ty[160] = "(no more results)";
            if (x)
                snprintf(tx, sizeof tx, "id %" PRIu64 " nh %" PRIu32 " dit %" PRIu64 " exit %" PRIu64 " out %" PRIu64, x->id,
                         x->nh, x->dit_cycle, x->exit_cycle, x->out_cycle);
            if (y)
                snprintf(ty, sizeof ty, "id %" PRIu64 " nh %" PRIu32 " dit %" PRIu64 " exit %" PRIu64 " out %" PRIu64, y->id,
                         y->nh, y->dit_cycle, y->exit_cycle, y->out_cycle);
            fprintf(stderr, "lpmpipe: %s: result %zu differs:\n  %-6s %s\n  %-6s %s\n", cmd, i, na, tx, nb, ty);
        }
        if (y && y->exit_cycle < *first)
            *first = y->exit_cycle;
    }
    return bad;
}

/* Every answer of who (the model, the RTL) against the reference LPM of the image's table. */
static int check_ref(const lpm_image *img, const lpm_model_keys *k, const lpm_model_results *m, const char *who,
                     uint64_t *checked, uint64_t *bad, lpm_err *err)
{
    lpm_fib fib;
    lpm_ref *ref = NULL;
    int rc = lpm_cli_image_fib(img, &fib, err);
    if (!rc)
        rc = lpm_ref_build(&ref, &fib, err);
    lpm_fib_free(&fib);
    if (rc)
        return rc;
    for (size_t i = 0; i < m->n; i++) {
        const lpm_sim_result *r = &m->a[i];
        (*checked)++;
        if (r->id >= k->n) {
            (*bad)++;
            continue;
        }
        uint32_t want = lpm_ref_lookup(ref, &k->a[r->id], NULL);
        if (want != r->nh && (*bad)++ < SHOW)
            fprintf(stderr, "lpmpipe: %s: request %" PRIu64 ": %s says %" PRIu32 ", the reference %" PRIu32 "\n", cmd,
                    r->id, who, r->nh, want);
    }
    if (m->n != k->n) {
        fprintf(stderr, "lpmpipe: %s: %s: %zu results for %zu requests\n", cmd, who, m->n, k->n);
        (*bad)++;
    }
    lpm_ref_free(ref);
    return LPM_OK;
}

typedef struct vrun {
    lpm_image *img;
    lpm_sim_bfile bf;
    FILE *log;
    lpm_model_results res;
} vrun;

static int open_run(const lpm_model_opts *o, vrun *v)
{
    lpm_err err;
    int rc = lpm_image_load(&v->img, o->image, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (o->updates && (rc = lpm_model_bubbles_open(cmd, o, v->img, &v->bf)))
        return rc;
    if (!(v->log = tmpfile())) {
        lpm_cli_error(cmd, "cannot create a temporary file for the cycle log");
        return 1;
    }
    return 0;
}

static void close_run(vrun *v)
{
    if (v->log)
        fclose(v->log);
    lpm_sim_bfile_close(&v->bf);
    lpm_image_free(v->img);
    free(v->res.a);
}

/* What the comparisons found: model against simulator, and (--cosim) the RTL against the model. */
typedef struct vcount {
    uint64_t cycles, first, first_result, cbad, rbad, refc, refbad;
    uint64_t co_cbad, co_rbad, co_refc, co_refbad;
} vcount;

static uint64_t total(const vcount *n)
{
    return n->cbad + n->rbad + n->refbad + n->co_cbad + n->co_rbad + n->co_refbad;
}

static void report(const lpm_model_opts *o, size_t lookups, const vcount *n, const lpm_model_stats *st)
{
    if (o->json) {
        printf("{\"lookups\":%zu,\"cycles\":%" PRIu64 ",\"bubbles\":%" PRIu64 ",\"cycle_mismatches\":%" PRIu64
               ",\"result_mismatches\":%" PRIu64 ",\"reference_checked\":%" PRIu64 ",\"reference_mismatches\":%" PRIu64,
               lookups, n->cycles, st->bubbles, n->cbad, n->rbad, n->refc, n->refbad);
        if (o->cosim)
            printf(",\"cosim\":{\"cycle_mismatches\":%" PRIu64 ",\"result_mismatches\":%" PRIu64
                   ",\"reference_checked\":%" PRIu64 ",\"reference_mismatches\":%" PRIu64 "}",
                   n->co_cbad, n->co_rbad, n->co_refc, n->co_refbad);
        printf(",\"model_seconds\":%.4f,\"mismatches\":%" PRIu64 "}\n", st->seconds, total(n));
    } else {
        printf("%zu lookups, %" PRIu64 " cycles, %" PRIu64 " mismatches%s\n", lookups, n->cycles, total(n),
               o->cosim ? " (simulator, SystemC model and Verilated RTL)" : "");
    }
}

/* --cosim: the per-cycle differences the kernel found, then the RTL's
 * results against the model's and its answers against the reference. */
static int cosim_compare(const lpm_model_opts *o, const lpm_image *img, const lpm_model_keys *k, lpm_model_cosim_run *cr,
                         const lpm_model_results *mres, vcount *n)
{
    const lpm_model_cosim *co = &cr->co;
    for (unsigned i = 0; i < co->shown; i++)
        fprintf(stderr, "lpmpipe: %s: cycle %" PRIu64 " differs:\n  model: %s\n  rtl:   %s\n", cmd, co->show_cycle[i],
                co->show_model[i], co->show_rtl[i]);
    n->co_cbad = co->mismatches;
    if (co->first < n->first)
        n->first = co->first;
    lpm_model_results rr = { 0 };
    int rc = lpm_model_cosim_results(cmd, cr, &rr);
    lpm_err err;
    if (!rc) {
        n->co_rbad = compare_results(mres, &rr, "model:", "rtl:", &n->first_result);
        if (!o->updates && (rc = check_ref(img, k, &rr, "the RTL", &n->co_refc, &n->co_refbad, &err)))
            lpm_cli_error(cmd, "%s", err.msg);
    }
    free(rr.a);
    return rc;
}

int lpm_cmd_model_verify(int argc, char **argv)
{
    lpm_model_opts o;
    int rc = lpm_model_opts_parse(cmd, argc, argv, &o);
    if (rc < 0)
        lpm_model_help(stdout, "verify");
    if (rc)
        return rc < 0 ? 0 : rc;
    lpm_err err;
    vrun sim = { 0 }, mod = { 0 };
    lpm_model_keys k = { 0 };
    lpm_model_cosim_run cr = { 0 };
    if ((rc = open_run(&o, &sim)) || (rc = open_run(&o, &mod)))
        goto out;
    if ((rc = lpm_model_cfg_check(&o.mc, sim.img, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if ((rc = lpm_model_keys_load(cmd, &o, sim.img, &k)))
        goto out;
    /* the RTL's memories come from the model's image before its bubbles write it */
    if (o.cosim && (rc = lpm_model_cosim_prepare(cmd, &o, mod.img, &k, &cr)))
        goto out;
    if ((rc = run_sim(&o, sim.img, &k, &sim.bf, sim.log, &sim.res, &err))) {
        lpm_cli_error(cmd, "the simulator: %s", err.msg);
        goto out;
    }
    o.mc.cycle_log = mod.log;
    o.mc.cosim = o.cosim ? &cr.co : NULL;
    k.pos = 0;
    lpm_model_io io = { lpm_model_keys_next, &k, o.updates ? lpm_sim_bfile_next : NULL, &mod.bf, collect, &mod.res };
    lpm_model_stats st;
    if ((rc = lpm_model_run(mod.img, &o.mc, &io, &st, &err))) {
        lpm_cli_error(cmd, "the model: %s", err.msg);
        goto out;
    }
    fflush(sim.log);
    fflush(mod.log);
    vcount n = { .first = UINT64_MAX, .first_result = UINT64_MAX };
    n.cbad = compare_logs(sim.log, mod.log, &n.cycles, &n.first);
    n.rbad = compare_results(&sim.res, &mod.res, "sim:", "model:", &n.first_result);
    if (!o.updates && (rc = check_ref(sim.img, &k, &mod.res, "the model", &n.refc, &n.refbad, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (o.cosim && (rc = cosim_compare(&o, sim.img, &k, &cr, &mod.res, &n)))
        goto out;
    /* equal cycle logs with other results: the first differing result's exit cycle */
    if (n.first == UINT64_MAX)
        n.first = n.first_result;
    report(&o, k.n, &n, &st);
    if (total(&n)) {
        if (n.first != UINT64_MAX)
            lpm_cli_error(cmd, "the %s differ, first at cycle %" PRIu64,
                          o.cosim ? "simulator, the model and the RTL" : "model and the simulator", n.first);
        else
            lpm_cli_error(cmd, "the %s answers differ from the reference", o.cosim ? "model's or the RTL's" : "model's");
        rc = 1;
    }
out:
    if (fflush(stdout) && !rc)
        rc = 1;
    free(k.a);
    close_run(&sim);
    close_run(&mod);
    lpm_model_cosim_free(cmd, &cr);
    return rc;
}
