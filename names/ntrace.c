#include "ntrace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/input.h"
#include "../core/rng.h"
#include "nref.h"
#include "nstep.h"

int lpm_nlist_load(lpm_ntable *list, const char *path, int skip_bad, size_t *skipped,
                   lpm_err *err)
{
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    lpm_ntable_init(list);
    char norm[LPM_NAME_MAX + 1];
    char *line;
    size_t len, nskip = 0;
    while ((rc = lpm_input_getline(in, &line, &len, err)) == 1) {
        if (len && line[len - 1] == '\r')
            len--;
        size_t a = 0;
        while (a < len && (line[a] == ' ' || line[a] == '\t'))
            a++;
        while (len > a && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            len--;
        if (a == len || line[a] == '#')
            continue;
        const char *why;
        long nl = memchr(line + a, 0, len - a) ? (why = "NUL byte in line", -1)
                                               : lpm_name_normalize(line + a, len - a, norm, &why);
        if (nl < 0) {
            if (skip_bad) {
                nskip++;
                continue;
            }
            char q[LPM_QUOTE_MAX];
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "%s: '%s'", why,
                            lpm_quote(q, sizeof q, line + a, len - a));
            goto out;
        }
        if ((rc = lpm_ntable_add(list, norm, (size_t)nl, 0, err)))
            goto out;
    }
    rc = rc < 0 ? LPM_EINPUT : 0;
    if (!rc && list->n == 0)
        rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "no names in the list%s",
                        nskip ? " (all lines skipped)" : "");
    if (skipped)
        *skipped = nskip;
out:
    lpm_input_close(in);
    if (rc)
        lpm_ntable_free(list);
    return rc;
}

/* Directory paths of a URL list: scheme and host dropped, query and
 * fragment cut, kept as "dir/page" (no leading or trailing '/'); URLs with
 * no usable path or odd bytes are passed over (they are sample material,
 * not input to check). */
static int load_paths(lpm_ntable *paths, const char *file, lpm_err *err)
{
    lpm_input *in;
    int rc = lpm_input_open(&in, file, err);
    if (rc)
        return rc;
    lpm_ntable_init(paths);
    char *line, buf[LPM_NAME_MAX + 1];
    size_t len;
    while ((rc = lpm_input_getline(in, &line, &len, err)) == 1) {
        size_t i = 0;
        for (size_t k = 0; k + 2 < len; k++)
            if (line[k] == ':' && line[k + 1] == '/' && line[k + 2] == '/') {
                i = k + 3;
                break;
            }
        while (i < len && line[i] != '/')
            i++;
        size_t o = 0, comp = 0;
        int ok = 1;
        for (i++; i < len && o < 200; i++) {
            unsigned char c = (unsigned char)line[i];
            if (c == '?' || c == '#' || c == '\r')
                break;
            if (c == '/') {
                if (comp)
                    buf[o++] = '/';
                comp = 0;
                continue;
            }
            if (c < 0x21 || c > 0x7E) {
                ok = 0;
                break;
            }
            if (comp < 64) {
                buf[o++] = (char)c;
                comp++;
            }
        }
        if (o && buf[o - 1] == '/')
            o--;
        if (ok && o && (rc = lpm_ntable_add(paths, buf, o, 0, err)))
            break;
    }
    lpm_input_close(in);
    if (rc < 0 || rc > 1) {
        lpm_ntable_free(paths);
        return rc < 0 ? LPM_EINPUT : rc;
    }
    return 0;
}

static const char *const words[] = { "index.html", "news", "img", "about", "2013", "video",
                                     "docs", "a", "search", "en", "home.php", "blog" };

/* --rank: the names of the ranked list first, in rank order; the rest
 * after, in table order (pick holds the table's n indexes). */
static int rank_order(const lpm_ntable *tab, const char *rank, size_t *pick, lpm_err *err)
{
    size_t n = tab->n;
    lpm_nref *pos;
    int rc = lpm_nref_build(&pos, tab, err);
    if (rc)
        return rc;
    lpm_input *in;
    if ((rc = lpm_input_open(&in, rank, err))) {
        lpm_nref_free(pos);
        return rc;
    }
    char *line, norm[LPM_NAME_MAX + 1];
    size_t len, k = 0;
    uint8_t *taken = calloc(n, 1);
    size_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        lpm_nref_insert(pos, lpm_ntable_name(tab, i), tab->e[i].len, (uint32_t)i, NULL);
    while (taken && idx && lpm_input_getline(in, &line, &len, err) == 1) {
        const char *why;
        long nl = lpm_domain_to_name(line, len, norm, &why);
        if (nl < 0)
            continue;
        uint32_t i = lpm_nref_get(pos, norm, (size_t)nl);
        if (i != LPM_NM_NONE && !taken[i]) {
            taken[i] = 1;
            idx[k++] = i;
        }
    }
    for (size_t i = 0; taken && idx && i < n; i++)
        if (!taken[i])
            idx[k++] = i;
    if (taken && idx)
        memcpy(pick, idx, n * sizeof *pick);
    free(taken);
    free(idx);
    lpm_input_close(in);
    lpm_nref_free(pos);
    return 0;
}

/* --kind heavy: the longest 10% of pick[0..n) (ties: in pick order), a
 * stable counting sort; returns how many are kept at the front. */
