/* The FIB readers on small inline inputs: every format, compression, peer
 * selection, duplicates, withdrawals, update traces, and bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "../../core/fib_stats.h"
#include "../../core/trace.h"
#include "../../core/updates_load.h"

static char dir[64];

static const char *put(const char *name, const void *data, size_t n)
{
    static char path[8][128];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    FILE *fp = fopen(p, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(data, 1, n, fp), n);
    fclose(fp);
    return p;
}

static const char *puts_(const char *name, const char *text)
{
    return put(name, text, strlen(text));
}

static int load(lpm_fib *f, const char *path, const lpm_fib_opts *o, lpm_err *err)
{
    lpm_fib_init(f);
    return lpm_fib_load(f, path, o, err);
}

static void load_ok(lpm_fib *f, const char *path, const lpm_fib_opts *o)
{
    lpm_err err;
    int rc = load(f, path, o, &err);
    ck_assert_msg(rc == 0, "loading %s: %s", path, err.msg);
}

/* The next hop of prefix s in f, or NULL when absent. */
static const char *nh_of(const lpm_fib *f, const char *s)
{
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_parse(s, 0, 0, &p, NULL), 0);
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len == p.len && lpm_addr_eq(&f->routes[i].pfx.addr, &p.addr))
            return lpm_nhtab_name(&f->nh, f->routes[i].nh);
    return NULL;
}

#define EXPECT(f, pfx, nh) ck_assert_msg(nh_of(f, pfx) && !strcmp(nh_of(f, pfx), nh), \
                                         "%s: want %s, have %s", pfx, nh, nh_of(f, pfx) ? nh_of(f, pfx) : "(absent)")

static void expect_err(const char *path, const lpm_fib_opts *o, const char *want)
{
    lpm_fib f;
    lpm_err err;
    int rc = load(&f, path, o, &err);
    ck_assert_msg(rc == LPM_EINPUT, "%s: rc %d, want 2", path, rc);
    ck_assert_msg(strstr(err.msg, want), "%s: message '%s' lacks '%s'", path, err.msg, want);
    ck_assert_uint_eq(f.n, 0);
    lpm_fib_free(&f);
}

static lpm_fib_opts opts(void)
{
    lpm_fib_opts o;
    lpm_fib_opts_default(&o);
    return o;
}

START_TEST(test_plain_and_pfx2as)
{
    lpm_fib f;
    load_ok(&f, puts_("a.txt", "# comment\n10.0.0.0/8 a\n10.1.0.0/16 b\r\n\n  192.168.0.0/24\tc # trailing\n10.0.0.0/8 d\n"), NULL);
    ck_assert_int_eq(f.family, 4);
    ck_assert_uint_eq(f.n, 3);
    ck_assert_uint_eq(f.duplicates, 1);
    EXPECT(&f, "10.0.0.0/8", "d");
    EXPECT(&f, "10.1.0.0/16", "b");
    EXPECT(&f, "192.168.0.0/24", "c");
    lpm_fib_free(&f);
    load_ok(&f, puts_("b.pfx2as", "1.0.0.0\t24\t13335\n2.0.0.0\t8\t1_2\n"), NULL);
    EXPECT(&f, "1.0.0.0/24", "13335");
    EXPECT(&f, "2.0.0.0/8", "1_2");
    lpm_fib_free(&f);
    /* Prefix-only lines get the hashed label, the same for the same prefix. */
    load_ok(&f, puts_("c.txt", "2001:db8::/32\n"), NULL);
    const char *lab = nh_of(&f, "2001:db8::/32");
    ck_assert(lab && lab[0] == 'h');
    lpm_fib_free(&f);
    lpm_fib_opts o = opts();
    o.default_nh = "dflt";
    load_ok(&f, puts_("c.txt", "2001:db8::/32\n"), &o);
    EXPECT(&f, "2001:db8::/32", "dflt");
    lpm_fib_free(&f);
    o = opts();
    o.mask_host_bits = 1;
    load_ok(&f, puts_("d.txt", "10.1.2.3/8 x\n"), &o);
    EXPECT(&f, "10.0.0.0/8", "x");
    lpm_fib_free(&f);
    o = opts();
    o.family = 6;
    load_ok(&f, puts_("e.txt", "10.0.0.0/8 x\n::/0 y\n"), &o);
    ck_assert_uint_eq(f.n, 1);
    ck_assert_uint_eq(f.skipped, 1);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_bad_text)
{
    lpm_fib_opts o = opts();
    expect_err(puts_("b1.txt", "10.0.0.0/8 a\n10.0.0.0/33 b\n"), &o, "b1.txt:2: prefix length /33 out of range");
    expect_err(puts_("b2.txt", "10.0.0.1/8 a\n"), &o, "b2.txt:1: host bits set");
    expect_err(puts_("b3.txt", "10.0.0.0/8 a\n::/0 b\n"), &o, "b3.txt:2: mixed address families");
    expect_err(puts_("b4.txt", "# nothing\n"), &o, "b4.txt:1: no prefixes");
    expect_err(puts_("b5.txt", "BGP4MP|1|A|10.0.0.1|1|10.0.0.0/8|1|IGP\n"), &o, "b5.txt:1: A line with 8 fields");
    o.skip_bad = 1;
    lpm_fib f;
    load_ok(&f, puts_("b6.txt", "10.0.0.0/8 a\n300.0.0.0/8 b\n10.0.0.0/8 c d\n"), &o);
    ck_assert_uint_eq(f.n, 1);
    ck_assert_uint_eq(f.skipped, 2);
    lpm_fib_free(&f);
}
END_TEST

