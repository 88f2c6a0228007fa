/* lpmpipe update: route updates -> write bubbles (and the updated image). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "../core/trace.h"
#include "../core/updates_load.h"
#include "../mapper/image.h"
#include "../mapper/map.h"
#include "../mapper/update.h"

static const char *cmd = "update";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe update --image IMG --updates U [-o IMG2] [--bubbles FILE]\n"
            "                      [--rebalance-at F] [--rebuild-every N] [--peer ADDR]\n"
            "                      [--max-updates N] [--mask-host-bits] [--json]\n"
            "\n"
            "Applies announce/withdraw updates to the image offline: changed words are\n"
            "placed in head room and become writes (stage, address, word) packed into\n"
            "bubbles with at most one write per stage, ordered so that every prefix of\n"
            "the bubble sequence leaves a consistent table. Withdrawals of absent\n"
            "prefixes are no-ops. Prints writes and bubbles per update, per-stage writes,\n"
            "rebuilds and the updates/s of this offline step (docs/cli-mapper.md).\n"
            "\n"
            "  --image IMG          the pipeline image (it holds its table)\n"
            "  --updates U          update trace: '[time] a|w prefix [nexthop]' lines\n"
            "  -o IMG2              write the updated image\n"
            "  --bubbles FILE       write the bubble stream ('-': standard output; the\n"
            "                       report then goes to standard error)\n"
            "  --rebalance-at F     rebuild when fullest/mean grows past F times its value\n"
            "                       after the last build (default 1.10; 0: never)\n"
            "  --rebuild-every N    also rebuild after every N effective updates (to measure\n"
            "                       or test rebuilds; default 0: only when needed)\n"
            "  --peer ADDR          bgpdump update traces: this peer's updates\n"
            "  --max-updates N      read only the trace's first N updates (A/W lines of the\n"
            "                       peer, or a|w lines; N >= 1) and stop reading there\n"
            "  --mask-host-bits     clear host bits of update prefixes instead of refusing\n"
            "                       the line (as the table readers' option does)\n"
            "  --json               the report as one JSON object\n");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void bubble_lines(FILE *fp, const lpm_write *w, const lpm_bubble *b, size_t nb, size_t *bubble_no, unsigned digits)
{
    for (size_t k = 0; k < nb; k++) {
        fprintf(fp, "B %zu", ++*bubble_no);
        if (b[k].flags & LPM_BUBBLE_FENCE)
            fputs(" fence", fp);
        if (b[k].flags & LPM_BUBBLE_DRAIN)
            fputs(" drain", fp);
        if (b[k].flags & LPM_BUBBLE_SWAP)
            fputs(" swap", fp);
        for (size_t i = b[k].first; i < b[k].first + b[k].n; i++) {
            if (w[i].stage == LPM_IMAGE_DIT)
                fprintf(fp, " D:%u:%0*llx", w[i].addr, (int)digits, (unsigned long long)w[i].word);
            else
                fprintf(fp, " %u:%u:%0*llx", w[i].stage, w[i].addr, (int)digits, (unsigned long long)w[i].word);
        }
        fputc('\n', fp);
    }
}

typedef struct run_info {
    double secs;                  /* the offline step, rebuilds included */
    uint64_t memory_bits, shadow_bits;
    unsigned copies;
    size_t stopped_at;            /* the update that could not be compiled (0: none) */
    lpm_map_report given;         /* the image as loaded, before the updates */
} run_info;

