/* Reading the mapper's bubble stream (lpmpipe update --bubbles) as a bubble
 * source: the bubbles of update u (its U number) become ready at cycle
 * floor((u - 1) * cycles_per_update). Opening checks the whole file against
 * the image first (docs/cli-mapper.md, "What the readers check"), so that a
 * write the image cannot take is an input error, never a dropped write. One
 * function per line kind, so that new keys and flags go in one place. */
#include "bubble_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BFILE_VERSION 2

static int bad(lpm_sim_bfile *bf, lpm_err *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(lpm_sim_bfile *bf, lpm_err *err, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    lpm_err_at(err, LPM_EINPUT, lpm_input_name(bf->in), lpm_input_lineno(bf->in), "%s", why);
    return -1;
}

static int num(const char *s, int base, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    errno = 0;
    *out = strtoull(s, &end, base);
    return *end || errno ? -1 : 0;
}

static uint64_t low_bits(unsigned n)
{
    return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

/* The word a write puts into copy cp must be one the image could hold:
 * no bits above its width, no reserved or disabled bits, and a child
 * pointer whose block lies inside the target stage's memory in the same
 * copy (head room included: the chain of a new block is written before it
 * is linked). */
static int check_word(lpm_sim_bfile *bf, const lpm_sim_write *w, unsigned cp, lpm_err *err)
{
    const lpm_image *img = bf->img;
    unsigned n = lpm_image_stages(img);
    lpm_node_word d;
    char where[48];
    int dit = w->stage == LPM_SIM_DIT;
    unsigned bits = dit ? lpm_image_dit_bits(img) : lpm_image_word_bits(img), t;
    if (dit)
        snprintf(where, sizeof where, "write D:%" PRIu32, w->addr);
    else
        snprintf(where, sizeof where, "write %u:%" PRIu32, w->stage, w->addr);
    if (w->word & ~low_bits(bits))
        return bad(bf, err, "%s: word %" PRIx64 " is wider than the image's %u-bit %s", where, w->word, bits,
                   dit ? "DIT entries" : "words");
    /* image version 2: child pointers are block indexes; decode gives word addresses */
    if (dit)
        lpm_image_dit_decode(img, w->word, &d);
    else
        lpm_image_word_decode(img, w->stage, w->word, &d);
    if ((dit ? lpm_image_dit_encode(img, &d) : lpm_image_word_encode(img, w->stage, &d)) != w->word)
        return bad(bf, err, "%s: word %" PRIx64 " has reserved or disabled bits set", where, w->word);
    if (!d.child)
        return 0;
    if (dit) {
        t = d.stage;
        if (t >= n)
            return bad(bf, err, "%s: entry stage %u, the image has %u stages", where, t, n);
    } else {
        t = d.jump ? d.stage : w->stage + 1;
        if (lpm_image_is_ring(img) && !d.jump && t == n)
            t = 0;
        if (t >= n || (!lpm_image_is_ring(img) && t <= w->stage))
            return bad(bf, err, "%s: child stage %u is not a stage after %u in this %s pipeline of %u stages", where, t,
                       w->stage, lpm_image_is_ring(img) ? "ring" : "linear", n);
    }
    uint64_t end = (uint64_t)d.addr + (1ULL << lpm_image_stage_stride(img, t));
    uint64_t depth = lpm_image_stage_depth(img, t), lo = cp * depth;
    if (lpm_image_copies(img) == 1 && end > depth)
        return bad(bf, err, "%s: child block %" PRIu32 "..%" PRIu64 " of stage %u is outside its %" PRIu32 " words",
                   where, d.addr, end - 1, t, lpm_image_stage_depth(img, t));
    if (d.addr < lo || end > lo + depth)
        return bad(bf, err, "%s: child block %" PRIu32 "..%" PRIu64 " of stage %u is outside copy %u (words %" PRIu64
                   "..%" PRIu64 ")", where, d.addr, end - 1, t, cp, lo, lo + depth - 1);
    return 0;
}

/* "S:A:W" or "D:A:W" (W hexadecimal) into a write that fits copy cp of
 * the image (addresses are absolute: copy c's words of stage s are
 * c*depth[s] .. (c+1)*depth[s]-1, its DIT entries c*2^x .. (c+1)*2^x-1). */
static int parse_write(lpm_sim_bfile *bf, char *t, lpm_sim_write *w, unsigned cp, lpm_err *err)
{
    char *a = strchr(t, ':');
    char *b = a ? strchr(a + 1, ':') : NULL;
    if (!a || !b)
        return bad(bf, err, "a write is STAGE:ADDRESS:WORD, got '%.40s'", t);
    *a = *b = '\0';
    uint64_t st, ad, wd;
    unsigned n = lpm_image_stages(bf->img);
    if (!strcmp(t, "D"))
        st = LPM_SIM_DIT;
    else if (num(t, 10, &st))
        return bad(bf, err, "write stage '%.20s' is not a number (or D)", t);
    else if (st >= n)
        return bad(bf, err, "write to stage %" PRIu64 ", the image has %u stages (0..%u)", st, n, n - 1);
    if (num(a + 1, 10, &ad))
        return bad(bf, err, "write address '%.24s' is not a whole number", a + 1);
    uint64_t size = st == LPM_SIM_DIT ? 1ULL << lpm_image_initial_stride(bf->img)
                                      : lpm_image_stage_depth(bf->img, (unsigned)st);
    if (lpm_image_copies(bf->img) == 1 && ad >= size) {
        if (st == LPM_SIM_DIT)
            return bad(bf, err, "write to DIT entry %" PRIu64 ", the table has %" PRIu64 " entries", ad, size);
        return bad(bf, err, "write to stage %" PRIu64 " address %" PRIu64 ", the stage has %" PRIu64 " words", st, ad,
                   size);
    }
    if (ad < cp * size || ad >= (cp + 1) * size) {
        char what[32];
        if (st == LPM_SIM_DIT)
            snprintf(what, sizeof what, "DIT entry");
        else
            snprintf(what, sizeof what, "stage %" PRIu64 " address", st);
        return bad(bf, err, "write to %s %" PRIu64 ": outside copy %u (%" PRIu64 "..%" PRIu64 "), the copy %s writes",
                   what, ad, cp, cp * size, (cp + 1) * size - 1, bf->rebuild ? "this rebuild" : "the live updates");
    }
    if (num(b + 1, 16, &wd))
        return bad(bf, err, "write word '%.24s' is not hexadecimal (at most 16 digits)", b + 1);
    w->stage = (unsigned)st;
    w->addr = (uint32_t)ad;
    w->word = wd;
    return check_word(bf, w, cp, err);
}

/* "H bubbles=2 family=4 arch=ring stages=N x=X word_bits=W dit_bits=D
 * copies=C image_crc=K": every field must match the image (the CRC only
 * without ignore_crc). */
static int check_header(lpm_sim_bfile *bf, char *save, lpm_err *err)
{
    static const char *const keys[] = { "bubbles", "family", "arch", "stages", "x", "word_bits", "dit_bits", "copies", "image_crc" };
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    const char *val[NKEYS] = { 0 };
    char *t;
    while ((t = strtok_r(NULL, " \t", &save))) {
        char *eq = strchr(t, '=');
        size_t k = 0;
        if (eq) {
            *eq = '\0';
            while (k < NKEYS && strcmp(t, keys[k]))
                k++;
        }
        if (!eq || k == NKEYS)
            return bad(bf, err, "header: unknown field '%.40s' (a newer bubble file?)", t);
        if (val[k])
            return bad(bf, err, "header: field '%s' given twice", t);
        val[k] = eq + 1;
    }
    uint64_t ver;
    if (val[0] && !num(val[0], 10, &ver) && ver != BFILE_VERSION) /* before the fields it may lack */
        return bad(bf, err, "bubble file version %" PRIu64 " is not supported (this build reads %d)", ver, BFILE_VERSION);
    for (size_t k = 0; k < NKEYS; k++)
        if (!val[k])
            return bad(bf, err, "header: no '%s=' field", keys[k]);
    const lpm_image *img = bf->img;
    uint64_t v[NKEYS];
    for (size_t k = 0; k < NKEYS; k++)
        if (k != 2 && num(val[k], k == 8 ? 16 : 10, &v[k]))
            return bad(bf, err, "header: %s '%.20s' is not a number", keys[k], val[k]);
    if (v[0] != BFILE_VERSION)
        return bad(bf, err, "bubble file version %" PRIu64 " is not supported (this build reads %d)", v[0], BFILE_VERSION);
    const char *arch = lpm_image_is_ring(img) ? "ring" : "linear";
    if (v[1] != (uint64_t)lpm_image_family(img))
        return bad(bf, err, "made for an IPv%" PRIu64 " image, this image is IPv%d", v[1], lpm_image_family(img));
    if (strcmp(val[2], arch))
        return bad(bf, err, "made for a %.20s pipeline, this image is a %s", val[2], arch);
    if (v[3] != lpm_image_stages(img))
        return bad(bf, err, "made for %" PRIu64 " stages, this image has %u", v[3], lpm_image_stages(img));
    if (v[4] != lpm_image_initial_stride(img))
        return bad(bf, err, "made for initial stride %" PRIu64 ", this image has %u", v[4], lpm_image_initial_stride(img));
    if (v[5] != lpm_image_word_bits(img) || v[6] != lpm_image_dit_bits(img))
        return bad(bf, err, "made for %" PRIu64 "-bit words and %" PRIu64 "-bit DIT entries, this image has %u and %u",
                   v[5], v[6], lpm_image_word_bits(img), lpm_image_dit_bits(img));
    if (v[7] != lpm_image_copies(img))
        return bad(bf, err, "made for an image with %" PRIu64 " cop%s, this image has %u", v[7], v[7] == 1 ? "y" : "ies",
                   lpm_image_copies(img));
    if (v[8] != lpm_image_file_crc(img)) {
        if (!bf->ignore_crc)
            return bad(bf, err, "made for the image with CRC %08" PRIx64 ", this image's CRC is %08" PRIx32
                       " (--ignore-image-crc applies it anyway)", v[8], lpm_image_file_crc(img));
        bf->crc_differs = 1;
    }
    bf->have_header = 1;
    return 0;
}

/* The next line that is not blank or a comment (a held one first); 1, 0
 * at the end, -1. */
static int next_line(lpm_sim_bfile *bf, char **line, lpm_err *err)
{
    if (bf->have_held) {
        bf->have_held = 0;
        *line = bf->held;
        return 1;
    }
    if (bf->eof)
        return 0;
    size_t len;
    for (;;) {
        int r = lpm_input_getline(bf->in, line, &len, err);
        if (r != 1) {
            bf->eof = r == 0;
            return r;
        }
        if (bf->spool && (fwrite(*line, 1, len, bf->spool) != len || putc('\n', bf->spool) == EOF))
            return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "%s: cannot keep a copy of the stream: %s",
                                               lpm_input_name(bf->in), strerror(errno)), -1;
        if (memchr(*line, '\0', len))
            return bad(bf, err, "NUL byte (\\0) in a bubble line");
        if (len && (*line)[len - 1] == '\r')
            (*line)[--len] = '\0';
        size_t i = strspn(*line, " \t");
        if ((*line)[i] && (*line)[i] != '#')
            return 1;
    }
}

static int hold(lpm_sim_bfile *bf, const char *line, lpm_err *err)
{
    size_t n = strlen(line) + 1;
    if (n > bf->held_cap) {
        char *p = realloc(bf->held, n);
        if (!p)
            return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
        bf->held = p;
        bf->held_cap = n;
    }
    if (line != bf->held)
        memcpy(bf->held, line, n);
    bf->have_held = 1;
    return 0;
}

/* "key=value" with this key: 1 and *v; 0 when the key differs; -1 bad value. */
static int keyval(const char *t, const char *key, int base, uint64_t *v)
{
    size_t n = strlen(key);
    if (strncmp(t, key, n) || t[n] != '=')
        return 0;
    return num(t + n + 1, base, v) ? -1 : 1;
}

/* The kind of a line ('H', 'U', 'R', 'B', or 0). An H line is checked
 * here (one, first); any other line needs the header before it. */
static int kind(lpm_sim_bfile *bf, char *line, char *k, lpm_err *err)
{
    line += strspn(line, " \t");
    *k = (line[0] == 'H' || line[0] == 'U' || line[0] == 'R' || line[0] == 'B') && (line[1] == ' ' || line[1] == '\t')
             ? line[0] : 0;
    if (*k == 'H') {
        if (bf->have_header)
            return bad(bf, err, "a second header (H) line");
        char *save = NULL;
        strtok_r(line, " \t", &save);
        return check_header(bf, save, err);
    }
    if (!bf->have_header)
        return bad(bf, err, "the first line must be the header 'H bubbles=%d ...' (a file from lpmpipe update)",
                   BFILE_VERSION);
    if (!*k)
        return bad(bf, err, "expected a U, R or B line, got '%.20s'", line);
    return 0;
}

/* The end of the current update (at the next U line or the end of the
 * file): its B lines must be what its U (or R) line announced. */
static int end_update(lpm_sim_bfile *bf, lpm_err *err)
{
    if (!bf->uord)
        return 0;
    if (bf->rebuild && !bf->rb_swapped)
        return bad(bf, err, "a rebuild ends before its swap bubble (its R line announced more bubbles)");
    if (!bf->rebuild && ((bf->want_bubbles != UINT64_MAX && bf->want_bubbles != bf->cur_bubbles) ||
                         (bf->want_writes != UINT64_MAX && bf->want_writes != bf->cur_writes)))
        return bad(bf, err, "update %" PRIu64 " says writes=%" PRIu64 " bubbles=%" PRIu64 ", its B lines hold %" PRIu64
                   " writes in %" PRIu64 " bubbles", bf->update, bf->want_writes, bf->want_bubbles, bf->cur_writes,
                   bf->cur_bubbles);
    bf->rebuild = 0;
    return 0;
}

/* U <seq> <op> <prefix> <nh> [writes=W bubbles=B]: the update's number
 * (1, 2, ... increasing) and counts; the update before it ends here. */
static int parse_u(lpm_sim_bfile *bf, char *line, lpm_err *err)
{
    if (end_update(bf, err))
        return -1;
    char *save = NULL, *t = strtok_r(line, " \t", &save);
    uint64_t u;
    t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &u) || u == 0 || u <= bf->update)
        return bad(bf, err, "U needs an update number (1, 2, ... increasing)");
    bf->update = u;
    bf->uord++;
    bf->updates++;
    bf->want_writes = bf->want_bubbles = UINT64_MAX;
    bf->cur_writes = bf->cur_bubbles = 0;
    while ((t = strtok_r(NULL, " \t", &save))) {
        uint64_t *dst = !strncmp(t, "writes=", 7) ? &bf->want_writes : !strncmp(t, "bubbles=", 8) ? &bf->want_bubbles : NULL;
        if (dst && num(strchr(t, '=') + 1, 10, dst))
            return bad(bf, err, "U line: '%.30s' is not a count", t);
    }
    return 0;
}

