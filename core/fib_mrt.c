/* Binary MRT (RFC 6396): TABLE_DUMP, TABLE_DUMP_V2 (PEER_INDEX_TABLE,
 * RIB_IPV4_UNICAST, RIB_IPV6_UNICAST), BGP4MP and BGP4MP_ET UPDATE
 * messages. Every length is checked against its container; a bad record is
 * reported as "file: offset N: record R: reason", N the byte offset where
 * the record starts (after decompression), R its 1-based number. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fib_readers.h"
#include "fib_rib.h"

#define MRT_MAX_RECORD (16u << 20)

enum {
    T_TABLE_DUMP = 12, T_TABLE_DUMP_V2 = 13, T_BGP4MP = 16, T_BGP4MP_ET = 17
};

typedef struct {
    const uint8_t *p;
    size_t n;
} cur;

typedef struct {
    lpm_addr a;
    int family;
    uint32_t as;
    uint32_t id;   /* rib peer id, UINT32_MAX until a route names it */
} pit_entry;

typedef struct {
    lpm_rib rib;
    const lpm_fib_opts *o;
    unsigned long rec;
    pit_entry *pit;
    size_t npit;
    int have_pit;
    char why[400];
    uint64_t *rec_off;   /* where each record starts */
    size_t nrec, rec_cap;
} mrt;

