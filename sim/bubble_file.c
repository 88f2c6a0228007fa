/* Reading a bubble file as a bubble source: the bubbles of update u become
 * ready at cycle floor(u * cycles_per_update). */
#include "bubble_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, unsigned stages, double cycles_per_update, lpm_err *err)
{
    memset(bf, 0, sizeof *bf);
    bf->stages = stages;
    bf->cpu = cycles_per_update;
    bf->last_bubble = UINT64_MAX;
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

/* Parses "B U S A W" into the fields; returns 1, 0 (blank/comment), -1. */
static int parse(lpm_sim_bfile *bf, char *line, size_t len, uint64_t f[5], int *dit, lpm_err *err)
{
    if (memchr(line, '\0', len))
        return bad(bf, err, "NUL byte in a bubble line");
    char *c = strchr(line, '#');
    if (c)
        *c = '\0';
    char *save = NULL, *t = strtok_r(line, " \t\r", &save);
    if (!t)
        return 0;
    *dit = 0;
    for (int i = 0; i < 5; i++) {
        if (!t)
            return bad(bf, err, "expected 'bubble update stage address word'");
        if (i == 2 && !strcmp(t, "DIT")) {
            f[i] = LPM_SIM_DIT;
            *dit = 1;
        } else {
            char *end;
            errno = 0;
            f[i] = strtoull(t, &end, 0);
            if (*end || errno || t[0] == '-')
                return bad(bf, err, "not a number where 'bubble update stage address word' expected");
        }
        t = strtok_r(NULL, " \t\r", &save);
    }
    if (t)
        return bad(bf, err, "trailing text after the word");
    if (f[2] == LPM_SIM_DIT)
        *dit = 1;
    return 1;
}

int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    lpm_sim_bfile *bf = ctx;
    memset(b, 0, offsetof(lpm_sim_bubble, w));
    int have = 0;
    if (bf->have_held) {
        b->w[0] = bf->held;
        b->nw = 1;
        b->update = bf->held_update;
        have = 1;
        bf->have_held = 0;
    }
    char *line;
    size_t len;
    int r;
    while ((r = lpm_input_getline(bf->in, &line, &len, err)) == 1) {
        uint64_t f[5];
        int dit;
        int p = parse(bf, line, len, f, &dit, err);
        if (p < 0)
            return -1;
        if (p == 0)
            continue;
        if (!dit && f[2] >= bf->stages)
            return bad(bf, err, "stage out of range for this pipeline");
        if (f[3] > UINT32_MAX)
            return bad(bf, err, "address out of range");
        if (bf->last_bubble != UINT64_MAX && f[0] < bf->last_bubble)
            return bad(bf, err, "bubble numbers must not decrease");
        if (bf->last_bubble != UINT64_MAX && f[1] < bf->last_update)
            return bad(bf, err, "update numbers must not decrease");
        if (f[0] == bf->last_bubble && f[1] != bf->last_update)
            return bad(bf, err, "one bubble belongs to one update");
        lpm_sim_write w = { (unsigned)f[2], (uint32_t)f[3], f[4] };
        int new_bubble = f[0] != bf->last_bubble;
        bf->last_bubble = f[0];
        bf->last_update = f[1];
        if (new_bubble && have) {
            bf->held = w;
            bf->held_update = f[1];
            bf->have_held = 1;
            break;
        }
        if (!have) {
            b->update = f[1];
            have = 1;
        }
        for (unsigned j = 0; j < b->nw; j++)
            if (b->w[j].stage == w.stage)
                return bad(bf, err, dit ? "a second DIT write in one bubble" : "a second write to one stage in one bubble");
        b->w[b->nw++] = w;
    }
    if (r < 0)
        return -1;
    if (!have)
        return 0;
    b->ready = (uint64_t)((double)b->update * bf->cpu);
    return 1;
}
