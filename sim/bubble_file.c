/* Reading the mapper's bubble stream (lpmpipe update --bubbles) as a bubble
 * source: the bubbles of update u (1-based) become ready at cycle
 * floor((u - 1) * cycles_per_update). Opening checks the whole file against
 * the image first (docs/cli-mapper.md, "What the readers check"), so that a
 * write the image cannot take is an input error, never a dropped write. */
#include "bubble_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BFILE_VERSION 1

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

/* The word a write puts into the image must be one the image could hold:
 * no bits above its width, no reserved or disabled bits, and a child
 * pointer whose block lies inside the target stage's memory (head room
 * included: the chain of a new block is written before it is linked). */
static int check_word(lpm_sim_bfile *bf, const lpm_sim_write *w, lpm_err *err)
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
    if (end > lpm_image_stage_depth(img, t))
        return bad(bf, err, "%s: child block %" PRIu32 "..%" PRIu64 " of stage %u is outside its %" PRIu32 " words",
                   where, d.addr, end - 1, t, lpm_image_stage_depth(img, t));
    return 0;
}

/* "S:A:W" or "D:A:W" (W hexadecimal) into a write that fits the image. */
static int parse_write(lpm_sim_bfile *bf, char *t, lpm_sim_write *w, lpm_err *err)
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
    if (st == LPM_SIM_DIT && ad >= (1ULL << lpm_image_initial_stride(bf->img)))
        return bad(bf, err, "write to DIT entry %" PRIu64 ", the table has %llu entries", ad,
                   1ULL << lpm_image_initial_stride(bf->img));
    if (st != LPM_SIM_DIT && ad >= lpm_image_stage_depth(bf->img, (unsigned)st))
        return bad(bf, err, "write to stage %" PRIu64 " address %" PRIu64 ", the stage has %" PRIu32 " words", st, ad,
                   lpm_image_stage_depth(bf->img, (unsigned)st));
    if (num(b + 1, 16, &wd))
        return bad(bf, err, "write word '%.24s' is not hexadecimal (at most 16 digits)", b + 1);
    w->stage = (unsigned)st;
    w->addr = (uint32_t)ad;
    w->word = wd;
    return check_word(bf, w, err);
}

/* "H bubbles=1 family=4 arch=ring stages=N x=X word_bits=W dit_bits=D
 * image_crc=C": every field must match the image (the CRC only without
 * ignore_crc). */
static int check_header(lpm_sim_bfile *bf, char *save, lpm_err *err)
{
    static const char *const keys[] = { "bubbles", "family", "arch", "stages", "x", "word_bits", "dit_bits", "image_crc" };
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
    for (size_t k = 0; k < NKEYS; k++)
        if (!val[k])
            return bad(bf, err, "header: no '%s=' field", keys[k]);
    const lpm_image *img = bf->img;
    uint64_t v[NKEYS];
    for (size_t k = 0; k < NKEYS; k++)
        if (k != 2 && num(val[k], k == 7 ? 16 : 10, &v[k]))
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
    if (v[7] != lpm_image_file_crc(img)) {
        if (!bf->ignore_crc)
            return bad(bf, err, "made for the image with CRC %08" PRIx64 ", this image's CRC is %08" PRIx32
                       " (--ignore-image-crc applies it anyway)", v[7], lpm_image_file_crc(img));
        bf->crc_differs = 1;
    }
    bf->have_header = 1;
    return 0;
}

/* The next line (a held one first); 1, 0 at the end, -1. */
static int next_line(lpm_sim_bfile *bf, char **line, lpm_err *err)
{
    if (bf->have_held) {
        bf->have_held = 0;
        *line = bf->held;
        return 1;
    }
    size_t len;
    for (;;) {
        int r = lpm_input_getline(bf->in, line, &len, err);
        if (r != 1)
            return r;
        if (bf->spool && (fwrite(*line, 1, len, bf->spool) != len || putc('\n', bf->spool) == EOF))
            return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "%s: cannot keep a copy of the stream: %s",
                                               lpm_input_name(bf->in), strerror(errno)), -1;
        if (memchr(*line, '\0', len))
            return bad(bf, err, "NUL byte (\\0) in a bubble line");
        if (len && (*line)[len - 1] == '\r')
            (*line)[--len] = '\0';
        if (len && (*line)[0] != '#')
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
    memcpy(bf->held, line, n);
    bf->have_held = 1;
    return 0;
}

