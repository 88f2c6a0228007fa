/* One point: its inputs, its lpmpipe run, its record. The record holds
 * nothing that depends on the machine, the result folder or the time, so
 * the same point gives the same bytes wherever it ran. */
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lpm_report_record_path(const char *dir, const char *exp, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s/records/%s/%s.json", dir, exp, key);
}

int lpm_report_record_done(const char *dir, const char *exp, const char *key)
{
    char path[4200], *buf;
    size_t len;
    lpm_report_record_path(dir, exp, key, path, sizeof path);
    if (lpm_report_read_file(path, &buf, &len))
        return 0;
    json_t *r = json_loadb(buf, len, 0, NULL);
    free(buf);
    json_t *k = json_object_get(r, "key");
    int ok = k && json_is_string(k) && !strcmp(json_string_value(k), key) && json_object_get(r, "metrics");
    json_decref(r);
    return ok;
}

static void marker(const char *dir, const char *kind, const char *exp, const char *key, const char *text)
{
    char path[4200];
    lpm_err ignore;
    snprintf(path, sizeof path, "%s/%s/%s", dir, kind, exp);
    if (text && lpm_report_mkdirs(path, &ignore))
        return;
    snprintf(path, sizeof path, "%s/%s/%s/%s.txt", dir, kind, exp, key);
    if (text)
        lpm_report_write_atomic(path, text, strlen(text), &ignore);
    else
        unlink(path);
}

/* docs[0]: the command's output, docs[1 + N]: pre command N's (NULL when
 * no field is kept from it). */
static json_t *keep_fields(const lpm_report_keep *k, size_t n, json_t *const *docs, char *why, size_t nwhy)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) {
        char w[200];
        json_t *v = lpm_jpath(docs[k[i].source + 1], k[i].path, w, sizeof w);
        if (!v && k[i].optional)
            v = json_null();
        if (!v) {
            if (k[i].source >= 0)
                snprintf(why, nwhy, "keep %s: %s in the output of pre[%d]", k[i].name, w, k[i].source);
            else
                snprintf(why, nwhy, "keep %s: %s in the output", k[i].name, w);
            json_decref(o);
            return NULL;
        }
        json_object_set(o, k[i].name, v);
    }
    return o;
}

static json_t *read_output(const char *path, char *why, size_t nwhy)
{
    char *buf;
    size_t len;
    if (lpm_report_read_file(path, &buf, &len)) {
        snprintf(why, nwhy, "no output");
        return NULL;
    }
    json_t *doc = lpm_report_parse_seq(buf, len, why, nwhy);
    free(buf);
    return doc;
}

/* The metrics (and rows) of a run's output in tmp (out.json, preN.out);
 * NULL with why on failure. */
