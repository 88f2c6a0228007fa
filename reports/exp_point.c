/* Points of a sweep: the grid's mixed-radix index, placeholders in command
 * templates ({queue}, {mapping.args}, {trace}, {tmp}, {out}), input
 * instances and the key that names a point's record. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A template string in pieces: literal text and {tokens}. Returns the
 * next piece's kind: 0 end, 'l' literal (into buf), 't' token (into buf),
 * -1 syntax error. */
static int piece(const char **sp, char *buf, size_t n)
{
    const char *s = *sp;
    size_t k = 0;
    if (!*s)
        return 0;
    if (*s == '{' && s[1] != '{') {
        const char *close = strchr(s, '}');
        if (!close || close == s + 1 || (size_t)(close - s) >= n)
            return -1;
        memcpy(buf, s + 1, (size_t)(close - s - 1));
        buf[close - s - 1] = 0;
        *sp = close + 1;
        return 't';
    }
    while (*s && k + 1 < n) {
        if (*s == '{' && s[1] == '{') {
            buf[k++] = '{';
            s += 2;
        } else if (*s == '}' && s[1] == '}') {
            buf[k++] = '}';
            s += 2;
        } else if (*s == '}') {
            return -1;
        } else if (*s == '{') {
            break;
        } else {
            buf[k++] = *s++;
        }
    }
    buf[k] = 0;
    *sp = s;
    return 'l';
}

static int find_input(const lpm_report_exp *e, const char *name)
{
    for (size_t i = 0; i < e->ninputs; i++)
        if (!strcmp(e->inputs[i].name, name))
            return (int)i;
    return -1;
}

static int find_axis(const lpm_report_exp *e, const char *name, size_t len)
{
    for (size_t i = 0; i < e->naxes; i++)
        if (strlen(e->axes[i].name) == len && !strncmp(e->axes[i].name, name, len))
            return (int)i;
    return -1;
}

/* A field's value may name inputs (and {tmp}, {lpmpipe}), nothing else. */
static int check_field_string(const lpm_report_exp *e, const char *t, int input, int *dep, const char **why)
{
    char buf[512];
    int kind;
    while ((kind = piece(&t, buf, sizeof buf)) > 0) {
        if (kind != 't')
            continue;
        int in = find_input(e, buf);
        if (in < 0 && strcmp(buf, "lpmpipe") && (strcmp(buf, "tmp") || input >= 0))
            return *why = "a value of this field names something other than an input, {tmp} or {lpmpipe}", -1;
        if (in >= 0)
            *dep = in;
    }
    return kind < 0 ? (*why = "a value of this field has an unbalanced '{' or '}'", -1) : 0;
}

/* Checks one token of a template element; sets *list when it may be a list. */
static int check_token(const lpm_report_exp *e, const char *tok, int input, int *dep, int *list, const char **why)
{
    *list = 0;
    if (!strcmp(tok, "tmp"))
        return input < 0 ? 0 : (*why = "{tmp} is for the point's commands, not an input's", -1);
    if (!strcmp(tok, "out"))
        return input >= 0 ? 0 : (*why = "{out} is for input commands only", -1);
    if (!strcmp(tok, "lpmpipe"))
        return 0; /* the binary running the report: for a script a command runs */
    int in = find_input(e, tok);
    if (in >= 0) {
        *dep = in;
        return 0;
    }
    const char *dot = strchr(tok, '.');
    int a = find_axis(e, tok, dot ? (size_t)(dot - tok) : strlen(tok));
    if (a < 0)
        return *why = "names no parameter, no input and not 'tmp', 'out' or 'lpmpipe'", -1;
    if (!dot)
        return 0;
    size_t i;
    json_t *v;
    json_array_foreach(e->axes[a].values, i, v) {
        json_t *f = json_is_object(v) ? json_object_get(v, dot + 1) : NULL;
        if (!f)
            return *why = "a field that some value of the parameter does not have", -1;
        if (json_is_array(f))
            *list = 1;
        size_t j;
        json_t *el;
        if (json_is_array(f)) {
            json_array_foreach(f, j, el) if (check_field_string(e, json_string_value(el), input, dep, why))
                return -1;
        } else if (json_is_string(f) && check_field_string(e, json_string_value(f), input, dep, why)) {
            return -1;
        }
    }
    return 0;
}

