`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One probe counter: a running count that adds 'inc' on every clock where
 * 'count_en' is set.
 *
 * snap_value is the running value including this clock's increment: what a snapshot taken
 * on this clock keeps. The shadows live with the caller, one register bus per block
 * (probe_counters, probe_tracker_stats) written only on a snapshot, so a Verilated model
 * copies no shadow on the clocks between and the CSR reads the bus in place. 'clear' zeroes
 * the running value after this clock: a snapshot and a clear in one clock lose no event.
 */
module probe_counter #
(
    // counter width in bits
    parameter CNT_WIDTH = 64,
    // increment width in bits
    parameter INC_WIDTH = 16
)
(
    input  wire                 clk,
    input  wire                 rst,

    input  wire                 count_en,
    input  wire [INC_WIDTH-1:0] inc,
    input  wire                 clear,

    output wire [CNT_WIDTH-1:0] snap_value
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (INC_WIDTH < 1 || CNT_WIDTH <= INC_WIDTH) begin : g_check_cnt_width
        probe_counter_CNT_WIDTH_must_exceed_INC_WIDTH unsupported_parameter ();
    end
endgenerate

reg [CNT_WIDTH-1:0] count_reg = {CNT_WIDTH{1'b0}};

// (continuous, so that every simulator has it from time 0, whatever its inputs do)
assign snap_value = count_en ? count_reg + {{(CNT_WIDTH-INC_WIDTH){1'b0}}, inc} : count_reg;

// the clocked block takes the sum itself (no next-state variable for a Verilated model to store
// and load again on every clock)
always @(posedge clk) begin
    if (clear || rst) begin
        count_reg <= {CNT_WIDTH{1'b0}};
    end else begin
        count_reg <= snap_value;
    end
end

endmodule

`resetall
