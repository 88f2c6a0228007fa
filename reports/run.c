/* report run: the points not yet recorded, run one by one in this process
 * or through GNU parallel, with a progress bar on a terminal and one line a
 * point otherwise. Records are written atomically by each point, so an
 * interrupted run loses at most the points in flight, and the next run
 * starts with what is missing. */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct prog {
    size_t total, done, failed, skipped;
    double t0;
    int mode; /* 1 bar, 0 lines, -1 quiet */
    int bar_shown;
} prog;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void bar(prog *g)
{
    size_t n = g->done + g->failed + g->skipped, width = 30;
    size_t fill = g->total ? n * width / g->total : width;
    char b[64], eta[32] = "--:--";
    double el = now_s() - g->t0;
    for (size_t i = 0; i < width; i++)
        b[i] = i < fill ? '#' : '.';
    b[width] = 0;
    if (n && n < g->total) {
        unsigned long s = (unsigned long)(el / (double)n * (double)(g->total - n) + 0.5);
        snprintf(eta, sizeof eta, "%lu:%02lu", s / 60, s % 60);
    } else if (n) {
        snprintf(eta, sizeof eta, "done");
    }
    fprintf(stderr, "\r\033[K[%s] %zu/%zu  %zu failed  %zu skipped  ETA %s", b, n, g->total, g->failed, g->skipped,
            eta);
    fflush(stderr);
    g->bar_shown = 1;
}

static void prog_point(prog *g, const char *exp, const char *desc, int status, const char *why, double secs)
{
    if (status == 0)
        g->done++;
    else if (status == 3)
        g->skipped++;
    else
        g->failed++;
    size_t n = g->done + g->failed + g->skipped;
    if (g->mode == 1) {
        if (status == 1)
            fprintf(stderr, "\r\033[KFAILED %s %s: %s\n", exp, desc, why);
        bar(g);
    } else if (g->mode == 0) {
        const char *word = status == 0 ? "ok" : status == 3 ? "skipped" : "FAILED";
        fprintf(stderr, "report: [%zu/%zu] %s %s: %s", n, g->total, exp, desc, word);
        if (status)
            fprintf(stderr, ": %s\n", why);
        else
            fprintf(stderr, " (%.2f s)\n", secs);
    }
}

int lpm_report_point_selected(const lpm_report_exp *e, const lpm_report_point *p, const char *const *only,
                              size_t nonly)
{
    for (size_t i = 0; i < nonly; i++) {
        const char *eq = strchr(only[i], '=');
        size_t len = eq ? (size_t)(eq - only[i]) : 0;
        for (size_t a = 0; a < e->naxes; a++) {
            if (strlen(e->axes[a].name) != len || strncmp(e->axes[a].name, only[i], len))
                continue;
            json_t *l = lpm_report_label(e, p, a);
            char text[256];
            lpm_report_value_text(l, text, sizeof text, 15);
            if (strcmp(text, eq + 1))
                return 0;
        }
    }
    return 1;
}

/* Copies the definition into DIR/experiments (what render, merge and the
 * emitted scripts read). */
static int copy_definition(const char *dir, const lpm_report_exp *e, lpm_err *err)
{
    char path[4200], *src, *old;
    size_t len, olen;
    if (lpm_report_read_file(e->file, &src, &len))
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot read", e->file);
    snprintf(path, sizeof path, "%s/experiments/%s.json", dir, e->name);
    int same = lpm_report_read_file(path, &old, &olen) == 0 && olen == len && !memcmp(old, src, len);
    if (same)
        free(old);
    int rc = same ? LPM_OK : lpm_report_write_atomic(path, src, len, err);
    free(src);
    return rc;
}

/* The first used data input that is absent, or NULL. */
static const char *missing_data(const lpm_report_exp *e, const char *data_dir)
{
    int used[65];
    if (e->ninputs > 64)
        return NULL;
    lpm_report_inputs_used(e, NULL, used);
    for (size_t i = 0; i < e->ninputs; i++) {
        char path[4200];
        if (!used[i] || !e->inputs[i].data)
            continue;
        snprintf(path, sizeof path, "%s/%s", data_dir ? data_dir : "", e->inputs[i].data);
        if (!data_dir || access(path, R_OK))
            return e->inputs[i].data;
    }
    return NULL;
}

