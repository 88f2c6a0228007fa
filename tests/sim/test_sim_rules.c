/* Every rule of docs/microarchitecture.md pinned by a hand-checked cycle
 * log: tiny synthetic pipelines (requests given as entry stage and reads),
 * each log walked through against the rules before it was written here.
 * The one-cycle rules (hop 1) first, then the hardware rules v2 (hop 2):
 * wrap, queue wait, full queue, back-pressure, bubble writes, dual port. */
#include "testutil.h"
#include "simtest.h"
#include "../../sim/cycle_log.h"

static void expect_log(const st_run *r, const char *want)
{
    ck_assert_msg(r->rc == 0, "run failed: %s", r->err.msg);
    if (strcmp(r->log, want)) {
        fprintf(stderr, "--- want\n%s--- got\n%s", want, r->log);
        ck_abort_msg("cycle log differs");
    }
}

/* The pipeline of one case: the one-cycle rules unless hop says more. */
typedef struct rcfg {
    unsigned stages;
    int ring;
    unsigned Q, W, R;
    double load;
    unsigned la, hop, ports;
    double ready;
    unsigned fifo; /* result credits: the linear credit rules (0: none) */
    int dq;        /* DIT answers through queue 0 (sim --dit-answers queue) */
} rcfg;

static void rule_run(st_run *r, const st_req *q, size_t n, const lpm_sim_bubble *b, size_t nb, const rcfg *c,
                     const char *want)
{
    memset(r, 0, sizeof *r);
    r->req = q;
    r->nreq = n;
    r->bub = b;
    r->nbub = nb;
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    cfg.queue = c->Q;
    cfg.width = c->W;
    cfg.rob = c->R;
    cfg.load = c->load;
    cfg.lookahead = c->la;
    cfg.hop = c->hop ? c->hop : 1;
    cfg.ports = c->ports ? c->ports : 1;
    cfg.result_ready = c->ready;
    cfg.result_fifo = c->fifo;
    cfg.dit_queue = c->dq;
    st_go(r, c->stages, c->ring, &cfg, 1);
    expect_log(r, want);
}

/* Runs one case of the one-cycle rules (la: lookahead) and compares its log with want. */
static void rule_case(st_run *r, const st_req *q, size_t n, const lpm_sim_bubble *b, size_t nb, unsigned stages,
                      int ring, unsigned Q, unsigned W, unsigned R, double load, unsigned la, const char *want)
{
    rcfg c = { stages, ring, Q, W, R, load, la, 1, 1, 1.0, 0, 0 };
    rule_run(r, q, n, b, nb, &c, want);
}

#define N(a) (sizeof(a) / sizeof(a)[0])

/* One bubble, ready at cycle `ready`, writing word x into stage s and y
 * into stage t (address 0 both). */
static void two_writes(lpm_sim_bubble *b, unsigned s, uint64_t x, unsigned t, uint64_t y, uint64_t ready)
{
    memset(b, 0, sizeof *b);
    b->nw = 2;
    b->w[0] = (lpm_sim_write){ s, 0, x };
    b->w[1] = (lpm_sim_write){ t, 0, y };
    b->ready = ready;
}

/* Q = 0: lookup 1 wants stage 1 while lookup 0 passes through it: the
 * dispatcher stalls (nothing is queued) and enters it the next cycle. */
