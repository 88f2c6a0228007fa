/* The character trie (d = 1) and its multi-stride form (d up to 4): the
 * control plane every aligned array is built from and updated through.
 * An edge reads a chunk of up to stride(node) characters, a '/' always ending
 * it (see nstep.h for the input number y). Children are a doubly linked
 * sibling list; removed nodes are recycled. */
#ifndef LPM_NTRIE_H
#define LPM_NTRIE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "ntable.h"

#define LPM_NTRIE_FANOUT_DEFAULT 8 /* build: a node's stride shrinks until its fanout fits */

typedef struct lpm_nnode {
    uint32_t parent, child, next, prev; /* LPM_NM_NONE when absent */
    uint32_t nchild;
    uint32_t y;    /* input number of the edge from the parent */
    uint32_t port; /* LPM_NM_NONE: not accepting */
    uint32_t sid;  /* state id in an aligned array (its owner's business) */
    uint8_t stride, live;
    uint16_t pad;
} lpm_nnode;

typedef struct lpm_ntrie {
    lpm_nnode *v;
    uint32_t n, cap; /* slots used (live and free) */
    uint32_t free_head, live;
    unsigned d, fanout_max;
} lpm_ntrie;

int lpm_ntrie_init(lpm_ntrie *t, unsigned d, lpm_err *err);
void lpm_ntrie_free(lpm_ntrie *t);
/* Builds from a sorted table (lpm_ntable_sort). Node 0 is the root. A
 * node's stride is the largest s <= d that gives it at most fanout_max
 * children (stride 1 always fits): wide nodes read one character, the long
 * single-child chains read d. */
int lpm_ntrie_build(lpm_ntrie *t, const lpm_ntable *tab, unsigned d, unsigned fanout_max,
                    lpm_err *err);

/* Input number and length of the chunk of s at most stride long. */
uint32_t lpm_ntrie_chunk(const char *s, size_t len, unsigned stride, unsigned *clen);
uint32_t lpm_ntrie_child(const lpm_ntrie *t, uint32_t n, uint32_t y);
/* New child (stride t->d); LPM_NM_NONE when out of memory. */
uint32_t lpm_ntrie_add_child(lpm_ntrie *t, uint32_t n, uint32_t y, unsigned stride);
void lpm_ntrie_remove_leaf(lpm_ntrie *t, uint32_t c);

uint32_t lpm_ntrie_lookup(const lpm_ntrie *t, const char *s, size_t len);
/* Node of exactly s, or NONE. */
uint32_t lpm_ntrie_find(const lpm_ntrie *t, const char *s, size_t len);
/* Inserts (or replaces the port of) s. *first_new is the first node created
 * (NONE when s already had a node); returns s's node, NONE when out of
 * memory. */
uint32_t lpm_ntrie_insert(lpm_ntrie *t, const char *s, size_t len, uint32_t port,
                          uint32_t *first_new);
/* Removes s's port and prunes the nodes left useless (the paper's
 * backtracking); on_remove sees each node just before it goes. Returns 1
 * when s was in the table. */
int lpm_ntrie_delete(lpm_ntrie *t, const char *s, size_t len,
                     void (*on_unport)(void *, uint32_t), void (*on_remove)(void *, uint32_t),
                     void *ctx);

/* Bytes of the two-dimensional state transition table of this FSM:
 * states x 256 columns x 4 bytes (the paper's STT). */
uint64_t lpm_ntrie_stt_bytes(const lpm_ntrie *t);
size_t lpm_ntrie_mem(const lpm_ntrie *t);

#endif