/* R <seq> <reason> copy=C writes=W bubbles=B copy_crc=X: the update just
 * read is a rebuild whose B bubbles follow, writing the inactive copy C. */
static int parse_r(lpm_sim_bfile *bf, char *line, lpm_err *err)
{
    char *save = NULL, *t = strtok_r(line, " \t", &save);
    uint64_t u, v, w = UINT64_MAX;
    t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &u) || !bf->uord || u != bf->update || bf->rebuild || bf->cur_bubbles)
        return bad(bf, err, "R must follow its own U line (same update number) and come before its bubbles");
    if (!strtok_r(NULL, " \t", &save))
        return bad(bf, err, "R needs a reason");
    int have_copy = 0;
    bf->copy_crc = 0;
    bf->rb_expect = 0;
    while ((t = strtok_r(NULL, " \t", &save))) {
        int r;
        if ((r = keyval(t, "copy", 10, &v)) != 0) {
            if (r < 0 || v >= lpm_image_copies(bf->img) || v == bf->active)
                return bad(bf, err, "R copy= must name the inactive copy (%s)",
                           lpm_image_copies(bf->img) == 1 ? "this image has none: rebuilds need map --shadow"
                                                          : bf->active ? "0" : "1");
            bf->copy = (unsigned)v;
            have_copy = 1;
        } else if ((r = keyval(t, "bubbles", 10, &v)) != 0) {
            if (r < 0)
                return bad(bf, err, "R bubbles= is not a number");
            bf->rb_expect = v;
        } else if ((r = keyval(t, "writes", 10, &v)) != 0) {
            if (r < 0)
                return bad(bf, err, "R writes= is not a number");
            w = v;
        } else if ((r = keyval(t, "copy_crc", 16, &v)) != 0) {
            if (r < 0 || v > UINT32_MAX)
                return bad(bf, err, "R copy_crc= is not 8 hexadecimal digits");
            bf->copy_crc = (uint32_t)v;
        } else {
            return bad(bf, err, "unknown key in an R line (copy, writes, bubbles, copy_crc)");
        }
    }
    if (!have_copy || w == UINT64_MAX || bf->rb_expect < 1)
        return bad(bf, err, "R needs copy=, writes= and bubbles= (at least 1: the swap)");
    if ((bf->want_bubbles != UINT64_MAX && bf->want_bubbles != bf->rb_expect) ||
        (bf->want_writes != UINT64_MAX && bf->want_writes != w))
        return bad(bf, err, "R says writes=%" PRIu64 " bubbles=%" PRIu64 ", its U line writes=%" PRIu64 " bubbles=%" PRIu64,
                   w, bf->rb_expect, bf->want_writes, bf->want_bubbles);
    bf->rebuilds++;
    bf->rebuild = 1;
    bf->want_writes = w;
    bf->rb_writes = 0;
    bf->rb_swapped = 0;
    return 0;
}

