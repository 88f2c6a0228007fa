/* Per-peer route collection and replay for RIB and update formats. */
#include "fib_rib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fib_readers.h"

int lpm_rib_init(lpm_rib *r, const lpm_fib_opts *o, lpm_err *err)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    lpm_nhtab_init(&r->nh);
    if (o->peer_addr) {
        lpm_err e;
        if (lpm_addr_parse(o->peer_addr, &r->sel_family, &r->sel_addr, &e))
            return lpm_err_set(err, LPM_EINPUT, "--peer: %s", e.msg);
    }
    return LPM_OK;
}

void lpm_rib_free(lpm_rib *r)
{
    free(r->ev);
    free(r->peer);
    lpm_nhtab_free(&r->nh);
    memset(r, 0, sizeof *r);
}

uint32_t lpm_rib_peer_id(lpm_rib *r, const lpm_addr *a, int family, uint32_t as)
{
    if (r->last_peer < r->npeers) {
        lpm_rib_peer *p = &r->peer[r->last_peer];
        if (p->as == as && p->family == family && lpm_addr_eq(&p->addr, a))
            return (uint32_t)r->last_peer;
    }
    for (size_t i = 0; i < r->npeers; i++) {
        lpm_rib_peer *p = &r->peer[i];
        if (p->as == as && p->family == family && lpm_addr_eq(&p->addr, a)) {
            r->last_peer = i;
            return (uint32_t)i;
        }
    }
    if (r->npeers == r->peercap) {
        size_t nc = r->peercap ? r->peercap * 2 : 16;
        lpm_rib_peer *np = realloc(r->peer, nc * sizeof *np);
        if (!np)
            return UINT32_MAX;
        r->peer = np;
        r->peercap = nc;
    }
    lpm_rib_peer *p = &r->peer[r->npeers];
    memset(p, 0, sizeof *p);
    p->addr = *a;
    p->family = (uint8_t)family;
    p->as = as;
    p->match = (!r->sel_family || (r->sel_family == family && lpm_addr_eq(&r->sel_addr, a))) &&
               (r->o->peer_as < 0 || (uint32_t)r->o->peer_as == as);
    r->last_peer = r->npeers;
    return (uint32_t)r->npeers++;
}

int lpm_rib_add(lpm_rib *r, uint32_t peer, const lpm_prefix *p, const char *nh,
                size_t nhlen, int withdraw, unsigned long line, lpm_err *err)
{
    if (r->o->family && p->family != r->o->family) {
        r->skipped++;
        return LPM_OK;
    }
    lpm_rib_peer *pe = &r->peer[peer];
    if (!pe->match)
        return LPM_OK;
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 4096;
        lpm_rib_ev *ne = realloc(r->ev, nc * sizeof *ne);
        if (!ne)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        r->ev = ne;
        r->cap = nc;
    }
    uint32_t id = LPM_NH_NONE;
    if (!withdraw) {
        char lab[16];
        if (!nh)
            nh = lpm_fib_missing_nh(r->o, p, lab, &nhlen);
        id = lpm_nhtab_intern(&r->nh, nh, nhlen);
        if (id == LPM_NH_NONE)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    if (!pe->has_routes) {
        pe->has_routes = 1;
        pe->first = r->n;
    }
    lpm_rib_ev *e = &r->ev[r->n];
    e->pfx = *p;
    e->nh = id;
    e->peer = peer;
    e->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    e->seq = (uint32_t)r->n;
    r->n++;
    return LPM_OK;
}

/* "name:line: why", or for MRT "name: offset N: record R: why"; line 0
 * with whole set: the file as a whole ("name: R records: why"). */
