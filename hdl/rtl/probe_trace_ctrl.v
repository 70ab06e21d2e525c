`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Trace control: the trace's state, the pre/post-trigger split, the ring's write pointer and the
 * lost-record count, one clock of records at a time.
 *
 * Each clock brings 'total' records that passed the filter (in ring order: requests in segment
 * order, then completions), of which the first 'lanes' (at most BANKS) can be stored; 'trig'
 * says the trigger's condition held, with 'hh' of the clock's stored records before the trigger
 * record (the first record at or after the TLP that fired it; 0 for a clock-wide event) and
 * 'rest' from it on, both registered by the caller. The clock's records go to the ring in order
 * from the write pointer (wr_ptr, this clock's): place l is stored when lane_we[l] is set a clock
 * later, and lane_we is always a run of ones from place 0.
 *
 * States: IDLE, ARMED (records wrap in the ring; the trigger is looked for), TRIGGERED (the
 * records from the trigger on fill what the kept pre-trigger records leave), STOPPED (by STOP or
 * when the ring is full: FULL). ARM and STOP act from the clock after their pulse: the pulse's
 * own clock of records is not stored. FORCE triggers an armed trace at record 0 of its clock.
 *
 * The split: at the trigger the ring keeps pre_kept = min(records stored before it, PRE) records
 * before the trigger record and takes DEPTH - pre_kept records from it on (PRE at most
 * DEPTH - 2 * BANKS, so that room always takes the trigger's own clock). Kept without wide
 * arithmetic on the trigger's clock: while armed, pre_have = min(stored, PRE), pre_room = PRE -
 * pre_have and post_base = DEPTH - pre_have follow every clock, and a clock adds at most BANKS
 * records, so the trigger's clock only takes a number below BANKS + 1 from them. The ring then
 * holds DEPTH - post_left records.
 *
 * Lost: records that passed the filter and were not stored, while armed or triggered (beyond
 * BANKS in a clock, or beyond the ring's room after the trigger) and from FULL until the next
 * ARM or STOP; saturates at 2**32 - 1. Added a clock late, and the places to write handed to the
 * ring a clock late (the ring registers the records on this clock by wr_ptr, a register), so
 * that neither the 33-bit sum nor the ring's banks follow this clock's decision.
 */
module probe_trace_ctrl #
(
    // ring address bits (depth 2**AW records)
    parameter AW = 12,
    // records stored per clock at most
    parameter BANKS = 4
)
(
    input  wire                         clk,
    input  wire                         rst,

    input  wire                         cmd_arm,
    input  wire                         cmd_force,
    input  wire                         cmd_stop,
    // records to keep before the trigger (clamped to 2**AW - 1 here)
    input  wire [31:0]                  pre,

    // this clock of records (at most 8: both streams' segments)
    input  wire [3:0]                   total,
    input  wire [$clog2(BANKS+1)-1:0]   lanes,
    input  wire                         trig,
    // the trigger record's place: the stored records before it (hh, at most lanes) and from it
    // on (rest = lanes - hh)
    input  wire [$clog2(BANKS+1)-1:0]   hh,
    input  wire [$clog2(BANKS+1)-1:0]   rest,
    input  wire [47:0]                  ts,

    // ring position of this clock's first record (a register: the ring takes the clock's
    // records to their banks by it on this clock)
    output wire [AW-1:0]                wr_ptr,
    // the places of that clock stored, a clock later
    output wire [BANKS-1:0]             lane_we,
    // lane_we's next value (this clock's)
    output wire [BANKS-1:0]             lane_we_next,
    // ring position of the oldest record held (wr_ptr - count, a clock late)
    output wire [AW-1:0]                first,

    output wire [1:0]                   state,
    output wire                         triggered,
    output wire                         full,
    output wire [AW:0]                  count,
    output wire [AW:0]                  trig_pos,
    output wire [47:0]                  trig_ts,
    output wire [31:0]                  lost
);

localparam [1:0] S_IDLE = 2'd0, S_ARMED = 2'd1, S_TRIGGERED = 2'd2, S_STOPPED = 2'd3;
localparam TW = 4;
localparam LW = $clog2(BANKS+1);
localparam [AW:0] DEPTH = {1'b1, {AW{1'b0}}};
// at most DEPTH - 2 * BANKS records before the trigger: the room after it then takes the
// trigger's whole clock, so the trigger's clock stores every lane as an armed clock does
localparam [AW:0] PRE_MAX = DEPTH - 2 * BANKS;
// small values (counts of one clock's records) widened
localparam SW = (TW > LW ? TW : LW) + 1;

// PRE clamped to PRE_MAX, registered (a setting)
reg [AW:0] pre_eff = {AW+1{1'b0}};
always @(posedge clk) begin
    pre_eff <= (pre > {{(31-AW){1'b0}}, PRE_MAX}) ? PRE_MAX : pre[AW:0];
end

reg        arm_q = 1'b0, force_q = 1'b0, stop_q = 1'b0;
reg [1:0]  state_reg = S_IDLE;
reg        triggered_reg = 1'b0;
reg        full_reg = 1'b0;
reg        lost_live_reg = 1'b0;
reg [AW-1:0] wr_ptr_reg = {AW{1'b0}};
reg [AW-1:0] first_reg = {AW{1'b0}};
reg [AW:0] fill_reg = {AW+1{1'b0}};
reg [AW:0] pre_have_reg = {AW+1{1'b0}};
reg [AW:0] pre_room_reg = {AW+1{1'b0}};
reg [AW:0] post_base_reg = DEPTH;
reg [AW:0] post_left_reg = {AW+1{1'b0}};
reg [AW:0] trig_pos_reg = {AW+1{1'b0}};
reg [47:0] trig_ts_reg = 48'd0;
reg [31:0] lost_reg = 32'd0;
// this clock's lost records, added to lost_reg on the next clock (TRC_LOST is a clock late)
reg [SW-1:0] lost_add_reg = {SW{1'b0}};
// the places to write, registered for the ring (which registered the records on this clock)
reg [BANKS-1:0] lane_we_reg = {BANKS{1'b0}};

wire [SW-1:0] total_w = {{(SW-TW){1'b0}}, total};
wire [SW-1:0] lanes_w = {{(SW-LW){1'b0}}, lanes};

// min(x, y) of a small count and a register, with the register's "at least 8" known apart
function [SW-1:0] min_small(input [SW-1:0] x, input big, input [2:0] y_low);
    begin
        if (big || x <= {{(SW-3){1'b0}}, y_low}) begin
            min_small = x;
        end else begin
            min_small = {{(SW-3){1'b0}}, y_low};
        end
    end
endfunction

wire armed = state_reg == S_ARMED;
wire fire  = armed && (force_q || trig);
// the trigger's record within the clock: the records of the clock before it (hh) and from it on
// (rest) are all stored, since the room after the trigger is at least 2 * BANKS (PRE_MAX);
// FORCE's is the clock's first record
wire [SW-1:0] hh_eff   = force_q ? {SW{1'b0}} : {{(SW-LW){1'b0}}, hh};
wire [SW-1:0] rest_eff = force_q ? lanes_w : {{(SW-LW){1'b0}}, rest};
// of hh, the ones the pre-trigger part keeps
wire [SW-1:0] m = min_small(hh_eff, |pre_room_reg[AW:3], pre_room_reg[2:0]);
// triggered: what still fits
wire [SW-1:0] post_store = min_small(lanes_w, |post_left_reg[AW:3], post_left_reg[2:0]);
// records of this clock stored
reg  [SW-1:0] n_store;
always @* begin
    n_store = {SW{1'b0}};
    if (!arm_q && !stop_q) begin
        if (armed) begin
            n_store = lanes_w;
        end else if (state_reg == S_TRIGGERED) begin
            n_store = post_store;
        end
    end
end
// while armed (no trigger): the stored records the pre-trigger part can still take
wire [SW-1:0] mm = min_small(lanes_w, |pre_room_reg[AW:3], pre_room_reg[2:0]);
wire [AW+1:0] fill_sum = {1'b0, fill_reg} + {{(AW+2-SW){1'b0}}, lanes_w};
// at the trigger: the room after it, post_base - m, less the clock's records from it on
wire [SW-1:0] trig_used = m + rest_eff;
wire [AW:0]   post_left_trig = post_base_reg - {{(AW+1-SW){1'b0}}, trig_used};
wire [AW:0]   post_left_next = post_left_reg - {{(AW+1-SW){1'b0}}, post_store};
wire          post_done = !(|post_left_reg[AW:3]) && (post_left_reg[2:0] == post_store[2:0]);
wire          recording = armed || state_reg == S_TRIGGERED;
wire [SW-1:0] lost_add = (!arm_q && !stop_q && (recording || lost_live_reg)) ? total_w - n_store : {SW{1'b0}};
wire [32:0]   lost_sum = {1'b0, lost_reg} + {{(33-SW){1'b0}}, lost_add_reg};

// records held: the fill until the trigger, then what the post-trigger part has not left over
wire [AW:0] count_now = triggered_reg ? DEPTH - post_left_reg : fill_reg;

wire [BANKS-1:0] we_now;
genvar l;
generate
    for (l = 0; l < BANKS; l = l + 1) begin : g_we
        assign we_now[l] = n_store > l;
    end
endgenerate

always @(posedge clk) begin
    arm_q   <= cmd_arm;
    force_q <= cmd_force;
    stop_q  <= cmd_stop;

    wr_ptr_reg   <= wr_ptr_reg + {{(AW-SW){1'b0}}, n_store};
    lane_we_reg  <= we_now;
    first_reg    <= wr_ptr_reg - count_now[AW-1:0];
    lost_add_reg <= lost_add;
    lost_reg     <= lost_sum[32] ? 32'hFFFF_FFFF : lost_sum[31:0];

    if (arm_q) begin
        state_reg     <= S_ARMED;
        triggered_reg <= 1'b0;
        full_reg      <= 1'b0;
        lost_live_reg <= 1'b0;
        fill_reg      <= {AW+1{1'b0}};
        pre_have_reg  <= {AW+1{1'b0}};
        pre_room_reg  <= pre_eff;
        post_base_reg <= DEPTH;
        lost_reg      <= 32'd0;
        lost_add_reg  <= {SW{1'b0}};
    end else if (stop_q) begin
        state_reg     <= (state_reg == S_IDLE) ? S_IDLE : S_STOPPED;
        lost_live_reg <= 1'b0;
    end else if (fire) begin
        triggered_reg <= 1'b1;
        trig_pos_reg  <= pre_have_reg + {{(AW+1-SW){1'b0}}, m};
        trig_ts_reg   <= ts;
        post_left_reg <= post_left_trig;
        state_reg     <= S_TRIGGERED;
    end else if (armed) begin
        fill_reg      <= fill_sum[AW+1] || fill_sum[AW] ? DEPTH : fill_sum[AW:0];
        pre_have_reg  <= pre_have_reg + {{(AW+1-SW){1'b0}}, mm};
        pre_room_reg  <= pre_room_reg - {{(AW+1-SW){1'b0}}, mm};
        post_base_reg <= post_base_reg - {{(AW+1-SW){1'b0}}, mm};
    end else if (state_reg == S_TRIGGERED) begin
        post_left_reg <= post_left_next;
        if (post_done) begin
            state_reg     <= S_STOPPED;
            full_reg      <= 1'b1;
            lost_live_reg <= 1'b1;
        end
    end

    if (rst) begin
        arm_q         <= 1'b0;
        force_q       <= 1'b0;
        stop_q        <= 1'b0;
        state_reg     <= S_IDLE;
        triggered_reg <= 1'b0;
        full_reg      <= 1'b0;
        lost_live_reg <= 1'b0;
        wr_ptr_reg    <= {AW{1'b0}};
        fill_reg      <= {AW+1{1'b0}};
        lost_reg      <= 32'd0;
        lost_add_reg  <= {SW{1'b0}};
        lane_we_reg   <= {BANKS{1'b0}};
    end
end

assign lane_we   = lane_we_reg;
assign lane_we_next = we_now;
assign wr_ptr    = wr_ptr_reg;
assign first     = first_reg;
assign state     = state_reg;
assign triggered = triggered_reg;
assign full      = full_reg;
assign count     = count_now;
assign trig_pos  = trig_pos_reg;
assign trig_ts   = trig_ts_reg;
assign lost      = lost_reg;

endmodule

`resetall