/* B <n> [flag...] write...: flags are the tokens without ':'. Checks the
 * bubble's place (numbering, rebuild order) and counts it. */
static int parse_b(lpm_sim_bfile *bf, char *line, lpm_sim_bubble *b, lpm_err *err)
{
    char *save = NULL, *t = strtok_r(line, " \t", &save);
    uint64_t k;
    if (!bf->uord)
        return bad(bf, err, "a bubble before the first U line");
    if (bf->rebuild && bf->rb_swapped)
        return bad(bf, err, "a bubble after the swap that ended its rebuild");
    t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &k))
        return bad(bf, err, "B needs a bubble number");
    if (k != bf->last_bubble + 1)
        return bad(bf, err, "bubble %" PRIu64 " follows bubble %" PRIu64 " (numbers count 1, 2, ...)", k, bf->last_bubble);
    bf->last_bubble = k;
    b->nw = 0; /* the writes array is large: only the fields after it are cleared */
    memset(&b->ready, 0, sizeof *b - offsetof(lpm_sim_bubble, ready));
    unsigned cp = bf->rebuild ? bf->copy : bf->active;
    while ((t = strtok_r(NULL, " \t", &save))) {
        if (!strchr(t, ':')) {
            unsigned f = !strcmp(t, "fence") ? LPM_SIM_B_FENCE
                         : !strcmp(t, "drain") ? LPM_SIM_B_DRAIN
                         : !strcmp(t, "swap") ? LPM_SIM_B_SWAP : 0;
            if (!f)
                return bad(bf, err, "unknown bubble flag '%.20s' (fence, drain, swap)", t);
            b->flags |= f;
            continue;
        }
        if (b->nw == LPM_SIM_MAX_STAGES + 1)
            return bad(bf, err, "too many writes in one bubble");
        lpm_sim_write *w = &b->w[b->nw];
        if (parse_write(bf, t, w, cp, err))
            return -1;
        for (unsigned j = 0; j < b->nw; j++)
            if (b->w[j].stage == w->stage)
                return bad(bf, err, w->stage == LPM_SIM_DIT ? "two DIT writes in one bubble"
                                                            : "two writes to one stage in one bubble");
        b->nw++;
    }
    int swap = (b->flags & LPM_SIM_B_SWAP) != 0;
    if (!bf->rebuild && (b->flags & (LPM_SIM_B_SWAP | LPM_SIM_B_FENCE)))
        return bad(bf, err, "fence and swap bubbles belong to a rebuild (after its R line)");
    if (swap && b->nw)
        return bad(bf, err, "a swap bubble carries no writes");
    if (!swap && !b->nw)
        return bad(bf, err, "bubble %" PRIu64 " has no writes", k);
    if (bf->rebuild && swap != (bf->cur_bubbles + 1 == bf->rb_expect))
        return bad(bf, err, "the swap must be the last of the %" PRIu64 " bubbles its R line announces", bf->rb_expect);
    bf->cur_bubbles++;
    bf->cur_writes += b->nw;
    if (swap) {
        if (bf->cur_writes != bf->want_writes)
            return bad(bf, err, "the rebuild's bubbles hold %" PRIu64 " writes, its R line says writes=%" PRIu64,
                       bf->cur_writes, bf->want_writes);
        bf->rb_swapped = 1;
        bf->active = bf->copy;
    }
    b->update = bf->update;
    b->uord = bf->uord;
    b->ready = (uint64_t)((double)(bf->update - 1) * bf->cpu);
    return 0;
}