static const char *bgpdump_rib =
    "TABLE_DUMP2|1|B|10.0.0.1|65001|192.0.2.0/24|65001 1|IGP|10.0.0.1|0|0||NAG||\n"
    "TABLE_DUMP2|1|B|10.0.0.2|65002|192.0.2.0/24|65002 1|IGP|10.0.0.2|0|0||NAG||\n"
    "TABLE_DUMP2|1|B|10.0.0.1|65001|198.51.100.0/22|65001 2|IGP|10.0.0.11|0|0||NAG||\n"
    "TABLE_DUMP2_AP|1|B|10.0.0.2|65002|203.0.113.0/24|7|65002 2|IGP|10.0.0.2|0|0||NAG||\n"
    "TABLE_DUMP2|1|B|10.0.0.2|65002|2001:db8::/32|65002 3|IGP|2001:db8::2|0|0||NAG||\n"
    "TABLE_DUMP2|1|B|10.0.0.2|65002|2001:db9::/32|65002 3|IGP|2001:db8::2|0|0||NAG||\n";

START_TEST(test_bgpdump_peers)
{
    const char *p = puts_("rib.txt", bgpdump_rib);
    lpm_fib f;
    lpm_fib_opts o = opts();
    /* Peer 10.0.0.2 has the most routes, but they mix families. */
    expect_err(p, &o, "rib.txt:5: mixed address families");
    o.family = 4;
    load_ok(&f, p, &o);
    ck_assert_str_eq(f.peer, "10.0.0.1 AS65001");
    ck_assert_uint_eq(f.n, 2);
    EXPECT(&f, "192.0.2.0/24", "10.0.0.1");
    EXPECT(&f, "198.51.100.0/22", "10.0.0.11");
    ck_assert_uint_eq(f.skipped, 3); /* two IPv6 lines, one add-path line */
    lpm_fib_free(&f);
    o.peer_as = 65002;
    load_ok(&f, p, &o);
    ck_assert_uint_eq(f.n, 1);
    EXPECT(&f, "192.0.2.0/24", "10.0.0.2");
    lpm_fib_free(&f);
    o = opts();
    o.family = 6;
    o.peer_addr = "10.0.0.2";
    load_ok(&f, p, &o);
    ck_assert_uint_eq(f.n, 2);
    EXPECT(&f, "2001:db8::/32", "2001:db8::2");
    lpm_fib_free(&f);
    o.peer_addr = "10.9.9.9";
    expect_err(p, &o, "no routes from peer 10.9.9.9");
    o.peer_addr = "10.0.0.300";
    expect_err(p, &o, "--peer: bad IPv4 address");
}
END_TEST