static size_t keep_heavy(const lpm_ntable *tab, size_t *pick, size_t n)
{
    size_t cnt[LPM_NAME_MAX + 2] = { 0 }, m = (n + 9) / 10;
    for (size_t i = 0; i < n; i++)
        cnt[tab->e[i].len]++;
    size_t lim = 0, acc = 0;
    for (size_t l = LPM_NAME_MAX + 1; l-- > 0;) {
        acc += cnt[l];
        if (acc >= m) {
            lim = l;
            break;
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < n && k < m; i++)
        if (tab->e[pick[i]].len > lim)
            pick[k++] = pick[i];
    for (size_t i = 0; i < n && k < m; i++)
        if (tab->e[pick[i]].len == lim)
            pick[k++] = pick[i];
    return k;
}

/* The count lookups: a name drawn (Zipf over pick's order with cdf, else
 * uniform) and a path (from paths, or made of words) after it. */
static void draw(const lpm_ntable *tab, const lpm_ntrace_opts *o, const size_t *pick, size_t n, const double *cdf,
                 const lpm_ntable *paths, FILE *out)
{
    lpm_rng r;
    lpm_rng_seed(&r, o->seed);
    for (size_t q = 0; q < o->count; q++) {
        size_t i;
        if (cdf) {
            double u = lpm_rng_double(&r) * cdf[n - 1];
            size_t lo = 0, hi = n - 1;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (cdf[mid] > u)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            i = pick[lo];
        } else {
            i = pick[lpm_rng_below(&r, n)];
        }
        const char *nm = lpm_ntable_name(tab, i);
        size_t room = LPM_NAME_MAX - 1 - tab->e[i].len;
        fprintf(out, "/%s", nm);
        if (paths->n) {
            size_t p = lpm_rng_below(&r, paths->n);
            size_t pl = paths->e[p].len < room ? paths->e[p].len : 0;
            fprintf(out, "%.*s\n", (int)pl, lpm_ntable_name(paths, p));
        } else {
            unsigned depth = (unsigned)lpm_rng_below(&r, 4);
            for (unsigned d = 0; d < depth; d++)
                fprintf(out, "%s%s", d ? "/" : "", words[lpm_rng_below(&r, sizeof words / sizeof words[0])]);
            fputc('\n', out);
        }
    }
}

int lpm_ntrace_gen(const lpm_ntable *tab, const lpm_ntrace_opts *o, FILE *out, lpm_err *err)
{
    if (!tab->n)
        return lpm_err_set(err, LPM_EINPUT, "the table is empty: no names to draw from");
    lpm_ntable paths;
    lpm_ntable_init(&paths);
    int rc = 0;
    if (o->paths && (rc = load_paths(&paths, o->paths, err)))
        return rc;
    size_t n = tab->n, *pick = malloc(n * sizeof *pick);
    double *cdf = NULL;
    if (!pick) {
        rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        pick[i] = i;
    if (o->rank && (rc = rank_order(tab, o->rank, pick, err)))
        goto done;
    if (o->heavy)
        n = keep_heavy(tab, pick, n);
    if (o->zipf > 0) {
        cdf = malloc(n * sizeof *cdf);
        if (!cdf) {
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
            goto done;
        }
        double s = 0;
        for (size_t i = 0; i < n; i++)
            cdf[i] = s += 1.0 / pow((double)(i + 1), o->zipf);
    }
    draw(tab, o, pick, n, cdf, &paths, out);
    if (ferror(out))
        rc = lpm_err_set(err, LPM_EFAIL, "write error");
done:
    free(pick);
    free(cdf);
    lpm_ntable_free(&paths);
    return rc;
}

int lpm_ndomains_gen(size_t count, uint64_t seed, FILE *out)
{
    static const char *const tld[] = { "com", "net", "org", "cn", "ru", "de", "uk", "info", "edu", "io" };
    static const char *const sub[] = { "www", "mail", "blog", "shop", "news", "cdn", "m", "api" };
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    size_t sites = count / 3 + 1;
    for (size_t i = 0; i < count; i++) {
        /* Skewed site choice: many names share a few sites. */
        size_t s = (size_t)(sites * pow(lpm_rng_double(&r), 2.0));
        lpm_rng q;
        lpm_rng_seed(&q, seed ^ (s * 0x9E3779B97F4A7C15ULL));
        char label[24];
        unsigned ll = 3 + (unsigned)lpm_rng_below(&q, 12);
        for (unsigned k = 0; k < ll; k++)
            label[k] = "abcdefghijklmnopqrstuvwxyz0123456789-"[lpm_rng_below(&q, k && k + 1 < ll ? 37 : 36)];
        label[ll] = 0;
        const char *t = tld[lpm_rng_below(&q, sizeof tld / sizeof tld[0])];
        unsigned depth = (unsigned)lpm_rng_below(&r, 3);
        for (unsigned d = 0; d < depth; d++)
            fprintf(out, "%s%u.", sub[lpm_rng_below(&r, sizeof sub / sizeof sub[0])], (unsigned)lpm_rng_below(&r, 4));
        fprintf(out, "%s.%s\n", label, t);
    }
    return ferror(out) ? LPM_EFAIL : 0;
}
