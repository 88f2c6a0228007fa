/* Reading the mapper's bubble stream (lpmpipe update --bubbles) as a bubble
 * source: the bubbles of update u (its U number) become ready at cycle
 * floor((u - 1) * cycles_per_update). One function per line kind, so that
 * new keys and flags go in one place. */
#include "bubble_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, unsigned stages, double cycles_per_update, lpm_err *err)
{
    memset(bf, 0, sizeof *bf);
    bf->stages = stages;
    bf->cpu = cycles_per_update;
    return lpm_input_open(&bf->in, path, err);
}

void lpm_sim_bfile_close(lpm_sim_bfile *bf)
{
    if (bf->in)
        lpm_input_close(bf->in);
    bf->in = NULL;
    free(bf->ub);
    free(bf->uw);
    free(bf->held);
    bf->ub = NULL;
    bf->uw = NULL;
    bf->held = NULL;
}

static int bad(lpm_sim_bfile *bf, lpm_err *err, const char *why)
{
    lpm_err_at(err, LPM_EINPUT, lpm_input_name(bf->in), lpm_input_lineno(bf->in), "%s", why);
    return -1;
}

static int num(const char *s, int base, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    *out = strtoull(s, &end, base);
    return *end || errno ? -1 : 0;
}

/* "key=value" with this key: 1 and *v; 0 when the key differs; -1 bad value. */
static int keyval(const char *t, const char *key, int base, uint64_t *v)
{
    size_t n = strlen(key);
    if (strncmp(t, key, n) || t[n] != '=')
        return 0;
    return num(t + n + 1, base, v) ? -1 : 1;
}

/* "S:A:W" or "D:A:W" (W hexadecimal) into a write. */
static int parse_write(lpm_sim_bfile *bf, char *t, lpm_sim_write *w, lpm_err *err)
{
    char *a = strchr(t, ':');
    char *b = a ? strchr(a + 1, ':') : NULL;
    if (!a || !b)
        return bad(bf, err, "a write is STAGE:ADDRESS:WORD");
    *a = *b = '\0';
    uint64_t st, ad, wd;
    if (!strcmp(t, "D"))
        st = LPM_SIM_DIT;
    else if (num(t, 10, &st) || st >= bf->stages)
        return bad(bf, err, "write stage is not a stage of this pipeline (or D)");
    if (num(a + 1, 10, &ad) || ad > UINT32_MAX)
        return bad(bf, err, "write address is not a number in range");
    if (num(b + 1, 16, &wd))
        return bad(bf, err, "write word is not hexadecimal");
    w->stage = (unsigned)st;
    w->addr = (uint32_t)ad;
    w->word = wd;
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
    if (bf->eof)
        return 0;
    size_t len;
    for (;;) {
        int r = lpm_input_getline(bf->in, line, &len, err);
        if (r != 1) {
            bf->eof = r == 0;
            return r;
        }
        if (memchr(*line, '\0', len))
            return bad(bf, err, "NUL byte in a bubble line");
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
            return lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
        bf->held = p;
        bf->held_cap = n;
    }
    if (line != bf->held)
        memcpy(bf->held, line, n);
    bf->have_held = 1;
    return 0;
}

/* The kind of a line: its first token's letter ('U', 'R', 'B'), or 0. */
static char kind(const char *line)
{
    line += strspn(line, " \t");
    return (line[0] == 'U' || line[0] == 'R' || line[0] == 'B') && (line[1] == ' ' || line[1] == '\t') ? line[0] : 0;
}

/* U <seq> ...: the update's number (1, 2, ... increasing). */
static int parse_u(lpm_sim_bfile *bf, char *line, lpm_err *err)
{
    char *save = NULL, *t = strtok_r(line, " \t", &save);
    uint64_t u;
    t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &u) || u == 0 || u <= bf->update)
        return bad(bf, err, "U needs an update number (1, 2, ... increasing)");
    bf->update = u;
    bf->uord++;
    bf->updates++;
    bf->rebuild = 0;
    bf->nub = bf->next_ub = bf->nuw = 0;
    return 0;
}

/* R <seq> <reason> [copy=C writes=W bubbles=B copy_crc=X]: 1 a rebuild as
 * a bubble stream, 0 one without a shadow copy (the stream cannot go on). */
