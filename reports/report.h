/* The experiment layer: sweeps declared as JSON (docs/cli-report.md),
 * expanded into points, each point one lpmpipe run that leaves one JSON
 * record; records merged from many machines and rendered as figures.
 * Definitions are read with jansson; nothing here prints except the run
 * loop's progress, which the caller asks for. */
#ifndef LPM_REPORT_H
#define LPM_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "../core/err.h"

#define LPM_REPORT_MAX_AXES 16
#define LPM_REPORT_MAX_POINTS 1000000

/* A growing list of owned strings (an argv). */
typedef struct lpm_strv {
    char **v;
    size_t n, cap;
} lpm_strv;

void lpm_strv_push(lpm_strv *s, const char *str);
void lpm_strv_free(lpm_strv *s);

typedef struct lpm_report_axis {
    const char *name;
    json_t *values; /* array: scalars, or objects with "label" */
} lpm_report_axis;

typedef struct lpm_report_input {
    const char *name;
    const char *data;     /* a table under the data folder, or NULL */
    const char *file;     /* the generated file's name */
    json_t *command;      /* the lpmpipe command that writes {out} */
} lpm_report_input;

typedef struct lpm_report_keep {
    const char *name;
    const char *path; /* lpm_jpath syntax */
    int optional;     /* "?path": null when absent */
    int source;       /* -1: the command's output; N: pre command N's ("preN:path") */
} lpm_report_keep;

typedef struct lpm_report_figure {
    const char *name, *title, *x, *series, *xlabel, *ylabel, *style, *xscale, *yscale;
    const char *y[8];
    size_t ny;
    json_t *where; /* object column -> value, or NULL */
} lpm_report_figure;

typedef struct lpm_report_exp {
    char *file;    /* where it was read from */
    json_t *root;  /* the definition; every string below points into it */
    const char *name, *title, *about, *absent;
    json_t *command, *pre, *skip_exit, *result_exit;
    lpm_report_axis axes[LPM_REPORT_MAX_AXES];
    size_t naxes;
    lpm_report_input *inputs;
    size_t ninputs;
    lpm_report_keep *keep;
    size_t nkeep;
    const char *rows_path;
    lpm_report_keep *row_keep;
    size_t nrow_keep;
    lpm_report_figure *figs;
    size_t nfigs;
    double timeout_s;
    size_t npoints;
} lpm_report_exp;

/* Reads and checks a definition. Errors: "file: key: reason" (a JSON
 * syntax error: "file:line: reason"), LPM_EINPUT. */
int lpm_report_exp_load(const char *path, lpm_report_exp *e, lpm_err *err);
void lpm_report_exp_free(lpm_report_exp *e);
/* Index of a column (parameter, kept field or row field) or -1; kind gets
 * 'p', 'k' or 'r'. */
int lpm_report_column(const lpm_report_exp *e, const char *name, char *kind);

/* One point of the grid: the value chosen on every axis (first axis
 * slowest) and its key, a hash of what the run depends on. */
typedef struct lpm_report_point {
    size_t index;
    size_t choice[LPM_REPORT_MAX_AXES];
    char key[17];
} lpm_report_point;

/* Where placeholders resolve. Logical paths (records, keys) never depend
 * on the machine: "inputs/ID-file", "$LPMPIPE_DATA/file", "$TMP". */
typedef struct lpm_report_ctx {
    const char *dir;      /* the result folder */
    const char *data_dir; /* the tables, or NULL */
    const char *tmp;      /* the point's scratch folder, or NULL */
    const char *out;      /* an input command's output file, or NULL */
    const char *bin;      /* the lpmpipe binary ({lpmpipe}), or NULL: "lpmpipe" */
} lpm_report_ctx;

int lpm_report_point_at(const lpm_report_exp *e, size_t index, lpm_report_point *p, lpm_err *err);
/* The label (JSON scalar, borrowed) of axis a at point p. */
json_t *lpm_report_label(const lpm_report_exp *e, const lpm_report_point *p, size_t a);
/* "queue=4 burst=8" */
void lpm_report_point_desc(const lpm_report_exp *e, const lpm_report_point *p, char *buf, size_t n);
/* argv of a command template (array of strings) at point p; ctx NULL:
 * logical paths. input >= 0: the template is that input's command. */
int lpm_report_argv(const lpm_report_exp *e, const lpm_report_point *p, const json_t *tmpl,
                    int input, const lpm_report_ctx *ctx, lpm_strv *out, lpm_err *err);