static int grow_ub(lpm_sim_bfile *bf, lpm_err *err)
{
    if (bf->nub < bf->cap_ub)
        return 0;
    size_t cap = bf->cap_ub ? bf->cap_ub * 2 : 4;
    lpm_sim_bubble *p = realloc(bf->ub, cap * sizeof *p);
    if (!p)
        return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
    bf->ub = p;
    bf->cap_ub = cap;
    return 0;
}

static int keep_writes(lpm_sim_bfile *bf, const lpm_sim_bubble *b, lpm_err *err)
{
    if (bf->nuw + b->nw > bf->cap_uw) {
        size_t cap = (bf->cap_uw + b->nw) * 2;
        lpm_sim_write *p = realloc(bf->uw, cap * sizeof *p);
        if (!p)
            return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
        bf->uw = p;
        bf->cap_uw = cap;
    }
    memcpy(bf->uw + bf->nuw, b->w, b->nw * sizeof *b->w);
    bf->nuw += b->nw;
    return 0;
}

/* Reads the next update's U line and, for an ordinary update, all its B
 * lines; a rebuild stops after its R line. 1, 0 at the end, -1. */
static int read_update(lpm_sim_bfile *bf, lpm_err *err)
{
    char *line, k;
    int r;
    bf->nub = bf->next_ub = bf->nuw = 0;
    do {
        if ((r = next_line(bf, &line, err)) != 1)
            return r < 0 ? -1 : end_update(bf, err);
        if (kind(bf, line, &k, err))
            return -1;
    } while (k == 'H');
    if (k == 'B')
        return bad(bf, err, bf->uord ? "a bubble after the swap that ended its rebuild" : "a bubble before the first U line");
    if (k == 'R')
        return bad(bf, err, "an R line must follow its U line");
    if (parse_u(bf, line, err))
        return -1;
    while ((r = next_line(bf, &line, err)) == 1) {
        if (kind(bf, line, &k, err))
            return -1;
        if (k == 'R')
            return parse_r(bf, line, err) ? -1 : 1;
        if (k != 'B') {
            if (hold(bf, line, err))
                return -1;
            break;
        }
        if (grow_ub(bf, err))
            return -1;
        lpm_sim_bubble *b = &bf->ub[bf->nub];
        if (parse_b(bf, line, b, err) || keep_writes(bf, b, err))
            return -1;
        bf->nub++;
    }
    if (r < 0)
        return -1;
    if (bf->nub) {
        bf->ub[0].first = 1;
        bf->ub[bf->nub - 1].last = 1;
    }
    return 1;
}