static int parse_r(lpm_sim_bfile *bf, char *line, lpm_err *err)
{
    char *save = NULL, *t = strtok_r(line, " \t", &save);
    uint64_t u, v;
    t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &u) || u != bf->update || bf->rebuild || bf->nub)
        return bad(bf, err, "R must follow its own U line (same update number) and come before its bubbles");
    if (!strtok_r(NULL, " \t", &save))
        return bad(bf, err, "R needs a reason");
    int have_copy = 0, have_b = 0;
    bf->copy_crc = 0;
    while ((t = strtok_r(NULL, " \t", &save))) {
        int r;
        if ((r = keyval(t, "copy", 10, &v)) != 0) {
            if (r < 0 || v > 1)
                return bad(bf, err, "R copy= is 0 or 1");
            bf->copy = (unsigned)v;
            have_copy = 1;
        } else if ((r = keyval(t, "bubbles", 10, &v)) != 0) {
            if (r < 0)
                return bad(bf, err, "R bubbles= is not a number");
            bf->rb_expect = v;
            have_b = 1;
        } else if ((r = keyval(t, "writes", 10, &v)) != 0) {
            if (r < 0)
                return bad(bf, err, "R writes= is not a number");
        } else if ((r = keyval(t, "copy_crc", 16, &v)) != 0) {
            if (r < 0 || v > UINT32_MAX)
                return bad(bf, err, "R copy_crc= is not 8 hexadecimal digits");
            bf->copy_crc = (uint32_t)v;
        } else {
            return bad(bf, err, "unknown key in an R line (copy, writes, bubbles, copy_crc)");
        }
    }
    bf->rebuilds++;
    if (!have_copy)
        return 0;
    if (!have_b || bf->rb_expect < 1)
        return bad(bf, err, "R needs bubbles= (at least 1: the swap)");
    bf->rebuild = 1;
    bf->rb_got = 0;
    bf->rb_swapped = 0;
    return 1;
}

