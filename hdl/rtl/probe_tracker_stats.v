`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Statistics of probe_tracker: turns one clock of table events into counters, extremes
 * and the first- and last-completion latency histograms, each with a shadow. The shadows of
 * the counters, extremes and OUTSTANDING are one register bus (stat_shadow, in the order of
 * the STAT_* localparams below), each slot written on a snapshot only, so the CSR reads it in
 * place and a Verilated model copies nothing on the clocks between; the histograms' shadows
 * are bins in LUT RAM (probe_hist_bank), read one at a time (hist_rd_idx) or, by benches,
 * all at once (hist_shadow).
 *
 * Events count only while 'enable'; 'clear' empties every statistic but OUTSTANDING (the
 * live count of the table, which no clear may change); 'snapshot' copies all of them,
 * this clock's events included. Several completions per clock add their counts and
 * latency sums, and the extremes take the smallest / largest of them.
 *
 * One register stage first (stage R): the clock's events, their per-clock sums and extremes,
 * OUTSTANDING and the controls are registered together, so the statistics' adds and compares
 * start from flip-flops and every shadow moves one clock after the events that feed it (the
 * same clock for all of them, histograms included).
 *
 * Widths on the bus: counters and sums CNT_WIDTH, latency extremes AGE_WIDTH and
 * OUTSTANDING / PEAK TAG_WIDTH+1, zero-extended; an empty minimum reads all ones.
 */
module probe_tracker_stats #
(
    // TLP segments per beat
    parameter SEG_COUNT = 1,
    // tag bits (the table holds up to 2**TAG_WIDTH reads)
    parameter TAG_WIDTH = 8,
    // latency width in bits
    parameter AGE_WIDTH = 18,
    // width of the per-clock event counts
    parameter EV_WIDTH = 2,
    // statistic width in bits
    parameter CNT_WIDTH = 64,
    // histogram bins (plus one overflow bin), log2 of the sub-bins per octave and of the first
    // octave's lower edge in clocks (probe_hist_bin_index), per histogram
    parameter LAT_BINS = 88,
    parameter LAT_SUB_BINS_LOG2 = 3,
    parameter LAT_FIRST_EDGE_LOG2 = 3
)
(
    input  wire                           clk,
    input  wire                           rst,

    input  wire                           enable,
    input  wire                           clear,
    input  wire                           snapshot,

    /*
     * One clock of table events (probe_tracker_table)
     */
    input  wire [SEG_COUNT-1:0]           ev_first,
    input  wire [SEG_COUNT-1:0]           ev_last,
    input  wire [SEG_COUNT*AGE_WIDTH-1:0] ev_latency,
    input  wire [SEG_COUNT-1:0]           ev_ur,
    input  wire [SEG_COUNT-1:0]           ev_ca,
    input  wire [SEG_COUNT-1:0]           ev_other,
    input  wire [SEG_COUNT-1:0]           ev_unexpected,
    input  wire [SEG_COUNT-1:0]           ev_mismatch,
    input  wire [EV_WIDTH-1:0]            ev_started,
    input  wire [EV_WIDTH-1:0]            ev_retired,
    input  wire                           ev_timeout,
    input  wire [EV_WIDTH-1:0]            ev_reuse,
    input  wire [TAG_WIDTH:0]             outstanding,

    output wire [`PS_CNT_TRACKER_COUNT*CNT_WIDTH-1:0] stat_shadow,
    // every histogram's bins: kind h, bin k at [(h*(LAT_BINS+1) + k)*CNT_WIDTH +: CNT_WIDTH]
    // (for benches: a design reads hist_rd_words; unread, this bus is optimised away)
    output wire [`PS_HIST_KINDS*(LAT_BINS+1)*CNT_WIDTH-1:0] hist_shadow,
    // every histogram's shadow of bin hist_rd_idx (probe_latency_hist rd_idx / rd_word), the
    // histogram of kind k (PS_HIST_LAST, PS_HIST_FIRST) at [k*CNT_WIDTH +: CNT_WIDTH]
    input  wire [$clog2(LAT_BINS+1)-1:0]          hist_rd_idx,
    output wire [`PS_HIST_KINDS*CNT_WIDTH-1:0]    hist_rd_words
);

