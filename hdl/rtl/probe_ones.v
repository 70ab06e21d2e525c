`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The ones of a vector (a clock's events counted), as half adders: Boolean logic, so synthesis
 * maps a count of a few bits into a LUT per result bit, not a chain of carry adders.
 * Combinational. probe_counters and probe_tracker_table count their events with it.
 */
module probe_ones #
(
    // bits counted
    parameter IN_WIDTH = 2,
    // count width in bits (holds IN_WIDTH; wider counts are zero-extended)
    parameter OUT_WIDTH = 2
)
(
    input  wire [IN_WIDTH-1:0]  v,
    output wire [OUT_WIDTH-1:0] count
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (IN_WIDTH < 1 || (1 << OUT_WIDTH) <= IN_WIDTH) begin : g_check_params
        probe_ones_OUT_WIDTH_must_hold_IN_WIDTH unsupported_parameter ();
    end
endgenerate

// (a function behind a continuous assign: an always @* would leave the count unknown in Icarus
// until its input first changes)
function [OUT_WIDTH-1:0] ones_of(input [IN_WIDTH-1:0] bits);
    integer b, c;
    reg carry;
    begin
        ones_of = {OUT_WIDTH{1'b0}};
        for (b = 0; b < IN_WIDTH; b = b + 1) begin
            carry = bits[b];
            for (c = 0; c < OUT_WIDTH; c = c + 1) begin
                {carry, ones_of[c]} = {ones_of[c] & carry, ones_of[c] ^ carry};
            end
        end
    end
endfunction

assign count = ones_of(v);

endmodule

`resetall
