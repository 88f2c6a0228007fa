/* The one-line texts a rendered page shows for a sweep (its command
 * template, its parameters), below render.c and render_doc.c. */
#include "render.h"

#include <stdio.h>
#include <string.h>

void lpm_report_template_text(const json_t *cmd, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "lpmpipe");
    size_t i;
    json_t *el;
    json_array_foreach(cmd, i, el) {
        const char *s = json_string_value(el);
        int q = strpbrk(s, " \t'\"$") != NULL || !*s;
        if (k < n)
            k += (size_t)snprintf(buf + k, n - k, q ? " '%s'" : " %s", s);
    }
}

void lpm_report_params_text(const lpm_report_exp *e, size_t a, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%s: ", e->axes[a].name);
    size_t i;
    json_t *v;
    json_array_foreach(e->axes[a].values, i, v) {
        char t[256];
        lpm_report_value_text(json_is_object(v) ? json_object_get(v, "label") : v, t, sizeof t, 15);
        if (k < n)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", t);
    }
}
