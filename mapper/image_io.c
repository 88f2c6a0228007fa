/* Reading and writing .lpi files, exactly as docs/image-format.md says. */
#include "image_int.h"

#include "../core/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static const char magic[8] = { 'L', 'P', 'M', 'I', 'M', 'A', 'G', 'E' };

/* A growing byte buffer: the file is assembled (and CRC'd) in memory. */
typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;
} buf_t;

static void put(buf_t *b, const void *src, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->n + n)
            c *= 2;
        unsigned char *q = realloc(b->p, c);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = c;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_le(buf_t *b, uint64_t v, unsigned bytes)
{
    unsigned char t[8];
    for (unsigned i = 0; i < bytes; i++)
        t[i] = (unsigned char)(v >> (8 * i));
    put(b, t, bytes);
}

static uint64_t get_le(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int lpm_image_save(const lpm_image *img, const char *path, lpm_err *err)
{
    lpm_err local;
    if (!err)
        err = &local;
    int rc = lpm_image_validate(img, err);
    if (rc) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        return lpm_err_set(err, LPM_EFAIL, "%s: refusing to save an invalid image: %s", path, m);
    }
    buf_t b = { 0 };
    put(&b, magic, 8);
    put_le(&b, LPM_IMAGE_VERSION, 2);
    unsigned char h[14] = {
        (unsigned char)img->family, (unsigned char)img->ring, (unsigned char)img->stages,
        (unsigned char)img->x, (unsigned char)img->key_bits, (unsigned char)img->word_bits,
        (unsigned char)img->fmt.nh_bits, (unsigned char)img->fmt.addr_bits,
        (unsigned char)img->fmt.stage_bits, (unsigned char)img->dit_bits,
        (unsigned char)img->map_kind, (unsigned char)img->stride_k,
        (unsigned char)img->headroom_pct, (unsigned char)img->split,
    };
    put(&b, h, sizeof h);
    put_le(&b, img->nh.n, 4);
    unsigned char cp[4] = { (unsigned char)img->copies, (unsigned char)img->active, 0, 0 };
    put(&b, cp, 4);
    put_le(&b, img->nroutes, 8);
    put_le(&b, 0, 8);
    put_le(&b, 0, 8);
    put_le(&b, 0, 8);
    for (unsigned s = 0; s < img->stages; s++) {
        put_le(&b, img->stride[s], 4);
        put_le(&b, img->depth[s], 4);
        put_le(&b, img->used[s], 4);
    }
    unsigned db = (img->dit_bits + 7) / 8, wb = (img->word_bits + 7) / 8;
    for (uint64_t i = 0; i < ((uint64_t)img->copies << img->x); i++)
        put_le(&b, img->dit[i], db);
    for (unsigned s = 0; s < img->stages; s++)
        for (uint64_t a = 0; a < (uint64_t)img->copies * img->depth[s]; a++)
            put_le(&b, img->mem[s][a], wb);
    for (size_t i = 0; i < img->nh.n; i++) {
        size_t n = strlen(img->nh.name[i]);
        put_le(&b, n, 2);
        put(&b, img->nh.name[i], n);
    }
    unsigned ab = img->key_bits / 8;
    for (size_t i = 0; i < img->nroutes; i++) {
        const lpm_route *r = &img->routes[i];
        unsigned char a[16];
        for (unsigned k = 0; k < 8; k++) {
            a[k] = (unsigned char)(r->pfx.addr.hi >> (56 - 8 * k));
            a[8 + k] = (unsigned char)(r->pfx.addr.lo >> (56 - 8 * k));
        }
        put(&b, a, ab);
        put(&b, &r->pfx.len, 1);
        put_le(&b, r->nh, 4);
    }
    if (b.oom) {
        free(b.p);
        return lpm_err_set(err, LPM_EFAIL, "%s: out of memory", path);
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < b.n; off += 1u << 30) {
        size_t n = b.n - off < (1u << 30) ? b.n - off : (1u << 30);
        crc = crc32(crc, b.p + off, (uInt)n);
    }
    put_le(&b, crc, 4);
    FILE *fp;
    int orc = lpm_output_open(&fp, path, "wb", err);
    if (orc) {
        free(b.p);
        return orc;
    }
    size_t w = fwrite(b.p, 1, b.n, fp);
    int bad = w != b.n || ferror(fp);
    if (fp != stdout)
        bad |= fclose(fp) != 0;
    else
        bad |= fflush(fp) != 0;
    free(b.p);
    if (bad || b.oom)
        return lpm_err_set(err, LPM_EFAIL, "%s: write failed: %s", path, strerror(errno));
    return LPM_OK;
}

