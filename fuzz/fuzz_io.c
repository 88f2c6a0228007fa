/* The memfds behind lpm_fuzz_path: one per slot for the whole process. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

static const char *fill(int slot, const uint8_t *data, size_t size)
{
    static int fd[2] = { -1, -1 };
    static char path[2][64];
    if (fd[slot] < 0) {
        fd[slot] = memfd_create(slot ? "lpm-fuzz-2" : "lpm-fuzz", 0);
        if (fd[slot] < 0) {
            perror("lpm_fuzz_path: memfd_create");
            abort();
        }
        snprintf(path[slot], sizeof path[slot], "/proc/self/fd/%d", fd[slot]);
    }
    if (ftruncate(fd[slot], 0) || (size && pwrite(fd[slot], data, size, 0) != (ssize_t)size)) {
        perror("lpm_fuzz_path: write");
        abort();
    }
    return path[slot];
}

const char *lpm_fuzz_path(const uint8_t *data, size_t size)
{
    return fill(0, data, size);
}

const char *lpm_fuzz_path2(const uint8_t *data, size_t size)
{
    return fill(1, data, size);
}
