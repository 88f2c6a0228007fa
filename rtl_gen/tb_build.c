/* The Verilator testbench of a generated folder, built (cached by content)
 * as an executable or a shared library, and its stimulus files. */
#include "tb_build.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/bubble_file.h"
#include "rtl_run.h"

int lpm_rtl_work_dir(const char *dir, const char *prefix, char *out, size_t out_size, int *tmp, lpm_err *err)
{
    *tmp = 0;
    if (dir) {
        lpm_rtl_fmt(out, out_size, "%s", dir);
        if (lpm_rtl_mkdirs(out))
            return lpm_err_set(err, LPM_EFAIL, "%s: %s", out, strerror(errno));
    } else {
        const char *t = getenv("TMPDIR");
        lpm_rtl_fmt(out, out_size, "%s/%s.XXXXXX", t && *t ? t : "/tmp", prefix);
        if (!mkdtemp(out))
            return lpm_err_set(err, LPM_EFAIL, "%s: %s", out, strerror(errno));
        *tmp = 1;
    }
    char *abs = realpath(out, NULL);
    if (abs) {
        lpm_rtl_fmt(out, out_size, "%s", abs);
        free(abs);
    }
    return LPM_OK;
}

void lpm_rtl_cache_dir(const char *cache, char *out, size_t out_size)
{
    out[0] = '\0';
    char *ca = cache && *cache && lpm_rtl_mkdirs(cache) == 0 ? realpath(cache, NULL) : NULL;
    if (ca) {
        lpm_rtl_fmt(out, out_size, "%s", ca);
        free(ca);
    }
}

int lpm_rtl_write_keys(const char *dir, int family, const lpm_addr *keys, size_t n, lpm_err *err)
{
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/keys.hex", dir);
    FILE *kf = fopen(path, "w");
    if (!kf)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    fprintf(kf, "%zu\n", n);
    for (size_t i = 0; i < n; i++) {
        if (family == LPM_AF_INET)
            fprintf(kf, "%08" PRIx64 "\n", keys[i].hi >> 32);
        else
            fprintf(kf, "%016" PRIx64 "%016" PRIx64 "\n", keys[i].hi, keys[i].lo);
    }
    int bad = ferror(kf) | fclose(kf);
    return bad ? lpm_err_set(err, LPM_EFAIL, "%s: write failed", path) : LPM_OK;
}

static int bubs_add(lpm_rtl_bubs *bc, uint64_t uord, lpm_err *err)
{
    if (!bc)
        return LPM_OK;
    if (bc->n == bc->cap) {
        size_t cap = bc->cap ? bc->cap * 2 : 1024;
        uint64_t *p = realloc(bc->uord, cap * sizeof *p);
        if (!p)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        bc->uord = p;
        bc->cap = cap;
    }
    bc->uord[bc->n++] = uord;
    return LPM_OK;
}

int lpm_rtl_write_bubbles(const char *updates, const lpm_image *img, int ignore_crc, double cpu, const char *dir,
                          uint64_t *nb, lpm_rtl_bubs *bc, lpm_err *err)
{
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/bubbles.txt", dir);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    int rc = 0;
    *nb = 0;
    if (updates) {
        lpm_sim_bfile bf = { 0 };
        if ((rc = lpm_sim_bfile_open(&bf, updates, img, cpu, ignore_crc, err))) {
            fclose(fp);
            return rc;
        }
        lpm_sim_bubble *b = malloc(sizeof *b);
        if (!b) {
            lpm_sim_bfile_close(&bf);
            fclose(fp);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
        int got;
        while ((got = lpm_sim_bfile_next(&bf, b, err)) == 1) {
            /* the copy rules as one more token, F:0:FLAGS (fence 1, drain 2, swap 4, the swap's copy 8) */
            unsigned fl = (b->flags & LPM_SIM_B_FENCE ? 1u : 0) | (b->flags & LPM_SIM_B_DRAIN ? 2u : 0) |
                          (b->flags & LPM_SIM_B_SWAP ? 4u | (b->copy & 1) << 3 : 0);
            fprintf(fp, "%" PRIu64 " %u", b->ready, b->nw + (fl != 0));
            if (fl)
                fprintf(fp, " F:0:%x", fl);
            for (unsigned j = 0; j < b->nw; j++) {
                if (b->w[j].stage == LPM_SIM_DIT)
                    fprintf(fp, " D");
                else
                    fprintf(fp, " %u", b->w[j].stage);
                fprintf(fp, ":%" PRIx32 ":%" PRIx64, b->w[j].addr, b->w[j].word);
            }
            fputc('\n', fp);
            if (bubs_add(bc, b->uord, err)) {
                got = -1;
                break;
            }
            (*nb)++;
        }
        if (got == 0 && (rc = lpm_sim_bfile_finish(&bf, *nb, err)) == 0 && bc) {
            bc->in_file = bf.in_file_bubbles;
            bc->updates_in_file = bc->updates_applied = bf.in_file_updates;
        }
        if (got < 0)
            rc = LPM_EINPUT;
        free(b);
        lpm_sim_bfile_close(&bf);
    }
    if (fclose(fp) && !rc)
        rc = lpm_err_set(err, LPM_EFAIL, "%s: write failed", path);
    return rc;
}

void lpm_rtl_show_tail(const char *path, int lines)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char buf[1024];
    char ring[16][1024];
    int n = 0;
    while (fgets(buf, sizeof buf, fp))
        lpm_rtl_fmt(ring[n++ % 16], sizeof ring[0], "%s", buf);
    fclose(fp);
    int start = n > lines ? n - lines : 0;
    for (int i = start; i < n; i++)
        fprintf(stderr, "  %s", ring[i % 16]);
}