// Statistic order on stat_shadow: statistic i at [i*CNT_WIDTH +: CNT_WIDTH]; the order of the
// tracker's counters in spec/registers.json (counter PS_CNT_TRACKER_FIRST + i is statistic i), so
// the CSR block exposes statistics 0..PS_CNT_TRACKER_COUNT-1 as counters without a mapping
localparam STAT_OUTSTANDING = `PS_CNT_OUTSTANDING - `PS_CNT_TRACKER_FIRST;   // reads outstanding at the snapshot (a gauge: no enable, no clear)
localparam STAT_PEAK        = `PS_CNT_OUTSTANDING_PEAK - `PS_CNT_TRACKER_FIRST;   // most reads outstanding at the end of an enabled clock
localparam STAT_OCC_SUM     = `PS_CNT_OUTSTANDING_SUM - `PS_CNT_TRACKER_FIRST;   // sum over enabled clocks of the reads outstanding at their end
localparam STAT_CYCLES      = `PS_CNT_TRACKER_CYCLES - `PS_CNT_TRACKER_FIRST;   // enabled clocks (average outstanding = OCC_SUM / CYCLES)
localparam STAT_STARTED     = `PS_CNT_READS_STARTED - `PS_CNT_TRACKER_FIRST;   // reads started (MRd, MRdLk)
localparam STAT_RETIRED     = `PS_CNT_READS_RETIRED - `PS_CNT_TRACKER_FIRST;   // reads retired, every cause
localparam STAT_FIRST_MIN   = `PS_CNT_LAT_FIRST_MIN - `PS_CNT_TRACKER_FIRST;   // first-completion latency in clocks: min (all ones while none)
localparam STAT_FIRST_MAX   = `PS_CNT_LAT_FIRST_MAX - `PS_CNT_TRACKER_FIRST;   //   max
localparam STAT_FIRST_SUM   = `PS_CNT_LAT_FIRST_SUM - `PS_CNT_TRACKER_FIRST;   //   sum
localparam STAT_FIRST_COUNT = `PS_CNT_LAT_FIRST_COUNT - `PS_CNT_TRACKER_FIRST;   //   reads that had a first successful completion
localparam STAT_LAST_MIN    = `PS_CNT_LAT_LAST_MIN - `PS_CNT_TRACKER_FIRST;  // last-completion latency in clocks: min (all ones while none)
localparam STAT_LAST_MAX    = `PS_CNT_LAT_LAST_MAX - `PS_CNT_TRACKER_FIRST;  //   max
localparam STAT_LAST_SUM    = `PS_CNT_LAT_LAST_SUM - `PS_CNT_TRACKER_FIRST;  //   sum
localparam STAT_LAST_COUNT  = `PS_CNT_LAT_LAST_COUNT - `PS_CNT_TRACKER_FIRST;  //   reads completed successfully
localparam STAT_CPL_UR      = `PS_CNT_CPL_UR - `PS_CNT_TRACKER_FIRST;  // reads ended by a completion with status UR
localparam STAT_CPL_CA      = `PS_CNT_CPL_CA - `PS_CNT_TRACKER_FIRST;  // reads ended by a completion with status CA
localparam STAT_CPL_OTHER   = `PS_CNT_CPL_OTHER_STATUS - `PS_CNT_TRACKER_FIRST;  // reads ended by another non-SC status (CRS, reserved)
localparam STAT_UNEXPECTED  = `PS_CNT_CPL_UNEXPECTED - `PS_CNT_TRACKER_FIRST;  // completions that match no outstanding read
localparam STAT_MISMATCH    = `PS_CNT_CPL_MISMATCH - `PS_CNT_TRACKER_FIRST;  // completions whose Byte Count is not the bytes still expected
localparam STAT_TIMEOUT     = `PS_CNT_READ_TIMEOUTS - `PS_CNT_TRACKER_FIRST;  // reads retired by the timeout scan
localparam STAT_TAG_REUSE   = `PS_CNT_TAG_REUSE - `PS_CNT_TRACKER_FIRST;  // reads started on a tag still outstanding (the older one retires)
localparam HIST_WORDS       = LAT_BINS + 1;
localparam STAT_HIST_FIRST  = `PS_CNT_TRACKER_COUNT;  // statistics before the histograms (hist_shadow: kind h, bin k at h*HIST_WORDS + k, overflow at + LAT_BINS)

// The 21 statistics above are distinct tracker counters of the spec (their indices come from
// it); a tracker counter added to the spec without a statistic here would read 0 forever: stop
// elaboration (and lint) by naming a module that does not exist.
localparam STATS_WIRED = 21;
generate
    if (`PS_CNT_TRACKER_COUNT != STATS_WIRED) begin : g_unwired
        spec_tracker_counter_without_statistic_in_probe_tracker_stats unwired_statistic_error ();
    end
    // the same for a histogram kind: this module feeds PS_HIST_LAST and PS_HIST_FIRST only
    if (`PS_HIST_KINDS != 2) begin : g_unwired_hist
        spec_histogram_kind_without_events_in_probe_tracker_stats unwired_histogram_error ();
    end
endgenerate

// the widest per-clock increment: a latency sum over the segments
localparam INC_WIDTH = AGE_WIDTH + $clog2(SEG_COUNT + 1);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (CNT_WIDTH <= INC_WIDTH || CNT_WIDTH > 64) begin : g_check_cnt_width
        probe_tracker_stats_CNT_WIDTH_must_exceed_INC_WIDTH_up_to_64 unsupported_parameter ();
    end
    if (TAG_WIDTH + 1 < EV_WIDTH || AGE_WIDTH > 32) begin : g_check_ev_width
        probe_tracker_stats_EV_WIDTH_must_be_at_most_TAG_WIDTH_plus_1_and_AGE_WIDTH_32 unsupported_parameter ();
    end
endgenerate

// per-clock sums over the segments
reg [INC_WIDTH-1:0] first_count, first_sum, last_count, last_sum;
reg [INC_WIDTH-1:0] ur_count, ca_count, other_count, unexpected_count, mismatch_count;
reg [AGE_WIDTH-1:0] first_min, first_max, last_min, last_max;
reg [AGE_WIDTH-1:0] latency;
integer s, w;

// the extremes of a clock's latencies as a tree of pairs (depth log2 of the segments, not a
// chain of one compare per segment): the segments padded to a power of two, an absent or
// masked latency the empty value
localparam SEG_POW2 = SEG_COUNT <= 1 ? 1 : SEG_COUNT <= 2 ? 2 : SEG_COUNT <= 4 ? 4 : 8;
localparam [AGE_WIDTH-1:0] AGE_ONES = {AGE_WIDTH{1'b1}};
reg [SEG_POW2-1:0]           first_p, last_p;
reg [SEG_POW2*AGE_WIDTH-1:0] latency_p, first_min_t, first_max_t, last_min_t, last_max_t;

function [AGE_WIDTH-1:0] smaller(input [AGE_WIDTH-1:0] a, input [AGE_WIDTH-1:0] b);
    smaller = (b < a) ? b : a;
endfunction

function [AGE_WIDTH-1:0] larger(input [AGE_WIDTH-1:0] a, input [AGE_WIDTH-1:0] b);
    larger = (b > a) ? b : a;
endfunction

always @* begin
    first_p = {SEG_POW2{1'b0}};
    last_p  = {SEG_POW2{1'b0}};
    latency_p = {SEG_POW2*AGE_WIDTH{1'b0}};
    first_p[SEG_COUNT-1:0] = ev_first;
    last_p[SEG_COUNT-1:0]  = ev_last;
    latency_p[SEG_COUNT*AGE_WIDTH-1:0] = ev_latency;
    for (s = 0; s < SEG_POW2; s = s + 1) begin
        first_min_t[s*AGE_WIDTH +: AGE_WIDTH] = first_p[s] ? latency_p[s*AGE_WIDTH +: AGE_WIDTH] : AGE_ONES;
        first_max_t[s*AGE_WIDTH +: AGE_WIDTH] = first_p[s] ? latency_p[s*AGE_WIDTH +: AGE_WIDTH] : {AGE_WIDTH{1'b0}};
        last_min_t[s*AGE_WIDTH +: AGE_WIDTH]  = last_p[s] ? latency_p[s*AGE_WIDTH +: AGE_WIDTH] : AGE_ONES;
        last_max_t[s*AGE_WIDTH +: AGE_WIDTH]  = last_p[s] ? latency_p[s*AGE_WIDTH +: AGE_WIDTH] : {AGE_WIDTH{1'b0}};
    end
    for (w = SEG_POW2 / 2; w > 0; w = w / 2) begin
        for (s = 0; s < w; s = s + 1) begin
            first_min_t[s*AGE_WIDTH +: AGE_WIDTH] = smaller(first_min_t[s*AGE_WIDTH +: AGE_WIDTH], first_min_t[(s+w)*AGE_WIDTH +: AGE_WIDTH]);
            first_max_t[s*AGE_WIDTH +: AGE_WIDTH] = larger(first_max_t[s*AGE_WIDTH +: AGE_WIDTH], first_max_t[(s+w)*AGE_WIDTH +: AGE_WIDTH]);
            last_min_t[s*AGE_WIDTH +: AGE_WIDTH]  = smaller(last_min_t[s*AGE_WIDTH +: AGE_WIDTH], last_min_t[(s+w)*AGE_WIDTH +: AGE_WIDTH]);
            last_max_t[s*AGE_WIDTH +: AGE_WIDTH]  = larger(last_max_t[s*AGE_WIDTH +: AGE_WIDTH], last_max_t[(s+w)*AGE_WIDTH +: AGE_WIDTH]);
        end
    end
    first_min = first_min_t[AGE_WIDTH-1:0];
    first_max = first_max_t[AGE_WIDTH-1:0];
    last_min  = last_min_t[AGE_WIDTH-1:0];
    last_max  = last_max_t[AGE_WIDTH-1:0];
end

// widen a per-clock count to the increment width
function [INC_WIDTH-1:0] widen_ev(input [EV_WIDTH-1:0] value);
    widen_ev = {{(INC_WIDTH-EV_WIDTH){1'b0}}, value};
endfunction

function [INC_WIDTH-1:0] widen_bit(input value);
    widen_bit = {{(INC_WIDTH-1){1'b0}}, value};
endfunction

always @* begin
    first_count      = {INC_WIDTH{1'b0}};
    first_sum        = {INC_WIDTH{1'b0}};
    last_count       = {INC_WIDTH{1'b0}};
    last_sum         = {INC_WIDTH{1'b0}};
    ur_count         = {INC_WIDTH{1'b0}};
    ca_count         = {INC_WIDTH{1'b0}};
    other_count      = {INC_WIDTH{1'b0}};
    unexpected_count = {INC_WIDTH{1'b0}};
    mismatch_count   = {INC_WIDTH{1'b0}};
    latency          = {AGE_WIDTH{1'b0}};

    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        latency = ev_latency[s*AGE_WIDTH +: AGE_WIDTH];

        if (ev_first[s]) begin
            first_count = first_count + widen_bit(1'b1);
            first_sum   = first_sum + {{(INC_WIDTH-AGE_WIDTH){1'b0}}, latency};
        end

        if (ev_last[s]) begin
            last_count = last_count + widen_bit(1'b1);
            last_sum   = last_sum + {{(INC_WIDTH-AGE_WIDTH){1'b0}}, latency};
        end

        ur_count         = ur_count + widen_bit(ev_ur[s]);
        ca_count         = ca_count + widen_bit(ev_ca[s]);
        other_count      = other_count + widen_bit(ev_other[s]);
        unexpected_count = unexpected_count + widen_bit(ev_unexpected[s]);
        mismatch_count   = mismatch_count + widen_bit(ev_mismatch[s]);
    end

end

/*
 * Stage R: the clock's reductions, its events for the histograms, OUTSTANDING and the controls
 */
reg                 r_enable_reg = 1'b0, r_clear_reg = 1'b0, r_snapshot_reg = 1'b0;
reg [INC_WIDTH-1:0] r_first_count_reg = {INC_WIDTH{1'b0}}, r_first_sum_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] r_last_count_reg = {INC_WIDTH{1'b0}}, r_last_sum_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] r_ur_reg = {INC_WIDTH{1'b0}}, r_ca_reg = {INC_WIDTH{1'b0}}, r_other_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] r_unexpected_reg = {INC_WIDTH{1'b0}}, r_mismatch_reg = {INC_WIDTH{1'b0}};
reg [AGE_WIDTH-1:0] r_first_min_reg = {AGE_WIDTH{1'b1}}, r_first_max_reg = {AGE_WIDTH{1'b0}};
reg [AGE_WIDTH-1:0] r_last_min_reg = {AGE_WIDTH{1'b1}}, r_last_max_reg = {AGE_WIDTH{1'b0}};
reg                 r_first_any_reg = 1'b0, r_last_any_reg = 1'b0;
reg [EV_WIDTH-1:0]  r_started_reg = {EV_WIDTH{1'b0}}, r_retired_reg = {EV_WIDTH{1'b0}}, r_reuse_reg = {EV_WIDTH{1'b0}};
reg                 r_timeout_reg = 1'b0;
reg [TAG_WIDTH:0]   r_outstanding_reg = {(TAG_WIDTH+1){1'b0}};
reg [SEG_COUNT-1:0] r_first_reg = {SEG_COUNT{1'b0}}, r_last_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT*AGE_WIDTH-1:0] r_latency_reg = {SEG_COUNT*AGE_WIDTH{1'b0}};

always @(posedge clk) begin
    r_enable_reg      <= enable;
    r_clear_reg       <= clear;
    r_snapshot_reg    <= snapshot;
    r_first_count_reg <= first_count;
    r_first_sum_reg   <= first_sum;
    r_last_count_reg  <= last_count;
    r_last_sum_reg    <= last_sum;
    r_ur_reg          <= ur_count;
    r_ca_reg          <= ca_count;
    r_other_reg       <= other_count;
    r_unexpected_reg  <= unexpected_count;
    r_mismatch_reg    <= mismatch_count;
    r_first_min_reg   <= first_min;
    r_first_max_reg   <= first_max;
    r_last_min_reg    <= last_min;
    r_last_max_reg    <= last_max;
    r_first_any_reg   <= ev_first != {SEG_COUNT{1'b0}};
    r_last_any_reg    <= ev_last != {SEG_COUNT{1'b0}};
    r_started_reg     <= ev_started;
    r_retired_reg     <= ev_retired;
    r_reuse_reg       <= ev_reuse;
    r_timeout_reg     <= ev_timeout;
    r_outstanding_reg <= outstanding;
    r_first_reg       <= ev_first;
    r_last_reg        <= ev_last;
    r_latency_reg     <= ev_latency;
    if (rst) begin
        r_enable_reg      <= 1'b0;
        r_clear_reg       <= 1'b0;
        r_snapshot_reg    <= 1'b0;
        r_outstanding_reg <= {(TAG_WIDTH+1){1'b0}};
    end
end

/*
 * The shadows: statistic i's slot of shadow_reg takes its value including this clock's events
 * (snap_value) on a snapshot. OUTSTANDING is the live count; an empty minimum (all ones: no
 * latency reaches it) reads all ones at full width.
 */
localparam [CNT_WIDTH-1:0] ONES = {CNT_WIDTH{1'b1}};
localparam [STAT_HIST_FIRST*CNT_WIDTH-1:0] SHADOW_EMPTY =
    ({{((STAT_HIST_FIRST-1)*CNT_WIDTH){1'b0}}, ONES} << (STAT_FIRST_MIN*CNT_WIDTH)) |
    ({{((STAT_HIST_FIRST-1)*CNT_WIDTH){1'b0}}, ONES} << (STAT_LAST_MIN*CNT_WIDTH));

reg [STAT_HIST_FIRST*CNT_WIDTH-1:0] shadow_reg = SHADOW_EMPTY;

assign stat_shadow = shadow_reg;

wire [TAG_WIDTH:0]   peak_value;
wire [AGE_WIDTH-1:0] first_min_value, first_max_value, last_min_value, last_max_value;

always @(posedge clk) begin
    if (r_snapshot_reg) begin
        shadow_reg[STAT_OUTSTANDING*CNT_WIDTH +: CNT_WIDTH] <= {{(CNT_WIDTH-TAG_WIDTH-1){1'b0}}, r_outstanding_reg};
        shadow_reg[STAT_PEAK*CNT_WIDTH      +: CNT_WIDTH] <= {{(CNT_WIDTH-TAG_WIDTH-1){1'b0}}, peak_value};
        shadow_reg[STAT_FIRST_MIN*CNT_WIDTH +: CNT_WIDTH] <= {{(CNT_WIDTH-AGE_WIDTH){&first_min_value}}, first_min_value};
        shadow_reg[STAT_FIRST_MAX*CNT_WIDTH +: CNT_WIDTH] <= {{(CNT_WIDTH-AGE_WIDTH){1'b0}}, first_max_value};
        shadow_reg[STAT_LAST_MIN*CNT_WIDTH  +: CNT_WIDTH] <= {{(CNT_WIDTH-AGE_WIDTH){&last_min_value}}, last_min_value};
        shadow_reg[STAT_LAST_MAX*CNT_WIDTH  +: CNT_WIDTH] <= {{(CNT_WIDTH-AGE_WIDTH){1'b0}}, last_max_value};
    end
    if (rst) begin
        shadow_reg[STAT_OUTSTANDING*CNT_WIDTH +: CNT_WIDTH] <= {CNT_WIDTH{1'b0}};
        shadow_reg[STAT_PEAK*CNT_WIDTH      +: CNT_WIDTH] <= {CNT_WIDTH{1'b0}};
        shadow_reg[STAT_FIRST_MIN*CNT_WIDTH +: CNT_WIDTH] <= {CNT_WIDTH{1'b1}};
        shadow_reg[STAT_FIRST_MAX*CNT_WIDTH +: CNT_WIDTH] <= {CNT_WIDTH{1'b0}};
        shadow_reg[STAT_LAST_MIN*CNT_WIDTH  +: CNT_WIDTH] <= {CNT_WIDTH{1'b1}};
        shadow_reg[STAT_LAST_MAX*CNT_WIDTH  +: CNT_WIDTH] <= {CNT_WIDTH{1'b0}};
    end
end

/*
 * Extremes: peak outstanding, latency min / max
 */
probe_extreme #(.WIDTH(TAG_WIDTH+1), .TAKE_MAX(1)) peak_inst (
    .clk(clk), .rst(rst), .sample_en(r_enable_reg), .sample(r_outstanding_reg),
    .clear(r_clear_reg), .snap_value(peak_value)
);

probe_extreme #(.WIDTH(AGE_WIDTH), .TAKE_MAX(0)) first_min_inst (
    .clk(clk), .rst(rst), .sample_en(r_enable_reg && r_first_any_reg), .sample(r_first_min_reg),
    .clear(r_clear_reg), .snap_value(first_min_value)
);

probe_extreme #(.WIDTH(AGE_WIDTH), .TAKE_MAX(1)) first_max_inst (
    .clk(clk), .rst(rst), .sample_en(r_enable_reg && r_first_any_reg), .sample(r_first_max_reg),
    .clear(r_clear_reg), .snap_value(first_max_value)
);

probe_extreme #(.WIDTH(AGE_WIDTH), .TAKE_MAX(0)) last_min_inst (
    .clk(clk), .rst(rst), .sample_en(r_enable_reg && r_last_any_reg), .sample(r_last_min_reg),
    .clear(r_clear_reg), .snap_value(last_min_value)
);

probe_extreme #(.WIDTH(AGE_WIDTH), .TAKE_MAX(1)) last_max_inst (
    .clk(clk), .rst(rst), .sample_en(r_enable_reg && r_last_any_reg), .sample(r_last_max_reg),
    .clear(r_clear_reg), .snap_value(last_max_value)
);

/*
 * Counters: everything else
 */
/*
 * Histograms: one probe_latency_hist per kind, bins written by index, not one adder per bin;
 * the first-completion one takes the same latencies on the ev_first strobes
 */
wire [`PS_HIST_KINDS*SEG_COUNT-1:0] hist_events;
assign hist_events[`PS_HIST_LAST*SEG_COUNT +: SEG_COUNT]  = r_last_reg;
assign hist_events[`PS_HIST_FIRST*SEG_COUNT +: SEG_COUNT] = r_first_reg;

