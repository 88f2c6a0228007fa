/* The DPDK peer (cpu/peer.h): rte_lpm, rte_lpm6, rte_fib, rte_fib6, each
 * through every lookup path DPDK offers for it. */
/* rte_vect_{get,set}_max_simd_bitwidth are still "experimental" in 22.11. */
#define ALLOW_EXPERIMENTAL_API 1

#include "../peer.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_cpuflags.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_memory.h>
#include <rte_vect.h>

/* How a path calls DPDK. */
enum { CALL_LPM_BULK, CALL_LPM_X4, CALL_LPM6_BULK, CALL_FIB_BULK, CALL_FIB6_BULK };

typedef struct peer_path {
    char name[48];
    int call;
    unsigned chunk;      /* keys per call */
    int fib_type;        /* the rte_fib(6)_select_lookup type */
    char why[96];        /* "": available */
} peer_path;

#define MAX_PATHS 6

int lpm_peer_built(void)
{
    return 1;
}

struct lpm_peer {
    int kind, family;
    char name[48];
    struct rte_lpm *lpm;
    struct rte_lpm6 *lpm6;
    struct rte_fib *fib;
    struct rte_fib6 *fib6;
    size_t memory;
    peer_path path[MAX_PATHS];
    unsigned npaths, cur;
    uint32_t dflt;          /* the default route's next hop, LPM_NH_NONE: none */
    size_t n;
    uint32_t *ip4;          /* prepared keys */
    uint8_t (*ip6)[16];
    uint32_t *res32;        /* raw answers */
    int32_t *res6;
    uint64_t *res64;
};

#define FIB_NONE ((1u << 30) - 1)   /* rte_fib default next hop = no route */

/* EAL can start once per process: this flag is the one piece of global
 * state, and DPDK's own state is global anyway. */
static int eal_state; /* 0: not tried, 1: up, -1: failed */
static unsigned peer_seq;

/* Without huge pages EAL's memory is plain anonymous memory: ask for
 * transparent huge pages on it, as our engines do for their big tables,
 * so neither side is handicapped by TLB misses. */
static int thp_advise(const struct rte_memseg_list *msl, void *arg)
{
    (void)arg;
    if (msl->base_va && msl->len)
        madvise(msl->base_va, msl->len, MADV_HUGEPAGE);
    return 0;
}

static int eal_up(lpm_err *err)
{
    if (eal_state == 0) {
        /* EAL pins the calling thread to lcore 0; give it its CPUs back so
         * threads started later (run-to-complete) spread as before. */
        cpu_set_t saved;
        pthread_getaffinity_np(pthread_self(), sizeof saved, &saved);
        char *argv[] = { "lpmpipe", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry",
                         "-m", "2048", "-l", "0", "--log-level", "error", NULL };
        int argc = (int)(sizeof argv / sizeof argv[0]) - 1;
        eal_state = rte_eal_init(argc, argv) < 0 ? -1 : 1;
        if (eal_state > 0) {
            rte_memseg_list_walk(thp_advise, NULL);
            /* DPDK picks no lookup wider than this limit (256 bits by
             * default): lift it, as an application that wants the
             * AVX-512 lookups must. */
            rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_512);
        }
        pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
    }
    if (eal_state < 0)
        return lpm_err_set(err, LPM_EFAIL, "DPDK EAL did not start (no huge pages, no shared config): %s",
                           rte_strerror(rte_errno));
    return LPM_OK;
}