/* What each kind builds: the make target, its arguments, the file. */
static const struct {
    const char *target, *extra, *file;
} kinds[] = {
    [LPM_RTL_TB_EXE] = { "tb", NULL, "obj_dir/Vlpm_tb_top" },
    [LPM_RTL_TB_VCD] = { "tb", "TRACE=--trace", "obj_dir_vcd/Vlpm_tb_top" },
    [LPM_RTL_TB_LIB] = { "cosim", NULL, "obj_dir_so/libVlpm_tb.so" },
};

int lpm_rtl_tb_build(const char *rtl, const char *cache, enum lpm_rtl_tb_kind kind, char *out, size_t out_size,
                     lpm_err *err)
{
    uint64_t h = 1469598103934665603ULL;
    char path[4200];
    static const char *fixed[] = { "lpm_tb_top.v", "lpm_pipe.v", "lpm_ctl.v", "lpm_queue.v", "lpm_rlane.v", "lpm_dit.v",
                                   "lpm_item.vh", "tb.cpp", "tb_cfg.h", "ready.h", "Makefile" };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        lpm_rtl_fmt(path, sizeof path, "%s/%s", rtl, fixed[i]);
        if (lpm_rtl_hash_file(path, &h))
            return lpm_err_set(err, LPM_EFAIL, "%s: cannot read", path);
    }
    /* the controls written only for some folders */
    static const char *optional[] = { "lpm_credit.v", "lpm_ctl3.v" };
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        lpm_rtl_fmt(path, sizeof path, "%s/%s", rtl, optional[i]);
        if (!access(path, R_OK))
            lpm_rtl_hash_file(path, &h);
    }
    for (unsigned s = 0;; s++) {
        lpm_rtl_fmt(path, sizeof path, "%s/lpm_stage_%02u.v", rtl, s);
        if (access(path, R_OK))
            break;
        lpm_rtl_hash_file(path, &h);
    }
    h ^= (uint64_t)kind;
    const char *base = strrchr(kinds[kind].file, '/') + 1;
    char cached[4200];
    if (cache) {
        lpm_rtl_fmt(cached, sizeof cached, "%s/%016" PRIx64 "/%s", cache, h, base);
        if (access(cached, R_OK) == 0) {
            lpm_rtl_fmt(out, out_size, "%s", cached);
            return LPM_OK;
        }
    }
    char log[4200], jobs[] = "JOBS=2";
    lpm_rtl_fmt(log, sizeof log, "%s/build.log", rtl);
    char *argv[] = { "make", "--no-print-directory", (char *)kinds[kind].target, jobs, (char *)kinds[kind].extra, NULL };
    int rc = lpm_rtl_run(argv, rtl, log, log);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "the Verilated model did not build (Verilator's make: exit %d); the end of %s:",
                           rc, log);
    lpm_rtl_fmt(out, out_size, "%s/%s", rtl, kinds[kind].file);
    if (cache) {
        char d[4200];
        lpm_rtl_fmt(d, sizeof d, "%s/%016" PRIx64, cache, h);
        if (lpm_rtl_mkdirs(d) == 0 && lpm_rtl_copy(out, cached) == 0)
            lpm_rtl_fmt(out, out_size, "%s", cached);
    }
    return LPM_OK;
}