typedef struct pending {
    size_t exp, index;
    char key[17];
} pending;

/* Lists the points still to run; prints one line per experiment. */
static pending *list_pending(const lpm_report_run_opts *o, lpm_report_exp *exps, size_t nexps, const int *skip,
                             size_t *np, lpm_err *err)
{
    pending *pl = NULL;
    size_t n = 0, cap = 0;
    for (size_t x = 0; x < nexps; x++) {
        size_t done = 0, sel = 0;
        if (skip[x])
            continue;
        for (size_t i = 0; i < exps[x].npoints; i++) {
            lpm_report_point p;
            if (lpm_report_point_at(&exps[x], i, &p, err)) {
                free(pl);
                return NULL;
            }
            if (!lpm_report_point_selected(&exps[x], &p, o->only, o->nonly))
                continue;
            sel++;
            if (lpm_report_record_done(o->env.dir, exps[x].name, p.key)) {
                done++;
                continue;
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                pl = realloc(pl, cap * sizeof *pl);
                if (!pl)
                    abort();
            }
            pl[n].exp = x;
            pl[n].index = i;
            memcpy(pl[n].key, p.key, sizeof p.key);
            n++;
        }
        if (o->progress >= 0)
            fprintf(stderr, "report: %s: %zu points, %zu done, %zu to run\n", exps[x].name, sel, done, sel - done);
    }
    *np = n;
    return pl ? pl : calloc(1, sizeof *pl);
}

static int run_here(const lpm_report_run_opts *o, lpm_report_exp *exps, const pending *pl, size_t n, prog *g,
                    lpm_err *err)
{
    for (size_t i = 0; i < n; i++) {
        lpm_report_exp *e = &exps[pl[i].exp];
        lpm_report_point p;
        char why[1024], desc[1024];
        int status, rc = lpm_report_point_at(e, pl[i].index, &p, err);
        double t = now_s();
        if (!rc)
            rc = lpm_report_run_point(&o->env, e, &p, &status, why, sizeof why, err);
        if (rc)
            return rc;
        lpm_report_point_desc(e, &p, desc, sizeof desc);
        prog_point(g, e->name, desc, status, why, now_s() - t);
    }
    return LPM_OK;
}

/* GNU parallel runs `lpmpipe report point` for every line of the job
 * list; each prints one status line, which drives the progress. */
static int run_parallel(const lpm_report_run_opts *o, lpm_report_exp *exps, const pending *pl, size_t n, prog *g,
                        lpm_err *err)
{
    char jobs[4200], njobs[32];
    snprintf(jobs, sizeof jobs, "%s/tmp/jobs-%ld.txt", o->env.dir, (long)getpid());
    FILE *fp = fopen(jobs, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", jobs, strerror(errno));
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s/experiments/%s.json\t%s\n", o->env.dir, exps[pl[i].exp].name, pl[i].key);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write error", jobs);
    snprintf(njobs, sizeof njobs, "%u", o->jobs);
    const char *argv[] = { "parallel", "--will-cite", "--jobs", njobs, "--colsep", "\t", "--line-buffer",
                           "--halt", "never", "-a", jobs, "-q", o->env.bin, "report", "point", "-o", o->env.dir,
                           "--data", o->env.data_dir ? o->env.data_dir : "", "{1}", "{2}", NULL };
    int fds[2];
    if (pipe(fds))
        return lpm_err_set(err, LPM_EFAIL, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execvp("parallel", (char *const *)argv);
        fprintf(stderr, "lpmpipe: report: GNU parallel: %s (scripts/deps.sh installs it)\n", strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    char line[2048];
    while (in && fgets(line, sizeof line, in)) {
        char word[16] = "", exp[128] = "", key[32] = "", rest[1800] = "";
        line[strcspn(line, "\n")] = 0;
        if (sscanf(line, "%15s %127s %31s %1799[^\n]", word, exp, key, rest) < 3)
            continue;
        int status = !strcmp(word, "ok") ? 0 : !strcmp(word, "skipped") ? 3 : 1;
        char desc[1100];
        const char *sep = strstr(rest, " :: ");
        snprintf(desc, sizeof desc, "%.*s", sep ? (int)(sep - rest) : (int)strlen(rest), rest);
        prog_point(g, exp, desc, status, sep ? sep + 4 : "", status == 0 ? atof(sep ? sep + 4 : "0") : 0);
    }
    if (in)
        fclose(in);
    int st;
    waitpid(pid, &st, 0);
    unlink(jobs);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return lpm_err_set(err, LPM_EFAIL, "GNU parallel could not be started");
    return LPM_OK;
}

static int lock_dir(const char *dir, lpm_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno)), -1;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        snprintf(path, sizeof path, "%s/tmp", dir); /* scratch of points that were interrupted */
        lpm_report_rmtree(path);
    } else {
        fprintf(stderr, "lpmpipe: report: note: another run is using %s\n", dir);
    }
    flock(fd, LOCK_SH);
    return fd;
}

