/* Resume (which points count as done) and merge (same bytes whatever the
 * order of the folders; refusals of mixed versions, tables, definitions and
 * differing records). */
#include <sys/stat.h>
#include <unistd.h>

#include "rtest.h"

static const char *def =
    "{\"name\": \"x\", \"command\": [\"sim\", \"--queue\", \"{q}\", \"--json\"], \"params\": {\"q\": [0, 1, 2, 3, 4, 5]},"
    " \"keep\": {\"lpc\": \"lpc\"}}\n";

static void record(const char *dir, const char *key, const char *version, const char *sum, double lpc)
{
    char path[4200], text[1024];
    snprintf(path, sizeof path, "%s/records/x", dir);
    lpm_err err;
    ck_assert_int_eq(lpm_report_mkdirs(path, &err), 0);
    snprintf(text, sizeof text,
             "{\"experiment\":\"x\",\"key\":\"%s\",\"params\":{\"q\":0},\"command\":[\"lpmpipe\",\"sim\"],"
             "\"tool_version\":\"%s\",\"inputs\":{\"t\":{\"file\":\"t.fib\",\"id\":\"00aa\",\"bytes\":5,"
             "\"checksum\":\"%s\"}},\"metrics\":{\"lpc\":%g}}\n",
             key, version, sum, lpc);
    snprintf(path, sizeof path, "%s/records/x/%s.json", dir, key);
    ck_assert_int_eq(lpm_report_write_atomic(path, text, strlen(text), &err), 0);
}

static void result_dir(const char *root, const char *name, const char *definition)
{
    char path[4200];
    lpm_err err;
    snprintf(path, sizeof path, "%s/%s/experiments", root, name);
    ck_assert_int_eq(lpm_report_mkdirs(path, &err), 0);
    snprintf(path, sizeof path, "%s/%s/experiments/x.json", root, name);
    ck_assert_int_eq(lpm_report_write_atomic(path, definition, strlen(definition), &err), 0);
}

static int merge(const char *root, const char *const *names, size_t n, const char *out,
                 const lpm_report_merge_opts *o, lpm_err *err)
{
    char paths[8][4200], outp[4200];
    const char *dirs[8];
    for (size_t i = 0; i < n; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", root, names[i]);
        dirs[i] = paths[i];
    }
    snprintf(outp, sizeof outp, "%s/%s", root, out);
    char note[512] = "";
    lpm_report_merge_opts none = { 0, 0, 0, 0 };
    return lpm_report_merge(dirs, n, outp, o ? o : &none, note, sizeof note, err);
}

/* Every file of the merged folder, concatenated with its name. */
static char *folder_bytes(const char *root, const char *out)
{
    static const char *files[] = { "results.jsonl", "experiments/x.json", "records/x/k1.json", "records/x/k2.json",
                                   "records/x/k3.json", "records/x/k4.json" };
    size_t cap = 1 << 14, len = 0;
    char *all = calloc(cap, 1);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s/%s", root, out, files[i]);
        char *b = rt_read(path);
        ck_assert_msg(b != NULL, "%s missing", path);
        len += (size_t)snprintf(all + len, cap - len, "== %s\n%s", files[i], b);
        free(b);
    }
    return all;
}