static int check_template(lpm_report_exp *e, const json_t *t, const char *where, int input, unsigned char *deps,
                          lpm_err *err)
{
    size_t i;
    json_t *el;
    int has_out = 0;
    json_array_foreach(t, i, el) {
        const char *s = json_string_value(el);
        char buf[512];
        int kind, pieces = 0, lists = 0;
        while ((kind = piece(&s, buf, sizeof buf)) > 0) {
            pieces++;
            if (kind != 't')
                continue;
            const char *why = NULL;
            int dep = -1, list;
            if (check_token(e, buf, input, &dep, &list, &why))
                return lpm_err_set(err, LPM_EINPUT, "%s: %s[%zu]: {%s}: %s", e->file, where, i, buf, why);
            if (dep >= 0)
                deps[dep] = 1;
            has_out |= !strcmp(buf, "out");
            lists += list;
        }
        if (kind < 0)
            return lpm_err_set(err, LPM_EINPUT, "%s: %s[%zu]: unbalanced '{' or '}' (write {{ and }} for braces)",
                               e->file, where, i);
        if (lists && pieces > 1)
            return lpm_err_set(err, LPM_EINPUT, "%s: %s[%zu]: a field that holds a list must stand alone",
                               e->file, where, i);
    }
    if (input >= 0 && !has_out)
        return lpm_err_set(err, LPM_EINPUT, "%s: %s: the command must write {out}", e->file, where);
    return LPM_OK;
}

static int input_cycle(const unsigned char *deps, size_t n, size_t at, unsigned char *state)
{
    if (state[at] == 1)
        return 1;
    if (state[at] == 2)
        return 0;
    state[at] = 1;
    for (size_t j = 0; j < n; j++)
        if (deps[at * n + j] && input_cycle(deps, n, j, state))
            return 1;
    state[at] = 2;
    return 0;
}

int lpm_report_check_placeholders(lpm_report_exp *e, lpm_err *err)
{
    size_t n = e->ninputs;
    unsigned char *deps = calloc(n * n + n + 1, 1), *state = calloc(n + 1, 1);
    unsigned char *top = deps + n * n;
    int rc = check_template(e, e->command, "command", -1, top, err);
    size_t i;
    json_t *c;
    if (!rc && e->pre)
        json_array_foreach(e->pre, i, c) {
            char where[32];
            snprintf(where, sizeof where, "pre[%zu]", i);
            if ((rc = check_template(e, c, where, -1, top, err)))
                break;
        }
    for (i = 0; !rc && i < n; i++) {
        char where[120];
        snprintf(where, sizeof where, "inputs.%s.command", e->inputs[i].name);
        if (e->inputs[i].command)
            rc = check_template(e, e->inputs[i].command, where, (int)i, deps + i * n, err);
    }
    for (i = 0; !rc && i < n; i++)
        if (input_cycle(deps, n, i, state))
            rc = lpm_err_set(err, LPM_EINPUT, "%s: inputs.%s: its command needs itself (through other inputs)",
                             e->file, e->inputs[i].name);
    free(deps);
    free(state);
    return rc;
}

int lpm_report_point_at(const lpm_report_exp *e, size_t index, lpm_report_point *p, lpm_err *err)
{
    if (index >= e->npoints)
        return lpm_err_set(err, LPM_EINPUT, "%s: point %zu: the sweep has %zu points", e->name, index, e->npoints);
    memset(p, 0, sizeof *p);
    p->index = index;
    size_t rest = index;
    for (size_t a = e->naxes; a-- > 0;) {
        size_t n = json_array_size(e->axes[a].values);
        p->choice[a] = rest % n;
        rest /= n;
    }
    lpm_strv argv = { 0 };
    int rc = lpm_report_argv(e, p, e->command, -1, NULL, &argv, err);
    uint64_t h = lpm_fnv1a64(e->name, strlen(e->name) + 1, LPM_FNV_INIT);
    for (size_t i = 0; i < argv.n; i++)
        h = lpm_fnv1a64(argv.v[i], strlen(argv.v[i]) + 1, h);
    lpm_strv_free(&argv);
    size_t i;
    json_t *c;
    if (!rc && e->pre)
        json_array_foreach(e->pre, i, c) {
            if ((rc = lpm_report_argv(e, p, c, -1, NULL, &argv, err)))
                break;
            h = lpm_fnv1a64("\n", 1, h);
            for (size_t j = 0; j < argv.n; j++)
                h = lpm_fnv1a64(argv.v[j], strlen(argv.v[j]) + 1, h);
            lpm_strv_free(&argv);
        }
    for (size_t a = 0; a < e->naxes; a++) {
        char *s = lpm_report_dump(lpm_report_label(e, p, a));
        h = lpm_fnv1a64(e->axes[a].name, strlen(e->axes[a].name) + 1, h);
        h = lpm_fnv1a64(s, strlen(s), h);
        free(s);
    }
    snprintf(p->key, sizeof p->key, "%016llx", (unsigned long long)h);
    return rc;
}

