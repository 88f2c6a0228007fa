/* Every rule of docs/microarchitecture.md pinned by a hand-checked cycle
 * log: tiny synthetic pipelines (requests given as entry stage and reads),
 * each log walked through against the rules before it was written here. */
#include "testutil.h"
#include "simtest.h"

static void expect_log(const st_run *r, const char *want)
{
    ck_assert_msg(r->rc == 0, "run failed: %s", r->err.msg);
    if (strcmp(r->log, want)) {
        fprintf(stderr, "--- want\n%s--- got\n%s", want, r->log);
        ck_abort_msg("cycle log differs");
    }
}

/* Runs one case (la: lookahead) and compares its log with want. */
static void rule_case(st_run *r, const st_req *q, size_t n, const lpm_sim_bubble *b, size_t nb, unsigned stages,
                      int ring, unsigned Q, unsigned W, unsigned R, double load, unsigned la, const char *want)
{
    memset(r, 0, sizeof *r);
    r->req = q;
    r->nreq = n;
    r->bub = b;
    r->nbub = nb;
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    cfg.queue = Q;
    cfg.width = W;
    cfg.rob = R;
    cfg.load = load;
    cfg.lookahead = la;
    st_go(r, stages, ring, &cfg, 1);
    expect_log(r, want);
}

#define N(a) (sizeof(a) / sizeof(a)[0])

/* Q = 0: lookup 1 wants stage 1 while lookup 0 passes through it: the
 * dispatcher stalls (nothing is queued) and enters it the next cycle. */