START_TEST(test_no_queue_stall)
{
    static const st_req q[] = { {0,3},{1,1},{2,1} };
    st_run r;
    rule_case(&r, q, N(q), NULL, 0, 4, 1, 0, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v2: stages=4 ring queue=0 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=4 ring queue=1 width=3 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=2 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=1 rob=2 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=3 linear queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
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
    two_writes(b, 0, 5, 3, 9, 1);
    st_run r;
    rule_case(&r, q, N(q), b, 1, 4, 1, 2, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=3 ring queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
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
        "# lpmpipe sim cycle log v2: stages=4 ring queue=1 width=2 rob=0 lookahead=4 hop=1 ports=1\n"
        "0 S - - - - Q 0 0 0 0 win:0 win:1\n"
        "1 S 0 - - - Q 1 0 0 0 in0:0 push0:1 win:2 win:3\n"
        "2 S 1 0 - - Q 0 1 0 0 pop0:1 push1:2 stall:q1 win:4 win:5\n"
        "3 S - 1 0 4 Q 0 1 1 0 stall:q1 in3:4 push2:5 exit:0 exit:4\n"
        "4 S - 2 1 - Q 0 1 1 0 pop1:2 push1:3 exit:2 exit:1\n"
        "5 S - 3 5 - Q 0 0 0 0 pop1:3 pop2:5 exit:3 exit:5\n");

    free(r.log);
}
END_TEST

/* Linear entry (one-cycle rules too): lookup 1's DIT names stage 2, but it
 * enters at stage 0 behind the bubble and rides there, so it reads the
 * bubble's new word 9 (entering stage 2 directly in cycle 3 it would have
 * read the old word ahead of the bubble: the write-bubble guarantee lost). */
START_TEST(test_linear_entry_stage0)
{
    static const st_req q[] = { {2,1},{2,2} };
    lpm_sim_bubble b[1];
    memset(b, 0, sizeof b);
    b[0].nw = 1;
    b[0].w[0] = (lpm_sim_write){ 2, 0, 9 };
    b[0].ready = 1;
    st_run r;
    rule_case(&r, q, N(q), b, 1, 4, 0, 2, 1, 0, 0, 0,
        "# lpmpipe sim cycle log v2: stages=4 linear queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1\n"
        "0 S - - - - Q 0 0 0 0 win:0\n"
        "1 S 0~ - - - Q 0 0 0 0 in0:0 win:b0\n"
        "2 S b0~ 0~ - - Q 0 0 0 0 in0:b0 win:1\n"
        "3 S 1~ b0~ 0 - Q 0 0 0 0 in0:1\n"
        "4 S - 1~ b0 0~ Q 0 0 0 0 exit:0\n"
        "5 S - - 1 b0~ Q 0 0 0 0\n"
        "6 S - - - 1 Q 0 0 0 0 exit:1\n");

    ck_assert_uint_eq(r.res[0].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[1].nh, 9);
    ck_assert_uint_eq(r.res[1].exit_cycle, 6);
    free(r.log);
}
END_TEST

/* D = 2: a window of W(D+1) = 3 entries; an item is dispatched (pushed)
 * D cycles after its DIT read, only into its queue, reaches the queue at
 * the end of the next cycle and is popped two cycles after its push at the
 * earliest. Lookup 0 wraps (stages 2 0 1 2, one hop every 2 cycles);
 * lookup 2 waits in queue 0 in cycle 6 while lookup 0 passes into stage 0.
 * Exits come D-1 cycles after the last read, results one cycle later. */
START_TEST(test_v2_wrap_queue_wait)
{
    static const st_req q[] = { {2,4},{0,1},{0,1} };
    rcfg c = { 3, 1, 2, 1, 0, 0, 0, 2, 1, 1.0, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), NULL, 0, &c,
        "# lpmpipe sim cycle log v2: stages=3 ring queue=2 width=1 rob=0 lookahead=0 hop=2 ports=1\n"
        "0 S - - - Q 0 0 0 win:0\n"
        "1 S - - - Q 0 0 0 win:1\n"
        "2 S - - - Q 0 0 1 push2:0 win:2\n"
        "3 S - - - Q 1 0 1 push0:1\n"
        "4 S - - 0 Q 2 0 0 pop2:0 push0:2\n"
        "5 S 1 - - Q 1 0 0 pop0:1\n"
        "6 S 0 - - Q 1 0 0 exit:1\n"
        "7 S 2 - - Q 0 0 0 out:1 pop0:2\n"
        "8 S - 0 - Q 0 0 0 exit:2\n"
        "9 S - - - Q 0 0 0 out:2\n"
        "10 S - - 0 Q 0 0 0\n"
        "11 S - - - Q 0 0 0 exit:0\n"
        "12 S - - - Q 0 0 0 out:0\n");

    ck_assert_uint_eq(r.res[2].id, 0);
    ck_assert_uint_eq(r.res[2].loops, 1);
    ck_assert_uint_eq(r.res[2].exit_cycle, 11);
    ck_assert_uint_eq(r.res[2].out_cycle, 12);
    free(r.log);
}
END_TEST

/* D = 2, Q = 1: the dispatcher sees the queue's start-of-cycle occupancy
 * (a registered credit), and a push reaches the queue at the end of the
 * next cycle: push in 2, pop in 4 (not 3), room again in 5 (not 4), so a
 * queue of one passes an item every third cycle; stall:q1 in 3, 4, 6, 7,
 * and lookup 3 (stage 0, idle) waits behind. */
