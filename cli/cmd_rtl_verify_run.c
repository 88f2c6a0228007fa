/* rtl verify's run: one stimulus (keys, bubbles with ready cycles, the
 * arrival rate, the result port's ready pattern) through the simulator
 * (lpmpipe sim, a child process, so that its own checks run unchanged and
 * its request source is the only one), which writes the golden cycle log
 * and results, and through the Verilated model (tb.cpp, built by
 * Verilator's make, cached by content), which writes its own; then the
 * comparison (verify_cmp.c) and the second simulators (Icarus, the
 * gate-level netlist). */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../sim/bubble_file.h"
#include "../rtl_gen/rtl_run.h"
#include "../rtl_gen/tb_build.h"
#include "cmd_rtl_verify.h"

static const char *cmd = "rtl verify";

/* The requests as the simulator saw them: its results file names every
 * id with its address (in output order), so --trace and --gen (and any
 * source the simulator grows) reach the testbench unchanged. Writes
 * keys.hex for the testbench and stim.trace (input order). */
static int read_stimulus(const char *simres, int fam, const char *dir, lpm_rtl_keys *keys, lpm_err *err)
{
    FILE *fp = fopen(simres, "r");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", simres, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    uint64_t ln = 0;
    int rc = LPM_OK;
    while (getline(&line, &cap, fp) > 0) {
        if (ln++ == 0)
            continue; /* header */
        char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        if (!c1 || !c2) {
            rc = lpm_err_at(err, LPM_EFAIL, simres, (unsigned long)ln, "not a results line");
            break;
        }
        *c2 = '\0';
        uint64_t id = strtoull(line, NULL, 10);
        int f = fam;
        lpm_addr a;
        if (lpm_addr_parse(c1 + 1, &f, &a, err)) {
            rc = LPM_EFAIL;
            break;
        }
        if (id >= keys->cap) {
            size_t ncap = keys->cap ? keys->cap : 4096;
            while (ncap <= id)
                ncap *= 2;
            lpm_addr *p = realloc(keys->a, ncap * sizeof *p);
            if (!p) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
            memset(p + keys->cap, 0, (ncap - keys->cap) * sizeof *p);
            keys->a = p;
            keys->cap = ncap;
        }
        keys->a[id] = a;
        if (id + 1 > keys->n)
            keys->n = id + 1;
    }
    free(line);
    fclose(fp);
    if (rc)
        return rc;
    if ((rc = lpm_rtl_write_keys(dir, fam, keys->a, keys->n, err)))
        return rc;
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/stim.trace", dir);
    FILE *tf = fopen(path, "w");
    if (!tf)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    char txt[LPM_ADDR_STRLEN];
    for (size_t i = 0; i < keys->n; i++) {
        lpm_addr_format(&keys->a[i], fam, txt, sizeof txt);
        fprintf(tf, "%s\n", txt);
    }
    int bad = ferror(tf) | fclose(tf);
    return bad ? lpm_err_set(err, LPM_EFAIL, "%s: write failed", path) : LPM_OK;
}

/* Bubbles the RTL let in: the win:bK events of its cycle log (every one
 * leaves the pipeline before the testbench stops). */
static uint64_t rtl_bubbles_in(const char *log)
{
    FILE *fp = fopen(log, "r");
    if (!fp)
        return 0;
    uint64_t n = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, fp) > 0)
        for (const char *p = line; (p = strstr(p, " win:b")); p += 6)
            n++;
    free(line);
    fclose(fp);
    return n;
}

static int rm_rf(const char *dir)
{
    char *argv[] = { "rm", "-rf", (char *)dir, NULL };
    return lpm_rtl_run(argv, NULL, NULL, NULL);
}

/* lpmpipe sim's arguments for this run's pipeline, request source,
 * arrival rate, result port and bubble stream (the golden run and the
 * timed runs alike): a[0..n), n returned; the strings live in sa. */
