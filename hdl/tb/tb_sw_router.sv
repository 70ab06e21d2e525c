`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

`ifndef GOLDEN_DIR
`define GOLDEN_DIR "build/hdl/switch-golden"
`endif

/*
 * Self-checking testbench of sw_router (Icarus -g2012 and Verilator --binary --timing).
 *
 * Vectors come from the golden router (test/hdl/switch-golden.ts, $readmemh files in
 * GOLDEN_DIR): the beats driven into each port, per phase, and the beats expected out of
 * each port in four lists (forwarded posted, non-posted, completions; the switch's own
 * completions). Phases (scenario() in switch-golden.ts): enumeration, illegal targets,
 * GPU reads, host completions, reprogramming, Bus Master off, restore, random mixed
 * traffic, full rate. In a phase both inputs run at once.
 *
 * TB_SEGS segments per beat of TB_DW DWs (1 and 8 by default: 256 bits; 4 and 16: 512 bits),
 * the straddled format (header, valid, sop, eop per segment): the vectors start TLPs in any
 * segment, after up to two empty ones in back-pressure phases.
 *
 * Checked: every output segment against the head of its list (class from the header: a
 * completion equal to the local list's head is local), so each TLP arrives once, in order
 * within its class, rewritten as the golden model says; a non-posted request or forwarded
 * completion only after the posted TLPs that entered before it (pb_*.hex), a non-posted
 * request only after the forwarded completions that entered before it (cb_*_NP.hex) and only
 * in a beat first offered while that port's np_ok was high (a beat offered and not taken
 * keeps what it holds when np_ok falls); no TLP starting
 * inside another, no empty segment inside a TLP; an output beat not taken offered again
 * unchanged; both ports' fate counters exactly at every phase end; input beats held stable
 * while not accepted (by construction of the driver, valid never drops before ready). Back-pressure phases: random idle input clocks and random output
 * ready. Full-rate phase (the throughput test): every segment of every input beat holds a
 * forwarded TLP, valid on every clock, ready always; no input stall, no output bubble between
 * a port's first and last beat, as many beats and segments out as in on each port.
 * np_ok (the link partner takes a non-posted request): high, except in phases flagged for it
 * (phases.hex word 0): random low stretches (bit 1), or held low on up (bit 2) / dn (bit 3)
 * until every posted TLP and completion of the phase has left that port (checked: no
 * non-posted request left it meanwhile), then high.
 */
// testbench arithmetic mixes integer bookkeeping with DUT-width vectors on purpose
/* verilator lint_off WIDTH */
module tb_sw_router;

`ifndef SEED
`define SEED 1
`endif

`ifndef TB_SEGS
`define TB_SEGS 1
`endif
`ifndef TB_DW
`define TB_DW 8
`endif
localparam SEG_COUNT = `TB_SEGS;
localparam DW_BEAT = `TB_DW;
localparam SEG_DW = DW_BEAT / SEG_COUNT;
localparam TLP_DATA_WIDTH = 32 * DW_BEAT;
localparam TLP_STRB_WIDTH = DW_BEAT;
// an input beat {sop, eop, valid per segment, strb, data, hdr per segment}; an output segment
localparam IN_BEAT_WIDTH = 3*SEG_COUNT + TLP_STRB_WIDTH + TLP_DATA_WIDTH + 128*SEG_COUNT;
localparam OUT_SEG_WIDTH = 2 + SEG_DW + 32*SEG_DW + 128;
// vector capacity: beats per input port and per output list, TLPs per list (bench/switch.mjs raises them)
`ifndef TB_MAXB
`define TB_MAXB 16384
`endif
`ifndef TB_MAXT
`define TB_MAXT 8192
`endif
localparam MAX_BEATS = `TB_MAXB;
localparam MAX_TLPS = `TB_MAXT;
localparam CNT_COUNT = `PS_SW_CNT_COUNT;
localparam PH_WORDS = 1 + 2 + 8 + 8 + 2 * CNT_COUNT;
localparam MAX_PHASES = 16;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

// DUT ports: index 0 = up, 1 = dn
reg  [TLP_DATA_WIDTH-1:0] up_rx_data = 0, dn_rx_data = 0;
reg  [TLP_STRB_WIDTH-1:0] up_rx_strb = 0, dn_rx_strb = 0;
reg  [128*SEG_COUNT-1:0]  up_rx_hdr = 0, dn_rx_hdr = 0;
reg  [SEG_COUNT-1:0]      up_rx_valid = 0, dn_rx_valid = 0;
reg  [SEG_COUNT-1:0]      up_rx_sop = 0, dn_rx_sop = 0;
reg  [SEG_COUNT-1:0]      up_rx_eop = 0, dn_rx_eop = 0;
wire                      up_rx_ready, dn_rx_ready;
wire [TLP_DATA_WIDTH-1:0] up_tx_data, dn_tx_data;
wire [TLP_STRB_WIDTH-1:0] up_tx_strb, dn_tx_strb;
wire [128*SEG_COUNT-1:0]  up_tx_hdr, dn_tx_hdr;
wire [SEG_COUNT-1:0]      up_tx_valid, dn_tx_valid, up_tx_sop, dn_tx_sop, up_tx_eop, dn_tx_eop;
reg                       up_tx_ready = 0, dn_tx_ready = 0;
reg                       up_tx_np_ok = 1, dn_tx_np_ok = 1;
wire [CNT_COUNT*32-1:0]   up_rx_cnt, dn_rx_cnt;

