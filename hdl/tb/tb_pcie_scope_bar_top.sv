`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

`ifndef GOLDEN_DIR
`define GOLDEN_DIR "build/hdl/golden"
`endif

/*
 * Self-checking testbench of pcie_scope_bar_top (Icarus -g2012 and Verilator --binary --timing).
 *
 * Requests, expected completions and expected counters come from the golden model
 * (test/hdl/golden.ts, $readmemh files in GOLDEN_DIR). Phases, in golden PHASES order:
 *   0 latency-exact: BAR_LATENCY 250, tx always ready, gaps: latency must be exactly 250
 *   1 stress:        BAR_LATENCY 7, CPL_SPLIT 64 (reads split at 64-B boundaries), random
 *                    tx ready, back-to-back requests (FIFO fills);
 *                    a snapshot in the middle of the traffic is checked against the
 *                    golden counts of exactly the TLPs that passed before it
 *   2 disabled:      CTRL.ENABLE 0, CPL_SPLIT 128 from here on, heavy back-pressure:
 *                    counters must not move;
 *                    then CMD = SNAPSHOT|CLEAR and a snapshot of zeros
 *   3 after-clear:   BAR_LATENCY 0, random tx ready, the address filter on: reads outside the
 *                    golden FILTER_WINDOW count in no MRd counter (their completions still do)
 * Stimulus is driven with blocking assignments after @(negedge clk); monitors sample
 * at @(posedge clk) (pre-update values). Edge numbers: 'cyc' as read at a posedge.
 *
 * Counters are not named here: every snapshot check loops over all PS_CNT_COUNT counters
 * and takes each one's kind from the golden model (counters.hex, one line per counter in
 * index order: name[199:8] rule[7:0]). RULE_EVENTS: the golden request part (req_cum, counter
 * i at [64*i +: 64]) plus the golden completion part (cpl_cum); RULE_CYCLES: the clock edges
 * while enabled; RULE_FREE: advances by exactly the edges between two snapshots and is never
 * cleared; RULE_TRACKER: probe_tracker's statistics, checked exactly by tb_probe_tracker and by
 * the twin's tests, read here but not predicted. Golden vectors built for another counter list
 * fail the count check.
 */
// testbench arithmetic mixes integer bookkeeping with DUT-width vectors on purpose
/* verilator lint_off WIDTH */
// TLP_DATA_WIDTH, TAG_WIDTH and MPS (the top's MAX_PAYLOAD_BYTES) must be those the golden
// vectors were written for (golden.ts --strb, --mps); bench/golden-sweep.mjs sweeps them
module tb_pcie_scope_bar_top #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TAG_WIDTH = 8,
    parameter MPS = 256
);