int lpm_verify_sim_argv(const lpm_verify_opts *v, const char *trace, lpm_verify_simargs *sa, char **a)
{
    const lpm_rtl_opts *o = &v->o;
    char(*num)[64] = sa->num;
    lpm_rtl_fmt(num[0], sizeof num[0], "%u", o->hop);
    lpm_rtl_fmt(num[1], sizeof num[1], "%u", o->ports);
    lpm_rtl_fmt(num[2], sizeof num[2], "%u", o->queue);
    lpm_rtl_fmt(num[3], sizeof num[3], "%u", o->width);
    lpm_rtl_fmt(num[4], sizeof num[4], "%.17g", v->urate);
    lpm_rtl_fmt(num[5], sizeof num[5], "%.17g", v->clock_mhz);
    lpm_rtl_fmt(num[6], sizeof num[6], "%" PRIu64, v->count);
    lpm_rtl_fmt(num[7], sizeof num[7], "%" PRIu64, v->seed);
    lpm_rtl_fmt(num[8], sizeof num[8], "%.17g", v->load);
    lpm_rtl_fmt(num[9], sizeof num[9], "%.17g", v->ready);
    int n = 0;
    a[n++] = "/proc/self/exe";
    a[n++] = "sim";
    a[n++] = "--image";
    a[n++] = (char *)v->image;
    if (trace) {
        a[n++] = "--trace";
        a[n++] = (char *)trace;
    } else {
        a[n++] = "--gen";
        a[n++] = (char *)v->gen;
        a[n++] = "--count";
        a[n++] = num[6];
        a[n++] = "--seed";
        a[n++] = num[7];
    }
    static const char *const names[] = { "--hop-cycles", "--ports", "--queue", "--issue-width" };
    for (int i = 0; i < 4; i++) {
        a[n++] = (char *)names[i];
        a[n++] = num[i];
    }
    a[n++] = "--rob";
    a[n++] = "0";
    if (o->fifo) {
        lpm_rtl_fmt(num[10], sizeof num[10], "%u", o->fifo);
        a[n++] = "--result-fifo";
        a[n++] = num[10];
    }
    if (o->dit_queue) {
        a[n++] = "--dit-answers";
        a[n++] = "queue";
    }
    a[n++] = "--result-ready";
    a[n++] = num[9];
    if (v->load > 0) {
        a[n++] = "--load";
        a[n++] = num[8];
    }
    if (v->updates) {
        a[n++] = "--updates";
        a[n++] = (char *)v->updates;
        if (v->ignore_crc)
            a[n++] = "--ignore-image-crc";
        a[n++] = "--clock-mhz";
        a[n++] = num[5];
        if (v->urate > 0) {
            a[n++] = "--update-rate";
            a[n++] = num[4];
        }
    }
    a[n] = NULL;
    return n;
}

/* The golden reference: lpmpipe sim on the same stimulus, writing its
 * cycle log (sim.log) and results (sim.csv) into the work folder. */
static int run_sim(const lpm_verify_opts *v, const char *work)
{
    char out[4200], errf[4200], simlog[4200], simres[4200];
    lpm_rtl_fmt(out, sizeof out, "%s/sim.json", work);
    lpm_rtl_fmt(errf, sizeof errf, "%s/sim.err", work);
    lpm_rtl_fmt(simlog, sizeof simlog, "%s/sim.log", work);
    lpm_rtl_fmt(simres, sizeof simres, "%s/sim.csv", work);
    lpm_verify_simargs sa;
    char *a[LPM_VERIFY_SIM_ARGS];
    int n = lpm_verify_sim_argv(v, v->trace, &sa, a);
    a[n++] = "--json";
    a[n++] = "--cycle-log";
    a[n++] = simlog;
    a[n++] = "--results";
    a[n++] = simres;
    if (!v->updates)
        a[n++] = "--verify";
    a[n] = NULL;
    int s = lpm_rtl_run(a, NULL, out, errf);
    if (s) {
        /* The simulator's own messages, in this command's name: for a bad
         * trace or bubble file they are the input error the user made. */
        FILE *ef = fopen(errf, "r");
        char line[1024];
        int shown = 0;
        while (ef && fgets(line, sizeof line, ef) && shown < 8) {
            line[strcspn(line, "\n")] = '\0';
            const char *m = strncmp(line, "lpmpipe: sim: ", 14) ? line : line + 14;
            lpm_cli_error(cmd, "%s%s", shown++ ? "" : "the simulator: ", m);
        }
        if (ef)
            fclose(ef);
        if (!shown)
            lpm_cli_error(cmd, "the simulator failed (exit %d) without a message", s);
        return s == LPM_EINPUT ? LPM_EINPUT : LPM_EFAIL;
    }
    return 0;
}