static void report(FILE *fp, const lpm_upd_stats *s, const lpm_image *img, const run_info *ri, int json)
{
    double secs = ri->secs, ups = secs > 0 ? (double)s->updates / secs : 0;
    size_t eff = s->updates - s->noops;
    if (json) {
        fprintf(fp, "{\"updates\":%zu,\"announces\":%zu,\"withdraws\":%zu,\"noops\":%zu,\"writes\":%zu,\"bubbles\":%zu,"
               "\"writes_per_update\":%.4f,\"bubbles_per_update\":%.4f,\"max_writes\":%zu,\"max_bubbles\":%zu,"
               "\"blocks_added\":%zu,\"blocks_copied\":%zu,\"drain_bubbles\":%zu,"
               "\"rebuilds\":%zu,\"first_rebuild\":%zu,\"balance_skipped\":%zu,\"rebuild_headroom\":%zu,\"rebuild_stages\":%zu,"
               "\"rebuild_nh_bits\":%zu,\"rebuild_balance\":%zu,\"rebuild_every\":%zu,\"rebuild_writes\":%zu,\"rebuild_bubbles\":%zu,"
               "\"max_rebuild_bubbles\":%zu,\"rebuild_seconds\":%.3f,\"copies\":%u,\"memory_bits\":%llu,"
               "\"shadow_bits\":%llu,\"stopped_at\":%zu,\"seconds\":%.6f,\"updates_per_s\":%.0f,"
               "\"dit_writes\":%zu,\"stage_writes\":[",
               s->updates, s->announces, s->withdraws, s->noops, s->writes, s->bubbles,
               eff ? (double)s->writes / eff : 0, eff ? (double)s->bubbles / eff : 0, s->max_writes, s->max_bubbles,
               s->blocks_added, s->blocks_copied, s->drain_bubbles, s->rebuilds, s->first_rebuild, s->balance_skipped,
               s->rebuild_why[LPM_REBUILD_HEADROOM],
               s->rebuild_why[LPM_REBUILD_STAGES], s->rebuild_why[LPM_REBUILD_NH_BITS],
               s->rebuild_why[LPM_REBUILD_BALANCE], s->rebuild_why[LPM_REBUILD_EVERY], s->rebuild_writes, s->rebuild_bubbles, s->max_rebuild_bubbles,
               s->rebuild_seconds, ri->copies, (unsigned long long)ri->memory_bits,
               (unsigned long long)ri->shadow_bits, ri->stopped_at, secs, ups, s->dit_writes);
        for (unsigned i = 0; i < lpm_image_stages(img); i++)
            fprintf(fp, "%s%zu", i ? "," : "", s->stage_writes[i]);
        fprintf(fp, "],\"image\":{\"words_used\":%llu,\"words_allocated\":%llu,\"memory_bits\":%llu,\"shadow_bits\":%llu}}\n",
                (unsigned long long)ri->given.words_used, (unsigned long long)ri->given.words_alloc,
                (unsigned long long)ri->given.memory_bits, (unsigned long long)ri->given.shadow_bits);
        return;
    }
    fprintf(fp, "%-26s %zu (%zu announce, %zu withdraw, %zu no-op)\n", "updates", s->updates, s->announces, s->withdraws,
           s->noops);
    fprintf(fp, "%-26s %zu writes, %zu bubbles; per effective update %.3f writes, %.3f bubbles (max %zu, %zu)\n",
           "writes", s->writes, s->bubbles, eff ? (double)s->writes / eff : 0, eff ? (double)s->bubbles / eff : 0,
           s->max_writes, s->max_bubbles);
    fprintf(fp, "%-26s %zu\n", "blocks added (head room)", s->blocks_added);
    if (s->blocks_copied || s->drain_bubbles)
        fprintf(fp, "%-26s %zu blocks copied (height mapping), %zu drain bubbles\n", "", s->blocks_copied, s->drain_bubbles);
    fprintf(fp, "%-26s %zu (head room %zu, stages %zu, nh bits %zu, balance %zu, asked for %zu)", "rebuilds", s->rebuilds,
           s->rebuild_why[LPM_REBUILD_HEADROOM], s->rebuild_why[LPM_REBUILD_STAGES],
           s->rebuild_why[LPM_REBUILD_NH_BITS], s->rebuild_why[LPM_REBUILD_BALANCE], s->rebuild_why[LPM_REBUILD_EVERY]);
    if (s->first_rebuild)
        fprintf(fp, ", the first at update %zu", s->first_rebuild);
    if (s->balance_skipped)
        fprintf(fp, "; %zu rebalances left out (the new mapping did not fit the memories, or no shadow copy for it)",
                s->balance_skipped);
    fprintf(fp, "\n");
    if (s->rebuilds)
        fprintf(fp, "%-26s %zu writes in %zu bubbles (largest rebuild %zu bubbles), %.3f s\n", "rebuild streams",
               s->rebuild_writes, s->rebuild_bubbles, s->max_rebuild_bubbles, s->rebuild_seconds);
    fprintf(fp, "%-26s %u cop%s, %llu bits of memory, %llu of them for the shadow copy\n", "memory", ri->copies,
           ri->copies == 1 ? "y" : "ies", (unsigned long long)ri->memory_bits, (unsigned long long)ri->shadow_bits);
    fprintf(fp, "%-26s %.3f s, %.0f updates/s\n", "offline compile", secs, ups);
    fprintf(fp, "%5s %10s\n%5s %10zu\n", "stage", "writes", "DIT", s->dit_writes);
    for (unsigned i = 0; i < lpm_image_stages(img); i++)
        fprintf(fp, "%5u %10zu\n", i, s->stage_writes[i]);
}

typedef struct upd_args {
    const char *image, *updates, *bubbles, *outp, *peer;
    lpm_upd_opts uo;
    int json, mask_host;
    uint64_t max_updates;
} upd_args;

enum { O_IMAGE = LPM_OPT_FIRST_FREE, O_UPDATES, O_BUBBLES, O_REBAL, O_PEER, O_JSON, O_EVERY, O_MAX };

