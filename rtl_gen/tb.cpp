// The Verilator testbench of `lpmpipe rtl verify`: replays a stimulus (keys,
// bubbles with their ready cycles) into lpm_top exactly as the simulator's
// sources feed it (docs/microarchitecture.md section 2, step 4), and writes
// the cycle log (section 6) and one line per result, so that lpmpipe can
// compare both with the simulator's. Generic over the configuration:
// tb_cfg.h holds the widths, and the bit helpers work on every port type.
//
// usage: Vlpm_top KEYS BUBBLES LOG RESULTS [VCD]
//   KEYS     first line: the count; then one key per line, hex, TB_KB bits
//   BUBBLES  one bubble per line: READY NW then NW writes STAGE:ADDR:WORD
//            (STAGE D: the direct index table; ADDR and WORD hex)
//   LOG      the cycle log; "-": none (for timing the model alone)
//   RESULTS  written: "id nhv nh dit_cycle exit_cycle out_cycle" per result
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vlpm_top.h"
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

struct key128 { uint64_t hi, lo; };   // hi: the top 64 bits (or all 32 of IPv4 in lo)
struct bwrite { int dit; unsigned stage; uint64_t addr, word; };
struct bubble { uint64_t ready; std::vector<bwrite> w; };

static void die(const char *m, const char *f)
{
    fprintf(stderr, "tb: %s: %s\n", f, m);
    exit(2);
}

static void set_key(Vlpm_top *top, unsigned lane, const key128 &k)
{
    unsigned base = lane * TB_KB;
    if (TB_KB <= 64) {
        setb(top->req_key, base, TB_KB, k.lo);
    } else {
        setb(top->req_key, base, 64, k.lo);
        setb(top->req_key, base + 64, TB_KB - 64, k.hi);
    }
}

