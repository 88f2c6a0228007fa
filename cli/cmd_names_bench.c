/* lpmpipe names bench (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../core/rng.h"
#include "../names/interweave.h"

static const char CMD[] = "names bench";

static size_t count_mismatches(const lpm_nengine *en, const lpm_ntable *list, const uint32_t *want)
{
    size_t bad = 0;
    for (size_t i = 0; i < list->n; i++)
        bad += lpm_nengine_lookup(en, lpm_ntable_name(list, i), list->e[i].len) != want[i];
    return bad;
}

/* What every engine's run shares: the tables, the options, the answers
 * before and after the deletions, and the names to delete. */
typedef struct nbench {
    const lpm_ntable *t, *list;
    const lpm_ncli_eopts *o;
    const uint32_t *want, *want2;
    const size_t *upd;
    size_t nu;
} nbench;

/* The update set: nu distinct table names (partial Fisher-Yates); -1 on no memory. */
static int pick_updates(size_t n, size_t nu, uint64_t seed, size_t *upd)
{
    size_t *perm = malloc((n + 1) * sizeof *perm);
    if (!perm)
        return -1;
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    lpm_rng rg;
    lpm_rng_seed(&rg, seed);
    for (size_t i = 0; i < nu; i++) {
        size_t j = i + lpm_rng_below(&rg, n - i), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
        upd[i] = perm[i];
    }
    free(perm);
    return 0;
}

/* mata's interweaved lookup (the GPU kernel's body on the CPU): lookups/s,
 * its mismatches added to *bad. */
static double interweaved(const nbench *b, const lpm_nengine *en, double *runs, size_t *bad)
{
    const lpm_ntable *list = b->list;
    double iwps = 0;
    lpm_niw iw;
    lpm_err e;
    uint32_t *out = malloc((list->n + 1) * sizeof *out);
    if (out && !lpm_niw_build(&iw, list, &e)) {
        lpm_nm_view v;
        lpm_naa_view(&en->aa, &v);
        for (unsigned k = 0; k < b->o->repeat; k++) {
            double t0 = lpm_ncli_now();
            lpm_niw_lookup(&iw, &v, out);
            runs[k] = (double)list->n / (lpm_ncli_now() - t0);
        }
        iwps = lpm_cli_median(runs, b->o->repeat);
        for (size_t i = 0; i < list->n; i++)
            *bad += out[i] != b->want[i];
        lpm_niw_free(&iw);
    }
    free(out);
    return iwps;
}

/* One engine: build, R timed runs, the deletions and insertions, one JSON
 * line. 0 with its mismatches (and a failed insertion) added to *total_bad,
 * or the exit status of a build that failed. */
static int bench_engine(const nbench *b, const char *eng, size_t *total_bad)
{
    const lpm_ntable *t = b->t, *list = b->list;
    const lpm_ncli_eopts *o = b->o;
    size_t nu = b->nu;
    lpm_nengine en;
    double t0 = lpm_ncli_now();
    int rc = lpm_ncli_build_engine(CMD, &en, eng, t, o);
    if (rc)
        return rc;
    double tb = lpm_ncli_now() - t0, runs[100];
    uint64_t sink = 0;
    for (unsigned k = 0; k < o->repeat; k++) {
        t0 = lpm_ncli_now();
        for (size_t i = 0; i < list->n; i++)
            sink += lpm_nengine_lookup(&en, lpm_ntable_name(list, i), list->e[i].len);
        runs[k] = (double)list->n / (lpm_ncli_now() - t0);
    }
    double lps = lpm_cli_median(runs, o->repeat), iwps = 0;
    size_t bad = count_mismatches(&en, list, b->want), badu = 0, bad2 = 0;
    if (en.kind == LPM_NE_MATA)
        iwps = interweaved(b, &en, runs, &bad);
    /* Deletions, then the same names inserted back. */
    int urc = 0;
    lpm_err e;
    t0 = lpm_ncli_now();
    for (size_t i = 0; i < nu; i++)
        lpm_nengine_delete(&en, lpm_ntable_name(t, b->upd[i]), t->e[b->upd[i]].len);
    double td = lpm_ncli_now() - t0;
    if (nu)
        badu = count_mismatches(&en, list, b->want2);
    t0 = lpm_ncli_now();
    for (size_t i = 0; i < nu && !urc; i++)
        urc = lpm_nengine_insert(&en, lpm_ntable_name(t, b->upd[i]), t->e[b->upd[i]].len, t->e[b->upd[i]].port, &e);
    double ti = lpm_ncli_now() - t0;
    if (urc)
        lpm_cli_error(CMD, "%s: %s", eng, e.msg);
    if (nu)
        bad2 = count_mismatches(&en, list, b->want);
    printf("{\"engine\":\"%s\",\"stride\":%u,\"names\":%zu,\"build_s\":%.3f,\"bytes\":%llu,"
           "\"lookups\":%zu,\"lookups_per_s\":%.0f,\"mismatches\":%zu",
           eng, en.kind == LPM_NE_MATA ? o->mo.stride : en.kind == LPM_NE_ATA ? o->ao.stride : 1, t->n, tb,
           (unsigned long long)lpm_nengine_bytes(&en), list->n, lps, bad);
    if (en.kind == LPM_NE_MATA)
        printf(",\"atas\":%u,\"interweaved_lookups_per_s\":%.0f", en.aa.nata, iwps);
    if (nu)
        printf(",\"updates\":%zu,\"deletes_per_s\":%.0f,\"inserts_per_s\":%.0f,\"relocations\":%llu,"
               "\"mismatches_after_deletes\":%zu,\"mismatches_after_inserts\":%zu",
               nu, td > 0 ? (double)nu / td : 0, ti > 0 ? (double)nu / ti : 0,
               (unsigned long long)(en.kind >= LPM_NE_ATA ? en.aa.relocations : 0), badu, bad2);
    printf(",\"checksum\":%llu}\n", (unsigned long long)(sink & 0xFFFF));
    fflush(stdout);
    *total_bad += bad + badu + bad2 + (urc != 0);
    lpm_nengine_free(&en);
    return 0;
}