/* The U line after its tag: number, and the writes= and bubbles= counts. */
static int parse_u(lpm_sim_bfile *bf, char *save, lpm_err *err)
{
    uint64_t u;
    char *t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &u) || u == 0 || u <= bf->update)
        return bad(bf, err, "U needs an update number (1, 2, ... increasing)");
    bf->update = u;
    bf->updates++;
    bf->want_writes = bf->want_bubbles = UINT64_MAX;
    while ((t = strtok_r(NULL, " \t", &save))) {
        uint64_t *dst = !strncmp(t, "writes=", 7) ? &bf->want_writes : !strncmp(t, "bubbles=", 8) ? &bf->want_bubbles : NULL;
        if (dst && num(strchr(t, '=') + 1, 10, dst))
            return bad(bf, err, "U line: '%.30s' is not a count", t);
    }
    return 0;
}

static int grow(lpm_sim_bfile *bf, size_t more, lpm_err *err)
{
    if (bf->nub == bf->cap_ub) {
        size_t cap = bf->cap_ub ? bf->cap_ub * 2 : 4;
        lpm_sim_bubble *p = realloc(bf->ub, cap * sizeof *p);
        if (!p)
            return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
        bf->ub = p;
        bf->cap_ub = cap;
    }
    if (bf->nuw + more > bf->cap_uw) {
        size_t cap = (bf->cap_uw + more) * 2;
        lpm_sim_write *p = realloc(bf->uw, cap * sizeof *p);
        if (!p)
            return bf->fail_code = lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
        bf->uw = p;
        bf->cap_uw = cap;
    }
    return 0;
}

/* One B line after its tag into the next bubble of the current update. */
static int parse_b(lpm_sim_bfile *bf, char *save, lpm_err *err)
{
    char *t = strtok_r(NULL, " \t", &save);
    uint64_t k;
    if (!t || num(t, 10, &k))
        return bad(bf, err, "B needs a bubble number");
    if (k != bf->last_bubble + 1)
        return bad(bf, err, "bubble %" PRIu64 " follows bubble %" PRIu64 " (numbers count 1, 2, ...)", k, bf->last_bubble);
    bf->last_bubble = k;
    if (grow(bf, LPM_SIM_MAX_STAGES + 1, err))
        return -1;
    lpm_sim_bubble *b = &bf->ub[bf->nub];
    memset(b, 0, offsetof(lpm_sim_bubble, w));
    while ((t = strtok_r(NULL, " \t", &save))) {
        if (b->nw == LPM_SIM_MAX_STAGES + 1)
            return bad(bf, err, "too many writes in one bubble");
        lpm_sim_write *w = &b->w[b->nw];
        if (parse_write(bf, t, w, err))
            return -1;
        for (unsigned j = 0; j < b->nw; j++)
            if (b->w[j].stage == w->stage)
                return bad(bf, err, w->stage == LPM_SIM_DIT ? "two DIT writes in one bubble"
                                                            : "two writes to one stage in one bubble");
        b->nw++;
    }
    if (!b->nw)
        return bad(bf, err, "bubble %" PRIu64 " has no writes", k);
    memcpy(bf->uw + bf->nuw, b->w, b->nw * sizeof *b->w);
    bf->nuw += b->nw;
    b->update = bf->update;
    b->ready = (uint64_t)((double)(bf->update - 1) * bf->cpu);
    bf->nub++;
    return 0;
}

/* Reads the next update: its U line and all its B lines. 1, 0 at the end
 * (or at a rebuild), -1. */
