`timescale 1ns / 1ps
`default_nettype none

/*
 * Self-checking testbench of probe_tracker (Icarus -g2012 and Verilator --binary --timing).
 *
 * A seeded generator plays a requester and a completer on the two tapped streams:
 * - reads of 1..128 DW (4..512 B, now and then partial byte enables or zero-length) at
 *   random DW-aligned 32- or 64-bit addresses, MRd and a few MRdLk, from three
 *   Requester IDs, on free tags (T9/T8 set for 10-bit tags);
 * - completions split at 64- or 128-B RCB boundaries, sometimes combined up to MPS,
 *   after random delays, interleaved across tags, now and then two pieces of one read in
 *   one beat; some reads end in UR or CA (CA sometimes after SC pieces), some are never
 *   answered (timeouts), some silent ones have their tag reused by a new read;
 * - injected faults: completions with an unknown Requester ID (unexpected), Byte Counts
 *   off by some bytes (mismatch);
 * - noise that must not count: MWr headers, non-sop beats, beats offered while ready is
 *   low (held until accepted, as the stream rule says);
 * - 1..SEG TLPs per beat on each stream, enable toggled, snapshot, clear and
 *   snapshot-and-clear at random, sometimes on consecutive clocks.
 *
 * A reference model inside the bench follows the accepted TLPs with the rules of
 * probe_tracker.v (written here per transaction, not per segment) and predicts every
 * statistic; at every snapshot all STAT_COUNT shadows are compared exactly, LAG (five)
 * clocks later (the tracker's pipeline), the histograms' a clock later (their registered bin
 * index). The histograms' reference is a search of the layout's bin edges, not a leading-one
 * detector. The model is itself checked against the generator's
 * intent over the whole run: reads completed, UR, CA, timeouts, reuses, unexpected
 * completions and mismatches injected, and an empty table at the end.
 *
 * Parameters (iverilog -P tb_probe_tracker.X=..., verilator -GX=...): SEG, TAG_WIDTH,
 * SEED, TRAFFIC_CYCLES, RCB (64 or 128: every read split at that boundary; 0: each read draws
 * 64 or 128) and MPS (the largest combined completion, 128 or 256 B). All four can also be
 * given at run time (+SEED=n +TRAFFIC_CYCLES=n +RCB=n +MPS=n), so one Verilator build runs
 * many seeds and both RCB and MPS (bench/golden-sweep.mjs). The last lines are "TLPs: ..." (TLP starts accepted on both
 * streams) and "N passed, N failed".
 */
// testbench arithmetic mixes integer bookkeeping with vectors on purpose. Every random draw is a
// plain assignment or the left operand of && / || (Verilator 5.006 evaluates both arms of a ?:,
// and of an if/else it turns into one), so Icarus and Verilator run the same traffic.
/* verilator lint_off WIDTH */
`include "pcie_scope_regs.vh"

module tb_probe_tracker #
(
    parameter SEG = 1,
    parameter TAG_WIDTH = 8,
    parameter SEED = 1,
    parameter TRAFFIC_CYCLES = SEG > 1 ? 12000 : 24000,
    parameter RCB = 0,
    parameter MPS = 256
);

localparam TAGS = 1 << TAG_WIDTH;
localparam TIMEOUT = 2500;
// a small log-spaced layout with a scaled first edge and a part octave: 4 sub-bins per octave
// from 16 clocks (bins 0..3 of 4 clocks below it), 26 bins: the overflow bin from 768 clocks
localparam LAT_BINS = 26;
localparam LAT_SUB_BINS_LOG2 = 2;
localparam LAT_FIRST_EDGE_LOG2 = 4;

// the statistic order: the tracker's counters in spec/registers.json (generated include)
localparam S_OUTSTANDING = `PS_CNT_OUTSTANDING - `PS_CNT_TRACKER_FIRST;
localparam S_PEAK        = `PS_CNT_OUTSTANDING_PEAK - `PS_CNT_TRACKER_FIRST;
localparam S_OCC_SUM     = `PS_CNT_OUTSTANDING_SUM - `PS_CNT_TRACKER_FIRST;
localparam S_CYCLES      = `PS_CNT_TRACKER_CYCLES - `PS_CNT_TRACKER_FIRST;
localparam S_STARTED     = `PS_CNT_READS_STARTED - `PS_CNT_TRACKER_FIRST;
localparam S_RETIRED     = `PS_CNT_READS_RETIRED - `PS_CNT_TRACKER_FIRST;
localparam S_FIRST_MIN   = `PS_CNT_LAT_FIRST_MIN - `PS_CNT_TRACKER_FIRST;
localparam S_FIRST_MAX   = `PS_CNT_LAT_FIRST_MAX - `PS_CNT_TRACKER_FIRST;
localparam S_FIRST_SUM   = `PS_CNT_LAT_FIRST_SUM - `PS_CNT_TRACKER_FIRST;
localparam S_FIRST_COUNT = `PS_CNT_LAT_FIRST_COUNT - `PS_CNT_TRACKER_FIRST;
localparam S_LAST_MIN    = `PS_CNT_LAT_LAST_MIN - `PS_CNT_TRACKER_FIRST;
localparam S_LAST_MAX    = `PS_CNT_LAT_LAST_MAX - `PS_CNT_TRACKER_FIRST;
localparam S_LAST_SUM    = `PS_CNT_LAT_LAST_SUM - `PS_CNT_TRACKER_FIRST;
localparam S_LAST_COUNT  = `PS_CNT_LAT_LAST_COUNT - `PS_CNT_TRACKER_FIRST;
localparam S_CPL_UR      = `PS_CNT_CPL_UR - `PS_CNT_TRACKER_FIRST;
localparam S_CPL_CA      = `PS_CNT_CPL_CA - `PS_CNT_TRACKER_FIRST;
localparam S_CPL_OTHER   = `PS_CNT_CPL_OTHER_STATUS - `PS_CNT_TRACKER_FIRST;
localparam S_UNEXPECTED  = `PS_CNT_CPL_UNEXPECTED - `PS_CNT_TRACKER_FIRST;
localparam S_MISMATCH    = `PS_CNT_CPL_MISMATCH - `PS_CNT_TRACKER_FIRST;
localparam S_TIMEOUT     = `PS_CNT_READ_TIMEOUTS - `PS_CNT_TRACKER_FIRST;
localparam S_TAG_REUSE   = `PS_CNT_TAG_REUSE - `PS_CNT_TRACKER_FIRST;
localparam S_HIST_FIRST  = `PS_CNT_TRACKER_COUNT;
localparam HIST_WORDS    = LAT_BINS + 1;
// the last-completion histogram's bins, then the first-completion one's (PS_HIST_* order)
localparam S_HIST_LAST   = S_HIST_FIRST + `PS_HIST_LAST * HIST_WORDS;
localparam S_HIST_1ST    = S_HIST_FIRST + `PS_HIST_FIRST * HIST_WORDS;
localparam STAT_COUNT    = S_HIST_FIRST + `PS_HIST_KINDS * HIST_WORDS;

localparam [63:0] EMPTY_MIN = 64'hFFFF_FFFF_FFFF_FFFF;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

reg                enable = 1'b0;
reg                clear = 1'b0;
reg                snapshot = 1'b0;
reg  [SEG*128-1:0] rx_hdr = 0;
reg  [SEG-1:0]     rx_valid = 0;
reg  [SEG-1:0]     rx_sop = 0;
reg                rx_ready = 0;
reg  [SEG*128-1:0] tx_hdr = 0;
reg  [SEG-1:0]     tx_valid = 0;
reg  [SEG-1:0]     tx_sop = 0;
reg                tx_ready = 0;
// every statistic: the tracker's counters, then the histograms' bins (two ports of the DUT)
wire [STAT_COUNT*64-1:0] stat_shadow;
wire [S_HIST_FIRST*64-1:0] stat_cnt_shadow;
wire [(STAT_COUNT-S_HIST_FIRST)*64-1:0] stat_hist_shadow;
assign stat_shadow = {stat_hist_shadow, stat_cnt_shadow};
// the histograms' indexed read port walks the bins, one a clock; it must match the bus
reg  [$clog2(LAT_BINS+1)-1:0]   hist_rd_idx = 0;
wire [`PS_HIST_KINDS*64-1:0]    hist_rd_words;