START_TEST(test_v2_full_queue)
{
    static const st_req q[] = { {1,2},{1,2},{1,2},{0,1} };
    rcfg c = { 2, 1, 1, 1, 0, 0, 0, 2, 1, 1.0, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), NULL, 0, &c,
        "# lpmpipe sim cycle log v2: stages=2 ring queue=1 width=1 rob=0 lookahead=0 hop=2 ports=1\n"
        "0 S - - Q 0 0 win:0\n"
        "1 S - - Q 0 0 win:1\n"
        "2 S - - Q 0 1 push1:0 win:2\n"
        "3 S - - Q 0 1 stall:q1 win:3\n"
        "4 S - 0 Q 0 0 pop1:0 stall:q1\n"
        "5 S - - Q 0 1 push1:1\n"
        "6 S 0 - Q 0 1 stall:q1\n"
        "7 S - 1 Q 0 0 pop1:1 stall:q1 exit:0\n"
        "8 S - - Q 0 1 out:0 push1:2\n"
        "9 S 1 - Q 1 1 push0:3\n"
        "10 S - 2 Q 1 0 pop1:2 exit:1\n"
        "11 S 3 - Q 0 0 out:1 pop0:3\n"
        "12 S 2 - Q 0 0 exit:3\n"
        "13 S - - Q 0 0 out:3 exit:2\n"
        "14 S - - Q 0 0 out:2\n");

    ck_assert_uint_eq(r.st.stall_queue, 4);
    free(r.log);
}
END_TEST

/* D = 2, result port ready in half the cycles (ready in 3 4 5 7 10 11 14
 * of lpm_sim_ready at 0.5). Result lane 0 (stage 0) holds two results at
 * the start of cycle 7, so lookup 2, done at stage 0, does not exit: it
 * rides to stage 1 (2~ in cycle 8) and exits through that stage's lane in
 * 9; lookup 5 does the same in cycles 10 to 12. The DIT answer 4 leaves
 * through DIT lane 0. */
START_TEST(test_v2_backpressure)
{
    static const st_req q[] = { {0,1},{0,1},{0,1},{0,1},{1,0},{0,1} };
    rcfg c = { 2, 1, 4, 1, 0, 0, 0, 2, 1, 0.5, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), NULL, 0, &c,
        "# lpmpipe sim cycle log v2: stages=2 ring queue=4 width=1 rob=0 lookahead=0 hop=2 ports=1\n"
        "0 S - - Q 0 0 win:0\n"
        "1 S - - Q 0 0 win:1\n"
        "2 S - - Q 1 0 push0:0 win:2\n"
        "3 S - - Q 2 0 push0:1 win:3\n"
        "4 S 0 - Q 2 0 pop0:0 push0:2 win:4\n"
        "5 S 1 - Q 2 0 pop0:1 push0:3 win:5 exit:0\n"
        "6 S 2 - Q 1 0 pop0:2 dit:4 exit:1 exit:4\n"
        "7 S 3 - Q 1 0 out:0 out:4 pop0:3 push0:5\n"
        "8 S - 2~ Q 1 0 exit:3\n"
        "9 S 5 - Q 0 0 pop0:5 exit:2\n"
        "10 S - - Q 0 0 out:1 out:2\n"
        "11 S - 5~ Q 0 0 out:3\n"
        "12 S - - Q 0 0 exit:5\n"
        "13 S - - Q 0 0\n"
        "14 S - - Q 0 0 out:5\n");

    ck_assert_uint_eq(r.res[3].id, 2);
    ck_assert_uint_eq(r.res[3].exit_cycle, 9);
    ck_assert_uint_eq(r.res[3].out_cycle, 10);
    ck_assert_uint_eq(r.res[5].id, 5);
    ck_assert_uint_eq(r.res[5].exit_cycle, 12);
    ck_assert_uint_eq(r.res[5].out_cycle, 14);
    free(r.log);
}
END_TEST

/* D = 2, R = 2, result port ready in half the cycles: releases only in
 * ready cycles, one a cycle (W = 1); the dispatcher compares with the head
 * at the start of the cycle. */
