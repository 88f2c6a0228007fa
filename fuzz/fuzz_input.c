/* The compressed-input layer (core/input.c): gzip, xz, bzip2 (concatenated
 * members too) and raw bytes, peeked at as the format sniffer does, then
 * read line by line (byte 0 even) or in blocks of 1 + 61 * (byte 0 / 2)
 * bytes (byte 0 odd), as the binary MRT reader does. */
#include "fuzz.h"

#include "../core/input.h"

int lpm_fuzz_input(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t block = 1 + (size_t)(data[0] >> 1) * 61;
    lpm_input *in;
    lpm_err err;
    if (lpm_input_open(&in, lpm_fuzz_path(data + 1, size - 1), &err) != LPM_OK)
        return 0;
    const unsigned char *b;
    (void)lpm_input_peek(in, &b, &err);
    if (data[0] & 1) {
        static unsigned char buf[1 + 127 * 61];
        while (lpm_input_read(in, buf, block, &err) > 0)
            ;
    } else {
        char *line;
        size_t len;
        while (lpm_input_getline(in, &line, &len, &err) == 1)
            ;
    }
    lpm_input_close(in);
    return 0;
}
