// The Icarus Verilog testbench: the stimulus tb.cpp gives (requests with
// their arrival cycles, bubbles with their ready cycles, the result port's
// ready pattern, tags from a free list), one line per result in tb.cpp's
// format ("id nhv nh dit_cycle exit_cycle out_cycle"), so that `lpmpipe rtl
// verify --icarus` (the RTL) and `--gate` (the Yosys iCE40 netlist with the
// cell models) can compare them with the Verilated model's byte for byte.
//   vvp tb_icarus.vvp +n=COUNT +nb=BUBBLES +arrn=ARRIVAL_OF_COUNT +thr=HEX +out=FILE
//   (files in the current folder: keys.mem, arr.mem, bready.mem, bdata.mem)
`timescale 1ns / 1ps
module tb_icarus;
`include "tb_cfg.vh"
    localparam MAXK = 1 << 18, MAXB = 1 << 16, TAGS = 1 << TB_T;
    reg                    clk, rst;
    reg  [TB_W-1:0]        req_valid;
    wire [TB_W-1:0]        req_ready;
    reg  [TB_W*TB_T-1:0]   req_tag;
    reg  [TB_W*TB_KB-1:0]  req_key;
    reg                    bub_valid;
    wire                   bub_ready;
    reg  [TB_BW-1:0]       bub_data;
    wire [TB_L-1:0]        res_valid;
    wire [TB_L*TB_T-1:0]   res_tag;
    wire [TB_L-1:0]        res_nhv;
    wire [TB_L*TB_NB-1:0]  res_nh;
    reg                    res_ready;
    wire                   busy;
    wire                   busy_r;   // lpm_top's registered busy (lpm_tb_top's dbg_busy_r)
    wire [TB_L-1:0]        dbg_exit;
    wire [TB_L*TB_T-1:0]   dbg_exit_tag;

    lpm_tb_top dut (.clk(clk), .rst(rst), .req_valid(req_valid), .req_ready(req_ready), .req_tag(req_tag),
        .req_key(req_key), .bub_valid(bub_valid), .bub_ready(bub_ready), .bub_data(bub_data),
        .res_valid(res_valid), .res_tag(res_tag), .res_nhv(res_nhv), .res_nh(res_nh), .res_ready(res_ready),
        .busy(busy), .dbg_slot(), .dbg_pop(), .dbg_qn(), .dbg_act(), .dbg_wtok(), .dbg_stall(), .dbg_stall_stg(),
        .dbg_exit(dbg_exit), .dbg_exit_tag(dbg_exit_tag), .dbg_busy_r(busy_r));

    reg [TB_KB-1:0] keys [0:MAXK-1];
    reg [63:0]      arr [0:MAXK-1];
    reg [63:0]      bready [0:MAXB-1];
    reg [TB_BW-1:0] bdata [0:MAXB-1];
    reg [63:0]      dit_cycle [0:MAXK-1];
    reg [63:0]      exit_cycle [0:MAXK-1];
    integer         free_tag [0:TAGS-1];
    integer         tag_id [0:TAGS-1];
    reg [8*512-1:0] ofile;
    reg [63:0]      thr, arrn, t;
    integer n, nb, nexti, nextb, fh, fcount, k, j, l, nr, nbt, fd, id, tg;
    reg v, go, src_done, stop;

    // the simulator's ready pattern (sim/ready.h)
    function rdy;
        input [63:0] c;
        reg [63:0] z;
        begin
            z = c + 64'h9E3779B97F4A7C15;
            z = (z ^ (z >> 30)) * 64'hBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 64'h94D049BB133111EB;
            z = z ^ (z >> 31);
            rdy = thr == 64'hFFFFFFFFFFFFFFFF || (z >> 11) < thr;
        end
    endfunction

    initial begin
        if (!$value$plusargs("n=%d", n) || !$value$plusargs("nb=%d", nb) || !$value$plusargs("arrn=%h", arrn) ||
            !$value$plusargs("thr=%h", thr) || !$value$plusargs("out=%s", ofile)) begin
            $display("tb_icarus: needs +n= +nb= +arrn= +thr= +out=");
            $finish;
        end
        if (n > MAXK || nb > MAXB) begin
            $display("tb_icarus: at most %0d keys and %0d bubbles", MAXK, MAXB);
            $finish;
        end
        if (n > 0) begin
            $readmemh("keys.mem", keys);
            $readmemh("arr.mem", arr);
        end
        if (nb > 0) begin
            $readmemh("bready.mem", bready);
            $readmemh("bdata.mem", bdata);
        end
        fd = $fopen(ofile, "w");
        for (k = 0; k < TAGS; k = k + 1)
            free_tag[k] = k;
        fh = 0;
        fcount = TAGS;
        clk = 1'b1;
        rst = 1'b1;
        req_valid = {TB_W{1'b0}};
        req_tag = {(TB_W*TB_T){1'b0}};
        req_key = {(TB_W*TB_KB){1'b0}};
        bub_valid = 1'b0;
        bub_data = {TB_BW{1'b0}};
        res_ready = 1'b0;
        repeat (2) begin
            #1 clk = 1'b0;
            #1 clk = 1'b1;
        end
        #1 rst = 1'b0;
        nexti = 0;
        nextb = 0;
        t = 0;
        src_done = 1'b0;
        go = 1'b1;
        while (go) begin
            // inputs of cycle t
            bub_valid = nextb < nb && bready[nextb] <= t;
            bub_data = bub_valid ? bdata[nextb] : {TB_BW{1'b0}};
            v = 1'b1;
            for (k = 0; k < TB_W; k = k + 1) begin
                v = v && nexti + k < n && arr[nexti + k] <= t && k < fcount;
                req_valid[k] = v;
                req_tag[k*TB_T +: TB_T] = v ? free_tag[(fh + k) % TAGS] : 0;
                req_key[k*TB_KB +: TB_KB] = v ? keys[nexti + k] : {TB_KB{1'b0}};
            end
            res_ready = rdy(t);
            #1 clk = 1'b0;
            #1;
            // what cycle t did
            nbt = (bub_valid && bub_ready) ? 1 : 0;
            nr = 0;
            for (k = 0; k < TB_W; k = k + 1)
                if (nr == k && req_valid[k] && req_ready[k])
                    nr = nr + 1;
            for (j = 0; j < nr; j = j + 1) begin
                tg = free_tag[fh];
                fh = (fh + 1) % TAGS;
                fcount = fcount - 1;
                tag_id[tg] = nexti + j;
                dit_cycle[nexti + j] = t;
            end
            stop = nbt != 0;
            for (j = 0; j < TB_W; j = j + 1)
                if (!stop) begin
                    if (!req_ready[j] || (nexti + j < n && arr[nexti + j] > t)) begin
                        stop = 1'b1;
                    end else if (nexti + j == n) begin
                        src_done = arrn <= t;
                        stop = 1'b1;
                    end else if (j >= nr) begin
                        stop = 1'b1;
                    end
                end
            for (l = 0; l < TB_L; l = l + 1)
                if (dbg_exit[l])
                    exit_cycle[tag_id[dbg_exit_tag[l*TB_T +: TB_T]]] = t;
            if (res_ready)
                for (l = 0; l < TB_L; l = l + 1)
                    if (res_valid[l]) begin
                        tg = res_tag[l*TB_T +: TB_T];
                        id = tag_id[tg];
                        $fwrite(fd, "%0d %0d %0d %0d %0d %0d\n", id, res_nhv[l], res_nh[l*TB_NB +: TB_NB],
                                dit_cycle[id], exit_cycle[id], t);
                        free_tag[(fh + fcount) % TAGS] = tg;
                        fcount = fcount + 1;
                    end
            nexti = nexti + nr;
            nextb = nextb + nbt;
            #1 clk = 1'b1;
            #1;
            t = t + 1;
            // lpm_top's registered busy may stay high longer, never fall early (as tb.cpp)
            if (busy && !busy_r)
                $fatal(1, "tb_icarus: cycle %0d: the registered busy is low while items are in flight", t);
            if (src_done && !busy)
                go = 1'b0;
            // as tb.cpp: a pipeline that never empties fails, it does not hang
            if (t > 1000000 + 1000 * (n + nb))
                $fatal(1, "tb_icarus: still busy after %0d cycles", t);
        end
        $fclose(fd);
        $finish;
    end
endmodule
