`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

`ifndef GOLDEN_DIR
`define GOLDEN_DIR "build/hdl/golden"
`endif
`ifndef SEG_COUNT
`define SEG_COUNT 2
`endif

/*
 * Self-checking testbench of probe_counters with several segments per beat
 * (Icarus -g2012 and Verilator --binary --timing).
 *
 * Every golden request header (req_hdr.hex) is driven on the RX tap and every golden
 * completion header (probe_cpl.hex: the responder's, some with EP set) on the TX tap, spread over SEG_COUNT segments with random
 * valid, random non-sop beats and random ready (a TLP counts only on valid & ready & sop).
 * bar_ur sets one bit per UR completion, several per clock. At random clocks the bench pulses snapshot and
 * clear together; the sum of all those shadows must equal the golden totals
 * (probe_totals.hex): a snapshot-and-clear loses and doubles no event, even with
 * several events per clock.
 *
 * No counter is named here: the bench loops over all PS_CNT_COUNT counters and takes each
 * one's kind from the golden model (counters.hex, one line per counter in index order:
 * name[199:8] rule[7:0]): RULE_EVENTS sums must equal the golden total, RULE_CYCLES sums
 * must equal the clocks counted while enabled, RULE_FREE counters must increase at every
 * snapshot. Golden vectors built for another counter list fail the count check.
 */
// testbench arithmetic mixes integer bookkeeping with DUT-width vectors on purpose
/* verilator lint_off WIDTH */
module tb_probe_counters;

localparam SEG = `SEG_COUNT;
localparam MAX_REQ = 8192;
localparam MAX_CPL = 16384;
// the DUT owns the probe counters; the golden files list every counter of the spec
localparam CNT_COUNT = `PS_CNT_PROBE_COUNT;
localparam ALL_COUNT = `PS_CNT_COUNT;
// counter kinds, as RULE_CODE in test/hdl/golden.ts
localparam RULE_EVENTS = 8'd0;
localparam RULE_CYCLES = 8'd1;
localparam RULE_FREE = 8'd2;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

reg                  enable = 0;
reg                  clear = 0;
reg                  snapshot = 0;
wire                 enabled;
reg  [SEG*128-1:0]   rx_hdr = 0;
reg  [SEG-1:0]       rx_valid = 0;
reg  [SEG-1:0]       rx_sop = 0;
reg                  rx_ready = 0;
reg  [SEG*128-1:0]   tx_hdr = 0;
reg  [SEG-1:0]       tx_valid = 0;
reg  [SEG-1:0]       tx_sop = 0;
reg                  tx_ready = 0;
reg  [SEG-1:0]       bar_ur = 0;
wire [CNT_COUNT*64-1:0] cnt_shadow;

