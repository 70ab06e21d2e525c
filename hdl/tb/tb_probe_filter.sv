`timescale 1ns / 1ps
`default_nettype none

/*
 * Differential testbench of the address filter (Icarus -g2012 and Verilator --binary --timing).
 *
 * Two probes (probe_counters + probe_tracker + probe_sampler) watch the same clocks:
 * A sees every TLP with the filter window set; B has the filter off and sees only the
 * reads inside the window and their completions (the bench knows which they are). So A
 * must equal B everywhere: every tracker statistic, every MRd counter, every interval
 * record, at every snapshot; no completion of a filtered-out read may show in A as
 * unexpected. The planned differences: probe_counters' CPLD_COUNT / CPLD_BYTES and CPL_COUNT
 * count the wire, so A's exceed B's by exactly the completions (with data, and UR) of
 * filtered-out reads, and POISONED counts the wire, so A's exceeds B's by the poisoned
 * writes outside the window. Memory writes follow the window as reads do (MWR_COUNT and
 * MWR_BYTES of A = B's).
 *
 * Traffic: reads of 1..32 DW at 32- and 64-bit addresses around the window's edges, on
 * free tags, answered by 1..N completions split at 64-B boundaries after random delays
 * (some end in UR), 1..SEG TLP starts per beat; the window moves, and the filter goes off
 * and on, while reads are in flight; memory writes (some poisoned, partial enables) at the
 * same addresses among them. The last line is "N passed, N failed".
 */
