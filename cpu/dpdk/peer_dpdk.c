/* The DPDK peer (cpu/peer.h): rte_lpm, rte_lpm6, rte_fib, rte_fib6. */
#include "../peer.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_memory.h>

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
        if (eal_state > 0)
            rte_memseg_list_walk(thp_advise, NULL);
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

int lpm_peer_build(lpm_peer **out, int kind, const lpm_fib *f, lpm_err *err)
{
    int rc = eal_up(err);
    if (rc)
        return rc;
    lpm_peer *p = calloc(1, sizeof *p);
    if (!p)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    p->kind = kind;
    p->family = f->family;
    /* DPDK takes depths from 1: a default route answers every miss. */
    p->dflt = LPM_NH_NONE;
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len == 0)
            p->dflt = f->routes[i].nh;
    char nm[32];
    snprintf(nm, sizeof nm, "lpmpipe%u", peer_seq++);
    uint32_t tbl8 = tbl8_needed(f);
    int v4 = f->family == LPM_AF_INET;
    if (f->nh.n >= (v4 ? (1u << 24) : (1u << 21)))
        rc = lpm_err_set(err, LPM_EINPUT, "DPDK: %zu next hops do not fit", f->nh.n);
    else if (kind == LPM_PEER_LPM && v4) {
        struct rte_lpm_config c = { .max_rules = (uint32_t)f->n + 4096, .number_tbl8s = tbl8 };
        snprintf(p->name, sizeof p->name, "rte_lpm");
        if (!(p->lpm = rte_lpm_create(nm, SOCKET_ID_ANY, &c)))
            rc = lpm_err_set(err, LPM_EFAIL, "rte_lpm_create: %s", rte_strerror(rte_errno));
        p->memory = ((size_t)1 << 24) * 4 + (size_t)tbl8 * 256 * 4;
        for (size_t i = 0; i < f->n && !rc; i++)
            if (f->routes[i].pfx.len &&
                rte_lpm_add(p->lpm, lpm_addr_to_v4(&f->routes[i].pfx.addr), f->routes[i].pfx.len,
                            f->routes[i].nh) < 0)
                rc = lpm_err_set(err, LPM_EFAIL, "rte_lpm_add failed at route %zu", i);
    } else if (kind == LPM_PEER_LPM) {
        struct rte_lpm6_config c = { .max_rules = (uint32_t)f->n + 4096, .number_tbl8s = tbl8 };
        snprintf(p->name, sizeof p->name, "rte_lpm6");
        if (!(p->lpm6 = rte_lpm6_create(nm, SOCKET_ID_ANY, &c)))
            rc = lpm_err_set(err, LPM_EFAIL, "rte_lpm6_create: %s", rte_strerror(rte_errno));
        p->memory = ((size_t)1 << 24) * 4 + (size_t)tbl8 * 256 * 4;
        for (size_t i = 0; i < f->n && !rc; i++) {
            uint8_t k[16];
            v6key(&f->routes[i].pfx.addr, k);
            if (f->routes[i].pfx.len && rte_lpm6_add(p->lpm6, k, f->routes[i].pfx.len, f->routes[i].nh) < 0)
                rc = lpm_err_set(err, LPM_EFAIL, "rte_lpm6_add failed at route %zu", i);
        }
    } else if (v4) {
        struct rte_fib_conf c = { .type = RTE_FIB_DIR24_8, .default_nh = FIB_NONE,
                                  .max_routes = 2 * (int)f->n + 4096 };
        c.dir24_8.nh_sz = RTE_FIB_DIR24_8_4B;
        c.dir24_8.num_tbl8 = tbl8;
        if (!(p->fib = rte_fib_create(nm, SOCKET_ID_ANY, &c)))
            rc = lpm_err_set(err, LPM_EFAIL, "rte_fib_create: %s", rte_strerror(rte_errno));
        p->memory = ((size_t)1 << 24) * 4 + (size_t)tbl8 * 256 * 4;
        for (size_t i = 0; i < f->n && !rc; i++) {
            int r = f->routes[i].pfx.len == 0 ? 0
                    : rte_fib_add(p->fib, lpm_addr_to_v4(&f->routes[i].pfx.addr), f->routes[i].pfx.len,
                                  f->routes[i].nh);
            if (r < 0)
                rc = lpm_err_set(err, LPM_EFAIL, "rte_fib_add failed at route %zu: %s", i, rte_strerror(-r));
        }
        /* The vector lookup where the CPU has AVX-512, the scalar one else. */
        if (!rc && rte_fib_select_lookup(p->fib, RTE_FIB_LOOKUP_DIR24_8_VECTOR_AVX512) == 0)
            snprintf(p->name, sizeof p->name, "rte_fib(avx512)");
        else
            snprintf(p->name, sizeof p->name, "rte_fib");
    } else {
        /* The trie takes more tbl8 groups than the distinct nodes counted
         * above (both ends of a prefix's range get their own): start at
         * twice that and double while it runs out, up to 2 GB. */
        for (uint32_t t8 = tbl8 * 2;; t8 *= 2) {
            struct rte_fib6_conf c = { .type = RTE_FIB6_TRIE, .default_nh = FIB_NONE,
                                       .max_routes = 2 * (int)f->n + 4096 };
            c.trie.nh_sz = RTE_FIB6_TRIE_4B;
            c.trie.num_tbl8 = t8;
            snprintf(nm, sizeof nm, "lpmpipe%u", peer_seq++);
            if (!(p->fib6 = rte_fib6_create(nm, SOCKET_ID_ANY, &c))) {
                rc = lpm_err_set(err, LPM_EFAIL, "rte_fib6_create: %s", rte_strerror(rte_errno));
                break;
            }
            p->memory = ((size_t)1 << 24) * 4 + (size_t)t8 * 256 * 4;
            int r = 0;
            size_t i;
            for (i = 0; i < f->n && r >= 0; i++) {
                uint8_t k[16];
                v6key(&f->routes[i].pfx.addr, k);
                if (f->routes[i].pfx.len)
                    r = rte_fib6_add(p->fib6, k, f->routes[i].pfx.len, f->routes[i].nh);
            }
            if (r >= 0)
                break;
            rte_fib6_free(p->fib6);
            p->fib6 = NULL;
            if (r != -ENOSPC || (size_t)t8 * 2 * 1024 > ((size_t)2 << 30)) {
                rc = lpm_err_set(err, LPM_EFAIL, "rte_fib6_add failed at route %zu: %s", i - 1,
                                 rte_strerror(-r));
                break;
            }
        }
        if (!rc && rte_fib6_select_lookup(p->fib6, RTE_FIB6_LOOKUP_TRIE_VECTOR_AVX512) == 0)
            snprintf(p->name, sizeof p->name, "rte_fib6(avx512)");
        else
            snprintf(p->name, sizeof p->name, "rte_fib6");
    }
    if (rc) {
        lpm_peer_free(p);
        return rc;
    }
    *out = p;
    return LPM_OK;
}