START_TEST(test_v2_rob_backpressure)
{
    static const st_req q[] = { {0,2},{1,1},{0,1},{1,1} };
    rcfg c = { 2, 1, 2, 1, 2, 0, 0, 2, 1, 0.5, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), NULL, 0, &c,
        "# lpmpipe sim cycle log v2: stages=2 ring queue=2 width=1 rob=2 lookahead=0 hop=2 ports=1\n"
        "0 S - - Q 0 0 win:0\n"
        "1 S - - Q 0 0 win:1\n"
        "2 S - - Q 1 0 push0:0 win:2\n"
        "3 S - - Q 1 1 push1:1 win:3\n"
        "4 S 0 - Q 0 1 pop0:0 stall:rob\n"
        "5 S - 1 Q 0 0 pop1:1 stall:rob\n"
        "6 S - 0 Q 0 0 stall:rob exit:1\n"
        "7 S - - Q 0 0 stall:rob exit:0\n"
        "8 S - - Q 0 0 stall:rob\n"
        "9 S - - Q 0 0 stall:rob\n"
        "10 S - - Q 0 0 rel:0 stall:rob\n"
        "11 S - - Q 1 0 rel:1 push0:2\n"
        "12 S - - Q 1 1 push1:3\n"
        "13 S 2 - Q 0 1 pop0:2\n"
        "14 S - 3 Q 0 0 pop1:3 exit:2\n"
        "15 S - - Q 0 0 exit:3\n"
        "16 S - - Q 0 0 rel:2\n"
        "17 S - - Q 0 0\n"
        "18 S - - Q 0 0 rel:3\n");

    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(r.res[i].id, i);
    ck_assert_uint_eq(r.res[1].out_cycle, 11);
    free(r.log);
}
END_TEST

/* D = 2, linear: every item enters stage 0 through queue 0 (lookups 2 and
 * 4 first read stage 1 and ride stage 0); the bubble writes 7 into stage 1
 * in cycle 9. Lookups ahead of it (0, 1: stage 1 read in cycle 7) see the
 * old word, lookups behind it (2, 3, 4) the new one. */
START_TEST(test_v2_linear_bubble)
{
    static const st_req q[] = { {0,1},{0,2},{1,1},{0,3},{1,2} };
    lpm_sim_bubble b[1];
    memset(b, 0, sizeof b);
    b[0].nw = 1;
    b[0].w[0] = (lpm_sim_write){ 1, 0, 7 };
    b[0].ready = 2;
    rcfg c = { 3, 0, 2, 1, 0, 0, 0, 2, 1, 1.0, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), b, 1, &c,
        "# lpmpipe sim cycle log v2: stages=3 linear queue=2 width=1 rob=0 lookahead=0 hop=2 ports=1\n"
        "0 S - - - Q 0 0 0 win:0\n"
        "1 S - - - Q 0 0 0 win:1\n"
        "2 S - - - Q 1 0 0 push0:0 win:b0\n"
        "3 S - - - Q 2 0 0 push0:1 win:2\n"
        "4 S 0 - - Q 1 0 0 pop0:0 stall:q0 win:3\n"
        "5 S 1 - - Q 1 0 0 pop0:1 push0:b0\n"
        "6 S - 0~ - Q 2 0 0 push0:2 win:4\n"
        "7 S b0~ 1 - Q 1 0 0 pop0:b0 stall:q0\n"
        "8 S 2~ - 0~ Q 1 0 0 pop0:2 push0:3\n"
        "9 S - b0 1~ Q 2 0 0 push0:4 exit:0\n"
        "10 S 3 2 - Q 1 0 0 out:0 pop0:3 exit:1\n"
        "11 S 4~ - b0~ Q 0 0 0 out:1 pop0:4\n"
        "12 S - 3 2~ Q 0 0 0\n"
        "13 S - 4 - Q 0 0 0 exit:2\n"
        "14 S - - 3 Q 0 0 0 out:2\n"
        "15 S - - 4 Q 0 0 0 exit:3\n"
        "16 S - - - Q 0 0 0 out:3 exit:4\n"
        "17 S - - - Q 0 0 0 out:4\n");

    ck_assert_uint_eq(r.res[0].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[1].nh, LPM_NH_NONE);
    for (unsigned i = 2; i < 5; i++)
        ck_assert_uint_eq(r.res[i].nh, 7);
    ck_assert_uint_eq(r.st.bubbles, 1);
    free(r.log);
}
END_TEST

