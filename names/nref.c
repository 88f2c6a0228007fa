#include "nref.h"

#include <stdlib.h>
#include <string.h>

#include "nstep.h"

typedef struct {
    uint64_t h;
    char *s;     /* NULL: empty slot */
    uint32_t len, port;
} slot;

struct lpm_nref {
    slot *t;
    size_t cap, n, tombs; /* cap a power of two */
    size_t bytes;
};

static const char tomb[1];

static size_t find(const lpm_nref *r, uint64_t h, const char *s, size_t len)
{
    size_t m = r->cap - 1, i = (size_t)h & m;
    while (r->t[i].s) {
        if (r->t[i].s != tomb && r->t[i].h == h && r->t[i].len == len && !memcmp(r->t[i].s, s, len))
            return i;
        i = (i + 1) & m;
    }
    return SIZE_MAX;
}

static int grow(lpm_nref *r)
{
    size_t nc = r->cap ? r->cap * 2 : 1024;
    slot *nt = calloc(nc, sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < r->cap; i++) {
        slot *o = &r->t[i];
        if (!o->s || o->s == tomb)
            continue;
        size_t j = (size_t)o->h & (nc - 1);
        while (nt[j].s)
            j = (j + 1) & (nc - 1);
        nt[j] = *o;
    }
    free(r->t);
    r->t = nt;
    r->cap = nc;
    r->tombs = 0;
    return 0;
}

int lpm_nref_insert(lpm_nref *r, const char *s, size_t len, uint32_t port, lpm_err *err)
{
    uint64_t h = lpm_name_fnv(s, len);
    if (r->cap) {
        size_t i = find(r, h, s, len);
        if (i != SIZE_MAX) {
            r->t[i].port = port;
            return 0;
        }
    }
    if ((r->n + r->tombs + 1) * 2 > r->cap) {
        if (grow(r))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    char *c = malloc(len + 1);
    if (!c)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    memcpy(c, s, len);
    c[len] = 0;
    size_t i = (size_t)h & (r->cap - 1);
    while (r->t[i].s && r->t[i].s != tomb)
        i = (i + 1) & (r->cap - 1);
    r->t[i] = (slot){ h, c, (uint32_t)len, port };
    r->n++;
    r->bytes += len + 1;
    return 0;
}

int lpm_nref_delete(lpm_nref *r, const char *s, size_t len)
{
    if (!r->cap)
        return 0;
    size_t i = find(r, lpm_name_fnv(s, len), s, len);
    if (i == SIZE_MAX)
        return 0;
    free(r->t[i].s);
    r->t[i].s = (char *)tomb;
    r->tombs++;
    r->n--;
    r->bytes -= len + 1;
    return 1;
}

uint32_t lpm_nref_get(const lpm_nref *r, const char *s, size_t len)
{
    if (!r->cap)
        return LPM_NM_NONE;
    size_t i = find(r, lpm_name_fnv(s, len), s, len);
    return i == SIZE_MAX ? LPM_NM_NONE : r->t[i].port;
}

int lpm_nref_build(lpm_nref **out, const lpm_ntable *t, lpm_err *err)
{
    lpm_nref *r = calloc(1, sizeof *r);
    if (!r)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < t->n; i++) {
        int rc = lpm_nref_insert(r, lpm_ntable_name(t, i), t->e[i].len, t->e[i].port, err);
        if (rc) {
            lpm_nref_free(r);
            return rc;
        }
    }
    *out = r;
    return 0;
}

void lpm_nref_free(lpm_nref *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->cap; i++)
        if (r->t[i].s && r->t[i].s != tomb)
            free(r->t[i].s);
    free(r->t);
    free(r);
}

/* Hashes of every component prefix in one pass, then probes from the
 * longest. */
static long match(const lpm_nref *r, const char *s, size_t len, uint32_t *port)
{
    *port = LPM_NM_NONE;
    if (!r->cap)
        return -1;
    uint64_t hs[LPM_NAME_MAX / 2 + 2];
    size_t ends[LPM_NAME_MAX / 2 + 2], k = 0;
    uint64_t h = 0xcbf29ce484222325ULL;
    hs[k] = h;
    ends[k++] = 0;
    for (size_t i = 0; i < len && k < sizeof hs / sizeof hs[0]; i++) {
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
        if (s[i] == '/') {
            hs[k] = h;
            ends[k++] = i + 1;
        }
    }
    while (k--) {
        size_t i = find(r, hs[k], s, ends[k]);
        if (i != SIZE_MAX) {
            *port = r->t[i].port;
            return (long)ends[k];
        }
    }
    return -1;
}

uint32_t lpm_nref_lookup(const lpm_nref *r, const char *s, size_t len)
{
    uint32_t p;
    match(r, s, len, &p);
    return p;
}

long lpm_nref_match_len(const lpm_nref *r, const char *s, size_t len)
{
    uint32_t p;
    return match(r, s, len, &p);
}

size_t lpm_nref_count(const lpm_nref *r)
{
    return r->n;
}

size_t lpm_nref_mem(const lpm_nref *r)
{
    return r->cap * sizeof(slot) + r->bytes;
}