static json_t *metrics_of(const lpm_report_exp *e, const char *tmp, json_t **rows, char *why, size_t nwhy)
{
    char path[4400];
    size_t npre = e->pre ? json_array_size(e->pre) : 0;
    json_t **docs = calloc(npre + 1, sizeof *docs), *m = NULL;
    *rows = NULL;
    if (!docs) {
        snprintf(why, nwhy, "out of memory");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/out.json", tmp);
    docs[0] = read_output(path, why, nwhy);
    for (size_t i = 0; docs[0] && i < e->nkeep; i++) {
        int src = e->keep[i].source;
        if (src < 0 || docs[src + 1])
            continue;
        snprintf(path, sizeof path, "%s/pre%d.out", tmp, src);
        if (!(docs[src + 1] = read_output(path, why, nwhy))) {
            snprintf(path, sizeof path, "pre[%d]: %s", src, why);
            snprintf(why, nwhy, "%s", path);
            goto out;
        }
    }
    if (!docs[0] || !(m = keep_fields(e->keep, e->nkeep, docs, why, nwhy)) || !e->rows_path)
        goto out;
    char w[200];
    json_t *list = lpm_jpath(docs[0], e->rows_path, w, sizeof w);
    if (!json_is_array(list)) {
        snprintf(why, nwhy, "rows %s: %s", e->rows_path, list ? "not a list" : w);
        json_decref(m);
        m = NULL;
        goto out;
    }
    *rows = json_array();
    size_t i;
    json_t *el;
    json_array_foreach(list, i, el) {
        json_t *r = keep_fields(e->row_keep, e->nrow_keep, &el, why, nwhy);
        if (!r) {
            json_decref(m);
            m = NULL;
            break;
        }
        json_array_append_new(*rows, r);
    }
out:
    for (size_t i = 0; i <= npre; i++)
        json_decref(docs[i]);
    free(docs);
    return m;
}

/* A command whose first word is a path (has a '/': "scripts/synth-memories.sh")
 * runs that program, relative to the working folder (the repository root
 * for the docs' commands), instead of an lpmpipe command: drop argv[0]. */
static void script_argv(lpm_strv *argv)
{
    if (argv->n < 2 || !strchr(argv->v[1], '/'))
        return;
    free(argv->v[0]);
    memmove(argv->v, argv->v + 1, (argv->n - 1) * sizeof *argv->v);
    argv->n--;
    argv->v[argv->n] = NULL;
}

/* Runs one command of the point; 0 ok, else status (1 failed, 3 skipped). */
static int run_cmd(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p,
                   const json_t *tmpl, const char *tmp, const char *out, char *why, size_t nwhy, lpm_err *err)
{
    char errp[4500];
    snprintf(errp, sizeof errp, "%s.err", out);
    lpm_report_ctx ctx = { env->dir, env->data_dir, tmp, NULL, env->bin };
    lpm_strv argv = { 0 };
    lpm_strv_push(&argv, env->bin);
    int rc = lpm_report_argv(e, p, tmpl, -1, &ctx, &argv, err);
    if (!rc)
        script_argv(&argv);
    int st = rc ? -1 : lpm_report_spawn(argv.v, out, errp, e->timeout_s, err);
    lpm_strv_free(&argv);
    if (st < 0) {
        snprintf(why, nwhy, "%s", err->msg);
        return 1;
    }
    if (st == 0)
        return 0;
    size_t ri;
    json_t *rv;
    if (e->result_exit && st != LPM_REPORT_TIMEOUT)
        json_array_foreach(e->result_exit, ri, rv) if (json_integer_value(rv) == st)
            return 0; /* an exit whose output is still the result ("result_exit") */
    char code[16], tail[400];
    snprintf(code, sizeof code, "%d", st);
    json_t *skip = e->skip_exit ? json_object_get(e->skip_exit, code) : NULL;
    lpm_report_tail(errp, tail, sizeof tail, 0);
    const char *match = json_string_value(json_object_get(skip, "stderr"));
    if (skip && (!match || strstr(tail, match))) {
        const char *reason = json_is_string(skip) ? json_string_value(skip)
                                                  : json_string_value(json_object_get(skip, "reason"));
        snprintf(why, nwhy, "exit %d: %s", st, reason);
        return 3;
    }
    for (char *c = tail; *c; c++)
        *c = *c == '\n' ? ' ' : *c;
    if (st == LPM_REPORT_TIMEOUT)
        snprintf(why, nwhy, "timed out after %g s", e->timeout_s);
    else
        snprintf(why, nwhy, "exit %d: %s", st, tail);
    return 1;
}

static json_t *argv_json(const lpm_report_exp *e, const lpm_report_point *p, const json_t *tmpl, lpm_err *err)
{
    lpm_strv argv = { 0 };
    lpm_strv_push(&argv, "lpmpipe");
    if (lpm_report_argv(e, p, tmpl, -1, NULL, &argv, err)) {
        lpm_strv_free(&argv);
        return NULL;
    }
    script_argv(&argv);
    json_t *a = json_array();
    for (size_t i = 0; i < argv.n; i++)
        json_array_append_new(a, json_string(argv.v[i]));
    lpm_strv_free(&argv);
    return a;
}

static json_t *record_head(const lpm_report_exp *e, const lpm_report_point *p, json_t *inputs, lpm_err *err)
{
    json_t *r = json_object(), *params = json_object();
    json_object_set_new(r, "experiment", json_string(e->name));
    json_object_set_new(r, "key", json_string(p->key));
    for (size_t a = 0; a < e->naxes; a++)
        json_object_set(params, e->axes[a].name, lpm_report_label(e, p, a));
    json_object_set_new(r, "params", params);
    json_object_set_new(r, "command", argv_json(e, p, e->command, err));
    if (e->pre) {
        json_t *pre = json_array();
        size_t i;
        json_t *c;
        json_array_foreach(e->pre, i, c) json_array_append_new(pre, argv_json(e, p, c, err));
        json_object_set_new(r, "pre", pre);
    }
    json_object_set_new(r, "tool_version", json_string(lpm_report_tool_version()));
    json_object_set(r, "inputs", inputs);
    return r;
}

static int point_inputs(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p,
                        json_t *inputs, char *why, size_t nwhy, lpm_err *err)
{
    int used[65];
    if (e->ninputs > 64)
        return lpm_err_set(err, LPM_EINPUT, "%s: inputs: more than 64", e->file);
    lpm_report_inputs_used(e, p, used);
    for (size_t i = 0; i < e->ninputs; i++) {
        if (!used[i])
            continue;
        char real[4096];
        json_t *info = NULL;
        int rc = lpm_report_ensure_input(env, e, p, i, real, sizeof real, &info, why, nwhy, err);
        if (rc) {
            if (!why[0])
                snprintf(why, nwhy, "input %s: %s", e->inputs[i].name, err->msg);
            return LPM_EFAIL;
        }
        json_object_set_new(inputs, e->inputs[i].name, info);
    }
    return LPM_OK;
}

/* Runs the point's commands in tmp; *status and why as lpm_report_run_point. */
static json_t *run_commands(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p,
                            const char *tmp, int *status, json_t **rows, char *why, size_t nwhy, lpm_err *err)
{
    char out[4400];
    size_t i;
    json_t *c;
    if (e->pre)
        json_array_foreach(e->pre, i, c) {
            snprintf(out, sizeof out, "%s/pre%zu.out", tmp, i);
            if ((*status = run_cmd(env, e, p, c, tmp, out, why, nwhy, err)))
                return NULL;
        }
    snprintf(out, sizeof out, "%s/out.json", tmp);
    if ((*status = run_cmd(env, e, p, e->command, tmp, out, why, nwhy, err)))
        return NULL;
    json_t *m = metrics_of(e, tmp, rows, why, nwhy);
    *status = m ? 0 : 1;
    return m;
}

int lpm_report_run_point(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p,
                         int *status, char *why, size_t n, lpm_err *err)
{
    char tmp[4200], path[4200];
    why[0] = 0;
    *status = 1;
    snprintf(tmp, sizeof tmp, "%s/records/%s", env->dir, e->name);
    int rc = lpm_report_mkdirs(tmp, err);
    snprintf(tmp, sizeof tmp, "%s/inputs", env->dir);
    if (!rc)
        rc = lpm_report_mkdirs(tmp, err);
    snprintf(tmp, sizeof tmp, "%s/tmp/%s-%s", env->dir, e->name, p->key);
    lpm_report_rmtree(tmp);
    if (rc || (rc = lpm_report_mkdirs(tmp, err)))
        return rc;
    json_t *inputs = json_object(), *rows = NULL, *m = NULL;
    rc = point_inputs(env, e, p, inputs, why, n, err);
    if (!rc)
        m = run_commands(env, e, p, tmp, status, &rows, why, n, err);
    if (m) {
        json_t *r = record_head(e, p, inputs, err);
        json_object_set_new(r, "metrics", m);
        if (rows)
            json_object_set_new(r, "rows", rows);
        char *text = lpm_report_dump(r);
        json_decref(r);
        lpm_report_record_path(env->dir, e->name, p->key, path, sizeof path);
        rc = lpm_report_write_atomic(path, text, strlen(text), err);
        free(text);
        if (rc)
            snprintf(why, n, "%s", err->msg);
        *status = rc ? 1 : 0;
    } else {
        json_decref(rows);
    }
    json_decref(inputs);
    char desc[1024], text[2048];
    lpm_report_point_desc(e, p, desc, sizeof desc);
    snprintf(text, sizeof text, "%s\n%s\n", desc, why);
    marker(env->dir, "failed", e->name, p->key, *status == 1 ? text : NULL);
    marker(env->dir, "skipped", e->name, p->key, *status == 3 ? text : NULL);
    lpm_report_rmtree(tmp);
    return rc == LPM_EINPUT ? rc : LPM_OK;
}
