/* FIB readers: plain, pfx2as and bgpdump text (fib_text) and binary MRT
 * (fib_mrt), through lpm_fib_load exactly as every command calls it.
 * Byte 0 picks the options, the rest is the file:
 *   bits 0-1  format: text: auto, plain, pfx2as, bgpdump; mrt: mrt, auto, mrt, mrt
 *   bit 2     --mask-host-bits      bit 3  --skip-bad
 *   bits 4-5  --family: none, 4, 6, none
 *   bit 6     --peer-as 65000       bit 7  --default-nh x
 * A table that loads is written back in the plain format (to /dev/null),
 * which reads every route and next-hop token once more. */
#include "fuzz.h"

#include "../core/fib.h"

static void opts_from(uint8_t c, int mrt, lpm_fib_opts *o)
{
    static const int text_fmt[4] = { LPM_FMT_AUTO, LPM_FMT_PLAIN, LPM_FMT_PFX2AS, LPM_FMT_BGPDUMP };
    static const int mrt_fmt[4] = { LPM_FMT_MRT, LPM_FMT_AUTO, LPM_FMT_MRT, LPM_FMT_MRT };
    static const int fam[4] = { 0, 4, 6, 0 };
    lpm_fib_opts_default(o);
    o->format = mrt ? mrt_fmt[c & 3] : text_fmt[c & 3];
    o->mask_host_bits = (c >> 2) & 1;
    o->skip_bad = (c >> 3) & 1;
    o->family = fam[(c >> 4) & 3];
    if (c & 0x40)
        o->peer_as = 65000;
    if (c & 0x80)
        o->default_nh = "x";
}

static int one(const uint8_t *data, size_t size, int mrt)
{
    if (size < 1)
        return 0;
    lpm_fib_opts o;
    opts_from(data[0], mrt, &o);
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_err err;
    if (lpm_fib_load(&f, lpm_fuzz_path(data + 1, size - 1), &o, &err) == LPM_OK)
        lpm_fib_write_plain(&f, "/dev/null", &err);
    lpm_fib_free(&f);
    return 0;
}

int lpm_fuzz_fib_text(const uint8_t *data, size_t size)
{
    return one(data, size, 0);
}

int lpm_fuzz_fib_mrt(const uint8_t *data, size_t size)
{
    return one(data, size, 1);
}