static int read_all(const char *path, unsigned char **out, size_t *n, lpm_err *err)
{
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return lpm_err_set(err, LPM_EINPUT, "%s: is a directory, not a file", path);
    FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!fp)
        return lpm_err_set(err, LPM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    unsigned char *p = malloc(cap);
    while (p) {
        if (len == cap) {
            unsigned char *q = realloc(p, cap * 2);
            if (!q) {
                free(p);
                p = NULL;
                break;
            }
            p = q;
            cap *= 2;
        }
        size_t r = fread(p + len, 1, cap - len, fp);
        len += r;
        if (r == 0)
            break;
    }
    int bad = !p || ferror(fp);
    if (fp != stdin)
        fclose(fp);
    if (bad) {
        free(p);
        return lpm_err_set(err, p ? LPM_EINPUT : LPM_EFAIL, "%s: read failed", path);
    }
    *out = p;
    *n = len;
    return LPM_OK;
}

/* A cursor over the file: every read checks the length first. */
typedef struct {
    const unsigned char *p;
    size_t n, off;
} cur_t;

static int take(cur_t *c, size_t n, const unsigned char **q)
{
    if (c->n - c->off < n)
        return -1;
    *q = c->p + c->off;
    c->off += n;
    return 0;
}

#define TRUNC(what) lpm_err_set(err, LPM_EINPUT, "%s: truncated image (in the %s)", path, what)

/* The header's fields (docs/image-format.md 2.1), as read and checked. */
typedef struct img_hdr {
    unsigned version, family, ring, stages, x, key_bits, word_bits, dit_bits;
    lpm_word_fmt f;
    uint32_t nh_count;
    uint64_t nroutes;
    unsigned copies, active;
    unsigned map_kind, stride_k, headroom_pct, split;
} img_hdr;

/* The version and the fixed header, every field in range. */
static int parse_header(cur_t *c, const char *path, img_hdr *hd, lpm_err *err)
{
    const unsigned char *q = NULL; /* take() sets it; the sizes were checked before */
    take(c, 8, &q);
    take(c, 56, &q);
    unsigned version = (unsigned)get_le(q, 2);
    if (version == 1)
        return lpm_err_set(err, LPM_EINPUT,
                           "%s: image version 1 (child pointers as word addresses): this build reads version %d "
                           "(block indexes); map the table again with this lpmpipe",
                           path, LPM_IMAGE_VERSION);
    if (version != 2 && version != LPM_IMAGE_VERSION)
        return lpm_err_set(err, LPM_EINPUT, "%s: image version %u is not supported (this build reads 2 and %d)", path,
                           version, LPM_IMAGE_VERSION);
    const unsigned char *h = q + 2;
    *hd = (img_hdr){ .version = version, .family = h[0], .ring = h[1], .stages = h[2], .x = h[3], .key_bits = h[4],
                     .word_bits = h[5], .dit_bits = h[13 - 4], .f = { h[6], h[7], h[8] },
                     .nh_count = (uint32_t)get_le(q + 16, 4), .nroutes = get_le(q + 24, 8),
                     .map_kind = h[10], .stride_k = h[11], .headroom_pct = h[12], .split = h[13] };
    /* Version 2 has no shadow copy: bytes 28-31 are reserved (zero) there. */
    hd->copies = version == 2 ? 1 : q[20];
    hd->active = version == 2 ? 0 : q[21];
    for (unsigned i = version == 2 ? 20 : 22; i < 24; i++)
        if (q[i])
            return lpm_err_set(err, LPM_EINPUT, "%s: reserved header bytes are not zero", path);
    if (hd->copies < 1 || hd->copies > 2 || hd->active >= hd->copies)
        return lpm_err_set(err, LPM_EINPUT, "%s: copies %u, active copy %u (copies is 1 or 2, active below it)", path,
                           hd->copies, hd->active);
    for (unsigned i = 32; i < 56; i++)
        if (q[i])
            return lpm_err_set(err, LPM_EINPUT, "%s: reserved header bytes are not zero", path);
    if (hd->family != 4 && hd->family != 6)
        return lpm_err_set(err, LPM_EINPUT, "%s: family %u is neither 4 nor 6", path, hd->family);
    if (hd->ring > 1)
        return lpm_err_set(err, LPM_EINPUT, "%s: arch %u is neither 0 (linear) nor 1 (ring)", path, hd->ring);
    if (hd->stages < 1)
        return lpm_err_set(err, LPM_EINPUT, "%s: zero stages", path);
    if (hd->x > LPM_IMAGE_MAX_X)
        return lpm_err_set(err, LPM_EINPUT, "%s: initial stride %u is over %d", path, hd->x, LPM_IMAGE_MAX_X);
    if (hd->key_bits != lpm_family_bits((int)hd->family))
        return lpm_err_set(err, LPM_EINPUT, "%s: key_bits %u does not fit family %u", path, hd->key_bits, hd->family);
    const lpm_word_fmt *f = &hd->f;
    if (f->nh_bits < 1 || f->nh_bits > LPM_IMAGE_MAX_NH_BITS || f->addr_bits < 1 ||
        f->addr_bits > LPM_IMAGE_MAX_ADDR_BITS || f->stage_bits > 8)
        return lpm_err_set(err, LPM_EINPUT, "%s: field widths nh %u, addr %u, stage %u out of range", path,
                           f->nh_bits, f->addr_bits, f->stage_bits);
    if (hd->nh_count > (1ULL << f->nh_bits))
        return lpm_err_set(err, LPM_EINPUT, "%s: %u next hops do not fit %u-bit indexes", path, hd->nh_count,
                           f->nh_bits);
    return LPM_OK;
}

