`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One extreme statistic: the running minimum (TAKE_MAX = 0) or maximum (TAKE_MAX = 1)
 * of the samples taken on clocks where 'sample_en' is set.
 *
 * The empty value is all ones for a minimum and zero for a maximum. As in
 * probe_counter, snap_value is the value including this clock's sample (what a snapshot
 * on this clock keeps: the shadow is the caller's) and 'clear' empties the running value
 * after this clock.
 */
module probe_extreme #
(
    // value width in bits
    parameter WIDTH = 16,
    // 1: maximum, 0: minimum
    parameter TAKE_MAX = 1
)
(
    input  wire             clk,
    input  wire             rst,

    input  wire             sample_en,
    input  wire [WIDTH-1:0] sample,
    input  wire             clear,

    output wire [WIDTH-1:0] snap_value
);

localparam [WIDTH-1:0] EMPTY = TAKE_MAX ? {WIDTH{1'b0}} : {WIDTH{1'b1}};

reg [WIDTH-1:0] value_reg = EMPTY;

// (continuous, so that every simulator has it from time 0, whatever its inputs do)
assign snap_value = (sample_en && (TAKE_MAX ? (sample > value_reg) : (sample < value_reg))) ? sample : value_reg;

// the clocked block takes the updated value itself (no next-state variable for a Verilated
// model to store and load again on every clock)
always @(posedge clk) begin
    if (clear || rst) begin
        value_reg <= EMPTY;
    end else begin
        value_reg <= snap_value;
    end
end

endmodule

`resetall
