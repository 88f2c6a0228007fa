/* The pipeline image in memory: header facts, word encoding, the
 * interpreter and the full validation. File I/O is in image_io.c. */
#include "image_int.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

lpm_image *lpm_image_alloc(int family, int ring, unsigned stages, unsigned x,
                           const lpm_word_fmt *fmt, const uint8_t *stride,
                           const uint32_t *depth, unsigned copies)
{
    if (stages < 1 || stages > LPM_IMAGE_MAX_STAGES || x > LPM_IMAGE_MAX_X || copies < 1 || copies > 2)
        return NULL;
    lpm_image *img = calloc(1, sizeof *img);
    if (!img)
        return NULL;
    img->family = family;
    img->ring = ring;
    img->stages = stages;
    img->x = x;
    img->key_bits = lpm_family_bits(family);
    lpm_image_set_fmt(img, fmt);
    lpm_nhtab_init(&img->nh);
    img->copies = copies;
    img->version = LPM_IMAGE_VERSION;
    img->dit = calloc((size_t)copies << x, sizeof *img->dit);
    if (!img->dit)
        goto fail;
    for (unsigned s = 0; s < stages; s++) {
        img->stride[s] = stride[s];
        img->depth[s] = depth[s] ? depth[s] : 1;
        img->mem[s] = calloc((size_t)copies * img->depth[s], sizeof **img->mem);
        if (!img->mem[s])
            goto fail;
    }
    return img;
fail:
    lpm_image_free(img);
    return NULL;
}

void lpm_image_set_fmt(lpm_image *img, const lpm_word_fmt *fmt)
{
    lpm_word_layout l;
    img->fmt = *fmt;
    lpm_word_layout_of(fmt, 0, &l);
    img->word_bits = l.bits;
    lpm_word_layout_of(fmt, 1, &l);
    img->dit_bits = l.bits;
}

void lpm_image_free(lpm_image *img)
{
    if (!img)
        return;
    free(img->dit);
    for (unsigned s = 0; s < LPM_IMAGE_MAX_STAGES; s++)
        free(img->mem[s]);
    lpm_nhtab_free(&img->nh);
    free(img->routes);
    free(img);
}

lpm_image *lpm_image_clone(const lpm_image *img)
{
    lpm_image *c = lpm_image_alloc(img->family, img->ring, img->stages, img->x, &img->fmt,
                                   img->stride, img->depth, img->copies);
    if (!c)
        return NULL;
    c->map_kind = img->map_kind;
    c->stride_k = img->stride_k;
    c->headroom_pct = img->headroom_pct;
    c->split = img->split;
    c->active = img->active;
    memcpy(c->used, img->used, sizeof c->used);
    memcpy(c->dit, img->dit, ((size_t)img->copies << img->x) * sizeof *c->dit);
    for (unsigned s = 0; s < img->stages; s++)
        memcpy(c->mem[s], img->mem[s], (size_t)img->copies * img->depth[s] * sizeof **c->mem);
    for (size_t i = 0; i < img->nh.n; i++) {
        const char *t = img->nh.name[i];
        if (lpm_nhtab_intern(&c->nh, t, strlen(t)) != i)
            goto fail;
    }
    if (img->nroutes) {
        c->routes = malloc(img->nroutes * sizeof *c->routes);
        if (!c->routes)
            goto fail;
        memcpy(c->routes, img->routes, img->nroutes * sizeof *c->routes);
        c->nroutes = img->nroutes;
    }
    return c;
fail:
    lpm_image_free(c);
    return NULL;
}

int lpm_image_family(const lpm_image *img) { return img->family; }
int lpm_image_is_ring(const lpm_image *img) { return img->ring; }
unsigned lpm_image_stages(const lpm_image *img) { return img->stages; }
unsigned lpm_image_word_bits(const lpm_image *img) { return img->word_bits; }
unsigned lpm_image_dit_bits(const lpm_image *img) { return img->dit_bits; }
unsigned lpm_image_key_bits(const lpm_image *img) { return img->key_bits; }
unsigned lpm_image_initial_stride(const lpm_image *img) { return img->x; }
int lpm_image_map_kind(const lpm_image *img) { return (int)img->map_kind; }
uint32_t lpm_image_file_crc(const lpm_image *img) { return img->file_crc; }
const lpm_nhtab *lpm_image_nhtab(const lpm_image *img) { return &img->nh; }
size_t lpm_image_route_count(const lpm_image *img) { return img->nroutes; }
const lpm_route *lpm_image_routes(const lpm_image *img) { return img->routes; }
void lpm_image_word_fmt(const lpm_image *img, lpm_word_fmt *f) { *f = img->fmt; }