/* verilator lint_off WIDTH */
`include "pcie_scope_regs.vh"

module tb_probe_filter #
(
    parameter SEG = 4,
    parameter TAG_WIDTH = 8,
    parameter SEED = 1,
    parameter CLOCKS = 8000
);

localparam TAGS = 1 << TAG_WIDTH;
localparam PROBE_COUNT = `PS_CNT_PROBE_COUNT;
localparam LAT_BINS = 8;
localparam STAT_COUNT = `PS_CNT_TRACKER_COUNT + `PS_HIST_KINDS * (1 + LAT_BINS);
localparam WORDS = `PS_SMP_WORDS;
localparam [15:0] RID = 16'h0100;

reg clk = 0;
reg rst = 1;
always #2 clk = !clk;

reg  [SEG*128-1:0] rx_hdr = 0;
reg  [SEG-1:0]     rx_valid_a = 0, rx_valid_b = 0;
reg  [SEG*128-1:0] tx_hdr = 0;
reg  [SEG-1:0]     tx_valid_a = 0, tx_valid_b = 0;
reg                snapshot = 0;
reg                f_en = 0;
reg  [63:0]        f_base = 0, f_limit = 0;
reg  [17:0]        period = 37;
reg                pop = 0;

wire [PROBE_COUNT*64-1:0] cnt_a, cnt_b;
wire [STAT_COUNT*64-1:0]  st_a, st_b;
wire [WORDS*32-1:0]       head_a, head_b;
wire [15:0]               level_a, level_b;
wire [31:0]               ovf_a, ovf_b;

genvar p;
generate
    for (p = 0; p < 2; p = p + 1) begin : g_probe
        wire [SEG-1:0] rxv = p == 0 ? rx_valid_a : rx_valid_b;
        wire [SEG-1:0] txv = p == 0 ? tx_valid_a : tx_valid_b;
        wire           fen = p == 0 ? f_en : 1'b0;
        wire [PROBE_COUNT*64-1:0] cnt;
        wire [STAT_COUNT*64-1:0]  st;
        wire [`PS_CNT_TRACKER_COUNT*64-1:0] st_cnt;
        wire [(STAT_COUNT-`PS_CNT_TRACKER_COUNT)*64-1:0] st_hist;
        wire [WORDS*32-1:0]       head;
        wire [15:0]               level, depth;
        wire [31:0]               ovf;
        wire                      enabled;
        wire s_en, s_clr;
        wire [2:0] s_mrd, s_cpld;
        wire [14:0] s_mrd_b, s_cpld_b;
        wire [SEG-1:0] s_first;
        wire [SEG*32-1:0] s_lat;
        wire [TAG_WIDTH:0] s_occ;

        probe_counters #(.TLP_SEG_COUNT(SEG), .CNT_WIDTH(64)) counters_inst (
            .clk(clk), .rst(rst), .enable(1'b1), .clear(1'b0), .snapshot(snapshot), .enabled(enabled),
            .rx_req_tlp_hdr(rx_hdr), .rx_req_tlp_valid(rxv), .rx_req_tlp_sop(rxv), .rx_req_tlp_ready(1'b1),
            .tx_cpl_tlp_hdr(tx_hdr), .tx_cpl_tlp_valid(txv), .tx_cpl_tlp_sop(txv), .tx_cpl_tlp_ready(1'b1),
            .bar_ur({SEG{1'b0}}), .filter_en(fen), .filter_base(f_base), .filter_limit(f_limit),
            .cnt_shadow(cnt)
        );

        probe_tracker #(.TLP_SEG_COUNT(SEG), .TAG_WIDTH(TAG_WIDTH), .CNT_WIDTH(64), .TIMEOUT_CYCLES(4000),
                        .LAT_BINS(LAT_BINS), .LAT_SUB_BINS_LOG2(1), .LAT_FIRST_EDGE_LOG2(3)) tracker_inst (
            .clk(clk), .rst(rst), .enable(1'b1), .clear(1'b0), .snapshot(snapshot),
            .rx_req_tlp_hdr(rx_hdr), .rx_req_tlp_valid(rxv), .rx_req_tlp_sop(rxv), .rx_req_tlp_ready(1'b1),
            .tx_cpl_tlp_hdr(tx_hdr), .tx_cpl_tlp_valid(txv), .tx_cpl_tlp_sop(txv), .tx_cpl_tlp_ready(1'b1),
            .filter_en(fen), .filter_base(f_base), .filter_limit(f_limit),
            .smp_enable(s_en), .smp_clear(s_clr), .smp_mrd(s_mrd), .smp_mrd_bytes(s_mrd_b),
            .smp_cpld(s_cpld), .smp_cpld_bytes(s_cpld_b), .smp_first(s_first), .smp_latency(s_lat),
            .smp_outstanding(s_occ), .smp_unexpected(), .smp_timeout(), .stat_shadow(st_cnt), .hist_shadow(st_hist),
            .hist_rd_idx({$clog2(LAT_BINS+1){1'b0}}), .hist_rd_words()
        );
        // every statistic, the histograms' bins after the counters
        assign st = {st_hist, st_cnt};

        probe_sampler #(.TLP_SEG_COUNT(SEG), .TAG_WIDTH(TAG_WIDTH), .FIFO_ADDR_WIDTH(4)) sampler_inst (
            .clk(clk), .rst(rst), .period(period), .pop(pop),
            .smp_enable(s_en), .smp_clear(s_clr), .smp_mrd(s_mrd), .smp_mrd_bytes(s_mrd_b),
            .smp_cpld(s_cpld), .smp_cpld_bytes(s_cpld_b), .smp_first(s_first), .smp_latency(s_lat),
            .smp_outstanding(s_occ), .head(head), .level(level), .depth(depth), .overflow(ovf)
        );
    end
endgenerate

assign cnt_a = g_probe[0].cnt;   assign cnt_b = g_probe[1].cnt;
assign st_a = g_probe[0].st;     assign st_b = g_probe[1].st;
assign head_a = g_probe[0].head; assign head_b = g_probe[1].head;
assign level_a = g_probe[0].level; assign level_b = g_probe[1].level;
assign ovf_a = g_probe[0].ovf;   assign ovf_b = g_probe[1].ovf;

integer pass_count = 0;
integer fail_count = 0;
integer cyc = 0;

task automatic check(input cond, input [8*40-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (cond) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 30) $display("FAIL @%0d %0s: got %0d want %0d", cyc, what, got, want);
        end
    end
endtask

reg [31:0] lfsr = 32'h6a09_e667 ^ SEED;
function automatic [31:0] rnd(input integer dummy);
    begin
        lfsr = lfsr ^ (lfsr << 13);
        lfsr = lfsr ^ (lfsr >> 17);
        lfsr = lfsr ^ (lfsr << 5);
        rnd = lfsr;
    end
endfunction

function automatic chance(input integer permille);
    chance = (rnd(0) % 1000) < permille;
endfunction

/*
 * Requester and completer
 */
reg         busy [0:TAGS-1];
reg         kept [0:TAGS-1];   // B sees this read and its completions
reg  [63:0] next_addr [0:TAGS-1];
integer     remain [0:TAGS-1];
integer     due [0:TAGS-1];
reg         ur_end [0:TAGS-1];

function automatic [127:0] mrd_hdr(input integer tag, input integer len_dw, input [63:0] addr);
    reg [127:0] h;
    reg [9:0] t10;
    begin
        t10 = tag;
        h = 128'd0;
        h[125] = addr[63:32] != 0;
        h[119] = t10[9];
        h[115] = t10[8];
        h[105:96] = len_dw[9:0];
        h[95:80] = RID;
        h[79:72] = t10[7:0];
        h[71:68] = len_dw > 1 ? 4'hf : 4'h0;
        h[67:64] = 4'hf;
        if (h[125]) begin
            h[63:32] = addr[63:32];
            h[31:2] = addr[31:2];
        end else begin
            h[63:34] = addr[31:2];
        end
        mrd_hdr = h;
    end
endfunction

function automatic [127:0] cpl_hdr(input integer tag, input integer status, input integer len_dw,
                                   input integer bc, input integer la);
    reg [127:0] h;
    reg [9:0] t10;
    begin
        t10 = tag;
        h = 128'd0;
        h[127:125] = status == 0 ? 3'b010 : 3'b000;
        h[124:120] = 5'b01010;
        h[119] = t10[9];
        h[115] = t10[8];
        h[105:96] = status == 0 ? len_dw[9:0] : 10'd0;
        h[95:80] = 16'h0200;
        h[79:77] = status[2:0];
        h[75:64] = bc[11:0];
        h[63:48] = RID;
        h[47:40] = t10[7:0];
        h[38:32] = la[6:0];
        cpl_hdr = h;
    end
endfunction

// the window the bench expects the filter to apply (same rule as probe_addr_filter)
function automatic in_window(input [63:0] addr);
    in_window = !f_en || f_limit < f_base || (addr >= f_base && addr <= f_limit);
endfunction

integer out_cpl = 0, out_cpl_bytes = 0;   // completions of filtered-out reads (A's CPLD minus B's)
integer out_ur = 0;                       // UR completions of filtered-out reads (A's CPL_COUNT minus B's)
integer out_ep = 0;                       // poisoned writes outside the window (A's POISONED minus B's)
integer n_reads = 0, n_out = 0, n_cpl = 0, n_rec = 0, n_snap = 0, n_moves = 0;
integer n_writes = 0, n_writes_out = 0;
reg [63:0] snap_out_cpl, snap_out_bytes, snap_out_ur, snap_out_ep;
integer snap_at = -1;

task automatic place_read(input integer s);
    integer t, tries, len_dw;
    reg [63:0] addr;
    begin
        t = rnd(0) % TAGS;
        tries = 0;
        while (busy[t] && tries < 8) begin
            t = rnd(0) % TAGS;
            tries = tries + 1;
        end
        if (!busy[t]) begin
            len_dw = 1 + rnd(0) % 32;
            addr = 64'h1000_0000 + ((rnd(0) % 16384) << 2);
            if (chance(250)) addr[63:32] = 32'h0000_0001;
            busy[t] = 1;
            kept[t] = in_window(addr);
            next_addr[t] = addr;
            remain[t] = len_dw * 4;
            due[t] = cyc + 2 + rnd(0) % 60;
            ur_end[t] = chance(30);
            rx_hdr[s*128 +: 128] = mrd_hdr(t, len_dw, addr);
            rx_valid_a[s] = 1;
            rx_valid_b[s] = kept[t];
            n_reads = n_reads + 1;
            if (!kept[t]) n_out = n_out + 1;
        end
    end
endtask

// a memory write: no tag, no completion; B sees it only inside the window
task automatic place_write(input integer s);
    integer len_dw;
    reg [63:0] addr;
    reg [127:0] h;
    reg kept_w;
    begin
        len_dw = 1 + rnd(0) % 32;
        addr = 64'h1000_0000 + ((rnd(0) % 16384) << 2);
        if (chance(250)) addr[63:32] = 32'h0000_0001;
        h = mrd_hdr(0, len_dw, addr);
        h[127:126] = 2'b01;                            // Fmt 01x: with data
        h[79:72] = 8'd0;                               // no tag
        h[67:64] = rnd(0) % 16;                        // partial enables, zero-length now and then
        if (len_dw > 1) h[71:68] = 4'hf >> (rnd(0) % 4);
        h[110] = chance(200);                          // EP
        kept_w = in_window(addr);
        rx_hdr[s*128 +: 128] = h;
        rx_valid_a[s] = 1;
        rx_valid_b[s] = kept_w;
        n_writes = n_writes + 1;
        if (!kept_w) begin
            n_writes_out = n_writes_out + 1;
            if (h[110]) out_ep = out_ep + 1;
        end
    end
endtask

// one completion piece for a due read: up to the next 64-B boundary, or a UR ending it
task automatic place_cpl(input integer s, input integer t);
    integer bytes, la, len_dw;
    begin
        la = next_addr[t][6:0];
        if (ur_end[t]) begin
            tx_hdr[s*128 +: 128] = cpl_hdr(t, 1, 0, remain[t], la);
            if (!kept[t]) out_ur = out_ur + 1;
            busy[t] = 0;
        end else begin
            bytes = 64 - (la % 64);
            if (bytes > remain[t]) bytes = remain[t];
            len_dw = (bytes + 3) / 4;
            tx_hdr[s*128 +: 128] = cpl_hdr(t, 0, len_dw, remain[t], la);
            if (!kept[t]) begin
                out_cpl = out_cpl + 1;
                out_cpl_bytes = out_cpl_bytes + len_dw * 4;
            end
            remain[t] = remain[t] - bytes;
            next_addr[t] = next_addr[t] + bytes;
            if (remain[t] == 0) busy[t] = 0;
            else due[t] = cyc + rnd(0) % 8;
        end
        tx_valid_a[s] = 1;
        tx_valid_b[s] = kept[t];
        n_cpl = n_cpl + 1;
    end
endtask

// completions of one tag stay in order, one per beat
reg used [0:TAGS-1];

integer s, t, k, i, w;
reg placed;

initial begin
    for (t = 0; t < TAGS; t = t + 1) begin
        busy[t] = 0;
        used[t] = 0;
    end
    repeat (3) @(posedge clk);
    #1 rst = 0;
    f_en = 1;
    f_base = 64'h1000_4000;
    f_limit = 64'h1000_bfff;

    for (cyc = 0; cyc < CLOCKS + 600; cyc = cyc + 1) begin
        rx_valid_a = 0; rx_valid_b = 0; tx_valid_a = 0; tx_valid_b = 0;
        rx_hdr = 0; tx_hdr = 0;
        snapshot = 0;
        pop = 0;
        for (t = 0; t < TAGS; t = t + 1) used[t] = 0;

        // the window moves now and then, and the filter goes off and on
        if (chance(2)) begin
            f_base = 64'h1000_0000 + ((rnd(0) % 16384) << 2);
            f_limit = f_base + (rnd(0) % 40000);
            if (chance(200)) f_base[63:32] = 1;
            if (chance(200)) f_limit[63:32] = 1;
            n_moves = n_moves + 1;
        end
        if (chance(1)) f_en = !f_en;

        for (s = 0; s < SEG; s = s + 1) begin
            // a completion for a due read, else perhaps a read (no new reads in the tail)
            placed = 0;
            t = rnd(0) % TAGS;
            for (k = 0; k < TAGS && !placed; k = k + 1) begin
                if (busy[t] && !used[t] && due[t] <= cyc) placed = 1;
                else t = (t + 1) % TAGS;
            end
            if (placed && chance(700)) begin
                place_cpl(s, t);
                used[t] = 1;
            end else begin
                placed = 0;
            end
            if (!placed && cyc < CLOCKS && chance(350)) begin
                if (chance(100)) place_write(s);
                else place_read(s);
            end
        end

        // both FIFOs hold the same records: pop them together
        if (level_a != 0 && level_b != 0) begin
            for (w = 0; w < WORDS; w = w + 1)
                check(head_a[w*32 +: 32] == head_b[w*32 +: 32], "record A = B", head_a[w*32 +: 32], head_b[w*32 +: 32]);
            pop = 1;
            n_rec = n_rec + 1;
        end
        check(level_a == level_b, "FIFO levels A = B", level_a, level_b);

        if (cyc % 293 == 0 || cyc == CLOCKS + 390) begin
            snapshot = 1;
            snap_at = cyc;
        end
        @(posedge clk);
        if (snapshot) begin
            snap_out_cpl = out_cpl;
            snap_out_bytes = out_cpl_bytes;
            snap_out_ur = out_ur;
            snap_out_ep = out_ep;
        end
        #1;
        if (snap_at >= 0 && cyc == snap_at + 4) begin
            n_snap = n_snap + 1;
            for (i = 0; i < PROBE_COUNT; i = i + 1) begin
                if (i == `PS_CNT_CPLD_COUNT)
                    check(cnt_a[i*64 +: 64] == cnt_b[i*64 +: 64] + snap_out_cpl, "CPLD_COUNT A = B + filtered-out",
                          cnt_a[i*64 +: 64], cnt_b[i*64 +: 64] + snap_out_cpl);
                else if (i == `PS_CNT_CPLD_BYTES)
                    check(cnt_a[i*64 +: 64] == cnt_b[i*64 +: 64] + snap_out_bytes, "CPLD_BYTES A = B + filtered-out",
                          cnt_a[i*64 +: 64], cnt_b[i*64 +: 64] + snap_out_bytes);
                else if (i == `PS_CNT_CPL_COUNT)
                    check(cnt_a[i*64 +: 64] == cnt_b[i*64 +: 64] + snap_out_ur, "CPL_COUNT A = B + filtered-out UR",
                          cnt_a[i*64 +: 64], cnt_b[i*64 +: 64] + snap_out_ur);
                else if (i == `PS_CNT_POISONED)
                    check(cnt_a[i*64 +: 64] == cnt_b[i*64 +: 64] + snap_out_ep, "POISONED A = B + writes outside",
                          cnt_a[i*64 +: 64], cnt_b[i*64 +: 64] + snap_out_ep);
                else
                    check(cnt_a[i*64 +: 64] == cnt_b[i*64 +: 64], "probe counter A = B", cnt_a[i*64 +: 64], cnt_b[i*64 +: 64]);
            end
            for (i = 0; i < STAT_COUNT; i = i + 1)
                check(st_a[i*64 +: 64] == st_b[i*64 +: 64], "tracker statistic A = B", st_a[i*64 +: 64], st_b[i*64 +: 64]);
        end
        check(ovf_a == ovf_b, "overflow A = B", ovf_a, ovf_b);
    end

    // every read answered, nothing unexpected, nothing timed out
    check(st_a[(`PS_CNT_CPL_UNEXPECTED - `PS_CNT_TRACKER_FIRST)*64 +: 64] == 0, "no unexpected completion in A",
          st_a[(`PS_CNT_CPL_UNEXPECTED - `PS_CNT_TRACKER_FIRST)*64 +: 64], 0);
    check(st_a[(`PS_CNT_READ_TIMEOUTS - `PS_CNT_TRACKER_FIRST)*64 +: 64] == 0, "no timeout in A",
          st_a[(`PS_CNT_READ_TIMEOUTS - `PS_CNT_TRACKER_FIRST)*64 +: 64], 0);
    check(st_a[(`PS_CNT_OUTSTANDING - `PS_CNT_TRACKER_FIRST)*64 +: 64] == 0, "A's table empty at the end",
          st_a[(`PS_CNT_OUTSTANDING - `PS_CNT_TRACKER_FIRST)*64 +: 64], 0);
    check(st_a[(`PS_CNT_READS_STARTED - `PS_CNT_TRACKER_FIRST)*64 +: 64] == n_reads - n_out, "A started = reads inside",
          st_a[(`PS_CNT_READS_STARTED - `PS_CNT_TRACKER_FIRST)*64 +: 64], n_reads - n_out);
    // the run exercised what it claims to
    check(n_out > 500 && n_reads - n_out > 500, "reads inside and outside", n_out, 500);
    check(out_cpl > 500, "completions of filtered-out reads", out_cpl, 500);
    check(out_ur > 5, "UR completions of filtered-out reads", out_ur, 5);
    check(n_writes_out > 20 && n_writes - n_writes_out > 20, "writes inside and outside", n_writes_out, 20);
    check(out_ep > 3, "poisoned writes outside", out_ep, 3);
    check(cnt_a[`PS_CNT_MWR_COUNT*64 +: 64] == n_writes - n_writes_out, "A's MWR_COUNT = writes inside",
          cnt_a[`PS_CNT_MWR_COUNT*64 +: 64], n_writes - n_writes_out);
    check(n_rec > 200, "interval records compared", n_rec, 200);
    check(n_snap > 20, "snapshots compared", n_snap, 20);
    check(n_moves > 10, "window moves", n_moves, 10);

    $display("SEG %0d TAG_WIDTH %0d SEED %0d: %0d reads (%0d filtered out), %0d completions (%0d of filtered-out reads), %0d writes (%0d filtered out), %0d records, %0d snapshots",
             SEG, TAG_WIDTH, SEED, n_reads, n_out, n_cpl, out_cpl, n_writes, n_writes_out, n_rec, n_snap);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_probe_filter failed");
    $finish;
end

endmodule
