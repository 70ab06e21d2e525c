`timescale 1ns / 1ps
`default_nettype none

/*
 * Self-checking testbench of probe_trace (Icarus -g2012 and Verilator --binary --timing).
 *
 * Rounds of: random trigger and filter settings written through the CSR window (while the
 * traffic is quiet and the trace stopped), ARM, random traffic on both taps (every kind of TLP,
 * few tags, requesters and addresses so that conditions match) with random tracker events, a
 * FORCE or a STOP now and then, until the ring fills or a round's clocks run out; then, quiet
 * again, the status registers and every record read back through TRC_RD_INDEX / TRC_REC_*.
 *
 * A reference model here follows the trace a tap clock at a time, written from docs/trace.md
 * and not from the RTL's pipeline: each clock's records in slot order, the filter and its tag
 * table, the trigger (the first record at or after the first TLP meeting every enabled
 * condition), the pre/post split, the ring as a list of the last records, the lost count. It
 * knows two timings of the RTL only: a command written at clock c acts on the records of tap
 * clock c - CMD_LAG, and the tracker's events of tap clock n arrive at clock n + EV_LAG.
 * Every status word and record word must match. The last line is "N passed, N failed".
 */
/* verilator lint_off WIDTH */
`include "pcie_scope_regs.vh"

module tb_probe_trace #
(
    parameter SEG = 1,
    parameter TAG_WIDTH = 8,
    parameter DEPTH = 64,
    parameter SEED = 1,
    parameter ROUNDS = 40
);

localparam NS = 2 * SEG;
localparam NB = `PS_TRC_BANKS;
localparam CMD_LAG = 3;
localparam EV_LAG = 2;
localparam TAP_ID = 1;
localparam [7:0] TAP8 = TAP_ID;
localparam HIST = 8;

reg clk = 0;
reg rst = 1;
always #2 clk = !clk;

reg  [SEG*128-1:0] rx_hdr = 0, tx_hdr = 0;
reg  [SEG-1:0]     rx_valid = 0, rx_sop = 0, tx_valid = 0, tx_sop = 0;
reg                rx_ready = 0, tx_ready = 0;
reg  [SEG-1:0]     ev_first = 0, ev_unexpected = 0;
reg  [SEG*32-1:0]  ev_latency = 0;
reg                ev_timeout = 0;
reg  [TAG_WIDTH:0] ev_outstanding = 0;
reg                wr_fire = 0;
reg  [11:2]        waddr = 0;
reg  [31:0]        wdata = 0;
reg  [3:0]         wstrb = 4'hF;
reg                ar_fire = 0;
reg  [11:2]        araddr = 0;
wire [31:0]        rdata;

probe_trace #(
    .TLP_SEG_COUNT(SEG),
    .TAG_WIDTH(TAG_WIDTH),
    .DEPTH(DEPTH),
    .TAP_ID(TAP_ID)
) dut (
    .clk(clk), .rst(rst),
    .rx_req_tlp_hdr(rx_hdr), .rx_req_tlp_valid(rx_valid), .rx_req_tlp_sop(rx_sop), .rx_req_tlp_ready(rx_ready),
    .tx_cpl_tlp_hdr(tx_hdr), .tx_cpl_tlp_valid(tx_valid), .tx_cpl_tlp_sop(tx_sop), .tx_cpl_tlp_ready(tx_ready),
    .ev_first(ev_first), .ev_latency(ev_latency), .ev_unexpected(ev_unexpected), .ev_timeout(ev_timeout),
    .ev_outstanding(ev_outstanding),
    .csr_wr_fire(wr_fire), .csr_waddr(waddr), .csr_wdata(wdata), .csr_wstrb(wstrb),
    .csr_ar_fire(ar_fire), .csr_araddr(araddr), .csr_rdata(rdata)
);

integer pass_count = 0;
integer n_tlps = 0;
integer fail_count = 0;
integer cyc = 0;

