/* The CUDA names bench splits every batch over its streams with
 * lpm_ngpu_slice: for every batch size up to a few thousand names (and
 * some large ones) and every stream count the command accepts, the slices
 * must cover each name exactly once, in order, starting on warp groups.
 * (The split it replaces, per = (bn/ns+31)/32*32, left names out: batch
 * 130 over 4 streams lost 2.) */
#include "testutil.h"
#include "../../names/ngpu.h"

#define MAX_STREAMS 512 /* names gpu bench --streams 1..512 */

/* Returns NULL when the slices of bn over ns streams are right, else why
 * (plain checks: ck_assert costs a system call each in fork mode). */
static const char *wrong(uint64_t bn, unsigned ns)
{
    uint64_t next = 0, longest = 0, groups = (bn + 31) / 32;
    for (unsigned s = 0; s < ns; s++) {
        uint64_t c, f = lpm_ngpu_slice(bn, ns, s, &c);
        if (!c)
            continue;
        if (f != next)
            return "a slice does not start where the previous one ended";
        if (f % 32)
            return "a slice starts inside a warp group";
        if (f + c != bn && c % 32)
            return "a slice other than the last ends inside a warp group";
        next = f + c;
        longest = c > longest ? c : longest;
    }
    if (next != bn)
        return "names at the end of the batch are never looked up";
    /* Balanced: no slice is longer than ceil(groups / streams) groups. */
    if ((longest + 31) / 32 > (groups + ns - 1) / ns)
        return "a slice is longer than an even split needs";
    return NULL;
}

static void covers(uint64_t bn, unsigned ns)
{
    const char *why = wrong(bn, ns);
    if (why)
        ck_abort_msg("batch %llu over %u streams: %s", (unsigned long long)bn, ns, why);
}

START_TEST(test_every_batch_and_stream_count)
{
    for (uint64_t bn = 1; bn <= 4096; bn++)
        for (unsigned ns = 1; ns <= MAX_STREAMS; ns++)
            covers(bn, ns);
}
END_TEST

START_TEST(test_large_batches)
{
    static const uint64_t big[] = { 65536, 65537, 1u << 20, (1u << 20) + 31, (1u << 26) - 1, 1u << 26 };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        for (unsigned ns = 1; ns <= MAX_STREAMS; ns++)
            covers(big[i], ns);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ngpu_split");
    TCase *t = tcase_create("ngpu_split");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_every_batch_and_stream_count);
    tcase_add_test(t, test_large_batches);
    suite_add_tcase(s, t);
    return tu_run(s);
}