localparam TLP_STRB_WIDTH = TLP_DATA_WIDTH/32;
localparam CLK_HZ = 250000000;
localparam MAX_REQ = 8192;
localparam MAX_CPL = 16384;
localparam FIFO_DEPTH = 256;
// the responder's completion buffer (reads answered with data reserve their Length in DWs)
localparam CPL_BUFFER_BYTES = 16384;
localparam CNT_COUNT = `PS_CNT_COUNT;
// counter kinds, as RULE_CODE in test/hdl/golden.ts
localparam RULE_EVENTS = 8'd0;
localparam RULE_CYCLES = 8'd1;
localparam RULE_FREE = 8'd2;
localparam RULE_TRACKER = 8'd3;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

reg  [TLP_DATA_WIDTH-1:0] rx_req_tlp_data = 0;
reg  [TLP_STRB_WIDTH-1:0] rx_req_tlp_strb = 0;
reg  [127:0]              rx_req_tlp_hdr = 0;
reg                       rx_req_tlp_valid = 0;
reg                       rx_req_tlp_sop = 0;
reg                       rx_req_tlp_eop = 0;
wire                      rx_req_tlp_ready;
wire [TLP_DATA_WIDTH-1:0] tx_cpl_tlp_data;
wire [TLP_STRB_WIDTH-1:0] tx_cpl_tlp_strb;
wire [127:0]              tx_cpl_tlp_hdr;
wire                      tx_cpl_tlp_valid;
wire                      tx_cpl_tlp_sop;
wire                      tx_cpl_tlp_eop;
reg                       tx_cpl_tlp_ready = 1'b1;

reg  [11:0] s_axil_awaddr = 0;
reg         s_axil_awvalid = 0;
wire        s_axil_awready;
reg  [31:0] s_axil_wdata = 0;
reg  [3:0]  s_axil_wstrb = 0;
reg         s_axil_wvalid = 0;
wire        s_axil_wready;
wire [1:0]  s_axil_bresp;
wire        s_axil_bvalid;
reg         s_axil_bready = 1'b1;
reg  [11:0] s_axil_araddr = 0;
reg         s_axil_arvalid = 0;
wire        s_axil_arready;
wire [31:0] s_axil_rdata;
wire [1:0]  s_axil_rresp;
wire        s_axil_rvalid;
reg         s_axil_rready = 1'b1;

pcie_scope_bar_top #(
    .TLP_DATA_WIDTH(TLP_DATA_WIDTH),
    .TLP_SEG_COUNT(1),
    .TAG_WIDTH(TAG_WIDTH),
    .MAX_PAYLOAD_BYTES(MPS),
    .CPL_BUFFER_BYTES(CPL_BUFFER_BYTES),
    .CLK_HZ(CLK_HZ),
    .CNT_WIDTH(64)
) dut (
    .clk(clk), .rst(rst),
    .rx_req_tlp_data(rx_req_tlp_data), .rx_req_tlp_strb(rx_req_tlp_strb), .rx_req_tlp_hdr(rx_req_tlp_hdr),
    .rx_req_tlp_valid(rx_req_tlp_valid), .rx_req_tlp_sop(rx_req_tlp_sop), .rx_req_tlp_eop(rx_req_tlp_eop),
    .rx_req_tlp_ready(rx_req_tlp_ready),
    .tx_cpl_tlp_data(tx_cpl_tlp_data), .tx_cpl_tlp_strb(tx_cpl_tlp_strb), .tx_cpl_tlp_hdr(tx_cpl_tlp_hdr),
    .tx_cpl_tlp_valid(tx_cpl_tlp_valid), .tx_cpl_tlp_sop(tx_cpl_tlp_sop), .tx_cpl_tlp_eop(tx_cpl_tlp_eop),
    .tx_cpl_tlp_ready(tx_cpl_tlp_ready),
    // the link LINK_GEN / LINK_WIDTH report: a fixed gen3 x16
    .link_gen(4'd3), .link_width(6'd16),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready), .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready)
);

/*
 * Golden vectors
 */
reg [31:0]  sizes    [0:4];        // requests, completions, strb, counters, UR completions
reg [31:0]  filter_words [0:3];           // golden FILTER_WINDOW: base lo, hi, limit lo, hi (phase 3)
reg [199:0] cnt_info [0:CNT_COUNT-1]; // name[199:8] rule[7:0]
reg [127:0] req_hdr  [0:MAX_REQ-1];
reg [31:0]  req_meta [0:MAX_REQ-1];
reg [CNT_COUNT*64-1:0] req_cum [0:MAX_REQ-1];
reg [191:0] cpl_exp  [0:MAX_CPL-1];
reg [CNT_COUNT*64-1:0] cpl_cum [0:MAX_CPL-1];
integer n_req, n_cpl;

/*
 * Bookkeeping
 */
integer pass_count = 0;
integer fail_count = 0;
reg [31:0] cyc = 0;
always @(posedge clk) cyc <= cyc + 32'd1;

task automatic check(input cond, input [8*40-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (cond) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 30) begin
                $display("FAIL @%0d %0s: got %0h want %0h", cyc, what, got, want);
            end
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
            if (fail_count <= 30) begin
                $display("FAIL @%0d %0s counter %0d %0s: got %0d want %0d", cyc, what, c, cnt_info[c][199:8], got, want);
            end
        end
    end
endtask

reg [31:0] acc_edge [0:MAX_REQ-1];   // edge that accepted request k
reg [31:0] sop_edge [0:MAX_CPL-1];   // edge that took the first beat of completion c
reg [15:0] req_latency [0:MAX_REQ-1]; // BAR_LATENCY in force for request k
integer acc_idx = 0;
integer np_acc = 0;
integer np_done = 0;                  // requests whose last completion has started (left the FIFO)
reg [7:0] cpl_seen [0:MAX_REQ-1];     // completions started per request
integer cpl_seen_init;
initial for (cpl_seen_init = 0; cpl_seen_init < MAX_REQ; cpl_seen_init = cpl_seen_init + 1) cpl_seen[cpl_seen_init] = 8'd0;
integer cpl_idx = 0;
integer cpl_sop = 0;
integer beat = 0;
reg     in_cpl = 0;
reg [191:0] cur_cpl = 0;
integer inv_fail = 0;
integer ready_low_cycles = 0;
integer bp_cycles = 0;
integer beats_checked = 0;
integer ur_seen = 0;
reg [15:0] latency_now = 16'd250;
reg        latency_exact = 0;
reg        held = 0;
reg [127:0] held_hdr;
reg [TLP_DATA_WIDTH-1:0] held_data;
reg [TLP_STRB_WIDTH+1:0] held_ctl;

// completion-buffer DWs a request reserves: its Length when the responder answers it with data
// (MRd, 3 or 4 DW, Length * 4 <= MPS), else 0
function integer reserve_dw(input [127:0] h);
    integer len;
    begin
        len = (h[105:96] == 10'd0) ? 1024 : h[105:96];
        reserve_dw = (h[127:126] == 2'b00 && h[124:120] == 5'b00000 && len * 4 <= MPS) ? len : 0;
    end
endfunction
integer reserved = 0;
// the clock before allowed ready to be low now (the first one after reset does)
reg low_ok = 1'b1;
// the clock before took a non-posted request (the responder's buffer counts a read from the
// clock after it is taken, so ready's buffer test keeps a beat more for it)
reg np_took = 1'b0;

// one monitor for both streams, so the FIFO-occupancy invariant sees consistent counts
always @(posedge clk) begin : monitor
    integer j, i, k, lat, ndw;
    reg ok;
    reg [31:0] want;
    if (rst) begin low_ok = 1'b1; np_took = 1'b0; end
    if (!rst) begin
        // rx ready is a register: it is low only after a clock (not the reset) on which the
        // 256-entry FIFO or the completion buffer lacked room for one more read of MPS, or for
        // two while ready was high (a read may be taken on that clock), in the buffer one more
        // after a clock that took a non-posted request. The bench's counts free a read when its
        // last CplD is handed over, the responder earlier: never less
        if (!rx_req_tlp_ready) begin
            ready_low_cycles = ready_low_cycles + 1;
            if (!low_ok) begin
                inv_fail = inv_fail + 1;
                if (inv_fail < 5) $display("FAIL @%0d rx ready low with %0d pending, %0d DWs reserved", cyc, np_acc - np_done, reserved);
            end
        end else if (np_acc - np_done > FIFO_DEPTH + 2 || reserved > CPL_BUFFER_BYTES / 4) begin
            // (ready high: at most FIFO_DEPTH - 1 in the FIFO, and a read in each of the
            // responder's head window, plan and output registers)
            inv_fail = inv_fail + 1;
            if (inv_fail < 5) $display("FAIL @%0d rx ready high with %0d pending", cyc, np_acc - np_done);
        end
        low_ok = (np_acc - np_done + (rx_req_tlp_ready ? 2 : 1) > FIFO_DEPTH)
                 || (reserved + ((rx_req_tlp_ready ? 2 : 1) + (np_took ? 1 : 0)) * (MPS / 4) > CPL_BUFFER_BYTES / 4);

        // a beat held by back-pressure must not change
        if (held) begin
            if (!tx_cpl_tlp_valid || held_hdr !== tx_cpl_tlp_hdr || held_data !== tx_cpl_tlp_data ||
                    held_ctl !== {tx_cpl_tlp_strb, tx_cpl_tlp_sop, tx_cpl_tlp_eop}) begin
                inv_fail = inv_fail + 1;
                if (inv_fail < 5) $display("FAIL @%0d tx beat changed under back-pressure", cyc);
            end
        end
        held = tx_cpl_tlp_valid && !tx_cpl_tlp_ready;
        held_hdr = tx_cpl_tlp_hdr;
        held_data = tx_cpl_tlp_data;
        held_ctl = {tx_cpl_tlp_strb, tx_cpl_tlp_sop, tx_cpl_tlp_eop};
        if (held) bp_cycles = bp_cycles + 1;

        np_took = 1'b0;
        if (rx_req_tlp_valid && rx_req_tlp_ready && rx_req_tlp_sop) begin
            acc_edge[acc_idx] = cyc;
            req_latency[acc_idx] = latency_now;
            if (req_meta[acc_idx][0]) np_acc = np_acc + 1;
            np_took = req_meta[acc_idx][0];
            reserved = reserved + reserve_dw(req_hdr[acc_idx]);
            acc_idx = acc_idx + 1;
        end

        if (tx_cpl_tlp_valid && tx_cpl_tlp_ready) begin
            if (tx_cpl_tlp_sop) begin
                check(!in_cpl, "sop inside a completion", 0, 0);
                check(cpl_idx < n_cpl, "completion beyond golden list", cpl_idx, n_cpl);
                cur_cpl = cpl_exp[cpl_idx];
                k = cur_cpl[15:0];
                check(tx_cpl_tlp_hdr === cur_cpl[191:64], "completion header", tx_cpl_tlp_hdr, cur_cpl[191:64]);
                if (tx_cpl_tlp_hdr !== cur_cpl[191:64] && fail_count < 30)
                    $display("     cpl %0d req %0d hdr %h want %h", cpl_idx, k, tx_cpl_tlp_hdr, cur_cpl[191:64]);
                check(k < acc_idx, "completion before its request", k, acc_idx);
                lat = cyc - acc_edge[k];
                check(lat >= req_latency[k], "latency >= BAR_LATENCY", lat, req_latency[k]);
                if (latency_exact) check(lat == req_latency[k], "latency == BAR_LATENCY", lat, req_latency[k]);
                if (cur_cpl[191:184] == 8'h0a) ur_seen = ur_seen + 1;
                sop_edge[cpl_idx] = cyc;
                cpl_sop = cpl_sop + 1;
                // a split read leaves the responder's FIFO with its last CplD
                cpl_seen[k] = cpl_seen[k] + 8'd1;
                if (cpl_seen[k] == req_meta[k][8:1]) begin
                    np_done = np_done + 1;
                    reserved = reserved - reserve_dw(req_hdr[k]);
                end
                in_cpl = 1;
                beat = 0;
            end
            if (in_cpl) begin
                ndw = cur_cpl[31:16];
                ok = 1;
                for (j = 0; j < TLP_STRB_WIDTH; j = j + 1) begin
                    i = beat * TLP_STRB_WIDTH + j;
                    want = {cur_cpl[61:32] + i[29:0], 2'b00};
                    if (i < ndw) begin
                        if (!tx_cpl_tlp_strb[j] || tx_cpl_tlp_data[j*32 +: 32] !== want) begin
                            ok = 0;
                            if (fail_count < 30) $display("     cpl %0d beat %0d dw %0d: strb %b data %h want %h", cpl_idx, beat, j, tx_cpl_tlp_strb[j], tx_cpl_tlp_data[j*32 +: 32], want);
                        end
                    end else if (tx_cpl_tlp_strb[j]) begin
                        ok = 0;
                    end
                end
                check(ok, "payload beat data/strb", tx_cpl_tlp_strb, 0);
                check(tx_cpl_tlp_eop == (ndw <= (beat + 1) * TLP_STRB_WIDTH), "eop on the last beat", tx_cpl_tlp_eop, beat);
                beats_checked = beats_checked + 1;
                beat = beat + 1;
                if (tx_cpl_tlp_eop) begin
                    in_cpl = 0;
                    cpl_idx = cpl_idx + 1;
                end
            end else begin
                check(0, "beat outside a completion", 0, 0);
            end
        end
    end
end

/*
 * tx ready: 0 always ready, 1 ready ~60 %, 2 ready ~25 %
 */
reg [1:0]  ready_mode = 0;
reg [31:0] lfsr = 32'h1234_5678;
always @(negedge clk) begin
    lfsr = lfsr ^ (lfsr << 13);
    lfsr = lfsr ^ (lfsr >> 17);
    lfsr = lfsr ^ (lfsr << 5);
    case (ready_mode)
        2'd1: tx_cpl_tlp_ready = (lfsr[7:0] < 8'd154);
        2'd2: tx_cpl_tlp_ready = (lfsr[7:0] < 8'd64);
        default: tx_cpl_tlp_ready = 1'b1;
    endcase
end

/*
 * AXI4-Lite master (one access at a time)
 */
reg [31:0] last_write_edge = 0;
integer wmode = 0;

task automatic axil_write(input [11:0] addr, input [31:0] data, input [3:0] strb);
    reg aw_done, w_done;
    integer delay;
    begin
        // rotate: together, address first, data first
        delay = 0;
        aw_done = 0;
        w_done = 0;
        @(negedge clk);
        while (!aw_done || !w_done) begin
            s_axil_awaddr = addr;
            s_axil_wdata = data;
            s_axil_wstrb = strb;
            s_axil_awvalid = !aw_done && !(wmode == 2 && delay < 2);
            s_axil_wvalid = !w_done && !(wmode == 1 && delay < 2);
            if (s_axil_awvalid && s_axil_awready) aw_done = 1;
            if (s_axil_wvalid && s_axil_wready) w_done = 1;
            delay = delay + 1;
            @(negedge clk);
        end
        s_axil_awvalid = 0;
        s_axil_wvalid = 0;
        while (!s_axil_bvalid) @(negedge clk);
        // the write took effect on the edge that raised BVALID
        last_write_edge = cyc - 1;
        check(s_axil_bresp == 2'b00, "BRESP OKAY", s_axil_bresp, 0);
        @(negedge clk);
        wmode = (wmode + 1) % 3;
    end
endtask

task automatic axil_read(input [11:0] addr, output [31:0] data);
    reg done;
    begin
        done = 0;
        @(negedge clk);
        while (!done) begin
            s_axil_araddr = addr;
            s_axil_arvalid = 1;
            if (s_axil_arready) done = 1;
            @(negedge clk);
        end
        s_axil_arvalid = 0;
        while (!s_axil_rvalid) @(negedge clk);
        data = s_axil_rdata;
        check(s_axil_rresp == 2'b00, "RRESP OKAY", s_axil_rresp, 0);
        @(negedge clk);
    end
endtask

task automatic expect_reg(input [11:0] addr, input [31:0] want, input [8*40-1:0] what);
    reg [31:0] v;
    begin
        axil_read(addr, v);
        check(v === want, what, v, want);
    end
endtask

/*
 * Snapshots
 */
reg [63:0] snap [0:CNT_COUNT-1];
reg [31:0] snap_edge = 0;

task automatic take_snapshot(input [31:0] cmd);
    integer c;
    reg [31:0] lo, hi;
    begin
        axil_write(`PS_REG_CMD, cmd, 4'hf);
        // the CMD pulse acts on the edge that accepts the write (the one raising BVALID)
        snap_edge = last_write_edge;
        for (c = 0; c < CNT_COUNT; c = c + 1) begin
            axil_read(`PS_REG_CNT_BASE + 12'd8 * c[11:0], lo);
            axil_read(`PS_REG_CNT_BASE + 12'd8 * c[11:0] + 12'd4, hi);
            snap[c] = {hi, lo};
        end
    end