probe_counters #(
    .TLP_SEG_COUNT(SEG),
    .CNT_WIDTH(64)
) dut (
    .clk(clk), .rst(rst),
    .enable(enable), .clear(clear), .snapshot(snapshot), .enabled(enabled),
    .rx_req_tlp_hdr(rx_hdr), .rx_req_tlp_valid(rx_valid), .rx_req_tlp_sop(rx_sop), .rx_req_tlp_ready(rx_ready),
    .tx_cpl_tlp_hdr(tx_hdr), .tx_cpl_tlp_valid(tx_valid), .tx_cpl_tlp_sop(tx_sop), .tx_cpl_tlp_ready(tx_ready),
    .bar_ur(bar_ur),
    .filter_en(1'b0), .filter_base(64'd0), .filter_limit(64'd0),
    .cnt_shadow(cnt_shadow)
);

reg [31:0]  sizes  [0:4];
reg [127:0] req_hdr [0:MAX_REQ-1];
reg [127:0] cpl_exp [0:MAX_CPL-1];
reg [63:0]  totals [0:ALL_COUNT-1];
reg [199:0] cnt_info [0:ALL_COUNT-1];   // name[199:8] rule[7:0]
integer n_req, n_cpl, n_ur;

integer pass_count = 0;
integer fail_count = 0;

task automatic check(input cond, input [8*40-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (cond) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 30) $display("FAIL %0s: got %0d want %0d", what, got, want);
        end
    end
endtask

function automatic [7:0] rule_of(input integer c);
    rule_of = cnt_info[c][7:0];
endfunction

// check one counter, named by the golden model
task automatic check_counter(input integer c, input [8*40-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (got == want) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 30) $display("FAIL %0s counter %0d %0s: got %0d want %0d", what, c, cnt_info[c][199:8], got, want);
        end
    end
endtask

reg [31:0] lfsr = 32'hdead_beef;
function automatic [31:0] rnd(input integer dummy);
    begin
        lfsr = lfsr ^ (lfsr << 13);
        lfsr = lfsr ^ (lfsr >> 17);
        lfsr = lfsr ^ (lfsr << 5);
        rnd = lfsr;
    end
endfunction

reg [63:0] sum [0:CNT_COUNT-1];
integer c, s, k;
integer next_req = 0, next_cpl = 0, ur_left;
integer enabled_edges = 0, snapshots = 0, multi_beats = 0;
reg [63:0] last_ts [0:CNT_COUNT-1];
reg [31:0] r;
// clocks from the edge that samples a snapshot to the edge that loads the shadows: probe_counters
// registers its taps and controls, then each segment's events, then the increments
localparam LAG = 3;
// the snapshot-and-clear pulses of the last LAG+1 clocks, newest in bit 0: bit LAG's shadows
// are in now
reg [LAG:0] snap_pipe = {(LAG+1){1'b0}};
integer     d;

initial begin
    $readmemh({`GOLDEN_DIR, "/sizes.hex"}, sizes);
    n_req = sizes[0];
    n_cpl = sizes[1];
    if (n_req < 1 || n_req > MAX_REQ || n_cpl > MAX_CPL) begin
        $display("FAIL golden vectors hold %0d requests and %0d completions, more than the bench's %0d / %0d", n_req, n_cpl, MAX_REQ, MAX_CPL);
        $display("0 passed, 1 failed");
        $fatal(1, "tb_probe_counters: golden vectors too large");
    end
    $readmemh({`GOLDEN_DIR, "/req_hdr.hex"}, req_hdr, 0, n_req - 1);
    $readmemh({`GOLDEN_DIR, "/probe_cpl.hex"}, cpl_exp, 0, n_cpl - 1);
    if (sizes[3] != ALL_COUNT) begin
        $display("FAIL golden vectors have %0d counters, the generated PS_CNT_COUNT is %0d: regenerate both", sizes[3], ALL_COUNT);
        $display("0 passed, 1 failed");
        $fatal(1, "tb_probe_counters: golden counter list does not match PS_CNT_COUNT");
    end
    $readmemh({`GOLDEN_DIR, "/probe_totals.hex"}, totals);
    $readmemh({`GOLDEN_DIR, "/counters.hex"}, cnt_info);
    n_ur = sizes[4];
    ur_left = n_ur;
    for (c = 0; c < CNT_COUNT; c = c + 1) begin
        sum[c] = 0;
        last_ts[c] = 0;
        check_counter(c, "rule known", rule_of(c) <= RULE_FREE, 1);
    end

    repeat (3) @(negedge clk);
    rst = 0;
    @(negedge clk);
    check(cnt_shadow == 0, "shadows zero after reset", 0, 0);
    enable = 1;
    #1;
    check(enabled == 1, "enabled follows enable", enabled, 1);

    while (next_req < n_req || next_cpl < n_cpl || ur_left > 0) begin
        // the previous clock's handshakes consumed the presented TLPs
        if (rx_ready) begin
            for (s = 0; s < SEG; s = s + 1) if (rx_valid[s] && rx_sop[s]) next_req = next_req + 1;
        end
        if (tx_ready) begin
            for (s = 0; s < SEG; s = s + 1) if (tx_valid[s] && tx_sop[s]) next_cpl = next_cpl + 1;
        end
        // a snapshot-and-clear pulse sampled LAG+1 edges ago: its shadows are in now, fold them in
        if (snap_pipe[LAG]) begin
            for (c = 0; c < CNT_COUNT; c = c + 1) begin
                if (rule_of(c) == RULE_FREE) begin
                    if (cnt_shadow[c*64 +: 64] > last_ts[c]) check_counter(c, "increases", 1, 1);
                    else check_counter(c, "increases", cnt_shadow[c*64 +: 64], last_ts[c] + 1);
                    last_ts[c] = cnt_shadow[c*64 +: 64];
                end else begin
                    sum[c] = sum[c] + cnt_shadow[c*64 +: 64];
                end
            end
            snapshots = snapshots + 1;
        end
        if (enable) enabled_edges = enabled_edges + 1;

        // hold the presented TLPs while not ready (stream rule); else present new ones
        if (!(rx_ready == 0 && rx_valid != 0)) begin
            k = next_req;
            rx_valid = 0;
            rx_sop = 0;
            rx_hdr = 0;
            for (s = 0; s < SEG; s = s + 1) begin
                r = rnd(0);
                if (k < n_req && r[2:0] != 0) begin
                    rx_valid[s] = 1;
                    // a payload beat of an earlier TLP now and then: never counted
                    if (r[6:3] == 0) begin
                        rx_hdr[s*128 +: 128] = req_hdr[k];
                        multi_beats = multi_beats + 1;
                    end else begin
                        rx_sop[s] = 1;
                        rx_hdr[s*128 +: 128] = req_hdr[k];
                        k = k + 1;
                    end
                end
            end
        end
        if (!(tx_ready == 0 && tx_valid != 0)) begin
            k = next_cpl;
            tx_valid = 0;
            tx_sop = 0;
            tx_hdr = 0;
            for (s = 0; s < SEG; s = s + 1) begin
                r = rnd(0);
                if (k < n_cpl && r[1:0] != 0) begin
                    tx_valid[s] = 1;
                    if (r[6:3] == 0) begin
                        tx_hdr[s*128 +: 128] = cpl_exp[k];
                    end else begin
                        tx_sop[s] = 1;
                        tx_hdr[s*128 +: 128] = cpl_exp[k];
                        k = k + 1;
                    end
                end
            end
        end
        r = rnd(0);
        rx_ready = r[1:0] != 0;
        tx_ready = r[3:2] != 0;
        // up to SEG UR completions per clock, one bit per segment
        for (s = 0; s < SEG; s = s + 1) begin
            bar_ur[s] = (ur_left > 0) && (r[5:4] == 0) && (s == 0 || r[16 + s]);
            if (bar_ur[s]) ur_left = ur_left - 1;
        end
        snap_pipe = {snap_pipe[LAG-1:0], r[12:8] == 5'd0};
        snapshot = snap_pipe[0];
        clear = snap_pipe[0];
        @(negedge clk);
    end

    // drain the last presented beat, then a final snapshot-and-clear
    rx_valid = 0;
    tx_valid = 0;
    bar_ur = 0;
    if (snap_pipe[LAG]) begin
        for (c = 0; c < CNT_COUNT; c = c + 1) if (rule_of(c) != RULE_FREE) sum[c] = sum[c] + cnt_shadow[c*64 +: 64];
        snapshots = snapshots + 1;
    end
    if (enable) enabled_edges = enabled_edges + 1;
    snap_pipe = {snap_pipe[LAG-1:0], 1'b1};
    snapshot = 1;
    clear = 1;
    @(negedge clk);
    snapshot = 0;
    clear = 0;
    // disabled: nothing moves but the timestamp
    enable = 0;
    rx_valid = {SEG{1'b1}};
    rx_sop = {SEG{1'b1}};
    rx_ready = 1;
    bar_ur = {SEG{1'b1}};
    // the snapshot-and-clears still in the pipeline land, the final one last
    for (d = 0; d <= LAG; d = d + 1) begin
        if (snap_pipe[LAG]) begin
            for (c = 0; c < CNT_COUNT; c = c + 1) if (rule_of(c) != RULE_FREE) sum[c] = sum[c] + cnt_shadow[c*64 +: 64];
            snapshots = snapshots + 1;
        end
        snap_pipe = {snap_pipe[LAG-1:0], 1'b0};
        @(negedge clk);
    end
    repeat (4) @(negedge clk);
    rx_valid = 0;
    bar_ur = 0;
    snapshot = 1;
    @(negedge clk);
    snapshot = 0;
    repeat (LAG) @(negedge clk);
    for (c = 0; c < CNT_COUNT; c = c + 1) begin
        if (rule_of(c) != RULE_FREE) check_counter(c, "moved while disabled", cnt_shadow[c*64 +: 64], 0);
    end

    // every counter against its golden total (a clock counter against the clocks seen enabled)
    for (c = 0; c < CNT_COUNT; c = c + 1) begin
        case (rule_of(c))
            RULE_EVENTS: check_counter(c, "total", sum[c], totals[c]);
            RULE_CYCLES: check_counter(c, "enabled clocks", sum[c], enabled_edges);
            default: ;  // RULE_FREE: checked at every snapshot above
        endcase
    end
    check(snapshots > 10, "several snapshot-and-clears", snapshots, 10);
    check(multi_beats > 0, "non-sop beats exercised", multi_beats, 1);

    $display("SEG_COUNT %0d: %0d requests, %0d completions, %0d snapshot-and-clears", SEG, n_req, n_cpl, snapshots);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_probe_counters failed");
    $finish;
end

initial begin
    #10000000;
    $display("FAIL: timeout");
    $display("%0d passed, %0d failed", pass_count, fail_count + 1);
    $fatal(1, "tb_probe_counters timed out");
end

endmodule
