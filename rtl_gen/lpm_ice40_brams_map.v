// Yosys techmap of $__LPM_ICE40_RAM4K_ (lpm_ice40_brams.txt) onto
// SB_RAM40_4K: the write enable on WCLKE, WE high, MASK low (whole-word
// writes). Data bit i of a W-bit port is the cell's bit rev4(i) + off(W),
// the narrow modes take their extra address bits at the top of RADDR and
// WADDR, and INIT (memory_libmap's, 2 bits an address unit) is sliced into
// INIT_0..F to match: the iCE40 block RAM's layout, as Yosys's own map.
module $__LPM_ICE40_RAM4K_ (...);
    parameter INIT = 0;
    parameter PORT_R_WIDTH = 16;
    parameter PORT_W_WIDTH = 16;
    parameter PORT_R_CLK_POL = 1;
    parameter PORT_W_CLK_POL = 1;
    input PORT_R_CLK;
    input PORT_R_RD_EN;
    input [10:0] PORT_R_ADDR;
    output [PORT_R_WIDTH-1:0] PORT_R_RD_DATA;
    input PORT_W_CLK;
    input PORT_W_WR_EN;
    input [10:0] PORT_W_ADDR;
    input [PORT_W_WIDTH-1:0] PORT_W_WR_DATA;

    function [1:0] mode(input integer width);
        mode = width == 16 ? 2'd0 : width == 8 ? 2'd1 : width == 4 ? 2'd2 : 2'd3;
    endfunction
    function integer rev4(input integer i);
        rev4 = i % 2 * 8 + i / 2 % 2 * 4 + i / 4 % 2 * 2 + i / 8 % 2;
    endfunction
    function integer off(input integer width);
        off = width == 4 ? 1 : width == 2 ? 3 : 0;
    endfunction
    function [255:0] slice_init(input [3:0] idx);
        integer i;
        reg [7:0] ri;
        for (i = 0; i < 256; i = i + 1) begin
            ri = i;
            slice_init[i] = INIT[{idx, ri[7:4], ri[0], ri[1], ri[2], ri[3]}];
        end
    endfunction

    wire [10:0] RADDR = {PORT_R_ADDR[0], PORT_R_ADDR[1], PORT_R_ADDR[2], PORT_R_ADDR[10:3]};
    wire [10:0] WADDR = {PORT_W_ADDR[0], PORT_W_ADDR[1], PORT_W_ADDR[2], PORT_W_ADDR[10:3]};
    wire [15:0] RDATA;
    wire [15:0] WDATA;
    genvar j, k;
    generate
        for (j = 0; j < PORT_R_WIDTH; j = j + 1) begin : g_rd
            assign PORT_R_RD_DATA[j] = RDATA[rev4(j) + off(PORT_R_WIDTH)];
        end
        // every cell bit driven: the data bit that sits there (rev4 is its
        // own inverse), or 0
        for (k = 0; k < 16; k = k + 1) begin : g_wr
            if (k >= off(PORT_W_WIDTH) && (k - off(PORT_W_WIDTH)) % (16 / PORT_W_WIDTH) == 0)
                assign WDATA[k] = PORT_W_WR_DATA[rev4(k - off(PORT_W_WIDTH))];
            else
                assign WDATA[k] = 1'b0;
        end
    endgenerate

`define LPM_RAM4K(type, rclk, wclk) \
    type #( \
        .INIT_0(slice_init(0)), .INIT_1(slice_init(1)), .INIT_2(slice_init(2)), .INIT_3(slice_init(3)), \
        .INIT_4(slice_init(4)), .INIT_5(slice_init(5)), .INIT_6(slice_init(6)), .INIT_7(slice_init(7)), \
        .INIT_8(slice_init(8)), .INIT_9(slice_init(9)), .INIT_A(slice_init(10)), .INIT_B(slice_init(11)), \
        .INIT_C(slice_init(12)), .INIT_D(slice_init(13)), .INIT_E(slice_init(14)), .INIT_F(slice_init(15)), \
        .READ_MODE(mode(PORT_R_WIDTH)), .WRITE_MODE(mode(PORT_W_WIDTH)) \
    ) _TECHMAP_REPLACE_ ( \
        .RDATA(RDATA), .rclk(PORT_R_CLK), .RCLKE(PORT_R_RD_EN), .RE(1'b1), .RADDR(RADDR), \
        .WDATA(WDATA), .wclk(PORT_W_CLK), .WCLKE(PORT_W_WR_EN), .WE(1'b1), .WADDR(WADDR), .MASK(16'b0) \
    );
    generate
        if (PORT_R_CLK_POL && PORT_W_CLK_POL) begin : g_pp
            `LPM_RAM4K(SB_RAM40_4K, RCLK, WCLK)
        end else if (PORT_R_CLK_POL) begin : g_pn
            `LPM_RAM4K(SB_RAM40_4KNW, RCLK, WCLKN)
        end else if (PORT_W_CLK_POL) begin : g_np
            `LPM_RAM4K(SB_RAM40_4KNR, RCLKN, WCLK)
        end else begin : g_nn
            `LPM_RAM4K(SB_RAM40_4KNRNW, RCLKN, WCLKN)
        end
    endgenerate
endmodule