START_TEST(test_bgpdump_updates)
{
    const char *p = puts_("upd.txt",
        "BGP4MP_ET|1.5|STATE|10.0.0.1|65001|1|2\n"
        "BGP4MP_ET|2.5|A|10.0.0.1|65001|10.1.0.0/16|65001|IGP|10.0.0.1|100|0||NAG||\n"
        "BGP4MP_ET|2.5|A|10.0.0.1|65001|10.2.0.0/16|65001|IGP|10.0.0.1|100|0||NAG||\n"
        "BGP4MP_ET|3.5|W|10.0.0.1|65001|10.1.0.0/16\n"
        "BGP4MP_ET|4.5|A|10.0.0.1|65001|10.2.0.0/16|65001|IGP|10.0.0.9|100|0||NAG||\n"
        "BGP4MP_ET|5.5|W|10.0.0.1|65001|10.3.0.0/16\n"
        "BGP4MP_ET|6.5|A|10.0.0.1|65001|10.4.0.0/16|65001|IGP|10.0.0.1|100|0||NAG||\n"
        "BGP4MP_ET|7.5|W|10.0.0.1|65001|10.4.0.0/16\n"
        "BGP4MP_ET|8.5|A|10.0.0.1|65001|10.4.0.0/16|65001|IGP|10.0.0.4|100|0||NAG||\n");
    lpm_fib f;
    load_ok(&f, p, NULL);
    ck_assert_uint_eq(f.n, 2);
    EXPECT(&f, "10.2.0.0/16", "10.0.0.9");
    EXPECT(&f, "10.4.0.0/16", "10.0.0.4");
    ck_assert_ptr_null(nh_of(&f, "10.1.0.0/16"));
    ck_assert_uint_eq(f.duplicates, 2);
    ck_assert_str_eq(f.peer, "");
    lpm_fib_free(&f);
}
END_TEST

/* MRT bytes, built field by field. */
typedef struct {
    unsigned char b[4096];
    size_t n;
} buf;

static void b8(buf *x, unsigned v) { x->b[x->n++] = (unsigned char)v; }
static void b16(buf *x, unsigned v) { b8(x, v >> 8); b8(x, v & 255); }
static void b32(buf *x, uint32_t v) { b16(x, v >> 16); b16(x, v & 0xffff); }
static void bytes(buf *x, const void *p, size_t n) { memcpy(x->b + x->n, p, n); x->n += n; }
static void baddr(buf *x, const char *s)
{
    lpm_addr a;
    int fam;
    ck_assert_int_eq(lpm_addr_parse(s, &fam, &a, NULL), 0);
    for (int i = 0; i < (fam == 4 ? 4 : 16); i++)
        b8(x, (unsigned)((i < 8 ? a.hi >> (56 - 8 * i) : a.lo >> (56 - 8 * (i - 8))) & 255));
}
static void bprefix(buf *x, const char *s)
{
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_parse(s, 0, 0, &p, NULL), 0);
    b8(x, p.len);
    for (unsigned i = 0; i < (p.len + 7u) / 8; i++)
        b8(x, (unsigned)((i < 8 ? p.addr.hi >> (56 - 8 * i) : p.addr.lo >> (56 - 8 * (i - 8))) & 255));
}
static void record(buf *out, unsigned type, unsigned sub, const buf *body)
{
    b32(out, 1445565678);
    b16(out, type);
    b16(out, sub);
    b32(out, (uint32_t)body->n);
    bytes(out, body->b, body->n);
}
static void attr_nexthop(buf *x, const char *a) { b8(x, 0x40); b8(x, 3); b8(x, 4); baddr(x, a); }