endtask

// a latency histogram read after a snapshot holds the same reads: its bins (overflow included)
// add up to that snapshot's count of the kind (LAT_LAST_COUNT, LAT_FIRST_COUNT); returns the sum
task automatic check_histogram_at(input [11:0] base, input integer count_idx, input [8*40-1:0] what, output [63:0] total);
    integer k;
    reg [31:0] lo, hi;
    begin
        total = 64'd0;
        for (k = 0; k <= `PS_HIST_BINS; k = k + 1) begin
            axil_read(base + 12'd8 * k[11:0], lo);
            axil_read(base + 12'd8 * k[11:0] + 12'd4, hi);
            total = total + {hi, lo};
        end
        check(total == snap[count_idx], what, total, snap[count_idx]);
    end
endtask

// both histograms; returns the last-completion one's sum
task automatic check_histogram(input [8*40-1:0] what, output [63:0] total);
    reg [63:0] first_total;
    begin
        check_histogram_at(`PS_REG_HIST_FIRST_BASE, `PS_CNT_LAT_FIRST_COUNT, "first-completion histogram", first_total);
        check_histogram_at(`PS_REG_HIST_LAST_BASE, `PS_CNT_LAT_LAST_COUNT, what, total);
    end
endtask

// compare the snapshot with the golden counts of the first nreq requests and ncpl completions:
// every counter but the free-running ones (check_free_running)
task automatic check_counts(input integer nreq, input integer ncpl, input [63:0] cycles);
    reg [CNT_COUNT*64-1:0] rc;
    reg [CNT_COUNT*64-1:0] cc;
    integer c;
    begin
        rc = (nreq > 0) ? req_cum[nreq-1] : {CNT_COUNT*64{1'b0}};
        cc = (ncpl > 0) ? cpl_cum[ncpl-1] : {CNT_COUNT*64{1'b0}};
        for (c = 0; c < CNT_COUNT; c = c + 1) begin
            case (rule_of(c))
                RULE_EVENTS: check_counter(c, "snapshot", snap[c], rc[c*64 +: 64] + cc[c*64 +: 64]);
                RULE_CYCLES: check_counter(c, "snapshot, enabled clocks", snap[c], cycles);
                default: ;
            endcase
        end
    end
endtask

// keep the current snapshot as the reference of the next check_free_running
reg [63:0] mark [0:CNT_COUNT-1];
reg [31:0] mark_edge = 0;
task automatic mark_snapshot;
    integer c;
    begin
        for (c = 0; c < CNT_COUNT; c = c + 1) mark[c] = snap[c];
        mark_edge = snap_edge;
    end
endtask

// free-running counters advance by exactly the clock edges since the marked snapshot
task automatic check_free_running(input [8*40-1:0] what);
    integer c;
    begin
        for (c = 0; c < CNT_COUNT; c = c + 1) begin
            if (rule_of(c) == RULE_FREE) check_counter(c, what, snap[c] - mark[c], snap_edge - mark_edge);
        end
    end
endtask

// requests accepted / completions started on or before edge e
function automatic integer req_before(input [31:0] e);
    integer k;
    begin
        req_before = 0;
        for (k = 0; k < acc_idx; k = k + 1) if (acc_edge[k] <= e) req_before = k + 1;
    end
endfunction

function automatic integer cpl_before(input [31:0] e);
    integer k;
    begin
        cpl_before = 0;
        for (k = 0; k < cpl_sop; k = k + 1) if (sop_edge[k] <= e) cpl_before = k + 1;
    end
endfunction

/*
 * Request driver
 */
integer next_req = 0;

task automatic send_request(input integer k);
    integer b, nb, g;
    reg [31:0] meta;
    reg sent;
    begin
        meta = req_meta[k];
        nb = (meta[19:12] == 0) ? 1 : meta[19:12];
        for (g = 0; g < meta[27:20]; g = g + 1) begin
            rx_req_tlp_valid = 0;
            @(negedge clk);
        end
        for (b = 0; b < nb; b = b + 1) begin
            rx_req_tlp_valid = 1;
            rx_req_tlp_sop = (b == 0);
            rx_req_tlp_eop = (b == nb - 1);
            rx_req_tlp_hdr = (b == 0) ? req_hdr[k] : 128'd0;
            rx_req_tlp_data = {8{cyc}};
            rx_req_tlp_strb = (meta[19:12] == 0) ? {TLP_STRB_WIDTH{1'b0}} : {TLP_STRB_WIDTH{1'b1}};
            sent = 0;
            while (!sent) begin
                // ready depends on registers only: its value now holds at the next edge
                sent = rx_req_tlp_ready;
                @(negedge clk);
            end
        end
        rx_req_tlp_valid = 0;
        rx_req_tlp_sop = 0;
        rx_req_tlp_eop = 0;
    end
endtask

// send every request of 'phase'; returns with next_req at the first request of the next phase
task automatic send_phase(input integer phase);
    begin
        while (next_req < n_req && req_meta[next_req][31:28] == phase) begin
            send_request(next_req);
            next_req = next_req + 1;
        end
    end
endtask

// completions expected for the requests sent so far
function automatic integer cpl_expected(input integer nreq);
    integer k;
    begin
        cpl_expected = 0;
        for (k = 0; k < nreq; k = k + 1) cpl_expected = cpl_expected + req_meta[k][8:1];
    end
endfunction

task automatic drain;
    integer want, waited;
    begin
        want = cpl_expected(next_req);
        waited = 0;
        while ((cpl_idx < want || in_cpl) && waited < 200000) begin
            @(negedge clk);
            waited = waited + 1;
        end
        check(cpl_idx == want, "all completions sent", cpl_idx, want);
        repeat (4) @(negedge clk);
    end
endtask

/*
 * Program
 */
reg [31:0] v;
reg [31:0] enable_edge, disable_edge, half;
integer c, k_snap, m_snap, phase1_first, phase1_last_cpl;
reg [63:0] mid [0:CNT_COUNT-1];
reg [31:0] mid_edge;
reg [63:0] hist_total;

initial begin
    $readmemh({`GOLDEN_DIR, "/sizes.hex"}, sizes);
    n_req = sizes[0];
    n_cpl = sizes[1];
    if (n_req < 1 || n_req > MAX_REQ || n_cpl > MAX_CPL || sizes[2] != TLP_STRB_WIDTH) begin
        $display("bad golden vectors: %0d requests, %0d completions, strb %0d", n_req, n_cpl, sizes[2]);
        $display("0 passed, 1 failed");
        $fatal(1, "tb_pcie_scope_bar_top: bad golden vectors");
    end
    if (sizes[3] != CNT_COUNT) begin
        $display("FAIL golden vectors have %0d counters, the generated PS_CNT_COUNT is %0d: regenerate both", sizes[3], CNT_COUNT);
        $display("0 passed, 1 failed");
        $fatal(1, "tb_pcie_scope_bar_top: golden counter list does not match PS_CNT_COUNT");
    end
    $readmemh({`GOLDEN_DIR, "/counters.hex"}, cnt_info);
    $readmemh({`GOLDEN_DIR, "/filter.hex"}, filter_words);
    for (c = 0; c < CNT_COUNT; c = c + 1) check_counter(c, "rule known", rule_of(c) <= RULE_TRACKER, 1);
    $readmemh({`GOLDEN_DIR, "/req_hdr.hex"}, req_hdr, 0, n_req - 1);
    $readmemh({`GOLDEN_DIR, "/req_meta.hex"}, req_meta, 0, n_req - 1);
    $readmemh({`GOLDEN_DIR, "/req_cum.hex"}, req_cum, 0, n_req - 1);
    if (n_cpl > 0) begin
        $readmemh({`GOLDEN_DIR, "/cpl.hex"}, cpl_exp, 0, n_cpl - 1);
        $readmemh({`GOLDEN_DIR, "/cpl_cum.hex"}, cpl_cum, 0, n_cpl - 1);
    end

    repeat (5) @(negedge clk);
    rst = 0;
    repeat (2) @(negedge clk);

    // identity and reset values
    expect_reg(`PS_REG_ID, `PS_ID_MAGIC, "ID");
    expect_reg(`PS_REG_VERSION, `PS_VERSION_VALUE, "VERSION");
    expect_reg(`PS_REG_CLK_HZ, CLK_HZ, "CLK_HZ");
    expect_reg(`PS_REG_BAR_LATENCY, `PS_REG_BAR_LATENCY_RESET, "BAR_LATENCY reset");
    expect_reg(`PS_REG_CTRL, 32'd0, "CTRL reset");
    expect_reg(`PS_REG_STATUS, 32'd0, "STATUS reset");
    expect_reg(`PS_REG_CMD, 32'd0, "CMD reads 0");
    expect_reg(12'hBF0, 32'd0, "unmapped reads 0");
    // the trace unit's window, through probe_csr: idle, its depth, the filter's reset
    expect_reg(`PS_REG_TRC_STATUS, 32'd0, "TRC_STATUS idle");
    expect_reg(`PS_REG_TRC_DEPTH, `PS_TRC_MIN_DEPTH, "TRC_DEPTH");
    expect_reg(`PS_REG_TRC_FILT_TYPES, `PS_REG_TRC_FILT_TYPES_RESET, "TRC_FILT_TYPES reset");
    expect_reg(`PS_REG_TRC_CMD, 32'd0, "TRC_CMD reads 0");
    expect_reg(`PS_REG_CNT_BASE + 12'd8 * CNT_COUNT, 32'd0, "past the counters reads 0");
    expect_reg(`PS_REG_HIST_LAYOUT, (`PS_HIST_BINS << 16) | (`PS_HIST_FIRST_EDGE_LOG2 << 8) | `PS_HIST_SUB_BINS_LOG2, "HIST_LAYOUT");
    expect_reg(`PS_REG_HIST_LAST_BASE + 12'd8 * (`PS_HIST_BINS + 1), 32'd0, "past the last-completion histogram reads 0");
    expect_reg(`PS_REG_HIST_FIRST_BASE + 12'd8 * (`PS_HIST_BINS + 1), 32'd0, "past the first-completion histogram reads 0");
    // read-only registers ignore writes; byte strobes are honoured
    axil_write(`PS_REG_ID, 32'hffff_ffff, 4'hf);
    expect_reg(`PS_REG_ID, `PS_ID_MAGIC, "ID after write");
    axil_write(`PS_REG_BAR_LATENCY, 32'h1234_5645, 4'b0001);
    expect_reg(`PS_REG_BAR_LATENCY, 32'h0000_0045, "BAR_LATENCY byte 0 write");
    axil_write(`PS_REG_BAR_LATENCY, 32'hffff_ffff, 4'b1111);
    expect_reg(`PS_REG_BAR_LATENCY, 32'h0000_ffff, "BAR_LATENCY is 16 bits");
    axil_write(`PS_REG_BAR_LATENCY, 32'd250, 4'b0011);
    expect_reg(`PS_REG_BAR_LATENCY, 32'd250, "BAR_LATENCY restored");
    expect_reg(`PS_REG_CPL_SPLIT, `PS_REG_CPL_SPLIT_RESET, "CPL_SPLIT reset");
    axil_write(`PS_REG_CPL_SPLIT, 32'h1234_5640, 4'b0001);
    expect_reg(`PS_REG_CPL_SPLIT, 32'h0000_0040, "CPL_SPLIT keeps bits 7:0");
    axil_write(`PS_REG_CPL_SPLIT, 32'd0, 4'hf);
    // info registers (the top's parameters) and the sampler and filter registers
    expect_reg(`PS_REG_MPS, MPS, "MPS");
    expect_reg(`PS_REG_TAG_BITS, TAG_WIDTH, "TAG_BITS");
    expect_reg(`PS_REG_RCB, 32'd0, "RCB follows CPL_SPLIT 0");
    expect_reg(`PS_REG_SAMPLE_STATUS, 32'd256 << 16, "SAMPLE_STATUS: depth 256, empty");
    expect_reg(`PS_REG_SMP_TS_LO, 32'd0, "SMP_* read 0 while empty");
    axil_write(`PS_REG_SAMPLE_PERIOD, 32'hffff_ffff, 4'hf);
    expect_reg(`PS_REG_SAMPLE_PERIOD, 32'h0003_ffff, "SAMPLE_PERIOD keeps bits 17:0");
    axil_write(`PS_REG_SAMPLE_PERIOD, 32'd0, 4'hf);
    expect_reg(`PS_REG_FILTER_CTRL, 32'd0, "FILTER_CTRL reset");
    take_snapshot(32'd1);
    check_counts(0, 0, 0);

    // phase 0: exact latency
    axil_write(`PS_REG_CTRL, 32'd1, 4'hf);
    enable_edge = last_write_edge;
    expect_reg(`PS_REG_STATUS, 32'd1, "STATUS.ENABLED");
    latency_now = 16'd250;
    latency_exact = 1;
    send_phase(0);
    drain;
    latency_exact = 0;

    // phase 1: stress with a snapshot in the middle of the traffic
    axil_write(`PS_REG_BAR_LATENCY, 32'd7, 4'hf);
    axil_write(`PS_REG_CPL_SPLIT, 32'd64, 4'hf);
    latency_now = 16'd7;
    ready_mode = 1;
    phase1_first = next_req;
    fork
        send_phase(1);
        begin
            while (acc_idx < phase1_first + 400) @(negedge clk);
            take_snapshot(32'd1 << `PS_REG_CMD_SNAPSHOT_BIT);
            for (c = 0; c < CNT_COUNT; c = c + 1) mid[c] = snap[c];
            mid_edge = snap_edge;
        end
    join
    drain;
    check(ready_low_cycles > 0, "rx ready fell (FIFO full)", ready_low_cycles, 1);
    for (c = 0; c < CNT_COUNT; c = c + 1) snap[c] = mid[c];
    k_snap = req_before(mid_edge);
    m_snap = cpl_before(mid_edge);
    check(k_snap < next_req && m_snap < cpl_idx, "mid snapshot inside the traffic", k_snap, next_req);
    check_counts(k_snap, m_snap, mid_edge - enable_edge);
    snap_edge = mid_edge;
    mark_snapshot;
    take_snapshot(32'd1);
    check_counts(next_req, cpl_idx, snap_edge - enable_edge);
    check_free_running("follows the clock");
    check_histogram("histogram total = LAT_LAST_COUNT", hist_total);
    check(hist_total > 0, "histogram filled", hist_total, 1);

    // phase 2: disabled, heavy back-pressure; then snapshot-and-clear
    axil_write(`PS_REG_CPL_SPLIT, 32'd128, 4'hf);
    axil_write(`PS_REG_CTRL, 32'd0, 4'hf);
    disable_edge = last_write_edge;
    expect_reg(`PS_REG_STATUS, 32'd0, "STATUS.ENABLED off");
    ready_mode = 2;
    send_phase(2);
    drain;
    take_snapshot((32'd1 << `PS_REG_CMD_SNAPSHOT_BIT) | (32'd1 << `PS_REG_CMD_CLEAR_BIT));
    check_counts(next_req, cpl_idx, disable_edge - enable_edge);
    mark_snapshot;
    take_snapshot(32'd1);
    check_counts(0, 0, 0);
    check_free_running("not cleared");
    check_histogram("histogram cleared", hist_total);

    // phase 3: after the clear, BAR_LATENCY 0, the address filter on (golden FILTER_WINDOW)
    axil_write(`PS_REG_BAR_LATENCY, 32'd0, 4'hf);
    expect_reg(`PS_REG_RCB, 32'd128, "RCB follows CPL_SPLIT 128");
    axil_write(`PS_REG_FILTER_BASE_LO, filter_words[0], 4'hf);
    axil_write(`PS_REG_FILTER_BASE_HI, filter_words[1], 4'hf);
    axil_write(`PS_REG_FILTER_LIMIT_LO, filter_words[2], 4'hf);
    axil_write(`PS_REG_FILTER_LIMIT_HI, filter_words[3], 4'hf);
    axil_write(`PS_REG_FILTER_CTRL, 32'd1 << `PS_REG_FILTER_CTRL_EN_BIT, 4'hf);
    expect_reg(`PS_REG_FILTER_BASE_HI, filter_words[1], "FILTER_BASE_HI");
    expect_reg(`PS_REG_FILTER_LIMIT_LO, filter_words[2], "FILTER_LIMIT_LO");
    expect_reg(`PS_REG_FILTER_CTRL, 32'd1 << `PS_REG_FILTER_CTRL_EN_BIT, "FILTER_CTRL.EN");
    latency_now = 16'd0;
    ready_mode = 1;
    axil_write(`PS_REG_CTRL, 32'd1, 4'hf);
    enable_edge = last_write_edge;
    send_phase(3);
    drain;
    axil_write(`PS_REG_CTRL, 32'd0, 4'hf);
    disable_edge = last_write_edge;
    take_snapshot(32'd1);
    // cumulative golden counts restart at the clear: the last entries hold phase 3's totals
    check_counts(next_req, cpl_idx, disable_edge - enable_edge);
    check_histogram("histogram total after the filter phase", hist_total);

    check(next_req == n_req && acc_idx == n_req, "every request accepted", acc_idx, n_req);
    check(cpl_idx == n_cpl, "every completion seen", cpl_idx, n_cpl);
    check(inv_fail == 0, "ready / back-pressure invariants", inv_fail, 0);
    check(bp_cycles > 0, "tx back-pressure exercised", bp_cycles, 1);
    check(ur_seen > 0, "UR completions exercised", ur_seen, 1);

    $display("%0d requests, %0d completions, %0d beats, %0d back-pressure cycles, %0d ready-low cycles",
             acc_idx, cpl_idx, beats_checked, bp_cycles, ready_low_cycles);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_pcie_scope_bar_top failed");
    $finish;
end

// watchdog
initial begin
    #20000000;
    $display("FAIL: timeout");
    $display("%0d passed, %0d failed", pass_count, fail_count + 1);
    $fatal(1, "tb_pcie_scope_bar_top timed out");
end

endmodule
