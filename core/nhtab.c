#include "nhtab.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

void lpm_nhtab_init(lpm_nhtab *t)
{
    memset(t, 0, sizeof *t);
}

void lpm_nhtab_free(lpm_nhtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->name[i]);
    free(t->name);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static size_t probe(const lpm_nhtab *t, const char *s, size_t n, int *found)
{
    size_t mask = t->nslots - 1;
    size_t i = (size_t)hash_bytes(s, n) & mask;
    for (;;) {
        uint32_t v = t->slot[i];
        if (v == UINT32_MAX) {
            *found = 0;
            return i;
        }
        if (strlen(t->name[v]) == n && memcmp(t->name[v], s, n) == 0) {
            *found = 1;
            return i;
        }
        i = (i + 1) & mask;
    }
}

static int grow(lpm_nhtab *t)
{
    size_t ns = t->nslots ? t->nslots * 2 : 64;
    uint32_t *slot = malloc(ns * sizeof *slot);
    if (!slot)
        return -1;
    memset(slot, 0xff, ns * sizeof *slot);
    free(t->slot);
    t->slot = slot;
    t->nslots = ns;
    for (size_t k = 0; k < t->n; k++) {
        int found;
        size_t i = probe(t, t->name[k], strlen(t->name[k]), &found);
        t->slot[i] = (uint32_t)k;
    }
    return 0;
}

uint32_t lpm_nhtab_find(const lpm_nhtab *t, const char *s, size_t n)
{
    if (!t->nslots)
        return LPM_NH_NONE;
    int found;
    size_t i = probe(t, s, n, &found);
    return found ? t->slot[i] : LPM_NH_NONE;
}

uint32_t lpm_nhtab_intern(lpm_nhtab *t, const char *s, size_t n)
{
    if ((t->n + 1) * 2 > t->nslots && grow(t))
        return LPM_NH_NONE;
    int found;
    size_t i = probe(t, s, n, &found);
    if (found)
        return t->slot[i];
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 64;
        char **nn = realloc(t->name, nc * sizeof *nn);
        if (!nn)
            return LPM_NH_NONE;
        t->name = nn;
        t->cap = nc;
    }
    char *c = malloc(n + 1);
    if (!c)
        return LPM_NH_NONE;
    memcpy(c, s, n);
    c[n] = '\0';
    t->name[t->n] = c;
    t->slot[i] = (uint32_t)t->n;
    return (uint32_t)t->n++;
}