const char *lpm_peer_name(const lpm_peer *p)
{
    return p->name;
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
    return ok ? LPM_OK : lpm_err_set(err, LPM_EFAIL, "out of memory");
}

void lpm_peer_run(lpm_peer *p, size_t lo, size_t hi)
{
    /* Chunks keep the int counts of the bulk calls in range. */
    for (size_t i = lo; i < hi; i += 1u << 20) {
        unsigned k = (unsigned)(hi - i < (1u << 20) ? hi - i : (1u << 20));
        if (p->lpm)
            rte_lpm_lookup_bulk(p->lpm, p->ip4 + i, p->res32 + i, k);
        else if (p->lpm6)
            rte_lpm6_lookup_bulk_func(p->lpm6, p->ip6 + i, p->res6 + i, k);
        else if (p->fib)
            rte_fib_lookup_bulk(p->fib, p->ip4 + i, p->res64 + i, (int)k);
        else
            rte_fib6_lookup_bulk(p->fib6, p->ip6 + i, p->res64 + i, (int)k);
    }
}

void lpm_peer_results(const lpm_peer *p, uint32_t *nh)
{
    for (size_t i = 0; i < p->n; i++) {
        if (p->lpm)
            nh[i] = (p->res32[i] & RTE_LPM_LOOKUP_SUCCESS) ? p->res32[i] & 0x00FFFFFF : LPM_NH_NONE;
        else if (p->lpm6)
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
