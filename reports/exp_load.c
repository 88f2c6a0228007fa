/* Reading an experiment definition (docs/cli-report.md) with jansson and
 * checking every key, so that a bad definition stops before any point runs
 * with "file: key: reason". */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(lpm_err *err, const char *file, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(lpm_err *err, const char *file, const char *key, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return lpm_err_set(err, LPM_EINPUT, "%s: %s: %s", file, key, why);
}

static int is_ident(const char *s)
{
    if (!s || !*s || strlen(s) > 64 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int is_name(const char *s)
{
    if (!s || !*s || strlen(s) > 64 || s[0] == '.' || s[0] == '-')
        return 0;
    for (; *s; s++)
        if (!(*s == '_' || *s == '-' || *s == '.' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int str_array(const json_t *a, int allow_empty)
{
    if (!json_is_array(a) || (!allow_empty && json_array_size(a) == 0))
        return 0;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) if (!json_is_string(v)) return 0;
    return 1;
}

static const char *opt_str(lpm_report_exp *e, json_t *o, const char *key, const char *where, lpm_err *err, int *rc)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return NULL;
    if (!json_is_string(v)) {
        char k[160];
        snprintf(k, sizeof k, "%s%s%s", where, *where ? "." : "", key);
        *rc = bad(err, e->file, k, "must be a string");
        return NULL;
    }
    return json_string_value(v);
}

static int check_keys(lpm_report_exp *e, json_t *o, const char *where, const char *const *known, lpm_err *err)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        size_t i;
        for (i = 0; known[i] && strcmp(known[i], k); i++)
            ;
        if (!known[i]) {
            char key[200], list[400] = "";
            snprintf(key, sizeof key, "%s%s%s", where, *where ? "." : "", k);
            for (i = 0; known[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", known[i]);
            return bad(err, e->file, key, "unknown key (known: %s)", list);
        }
    }
    return LPM_OK;
}

/* One axis of "params": scalars, or objects with a "label". */
static int load_axis(lpm_report_exp *e, const char *name, json_t *vals, lpm_err *err)
{
    char key[120];
    snprintf(key, sizeof key, "params.%s", name);
    if (!is_ident(name))
        return bad(err, e->file, key, "a parameter name is letters, digits and '_'");
    if (!json_is_array(vals) || json_array_size(vals) == 0)
        return bad(err, e->file, key, "must be a non-empty list of values");
    size_t i;
    json_t *v;
    int objects = json_is_object(json_array_get(vals, 0));
    json_array_foreach(vals, i, v) {
        snprintf(key, sizeof key, "params.%s[%zu]", name, i);
        if (json_is_object(v) != objects)
            return bad(err, e->file, key, "mixes objects and plain values");
        json_t *label = objects ? json_object_get(v, "label") : v;
        if (!label || !(json_is_string(label) || json_is_number(label)))
            return bad(err, e->file, key, objects ? "an object value needs a \"label\" (string or number)"
                                                  : "a value is a number, a string or an object");
        const char *f;
        json_t *fv;
        if (objects)
            json_object_foreach(v, f, fv) if (!json_is_string(fv) && !json_is_number(fv) && !str_array(fv, 1))
                return bad(err, e->file, key, "field '%s': a string, a number or a list of strings", f);
        for (size_t j = 0; j < i; j++) {
            json_t *w = json_array_get(vals, j);
            if (json_equal(label, objects ? json_object_get(w, "label") : w))
                return bad(err, e->file, key, "the same label as value %zu", j);
        }
    }
    if (e->naxes == LPM_REPORT_MAX_AXES)
        return bad(err, e->file, "params", "more than %d parameters", LPM_REPORT_MAX_AXES);
    e->axes[e->naxes].name = name;
    e->axes[e->naxes].values = vals;
    e->naxes++;
    return LPM_OK;
}

static int load_params(lpm_report_exp *e, lpm_err *err)
{
    json_t *p = json_object_get(e->root, "params");
    e->npoints = 1;
    if (!p)
        return LPM_OK;
    if (!json_is_object(p))
        return bad(err, e->file, "params", "must be an object: name -> list of values");
    const char *k;
    json_t *v;
    json_object_foreach(p, k, v) {
        int rc = load_axis(e, k, v, err);
        if (rc)
            return rc;
        e->npoints *= json_array_size(v);
        if (e->npoints > LPM_REPORT_MAX_POINTS)
            return bad(err, e->file, "params", "more than %d points", LPM_REPORT_MAX_POINTS);
    }
    return LPM_OK;
}

static int name_taken(const lpm_report_exp *e, const char *name)
{
    char kind;
    if (!strcmp(name, "tmp") || !strcmp(name, "out"))
        return 1;
    for (size_t i = 0; i < e->ninputs; i++)
        if (!strcmp(e->inputs[i].name, name))
            return 1;
    return lpm_report_column(e, name, &kind) >= 0;
}

static int load_inputs(lpm_report_exp *e, lpm_err *err)
{
    json_t *p = json_object_get(e->root, "inputs");
    if (!p)
        return LPM_OK;
    if (!json_is_object(p))
        return bad(err, e->file, "inputs", "must be an object: name -> {data} or {file, command}");
    e->inputs = calloc(json_object_size(p) + 1, sizeof *e->inputs);
    const char *k;
    json_t *v;
    json_object_foreach(p, k, v) {
        char key[120];
        snprintf(key, sizeof key, "inputs.%s", k);
        static const char *const known[] = { "data", "file", "command", NULL };
        if (!is_ident(k) || name_taken(e, k))
            return bad(err, e->file, key, "an input name is letters, digits and '_', unlike every parameter and 'tmp', 'out'");
        if (!json_is_object(v))
            return bad(err, e->file, key, "must be an object");
        int rc = check_keys(e, v, key, known, err);
        if (rc)
            return rc;
        lpm_report_input *in = &e->inputs[e->ninputs];
        in->name = k;
        in->data = opt_str(e, v, "data", key, err, &rc);
        in->file = opt_str(e, v, "file", key, err, &rc);
        in->command = json_object_get(v, "command");
        if (rc)
            return rc;
        if (in->data && (in->data[0] == '/' || strstr(in->data, "..") || in->command))
            return bad(err, e->file, key, "\"data\" names a file under the data folder (no '/' first, no '..', no command)");
        if (!in->data && (!in->file || !is_name(in->file) || !str_array(in->command, 0)))
            return bad(err, e->file, key, "needs \"data\", or \"file\" (a plain file name) and \"command\" (a list of strings)");
        e->ninputs++;
    }
    return LPM_OK;
}

static int load_keep_obj(lpm_report_exp *e, json_t *o, const char *where, lpm_report_keep **out, size_t *n,
                         lpm_err *err)
{
    if (!json_is_object(o))
        return bad(err, e->file, where, "must be an object: column name -> JSON path in the output");
    *out = calloc(json_object_size(o) + 1, sizeof **out);
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        char key[160];
        snprintf(key, sizeof key, "%s.%s", where, k);
        if (!is_ident(k) || name_taken(e, k))
            return bad(err, e->file, key, "a column name is letters, digits and '_', unlike every parameter, input and other column");
        const char *path = json_is_string(v) ? json_string_value(v) : NULL;
        int source = -1, optional = path && path[0] == '?';
        path += optional;
        if (path && !strncmp(path, "pre", 3) && path[3] >= '0' && path[3] <= '9') {
            /* "preN:path" (or "?preN:path"): the output of pre command N */
            char *end;
            const char *num = path + 3;
            long pn = strtol(num, &end, 10);
            json_t *pre = json_object_get(e->root, "pre");
            if (end == num || *end != ':' || strcmp(where, "keep"))
                return bad(err, e->file, key, "\"preN:path\" (a pre command's output) in \"keep\" only, N a number");
            if (pn < 0 || !json_is_array(pre) || (size_t)pn >= json_array_size(pre))
                return bad(err, e->file, key, "pre%ld: there %s %zu pre command%s", pn,
                           json_array_size(pre) == 1 ? "is" : "are", json_array_size(pre),
                           json_array_size(pre) == 1 ? "" : "s");
            source = (int)pn;
            path = end + 1;
        }
        if (!path || !lpm_jpath_check(path))
            return bad(err, e->file, key, "must be a path like \"latency.p99\", \"per_stage\", \"engines[name=ref].build_s\" or \"pre0:words\"");
        (*out)[*n].name = k;
        (*out)[*n].path = path;
        (*out)[*n].optional = optional;
        (*out)[*n].source = source;
        (*n)++;
    }
    return LPM_OK;
}

static int load_keep(lpm_report_exp *e, lpm_err *err)
{
    json_t *k = json_object_get(e->root, "keep");
    int rc;
    if (k && (rc = load_keep_obj(e, k, "keep", &e->keep, &e->nkeep, err)))
        return rc;
    json_t *r = json_object_get(e->root, "rows");
    if (r) {
        static const char *const known[] = { "path", "keep", NULL };
        if (!json_is_object(r))
            return bad(err, e->file, "rows", "must be an object {path, keep}");
        if ((rc = check_keys(e, r, "rows", known, err)))
            return rc;
        json_t *p = json_object_get(r, "path");
        if (!json_is_string(p) || !lpm_jpath_check(json_string_value(p)))
            return bad(err, e->file, "rows.path", "must be a path to a list in the output");
        e->rows_path = json_string_value(p);
        if ((rc = load_keep_obj(e, json_object_get(r, "keep"), "rows.keep", &e->row_keep, &e->nrow_keep, err)))
            return rc;
    }
    if (e->nkeep + e->nrow_keep == 0)
        return bad(err, e->file, "keep", "nothing is kept: name the output fields to keep");
    return LPM_OK;
}

static int load_misc(lpm_report_exp *e, lpm_err *err)
{
    json_t *s = json_object_get(e->root, "skip_exit");
    if (s) {
        const char *k;
        json_t *v;
        if (!json_is_object(s))
            return bad(err, e->file, "skip_exit", "must be an object: exit status -> reason");
        json_object_foreach(s, k, v) {
            char key[80], *end;
            long code = strtol(k, &end, 10);
            snprintf(key, sizeof key, "skip_exit.%s", k);
            json_t *m = json_object_get(v, "stderr"), *r = json_object_get(v, "reason");
            int obj = json_is_object(v) && json_is_string(m) && json_is_string(r) && json_object_size(v) == 2;
            if (*end || code < 1 || code > 255 || !(json_is_string(v) || obj))
                return bad(err, e->file, key, "an exit status 1..255 -> a reason, or {\"stderr\": TEXT, \"reason\": R} "
                                              "(skipped only when standard error holds TEXT)");
        }
        e->skip_exit = s;
    }
    json_t *rx = json_object_get(e->root, "result_exit");
    if (rx) {
        size_t i;
        json_t *v;
        if (!json_is_array(rx))
            return bad(err, e->file, "result_exit", "must be a list of exit statuses 1..255");
        json_array_foreach(rx, i, v) if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 255)
            return bad(err, e->file, "result_exit", "must be a list of exit statuses 1..255");
        e->result_exit = rx;
    }
    json_t *t = json_object_get(e->root, "timeout");
    if (t && (!json_is_number(t) || json_number_value(t) <= 0 || json_number_value(t) > 864000))
        return bad(err, e->file, "timeout", "seconds, a number in 0..864000");
    e->timeout_s = t ? json_number_value(t) : 0;
    json_t *pre = json_object_get(e->root, "pre");
    if (pre) {
        size_t i;
        json_t *c;
        if (!json_is_array(pre))
            return bad(err, e->file, "pre", "must be a list of commands (lists of strings)");
        json_array_foreach(pre, i, c) if (!str_array(c, 0))
            return bad(err, e->file, "pre", "command %zu must be a non-empty list of strings", i);
        e->pre = pre;
    }
    return LPM_OK;
}

int lpm_report_check_placeholders(lpm_report_exp *e, lpm_err *err);
int lpm_report_load_figures(lpm_report_exp *e, lpm_err *err);

int lpm_report_exp_load(const char *path, lpm_report_exp *e, lpm_err *err)
{
    memset(e, 0, sizeof *e);
    e->file = strdup(path);
    json_error_t je;
    e->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!e->root)
        return je.line > 0 ? lpm_err_at(err, LPM_EINPUT, path, (unsigned long)je.line, "%s", je.text)
                           : lpm_err_set(err, LPM_EINPUT, "%s: %s", path, je.text);
    if (!json_is_object(e->root))
        return bad(err, path, "(top)", "a definition is one JSON object");
    static const char *const known[] = { "name", "title", "about", "absent", "command", "pre", "params", "inputs",
                                         "keep", "rows", "figures", "skip_exit", "result_exit", "timeout", NULL };
    int rc = check_keys(e, e->root, "", known, err);
    if (rc)
        return rc;
    e->name = opt_str(e, e->root, "name", "", err, &rc);
    e->title = opt_str(e, e->root, "title", "", err, &rc);
    e->about = opt_str(e, e->root, "about", "", err, &rc);
    e->absent = opt_str(e, e->root, "absent", "", err, &rc);
    if (rc)
        return rc;
    if (!e->name || !is_name(e->name))
        return bad(err, path, "name", "required: letters, digits, '.', '_', '-' (it names the result folder)");
    if (!e->title)
        e->title = e->name;
    e->command = json_object_get(e->root, "command");
    if (!str_array(e->command, 0))
        return bad(err, path, "command", "required: the lpmpipe command as a list of strings (no 'lpmpipe' first)");
    if (!strcmp(json_string_value(json_array_get(e->command, 0)), "lpmpipe"))
        return bad(err, path, "command[0]", "leave out 'lpmpipe': the list starts with the subcommand");
    if ((rc = load_params(e, err)) || (rc = load_inputs(e, err)) || (rc = load_keep(e, err)) ||
        (rc = load_misc(e, err)) || (rc = lpm_report_check_placeholders(e, err)) ||
        (rc = lpm_report_load_figures(e, err)))
        return rc;
    return LPM_OK;
}

void lpm_report_exp_free(lpm_report_exp *e)
{
    free(e->file);
    free(e->inputs);
    free(e->keep);
    free(e->row_keep);
    free(e->figs);
    json_decref(e->root);
    memset(e, 0, sizeof *e);
}
