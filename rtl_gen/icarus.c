/* rtl verify --icarus and --gate: second simulators on the same stimulus.
 * tb_icarus.v replays the keys (with their arrival cycles), the bubbles
 * (with their ready cycles) and the result port's ready pattern into the
 * RTL (--icarus) or into the Yosys iCE40 netlist with the cell models
 * (--gate); either must give, byte for byte, the results the Verilated
 * testbench gave (which the comparison has already held against the
 * simulator's). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/ready.h"
#include "rtl_run.h"
#include "verify_cmp.h"

static int same_file(const char *a, const char *b, uint64_t *line)
{
    FILE *x = fopen(a, "r"), *y = fopen(b, "r");
    int same = x && y;
    char la[512], lb[512];
    *line = 0;
    while (same) {
        char *p = fgets(la, sizeof la, x), *q = fgets(lb, sizeof lb, y);
        if (!p && !q)
            break;
        (*line)++;
        if (!p || !q || strcmp(la, lb))
            same = 0;
    }
    if (x)
        fclose(x);
    if (y)
        fclose(y);
    return same;
}

/* The cycle request i arrives in (the simulator's rule: the first t >= i / L). */
static uint64_t arrival(double load, uint64_t i)
{
    if (load <= 0)
        return 0;
    double q = (double)i / load;
    uint64_t t = (uint64_t)q;
    while ((double)t < q)
        t++;
    return t;
}

/* Sets n bits of v (a bit array) at lo. */
static void put_bits(unsigned char *v, unsigned lo, unsigned n, uint64_t x)
{
    for (unsigned i = 0; i < n; i++)
        v[lo + i] = (unsigned char)((x >> i) & 1);
}

static void print_hex(FILE *fp, const unsigned char *v, unsigned bits)
{
    for (int d = (int)((bits + 3) / 4) - 1; d >= 0; d--) {
        unsigned x = 0;
        for (unsigned b = 0; b < 4; b++)
            if (4 * (unsigned)d + b < bits && v[4 * d + b])
                x |= 1u << b;
        fputc("0123456789abcdef"[x], fp);
    }
    fputc('\n', fp);
}

/* bubbles.txt (READY NW STAGE:ADDR:WORD...) as two $readmemh files. */
static int bubble_mems(const lpm_rtl_second_opts *o, uint64_t *nb, lpm_err *err)
{
    const lpm_rtl_shape *sh = o->sh;
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/bubbles.txt", o->work);
    FILE *in = fopen(path, "r");
    lpm_rtl_fmt(path, sizeof path, "%s/bready.mem", o->rtl);
    FILE *fr = fopen(path, "w");
    lpm_rtl_fmt(path, sizeof path, "%s/bdata.mem", o->rtl);
    FILE *fd = fopen(path, "w");
    unsigned char *v = calloc(sh->bw, 1);
    int rc = in && fr && fd && v ? LPM_OK : lpm_err_set(err, LPM_EFAIL, "%s: cannot write the bubble files", o->rtl);
    unsigned long long ready;
    unsigned nw;
    *nb = 0;
    while (!rc && fscanf(in, "%llu %u", &ready, &nw) == 2) {
        memset(v, 0, sh->bw);
        for (unsigned j = 0; j < nw && !rc; j++) {
            char st[16];
            unsigned long long a, w;
            if (fscanf(in, " %15[^:]:%llx:%llx", st, &a, &w) != 3) {
                rc = lpm_err_set(err, LPM_EFAIL, "%s/bubbles.txt: bad write", o->work);
                break;
            }
            if (st[0] == 'F') { /* the copy rules' flags */
                put_bits(v, sh->bf, 4, w);
                continue;
            }
            int dit = st[0] == 'D';
            unsigned b = dit ? sh->n * sh->bsw : (unsigned)atoi(st) * sh->bsw;
            unsigned aw = dit ? sh->xi : sh->aw, ww = dit ? sh->db : sh->wb;
            put_bits(v, b, 1, 1);
            put_bits(v, b + 1, aw, a);
            put_bits(v, b + 1 + aw, ww, w);
        }
        fprintf(fr, "%016llx\n", ready);
        print_hex(fd, v, sh->bw);
        (*nb)++;
    }
    free(v);
    if (in)
        fclose(in);
    if ((fr && fclose(fr)) || (fd && fclose(fd)))
        rc = rc ? rc : lpm_err_set(err, LPM_EFAIL, "%s: write failed", o->rtl);
    return rc;
}