/* The stage table: stride, depth and used words of every stage. */
static int parse_stages(cur_t *c, const char *path, const img_hdr *hd, uint8_t *stride, uint32_t *depth,
                        uint32_t *used, lpm_err *err)
{
    const unsigned char *q;
    for (unsigned s = 0; s < hd->stages; s++) {
        if (take(c, 12, &q))
            return TRUNC("stage table");
        stride[s] = q[0];
        if (q[1] || q[2] || q[3])
            return lpm_err_set(err, LPM_EINPUT, "%s: stage %u: reserved bytes are not zero", path, s);
        depth[s] = (uint32_t)get_le(q + 4, 4);
        used[s] = (uint32_t)get_le(q + 8, 4);
        if (stride[s] < 1 || stride[s] > LPM_IMAGE_MAX_STRIDE)
            return lpm_err_set(err, LPM_EINPUT, "%s: stage %u: stride %u is not in 1..%d", path, s, stride[s], LPM_IMAGE_MAX_STRIDE);
        const char *why = lpm_image_depth_check(depth[s], stride[s], hd->f.addr_bits, hd->copies);
        if (why)
            return lpm_err_set(err, LPM_EINPUT, "%s: stage %u: depth %u %s", path, s, depth[s], why);
        if (used[s] > depth[s])
            return lpm_err_set(err, LPM_EINPUT, "%s: stage %u: used %u exceeds depth %u", path, s, used[s], depth[s]);
    }
    return LPM_OK;
}

/* The image allocated from the header and stage table (its sizes checked
 * against the bytes left first, so that a lying header cannot ask for
 * much), the fields beside the memories set, the memories read. */
static int read_memories(cur_t *c, const char *path, const img_hdr *hd, const uint8_t *stride, const uint32_t *depth,
                         const uint32_t *used, lpm_image **out, lpm_err *err)
{
    unsigned wb = (hd->word_bits + 7) / 8, db = (hd->dit_bits + 7) / 8, copies = hd->copies;
    uint64_t need = ((uint64_t)db * copies << hd->x);
    for (unsigned s = 0; s < hd->stages; s++)
        need += (uint64_t)wb * copies * depth[s];
    if (need > c->n - c->off)
        return TRUNC("memories");
    lpm_image *img = lpm_image_alloc((int)hd->family, (int)hd->ring, hd->stages, hd->x, &hd->f, stride, depth, copies);
    if (!img)
        return lpm_err_set(err, LPM_EFAIL, "%s: out of memory", path);
    if (img->word_bits != hd->word_bits || img->dit_bits != hd->dit_bits) {
        unsigned want_w = img->word_bits, want_d = img->dit_bits;
        lpm_image_free(img);
        return lpm_err_set(err, LPM_EINPUT, "%s: word_bits %u / dit_bits %u do not match the field widths (%u / %u)",
                           path, hd->word_bits, hd->dit_bits, want_w, want_d);
    }
    if (hd->map_kind < LPM_MAP_RING || hd->map_kind > LPM_MAP_LINEAR_SPLIT) {
        lpm_image_free(img);
        return lpm_err_set(err, LPM_EINPUT, "%s: map_kind %u is not in 1..%d (docs/image-format.md 2.1)", path,
                           hd->map_kind, LPM_MAP_LINEAR_SPLIT);
    }
    img->map_kind = hd->map_kind;
    img->stride_k = hd->stride_k;
    img->headroom_pct = hd->headroom_pct;
    img->split = hd->split;
    img->active = hd->active;
    memcpy(img->used, used, sizeof(uint32_t) * hd->stages);
    const unsigned char *q = NULL; /* take() sets it; the sizes were checked before */
    for (uint64_t i = 0; i < ((uint64_t)copies << hd->x); i++) {
        take(c, db, &q);
        img->dit[i] = get_le(q, db);
    }
    for (unsigned s = 0; s < hd->stages; s++)
        for (uint64_t a = 0; a < (uint64_t)copies * depth[s]; a++) {
            take(c, wb, &q);
            img->mem[s][a] = get_le(q, wb);
        }
    *out = img;
    return LPM_OK;
}

