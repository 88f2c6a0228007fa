/* lpmpipe report: run | point | merge | render (docs/cli-report.md). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../reports/report.h"
#include "cli.h"
#include "cmd.h"

static const char *usage_text =
    "usage: lpmpipe report run EXP.json... -o DIR [--jobs N] [--emit parallel|slurm]\n"
    "                          [--data DIR] [--only PARAM=VALUE]... [--plain] [--quiet]\n"
    "       lpmpipe report point -o DIR [--data DIR] EXP.json KEY...\n"
    "       lpmpipe report merge DIR... -o OUT [--mixed-versions] [--mixed-inputs]\n"
    "                          [--mixed-definitions] [--duplicates first]\n"
    "       lpmpipe report render DIR -o OUT\n"
    "\n"
    "run      every point of the sweeps not yet recorded in DIR, one JSON record each\n"
    "         (DIR/records/NAME/KEY.json); an interrupted run resumes where it stopped.\n"
    "         --jobs N: through GNU parallel, N at a time; --emit parallel|slurm: write\n"
    "         DIR/jobs.txt and a script that runs them on many machines (ssh) or as a\n"
    "         Slurm array, instead of running. --only PARAM=VALUE keeps matching points.\n"
    "         A progress bar on a terminal (--plain: one line a point; --quiet: none).\n"
    "         --data: the tables' folder (default $LPMPIPE_DATA, else ../shared/data);\n"
    "         sweeps that need an absent table are skipped with a SKIP line.\n"
    "point    one point by key (what run, parallel and Slurm all execute); prints\n"
    "         'ok|failed|skipped NAME KEY PARAMS :: seconds|reason'.\n"
    "merge    result folders of many machines into OUT, the same bytes whatever the\n"
    "         order; refuses records of another tool version or table, definitions\n"
    "         that differ and differing records of one point unless told.\n"
    "render   figures (gnuplot SVG and PNG), CSV, summary.md and index.html into OUT.\n"
    "\n"
    "exit status: 0 ok, 1 a point failed, 2 bad definition or usage\n";

static char *self_path(void)
{
    char *p = realpath("/proc/self/exe", NULL);
    return p ? p : strdup("lpmpipe");
}

static char *data_dir(const char *given)
{
    const char *d = given ? given : getenv("LPMPIPE_DATA");
    struct stat st;
    if ((!d || !*d) && !given && stat("../shared/data", &st) == 0 && S_ISDIR(st.st_mode))
        d = "../shared/data";
    if (!d || !*d)
        return NULL;
    char *r = realpath(d, NULL);
    return r ? r : strdup(d);
}

static int load_all(char **files, int n, lpm_report_exp *exps)
{
    for (int i = 0; i < n; i++) {
        lpm_err err = { "" };
        if (lpm_report_exp_load(files[i], &exps[i], &err)) {
            lpm_cli_error("report", "%s", err.msg);
            for (int j = 0; j <= i; j++)
                lpm_report_exp_free(&exps[j]);
            return LPM_EINPUT;
        }
    }
    return LPM_OK;
}

enum { O_JOBS = 0x1100, O_EMIT, O_DATA, O_ONLY, O_PLAIN, O_QUIET, O_MV, O_MI, O_MD, O_DUP, O_HELP };

static const struct option longopts[] = {
    { "jobs", required_argument, 0, O_JOBS },     { "emit", required_argument, 0, O_EMIT },
    { "data", required_argument, 0, O_DATA },     { "only", required_argument, 0, O_ONLY },
    { "plain", no_argument, 0, O_PLAIN },         { "quiet", no_argument, 0, O_QUIET },
    { "mixed-versions", no_argument, 0, O_MV },   { "mixed-inputs", no_argument, 0, O_MI },
    { "mixed-definitions", no_argument, 0, O_MD }, { "duplicates", required_argument, 0, O_DUP },
    { "help", no_argument, 0, O_HELP },           { 0, 0, 0, 0 }
};

typedef struct ropts {
    lpm_report_run_opts run;
    lpm_report_merge_opts merge;
    const char *out, *data;
    int plain, quiet, help;
} ropts;

static int parse(const char *sub, int argc, char **argv, ropts *o)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case O_JOBS:
            if (lpm_cli_uint(sub, "--jobs", optarg, 1, 1024, &o->run.jobs))
                return LPM_EINPUT;
            break;
        case O_EMIT:
            if (strcmp(optarg, "parallel") && strcmp(optarg, "slurm")) {
                lpm_cli_error(sub, "--emit: '%s' is not parallel or slurm", optarg);
                return LPM_EINPUT;
            }
            o->run.emit = optarg;
            break;
        case O_DATA: o->data = optarg; break;
        case O_ONLY:
            if (!strchr(optarg, '=') || o->run.nonly == 8) {
                lpm_cli_error(sub, "--only: PARAM=VALUE, at most 8 of them ('%s')", optarg);
                return LPM_EINPUT;
            }
            o->run.only[o->run.nonly++] = optarg;
            break;
        case O_PLAIN: o->plain = 1; break;
        case O_QUIET: o->quiet = 1; break;
        case O_MV: o->merge.mixed_versions = 1; break;
        case O_MI: o->merge.mixed_inputs = 1; break;
        case O_MD: o->merge.mixed_definitions = 1; break;
        case O_DUP:
            if (strcmp(optarg, "first")) {
                lpm_cli_error(sub, "--duplicates: only 'first' (keep the record whose bytes sort first)");
                return LPM_EINPUT;
            }
            o->merge.first_duplicate = 1;
            break;
        case 'h':
        case O_HELP: o->help = 1; break;
        default: return lpm_cli_usage_error(sub);
        }
    }
    return LPM_OK;
}

static int cmd_run(int argc, char **argv, ropts *o)
{
    int n = argc - optind;
    if (n < 1 || !o->out) {
        lpm_cli_error("report run", "give EXP.json... and -o DIR (see lpmpipe report --help)");
        return LPM_EINPUT;
    }
    lpm_report_exp *exps = calloc((size_t)n, sizeof *exps);
    int rc = load_all(argv + optind, n, exps);
    if (rc) {
        free(exps);
        return rc;
    }
    char *bin = self_path(), *data = data_dir(o->data);
    o->run.env.bin = bin;
    o->run.env.dir = o->out;
    o->run.env.data_dir = data;
    o->run.progress = o->quiet ? -1 : o->plain || !isatty(2) ? 0 : 1;
    lpm_err err = { "" };
    rc = lpm_report_run(&o->run, exps, (size_t)n, &err);
    if (rc)
        lpm_cli_error("report run", "%s", err.msg);
    for (int i = 0; i < n; i++)
        lpm_report_exp_free(&exps[i]);
    free(exps);
    free(bin);
    free(data);
    return rc;
}

static int point_one(const lpm_report_env *env, const lpm_report_exp *e, const char *key)
{
    lpm_err err = { "" };
    for (size_t i = 0; i < e->npoints; i++) {
        lpm_report_point p;
        if (lpm_report_point_at(e, i, &p, &err)) {
            lpm_cli_error("report point", "%s", err.msg);
            return LPM_EINPUT;
        }
        if (strcmp(p.key, key))
            continue;
        char why[1024], desc[1024];
        int status;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (lpm_report_run_point(env, e, &p, &status, why, sizeof why, &err)) {
            lpm_cli_error("report point", "%s", err.msg);
            return LPM_EINPUT;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (status == 0)
            snprintf(why, sizeof why, "%.3f", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
        lpm_report_point_desc(e, &p, desc, sizeof desc);
        for (char *c = why; *c; c++)
            *c = *c == '\n' || *c == '\r' ? ' ' : *c; /* one status line a point */
        printf("%s %s %s %s :: %s\n", status == 0 ? "ok" : status == 3 ? "skipped" : "failed", e->name, key, desc,
               why);
        fflush(stdout);
        return status == 1 ? LPM_EFAIL : LPM_OK;
    }
    lpm_cli_error("report point", "%s: no point has key %s (was the definition changed?)", e->file, key);
    return LPM_EINPUT;
}

