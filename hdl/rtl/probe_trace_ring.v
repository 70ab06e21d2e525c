`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Trace ring: 2**AW records in BANKS block-RAM banks, ring position p in bank p mod BANKS at row
 * p / BANKS, so BANKS consecutive records (one clock's, from the write pointer) land in BANKS
 * different banks: each bank takes one write a clock.
 *
 * A record is {stream, segment[1:0], clock[47:0], header[127:0]} (179 bits). Write, in two
 * clocks: the clock's slots (SLOTS = 2 * SEGS headers, the request stream's segments then the
 * completion stream's), the slot of each place in the clock (place_slot: place l is ring
 * position wr_ptr + l) and the clock; each bank takes the slot of its place straight from the
 * slots (one multiplexer a bank, no lanes in between) into a register, with its row. On the next
 * clock lane_we (by place: a run of ones from place 0, the control's) says which are written.
 *
 * Read: one record by ring position. rd_load with rd_pos (its clock's value, from the register
 * write that names it) reads every bank's row at once; the record is on rd_rec from the next
 * clock on and stays until the next rd_load (writes to that row aside).
 */
module probe_trace_ring #
(
    parameter AW = 12,
    parameter BANKS = 4,
    // TLP segments per beat: the slots are both streams' segments
    parameter SEGS = 1
)
(
    input  wire                   clk,

    input  wire [2*SEGS*128-1:0]  slot_hdr,
    input  wire [BANKS*3-1:0]     place_slot,
    input  wire [47:0]            ts,
    input  wire [AW-1:0]          wr_ptr,
    input  wire [BANKS-1:0]       lane_we,
    // lane_we's value on the next clock (the control's), for simulation only: a bank's record
    // register loads only when it will be written (synthesis loads it every clock)
    input  wire [BANKS-1:0]       lane_we_next,

    input  wire                   rd_load,
    input  wire [AW-1:0]          rd_pos,
    output wire [178:0]           rd_rec
);

localparam WIDTH = 179;
localparam BW = $clog2(BANKS);
localparam RW = AW - BW;
localparam ROWS = 1 << RW;
localparam SLOTS = 2 * SEGS;

// Work that nothing reads is skipped in simulation (a Verilated twin pays for every copy of a
// 179-bit record a clock); synthesis builds the plain form
`ifdef SYNTHESIS
localparam SIM_GATE = 1'b0;
`else
localparam SIM_GATE = 1'b1;
`endif

// Parameter checks at elaboration: a wrong value names a module that does not exist
generate
    if (BANKS < 2 || (1 << BW) != BANKS || AW <= BW) begin : g_check_banks
        probe_trace_ring_BANKS_must_be_a_power_of_two_below_the_depth unsupported_parameter ();
    end
endgenerate

wire [BW-1:0] wr_bank = wr_ptr[BW-1:0];
wire [RW-1:0] wr_row  = wr_ptr[AW-1:BW];

reg  [RW-1:0] rd_row_reg = {RW{1'b0}};
reg  [BW-1:0] rd_bank_reg = {BW{1'b0}};
wire [RW-1:0] rd_row = rd_load ? rd_pos[AW-1:BW] : rd_row_reg;
// each bank's read word, indexed as an array (one word copy to pick, not a shift of all banks')
wire [WIDTH-1:0] bank_q [0:BANKS-1];

always @(posedge clk) begin
    if (rd_load) begin
        rd_row_reg  <= rd_pos[AW-1:BW];
        rd_bank_reg <= rd_pos[BW-1:0];
    end
end

// a slot's stream (completions 1) and segment
localparam [31:0] SEG_MASK_32 = SEGS - 1;
localparam [1:0] SEG_MASK = SEG_MASK_32[1:0];
localparam [31:0] SEGS_32 = SEGS;
localparam [2:0] SEGS_3 = SEGS_32[2:0];

genvar b;
generate
    for (b = 0; b < BANKS; b = b + 1) begin : g_bank
        // this bank's place in the clock, and its row: a place that wrapped past the last bank
        // is on the next row
        wire [BW-1:0] place = b[BW-1:0] - wr_bank;
        wire [BW:0]   place_end = {1'b0, wr_bank} + {1'b0, place};
        wire unused_place_end = &{1'b0, place_end[BW-1:0], 1'b0};
        wire [2:0]    slot = place_slot[place*3 +: 3];
        wire [1:0]    slot_seg = slot[1:0] & SEG_MASK;
        wire [SLOTS*128-1:0] hdrs = slot_hdr;
        reg  [BW-1:0]   place_reg = {BW{1'b0}};
        reg  [RW-1:0]   row_reg = {RW{1'b0}};
        reg  [WIDTH-1:0] data_reg = {WIDTH{1'b0}};
        reg  [WIDTH-1:0] q_reg;
        reg  [WIDTH-1:0] mem [0:ROWS-1];

        always @(posedge clk) begin
            place_reg <= place;
            row_reg   <= place_end[BW] ? wr_row + 1'b1 : wr_row;
            if (!SIM_GATE || lane_we_next[place]) begin
                data_reg <= {slot >= SEGS_3, slot_seg, ts, hdrs[slot*128 +: 128]};
            end
        end

        always @(posedge clk) begin
            if (lane_we[place_reg]) begin
                mem[row_reg] <= data_reg;
            end
            q_reg <= mem[rd_row];
        end

        assign bank_q[b] = q_reg;
    end
endgenerate

assign rd_rec = bank_q[rd_bank_reg];

endmodule

`resetall