void lpm_image_info_of(const lpm_image *img, lpm_image_info *in)
{
    *in = (lpm_image_info){ img->version, img->family, img->ring, img->stages, img->x, img->key_bits, img->fmt,
                            img->word_bits, img->dit_bits, (int)img->map_kind, img->stride_k, img->headroom_pct,
                            img->split, img->copies, img->active, img->nh.n, img->nroutes };
}

uint32_t lpm_image_stage_depth(const lpm_image *img, unsigned stage)
{
    return stage < img->stages ? img->depth[stage] : 0;
}

unsigned lpm_image_copies(const lpm_image *img) { return img->copies; }
unsigned lpm_image_active(const lpm_image *img) { return img->active; }

uint32_t lpm_image_stage_used(const lpm_image *img, unsigned stage)
{
    return stage < img->stages ? img->used[stage] : 0;
}

unsigned lpm_image_stage_stride(const lpm_image *img, unsigned stage)
{
    return stage < img->stages ? img->stride[stage] : 0;
}

uint64_t lpm_image_word(const lpm_image *img, unsigned stage, uint32_t addr)
{
    if (stage >= img->stages || addr >= (uint64_t)img->copies * img->depth[stage])
        return 0;
    return img->mem[stage][addr];
}

uint64_t lpm_image_dit_entry(const lpm_image *img, uint32_t index)
{
    return index < ((uint64_t)img->copies << img->x) ? img->dit[index] : 0;
}

void lpm_image_write(lpm_image *img, unsigned stage, uint32_t addr, uint64_t word)
{
    if (stage == LPM_IMAGE_DIT) {
        if (addr < ((uint64_t)img->copies << img->x))
            img->dit[addr] = word;
        return;
    }
    if (stage >= img->stages || addr >= (uint64_t)img->copies * img->depth[stage])
        return;
    img->mem[stage][addr] = word;
    uint32_t base = lpm_copy_base(img, stage, img->active);
    if (word && addr >= base && addr - base < img->depth[stage] && addr - base >= img->used[stage])
        img->used[stage] = addr - base + 1;
}

void lpm_image_swap(lpm_image *img, unsigned copy)
{
    if (copy >= img->copies)
        return;
    img->active = copy;
    for (unsigned s = 0; s < img->stages; s++) {
        const uint64_t *m = img->mem[s] + lpm_copy_base(img, s, copy);
        uint32_t u = img->depth[s], blk = 1u << img->stride[s];
        while (u && !m[u - 1])
            u--;
        img->used[s] = (u + blk - 1) / blk * blk;
        if (img->used[s] > img->depth[s])
            img->used[s] = img->depth[s];
    }
}

uint32_t lpm_image_copy_crc(const lpm_image *img, unsigned copy)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    unsigned char b[8 * 512];
    for (unsigned s = 0; s <= img->stages && copy < img->copies; s++) {
        const uint64_t *m = s < img->stages ? img->mem[s] + lpm_copy_base(img, s, copy) : img->dit + lpm_dit_base(img, copy);
        size_t n = s < img->stages ? img->depth[s] : (size_t)1 << img->x;
        for (size_t i = 0; i < n;) {
            size_t k = 0;
            for (; k < 512 && i < n; k++, i++)
                for (unsigned j = 0; j < 8; j++)
                    b[8 * k + j] = (unsigned char)(m[i] >> (8 * j));
            crc = crc32(crc, b, (uInt)(8 * k));
        }
    }
    return (uint32_t)crc;
}

static inline uint64_t field(uint64_t w, unsigned pos, unsigned n)
{
    return n ? (w >> pos) & ((1ULL << n) - 1) : 0;
}

void lpm_word_layout_of(const lpm_word_fmt *f, int dit, lpm_word_layout *l)
{
    l->c = 0;
    l->v = 1;
    l->nh = 2;
    l->nh_bits = f->nh_bits;
    l->addr = l->nh + f->nh_bits;
    l->addr_bits = f->addr_bits;
    unsigned p = l->addr + f->addr_bits;
    if (dit) {
        l->j = p;
        l->j_bits = 0;
        l->stage = p;
        l->stage_bits = 8;
    } else {
        l->j = p;
        l->j_bits = f->stage_bits ? 1 : 0;
        l->stage = p + l->j_bits;
        l->stage_bits = f->stage_bits;
    }
    l->bits = l->stage + l->stage_bits;
}

