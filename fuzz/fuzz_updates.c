/* Update traces (`[time] a|w prefix [nexthop]` and bgpdump A/W lines),
 * read into a FIB as `lpmpipe update` and the benches do. Byte 0:
 *   bits 0-1  the FIB: empty, a small IPv4 table, a small IPv6 table, empty
 *   bit 2     --peer 192.0.2.1 (a bgpdump trace's peer)
 *   bit 3     --mask-host-bits (clear host bits instead of refusing) */
#include "fuzz.h"

#include <stdlib.h>

#include "../core/updates_load.h"

static void small_fib(lpm_fib *f, int family)
{
    static const char *const v4[] = { "10.0.0.0/8", "10.1.0.0/16", "192.0.2.0/24" };
    static const char *const v6[] = { "2001:db8::/32", "2001:db8:1::/48", "::/0" };
    lpm_err err;
    for (int i = 0; i < 3; i++) {
        lpm_prefix p;
        if (lpm_prefix_parse(family == 4 ? v4[i] : v6[i], 0, 0, &p, &err) == LPM_OK)
            lpm_fib_add_tok(f, &p, "nh", 2, &err);
    }
    lpm_fib_finish(f, &err);
}

int lpm_fuzz_updates(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    lpm_fib f;
    lpm_fib_init(&f);
    if ((data[0] & 3) == 1 || (data[0] & 3) == 2)
        small_fib(&f, (data[0] & 3) == 1 ? 4 : 6);
    const char *peer = data[0] & 4 ? "192.0.2.1" : NULL;
    lpm_update *u = NULL;
    size_t n = 0;
    char name[128];
    lpm_err err;
    if (lpm_updates_load_ex(lpm_fuzz_path(data + 1, size - 1), &f, peer, (data[0] >> 3) & 1, &u, &n, name, sizeof name, &err) == LPM_OK)
        free(u);
    lpm_fib_free(&f);
    return 0;
}