static void table_dump_v2(buf *m)
{
    buf b = { .n = 0 };
    b32(&b, 0x0a000000); b16(&b, 0); b16(&b, 2);
    b8(&b, 0); b32(&b, 1); baddr(&b, "10.0.0.1"); b16(&b, 65001);          /* IPv4, 2-byte AS */
    b8(&b, 3); b32(&b, 2); baddr(&b, "2001:db8::1"); b32(&b, 4200000000u); /* IPv6, AS4 */
    record(m, 13, 1, &b);
    b.n = 0; /* 192.0.2.0/24 from both peers */
    b32(&b, 0); bprefix(&b, "192.0.2.0/24"); b16(&b, 2);
    b16(&b, 0); b32(&b, 0); b16(&b, 7); attr_nexthop(&b, "10.0.0.1");
    b16(&b, 1); b32(&b, 0); b16(&b, 7); attr_nexthop(&b, "10.9.9.9");
    record(m, 13, 2, &b);
    b.n = 0;
    b32(&b, 1); bprefix(&b, "198.51.100.0/22"); b16(&b, 1);
    b16(&b, 0); b32(&b, 0); b16(&b, 7); attr_nexthop(&b, "10.0.0.11");
    record(m, 13, 2, &b);
    b.n = 0; /* IPv6 with the abbreviated MP_REACH_NLRI of RFC 6396 */
    b32(&b, 2); bprefix(&b, "2001:db8:100::/40"); b16(&b, 1);
    b16(&b, 1); b32(&b, 0); b16(&b, 20); b8(&b, 0x80); b8(&b, 14); b8(&b, 17); b8(&b, 16); baddr(&b, "2001:db8::1");
    record(m, 13, 4, &b);
    b.n = 0; /* a multicast RIB: skipped, counted */
    b32(&b, 3);
    record(m, 13, 3, &b);
}

START_TEST(test_mrt_table_dump_v2)
{
    buf m = { .n = 0 };
    table_dump_v2(&m);
    const char *p = put("rib.mrt", m.b, m.n);
    lpm_fib f;
    lpm_fib_opts o = opts();
    o.family = 4;
    load_ok(&f, p, &o);
    ck_assert_str_eq(f.peer, "10.0.0.1 AS65001");
    ck_assert_uint_eq(f.n, 2);
    EXPECT(&f, "192.0.2.0/24", "10.0.0.1");
    EXPECT(&f, "198.51.100.0/22", "10.0.0.11");
    lpm_fib_free(&f);
    o.peer_as = 4200000000L;
    load_ok(&f, p, &o);
    ck_assert_uint_eq(f.n, 1);
    EXPECT(&f, "192.0.2.0/24", "10.9.9.9");
    lpm_fib_free(&f);
    o = opts();
    o.family = 6;
    load_ok(&f, p, &o);
    EXPECT(&f, "2001:db8:100::/40", "2001:db8::1");
    lpm_fib_free(&f);
    /* Truncated: the last record loses a byte; mis-sized: an attribute
     * length beyond its entry. */
    expect_err(put("trunc.mrt", m.b, m.n - 1), NULL, "trunc.mrt: offset 197: record 5: truncated MRT record");
    size_t rec2 = 12 + 44; /* after the PEER_INDEX_TABLE record */
    buf bad = m;
    bad.b[rec2 + 12 + 17] = 200; /* low byte of the 1st RIB entry's attribute length */
    expect_err(put("size.mrt", bad.b, bad.n), NULL, "record 2: MRT type 13 subtype 2: RIB entry attribute length 200 exceeds");
    buf pre = { .n = 0 };
    bytes(&pre, m.b + rec2, m.n - rec2);
    expect_err(put("nopit.mrt", pre.b, pre.n), NULL, "nopit.mrt: offset 0: record 1: MRT type 13 subtype 2: RIB record before any PEER_INDEX_TABLE");
}
END_TEST

static void bgp_update(buf *m, int as4, const char *peer, const buf *upd)
{
    buf b = { .n = 0 };
    b32(&b, 123456); /* ET microseconds */
    int v6 = strchr(peer, ':') != NULL;
    if (as4) { b32(&b, 65002); b32(&b, 65000); } else { b16(&b, 65002); b16(&b, 65000); }
    b16(&b, 0); b16(&b, v6 ? 2 : 1);
    baddr(&b, peer); baddr(&b, v6 ? "2001:db8::ff" : "10.0.0.254");
    for (int i = 0; i < 16; i++)
        b8(&b, 0xff);
    b16(&b, (unsigned)(19 + upd->n)); b8(&b, 2);
    bytes(&b, upd->b, upd->n);
    record(m, 17, as4 ? 4 : 1, &b);
}