/* The next-hop tokens and the route section. */
static int read_tables(cur_t *c, const char *path, const img_hdr *hd, lpm_image *img, lpm_err *err)
{
    const unsigned char *q = NULL; /* take() sets it; the sizes were checked before */
    int rc = LPM_OK;
    for (uint32_t i = 0; i < hd->nh_count && !rc; i++) {
        if (take(c, 2, &q)) {
            rc = TRUNC("next-hop table");
            break;
        }
        unsigned len = (unsigned)get_le(q, 2);
        if (len < 1 || len > 1024 || take(c, len, &q)) {
            rc = len < 1 || len > 1024 ? lpm_err_set(err, LPM_EINPUT, "%s: next hop %u: length %u is not in 1..1024", path, i, len)
                                       : TRUNC("next-hop table");
            break;
        }
        for (unsigned k = 0; k < len; k++)
            if (q[k] <= ' ' || q[k] == 127)
                rc = lpm_err_set(err, LPM_EINPUT, "%s: next hop %u: control or blank character", path, i);
        if (!rc && lpm_nhtab_intern(&img->nh, (const char *)q, len) != i)
            rc = lpm_err_set(err, LPM_EINPUT, "%s: next hop %u: duplicate token", path, i);
    }
    unsigned ab = hd->key_bits / 8;
    uint64_t nroutes = hd->nroutes;
    if (!rc && nroutes > (c->n - c->off) / (ab + 5))
        rc = TRUNC("route section");
    if (!rc && nroutes) {
        img->routes = malloc(nroutes * sizeof *img->routes);
        if (!img->routes)
            rc = lpm_err_set(err, LPM_EFAIL, "%s: out of memory", path);
    }
    for (uint64_t i = 0; i < nroutes && !rc; i++) {
        take(c, ab + 5, &q);
        lpm_route *r = &img->routes[i];
        memset(r, 0, sizeof *r);
        for (unsigned k = 0; k < ab; k++) {
            if (k < 8)
                r->pfx.addr.hi |= (uint64_t)q[k] << (56 - 8 * k);
            else
                r->pfx.addr.lo |= (uint64_t)q[k] << (56 - 8 * (k - 8));
        }
        r->pfx.len = q[ab];
        r->pfx.family = (uint8_t)hd->family;
        r->nh = (uint32_t)get_le(q + ab + 1, 4);
        img->nroutes = i + 1;
    }
    return rc;
}

static int parse(lpm_image **out, const char *path, const unsigned char *p, size_t n, lpm_err *err)
{
    cur_t c = { p, n, 0 };
    if (n < 8 || memcmp(p, magic, 8))
        return lpm_err_set(err, LPM_EINPUT, "%s: not a pipeline image (wrong magic)", path);
    if (n < 68)
        return TRUNC("header");
    uint32_t crc_file = (uint32_t)get_le(p + n - 4, 4);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < n - 4; off += 1u << 30) {
        size_t k = n - 4 - off < (1u << 30) ? n - 4 - off : (1u << 30);
        crc = crc32(crc, p + off, (uInt)k);
    }
    img_hdr hd;
    uint8_t stride[LPM_IMAGE_MAX_STAGES];
    uint32_t depth[LPM_IMAGE_MAX_STAGES], used[LPM_IMAGE_MAX_STAGES];
    lpm_image *img = NULL;
    int rc = parse_header(&c, path, &hd, err);
    if (rc || (rc = parse_stages(&c, path, &hd, stride, depth, used, err)) ||
        (rc = read_memories(&c, path, &hd, stride, depth, used, &img, err)))
        return rc;
    rc = read_tables(&c, path, &hd, img, err);
    if (!rc && n - c.off != 4)
        rc = n - c.off < 4 ? TRUNC("trailer")
                           : lpm_err_set(err, LPM_EINPUT, "%s: %zu bytes after the image", path, n - c.off - 4);
    if (!rc && crc_file != (uint32_t)crc)
        rc = lpm_err_set(err, LPM_EINPUT, "%s: CRC mismatch (file says %08x, content gives %08x)", path,
                         crc_file, (unsigned)crc);
    if (!rc && (rc = lpm_image_validate(img, err)) != 0) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        rc = lpm_err_set(err, LPM_EINPUT, "%s: %s", path, m);
    }
    if (rc) {
        lpm_image_free(img);
        return rc;
    }
    img->file_crc = crc_file;
    img->version = hd.version;
    *out = img;
    return LPM_OK;
}

int lpm_image_load(lpm_image **img, const char *path, lpm_err *err)
{
    lpm_err local;
    if (!err)
        err = &local;
    unsigned char *p = NULL;
    size_t n = 0;
    *img = NULL;
    int rc = read_all(path, &p, &n, err);
    if (rc)
        return rc;
    rc = parse(img, path, p, n, err);
    free(p);
    return rc;
}