/* D = 2, two ports, W = 2: queue 0 gives two lookups a cycle (cycle 4);
 * the bubble enters the window alone (cycle 2: no request beside it),
 * takes both lanes of stage 0 when both are idle (cycle 6) and of stage 1
 * (cycle 8), writing each stage once. Lookups 4 and 5, behind it, read its
 * word 5; lookup 2 read both stages before the bubble did. Results leave
 * one per lane per cycle, in lane order. */
START_TEST(test_v2_dual_port)
{
    static const st_req q[] = { {0,2},{0,2},{0,2},{1,1},{0,1},{0,1} };
    lpm_sim_bubble b[1];
    two_writes(b, 0, 5, 1, 6, 2);
    rcfg c = { 2, 1, 4, 2, 0, 0, 0, 2, 2, 1.0, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), b, 1, &c,
        "# lpmpipe sim cycle log v2: stages=2 ring queue=4 width=2 rob=0 lookahead=0 hop=2 ports=2\n"
        "0 S -/- -/- Q 0 0 win:0 win:1\n"
        "1 S -/- -/- Q 0 0 win:2 win:3\n"
        "2 S -/- -/- Q 2 0 push0:0 push0:1 win:b0\n"
        "3 S -/- -/- Q 3 1 push0:2 push1:3 win:4 win:5\n"
        "4 S 0/1 -/- Q 2 1 pop0:0 pop0:1 push0:b0\n"
        "5 S 2/- 3/- Q 3 0 pop0:2 pop1:3 push0:4 push0:5\n"
        "6 S b0/b0 0/1 Q 2 0 pop0:b0 exit:3\n"
        "7 S 4/5 2/- Q 0 0 out:3 pop0:4 pop0:5 exit:0 exit:1\n"
        "8 S -/- b0/b0 Q 0 0 out:0 out:1 exit:4 exit:5 exit:2\n"
        "9 S -/- -/- Q 0 0 out:4 out:5 out:2\n");

    ck_assert_uint_eq(r.res[5].id, 2);
    ck_assert_uint_eq(r.res[5].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[3].nh, 5);
    ck_assert_uint_eq(r.res[4].nh, 5);
    ck_assert_uint_eq(r.st.bubbles, 1);
    free(r.log);
}
END_TEST

/* D = 3, ring of 3: the late bubble. Ready in cycle 1, it is taken in
 * cycle 1 (the window had room at the start of the cycle) and enters the
 * window in cycle 2; neither cycle takes a request (request 1 waits to
 * cycle 3). Dispatched at cycle 2 + D = 5, popped at 7, it writes stage 0
 * in cycle 7 and stage 2 in 13: lookup 3 reads stage 0 in cycle 10 (the
 * new word 5), lookup 1 stage 2 in cycle 11 (the old one). */
START_TEST(test_v3_late_bubble)
{
    static const st_req q[] = { {0,1},{1,2},{2,1},{0,2} };
    lpm_sim_bubble b[1];
    two_writes(b, 0, 5, 2, 9, 1);
    rcfg c = { 3, 1, 2, 1, 0, 0, 0, 3, 1, 1.0, 0, 0 };
    st_run r;
    rule_run(&r, q, N(q), b, 1, &c,
        "# lpmpipe sim cycle log v2: stages=3 ring queue=2 width=1 rob=0 lookahead=0 hop=3 ports=1\n"
        "0 S - - - Q 0 0 0 win:0\n"
        "1 S - - - Q 0 0 0\n"
        "2 S - - - Q 0 0 0 win:b0\n"
        "3 S - - - Q 1 0 0 push0:0 win:1\n"
        "4 S - - - Q 1 0 0 win:2\n"
        "5 S 0 - - Q 1 0 0 pop0:0 push0:b0 win:3\n"
        "6 S - - - Q 1 1 0 push1:1\n"
        "7 S b0 - - Q 0 1 1 pop0:b0 push2:2 exit:0\n"
        "8 S - 1 - Q 1 0 1 out:0 pop1:1 push0:3\n"
        "9 S - - 2 Q 1 0 0 pop2:2\n"
        "10 S 3 b0~ - Q 0 0 0 pop0:3\n"
        "11 S - - 1 Q 0 0 0 exit:2\n"
        "12 S - - - Q 0 0 0 out:2\n"
        "13 S - 3 b0 Q 0 0 0 exit:1\n"
        "14 S - - - Q 0 0 0 out:1\n"
        "15 S - - - Q 0 0 0 exit:3\n"
        "16 S - - - Q 0 0 0 out:3\n");

    static const uint64_t id[] = { 0, 2, 1, 3 };
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(r.res[i].id, id[i]);
    ck_assert_uint_eq(r.res[0].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[1].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[2].nh, LPM_NH_NONE);
    ck_assert_uint_eq(r.res[3].nh, 5);
    ck_assert_uint_eq(r.st.bubbles, 1);
    free(r.log);
}
END_TEST