/* B <n> [flag...] write...: flags are the tokens without ':'. */
static int parse_b(lpm_sim_bfile *bf, char *line, lpm_sim_bubble *b, lpm_err *err)
{
    char *save = NULL, *t = strtok_r(line, " \t", &save);
    uint64_t k;
    t = strtok_r(NULL, " \t", &save);
    if (!t || num(t, 10, &k))
        return bad(bf, err, "B needs a bubble number");
    memset(b, 0, offsetof(lpm_sim_bubble, w));
    b->flags = 0;
    while ((t = strtok_r(NULL, " \t", &save))) {
        if (!strchr(t, ':')) {
            unsigned f = !strcmp(t, "fence") ? LPM_SIM_B_FENCE
                         : !strcmp(t, "drain") ? LPM_SIM_B_DRAIN
                         : !strcmp(t, "swap") ? LPM_SIM_B_SWAP : 0;
            if (!f)
                return bad(bf, err, "unknown bubble flag (fence, drain, swap)");
            b->flags |= f;
            continue;
        }
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
    if ((b->flags & LPM_SIM_B_SWAP) && (b->nw || !bf->rebuild))
        return bad(bf, err, "a swap bubble carries no writes and ends a rebuild (after its R line)");
    if ((b->flags & LPM_SIM_B_SWAP) && bf->rb_got + 1 != bf->rb_expect)
        return bad(bf, err, "the swap must be the last of the bubbles its R line announces");
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
        return lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
    bf->ub = p;
    bf->cap_ub = cap;
    return 0;
}

/* Reads the next update's U line and, for an ordinary update, all its B
 * lines; a rebuild stops after its R line. 1, 0 at the end (or at a
 * rebuild without a shadow copy), -1. */
static int read_update(lpm_sim_bfile *bf, lpm_err *err)
{
    char *line;
    int r;
    bf->nub = bf->next_ub = bf->nuw = 0;
    if ((r = next_line(bf, &line, err)) != 1)
        return r;
    switch (kind(line)) {
    case 'U': break;
    case 'B': return bad(bf, err, bf->uord ? "a bubble after the swap that ended its rebuild" : "a bubble before the first U line");
    case 'R': return bad(bf, err, "an R line must follow its U line");
    default: return bad(bf, err, "expected a U, R or B line");
    }
    if (parse_u(bf, line, err))
        return -1;
    while ((r = next_line(bf, &line, err)) == 1) {
        char k = kind(line);
        if (k == 'R') {
            int s = parse_r(bf, line, err);
            if (s <= 0) {
                bf->stopped_at = s == 0 ? bf->update : 0;
                return s;
            }
            return 1;
        }
        if (k == 'U') {
            if (hold(bf, line, err))
                return -1;
            break;
        }
        if (k != 'B')
            return bad(bf, err, "expected a U, R or B line");
        if (grow_ub(bf, err))
            return -1;
        lpm_sim_bubble *b = &bf->ub[bf->nub];
        if (parse_b(bf, line, b, err))
            return -1;
        if (b->flags & (LPM_SIM_B_SWAP | LPM_SIM_B_FENCE))
            return bad(bf, err, "fence and swap bubbles belong to a rebuild (after its R line)");
        if (bf->nuw + b->nw > bf->cap_uw) {
            size_t cap = (bf->cap_uw + b->nw) * 2;
            lpm_sim_write *p = realloc(bf->uw, cap * sizeof *p);
            if (!p)
                return lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
            bf->uw = p;
            bf->cap_uw = cap;
        }
        memcpy(bf->uw + bf->nuw, b->w, b->nw * sizeof *b->w);
        bf->nuw += b->nw;
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
    char *line;
    int r = next_line(bf, &line, err);
    if (r < 0)
        return -1;
    if (r == 0 || kind(line) != 'B') {
        if (!bf->rb_swapped)
            return bad(bf, err, "a rebuild ends before its swap bubble (its R line announced more bubbles)");
        bf->rebuild = 0;
        return r == 0 ? 0 : hold(bf, line, err) ? -1 : 0;
    }
    if (bf->rb_swapped)
        return bad(bf, err, "a bubble after the swap that ended its rebuild");
    if (parse_b(bf, line, b, err))
        return -1;
    b->copy = bf->copy;
    b->first = bf->rb_got == 0;
    if (b->flags & LPM_SIM_B_SWAP) {
        b->last = 1;
        b->copy_crc = bf->copy_crc;
        bf->rb_swapped = 1;
    } else {
        b->flags |= LPM_SIM_B_SHADOW;
    }
    bf->rb_got++;
    return 1;
}

int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    lpm_sim_bfile *bf = ctx;
    for (;;) {
        if (bf->stopped_at)
            return 0;
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

int lpm_sim_bfile_finish(lpm_sim_bfile *bf, uint64_t entered, lpm_err *err)
{
    /* The first bubble that did not go in: the one the simulator holds,
     * or the next one in the file. Its update and all after it are not
     * applied; a rebuild without a shadow copy stops the stream too. */
    uint64_t first_out = 0;
    if (bf->bubbles > entered)
        first_out = bf->uord;
    else if (bf->next_ub < bf->nub || bf->stopped_at)
        first_out = bf->uord;
    uint64_t bubbles = bf->bubbles + (bf->nub - bf->next_ub);
    bf->nub = bf->next_ub = 0;
    lpm_sim_bubble *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    int rc = LPM_OK;
    char *line;
    int r;
    while ((r = next_line(bf, &line, err)) == 1) {
        char k = kind(line);
        if (k == 'U') {
            if (bf->rebuild && !bf->rb_swapped) {
                rc = bad(bf, err, "a rebuild ends before its swap bubble (its R line announced more bubbles)");
                break;
            }
            if (parse_u(bf, line, err)) {
                rc = LPM_EINPUT;
                break;
            }
        } else if (k == 'R') {
            int s = parse_r(bf, line, err);
            if (s < 0) {
                rc = LPM_EINPUT;
                break;
            }
            if (s == 0 && !first_out)
                first_out = bf->uord;
        } else if (k == 'B') {
            if (!bf->uord) {
                rc = bad(bf, err, "a bubble before the first U line");
                break;
            }
            if (parse_b(bf, line, scratch, err)) {
                rc = LPM_EINPUT;
                break;
            }
            if (!bf->rebuild && (scratch->flags & LPM_SIM_B_FENCE)) {
                rc = bad(bf, err, "fence and swap bubbles belong to a rebuild (after its R line)");
                break;
            }
            if (bf->rebuild && (scratch->flags & LPM_SIM_B_SWAP))
                bf->rb_swapped = 1;
            bf->rb_got += bf->rebuild;
            bubbles++;
            if (!first_out)
                first_out = bf->uord;
        } else {
            rc = bad(bf, err, "expected a U, R or B line");
            break;
        }
    }
    free(scratch);
    if (r < 0 && !rc)
        rc = LPM_EINPUT;
    if (!rc && bf->rebuild && !bf->rb_swapped)
        rc = bad(bf, err, "the file ends inside a rebuild, before its swap bubble");
    bf->in_file_updates = bf->updates;
    bf->in_file_bubbles = bubbles;
    bf->in_file_rebuilds = bf->rebuilds;
    bf->updates_applied = first_out ? first_out - 1 : bf->updates;
    return rc;
}