/* One option; 0, or 2 after the message. */
static int update_option(int c, const char *arg, upd_args *a)
{
    switch (c) {
    case O_IMAGE: a->image = arg; break;
    case O_UPDATES: a->updates = arg; break;
    case O_BUBBLES: a->bubbles = arg; break;
    case O_REBAL:
        if (lpm_cli_double(cmd, "--rebalance-at", arg, 0, 1000, &a->uo.rebalance_at))
            return 2;
        if (a->uo.rebalance_at > 0 && a->uo.rebalance_at < 1) {
            lpm_cli_error(cmd, "--rebalance-at: %g is below 1 (0 turns it off)", a->uo.rebalance_at);
            return 2;
        }
        break;
    case O_PEER: a->peer = arg; break;
    case O_EVERY: {
        uint64_t v;
        if (lpm_cli_u64(cmd, "--rebuild-every", arg, 0, 1ULL << 40, &v))
            return 2;
        a->uo.rebuild_every = (size_t)v;
        break;
    }
    case O_MAX:
        if (lpm_cli_u64(cmd, "--max-updates", arg, 1, 1ULL << 40, &a->max_updates))
            return 2;
        break;
    case LPM_OPT_MASK_HOST: a->mask_host = 1; break;
    case O_JSON: a->json = 1; break;
    case 'o': a->outp = arg; break;
    default: return lpm_cli_usage_error(cmd);
    }
    return 0;
}

/* -1: go on; else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, upd_args *a)
{
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },
        { "updates", required_argument, 0, O_UPDATES },
        { "bubbles", required_argument, 0, O_BUBBLES },
        { "rebalance-at", required_argument, 0, O_REBAL },
        { "peer", required_argument, 0, O_PEER },
        { "rebuild-every", required_argument, 0, O_EVERY },
        { "max-updates", required_argument, 0, O_MAX },
        { "mask-host-bits", no_argument, 0, LPM_OPT_MASK_HOST },
        { "json", no_argument, 0, O_JSON },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    memset(a, 0, sizeof *a);
    a->uo.rebalance_at = 1.10;
    int c, rc;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "ho:", lo)) != -1) {
        if (c == 'h') {
            help(stdout);
            return 0;
        }
        if ((rc = update_option(c, optarg, a)))
            return rc;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!a->image || !a->updates) {
        lpm_cli_error(cmd, "--image and --updates are required");
        return 2;
    }
    if (a->bubbles && a->outp && !strcmp(a->bubbles, "-") && !strcmp(a->outp, "-")) {
        lpm_cli_error(cmd, "-o - and --bubbles - cannot both write to standard output");
        return 2;
    }
    return -1;
}

/* The bubble file's first lines: a comment, then the H line the readers
 * check against the image they are given. */
static void bubbles_header(FILE *bf, const lpm_image *img)
{
    lpm_image_info in;
    lpm_image_info_of(img, &in);
    fprintf(bf, "# lpmpipe bubbles v2: IPv%d %s, %u stages, word %u bits, DIT entry %u bits, %u cop%s\n",
            in.family, in.ring ? "ring" : "linear", in.stages, in.word_bits, in.dit_bits, in.copies,
            in.copies == 1 ? "y" : "ies");
    fprintf(bf, "H bubbles=2 family=%d arch=%s stages=%u x=%u word_bits=%u dit_bits=%u copies=%u image_crc=%08x\n",
            in.family, in.ring ? "ring" : "linear", in.stages, in.x, in.word_bits, in.dit_bits, in.copies,
            (unsigned)lpm_image_file_crc(img));
}

/* Update i's lines in the bubble file: U, R after a rebuild, its bubbles. */
static void bubbles_of(FILE *bf, lpm_upd *u, const lpm_update *up, size_t i, const char *tok, int rebuilt,
                       size_t *bubble_no)
{
    char pb[LPM_ADDR_STRLEN + 8];
    lpm_prefix_format(&up->pfx, pb, sizeof pb);
    const lpm_write *w;
    const lpm_bubble *b;
    size_t nw, nb;
    lpm_upd_last(u, &w, &nw, &b, &nb);
    fprintf(bf, "U %zu %c %s %s writes=%zu bubbles=%zu\n", i + 1, up->op, pb, tok ? tok : "-", nw, nb);
    const lpm_image *ci = lpm_upd_image(u);
    if (rebuilt)
        fprintf(bf, "R %zu %s copy=%u writes=%zu bubbles=%zu copy_crc=%08x\n", i + 1,
                lpm_rebuild_reason_name(lpm_upd_last_reason(u)), lpm_image_active(ci), nw, nb,
                (unsigned)lpm_image_copy_crc(ci, lpm_image_active(ci)));
    unsigned wb = lpm_image_word_bits(ci) > lpm_image_dit_bits(ci) ? lpm_image_word_bits(ci) : lpm_image_dit_bits(ci);
    bubble_lines(bf, w, b, nb, bubble_no, (wb + 3) / 4);
}