START_TEST(test_merge_any_order)
{
    char root[64];
    rt_dir(root, sizeof root);
    const char *names[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++)
        result_dir(root, names[i], def);
    char a[4200], b[4200], c[4200];
    snprintf(a, sizeof a, "%s/a", root);
    snprintf(b, sizeof b, "%s/b", root);
    snprintf(c, sizeof c, "%s/c", root);
    record(a, "k1", "v1", "s1", 0.5);
    record(a, "k2", "v1", "s1", 0.25);
    record(b, "k2", "v1", "s1", 0.25); /* the same point run twice: folded */
    record(b, "k3", "v1", "s1", 0.125);
    record(c, "k4", "v1", "s1", 1);
    static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
    char *first = NULL;
    for (int p = 0; p < 6; p++) {
        const char *order[3] = { names[perm[p][0]], names[perm[p][1]], names[perm[p][2]] };
        char out[16];
        snprintf(out, sizeof out, "out%d", p);
        lpm_err err = { "" };
        ck_assert_msg(merge(root, order, 3, out, NULL, &err) == 0, "%s", err.msg);
        char *bytes = folder_bytes(root, out);
        if (!first)
            first = bytes;
        else {
            ck_assert_str_eq(bytes, first);
            free(bytes);
        }
    }
    /* Four records, sorted by key, one line each. */
    char path[4200];
    snprintf(path, sizeof path, "%s/out0/results.jsonl", root);
    char *res = rt_read(path);
    ck_assert_ptr_nonnull(strstr(res, "\"k1\""));
    ck_assert(strstr(res, "\"k1\"") < strstr(res, "\"k2\"") && strstr(res, "\"k3\"") < strstr(res, "\"k4\""));
    size_t lines = 0;
    for (char *q = res; *q; q++)
        lines += *q == '\n';
    ck_assert_uint_eq(lines, 4);
    free(res);
    free(first);

    /* Merging into one of its own inputs gives the same bytes. */
    lpm_err err = { "" };
    const char *self[] = { "out0", "a" };
    ck_assert_msg(merge(root, self, 2, "out0", NULL, &err) == 0, "%s", err.msg);
    /* ...but not over a result folder that is not merged. */
    ck_assert_int_eq(merge(root, names, 2, "out1", NULL, &err), LPM_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not one of the folders merged"));
    rt_done(root);
}
END_TEST

START_TEST(test_merge_refusals)
{
    char root[64];
    rt_dir(root, sizeof root);
    const char *names[] = { "a", "v", "s", "d", "e" };
    result_dir(root, "a", def);
    result_dir(root, "v", def);
    result_dir(root, "s", def);
    result_dir(root, "d", def);
    result_dir(root, "e", "{\"name\": \"x\", \"command\": [\"map\"], \"keep\": {\"lpc\": \"lpc\"}}\n");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/a", root);
    record(dir, "k1", "v1", "s1", 0.5);
    snprintf(dir, sizeof dir, "%s/v", root);
    record(dir, "k2", "v2", "s1", 0.5); /* another tool version */
    snprintf(dir, sizeof dir, "%s/s", root);
    record(dir, "k3", "v1", "s2", 0.5); /* another table */
    snprintf(dir, sizeof dir, "%s/d", root);
    record(dir, "k1", "v1", "s1", 0.75); /* the same point, another result */

    lpm_err err = { "" };
    const char *av[] = { names[0], names[1] };
    ck_assert_int_eq(merge(root, av, 2, "o1", NULL, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "two tool versions") && strstr(err.msg, "--mixed-versions"), "%s", err.msg);
    lpm_report_merge_opts mv = { 1, 0, 0, 0 };
    ck_assert_msg(merge(root, av, 2, "o1", &mv, &err) == 0, "%s", err.msg);

    const char *as[] = { names[0], names[2] };
    ck_assert_int_eq(merge(root, as, 2, "o2", NULL, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "two checksums") && strstr(err.msg, "--mixed-inputs"), "%s", err.msg);
    lpm_report_merge_opts mi = { 0, 1, 0, 0 };
    ck_assert_msg(merge(root, as, 2, "o2", &mi, &err) == 0, "%s", err.msg);

    const char *ad[] = { names[0], names[3] }, *da[] = { names[3], names[0] };
    ck_assert_int_eq(merge(root, ad, 2, "o3", NULL, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "record x/k1 differs"), "%s", err.msg);
    lpm_report_merge_opts fd = { 0, 0, 0, 1 };
    ck_assert_msg(merge(root, ad, 2, "o3", &fd, &err) == 0, "%s", err.msg);
    ck_assert_msg(merge(root, da, 2, "o4", &fd, &err) == 0, "%s", err.msg);
    char p3[4200], p4[4200];
    snprintf(p3, sizeof p3, "%s/o3/results.jsonl", root);
    snprintf(p4, sizeof p4, "%s/o4/results.jsonl", root);
    char *r3 = rt_read(p3), *r4 = rt_read(p4);
    ck_assert_str_eq(r3, r4);
    ck_assert_ptr_nonnull(strstr(r3, "\"lpc\":0.5")); /* the bytes that sort first */
    free(r3);
    free(r4);

    const char *ae[] = { names[0], names[4] };
    ck_assert_int_eq(merge(root, ae, 2, "o5", NULL, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "experiment x differs"), "%s", err.msg);

    /* A record under another point's name. */
    snprintf(dir, sizeof dir, "%s/a/records/x/k1.json", root);
    char moved[4200];
    snprintf(moved, sizeof moved, "%s/a/records/x/k9.json", root);
    ck_assert_int_eq(rename(dir, moved), 0);
    const char *a1[] = { names[0] };
    ck_assert_int_eq(merge(root, a1, 1, "o6", NULL, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "not the record of x/k9"), "%s", err.msg);
    rt_done(root);
}
END_TEST

/* A folder with some records: those points count as done, a truncated or
 * misplaced record and a half-written temporary file do not. */
START_TEST(test_resume_pending)
{
    char root[64], path[4200];
    rt_dir(root, sizeof root);
    rt_write(root, "x.json", def);
    snprintf(path, sizeof path, "%s/x.json", root);
    lpm_report_exp e;
    lpm_err err = { "" };
    ck_assert_int_eq(lpm_report_exp_load(path, &e, &err), 0);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/out", root);
    lpm_report_point p[6];
    for (size_t i = 0; i < 6; i++)
        ck_assert_int_eq(lpm_report_point_at(&e, i, &p[i], &err), 0);
    record(dir, p[0].key, "v", "s", 0.5);
    record(dir, p[2].key, "v", "s", 0.5);
    record(dir, p[3].key, "v", "s", 0.5);
    snprintf(path, sizeof path, "%s/records/x/%s.json", dir, p[3].key);
    truncate(path, 20); /* a record cut short (disk full) */
    snprintf(path, sizeof path, "%s/records/x/%s.json", dir, p[4].key);
    char *other = NULL;
    record(dir, "zz", "v", "s", 0.5);
    snprintf(path, sizeof path, "%s/records/x/zz.json", dir);
    char to[4200];
    snprintf(to, sizeof to, "%s/records/x/%s.json", dir, p[4].key);
    ck_assert_int_eq(rename(path, to), 0); /* a record of another key */
    snprintf(path, sizeof path, "records/x/.%s.json.tmp123", p[5].key);
    rt_write(dir, path, "{\"experiment\":");
    ck_assert(lpm_report_record_done(dir, "x", p[0].key));
    ck_assert(!lpm_report_record_done(dir, "x", p[1].key));
    ck_assert(lpm_report_record_done(dir, "x", p[2].key));
    ck_assert(!lpm_report_record_done(dir, "x", p[3].key));
    ck_assert(!lpm_report_record_done(dir, "x", p[4].key));
    ck_assert(!lpm_report_record_done(dir, "x", p[5].key));

    /* run --emit lists exactly the points still to run. */
    lpm_report_run_opts o;
    memset(&o, 0, sizeof o);
    o.env.bin = "/bin/false";
    o.env.dir = dir;
    o.emit = "slurm";
    o.progress = -1;
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = lpm_report_run(&o, &e, 1, &err);
    fclose(stdout);
    stdout = saved;
    ck_assert_msg(rc == 0, "%s", err.msg);
    snprintf(path, sizeof path, "%s/jobs.txt", dir);
    other = rt_read(path);
    ck_assert_ptr_nonnull(other);
    ck_assert_ptr_null(strstr(other, p[0].key));
    ck_assert_ptr_null(strstr(other, p[2].key));
    for (size_t i = 1; i < 6; i += (i == 1 ? 2 : 1))
        ck_assert_msg(strstr(other, p[i].key) != NULL, "point %zu not listed", i);
    free(other);
    snprintf(path, sizeof path, "%s/run-slurm.sbatch", dir);
    other = rt_read(path);
    ck_assert_ptr_nonnull(strstr(other, "#SBATCH --array=1-4"));
    free(other);
    lpm_report_exp_free(&e);
    rt_done(root);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_merge");
    TCase *tc = tcase_create("merge");
    tcase_add_test(tc, test_merge_any_order);
    tcase_add_test(tc, test_merge_refusals);
    tcase_add_test(tc, test_resume_pending);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
