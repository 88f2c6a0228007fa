/* Experiment definitions: what is accepted, every bad definition refused
 * with "file: key: reason", the grid's order, placeholders and keys. */
#include "rtest.h"

static const char *good =
    "{\"name\": \"t\", \"title\": \"T\",\n"
    " \"inputs\": {\"fib\": {\"file\": \"t.fib\", \"command\": [\"fib\", \"gen\", \"--count\", \"{n}\", \"-o\", \"{out}\"]},\n"
    "            \"real\": {\"data\": \"x/table.txt\"}},\n"
    " \"command\": [\"sim\", \"--fib\", \"{fib}\", \"--queue\", \"{queue}\", \"{mode.args}\", \"q={queue},b={{x}}\", \"{tmp}/o\"],\n"
    " \"params\": {\"n\": [10, 20], \"queue\": [0, 4, 16],\n"
    "            \"mode\": [{\"label\": \"plain\", \"args\": []}, {\"label\": \"real\", \"args\": [\"--real\", \"{real}\"]}]},\n"
    " \"keep\": {\"lpc\": \"lpc\", \"p99\": \"latency.p99\", \"opt\": \"?a.b\"},\n"
    " \"figures\": [{\"name\": \"f\", \"x\": \"queue\", \"y\": [\"lpc\", \"p99\"], \"series\": \"n\", \"where\": {\"mode\": \"plain\"}}]}\n";

