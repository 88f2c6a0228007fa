/* lpmpipe lookup --image: the image interpreter behind the common lookup
 * command (cmd_lookup.c hands over when it sees --image). */
#include <stdlib.h>
#include <string.h>

#include "addr_stream.h"
#include "cli.h"
#include "cmd.h"
#include "../core/ref_lpm.h"
#include "../mapper/image.h"

static const char *cmd = "lookup";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe lookup --image IMG [--trace FILE] [--verify [--fib F]] [--stats] [--json]\n"
            "                      [ADDR... | -]\n"
            "\n"
            "Looks addresses up by walking the pipeline image as the hardware does (one\n"
            "word per stage visit) and prints one 'addr nexthop' line each ('-' = none).\n"
            "\n"
            "  --image IMG   the pipeline image (lpmpipe map -o)\n"
            "  --trace FILE  read addresses from FILE (one per line)\n"
            "  --verify      compare every answer with the reference LPM of the table the\n"
            "                image holds, or of --fib F; mismatches are reported, exit 1\n"
            "  --fib F       the table to verify against (any format lpmpipe fib reads)\n"
            "  --stats       print stage reads and ring loops per lookup to stderr\n"
            "  --json        print those figures as one JSON object on stdout instead of\n"
            "                the answers (lookups, reads_mean/max, loops_mean/max, mismatches)\n"
            LPM_CLI_FIB_HELP);
}

typedef struct {
    const lpm_image *img;
    lpm_ref *ref;
    const lpm_nhtab *ref_nh;
    unsigned long n, mismatches, visits, loops, max_visits, max_loops;
    int json;
} ctx;

static int answer(void *vc, const lpm_addr *a)
{
    ctx *c = vc;
    lpm_visit v;
    lpm_image_dispatch(c->img, a, &v);
    while (!v.done)
        lpm_image_visit(c->img, &v);
    c->n++;
    c->visits += v.visits;
    c->loops += v.loops;
    if (v.visits > c->max_visits)
        c->max_visits = v.visits;
    if (v.loops > c->max_loops)
        c->max_loops = v.loops;
    const char *got = v.best_nh == LPM_NH_NONE ? "-" : lpm_nhtab_name(lpm_image_nhtab(c->img), v.best_nh);
    c->mismatches += (unsigned long)lpm_cli_answer("image", a, lpm_image_family(c->img), got, c->ref, c->ref_nh, c->json);
    return 0;
}

/* The reference of the table the image holds. */
static int ref_from_image(const lpm_image *img, lpm_ref **out, lpm_err *err)
{
    lpm_ref *r = lpm_ref_new(lpm_image_family(img));
    if (!r)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    const lpm_route *rt = lpm_image_routes(img);
    for (size_t i = 0; i < lpm_image_route_count(img); i++)
        if (lpm_ref_add(r, &rt[i].pfx, rt[i].nh)) {
            lpm_ref_free(r);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
    *out = r;
    return LPM_OK;
}

int lpm_cmd_lookup_image(int argc, char **argv)
{
    enum { O_IMAGE = LPM_OPT_FIRST_FREE, O_FIB, O_TRACE, O_VERIFY, O_STATS, O_JSON };
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },
        { "fib", required_argument, 0, O_FIB },
        { "trace", required_argument, 0, O_TRACE },
        { "verify", no_argument, 0, O_VERIFY },
        { "stats", no_argument, 0, O_STATS },
        { "json", no_argument, 0, O_JSON },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    const char *image = NULL, *fib_path = NULL, *trace = NULL;
    int verify = 0, stats = 0, json = 0, c;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_IMAGE: image = optarg; break;
        case O_FIB: fib_path = optarg; break;
        case O_TRACE: trace = optarg; break;
        case O_VERIFY: verify = 1; break;
        case O_STATS: stats = 1; break;
        case O_JSON: json = 1; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (!image) {
        lpm_cli_error(cmd, "--image needs a file");
        return 2;
    }
    if (fib_path && !verify) {
        lpm_cli_error(cmd, "--fib with --image is only used by --verify");
        return 2;
    }
    lpm_err err;
    lpm_image *img;
    int rc = lpm_image_load(&img, image, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    ctx cx = { 0 };
    cx.img = img;
    cx.json = json;
    lpm_fib fib;
    lpm_fib_init(&fib);
    if (verify) {
        if (fib_path) {
            if ((rc = lpm_cli_load_fib(cmd, fib_path, &fo, &fib)))
                goto out;
            if (fib.family != lpm_image_family(img)) {
                lpm_cli_error(cmd, "--fib is IPv%d, the image IPv%d", fib.family, lpm_image_family(img));
                rc = 2;
                goto out;
            }
            rc = lpm_ref_build(&cx.ref, &fib, &err);
            cx.ref_nh = &fib.nh;
        } else {
            rc = ref_from_image(img, &cx.ref, &err);
            cx.ref_nh = lpm_image_nhtab(img);
        }
        if (rc) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
    }
    rc = lpm_cli_addresses(lpm_image_family(img), "image", trace, argc, argv, optind, answer, &cx);
    if (stats && cx.n)
        fprintf(stderr, "lpmpipe: lookup: %lu lookups, stage reads %.3f mean / %lu max, loops %.4f mean / %lu max\n",
                cx.n, (double)cx.visits / cx.n, cx.max_visits, (double)cx.loops / cx.n, cx.max_loops);
    if (json && rc == 0)
        printf("{\"lookups\":%lu,\"reads_mean\":%.6f,\"reads_max\":%lu,\"loops_mean\":%.6f,\"loops_max\":%lu,"
               "\"verified\":%s,\"mismatches\":%lu}\n",
               cx.n, cx.n ? (double)cx.visits / cx.n : 0.0, cx.max_visits, cx.n ? (double)cx.loops / cx.n : 0.0,
               cx.max_loops, verify ? "true" : "false", cx.mismatches);
    if (rc == 0 && cx.mismatches) {
        lpm_cli_error(cmd, "%lu mismatch%s against the reference", cx.mismatches, cx.mismatches == 1 ? "" : "es");
        rc = 1;
    }
out:
    if (fflush(stdout))
        rc = rc ? rc : 1;
    lpm_ref_free(cx.ref);
    lpm_fib_free(&fib);
    lpm_image_free(img);
    return rc;
}