/* The linear credit rules (section 4.1), D = 2, F = 4 credits: a request
 * is accepted while at least three are free as counted two cycles late
 * (cycles 0, 1, 2; then none until the results' credits come back: 16),
 * and holds stage 0 D + 1 cycles later. The bubble taken in cycle 2
 * (beside request 2) enters in 3, taking the cycle; it writes 5 into stage
 * 0 in 6 and 9 into stage 2 in 10, after lookups 0-2 read there and before
 * lookup 3 does. Request 1 is a DIT answer: it rides every stage unread.
 * Every lookup exits at the last stage a cycle after its read (8, 9, 10,
 * 24), can be fetched from the FIFO three cycles after its exit while the
 * output holds at most two (counting the one fetched in the cycle before:
 * 13 fetches the third) and leaves from the second cycle after its fetch,
 * in input order. */
START_TEST(test_v2_linear_credit)
{
    static const st_req q[] = { {0,1},{0,0},{0,3},{0,3} };
    lpm_sim_bubble b[1];
    two_writes(b, 0, 5, 2, 9, 2);
    rcfg c = { 3, 0, 2, 1, 0, 0, 0, 2, 1, 1.0, 4, 0 };
    st_run r;
    rule_run(&r, q, N(q), b, 1, &c,
        "# lpmpipe sim cycle log v2: stages=3 linear queue=2 width=1 rob=0 lookahead=0 hop=2 ports=1 fifo=4\n"
        "0 S - - - R 0 win:0\n"
        "1 S - - - R 0 win:1\n"
        "2 S - - - R 0 win:2\n"
        "3 S 0 - - R 0 win:b0\n"
        "4 S 1~ - - R 0\n"
        "5 S 2 0~ - R 0\n"
        "6 S b0 1~ - R 0\n"
        "7 S - 2 0~ R 0\n"
        "8 S - b0~ 1~ R 1 exit:0\n"
        "9 S - - 2 R 2 exit:1\n"
        "10 S - - b0 R 3 exit:2\n"
        "11 S - - - R 3 fetch:0\n"
        "12 S - - - R 3 fetch:1\n"
        "13 S - - - R 2 out:0 fetch:2\n"
        "14 S - - - R 1 out:1\n"
        "15 S - - - R 0 out:2\n"
        "16 S - - - R 0 win:3\n"
        "17 S - - - R 0\n"
        "18 S - - - R 0\n"
        "19 S 3 - - R 0\n"
        "20 S - - - R 0\n"
        "21 S - 3 - R 0\n"
        "22 S - - - R 0\n"
        "23 S - - 3 R 0\n"
        "24 S - - - R 1 exit:3\n"
        "25 S - - - R 1\n"
        "26 S - - - R 1\n"
        "27 S - - - R 1 fetch:3\n"
        "28 S - - - R 1\n"
        "29 S - - - R 0 out:3\n");

    static const uint32_t nh[] = { LPM_NH_NONE, LPM_NH_NONE, LPM_NH_NONE, 9 };
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(r.res[i].id, i);
        ck_assert_uint_eq(r.res[i].nh, nh[i]);
    }
    ck_assert_uint_eq(r.st.bubbles, 1);
    free(r.log);
}
END_TEST

/* The header is written and parsed in one place; other versions and
 * malformed lines are refused. */
/* D = 2, DIT answers through queue 0 (--dit-answers queue): lookups 0 and
 * 2 are answered by the DIT (read in 0 and 2, done in 2 and 4); each is
 * pushed into queue 0 like a lookup for stage 0 (push0 in 2 and 4, not
 * dit:), popped two cycles later at the earliest (4 and 6), passes stage 0
 * unread (0~, 2~) and exits through stage 0's lane D - 1 cycles after its
 * select (5 and 7), out a cycle later. Lookup 1 (stage 1, one read) goes
 * between them as usual. */
