// The Verilator testbench of `lpmpipe rtl verify`: replays a stimulus (keys,
// bubbles with their ready cycles, the request arrival rate and the result
// port's ready pattern) into lpm_tb_top exactly as the simulator's sources
// feed it (docs/microarchitecture.md section 2, steps 1 and 4), and writes
// the cycle log (section 7) and one line per result, so that lpmpipe can
// compare both with the simulator's. Generic over the configuration:
// tb_cfg.h holds the widths, and the bit helpers work on every port type.
//
// usage: Vlpm_tb_top KEYS BUBBLES LOG RESULTS [--load L] [--ready F] [--vcd FILE]
//   KEYS     first line: the count; then one key per line, hex, TB_KB bits
//   BUBBLES  one bubble per line: READY NW then NW writes STAGE:ADDR:WORD
//            (STAGE D: the direct index table; ADDR and WORD hex)
//   LOG      the cycle log; "-": none (for timing the model alone)
//   RESULTS  written: "id nhv nh dit_cycle exit_cycle out_cycle" per result
//   --load L   request i arrives at the first cycle t >= i / L (sim --load)
//   --ready F  the result port is ready in the cycles lpm_sim_ready picks (sim --result-ready)
#include <ctime>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vlpm_tb_top.h"
#include "ready.h"
#include "tb_cfg.h"
#include "verilated.h"
#if TB_VCD
#include "verilated_vcd_c.h"
#endif

static uint64_t mask(unsigned n) { return n >= 64 ? ~0ULL : (1ULL << n) - 1; }

template <class T> static uint64_t getb(const T &v, unsigned lo, unsigned n)
{
    return (uint64_t(v) >> lo) & mask(n);
}
template <std::size_t Nw> static uint64_t getb(const VlWide<Nw> &v, unsigned lo, unsigned n)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= uint64_t((v[(lo + i) / 32] >> ((lo + i) % 32)) & 1) << i;
    return r;
}
template <class T> static void setb(T &v, unsigned lo, unsigned n, uint64_t x)
{
    uint64_t m = mask(n) << lo;
    v = T((uint64_t(v) & ~m) | ((x << lo) & m));
}
template <std::size_t Nw> static void setb(VlWide<Nw> &v, unsigned lo, unsigned n, uint64_t x)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned b = lo + i;
        uint32_t bit = uint32_t(1) << (b % 32);
        if ((x >> i) & 1)
            v[b / 32] |= bit;
        else
            v[b / 32] &= ~bit;
    }
}

struct key128 { uint64_t hi, lo; };   // hi: the top 64 bits (IPv4: all 32 in lo)
struct bwrite { int dit, flags; unsigned stage; uint64_t addr, word; }; // flags: the F token (fence, drain, swap, copy)
struct bubble { uint64_t ready; std::vector<bwrite> w; };

struct tb_cfg {
    std::vector<key128> keys;
    std::vector<bubble> bubs;
    const char *log_path, *res_path, *vcd_path;
    double load;                     // 0: every request has arrived at cycle 0
    uint64_t ready_thr;
};

struct tb_state {
    VerilatedContext *ctx;
    Vlpm_tb_top *top;
#if TB_VCD
    VerilatedVcdC *vcd;
#endif
    bool want_line;
    uint64_t limit;
    FILE *lf, *rf;
    uint64_t t, nexti, nextb;
    bool src_done;
    std::deque<uint32_t> free_tags;   // no two requests in flight share a tag
    std::vector<uint64_t> tag_id, bub_of;
    std::vector<uint64_t> dit_cycle, exit_cycle;
    uint64_t held, fetched;           // the credit rules: results between exit and output; fetches so far
    std::string line;
};

#ifdef TB_LIB
#include <fcntl.h>
#include <unistd.h>

#include <stdexcept>
static void die(const char *m, const char *f)
{
    throw std::runtime_error(std::string(f) + ": " + m);
}
#else
static void die(const char *m, const char *f)
{
    fprintf(stderr, "tb: %s: %s\n", f, m);
    exit(2);
}
#endif