task automatic check(input cond, input [8*40-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (cond) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 30) $display("FAIL @%0d %0s: got %0d (0x%0h) want %0d (0x%0h)", cyc, what, got, got, want, want);
        end
    end
endtask

// draws kept apart from the expressions that use them: Verilator evaluates both arms of a ?: and
// both sides of a && (each draw its own statement keeps both simulators on one sequence)
reg [31:0] r_a, r_b;
reg [31:0] lfsr = 32'h2545_f491 ^ (SEED * 32'h9e37_79b9);
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
 * Settings (what the bench wrote)
 */
reg [31:0] c_pre;
reg [9:0]  c_en;
reg [4:0]  c_types, c_ftypes;
reg [63:0] c_base, c_limit, c_fbase, c_flimit;
reg [15:0] c_rid;
reg [9:0]  c_tag;
reg [10:0] c_len;
reg [2:0]  c_status;
reg [31:0] c_latency;
reg [10:0] c_outstanding;
reg        c_fen;

/*
 * History of the taps and events, by clock mod HIST
 */
reg [NS*128-1:0] h_hdr [0:HIST-1];
reg [NS-1:0]     h_fire [0:HIST-1];
reg [SEG-1:0]    h_first [0:HIST-1];
reg [SEG*32-1:0] h_lat [0:HIST-1];
reg [SEG-1:0]    h_unexp [0:HIST-1];
reg              h_timeout [0:HIST-1];
reg [TAG_WIDTH:0] h_out [0:HIST-1];
// the command written at each clock: 0 none, 1 arm, 2 force, 3 stop
integer          h_cmd [0:HIST-1];

/*
 * Reference model
 */
localparam [1:0] M_IDLE = 0, M_ARMED = 1, M_TRIGGERED = 2, M_STOPPED = 3;
reg [178:0] m_ring [0:DEPTH-1];
integer m_head = 0, m_count = 0;
reg [1:0] m_state = M_IDLE;
reg m_triggered = 0, m_full = 0, m_lost_live = 0;
integer m_trig_pos = 0, m_post_left = 0;
reg [47:0] m_trig_ts = 0;
reg [63:0] m_lost = 0;
reg [(1<<TAG_WIDTH)-1:0] m_tag_in = 0;
integer n_records = 0, n_triggers = 0, n_full = 0, n_lost_rounds = 0, n_forced = 0;

