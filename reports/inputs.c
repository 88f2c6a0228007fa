/* Inputs of points: tables from the data folder and files that lpmpipe
 * commands generate (traces, images, bubble streams). A generated input is
 * built once per result folder, under a lock, into a temporary name that is
 * renamed when complete, so concurrent points and interrupted runs never
 * see half a file. Its checksum is kept beside it. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* "bytes hash" in path.sum, or computed (and cached when cache is set). */
static int checksum(const char *path, const char *sum_path, int trust_cache, uint64_t *bytes, uint64_t *h,
                    lpm_err *err)
{
    struct stat st;
    if (stat(path, &st))
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    char *buf;
    size_t len;
    if (lpm_report_read_file(sum_path, &buf, &len) == 0) {
        unsigned long long b, x, mt;
        int ok = sscanf(buf, "%llu %llx %llu", &b, &x, &mt) == 3 && b == (unsigned long long)st.st_size &&
                 (trust_cache || mt == (unsigned long long)st.st_mtime);
        free(buf);
        if (ok) {
            *bytes = b;
            *h = x;
            return LPM_OK;
        }
    }
    int rc = lpm_report_file_hash(path, h, bytes, err);
    if (rc)
        return rc;
    char line[128];
    int k = snprintf(line, sizeof line, "%llu %016llx %llu\n", (unsigned long long)*bytes, (unsigned long long)*h,
                     (unsigned long long)st.st_mtime);
    lpm_err ignore;
    lpm_report_write_atomic(sum_path, line, (size_t)k, &ignore); /* a cache: failing to write it costs time only */
    return LPM_OK;
}

static json_t *info_of(const char *file, const char *id, uint64_t bytes, uint64_t h)
{
    char sum[40];
    snprintf(sum, sizeof sum, "fnv1a64:%016llx", (unsigned long long)h);
    return json_pack("{s:s, s:s, s:I, s:s}", "file", file, "id", id, "bytes", (json_int_t)bytes, "checksum", sum);
}

static int ensure_deps(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p, size_t i,
                       char *why, size_t nwhy, lpm_err *err)
{
    int used[64 + 1] = { 0 };
    if (e->ninputs > 64)
        return lpm_err_set(err, LPM_EINPUT, "%s: inputs: more than 64", e->file);
    lpm_report_exp sub = *e; /* the inputs this input's command names */
    sub.command = e->inputs[i].command;
    sub.pre = NULL;
    lpm_report_inputs_used(&sub, p, used);
    for (size_t j = 0; j < e->ninputs; j++) {
        if (!used[j] || j == i)
            continue;
        char real[4096];
        json_t *info = NULL;
        int rc = lpm_report_ensure_input(env, e, p, j, real, sizeof real, &info, why, nwhy, err);
        json_decref(info);
        if (rc)
            return rc;
    }
    return LPM_OK;
}

static int build(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p, size_t i,
                 const char *real, const char *id, char *why, size_t nwhy, lpm_err *err)
{
    char part[4200], log[4200];
    snprintf(part, sizeof part, "%s.part%ld", real, (long)getpid());
    snprintf(log, sizeof log, "%s/inputs/%.12s.log", env->dir, id);
    lpm_report_ctx ctx = { env->dir, env->data_dir, NULL, part, env->bin };
    lpm_strv argv = { 0 };
    lpm_strv_push(&argv, env->bin);
    int rc = lpm_report_argv(e, p, e->inputs[i].command, (int)i, &ctx, &argv, err);
    if (rc) {
        lpm_strv_free(&argv);
        return rc;
    }
    int st = lpm_report_spawn(argv.v, log, log, 0, err);
    lpm_strv_free(&argv);
    if (st < 0)
        return LPM_EFAIL;
    if (st != 0 || rename(part, real)) {
        char tail[300];
        lpm_report_tail(log, tail, sizeof tail, 0);
        unlink(part);
        snprintf(why, nwhy, "input %s: exit %d: %s", e->inputs[i].name, st, tail);
        return LPM_EFAIL;
    }
    return LPM_OK;
}

int lpm_report_ensure_input(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p, size_t i,
                            char *real, size_t n, json_t **info, char *why, size_t nwhy, lpm_err *err)
{
    const lpm_report_input *in = &e->inputs[i];
    char id[17], logical[1024], sum[4200];
    int rc = lpm_report_input_id(e, p, i, id, logical, sizeof logical, err);
    if (rc)
        return rc;
    uint64_t bytes, h;
    if (in->data) {
        if (!env->data_dir) {
            snprintf(why, nwhy, "input %s: no data folder ($LPMPIPE_DATA or ../shared/data) for %s", in->name, in->data);
            return LPM_EFAIL;
        }
        snprintf(real, n, "%s/%s", env->data_dir, in->data);
        snprintf(sum, sizeof sum, "%s/inputs/data-%.12s.sum", env->dir, id);
        if ((rc = checksum(real, sum, 0, &bytes, &h, err))) {
            snprintf(why, nwhy, "input %s: %s", in->name, err->msg);
            return LPM_EFAIL;
        }
        *info = info_of(in->data, id, bytes, h);
        return LPM_OK;
    }
    snprintf(real, n, "%s/%s", env->dir, logical);
    snprintf(sum, sizeof sum, "%s.sum", real);
    if (access(real, F_OK) != 0) {
        if ((rc = ensure_deps(env, e, p, i, why, nwhy, err)))
            return rc;
        char lock[4200];
        snprintf(lock, sizeof lock, "%s/inputs/.lock-%.12s", env->dir, id);
        int fd = open(lock, O_RDWR | O_CREAT, 0666);
        if (fd < 0 || flock(fd, LOCK_EX)) {
            if (fd >= 0)
                close(fd);
            return lpm_err_set(err, LPM_EFAIL, "%s: %s", lock, strerror(errno));
        }
        rc = access(real, F_OK) == 0 ? LPM_OK : build(env, e, p, i, real, id, why, nwhy, err);
        close(fd);
        if (rc)
            return rc;
    }
    if ((rc = checksum(real, sum, 1, &bytes, &h, err)))
        return rc;
    *info = info_of(in->file, id, bytes, h);
    return LPM_OK;
}
