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

int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    lpm_sim_bfile *bf = ctx;
    char *line;
    size_t len;
    int r;
    if (bf->stopped)
        return 0;
    while ((r = lpm_input_getline(bf->in, &line, &len, err)) == 1) {
        if (memchr(line, '\0', len))
            return bad(bf, err, "NUL byte in a bubble line");
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        if (!len || line[0] == '#')
            continue;
        char *save = NULL, *t = strtok_r(line, " \t", &save);
        if (!t)
            continue;
        if (!strcmp(t, "U")) {
            uint64_t u;
            t = strtok_r(NULL, " \t", &save);
            if (!t || num(t, 10, &u) || u == 0 || u < bf->update)
                return bad(bf, err, "U needs an update number (1, 2, ... in order)");
            bf->update = u;
            bf->updates++;
            continue;
        }
        if (!strcmp(t, "R")) {
            /* A rebuild replaces the image; the writes after it are for the
             * new copy, which the simulator does not have: stop here. */
            bf->stopped = 1;
            bf->rebuild_at = bf->update;
            return 0;
        }
        if (strcmp(t, "B"))
            return bad(bf, err, "expected a U, R or B line");
        if (!bf->update)
            return bad(bf, err, "a bubble before the first U line");
        t = strtok_r(NULL, " \t", &save);
        uint64_t k;
        if (!t || num(t, 10, &k))
            return bad(bf, err, "B needs a bubble number");
        memset(b, 0, offsetof(lpm_sim_bubble, w));
        int dit = 0;
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
            dit += w->stage == LPM_SIM_DIT;
            b->nw++;
        }
        (void)dit;
        b->update = bf->update;
        b->ready = (uint64_t)((double)(bf->update - 1) * bf->cpu);
        bf->bubbles++;
        return 1;
    }
    return r < 0 ? -1 : 0;
}