/* 1 when one of the experiments has a parameter of that name. */
static int some_exp_has_param(const lpm_report_exp *exps, size_t nexps, const char *name, size_t len)
{
    for (size_t x = 0; x < nexps; x++)
        for (size_t a = 0; a < exps[x].naxes; a++)
            if (strlen(exps[x].axes[a].name) == len && !strncmp(exps[x].axes[a].name, name, len))
                return 1;
    return 0;
}

/* An --only filter naming a parameter no experiment has would keep every
 * point without a word: refuse it, naming the parameters there are. */
static int check_only(const lpm_report_run_opts *o, const lpm_report_exp *exps, size_t nexps, lpm_err *err)
{
    for (size_t i = 0; i < o->nonly; i++) {
        const char *eq = strchr(o->only[i], '=');
        size_t len = eq ? (size_t)(eq - o->only[i]) : 0;
        if (some_exp_has_param(exps, nexps, o->only[i], len))
            continue;
        char names[512] = "";
        size_t used = 0;
        for (size_t x = 0; x < nexps; x++)
            for (size_t a = 0; a < exps[x].naxes && used < sizeof names; a++)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                         exps[x].axes[a].name);
        return lpm_err_set(err, LPM_EINPUT, "--only %s: no experiment given has a parameter '%.*s' (%s%s)",
                           o->only[i], (int)len, o->only[i], used ? "its parameters: " : "none has parameters",
                           names);
    }
    return LPM_OK;
}

static int prepare(const lpm_report_run_opts *o, lpm_report_exp *exps, size_t nexps, int *skip, lpm_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/experiments", o->env.dir);
    int rc = lpm_report_mkdirs(path, err);
    snprintf(path, sizeof path, "%s/tmp", o->env.dir);
    for (size_t x = 0; !rc && x < nexps; x++) {
        for (size_t y = 0; y < x; y++)
            if (!strcmp(exps[x].name, exps[y].name))
                return lpm_err_set(err, LPM_EINPUT, "%s: name: '%s' is also the name of %s", exps[x].file,
                                   exps[x].name, exps[y].file);
        const char *miss = missing_data(&exps[x], o->env.data_dir);
        skip[x] = miss != NULL;
        if (miss && o->progress >= 0)
            printf("SKIP: %s: needs the table %s/%s, which is absent\n", exps[x].name,
                   o->env.data_dir ? o->env.data_dir : "$LPMPIPE_DATA", miss);
        rc = copy_definition(o->env.dir, &exps[x], err);
    }
    return rc;
}