START_TEST(test_no_queue_stall)
{
    static const st_req q[] = { {0,3},{1,1},{2,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 0, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=0 width=1 rob=0 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0\n"
        "1 S 0 - - - Q 0 0 0 0 in0:0 win:1\n"
        "2 S - 0 - - Q 0 0 0 0 stall:q1\n"
        "3 S - 1 0 - Q 0 0 0 0 in1:1 win:2 exit:1 exit:0\n"
        "4 S - - 2 - Q 0 0 0 0 in2:2 exit:2\n");

    free(r.log);
}
END_TEST

/* Q = 1, W = 3: lookup 2 fills queue 1; lookup 3 finds it full while lookup
 * 0 passes into stage 1: stall, and lookup 4 waits behind it although its
 * stage 3 is idle. A pop and a push of one queue in one cycle. */
START_TEST(test_queue_full_stall)
{
    static const st_req q[] = { {0,3},{1,1},{1,1},{1,1},{3,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 1, 3, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=1 width=3 rob=0 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0 win:1 win:2\n"
        "1 S 0 1 - - Q 0 1 0 0 in0:0 in1:1 push1:2 win:3 win:4 exit:1\n"
        "2 S - 0 - - Q 0 1 0 0 stall:q1\n"
        "3 S - 2 0 4 Q 0 1 0 0 pop1:2 push1:3 in3:4 exit:2 exit:0 exit:4\n"
        "4 S - 3 - - Q 0 0 0 0 pop1:3 exit:3\n");

    free(r.log);
}
END_TEST

/* W = 2: two dispatches per cycle; the second one for an occupied stage is
 * queued; a passing lookup beats the queue head. */
START_TEST(test_issue_width_2)
{
    static const st_req q[] = { {0,1},{0,1},{2,3},{2,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 2, 2, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=2 width=2 rob=0 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0 win:1\n"
        "1 S 0 - - - Q 1 0 0 0 in0:0 push0:1 win:2 win:3 exit:0\n"
        "2 S 1 - 2 - Q 0 0 1 0 pop0:1 in2:2 push2:3 exit:1\n"
        "3 S - - 3 2 Q 0 0 0 0 pop2:3 exit:3\n"
        "4 S 2 - - - Q 0 0 0 0 exit:2\n");

    free(r.log);
}
END_TEST

/* The DIT answers lookup 1 (no stage read): it exits in the cycle it is
 * dispatched, after the stage exits of that cycle. */
START_TEST(test_dit_answer_exit_order)
{
    static const st_req q[] = { {1,2},{0,0},{2,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 2, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=2 width=1 rob=0 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0\n"
        "1 S - 0 - - Q 0 0 0 0 in1:0 win:1\n"
        "2 S - - 0 - Q 0 0 0 0 dit:1 win:2 exit:0 exit:1\n"
        "3 S - - 2 - Q 0 0 0 0 in2:2 exit:2\n");

    ck_assert_uint_eq(r.st.dit_answers, 1);
    ck_assert_uint_eq(r.res[1].id, 1);
    ck_assert_uint_eq(r.res[1].exit_cycle - r.res[1].dit_cycle, 1);
    free(r.log);
}
END_TEST

/* R = 2: lookup 1 finishes before lookup 0; lookup 2 waits for a reorder-
 * buffer entry (stall:rob) until lookup 0 is released; releases in input
 * order, one cycle after the exit at the earliest. */
START_TEST(test_reorder_buffer)
{
    static const st_req q[] = { {0,4},{1,1},{2,1},{3,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 2, 1, 2, 0, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=2 width=1 rob=2 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0\n"
        "1 S 0 - - - Q 0 0 0 0 in0:0 win:1\n"
        "2 S - 0 - - Q 0 1 0 0 push1:1 win:2\n"
        "3 S - 1 0 - Q 0 0 0 0 pop1:1 stall:rob exit:1\n"
        "4 S - - - 0 Q 0 0 0 0 stall:rob exit:0\n"
        "5 S - - - - Q 0 0 0 0 rel:0 stall:rob\n"
        "6 S - - 2 - Q 0 0 0 0 rel:1 in2:2 win:3 exit:2\n"
        "7 S - - - 3 Q 0 0 0 0 rel:2 in3:3 exit:3\n"
        "8 S - - - - Q 0 0 0 0 rel:3\n");

    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(r.res[i].id, i);
    ck_assert_uint_eq(r.res[0].out_cycle, 5);
    ck_assert_uint_eq(r.res[1].exit_cycle, 3);
    ck_assert_uint_eq(r.res[1].out_cycle, 6);
    free(r.log);
}
END_TEST

/* Linear, 3 stages: a bubble ready in cycle 2 takes the window ahead of
 * lookup 2 and writes 7 into stage 1 in cycle 4. Lookups ahead of it (0, 1)
 * see the old word, lookups behind it (2, 3) the new one; done lookups ride
 * to stage 2 without reading. */
START_TEST(test_linear_bubble)
{
    static const st_req q[] = { {0,1},{0,2},{0,3},{0,3} };
    lpm_sim_bubble b[1];
    memset(b, 0, sizeof b);
    b[0].nw = 1;
    b[0].w[0] = (lpm_sim_write){ 1, 0, 7 };
    b[0].ready = 2;
    st_run r;
    rule_case(&r, q, N(q), b, 1, 3, 0, 2, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=3 linear queue=2 width=1 rob=0 lookahead=0\n"
        "0 S - - - Q 0 0 0 win:0\n"
        "1 S 0 - - Q 0 0 0 in0:0 win:1\n"
        "2 S 1 0~ - Q 0 0 0 in0:1 win:b0\n"
        "3 S b0~ 1 0~ Q 0 0 0 in0:b0 win:2 exit:0\n"
        "4 S 2 b0 1~ Q 0 0 0 in0:2 win:3 exit:1\n"
        "5 S 3 2 b0~ Q 0 0 0 in0:3\n"
        "6 S - 3 2 Q 0 0 0 exit:2\n"
        "7 S - - 3 Q 0 0 0 exit:3\n");

    ck_assert_uint_eq(r.res[0].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[1].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[2].nh, 7);
    ck_assert_uint_eq(r.res[3].nh, 7);
    ck_assert_uint_eq(r.st.bubbles, 1);
    free(r.log);
}
END_TEST

/* Ring: a bubble enters at stage 0 through the window and writes stages 0
 * and 3 as it passes; lookup 1, entered at stage 2 just after it, reads
 * stage 3 before the bubble writes it and stage 0 after. */
START_TEST(test_ring_bubble)
{
    static const st_req q[] = { {0,2},{2,3},{3,2} };
    lpm_sim_bubble b[1];
    memset(b, 0, sizeof b);
    b[0].nw = 2;
    b[0].w[0] = (lpm_sim_write){ 0, 0, 5 };
    b[0].w[1] = (lpm_sim_write){ 3, 0, 9 };
    b[0].ready = 1;
    st_run r;
    rule_case(&r, q, N(q), b, 1, 4, 1, 2, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=2 width=1 rob=0 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0\n"
        "1 S 0 - - - Q 0 0 0 0 in0:0 win:b0\n"
        "2 S b0 0 - - Q 0 0 0 0 in0:b0 win:1 exit:0\n"
        "3 S - b0~ 1 - Q 0 0 0 0 in2:1 win:2\n"
        "4 S - - b0~ 1 Q 0 0 0 1 push3:2\n"
        "5 S 1 - - b0 Q 0 0 0 1 exit:1\n"
        "6 S - - - 2 Q 0 0 0 0 pop3:2\n"
        "7 S 2 - - - Q 0 0 0 0 exit:2\n");

    ck_assert_uint_eq(r.res[0].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[1].nh, 5);
    ck_assert_uint_eq(r.res[2].nh, 5);
    free(r.log);
}
END_TEST

/* --load 0.5: request i arrives at cycle 2i. */
START_TEST(test_offered_load)
{
    static const st_req q[] = { {0,1},{1,1},{2,1},{3,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 2, 1, 0, 0.5, 0,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=2 width=1 rob=0 lookahead=0\n"
        "0 S - - - - Q 0 0 0 0 win:0\n"
        "1 S 0 - - - Q 0 0 0 0 in0:0 exit:0\n"
        "2 S - - - - Q 0 0 0 0 win:1\n"
        "3 S - 1 - - Q 0 0 0 0 in1:1 exit:1\n"
        "4 S - - - - Q 0 0 0 0 win:2\n"
        "5 S - - 2 - Q 0 0 0 0 in2:2 exit:2\n"
        "6 S - - - - Q 0 0 0 0 win:3\n"
        "7 S - - - 3 Q 0 0 0 0 in3:3 exit:3\n"
        "8 S - - - - Q 0 0 0 0\n");

    free(r.log);
}
END_TEST

/* 3-stage ring: lookup 0 makes 6 reads from stage 2, wrapping twice; lookup
 * 1 waits in queue 0 while lookup 0 passes into stage 0. */
START_TEST(test_ring_wrap_loops)
{
    static const st_req q[] = { {2,6},{0,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 3, 1, 2, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v1: stages=3 ring queue=2 width=1 rob=0 lookahead=0\n"
        "0 S - - - Q 0 0 0 win:0\n"
        "1 S - - 0 Q 0 0 0 in2:0 win:1\n"
        "2 S 0 - - Q 1 0 0 push0:1\n"
        "3 S 1 0 - Q 0 0 0 pop0:1 exit:1\n"
        "4 S - - 0 Q 0 0 0\n"
        "5 S 0 - - Q 0 0 0\n"
        "6 S - 0 - Q 0 0 0 exit:0\n");

    ck_assert_uint_eq(r.res[1].id, 0);
    ck_assert_uint_eq(r.res[1].loops, 2);
    ck_assert_uint_eq(r.res[1].visits, 6);
    free(r.log);
}
END_TEST

/* Lookahead 4, W = 2, Q = 1: lookup 3 waits for queue 1 in cycles 2 and 3
 * while lookups 4 and 5 (entry stages 3 and 2) pass it in cycle 3. */
START_TEST(test_lookahead)
{
    static const st_req q[] = { {0,3},{0,3},{1,1},{1,1},{3,1},{2,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 1, 2, 0, 0, 4,
        "# lpmpipe sim cycle log v1: stages=4 ring queue=1 width=2 rob=0 lookahead=4\n"
        "0 S - - - - Q 0 0 0 0 win:0 win:1\n"
        "1 S 0 - - - Q 1 0 0 0 in0:0 push0:1 win:2 win:3\n"
        "2 S 1 0 - - Q 0 1 0 0 pop0:1 push1:2 stall:q1 win:4 win:5\n"
        "3 S - 1 0 4 Q 0 1 1 0 stall:q1 in3:4 push2:5 exit:0 exit:4\n"
        "4 S - 2 1 - Q 0 1 1 0 pop1:2 push1:3 exit:2 exit:1\n"
        "5 S - 3 5 - Q 0 0 0 0 pop1:3 pop2:5 exit:3 exit:5\n");

    free(r.log);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, test_no_queue_stall);
    tcase_add_test(tc, test_queue_full_stall);
    tcase_add_test(tc, test_issue_width_2);
    tcase_add_test(tc, test_dit_answer_exit_order);
    tcase_add_test(tc, test_reorder_buffer);
    tcase_add_test(tc, test_linear_bubble);
    tcase_add_test(tc, test_ring_bubble);
    tcase_add_test(tc, test_offered_load);
    tcase_add_test(tc, test_ring_wrap_loops);
    tcase_add_test(tc, test_lookahead);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