/* The fields as they are in the file: addr is the block index. */
static void unpack(const lpm_word_layout *l, uint64_t w, lpm_node_word *o)
{
    o->child = (int)field(w, l->c, 1);
    o->valid = (int)field(w, l->v, 1);
    o->nh = (uint32_t)field(w, l->nh, l->nh_bits);
    o->addr = (uint32_t)field(w, l->addr, l->addr_bits);
    o->jump = (int)field(w, l->j, l->j_bits);
    o->stage = (unsigned)field(w, l->stage, l->stage_bits);
}

/* Disabled fields are written 0: nh without V, addr/J/stage without C, a
 * node word's stage without J. */
static uint64_t pack(const lpm_word_layout *l, int dit, const lpm_node_word *in)
{
    uint64_t w = (uint64_t)(in->child != 0) << l->c | (uint64_t)(in->valid != 0) << l->v;
    if (in->valid)
        w |= (uint64_t)in->nh << l->nh;
    if (in->child) {
        w |= (uint64_t)in->addr << l->addr;
        if (dit)
            w |= (uint64_t)in->stage << l->stage;
        else if (l->j_bits && in->jump)
            w |= 1ULL << l->j | (uint64_t)in->stage << l->stage;
    }
    return w;
}

unsigned lpm_image_child_stage(const lpm_image *img, unsigned s, const lpm_node_word *w)
{
    if (w->jump)
        return w->stage;
    return s + 1 < img->stages ? s + 1 : (img->ring ? 0 : img->stages);
}

/* Block index <-> word address in stage t (a stage that does not exist
 * keeps the index as it is; validation refuses such pointers). */
static uint32_t blk_to_addr(const lpm_image *img, unsigned t, uint32_t blk)
{
    return t < img->stages ? blk << img->stride[t] : blk;
}

static uint32_t addr_to_blk(const lpm_image *img, unsigned t, uint32_t addr)
{
    return t < img->stages ? addr >> img->stride[t] : addr;
}

void lpm_image_word_decode(const lpm_image *img, unsigned stage, uint64_t w, lpm_node_word *o)
{
    lpm_word_layout l;
    lpm_word_layout_of(&img->fmt, 0, &l);
    unpack(&l, w, o);
    if (o->child)
        o->addr = blk_to_addr(img, lpm_image_child_stage(img, stage, o), o->addr);
}

uint64_t lpm_image_word_encode(const lpm_image *img, unsigned stage, const lpm_node_word *in)
{
    lpm_word_layout l;
    lpm_word_layout_of(&img->fmt, 0, &l);
    lpm_node_word r = *in;
    if (r.child)
        r.addr = addr_to_blk(img, lpm_image_child_stage(img, stage, &r), r.addr);
    return pack(&l, 0, &r);
}

void lpm_image_dit_decode(const lpm_image *img, uint64_t w, lpm_node_word *o)
{
    lpm_word_layout l;
    lpm_word_layout_of(&img->fmt, 1, &l);
    unpack(&l, w, o);
    o->jump = 0;
    if (o->child)
        o->addr = blk_to_addr(img, o->stage, o->addr);
}

uint64_t lpm_image_dit_encode(const lpm_image *img, const lpm_node_word *in)
{
    lpm_word_layout l;
    lpm_word_layout_of(&img->fmt, 1, &l);
    lpm_node_word r = *in;
    if (r.child)
        r.addr = addr_to_blk(img, r.stage, r.addr);
    return pack(&l, 1, &r);
}

/* ---- the interpreter ---- */

/* The next address is the child block's base with the next stride bits of
 * the key below it: a concatenation, since blocks are aligned. */
void lpm_image_dispatch(const lpm_image *img, const lpm_addr *key, lpm_visit *v)
{
    memset(v, 0, sizeof *v);
    v->key = lpm_addr_mask(key, img->key_bits);
    v->best_nh = LPM_NH_NONE;
    lpm_node_word e;
    v->copy = img->active;
    lpm_image_dit_decode(img, img->dit[lpm_dit_base(img, img->active) + lpm_addr_bits(&v->key, 0, img->x)], &e);
    if (e.valid)
        v->best_nh = e.nh;
    if (!e.child) {
        v->done = 1;
        v->bitpos = img->x;
        return;
    }
    unsigned k = img->stride[e.stage];
    v->stage = e.stage;
    v->addr = e.addr | (uint32_t)lpm_addr_bits(&v->key, img->x, k);
    v->bitpos = img->x + k;
    if (e.stage < img->stages)
        __builtin_prefetch(&img->mem[e.stage][v->addr]);
}