START_TEST(test_good_definition)
{
    char dir[64], path[128];
    rt_dir(dir, sizeof dir);
    rt_write(dir, "good.json", good);
    snprintf(path, sizeof path, "%s/good.json", dir);
    lpm_report_exp e;
    lpm_err err = { "" };
    ck_assert_msg(lpm_report_exp_load(path, &e, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(e.npoints, 12);
    ck_assert_uint_eq(e.naxes, 3);
    ck_assert_uint_eq(e.ninputs, 2);
    ck_assert_uint_eq(e.nfigs, 1);
    ck_assert_uint_eq(e.figs[0].ny, 2);

    /* First axis slowest: point 5 is n=10 (index 0), queue=16 (2), mode=real (1). */
    lpm_report_point p;
    ck_assert_int_eq(lpm_report_point_at(&e, 5, &p, &err), 0);
    ck_assert_uint_eq(p.choice[0], 0);
    ck_assert_uint_eq(p.choice[1], 2);
    ck_assert_uint_eq(p.choice[2], 1);
    char desc[256];
    lpm_report_point_desc(&e, &p, desc, sizeof desc);
    ck_assert_str_eq(desc, "n=10 queue=16 mode=real");

    /* Logical argv: inputs by id, lists spliced, braces escaped, {tmp}. */
    lpm_strv argv = { 0 };
    ck_assert_int_eq(lpm_report_argv(&e, &p, e.command, -1, NULL, &argv, &err), 0);
    ck_assert_uint_eq(argv.n, 9);
    ck_assert_str_eq(argv.v[0], "sim");
    ck_assert_msg(!strncmp(argv.v[2], "inputs/", 7) && strstr(argv.v[2], "-t.fib"), "%s", argv.v[2]);
    ck_assert_str_eq(argv.v[4], "16");
    ck_assert_str_eq(argv.v[5], "--real");
    ck_assert_str_eq(argv.v[6], "$LPMPIPE_DATA/x/table.txt");
    ck_assert_str_eq(argv.v[7], "q=16,b={x}");
    ck_assert_str_eq(argv.v[8], "$TMP/o");
    lpm_strv_free(&argv);

    /* Real paths. */
    lpm_report_ctx ctx = { "/r", "/d", "/r/tmp/x", NULL, "/b/lpmpipe" };
    ck_assert_int_eq(lpm_report_argv(&e, &p, e.command, -1, &ctx, &argv, &err), 0);
    ck_assert_msg(!strncmp(argv.v[2], "/r/inputs/", 10), "%s", argv.v[2]);
    ck_assert_str_eq(argv.v[6], "/d/x/table.txt");
    ck_assert_str_eq(argv.v[8], "/r/tmp/x/o");
    lpm_strv_free(&argv);

    /* {lpmpipe}: the binary running the report (for a script a command
     * runs), "lpmpipe" in the logical argv of records and keys. */
    json_t *tl = json_pack("[s, s]", "scripts/x.sh", "--bin={lpmpipe}");
    ck_assert_int_eq(lpm_report_argv(&e, &p, tl, -1, &ctx, &argv, &err), 0);
    ck_assert_str_eq(argv.v[1], "--bin=/b/lpmpipe");
    lpm_strv_free(&argv);
    ck_assert_int_eq(lpm_report_argv(&e, &p, tl, -1, NULL, &argv, &err), 0);
    ck_assert_str_eq(argv.v[1], "--bin=lpmpipe");
    lpm_strv_free(&argv);
    json_decref(tl);

    /* The input generated for n=10 differs from the one for n=20; the
     * point with mode=plain does not use the data table. */
    char id10[17], id20[17];
    lpm_report_point q;
    ck_assert_int_eq(lpm_report_point_at(&e, 11, &q, &err), 0);
    ck_assert_int_eq(lpm_report_input_id(&e, &p, 0, id10, NULL, 0, &err), 0);
    ck_assert_int_eq(lpm_report_input_id(&e, &q, 0, id20, NULL, 0, &err), 0);
    ck_assert_str_ne(id10, id20);
    int used[3];
    lpm_report_point_at(&e, 4, &q, &err);
    lpm_report_inputs_used(&e, &q, used);
    ck_assert(used[0] && !used[1]);
    lpm_report_inputs_used(&e, &p, used);
    ck_assert(used[0] && used[1]);

    /* Keys: distinct over the grid, the same on every load. */
    char keys[12][17];
    for (size_t i = 0; i < 12; i++) {
        ck_assert_int_eq(lpm_report_point_at(&e, i, &q, &err), 0);
        memcpy(keys[i], q.key, 17);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(keys[i], keys[j]);
    }
    lpm_report_exp_free(&e);
    ck_assert_int_eq(lpm_report_exp_load(path, &e, &err), 0);
    for (size_t i = 0; i < 12; i++) {
        lpm_report_point_at(&e, i, &q, &err);
        ck_assert_str_eq(q.key, keys[i]);
    }
    lpm_report_exp_free(&e);

    /* A changed command changes every key. */
    char *changed = strdup(good);
    memcpy(strstr(changed, "\"sim\""), "\"map\"", 5);
    rt_write(dir, "good.json", changed);
    free(changed);
    ck_assert_int_eq(lpm_report_exp_load(path, &e, &err), 0);
    for (size_t i = 0; i < 12; i++) {
        lpm_report_point_at(&e, i, &q, &err);
        ck_assert_str_ne(q.key, keys[i]);
    }
    lpm_report_exp_free(&e);
    rt_done(dir);
}
END_TEST

/* Each bad definition: exit status 2 and the message names the key. */
static const struct {
    const char *text, *want;
} bad[] = {
    { "{\"name\": \"t\",\n \"command\": [\"sim\"] \"keep\": {}}", "bad.json:2: " },
    { "[1]", "bad.json: (top): " },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"colour\": 1}", "bad.json: colour: unknown key" },
    { "{\"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}}", "bad.json: name: required" },
    { "{\"name\": \"a/b\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}}", "bad.json: name: " },
    { "{\"name\": \"t\", \"command\": \"sim\", \"keep\": {\"a\": \"a\"}}", "bad.json: command: required" },
    { "{\"name\": \"t\", \"command\": [\"lpmpipe\", \"sim\"], \"keep\": {\"a\": \"a\"}}", "bad.json: command[0]: leave out" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"q\": []}}", "bad.json: params.q: must be a non-empty" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"q\": [1, 1]}}", "bad.json: params.q[1]: the same label" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"q\": [{\"x\": 1}]}}", "bad.json: params.q[0]: an object value needs a \"label\"" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"q\": [1, {\"label\": 2}]}}", "bad.json: params.q[1]: mixes" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"q-x\": [1]}}", "bad.json: params.q-x: a parameter name" },
    { "{\"name\": \"t\", \"command\": [\"sim\", \"{nope}\"], \"keep\": {\"a\": \"a\"}}", "bad.json: command[1]: {nope}: names no parameter" },
    { "{\"name\": \"t\", \"command\": [\"sim\", \"{q\"], \"keep\": {\"a\": \"a\"}}", "bad.json: command[1]: unbalanced" },
    { "{\"name\": \"t\", \"command\": [\"sim\", \"x{m.a}\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"m\": [{\"label\": 1, \"a\": [\"x\"]}]}}",
      "bad.json: command[1]: a field that holds a list must stand alone" },
    { "{\"name\": \"t\", \"command\": [\"sim\", \"{m.b}\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"m\": [{\"label\": 1, \"a\": 2}]}}",
      "bad.json: command[1]: {m.b}: a field that some value" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"inputs\": {\"f\": {\"file\": \"x\"}}}", "bad.json: inputs.f: needs" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"inputs\": {\"f\": {\"data\": \"../x\"}}}", "bad.json: inputs.f: \"data\"" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"inputs\": {\"f\": {\"file\": \"x\", \"command\": [\"fib\"]}}}",
      "bad.json: inputs.f.command: the command must write {out}" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"inputs\": {\"f\": {\"file\": \"x\", \"command\": [\"a\", \"{g}\", \"{out}\"]},"
      " \"g\": {\"file\": \"y\", \"command\": [\"b\", \"{f}\", \"{out}\"]}}}", "bad.json: inputs.f: its command needs itself" },
    { "{\"name\": \"t\", \"command\": [\"sim\", \"{out}\"], \"keep\": {\"a\": \"a\"}}", "bad.json: command[1]: {out}: {out} is for input" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a..b\"}}", "bad.json: keep.a: must be a path" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {}}", "bad.json: keep: nothing is kept" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"result_exit\": [0]}",
      "bad.json: result_exit: must be a list of exit statuses 1..255" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"result_exit\": 1}",
      "bad.json: result_exit: must be a list of exit statuses 1..255" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"pre0:a\"}}", "bad.json: keep.a: pre0: there are 0 pre commands" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"pre\": [[\"map\"]], \"keep\": {\"a\": \"?pre1:a\"}}", "bad.json: keep.a: pre1: there is 1 pre command" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"pre\": [[\"map\"]], \"keep\": {\"a\": \"pre0:a..b\"}}", "bad.json: keep.a: must be a path" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"pre\": [[\"map\"]], \"keep\": {\"a\": \"pre0a\"}}", "bad.json: keep.a: \"preN:path\"" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"pre\": [[\"map\"]], \"rows\": {\"path\": \"r\", \"keep\": {\"a\": \"pre0:a\"}}}",
      "bad.json: rows.keep.a: \"preN:path\" (a pre command's output) in \"keep\" only" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"q\": \"a\"}, \"params\": {\"q\": [1]}}", "bad.json: keep.q: a column name" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"figures\": [{\"name\": \"f\", \"x\": \"zz\", \"y\": \"a\"}]}",
      "bad.json: figures[0].x: required" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"params\": {\"q\": [1]}, \"figures\": [{\"name\": \"f\", \"x\": \"q\", \"y\": \"a\", \"where\": {\"q\": 2}}]}",
      "bad.json: figures[0].where.q: not one of" },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"figures\": [{\"name\": \"f\", \"x\": \"a\", \"y\": \"a\", \"style\": \"pie\"}]}",
      "bad.json: figures[0].style: " },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"skip_exit\": {\"300\": \"x\"}}", "bad.json: skip_exit.300: " },
    { "{\"name\": \"t\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}, \"timeout\": -1}", "bad.json: timeout: " },
    { "{\"name\": \"t\", \"name\": \"u\", \"command\": [\"sim\"], \"keep\": {\"a\": \"a\"}}", "bad.json:1: duplicate object key" },
};