static int read_update(lpm_sim_bfile *bf, lpm_err *err)
{
    char *line;
    int r;
    bf->nub = bf->next_ub = bf->nuw = 0;
    for (;;) {
        r = next_line(bf, &line, err);
        if (r != 1)
            return r;
        char *save = NULL, *t = strtok_r(line, " \t", &save);
        if (!t)
            continue;
        if (!strcmp(t, "H")) {
            if (bf->have_header)
                return bad(bf, err, "a second header (H) line");
            if (check_header(bf, save, err))
                return -1;
            continue;
        }
        if (!bf->have_header)
            return bad(bf, err, "the first line must be the header 'H bubbles=1 ...' (a file from lpmpipe update)");
        if (!strcmp(t, "R")) {
            /* A rebuild replaces the image; the writes after it are for the
             * new copy, which the simulator does not have: stop here. */
            bf->stopped = 1;
            bf->rebuild_at = bf->update;
            return 0;
        }
        if (!strcmp(t, "B"))
            return bad(bf, err, "a bubble before the first U line");
        if (strcmp(t, "U"))
            return bad(bf, err, "expected a U, R or B line, got '%.20s'", t);
        if (parse_u(bf, save, err))
            return -1;
        break;
    }
    while ((r = next_line(bf, &line, err)) == 1) {
        if (line[0] == 'U' || line[0] == 'R' || line[0] == 'H') {
            if (hold(bf, line, err))
                return -1;
            break;
        }
        char *save = NULL, *t = strtok_r(line, " \t", &save);
        if (!t)
            continue;
        if (strcmp(t, "B"))
            return bad(bf, err, "expected a U, R or B line, got '%.20s'", t);
        if (parse_b(bf, save, err))
            return -1;
    }
    if (r < 0)
        return -1;
    if ((bf->want_bubbles != UINT64_MAX && bf->want_bubbles != bf->nub) ||
        (bf->want_writes != UINT64_MAX && bf->want_writes != bf->nuw))
        return bad(bf, err, "update %" PRIu64 " says writes=%" PRIu64 " bubbles=%" PRIu64 ", its B lines hold %zu writes in %zu bubbles",
                   bf->update, bf->want_writes, bf->want_bubbles, bf->nuw, bf->nub);
    if (bf->nub) {
        bf->ub[0].first = 1;
        bf->ub[bf->nub - 1].last = 1;
    }
    return 1;
}

static void reset(lpm_sim_bfile *bf)
{
    bf->update = bf->updates = bf->bubbles = bf->rebuild_at = bf->last_bubble = 0;
    bf->stopped = bf->have_header = bf->have_held = 0;
    bf->nub = bf->next_ub = bf->nuw = 0;
}

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, const lpm_image *img, double cycles_per_update,
                       int ignore_crc, lpm_err *err)
{
    memset(bf, 0, sizeof *bf);
    bf->img = img;
    bf->ignore_crc = ignore_crc;
    bf->cpu = cycles_per_update;
    bf->fail_code = LPM_EINPUT; /* bad lines, and the input layer's truncated or corrupt data */
    /* A pipe or standard input cannot be read twice: the checking pass
     * keeps a copy for the simulation. */
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode)) {
        if (!(bf->spool = tmpfile()))
            return lpm_err_set(err, LPM_EFAIL, "%s: cannot make a temporary copy: %s", path, strerror(errno));
    }
    int rc = lpm_input_open(&bf->in, path, err);
    int r = 0;
    if (!rc) {
        while ((r = read_update(bf, err)) == 1)
            ;
        if (r == 0 && !bf->have_header)
            r = bad(bf, err, "no header line 'H bubbles=1 ...': not a bubble file from lpmpipe update");
        rc = r < 0 ? bf->fail_code : 0;
    }
    if (bf->in)
        lpm_input_close(bf->in);
    bf->in = NULL;
    if (!rc) {
        reset(bf);
        if (bf->spool) {
            FILE *fp = bf->spool;
            bf->spool = NULL;
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

int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    lpm_sim_bfile *bf = ctx;
    while (bf->next_ub == bf->nub) {
        if (bf->stopped)
            return 0;
        int r = read_update(bf, err);
        if (r <= 0)
            return r;
    }
    *b = bf->ub[bf->next_ub++];
    bf->bubbles++;
    return 1;
}