int lpm_report_run(const lpm_report_run_opts *o, lpm_report_exp *exps, size_t nexps, lpm_err *err)
{
    int rc = check_only(o, exps, nexps, err);
    if (rc)
        return rc;
    int *skip = calloc(nexps + 1, sizeof *skip);
    rc = lpm_report_mkdirs(o->env.dir, err);
    if (!rc)
        rc = prepare(o, exps, nexps, skip, err);
    int lock = rc ? -1 : lock_dir(o->env.dir, err);
    char path[4200];
    snprintf(path, sizeof path, "%s/tmp", o->env.dir);
    if (lock >= 0)
        rc = lpm_report_mkdirs(path, err);
    size_t n = 0;
    pending *pl = lock < 0 || rc ? NULL : list_pending(o, exps, nexps, skip, &n, err);
    free(skip);
    if (!pl) {
        if (lock >= 0)
            close(lock);
        return rc ? rc : lock < 0 ? LPM_EFAIL : LPM_EINPUT;
    }
    prog g = { n, 0, 0, 0, now_s(), o->progress, 0 };
    if (o->emit) {
        const char **lines = calloc(n + 1, sizeof *lines);
        char **own = calloc(n + 1, sizeof *own);
        for (size_t i = 0; i < n; i++) {
            own[i] = malloc(256);
            snprintf(own[i], 256, "experiments/%s.json\t%s", exps[pl[i].exp].name, pl[i].key);
            lines[i] = own[i];
        }
        rc = lpm_report_emit(o, exps, nexps, lines, n, err);
        for (size_t i = 0; i < n; i++)
            free(own[i]);
        free(own);
        free(lines);
    } else if (n) {
        if (g.mode == 1)
            bar(&g);
        rc = o->jobs ? run_parallel(o, exps, pl, n, &g, err) : run_here(o, exps, pl, n, &g, err);
        if (g.bar_shown)
            fputc('\n', stderr);
        if (o->progress >= 0)
            fprintf(stderr, "report: %zu points run: %zu recorded, %zu failed, %zu skipped (%.1f s)\n", n, g.done,
                    g.failed, g.skipped, now_s() - g.t0);
    }
    free(pl);
    if (!rc && !o->emit)
        rc = lpm_report_write_results(o->env.dir, err);
    close(lock);
    if (!rc && (g.failed || g.done + g.failed + g.skipped < n) && !o->emit)
        rc = lpm_err_set(err, LPM_EFAIL, "%zu of %zu points have no record (failed: see %s/failed/)",
                         n - g.done - g.skipped, n, o->env.dir);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in a folder that match the filter (NULL: folders). */
char **lpm_report_list(const char *dir, const char *suffix, size_t *n)
{
    DIR *d = opendir(dir);
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.')
            continue;
        if (suffix && (len <= strlen(suffix) || strcmp(de->d_name + len - strlen(suffix), suffix)))
            continue;
        if (*n + 1 >= cap) {
            cap = cap ? 2 * cap : 64;
            v = realloc(v, cap * sizeof *v);
            if (!v)
                abort();
        }
        v[(*n)++] = strdup(de->d_name);
    }
    if (d)
        closedir(d);
    if (v)
        qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

void lpm_report_list_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int lpm_report_write_results(const char *dir, lpm_err *err)
{
    char path[4200];
    size_t ne, cap = 1 << 16, len = 0;
    char *all = malloc(cap);
    snprintf(path, sizeof path, "%s/records", dir);
    char **exps = lpm_report_list(path, NULL, &ne);
    for (size_t x = 0; x < ne; x++) {
        size_t nr;
        snprintf(path, sizeof path, "%s/records/%s", dir, exps[x]);
        char **recs = lpm_report_list(path, ".json", &nr);
        for (size_t r = 0; r < nr; r++) {
            char *buf;
            size_t blen;
            snprintf(path, sizeof path, "%s/records/%s/%s", dir, exps[x], recs[r]);
            if (lpm_report_read_file(path, &buf, &blen))
                continue;
            while (len + blen + 1 > cap) {
                cap *= 2;
                all = realloc(all, cap);
                if (!all)
                    abort();
            }
            memcpy(all + len, buf, blen);
            len += blen;
            free(buf);
        }
        lpm_report_list_free(recs, nr);
    }
    lpm_report_list_free(exps, ne);
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    int rc = lpm_report_write_atomic(path, all, len, err);
    free(all);
    return rc;
}