static int cmp64(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* tbl8 groups a table needs: distinct (depth, bits) nodes at depths 24,
 * 32, ... with a longer prefix below, plus room for updates. */
static uint32_t tbl8_needed(const lpm_fib *f)
{
    size_t n = 0, cap = 1024;
    uint64_t *k = malloc(cap * 3 * sizeof *k);
    if (!k)
        return 1u << 16;
    for (size_t i = 0; i < f->n; i++)
        for (unsigned d = 24; d < f->routes[i].pfx.len; d += 8) {
            if (n == cap) {
                uint64_t *t = realloc(k, cap * 6 * sizeof *k);
                if (!t) {
                    free(k);
                    return 1u << 16;
                }
                k = t;
                cap *= 2;
            }
            lpm_addr m = lpm_addr_mask(&f->routes[i].pfx.addr, d);
            k[n * 3] = d;
            k[n * 3 + 1] = m.hi;
            k[n * 3 + 2] = m.lo;
            n++;
        }
    qsort(k, n, 3 * sizeof *k, cmp64);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        u += i == 0 || cmp64(&k[i * 3], &k[(i - 1) * 3]);
    free(k);
    return (uint32_t)(u + u / 10 + 256);
}

static void v6key(const lpm_addr *a, uint8_t *out)
{
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(a->hi >> (56 - 8 * i));
        out[8 + i] = (uint8_t)(a->lo >> (56 - 8 * i));
    }
}

void lpm_peer_free(lpm_peer *p)
{
    if (!p)
        return;
    rte_lpm_free(p->lpm);
    rte_lpm6_free(p->lpm6);
    rte_fib_free(p->fib);
    rte_fib6_free(p->fib6);
    free(p->ip4);
    free(p->ip6);
    free(p->res32);
    free(p->res6);
    free(p->res64);
    free(p);
}

/* Adds a path; fib_type < 0: not an rte_fib(6) path. */
static void add_path(lpm_peer *p, const char *name, int call, unsigned chunk, int fib_type)
{
    peer_path *x = &p->path[p->npaths++];
    snprintf(x->name, sizeof x->name, "%s", name);
    x->call = call;
    x->chunk = chunk;
    x->fib_type = fib_type;
    x->why[0] = 0;
    int r = 0;
    if (call == CALL_FIB_BULK)
        r = rte_fib_select_lookup(p->fib, (enum rte_fib_lookup_type)fib_type);
    else if (call == CALL_FIB6_BULK)
        r = rte_fib6_select_lookup(p->fib6, (enum rte_fib6_lookup_type)fib_type);
    if (r == 0)
        return;
    if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512F) <= 0)
        snprintf(x->why, sizeof x->why, "this CPU has no AVX-512F");
    else if (rte_vect_get_max_simd_bitwidth() < RTE_VECT_SIMD_512)
        snprintf(x->why, sizeof x->why, "DPDK's SIMD limit stayed at %u bits", rte_vect_get_max_simd_bitwidth());
    else
        snprintf(x->why, sizeof x->why, "this DPDK was built without it (select_lookup: %s)", rte_strerror(-r));
}

static int build_lpm(lpm_peer *p, const lpm_fib *f, const char *nm, uint32_t tbl8, lpm_err *err)
{
    struct rte_lpm_config c = { .max_rules = (uint32_t)f->n + 4096, .number_tbl8s = tbl8 };
    snprintf(p->name, sizeof p->name, "rte_lpm");
    if (!(p->lpm = rte_lpm_create(nm, SOCKET_ID_ANY, &c)))
        return lpm_err_set(err, LPM_EFAIL, "rte_lpm_create: %s", rte_strerror(rte_errno));
    p->memory = ((size_t)1 << 24) * 4 + (size_t)tbl8 * 256 * 4;
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len &&
            rte_lpm_add(p->lpm, lpm_addr_to_v4(&f->routes[i].pfx.addr), f->routes[i].pfx.len, f->routes[i].nh) < 0)
            return lpm_err_set(err, LPM_EFAIL, "rte_lpm_add failed at route %zu", i);
    /* The bulk call first copies the chunk's TBL24 indexes into an array
     * on the stack: bursts of 64 and 256 keep it in L1, as l3fwd's bursts
     * do. rte_lpm_lookupx4 is what l3fwd's SSE path calls. */
    add_path(p, "rte_lpm_lookup_bulk/64", CALL_LPM_BULK, 64, -1);
    add_path(p, "rte_lpm_lookup_bulk/256", CALL_LPM_BULK, 256, -1);
    add_path(p, "rte_lpm_lookupx4", CALL_LPM_X4, 4, -1);
    return LPM_OK;
}