reg [31:0] params [0:15];

`ifdef SWITCH_TOP
// the switch design's top: the same switch with a probe on each side; address bit 12 picks the tap
reg  [12:0] s_axil_awaddr = 0, s_axil_araddr = 0;
reg         s_axil_awvalid = 0, s_axil_wvalid = 0, s_axil_arvalid = 0;
reg  [31:0] s_axil_wdata = 0;
reg  [3:0]  s_axil_wstrb = 0;
wire        s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
wire [1:0]  s_axil_bresp, s_axil_rresp;
wire [31:0] s_axil_rdata;
pcie_scope_switch_top #(.TLP_DATA_WIDTH(TLP_DATA_WIDTH), .TLP_SEG_COUNT(SEG_COUNT)) dut (
    .clk(clk), .rst(rst),
    .up_rx_data(up_rx_data), .up_rx_strb(up_rx_strb), .up_rx_hdr(up_rx_hdr), .up_rx_valid(up_rx_valid),
    .up_rx_sop(up_rx_sop), .up_rx_eop(up_rx_eop), .up_rx_ready(up_rx_ready),
    .up_tx_data(up_tx_data), .up_tx_strb(up_tx_strb), .up_tx_hdr(up_tx_hdr), .up_tx_valid(up_tx_valid),
    .up_tx_sop(up_tx_sop), .up_tx_eop(up_tx_eop), .up_tx_ready(up_tx_ready), .up_tx_np_ok(up_tx_np_ok),
    .dn_rx_data(dn_rx_data), .dn_rx_strb(dn_rx_strb), .dn_rx_hdr(dn_rx_hdr), .dn_rx_valid(dn_rx_valid),
    .dn_rx_sop(dn_rx_sop), .dn_rx_eop(dn_rx_eop), .dn_rx_ready(dn_rx_ready),
    .dn_tx_data(dn_tx_data), .dn_tx_strb(dn_tx_strb), .dn_tx_hdr(dn_tx_hdr), .dn_tx_valid(dn_tx_valid),
    .dn_tx_sop(dn_tx_sop), .dn_tx_eop(dn_tx_eop), .dn_tx_ready(dn_tx_ready), .dn_tx_np_ok(dn_tx_np_ok),
    .up_link_max_speed(params[2][3:0]), .up_link_max_width(params[3][5:0]),
    .up_link_speed(params[4][3:0]), .up_link_width(params[5][5:0]),
    .dn_link_max_speed(params[6][3:0]), .dn_link_max_width(params[7][5:0]),
    .dn_link_speed(params[8][3:0]), .dn_link_width(params[9][5:0]), .dn_link_up(params[10][0]),
    .sw_up_rx_cnt(up_rx_cnt), .sw_dn_rx_cnt(dn_rx_cnt),
    .bar_latency(), .bar_jitter(), .cpl_split(), .cpl_buffer_bytes(),  // the completer settings: no completer model in this bench
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(1'b1),
    .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(1'b1)
);
`else
sw_router #(.TLP_DATA_WIDTH(TLP_DATA_WIDTH), .TLP_SEG_COUNT(SEG_COUNT), .QUEUE_ADDR_WIDTH(4)) dut (
    .clk(clk), .rst(rst),
    .up_rx_data(up_rx_data), .up_rx_strb(up_rx_strb), .up_rx_hdr(up_rx_hdr), .up_rx_valid(up_rx_valid),
    .up_rx_sop(up_rx_sop), .up_rx_eop(up_rx_eop), .up_rx_ready(up_rx_ready),
    .up_tx_data(up_tx_data), .up_tx_strb(up_tx_strb), .up_tx_hdr(up_tx_hdr), .up_tx_valid(up_tx_valid),
    .up_tx_sop(up_tx_sop), .up_tx_eop(up_tx_eop), .up_tx_ready(up_tx_ready), .up_tx_np_ok(up_tx_np_ok),
    .dn_rx_data(dn_rx_data), .dn_rx_strb(dn_rx_strb), .dn_rx_hdr(dn_rx_hdr), .dn_rx_valid(dn_rx_valid),
    .dn_rx_sop(dn_rx_sop), .dn_rx_eop(dn_rx_eop), .dn_rx_ready(dn_rx_ready),
    .dn_tx_data(dn_tx_data), .dn_tx_strb(dn_tx_strb), .dn_tx_hdr(dn_tx_hdr), .dn_tx_valid(dn_tx_valid),
    .dn_tx_sop(dn_tx_sop), .dn_tx_eop(dn_tx_eop), .dn_tx_ready(dn_tx_ready), .dn_tx_np_ok(dn_tx_np_ok),
    .up_link_max_speed(params[2][3:0]), .up_link_max_width(params[3][5:0]),
    .up_link_speed(params[4][3:0]), .up_link_width(params[5][5:0]),
    .dn_link_max_speed(params[6][3:0]), .dn_link_max_width(params[7][5:0]),
    .dn_link_speed(params[8][3:0]), .dn_link_width(params[9][5:0]), .dn_link_up(params[10][0]),
    .up_rx_cnt(up_rx_cnt), .dn_rx_cnt(dn_rx_cnt)
);
`endif

reg [IN_BEAT_WIDTH-1:0] in_beats [0:2*MAX_BEATS-1];        // port p at p*MAX_BEATS
reg [OUT_SEG_WIDTH-1:0] out_beats [0:8*MAX_BEATS-1];       // segments of list k (port*4 + {P, NP, CPL, LOC}) at k*MAX_BEATS
reg [31:0]              pb [0:8*MAX_TLPS-1];              // list k at k*MAX_TLPS
reg [31:0]              cb [0:2*MAX_TLPS-1];              // non-posted list of port e at e*MAX_TLPS
reg [31:0]              ph [0:MAX_PHASES*PH_WORDS-1];

integer pass_count = 0;
integer fail_count = 0;
integer cyc = 0;
integer seed = `SEED;
integer phase = 0;
reg     bp = 1'b1;                         // back-pressure in this phase
integer in_lim [0:1];
integer in_pos [0:1];
integer out_pos [0:7];                     // segments taken from each list
integer out_tlp [0:7];                     // TLPs started from each list
integer p_done [0:1];                      // posted TLPs delivered per egress
integer c_done [0:1];                      // forwarded completions delivered per egress
reg     np_rand = 1'b0;                    // np_ok drops at random in this phase
reg     np_block [0:1];                    // np_ok held low on this egress in this phase...
integer np_rel_phase [0:1];                // ...until released in phase np_rel_phase
integer np_start [0:1];                    // non-posted segments out of each egress at the phase start
integer np_held = 0;                       // non-posted requests held back, posted TLPs and completions out meanwhile
integer pc_passed = 0;
reg     offer_ok [0:1];                    // np_ok when the beat now offered was first offered
integer cur_list [0:1];                    // list of the TLP in progress per egress
integer first_out [0:1];
integer last_out [0:1];
integer n_out [0:1];                       // beats out per port in this phase
integer seg_out [0:1];                     // segments out and in per port in this phase
integer seg_in [0:1];
integer stalls = 0;
integer starts;
integer multi_in = 0;                      // beats with several TLP starts, in and out (all phases)
integer multi_out = 0;
integer k;