/* The next bubble of a rebuild: 1, 0 when the rebuild is over, -1. */
static int rebuild_next(lpm_sim_bfile *bf, lpm_sim_bubble *b, lpm_err *err)
{
    char *line, k = 0;
    int r = next_line(bf, &line, err);
    if (r < 0 || (r == 1 && kind(bf, line, &k, err)))
        return -1;
    if (r == 0 || k != 'B') {
        if (end_update(bf, err))
            return -1;
        return r == 0 ? 0 : hold(bf, line, err) ? -1 : 0;
    }
    int first = bf->cur_bubbles == 0;
    if (parse_b(bf, line, b, err))
        return -1;
    b->copy = bf->copy;
    b->first = first;
    if (b->flags & LPM_SIM_B_SWAP) {
        b->last = 1;
        b->copy_crc = bf->copy_crc;
    } else {
        b->flags |= LPM_SIM_B_SHADOW;
    }
    return 1;
}

int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    lpm_sim_bfile *bf = ctx;
    for (;;) {
        if (bf->rebuild) {
            int r = rebuild_next(bf, b, err);
            if (r < 0)
                return -1;
            if (r == 1) {
                bf->bubbles++;
                return 1;
            }
            continue;
        }
        if (bf->next_ub < bf->nub) {
            *b = bf->ub[bf->next_ub++];
            bf->bubbles++;
            return 1;
        }
        int r = read_update(bf, err);
        if (r <= 0)
            return r;
    }
}