static int cmd_point(int argc, char **argv, ropts *o)
{
    if (argc - optind < 2 || !o->out) {
        lpm_cli_error("report point", "give -o DIR, EXP.json and KEY...");
        return LPM_EINPUT;
    }
    lpm_report_exp e;
    if (load_all(argv + optind, 1, &e))
        return LPM_EINPUT;
    char *bin = self_path(), *data = data_dir(o->data);
    lpm_report_env env = { bin, o->out, data };
    int rc = LPM_OK;
    for (int i = optind + 1; i < argc; i++) {
        int r = point_one(&env, &e, argv[i]);
        rc = r > rc ? r : rc;
    }
    lpm_report_exp_free(&e);
    free(bin);
    free(data);
    return rc;
}

static int cmd_merge(int argc, char **argv, ropts *o)
{
    if (argc - optind < 1 || !o->out) {
        lpm_cli_error("report merge", "give DIR... and -o OUT");
        return LPM_EINPUT;
    }
    char note[2048] = "";
    lpm_err err = { "" };
    int rc = lpm_report_merge((const char *const *)argv + optind, (size_t)(argc - optind), o->out, &o->merge, note,
                              sizeof note, &err);
    if (note[0])
        fprintf(stderr, "%s", note);
    if (rc)
        lpm_cli_error("report merge", "%s", err.msg);
    return rc;
}

static int cmd_render(int argc, char **argv, ropts *o)
{
    if (argc - optind != 1 || !o->out) {
        lpm_cli_error("report render", "give one DIR and -o OUT");
        return LPM_EINPUT;
    }
    char note[4096] = "";
    lpm_err err = { "" };
    int rc = lpm_report_render(argv[optind], o->out, note, sizeof note, &err);
    if (note[0])
        fprintf(stderr, "%s", note);
    if (rc)
        lpm_cli_error("report render", "%s", err.msg);
    else
        printf("%s/index.html\n", o->out);
    return rc;
}

int lpm_cmd_report(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? LPM_EINPUT : LPM_OK;
    }
    const char *sub = argv[1];
    ropts o;
    memset(&o, 0, sizeof o);
    char name[64];
    snprintf(name, sizeof name, "report %s", sub);
    int rc = parse(name, argc - 1, argv + 1, &o);
    if (rc)
        return rc;
    if (o.help) {
        fputs(usage_text, stdout);
        return LPM_OK;
    }
    argc--;
    argv++;
    if (!strcmp(sub, "run"))
        return cmd_run(argc, argv, &o);
    if (!strcmp(sub, "point"))
        return cmd_point(argc, argv, &o);
    if (!strcmp(sub, "merge"))
        return cmd_merge(argc, argv, &o);
    if (!strcmp(sub, "render"))
        return cmd_render(argc, argv, &o);
    lpm_cli_error("report", "unknown subcommand '%s' (run, point, merge, render)", sub);
    return LPM_EINPUT;
}
