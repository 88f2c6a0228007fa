#include "fib.h"
#include "input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lpm_fib_opts_default(lpm_fib_opts *o)
{
    memset(o, 0, sizeof *o);
    o->peer_as = -1;
}

void lpm_fib_init(lpm_fib *f)
{
    memset(f, 0, sizeof *f);
    lpm_nhtab_init(&f->nh);
}

void lpm_fib_free(lpm_fib *f)
{
    free(f->routes);
    lpm_nhtab_free(&f->nh);
    memset(f, 0, sizeof *f);
}

int lpm_fib_add(lpm_fib *f, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    if (f->family == 0)
        f->family = p->family;
    else if (f->family != p->family)
        return lpm_err_set(err, LPM_EINPUT, "mixed address families: an IPv%d prefix in an IPv%d table (use --family to keep one)",
                           p->family, f->family);
    if (f->n == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 1024;
        lpm_route *r = realloc(f->routes, nc * sizeof *r);
        if (!r)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        f->routes = r;
        f->cap = nc;
    }
    f->routes[f->n].pfx = *p;
    f->routes[f->n].nh = nh;
    f->n++;
    return LPM_OK;
}

int lpm_fib_add_tok(lpm_fib *f, const lpm_prefix *p, const char *nh, size_t nhlen, lpm_err *err)
{
    uint32_t i = lpm_nhtab_intern(&f->nh, nh, nhlen);
    if (i == LPM_NH_NONE)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    return lpm_fib_add(f, p, i, err);
}

/* Stable order by (addr, len), keeping input position as the last key so
 * "last one wins" survives the sort. */
typedef struct {
    lpm_route r;
    size_t pos;
} keyed_route;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed_route *x = a, *y = b;
    int c = lpm_addr_cmp(&x->r.pfx.addr, &y->r.pfx.addr);
    if (c)
        return c;
    if (x->r.pfx.len != y->r.pfx.len)
        return x->r.pfx.len < y->r.pfx.len ? -1 : 1;
    return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

/* Strictly increasing (addr, len): nothing to sort, no duplicates. */
static int already_sorted(const lpm_fib *f)
{
    for (size_t i = 1; i < f->n; i++) {
        const lpm_prefix *a = &f->routes[i - 1].pfx, *b = &f->routes[i].pfx;
        int c = lpm_addr_cmp(&a->addr, &b->addr);
        if (c > 0 || (c == 0 && a->len >= b->len))
            return 0;
    }
    return 1;
}

int lpm_fib_finish(lpm_fib *f, lpm_err *err)
{
    if (f->n == 0 || already_sorted(f)) /* most real tables come sorted */
        return LPM_OK;
    keyed_route *k = malloc(f->n * sizeof *k);
    if (!k)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < f->n; i++) {
        k[i].r = f->routes[i];
        k[i].pos = i;
    }
    qsort(k, f->n, sizeof *k, cmp_keyed);
    size_t out = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (i + 1 < f->n && k[i + 1].r.pfx.len == k[i].r.pfx.len &&
            lpm_addr_eq(&k[i + 1].r.pfx.addr, &k[i].r.pfx.addr)) {
            f->duplicates++;
            continue;
        }
        f->routes[out++] = k[i].r;
    }
    f->n = out;
    free(k);
    return LPM_OK;
}

int lpm_fib_write_plain(const lpm_fib *f, const char *path, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_output_open(&fp, path, "w", err);
    if (rc)
        return rc;
    char buf[LPM_ADDR_STRLEN];
    for (size_t i = 0; i < f->n; i++) {
        lpm_prefix_format(&f->routes[i].pfx, buf, sizeof buf);
        fprintf(fp, "%s %s\n", buf, lpm_nhtab_name(&f->nh, f->routes[i].nh));
    }
    int bad = ferror(fp);
    if (fp != stdout)
        bad |= fclose(fp);
    else
        bad |= fflush(fp);
    return bad ? lpm_err_set(err, LPM_EFAIL, "%s: write error", path) : LPM_OK;
}
