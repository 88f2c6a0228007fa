/* The DPDK peer's stand-in where libdpdk is absent (cpu/module.mk picks
 * this file or peer_dpdk.c): lpm_peer_built() is 0 and building fails. */
#include "../peer.h"

int lpm_peer_built(void)
{
    return 0;
}

int lpm_peer_build(lpm_peer **out, int kind, const lpm_fib *fib, lpm_err *err)
{
    (void)kind;
    (void)fib;
    *out = NULL;
    return lpm_err_set(err, LPM_EFAIL, "the DPDK peer is not built into this binary");
}

/* No peer can exist, so the rest are never reached with one. */
const char *lpm_peer_name(const lpm_peer *p)
{
    (void)p;
    return "none";
}

int lpm_peer_prepare(lpm_peer *p, const lpm_addr *a, size_t n, lpm_err *err)
{
    (void)p;
    (void)a;
    (void)n;
    return lpm_err_set(err, LPM_EFAIL, "the DPDK peer is not built into this binary");
}

void lpm_peer_run(lpm_peer *p, size_t lo, size_t hi)
{
    (void)p;
    (void)lo;
    (void)hi;
}

void lpm_peer_results(const lpm_peer *p, uint32_t *nh)
{
    (void)p;
    (void)nh;
}

size_t lpm_peer_memory(const lpm_peer *p)
{
    (void)p;
    return 0;
}

void lpm_peer_free(lpm_peer *p)
{
    (void)p;
}

unsigned lpm_peer_paths(const lpm_peer *p)
{
    (void)p;
    return 0;
}

const char *lpm_peer_path_name(const lpm_peer *p, unsigned path)
{
    (void)p;
    (void)path;
    return "";
}

const char *lpm_peer_path_unavailable(const lpm_peer *p, unsigned path)
{
    (void)p;
    (void)path;
    return "the DPDK peer is not built into this binary";
}

void lpm_peer_use(lpm_peer *p, unsigned path)
{
    (void)p;
    (void)path;
}

int lpm_peer_add(lpm_peer *p, const lpm_prefix *pfx, uint32_t nh, lpm_err *err)
{
    (void)p;
    (void)pfx;
    (void)nh;
    return lpm_err_set(err, LPM_EFAIL, "the DPDK peer is not built into this binary");
}

int lpm_peer_del(lpm_peer *p, const lpm_prefix *pfx, lpm_err *err)
{
    (void)p;
    (void)pfx;
    return lpm_err_set(err, LPM_EFAIL, "the DPDK peer is not built into this binary");
}