json_t *lpm_report_label(const lpm_report_exp *e, const lpm_report_point *p, size_t a)
{
    json_t *v = json_array_get(e->axes[a].values, p->choice[a]);
    return json_is_object(v) ? json_object_get(v, "label") : v;
}

static void scalar_text(const json_t *v, char *buf, size_t n)
{
    lpm_report_value_text(v, buf, n, 15);
}

void lpm_report_point_desc(const lpm_report_exp *e, const lpm_report_point *p, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t a = 0; a < e->naxes && k < n; a++) {
        char v[256];
        scalar_text(lpm_report_label(e, p, a), v, sizeof v);
        k += (size_t)snprintf(buf + k, n - k, "%s%s=%s", a ? " " : "", e->axes[a].name, v);
    }
}

int lpm_report_input_id(const lpm_report_exp *e, const lpm_report_point *p, size_t i, char id[17], char *logical,
                        size_t n, lpm_err *err)
{
    const lpm_report_input *in = &e->inputs[i];
    uint64_t h;
    if (in->data) {
        h = lpm_fnv1a64("data:", 5, LPM_FNV_INIT);
        h = lpm_fnv1a64(in->data, strlen(in->data), h);
    } else {
        lpm_strv argv = { 0 };
        int rc = lpm_report_argv(e, p, in->command, (int)i, NULL, &argv, err);
        if (rc)
            return rc;
        h = lpm_fnv1a64(in->file, strlen(in->file) + 1, LPM_FNV_INIT);
        for (size_t j = 0; j < argv.n; j++)
            h = lpm_fnv1a64(argv.v[j], strlen(argv.v[j]) + 1, h);
        lpm_strv_free(&argv);
    }
    snprintf(id, 17, "%016llx", (unsigned long long)h);
    if (logical) {
        if (in->data)
            snprintf(logical, n, "$LPMPIPE_DATA/%s", in->data);
        else
            snprintf(logical, n, "inputs/%.12s-%s", id, in->file);
    }
    return LPM_OK;
}

static int expand(const lpm_report_exp *e, const lpm_report_point *p, const char *s, int input,
                  const lpm_report_ctx *ctx, char *out, size_t n, lpm_err *err);

/* The text (or the list) one token stands for at point p. */
static int token_value(const lpm_report_exp *e, const lpm_report_point *p, const char *tok, int input,
                       const lpm_report_ctx *ctx, char *buf, size_t n, json_t **list, lpm_err *err)
{
    *list = NULL;
    if (!strcmp(tok, "tmp")) {
        snprintf(buf, n, "%s", ctx && ctx->tmp ? ctx->tmp : "$TMP");
        return LPM_OK;
    }
    if (!strcmp(tok, "lpmpipe")) {
        snprintf(buf, n, "%s", ctx && ctx->bin ? ctx->bin : "lpmpipe");
        return LPM_OK;
    }
    if (!strcmp(tok, "out")) {
        if (ctx && ctx->out)
            snprintf(buf, n, "%s", ctx->out);
        else
            snprintf(buf, n, "{out}");
        return LPM_OK;
    }
    int in = find_input(e, tok);
    if (in >= 0) {
        char id[17], logical[1024];
        int rc = lpm_report_input_id(e, p, (size_t)in, id, logical, sizeof logical, err);
        if (rc)
            return rc;
        if (!ctx)
            snprintf(buf, n, "%s", logical);
        else if (e->inputs[in].data)
            snprintf(buf, n, "%s/%s", ctx->data_dir ? ctx->data_dir : ".", e->inputs[in].data);
        else
            snprintf(buf, n, "%s/%s", ctx->dir, logical);
        return LPM_OK;
    }
    (void)input;
    const char *dot = strchr(tok, '.');
    int a = find_axis(e, tok, dot ? (size_t)(dot - tok) : strlen(tok));
    json_t *v = json_array_get(e->axes[a].values, p->choice[a]);
    json_t *f = dot ? json_object_get(v, dot + 1) : json_is_object(v) ? json_object_get(v, "label") : v;
    if (json_is_array(f))
        *list = f;
    else if (dot && json_is_string(f))
        return expand(e, p, json_string_value(f), input, ctx, buf, n, err);
    else
        scalar_text(f, buf, n);
    return LPM_OK;
}

