#include <string.h>

#include "testutil.h"
#include "../../core/prefix.h"

static void parse_ok(const char *s, int mask, const char *canon)
{
    lpm_prefix p;
    lpm_err err;
    ck_assert_msg(lpm_prefix_parse(s, 0, mask, &p, &err) == LPM_OK, "%s: %s", s, err.msg);
    char buf[LPM_ADDR_STRLEN];
    lpm_prefix_format(&p, buf, sizeof buf);
    ck_assert_str_eq(buf, canon);
}

static void parse_bad(const char *s, const char *why)
{
    lpm_prefix p;
    lpm_err err;
    ck_assert_int_eq(lpm_prefix_parse(s, 0, 0, &p, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, why), "'%s': message '%s' lacks '%s'", s, err.msg, why);
}

START_TEST(test_parse_good)
{
    parse_ok("10.0.0.0/8", 0, "10.0.0.0/8");
    parse_ok("0.0.0.0/0", 0, "0.0.0.0/0");
    parse_ok("255.255.255.255/32", 0, "255.255.255.255/32");
    parse_ok("2001:db8::/32", 0, "2001:db8::/32");
    parse_ok("::/0", 0, "::/0");
    parse_ok("2001:DB8:0:0::/64", 0, "2001:db8::/64");
    parse_ok("10.1.2.3/8", 1, "10.0.0.0/8");
    parse_ok("::ffff:1.2.3.4/128", 0, "::ffff:1.2.3.4/128");
}
END_TEST

START_TEST(test_parse_bad)
{
    parse_bad("10.0.0.0/33", "out of range");
    parse_bad("::/129", "out of range");
    parse_bad("256.0.0.0/8", "octet 1 out of range");
    parse_bad("1.2.3/24", "4 dotted octets");
    parse_bad("10.1.0.0/8", "host bits set");
    parse_bad("2001:db8::1/32", "host bits set");
    parse_bad("10.0.0.0", "missing '/len'");
    parse_bad("10.0.0.0/", "bad prefix length");
    parse_bad("10.0.0.0/8x", "bad prefix length");
    parse_bad("2001:::1/64", "bad IPv6 address");
    parse_bad("", "empty");
}
END_TEST

START_TEST(test_bits)
{
    lpm_addr a;
    int fam;
    ck_assert_int_eq(lpm_addr_parse("2001:db8:8000:f:8000::1", &fam, &a, NULL), 0);
    ck_assert_int_eq(fam, 6);
    ck_assert_uint_eq(lpm_addr_bits(&a, 0, 16), 0x2001);
    ck_assert_uint_eq(lpm_addr_bits(&a, 32, 1), 1);
    ck_assert_uint_eq(lpm_addr_bits(&a, 120, 8), 1);
    ck_assert_uint_eq(lpm_addr_bits(&a, 60, 8), 0xF8); /* straddles hi and lo */
    ck_assert_uint_eq(lpm_addr_bit(&a, 127), 1);
    ck_assert_int_eq(lpm_addr_parse("192.168.1.1", &fam, &a, NULL), 0);
    ck_assert_int_eq(fam, 4);
    ck_assert_uint_eq(lpm_addr_to_v4(&a), 0xC0A80101u);
    ck_assert_uint_eq(lpm_addr_bits(&a, 0, 32), 0xC0A80101u);
    lpm_addr m = lpm_addr_mask(&a, 20);
    ck_assert_uint_eq(lpm_addr_to_v4(&m), 0xC0A80000u);
    for (unsigned i = 0; i < 128; i++) {
        lpm_addr z = { 0, 0 };
        lpm_addr_set_bit(&z, i, 1);
        ck_assert_uint_eq(lpm_addr_bit(&z, i), 1);
        lpm_addr mm = lpm_addr_mask(&z, i);
        ck_assert(mm.hi == 0 && mm.lo == 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("prefix");
    TCase *t = tcase_create("prefix");
    tcase_add_test(t, test_parse_good);
    tcase_add_test(t, test_parse_bad);
    tcase_add_test(t, test_bits);
    suite_add_tcase(s, t);
    return tu_run(s);
}