/* The simulator's own checks from its --json output (sim.json): the
 * answers it judged, the swaps and the copy rules (docs/cli-sim.md). */
static int read_sim_checks(const char *work, lpm_verify_run *r)
{
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/sim.json", work);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    json_t *chk = json_object_get(root, "check"), *bub = json_object_get(root, "bubbles");
    if (!json_is_object(chk)) {
        lpm_cli_error(cmd, "%s:%d: the simulator's JSON has no check object%s%s", path, je.line,
                      root ? "" : ": ", root ? "" : je.text);
        json_decref(root);
        return 1;
    }
    const char *ag = json_string_value(json_object_get(chk, "against"));
    lpm_rtl_fmt(r->sim.against, sizeof r->sim.against, "%s", ag ? ag : "none");
    r->sim.checked = (uint64_t)json_integer_value(json_object_get(chk, "checked"));
    r->sim.mismatches = (uint64_t)json_integer_value(json_object_get(chk, "mismatches"));
    r->sim.swaps_checked = (uint64_t)json_integer_value(json_object_get(chk, "swaps_checked"));
    r->sim.swap_crc_mismatches = (uint64_t)json_integer_value(json_object_get(chk, "swap_crc_mismatches"));
    r->sim.copy_violations = (uint64_t)json_integer_value(json_object_get(chk, "copy_violations"));
    r->sim.swaps = (uint64_t)json_integer_value(json_object_get(bub, "swaps"));
    json_decref(root);
    return 0;
}

/* The Verilated model on the same stimulus: the cycle log (LOG in the work
 * folder, or "-": none) and the results (RES), its stderr into ERR. */
int lpm_verify_model(const lpm_verify_opts *v, const char *work, const char *rtl, const char *exe, const char *logname,
                     const char *resname, const char *errname)
{
    char k[4200], b[4200], errf[4200], vcdabs[4200], log[4200], res[4200], load[64], ready[64];
    lpm_rtl_fmt(k, sizeof k, "%s/keys.hex", work);
    lpm_rtl_fmt(b, sizeof b, "%s/bubbles.txt", work);
    lpm_rtl_fmt(errf, sizeof errf, "%s/%s", work, errname);
    if (strcmp(logname, "-"))
        lpm_rtl_fmt(log, sizeof log, "%s/%s", work, logname);
    else
        lpm_rtl_fmt(log, sizeof log, "-");
    lpm_rtl_fmt(res, sizeof res, "%s/%s", work, resname);
    lpm_rtl_fmt(load, sizeof load, "%.17g", v->load);
    lpm_rtl_fmt(ready, sizeof ready, "%.17g", v->ready);
    if (v->vcd && v->vcd[0] != '/') {
        char cwd[2048];
        if (!getcwd(cwd, sizeof cwd))
            cwd[0] = '\0';
        lpm_rtl_fmt(vcdabs, sizeof vcdabs, "%s/%s", cwd, v->vcd);
    } else if (v->vcd) {
        lpm_rtl_fmt(vcdabs, sizeof vcdabs, "%s", v->vcd);
    }
    char *targv[] = { (char *)exe, k, b, log, res, "--load", load, "--ready", ready,
                      v->vcd ? "--vcd" : NULL, v->vcd ? vcdabs : NULL, NULL };
    int s = lpm_rtl_run(targv, rtl, NULL, errf);
    if (s) {
        lpm_cli_error(cmd, "the Verilated testbench failed (exit %d):", s);
        lpm_rtl_show_tail(errf, 8);
        return 1;
    }
    return 0;
}

/* The work folder (absolute) and the cache folder (absolute, or ""). */
static int work_dirs(const lpm_verify_opts *v, lpm_verify_run *r, char *cache, size_t cache_n)
{
    lpm_err err;
    if (lpm_rtl_work_dir(v->bdir, "lpmpipe-rtl", r->work, sizeof r->work, &r->tmp, &err)) {
        lpm_cli_error(cmd, "%s", err.msg);
        return 1;
    }
    lpm_rtl_cache_dir(v->cache, cache, cache_n);
    return 0;
}

