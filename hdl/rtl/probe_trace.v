`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Trace unit: beside a probe, a record of every TLP on its two taps (docs/trace.md).
 *
 * A TLP is a record when it starts on its tap (valid & ready & sop of its segment, as the
 * counters see it) and passes the filter (TRC_FILT_TYPES; TRC_FILT_CTRL.EN: memory requests in
 * the window, completions on the completion stream whose tag's latest MRd on the request stream
 * was recorded by it). A record is the header
 * image (16 bytes), the tap clock (48 bits, clocks since reset), the segment and the stream
 * (requests 0, completions 1); within a clock, records are in slot order: the request stream's
 * segments, then the completion stream's. Up to PS_TRC_BANKS records a clock go to the ring
 * (probe_trace_ring); more are counted lost (probe_trace_ctrl).
 *
 * Trigger: every condition enabled in TRC_TRIG_EN must hold, the per-TLP ones for one TLP of the
 * clock (header fields; the tracker's first-completion latency and unexpected completion, which
 * belong to the completion stream's segment), the clock-wide ones (outstanding reads, a timeout)
 * in its clock. The trigger record is the first record of its clock at or after the first TLP
 * that fired it.
 *
 * Pipeline (tap clock n): the taps registered as they are; n+1 the slots decoded
 * (probe_trace_decode: kind, windows, header compares) and each slot's tag addressing the
 * filter's tag table; n+2 the tag table read and written, which records are kept, the
 * tracker's events (ev_*, which describe tap clock n on clock n + EV_LAG, EV_LAG = 2 as the
 * tracker gives them) joined, each record's place in its clock; n+3 the trigger's record and
 * which slot each place takes; n+4 the control, and the ring takes each bank's record straight
 * from the slots by the write pointer (one multiplexer a bank, registered); n+5 the write.
 *
 * Area: the headers are only ever moved by the ring's per-bank multiplexers; the tag table is
 * block RAM (probe_xor_bram), not a flip-flop vector with a decoder per writer; the windows'
 * enables are registered settings, so each window is two compares on a slot's address.
 */
module probe_trace #
(
    // TLP segments per beat
    parameter TLP_SEG_COUNT = 1,
    // the tracker's tag bits (8 or 10): the filter's tag table
    parameter TAG_WIDTH = 8,
    // ring depth in records: a power of two of at least 2 * PS_TRC_BANKS (probe_core asks for
    // PS_TRC_MIN_DEPTH or more; the benches use small rings to fill them often)
    parameter DEPTH = `PS_TRC_MIN_DEPTH,
    // tap id, shown in each record
    parameter TAP_ID = 0,
    // clocks from a tap clock to the tracker's events that describe it: 2 (the benches' model)
    // or 3 (probe_tracker, as probe_core wires it: the sampler's TAP_LAG). At 3 the taps take
    // one more register before stage 1, and the clock counts from -1, so the events still meet
    // their TLPs at stage 2 and each record keeps its own tap clock
    parameter EV_LAG = 2
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Taps, as probe_core's
     */
    input  wire [TLP_SEG_COUNT*128-1:0] rx_req_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_sop,
    input  wire                         rx_req_tlp_ready,
    input  wire [TLP_SEG_COUNT*128-1:0] tx_cpl_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_sop,
    input  wire                         tx_cpl_tlp_ready,

    /*
     * The tracker's events, EV_LAG clocks after the tap clock they describe: a completion
     * stream segment's first completion and its latency, an unexpected completion there; the
     * timeout scan retiring a read; reads outstanding
     */
    input  wire [TLP_SEG_COUNT-1:0]     ev_first,
    input  wire [TLP_SEG_COUNT*32-1:0]  ev_latency,
    input  wire [TLP_SEG_COUNT-1:0]     ev_unexpected,
    input  wire                         ev_timeout,
    input  wire [TAG_WIDTH:0]           ev_outstanding,

    /*
     * probe_csr's window (probe_trace_regs)
     */
    input  wire                         csr_wr_fire,
    input  wire [11:2]                  csr_waddr,
    input  wire [31:0]                  csr_wdata,
    input  wire [3:0]                   csr_wstrb,
    input  wire                         csr_ar_fire,
    input  wire [11:2]                  csr_araddr,
    output wire [31:0]                  csr_rdata
);

