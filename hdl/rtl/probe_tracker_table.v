`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Outstanding-read table of probe_tracker: one entry per tag, updated by one clock of
 * decoded TLP starts per clock; the events it finds leave registered, one clock later.
 *
 * Per entry: busy, Requester ID, start time, the bytes the read asked for, whether it
 * had its first successful completion and the bytes still expected after it. All of it sits
 * in block RAM. busy and first (read and written by every segment at once) in a
 * probe_xor_bram with a port per writer; the rest in probe_mp_ram, split by writer so every
 * RAM has one writer per segment: the request side (Requester ID, expected bytes and start
 * time in one word, so one live-value table serves them) and the completion side (bytes
 * still expected once 'first' is set). Block RAM reads are synchronous, so the RAMs take the
 * next clock's tags: the requests' and completions' (req_tag_next, cpl_tag_next, from the
 * stage before) and the scan's.
 *
 * Every read of busy and first is of the RAM as it stood before this clock; a write earlier
 * in the same clock reaches a later reader by comparing tags (no reader waits on a chain of
 * whole-table updates). The RAMs have no reset: a reset empties busy and first by an epoch in
 * each word (the state RAM's comment below).
 *
 * Order within a clock: completions in segment order, each seeing the result of an
 * earlier segment on the same tag (several completions of one read in one beat are
 * exact), then the timeout scan of tag 'now mod 2**TAG_WIDTH', then requests in segment
 * order. probe_tracker.v states the completion rules.
 *
 * 'now' reads n while the table handles tap clock n (n = 0 on the first clock after
 * reset): it resets to -2 (all ones but bit 0) because the taps reach this stage two clocks
 * later (probe_tracker's stages T and A).
 */
module probe_tracker_table #
(
    // TLP segments per beat
    parameter SEG_COUNT = 1,
    // tag bits (table index)
    parameter TAG_WIDTH = 8,
    // time and latency width in bits
    parameter AGE_WIDTH = 18,
    // a read this many clocks old is retired by the scan
    parameter TIMEOUT_CYCLES = 250000,
    // width of the per-clock event counts (up to 2*SEG_COUNT + 1)
    parameter EV_WIDTH = 2,
    // the completion sums' entries (2**SEG_COUNT - 1) and width (probe_tracker_sums)
    parameter SUMS = 1,
    parameter SUM_WIDTH = 15
)
(
    input  wire                           clk,
    input  wire                           rst,
    // flips at each reset (probe_tracker): an entry written under another epoch is empty
    input  wire                           epoch,

    /*
     * Reads starting this clock, per segment
     */
    input  wire [SEG_COUNT-1:0]           req_start,
    input  wire [SEG_COUNT*TAG_WIDTH-1:0] req_tag,
    // the next clock's req_tag (the state RAM reads a clock early)
    input  wire [SEG_COUNT*TAG_WIDTH-1:0] req_tag_next,
    input  wire [SEG_COUNT*16-1:0]        req_rid,
    input  wire [SEG_COUNT*13-1:0]        req_expect,

    /*
     * Completions this clock, per segment
     */
    input  wire [SEG_COUNT-1:0]           cpl_start,
    input  wire [SEG_COUNT*TAG_WIDTH-1:0] cpl_tag,
    // the next clock's cpl_tag (the table's RAMs read a clock early)
    input  wire [SEG_COUNT*TAG_WIDTH-1:0] cpl_tag_next,
    input  wire [SEG_COUNT*16-1:0]        cpl_rid,
    input  wire [SEG_COUNT*3-1:0]         cpl_status,
    input  wire [SEG_COUNT-1:0]           cpl_data,
    // per segment and subset of the segments before it, Byte Count and carried bytes plus the
    // subset's carried bytes (probe_tracker_sums, formed in the stage before)
    input  wire [SUMS*SUM_WIDTH-1:0]      cpl_bc_sums,
    input  wire [SUMS*SUM_WIDTH-1:0]      cpl_carried_sums,
    // the completion carries the rest of its Byte Count (cpl_bc <= cpl_carried, compared in
    // the stage before)
    input  wire [SEG_COUNT-1:0]           cpl_last,

    /*
     * Events, one clock after the inputs: per completion segment...
     */
    output wire [SEG_COUNT-1:0]           ev_first,
    output wire [SEG_COUNT-1:0]           ev_last,
    output wire [SEG_COUNT*AGE_WIDTH-1:0] ev_latency,
    output wire [SEG_COUNT-1:0]           ev_ur,
    output wire [SEG_COUNT-1:0]           ev_ca,
    output wire [SEG_COUNT-1:0]           ev_other,
    output wire [SEG_COUNT-1:0]           ev_unexpected,
    output wire [SEG_COUNT-1:0]           ev_mismatch,
    // ... and per clock
    output wire [EV_WIDTH-1:0]            ev_started,
    output wire [EV_WIDTH-1:0]            ev_retired,
    output wire                           ev_timeout,
    output wire [EV_WIDTH-1:0]            ev_reuse,
    // reads outstanding after that clock
    output wire [TAG_WIDTH:0]             outstanding
);

localparam ID_WIDTH = 16 + 13;
localparam [31:0] TIMEOUT_32 = TIMEOUT_CYCLES;
localparam [AGE_WIDTH-1:0] TIMEOUT = TIMEOUT_32[AGE_WIDTH-1:0];
localparam [AGE_WIDTH-1:0] ONE_AGE = 1;
// TIMEOUT less the clock the scan's age is judged ahead
localparam [AGE_WIDTH-1:0] TIMEOUT_AHEAD = TIMEOUT - ONE_AGE;

localparam [2:0] STATUS_SC = 3'b000;
localparam [2:0] STATUS_UR = 3'b001;
localparam [2:0] STATUS_CA = 3'b100;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (AGE_WIDTH <= TAG_WIDTH || AGE_WIDTH > 32) begin : g_check_age_width
        probe_tracker_table_AGE_WIDTH_must_be_TAG_WIDTH_plus_1_to_32 unsupported_parameter ();
    end
    if (SUMS != (1 << SEG_COUNT) - 1 || SUM_WIDTH < 14) begin : g_check_sums
        probe_tracker_table_SUMS_must_be_2_pow_SEG_COUNT_minus_1_and_SUM_WIDTH_from_14 unsupported_parameter ();
    end
    if ((1 << EV_WIDTH) < 2*SEG_COUNT + 2) begin : g_check_ev_width
        probe_tracker_table_EV_WIDTH_must_hold_2_SEG_COUNT_plus_1 unsupported_parameter ();
    end
endgenerate

localparam [AGE_WIDTH-1:0] NOW_RESET = {{(AGE_WIDTH-1){1'b1}}, 1'b0};

reg [AGE_WIDTH-1:0] now_reg = NOW_RESET;
reg [TAG_WIDTH:0]   outstanding_reg = {(TAG_WIDTH+1){1'b0}};
wire [TAG_WIDTH:0]  outstanding_next;

reg [SEG_COUNT-1:0]           ev_first_reg = {SEG_COUNT{1'b0}}, ev_first_next;
reg [SEG_COUNT-1:0]           ev_last_reg = {SEG_COUNT{1'b0}}, ev_last_next;
reg [SEG_COUNT*AGE_WIDTH-1:0] ev_latency_reg = {SEG_COUNT*AGE_WIDTH{1'b0}}, ev_latency_next;
reg [SEG_COUNT-1:0]           ev_ur_reg = {SEG_COUNT{1'b0}}, ev_ur_next;
reg [SEG_COUNT-1:0]           ev_ca_reg = {SEG_COUNT{1'b0}}, ev_ca_next;
reg [SEG_COUNT-1:0]           ev_other_reg = {SEG_COUNT{1'b0}}, ev_other_next;
reg [SEG_COUNT-1:0]           ev_unexpected_reg = {SEG_COUNT{1'b0}}, ev_unexpected_next;
reg [SEG_COUNT-1:0]           ev_mismatch_reg = {SEG_COUNT{1'b0}}, ev_mismatch_next;
reg [EV_WIDTH-1:0]            ev_started_reg = {EV_WIDTH{1'b0}};
wire [EV_WIDTH-1:0]           ev_started_next;
reg [EV_WIDTH-1:0]            ev_retired_reg = {EV_WIDTH{1'b0}};
wire [EV_WIDTH-1:0]           ev_retired_next;
reg                           ev_timeout_reg = 1'b0, ev_timeout_next;
reg [EV_WIDTH-1:0]            ev_reuse_reg = {EV_WIDTH{1'b0}};
wire [EV_WIDTH-1:0]           ev_reuse_next;

assign ev_first      = ev_first_reg;
assign ev_last       = ev_last_reg;
assign ev_latency    = ev_latency_reg;
assign ev_ur         = ev_ur_reg;
assign ev_ca         = ev_ca_reg;
assign ev_other      = ev_other_reg;
assign ev_unexpected = ev_unexpected_reg;
assign ev_mismatch   = ev_mismatch_reg;
assign ev_started    = ev_started_reg;
assign ev_retired    = ev_retired_reg;
assign ev_timeout    = ev_timeout_reg;
assign ev_reuse      = ev_reuse_reg;
assign outstanding   = outstanding_reg;

wire [AGE_WIDTH-1:0] now_next = rst ? NOW_RESET : now_reg + {{(AGE_WIDTH-1){1'b0}}, 1'b1};
wire [TAG_WIDTH-1:0] scan_tag = now_reg[TAG_WIDTH-1:0];
wire [TAG_WIDTH-1:0] scan_tag_next = now_next[TAG_WIDTH-1:0];
// the scan's age is judged a clock ahead: the start time of the next clock's tag is read in this
// one (the request RAM's scan port reads one tag ahead), so the scan's clock only ANDs a
// registered "old enough" with the tag's busy bit
wire [TAG_WIDTH-1:0] scan_tag_after = scan_tag_next + {{(TAG_WIDTH-1){1'b0}}, 1'b1};
wire [TAG_WIDTH-1:0] scan_ahead_tag = scan_tag + {{(TAG_WIDTH-1){1'b0}}, 1'b1};

/*
 * RAMs: request side {start time, Requester ID, expected bytes} (one more read port for the
 * scan, which uses its start time only), completion side bytes still expected
 */
localparam REQ_WIDTH = AGE_WIDTH + ID_WIDTH;

wire [(SEG_COUNT+1)*REQ_WIDTH-1:0] req_rd;
wire [SEG_COUNT*ID_WIDTH-1:0]      id_rd;
wire [(SEG_COUNT+1)*AGE_WIDTH-1:0] start_rd;
wire [SEG_COUNT*13-1:0]            rem_rd;
reg  [SEG_COUNT-1:0]               rem_wr_en;
reg  [SEG_COUNT*13-1:0]            rem_wr_data;

wire [SEG_COUNT*REQ_WIDTH-1:0] req_wr_data;
genvar g;
generate
    for (g = 0; g < SEG_COUNT; g = g + 1) begin : g_req
        assign req_wr_data[g*REQ_WIDTH +: REQ_WIDTH] = {now_reg, req_rid[g*16 +: 16], req_expect[g*13 +: 13]};
    end
    for (g = 0; g <= SEG_COUNT; g = g + 1) begin : g_rd
        assign start_rd[g*AGE_WIDTH +: AGE_WIDTH] = req_rd[g*REQ_WIDTH + ID_WIDTH +: AGE_WIDTH];
        if (g < SEG_COUNT) begin : g_id
            assign id_rd[g*ID_WIDTH +: ID_WIDTH] = req_rd[g*REQ_WIDTH +: ID_WIDTH];
        end
    end
endgenerate

// the scan reads the start time only
wire unused_scan_id = &{1'b0, req_rd[SEG_COUNT*REQ_WIDTH +: ID_WIDTH], 1'b0};

// the next clock's scan tag is TIMEOUT_CYCLES or more clocks old then (its age now one less),
// unless a request of this clock restarts it (the RAM's word shows earlier clocks' writes only)
wire [AGE_WIDTH-1:0] scan_ahead_age = now_reg - start_rd[SEG_COUNT*AGE_WIDTH +: AGE_WIDTH];
reg                  scan_ahead_restart;
reg                  scan_old_reg = 1'b0;
integer r;

always @* begin
    scan_ahead_restart = 1'b0;
    for (r = 0; r < SEG_COUNT; r = r + 1) begin
        if (req_start[r] && req_tag[r*TAG_WIDTH +: TAG_WIDTH] == scan_ahead_tag) begin
            scan_ahead_restart = 1'b1;
        end
    end
end

always @(posedge clk) begin
    // (a read restarted here is 1 clock old then)
    scan_old_reg <= scan_ahead_restart ? (TIMEOUT <= ONE_AGE) : (scan_ahead_age >= TIMEOUT_AHEAD);
end

probe_mp_ram #(
    .ADDR_WIDTH(TAG_WIDTH),
    .DATA_WIDTH(REQ_WIDTH),
    .WR_PORTS(SEG_COUNT),
    .RD_PORTS(SEG_COUNT+1)
)
req_ram_inst (
    .clk(clk),
    .wr_en(req_start),
    .wr_addr(req_tag),
    .wr_data(req_wr_data),
    .rd_addr_next({scan_tag_after, cpl_tag_next}),
    .rd_data(req_rd)
);

probe_mp_ram #(
    .ADDR_WIDTH(TAG_WIDTH),
    .DATA_WIDTH(13),
    .WR_PORTS(SEG_COUNT),
    .RD_PORTS(SEG_COUNT)
)
rem_ram_inst (
    .clk(clk),
    .wr_en(rem_wr_en),
    .wr_addr(cpl_tag),
    .wr_data(rem_wr_data),
    .rd_addr_next(cpl_tag_next),
    .rd_data(rem_rd)
);

/*
 * busy and first of every tag, {epoch, busy, first} per word: written by the completions, the
 * scan and the requests, in that order (the later write wins), read at each of their tags. A
 * word of another epoch reads as idle (so a reset empties the table at once, though block
 * RAM has no reset), and the scan rewrites such a word it finds busy or first (every tag within
 * 2**TAG_WIDTH clocks of a reset, so a word cannot come back after the next one)
 */
localparam ST_PORTS = 2*SEG_COUNT + 1;

wire [ST_PORTS*3-1:0] st_rd;
reg  [ST_PORTS-1:0]   st_wr_en;
reg  [ST_PORTS*3-1:0] st_wr_data;
// each read's busy and first, empty unless of this epoch
reg  [ST_PORTS-1:0]   st_busy, st_first, st_stale;
integer e;

always @* begin
    for (e = 0; e < ST_PORTS; e = e + 1) begin
        st_stale[e] = st_rd[e*3 + 2] != epoch;
        st_busy[e]  = st_rd[e*3 + 1] && !st_stale[e];
        st_first[e] = st_rd[e*3] && !st_stale[e];
    end
end

probe_xor_bram #(
    .ADDR_WIDTH(TAG_WIDTH),
    .DATA_WIDTH(3),
    .PORTS(ST_PORTS)
)
state_ram_inst (
    .clk(clk),
    .addr_next({req_tag_next, scan_tag_next, cpl_tag_next}),
    .wr_en(st_wr_en),
    .wr_data(st_wr_data),
    .rd_data(st_rd)
);

/*
 * Completions of one tag in one clock. Every segment reads its tag's entry as it stood before
 * the clock (its own RAM port; segments of one tag read the same word), and an earlier
 * segment j on the same tag changes what a later one sees. None of it is a chain over the
 * segments:
 *  - busy: segments of one tag read one busy bit, so a segment hits when that bit is set, its
 *    Requester ID matches and no earlier same-tag segment that would end the read matched (the
 *    first such one hit and ended it); a later segment's view needs only the earlier ones'
 *    matches, not their hits;
 *  - bytes still expected: max(0, base - the carried bytes of the earlier same-tag completions
 *    that hit with data) (a saturating subtraction of non-negative amounts saturates once), base
 *    the completion word or, before a first completion, the requested bytes. So every subset of
 *    the earlier segments is compared and subtracted, from sums formed a stage before
 *    (cpl_bc_sums, cpl_carried_sums), against both bases, and the earlier segments' hits and
 *    the first bit only select among the results. A Byte Count (at least 1) matches the bytes
 *    still expected exactly when it and the subset's carried bytes add up to the base.
 * The same-tag matches are compared a clock early (cpl_tag_next).
 */
reg [SEG_COUNT*SEG_COUNT-1:0] same_tag_reg = {SEG_COUNT*SEG_COUNT{1'b0}};
integer p, q;

always @(posedge clk) begin
    for (p = 0; p < SEG_COUNT; p = p + 1) begin
        for (q = 0; q < SEG_COUNT; q = q + 1) begin
            same_tag_reg[p*SEG_COUNT + q] <= cpl_tag_next[p*TAG_WIDTH +: TAG_WIDTH] == cpl_tag_next[q*TAG_WIDTH +: TAG_WIDTH];
        end
    end
end

localparam SUBSETS = 1 << SEG_COUNT;

// per segment: completion with data and successful, would end its read if it hit, starts and
// its Requester ID matches the entry's, and hits if the entry is busy (no earlier same-tag
// segment ended the read)
reg [SEG_COUNT-1:0] seg_data_ok, seg_ends, seg_match, seg_live;
// each segment's earlier same-tag segments, the ones of them that hit with data (when the
// entry is busy: only then does the segment use them), and its view of 'first'
reg [SEG_COUNT-1:0] earlier, mask;
reg                 view_first, match_eq;
// every subset's compare and bytes left, against both bases (the completion word, the
// requested bytes), bit/word m for subset m
reg [SUBSETS-1:0]    eq_rem, eq_req, over_rem, over_req;
reg [SUBSETS*13-1:0] left_rem, left_req;
reg [SUM_WIDTH:0]    diff;
reg [SUM_WIDTH-1:0]  base_rem, base_req, bc_sum, carried_sum;
reg [12:0]           post_rem_s;
// completions that retired their read this clock, and the scan's view of its tag
reg [SEG_COUNT-1:0] cpl_retire;
reg                 scan_busy;
// this clock's retirements (completions, the scan, requests reusing a busy tag) and reuses
reg [2*SEG_COUNT:0] retired_bits;
reg [SEG_COUNT-1:0] reuse_bits;

reg [TAG_WIDTH-1:0] tag;
reg [2:0]           status;
reg                 hit, last, view_busy;
integer s, j, m;

always @* begin

    ev_first_next      = {SEG_COUNT{1'b0}};
    ev_last_next       = {SEG_COUNT{1'b0}};
    ev_latency_next    = {SEG_COUNT*AGE_WIDTH{1'b0}};
    ev_ur_next         = {SEG_COUNT{1'b0}};
    ev_ca_next         = {SEG_COUNT{1'b0}};
    ev_other_next      = {SEG_COUNT{1'b0}};
    ev_unexpected_next = {SEG_COUNT{1'b0}};
    ev_mismatch_next   = {SEG_COUNT{1'b0}};
    retired_bits       = {(2*SEG_COUNT+1){1'b0}};
    reuse_bits         = {SEG_COUNT{1'b0}};

    view_busy   = 1'b0;
    tag         = {TAG_WIDTH{1'b0}};
    rem_wr_en   = {SEG_COUNT{1'b0}};
    st_wr_en    = {ST_PORTS{1'b0}};
    st_wr_data  = {ST_PORTS*3{1'b0}};
    rem_wr_data = {SEG_COUNT*13{1'b0}};
    cpl_retire  = {SEG_COUNT{1'b0}};
    bc_sum      = {SUM_WIDTH{1'b0}};
    carried_sum = {SUM_WIDTH{1'b0}};
    diff        = {(SUM_WIDTH+1){1'b0}};
    eq_rem   = {SUBSETS{1'b0}};
    eq_req   = {SUBSETS{1'b0}};
    over_rem = {SUBSETS{1'b0}};
    over_req = {SUBSETS{1'b0}};
    left_rem = {SUBSETS*13{1'b0}};
    left_req = {SUBSETS*13{1'b0}};

    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        seg_data_ok[s] = (cpl_status[s*3 +: 3] == STATUS_SC) && cpl_data[s];
        seg_ends[s]    = !(seg_data_ok[s] && !cpl_last[s]);
        seg_match[s]   = cpl_start[s] && (id_rd[s*ID_WIDTH + 13 +: 16] == cpl_rid[s*16 +: 16]);
    end

    // completions, in segment order
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        status = cpl_status[s*3 +: 3];
        last   = cpl_last[s];

        // the earlier segments of this clock on the same tag
        for (j = 0; j < SEG_COUNT; j = j + 1) begin
            earlier[j] = j < s && same_tag_reg[j*SEG_COUNT + s];
        end

        seg_live[s] = seg_match[s] && !(|(earlier & seg_match & seg_ends));
        hit = st_busy[s] && seg_live[s];
        mask = earlier & seg_live & seg_data_ok;
        view_first = st_first[s] || (|mask);

        // each subset of the earlier segments against both bases; the hits with data select one
        base_rem = {{(SUM_WIDTH-13){1'b0}}, rem_rd[s*13 +: 13]};
        base_req = {{(SUM_WIDTH-13){1'b0}}, id_rd[s*ID_WIDTH +: 13]};
        for (m = 0; m < SUBSETS; m = m + 1) begin
            if (m < (1 << s)) begin
                bc_sum      = cpl_bc_sums[((1 << s) - 1 + m)*SUM_WIDTH +: SUM_WIDTH];
                carried_sum = cpl_carried_sums[((1 << s) - 1 + m)*SUM_WIDTH +: SUM_WIDTH];
                eq_rem[m] = bc_sum == base_rem;
                eq_req[m] = bc_sum == base_req;
                diff = {1'b0, base_rem} - {1'b0, carried_sum};
                over_rem[m] = diff[SUM_WIDTH];
                left_rem[m*13 +: 13] = diff[12:0];
                diff = {1'b0, base_req} - {1'b0, carried_sum};
                over_req[m] = diff[SUM_WIDTH];
                left_req[m*13 +: 13] = diff[12:0];
            end
        end
        // (the mask is the subset's index: its bits from s up are 0)
        if (st_first[s]) begin
            match_eq   = eq_rem[mask];
            post_rem_s = over_rem[mask] ? 13'd0 : left_rem[mask*13 +: 13];
        end else begin
            match_eq   = eq_req[mask];
            post_rem_s = over_req[mask] ? 13'd0 : left_req[mask*13 +: 13];
        end

        ev_first_next[s]      = hit && seg_data_ok[s] && !view_first;
        ev_last_next[s]       = hit && seg_data_ok[s] && last;
        ev_ur_next[s]         = hit && (status == STATUS_UR);
        ev_ca_next[s]         = hit && (status == STATUS_CA);
        ev_other_next[s]      = hit && (status != STATUS_SC) && (status != STATUS_UR) && (status != STATUS_CA);
        ev_mismatch_next[s]   = hit && (status == STATUS_SC) && (!cpl_data[s] || !match_eq);
        ev_unexpected_next[s] = cpl_start[s] && !hit;
        ev_latency_next[s*AGE_WIDTH +: AGE_WIDTH] = now_reg - start_rd[s*AGE_WIDTH +: AGE_WIDTH];

        rem_wr_en[s] = hit && seg_data_ok[s] && !last;
        // (written only on a hit, so the entry was busy: it stays busy unless this one ends it)
        st_wr_en[s] = hit;
        st_wr_data[s*3 +: 3] = {epoch, !seg_ends[s], view_first || seg_data_ok[s]};
        // (written only after a hit with data, so the post value is this segment's)
        rem_wr_data[s*13 +: 13] = post_rem_s;
        cpl_retire[s] = hit && seg_ends[s];

        retired_bits[s] = cpl_retire[s];
    end

    // timeout scan: one tag per clock, unless a completion of this clock retired it
    scan_busy = st_busy[SEG_COUNT];
    for (j = 0; j < SEG_COUNT; j = j + 1) begin
        if (cpl_retire[j] && cpl_tag[j*TAG_WIDTH +: TAG_WIDTH] == scan_tag) begin
            scan_busy = 1'b0;
        end
    end
    ev_timeout_next = scan_busy && scan_old_reg;
    st_wr_en[SEG_COUNT] = ev_timeout_next || (st_stale[SEG_COUNT] && st_rd[SEG_COUNT*3 +: 2] != 2'b00);
    st_wr_data[SEG_COUNT*3 +: 3] = {epoch, 2'b00};
    retired_bits[SEG_COUNT] = ev_timeout_next;

    // requests, in segment order; a busy tag (after this clock's completions, the scan and
    // earlier requests) retires its older read
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        st_wr_en[SEG_COUNT + 1 + s] = req_start[s];
        st_wr_data[(SEG_COUNT + 1 + s)*3 +: 3] = {epoch, 2'b10};
        if (req_start[s]) begin
            tag = req_tag[s*TAG_WIDTH +: TAG_WIDTH];
            view_busy = st_busy[SEG_COUNT + 1 + s];
            for (j = 0; j < SEG_COUNT; j = j + 1) begin
                if (cpl_retire[j] && cpl_tag[j*TAG_WIDTH +: TAG_WIDTH] == tag) begin
                    view_busy = 1'b0;
                end
            end
            if (ev_timeout_next && scan_tag == tag) begin
                view_busy = 1'b0;
            end
            for (j = 0; j < SEG_COUNT; j = j + 1) begin
                if (j < s && req_start[j] && req_tag[j*TAG_WIDTH +: TAG_WIDTH] == tag) begin
                    view_busy = 1'b1;
                end
            end
            reuse_bits[s] = view_busy;
            retired_bits[SEG_COUNT + 1 + s] = view_busy;
        end
    end
end

// the clock's counts, as Boolean ones counts (probe_ones)
probe_ones #(.IN_WIDTH(SEG_COUNT), .OUT_WIDTH(EV_WIDTH)) started_ones_inst (.v(req_start), .count(ev_started_next));
probe_ones #(.IN_WIDTH(SEG_COUNT), .OUT_WIDTH(EV_WIDTH)) reuse_ones_inst (.v(reuse_bits), .count(ev_reuse_next));
probe_ones #(.IN_WIDTH(2*SEG_COUNT+1), .OUT_WIDTH(EV_WIDTH)) retired_ones_inst (.v(retired_bits), .count(ev_retired_next));

assign outstanding_next = outstanding_reg + {{(TAG_WIDTH+1-EV_WIDTH){1'b0}}, ev_started_next}
                                          - {{(TAG_WIDTH+1-EV_WIDTH){1'b0}}, ev_retired_next};

always @(posedge clk) begin
    now_reg         <= now_next;
    outstanding_reg <= outstanding_next;

    ev_first_reg      <= ev_first_next;
    ev_last_reg       <= ev_last_next;
    ev_latency_reg    <= ev_latency_next;
    ev_ur_reg         <= ev_ur_next;
    ev_ca_reg         <= ev_ca_next;
    ev_other_reg      <= ev_other_next;
    ev_unexpected_reg <= ev_unexpected_next;
    ev_mismatch_reg   <= ev_mismatch_next;
    ev_started_reg    <= ev_started_next;
    ev_retired_reg    <= ev_retired_next;
    ev_timeout_reg    <= ev_timeout_next;
    ev_reuse_reg      <= ev_reuse_next;

    if (rst) begin
        outstanding_reg <= {(TAG_WIDTH+1){1'b0}};

        ev_first_reg      <= {SEG_COUNT{1'b0}};
        ev_last_reg       <= {SEG_COUNT{1'b0}};
        ev_ur_reg         <= {SEG_COUNT{1'b0}};
        ev_ca_reg         <= {SEG_COUNT{1'b0}};
        ev_other_reg      <= {SEG_COUNT{1'b0}};
        ev_unexpected_reg <= {SEG_COUNT{1'b0}};
        ev_mismatch_reg   <= {SEG_COUNT{1'b0}};
        ev_started_reg    <= {EV_WIDTH{1'b0}};
        ev_retired_reg    <= {EV_WIDTH{1'b0}};
        ev_timeout_reg    <= 1'b0;
        ev_reuse_reg      <= {EV_WIDTH{1'b0}};
    end
end

endmodule

`resetall