void lpm_image_visit(const lpm_image *img, lpm_visit *v)
{
    lpm_node_word w;
    lpm_image_word_decode(img, v->stage, img->mem[v->stage][v->addr], &w);
    v->visits++;
    if (w.valid)
        v->best_nh = w.nh;
    if (!w.child || v->bitpos >= img->key_bits) {
        v->done = 1;
        return;
    }
    unsigned t = lpm_image_child_stage(img, v->stage, &w);
    if (img->ring && t <= v->stage)
        v->loops++;
    unsigned k = img->stride[t];
    v->stage = t;
    v->addr = w.addr | (uint32_t)lpm_addr_bits(&v->key, v->bitpos, k);
    v->bitpos += k;
    /* the next read is at least a hop away: start the miss now (the
     * simulator is memory bound, issue 11) */
    if (t < img->stages)
        __builtin_prefetch(&img->mem[t][v->addr]);
}

uint32_t lpm_image_lookup(const lpm_image *img, const lpm_addr *key)
{
    lpm_visit v;
    lpm_image_dispatch(img, key, &v);
    while (!v.done)
        lpm_image_visit(img, &v);
    return v.best_nh;
}

/* ---- validation: every rule of docs/image-format.md section 3 ---- */

const char *lpm_image_depth_check(uint64_t depth, unsigned stride, unsigned addr_bits, unsigned copies)
{
    if (depth < 1 || depth > (1ULL << LPM_IMAGE_MAX_ADDR_BITS))
        return "is not in 1..2^28";
    if (depth & ((1ULL << stride) - 1))
        return "is not a multiple of the stage's block size";
    if (((uint64_t)copies * depth >> stride) > (1ULL << addr_bits))
        return copies > 1 ? "has more blocks (both copies) than the block index field can name"
                          : "has more blocks than the block index field can name";
    return NULL;
}

/* A child block of copy c: inside its used words (the active copy) or
 * inside its depth (the other copy, which no lookup walks). */
static int block_ok(const lpm_image *img, unsigned t, uint32_t addr, unsigned c)
{
    if (t >= img->stages)
        return 0;
    uint64_t base = lpm_copy_base(img, t, c), lim = c == img->active ? img->used[t] : img->depth[t];
    return addr >= base && addr - base + (1ULL << img->stride[t]) <= lim;
}

static int validate_header(const lpm_image *img, lpm_err *err)
{
    const lpm_word_fmt *f = &img->fmt;
    if (img->family != LPM_AF_INET && img->family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "family %d is neither 4 nor 6", img->family);
    if (img->key_bits != lpm_family_bits(img->family))
        return lpm_err_set(err, LPM_EINPUT, "key_bits %u does not fit family %d", img->key_bits, img->family);
    if (img->stages < 1 || img->stages > LPM_IMAGE_MAX_STAGES)
        return lpm_err_set(err, LPM_EINPUT, "stage count %u is not in 1..%d", img->stages, LPM_IMAGE_MAX_STAGES);
    if (img->x > LPM_IMAGE_MAX_X || img->x > img->key_bits)
        return lpm_err_set(err, LPM_EINPUT, "initial stride %u is not in 0..%d", img->x, LPM_IMAGE_MAX_X);
    if (img->copies < 1 || img->copies > 2 || img->active >= img->copies)
        return lpm_err_set(err, LPM_EINPUT, "copies %u / active copy %u: copies must be 1 or 2, active below it",
                           img->copies, img->active);
    if (f->nh_bits < 1 || f->nh_bits > LPM_IMAGE_MAX_NH_BITS || f->addr_bits < 1 ||
        f->addr_bits > LPM_IMAGE_MAX_ADDR_BITS || f->stage_bits > 8)
        return lpm_err_set(err, LPM_EINPUT, "field widths nh %u, addr %u, stage %u out of range",
                           f->nh_bits, f->addr_bits, f->stage_bits);
    if (img->nh.n > (1ULL << f->nh_bits))
        return lpm_err_set(err, LPM_EINPUT, "%zu next hops do not fit %u-bit indexes", img->nh.n, f->nh_bits);
    for (unsigned s = 0; s < img->stages; s++) {
        if (img->stride[s] < 1 || img->stride[s] > LPM_IMAGE_MAX_STRIDE)
            return lpm_err_set(err, LPM_EINPUT, "stage %u: stride %u is not in 1..%d", s, img->stride[s], LPM_IMAGE_MAX_STRIDE);
        const char *why = lpm_image_depth_check(img->depth[s], img->stride[s], f->addr_bits, img->copies);
        if (why)
            return lpm_err_set(err, LPM_EINPUT, "stage %u: depth %u %s", s, img->depth[s], why);
        if (img->used[s] > img->depth[s])
            return lpm_err_set(err, LPM_EINPUT, "stage %u: used %u exceeds depth %u", s, img->used[s], img->depth[s]);
    }
    return LPM_OK;
}