static int build_lpm6(lpm_peer *p, const lpm_fib *f, const char *nm, uint32_t tbl8, lpm_err *err)
{
    struct rte_lpm6_config c = { .max_rules = (uint32_t)f->n + 4096, .number_tbl8s = tbl8 };
    snprintf(p->name, sizeof p->name, "rte_lpm6");
    if (!(p->lpm6 = rte_lpm6_create(nm, SOCKET_ID_ANY, &c)))
        return lpm_err_set(err, LPM_EFAIL, "rte_lpm6_create: %s", rte_strerror(rte_errno));
    p->memory = ((size_t)1 << 24) * 4 + (size_t)tbl8 * 256 * 4;
    for (size_t i = 0; i < f->n; i++) {
        uint8_t k[16];
        v6key(&f->routes[i].pfx.addr, k);
        if (f->routes[i].pfx.len && rte_lpm6_add(p->lpm6, k, f->routes[i].pfx.len, f->routes[i].nh) < 0)
            return lpm_err_set(err, LPM_EFAIL, "rte_lpm6_add failed at route %zu", i);
    }
    add_path(p, "rte_lpm6_lookup_bulk_func/64", CALL_LPM6_BULK, 64, -1);
    return LPM_OK;
}

static int build_fib(lpm_peer *p, const lpm_fib *f, const char *nm, uint32_t tbl8, lpm_err *err)
{
    struct rte_fib_conf c = { .type = RTE_FIB_DIR24_8, .default_nh = FIB_NONE, .max_routes = 2 * (int)f->n + 4096 };
    c.dir24_8.nh_sz = RTE_FIB_DIR24_8_4B;
    c.dir24_8.num_tbl8 = tbl8;
    snprintf(p->name, sizeof p->name, "rte_fib");
    if (!(p->fib = rte_fib_create(nm, SOCKET_ID_ANY, &c)))
        return lpm_err_set(err, LPM_EFAIL, "rte_fib_create: %s", rte_strerror(rte_errno));
    p->memory = ((size_t)1 << 24) * 4 + (size_t)tbl8 * 256 * 4;
    for (size_t i = 0; i < f->n; i++) {
        int r = f->routes[i].pfx.len == 0 ? 0
                : rte_fib_add(p->fib, lpm_addr_to_v4(&f->routes[i].pfx.addr), f->routes[i].pfx.len,
                              f->routes[i].nh);
        if (r < 0)
            return lpm_err_set(err, LPM_EFAIL, "rte_fib_add failed at route %zu: %s", i, rte_strerror(-r));
    }
    /* Every lookup function rte_fib_select_lookup offers; each is called
     * through rte_fib_lookup_bulk over bursts of 64. */
    add_path(p, "rte_fib_lookup_bulk/macro", CALL_FIB_BULK, 64, RTE_FIB_LOOKUP_DIR24_8_SCALAR_MACRO);
    add_path(p, "rte_fib_lookup_bulk/inline", CALL_FIB_BULK, 64, RTE_FIB_LOOKUP_DIR24_8_SCALAR_INLINE);
    add_path(p, "rte_fib_lookup_bulk/uni", CALL_FIB_BULK, 64, RTE_FIB_LOOKUP_DIR24_8_SCALAR_UNI);
    add_path(p, "rte_fib_lookup_bulk/avx512", CALL_FIB_BULK, 64, RTE_FIB_LOOKUP_DIR24_8_VECTOR_AVX512);
    return LPM_OK;
}

/* The trie takes more tbl8 groups than the distinct nodes tbl8_needed
 * counts (both ends of a prefix's range get their own): start at twice
 * that and double while it runs out, up to 2 GB. */
