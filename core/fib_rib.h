/* Internal: collects the routes of RIB and update formats (bgpdump text,
 * MRT) per peer, then picks one peer and replays its announcements and
 * withdrawals in file order into a FIB. Shared so that both readers make
 * the same choices (docs/formats.md, "Peers"). */
#ifndef LPM_FIB_RIB_H
#define LPM_FIB_RIB_H

#include "fib.h"

typedef struct lpm_rib_ev {
    lpm_prefix pfx;
    uint32_t nh;      /* index into rib->nh; LPM_NH_NONE: withdrawal */
    uint32_t peer;
    uint32_t line;    /* line or record number, for messages */
    uint32_t seq;     /* position in the file: later wins */
} lpm_rib_ev;

typedef struct lpm_rib_peer {
    lpm_addr addr;
    uint32_t as;
    uint8_t family;
    uint8_t match;     /* allowed by --peer / --peer-as */
    size_t count;      /* prefixes after replay */
    size_t first;      /* seq of its first route (ties go to the earlier) */
    int has_routes;
} lpm_rib_peer;

typedef struct lpm_rib {
    const lpm_fib_opts *o;
    lpm_rib_ev *ev;
    size_t n, cap;
    lpm_rib_peer *peer;
    size_t npeers, peercap;
    size_t last_peer;  /* lookup cache: records of one peer come in runs */
    lpm_nhtab nh;
    lpm_addr sel_addr;
    int sel_family;    /* 0: no --peer */
    size_t skipped;    /* routes of the other family, bad lines/records */
    /* MRT: byte offset of record i + 1 (lines are record numbers then, and
     * messages say "file: offset N: record R"); NULL for text. */
    const uint64_t *rec_off;
    size_t nrec;
} lpm_rib;

/* Checks o->peer_addr. err gets "--peer: reason". */
int lpm_rib_init(lpm_rib *r, const lpm_fib_opts *o, lpm_err *err);
void lpm_rib_free(lpm_rib *r);

/* Index of the peer (address, family, AS), registered on first use;
 * UINT32_MAX on no memory. */
uint32_t lpm_rib_peer_id(lpm_rib *r, const lpm_addr *a, int family, uint32_t as);

/* Records an announcement (nh token, NULL for none: the synthesized label)
 * or a withdrawal (withdraw != 0). Routes of another family than
 * o->family are counted as skipped; routes of unselected peers dropped. */
int lpm_rib_add(lpm_rib *r, uint32_t peer, const lpm_prefix *p, const char *nh,
                size_t nhlen, int withdraw, unsigned long line, lpm_err *err);

/* Chooses the peer, replays its routes into f (not finished; duplicates
 * and skipped counted, f->peer named when the file had several peers or a
 * selection was given). Errors are "name:line: reason" (MRT: "name: offset
 * N: record R: reason"); lastline is used for whole-file errors (MRT:
 * "name: R records: reason"). */
int lpm_rib_finish(lpm_rib *r, lpm_fib *f, const char *name, unsigned long lastline, lpm_err *err);

#endif
