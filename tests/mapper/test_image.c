/* The image file: round trip, and bad images refused with a clear message
 * (wrong magic, truncated, CRC, pointers and fields out of range). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "maptest.h"
#include "../../mapper/map.h"

static char path[64];

static void small_table(lpm_fib *f)
{
    static const char *const lines[][2] = {
        { "0.0.0.0/0", "d" }, { "10.0.0.0/8", "a" }, { "10.1.0.0/16", "b" },
        { "10.1.2.0/24", "c" }, { "10.1.2.128/25", "e" }, { "192.168.1.1/32", "h" },
    };
    lpm_fib_init(f);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        lpm_prefix p;
        ck_assert_int_eq(lpm_prefix_parse(lines[i][0], 0, 0, &p, NULL), 0);
        ck_assert_int_eq(lpm_fib_add_tok(f, &p, lines[i][1], strlen(lines[i][1]), NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

static unsigned char *file_bytes(size_t *n)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_ptr_nonnull(fp);
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *p = malloc(*n);
    ck_assert_uint_eq(fread(p, 1, *n, fp), *n);
    fclose(fp);
    return p;
}

static void put_bytes(const unsigned char *p, size_t n, int fix_crc)
{
    unsigned char *q = malloc(n);
    memcpy(q, p, n);
    if (fix_crc && n >= 4) {
        uLong c = crc32(0L, q, (uInt)(n - 4));
        for (int i = 0; i < 4; i++)
            q[n - 4 + i] = (unsigned char)(c >> (8 * i));
    }
    FILE *fp = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(q, 1, n, fp), n);
    fclose(fp);
    free(q);
}

/* Loading must fail with LPM_EINPUT and a message containing want. */
static void refused(const char *want)
{
    lpm_image *img = NULL;
    lpm_err err;
    int rc = lpm_image_load(&img, path, &err);
    ck_assert_msg(rc == LPM_EINPUT, "expected refusal (%s), got rc %d", want, rc);
    ck_assert_ptr_null(img);
    ck_assert_msg(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
}

static lpm_image *mapped(lpm_fib *f)
{
    small_table(f);
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    o.stages = 4;
    o.x = 4;
    lpm_image *img;
    lpm_err err;
    ck_assert_msg(lpm_map_build(&img, f, &o, NULL, &err) == 0, "%s", err.msg);
    ck_assert_msg(lpm_image_save(img, path, &err) == 0, "%s", err.msg);
    return img;
}

START_TEST(test_round_trip_and_answers)
{
    lpm_fib f;
    lpm_image *img = mapped(&f), *back;
    lpm_err err;
    ck_assert_msg(lpm_image_load(&back, path, &err) == 0, "%s", err.msg);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    static const char *const addrs[] = { "10.1.2.200", "10.1.2.3", "10.1.9.9", "10.9.9.9", "11.0.0.1",
                                         "192.168.1.1", "192.168.1.0", "255.255.255.255", "0.0.0.0" };
    for (size_t i = 0; i < sizeof addrs / sizeof addrs[0]; i++) {
        lpm_addr a;
        int fam;
        ck_assert_int_eq(lpm_addr_parse(addrs[i], &fam, &a, NULL), 0);
        tu_check_answer(ref, &f, &a, lpm_image_lookup(back, &a), "loaded image");
    }
    /* 10.1.2.200 is under /25 e: the interpreter must say so by name. */
    lpm_addr a;
    int fam;
    lpm_addr_parse("10.1.2.200", &fam, &a, NULL);
    ck_assert_str_eq(lpm_nhtab_name(lpm_image_nhtab(back), lpm_image_lookup(back, &a)), "e");
    lpm_ref_free(ref);
    lpm_image_free(img);
    lpm_image_free(back);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_bad_files)
{
    lpm_fib f;
    lpm_image *img = mapped(&f);
    size_t n;
    unsigned char *good = file_bytes(&n);
    unsigned char *b = malloc(n + 16);

    memcpy(b, good, n);
    b[0] = 'X';
    put_bytes(b, n, 1);
    refused("wrong magic");

    /* Truncated anywhere: header, stage table, memories, next hops, routes, trailer. */
    for (size_t cut = 8; cut < n; cut += (cut < 200 ? 7 : 61)) {
        put_bytes(good, cut, 0);
        lpm_image *x = NULL;
        lpm_err err;
        ck_assert_msg(lpm_image_load(&x, path, &err) == LPM_EINPUT, "cut at %zu accepted", cut);
        ck_assert_ptr_null(x);
    }
    put_bytes(good, 40, 0);
    refused("truncated");

    memcpy(b, good, n);
    b[n / 2] ^= 0x40;
    put_bytes(b, n, 0);
    refused("CRC mismatch");

    memcpy(b, good, n);
    b[n] = 0;
    put_bytes(b, n + 1, 1);
    refused("after the image");

    memcpy(b, good, n);
    b[8] = 9; /* version */
    put_bytes(b, n, 1);
    refused("version 9");

    memcpy(b, good, n);
    b[8] = 1; /* version 1 held word addresses: refused, saying what to do */
    put_bytes(b, n, 1);
    refused("map the table again");

    /* version 2 (no shadow copy; bytes 28-31 reserved) is read as one copy */
    ck_assert_uint_eq(good[8], 3);
    ck_assert_uint_eq(good[28], 1);
    memcpy(b, good, n);
    b[8] = 2;
    b[28] = 0;
    put_bytes(b, n, 1);
    {
        lpm_image *v2 = NULL;
        lpm_err err;
        ck_assert_msg(lpm_image_load(&v2, path, &err) == 0, "version 2: %s", err.msg);
        ck_assert_uint_eq(lpm_image_copies(v2), 1);
        ck_assert_uint_eq(lpm_image_active(v2), 0);
        for (uint32_t k = 0; k < 256; k++) {
            lpm_addr a = { (uint64_t)(k * 0x01010101u + 0x0a010200u) << 32, 0 };
            ck_assert_uint_eq(lpm_image_lookup(v2, &a), lpm_image_lookup(img, &a));
        }
        lpm_image_free(v2);
    }
    b[28] = 1; /* version 2 has no copies byte */
    put_bytes(b, n, 1);
    refused("reserved");
    memcpy(b, good, n);
    b[28] = 0; /* version 3: copies 0 */
    put_bytes(b, n, 1);
    refused("copies 0");

    memcpy(b, good, n);
    b[12] = 0; /* stages */
    put_bytes(b, n, 1);
    refused("zero stages");

    memcpy(b, good, n);
    b[64] = 9; /* stride of stage 0 */
    put_bytes(b, n, 1);
    refused("stride 9");

    memcpy(b, good, n);
    b[40] = 1; /* reserved */
    put_bytes(b, n, 1);
    refused("reserved");

    /* A child pointer out of range, with a correct CRC: the first word of
     * stage 0 with C set that points past the stage's used words. */
    lpm_word_fmt fmt;
    lpm_image_word_fmt(img, &fmt);
    unsigned N = lpm_image_stages(img), x = lpm_image_initial_stride(img);
    size_t db = (lpm_image_dit_bits(img) + 7) / 8, wb = (lpm_image_word_bits(img) + 7) / 8;
    size_t off = 64 + 12 * (size_t)N + db * ((size_t)1 << x);
    lpm_node_word w = { 1, 0, 0, 0, ((1u << fmt.addr_bits) - 1) << lpm_image_stage_stride(img, 1), 0 };
    uint64_t v = lpm_image_word_encode(img, 0, &w);
    memcpy(b, good, n);
    for (size_t i = 0; i < wb; i++)
        b[off + i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, n, 1);
    refused("out of range");

    /* A next hop index past the table. */
    lpm_node_word h = { 0, 1, 0, (1u << fmt.nh_bits) - 1, 0, 0 };
    v = lpm_image_word_encode(img, 0, &h);
    memcpy(b, good, n);
    for (size_t i = 0; i < wb; i++)
        b[off + i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, n, 1);
    refused("next hop");

    /* A DIT entry naming a stage that does not exist. */
    lpm_node_word d = { 1, 0, 0, 0, 0, N };
    v = lpm_image_dit_encode(img, &d);
    memcpy(b, good, n);
    for (size_t i = 0; i < db; i++)
        b[64 + 12 * (size_t)N + i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, n, 1);
    refused("direct index entry 0");

    /* Not an image at all, and an empty file. */
    put_bytes((const unsigned char *)"10.0.0.0/8 a\n", 13, 0);
    refused("wrong magic");
    put_bytes(good, 0, 0);
    refused("wrong magic");

    free(b);
    free(good);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_validate_in_memory)
{
    lpm_fib f;
    lpm_image *img = mapped(&f);
    lpm_err err;
    /* A linear image may not wrap; a ring's last stage may. Make stage 3
     * point to a block past the used words of stage 0. */
    lpm_node_word w = { 1, 0, 0, 0, lpm_image_stage_used(img, 0), 0 };
    lpm_image_write(img, 3, 0, lpm_image_word_encode(img, 3, &w));
    ck_assert_int_eq(lpm_image_validate(img, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "out of range"), "%s", err.msg);
    ck_assert_int_ne(lpm_image_save(img, path, &err), 0);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

/* Version 2: a child pointer field holds the block index, the child's
 * word address shifted down by the target stage's stride; the layout is
 * the one lpm_word_layout_of gives (what the RTL generator slices). */
START_TEST(test_block_index_layout)
{
    lpm_fib f;
    lpm_image *img = mapped(&f);
    lpm_word_fmt fmt;
    lpm_image_word_fmt(img, &fmt);
    lpm_word_layout ln, ld;
    lpm_word_layout_of(&fmt, 0, &ln);
    lpm_word_layout_of(&fmt, 1, &ld);
    ck_assert_uint_eq(ln.bits, lpm_image_word_bits(img));
    ck_assert_uint_eq(ld.bits, lpm_image_dit_bits(img));
    ck_assert_uint_eq(ld.stage_bits, 8);
    ck_assert_uint_eq(ln.addr, 2 + fmt.nh_bits);
    unsigned N = lpm_image_stages(img), children = 0;
    for (unsigned s = 0; s < N; s++)
        for (uint32_t a = 0; a < lpm_image_stage_used(img, s); a++) {
            uint64_t x = lpm_image_word(img, s, a);
            lpm_node_word w;
            lpm_image_word_decode(img, s, x, &w);
            ck_assert_uint_eq(lpm_image_word_encode(img, s, &w), x);
            if (!w.child)
                continue;
            unsigned t = lpm_image_child_stage(img, s, &w), k = lpm_image_stage_stride(img, t);
            uint64_t field = (x >> ln.addr) & ((1ULL << ln.addr_bits) - 1);
            ck_assert_uint_eq(field << k, w.addr);
            ck_assert_uint_eq(w.addr & ((1u << k) - 1), 0);
            children++;
        }
    ck_assert_uint_gt(children, 0);
    for (uint32_t i = 0; i < (1u << lpm_image_initial_stride(img)); i++) {
        uint64_t x = lpm_image_dit_entry(img, i);
        lpm_node_word w;
        lpm_image_dit_decode(img, x, &w);
        ck_assert_uint_eq(lpm_image_dit_encode(img, &w), x);
        if (w.child)
            ck_assert_uint_eq(((x >> ld.addr) & ((1ULL << ld.addr_bits) - 1)) << lpm_image_stage_stride(img, w.stage),
                              w.addr);
    }
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

/* shadow_bits is what the shadow copy adds: the image with it less
 * shadow_bits is the one-copy image of the same table, at every stride
 * (addresses are block indexes, so the one-copy width depends on K). */
START_TEST(test_shadow_bits)
{
    static const unsigned strides[] = { 1, 3 };
    for (size_t i = 0; i < 2; i++) {
        lpm_fib f;
        small_table(&f);
        lpm_map_opts o;
        lpm_map_opts_default(&o);
        o.stages = 4;
        o.x = 4;
        o.stride = strides[i];
        lpm_map_report one, two;
        lpm_image *a, *b;
        lpm_err err;
        ck_assert_msg(lpm_map_build(&a, &f, &o, &one, &err) == 0, "%s", err.msg);
        o.copies = 2;
        ck_assert_msg(lpm_map_build(&b, &f, &o, &two, &err) == 0, "%s", err.msg);
        ck_assert_uint_eq(one.shadow_bits, 0);
        ck_assert_uint_gt(two.shadow_bits, 0);
        ck_assert_msg(two.memory_bits - two.shadow_bits == one.memory_bits,
                      "stride %u: %llu bits with the shadow, %llu of them for it, %llu without", strides[i],
                      (unsigned long long)two.memory_bits, (unsigned long long)two.shadow_bits,
                      (unsigned long long)one.memory_bits);
        lpm_image_free(a);
        lpm_image_free(b);
        lpm_fib_free(&f);
    }
}
END_TEST

int main(void)
{
    snprintf(path, sizeof path, "/tmp/lpmpipe-test-image-%d.lpi", (int)getpid());
    Suite *s = suite_create("mapper_image");
    TCase *t = tcase_create("image");
    tcase_add_test(t, test_round_trip_and_answers);
    tcase_add_test(t, test_bad_files);
    tcase_add_test(t, test_validate_in_memory);
    tcase_add_test(t, test_block_index_layout);
    tcase_add_test(t, test_shadow_bits);
    suite_add_tcase(s, t);
    int rc = tu_run(s);
    unlink(path);
    return rc;
}