static int build_fib6(lpm_peer *p, const lpm_fib *f, uint32_t tbl8, int spare, lpm_err *err)
{
    snprintf(p->name, sizeof p->name, "rte_fib6");
    for (uint32_t t8 = tbl8 * 2;; t8 *= 2) {
        struct rte_fib6_conf c = { .type = RTE_FIB6_TRIE, .default_nh = FIB_NONE,
                                   .max_routes = 2 * (int)f->n + 4096 };
        c.trie.nh_sz = RTE_FIB6_TRIE_4B;
        c.trie.num_tbl8 = t8;
        char nm[32];
        snprintf(nm, sizeof nm, "lpmpipe%u", peer_seq++);
        if (!(p->fib6 = rte_fib6_create(nm, SOCKET_ID_ANY, &c)))
            return lpm_err_set(err, LPM_EFAIL, "rte_fib6_create: %s", rte_strerror(rte_errno));
        p->memory = ((size_t)1 << 24) * 4 + (size_t)t8 * 256 * 4;
        int r = 0;
        size_t i;
        for (i = 0; i < f->n && r >= 0; i++) {
            uint8_t k[16];
            v6key(&f->routes[i].pfx.addr, k);
            if (f->routes[i].pfx.len)
                r = rte_fib6_add(p->fib6, k, f->routes[i].pfx.len, f->routes[i].nh);
        }
        if (r >= 0 && !spare)
            break;
        rte_fib6_free(p->fib6);
        p->fib6 = NULL;
        if (r >= 0) { /* it fits: with spare, build once more at twice the size */
            spare = 0;
            continue;
        }
        if (r != -ENOSPC || (size_t)t8 * 2 * 1024 > ((size_t)2 << 30))
            return lpm_err_set(err, LPM_EFAIL, "rte_fib6_add failed at route %zu: %s", i - 1, rte_strerror(-r));
    }
    add_path(p, "rte_fib6_lookup_bulk/scalar", CALL_FIB6_BULK, 64, RTE_FIB6_LOOKUP_TRIE_SCALAR);
    add_path(p, "rte_fib6_lookup_bulk/avx512", CALL_FIB6_BULK, 64, RTE_FIB6_LOOKUP_TRIE_VECTOR_AVX512);
    return LPM_OK;
}

int lpm_peer_build(lpm_peer **out, int kind, const lpm_fib *f, lpm_err *err)
{
    int rc = eal_up(err);
    if (rc)
        return rc;
    lpm_peer *p = calloc(1, sizeof *p);
    if (!p)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    p->kind = kind & ~LPM_PEER_SPARE;
    p->family = f->family;
    /* DPDK takes depths from 1: a default route answers every miss. */
    p->dflt = LPM_NH_NONE;
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len == 0)
            p->dflt = f->routes[i].nh;
    char nm[32];
    snprintf(nm, sizeof nm, "lpmpipe%u", peer_seq++);
    uint32_t tbl8 = tbl8_needed(f);
    int spare = (kind & LPM_PEER_SPARE) != 0;
    kind &= ~LPM_PEER_SPARE;
    if (spare && f->family == LPM_AF_INET)
        tbl8 *= 2;
    int v4 = f->family == LPM_AF_INET;
    if (f->nh.n >= (v4 ? (1u << 24) : (1u << 21)))
        rc = lpm_err_set(err, LPM_EINPUT, "DPDK: %zu next hops do not fit", f->nh.n);
    else if (kind == LPM_PEER_LPM)
        rc = v4 ? build_lpm(p, f, nm, tbl8, err) : build_lpm6(p, f, nm, tbl8, err);
    else
        rc = v4 ? build_fib(p, f, nm, tbl8, err) : build_fib6(p, f, tbl8, spare, err);
    if (rc) {
        lpm_peer_free(p);
        return rc;
    }
    lpm_peer_use(p, 0);
    *out = p;
    return LPM_OK;
}

const char *lpm_peer_name(const lpm_peer *p)
{
    return p->name;
}