START_TEST(test_mrt_bgp4mp)
{
    buf m = { .n = 0 }, u = { .n = 0 }, s = { .n = 0 };
    b32(&s, 0); b16(&s, 65002); b16(&s, 65000); b16(&s, 0); b16(&s, 1);
    baddr(&s, "10.0.0.2"); baddr(&s, "10.0.0.254"); b16(&s, 1); b16(&s, 6);
    record(&m, 17, 0, &s); /* STATE_CHANGE: ignored */
    b16(&u, 0); b16(&u, 7); attr_nexthop(&u, "10.0.0.2"); bprefix(&u, "10.1.0.0/16"); bprefix(&u, "10.2.0.0/16");
    bgp_update(&m, 1, "10.0.0.2", &u);
    u.n = 0; /* withdraw 10.1.0.0/16 */
    b16(&u, 3); bprefix(&u, "10.1.0.0/16"); b16(&u, 0);
    bgp_update(&m, 1, "10.0.0.2", &u);
    lpm_fib f;
    load_ok(&f, put("upd.mrt", m.b, m.n), NULL);
    ck_assert_uint_eq(f.n, 1);
    EXPECT(&f, "10.2.0.0/16", "10.0.0.2");
    lpm_fib_free(&f);
    /* IPv6 over MP_REACH_NLRI (global + link-local next hop), then MP_UNREACH. */
    m.n = 0;
    u.n = 0;
    b16(&u, 0);
    buf a = { .n = 0 };
    b16(&a, 2); b8(&a, 1); b8(&a, 32); baddr(&a, "2001:db8::2"); baddr(&a, "fe80::2"); b8(&a, 0);
    bprefix(&a, "2001:db8:1::/48"); bprefix(&a, "2001:db8:2::/48");
    b16(&u, (unsigned)(4 + a.n)); b8(&u, 0x90); b8(&u, 14); b16(&u, (unsigned)a.n); bytes(&u, a.b, a.n);
    bgp_update(&m, 0, "2001:db8::2", &u);
    u.n = 0;
    a.n = 0;
    b16(&a, 2); b8(&a, 1); bprefix(&a, "2001:db8:2::/48");
    b16(&u, 0); b16(&u, (unsigned)(3 + a.n)); b8(&u, 0x80); b8(&u, 15); b8(&u, (unsigned)a.n); bytes(&u, a.b, a.n);
    bgp_update(&m, 0, "2001:db8::2", &u);
    load_ok(&f, put("upd6.mrt", m.b, m.n), NULL);
    ck_assert_uint_eq(f.n, 1);
    EXPECT(&f, "2001:db8:1::/48", "2001:db8::2");
    lpm_fib_free(&f);
    /* The BGP length must match the record. */
    m.b[12 + 60 + 1] += 1; /* low byte of the BGP length of record 1 */
    expect_err(put("len.mrt", m.b, m.n), NULL, "len.mrt: offset 0: record 1: MRT type 17 subtype 1: BGP message length");
}
END_TEST

START_TEST(test_compressed)
{
    const char *p = puts_("z.txt", "10.0.0.0/8 a\n10.1.0.0/16 b\n");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && gzip -kf z.txt && xz -kf z.txt && bzip2 -kf z.txt", dir);
    if (system(cmd) != 0) {
        tu_skip("gzip/xz/bzip2 not available");
        return;
    }
    const char *ext[] = { ".gz", ".xz", ".bz2" };
    for (int i = 0; i < 3; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s%s", p, ext[i]);
        lpm_fib f;
        load_ok(&f, path, NULL);
        ck_assert_uint_eq(f.n, 2);
        EXPECT(&f, "10.1.0.0/16", "b");
        lpm_fib_free(&f);
        /* Truncated compressed data is an error, never a short table. */
        FILE *fp = fopen(path, "rb");
        unsigned char b[256];
        size_t n = fread(b, 1, sizeof b, fp);
        fclose(fp);
        const char *t = put("trunc.z", b, n / 2);
        lpm_err err;
        ck_assert_int_ne(load(&f, t, NULL, &err), 0);
        ck_assert_msg(strstr(err.msg, "compressed data"), "%s", err.msg);
    }
}
END_TEST

