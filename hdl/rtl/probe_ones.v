`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The ones of a vector (a clock's events counted), as half adders: Boolean logic, so synthesis
 * maps a count of a few bits into a LUT per result bit, not a chain of carry adders.
 * Combinational. probe_counters and probe_tracker_table count their events with it, probe_trace
 * its kept records.
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
    // (names of their own: Verilator 5.006 reports a loop variable named like a genvar of the
    // instantiating module as hiding it)
    integer ones_bit, ones_sum;
    reg carry;
    begin
        ones_of = {OUT_WIDTH{1'b0}};
        for (ones_bit = 0; ones_bit < IN_WIDTH; ones_bit = ones_bit + 1) begin
            carry = bits[ones_bit];
            for (ones_sum = 0; ones_sum < OUT_WIDTH; ones_sum = ones_sum + 1) begin
                {carry, ones_of[ones_sum]} = {ones_of[ones_sum] & carry, ones_of[ones_sum] ^ carry};
            end
        end
    end
endfunction

assign count = ones_of(v);

endmodule

`resetall