/* Every update through the updater (timed in ri->secs), its bubbles into
 * bf when given; stops at the first that cannot be compiled (ri->stopped_at). */
static int apply_all(const upd_args *a, lpm_upd *u, const lpm_update *up, size_t n, const lpm_fib *fib,
                     const lpm_image *img, FILE *bf, run_info *ri)
{
    lpm_err err;
    size_t bubble_no = 0;
    for (size_t i = 0; i < n; i++) {
        const char *tok = up[i].op == 'a' ? lpm_nhtab_name(&fib->nh, up[i].nh) : NULL;
        int rebuilt;
        double t0 = now();
        int rc = lpm_upd_apply(u, up[i].op, &up[i].pfx, tok, &rebuilt, &err);
        ri->secs += now() - t0;
        if (rc) {
            lpm_cli_error(cmd, "%s: update %zu: %s", a->updates, i + 1, err.msg);
            ri->stopped_at = i + 1;
            return rc;
        }
        if (rebuilt && bf && lpm_image_copies(img) == 1) {
            lpm_cli_error(cmd, "%s: update %zu needs a rebuild (%s) and %s has no shadow copy to send it into as "
                               "bubbles: map with --shadow (or more --headroom); the bubble file stops before it",
                          a->updates, i + 1, lpm_rebuild_reason_name(lpm_upd_last_reason(u)), a->image);
            ri->stopped_at = i + 1;
            return 1;
        }
        if (bf)
            bubbles_of(bf, u, &up[i], i, tok, rebuilt, &bubble_no);
    }
    return 0;
}

int lpm_cmd_update(int argc, char **argv)
{
    upd_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    lpm_err err;
    lpm_image *img;
    if ((rc = lpm_image_load(&img, a.image, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    run_info ri;
    memset(&ri, 0, sizeof ri);
    lpm_map_report_image(img, &ri.given);
    /* Next hops of the trace are interned after the image's own, so one
     * index space serves both. */
    lpm_fib fib;
    lpm_fib_init(&fib);
    fib.family = lpm_image_family(img);
    const lpm_nhtab *inh = lpm_image_nhtab(img);
    for (size_t i = 0; i < inh->n; i++)
        lpm_nhtab_intern(&fib.nh, inh->name[i], strlen(inh->name[i]));
    lpm_update *up = NULL;
    size_t n = 0;
    lpm_upd *u = NULL;
    FILE *bf = NULL;
    if ((rc = lpm_updates_load_max(a.updates, &fib, a.peer, a.mask_host, (size_t)a.max_updates, &up, &n, NULL, 0,
                                   &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    a.uo.bubbles_only = a.bubbles != NULL;
    if ((rc = lpm_upd_new(&u, img, &a.uo, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (a.bubbles) {
        if (!(bf = lpm_cli_open_out(cmd, a.bubbles, &rc)))
            goto out;
        bubbles_header(bf, img);
    }
    rc = apply_all(&a, u, up, n, &fib, img, bf, &ri);
    if (bf) {
        int r2 = lpm_cli_close_out(cmd, bf, a.bubbles);
        bf = NULL;
        rc = rc ? rc : r2;
    }
    lpm_map_report mr;
    memset(&mr, 0, sizeof mr);
    lpm_map_report_image(lpm_upd_image(u), &mr);
    ri.copies = mr.copies;
    ri.memory_bits = mr.memory_bits;
    ri.shadow_bits = mr.shadow_bits;
    /* The report goes where the image and the bubbles do not; after an
     * update that stopped it, what was compiled up to there (exit 1). */
    FILE *rfp = a.bubbles && !strcmp(a.bubbles, "-") ? stderr : stdout;
    if (ri.stopped_at) {
        if (!a.outp || strcmp(a.outp, "-"))
            report(rfp, lpm_upd_get_stats(u), lpm_upd_image(u), &ri, a.json);
        goto out;
    }
    if (rc)
        goto out;
    if (a.outp && ((rc = lpm_upd_sync_routes(u, &err)) || (rc = lpm_image_save(lpm_upd_image(u), a.outp, &err)))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (!a.outp || strcmp(a.outp, "-"))
        report(rfp, lpm_upd_get_stats(u), lpm_upd_image(u), &ri, a.json);
    if (fflush(stdout))
        rc = 1;
out:
    if (bf)
        fclose(bf);
    lpm_upd_free(u);
    free(up);
    lpm_fib_free(&fib);
    lpm_image_free(img);
    return rc;
}
