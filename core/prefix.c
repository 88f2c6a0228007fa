#define _POSIX_C_SOURCE 200809L
#include "prefix.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Q(s) lpm_quote(q, sizeof q, (s), strlen(s))

static int parse_v4(const char *s, lpm_addr *out, lpm_err *err)
{
    char q[LPM_QUOTE_MAX];
    uint32_t v = 0;
    const char *p = s;
    for (int part = 0; part < 4; part++) {
        if (*p < '0' || *p > '9')
            return lpm_err_set(err, LPM_EINPUT, "bad IPv4 address '%s': octet %d is not a number", Q(s), part + 1);
        unsigned o = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            o = o * 10 + (unsigned)(*p - '0');
            if (++digits > 3 || o > 255)
                return lpm_err_set(err, LPM_EINPUT, "bad IPv4 address '%s': octet %d out of range", Q(s), part + 1);
            p++;
        }
        v = (v << 8) | o;
        if (part < 3) {
            if (*p != '.')
                return lpm_err_set(err, LPM_EINPUT, "bad IPv4 address '%s': expected 4 dotted octets", Q(s));
            p++;
        }
    }
    if (*p)
        return lpm_err_set(err, LPM_EINPUT, "bad IPv4 address '%s': trailing characters", Q(s));
    *out = lpm_addr_from_v4(v);
    return LPM_OK;
}

int lpm_addr_parse(const char *s, int *family, lpm_addr *out, lpm_err *err)
{
    char q[LPM_QUOTE_MAX];
    if (!s || !*s)
        return lpm_err_set(err, LPM_EINPUT, "empty address");
    if (strchr(s, ':')) {
        unsigned char b[16];
        if (strlen(s) >= 64 || inet_pton(AF_INET6, s, b) != 1)
            return lpm_err_set(err, LPM_EINPUT, "bad IPv6 address '%s'", Q(s));
        uint64_t hi = 0, lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | b[i];
            lo = (lo << 8) | b[i + 8];
        }
        out->hi = hi;
        out->lo = lo;
        *family = LPM_AF_INET6;
        return LPM_OK;
    }
    int rc = parse_v4(s, out, err);
    if (rc == LPM_OK)
        *family = LPM_AF_INET;
    return rc;
}

int lpm_prefix_make(const lpm_addr *a, int family, unsigned len, int mask_host,
                    lpm_prefix *out, lpm_err *err)
{
    unsigned w = lpm_family_bits(family);
    if (len > w)
        return lpm_err_set(err, LPM_EINPUT, "prefix length /%u out of range for IPv%d (0..%u)", len, family, w);
    lpm_addr m = lpm_addr_mask(a, len);
    if (!mask_host && !lpm_addr_eq(&m, a)) {
        char buf[LPM_ADDR_STRLEN];
        lpm_addr_format(a, family, buf, sizeof buf);
        return lpm_err_set(err, LPM_EINPUT, "host bits set in %s/%u (use --mask-host-bits to clear them)", buf, len);
    }
    out->addr = m;
    out->len = (uint8_t)len;
    out->family = (uint8_t)family;
    return LPM_OK;
}

int lpm_prefix_parse(const char *s, int allow_bare, int mask_host,
                     lpm_prefix *out, lpm_err *err)
{
    char buf[80], q[LPM_QUOTE_MAX];
    size_t n = strlen(s);
    if (n == 0)
        return lpm_err_set(err, LPM_EINPUT, "empty prefix");
    if (n >= sizeof buf)
        return lpm_err_set(err, LPM_EINPUT, "prefix too long: '%s'", Q(s));
    memcpy(buf, s, n + 1);
    char *slash = strchr(buf, '/');
    if (!slash && !allow_bare)
        return lpm_err_set(err, LPM_EINPUT, "missing '/len' in prefix '%s'", Q(s));
    if (slash)
        *slash = '\0';
    int family;
    lpm_addr a;
    int rc = lpm_addr_parse(buf, &family, &a, err);
    if (rc)
        return rc;
    unsigned len = lpm_family_bits(family);
    if (slash) {
        const char *l = slash + 1;
        if (*l < '0' || *l > '9')
            return lpm_err_set(err, LPM_EINPUT, "bad prefix length in '%s'", Q(s));
        unsigned long v = 0;
        for (; *l >= '0' && *l <= '9'; l++) {
            v = v * 10 + (unsigned long)(*l - '0');
            if (v > 1000)
                break;
        }
        if (*l && !(*l >= '0' && *l <= '9'))
            return lpm_err_set(err, LPM_EINPUT, "bad prefix length in '%s'", Q(s));
        if (v > len) /* the digits as written, however many */
            return lpm_err_set(err, LPM_EINPUT, "prefix length /%s out of range for IPv%d (0..%u)", Q(slash + 1), family,
                               len);
        len = (unsigned)v;
    }
    return lpm_prefix_make(&a, family, len, mask_host, out, err);
}

void lpm_addr_format(const lpm_addr *a, int family, char *buf, size_t size)
{
    if (family == LPM_AF_INET) {
        uint32_t v = lpm_addr_to_v4(a);
        snprintf(buf, size, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
        return;
    }
    unsigned char b[16];
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(a->hi >> (56 - 8 * i));
        b[i + 8] = (unsigned char)(a->lo >> (56 - 8 * i));
    }
    char tmp[INET6_ADDRSTRLEN];
    if (!inet_ntop(AF_INET6, b, tmp, sizeof tmp))
        tmp[0] = '\0';
    snprintf(buf, size, "%s", tmp);
}

void lpm_prefix_format(const lpm_prefix *p, char *buf, size_t size)
{
    char a[LPM_ADDR_STRLEN];
    lpm_addr_format(&p->addr, p->family, a, sizeof a);
    snprintf(buf, size, "%s/%u", a, p->len);
}