static void read_keys(const char *path, std::vector<key128> &keys)
{
    FILE *kf = fopen(path, "r");
    if (!kf)
        die("cannot open", path);
    unsigned long long nk = 0;
    if (fscanf(kf, "%llu", &nk) != 1)
        die("no count", path);
    keys.resize(nk);
    char buf[64];
    for (unsigned long long i = 0; i < nk; i++) {
        if (fscanf(kf, "%63s", buf) != 1)
            die("truncated", path);
        std::string s(buf);
        key128 k{0, 0};
        if (s.size() > 16) {
            k.hi = strtoull(s.substr(0, s.size() - 16).c_str(), nullptr, 16);
            k.lo = strtoull(s.substr(s.size() - 16).c_str(), nullptr, 16);
        } else {
            k.lo = strtoull(s.c_str(), nullptr, 16);
        }
        keys[i] = k;
    }
    fclose(kf);
}

static void read_bubbles(const char *path, std::vector<bubble> &bubs)
{
    FILE *bf = fopen(path, "r");
    if (!bf)
        die("cannot open", path);
    unsigned long long ready;
    unsigned nw;
    while (fscanf(bf, "%llu %u", &ready, &nw) == 2) {
        bubble b;
        b.ready = ready;
        for (unsigned j = 0; j < nw; j++) {
            char st[16];
            unsigned long long a, w;
            if (fscanf(bf, " %15[^:]:%llx:%llx", st, &a, &w) != 3)
                die("bad write", path);
            bwrite x;
            x.dit = st[0] == 'D';
            x.flags = st[0] == 'F';
            if (x.flags && TB_CP < 2)
                die("copy-rule flags for an image without a shadow copy", path);
            x.stage = x.dit || x.flags ? 0 : (unsigned)atoi(st);
            x.addr = a;
            x.word = w;
            b.w.push_back(x);
        }
        bubs.push_back(b);
    }
    fclose(bf);
}

#ifndef TB_LIB
static void parse(int argc, char **argv, tb_cfg &c)
{
    if (argc < 5)
        die("usage: Vlpm_tb_top KEYS BUBBLES LOG RESULTS [--load L] [--ready F] [--vcd FILE]", "args");
    read_keys(argv[1], c.keys);
    read_bubbles(argv[2], c.bubs);
    c.log_path = argv[3];
    c.res_path = argv[4];
    c.vcd_path = nullptr;
    c.load = 0;
    c.ready_thr = lpm_sim_ready_threshold(1.0);
    for (int i = 5; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--load"))
            c.load = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--ready"))
            c.ready_thr = lpm_sim_ready_threshold(atof(argv[i + 1]));
        else if (!strcmp(argv[i], "--vcd"))
            c.vcd_path = argv[i + 1];
        else
            die("unknown option", argv[i]);
    }
}
#endif

// the simulator's arrival rule (sim.c, refill_one): request i has arrived at cycle t
static bool arrived(const tb_cfg &c, uint64_t i, uint64_t t)
{
    return !(c.load > 0 && (double)t < (double)i / c.load);
}

static void set_key(Vlpm_tb_top *top, unsigned lane, const key128 &k)
{
    unsigned base = lane * TB_KB;
    if (TB_KB <= 64) {
        setb(top->req_key, base, TB_KB, k.lo);
    } else {
        setb(top->req_key, base, 64, k.lo);
        setb(top->req_key, base + 64, TB_KB - 64, k.hi);
    }
}

// The inputs of cycle t: the ready bubble, the arrived requests lane by
// lane with the next free tags, and the result port's ready.
static void drive(const tb_cfg &c, tb_state &s)
{
    Vlpm_tb_top *top = s.top;
    bool bv = s.nextb < c.bubs.size() && c.bubs[s.nextb].ready <= s.t;
    top->bub_valid = bv;
    for (unsigned st = 0; st <= TB_N; st++)
        setb(top->bub_data, st * TB_BSW, 1, 0);
    if (TB_CP > 1)
        setb(top->bub_data, TB_BF, 4, 0);
    if (bv)
        for (const bwrite &x : c.bubs[s.nextb].w) {
            if (x.flags) {
                setb(top->bub_data, TB_BF, 4, x.word);
                continue;
            }
            unsigned b = x.dit ? TB_N * TB_BSW : x.stage * TB_BSW;
            unsigned aw = x.dit ? TB_XI : TB_AW, ww = x.dit ? TB_DB : TB_WB;
            setb(top->bub_data, b, 1, 1);
            setb(top->bub_data, b + 1, aw, x.addr);
            setb(top->bub_data, b + 1 + aw, ww, x.word);
        }
    bool v = true;
    for (unsigned k = 0; k < TB_W; k++) {
        uint64_t i = s.nexti + k;
        v = v && i < c.keys.size() && arrived(c, i, s.t) && k < s.free_tags.size();
        setb(top->req_valid, k, 1, v);
        setb(top->req_tag, k * TB_T, TB_T, v ? s.free_tags[k] : 0);
        if (v)
            set_key(top, k, c.keys[i]);
    }
    top->res_ready = lpm_sim_ready(s.t, c.ready_thr);
}