unsigned lpm_peer_paths(const lpm_peer *p)
{
    return p->npaths;
}

const char *lpm_peer_path_name(const lpm_peer *p, unsigned path)
{
    return path < p->npaths ? p->path[path].name : "";
}

const char *lpm_peer_path_unavailable(const lpm_peer *p, unsigned path)
{
    if (path >= p->npaths)
        return "no such path";
    return p->path[path].why[0] ? p->path[path].why : NULL;
}

void lpm_peer_use(lpm_peer *p, unsigned path)
{
    if (path >= p->npaths || p->path[path].why[0])
        return;
    p->cur = path;
    if (p->path[path].call == CALL_FIB_BULK)
        rte_fib_select_lookup(p->fib, (enum rte_fib_lookup_type)p->path[path].fib_type);
    else if (p->path[path].call == CALL_FIB6_BULK)
        rte_fib6_select_lookup(p->fib6, (enum rte_fib6_lookup_type)p->path[path].fib_type);
}

int lpm_peer_prepare(lpm_peer *p, const lpm_addr *a, size_t n, lpm_err *err)
{
    free(p->ip4);
    free(p->ip6);
    free(p->res32);
    free(p->res6);
    free(p->res64);
    p->ip4 = NULL;
    p->ip6 = NULL;
    p->res32 = NULL;
    p->res6 = NULL;
    p->res64 = NULL;
    p->n = n;
    size_t m = n ? n : 1;
    int ok;
    if (p->family == LPM_AF_INET) {
        ok = (p->ip4 = malloc(m * sizeof *p->ip4)) != NULL;
        for (size_t i = 0; ok && i < n; i++)
            p->ip4[i] = lpm_addr_to_v4(&a[i]);
    } else {
        ok = (p->ip6 = malloc(m * sizeof *p->ip6)) != NULL;
        for (size_t i = 0; ok && i < n; i++)
            v6key(&a[i], p->ip6[i]);
    }
    if (ok && p->lpm)
        ok = (p->res32 = malloc(m * sizeof *p->res32)) != NULL;
    else if (ok && p->lpm6)
        ok = (p->res6 = malloc(m * sizeof *p->res6)) != NULL;
    else if (ok)
        ok = (p->res64 = malloc(m * sizeof *p->res64)) != NULL;
    /* Touched now, so no timed run pays the page faults. */
    if (ok && p->res32)
        memset(p->res32, 0, m * sizeof *p->res32);
    if (ok && p->res6)
        memset(p->res6, 0, m * sizeof *p->res6);
    if (ok && p->res64)
        memset(p->res64, 0, m * sizeof *p->res64);
    return ok ? LPM_OK : lpm_err_set(err, LPM_EFAIL, "out of memory");
}

#define X4_NONE UINT32_MAX  /* rte_lpm_lookupx4's answer for a miss */

/* l3fwd's loop: four keys to an SSE register, the rest one by one. */
static void run_x4(const lpm_peer *p, size_t lo, size_t hi)
{
    size_t i = lo;
    for (; i + 4 <= hi; i += 4)
        rte_lpm_lookupx4(p->lpm, _mm_loadu_si128((const __m128i *)(p->ip4 + i)), p->res32 + i, X4_NONE);
    for (; i < hi; i++) {
        uint32_t h;
        p->res32[i] = rte_lpm_lookup(p->lpm, p->ip4[i], &h) == 0 ? h : X4_NONE;
    }
}

