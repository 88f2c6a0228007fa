/* The simulator's speed limit (issue 11): a plain K-way interleaved walk
 * of a unibit (binary) trie of the same table. Nodes in one flat array of
 * {two child indices, next hop}; K lookups in flight, round robin, one node
 * read each per turn, the next node prefetched; a finished lookup is
 * replaced at once. It reads about one word per key bit (24 for a full IPv4
 * table against the image's 4-6), so it is a memory-bound limit that needs
 * no cycle model. make bench sets lpmpipe sim's lookups/s against it. */
#include <stdlib.h>

#include "../core/trie_unibit.h"
#include "sim.h"

typedef struct {
    uint32_t child[2];
    uint32_t nh;
} walk_node;

typedef struct {
    lpm_addr key;
    uint32_t node, best;
    unsigned bit;
    int live;
} walk_slot;

/* The unibit trie of f as a flat node array (node 0: the root). */
static int flat_trie(const lpm_fib *f, walk_node **out, lpm_err *err)
{
    lpm_unibit t;
    int rc = lpm_unibit_build(&t, f, err); /* initialises t; frees it on failure */
    if (rc)
        return rc;
    walk_node *n = malloc((t.n ? t.n : 1) * sizeof *n);
    if (!n) {
        lpm_unibit_free(&t);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    for (size_t i = 0; i < t.n; i++) {
        n[i].child[0] = t.node[i].child[0];
        n[i].child[1] = t.node[i].child[1];
        n[i].nh = t.node[i].nh;
    }
    lpm_unibit_free(&t);
    *out = n;
    return LPM_OK;
}

int lpm_sim_walk_unibit(const lpm_fib *f, unsigned k, lpm_sim_source_fn src, void *src_ctx, uint64_t *lookups,
                        uint64_t *checksum, lpm_err *err)
{
    walk_node *node = NULL;
    int rc = flat_trie(f, &node, err);
    if (rc)
        return rc;
    walk_slot *s = calloc(k, sizeof *s);
    if (!s) {
        free(node);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    unsigned width = lpm_family_bits(f->family), active = 0;
    uint64_t n = 0, sum = 0;
    int done = 0;
    do {
        for (unsigned i = 0; i < k; i++) {
            walk_slot *w = &s[i];
            if (!w->live) {
                if (done)
                    continue;
                int got = src(src_ctx, &w->key, err);
                if (got < 0) {
                    rc = LPM_EINPUT;
                    goto out;
                }
                if (got == 0) {
                    done = 1;
                    continue;
                }
                w->node = 0;
                w->best = LPM_NH_NONE;
                w->bit = 0;
                w->live = 1;
                active++;
            }
            const walk_node *x = &node[w->node];
            if (x->nh != LPM_NH_NONE)
                w->best = x->nh;
            uint32_t next = w->bit < width ? x->child[lpm_addr_bit(&w->key, w->bit)] : 0;
            if (next) {
                __builtin_prefetch(&node[next]);
                w->node = next;
                w->bit++;
            } else {
                sum += w->best;
                n++;
                w->live = 0;
                active--;
            }
        }
    } while (!done || active);
out:
    *lookups = n;
    *checksum = sum;
    free(s);
    free(node);
    return rc;
}
