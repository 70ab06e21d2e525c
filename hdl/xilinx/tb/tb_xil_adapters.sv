`timescale 1ns / 1ps
`default_nettype none

/*
 * Self-checking bench of the UltraScale+ adapters (hdl/xilinx/rtl/): four channels at once,
 * each fed from vectors written by test/hdl/xilinx/descriptors.ts (field-by-field packing of
 * PG213's descriptor and tuser tables) and checked beat by beat against the expected other side:
 *   CQ beats (straddled at 512 bits)  -> xil_cq_rx -> generic requests
 *   RC beats (straddled)              -> xil_rc_rx -> generic completions (the round trip's return)
 *   generic requests                  -> xil_rq_tx -> RQ beats
 *   generic completions               -> xil_cc_tx -> CC beats
 * Inputs idle at random, outputs see random ready (an LFSR per channel, SEED); an AXI output
 * held under back-pressure must not change. At the end every expected beat has arrived, no
 * extra one, and each adapter's drop_count equals the vectors' count of refused TLPs.
 * Closing line: "N passed, N failed".
 */
module tb_xil_adapters;

parameter DATA_WIDTH = 512;
parameter STRADDLE = 1;
// 1: the Versal form (straddle off, tlast / tkeep framing; 512 or 1024 bits), docs/xilinx.md
// "Versal blocks"
parameter TLAST_FRAMING = 0;
parameter SEED = 1;

