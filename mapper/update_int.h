/* The updater's state, shared by update.c (table changes -> words),
 * update_words.c (word state, below the others), update_height.c,
 * update_pack.c (writes -> bubbles) and update_rebuild.c (a rebuild into
 * the shadow copy). Addresses are absolute (a word of copy c of stage s
 * is at c * depth[s] + offset); the updater always edits the active copy. */
#ifndef LPM_UPDATE_INT_H
#define LPM_UPDATE_INT_H

#include "../core/ref_lpm.h"
#include "image_int.h"
#include "map.h"
#include "update.h"

struct lpm_upd {
    lpm_image *img;
    lpm_upd_opts o;
    uint8_t *dplen;                         /* DIT (every copy): length + 1 of the prefix behind nh */
    uint8_t *plen[LPM_IMAGE_MAX_STAGES];    /* per word (every copy), the same */
    lpm_ref *ref;                           /* the current table */
    lpm_prefix *chg;                        /* prefixes changed since the route section */
    size_t nchg, capchg;
    lpm_write *w;
    size_t nw, capw;
    size_t commit_from;                     /* writes [commit_from, nw) are reachable */
    lpm_write *undo;                        /* this update's words as they were (to take back) */
    size_t nundo, capundo;
    uint32_t used_before[LPM_IMAGE_MAX_STAGES];
    lpm_bubble *b;
    size_t nb, capb;
    uint64_t *bmask;                        /* per bubble: stages taken (4 x 64 bits + DIT) */
    size_t capm;
    int reason;
    double base_ratio;                      /* fullest/mean right after the last build */
    lpm_image *pending;                     /* a new mapping made by lpm_upd_remap_fits */
    unsigned pending_turn;
    lpm_upd_stats st;
};

static inline unsigned lpm_upd_next_stage(const lpm_image *img, unsigned s)
{
    s++;
    return img->ring && s == img->stages ? 0 : s;
}

/* Fullest stage over the mean (used words). */
double lpm_upd_ratio(const lpm_image *img);

/* The walk of address a down to the block that holds prefix length L. */
typedef struct lpm_upd_walk_t {
    int found;          /* 1: the block holding length L */
    unsigned stage;     /* found: the block's stage; else the parent's (or DIT) */
    uint32_t base;      /* found: block base; else the parent word (or DIT index) */
    unsigned b;         /* key bits consumed before the block (found) or below the parent */
} lpm_upd_walk_t;
void lpm_upd_walk(const lpm_image *img, const lpm_addr *a, unsigned L, lpm_upd_walk_t *r);

/* Which prefix length set each word's next hop, for the active copy. */
int lpm_upd_plen_build(lpm_upd *u, lpm_err *err);
void lpm_upd_plen_free(lpm_upd *u);

/* Writes one word (stage LPM_IMAGE_DIT: a DIT entry) of the image and keeps
 * the old one, so that an update ending in a rebuild can be taken back;
 * -1 on no memory. It does not record a bubble write. */
int lpm_upd_set_word(lpm_upd *u, uint32_t stage, uint32_t addr, uint64_t v);

/* Height mapping, a new prefix whose chain does not fit below its parent
 * (leaves sit in the last stage): the lowest blocks of its path are copied
 * into earlier stages, the chain follows them, and one write links the
 * copies in. Returns 0, a rebuild reason, or -1 on no memory. */
int lpm_upd_height_chain(lpm_upd *u, const lpm_prefix *p, uint32_t nh);

/* Room for one more element in a doubling array; -1 on no memory. */
int lpm_upd_room(void **p, size_t n, size_t *cap, size_t elem);
int lpm_upd_add_write(lpm_upd *u, uint32_t stage, uint32_t addr, uint64_t word);

/* An ordinary update's writes into bubbles: head-room writes first (each
 * into the first bubble whose stage is free), the reachable ones
 * (commit_from on) never before them; a DIT commit in a ring alone in a
 * drain bubble. -1 on no memory. */
int lpm_upd_pack(lpm_upd *u);

/* A rebuild: the new table into the inactive copy (shadow) as bubbles
 * ending in the swap, or (one copy) reloaded in place. */
int lpm_upd_rebuild(lpm_upd *u, int reason, lpm_err *err);
/* Maps the current table again on this hardware: 1 it fits (kept for the
 * next lpm_upd_rebuild), 0 it does not, -1 another failure. */
int lpm_upd_remap_fits(lpm_upd *u, lpm_err *err);

#endif