static std::string tok(const tb_state &s, uint64_t isb, uint64_t tag)
{
    if (isb)
        return "b" + std::to_string(s.bub_of[tag & mask(TB_BQB)]);
    return std::to_string(s.tag_id[tag & mask(TB_T)]);
}

// One cycle line of the log (docs/microarchitecture.md section 7).
static void log_cycle(const tb_state &s, unsigned nb, unsigned nr, std::string &line)
{
    const Vlpm_tb_top *top = s.top;
    line = std::to_string(s.t) + " S";
    for (unsigned l = 0; l < TB_N * TB_P; l++) {
        unsigned b = l * TB_SLW;
        line += l % TB_P ? "/" : " ";
        if (!getb(top->dbg_slot, b, 1)) {
            line += "-";
            continue;
        }
        line += tok(s, getb(top->dbg_slot, b + 1, 1), getb(top->dbg_slot, b + 3, TB_TG));
        if (!getb(top->dbg_slot, b + 2, 1))
            line += "~";
    }
#if TB_FIFO
    // the credit rules: no queues; the results between exit and output after
    // this cycle (observe counts them first), and a fetch from the FIFO after
    // the output (in input order: the k-th fetch is request k's)
    line += " R " + std::to_string(s.held);
    if (top->res_ready && getb(top->res_valid, 0, 1))
        line += " out:" + tok(s, 0, getb(top->res_tag, 0, TB_T));
    if (top->dbg_fetch)
        line += " fetch:" + std::to_string(s.fetched);
#else
    line += " Q";
    for (unsigned q = 0; q < TB_N; q++)
        line += " " + std::to_string(getb(top->dbg_qn, q * TB_QCB, TB_QCB));
    if (top->res_ready)
        for (unsigned l = 0; l < TB_L; l++)
            if (getb(top->res_valid, l, 1))
                line += " out:" + tok(s, 0, getb(top->res_tag, l * TB_T, TB_T));
#endif
    for (unsigned l = 0; l < TB_N * TB_P; l++)
        if (getb(top->dbg_pop, l, 1))
            line += " pop" + std::to_string(l / TB_P) + ":" +
                    tok(s, getb(top->dbg_slot, l * TB_SLW + 1, 1), getb(top->dbg_slot, l * TB_SLW + 3, TB_TG));
    for (unsigned j = 0; j < TB_W; j++) {
        unsigned a = (unsigned)getb(top->dbg_act, 2 * j, 2), b = j * TB_WTW;
        uint64_t isb = getb(top->dbg_wtok, b, 1), tag = getb(top->dbg_wtok, b + 1, TB_TG);
        uint64_t e = getb(top->dbg_wtok, b + 1 + TB_TG, TB_SB);
        if (a == 1)
            line += " dit:" + tok(s, 0, tag);
        else if (a == 2)
            line += " push" + std::to_string(e) + ":" + tok(s, isb, tag);
    }
    unsigned st = (unsigned)getb(top->dbg_stall, 0, 2);
    if (st == 1)
        line += " stall:q" + std::to_string(getb(top->dbg_stall_stg, 0, TB_SB));
    else if (st == 2)
        line += " stall:res";
    if (nb)
        line += " win:b" + std::to_string(s.bub_of[(s.nextb) & mask(TB_BQB)]);
    for (unsigned j = 0; j < nr; j++)
        line += " win:" + std::to_string(s.nexti + j);
    for (unsigned l = 0; l < TB_L; l++)
        if (getb(top->dbg_exit, l, 1))
            line += " exit:" + tok(s, 0, getb(top->dbg_exit_tag, l * TB_T, TB_T));
}