`ifndef GOLDEN_DIR
`define GOLDEN_DIR "build/hdl/xilinx/512"
`endif

localparam BEAT_DW = DATA_WIDTH/32;
// vector line layout (test/hdl/xilinx/descriptors.ts, CTL): ctl bits, then data
localparam CTL_W = TLAST_FRAMING != 0 ? 544 : 256;
localparam KEEP_AT = TLAST_FRAMING != 0 ? 480 : 192;
localparam LAST_AT = TLAST_FRAMING != 0 ? 512 : 208;
localparam SOP_AT = TLAST_FRAMING != 0 ? 160 : 144;
localparam EOP_AT = SOP_AT + 1;
localparam VEC_WIDTH = CTL_W + DATA_WIDTH;
localparam MAX_VECS = 8192;
localparam CQ_UW = TLAST_FRAMING != 0 ? (DATA_WIDTH == 1024 ? 465 : 229) : DATA_WIDTH == 512 ? 183 : 88;
localparam RC_UW = TLAST_FRAMING != 0 ? (DATA_WIDTH == 1024 ? 337 : 161) : DATA_WIDTH == 512 ? 161 : 75;
localparam RQ_UW = TLAST_FRAMING != 0 ? (DATA_WIDTH == 1024 ? 373 : 183) : DATA_WIDTH == 512 ? 137 : 62;
localparam CC_UW = TLAST_FRAMING != 0 ? (DATA_WIDTH == 1024 ? 165 : 81) : DATA_WIDTH == 512 ? 81 : 33;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

integer passed = 0;
integer failed = 0;
reg [31:0] counts [0:11];

function [31:0] xs(input [31:0] s);
    reg [31:0] x;
    begin
        x = s ^ (s << 13);
        x = x ^ (x >> 17);
        xs = x ^ (x << 5);
    end
endfunction

// a beat goes idle / a ready goes low about this often (of 16)
localparam GAP = 4;
localparam STALL = 5;

// ---------------------------------------------------------------- CQ: AXI in, generic out
reg [VEC_WIDTH-1:0] cq_in [0:MAX_VECS-1];
reg [VEC_WIDTH-1:0] cq_out [0:MAX_VECS-1];
reg [DATA_WIDTH-1:0] cq_tdata = 0;
reg [BEAT_DW-1:0] cq_tkeep = 0;
reg cq_tvalid = 1'b0, cq_tlast = 1'b0;
reg [CQ_UW-1:0] cq_tuser = 0;
wire cq_tready;
wire [DATA_WIDTH-1:0] cq_data;
wire [BEAT_DW-1:0] cq_strb;
wire [127:0] cq_hdr;
wire cq_valid, cq_sop, cq_eop;
reg cq_ready = 1'b0;
wire [31:0] cq_drops;
integer cq_i = 0, cq_o = 0;
reg cq_acc = 1'b0;
reg [31:0] cq_rin = SEED * 8 + 1, cq_rout = SEED * 8 + 2;

xil_cq_rx #(.DATA_WIDTH(DATA_WIDTH), .TLAST_FRAMING(TLAST_FRAMING), .USER_WIDTH(CQ_UW), .STRADDLE(DATA_WIDTH == 512 ? STRADDLE : 0)) cq_dut (
    .clk(clk), .rst(rst),
    .s_axis_cq_tdata(cq_tdata), .s_axis_cq_tkeep(cq_tkeep), .s_axis_cq_tvalid(cq_tvalid),
    .s_axis_cq_tready(cq_tready), .s_axis_cq_tlast(cq_tlast), .s_axis_cq_tuser(cq_tuser),
    .rx_tlp_data(cq_data), .rx_tlp_strb(cq_strb), .rx_tlp_hdr(cq_hdr), .rx_tlp_valid(cq_valid),
    .rx_tlp_sop(cq_sop), .rx_tlp_eop(cq_eop), .rx_tlp_ready(cq_ready), .drop_count(cq_drops)
);

always @(posedge clk) begin
    cq_acc = cq_tvalid && cq_tready;
    if (!rst && cq_valid && cq_ready) begin
        if (cq_o >= counts[1]) begin
            failed = failed + 1;
            $display("FAIL @%0t cq: extra output beat", $time);
        end else if (cq_data !== cq_out[cq_o][DATA_WIDTH-1:0] ||
                     cq_strb !== cq_out[cq_o][DATA_WIDTH+128 +: BEAT_DW] ||
                     cq_sop !== cq_out[cq_o][DATA_WIDTH+SOP_AT] || cq_eop !== cq_out[cq_o][DATA_WIDTH+EOP_AT] ||
                     (cq_sop && cq_hdr !== cq_out[cq_o][DATA_WIDTH +: 128])) begin
            failed = failed + 1;
            $display("FAIL @%0t cq beat %0d: hdr %h sop %b eop %b strb %h, want hdr %h sop %b eop %b strb %h",
                     $time, cq_o, cq_hdr, cq_sop, cq_eop, cq_strb, cq_out[cq_o][DATA_WIDTH +: 128],
                     cq_out[cq_o][DATA_WIDTH+SOP_AT], cq_out[cq_o][DATA_WIDTH+EOP_AT], cq_out[cq_o][DATA_WIDTH+128 +: BEAT_DW]);
        end else begin
            passed = passed + 1;
        end
        cq_o = cq_o + 1;
    end
end

always @(negedge clk) begin
    if (!rst) begin
        if (cq_acc) begin
            cq_i = cq_i + 1;
            cq_tvalid = 1'b0;
        end
        cq_rin = xs(cq_rin);
        if (!cq_tvalid && cq_i < counts[0] && cq_rin[3:0] >= GAP) begin
            cq_tdata = cq_in[cq_i][DATA_WIDTH-1:0];
            cq_tuser = cq_in[cq_i][DATA_WIDTH +: CQ_UW];
            cq_tkeep = cq_in[cq_i][DATA_WIDTH+KEEP_AT +: BEAT_DW];
            cq_tlast = cq_in[cq_i][DATA_WIDTH+LAST_AT];
            cq_tvalid = 1'b1;
        end
        cq_rout = xs(cq_rout);
        cq_ready = cq_rout[7:4] >= STALL;
    end
end

// ---------------------------------------------------------------- RC: AXI in, generic out
reg [VEC_WIDTH-1:0] rc_in [0:MAX_VECS-1];
reg [VEC_WIDTH-1:0] rc_out [0:MAX_VECS-1];
reg [DATA_WIDTH-1:0] rc_tdata = 0;
reg [BEAT_DW-1:0] rc_tkeep = 0;
reg rc_tvalid = 1'b0, rc_tlast = 1'b0;
reg [RC_UW-1:0] rc_tuser = 0;
wire rc_tready;
wire [DATA_WIDTH-1:0] rc_data;
wire [BEAT_DW-1:0] rc_strb;
wire [127:0] rc_hdr;
wire rc_valid, rc_sop, rc_eop;
reg rc_ready = 1'b0;
wire [31:0] rc_drops;
integer rc_i = 0, rc_o = 0;
reg rc_acc = 1'b0;
reg [31:0] rc_rin = SEED * 8 + 3, rc_rout = SEED * 8 + 4;

xil_rc_rx #(.DATA_WIDTH(DATA_WIDTH), .TLAST_FRAMING(TLAST_FRAMING), .USER_WIDTH(RC_UW), .STRADDLE(STRADDLE)) rc_dut (
    .clk(clk), .rst(rst),
    .s_axis_rc_tdata(rc_tdata), .s_axis_rc_tkeep(rc_tkeep), .s_axis_rc_tvalid(rc_tvalid),
    .s_axis_rc_tready(rc_tready), .s_axis_rc_tlast(rc_tlast), .s_axis_rc_tuser(rc_tuser),
    .rx_tlp_data(rc_data), .rx_tlp_strb(rc_strb), .rx_tlp_hdr(rc_hdr), .rx_tlp_valid(rc_valid),
    .rx_tlp_sop(rc_sop), .rx_tlp_eop(rc_eop), .rx_tlp_ready(rc_ready), .drop_count(rc_drops)
);

always @(posedge clk) begin
    rc_acc = rc_tvalid && rc_tready;
    if (!rst && rc_valid && rc_ready) begin
        if (rc_o >= counts[4]) begin
            failed = failed + 1;
            $display("FAIL @%0t rc: extra output beat", $time);
        end else if (rc_data !== rc_out[rc_o][DATA_WIDTH-1:0] ||
                     rc_strb !== rc_out[rc_o][DATA_WIDTH+128 +: BEAT_DW] ||
                     rc_sop !== rc_out[rc_o][DATA_WIDTH+SOP_AT] || rc_eop !== rc_out[rc_o][DATA_WIDTH+EOP_AT] ||
                     (rc_sop && rc_hdr !== rc_out[rc_o][DATA_WIDTH +: 128])) begin
            failed = failed + 1;
            $display("FAIL @%0t rc beat %0d: hdr %h sop %b eop %b strb %h, want hdr %h sop %b eop %b strb %h",
                     $time, rc_o, rc_hdr, rc_sop, rc_eop, rc_strb, rc_out[rc_o][DATA_WIDTH +: 128],
                     rc_out[rc_o][DATA_WIDTH+SOP_AT], rc_out[rc_o][DATA_WIDTH+EOP_AT], rc_out[rc_o][DATA_WIDTH+128 +: BEAT_DW]);
        end else begin
            passed = passed + 1;
        end
        rc_o = rc_o + 1;
    end
end

always @(negedge clk) begin
    if (!rst) begin
        if (rc_acc) begin
            rc_i = rc_i + 1;
            rc_tvalid = 1'b0;
        end
        rc_rin = xs(rc_rin);
        if (!rc_tvalid && rc_i < counts[3] && rc_rin[3:0] >= GAP) begin
            rc_tdata = rc_in[rc_i][DATA_WIDTH-1:0];
            rc_tuser = rc_in[rc_i][DATA_WIDTH +: RC_UW];
            rc_tkeep = rc_in[rc_i][DATA_WIDTH+KEEP_AT +: BEAT_DW];
            rc_tlast = rc_in[rc_i][DATA_WIDTH+LAST_AT];
            rc_tvalid = 1'b1;
        end
        rc_rout = xs(rc_rout);
        rc_ready = rc_rout[7:4] >= STALL;
    end
end

// ---------------------------------------------------------------- RQ: generic in, AXI out
reg [VEC_WIDTH-1:0] rq_in [0:MAX_VECS-1];
reg [VEC_WIDTH-1:0] rq_out [0:MAX_VECS-1];
reg [DATA_WIDTH-1:0] rq_data = 0;
reg [BEAT_DW-1:0] rq_strb = 0;
reg [127:0] rq_hdr = 0;
reg rq_valid = 1'b0, rq_sop = 1'b0, rq_eop = 1'b0;
wire rq_ready;
wire [DATA_WIDTH-1:0] rq_tdata;
wire [BEAT_DW-1:0] rq_tkeep;
wire rq_tvalid, rq_tlast;
wire [RQ_UW-1:0] rq_tuser;
reg rq_tready = 1'b0;
wire [31:0] rq_drops;
integer rq_i = 0, rq_o = 0, rq_k;
reg rq_acc = 1'b0, rq_held = 1'b0;
reg [DATA_WIDTH+BEAT_DW+RQ_UW:0] rq_last_beat = 0;
reg [DATA_WIDTH-1:0] rq_mask;
reg [31:0] rq_rin = SEED * 8 + 5, rq_rout = SEED * 8 + 6;

xil_rq_tx #(.DATA_WIDTH(DATA_WIDTH), .TLAST_FRAMING(TLAST_FRAMING), .USER_WIDTH(RQ_UW)) rq_dut (
    .clk(clk), .rst(rst),
    .tx_tlp_data(rq_data), .tx_tlp_strb(rq_strb), .tx_tlp_hdr(rq_hdr), .tx_tlp_valid(rq_valid),
    .tx_tlp_sop(rq_sop), .tx_tlp_eop(rq_eop), .tx_tlp_ready(rq_ready),
    .m_axis_rq_tdata(rq_tdata), .m_axis_rq_tkeep(rq_tkeep), .m_axis_rq_tvalid(rq_tvalid),
    .m_axis_rq_tready(rq_tready), .m_axis_rq_tlast(rq_tlast), .m_axis_rq_tuser(rq_tuser),
    .drop_count(rq_drops)
);

always @(posedge clk) begin
    rq_acc = rq_valid && rq_ready;
    if (!rst && rq_held && (!rq_tvalid || {rq_tdata, rq_tkeep, rq_tlast, rq_tuser} !== rq_last_beat)) begin
        failed = failed + 1;
        $display("FAIL @%0t rq: output changed while held by back-pressure", $time);
    end
    rq_held = !rst && rq_tvalid && !rq_tready;
    rq_last_beat = {rq_tdata, rq_tkeep, rq_tlast, rq_tuser};
    if (!rst && rq_tvalid && rq_tready) begin
        for (rq_k = 0; rq_k < BEAT_DW; rq_k = rq_k + 1) begin
            rq_mask[rq_k*32 +: 32] = {32{rq_out[rq_o < MAX_VECS ? rq_o : 0][DATA_WIDTH+KEEP_AT+rq_k]}};
        end
        if (rq_o >= counts[7]) begin
            failed = failed + 1;
            $display("FAIL @%0t rq: extra output beat", $time);
        end else if ((rq_tdata & rq_mask) !== (rq_out[rq_o][DATA_WIDTH-1:0] & rq_mask) ||
                     rq_tkeep !== rq_out[rq_o][DATA_WIDTH+KEEP_AT +: BEAT_DW] ||
                     rq_tlast !== rq_out[rq_o][DATA_WIDTH+LAST_AT] ||
                     rq_tuser !== rq_out[rq_o][DATA_WIDTH +: RQ_UW]) begin
            failed = failed + 1;
            $display("FAIL @%0t rq beat %0d: keep %h last %b user %h data[127:0] %h, want keep %h last %b user %h data[127:0] %h",
                     $time, rq_o, rq_tkeep, rq_tlast, rq_tuser, rq_tdata[127:0], rq_out[rq_o][DATA_WIDTH+KEEP_AT +: BEAT_DW],
                     rq_out[rq_o][DATA_WIDTH+LAST_AT], rq_out[rq_o][DATA_WIDTH +: RQ_UW], rq_out[rq_o][127:0]);
        end else begin
            passed = passed + 1;
        end
        rq_o = rq_o + 1;
    end
end

always @(negedge clk) begin
    if (!rst) begin
        if (rq_acc) begin
            rq_i = rq_i + 1;
            rq_valid = 1'b0;
        end
        rq_rin = xs(rq_rin);
        if (!rq_valid && rq_i < counts[6] && rq_rin[3:0] >= GAP) begin
            rq_data = rq_in[rq_i][DATA_WIDTH-1:0];
            rq_hdr = rq_in[rq_i][DATA_WIDTH +: 128];
            rq_strb = rq_in[rq_i][DATA_WIDTH+128 +: BEAT_DW];
            rq_sop = rq_in[rq_i][DATA_WIDTH+SOP_AT];
            rq_eop = rq_in[rq_i][DATA_WIDTH+EOP_AT];
            rq_valid = 1'b1;
        end
        rq_rout = xs(rq_rout);
        rq_tready = rq_rout[7:4] >= STALL;
    end
end

// ---------------------------------------------------------------- CC: generic in, AXI out
reg [VEC_WIDTH-1:0] cc_in [0:MAX_VECS-1];
reg [VEC_WIDTH-1:0] cc_out [0:MAX_VECS-1];
reg [DATA_WIDTH-1:0] cc_data = 0;
reg [BEAT_DW-1:0] cc_strb = 0;
reg [127:0] cc_hdr = 0;
reg cc_valid = 1'b0, cc_sop = 1'b0, cc_eop = 1'b0;
wire cc_ready;
wire [DATA_WIDTH-1:0] cc_tdata;
wire [BEAT_DW-1:0] cc_tkeep;
wire cc_tvalid, cc_tlast;
wire [CC_UW-1:0] cc_tuser;
reg cc_tready = 1'b0;
wire [31:0] cc_drops;
integer cc_i = 0, cc_o = 0, cc_k;
reg cc_acc = 1'b0, cc_held = 1'b0;
reg [DATA_WIDTH+BEAT_DW+CC_UW:0] cc_last_beat = 0;
reg [DATA_WIDTH-1:0] cc_mask;
reg [31:0] cc_rin = SEED * 8 + 7, cc_rout = SEED * 8 + 8;

xil_cc_tx #(.DATA_WIDTH(DATA_WIDTH), .TLAST_FRAMING(TLAST_FRAMING), .USER_WIDTH(CC_UW)) cc_dut (
    .clk(clk), .rst(rst),
    .tx_tlp_data(cc_data), .tx_tlp_strb(cc_strb), .tx_tlp_hdr(cc_hdr), .tx_tlp_valid(cc_valid),
    .tx_tlp_sop(cc_sop), .tx_tlp_eop(cc_eop), .tx_tlp_ready(cc_ready),
    .m_axis_cc_tdata(cc_tdata), .m_axis_cc_tkeep(cc_tkeep), .m_axis_cc_tvalid(cc_tvalid),
    .m_axis_cc_tready(cc_tready), .m_axis_cc_tlast(cc_tlast), .m_axis_cc_tuser(cc_tuser),
    .drop_count(cc_drops)
);

always @(posedge clk) begin
    cc_acc = cc_valid && cc_ready;
    if (!rst && cc_held && (!cc_tvalid || {cc_tdata, cc_tkeep, cc_tlast, cc_tuser} !== cc_last_beat)) begin
        failed = failed + 1;
        $display("FAIL @%0t cc: output changed while held by back-pressure", $time);
    end
    cc_held = !rst && cc_tvalid && !cc_tready;
    cc_last_beat = {cc_tdata, cc_tkeep, cc_tlast, cc_tuser};
    if (!rst && cc_tvalid && cc_tready) begin
        for (cc_k = 0; cc_k < BEAT_DW; cc_k = cc_k + 1) begin
            cc_mask[cc_k*32 +: 32] = {32{cc_out[cc_o < MAX_VECS ? cc_o : 0][DATA_WIDTH+KEEP_AT+cc_k]}};
        end
        if (cc_o >= counts[10]) begin
            failed = failed + 1;
            $display("FAIL @%0t cc: extra output beat", $time);
        end else if ((cc_tdata & cc_mask) !== (cc_out[cc_o][DATA_WIDTH-1:0] & cc_mask) ||
                     cc_tkeep !== cc_out[cc_o][DATA_WIDTH+KEEP_AT +: BEAT_DW] ||
                     cc_tlast !== cc_out[cc_o][DATA_WIDTH+LAST_AT] ||
                     cc_tuser !== cc_out[cc_o][DATA_WIDTH +: CC_UW]) begin
            failed = failed + 1;
            $display("FAIL @%0t cc beat %0d: keep %h last %b user %h data[127:0] %h, want keep %h last %b user %h data[127:0] %h",
                     $time, cc_o, cc_tkeep, cc_tlast, cc_tuser, cc_tdata[127:0], cc_out[cc_o][DATA_WIDTH+KEEP_AT +: BEAT_DW],
                     cc_out[cc_o][DATA_WIDTH+LAST_AT], cc_out[cc_o][DATA_WIDTH +: CC_UW], cc_out[cc_o][127:0]);
        end else begin
            passed = passed + 1;
        end
        cc_o = cc_o + 1;
    end
end

always @(negedge clk) begin
    if (!rst) begin
        if (cc_acc) begin
            cc_i = cc_i + 1;
            cc_valid = 1'b0;
        end
        cc_rin = xs(cc_rin);
        if (!cc_valid && cc_i < counts[9] && cc_rin[3:0] >= GAP) begin
            cc_data = cc_in[cc_i][DATA_WIDTH-1:0];
            cc_hdr = cc_in[cc_i][DATA_WIDTH +: 128];
            cc_strb = cc_in[cc_i][DATA_WIDTH+128 +: BEAT_DW];
            cc_sop = cc_in[cc_i][DATA_WIDTH+SOP_AT];
            cc_eop = cc_in[cc_i][DATA_WIDTH+EOP_AT];
            cc_valid = 1'b1;
        end
        cc_rout = xs(cc_rout);
        cc_tready = cc_rout[7:4] >= STALL;
    end
end

// ---------------------------------------------------------------- run
task check_count(input [8*8-1:0] name, input [31:0] got, input [31:0] want);
    begin
        if (got !== want) begin
            failed = failed + 1;
            $display("FAIL %0s: got %0d, want %0d", name, got, want);
        end else begin
            passed = passed + 1;
        end
    end
endtask

integer t;
initial begin
    $readmemh({`GOLDEN_DIR, "/counts.hex"}, counts);
    $readmemh({`GOLDEN_DIR, "/cq_in.hex"}, cq_in);
    $readmemh({`GOLDEN_DIR, "/cq_out.hex"}, cq_out);
    $readmemh({`GOLDEN_DIR, "/rc_in.hex"}, rc_in);
    $readmemh({`GOLDEN_DIR, "/rc_out.hex"}, rc_out);
    $readmemh({`GOLDEN_DIR, "/rq_in.hex"}, rq_in);
    $readmemh({`GOLDEN_DIR, "/rq_out.hex"}, rq_out);
    $readmemh({`GOLDEN_DIR, "/cc_in.hex"}, cc_in);
    $readmemh({`GOLDEN_DIR, "/cc_out.hex"}, cc_out);
    for (t = 0; t < 12; t = t + 1) begin
        if (counts[t] > MAX_VECS) begin
            $display("FAIL: vectors longer than the bench's MAX");
            $fatal(1);
        end
    end
    repeat (4) @(posedge clk);
    @(negedge clk);
    rst = 1'b0;
    t = 0;
    while (t < 400000 && (cq_o < counts[1] || rc_o < counts[4] || rq_o < counts[7] || cc_o < counts[10] ||
           cq_i < counts[0] || rc_i < counts[3] || rq_i < counts[6] || cc_i < counts[9])) begin
        @(posedge clk);
        t = t + 1;
    end
    repeat (64) @(posedge clk);
    check_count("cq beats", cq_o, counts[1]);
    check_count("rc beats", rc_o, counts[4]);
    check_count("rq beats", rq_o, counts[7]);
    check_count("cc beats", cc_o, counts[10]);
    check_count("cq drops", cq_drops, counts[2]);
    check_count("rc drops", rc_drops, counts[5]);
    check_count("rq drops", rq_drops, counts[8]);
    check_count("cc drops", cc_drops, counts[11]);
    $display("beats: cq %0d in %0d out, rc %0d in %0d out, rq %0d in %0d out, cc %0d in %0d out; drops cq %0d rc %0d rq %0d cc %0d; %0d clocks",
             cq_i, cq_o, rc_i, rc_o, rq_i, rq_o, cc_i, cc_o, cq_drops, rc_drops, rq_drops, cc_drops, t);
    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0) begin
        $fatal(1);
    end
    $finish;
end

endmodule