probe_tracker #(
    .TLP_SEG_COUNT(SEG),
    .TAG_WIDTH(TAG_WIDTH),
    .CNT_WIDTH(64),
    .TIMEOUT_CYCLES(TIMEOUT),
    .LAT_BINS(LAT_BINS),
    .LAT_SUB_BINS_LOG2(LAT_SUB_BINS_LOG2),
    .LAT_FIRST_EDGE_LOG2(LAT_FIRST_EDGE_LOG2)
) dut (
    .clk(clk), .rst(rst),
    .enable(enable), .clear(clear), .snapshot(snapshot),
    .rx_req_tlp_hdr(rx_hdr), .rx_req_tlp_valid(rx_valid), .rx_req_tlp_sop(rx_sop), .rx_req_tlp_ready(rx_ready),
    .tx_cpl_tlp_hdr(tx_hdr), .tx_cpl_tlp_valid(tx_valid), .tx_cpl_tlp_sop(tx_sop), .tx_cpl_tlp_ready(tx_ready),
    .filter_en(1'b0), .filter_base(64'd0), .filter_limit(64'd0),
    // the sampler taps: tb_probe_filter and tb_probe_sampler check them
    .smp_enable(), .smp_clear(), .smp_mrd(), .smp_mrd_bytes(), .smp_cpld(), .smp_cpld_bytes(),
    .smp_first(), .smp_latency(), .smp_outstanding(), .smp_unexpected(), .smp_timeout(),
    .stat_shadow(stat_cnt_shadow),
    .hist_shadow(stat_hist_shadow),
    .hist_rd_idx(hist_rd_idx),
    .hist_rd_words(hist_rd_words)
);

integer cyc = 0;
integer pass_count = 0;
integer fail_count = 0;

task automatic check(input cond, input [8*48-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (cond) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 40) $display("FAIL @%0d %0s: got %0d want %0d", cyc, what, got, want);
        end
    end
endtask

function automatic [8*16-1:0] stat_name(input integer i);
    case (i)
        S_OUTSTANDING: stat_name = "OUTSTANDING";
        S_PEAK:        stat_name = "PEAK";
        S_OCC_SUM:     stat_name = "OCC_SUM";
        S_CYCLES:      stat_name = "CYCLES";
        S_STARTED:     stat_name = "STARTED";
        S_RETIRED:     stat_name = "RETIRED";
        S_FIRST_MIN:   stat_name = "FIRST_MIN";
        S_FIRST_MAX:   stat_name = "FIRST_MAX";
        S_FIRST_SUM:   stat_name = "FIRST_SUM";
        S_FIRST_COUNT: stat_name = "FIRST_COUNT";
        S_LAST_MIN:    stat_name = "LAST_MIN";
        S_LAST_MAX:    stat_name = "LAST_MAX";
        S_LAST_SUM:    stat_name = "LAST_SUM";
        S_LAST_COUNT:  stat_name = "LAST_COUNT";
        S_CPL_UR:      stat_name = "CPL_UR";
        S_CPL_CA:      stat_name = "CPL_CA";
        S_CPL_OTHER:   stat_name = "CPL_OTHER";
        S_UNEXPECTED:  stat_name = "UNEXPECTED";
        S_MISMATCH:    stat_name = "MISMATCH";
        S_TIMEOUT:     stat_name = "TIMEOUT";
        S_TAG_REUSE:   stat_name = "TAG_REUSE";
        default:       stat_name = (i >= S_HIST_1ST) ? ((i == S_HIST_1ST + LAT_BINS) ? "HIST_FIRST_OVERFLOW" : "HIST_FIRST")
                                                     : ((i == S_HIST_LAST + LAT_BINS) ? "HIST_LAST_OVERFLOW" : "HIST_LAST");
    endcase
endfunction

/*
 * Random numbers: xorshift32, seeded
 */
reg [31:0] lfsr = 32'h9e37_79b9 ^ SEED;
// run-time overrides (+SEED=n, +TRAFFIC_CYCLES=n), read before the first draw
integer seed_v = SEED;
integer traffic_cycles = TRAFFIC_CYCLES;
integer rcb_v = RCB;
integer mps_v = MPS;
function automatic [31:0] rnd(input integer dummy);
    begin
        lfsr = lfsr ^ (lfsr << 13);
        lfsr = lfsr ^ (lfsr >> 17);
        lfsr = lfsr ^ (lfsr << 5);
        rnd = lfsr;
    end
endfunction

function automatic integer rand_in(input integer lo, input integer hi);
    rand_in = lo + (rnd(0) % (hi - lo + 1));
endfunction

function automatic chance(input integer permille);
    chance = (rnd(0) % 1000) < permille;
endfunction

/*
 * Generator: requester and completer
 */
localparam G_FREE = 0;      // tag unused
localparam G_FLIGHT = 1;    // answer pieces still to place
localparam G_SILENT = 2;    // never answered: waits for the timeout
localparam G_CLOSING = 3;   // last piece placed, not yet accepted
localparam M_SC = 0;
localparam M_UR = 1;
localparam M_CA = 2;

integer     g_state [0:TAGS-1];
reg  [15:0] g_rid [0:TAGS-1];
integer     g_next [0:TAGS-1];     // byte address (low 32 bits) of the next piece's first byte
integer     g_end [0:TAGS-1];      // one past the last requested byte
integer     g_rcb [0:TAGS-1];
integer     g_mode [0:TAGS-1];
integer     g_ca_after [0:TAGS-1]; // SC pieces before the CA
integer     g_due [0:TAGS-1];      // earliest clock of the next piece
integer     g_delay [0:TAGS-1];    // first piece: clocks after the request is accepted
reg         g_zero [0:TAGS-1];
integer     g_born [0:TAGS-1];
integer     g_pieces [0:TAGS-1];
// late reads: one completion timed around the scan visit that times them out
reg         g_late [0:TAGS-1];
integer     g_visit [0:TAGS-1];    // the clock of that visit

// reads with pieces to place, and silent reads, as lists for random picks
integer fl [0:TAGS-1];
integer fl_pos [0:TAGS-1];
integer fl_n = 0;
integer sl [0:TAGS-1];
integer sl_pos [0:TAGS-1];
integer sl_n = 0;

task automatic flight_add(input integer t);
    begin
        fl[fl_n] = t;
        fl_pos[t] = fl_n;
        fl_n = fl_n + 1;
    end
endtask

task automatic flight_remove(input integer t);
    integer last;
    begin
        fl_n = fl_n - 1;
        last = fl[fl_n];
        fl[fl_pos[t]] = last;
        fl_pos[last] = fl_pos[t];
    end
endtask

task automatic silent_add(input integer t);
    begin
        sl[sl_n] = t;
        sl_pos[t] = sl_n;
        sl_n = sl_n + 1;
    end
endtask

task automatic silent_remove(input integer t);
    integer last;
    begin
        sl_n = sl_n - 1;
        last = sl[sl_n];
        sl[sl_pos[t]] = last;
        sl_pos[last] = sl_pos[t];
    end
endtask

// intent: what the generator meant to happen
integer i_done = 0, i_ur = 0, i_ca = 0, i_unexpected = 0, i_mismatch = 0, i_silent = 0, i_reuse = 0;
integer i_reads = 0;

/*
 * Reference model: the tracker's rules per accepted TLP
 */
reg          m_busy [0:TAGS-1];
reg  [15:0]  m_rid [0:TAGS-1];
integer      m_start [0:TAGS-1];
integer      m_rem [0:TAGS-1];
reg          m_first [0:TAGS-1];
integer      m_occ = 0;
reg  [63:0]  m_stat [0:STAT_COUNT-1];
// clocks from a snapshot on the taps to the shadows that hold it (stages T, A, B and the
// statistics' stage R), and the shadows expected from each of the last LAG+1 clocks' snapshots
localparam LAG = 5;
reg  [63:0]  m_ring [0:(LAG+1)*STAT_COUNT-1];
reg          m_ring_snap [0:LAG];

// whole-run tallies of the model (never cleared), checked against the generator's intent
integer l_started = 0, l_done = 0, l_ur = 0, l_ca = 0, l_other = 0, l_unexpected = 0, l_mismatch = 0;
integer l_timeout = 0, l_reuse = 0;

// TLPs accepted this clock, in segment order
integer a_req_n, a_cpl_n;
integer a_req_tag [0:3];
integer a_req_rid [0:3];
integer a_req_expect [0:3];
integer a_cpl_tag [0:3];
integer a_cpl_rid [0:3];
integer a_cpl_status [0:3];
integer a_cpl_data [0:3];
integer a_cpl_bc [0:3];
integer a_cpl_len [0:3];
integer a_cpl_la [0:3];

task automatic empty_stats;
    integer i;
    begin
        for (i = 0; i < STAT_COUNT; i = i + 1) m_stat[i] = 0;
        m_stat[S_FIRST_MIN] = EMPTY_MIN;
        m_stat[S_LAST_MIN] = EMPTY_MIN;
    end
endtask

// the lower edge of bin k in clocks, from the layout's definition (spec/registers.json
// latencyHistogram), not from the RTL's leading-one detector
function automatic integer bin_edge(input integer k);
    integer sub, first;
    begin
        sub = 1 << LAT_SUB_BINS_LOG2;
        first = 1 << LAT_FIRST_EDGE_LOG2;
        if (k < sub) bin_edge = k * (first / sub);
        else bin_edge = (first << (k / sub - 1)) / sub * (sub + k % sub);
    end
endfunction

// the bin of a latency: the last bin whose lower edge it reaches, LAT_BINS from the overflow edge
function automatic integer bin_of(input integer lat);
    integer k;
    begin
        bin_of = 0;
        for (k = 1; k <= LAT_BINS; k = k + 1) if (lat >= bin_edge(k)) bin_of = k;
    end
endfunction

// first_idx: the kind's MIN statistic; hist_idx: the first bin of the kind's histogram
task automatic take_latency(input integer first_idx, input integer lat, input integer hist_idx);
    integer bin;
    begin
        if (lat < m_stat[first_idx]) m_stat[first_idx] = lat;
        if (lat > m_stat[first_idx + 1]) m_stat[first_idx + 1] = lat;
        m_stat[first_idx + 2] = m_stat[first_idx + 2] + lat;
        m_stat[first_idx + 3] = m_stat[first_idx + 3] + 1;
        bin = bin_of(lat);
        m_stat[hist_idx + bin] = m_stat[hist_idx + bin] + 1;
    end
endtask

integer cov_overflow = 0, cov_same_tag_beat = 0, cov_multi_cpl_beat = 0, cov_req_and_cpl = 0;
integer cov_multi_piece = 0, cov_held = 0, cov_reuse_in_beat = 0;
integer cov_late_before = 0, cov_late_exact = 0, cov_late_after = 0;

// one clock of the model: completions, timeout scan, requests, then the statistics
task automatic model_step(input en, input clr, input snap);
    integer i, t, lat, carried, p, slot;
    integer started, retired, ur, ca, other, unexpected, mismatch, timeout, reuse;
    integer f_n, l_n;
    integer f_lat [0:3];
    integer l_lat [0:3];
    begin
        started = 0; retired = 0; ur = 0; ca = 0; other = 0; unexpected = 0; mismatch = 0;
        timeout = 0; reuse = 0; f_n = 0; l_n = 0;

        for (i = 0; i < a_cpl_n; i = i + 1) begin
            t = a_cpl_tag[i];
            if (m_busy[t] && m_rid[t] == a_cpl_rid[i]) begin
                lat = cyc - m_start[t];
                if (a_cpl_status[i] == 0 && a_cpl_data[i]) begin
                    carried = (a_cpl_len[i] == 0 ? 4096 : a_cpl_len[i] * 4) - (a_cpl_la[i] % 4);
                    if (a_cpl_bc[i] != m_rem[t]) mismatch = mismatch + 1;
                    if (!m_first[t]) begin
                        f_lat[f_n] = lat;
                        f_n = f_n + 1;
                        m_first[t] = 1;
                    end
                    if (a_cpl_bc[i] <= carried) begin
                        l_lat[l_n] = lat;
                        l_n = l_n + 1;
                        m_busy[t] = 0;
                        retired = retired + 1;
                    end else begin
                        m_rem[t] = (m_rem[t] > carried) ? m_rem[t] - carried : 0;
                    end
                end else begin
                    if (a_cpl_status[i] == 0) mismatch = mismatch + 1;
                    else if (a_cpl_status[i] == 1) ur = ur + 1;
                    else if (a_cpl_status[i] == 4) ca = ca + 1;
                    else other = other + 1;
                    m_busy[t] = 0;
                    retired = retired + 1;
                end
            end else begin
                unexpected = unexpected + 1;
            end
        end

        // the scan looks at tag cyc mod TAGS
        p = cyc % TAGS;
        if (m_busy[p] && cyc - m_start[p] >= TIMEOUT) begin
            m_busy[p] = 0;
            timeout = 1;
            retired = retired + 1;
            if (g_state[p] == G_SILENT) begin
                silent_remove(p);
                g_state[p] = G_FREE;
            end else if (!g_late[p]) begin
                check(0, "an answered read timed out (bench load)", p, 0);
            end
        end

        for (i = 0; i < a_req_n; i = i + 1) begin
            t = a_req_tag[i];
            if (m_busy[t]) begin
                reuse = reuse + 1;
                retired = retired + 1;
            end
            m_busy[t] = 1;
            m_rid[t] = a_req_rid[i];
            m_start[t] = cyc;
            m_rem[t] = a_req_expect[i];
            m_first[t] = 0;
            started = started + 1;
        end
        m_occ = m_occ + started - retired;

        l_started = l_started + started;
        l_done = l_done + l_n;
        l_ur = l_ur + ur;
        l_ca = l_ca + ca;
        l_other = l_other + other;
        l_unexpected = l_unexpected + unexpected;
        l_mismatch = l_mismatch + mismatch;
        l_timeout = l_timeout + timeout;
        l_reuse = l_reuse + reuse;

        if (en) begin
            if (m_occ > m_stat[S_PEAK]) m_stat[S_PEAK] = m_occ;
            m_stat[S_OCC_SUM] = m_stat[S_OCC_SUM] + m_occ;
            m_stat[S_CYCLES] = m_stat[S_CYCLES] + 1;
            m_stat[S_STARTED] = m_stat[S_STARTED] + started;
            m_stat[S_RETIRED] = m_stat[S_RETIRED] + retired;
            for (i = 0; i < f_n; i = i + 1) take_latency(S_FIRST_MIN, f_lat[i], S_HIST_1ST);
            for (i = 0; i < l_n; i = i + 1) begin
                take_latency(S_LAST_MIN, l_lat[i], S_HIST_LAST);
                if (l_lat[i] >= bin_edge(LAT_BINS)) cov_overflow = cov_overflow + 1;
            end
            m_stat[S_CPL_UR] = m_stat[S_CPL_UR] + ur;
            m_stat[S_CPL_CA] = m_stat[S_CPL_CA] + ca;
            m_stat[S_CPL_OTHER] = m_stat[S_CPL_OTHER] + other;
            m_stat[S_UNEXPECTED] = m_stat[S_UNEXPECTED] + unexpected;
            m_stat[S_MISMATCH] = m_stat[S_MISMATCH] + mismatch;
            m_stat[S_TIMEOUT] = m_stat[S_TIMEOUT] + timeout;
            m_stat[S_TAG_REUSE] = m_stat[S_TAG_REUSE] + reuse;
        end

        slot = cyc % (LAG + 1);
        m_ring_snap[slot] = snap;
        if (snap) begin
            for (i = 0; i < STAT_COUNT; i = i + 1) m_ring[slot*STAT_COUNT + i] = m_stat[i];
            m_ring[slot*STAT_COUNT + S_OUTSTANDING] = m_occ;
        end
        if (clr) empty_stats();
    end
endtask

integer snap_checks = 0;
// the shadows one clock ago, and the clocks they were checked to be unchanged
reg [STAT_COUNT*64-1:0] held_shadow;
integer held_checks = 0;

integer hist_port_checks = 0;
// the read port answers two clocks after its index: the shadows of the bins asked for one and
// two clocks ago, as they stood then, and whether they were asked for since the start
reg [127:0] hist_want_d1, hist_want_d2;
reg [1:0]   hist_asked = 2'b00;
always @(negedge clk) begin
    if (hist_asked[1]) begin
        if ({hist_rd_words[`PS_HIST_LAST*64 +: 64], hist_rd_words[`PS_HIST_FIRST*64 +: 64]} == hist_want_d2) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 40) $display("FAIL @%0d histogram read port: got %0d / %0d, want %0d / %0d", cyc,
                                           hist_rd_words[`PS_HIST_LAST*64 +: 64], hist_rd_words[`PS_HIST_FIRST*64 +: 64],
                                           hist_want_d2[127:64], hist_want_d2[63:0]);
        end
        hist_port_checks = hist_port_checks + 1;
    end
    hist_rd_idx = (hist_rd_idx == LAT_BINS) ? 0 : hist_rd_idx + 1'b1;
    hist_want_d2 = hist_want_d1;
    hist_want_d1 = {stat_shadow[(S_HIST_LAST + hist_rd_idx)*64 +: 64], stat_shadow[(S_HIST_1ST + hist_rd_idx)*64 +: 64]};
    hist_asked = {hist_asked[0], 1'b1};
end

// shadows [from, to) against the model's snapshot in ring slot `slot`: the counters' LAG
// clocks after the snapshot, the histograms' LAG + 1 (their bin index is registered)
task automatic check_shadows(input integer slot, input integer from, input integer to);
    integer i;
    reg [63:0] got, want;
    begin
        for (i = from; i < to; i = i + 1) begin
            got = stat_shadow[i*64 +: 64];
            want = m_ring[slot*STAT_COUNT + i];
            if (got == want) begin
                pass_count = pass_count + 1;
            end else begin
                fail_count = fail_count + 1;
                if (fail_count <= 40) $display("FAIL @%0d stat %0d %0s: got %0d want %0d", cyc, i, stat_name(i), got, want);
            end
        end
        snap_checks = snap_checks + 1;
    end
endtask

/*
 * Generator: TLPs
 */
localparam [15:0] RID_0 = 16'h0100;
localparam [15:0] RID_1 = 16'h0200;
localparam [15:0] RID_2 = 16'h1a08;
// never used by a request: completions with it are unexpected
localparam [15:0] RID_BAD = 16'hbad0;

function automatic [127:0] mrd_hdr(input integer tag, input [15:0] rid, input integer len_dw, input [3:0] fbe,
                                   input [3:0] lbe, input [63:0] addr, input locked);
    reg [127:0] h;
    reg [9:0] t10;
    reg [31:0] junk;
    begin
        t10 = tag;
        h = 128'd0;
        h[125] = addr[63:32] != 0;                // 4DW header above 4 GiB
        h[124:120] = locked ? 5'b00001 : 5'b00000;
        h[119] = t10[9];
        h[115] = t10[8];
        h[105:96] = len_dw[9:0];                  // 128 DW at most: never the 0 = 1024 code
        h[95:80] = rid;
        h[79:72] = t10[7:0];
        h[71:68] = lbe;
        h[67:64] = fbe;
        junk = rnd(0);
        if (h[125]) begin
            h[63:32] = addr[63:32];
            h[31:2] = addr[31:2];
        end else begin
            h[63:34] = addr[31:2];
            h[31:0] = junk;                       // unused DW3 of a 3DW header
        end
        mrd_hdr = h;
    end
endfunction

function automatic [127:0] cpl_hdr(input integer tag, input [15:0] rid, input integer status, input with_data,
                                   input integer len_dw, input integer bc, input integer la);
    reg [127:0] h;
    reg [9:0] t10;
    begin
        t10 = tag;
        h = 128'd0;
        h[127:125] = with_data ? 3'b010 : 3'b000;
        h[124:120] = 5'b01010;
        h[119] = t10[9];
        h[115] = t10[8];
        h[105:96] = len_dw[9:0];
        h[95:80] = 16'h0200 + rand_in(0, 3);        // completer ID: not checked
        h[79:77] = status[2:0];
        h[75:64] = bc[11:0];                      // 4096 encodes as 0
        h[63:48] = rid;
        h[47:40] = t10[7:0];
        h[38:32] = la[6:0];
        h[31:0] = rnd(0);                         // no DW3 in a completion header
        cpl_hdr = h;
    end
endfunction

function automatic integer lead_of(input [3:0] be);
    lead_of = be[0] ? 0 : be[1] ? 1 : be[2] ? 2 : be[3] ? 3 : 0;
endfunction

function automatic integer trail_of(input [3:0] be);
    trail_of = be[3] ? 0 : be[2] ? 1 : be[1] ? 2 : be[0] ? 3 : 0;
endfunction

// what each segment of the presented beats carries (for the model when accepted)
localparam K_NONE = 0;
localparam K_READ = 1;
localparam K_CPL = 2;
localparam K_NOISE = 3;
integer rq_kind [0:3];
integer rq_tag [0:3];
integer rq_rid [0:3];
integer rq_expect [0:3];
integer cp_kind [0:3];
integer cp_tag [0:3];
integer cp_rid [0:3];
integer cp_status [0:3];
integer cp_data [0:3];
integer cp_bc [0:3];
integer cp_len [0:3];
integer cp_la [0:3];
integer cp_final [0:3];

reg traffic = 1'b1;

// a new read in request segment s; reuse_tag >= 0 starts it on that silent tag
task automatic place_read(input integer s, input integer reuse_tag);
    integer t, k, len_dw, lead, trail, bytes, off_dw, r, lo, hi;
    reg [3:0] fbe, lbe;
    reg [63:0] addr;
    reg [15:0] rid;
    reg zero, silent, late, c;
    begin
        t = -1;
        silent = chance(30);
        late = chance(8) && !silent;
        if (reuse_tag >= 0) begin
            t = reuse_tag;
            silent_remove(t);
            i_silent = i_silent - 1;
            i_reuse = i_reuse + 1;
        end else begin
            // half the silent reads on the tag the scan visits when they are exactly
            // TIMEOUT (or TIMEOUT - 1) clocks old, if accepted now: the boundary is exact
            if (chance(500) && silent) begin
                r = (cyc + TIMEOUT - rand_in(0, 1)) % TAGS;
                if (g_state[r] == G_FREE) t = r;
            end
            for (k = 0; k < 6 && t < 0; k = k + 1) begin
                r = rand_in(0, TAGS - 1);
                if (g_state[r] == G_FREE) t = r;
            end
        end
        if (t >= 0) begin
            r = rand_in(0, 2);
            rid = r == 0 ? RID_0 : r == 1 ? RID_1 : RID_2;
            len_dw = chance(300) || late ? 8 : 128;
            len_dw = rand_in(1, len_dw);
            fbe = 4'b1111;
            lbe = 4'b1111;
            zero = 0;
            if (len_dw == 1) begin
                r = rand_in(0, 19);
                fbe = r < 10 ? 4'b1111 : r == 10 ? 4'b0110 : r == 11 ? 4'b0001 : r == 12 ? 4'b1000 :
                      r == 13 ? 4'b0011 : r == 14 ? 4'b1100 : r == 15 ? 4'b0111 : r == 16 ? 4'b1110 :
                      r == 17 ? 4'b0100 : 4'b0000;
                lbe = 4'b0000;
                zero = fbe == 4'b0000;
                lead = lead_of(fbe);
                trail = trail_of(fbe);
            end else begin
                c = chance(200);
                k = rand_in(0, 3);
                if (c) fbe = 4'b1111 << k;
                c = chance(200);
                k = rand_in(0, 3);
                if (c) lbe = 4'b1111 >> k;
                lead = lead_of(fbe);
                trail = trail_of(lbe);
            end
            bytes = zero ? 0 : len_dw * 4 - lead - trail;
            // inside one 4 KiB page
            off_dw = rand_in(0, 1024 - len_dw);
            // positive as an integer: the split arithmetic below is signed
            c = chance(200);
            addr[63:32] = rand_in(1, 255);
            if (!c) addr[63:32] = 0;
            addr[31:0] = (rnd(0) & 32'h3fff_f000) | (off_dw * 4);

            rx_valid[s] = 1'b1;
            rx_sop[s] = 1'b1;
            rx_hdr[s*128 +: 128] = mrd_hdr(t, rid, len_dw, fbe, lbe, addr, chance(20));
            rq_kind[s] = K_READ;
            rq_tag[s] = t;
            rq_rid[s] = rid;
            rq_expect[s] = zero ? 1 : bytes;
            i_reads = i_reads + 1;

            g_rid[t] = rid;
            g_next[t] = addr[31:0] + lead;
            g_end[t] = addr[31:0] + lead + bytes;
            g_zero[t] = zero;
            g_rcb[t] = chance(500) ? 64 : 128;
            if (rcb_v != 0) g_rcb[t] = rcb_v;
            // a late read is answered by one completion (at most 32 B here: within any MPS)
            g_late[t] = late;
            if (late) g_rcb[t] = 4096;
            g_born[t] = cyc;
            g_pieces[t] = 0;
            r = rand_in(0, 999);
            g_mode[t] = r < 30 ? M_UR : r < 60 ? M_CA : M_SC;
            if (late) g_mode[t] = M_SC;
            g_ca_after[t] = rand_in(0, 2);
            r = rand_in(0, 99);
            // counted from the request's acceptance: a held request is not answered early
            lo = r < 60 ? 2 : r < 90 ? 100 : 400;
            hi = r < 60 ? 100 : r < 90 ? 400 : 1200;
            g_delay[t] = rand_in(lo, hi);
            // late: due 2 clocks before to 1 clock after the scan visit that times it out
            k = rand_in(0, 3);
            if (late) g_delay[t] = k - 2;
            g_due[t] = 32'h7fff_ffff;
            if (silent) begin
                g_state[t] = G_SILENT;
                silent_add(t);
                i_silent = i_silent + 1;
            end else begin
                g_state[t] = G_FLIGHT;
                flight_add(t);
            end
        end
    end
endtask

// the next completion of tag t in completion segment s
task automatic place_piece(input integer s, input integer t);
    integer cur, fin, boundary, span, bc, len_dw, status, k;
    reg with_data, final_piece, corrupt;
    begin
        cur = g_next[t];
        fin = g_end[t];
        bc = fin - cur;
        status = 0;
        with_data = 1;
        if (g_mode[t] == M_UR || (g_mode[t] == M_CA && g_ca_after[t] == 0)) begin
            // error completion: no data, Byte Count = bytes still due
            status = g_mode[t] == M_UR ? 1 : 4;
            with_data = 0;
            len_dw = 0;
            final_piece = 1;
            if (g_zero[t]) bc = 1;
            if (status == 1) i_ur = i_ur + 1;
            else i_ca = i_ca + 1;
        end else if (g_zero[t]) begin
            len_dw = 1;
            bc = 1;
            final_piece = 1;
            // a late read's fate is known when its completion is accepted (a zero-length late
            // read was counted twice here before: seeds 2-5 failed "reads completed")
            if (!g_late[t]) i_done = i_done + 1;
        end else begin
            boundary = (cur / g_rcb[t] + 1) * g_rcb[t];
            span = fin <= boundary ? fin : boundary;
            // combine RCB pieces up to MPS bytes now and then
            if (chance(300) && span < fin) begin
                for (k = 0; k < 3; k = k + 1) begin
                    if (span < fin && ((((span + g_rcb[t] < fin ? span + g_rcb[t] : fin) - 1) >> 2) - (cur >> 2) + 1) <= mps_v / 4) begin
                        span = span + g_rcb[t] < fin ? span + g_rcb[t] : fin;
                    end
                end
            end
            len_dw = ((span - 1) >> 2) - (cur >> 2) + 1;
            final_piece = span == fin;
            g_next[t] = span;
            // a late read's fate is known when its completion is accepted
            if (final_piece && !g_late[t]) i_done = i_done + 1;
            if (g_mode[t] == M_CA) g_ca_after[t] = g_ca_after[t] - 1;
            // a Byte Count off by some bytes: never changes whether the piece is the last
            corrupt = chance(8);
            k = rand_in(1, 4);
            if (g_late[t]) corrupt = 0;
            if (corrupt && !final_piece) begin
                bc = bc + 4 * k;
                i_mismatch = i_mismatch + 1;
            end
            if (corrupt && final_piece && bc >= 2) begin
                bc = bc - 1;
                i_mismatch = i_mismatch + 1;
            end
        end
        g_pieces[t] = g_pieces[t] + 1;
        if (g_pieces[t] == 2) cov_multi_piece = cov_multi_piece + 1;

        tx_valid[s] = 1'b1;
        tx_sop[s] = 1'b1;
        tx_hdr[s*128 +: 128] = cpl_hdr(t, g_rid[t], status, with_data, len_dw, bc, cur);
        cp_kind[s] = K_CPL;
        cp_tag[s] = t;
        cp_rid[s] = g_rid[t];
        cp_status[s] = status;
        cp_data[s] = with_data;
        cp_bc[s] = bc == 4096 ? 4096 : bc;
        cp_len[s] = len_dw;
        cp_la[s] = cur % 128;
        cp_final[s] = final_piece;

        if (final_piece) begin
            flight_remove(t);
            g_state[t] = G_CLOSING;
        end else begin
            corrupt = chance(400);
            k = rand_in(1, 16);
            g_due[t] = corrupt ? cyc : cyc + k;
        end
    end
endtask

// a completion no read expects: unknown Requester ID, any tag
task automatic place_unexpected(input integer s);
    integer t, len_dw, bc, la;
    reg [15:0] rid;
    begin
        t = rand_in(0, TAGS - 1);
        len_dw = rand_in(1, 16);
        tx_valid[s] = 1'b1;
        tx_sop[s] = 1'b1;
        rid = RID_BAD | rand_in(0, 15);
        bc = rand_in(1, 64);
        la = rand_in(0, 127);
        tx_hdr[s*128 +: 128] = cpl_hdr(t, rid, 0, 1, len_dw, bc, la);
        cp_kind[s] = K_CPL;
        cp_tag[s] = t;
        cp_rid[s] = tx_hdr[s*128 + 48 +: 16];
        cp_status[s] = 0;
        cp_data[s] = 1;
        cp_bc[s] = tx_hdr[s*128 + 64 +: 12];
        cp_len[s] = len_dw;
        cp_la[s] = tx_hdr[s*128 + 32 +: 7];
        cp_final[s] = 0;
        i_unexpected = i_unexpected + 1;
    end
endtask

// a beat that must not count: a payload beat (no sop) or a TLP that is not tracked
task automatic place_noise_rx(input integer s);
    integer k;
    reg c;
    begin
        rx_valid[s] = 1'b1;
        for (k = 0; k < 4; k = k + 1) rx_hdr[s*128 + 32*k +: 32] = rnd(0);
        c = chance(500);
        k = rand_in(0, 1);
        if (c) begin
            rx_sop[s] = 1'b1;
            rx_hdr[s*128 + 125 +: 3] = 3'b010 | k;               // MWr 3DW / 4DW
            rx_hdr[s*128 + 120 +: 5] = 5'b00000;
        end else begin
            rx_sop[s] = 1'b0;
            rx_hdr[s*128 + 120 +: 8] = 8'h00;                  // looks like an MRd, but no sop
        end
        rq_kind[s] = K_NOISE;
    end
endtask

task automatic place_noise_tx(input integer s);
    integer k;
    reg c;
    begin
        tx_valid[s] = 1'b1;
        for (k = 0; k < 4; k = k + 1) tx_hdr[s*128 + 32*k +: 32] = rnd(0);
        c = chance(500);
        if (c) begin
            tx_sop[s] = 1'b1;
            tx_hdr[s*128 + 120 +: 8] = 8'h40;                  // MWr: not a completion
        end else begin
            tx_sop[s] = 1'b0;
            tx_hdr[s*128 + 120 +: 8] = 8'h4a;                  // looks like a CplD, but no sop
        end
        cp_kind[s] = K_NOISE;
    end
endtask

// pick a read whose next piece is due, preferring the one just placed (two in a beat)
function automatic integer pick_due(input integer prev);
    integer k, t;
    begin
        pick_due = -1;
        if (chance(600) && prev >= 0 && g_state[prev] == G_FLIGHT && g_due[prev] <= cyc) pick_due = prev;
        // no draw in the loop condition: the number of draws depends on the state only
        for (k = 0; k < 4 && pick_due < 0 && fl_n > 0; k = k + 1) begin
            t = rand_in(0, fl_n - 1);
            t = fl[t];
            if (g_due[t] <= cyc) pick_due = t;
        end
    end
endfunction

task automatic build_rx_beat;
    integer s, t, young, prev_silent;
    reg want_read, want_noise, reuse_same, reuse_old;
    reg [31:0] pick;
    begin
        rx_valid = 0;
        rx_sop = 0;
        rx_hdr = 0;
        prev_silent = -1;
        for (s = 0; s < SEG; s = s + 1) begin
            rq_kind[s] = K_NONE;
            want_read = chance(110) && traffic;
            want_noise = chance(60);
            reuse_same = chance(300);
            reuse_old = chance(15);
            pick = rnd(0);
            if (want_read) begin
                young = -1;
                // reuse a young silent tag now and then (in the same beat when one was just placed)
                if (reuse_same && prev_silent >= 0) young = prev_silent;
                if (young < 0 && reuse_old && sl_n > 0) begin
                    t = sl[pick % sl_n];
                    if (cyc - g_born[t] < TIMEOUT - 200) young = t;
                end
                if (young >= 0 && young == prev_silent) cov_reuse_in_beat = cov_reuse_in_beat + 1;
                place_read(s, young);
                prev_silent = (rq_kind[s] == K_READ && g_state[rq_tag[s]] == G_SILENT) ? rq_tag[s] : -1;
            end
            if (!want_read && want_noise) place_noise_rx(s);
        end
    end
endtask

task automatic build_tx_beat;
    integer s, t, prev;
    reg want_unexpected, want_piece, want_noise;
    begin
        tx_valid = 0;
        tx_sop = 0;
        tx_hdr = 0;
        prev = -1;
        for (s = 0; s < SEG; s = s + 1) begin
            cp_kind[s] = K_NONE;
            want_unexpected = chance(8);
            want_piece = chance(900);
            want_noise = chance(40);
            if (want_unexpected) place_unexpected(s);
            if (!want_unexpected && want_piece) begin
                t = pick_due(prev);
                if (t >= 0) begin
                    place_piece(s, t);
                    prev = t;
                end
            end
            if (want_noise && cp_kind[s] == K_NONE) place_noise_tx(s);
        end
    end
endtask

// TLP starts accepted on each stream (reads and MWr noise; completions, unexpected ones and noise)
integer tlp_rx = 0, tlp_tx = 0;

// hand the accepted TLPs of this clock to the model, free the tags whose last piece went
task automatic collect_accepted;
    integer s, n_cpl, k, t;
    begin
        a_req_n = 0;
        a_cpl_n = 0;
        for (s = 0; s < SEG; s = s + 1) begin
            if (rx_ready && rx_valid[s] && rx_sop[s]) tlp_rx = tlp_rx + 1;
            if (tx_ready && tx_valid[s] && tx_sop[s]) tlp_tx = tlp_tx + 1;
        end
        if (rx_ready) begin
            for (s = 0; s < SEG; s = s + 1) begin
                if (rx_valid[s] && rx_sop[s] && rq_kind[s] == K_READ) begin
                    a_req_tag[a_req_n] = rq_tag[s];
                    a_req_rid[a_req_n] = rq_rid[s];
                    a_req_expect[a_req_n] = rq_expect[s];
                    t = rq_tag[s];
                    g_due[t] = cyc + g_delay[t];
                    if (g_late[t]) begin
                        // the first clock >= cyc + TIMEOUT at which the scan visits tag t
                        g_visit[t] = cyc + TIMEOUT + (t - (cyc + TIMEOUT) % TAGS + TAGS) % TAGS;
                        g_due[t] = g_visit[t] + g_delay[t];
                    end
                    a_req_n = a_req_n + 1;
                end
            end
        end
        if (tx_ready) begin
            for (s = 0; s < SEG; s = s + 1) begin
                if (tx_valid[s] && tx_sop[s] && cp_kind[s] == K_CPL) begin
                    a_cpl_tag[a_cpl_n] = cp_tag[s];
                    a_cpl_rid[a_cpl_n] = cp_rid[s];
                    a_cpl_status[a_cpl_n] = cp_status[s];
                    a_cpl_data[a_cpl_n] = cp_data[s];
                    a_cpl_bc[a_cpl_n] = cp_bc[s] == 0 ? 4096 : cp_bc[s];
                    a_cpl_len[a_cpl_n] = cp_len[s];
                    a_cpl_la[a_cpl_n] = cp_la[s];
                    a_cpl_n = a_cpl_n + 1;
                    if (cp_final[s]) g_state[cp_tag[s]] = G_FREE;
                    t = cp_tag[s];
                    if (cp_final[s] && g_late[t]) begin
                        // up to the visit's clock the completion comes first; after it, the
                        // read has timed out and the completion is unexpected
                        if (cyc < g_visit[t]) cov_late_before = cov_late_before + 1;
                        if (cyc == g_visit[t]) cov_late_exact = cov_late_exact + 1;
                        if (cyc <= g_visit[t]) begin
                            i_done = i_done + 1;
                        end else begin
                            i_silent = i_silent + 1;
                            i_unexpected = i_unexpected + 1;
                            cov_late_after = cov_late_after + 1;
                        end
                    end
                end
            end
        end
        n_cpl = a_cpl_n;
        if (n_cpl > 1) cov_multi_cpl_beat = cov_multi_cpl_beat + 1;
        if (n_cpl > 0 && a_req_n > 0) cov_req_and_cpl = cov_req_and_cpl + 1;
        for (s = 1; s < n_cpl; s = s + 1) begin
            for (k = 0; k < s; k = k + 1) begin
                if (a_cpl_tag[k] == a_cpl_tag[s] && (a_cpl_rid[s] & 16'hfff0) != RID_BAD && (a_cpl_rid[k] & 16'hfff0) != RID_BAD) cov_same_tag_beat = cov_same_tag_beat + 1;
            end
        end
    end
endtask

/*
 * Main loop: one iteration per clock, stimulus at the falling edge
 */
integer i, slot;
reg rx_hold = 1'b0, tx_hold = 1'b0;
reg next_en = 1'b1;
reg draw_off, draw_on, draw_snap, draw_burst, draw_clear, draw_clear_alone;
integer snap_burst = 0;
integer n_snapshots = 0, n_clears = 0, n_disabled = 0;

initial begin
    // the result is used: Verilator 5.006 drops an unused $value$plusargs with its side effect
    if (!$value$plusargs("SEED=%d", seed_v)) seed_v = SEED;
    if (!$value$plusargs("TRAFFIC_CYCLES=%d", traffic_cycles)) traffic_cycles = TRAFFIC_CYCLES;
    if (!$value$plusargs("RCB=%d", rcb_v)) rcb_v = RCB;
    if (!$value$plusargs("MPS=%d", mps_v)) mps_v = MPS;
    lfsr = 32'h9e37_79b9 ^ seed_v;
    for (i = 0; i < TAGS; i = i + 1) begin
        m_busy[i] = 0;
        m_rid[i] = 0;
        m_start[i] = 0;
        m_rem[i] = 0;
        m_first[i] = 0;
        g_state[i] = G_FREE;
        g_late[i] = 0;
    end
    for (i = 0; i <= LAG; i = i + 1) m_ring_snap[i] = 0;
    empty_stats();

    repeat (4) @(negedge clk);
    rst = 1'b0;
    // the shadows after reset
    for (i = 0; i < STAT_COUNT; i = i + 1) begin
        check(stat_shadow[i*64 +: 64] == m_stat[i], stat_name(i), stat_shadow[i*64 +: 64], m_stat[i]);
    end

    while (traffic || fl_n > 0 || sl_n > 0 || rx_hold || tx_hold || cyc < 8) begin
        if (cyc == traffic_cycles) traffic = 1'b0;

        // a snapshot taken LAG clocks ago is in the counters' shadows now, one taken LAG + 1
        // clocks ago in the histograms' (slot cyc % (LAG + 1) until model_step below overwrites it)
        slot = (cyc + 1) % (LAG + 1);
        if (cyc >= LAG && m_ring_snap[slot]) check_shadows(slot, 0, S_HIST_FIRST);
        if (cyc >= LAG + 1 && m_ring_snap[cyc % (LAG + 1)]) check_shadows(cyc % (LAG + 1), S_HIST_FIRST, STAT_COUNT);
        // and on no other clock do the shadows move (the histograms' snapshot is lazy: a bin's
        // value moves to another RAM when it first counts again)
        if (cyc >= LAG + 1 && !m_ring_snap[slot]) begin
            held_checks = held_checks + 1;
            check(stat_shadow[0 +: S_HIST_FIRST*64] == held_shadow[0 +: S_HIST_FIRST*64], "shadows held between snapshots", 0, 0);
        end
        if (cyc >= LAG + 2 && !m_ring_snap[cyc % (LAG + 1)]) begin
            held_checks = held_checks + 1;
            check(stat_shadow[S_HIST_FIRST*64 +: (STAT_COUNT-S_HIST_FIRST)*64] ==
                  held_shadow[S_HIST_FIRST*64 +: (STAT_COUNT-S_HIST_FIRST)*64], "histograms held between snapshots", 0, 0);
        end
        held_shadow = stat_shadow;

        // control: enable toggles, snapshots (sometimes on consecutive clocks), clears
        draw_off = chance(1);
        draw_on = chance(8);
        draw_snap = chance(5);
        draw_burst = chance(100);
        draw_clear = chance(500);
        draw_clear_alone = chance(1);
        if (draw_off && enable) next_en = 1'b0;
        if (draw_on && !enable) next_en = 1'b1;
        enable = next_en;
        if (!enable) n_disabled = n_disabled + 1;
        snapshot = draw_snap || snap_burst > 0;
        if (snap_burst > 0) snap_burst = snap_burst - 1;
        else if (draw_burst && snapshot) snap_burst = 2;
        clear = snapshot ? draw_clear : draw_clear_alone;
        if (snapshot) n_snapshots = n_snapshots + 1;
        if (clear) n_clears = n_clears + 1;

        // new beats unless the last ones wait for ready (stream rule)
        if (!rx_hold) build_rx_beat();
        if (!tx_hold) build_tx_beat();
        rx_ready = chance(750);
        tx_ready = chance(750);
        rx_hold = rx_valid != 0 && !rx_ready;
        tx_hold = tx_valid != 0 && !tx_ready;
        if (rx_hold || tx_hold) cov_held = cov_held + 1;

        collect_accepted();
        model_step(enable, clear, snapshot);

        @(negedge clk);
        cyc = cyc + 1;
    end

    // quiet streams, a last snapshot, and its checks LAG and LAG + 1 clocks later
    rx_valid = 0;
    tx_valid = 0;
    enable = 1'b1;
    snapshot = 1'b1;
    clear = 1'b0;
    a_req_n = 0;
    a_cpl_n = 0;
    model_step(1'b1, 1'b0, 1'b1);
    @(negedge clk);
    cyc = cyc + 1;
    snapshot = 1'b0;
    for (i = 0; i < LAG + 1; i = i + 1) begin
        slot = (cyc + 1) % (LAG + 1);
        if (i < LAG && m_ring_snap[slot]) check_shadows(slot, 0, S_HIST_FIRST);
        if (m_ring_snap[cyc % (LAG + 1)]) check_shadows(cyc % (LAG + 1), S_HIST_FIRST, STAT_COUNT);
        a_req_n = 0;
        a_cpl_n = 0;
        model_step(1'b1, 1'b0, 1'b0);
        @(negedge clk);
        cyc = cyc + 1;
    end
    check(stat_shadow[S_OUTSTANDING*64 +: 64] == 0, "table empty at the end", stat_shadow[S_OUTSTANDING*64 +: 64], 0);

    // the model against the generator's intent, whole run
    check(l_started == i_reads, "reads started = reads placed", l_started, i_reads);
    check(l_done == i_done, "reads completed = answered with SC", l_done, i_done);
    check(l_ur == i_ur, "UR completions", l_ur, i_ur);
    check(l_ca == i_ca, "CA completions", l_ca, i_ca);
    check(l_other == 0, "no other status", l_other, 0);
    check(l_unexpected == i_unexpected, "unexpected = injected", l_unexpected, i_unexpected);
    check(l_mismatch == i_mismatch, "mismatches = injected", l_mismatch, i_mismatch);
    check(l_timeout == i_silent, "timeouts = silent reads", l_timeout, i_silent);
    check(l_reuse == i_reuse, "tag reuses = injected", l_reuse, i_reuse);
    check(m_occ == 0, "model table empty", m_occ, 0);

    // the run exercised what it claims to
    check(snap_checks > 20, "snapshots checked", snap_checks, 20);
    check(held_checks > 100, "clocks the shadows were held", held_checks, 100);
    check(n_clears > 5, "clears", n_clears, 5);
    check(n_disabled > 100, "clocks disabled", n_disabled, 100);
    check(cov_overflow > 0, "overflow bin reached", cov_overflow, 1);
    check(cov_multi_piece > 100, "reads with several completions", cov_multi_piece, 100);
    check(cov_held > 100, "beats held by ready", cov_held, 100);
    check(cov_late_before > 0 && cov_late_exact > 0 && cov_late_after > 0,
          "late completions before, at and after the timeout", cov_late_exact, 1);
    check(i_ur > 0 && i_ca > 0 && i_silent > 0 && i_reuse > 0 && i_mismatch > 0 && i_unexpected > 0,
          "every fault kind injected", 0, 1);
    if (SEG > 1) begin
        check(cov_multi_cpl_beat > 100, "beats with several completions", cov_multi_cpl_beat, 100);
        check(cov_req_and_cpl > 100, "beats with requests and completions", cov_req_and_cpl, 100);
        check(cov_same_tag_beat > 10, "two completions of one read in a beat", cov_same_tag_beat, 10);
        check(cov_reuse_in_beat > 0, "tag reused within one beat", cov_reuse_in_beat, 1);
    end

    $display("TLPs: %0d accepted (%0d requests, %0d completions), RCB %0d, MPS %0d", tlp_rx + tlp_tx, tlp_rx, tlp_tx, rcb_v, mps_v);
    $display("SEG %0d TAG_WIDTH %0d SEED %0d: %0d clocks, %0d reads (%0d completed, %0d UR, %0d CA, %0d timed out, %0d reused), %0d unexpected, %0d mismatches, %0d snapshots checked",
             SEG, TAG_WIDTH, seed_v, cyc, i_reads, i_done, i_ur, i_ca, l_timeout, i_reuse, i_unexpected, i_mismatch, snap_checks);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_probe_tracker failed");
    $finish;
end

// 1 000 000 clocks (4 ms) for the default 24 000 traffic clocks; longer runs get as many more
// (counted in clocks: a delay in ps would overflow 32 bits)
initial begin
    #1;
    repeat (traffic_cycles + 976000) @(posedge clk);
    $display("FAIL: timeout");
    $display("%0d passed, %0d failed", pass_count, fail_count + 1);
    $fatal(1, "tb_probe_tracker timed out");
end

endmodule