/* Copy c's DIT entries and stage words. */
static int validate_copy(const lpm_image *img, unsigned c, lpm_err *err)
{
    const lpm_word_fmt *f = &img->fmt;
    const char *cn = img->copies == 1 ? "" : c ? " (copy 1)" : " (copy 0)";
    uint64_t wmask = img->word_bits >= 64 ? ~0ULL : (1ULL << img->word_bits) - 1;
    uint64_t dmask = img->dit_bits >= 64 ? ~0ULL : (1ULL << img->dit_bits) - 1;
    lpm_node_word w;
    lpm_word_layout ld, ln;
    lpm_word_layout_of(f, 1, &ld);
    lpm_word_layout_of(f, 0, &ln);
    for (uint64_t i = lpm_dit_base(img, c); i < lpm_dit_base(img, c) + (1ULL << img->x); i++) {
        uint64_t e = img->dit[i];
        unpack(&ld, e, &w);
        if ((e & ~dmask) || pack(&ld, 1, &w) != e)
            return lpm_err_set(err, LPM_EINPUT, "direct index entry %llu%s: reserved or disabled bits set", (unsigned long long)i, cn);
        if (w.valid && w.nh >= img->nh.n)
            return lpm_err_set(err, LPM_EINPUT, "direct index entry %llu%s: next hop %u out of range (%zu next hops)",
                               (unsigned long long)i, cn, w.nh, img->nh.n);
        lpm_image_dit_decode(img, e, &w);
        if (w.child && !block_ok(img, w.stage, w.addr, c))
            return lpm_err_set(err, LPM_EINPUT, "direct index entry %llu%s: child block stage %u address %u out of range",
                               (unsigned long long)i, cn, w.stage, w.addr);
    }
    for (unsigned s = 0; s < img->stages; s++) {
        uint32_t base = lpm_copy_base(img, s, c);
        for (uint32_t a = base; a < base + img->depth[s]; a++) {
            uint64_t x = img->mem[s][a];
            if (!x)
                continue;
            if (c == img->active && a - base >= img->used[s])
                return lpm_err_set(err, LPM_EINPUT, "stage %u word %u%s: nonzero word in head room (used %u)", s, a, cn, img->used[s]);
            unpack(&ln, x, &w);
            if ((x & ~wmask) || pack(&ln, 0, &w) != x)
                return lpm_err_set(err, LPM_EINPUT, "stage %u word %u%s: reserved or disabled bits set", s, a, cn);
            lpm_image_word_decode(img, s, x, &w);
            if (w.valid && w.nh >= img->nh.n)
                return lpm_err_set(err, LPM_EINPUT, "stage %u word %u%s: next hop %u out of range (%zu next hops)",
                                   s, a, cn, w.nh, img->nh.n);
            if (!w.child)
                continue;
            unsigned t = lpm_image_child_stage(img, s, &w);
            if (t >= img->stages || (!img->ring && t <= s))
                return lpm_err_set(err, LPM_EINPUT, "stage %u word %u%s: child stage %u is out of range for a %s pipeline of %u stages",
                                   s, a, cn, t, img->ring ? "ring" : "linear", img->stages);
            if (!block_ok(img, t, w.addr, c))
                return lpm_err_set(err, LPM_EINPUT, "stage %u word %u%s: child block at stage %u address %u is out of range (used %u)",
                                   s, a, cn, t, w.addr, img->used[t]);
        }
    }
    return LPM_OK;
}

int lpm_image_validate(const lpm_image *img, lpm_err *err)
{
    int rc = validate_header(img, err);
    for (unsigned c = 0; !rc && c < img->copies; c++)
        rc = validate_copy(img, c, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < img->nroutes; i++) {
        const lpm_route *r = &img->routes[i];
        lpm_addr m = lpm_addr_mask(&r->pfx.addr, r->pfx.len);
        if (r->pfx.len > img->key_bits || !lpm_addr_eq(&m, &r->pfx.addr) || r->nh >= img->nh.n)
            return lpm_err_set(err, LPM_EINPUT, "route %zu: bad length, host bits or next hop", i);
        if (i) {
            const lpm_route *q = &img->routes[i - 1];
            int c = lpm_addr_cmp(&q->pfx.addr, &r->pfx.addr);
            if (c > 0 || (c == 0 && q->pfx.len >= r->pfx.len))
                return lpm_err_set(err, LPM_EINPUT, "route %zu: routes are not strictly sorted", i);
        }
    }
    return LPM_OK;
}
