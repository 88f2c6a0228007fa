/* Synthetic update traces against a table, and the writer of the
 * "time a|w prefix [nexthop]" format (docs/synthetic.md; the reader is
 * lpm_updates_load). The table itself is left unchanged: the generator
 * replays the updates on its own copy so that every withdrawal names a
 * prefix present at that moment. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "rng.h"
#include "trace.h"

/* Prefix -> its state: i >= 0 present at index i, -1 absent, -2 - j
 * withdrawn and at index j of the re-announcement pool. Entries are never
 * removed. */
typedef struct {
    lpm_prefix *key;
    long *val;
    size_t cap; /* power of two */
} pmap;

static uint64_t phash(const lpm_prefix *p)
{
    uint64_t h = p->addr.hi * 0x9E3779B97F4A7C15ULL ^ (p->addr.lo + p->len) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

static long *pmap_slot(pmap *m, const lpm_prefix *p, int insert)
{
    size_t i = phash(p) & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        if (m->key[i].family == 0) {
            if (!insert)
                return NULL;
            m->key[i] = *p;
            m->val[i] = -1;
            return &m->val[i];
        }
        if (m->key[i].len == p->len && lpm_addr_eq(&m->key[i].addr, &p->addr))
            return &m->val[i];
    }
}

typedef struct {
    lpm_prefix *present;
    size_t npresent;
    uint32_t *nh;          /* next hop of present[i] */
    lpm_prefix *gone;      /* withdrawn, candidates for re-announcement */
    size_t ngone;
    pmap map;
} state;

static void st_free(state *s)
{
    free(s->present);
    free(s->nh);
    free(s->gone);
    free(s->map.key);
    free(s->map.val);
}

/* Shares of the announcements (the rest are next-hop changes). */
#define SHARE_REANNOUNCE 0.3
#define SHARE_NEW 0.3

/* A prefix near present one p that is not present: a more specific of up
 * to 8 more bits, or p's sibling. Returns 0 when none was found. */
static int near_prefix(lpm_rng *r, const lpm_prefix *p, pmap *m, lpm_prefix *out)
{
    unsigned w = lpm_family_bits(p->family);
    unsigned minlen = p->family == LPM_AF_INET ? 8 : 16;
    for (int tries = 0; tries < 8; tries++) {
        lpm_prefix q = *p;
        if (lpm_rng_below(r, 3) && p->len < w) { /* a more specific */
            unsigned extra = 1 + (unsigned)lpm_rng_below(r, 8);
            if (p->len + extra > w)
                extra = w - p->len;
            for (unsigned i = 0; i < extra; i++)
                lpm_addr_set_bit(&q.addr, p->len + i, (unsigned)(lpm_rng_next(r) >> 63));
            q.len = (uint8_t)(p->len + extra);
        } else if (p->len > minlen) { /* the sibling */
            lpm_addr_set_bit(&q.addr, p->len - 1u, !lpm_addr_bit(&p->addr, p->len - 1u));
        } else {
            continue;
        }
        long *v = pmap_slot(m, &q, 0);
        if (!v || *v < 0) {
            *out = q;
            return 1;
        }
    }
    return 0;
}

static void add_present(state *s, const lpm_prefix *p, uint32_t nh)
{
    long *v = pmap_slot(&s->map, p, 1);
    *v = (long)s->npresent;
    s->present[s->npresent] = *p;
    s->nh[s->npresent++] = nh;
}

/* Takes pool entry j out of the re-announcement pool. */
static void unpool(state *s, size_t j)
{
    s->ngone--;
    if (j != s->ngone) {
        s->gone[j] = s->gone[s->ngone];
        *pmap_slot(&s->map, &s->gone[j], 0) = -2 - (long)j;
    }
}

static void withdraw(state *s, size_t i)
{
    *pmap_slot(&s->map, &s->present[i], 0) = -2 - (long)s->ngone;
    s->gone[s->ngone++] = s->present[i];
    s->npresent--;
    if (i != s->npresent) {
        s->present[i] = s->present[s->npresent];
        s->nh[i] = s->nh[s->npresent];
        *pmap_slot(&s->map, &s->present[i], 0) = (long)i;
    }
}

