/* Comparing the RTL run with the simulator's, line by line. */
#include "verify_cmp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/ref_lpm.h"
#include "../sim/cycle_log.h"

#define SHOW 3 /* differences printed in full */

uint64_t lpm_rtl_cmp_total(const lpm_rtl_cmp *c)
{
    return c->cycle_bad + c->result_bad + c->ref_bad + c->icarus_bad;
}

static int header_of(const char *line, const char *path, lpm_sim_log_hdr *h, lpm_err *err)
{
    lpm_err e;
    if (!line)
        return lpm_err_set(err, LPM_EFAIL, "%s: empty cycle log", path);
    if (lpm_sim_log_header_parse(line, h, &e))
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, e.msg);
    return LPM_OK;
}

static int header_pair(const char *x, const char *xpath, const char *y, const char *ypath, lpm_err *err)
{
    lpm_sim_log_hdr hx, hy;
    int rc = header_of(x, xpath, &hx, err);
    if (rc || (rc = header_of(y, ypath, &hy, err)))
        return rc;
    if (hx.stages != hy.stages || hx.ring != hy.ring || hx.queue != hy.queue || hx.width != hy.width ||
        hx.rob != hy.rob || hx.lookahead != hy.lookahead || hx.hop != hy.hop || hx.ports != hy.ports || hx.fifo != hy.fifo)
        return lpm_err_set(err, LPM_EFAIL, "the simulator and the RTL ran different configurations:\n  sim: %s\n  rtl: %s", x,
                           y);
    return LPM_OK;
}

static int compare_logs(lpm_rtl_cmp *c, const char *simlog, const char *rtllog, lpm_err *err)
{
    FILE *a = fopen(simlog, "r"), *b = fopen(rtllog, "r");
    if (!a || !b) {
        if (a)
            fclose(a);
        if (b)
            fclose(b);
        return lpm_err_set(err, LPM_EFAIL, "cannot read the cycle logs %s, %s", simlog, rtllog);
    }
    char *la = NULL, *lb = NULL;
    size_t ca = 0, cb = 0;
    uint64_t line = 1;
    /* The headers name the rules and the configuration: both must parse and agree. */
    int rc = header_pair(lpm_sim_log_line(a, &la, &ca), simlog, lpm_sim_log_line(b, &lb, &cb), rtllog, err);
    for (; !rc; line++) {
        char *x = lpm_sim_log_line(a, &la, &ca), *y = lpm_sim_log_line(b, &lb, &cb);
        if (!x && !y)
            break;
        if (x && y && !strcmp(x, y))
            continue;
        uint64_t cyc = line ? line - 1 : 0;
        if (c->cycle_bad++ < SHOW)
            fprintf(stderr, "lpmpipe: rtl verify: cycle %" PRIu64 " differs:\n  sim: %s\n  rtl: %s\n", cyc, x ? x : "(log ended)",
                    y ? y : "(log ended)");
        if (cyc < c->first_cycle)
            c->first_cycle = cyc;
    }
    c->cycles = line ? line - 1 : 0;
    free(la);
    free(lb);
    fclose(a);
    fclose(b);
    return rc;
}

static void nh_text(const lpm_image *img, int valid, uint64_t nh, char *buf, size_t n)
{
    const lpm_nhtab *t = lpm_image_nhtab(img);
    if (!valid)
        snprintf(buf, n, "-");
    else if (nh < t->n)
        snprintf(buf, n, "%s", lpm_nhtab_name(t, (uint32_t)nh));
    else
        snprintf(buf, n, "#%" PRIu64, nh);
}

/* Results: the same lines in the same order; each answer also checked
 * against the reference LPM of the image's own table. */
static int compare_results(lpm_rtl_cmp *c, const char *simres, const char *rtlres, lpm_err *err)
{
    FILE *a = fopen(simres, "r"), *b = fopen(rtlres, "r");
    if (!a || !b) {
        if (a)
            fclose(a);
        if (b)
            fclose(b);
        return lpm_err_set(err, LPM_EFAIL, "cannot read the results %s, %s", simres, rtlres);
    }
    lpm_ref *ref = NULL;
    int fam = lpm_image_family(c->img);
    if (c->check_ref) {
        ref = lpm_ref_new(fam);
        if (!ref) {
            fclose(a);
            fclose(b);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
        const lpm_route *r = lpm_image_routes(c->img);
        for (size_t i = 0; i < lpm_image_route_count(c->img); i++)
            lpm_ref_add(ref, &r[i].pfx, r[i].nh);
    }
    char *la = NULL, *lb = NULL, mine[256], tok[128];
    size_t ca = 0, cb = 0;
    lpm_sim_log_line(a, &la, &ca); /* header */
    uint64_t n = 0;
    for (;; n++) {
        char *x = lpm_sim_log_line(a, &la, &ca), *y = lpm_sim_log_line(b, &lb, &cb);
        if (!x && !y)
            break;
        uint64_t id = 0, nh = 0, dit = 0, ex = 0, out = 0;
        unsigned nhv = 0;
        int ok = y && sscanf(y, "%" SCNu64 " %u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &id, &nhv, &nh, &dit,
                             &ex, &out) == 6;
        char at[LPM_ADDR_STRLEN] = "?";
        if (ok && id < c->keys->n)
            lpm_addr_format(&c->keys->a[id], fam, at, sizeof at);
        nh_text(c->img, (int)nhv, nh, tok, sizeof tok);
        snprintf(mine, sizeof mine, "%" PRIu64 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64, id, at, tok, dit, ex, out);
        if (!x || !ok || strcmp(x, mine)) {
            if (c->result_bad++ < SHOW)
                fprintf(stderr, "lpmpipe: rtl verify: result %" PRIu64 " differs:\n  sim: %s\n  rtl: %s\n", n,
                        x ? x : "(no more results)", ok ? mine : "(no more results)");
            if (ok && out < c->first_result)
                c->first_result = out;
        }
        if (ref && ok) {
            c->ref_checked++;
            if (id >= c->keys->n) {
                c->ref_bad++;
                continue;
            }
            int len = -1;
            uint32_t want = lpm_ref_lookup(ref, &c->keys->a[id], &len);
            uint32_t got = nhv ? (uint32_t)nh : LPM_NH_NONE;
            if (want != got) {
                char w[128];
                nh_text(c->img, want != LPM_NH_NONE, want, w, sizeof w);
                if (c->ref_bad++ < SHOW)
                    fprintf(stderr, "lpmpipe: rtl verify: request %" PRIu64 " %s: RTL says %s, the reference %s (prefix /%d)\n", id,
                            at, tok, w, len);
            }
        }
    }
    if (ref && c->ref_checked != c->keys->n) {
        fprintf(stderr, "lpmpipe: rtl verify: %" PRIu64 " results for %zu requests\n", c->ref_checked, c->keys->n);
        c->ref_bad++;
    }
    lpm_ref_free(ref);
    free(la);
    free(lb);
    fclose(a);
    fclose(b);
    return LPM_OK;
}

int lpm_rtl_compare(lpm_rtl_cmp *c, const char *simlog, const char *rtllog, const char *simres, const char *rtlres,
                    lpm_err *err)
{
    c->first_cycle = c->first_result = UINT64_MAX;
    int rc = compare_logs(c, simlog, rtllog, err);
    if (!rc)
        rc = compare_results(c, simres, rtlres, err);
    /* the cycle logs name the first differing cycle; equal logs with other
     * results: the output cycle of the first differing result */
    if (c->first_cycle == UINT64_MAX)
        c->first_cycle = c->first_result;
    return rc;
}