function automatic [4:0] kind_of(input [127:0] hdr);
    reg [2:0] fmt;
    reg [4:0] typ;
    begin
        fmt = hdr[127:125];
        typ = hdr[124:120];
        kind_of = 5'd0;
        if (fmt[2:1] == 2'b00 && typ[4:1] == 4'b0000) kind_of[`PS_REG_TRC_TRIG_TYPES_MRD_BIT] = 1;
        else if (fmt[2:1] == 2'b01 && typ == 5'b00000) kind_of[`PS_REG_TRC_TRIG_TYPES_MWR_BIT] = 1;
        else if (fmt == 3'b010 && typ[4:1] == 4'b0101) kind_of[`PS_REG_TRC_TRIG_TYPES_CPLD_BIT] = 1;
        else if (fmt == 3'b000 && typ[4:1] == 4'b0101) kind_of[`PS_REG_TRC_TRIG_TYPES_CPL_BIT] = 1;
        else kind_of[`PS_REG_TRC_TRIG_TYPES_OTHER_BIT] = 1;
    end
endfunction

function automatic is_cpl(input [127:0] hdr);
    is_cpl = kind_of(hdr) == (5'd1 << `PS_REG_TRC_TRIG_TYPES_CPLD_BIT) || kind_of(hdr) == (5'd1 << `PS_REG_TRC_TRIG_TYPES_CPL_BIT);
endfunction

function automatic is_mem(input [127:0] hdr);
    is_mem = kind_of(hdr) == (5'd1 << `PS_REG_TRC_TRIG_TYPES_MRD_BIT) || kind_of(hdr) == (5'd1 << `PS_REG_TRC_TRIG_TYPES_MWR_BIT);
endfunction

function automatic [63:0] addr_of(input [127:0] hdr);
    addr_of = hdr[125] ? {hdr[63:32], hdr[31:2], 2'b00} : {32'd0, hdr[63:34], 2'b00};
endfunction

function automatic in_win(input [127:0] hdr, input [63:0] base, input [63:0] limit);
    in_win = limit < base || (addr_of(hdr) >= base && addr_of(hdr) <= limit);
endfunction

function automatic [9:0] tag_of(input [127:0] hdr);
    tag_of = {hdr[119], hdr[115], is_cpl(hdr) ? hdr[47:40] : hdr[79:72]};
endfunction

// the header conditions of the trigger
function automatic header_ok(input [127:0] hdr);
    reg [15:0] rid;
    reg [10:0] len;
    begin
        rid = is_cpl(hdr) ? hdr[63:48] : hdr[95:80];
        len = {hdr[105:96] == 10'd0, hdr[105:96]};
        header_ok = (!c_en[`PS_REG_TRC_TRIG_EN_TYPE_BIT] || (kind_of(hdr) & c_types) != 0)
                 && (!c_en[`PS_REG_TRC_TRIG_EN_ADDR_BIT] || (is_mem(hdr) && in_win(hdr, c_base, c_limit)))
                 && (!c_en[`PS_REG_TRC_TRIG_EN_RID_BIT] || rid == c_rid)
                 && (!c_en[`PS_REG_TRC_TRIG_EN_TAG_BIT] || tag_of(hdr) == c_tag)
                 && (!c_en[`PS_REG_TRC_TRIG_EN_LEN_BIT] || len == c_len)
                 && (!c_en[`PS_REG_TRC_TRIG_EN_STATUS_BIT] || (is_cpl(hdr) && hdr[79:77] == c_status));
    end
endfunction

task automatic m_append(input [178:0] rec);
    begin
        m_ring[(m_head + m_count) % DEPTH] = rec;
        if (m_count == DEPTH) m_head = (m_head + 1) % DEPTH;
        else m_count = m_count + 1;
    end
endtask

// the model's scratch: one clock's records, which slots pass the filter
reg [178:0] recs [0:7];
reg [NS-1:0] keep;

// one tap clock n, with the command that acts on it
task automatic model_step(input integer n, input integer cmd);
    integer s, i, nk, lanes, hit_at, hh, pre_eff, pre_kept, budget, take, seg;
    reg [127:0] hdr;
    reg [47:0] nts;
    reg fire, tlp_cond, clk_ok, trig, any_hit, hitting;
    reg [TAG_WIDTH-1:0] tg;
    begin
        nts = n;
        i = n % HIST;
        nk = 0;
        hit_at = -1;
        any_hit = 0;
        // the filter: the completion stream's completions read the tag table, then the request
        // stream's MRds write it (a completion on the request stream answers no read of the tap:
        // its kind alone decides)
        for (s = 0; s < NS; s = s + 1) begin
            hdr = h_hdr[i][s*128 +: 128];
            fire = h_fire[i][s];
            keep[s] = 0;
            if (fire && (kind_of(hdr) & c_ftypes) != 0) begin
                tg = tag_of(hdr);
                if (is_cpl(hdr)) keep[s] = !(c_fen && c_flimit >= c_fbase) || s < SEG || m_tag_in[tg];
                else if (is_mem(hdr)) keep[s] = !(c_fen && c_flimit >= c_fbase) || in_win(hdr, c_fbase, c_flimit);
                else keep[s] = 1;
            end
        end
        for (s = 0; s < SEG; s = s + 1) begin
            hdr = h_hdr[i][s*128 +: 128];
            if (h_fire[i][s] && kind_of(hdr) == (5'd1 << `PS_REG_TRC_TRIG_TYPES_MRD_BIT)) begin
                tg = tag_of(hdr);
                m_tag_in[tg] = !(c_fen && c_flimit >= c_fbase) || in_win(hdr, c_fbase, c_flimit);
            end
        end
        // the clock's records and the trigger
        tlp_cond = (c_en & 10'h0FF) != 0;
        for (s = 0; s < NS; s = s + 1) begin
            hdr = h_hdr[i][s*128 +: 128];
            seg = s % SEG;
            hitting = h_fire[i][s] && header_ok(hdr);
            if (c_en[`PS_REG_TRC_TRIG_EN_LATENCY_BIT])
                hitting = hitting && s >= SEG && h_first[i][seg] && h_lat[i][seg*32 +: 32] > c_latency;
            if (c_en[`PS_REG_TRC_TRIG_EN_UNEXPECTED_BIT])
                hitting = hitting && s >= SEG && h_unexp[i][seg];
            if (hitting && !any_hit) begin
                any_hit = 1;
                hit_at = nk;
            end
            if (keep[s]) begin
                recs[nk] = {s >= SEG ? 1'b1 : 1'b0, seg[1:0], nts, hdr};
                nk = nk + 1;
            end
        end
        clk_ok = (!c_en[`PS_REG_TRC_TRIG_EN_OUTSTANDING_BIT] || h_out[i] > c_outstanding)
              && (!c_en[`PS_REG_TRC_TRIG_EN_TIMEOUT_BIT] || h_timeout[i]);
        trig = c_en != 0 && clk_ok && (!tlp_cond || any_hit);
        if (!tlp_cond) hit_at = 0;
        lanes = nk < NB ? nk : NB;

        if (cmd == 1) begin
            m_state = M_ARMED;
            m_head = 0;
            m_count = 0;
            m_lost = 0;
            m_triggered = 0;
            m_full = 0;
            m_lost_live = 0;
        end else if (cmd == 3) begin
            if (m_state != M_IDLE) m_state = M_STOPPED;
            m_lost_live = 0;
        end else if (m_state == M_ARMED && (cmd == 2 || trig)) begin
            hh = (cmd == 2) ? 0 : (hit_at < lanes ? hit_at : lanes);
            for (s = 0; s < hh; s = s + 1) m_append(recs[s]);
            pre_eff = c_pre > DEPTH - 2 * NB ? DEPTH - 2 * NB : c_pre;
            pre_kept = m_count < pre_eff ? m_count : pre_eff;
            m_head = (m_head + m_count - pre_kept) % DEPTH;
            m_count = pre_kept;
            budget = DEPTH - pre_kept;
            take = lanes - hh < budget ? lanes - hh : budget;
            for (s = hh; s < hh + take; s = s + 1) m_append(recs[s]);
            m_lost = m_lost + nk - hh - take;
            m_triggered = 1;
            if ($test$plusargs("DEBUG")) $display("@%0d model trigger at tap clock %0d cmd %0d hit_at %0d nk %0d", cyc, n, cmd, hit_at, nk);
            m_trig_pos = pre_kept;
            m_trig_ts = n;
            m_post_left = budget - take;
            n_triggers = n_triggers + 1;
            if (cmd == 2) n_forced = n_forced + 1;
            if (m_post_left == 0) begin
                m_state = M_STOPPED;
                m_full = 1;
                m_lost_live = 1;
            end else begin
                m_state = M_TRIGGERED;
            end
        end else if (m_state == M_ARMED) begin
            for (s = 0; s < lanes; s = s + 1) m_append(recs[s]);
            m_lost = m_lost + nk - lanes;
        end else if (m_state == M_TRIGGERED) begin
            take = lanes < m_post_left ? lanes : m_post_left;
            for (s = 0; s < take; s = s + 1) m_append(recs[s]);
            m_lost = m_lost + nk - take;
            m_post_left = m_post_left - take;
            if (m_post_left == 0) begin
                m_state = M_STOPPED;
                m_full = 1;
                m_lost_live = 1;
            end
        end else if (m_state == M_STOPPED && m_lost_live) begin
            m_lost = m_lost + nk;
        end
    end
endtask

/*
 * Traffic
 */
// a few tags, requesters, lengths and addresses, so that the conditions match now and then
function automatic [127:0] random_tlp(input completion_stream);
    reg [127:0] h;
    reg [9:0] tag;
    reg [2:0] pick;
    reg [63:0] addr;
    begin
        h = {rnd(0), rnd(0), rnd(0), rnd(0)};
        tag = rnd(0) % 24;
        r_a = chance(200);
        if (TAG_WIDTH == 10 && r_a) tag = tag | 10'h300;
        pick = rnd(0) % 8;
        addr = 64'd0;
        addr[33:32] = rnd(0) % 4;
        addr[7:2] = rnd(0) % 64;
        if (completion_stream ? pick < 6 : pick >= 6) begin
            // CplD or Cpl: tag in DW2, requester in DW2, status in DW1
            h[127:125] = (pick % 2 == 0 || completion_stream == 0) ? 3'b010 : 3'b000;
            h[124:120] = 5'b01010;
            h[63:48] = (rnd(0) % 2) ? 16'h0100 : 16'h0200;
            h[47:40] = tag[7:0];
            r_a = rnd(0);
            r_b = rnd(0);
            h[79:77] = (r_a % 8 == 0) ? 3'd1 : ((r_b % 16 == 0) ? 3'd4 : 3'd0);
        end else begin
            pick = rnd(0) % 8;
            if (pick < 5) begin
                h[127:125] = (rnd(0) % 2) ? 3'b001 : 3'b000; // MRd 4DW / 3DW
                h[124:120] = 5'b00000;
            end else if (pick < 7) begin
                h[127:125] = (rnd(0) % 2) ? 3'b011 : 3'b010; // MWr
                h[124:120] = 5'b00000;
            end else begin
                h[127:125] = 3'b000;                          // configuration read
                h[124:120] = 5'b00100;
            end
            h[95:80] = (rnd(0) % 2) ? 16'h0100 : 16'h0200;
            h[79:72] = tag[7:0];
            if (h[125]) begin
                h[63:32] = addr[63:32];
                h[31:0] = addr[31:0];
            end else begin
                h[63:32] = addr[31:0];
            end
        end
        h[119] = tag[9];
        h[115] = tag[8];
        r_a = rnd(0);
        r_b = rnd(0);
        h[105:96] = (r_a % 4 == 0) ? 10'd0 : 10'd1 << (r_b % 6);
        random_tlp = h;
    end
endfunction

integer quiet = 0;     // clocks left with no traffic
integer density = 500; // permille of segments busy
integer cmd_now = 0;

task automatic drive_traffic;
    integer s;
    begin
        for (s = 0; s < SEG; s = s + 1) begin
            rx_hdr[s*128 +: 128] = random_tlp(0);
            tx_hdr[s*128 +: 128] = random_tlp(1);
            r_a = chance(density);
            r_b = chance(density);
            rx_valid[s] = quiet == 0 && r_a;
            tx_valid[s] = quiet == 0 && r_b;
            rx_sop[s] = !chance(100);
            tx_sop[s] = !chance(100);
            ev_first[s] = chance(300);
            ev_latency[s*32 +: 32] = rnd(0) % 400;
            ev_unexpected[s] = chance(30);
        end
        rx_ready = !chance(100);
        tx_ready = !chance(100);
        ev_timeout = chance(5);
        ev_outstanding = rnd(0) % 300;
    end
endtask

// one clock: record this clock's taps and events, drive the events of EV_LAG clocks ago,
// step the model over tap clock cyc - CMD_LAG, then the edge
task automatic tick;
    integer i, j, s;
    begin
        i = cyc % HIST;
        for (s = 0; s < NS; s = s + 1) begin
            h_hdr[i][s*128 +: 128] = (s < SEG) ? rx_hdr[s*128 +: 128] : tx_hdr[(s-SEG)*128 +: 128];
            h_fire[i][s] = (s < SEG) ? (rx_valid[s] && rx_sop[s] && rx_ready)
                                     : (tx_valid[s-SEG] && tx_sop[s-SEG] && tx_ready);
        end
        h_first[i] = ev_first;
        h_lat[i] = ev_latency;
        h_unexp[i] = ev_unexpected;
        h_timeout[i] = ev_timeout;
        h_out[i] = ev_outstanding;
        h_cmd[i] = cmd_now;
        for (s = 0; s < NS; s = s + 1) n_tlps = n_tlps + h_fire[i][s];
        // the RTL sees the events of tap clock cyc - EV_LAG now
        j = (cyc - EV_LAG + HIST) % HIST;
        ev_first = h_first[j];
        ev_latency = h_lat[j];
        ev_unexpected = h_unexp[j];
        ev_timeout = h_timeout[j];
        ev_outstanding = h_out[j];
        if (cyc >= CMD_LAG) model_step(cyc - CMD_LAG, cmd_now);
        @(posedge clk);
        #1;
        cyc = cyc + 1;
        cmd_now = 0;
        wr_fire = 0;
        ar_fire = 0;
    end
endtask

// one clock of traffic (or quiet), an optional CSR write in it
task automatic step;
    begin
        drive_traffic();
        if (quiet > 0) quiet = quiet - 1;
        tick();
    end
endtask

task automatic csr_write(input [11:0] addr, input [31:0] value);
    begin
        wr_fire = 1;
        waddr = addr[11:2];
        wdata = value;
        if (addr == `PS_REG_TRC_CMD) begin
            cmd_now = value[`PS_REG_TRC_CMD_ARM_BIT] ? 1 : value[`PS_REG_TRC_CMD_FORCE_BIT] ? 2 : value[`PS_REG_TRC_CMD_STOP_BIT] ? 3 : 0;
        end
        step();
    end
endtask

// a read: the AR handshake's clock loads the word; it is on rdata after that edge
task automatic csr_read(input [11:0] addr, output [31:0] value);
    begin
        ar_fire = 1;
        araddr = addr[11:2];
        step();
        value = rdata;
    end
endtask

task automatic settle(input integer clocks);
    integer k;
    begin
        quiet = clocks + 1;
        for (k = 0; k < clocks; k = k + 1) step();
    end
endtask

function automatic [63:0] pick_addr(input integer dummy);
    begin
        pick_addr = 64'd0;
        pick_addr[33:32] = rnd(0) % 4;
        pick_addr[7:2] = rnd(0) % 64;
    end
endfunction

task automatic randomize_settings;
    reg [63:0] a, b;
    begin
        quiet = 40;
        r_a = chance(100);
        r_b = rnd(0);
        c_pre = r_a ? DEPTH + r_b % 8 : r_b % DEPTH;
        c_en = 0;
        if (!chance(100)) begin
            r_a = rnd(0) % 10;
            c_en[r_a] = 1;
            if (chance(400)) begin
                r_a = rnd(0) % 10;
                c_en[r_a] = 1;
            end
            if (chance(200)) begin
                r_a = rnd(0) % 10;
                c_en[r_a] = 1;
            end
        end
        c_types = rnd(0) % 32;
        a = pick_addr(0);
        b = pick_addr(0);
        c_base = a < b ? a : b;
        c_limit = chance(100) ? 0 : (a < b ? b : a);
        c_rid = (rnd(0) % 2) ? 16'h0100 : 16'h0200;
        c_tag = rnd(0) % 24;
        r_a = rnd(0);
        r_b = rnd(0);
        c_len = (r_a % 4 == 0) ? 11'd1024 : 11'd1 << (r_b % 6);
        c_status = (rnd(0) % 2) ? 3'd1 : 3'd0;
        c_latency = 100 + rnd(0) % 300;
        c_outstanding = 150 + rnd(0) % 200;
        r_a = chance(300);
        r_b = rnd(0);
        c_ftypes = r_a ? 5'h1F : r_b % 32;
        c_fen = chance(300);
        a = pick_addr(0);
        b = pick_addr(0);
        c_fbase = a < b ? a : b;
        c_flimit = chance(50) ? 0 : (a < b ? b : a);
        density = 100 + rnd(0) % 900;
        if ($test$plusargs("DEBUG")) $display("@%0d settings en %h types %h pre %0d base %h limit %h rid %h tag %h len %0d st %0d lat %0d out %0d ftypes %h fen %0d fbase %h flimit %h",
            cyc, c_en, c_types, c_pre, c_base, c_limit, c_rid, c_tag, c_len, c_status, c_latency, c_outstanding, c_ftypes, c_fen, c_fbase, c_flimit);
        csr_write(`PS_REG_TRC_PRE, c_pre);
        csr_write(`PS_REG_TRC_TRIG_EN, c_en);
        csr_write(`PS_REG_TRC_TRIG_TYPES, c_types);
        csr_write(`PS_REG_TRC_TRIG_BASE_LO, c_base[31:0]);
        csr_write(`PS_REG_TRC_TRIG_BASE_HI, c_base[63:32]);
        csr_write(`PS_REG_TRC_TRIG_LIMIT_LO, c_limit[31:0]);
        csr_write(`PS_REG_TRC_TRIG_LIMIT_HI, c_limit[63:32]);
        csr_write(`PS_REG_TRC_TRIG_RID, c_rid);
        csr_write(`PS_REG_TRC_TRIG_TAG, c_tag);
        csr_write(`PS_REG_TRC_TRIG_LEN, c_len);
        csr_write(`PS_REG_TRC_TRIG_STATUS, c_status);
        csr_write(`PS_REG_TRC_TRIG_LATENCY, c_latency);
        csr_write(`PS_REG_TRC_TRIG_OUTSTANDING, c_outstanding);
        csr_write(`PS_REG_TRC_FILT_TYPES, c_ftypes);
        csr_write(`PS_REG_TRC_FILT_CTRL, c_fen);
        csr_write(`PS_REG_TRC_FILT_BASE_LO, c_fbase[31:0]);
        csr_write(`PS_REG_TRC_FILT_BASE_HI, c_fbase[63:32]);
        csr_write(`PS_REG_TRC_FILT_LIMIT_LO, c_flimit[31:0]);
        csr_write(`PS_REG_TRC_FILT_LIMIT_HI, c_flimit[63:32]);
    end
endtask

// status and every record against the model
task automatic read_back;
    reg [31:0] v;
    reg [178:0] want;
    integer r;
    begin
        csr_read(`PS_REG_TRC_STATUS, v);
        check(v[1:0] == m_state, "state", v[1:0], m_state);
        check(v[`PS_REG_TRC_STATUS_TRIGGERED_BIT] == m_triggered, "triggered", v[`PS_REG_TRC_STATUS_TRIGGERED_BIT], m_triggered);
        check(v[`PS_REG_TRC_STATUS_FULL_BIT] == m_full, "full", v[`PS_REG_TRC_STATUS_FULL_BIT], m_full);
        csr_read(`PS_REG_TRC_COUNT, v);
        check(v == m_count, "count", v, m_count);
        csr_read(`PS_REG_TRC_LOST, v);
        check(v == m_lost, "lost", v, m_lost);
        if (m_lost != 0) n_lost_rounds = n_lost_rounds + 1;
        if (m_triggered) begin
            csr_read(`PS_REG_TRC_TRIG_POS, v);
            check(v == m_trig_pos, "trigger position", v, m_trig_pos);
            csr_read(`PS_REG_TRC_TRIG_TS_LO, v);
            check(v == m_trig_ts[31:0], "trigger clock", v, m_trig_ts[31:0]);
            csr_read(`PS_REG_TRC_TRIG_TS_HI, v);
            check(v == {16'd0, m_trig_ts[47:32]}, "trigger clock high", v, m_trig_ts[47:32]);
        end
        if (m_full) n_full = n_full + 1;
        for (r = 0; r < m_count; r = r + 1) begin
            want = m_ring[(m_head + r) % DEPTH];
            csr_write(`PS_REG_TRC_RD_INDEX, r);
            csr_read(`PS_REG_TRC_REC_DW0, v);
            check(v == want[127:96], "record DW0", v, want[127:96]);
            csr_read(`PS_REG_TRC_REC_DW1, v);
            check(v == want[95:64], "record DW1", v, want[95:64]);
            csr_read(`PS_REG_TRC_REC_DW2, v);
            check(v == want[63:32], "record DW2", v, want[63:32]);
            csr_read(`PS_REG_TRC_REC_DW3, v);
            check(v == want[31:0], "record DW3", v, want[31:0]);
            csr_read(`PS_REG_TRC_REC_TS_LO, v);
            check(v == want[159:128], "record clock", v, want[159:128]);
            csr_read(`PS_REG_TRC_REC_INFO, v);
            check(v == {TAP8, 5'd0, want[178:160]}, "record info", v, {TAP8, 5'd0, want[178:160]});
            n_records = n_records + 1;
        end
    end
endtask

integer round, k, len;
integer rounds = ROUNDS;
integer seed_arg;
reg [31:0] v;

initial begin
    // bench/golden-sweep.mjs runs one build over several seeds and lengths
    if ($value$plusargs("SEED=%d", seed_arg)) lfsr = 32'h2545_f491 ^ (seed_arg * 32'h9e37_79b9);
    if ($value$plusargs("ROUNDS=%d", rounds)) begin end
    for (k = 0; k < HIST; k = k + 1) begin
        h_hdr[k] = 0; h_fire[k] = 0; h_first[k] = 0; h_lat[k] = 0; h_unexp[k] = 0;
        h_timeout[k] = 0; h_out[k] = 0; h_cmd[k] = 0;
    end
    repeat (3) @(posedge clk);
    #1 rst = 0;
    c_pre = 0; c_en = 0; c_types = 0; c_base = 0; c_limit = 0; c_rid = 0; c_tag = 0; c_len = 0;
    c_status = 0; c_latency = 0; c_outstanding = 0; c_ftypes = 5'h1F; c_fen = 0; c_fbase = 0; c_flimit = 0;

    csr_read(`PS_REG_TRC_DEPTH, v);
    check(v == DEPTH, "depth", v, DEPTH);
    csr_read(`PS_REG_TRC_STATUS, v);
    check(v == 0, "idle after reset", v, 0);

    for (round = 0; round < rounds; round = round + 1) begin
        settle(8);
        randomize_settings();
        settle(8);
        csr_write(`PS_REG_TRC_CMD, 1 << `PS_REG_TRC_CMD_ARM_BIT);
        r_a = chance(300);
        r_b = rnd(0);
        len = r_a ? 20 + r_b % 100 : 100 + r_b % (DEPTH * 3);
        for (k = 0; k < len; k = k + 1) begin
            if (chance(3)) csr_write(`PS_REG_TRC_CMD, 1 << `PS_REG_TRC_CMD_FORCE_BIT);
            else if (chance(1)) csr_write(`PS_REG_TRC_CMD, 1 << `PS_REG_TRC_CMD_STOP_BIT);
            else step();
        end
        settle(8);
        csr_write(`PS_REG_TRC_CMD, 1 << `PS_REG_TRC_CMD_STOP_BIT);
        settle(8);
        read_back();
    end

    // the run exercised what it claims to
    check(n_triggers > rounds / 3, "triggers", n_triggers, rounds / 3);
    if (rounds >= 10) check(n_forced > 0, "forced triggers", n_forced, 1);
    if (rounds >= 20) check(n_full > 2, "rings filled", n_full, 3);
    check(n_records > (DEPTH <= 256 ? DEPTH * rounds / 10 : DEPTH / 2), "records read back", n_records, DEPTH * rounds / 10);
    if (SEG > 1) check(n_lost_rounds > 0, "rounds with lost records", n_lost_rounds, 1);

    $display("SEG %0d TAG_WIDTH %0d DEPTH %0d: %0d rounds, %0d triggers (%0d forced), %0d full, %0d records read, %0d rounds with losses",
             SEG, TAG_WIDTH, DEPTH, rounds, n_triggers, n_forced, n_full, n_records, n_lost_rounds);
    $display("TLPs: %0d on the taps", n_tlps);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_probe_trace failed");
    $finish;
end

endmodule