localparam S = TLP_SEG_COUNT;
localparam NS = 2 * S;
localparam NB = `PS_TRC_BANKS;
localparam AW = $clog2(DEPTH);
// a clock's record counts (at most 8)
localparam TW = 4;
localparam LW = $clog2(NB + 1);
localparam REC = 179;
// a slot index
localparam SW = 3;

generate
    if ((1 << AW) != DEPTH || DEPTH < 2 * NB) begin : g_check_depth
        probe_trace_DEPTH_must_be_a_power_of_two_of_at_least_twice_the_banks unsupported_parameter ();
    end
    if (S != 1 && S != 2 && S != 4) begin : g_check_seg
        probe_trace_TLP_SEG_COUNT_must_be_1_2_or_4 unsupported_parameter ();
    end
    if (EV_LAG != 2 && EV_LAG != 3) begin : g_check_ev_lag
        probe_trace_EV_LAG_must_be_2_or_3 unsupported_parameter ();
    end
endgenerate

localparam E_TYPE = `PS_REG_TRC_TRIG_EN_TYPE_BIT;
localparam E_ADDR = `PS_REG_TRC_TRIG_EN_ADDR_BIT;
localparam E_RID = `PS_REG_TRC_TRIG_EN_RID_BIT;
localparam E_TAG = `PS_REG_TRC_TRIG_EN_TAG_BIT;
localparam E_LEN = `PS_REG_TRC_TRIG_EN_LEN_BIT;
localparam E_STATUS = `PS_REG_TRC_TRIG_EN_STATUS_BIT;
localparam E_LATENCY = `PS_REG_TRC_TRIG_EN_LATENCY_BIT;
localparam E_UNEXPECTED = `PS_REG_TRC_TRIG_EN_UNEXPECTED_BIT;
localparam E_OUTSTANDING = `PS_REG_TRC_TRIG_EN_OUTSTANDING_BIT;
localparam E_TIMEOUT = `PS_REG_TRC_TRIG_EN_TIMEOUT_BIT;

/*
 * Registers
 */
wire        cmd_arm, cmd_force, cmd_stop;
wire        rd_index_wr;
wire [31:0] rd_index_value;
wire [31:0] pre;
wire [9:0]  trig_en;
wire [4:0]  trig_types;
wire [63:0] trig_base, trig_limit;
wire [15:0] trig_rid;
wire [9:0]  trig_tag;
wire [10:0] trig_len;
wire [2:0]  trig_status;
wire [31:0] trig_latency;
wire [10:0] trig_outstanding;
wire [4:0]  filt_types;
wire        filt_en;
wire [63:0] filt_base, filt_limit;
wire [1:0]  state;
wire        triggered, full;
wire [AW:0] count, trig_pos;
wire [47:0] trig_ts;
wire [31:0] lost;
wire [REC-1:0] rd_rec;

probe_trace_regs #(
    .DEPTH(DEPTH),
    .TAP_ID(TAP_ID)
)
regs_inst (
    .clk(clk),
    .rst(rst),
    .wr_fire(csr_wr_fire),
    .waddr(csr_waddr),
    .wdata(csr_wdata),
    .wstrb(csr_wstrb),
    .ar_fire(csr_ar_fire),
    .araddr(csr_araddr),
    .rdata(csr_rdata),
    .cmd_arm(cmd_arm),
    .cmd_force(cmd_force),
    .cmd_stop(cmd_stop),
    .rd_index_wr(rd_index_wr),
    .rd_index_value(rd_index_value),
    .pre(pre),
    .trig_en(trig_en),
    .trig_types(trig_types),
    .trig_base(trig_base),
    .trig_limit(trig_limit),
    .trig_rid(trig_rid),
    .trig_tag(trig_tag),
    .trig_len(trig_len),
    .trig_status(trig_status),
    .trig_latency(trig_latency),
    .trig_outstanding(trig_outstanding),
    .filt_types(filt_types),
    .filt_en(filt_en),
    .filt_base(filt_base),
    .filt_limit(filt_limit),
    .state(state),
    .triggered(triggered),
    .full(full),
    .count({{(31-AW){1'b0}}, count}),
    .trig_pos({{(31-AW){1'b0}}, trig_pos}),
    .trig_ts(trig_ts),
    .lost(lost),
    .rec(rd_rec)
);

// the windows in force, registered (settings): the trigger's always (any address while its
// limit is below its base), the filter's when enabled
reg filt_active = 1'b0;
reg trig_active = 1'b0;
always @(posedge clk) begin
    filt_active <= filt_en && (filt_limit >= filt_base);
    trig_active <= trig_limit >= trig_base;
end

// clocks since reset (from -1 when the taps take one more register: the tap clock of stage 0)
localparam [47:0] NOW_RESET = (EV_LAG == 3) ? {48{1'b1}} : 48'd0;
reg [47:0] now = NOW_RESET;
always @(posedge clk) begin
    now <= rst ? NOW_RESET : now + 1'b1;
end

/*
 * Stage 1 (n+1): the slots registered as they are (the taps reach only flip-flops), then decoded
 */
reg [NS-1:0]     s1_fire = {NS{1'b0}};
reg [NS*128-1:0] s1_hdr = {NS*128{1'b0}};
reg [47:0]       s1_ts = 48'd0;

wire [NS*5-1:0]  s1_kind;
wire [NS-1:0]    s1_is_mrd;
wire [NS-1:0]    s1_is_cpl;
wire [NS*5-1:0]  s1_hits;
wire [NS-1:0]    s1_in_filt;
// the filter's tag table: each port's tag, a clock early (the request stream's a request's
// field, the completion stream's a completion's)
wire [NS*TAG_WIDTH-1:0] tag_next;

genvar s;
generate
    for (s = 0; s < NS; s = s + 1) begin : g_slot
        wire [127:0] in_hdr = (s < S) ? rx_req_tlp_hdr[(s % S)*128 +: 128] : tx_cpl_tlp_hdr[(s % S)*128 +: 128];
        wire in_fire = (s < S) ? (rx_req_tlp_valid[s % S] && rx_req_tlp_sop[s % S] && rx_req_tlp_ready)
                               : (tx_cpl_tlp_valid[s % S] && tx_cpl_tlp_sop[s % S] && tx_cpl_tlp_ready);
        wire [127:0] tap_hdr;
        wire tap_fire;
        if (EV_LAG == 3) begin : g_s0
            // stage 0: the taps one clock later, to meet the tracker's events a clock later
            reg [127:0] s0_hdr = 128'd0;
            reg         s0_fire = 1'b0;
            always @(posedge clk) begin
                s0_hdr  <= in_hdr;
                s0_fire <= in_fire && !rst;
            end
            assign tap_hdr = s0_hdr;
            assign tap_fire = s0_fire;
        end else begin : g_direct
            assign tap_hdr = in_hdr;
            assign tap_fire = in_fire;
        end
        wire hit_addr, hit_rid, hit_tag, hit_len, hit_status;

        always @(posedge clk) begin
            s1_fire[s]           <= tap_fire && !rst;
            s1_hdr[s*128 +: 128] <= tap_hdr;
        end

        // the tag-table port's address: a request's tag field on the request stream, a
        // completion's on the completion stream
        wire [9:0] tag10;
        if (s < S) begin : g_req_tag
            assign tag10 = {s1_hdr[s*128 + 119], s1_hdr[s*128 + 115], s1_hdr[s*128 + 72 +: 8]};
        end else begin : g_cpl_tag
            assign tag10 = {s1_hdr[s*128 + 119], s1_hdr[s*128 + 115], s1_hdr[s*128 + 40 +: 8]};
        end
        assign tag_next[s*TAG_WIDTH +: TAG_WIDTH] = tag10[TAG_WIDTH-1:0];
        // T9 and T8 unused at 8-bit tags
        wire unused_tag10 = &{1'b0, tag10, 1'b0};

        probe_trace_decode decode_inst (
            .hdr(s1_hdr[s*128 +: 128]),
            .trig_active(trig_active),
            .trig_base(trig_base),
            .trig_limit(trig_limit),
            .trig_rid(trig_rid),
            .trig_tag(trig_tag),
            .trig_len(trig_len),
            .trig_status(trig_status),
            .filt_active(filt_active),
            .filt_base(filt_base),
            .filt_limit(filt_limit),
            .kind(s1_kind[s*5 +: 5]),
            .is_mrd(s1_is_mrd[s]),
            .is_cpl(s1_is_cpl[s]),
            .hit_addr(hit_addr),
            .hit_rid(hit_rid),
            .hit_tag(hit_tag),
            .hit_len(hit_len),
            .hit_status(hit_status),
            .in_filt(s1_in_filt[s])
        );
        assign s1_hits[s*5 +: 5] = {hit_status, hit_len, hit_tag, hit_rid, hit_addr};
    end
endgenerate

always @(posedge clk) begin
    s1_ts <= now;
end

/*
 * Stage 2 (n+2): kept records (the filter), TLPs meeting the header conditions
 */
// registered from the decode: the record passes the kinds and the window (a completion
// on the completion stream still needs its tag's bit, read on this clock), the TLP meets the
// header conditions, a request-stream MRd writes its tag's bit
reg [NS-1:0]     s2_keep_pre = {NS{1'b0}};
reg [NS-1:0]     s2_need_tag = {NS{1'b0}};
reg [NS-1:0]     s2_tlp_ok = {NS{1'b0}};
reg [NS-1:0]     s2_tag_wr = {NS{1'b0}};
reg [NS-1:0]     s2_in_filt = {NS{1'b0}};
reg [NS*128-1:0] s2_hdr = {NS*128{1'b0}};
reg [47:0]       s2_ts = 48'd0;

generate
    for (s = 0; s < NS; s = s + 1) begin : g_s2
        wire [4:0] kind = s1_kind[s*5 +: 5];
        wire [4:0] hits = s1_hits[s*5 +: 5];
        wire kind_in = s1_fire[s] && |(kind & filt_types);
        wire ok = s1_fire[s]
            && (!trig_en[E_TYPE] || |(kind & trig_types))
            && (!trig_en[E_ADDR] || hits[0])
            && (!trig_en[E_RID] || hits[1])
            && (!trig_en[E_TAG] || hits[2])
            && (!trig_en[E_LEN] || hits[3])
            && (!trig_en[E_STATUS] || hits[4]);
        always @(posedge clk) begin
            s2_keep_pre[s] <= kind_in && (s1_is_cpl[s] || s1_in_filt[s]);
            s2_need_tag[s] <= (s >= S) && s1_is_cpl[s] && filt_active;
            s2_tlp_ok[s]   <= ok;
            s2_tag_wr[s]   <= (s < S) && s1_fire[s] && s1_is_mrd[s];
            s2_in_filt[s]  <= s1_in_filt[s];
        end
    end
endgenerate

// the headers wait for the ring in flip-flops; a reset keeps the waiting stages out of shift
// registers (LUTs), which the delay would otherwise become
always @(posedge clk) begin
    s2_hdr <= rst ? {NS*128{1'b0}} : s1_hdr;
    s2_ts  <= s1_ts;
end

/*
 * The filter's tag table: was the latest read on this tag recorded (inside the window)? A bit
 * per tag in block RAM (probe_xor_bram, addressed at stage 1 by each slot's tag, read and
 * written at stage 2): the request stream's MRds write it (later segments last), the
 * completion stream's completions read it as it stood before the same clock's writes. Those
 * are the tap's reads and the completions answering them (the tracker's pairing); the other
 * direction's are not judged by it.
 */
wire [NS-1:0] tag_rd;

probe_xor_bram #(
    .ADDR_WIDTH(TAG_WIDTH),
    .DATA_WIDTH(1),
    .PORTS(NS)
)
tag_table_inst (
    .clk(clk),
    .addr_next(tag_next),
    .wr_en(s2_tag_wr),
    .wr_data(s2_in_filt),
    .rd_data(tag_rd)
);

wire [NS-1:0] s2_keep = s2_keep_pre & (~s2_need_tag | tag_rd);

/*
 * Stage 3 (n+3): the tracker's events joined; each kept record's place in its clock
 */
reg [NS-1:0]     s3_keep = {NS{1'b0}};
reg [NS-1:0]     s3_hit = {NS{1'b0}};
reg              s3_clk_ok = 1'b0;
reg [NS*TW-1:0]  s3_prefix = {NS*TW{1'b0}};
reg [TW-1:0]     s3_total = {TW{1'b0}};
reg [LW-1:0]     s3_lanes = {LW{1'b0}};
reg [NS*128-1:0] s3_hdr = {NS*128{1'b0}};
reg [47:0]       s3_ts = 48'd0;

wire per_tlp_events = trig_en[E_LATENCY] || trig_en[E_UNEXPECTED];

// the kept records among slots 0..n-1, counted as half adders (probe_ones): Boolean logic that
// synthesis maps into a few LUT levels, where adders put carry chains between the tag table's
// read and this clock's registers (in the whole probe, with the LUTs on either side of them,
// 9 levels)
generate
    for (s = 0; s < NS; s = s + 1) begin : g_s3
        wire ev_ok;
        if (s < S) begin : g_req
            assign ev_ok = !per_tlp_events;
        end else begin : g_cpl
            assign ev_ok = (!trig_en[E_LATENCY] || (ev_first[s - S] && ev_latency[(s - S)*32 +: 32] > trig_latency))
                        && (!trig_en[E_UNEXPECTED] || ev_unexpected[s - S]);
        end
        // records kept before this slot in its clock
        wire [TW-1:0] kept_before;
        probe_ones #(.IN_WIDTH(NS), .OUT_WIDTH(TW)) kept_before_inst (
            .v(s2_keep & ~({NS{1'b1}} << s)),
            .count(kept_before)
        );
        always @(posedge clk) begin
            s3_hit[s]              <= s2_tlp_ok[s] && ev_ok;
            s3_prefix[s*TW +: TW]  <= kept_before;
        end
    end
endgenerate

wire [11:0] ev_out_w = {{(11-TAG_WIDTH){1'b0}}, ev_outstanding};

wire [TW-1:0] kept_all;
probe_ones #(.IN_WIDTH(NS), .OUT_WIDTH(TW)) kept_all_inst (.v(s2_keep), .count(kept_all));

// more kept than banks, as equalities (no compare's carry chain): the count is at most NS (a
// function behind a continuous assign: an always @* would leave it unknown in Icarus until the
// count first changes)
function over_nb(input [TW-1:0] n);
    integer ob_v;
    begin
        over_nb = 1'b0;
        for (ob_v = NB + 1; ob_v <= NS; ob_v = ob_v + 1) begin
            if (n == ob_v[TW-1:0]) begin
                over_nb = 1'b1;
            end
        end
    end
endfunction

wire kept_over_nb = over_nb(kept_all);

always @(posedge clk) begin
    s3_keep   <= s2_keep;
    s3_total  <= kept_all;
    s3_lanes  <= kept_over_nb ? NB[LW-1:0] : kept_all[LW-1:0];
    s3_clk_ok <= (!trig_en[E_OUTSTANDING] || ev_out_w > {1'b0, trig_outstanding})
              && (!trig_en[E_TIMEOUT] || ev_timeout);
    s3_hdr    <= rst ? {NS*128{1'b0}} : s2_hdr;
    s3_ts     <= s2_ts;
end

/*
 * Stage 4 (n+4): the trigger and its record's place in the clock; which slot each place takes
 */
wire has_tlp_cond = trig_en[E_TYPE] || trig_en[E_ADDR] || trig_en[E_RID] || trig_en[E_TAG] || trig_en[E_LEN]
                 || trig_en[E_STATUS] || per_tlp_events;

reg [TW-1:0] first_hit;
integer h;
always @* begin
    first_hit = {TW{1'b0}};
    for (h = NS - 1; h >= 0; h = h - 1) begin
        if (s3_hit[h]) begin
            first_hit = s3_prefix[h*TW +: TW];
        end
    end
end

// the trigger record's place among the stored records (the records before it: hh) and the
// stored records from it on, registered so that the control's split starts from flip-flops
wire [TW-1:0] hit_w = has_tlp_cond ? first_hit : {TW{1'b0}};
wire [TW-1:0] lanes_tw = {{(TW-LW){1'b0}}, s3_lanes};
wire [TW-1:0] hh_w = (hit_w < lanes_tw) ? hit_w : lanes_tw;
wire unused_hh_w = &{1'b0, hh_w[TW-1:LW], 1'b0};

reg              s4_trig = 1'b0;
reg [LW-1:0]     s4_hh = {LW{1'b0}};
reg [LW-1:0]     s4_rest = {LW{1'b0}};
reg [TW-1:0]     s4_total = {TW{1'b0}};
reg [LW-1:0]     s4_lanes = {LW{1'b0}};
reg [NB*SW-1:0]  s4_place_slot = {NB*SW{1'b0}};
reg [NS*128-1:0] s4_hdr = {NS*128{1'b0}};
reg [47:0]       s4_ts = 48'd0;

// the slot of each place (the kept slot whose prefix is the place; 0 when none, unused then)
genvar l;
generate
    for (l = 0; l < NB; l = l + 1) begin : g_place
        reg [SW-1:0] slot;
        integer q;
        always @* begin
            slot = {SW{1'b0}};
            for (q = 0; q < NS; q = q + 1) begin
                if (s3_keep[q] && s3_prefix[q*TW +: TW] == l) begin
                    slot = slot | q[SW-1:0];
                end
            end
        end
        always @(posedge clk) begin
            s4_place_slot[l*SW +: SW] <= slot;
        end
    end
endgenerate

always @(posedge clk) begin
    s4_trig  <= |trig_en && s3_clk_ok && (!has_tlp_cond || |s3_hit);
    s4_hh    <= hh_w[LW-1:0];
    s4_rest  <= s3_lanes - hh_w[LW-1:0];
    s4_total <= s3_total;
    s4_lanes <= s3_lanes;
    s4_hdr   <= s3_hdr;
    s4_ts    <= s3_ts;
    if (rst) begin
        s4_trig  <= 1'b0;
        s4_total <= {TW{1'b0}};
        s4_lanes <= {LW{1'b0}};
    end
end

/*
 * Control and ring
 */
wire [NB-1:0] lane_we;
wire [NB-1:0] lane_we_next;
wire [AW-1:0] wr_ptr;
wire [AW-1:0] first;

probe_trace_ctrl #(
    .AW(AW),
    .BANKS(NB)
)
ctrl_inst (
    .clk(clk),
    .rst(rst),
    .cmd_arm(cmd_arm),
    .cmd_force(cmd_force),
    .cmd_stop(cmd_stop),
    .pre(pre),
    .total(s4_total),
    .lanes(s4_lanes),
    .trig(s4_trig),
    .hh(s4_hh),
    .rest(s4_rest),
    .ts(s4_ts),
    .wr_ptr(wr_ptr),
    .lane_we(lane_we),
    .lane_we_next(lane_we_next),
    .first(first),
    .state(state),
    .triggered(triggered),
    .full(full),
    .count(count),
    .trig_pos(trig_pos),
    .trig_ts(trig_ts),
    .lost(lost)
);

probe_trace_ring #(
    .AW(AW),
    .BANKS(NB),
    .SEGS(S)
)
ring_inst (
    .clk(clk),
    .slot_hdr(s4_hdr),
    .place_slot(s4_place_slot),
    .ts(s4_ts),
    .wr_ptr(wr_ptr),
    .lane_we(lane_we),
    .lane_we_next(lane_we_next),
    .rd_load(rd_index_wr),
    .rd_pos(first + rd_index_value[AW-1:0]),
    .rd_rec(rd_rec)
);

wire unused_rd_index = &{1'b0, rd_index_value[31:AW], 1'b0};

endmodule

`resetall