int lpm_verify_run_all(const lpm_verify_opts *v, lpm_verify_run *r)
{
    memset(r, 0, sizeof *r);
    lpm_err err;
    lpm_rtl_shape sh;
    int rc = lpm_image_load(&r->img, v->image, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if ((rc = lpm_rtl_shape_of(r->img, &v->o, &sh, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (!lpm_rtl_tool_exists("verilator")) {
        lpm_cli_error(cmd, "needs verilator on the PATH (scripts/deps.sh installs it)");
        return 1;
    }
    char cache[4096], rtl[4200], simres[4200], exe[4200];
    if ((rc = work_dirs(v, r, cache, sizeof cache)))
        return rc;
    lpm_rtl_fmt(rtl, sizeof rtl, "%s/rtl", r->work);
    double cpu = v->urate > 0 ? v->clock_mhz * 1e6 / v->urate : 0.0;
    if ((rc = lpm_rtl_generate(r->img, v->image, &v->o, rtl, &err)) ||
        (rc = lpm_rtl_write_bubbles(v->updates, r->img, v->ignore_crc, cpu, r->work, &r->bubbles, &r->bc, &err))) {
        if (err.msg[0])
            lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    lpm_rtl_fmt(simres, sizeof simres, "%s/sim.csv", r->work);
    if ((rc = run_sim(v, r->work)) || (rc = read_sim_checks(r->work, r)))
        return rc;
    if ((rc = read_stimulus(simres, lpm_image_family(r->img), r->work, &r->keys, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if ((rc = lpm_rtl_tb_build(rtl, cache[0] ? cache : NULL, v->vcd ? LPM_RTL_TB_VCD : LPM_RTL_TB_EXE, exe, sizeof exe,
                               &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        if (rc == LPM_EFAIL) {
            char log[4200];
            lpm_rtl_fmt(log, sizeof log, "%s/build.log", rtl);
            lpm_rtl_show_tail(log, 12);
        }
        return rc;
    }
    char mp[4200];
    lpm_rtl_fmt(mp, sizeof mp, "%s/model.path", r->work);
    FILE *mf = fopen(mp, "w"); /* where the model is, for scripts that time it (scripts/bench.d/60-rtl.sh) */
    if (mf) {
        fprintf(mf, "%s\n", exe);
        fclose(mf);
    }
    if ((rc = lpm_verify_model(v, r->work, rtl, exe, "rtl.log", "rtl.res", "tb.err")))
        return rc;
    char simlog[4200], rtllog[4200], rtlres[4200];
    lpm_rtl_fmt(simlog, sizeof simlog, "%s/sim.log", r->work);
    lpm_rtl_fmt(rtllog, sizeof rtllog, "%s/rtl.log", r->work);
    lpm_rtl_fmt(rtlres, sizeof rtlres, "%s/rtl.res", r->work);
    r->cmp.img = r->img;
    r->cmp.keys = &r->keys;
    r->cmp.check_ref = v->updates == NULL;
    if ((rc = lpm_rtl_compare(&r->cmp, simlog, rtllog, simres, rtlres, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    r->bc.applied = v->updates ? rtl_bubbles_in(rtllog) : 0;
    if (r->bc.applied < r->bc.n)
        r->bc.updates_applied = r->bc.uord[r->bc.applied] - 1;
    lpm_rtl_second_opts so = { rtl, r->work, &sh, v->load, v->ready };
    if (v->icarus && (rc = lpm_rtl_icarus(&r->cmp, &so, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (v->gate && (rc = lpm_rtl_gate(&r->cmp, &so, &r->gate_note, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    lpm_rtl_fmt(r->rtl, sizeof r->rtl, "%s", rtl);
    lpm_rtl_fmt(r->exe, sizeof r->exe, "%s", exe);
    return LPM_OK;
}

void lpm_verify_run_free(lpm_verify_run *r)
{
    free(r->keys.a);
    free(r->bc.uord);
    lpm_image_free(r->img);
    if (r->tmp && !getenv("LPMPIPE_RTL_KEEP"))
        rm_rf(r->work);
    else if (r->tmp)
        lpm_cli_note(cmd, "work folder kept: %s", r->work);
}