START_TEST(test_v2_dit_queue)
{
    static const st_req q[] = { {0,0},{1,1},{0,0} };
    rcfg c = { 2, 1, 2, 1, 0, 0, 0, 2, 1, 1.0, 0, 1 };
    st_run r;
    rule_run(&r, q, N(q), NULL, 0, &c,
        "# lpmpipe sim cycle log v2: stages=2 ring queue=2 width=1 rob=0 lookahead=0 hop=2 ports=1 answers=queue\n"
        "0 S - - Q 0 0 win:0\n"
        "1 S - - Q 0 0 win:1\n"
        "2 S - - Q 1 0 push0:0 win:2\n"
        "3 S - - Q 1 1 push1:1\n"
        "4 S 0~ - Q 1 1 pop0:0 push0:2\n"
        "5 S - 1 Q 1 0 pop1:1 exit:0\n"
        "6 S 2~ - Q 0 0 out:0 pop0:2 exit:1\n"
        "7 S - - Q 0 0 out:1 exit:2\n"
        "8 S - - Q 0 0 out:2\n");

    ck_assert_uint_eq(r.st.dit_answers, 2);
    ck_assert_uint_eq(r.res[0].id, 0);
    ck_assert_uint_eq(r.res[0].exit_cycle, 5);
    ck_assert_uint_eq(r.res[2].id, 2);
    ck_assert_uint_eq(r.res[2].exit_cycle, 7);
    free(r.log);
}
END_TEST

