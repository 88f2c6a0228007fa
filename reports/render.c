/* report render DIR -o OUT: every sweep defined in DIR/experiments, its
 * records, its figures drawn; then summary.md and index.html. A sweep with
 * no record gets a panel that says why (its "absent" text, the table it
 * needs, the reason its points were skipped or failed), never a figure. */
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Failed and skipped points of the current grid, and the first reason. */
static void markers(const char *dir, lpm_rexp *x, const char *kind, size_t *count, char *reason, size_t n)
{
    char path[4200];
    size_t nf;
    snprintf(path, sizeof path, "%s/%s/%s", dir, kind, x->e.name);
    char **f = lpm_report_list(path, ".txt", &nf);
    *count = 0;
    reason[0] = 0;
    for (size_t i = 0; i < nf; i++) {
        char rec[4400], *buf;
        size_t len;
        f[i][strlen(f[i]) - 4] = 0;
        lpm_report_record_path(dir, x->e.name, f[i], rec, sizeof rec);
        if (access(rec, F_OK) == 0 || !json_object_get(x->keys, f[i]))
            continue; /* recorded since (on another run), or a point no longer in the grid */
        (*count)++;
        snprintf(rec, sizeof rec, "%s/%s.txt", path, f[i]);
        if (!reason[0] && lpm_report_read_file(rec, &buf, &len) == 0) {
            const char *second = strchr(buf, '\n');
            snprintf(reason, n, "%s", second ? second + 1 : buf);
            reason[strcspn(reason, "\n")] = 0;
            free(buf);
        }
    }
    lpm_report_list_free(f, nf);
}

static const char *missing_table(const lpm_report_exp *e)
{
    int used[65];
    if (e->ninputs > 64)
        return NULL;
    lpm_report_inputs_used(e, NULL, used);
    for (size_t i = 0; i < e->ninputs; i++)
        if (used[i] && e->inputs[i].data)
            return e->inputs[i].data;
    return NULL;
}

static void tally(lpm_rdoc *doc, const lpm_rexp *x)
{
    size_t i;
    json_t *r;
    json_array_foreach(x->s.records, i, r) {
        const char *v = json_string_value(json_object_get(r, "tool_version"));
        json_t *c = json_object_get(doc->versions, v ? v : "(none)");
        json_object_set_new(doc->versions, v ? v : "(none)", json_integer(c ? json_integer_value(c) + 1 : 1));
        const char *name;
        json_t *in;
        json_object_foreach(json_object_get(r, "inputs"), name, in) {
            char key[600];
            snprintf(key, sizeof key, "%s %s", json_string_value(json_object_get(in, "file")),
                     json_string_value(json_object_get(in, "checksum")));
            json_object_set_new(doc->inputs, key, json_integer((json_int_t)json_integer_value(json_object_get(in, "bytes"))));
        }
    }
}

static int render_exp(lpm_rdoc *doc, lpm_rexp *x, char *note, size_t nnote, lpm_err *err)
{
    int rc = lpm_report_sweep_load(doc->dir, &x->e, &x->s, err);
    x->keys = json_object();
    for (size_t i = 0; !rc && i < x->e.npoints; i++) {
        lpm_report_point p;
        rc = lpm_report_point_at(&x->e, i, &p, err);
        json_object_set_new(x->keys, p.key, json_true());
    }
    if (rc)
        return rc;
    markers(doc->dir, x, "failed", &x->failed, x->fail_reason, sizeof x->fail_reason);
    markers(doc->dir, x, "skipped", &x->skipped, x->skip_reason, sizeof x->skip_reason);
    if (!x->s.done)
        x->missing_data = missing_table(&x->e);
    tally(doc, x);
    x->figs = calloc(x->e.nfigs + 1, sizeof *x->figs);
    for (size_t i = 0; i < x->e.nfigs && !rc; i++) {
        lpm_rfig *r = &x->figs[i];
        r->f = &x->e.figs[i];
        snprintf(r->base, sizeof r->base, "%s.%s", x->e.name, r->f->name);
        lpm_report_figdata_build(&x->e, &x->s, r->f, &r->d);
        if (r->d.ncols && json_array_size(r->d.xs))
            rc = lpm_report_plot(doc->out, x, r, note, nnote, err);
    }
    return rc;
}

int lpm_report_render(const char *dir, const char *out, char *note, size_t nnote, lpm_err *err)
{
    char path[4200];
    size_t n;
    snprintf(path, sizeof path, "%s/experiments", dir);
    char **files = lpm_report_list(path, ".json", &n);
    if (!n)
        return lpm_err_set(err, LPM_EINPUT, "%s: no experiments/*.json: not a result folder of report run", dir);
    int rc = lpm_report_mkdirs(out, err);
    lpm_rdoc doc = { dir, out, calloc(n, sizeof(lpm_rexp)), 0, json_object(), json_object() };
    for (size_t i = 0; i < n && !rc; i++) {
        snprintf(path, sizeof path, "%s/experiments/%s", dir, files[i]);
        rc = lpm_report_exp_load(path, &doc.x[i].e, err);
        doc.n = i + 1;
        if (!rc)
            rc = render_exp(&doc, &doc.x[i], note, nnote, err);
    }
    if (!rc)
        rc = lpm_report_write_md(&doc, err);
    if (!rc)
        rc = lpm_report_write_html(&doc, err);
    for (size_t i = 0; i < doc.n; i++) {
        for (size_t f = 0; doc.x[i].figs && f < doc.x[i].e.nfigs; f++)
            lpm_report_figdata_free(&doc.x[i].figs[f].d);
        free(doc.x[i].figs);
        json_decref(doc.x[i].keys);
        lpm_report_sweep_free(&doc.x[i].s);
        lpm_report_exp_free(&doc.x[i].e);
    }
    free(doc.x);
    json_decref(doc.versions);
    json_decref(doc.inputs);
    lpm_report_list_free(files, n);
    return rc;
}