genvar h;
generate
    for (h = 0; h < `PS_HIST_KINDS; h = h + 1) begin : g_hist
        probe_latency_hist #(
            .SEG_COUNT(SEG_COUNT),
            .AGE_WIDTH(AGE_WIDTH),
            .CNT_WIDTH(CNT_WIDTH),
            .LAT_BINS(LAT_BINS),
            .LAT_SUB_BINS_LOG2(LAT_SUB_BINS_LOG2),
            .LAT_FIRST_EDGE_LOG2(LAT_FIRST_EDGE_LOG2)
        )
        hist_inst (
            .clk(clk),
            .rst(rst),
            .enable(r_enable_reg),
            .clear(r_clear_reg),
            .snapshot(r_snapshot_reg),
            .ev_hit(hist_events[h*SEG_COUNT +: SEG_COUNT]),
            .ev_latency(r_latency_reg),
            .shadow(hist_shadow[h*HIST_WORDS*CNT_WIDTH +: HIST_WORDS*CNT_WIDTH]),
            .rd_idx(hist_rd_idx),
            .rd_word(hist_rd_words[h*CNT_WIDTH +: CNT_WIDTH])
        );
    end
endgenerate

genvar c;
generate
    for (c = 0; c < STAT_HIST_FIRST; c = c + 1) begin : g_cnt
        if (c != STAT_OUTSTANDING && c != STAT_PEAK && c != STAT_FIRST_MIN && c != STAT_FIRST_MAX &&
            c != STAT_LAST_MIN && c != STAT_LAST_MAX) begin : g_add
            wire [CNT_WIDTH-1:0] snap_value;

            // the statistic's increment, its own wire chosen at elaboration (one packed vector
            // of every increment would be zeroed, filled and sliced again by a Verilated model
            // on every clock)
            wire [INC_WIDTH-1:0] stat_inc;
            if (c == STAT_OCC_SUM) begin : g_occ_sum
                assign stat_inc = {{(INC_WIDTH-TAG_WIDTH-1){1'b0}}, r_outstanding_reg};
            end else if (c == STAT_CYCLES) begin : g_cycles
                assign stat_inc = widen_bit(1'b1);
            end else if (c == STAT_STARTED) begin : g_started
                assign stat_inc = widen_ev(r_started_reg);
            end else if (c == STAT_RETIRED) begin : g_retired
                assign stat_inc = widen_ev(r_retired_reg);
            end else if (c == STAT_FIRST_SUM) begin : g_first_sum
                assign stat_inc = r_first_sum_reg;
            end else if (c == STAT_FIRST_COUNT) begin : g_first_count
                assign stat_inc = r_first_count_reg;
            end else if (c == STAT_LAST_SUM) begin : g_last_sum
                assign stat_inc = r_last_sum_reg;
            end else if (c == STAT_LAST_COUNT) begin : g_last_count
                assign stat_inc = r_last_count_reg;
            end else if (c == STAT_CPL_UR) begin : g_ur
                assign stat_inc = r_ur_reg;
            end else if (c == STAT_CPL_CA) begin : g_ca
                assign stat_inc = r_ca_reg;
            end else if (c == STAT_CPL_OTHER) begin : g_other
                assign stat_inc = r_other_reg;
            end else if (c == STAT_UNEXPECTED) begin : g_unexpected
                assign stat_inc = r_unexpected_reg;
            end else if (c == STAT_MISMATCH) begin : g_mismatch
                assign stat_inc = r_mismatch_reg;
            end else if (c == STAT_TIMEOUT) begin : g_timeout
                assign stat_inc = widen_bit(r_timeout_reg);
            end else if (c == STAT_TAG_REUSE) begin : g_tag_reuse
                assign stat_inc = widen_ev(r_reuse_reg);
            end else begin : g_unwired
                assign stat_inc = {INC_WIDTH{1'b0}};
                spec_tracker_counter_without_statistic_in_probe_tracker_stats unwired_statistic_error ();
            end

            probe_counter #(
                .CNT_WIDTH(CNT_WIDTH),
                .INC_WIDTH(INC_WIDTH)
            )
            counter_inst (
                .clk(clk),
                .rst(rst),
                .count_en(r_enable_reg),
                .inc(stat_inc),
                .clear(r_clear_reg),
                .snap_value(snap_value)
            );

            always @(posedge clk) begin
                if (r_snapshot_reg) begin
                    shadow_reg[c*CNT_WIDTH +: CNT_WIDTH] <= snap_value;
                end
                if (rst) begin
                    shadow_reg[c*CNT_WIDTH +: CNT_WIDTH] <= {CNT_WIDTH{1'b0}};
                end
            end
        end
    end
endgenerate

endmodule

`resetall