/* -1 after --help, 0 to go on, else the exit status. */
static int parse_args(int argc, char **argv, lpm_ncli_eopts *o)
{
    static const struct option lo[] = { LPM_NCLI_ENGINE_LONGOPTS,
                                        { "updates", required_argument, 0, O_UPDATES },
                                        { "seed", required_argument, 0, O_SEED },
                                        { "repeat", required_argument, 0, O_REPEAT },
                                        { 0, 0, 0, 0 } };
    lpm_ncli_eopts_init(o);
    strcpy(o->engines, "ref,trie,ata,mata");
    int c, r;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        if (c == 'h') {
            printf("usage: lpmpipe names bench --table TABLE --trace FILE [--engine E1,E2,...]\n"
                   "       [--updates N] [--seed S] [--repeat R]\n"
                   "One JSON line per engine: build time, lookup memory, lookups/s (median of R\n"
                   "runs), then N deletions and N re-insertions of random table names with their\n"
                   "rates; every answer, before and after the updates, is checked against the\n"
                   "reference (mismatches counted; exit 1 when any). mata adds the interweaved\n"
                   "lookup (the GPU kernel's body on the CPU).\n" LPM_NCLI_ENGINE_HELP);
            return -1;
        }
        if ((r = lpm_ncli_engine_opt(CMD, c, optarg, o)) <= 0)
            return r < 0 ? LPM_EINPUT : lpm_cli_usage_error(CMD);
    }
    if (!o->trace) {
        lpm_cli_error(CMD, "--trace is required");
        return LPM_EINPUT;
    }
    return 0;
}

int lpm_cmd_names_bench(int argc, char **argv)
{
    lpm_ncli_eopts o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    lpm_ntable t, list;
    if ((rc = lpm_ncli_load_both(CMD, &o, argc, argv, &t, &list)))
        return rc;
    lpm_nengine ref;
    uint32_t *want = malloc((list.n + 1) * sizeof *want), *want2 = malloc((list.n + 1) * sizeof *want2);
    size_t nu = o.updates < t.n ? o.updates : t.n, *upd = malloc((nu + 1) * sizeof *upd);
    if (!want || !want2 || !upd || (rc = lpm_ncli_build_engine(CMD, &ref, "ref", &t, &o))) {
        rc = rc ? rc : LPM_EFAIL;
        goto out;
    }
    for (size_t i = 0; i < list.n; i++)
        want[i] = lpm_nengine_lookup(&ref, lpm_ntable_name(&list, i), list.e[i].len);
    if (pick_updates(t.n, nu, o.seed, upd)) {
        rc = LPM_EFAIL;
        lpm_nengine_free(&ref);
        goto out;
    }
    for (size_t i = 0; i < nu; i++)
        lpm_nengine_delete(&ref, lpm_ntable_name(&t, upd[i]), t.e[upd[i]].len);
    for (size_t i = 0; i < list.n; i++)
        want2[i] = lpm_nengine_lookup(&ref, lpm_ntable_name(&list, i), list.e[i].len);
    lpm_nengine_free(&ref);
    nbench b = { &t, &list, &o, want, want2, upd, nu };
    size_t total_bad = 0;
    char *save, *eng;
    for (eng = strtok_r(o.engines, ",", &save); eng && !rc; eng = strtok_r(NULL, ",", &save))
        rc = bench_engine(&b, eng, &total_bad);
    if (!rc)
        rc = total_bad ? LPM_EFAIL : 0;
out:
    free(want);
    free(want2);
    free(upd);
    lpm_ntable_free(&t);
    lpm_ntable_free(&list);
    return rc;
}