// What cycle t did, before its rising edge: acceptances, the log line,
// exits, outputs (their tags come free for the next cycle).
static void observe(const tb_cfg &c, tb_state &s)
{
    Vlpm_tb_top *top = s.top;
    unsigned nb = top->bub_valid && top->bub_ready ? 1 : 0, nr = 0;
    for (unsigned k = 0; k < TB_W && nr == k; k++)
        if (getb(top->req_valid, k, 1) && getb(top->req_ready, k, 1))
            nr++;
    if (nb)
        s.bub_of[s.nextb & mask(TB_BQB)] = s.nextb;
    for (unsigned j = 0; j < nr; j++) {
        uint32_t tag = s.free_tags.front();
        s.free_tags.pop_front();
        s.tag_id[tag] = s.nexti + j;
        s.dit_cycle[s.nexti + j] = s.t;
    }
    // the simulator's source is exhausted once a free window entry finds no request left
    if (!nb)
        for (unsigned j = 0; j < TB_W; j++) {
            uint64_t i = s.nexti + j;
            if (!getb(top->req_ready, j, 1) || (i < c.keys.size() && !arrived(c, i, s.t)))
                break;
            if (i == c.keys.size()) {
                s.src_done = arrived(c, i, s.t);
                break;
            }
            if (j >= nr)
                break;
        }
#if TB_FIFO
    s.held += getb(top->dbg_exit, 0, 1);
    s.held -= top->res_ready && getb(top->res_valid, 0, 1);
#endif
    if (s.want_line)
        log_cycle(s, nb, nr, s.line);
    for (unsigned l = 0; l < TB_L; l++)
        if (getb(top->dbg_exit, l, 1))
            s.exit_cycle[s.tag_id[getb(top->dbg_exit_tag, l * TB_T, TB_T)]] = s.t;
    if (top->res_ready)
        for (unsigned l = 0; l < TB_L; l++)
            if (getb(top->res_valid, l, 1)) {
                uint32_t tag = (uint32_t)getb(top->res_tag, l * TB_T, TB_T);
                uint64_t id = s.tag_id[tag];
                fprintf(s.rf, "%" PRIu64 " %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", id,
                        (unsigned)getb(top->res_nhv, l, 1), getb(top->res_nh, l * TB_NB, TB_NB), s.dit_cycle[id],
                        s.exit_cycle[id], s.t);
                s.free_tags.push_back(tag);
            }
    s.nexti += nr;
    s.nextb += nb;
#if TB_FIFO
    s.fetched += top->dbg_fetch;
#endif
}

// Reset, then the first cycle is 0.
static void start(const tb_cfg &c, tb_state &s)
{
    s.ctx = new VerilatedContext;
    s.top = new Vlpm_tb_top{s.ctx};
    Vlpm_tb_top *top = s.top;
    for (uint32_t g = 0; g < (1u << TB_T); g++)
        s.free_tags.push_back(g);
    s.tag_id.assign(1u << TB_T, 0);
    s.bub_of.assign(1u << TB_BQB, 0);
    s.dit_cycle.assign(c.keys.size(), 0);
    s.exit_cycle.assign(c.keys.size(), 0);
    top->rst = 1;
    top->clk = 1;
    top->req_valid = 0;
    top->bub_valid = 0;
    top->res_ready = 0;
    for (int i = 0; i < 2; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    s.limit = 1000000 + 1000 * (uint64_t)(c.keys.size() + c.bubs.size());
}

// One clock cycle (its line in s.line when s.want_line); 1 when the run is
// over after it (every request in and out, nothing in flight), -1 past the limit.
static int cycle(const tb_cfg &c, tb_state &s)
{
    Vlpm_tb_top *top = s.top;
    drive(c, s);
    top->clk = 0;
    top->eval();
#if TB_VCD
    if (s.vcd)
        s.vcd->dump(2 * s.t + 1);
#endif
    observe(c, s);
    top->clk = 1;
    top->eval();
#if TB_VCD
    if (s.vcd)
        s.vcd->dump(2 * s.t + 2);
#endif
    s.t++;
    // lpm_top's registered busy may stay high longer, never fall early
    if (top->busy && !top->dbg_busy_r) {
        fprintf(stderr, "tb: cycle %" PRIu64 ": the registered busy is low while items are in flight\n", s.t);
        return -1;
    }
    if (s.src_done && !top->busy)
        return 1;
    if (s.t > s.limit) {
        fprintf(stderr, "tb: still busy after %" PRIu64 " cycles\n", s.t);
        return -1;
    }
    return 0;
}

static void finish(tb_state &s)
{
#if TB_VCD
    if (s.vcd)
        s.vcd->close();
#endif
    s.top->final();
    delete s.top;
    delete s.ctx;
    s.top = nullptr;
    s.ctx = nullptr;
}

#ifndef TB_LIB
static int run(const tb_cfg &c, tb_state &s)
{
    start(c, s);
#if TB_VCD
    if (c.vcd_path) {
        s.ctx->traceEverOn(true);
        s.vcd = new VerilatedVcdC;
        s.top->trace(s.vcd, 99);
        s.vcd->open(c.vcd_path);
    }
#endif
    fprintf(s.lf, "%s\n", TB_LOG_HEADER); // written by lpmpipe's lpm_sim_log_header (sim/cycle_log.c)
    s.want_line = strcmp(c.log_path, "-") != 0;
    int r;
    while ((r = cycle(c, s)) == 0)
        if (s.want_line)
            fprintf(s.lf, "%s\n", s.line.c_str());
    if (r > 0 && s.want_line)
        fprintf(s.lf, "%s\n", s.line.c_str());
    finish(s);
    return r < 0 ? 1 : 0;
}

static double cpu_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    tb_cfg c;
    parse(argc, argv, c);
    tb_state s{};
    bool nolog = !strcmp(c.log_path, "-");
    s.lf = fopen(nolog ? "/dev/null" : c.log_path, "w");
    s.rf = fopen(c.res_path, "w");
    if (!s.lf || !s.rf)
        die("cannot write", c.log_path);
    // CPU time, as lpmpipe sim --timing measures: the two compare on a loaded machine
    double t0 = cpu_s();
    int rc = run(c, s);
    double sec = cpu_s() - t0;
    fprintf(stderr, "tb: %zu lookups, %" PRIu64 " cycles in %.3f s: %.0f cycles/s\n", c.keys.size(), s.t, sec,
            sec > 0 ? (double)s.t / sec : 0.0);
    if (fclose(s.lf) || fclose(s.rf)) {
        fprintf(stderr, "tb: write failed\n");
        return 1;
    }
    return rc;
}