/* keys.mem, arr.mem, the bubble files; the plusargs of the run. */
static int stimulus(const lpm_rtl_cmp *c, const lpm_rtl_second_opts *o, char args[5][4400], lpm_err *err)
{
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/keys.mem", o->rtl);
    FILE *fk = fopen(path, "w");
    lpm_rtl_fmt(path, sizeof path, "%s/arr.mem", o->rtl);
    FILE *fa = fopen(path, "w");
    if (!fk || !fa) {
        if (fk)
            fclose(fk);
        if (fa)
            fclose(fa);
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    }
    int fam = lpm_image_family(c->img);
    for (size_t i = 0; i < c->keys->n; i++) {
        const lpm_addr *k = &c->keys->a[i];
        if (fam == LPM_AF_INET)
            fprintf(fk, "%08" PRIx64 "\n", k->hi >> 32);
        else
            fprintf(fk, "%016" PRIx64 "%016" PRIx64 "\n", k->hi, k->lo);
        fprintf(fa, "%016" PRIx64 "\n", arrival(o->load, i));
    }
    int bad = fclose(fk) | fclose(fa);
    uint64_t nb = 0;
    if (bad)
        return lpm_err_set(err, LPM_EFAIL, "%s: write failed", o->rtl);
    int rc = bubble_mems(o, &nb, err);
    if (rc)
        return rc;
    if (c->keys->n > (1u << 18) || nb > (1u << 16))
        return lpm_err_set(err, LPM_EINPUT, "--icarus and --gate take at most 262144 requests and 65536 bubbles");
    lpm_rtl_fmt(args[0], sizeof args[0], "+n=%zu", c->keys->n);
    lpm_rtl_fmt(args[1], sizeof args[1], "+nb=%" PRIu64, nb);
    lpm_rtl_fmt(args[2], sizeof args[2], "+arrn=%" PRIx64, arrival(o->load, c->keys->n));
    lpm_rtl_fmt(args[3], sizeof args[3], "+thr=%" PRIx64, lpm_sim_ready_threshold(o->ready));
    return LPM_OK;
}

/* Runs VVP on the stimulus and compares OUT with the Verilated results. */
static int run_compare(lpm_rtl_cmp *c, const lpm_rtl_second_opts *o, const char *vvp, const char *out,
                       const char *what, int *same, lpm_err *err)
{
    char args[5][4400], log[4200], res[4200], vres[4200];
    int rc = stimulus(c, o, args, err);
    if (rc)
        return rc;
    lpm_rtl_fmt(res, sizeof res, "%s/%s", o->work, out);
    lpm_rtl_fmt(args[4], sizeof args[4], "+out=%s", res);
    lpm_rtl_fmt(log, sizeof log, "%s/%s.log", o->work, what);
    char *vargv[] = { "vvp", "-n", (char *)vvp, args[0], args[1], args[2], args[3], args[4], NULL };
    rc = lpm_rtl_run(vargv, o->rtl, log, log);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "vvp (%s) failed (exit %d): see %s", what, rc, log);
    lpm_rtl_fmt(vres, sizeof vres, "%s/rtl.res", o->work);
    uint64_t line;
    *same = same_file(vres, res, &line);
    if (!*same) {
        fprintf(stderr, "lpmpipe: rtl verify: %s and Verilator results differ at result line %" PRIu64 "\n", what, line);
        c->icarus_bad++;
    } else {
        fprintf(stderr, "lpmpipe: rtl verify: note: %s: %" PRIu64 " results, the same as Verilator's\n", what, line);
    }
    return LPM_OK;
}

int lpm_rtl_icarus(lpm_rtl_cmp *c, const lpm_rtl_second_opts *o, lpm_err *err)
{
    if (!lpm_rtl_tool_exists("iverilog") || !lpm_rtl_tool_exists("vvp"))
        return lpm_err_set(err, LPM_EFAIL, "--icarus needs iverilog and vvp on the PATH");
    char log[4200];
    lpm_rtl_fmt(log, sizeof log, "%s/icarus.log", o->work);
    char *margv[] = { "make", "--no-print-directory", "icarus", NULL };
    int rc = lpm_rtl_run(margv, o->rtl, log, log);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "iverilog failed (exit %d): see %s", rc, log);
    int same;
    return run_compare(c, o, "tb_icarus.vvp", "icarus.res", "Icarus Verilog", &same, err);
}

int lpm_rtl_gate(lpm_rtl_cmp *c, const lpm_rtl_second_opts *o, const char **note, lpm_err *err)
{
    *note = "not run: needs yosys, iverilog and vvp";
    if (!lpm_rtl_tool_exists("yosys") || !lpm_rtl_tool_exists("iverilog") || !lpm_rtl_tool_exists("vvp"))
        return LPM_OK;
    char log[4200];
    lpm_rtl_fmt(log, sizeof log, "%s/gate.log", o->work);
    char *margv[] = { "make", "--no-print-directory", "gate", NULL };
    int rc = lpm_rtl_run(margv, o->rtl, log, log);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "the gate-level build (yosys synth_ice40, iverilog) failed (exit %d): see %s",
                           rc, log);
    int same = 0;
    rc = run_compare(c, o, "gate.vvp", "gate.res", "iCE40 gate-level netlist", &same, err);
    *note = same ? "same" : "differs";
    return rc;
}