START_TEST(test_log_header)
{
    lpm_sim_log_hdr h = { 24, 1, 32, 4, 64, 16, 2, 2, 0, 0 }, g;
    char line[256];
    lpm_err err;
    lpm_sim_log_header(line, sizeof line, &h);
    ck_assert_str_eq(line, "# lpmpipe sim cycle log v2: stages=24 ring queue=32 width=4 rob=64 lookahead=16 hop=2 ports=2");
    ck_assert_int_eq(lpm_sim_log_header_parse(line, &g, &err), LPM_OK);
    ck_assert(g.stages == 24 && g.ring == 1 && g.queue == 32 && g.width == 4 && g.rob == 64 && g.lookahead == 16 &&
              g.hop == 2 && g.ports == 2);
    strcat(line, "\n");
    ck_assert_int_eq(lpm_sim_log_header_parse(line, &g, &err), LPM_OK);
    ck_assert_int_eq(lpm_sim_log_header_parse("# lpmpipe sim cycle log v1: stages=4 ring queue=2 width=1 rob=0 lookahead=0",
                                              &g, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "version 1"), "%s", err.msg);
    ck_assert_int_eq(lpm_sim_log_header_parse("# lpmpipe sim cycle log v2: stages=4 loop queue=2 width=1 rob=0 lookahead=0 hop=1 ports=1",
                                              &g, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_sim_log_header_parse("# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=1 rob=0 lookahead=0 hop=1",
                                              &g, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_sim_log_header_parse("0 S - - Q 0 0", &g, &err), LPM_EINPUT);
    /* the credit rules' key, written only when set */
    lpm_sim_log_hdr c = { 7, 0, 4, 1, 0, 0, 2, 1, 32, 0 };
    lpm_sim_log_header(line, sizeof line, &c);
    ck_assert_str_eq(line, "# lpmpipe sim cycle log v2: stages=7 linear queue=4 width=1 rob=0 lookahead=0 hop=2 ports=1 fifo=32");
    ck_assert_int_eq(lpm_sim_log_header_parse(line, &g, &err), LPM_OK);
    ck_assert(g.stages == 7 && !g.ring && g.fifo == 32 && g.hop == 2);
    ck_assert_int_eq(lpm_sim_log_header_parse("# lpmpipe sim cycle log v2: stages=7 linear queue=4 width=1 rob=0 lookahead=0 hop=2 ports=1 fifo=0",
                                              &g, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_sim_log_header_parse("# lpmpipe sim cycle log v2: stages=7 linear queue=4 width=1 rob=0 lookahead=0 hop=2 ports=1 fifo=x",
                                              &g, &err), LPM_EINPUT);
    /* DIT answers through queue 0: written only when set */
    lpm_sim_log_hdr a = { 4, 1, 4, 1, 0, 0, 3, 1, 0, 1 };
    lpm_sim_log_header(line, sizeof line, &a);
    ck_assert_str_eq(line, "# lpmpipe sim cycle log v2: stages=4 ring queue=4 width=1 rob=0 lookahead=0 hop=3 ports=1 answers=queue");
    ck_assert_int_eq(lpm_sim_log_header_parse(line, &g, &err), LPM_OK);
    ck_assert(g.stages == 4 && g.ring && g.dit_queue == 1 && g.hop == 3 && g.fifo == 0);
    ck_assert_int_eq(lpm_sim_log_header_parse(h.ring ? "# lpmpipe sim cycle log v2: stages=4 ring queue=4 width=1 rob=0 lookahead=0 hop=3 ports=1 answers=lane"
                                                     : "", &g, &err), LPM_EINPUT);
}
END_TEST

/* Configurations the rules do not define are refused. */
START_TEST(test_v2_refused)
{
    lpm_sim_synth sy;
    lpm_sim_walker w;
    lpm_sim_synth_init(&sy, 4, 0, &w);
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    lpm_sim *s;
    lpm_err err;
    cfg.queue = 0; /* D = 2 pushes only into queues */
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    cfg.queue = 4;
    cfg.width = 2; /* linear: W <= P */
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    cfg.ports = 2;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_OK);
    lpm_sim_free(s);
    cfg.ports = 3;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    cfg.ports = 1;
    cfg.width = 1;
    cfg.hop = 1;
    cfg.result_ready = 0.5; /* the one-cycle rules have no back-pressure */
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    /* the credit rules: linear, D >= 2, one lane, 4..4096 credits, no reordering */
    lpm_sim_cfg_default(&cfg);
    cfg.result_fifo = 8;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_OK);
    lpm_sim_free(s);
    static const struct { unsigned hop, ports, fifo, rob, la; } bad[] = {
        { 1, 1, 8, 0, 0 }, { 2, 2, 8, 0, 0 }, { 2, 1, 3, 0, 0 }, { 2, 1, 4097, 0, 0 }, { 2, 1, 8, 16, 0 }, { 2, 1, 8, 0, 4 },
    };
    for (unsigned i = 0; i < N(bad); i++) {
        lpm_sim_cfg_default(&cfg);
        cfg.hop = bad[i].hop;
        cfg.ports = bad[i].ports;
        cfg.result_fifo = bad[i].fifo;
        cfg.rob = bad[i].rob;
        cfg.lookahead = bad[i].la;
        ck_assert_msg(lpm_sim_new(&s, &w, &cfg, &err) == LPM_EINPUT, "case %u accepted", i);
        ck_assert_msg(strstr(err.msg, "result FIFO"), "%s", err.msg);
    }
    lpm_sim_synth_init(&sy, 4, 1, &w);
    lpm_sim_cfg_default(&cfg);
    cfg.result_fifo = 8;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "not a ring"), "%s", err.msg);
    /* DIT answers through queue 0: a rule of D >= 2 under the window rules */
    lpm_sim_cfg_default(&cfg);
    cfg.dit_queue = 1;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_OK);
    lpm_sim_free(s);
    cfg.hop = 1;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "DIT answers"), "%s", err.msg);
    lpm_sim_synth_init(&sy, 4, 0, &w);
    cfg.hop = 2;
    cfg.result_fifo = 8;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "DIT answers"), "%s", err.msg);
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
    tcase_add_test(tc, test_linear_entry_stage0);
    tcase_add_test(tc, test_v2_wrap_queue_wait);
    tcase_add_test(tc, test_v2_full_queue);
    tcase_add_test(tc, test_v2_backpressure);
    tcase_add_test(tc, test_v2_rob_backpressure);
    tcase_add_test(tc, test_v2_linear_bubble);
    tcase_add_test(tc, test_v2_dual_port);
    tcase_add_test(tc, test_v2_refused);
    tcase_add_test(tc, test_v3_late_bubble);
    tcase_add_test(tc, test_v2_linear_credit);
    tcase_add_test(tc, test_v2_dit_queue);
    tcase_add_test(tc, test_log_header);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