#else
// The shared library for lpmpipe model verify --cosim (docs/models.md):
// the same testbench, stepped one cycle at a time from the SystemC kernel.
// C API, the only symbols exported; lpmpipe finds them with dlsym.
struct lpm_tb {
    tb_cfg c;
    tb_state s{};
};

#define TB_API extern "C" __attribute__((visibility("default")))
TB_API int lpm_tb_close(void *hv);

TB_API const char *lpm_tb_header(void)
{
    return TB_LOG_HEADER;
}

// NULL on failure, with the reason in err. dir: the generated folder (the
// memories' $readmemh files are read from there, at reset).
TB_API void *lpm_tb_open(const char *dir, const char *keys, const char *bubbles, const char *results, double load,
                         double ready, char *err, size_t errn)
{
    lpm_tb *h = new lpm_tb;
    try {
        read_keys(keys, h->c.keys);
        read_bubbles(bubbles, h->c.bubs);
    } catch (const std::exception &e) {
        snprintf(err, errn, "%s", e.what());
        delete h;
        return nullptr;
    }
    h->c.log_path = "";
    h->c.res_path = results;
    h->c.vcd_path = nullptr;
    h->c.load = load;
    h->c.ready_thr = lpm_sim_ready_threshold(ready);
    h->s.rf = fopen(results, "w");
    if (!h->s.rf) {
        snprintf(err, errn, "%s: cannot write", results);
        delete h;
        return nullptr;
    }
    h->s.want_line = true;
    int here = open(".", O_RDONLY | O_DIRECTORY);
    if (here < 0 || chdir(dir)) {
        snprintf(err, errn, "%s: cannot enter", dir);
        if (here >= 0)
            close(here);
        fclose(h->s.rf);
        delete h;
        return nullptr;
    }
    start(h->c, h->s);
    int back = fchdir(here);
    close(here);
    if (back) {
        snprintf(err, errn, "cannot return to the working folder");
        lpm_tb_close(h);
        return nullptr;
    }
    return h;
}

// One cycle: its log line in *line (valid until the next call); 1 when the
// run is over after it, 0 when not, -1 past the cycle limit.
TB_API int lpm_tb_step(void *hv, const char **line)
{
    lpm_tb *h = (lpm_tb *)hv;
    int r = cycle(h->c, h->s);
    *line = h->s.line.c_str();
    return r;
}

// The results file closed; 0, or -1 when it could not be written.
TB_API int lpm_tb_close(void *hv)
{
    lpm_tb *h = (lpm_tb *)hv;
    if (!h)
        return 0;
    finish(h->s);
    int bad = ferror(h->s.rf) | fclose(h->s.rf);
    delete h;
    return bad ? -1 : 0;
}
#endif