START_TEST(test_bad_definitions)
{
    char dir[64], path[128];
    rt_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/bad.json", dir);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rt_write(dir, "bad.json", bad[i].text);
        lpm_report_exp e;
        lpm_err err = { "" };
        int rc = lpm_report_exp_load(path, &e, &err);
        lpm_report_exp_free(&e);
        ck_assert_msg(rc == LPM_EINPUT, "case %zu accepted (rc %d)", i, rc);
        ck_assert_msg(strstr(err.msg, bad[i].want) != NULL, "case %zu: '%s' lacks '%s'", i, err.msg, bad[i].want);
        ck_assert_msg(!strncmp(err.msg, dir, strlen(dir)), "case %zu: '%s' does not start with the file", i, err.msg);
    }
    rt_done(dir);
}
END_TEST

START_TEST(test_jpath)
{
    json_t *doc = json_loads("{\"a\": {\"b\": [1, {\"c\": 3}]}, \"engines\": [{\"name\": \"ref\", \"x\": 1},"
                             " {\"name\": \"dir24-8\", \"x\": 2}], \"n\": [{\"id\": 7, \"v\": 9}]}", 0, NULL);
    char why[128];
    ck_assert_int_eq(json_integer_value(lpm_jpath(doc, "a.b[0]", why, sizeof why)), 1);
    ck_assert_int_eq(json_integer_value(lpm_jpath(doc, "a.b[1].c", why, sizeof why)), 3);
    ck_assert_int_eq(json_integer_value(lpm_jpath(doc, "engines[name=dir24-8].x", why, sizeof why)), 2);
    ck_assert_int_eq(json_integer_value(lpm_jpath(doc, "n[id=7].v", why, sizeof why)), 9);
    ck_assert_ptr_eq(lpm_jpath(doc, ".", why, sizeof why), doc);
    ck_assert_ptr_null(lpm_jpath(doc, "a.zz", why, sizeof why));
    ck_assert_str_eq(why, "no key 'zz'");
    ck_assert_ptr_null(lpm_jpath(doc, "engines[name=none].x", why, sizeof why));
    ck_assert_str_eq(why, "no element [name=none]");
    ck_assert(lpm_jpath_check("a.b[2].c"));
    ck_assert(!lpm_jpath_check("a..b"));
    ck_assert(!lpm_jpath_check("a[x"));
    ck_assert(!lpm_jpath_check("a."));
    json_decref(doc);

    /* JSON lines become one array; one document stays itself. */
    const char *lines = "{\"e\": 1}\n{\"e\": 2}\n";
    json_t *seq = lpm_report_parse_seq(lines, strlen(lines), why, sizeof why);
    ck_assert(json_is_array(seq) && json_array_size(seq) == 2);
    json_decref(seq);
    seq = lpm_report_parse_seq("{\"e\": 1}", 8, why, sizeof why);
    ck_assert(json_is_object(seq));
    json_decref(seq);
    ck_assert_ptr_null(lpm_report_parse_seq("{\"e\": ", 6, why, sizeof why));
    ck_assert_ptr_null(lpm_report_parse_seq("  ", 2, why, sizeof why));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_defs");
    TCase *tc = tcase_create("defs");
    tcase_add_test(tc, test_good_definition);
    tcase_add_test(tc, test_bad_definitions);
    tcase_add_test(tc, test_jpath);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