static int bad(mrt *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(mrt *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* Takes k bytes of c; what names the field for the message. */
static int take(mrt *m, cur *c, size_t k, const uint8_t **out, const char *what)
{
    *out = c->p;
    if (c->n < k)
        return bad(m, "%s: needs %zu bytes, only %zu left", what, k, c->n);
    *out = c->p;
    c->p += k;
    c->n -= k;
    return 0;
}

static int u8(mrt *m, cur *c, unsigned *v, const char *what)
{
    const uint8_t *b = NULL;
    if (take(m, c, 1, &b, what))
        return -1;
    *v = b[0];
    return 0;
}

static int u16(mrt *m, cur *c, unsigned *v, const char *what)
{
    const uint8_t *b;
    if (take(m, c, 2, &b, what))
        return -1;
    *v = (unsigned)b[0] << 8 | b[1];
    return 0;
}

static int u32(mrt *m, cur *c, uint32_t *v, const char *what)
{
    const uint8_t *b;
    if (take(m, c, 4, &b, what))
        return -1;
    *v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return 0;
}

/* A sub-container of len bytes (a length field's extent). */
static int sub(mrt *m, cur *c, size_t len, cur *out, const char *what)
{
    const uint8_t *b;
    if (c->n < len)
        return bad(m, "%s length %zu exceeds its container (%zu bytes left)", what, len, c->n);
    take(m, c, len, &b, what);
    out->p = b;
    out->n = len;
    return 0;
}

static lpm_addr addr_from(const uint8_t *b, size_t k)
{
    uint8_t w[16] = { 0 };
    memcpy(w, b, k > 16 ? 16 : k);
    lpm_addr a = { 0, 0 };
    for (int i = 0; i < 8; i++) {
        a.hi = a.hi << 8 | w[i];
        a.lo = a.lo << 8 | w[i + 8];
    }
    return a;
}

static int addr(mrt *m, cur *c, int family, lpm_addr *a, const char *what)
{
    const uint8_t *b;
    size_t k = family == LPM_AF_INET ? 4 : 16;
    if (take(m, c, k, &b, what))
        return -1;
    *a = addr_from(b, k);
    return 0;
}

/* A prefix as length byte + ceil(len/8) bytes (NLRI and RIB records). */
static int prefix(mrt *m, cur *c, int family, lpm_prefix *p, const char *what)
{
    unsigned len;
    const uint8_t *b;
    if (u8(m, c, &len, what))
        return -1;
    unsigned w = lpm_family_bits(family);
    if (len > w)
        return bad(m, "%s: prefix length /%u out of range for IPv%d (0..%u)", what, len, family, w);
    if (take(m, c, (len + 7) / 8, &b, what))
        return -1;
    lpm_addr a = addr_from(b, (len + 7) / 8);
    lpm_err e;
    if (lpm_prefix_make(&a, family, len, m->o->mask_host_bits, p, &e))
        return bad(m, "%s: %s", what, e.msg);
    return 0;
}

/* What a route needs from the path attributes. */
typedef struct {
    int have_nh;
    lpm_addr nh;          /* NEXT_HOP */
    int have_mp;
    int mp_family;
    lpm_addr mp_nh;       /* MP_REACH_NLRI next hop (the global one) */
    cur mp_nlri;          /* full form only */
    unsigned mp_afi, mp_safi;
    int have_unreach;
    cur unreach;
    unsigned un_afi, un_safi;
} attrs;

static int mp_nexthop(mrt *m, cur *c, unsigned nhlen, attrs *at)
{
    const uint8_t *b;
    if (take(m, c, nhlen, &b, "MP_REACH_NLRI next hop"))
        return -1;
    if (nhlen == 4)
        at->mp_family = LPM_AF_INET;
    else if (nhlen == 16 || nhlen == 32)
        at->mp_family = LPM_AF_INET6;
    else
        return bad(m, "MP_REACH_NLRI next-hop length %u (expected 4, 16 or 32)", nhlen);
    at->mp_nh = addr_from(b, nhlen == 4 ? 4 : 16);
    at->have_mp = 1;
    return 0;
}

/* rib_entry: MP_REACH_NLRI may be the abbreviated form of RFC 6396 4.3.4
 * (next-hop length and next hop only); recognised by its first byte. */
static int parse_attrs(mrt *m, cur c, int rib_entry, attrs *at)
{
    memset(at, 0, sizeof *at);
    while (c.n) {
        unsigned flags, type, len;
        if (u8(m, &c, &flags, "attribute flags") || u8(m, &c, &type, "attribute type"))
            return -1;
        if (flags & 0x10 ? u16(m, &c, &len, "attribute length") : u8(m, &c, &len, "attribute length"))
            return -1;
        cur a;
        char what[48];
        snprintf(what, sizeof what, "attribute %u", type);
        if (sub(m, &c, len, &a, what))
            return -1;
        if (type == 3) { /* NEXT_HOP */
            if (len != 4)
                return bad(m, "NEXT_HOP attribute of %u bytes (expected 4)", len);
            at->nh = addr_from(a.p, 4);
            at->have_nh = 1;
        } else if (type == 14) { /* MP_REACH_NLRI */
            unsigned nhlen = 0;
            if (rib_entry && len >= 1 && a.p[0] == len - 1) {
                u8(m, &a, &nhlen, "");
                if (mp_nexthop(m, &a, nhlen, at))
                    return -1;
                continue;
            }
            unsigned reserved;
            if (u16(m, &a, &at->mp_afi, "MP_REACH_NLRI AFI") || u8(m, &a, &at->mp_safi, "MP_REACH_NLRI SAFI"))
                return -1;
            if (at->mp_safi != 1)
                continue; /* VPN, multicast, ...: not unicast routes */
            if (u8(m, &a, &nhlen, "MP_REACH_NLRI next-hop length") || mp_nexthop(m, &a, nhlen, at))
                return -1;
            if (!rib_entry || a.n) {
                if (u8(m, &a, &reserved, "MP_REACH_NLRI reserved byte"))
                    return -1;
            }
            at->mp_nlri = a;
        } else if (type == 15) { /* MP_UNREACH_NLRI */
            if (u16(m, &a, &at->un_afi, "MP_UNREACH_NLRI AFI") || u8(m, &a, &at->un_safi, "MP_UNREACH_NLRI SAFI"))
                return -1;
            at->unreach = a;
            at->have_unreach = 1;
        }
    }
    return 0;
}

/* The next-hop token of a route of the given family: the MP next hop for
 * IPv6 (NEXT_HOP as fallback), NEXT_HOP for IPv4 (MP as fallback). */
static const char *nh_token(const attrs *at, int family, char *buf, size_t size)
{
    int mp_first = family == LPM_AF_INET6;
    if (at->have_mp && (mp_first || !at->have_nh))
        lpm_addr_format(&at->mp_nh, at->mp_family, buf, size);
    else if (at->have_nh)
        lpm_addr_format(&at->nh, LPM_AF_INET, buf, size);
    else
        return NULL;
    return buf;
}

static int add(mrt *m, uint32_t peer, const lpm_prefix *p, const char *nh, int withdraw, lpm_err *err)
{
    return lpm_rib_add(&m->rib, peer, p, nh, nh ? strlen(nh) : 0, withdraw, m->rec, err) ? -2 : 0;
}

/* TABLE_DUMP (v1): one route per record; subtype is the AFI. */
static int table_dump(mrt *m, unsigned subtype, cur c, lpm_err *err)
{
    int fam = subtype == 1 ? LPM_AF_INET : subtype == 2 ? LPM_AF_INET6 : 0;
    if (!fam)
        return 1;
    unsigned view, seq, plen, status, as, alen;
    uint32_t t;
    lpm_addr pa, peer;
    if (u16(m, &c, &view, "view number") || u16(m, &c, &seq, "sequence number") ||
        addr(m, &c, fam, &pa, "prefix") || u8(m, &c, &plen, "prefix length") ||
        u8(m, &c, &status, "status") || u32(m, &c, &t, "originated time") ||
        addr(m, &c, fam, &peer, "peer address") || u16(m, &c, &as, "peer AS") ||
        u16(m, &c, &alen, "attribute length"))
        return -1;
    cur ac;
    if (sub(m, &c, alen, &ac, "attribute"))
        return -1;
    if (c.n)
        return bad(m, "TABLE_DUMP record has %zu bytes after its attributes", c.n);
    lpm_prefix p;
    lpm_err e;
    if (plen > lpm_family_bits(fam))
        return bad(m, "prefix length /%u out of range for IPv%d (0..%u)", plen, fam, lpm_family_bits(fam));
    if (lpm_prefix_make(&pa, fam, plen, m->o->mask_host_bits, &p, &e))
        return bad(m, "%s", e.msg);
    attrs at;
    if (parse_attrs(m, ac, 1, &at))
        return -1;
    uint32_t id = lpm_rib_peer_id(&m->rib, &peer, fam, as);
    if (id == UINT32_MAX)
        return lpm_err_set(err, LPM_EFAIL, "out of memory"), -2;
    char nb[LPM_ADDR_STRLEN];
    return add(m, id, &p, nh_token(&at, fam, nb, sizeof nb), 0, err);
}

static int peer_index_table(mrt *m, cur c)
{
    uint32_t bgpid;
    unsigned vlen, count;
    const uint8_t *b;
    if (u32(m, &c, &bgpid, "collector BGP ID") || u16(m, &c, &vlen, "view name length") ||
        take(m, &c, vlen, &b, "view name") || u16(m, &c, &count, "peer count"))
        return -1;
    pit_entry *np = realloc(m->pit, (count ? count : 1) * sizeof *np);
    if (!np)
        return bad(m, "out of memory");
    m->pit = np;
    m->npit = 0;
    for (unsigned i = 0; i < count; i++) {
        unsigned type, as16;
        uint32_t id, as32;
        pit_entry *e = &m->pit[i];
        if (u8(m, &c, &type, "peer type") || u32(m, &c, &id, "peer BGP ID"))
            return -1;
        e->family = type & 1 ? LPM_AF_INET6 : LPM_AF_INET;
        if (addr(m, &c, e->family, &e->a, "peer address"))
            return -1;
        if (type & 2) {
            if (u32(m, &c, &as32, "peer AS"))
                return -1;
            e->as = as32;
        } else {
            if (u16(m, &c, &as16, "peer AS"))
                return -1;
            e->as = as16;
        }
        e->id = UINT32_MAX;
        m->npit = i + 1;
    }
    if (c.n)
        return bad(m, "PEER_INDEX_TABLE has %zu bytes after its %u peers", c.n, count);
    m->have_pit = 1;
    return 0;
}

static int rib_unicast(mrt *m, int fam, cur c, lpm_err *err)
{
    if (!m->have_pit)
        return bad(m, "RIB record before any PEER_INDEX_TABLE");
    uint32_t seq;
    unsigned count;
    lpm_prefix p;
    if (u32(m, &c, &seq, "sequence number") || prefix(m, &c, fam, &p, "RIB prefix") ||
        u16(m, &c, &count, "entry count"))
        return -1;
    for (unsigned i = 0; i < count; i++) {
        unsigned idx, alen;
        uint32_t t;
        cur ac;
        if (u16(m, &c, &idx, "peer index") || u32(m, &c, &t, "originated time") ||
            u16(m, &c, &alen, "attribute length") || sub(m, &c, alen, &ac, "RIB entry attribute"))
            return -1;
        if (idx >= m->npit)
            return bad(m, "RIB entry %u names peer index %u, the PEER_INDEX_TABLE has %zu peers", i + 1, idx, m->npit);
        attrs at;
        if (parse_attrs(m, ac, 1, &at))
            return -1;
        pit_entry *pe = &m->pit[idx];
        if (pe->id == UINT32_MAX && (pe->id = lpm_rib_peer_id(&m->rib, &pe->a, pe->family, pe->as)) == UINT32_MAX)
            return lpm_err_set(err, LPM_EFAIL, "out of memory"), -2;
        char nb[LPM_ADDR_STRLEN];
        int rc = add(m, pe->id, &p, nh_token(&at, fam, nb, sizeof nb), 0, err);
        if (rc)
            return rc;
    }
    if (c.n)
        return bad(m, "RIB record has %zu bytes after its %u entries", c.n, count);
    return 0;
}

/* A run of NLRI prefixes (withdrawn routes, NLRI, MP (UN)REACH). */
static int nlri(mrt *m, cur c, int fam, uint32_t peer, const char *nh, int withdraw, const char *what, lpm_err *err)
{
    while (c.n) {
        lpm_prefix p;
        if (prefix(m, &c, fam, &p, what))
            return -1;
        int rc = add(m, peer, &p, nh, withdraw, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int mp_family(unsigned afi, unsigned safi)
{
    if (safi != 1)
        return 0;
    return afi == 1 ? LPM_AF_INET : afi == 2 ? LPM_AF_INET6 : 0;
}

static int bgp4mp_message(mrt *m, unsigned subtype, cur c, lpm_err *err)
{
    int as4 = subtype == 4 || subtype == 7;
    uint32_t pas, las;
    unsigned v16, ifindex, afi;
    if (as4) {
        if (u32(m, &c, &pas, "peer AS") || u32(m, &c, &las, "local AS"))
            return -1;
    } else {
        if (u16(m, &c, &v16, "peer AS"))
            return -1;
        pas = v16;
        if (u16(m, &c, &v16, "local AS"))
            return -1;
    }
    if (u16(m, &c, &ifindex, "interface index") || u16(m, &c, &afi, "address family"))
        return -1;
    if (afi != 1 && afi != 2)
        return bad(m, "BGP4MP address family %u (expected 1 or 2)", afi);
    int fam = afi == 1 ? LPM_AF_INET : LPM_AF_INET6;
    lpm_addr peer, local;
    const uint8_t *marker;
    unsigned mlen, mtype;
    if (addr(m, &c, fam, &peer, "peer address") || addr(m, &c, fam, &local, "local address") ||
        take(m, &c, 16, &marker, "BGP marker") || u16(m, &c, &mlen, "BGP message length") ||
        u8(m, &c, &mtype, "BGP message type"))
        return -1;
    if (mlen != c.n + 19)
        return bad(m, "BGP message length %u does not match the record (%zu bytes)", mlen, c.n + 19);
    if (mtype != 2)
        return 0; /* OPEN, KEEPALIVE, NOTIFICATION: no routes */
    unsigned wlen, alen;
    cur wc, ac;
    if (u16(m, &c, &wlen, "withdrawn routes length") || sub(m, &c, wlen, &wc, "withdrawn routes") ||
        u16(m, &c, &alen, "path attribute length") || sub(m, &c, alen, &ac, "path attribute"))
        return -1;
    attrs at;
    if (parse_attrs(m, ac, 0, &at))
        return -1;
    uint32_t id = lpm_rib_peer_id(&m->rib, &peer, fam, pas);
    if (id == UINT32_MAX)
        return lpm_err_set(err, LPM_EFAIL, "out of memory"), -2;
    int rc;
    if ((rc = nlri(m, wc, LPM_AF_INET, id, NULL, 1, "withdrawn route", err)))
        return rc;
    int uf = at.have_unreach ? mp_family(at.un_afi, at.un_safi) : 0;
    if (uf && (rc = nlri(m, at.unreach, uf, id, NULL, 1, "MP_UNREACH_NLRI prefix", err)))
        return rc;
    char nb[LPM_ADDR_STRLEN];
    if ((rc = nlri(m, c, LPM_AF_INET, id, nh_token(&at, LPM_AF_INET, nb, sizeof nb), 0, "NLRI prefix", err)))
        return rc;
    int rf = at.have_mp && at.mp_safi ? mp_family(at.mp_afi, at.mp_safi) : 0;
    if (rf && (rc = nlri(m, at.mp_nlri, rf, id, nh_token(&at, rf, nb, sizeof nb), 0, "MP_REACH_NLRI prefix", err)))
        return rc;
    return 0;
}

/* One record body: 0 read, 1 a type not read (counted), -1 bad (m->why),
 * -2 hard error in err. */
static int record(mrt *m, unsigned type, unsigned subtype, cur c, lpm_err *err)
{
    switch (type) {
    case T_TABLE_DUMP:
        return table_dump(m, subtype, c, err);
    case T_TABLE_DUMP_V2:
        if (subtype == 1)
            return peer_index_table(m, c);
        if (subtype == 2 || subtype == 4)
            return rib_unicast(m, subtype == 2 ? LPM_AF_INET : LPM_AF_INET6, c, err);
        return 1; /* multicast, RIB_GENERIC, RFC 8050 add-path */
    case T_BGP4MP_ET:
    case T_BGP4MP: {
        if (type == T_BGP4MP_ET) {
            uint32_t usec;
            if (u32(m, &c, &usec, "microsecond timestamp"))
                return -1;
        }
        if (subtype == 0 || subtype == 5)
            return 0; /* STATE_CHANGE(_AS4): ignored */
        if (subtype == 1 || subtype == 4 || subtype == 6 || subtype == 7)
            return bgp4mp_message(m, subtype, c, err);
        return 1;
    }
    }
    return 1;
}

/* "file: offset N: record R: why" for the record starting at offset N. */
static int rec_err(lpm_err *err, const char *name, uint64_t off, unsigned long rec, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int rec_err(lpm_err *err, const char *name, uint64_t off, unsigned long rec, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return lpm_err_set(err, LPM_EINPUT, "%s: offset %llu: record %lu: %s", name, (unsigned long long)off, rec, why);
}

/* Remembers where record rec (1-based) starts, for the replay's messages. */
static int note_offset(mrt *m, uint64_t off, lpm_err *err)
{
    if (m->nrec == m->rec_cap) {
        size_t cap = m->rec_cap ? m->rec_cap * 2 : 1024;
        uint64_t *p = realloc(m->rec_off, cap * sizeof *p);
        if (!p)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        m->rec_off = p;
        m->rec_cap = cap;
    }
    m->rec_off[m->nrec++] = off;
    return LPM_OK;
}

int lpm_fib_read_mrt(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err)
{
    mrt m;
    memset(&m, 0, sizeof m);
    m.o = o;
    const char *name = lpm_input_name(in);
    lpm_input_set_records(in);
    f->records = 1;
    int rc = lpm_rib_init(&m.rib, o, err);
    uint8_t *body = NULL;
    size_t bodycap = 0;
    while (!rc) {
        uint8_t h[12];
        lpm_input_set_lineno(in, m.rec); /* decompression errors name the record */
        uint64_t off = lpm_input_offset(in);
        long got = lpm_input_read(in, h, sizeof h, err);
        if (got < 0) {
            rc = strstr(err->msg, "memory") ? LPM_EFAIL : LPM_EINPUT;
            break;
        }
        if (got == 0)
            break;
        m.rec++;
        if ((rc = note_offset(&m, off, err)))
            break;
        if (got < 12) {
            rc = rec_err(err, name, off, m.rec, "truncated MRT record header (%ld of 12 bytes)", got);
            break;
        }
        unsigned type = (unsigned)h[4] << 8 | h[5], subtype = (unsigned)h[6] << 8 | h[7];
        uint32_t len = (uint32_t)h[8] << 24 | (uint32_t)h[9] << 16 | (uint32_t)h[10] << 8 | h[11];
        if (len > MRT_MAX_RECORD) {
            rc = rec_err(err, name, off, m.rec, "MRT record length %u exceeds %u bytes (not MRT, or corrupt)", len,
                         MRT_MAX_RECORD);
            break;
        }
        if (len > bodycap) {
            uint8_t *nb = realloc(body, len);
            if (!nb) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
            body = nb;
            bodycap = len;
        }
        got = len ? lpm_input_read(in, body, len, err) : 0;
        if (got < 0) {
            rc = strstr(err->msg, "memory") ? LPM_EFAIL : LPM_EINPUT;
            break;
        }
        if ((uint32_t)got < len) {
            rc = rec_err(err, name, off, m.rec, "truncated MRT record: type %u subtype %u, length %u, only %ld bytes left",
                         type, subtype, len, got);
            break;
        }
        size_t mark = m.rib.n;
        cur c = { body, len };
        int r = record(&m, type, subtype, c, err);
        if (r == 1)
            m.rib.skipped++;
        else if (r == -2)
            rc = strstr(err->msg, "memory") ? LPM_EFAIL : LPM_EINPUT;
        else if (r == -1) {
            if (!o->skip_bad)
                rc = rec_err(err, name, off, m.rec, "MRT type %u subtype %u: %s", type, subtype, m.why);
            m.rib.n = mark; /* nothing of a bad record stays */
            m.rib.skipped++;
        }
    }
    m.rib.rec_off = m.rec_off;
    m.rib.nrec = m.nrec;
    if (!rc)
        rc = lpm_rib_finish(&m.rib, f, name, m.rec, err);
    lpm_input_set_lineno(in, m.rec);
    free(body);
    free(m.pit);
    free(m.rec_off);
    lpm_rib_free(&m.rib);
    return rc;
}