/* An input instance at point p: its id (16 hex) and logical path. */
int lpm_report_input_id(const lpm_report_exp *e, const lpm_report_point *p, size_t i,
                        char id[17], char *logical, size_t n, lpm_err *err);
/* Inputs the point's commands name (directly, through a parameter's field
 * or through other inputs); p NULL: those of any point. */
void lpm_report_inputs_used(const lpm_report_exp *e, const lpm_report_point *p, int used[]);

/* Utilities. */
/* A JSON scalar as text: integers whole, reals with digits significant
 * digits (15 for commands, 6 for tables). */
void lpm_report_value_text(const json_t *v, char *buf, size_t n, int digits);
uint64_t lpm_fnv1a64(const void *p, size_t n, uint64_t h);
#define LPM_FNV_INIT 0xcbf29ce484222325ULL
int lpm_report_file_hash(const char *path, uint64_t *h, uint64_t *bytes, lpm_err *err);
/* A JSON value inside root: "a.b[2].c", "engines[name=dir24-8].build_s";
 * "" or "." is root. NULL when absent (why says what was missing). */
json_t *lpm_jpath(json_t *root, const char *path, char *why, size_t n);
int lpm_jpath_check(const char *path);
/* Compact JSON text (insertion order, 15 significant digits) and '\n'. */
char *lpm_report_dump(const json_t *v);
/* Every JSON value in buf (JSON lines or one document); several values
 * come back as an array. */
json_t *lpm_report_parse_seq(const char *buf, size_t len, char *why, size_t n);
int lpm_report_read_file(const char *path, char **buf, size_t *len);
/* Opens DIR/NAME for writing (its path into path); NULL with err set. */
FILE *lpm_report_fopen(const char *dir, const char *name, char *path, size_t n, lpm_err *err);
int lpm_report_write_atomic(const char *path, const char *data, size_t len, lpm_err *err);
int lpm_report_mkdirs(const char *path, lpm_err *err);
int lpm_report_rmtree(const char *path);
const char *lpm_report_tool_version(void);

/* One point: build its inputs, run it, write its record (or a failure or
 * skip marker). status: 0 record written, 1 failed, 3 skipped (cannot run
 * here); why says what happened. Returns LPM_EINPUT for bad arguments. */
typedef struct lpm_report_env {
    const char *bin;      /* the lpmpipe to run */
    const char *dir;
    const char *data_dir;
} lpm_report_env;

int lpm_report_run_point(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p,
                         int *status, char *why, size_t n, lpm_err *err);
/* The record file of a point; 1 when it holds a valid record of that key. */
void lpm_report_record_path(const char *dir, const char *exp, const char *key, char *buf, size_t n);
int lpm_report_record_done(const char *dir, const char *exp, const char *key);
/* DIR/results.jsonl: every record of DIR, sorted by experiment and key. */
int lpm_report_write_results(const char *dir, lpm_err *err);

/* Whole runs (report run). */
typedef struct lpm_report_run_opts {
    lpm_report_env env;
    unsigned jobs;         /* 0: in this process, one at a time; else GNU parallel */
    const char *emit;      /* NULL, "parallel" or "slurm" */
    int progress;          /* 1: a bar on the terminal, 0: one line a point, -1: quiet */
    const char *only[8];   /* "column=value" filters */
    size_t nonly;
} lpm_report_run_opts;

int lpm_report_run(const lpm_report_run_opts *o, lpm_report_exp *exps, size_t nexps, lpm_err *err);
int lpm_report_emit(const lpm_report_run_opts *o, lpm_report_exp *exps, size_t nexps,
                    const char *const *pending_lines, size_t npending, lpm_err *err);
/* 1 when point p passes the --only filters. */
int lpm_report_point_selected(const lpm_report_exp *e, const lpm_report_point *p,
                              const char *const *only, size_t nonly);

/* report merge */
typedef struct lpm_report_merge_opts {
    int mixed_versions, mixed_inputs, mixed_definitions, first_duplicate;
} lpm_report_merge_opts;

int lpm_report_merge(const char *const *dirs, size_t ndirs, const char *out,
                     const lpm_report_merge_opts *o, char *note, size_t nnote, lpm_err *err);

/* report render */
int lpm_report_render(const char *dir, const char *out, char *note, size_t nnote, lpm_err *err);

#endif