int lpm_updates_gen(lpm_fib *fib, size_t n, double withdraw_share, uint64_t seed,
                    lpm_update **out, lpm_err *err)
{
    *out = NULL;
    if (fib->n == 0 || fib->nh.n == 0)
        return lpm_err_set(err, LPM_EINPUT, "updates: the table is empty");
    if (!(withdraw_share >= 0 && withdraw_share <= 1))
        return lpm_err_set(err, LPM_EINPUT, "updates: withdraw share %g is not in 0..1", withdraw_share);
    if (n > LPM_UPDATES_MAX_COUNT)
        return lpm_err_set(err, LPM_EINPUT, "updates: count %zu is more than %u", n, LPM_UPDATES_MAX_COUNT);
    state s = { 0 };
    size_t room = fib->n + n + 1;
    s.map.cap = 16;
    while (s.map.cap < 2 * room)
        s.map.cap *= 2;
    s.present = malloc(room * sizeof *s.present);
    s.nh = malloc(room * sizeof *s.nh);
    s.gone = malloc(room * sizeof *s.gone);
    s.map.key = calloc(s.map.cap, sizeof *s.map.key);
    s.map.val = malloc(s.map.cap * sizeof *s.map.val);
    lpm_update *u = malloc((n ? n : 1) * sizeof *u);
    if (!s.present || !s.nh || !s.gone || !s.map.key || !s.map.val || !u) {
        st_free(&s);
        free(u);
        return lpm_err_set(err, LPM_EFAIL, "updates: out of memory");
    }
    for (size_t i = 0; i < fib->n; i++)
        add_present(&s, &fib->routes[i].pfx, fib->routes[i].nh);

    lpm_rng r;
    lpm_rng_seed(&r, seed ^ 0x757064617465ULL);
    uint32_t nnh = (uint32_t)fib->nh.n;
    double t = 0;
    for (size_t k = 0; k < n; k++) {
        /* Poisson arrivals, 1000 updates/s on average, microsecond ticks. */
        t += -log(1.0 - lpm_rng_double(&r)) * 1e-3;
        lpm_update *x = &u[k];
        x->time = floor(t * 1e6) / 1e6;
        if (s.npresent && lpm_rng_double(&r) < withdraw_share) {
            size_t i = lpm_rng_below(&r, s.npresent);
            x->op = 'w';
            x->pfx = s.present[i];
            x->nh = LPM_NH_NONE;
            withdraw(&s, i);
            continue;
        }
        x->op = 'a';
        double c = lpm_rng_double(&r);
        if (c < SHARE_REANNOUNCE && s.ngone) {
            size_t j = lpm_rng_below(&r, s.ngone);
            x->pfx = s.gone[j];
            unpool(&s, j);
            x->nh = (uint32_t)lpm_rng_below(&r, nnh);
            add_present(&s, &x->pfx, x->nh);
            continue;
        }
        if (s.npresent == 0) { /* everything withdrawn and nothing to re-announce */
            x->pfx = fib->routes[lpm_rng_below(&r, fib->n)].pfx;
            x->nh = (uint32_t)lpm_rng_below(&r, nnh);
            long v = *pmap_slot(&s.map, &x->pfx, 1);
            if (v <= -2)
                unpool(&s, (size_t)(-2 - v));
            add_present(&s, &x->pfx, x->nh);
            continue;
        }
        size_t i = lpm_rng_below(&r, s.npresent);
        lpm_prefix q;
        if (c < SHARE_REANNOUNCE + SHARE_NEW && near_prefix(&r, &s.present[i], &s.map, &q)) {
            /* A new route mostly leaves by its neighbour's exit. */
            x->pfx = q;
            x->nh = lpm_rng_below(&r, 2) ? s.nh[i] : (uint32_t)lpm_rng_below(&r, nnh);
            long v = *pmap_slot(&s.map, &q, 1);
            if (v <= -2) /* a withdrawn one found as "near": it is back */
                unpool(&s, (size_t)(-2 - v));
            add_present(&s, &q, x->nh);
            continue;
        }
        /* Next-hop change of a present route (to another hop when there is
         * one). */
        uint32_t nh = (uint32_t)lpm_rng_below(&r, nnh);
        if (nnh > 1 && nh == s.nh[i])
            nh = (nh + 1 + (uint32_t)lpm_rng_below(&r, nnh - 1)) % nnh;
        x->pfx = s.present[i];
        x->nh = nh;
        s.nh[i] = nh;
    }
    st_free(&s);
    *out = u;
    return LPM_OK;
}

int lpm_updates_write(const char *path, const lpm_fib *fib, const lpm_update *u, size_t n, lpm_err *err)
{
    int to_stdout = !strcmp(path, "-");
    FILE *fp;
    int orc = lpm_output_open(&fp, path, "w", err);
    if (orc)
        return orc;
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        char p[LPM_ADDR_STRLEN + 8];
        lpm_prefix_format(&u[i].pfx, p, sizeof p);
        if (u[i].op == 'w')
            bad = fprintf(fp, "%.6f w %s\n", u[i].time, p) < 0;
        else
            bad = fprintf(fp, "%.6f a %s %s\n", u[i].time, p, lpm_nhtab_name(&fib->nh, u[i].nh)) < 0;
    }
    if (to_stdout)
        bad |= fflush(fp) != 0;
    else
        bad |= fclose(fp) != 0;
    if (bad)
        return lpm_err_set(err, LPM_EFAIL, "%s: write error: %s", to_stdout ? "<stdout>" : path, strerror(errno));
    return LPM_OK;
}