/* A string whose placeholders are inputs or {tmp} (a field's value). */
static int expand(const lpm_report_exp *e, const lpm_report_point *p, const char *s, int input,
                  const lpm_report_ctx *ctx, char *out, size_t n, lpm_err *err)
{
    char buf[2048], val[2048];
    size_t k = 0;
    int kind;
    out[0] = 0;
    while ((kind = piece(&s, buf, sizeof buf)) > 0) {
        json_t *list = NULL;
        if (kind == 't') {
            int rc = token_value(e, p, buf, input, ctx, val, sizeof val, &list, err);
            if (rc)
                return rc;
        }
        k += (size_t)snprintf(out + k, k < n ? n - k : 0, "%s", kind == 't' ? val : buf);
    }
    if (k >= n)
        return lpm_err_set(err, LPM_EINPUT, "%s: a value is longer than %zu bytes", e->file, n);
    return LPM_OK;
}

int lpm_report_argv(const lpm_report_exp *e, const lpm_report_point *p, const json_t *tmpl, int input,
                    const lpm_report_ctx *ctx, lpm_strv *out, lpm_err *err)
{
    size_t i;
    json_t *el;
    json_array_foreach(tmpl, i, el) {
        const char *s = json_string_value(el);
        char text[4096] = "", buf[2048];
        size_t k = 0;
        int kind;
        json_t *list = NULL;
        while ((kind = piece(&s, buf, sizeof buf)) > 0) {
            if (kind == 't') {
                char val[2048];
                int rc = token_value(e, p, buf, input, ctx, val, sizeof val, &list, err);
                if (rc)
                    return rc;
                if (list)
                    break;
                k += (size_t)snprintf(text + k, sizeof text - k, "%s", val);
            } else {
                k += (size_t)snprintf(text + k, sizeof text - k, "%s", buf);
            }
            if (k >= sizeof text)
                return lpm_err_set(err, LPM_EINPUT, "%s: argument %zu is longer than %zu bytes", e->file, i,
                                   sizeof text);
        }
        if (list) {
            size_t j;
            json_t *s2;
            json_array_foreach(list, j, s2) {
                char val[4096];
                int rc = expand(e, p, json_string_value(s2), input, ctx, val, sizeof val, err);
                if (rc)
                    return rc;
                lpm_strv_push(out, val);
            }
        } else {
            lpm_strv_push(out, text);
        }
    }
    return LPM_OK;
}

static void mark_template(const lpm_report_exp *e, const lpm_report_point *p, const json_t *t, int used[]);

/* Marks the inputs string s names at point p (every value when p is NULL). */
static void mark_string(const lpm_report_exp *e, const lpm_report_point *p, const char *s, int used[])
{
    char buf[512];
    int kind;
    while (s && (kind = piece(&s, buf, sizeof buf)) > 0) {
        if (kind != 't')
            continue;
        int in = find_input(e, buf);
        if (in >= 0 && !used[in]) {
            used[in] = 1;
            if (e->inputs[in].command)
                mark_template(e, p, e->inputs[in].command, used);
        }
        const char *dot = strchr(buf, '.');
        int a = in < 0 && dot ? find_axis(e, buf, (size_t)(dot - buf)) : -1;
        if (a < 0)
            continue;
        size_t i;
        json_t *v;
        json_array_foreach(e->axes[a].values, i, v) {
            if (p && i != p->choice[a])
                continue;
            json_t *f = json_object_get(v, dot + 1);
            if (json_is_string(f))
                mark_string(e, p, json_string_value(f), used);
            else if (json_is_array(f))
                mark_template(e, p, f, used);
        }
    }
}

static void mark_template(const lpm_report_exp *e, const lpm_report_point *p, const json_t *t, int used[])
{
    size_t i;
    json_t *el;
    json_array_foreach(t, i, el) mark_string(e, p, json_string_value(el), used);
}

void lpm_report_inputs_used(const lpm_report_exp *e, const lpm_report_point *p, int used[])
{
    memset(used, 0, (e->ninputs + 1) * sizeof *used);
    mark_template(e, p, e->command, used);
    size_t i;
    json_t *c;
    if (e->pre)
        json_array_foreach(e->pre, i, c) mark_template(e, p, c, used);
}