always @(posedge clk) cyc <= cyc + 1;

task fail;
    input [8*80-1:0] what;
    begin
        fail_count = fail_count + 1;
        if (fail_count <= 20) $display("FAIL @%0d phase %0d: %0s", cyc, phase, what);
    end
endtask

// ---------------------------------------------------------------- input drivers
// at a posedge: an accepted beat advances; a new beat is offered (randomly withheld under
// back-pressure); an offered beat stays until accepted
always @(posedge clk) begin : drive
    reg [IN_BEAT_WIDTH-1:0] b;
    integer r0, r1, r2, r3, q;
    if (!rst) begin
        r0 = $random(seed);
        r1 = $random(seed);
        r2 = $random(seed);
        r3 = $random(seed);
        if (|up_rx_valid && up_rx_ready) begin
            in_pos[0] = in_pos[0] + 1;
            starts = 0;
            for (q = 0; q < SEG_COUNT; q = q + 1) begin
                seg_in[0] = seg_in[0] + up_rx_valid[q];
                starts = starts + (up_rx_valid[q] && up_rx_sop[q]);
            end
            if (starts > 1) multi_in = multi_in + 1;
        end
        if (|up_rx_valid && !up_rx_ready && !bp) stalls = stalls + 1;
        if (!(|up_rx_valid && !up_rx_ready)) begin
            if (in_pos[0] < in_lim[0] && (!bp || (r0 & 3) != 0)) begin
                b = in_beats[in_pos[0]];
                {up_rx_sop, up_rx_eop, up_rx_valid, up_rx_strb, up_rx_data, up_rx_hdr} <= b;
            end else begin
                up_rx_valid <= {SEG_COUNT{1'b0}};
            end
        end
        if (|dn_rx_valid && dn_rx_ready) begin
            in_pos[1] = in_pos[1] + 1;
            starts = 0;
            for (q = 0; q < SEG_COUNT; q = q + 1) begin
                seg_in[1] = seg_in[1] + dn_rx_valid[q];
                starts = starts + (dn_rx_valid[q] && dn_rx_sop[q]);
            end
            if (starts > 1) multi_in = multi_in + 1;
        end
        if (|dn_rx_valid && !dn_rx_ready && !bp) stalls = stalls + 1;
        if (!(|dn_rx_valid && !dn_rx_ready)) begin
            if (in_pos[1] < in_lim[1] && (!bp || (r1 & 3) != 0)) begin
                b = in_beats[MAX_BEATS + in_pos[1]];
                {dn_rx_sop, dn_rx_eop, dn_rx_valid, dn_rx_strb, dn_rx_data, dn_rx_hdr} <= b;
            end else begin
                dn_rx_valid <= {SEG_COUNT{1'b0}};
            end
        end
        up_tx_ready <= !bp || (r2 % 3) != 0;
        dn_tx_ready <= !bp || (r3 % 3) != 0;
        r0 = $random(seed);
        r1 = $random(seed);
        if (np_block[0] && np_rel_phase[0] != phase) up_tx_np_ok <= 1'b0;
        else if (np_rand) up_tx_np_ok <= up_tx_np_ok ? (r0 & 15) != 0 : (r0 & 7) == 0;
        else up_tx_np_ok <= 1'b1;
        if (np_block[1] && np_rel_phase[1] != phase) dn_tx_np_ok <= 1'b0;
        else if (np_rand) dn_tx_np_ok <= dn_tx_np_ok ? (r1 & 15) != 0 : (r1 & 7) == 0;
        else dn_tx_np_ok <= 1'b1;
    end
end

// ---------------------------------------------------------------- output monitors

function integer cls_of;
    input [127:0] hdr;
    begin
        if ((hdr[124:121] == 4'b0000 && hdr[126]) || hdr[124:123] == 2'b10) cls_of = 0;      // posted
        else if (hdr[124:121] == 4'b0101) cls_of = 2;                                      // completion
        else cls_of = 1;
    end
endfunction

task take;
    input integer e;
    input [OUT_SEG_WIDTH-1:0] beat;
    integer l, c;
    reg [OUT_SEG_WIDTH-1:0] loc_head;
    begin
        seg_out[e] = seg_out[e] + 1;
        if (beat[OUT_SEG_WIDTH-1] && cur_list[e] >= 0) fail("a TLP starts inside another");
        if (beat[OUT_SEG_WIDTH-1]) begin
            c = cls_of(beat[127:0]);
            loc_head = out_beats[(e*4 + 3)*MAX_BEATS + out_pos[e*4 + 3]];
            if (c == 2 && out_pos[e*4 + 3] < ph[phase*PH_WORDS + 3 + e*4 + 3] && loc_head[127:0] == beat[127:0]) c = 3;
            l = e*4 + c;
            cur_list[e] = l;
            if ((c == 1 || c == 2) && out_tlp[l] < ph[phase*PH_WORDS + 11 + l] && p_done[e] < pb[l*MAX_TLPS + out_tlp[l]]) begin
                fail("a non-posted request or completion passed a posted TLP");
            end
            if (c == 1 && out_tlp[l] < ph[phase*PH_WORDS + 11 + l] && c_done[e] < cb[e*MAX_TLPS + out_tlp[l]]) begin
                fail("a non-posted request passed a completion");
            end
            if (c == 1 && !offer_ok[e]) fail("a non-posted request while np_ok was low");
            if (c == 0) p_done[e] = p_done[e] + 1;
            if (c == 2) c_done[e] = c_done[e] + 1;
            out_tlp[l] = out_tlp[l] + 1;
        end
        l = cur_list[e];
        if (l < 0 || out_pos[l] >= ph[phase*PH_WORDS + 3 + l]) begin
            fail("unexpected output beat");
            $display("  port %0d list %0d beat %h", e, l, beat);
        end else begin
            if (beat !== out_beats[l*MAX_BEATS + out_pos[l]]) begin
                fail("output beat differs from the golden router");
                $display("  port %0d list %0d beat %0d\n  got  %h\n  want %h", e, l, out_pos[l], beat, out_beats[l*MAX_BEATS + out_pos[l]]);
            end else begin
                pass_count = pass_count + 1;
            end
            out_pos[l] = out_pos[l] + 1;
        end
        if (beat[OUT_SEG_WIDTH-2]) cur_list[e] = -1;
    end
endtask

// an output beat: its valid segments in order (the header compared at sop only); a TLP holds
// every segment from its sop to its eop, so an empty segment inside one fails
task take_beat;
    input integer e;
    input [SEG_COUNT-1:0] valid, sop, eop;
    input [TLP_STRB_WIDTH-1:0] strb;
    input [TLP_DATA_WIDTH-1:0] data;
    input [128*SEG_COUNT-1:0] hdr;
    integer q, n;
    reg hole;
    begin
        n = 0;
        for (q = 0; q < SEG_COUNT; q = q + 1) n = n + (valid[q] && sop[q]);
        if (n > 1) multi_out = multi_out + 1;
        if (n_out[e] == 0) first_out[e] = cyc;
        last_out[e] = cyc;
        n_out[e] = n_out[e] + 1;
        hole = 1'b0;
        for (q = 0; q < SEG_COUNT; q = q + 1) begin
            if (valid[q]) begin
                if (hole) fail("an empty segment inside a TLP");
                take(e, {sop[q], eop[q], strb[q*SEG_DW +: SEG_DW], data[q*32*SEG_DW +: 32*SEG_DW], sop[q] ? hdr[q*128 +: 128] : 128'd0});
            end else if (cur_list[e] >= 0) begin
                hole = 1'b1;
            end
        end
        if (hole) fail("a TLP runs on after an empty segment");
    end
endtask

// a beat offered and not taken must be offered again unchanged
localparam OFFER_WIDTH = 3*SEG_COUNT + TLP_STRB_WIDTH + TLP_DATA_WIDTH + 128*SEG_COUNT;
reg [OFFER_WIDTH-1:0] offered [0:1];
reg                   waiting [0:1];
initial begin
    waiting[0] = 1'b0;
    waiting[1] = 1'b0;
end
always @(posedge clk) begin
    if (!rst) begin
        if (!waiting[0]) offer_ok[0] = up_tx_np_ok;
        if (!waiting[1]) offer_ok[1] = dn_tx_np_ok;
        if (waiting[0] && {up_tx_valid, up_tx_sop, up_tx_eop, up_tx_strb, up_tx_data, up_tx_hdr} !== offered[0])
            fail("a beat not taken changed");
        if (waiting[1] && {dn_tx_valid, dn_tx_sop, dn_tx_eop, dn_tx_strb, dn_tx_data, dn_tx_hdr} !== offered[1])
            fail("a beat not taken changed");
        waiting[0] = |up_tx_valid && !up_tx_ready;
        waiting[1] = |dn_tx_valid && !dn_tx_ready;
        offered[0] = {up_tx_valid, up_tx_sop, up_tx_eop, up_tx_strb, up_tx_data, up_tx_hdr};
        offered[1] = {dn_tx_valid, dn_tx_sop, dn_tx_eop, dn_tx_strb, dn_tx_data, dn_tx_hdr};
        if (|up_tx_valid && up_tx_ready) take_beat(0, up_tx_valid, up_tx_sop, up_tx_eop, up_tx_strb, up_tx_data, up_tx_hdr);
        if (|dn_tx_valid && dn_tx_ready) take_beat(1, dn_tx_valid, dn_tx_sop, dn_tx_eop, dn_tx_strb, dn_tx_data, dn_tx_hdr);
    end
end

// np_ok held low on an egress: released once every posted TLP and completion of the phase has
// left it; no non-posted request may have left it before
always @(posedge clk) begin : np_release
    integer ee;
    for (ee = 0; ee < 2; ee = ee + 1) begin
        if (!rst && np_block[ee] && np_rel_phase[ee] != phase
            && out_pos[ee*4 + 0] >= ph[phase*PH_WORDS + 3 + ee*4 + 0] && out_pos[ee*4 + 2] >= ph[phase*PH_WORDS + 3 + ee*4 + 2]) begin
            np_rel_phase[ee] = phase;
            np_held = np_held + (ph[phase*PH_WORDS + 11 + ee*4 + 1] - ph[(phase-1)*PH_WORDS + 11 + ee*4 + 1]);
            pc_passed = pc_passed + (ph[phase*PH_WORDS + 11 + ee*4 + 0] - ph[(phase-1)*PH_WORDS + 11 + ee*4 + 0])
                + (ph[phase*PH_WORDS + 11 + ee*4 + 2] - ph[(phase-1)*PH_WORDS + 11 + ee*4 + 2]);
            if (out_pos[ee*4 + 1] != np_start[ee]) begin
                fail("a non-posted request left while np_ok was held low");
            end else begin
                pass_count = pass_count + 1;
            end
        end
    end
end

`ifdef SWITCH_TOP
// ---------------------------------------------------------------- the probes on both sides
// what each tap must have seen, counted here from its streams: the GPU side (tap 0) from the
// GPU's requests (dn_rx) and the completions to it (dn_tx), the host side (tap 1) from the
// requests to the host (up_tx) and the completions from it (up_rx)
integer seen_mrd = 0, seen_cpld = 0, seen_ur = 0, seen_cpl = 0, seen_mwr = 0, seen_ep = 0;
integer host_mrd = 0, host_cpld = 0, host_ur = 0;
reg [127:0] ph_h;
integer q;
always @(posedge clk) begin
    for (q = 0; q < SEG_COUNT; q = q + 1) begin
        ph_h = dn_rx_hdr[q*128 +: 128];
        if (!rst && dn_rx_valid[q] && dn_rx_ready && dn_rx_sop[q]) begin
            if (ph_h[127:126] == 2'b00 && ph_h[124:121] == 4'b0000) seen_mrd = seen_mrd + 1;
            if (ph_h[127:126] == 2'b01 && ph_h[124:120] == 5'b00000) seen_mwr = seen_mwr + 1;
            if (!ph_h[127] && ph_h[110]) seen_ep = seen_ep + 1;
        end
        ph_h = dn_tx_hdr[q*128 +: 128];
        if (!rst && dn_tx_valid[q] && dn_tx_ready && dn_tx_sop[q]) begin
            if (ph_h[124:120] == 5'b01010) begin
                if (ph_h[126]) seen_cpld = seen_cpld + 1;
                if (ph_h[79:77] == 3'b001) seen_ur = seen_ur + 1;
            end
            // completions without data, CplLk included, whatever the status
            if (ph_h[127:125] == 3'b000 && ph_h[124:121] == 4'b0101) seen_cpl = seen_cpl + 1;
            if (!ph_h[127] && ph_h[110]) seen_ep = seen_ep + 1;
        end
        ph_h = up_tx_hdr[q*128 +: 128];
        if (!rst && up_tx_valid[q] && up_tx_ready && up_tx_sop[q] && ph_h[127:126] == 2'b00 && ph_h[124:121] == 4'b0000)
            host_mrd = host_mrd + 1;
        ph_h = up_rx_hdr[q*128 +: 128];
        if (!rst && up_rx_valid[q] && up_rx_ready && up_rx_sop[q] && ph_h[124:120] == 5'b01010) begin
            if (ph_h[126]) host_cpld = host_cpld + 1;
            if (ph_h[79:77] == 3'b001) host_ur = host_ur + 1;
        end
    end
end

// one access at a time; ready is sampled at the negedge before the edge that takes the handshake
task axil_write;
    input [12:0] addr;
    input [31:0] data;
    reg aw_done, w_done;
    begin
        aw_done = 0;
        w_done = 0;
        @(negedge clk);
        s_axil_awaddr = addr;
        s_axil_wdata = data;
        s_axil_wstrb = 4'hf;
        while (!aw_done || !w_done) begin
            s_axil_awvalid = !aw_done;
            s_axil_wvalid = !w_done;
            if (s_axil_awvalid && s_axil_awready) aw_done = 1;
            if (s_axil_wvalid && s_axil_wready) w_done = 1;
            @(negedge clk);
        end
        s_axil_awvalid = 0;
        s_axil_wvalid = 0;
        while (!s_axil_bvalid) @(negedge clk);
        if (s_axil_bresp != 2'b00) fail("BRESP");
        @(negedge clk);
    end
endtask

task axil_read;
    input [12:0] addr;
    output [31:0] data;
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
        @(negedge clk);
    end
endtask

task check_probe;
    input integer tap;
    input integer idx;
    input integer want;
    input [8*16-1:0] what;
    reg [31:0] got;
    begin
        axil_read(tap * `PS_TAP_STRIDE + `PS_REG_CNT_BASE + 8*idx, got);
        if (got != want) begin
            fail("probe counter");
            $display("  tap %0d %0s: got %0d want %0d", tap, what, got, want);
        end else begin
            pass_count = pass_count + 1;
        end
    end
endtask

task check_probe_reg;
    input integer tap;
    input integer offset;
    input integer want;
    input [8*16-1:0] what;
    reg [31:0] got;
    begin
        axil_read(tap * `PS_TAP_STRIDE + offset, got);
        if (got != want) begin
            fail("probe register");
            $display("  tap %0d %0s: got 0x%0h want 0x%0h", tap, what, got, want);
        end else begin
            pass_count = pass_count + 1;
        end
    end
endtask
`endif

// ---------------------------------------------------------------- phases

function all_out;
    input integer p;
    integer i;
    begin
        all_out = 1;
        for (i = 0; i < 8; i = i + 1) if (out_pos[i] < ph[p*PH_WORDS + 3 + i]) all_out = 0;
    end
endfunction

integer nph, t0, i, e;
initial begin
    $readmemh({`GOLDEN_DIR, "/params.hex"}, params);
    nph = params[0];
    if (params[1] != CNT_COUNT || nph > MAX_PHASES || params[11] != SEG_COUNT || params[12] != DW_BEAT) begin
        $display("0 passed, 1 failed");
        $fatal(1, "tb_sw_router: golden vectors have %0d counters, %0d segments of %0d DWs; the bench %0d, %0d, %0d",
               params[1], params[11], params[12], CNT_COUNT, SEG_COUNT, DW_BEAT);
    end
    $readmemh({`GOLDEN_DIR, "/phases.hex"}, ph, 0, nph*PH_WORDS - 1);
    if (ph[(nph-1)*PH_WORDS + 1] > 0) $readmemh({`GOLDEN_DIR, "/in_up.hex"}, in_beats, 0, ph[(nph-1)*PH_WORDS + 1] - 1);
    if (ph[(nph-1)*PH_WORDS + 2] > 0) $readmemh({`GOLDEN_DIR, "/in_dn.hex"}, in_beats, MAX_BEATS, MAX_BEATS + ph[(nph-1)*PH_WORDS + 2] - 1);
    if (ph[(nph-1)*PH_WORDS + 3] > 0) $readmemh({`GOLDEN_DIR, "/out_up_P.hex"}, out_beats, 0*MAX_BEATS, 0*MAX_BEATS + ph[(nph-1)*PH_WORDS + 3] - 1);
    if (ph[(nph-1)*PH_WORDS + 4] > 0) $readmemh({`GOLDEN_DIR, "/out_up_NP.hex"}, out_beats, 1*MAX_BEATS, 1*MAX_BEATS + ph[(nph-1)*PH_WORDS + 4] - 1);
    if (ph[(nph-1)*PH_WORDS + 5] > 0) $readmemh({`GOLDEN_DIR, "/out_up_CPL.hex"}, out_beats, 2*MAX_BEATS, 2*MAX_BEATS + ph[(nph-1)*PH_WORDS + 5] - 1);
    if (ph[(nph-1)*PH_WORDS + 6] > 0) $readmemh({`GOLDEN_DIR, "/out_up_LOC.hex"}, out_beats, 3*MAX_BEATS, 3*MAX_BEATS + ph[(nph-1)*PH_WORDS + 6] - 1);
    if (ph[(nph-1)*PH_WORDS + 7] > 0) $readmemh({`GOLDEN_DIR, "/out_dn_P.hex"}, out_beats, 4*MAX_BEATS, 4*MAX_BEATS + ph[(nph-1)*PH_WORDS + 7] - 1);
    if (ph[(nph-1)*PH_WORDS + 8] > 0) $readmemh({`GOLDEN_DIR, "/out_dn_NP.hex"}, out_beats, 5*MAX_BEATS, 5*MAX_BEATS + ph[(nph-1)*PH_WORDS + 8] - 1);
    if (ph[(nph-1)*PH_WORDS + 9] > 0) $readmemh({`GOLDEN_DIR, "/out_dn_CPL.hex"}, out_beats, 6*MAX_BEATS, 6*MAX_BEATS + ph[(nph-1)*PH_WORDS + 9] - 1);
    if (ph[(nph-1)*PH_WORDS + 10] > 0) $readmemh({`GOLDEN_DIR, "/out_dn_LOC.hex"}, out_beats, 7*MAX_BEATS, 7*MAX_BEATS + ph[(nph-1)*PH_WORDS + 10] - 1);
    if (ph[(nph-1)*PH_WORDS + 12] > 0) $readmemh({`GOLDEN_DIR, "/pb_up_NP.hex"}, pb, 1*MAX_TLPS, 1*MAX_TLPS + ph[(nph-1)*PH_WORDS + 12] - 1);
    if (ph[(nph-1)*PH_WORDS + 13] > 0) $readmemh({`GOLDEN_DIR, "/pb_up_CPL.hex"}, pb, 2*MAX_TLPS, 2*MAX_TLPS + ph[(nph-1)*PH_WORDS + 13] - 1);
    if (ph[(nph-1)*PH_WORDS + 16] > 0) $readmemh({`GOLDEN_DIR, "/pb_dn_NP.hex"}, pb, 5*MAX_TLPS, 5*MAX_TLPS + ph[(nph-1)*PH_WORDS + 16] - 1);
    if (ph[(nph-1)*PH_WORDS + 17] > 0) $readmemh({`GOLDEN_DIR, "/pb_dn_CPL.hex"}, pb, 6*MAX_TLPS, 6*MAX_TLPS + ph[(nph-1)*PH_WORDS + 17] - 1);
    if (ph[(nph-1)*PH_WORDS + 12] > 0) $readmemh({`GOLDEN_DIR, "/cb_up_NP.hex"}, cb, 0, ph[(nph-1)*PH_WORDS + 12] - 1);
    if (ph[(nph-1)*PH_WORDS + 16] > 0) $readmemh({`GOLDEN_DIR, "/cb_dn_NP.hex"}, cb, MAX_TLPS, MAX_TLPS + ph[(nph-1)*PH_WORDS + 16] - 1);
    for (i = 0; i < 8; i = i + 1) begin
        out_pos[i] = 0;
        out_tlp[i] = 0;
    end
    for (e = 0; e < 2; e = e + 1) begin
        in_pos[e] = 0;
        in_lim[e] = 0;
        p_done[e] = 0;
        c_done[e] = 0;
        cur_list[e] = -1;
        np_block[e] = 1'b0;
        np_rel_phase[e] = -1;
        np_start[e] = 0;
        offer_ok[e] = 1'b1;
    end
    repeat (4) @(posedge clk);
    @(negedge clk) rst = 1'b0;
`ifdef SWITCH_TOP
    // TAP_INFO: each window names its tap and the design's tap count
    check_probe_reg(`PS_TAP_GPU, `PS_REG_TAP_INFO, (`PS_TAP_COUNT << 8) | `PS_TAP_GPU, "TAP_INFO");
    check_probe_reg(`PS_TAP_HOST, `PS_REG_TAP_INFO, (`PS_TAP_COUNT << 8) | `PS_TAP_HOST, "TAP_INFO");
    axil_write(`PS_TAP_GPU * `PS_TAP_STRIDE + `PS_REG_CTRL, 32'd1 << `PS_REG_CTRL_ENABLE_BIT);
    axil_write(`PS_TAP_HOST * `PS_TAP_STRIDE + `PS_REG_CTRL, 32'd1 << `PS_REG_CTRL_ENABLE_BIT);
`endif
    for (phase = 0; phase < nph; phase = phase + 1) begin
        @(negedge clk);
        bp = ph[phase*PH_WORDS][0];
        np_rand = ph[phase*PH_WORDS][1];
        for (e = 0; e < 2; e = e + 1) begin
            np_block[e] = ph[phase*PH_WORDS][2 + e];
            np_start[e] = out_pos[e*4 + 1];
            n_out[e] = 0;
            seg_out[e] = 0;
            seg_in[e] = 0;
        end
        stalls = 0;
        in_lim[0] = ph[phase*PH_WORDS + 1];
        in_lim[1] = ph[phase*PH_WORDS + 2];
        t0 = cyc;
        while (!(in_pos[0] == in_lim[0] && in_pos[1] == in_lim[1] && all_out(phase)) && cyc - t0 < 200000) @(negedge clk);
        if (cyc - t0 >= 200000) begin
            fail("phase timed out");
            $display("  in %0d/%0d %0d/%0d", in_pos[0], in_lim[0], in_pos[1], in_lim[1]);
            for (i = 0; i < 8; i = i + 1) $display("  list %0d: %0d of %0d beats", i, out_pos[i], ph[phase*PH_WORDS + 3 + i]);
        end
        // nothing more may come out
        repeat (20) @(negedge clk);
        for (k = 0; k < 2*CNT_COUNT; k = k + 1) begin
            if ((k < CNT_COUNT ? up_rx_cnt[k*32 +: 32] : dn_rx_cnt[(k-CNT_COUNT)*32 +: 32]) != ph[phase*PH_WORDS + 19 + k]) begin
                fail("fate counter");
                $display("  %0s counter %0d: got %0d want %0d", k < CNT_COUNT ? "up" : "dn", k % CNT_COUNT,
                         k < CNT_COUNT ? up_rx_cnt[k*32 +: 32] : dn_rx_cnt[(k-CNT_COUNT)*32 +: 32], ph[phase*PH_WORDS + 19 + k]);
            end else begin
                pass_count = pass_count + 1;
            end
        end
        if (!bp) begin
            if (stalls != 0) fail("input stalled at full rate");
            for (e = 0; e < 2; e = e + 1) begin
                if (n_out[e] != last_out[e] - first_out[e] + 1) begin
                    fail("output bubble at full rate");
                    $display("  port %0d: %0d beats over %0d clocks", e, n_out[e], last_out[e] - first_out[e] + 1);
                end else begin
                    pass_count = pass_count + 1;
                end
                // egress e carries what ingress 1 - e took
                if (n_out[e] != ph[phase*PH_WORDS + 2 - e] - ph[(phase-1)*PH_WORDS + 2 - e] || seg_out[e] != seg_in[1-e]) begin
                    fail("beats or segments out differ from in at full rate");
                    $display("  egress %0d: %0d beats out, %0d segments in, %0d out", e, n_out[e], seg_in[1-e], seg_out[e]);
                end else begin
                    pass_count = pass_count + 1;
                end
            end
            $display("full rate down: %0d TLPs in %0d beats (%0d segments) in, %0d beats (%0d segments) out over %0d clocks",
                     params[13], in_lim[0] - ph[(phase-1)*PH_WORDS + 1], seg_in[0], n_out[1], seg_out[1], last_out[1] - first_out[1] + 1);
            $display("full rate up: %0d TLPs in %0d beats (%0d segments) in, %0d beats (%0d segments) out over %0d clocks",
                     params[14], in_lim[1] - ph[(phase-1)*PH_WORDS + 2], seg_in[1], n_out[0], seg_out[0], last_out[0] - first_out[0] + 1);
        end
        $display("phase %0d done at %0d", phase, cyc);
    end
`ifdef SWITCH_TOP
    axil_write(`PS_TAP_GPU * `PS_TAP_STRIDE + `PS_REG_CMD, 32'd1 << `PS_REG_CMD_SNAPSHOT_BIT);
    axil_write(`PS_TAP_HOST * `PS_TAP_STRIDE + `PS_REG_CMD, 32'd1 << `PS_REG_CMD_SNAPSHOT_BIT);
    repeat (4) @(negedge clk);
    check_probe(`PS_TAP_GPU, `PS_CNT_READS_STARTED, seen_mrd, "READS_STARTED");
    check_probe(`PS_TAP_GPU, `PS_CNT_CPLD_COUNT, seen_cpld, "CPLD_COUNT");
    check_probe(`PS_TAP_GPU, `PS_CNT_BAR_UR, seen_ur, "BAR_UR");
    check_probe(`PS_TAP_GPU, `PS_CNT_CPL_COUNT, seen_cpl, "CPL_COUNT");
    check_probe(`PS_TAP_GPU, `PS_CNT_MWR_COUNT, seen_mwr, "MWR_COUNT");
    check_probe(`PS_TAP_GPU, `PS_CNT_POISONED, seen_ep, "POISONED");
    check_probe(`PS_TAP_HOST, `PS_CNT_READS_STARTED, host_mrd, "READS_STARTED");
    check_probe(`PS_TAP_HOST, `PS_CNT_CPLD_COUNT, host_cpld, "CPLD_COUNT");
    check_probe(`PS_TAP_HOST, `PS_CNT_BAR_UR, host_ur, "BAR_UR");
    $display("probe on the GPU side: %0d Cpl without data, %0d MWr, %0d poisoned", seen_cpl, seen_mwr, seen_ep);
    $display("probe on the GPU side: %0d reads, %0d CplD, %0d UR", seen_mrd, seen_cpld, seen_ur);
    $display("probe on the host side: %0d reads, %0d CplD, %0d UR", host_mrd, host_cpld, host_ur);
`endif
    $display("beats with several TLP starts: %0d in, %0d out", multi_in, multi_out);
    $display("np_ok held low: %0d posted TLPs and completions out, %0d non-posted requests held back", pc_passed, np_held);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_sw_router failed");
    $finish;
end

endmodule

`resetall