START_TEST(test_stats_nesting)
{
    lpm_fib f;
    load_ok(&f, puts_("n.txt", "10.0.0.0/8 a\n10.1.0.0/16 b\n10.1.2.0/24 c\n11.0.0.0/8 d\n10.2.0.0/16 e\n"), NULL);
    lpm_fib_stats s;
    lpm_fib_stats_compute(&f, &s);
    ck_assert_uint_eq(s.prefixes, 5);
    ck_assert_uint_eq(s.nested, 3);
    ck_assert_uint_eq(s.next_hops, 5);
    ck_assert_uint_eq(s.lengths[8], 2);
    ck_assert_uint_eq(s.lengths[16], 2);
    ck_assert_uint_eq(s.lengths[24], 1);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_updates_load)
{
    lpm_fib f;
    load_ok(&f, puts_("base.txt", "10.0.0.0/8 a\n"), NULL);
    lpm_update *u;
    size_t n;
    lpm_err err;
    const char *p = puts_("u.txt", "1418774413 w 202.70.88.0/21 0.0.0.0\n1418774413.5 a 202.70.88.0/21 195.66.226.74\n7 a 10.9.0.0/16\n");
    ck_assert_msg(lpm_updates_load(p, &f, NULL, &u, &n, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(u[0].op, 'w');
    ck_assert_uint_eq(u[0].nh, LPM_NH_NONE);
    ck_assert_int_eq(u[1].op, 'a');
    ck_assert_str_eq(lpm_nhtab_name(&f.nh, u[1].nh), "195.66.226.74");
    ck_assert(u[1].time > 1418774413.4 && u[1].time < 1418774413.6);
    ck_assert(lpm_nhtab_name(&f.nh, u[2].nh)[0] == 'h');
    free(u);
    p = puts_("u2.txt",
              "BGP4MP|1|STATE|10.0.0.1|1|1|2\n"
              "BGP4MP|2|A|10.0.0.2|2|10.2.0.0/16|2|IGP|10.0.0.2|0|0||NAG||\n"
              "BGP4MP|3|A|10.0.0.1|1|10.1.0.0/16|1|IGP|10.0.0.1|0|0||NAG||\n"
              "BGP4MP|4|W|10.0.0.1|1|10.1.0.0/16\n");
    char peer[96];
    ck_assert_int_eq(lpm_updates_load_ex(p, &f, NULL, 0, &u, &n, peer, sizeof peer, &err), 0);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(peer, "10.0.0.2 AS2");
    free(u);
    ck_assert_int_eq(lpm_updates_load(p, &f, "10.0.0.1", &u, &n, &err), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(u[1].op, 'w');
    free(u);
    ck_assert_int_eq(lpm_updates_load(puts_("u3.txt", "1 a 2001:db8::/32 x\n"), &f, NULL, &u, &n, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "u3.txt:1: IPv6 update for an IPv4 table"), "%s", err.msg);
    ck_assert_int_eq(lpm_updates_load(puts_("u4.txt", "1 x 10.0.0.0/8\n"), &f, NULL, &u, &n, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "u4.txt:1: bad operation 'x'"), "%s", err.msg);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_real_update_trace)
{
    char path[512];
    if (!tu_data_file("linx-update-20141217-p52.txt", path, sizeof path))
        return;
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_update *u;
    size_t n;
    lpm_err err;
    ck_assert_msg(lpm_updates_load(path, &f, NULL, &u, &n, &err) == 0, "%s", err.msg);
    size_t a = 0, w = 0;
    for (size_t i = 0; i < n; i++)
        u[i].op == 'a' ? a++ : w++;
    /* The data README: 18,141 announcements and 5,305 withdrawals. */
    ck_assert_uint_eq(a, 18141);
    ck_assert_uint_eq(w, 5305);
    free(u);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lpm-readers-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    Suite *s = suite_create("fib_readers");
    TCase *t = tcase_create("readers");
    tcase_add_test(t, test_plain_and_pfx2as);
    tcase_add_test(t, test_bad_text);
    tcase_add_test(t, test_bgpdump_peers);
    tcase_add_test(t, test_bgpdump_updates);
    tcase_add_test(t, test_mrt_table_dump_v2);
    tcase_add_test(t, test_mrt_bgp4mp);
    tcase_add_test(t, test_compressed);
    tcase_add_test(t, test_stats_nesting);
    tcase_add_test(t, test_updates_load);
    tcase_add_test(t, test_real_update_trace);
    suite_add_tcase(s, t);
    int rc = tu_run(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
