`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Trace ring: 2**AW records of WIDTH bits in BANKS block-RAM banks, ring position p in bank
 * p mod BANKS at row p / BANKS, so BANKS consecutive records (one clock's, from the write
 * pointer) land in BANKS different banks: each bank takes one write a clock.
 *
 * Write: a clock's lanes 0..BANKS-1 (lane l for ring position wr_ptr + l, written when lane_we[l])
 * are rotated to their banks and registered, then written on the next clock.
 *
 * Read: one record by ring position. rd_load with rd_pos (its clock's value, from the register
 * write that names it) reads every bank's row at once; the record is on rd_rec from the next
 * clock on and stays until the next rd_load (writes to that row aside).
 */
module probe_trace_ring #
(
    parameter AW = 12,
    parameter BANKS = 4,
    parameter WIDTH = 179
)
(
    input  wire                   clk,

    input  wire [BANKS*WIDTH-1:0] lane_data,
    input  wire [BANKS-1:0]       lane_we,
    input  wire [AW-1:0]          wr_ptr,

    input  wire                   rd_load,
    input  wire [AW-1:0]          rd_pos,
    output wire [WIDTH-1:0]       rd_rec
);

localparam BW = $clog2(BANKS);
localparam RW = AW - BW;
localparam ROWS = 1 << RW;

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
wire [BANKS*WIDTH-1:0] bank_q;

always @(posedge clk) begin
    if (rd_load) begin
        rd_row_reg  <= rd_pos[AW-1:BW];
        rd_bank_reg <= rd_pos[BW-1:0];
    end
end

genvar b;
generate
    for (b = 0; b < BANKS; b = b + 1) begin : g_bank
        // the lane that lands in this bank, and its row: a lane that wrapped past the last bank
        // is on the next row
        wire [BW-1:0] lane = b[BW-1:0] - wr_bank;
        wire [BW:0]   lane_end = {1'b0, wr_bank} + {1'b0, lane};
        wire unused_lane_end = &{1'b0, lane_end[BW-1:0], 1'b0};
        reg             we_reg = 1'b0;
        reg  [RW-1:0]   row_reg = {RW{1'b0}};
        reg  [WIDTH-1:0] data_reg = {WIDTH{1'b0}};
        reg  [WIDTH-1:0] q_reg;
        reg  [WIDTH-1:0] mem [0:ROWS-1];

        always @(posedge clk) begin
            we_reg   <= lane_we[lane];
            row_reg  <= lane_end[BW] ? wr_row + 1'b1 : wr_row;
            data_reg <= lane_data[lane*WIDTH +: WIDTH];
        end

        always @(posedge clk) begin
            if (we_reg) begin
                mem[row_reg] <= data_reg;
            end
            q_reg <= mem[rd_row];
        end

        assign bank_q[b*WIDTH +: WIDTH] = q_reg;
    end
endgenerate

assign rd_rec = bank_q[rd_bank_reg*WIDTH +: WIDTH];

endmodule

`resetall