/* Reads the rest of the file, checking every line: the bubbles in it, and
 * the position of the update of the first one (0: none). */
static int scan_rest(lpm_sim_bfile *bf, uint64_t *bubbles, uint64_t *first_uord, lpm_err *err)
{
    lpm_sim_bubble *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
    char *line, k;
    int r, rc = 0;
    while (!rc && (r = next_line(bf, &line, err)) == 1) {
        if (kind(bf, line, &k, err))
            rc = -1;
        else if (k == 'U')
            rc = parse_u(bf, line, err);
        else if (k == 'R')
            rc = parse_r(bf, line, err);
        else if (k == 'B' && !(rc = parse_b(bf, line, scratch, err))) {
            (*bubbles)++;
            if (!*first_uord)
                *first_uord = bf->uord;
        }
    }
    free(scratch);
    if (!rc && r < 0)
        rc = -1;
    if (!rc && !bf->have_header)
        rc = bad(bf, err, "no header line 'H bubbles=%d ...': not a bubble file from lpmpipe update", BFILE_VERSION);
    return rc ? rc : end_update(bf, err);
}

/* Back to the start of the file for the run: the reading state goes, the
 * buffers and the options stay. */
static void rewind_state(lpm_sim_bfile *bf)
{
    lpm_sim_bfile keep = *bf;
    memset(bf, 0, sizeof *bf);
    bf->img = keep.img;
    bf->ignore_crc = keep.ignore_crc;
    bf->crc_differs = keep.crc_differs;
    bf->cpu = keep.cpu;
    bf->fail_code = keep.fail_code;
    bf->active = lpm_image_active(keep.img);
    bf->ub = keep.ub;
    bf->cap_ub = keep.cap_ub;
    bf->uw = keep.uw;
    bf->cap_uw = keep.cap_uw;
    bf->held = keep.held;
    bf->held_cap = keep.held_cap;
}

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, const lpm_image *img, double cycles_per_update,
                       int ignore_crc, lpm_err *err)
{
    memset(bf, 0, sizeof *bf);
    bf->img = img;
    bf->ignore_crc = ignore_crc;
    bf->cpu = cycles_per_update;
    bf->active = lpm_image_active(img);
    bf->fail_code = LPM_EINPUT; /* bad lines, and the input layer's truncated or corrupt data */
    /* A pipe or standard input cannot be read twice: the checking pass
     * keeps a copy for the simulation. */
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode)) {
        if (!(bf->spool = tmpfile()))
            return lpm_err_set(err, LPM_EFAIL, "%s: cannot make a temporary copy: %s", path, strerror(errno));
    }
    int rc = lpm_input_open(&bf->in, path, err);
    if (!rc) {
        uint64_t nb = 0, first = 0;
        rc = scan_rest(bf, &nb, &first, err) ? bf->fail_code : 0;
    }
    if (bf->in)
        lpm_input_close(bf->in);
    bf->in = NULL;
    if (!rc) {
        FILE *fp = bf->spool;
        rewind_state(bf);
        if (fp) {
            if (fflush(fp) || fseek(fp, 0, SEEK_SET))
                rc = lpm_err_set(err, LPM_EFAIL, "%s: temporary copy failed", path), fclose(fp);
            else
                rc = lpm_input_open_stream(&bf->in, fp, strcmp(path, "-") ? path : "<stdin>", err);
        } else {
            rc = lpm_input_open(&bf->in, path, err);
        }
    }
    if (rc)
        lpm_sim_bfile_close(bf);
    return rc;
}

void lpm_sim_bfile_close(lpm_sim_bfile *bf)
{
    if (bf->in)
        lpm_input_close(bf->in);
    if (bf->spool)
        fclose(bf->spool);
    bf->in = NULL;
    bf->spool = NULL;
    free(bf->ub);
    free(bf->uw);
    free(bf->held);
    bf->ub = NULL;
    bf->uw = NULL;
    bf->held = NULL;
}

int lpm_sim_bfile_finish(lpm_sim_bfile *bf, uint64_t entered, lpm_err *err)
{
    /* The first bubble that did not go in: the one the simulator holds,
     * one read ahead, or the next one in the file. Its update and all after
     * it are not applied. */
    uint64_t first_out = bf->bubbles > entered || bf->next_ub < bf->nub ? bf->uord : 0;
    uint64_t bubbles = bf->bubbles + (bf->nub - bf->next_ub);
    bf->nub = bf->next_ub = 0;
    if (scan_rest(bf, &bubbles, &first_out, err))
        return bf->fail_code;
    bf->in_file_updates = bf->updates;
    bf->in_file_bubbles = bubbles;
    bf->in_file_rebuilds = bf->rebuilds;
    bf->updates_applied = first_out ? first_out - 1 : bf->updates;
    return LPM_OK;
}
