#include "nengine.h"

#include <string.h>

static const char *const names[] = { "ref", "trie", "ata", "mata" };

int lpm_nengine_kind(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

const char *lpm_nengine_name(lpm_ne_kind k)
{
    return names[k];
}

int lpm_nengine_build(lpm_nengine *e, lpm_ne_kind k, const lpm_ntable *t,
                      const lpm_naa_opts *o, lpm_err *err)
{
    memset(e, 0, sizeof *e);
    e->kind = k;
    lpm_naa_opts def;
    switch (k) {
    case LPM_NE_REF:
        return lpm_nref_build(&e->ref, t, err);
    case LPM_NE_TRIE:
        return lpm_ntrie_build(&e->trie, t, 1, 0, err);
    default:
        if (!o) {
            lpm_naa_default_opts(&def, k == LPM_NE_MATA);
            o = &def;
        } else if ((k == LPM_NE_MATA) != !!o->mata) {
            def = *o;
            def.mata = k == LPM_NE_MATA;
            o = &def;
        }
        return lpm_naa_build(&e->aa, t, o, err);
    }
}

void lpm_nengine_free(lpm_nengine *e)
{
    lpm_nref_free(e->ref);
    if (e->kind == LPM_NE_TRIE)
        lpm_ntrie_free(&e->trie);
    if (e->kind >= LPM_NE_ATA)
        lpm_naa_free(&e->aa);
    memset(e, 0, sizeof *e);
}

uint32_t lpm_nengine_lookup(const lpm_nengine *e, const char *s, size_t len)
{
    switch (e->kind) {
    case LPM_NE_REF:
        return lpm_nref_lookup(e->ref, s, len);
    case LPM_NE_TRIE:
        return lpm_ntrie_lookup(&e->trie, s, len);
    default:
        return lpm_naa_lookup(&e->aa, s, len);
    }
}

int lpm_nengine_insert(lpm_nengine *e, const char *s, size_t len, uint32_t port, lpm_err *err)
{
    uint32_t first;
    switch (e->kind) {
    case LPM_NE_REF:
        return lpm_nref_insert(e->ref, s, len, port, err);
    case LPM_NE_TRIE:
        return lpm_ntrie_insert(&e->trie, s, len, port, &first) == LPM_NM_NONE
                   ? lpm_err_set(err, LPM_EFAIL, "out of memory") : 0;
    default:
        return lpm_naa_insert(&e->aa, s, len, port, err);
    }
}

int lpm_nengine_delete(lpm_nengine *e, const char *s, size_t len)
{
    switch (e->kind) {
    case LPM_NE_REF:
        return lpm_nref_delete(e->ref, s, len);
    case LPM_NE_TRIE:
        return lpm_ntrie_delete(&e->trie, s, len, NULL, NULL, NULL);
    default:
        return lpm_naa_delete(&e->aa, s, len);
    }
}

uint64_t lpm_nengine_bytes(const lpm_nengine *e)
{
    switch (e->kind) {
    case LPM_NE_REF:
        return lpm_nref_mem(e->ref);
    case LPM_NE_TRIE:
        return lpm_ntrie_mem(&e->trie);
    default:
        return lpm_naa_bytes(&e->aa);
    }
}
