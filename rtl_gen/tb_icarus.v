// The Icarus Verilog testbench: the same request stimulus as tb.cpp (no
// bubbles), the same lane protocol, one line per result in tb.cpp's format
// ("id nhv nh dit_cycle exit_cycle out_cycle"), so that `lpmpipe rtl verify
// --icarus` can compare the two simulators' results byte for byte.
//   vvp tb_icarus.vvp +keys=FILE +n=COUNT +out=FILE   (keys: one hex key a line)
`timescale 1ns / 1ps
module tb_icarus;
`include "tb_cfg.vh"
    localparam MAXK = 65536;
    reg                    clk, rst;
    reg  [TB_W-1:0]        req_valid;
    wire [TB_W-1:0]        req_ready;
    reg  [TB_W*TB_ID-1:0]  req_id;
    reg  [TB_W*TB_KB-1:0]  req_key;
    wire [TB_W-1:0]        bub_ready;
    wire [TB_L-1:0]        res_valid;
    wire [TB_L*TB_ID-1:0]  res_id;
    wire [TB_L-1:0]        res_nhv;
    wire [TB_L*TB_NB-1:0]  res_nh;
    wire                   busy;
    wire [TB_N+TB_W-1:0]   dbg_exit;
    wire [(TB_N+TB_W)*TB_ID-1:0] dbg_exit_tag;

    lpm_top dut (.clk(clk), .rst(rst), .req_valid(req_valid), .req_ready(req_ready), .req_id(req_id),
                 .req_key(req_key), .bub_valid({TB_W{1'b0}}), .bub_ready(bub_ready),
                 .bub_data({(TB_W*TB_BW){1'b0}}), .res_valid(res_valid), .res_id(res_id), .res_nhv(res_nhv),
                 .res_nh(res_nh), .busy(busy), .dbg_cur(), .dbg_read(), .dbg_pop(), .dbg_qn(), .dbg_win(),
                 .dbg_win_n(), .dbg_act(), .dbg_stall(), .dbg_stall_stg(), .dbg_exit(dbg_exit),
                 .dbg_exit_tag(dbg_exit_tag));

    reg [TB_KB-1:0] keys [0:MAXK-1];
    reg [63:0]      dit_cycle [0:MAXK-1];
    reg [63:0]      exit_cycle [0:MAXK-1];
    reg [8*512-1:0] kfile, ofile;
    integer n, nexti, t, k, nr, rdy, fd, id;
    reg go, src_done;

    initial begin
        if (!$value$plusargs("keys=%s", kfile) || !$value$plusargs("n=%d", n) || !$value$plusargs("out=%s", ofile)) begin
            $display("tb_icarus: needs +keys=FILE +n=COUNT +out=FILE");
            $finish;
        end
        if (n > MAXK) begin
            $display("tb_icarus: at most %0d keys", MAXK);
            $finish;
        end
        $readmemh(kfile, keys);
        fd = $fopen(ofile, "w");
        clk = 1'b1;
        rst = 1'b1;
        req_valid = {TB_W{1'b0}};
        req_id = {(TB_W*TB_ID){1'b0}};
        req_key = {(TB_W*TB_KB){1'b0}};
        repeat (2) begin
            #1 clk = 1'b0;
            #1 clk = 1'b1;
        end
        #1 rst = 1'b0;
        nexti = 0;
        t = 0;
        src_done = 1'b0;
        go = 1'b1;
        while (go) begin
            for (k = 0; k < TB_W; k = k + 1) begin
                req_valid[k] = nexti + k < n;
                req_id[k*TB_ID +: TB_ID] = nexti + k;
                req_key[k*TB_KB +: TB_KB] = nexti + k < n ? keys[nexti + k] : {TB_KB{1'b0}};
            end
            #1 clk = 1'b0;
            #1;
            nr = 0;
            rdy = 0;
            for (k = 0; k < TB_W; k = k + 1) begin
                rdy = rdy + req_ready[k];
                if (req_valid[k] && req_ready[k] && nr == k)
                    nr = nr + 1;
            end
            for (k = 0; k < nr; k = k + 1)
                dit_cycle[nexti + k] = t;
            for (k = 0; k < TB_N + TB_W; k = k + 1)
                if (dbg_exit[k])
                    exit_cycle[dbg_exit_tag[k*TB_ID +: TB_ID]] = t;
            for (k = 0; k < TB_L; k = k + 1)
                if (res_valid[k]) begin
                    id = res_id[k*TB_ID +: TB_ID];
                    $fwrite(fd, "%0d %0d %0d %0d %0d %0d\n", id, res_nhv[k], res_nh[k*TB_NB +: TB_NB],
                            dit_cycle[id], exit_cycle[id], t);
                end
            if (rdy > nr && nexti + nr == n)
                src_done = 1'b1;
            nexti = nexti + nr;
            #1 clk = 1'b1;
            #1;
            t = t + 1;
            if (src_done && !busy)
                go = 1'b0;
        end
        $fclose(fd);
        $finish;
    end
endmodule