void lpm_peer_run(lpm_peer *p, size_t lo, size_t hi)
{
    const peer_path *x = &p->path[p->cur];
    if (x->call == CALL_LPM_X4) {
        run_x4(p, lo, hi);
        return;
    }
    for (size_t i = lo; i < hi; i += x->chunk) {
        unsigned k = (unsigned)(hi - i < x->chunk ? hi - i : x->chunk);
        if (x->call == CALL_LPM_BULK)
            rte_lpm_lookup_bulk(p->lpm, p->ip4 + i, p->res32 + i, k);
        else if (x->call == CALL_LPM6_BULK)
            rte_lpm6_lookup_bulk_func(p->lpm6, p->ip6 + i, p->res6 + i, k);
        else if (x->call == CALL_FIB_BULK)
            rte_fib_lookup_bulk(p->fib, p->ip4 + i, p->res64 + i, (int)k);
        else
            rte_fib6_lookup_bulk(p->fib6, p->ip6 + i, p->res64 + i, (int)k);
    }
}

void lpm_peer_results(const lpm_peer *p, uint32_t *nh)
{
    int call = p->path[p->cur].call;
    for (size_t i = 0; i < p->n; i++) {
        if (call == CALL_LPM_X4)
            nh[i] = p->res32[i] == X4_NONE ? LPM_NH_NONE : p->res32[i];
        else if (call == CALL_LPM_BULK)
            nh[i] = (p->res32[i] & RTE_LPM_LOOKUP_SUCCESS) ? p->res32[i] & 0x00FFFFFF : LPM_NH_NONE;
        else if (call == CALL_LPM6_BULK)
            nh[i] = p->res6[i] < 0 ? LPM_NH_NONE : (uint32_t)p->res6[i];
        else
            nh[i] = p->res64[i] == FIB_NONE ? LPM_NH_NONE : (uint32_t)p->res64[i];
        if (nh[i] == LPM_NH_NONE)
            nh[i] = p->dflt;
    }
}

size_t lpm_peer_memory(const lpm_peer *p)
{
    return p->memory;
}

/* Updates: DPDK takes depths from 1, so a default route is the wrapper's. */
int lpm_peer_add(lpm_peer *p, const lpm_prefix *pfx, uint32_t nh, lpm_err *err)
{
    if (pfx->family != p->family)
        return lpm_err_set(err, LPM_EINPUT, "%s: IPv%d prefix for an IPv%d table", p->name, pfx->family, p->family);
    if (pfx->len == 0) {
        p->dflt = nh;
        return LPM_OK;
    }
    uint8_t k[16];
    v6key(&pfx->addr, k);
    uint32_t a4 = lpm_addr_to_v4(&pfx->addr);
    int r = p->lpm    ? rte_lpm_add(p->lpm, a4, pfx->len, nh)
            : p->lpm6 ? rte_lpm6_add(p->lpm6, k, pfx->len, nh)
            : p->fib  ? rte_fib_add(p->fib, a4, pfx->len, nh)
                      : rte_fib6_add(p->fib6, k, pfx->len, nh);
    return r < 0 ? lpm_err_set(err, LPM_EFAIL, "%s: add: %s", p->name, rte_strerror(-r)) : LPM_OK;
}

int lpm_peer_del(lpm_peer *p, const lpm_prefix *pfx, lpm_err *err)
{
    if (pfx->family != p->family)
        return lpm_err_set(err, LPM_EINPUT, "%s: IPv%d prefix for an IPv%d table", p->name, pfx->family, p->family);
    if (pfx->len == 0) {
        p->dflt = LPM_NH_NONE;
        return LPM_OK;
    }
    uint8_t k[16];
    v6key(&pfx->addr, k);
    uint32_t a4 = lpm_addr_to_v4(&pfx->addr);
    int r = p->lpm    ? rte_lpm_delete(p->lpm, a4, pfx->len)
            : p->lpm6 ? rte_lpm6_delete(p->lpm6, k, pfx->len)
            : p->fib  ? rte_fib_delete(p->fib, a4, pfx->len)
                      : rte_fib6_delete(p->fib6, k, pfx->len);
    /* An absent prefix: -ENOENT (rte_fib) or -EINVAL (rte_lpm). */
    return r < 0 && r != -ENOENT && r != -EINVAL ? lpm_err_set(err, LPM_EFAIL, "%s: delete: %s", p->name, rte_strerror(-r))
                                                 : LPM_OK;
}
