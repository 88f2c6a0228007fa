/* Pipeline images (.lpi) through lpm_image_load, which validates fully;
 * an image that loads is then walked by the interpreter (every walk must
 * end inside the memories), cloned and saved again.
 *
 * A mutated image almost never keeps its CRC-32 trailer right, which would
 * stop every input at the CRC check; so the harness rewrites the trailer
 * with the right CRC unless bit 0 of the input's last byte is 1 (then the
 * CRC check itself is fuzzed). */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../core/rng.h"
#include "../mapper/image.h"

static void walk(const lpm_image *img, const uint8_t *data, size_t size)
{
    lpm_rng r;
    lpm_rng_seed(&r, size ? data[size / 2] : 0);
    for (int i = 0; i < 64; i++) {
        lpm_addr a = { lpm_rng_next(&r), lpm_rng_next(&r) };
        (void)lpm_image_lookup(img, &a);
    }
    const lpm_route *rt = lpm_image_routes(img);
    for (size_t i = 0; i < lpm_image_route_count(img) && i < 256; i++)
        (void)lpm_image_lookup(img, &rt[i].pfx.addr);
}

int lpm_fuzz_image(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        abort();
    memcpy(buf, data, size);
    if (size >= 4 && !(data[size - 1] & 1)) {
        uint32_t crc = (uint32_t)crc32(0L, buf, (uInt)(size - 4));
        for (int i = 0; i < 4; i++)
            buf[size - 4 + i] = (uint8_t)(crc >> (8 * i));
    }
    lpm_image *img;
    lpm_err err;
    if (lpm_image_load(&img, lpm_fuzz_path(buf, size), &err) == LPM_OK) {
        walk(img, data, size);
        lpm_image *c = lpm_image_clone(img);
        if (c && lpm_image_save(c, "/dev/null", &err) != LPM_OK)
            abort(); /* what loads must save */
        lpm_image_free(c);
        lpm_image_free(img);
    }
    free(buf);
    return 0;
}
