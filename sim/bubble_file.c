/* Reading the mapper's bubble stream (lpmpipe update --bubbles) as a bubble
 * source: the bubbles of update u (1-based) become ready at cycle
 * floor((u - 1) * cycles_per_update). */
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
    size_t len;
    for (;;) {
        int r = lpm_input_getline(bf->in, line, &len, err);
        if (r != 1)
            return r;
        if (memchr(*line, '\0', len))
            return bad(bf, err, "NUL byte in a bubble line");
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
            return lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
        bf->held = p;
        bf->held_cap = n;
    }
    memcpy(bf->held, line, n);
    bf->have_held = 1;
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
            return bad(bf, err, "expected a U, R or B line");
        uint64_t u;
        t = strtok_r(NULL, " \t", &save);
        if (!t || num(t, 10, &u) || u == 0 || u <= bf->update)
            return bad(bf, err, "U needs an update number (1, 2, ... increasing)");
        bf->update = u;
        bf->updates++;
        break;
    }
    while ((r = next_line(bf, &line, err)) == 1) {
        if (line[0] == 'U' || line[0] == 'R') {
            if (hold(bf, line, err))
                return -1;
            break;
        }
        char *save = NULL, *t = strtok_r(line, " \t", &save);
        if (!t)
            continue;
        if (strcmp(t, "B"))
            return bad(bf, err, "expected a U, R or B line");
        t = strtok_r(NULL, " \t", &save);
        uint64_t k;
        if (!t || num(t, 10, &k))
            return bad(bf, err, "B needs a bubble number");
        if (bf->nub == bf->cap_ub) {
            size_t cap = bf->cap_ub ? bf->cap_ub * 2 : 4;
            lpm_sim_bubble *p = realloc(bf->ub, cap * sizeof *p);
            if (!p)
                return lpm_err_set(err, LPM_EFAIL, "out of memory"), -1;
            bf->ub = p;
            bf->cap_ub = cap;
        }
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
        b->update = bf->update;
        b->ready = (uint64_t)((double)(bf->update - 1) * bf->cpu);
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