int main(int argc, char **argv)
{
    if (argc < 5)
        die("usage: Vlpm_top KEYS BUBBLES LOG RESULTS [VCD]", "args");
    std::vector<key128> keys;
    FILE *kf = fopen(argv[1], "r");
    if (!kf)
        die("cannot open", argv[1]);
    unsigned long long nk = 0;
    if (fscanf(kf, "%llu", &nk) != 1)
        die("no count", argv[1]);
    keys.resize(nk);
    char buf[64];
    for (unsigned long long i = 0; i < nk; i++) {
        if (fscanf(kf, "%63s", buf) != 1)
            die("truncated", argv[1]);
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
    std::vector<bubble> bubs;
    FILE *bf = fopen(argv[2], "r");
    if (!bf)
        die("cannot open", argv[2]);
    unsigned long long ready;
    unsigned nw;
    while (fscanf(bf, "%llu %u", &ready, &nw) == 2) {
        bubble b;
        b.ready = ready;
        for (unsigned j = 0; j < nw; j++) {
            char st[16];
            unsigned long long a, w;
            if (fscanf(bf, " %15[^:]:%llx:%llx", st, &a, &w) != 3)
                die("bad write", argv[2]);
            bwrite x;
            x.dit = st[0] == 'D';
            x.stage = x.dit ? 0 : (unsigned)atoi(st);
            x.addr = a;
            x.word = w;
            b.w.push_back(x);
        }
        bubs.push_back(b);
    }
    fclose(bf);
    bool nolog = !strcmp(argv[3], "-");
    FILE *lf = fopen(nolog ? "/dev/null" : argv[3], "w");
    FILE *rf = fopen(argv[4], "w");
    if (!lf || !rf)
        die("cannot write", argv[3]);

    VerilatedContext *ctx = new VerilatedContext;
    Vlpm_top *top = new Vlpm_top{ctx};
#if TB_VCD
    VerilatedVcdC *vcd = nullptr;
    if (argc > 5) {
        ctx->traceEverOn(true);
        vcd = new VerilatedVcdC;
        top->trace(vcd, 99);
        vcd->open(argv[5]);
    }
#define DUMP(tm) do { if (vcd) vcd->dump(tm); } while (0)
#else
#define DUMP(tm) do { } while (0)
#endif
    top->rst = 1;
    top->clk = 1;
    top->req_valid = 0;
    top->bub_valid = 0;
    for (int i = 0; i < 2; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;

    std::vector<uint64_t> dit_cycle(nk), exit_cycle(nk);
    size_t nexti = 0, nextb = 0;
    uint64_t bseq = 0, t = 0, limit = 1000000 + 1000 * (uint64_t)(nk + bubs.size());
    bool src_done = false;
    fprintf(lf, "%s\n", TB_LOG_HEADER); // written by lpmpipe's lpm_sim_log_header (sim/cycle_log.c)
    std::string line;
    char tmp[64];
    auto tok = [&](uint64_t it_b, uint64_t tag) {
        snprintf(tmp, sizeof tmp, it_b ? "b%" PRIu64 : "%" PRIu64, tag);
        return std::string(tmp);
    };
    auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        // inputs of cycle t: the next requests and the ready bubbles, lane by lane
        for (unsigned k = 0; k < TB_W; k++) {
            bool v = nexti + k < nk;
            setb(top->req_valid, k, 1, v);
            setb(top->req_id, k * TB_ID, TB_ID, v ? nexti + k : 0);
            if (v)
                set_key(top, k, keys[nexti + k]);
            bool bv = nextb + k < bubs.size() && bubs[nextb + k].ready <= t;
            setb(top->bub_valid, k, 1, bv);
            for (unsigned s = 0; s < TB_N; s++)
                setb(top->bub_data, k * TB_BW + s * TB_BSW, 1, 0);
            setb(top->bub_data, k * TB_BW + TB_N * TB_BSW, 1, 0);
            if (!bv)
                continue;
            for (const bwrite &x : bubs[nextb + k].w) {
                if (x.dit) {
                    unsigned b = k * TB_BW + TB_N * TB_BSW;
                    setb(top->bub_data, b, 1, 1);
                    setb(top->bub_data, b + 1, TB_XI, x.addr);
                    setb(top->bub_data, b + 1 + TB_XI, TB_DB, x.word);
                } else {
                    unsigned b = k * TB_BW + x.stage * TB_BSW;
                    setb(top->bub_data, b, 1, 1);
                    setb(top->bub_data, b + 1, TB_AB, x.addr);
                    setb(top->bub_data, b + 1 + TB_AB, TB_WB, x.word);
                }
            }
        }
        top->clk = 0;
        top->eval();
        DUMP(2 * t + 1);

        // what cycle t did
        unsigned nb = 0, nr = 0, rdy = 0;
        for (unsigned k = 0; k < TB_W; k++) {
            if (getb(top->bub_valid, k, 1) && getb(top->bub_ready, k, 1) && nb == k)
                nb++;
        }
        for (unsigned k = 0; k < TB_W; k++) {
            rdy += (unsigned)getb(top->req_ready, k, 1);
            if (getb(top->req_valid, k, 1) && getb(top->req_ready, k, 1) && nr == k)
                nr++;
        }
        for (unsigned j = 0; j < nr; j++)
            dit_cycle[nexti + j] = t;
        for (unsigned k = 0; k < TB_N + TB_W; k++)
            if (getb(top->dbg_exit, k, 1)) {
                uint64_t id = getb(top->dbg_exit_tag, k * TB_ID, TB_ID);
                if (id < nk)
                    exit_cycle[id] = t;
            }
        if (!nolog) {
            line = std::to_string(t) + " S";
            for (unsigned s = 0; s < TB_N; s++) {
                unsigned b = s * TB_IW;
                if (!getb(top->dbg_cur, b, 1)) {
                    line += " -";
                    continue;
                }
                line += " " + tok(getb(top->dbg_cur, b + 1, 1), getb(top->dbg_cur, b + TB_O_TAG, TB_ID));
                if (!getb(top->dbg_read, s, 1))
                    line += "~";
            }
            line += " Q";
            for (unsigned s = 0; s < TB_N; s++)
                line += " " + std::to_string(getb(top->dbg_qn, s * TB_QCB, TB_QCB));
            if (TB_R)
                for (unsigned k = 0; k < TB_L; k++)
                    if (getb(top->res_valid, k, 1))
                        line += " rel:" + std::to_string(getb(top->res_id, k * TB_ID, TB_ID));
            for (unsigned s = 0; s < TB_N; s++)
                if (getb(top->dbg_pop, s, 1))
                    line += " pop" + std::to_string(s) + ":" +
                            tok(getb(top->dbg_cur, s * TB_IW + 1, 1), getb(top->dbg_cur, s * TB_IW + TB_O_TAG, TB_ID));
            unsigned wn = (unsigned)getb(top->dbg_win_n, 0, TB_WCB);
            for (unsigned i = 0; i < wn; i++) {
                unsigned a = (unsigned)getb(top->dbg_act, 2 * i, 2), b = i * TB_IW;
                if (!a)
                    break;
                uint64_t isb = getb(top->dbg_win, b + 1, 1), tag = getb(top->dbg_win, b + TB_O_TAG, TB_ID);
                uint64_t e = isb || !TB_RING ? 0 : getb(top->dbg_win, b + TB_O_STG, TB_SB);
                if (a == 1)
                    line += " dit:" + std::to_string(tag);
                else
                    line += std::string(a == 2 ? " in" : " push") + std::to_string(e) + ":" + tok(isb, tag);
            }
            unsigned st = (unsigned)getb(top->dbg_stall, 0, 2);
            if (st == 1)
                line += " stall:rob";
            else if (st == 2)
                line += " stall:q" + std::to_string(getb(top->dbg_stall_stg, 0, TB_SB));
            for (unsigned j = 0; j < nb; j++)
                line += " win:" + tok(1, bseq + j);
            for (unsigned j = 0; j < nr; j++)
                line += " win:" + std::to_string(nexti + j);
            for (unsigned k = 0; k < TB_N + TB_W; k++)
                if (getb(top->dbg_exit, k, 1))
                    line += " exit:" + std::to_string(getb(top->dbg_exit_tag, k * TB_ID, TB_ID));
            fprintf(lf, "%s\n", line.c_str());
        }
        for (unsigned k = 0; k < TB_L; k++)
            if (getb(top->res_valid, k, 1)) {
                uint64_t id = getb(top->res_id, k * TB_ID, TB_ID);
                fprintf(rf, "%" PRIu64 " %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", id,
                        (unsigned)getb(top->res_nhv, k, 1), getb(top->res_nh, k * TB_NB, TB_NB),
                        id < nk ? dit_cycle[id] : 0, id < nk ? exit_cycle[id] : 0, t);
            }
        // the simulator's source is exhausted once a free window entry finds no request
        if (rdy > nr && nexti + nr == nk)
            src_done = true;
        nexti += nr;
        nextb += nb;
        bseq += nb;

        top->clk = 1;
        top->eval();
        DUMP(2 * t + 2);
        t++;
        if (src_done && !top->busy)
            break;
        if (t > limit) {
            fprintf(stderr, "tb: still busy after %" PRIu64 " cycles\n", t);
            return 1;
        }
    }
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fprintf(stderr, "tb: %llu lookups, %" PRIu64 " cycles in %.3f s: %.0f cycles/s\n", nk, t, sec,
            sec > 0 ? (double)t / sec : 0.0);
#if TB_VCD
    if (vcd)
        vcd->close();
#endif
    top->final();
    if (fclose(lf) || fclose(rf)) {
        fprintf(stderr, "tb: write failed\n");
        return 1;
    }
    delete top;
    delete ctx;
    return 0;
}