static int at(const lpm_rib *r, lpm_err *err, int code, const char *name, unsigned long line, int whole,
              const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static int at(const lpm_rib *r, lpm_err *err, int code, const char *name, unsigned long line, int whole,
              const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (!r->rec_off)
        return lpm_err_at(err, code, name, line, "%s", why);
    if (whole || line == 0 || line > r->nrec)
        return lpm_err_set(err, code, "%s: %lu records: %s", name, line, why);
    return lpm_err_set(err, code, "%s: offset %llu: record %lu: %s", name, (unsigned long long)r->rec_off[line - 1], line,
                       why);
}

static int cmp_ev(const void *a, const void *b)
{
    const lpm_rib_ev *x = a, *y = b;
    if (x->peer != y->peer)
        return x->peer < y->peer ? -1 : 1;
    if (x->pfx.family != y->pfx.family)
        return x->pfx.family < y->pfx.family ? -1 : 1;
    int c = lpm_addr_cmp(&x->pfx.addr, &y->pfx.addr);
    if (c)
        return c;
    if (x->pfx.len != y->pfx.len)
        return x->pfx.len < y->pfx.len ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static int same_prefix(const lpm_rib_ev *a, const lpm_rib_ev *b)
{
    return a->peer == b->peer && a->pfx.len == b->pfx.len && a->pfx.family == b->pfx.family &&
           lpm_addr_eq(&a->pfx.addr, &b->pfx.addr);
}

static void peer_name(const lpm_rib_peer *p, char *buf, size_t size)
{
    char a[LPM_ADDR_STRLEN];
    lpm_addr_format(&p->addr, p->family, a, sizeof a);
    snprintf(buf, size, "%s AS%u", a, p->as);
}

/* "no routes from the selected peer" lists what the file has. */
static int no_peer(lpm_rib *r, const char *name, unsigned long lastline, lpm_err *err)
{
    char list[300] = "";
    size_t k = 0, shown = 0;
    for (size_t i = 0; i < r->npeers && k + 60 < sizeof list; i++) {
        char pn[LPM_ADDR_STRLEN + 16];
        peer_name(&r->peer[i], pn, sizeof pn);
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", shown++ ? ", " : "", pn);
    }
    if (shown < r->npeers)
        snprintf(list + k, sizeof list - k, ", ...");
    char sel[160] = "";
    if (r->o->peer_addr)
        snprintf(sel, sizeof sel, "%s", r->o->peer_addr);
    if (r->o->peer_as >= 0)
        snprintf(sel + strlen(sel), sizeof sel - strlen(sel), "%sAS%ld", *sel ? " " : "", r->o->peer_as);
    return at(r, err, LPM_EINPUT, name, lastline, 1, "no routes from peer %s (peers with routes: %s)",
                      sel, r->npeers ? list : "none");
}

int lpm_rib_finish(lpm_rib *r, lpm_fib *f, const char *name, unsigned long lastline, lpm_err *err)
{
    f->skipped += r->skipped;
    int selected = r->o->peer_addr || r->o->peer_as >= 0;
    if (r->n == 0)
        return selected && r->npeers ? no_peer(r, name, lastline, err) : LPM_OK;
    qsort(r->ev, r->n, sizeof *r->ev, cmp_ev);
    /* Replay: the last event of each (peer, prefix) decides. */
    for (size_t i = 0; i < r->n;) {
        size_t j = i;
        while (j + 1 < r->n && same_prefix(&r->ev[j + 1], &r->ev[i]))
            j++;
        if (r->ev[j].nh != LPM_NH_NONE)
            r->peer[r->ev[j].peer].count++;
        i = j + 1;
    }
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < r->npeers; i++) {
        lpm_rib_peer *p = &r->peer[i];
        if (!p->has_routes)
            continue;
        if (best == SIZE_MAX || p->count > r->peer[best].count ||
            (p->count == r->peer[best].count && p->first < r->peer[best].first))
            best = i;
    }
    if (best == SIZE_MAX)
        return no_peer(r, name, lastline, err);
    if (selected || r->npeers > 1)
        peer_name(&r->peer[best], f->peer, sizeof f->peer);
    /* The table's family is the one of the peer's first route in the file. */
    const lpm_rib_ev *first[7] = { 0 };
    for (size_t i = 0; i < r->n; i++) {
        const lpm_rib_ev *e = &r->ev[i];
        if (e->peer != best || e->nh == LPM_NH_NONE)
            continue;
        if (!first[e->pfx.family] || e->seq < first[e->pfx.family]->seq)
            first[e->pfx.family] = e;
    }
    if (first[4] && first[6]) {
        const lpm_rib_ev *other = first[4]->seq < first[6]->seq ? first[6] : first[4];
        int fam = other == first[6] ? 4 : 6;
        return at(r, err, LPM_EINPUT, name, other->line, 0,
                          "mixed address families: an IPv%d prefix in an IPv%d table (use --family to keep one)",
                          other->pfx.family, fam);
    }
    for (size_t i = 0; i < r->n;) {
        size_t j = i, announced = 0;
        if (r->ev[i].peer != best) {
            i++;
            continue;
        }
        for (;;) {
            announced += r->ev[j].nh != LPM_NH_NONE;
            if (j + 1 < r->n && same_prefix(&r->ev[j + 1], &r->ev[i]))
                j++;
            else
                break;
        }
        if (announced > 1)
            f->duplicates += announced - 1;
        const lpm_rib_ev *e = &r->ev[j];
        if (e->nh != LPM_NH_NONE) {
            const char *tok = lpm_nhtab_name(&r->nh, e->nh);
            lpm_err ee;
            int rc = lpm_fib_add_tok(f, &e->pfx, tok, strlen(tok), &ee);
            if (rc)
                return at(r, err, rc, name, e->line, 0, "%s", ee.msg);
        }
        i = j + 1;
    }
    return LPM_OK;
}
