`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The sums probe_tracker_table compares and subtracts for a clock's completions of one tag,
 * formed from the decoded completions a stage before the table (probe_tracker's stage A), so
 * the table starts from registered sums: a segment's bytes still expected are the word read less
 * the carried bytes of the earlier same-tag completions that hit with data, and which of them
 * did is known only in the table's clock, so every subset of the earlier segments is summed.
 *
 * For segment s and a subset m of the segments before it (bit j: segment j), at entry
 * k = 2**s - 1 + m:
 *   bc_sums[k]      = Byte Count of s + the carried bytes of m (equal to the word read when s's
 *                     Byte Count is the bytes still expected after m: no MISMATCH)
 *   carried_sums[k] = the carried bytes of s and of m (the word read less this is what s leaves)
 * Each at most SEG_COUNT x 4 096, in SUM_WIDTH bits. Combinational.
 */
module probe_tracker_sums #
(
    // TLP segments per beat
    parameter SEG_COUNT = 1,
    // sum width in bits (holds SEG_COUNT x 4 096)
    parameter SUM_WIDTH = 15
)
(
    // per segment: Byte Count (4 096 as 13'h1000) and the bytes the completion carries
    input  wire [SEG_COUNT*13-1:0]                      bc,
    input  wire [SEG_COUNT*13-1:0]                      carried,
    output reg  [((1 << SEG_COUNT) - 1)*SUM_WIDTH-1:0]  bc_sums,
    output reg  [((1 << SEG_COUNT) - 1)*SUM_WIDTH-1:0]  carried_sums
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (SEG_COUNT < 1 || SEG_COUNT > 4 || (1 << SUM_WIDTH) <= SEG_COUNT * 4096) begin : g_check_params
        probe_tracker_sums_SEG_COUNT_1_to_4_and_SUM_WIDTH_must_hold_SEG_COUNT_times_4096 unsupported_parameter ();
    end
endgenerate

// subsets of the segments before the last: each subset's sum is a smaller subset's plus one
// segment's carried bytes (one add per subset, shared by every later segment)
localparam SUBSETS = 1 << (SEG_COUNT - 1);

reg [SUBSETS*SUM_WIDTH-1:0] subset_sum;
integer m, j, s, top;

always @* begin
    subset_sum = {SUBSETS*SUM_WIDTH{1'b0}};
    for (m = 1; m < SUBSETS; m = m + 1) begin
        top = 0;
        for (j = 0; j < SEG_COUNT; j = j + 1) begin
            if (m >= (1 << j)) top = j;
        end
        subset_sum[m*SUM_WIDTH +: SUM_WIDTH] = subset_sum[(m - (1 << top))*SUM_WIDTH +: SUM_WIDTH] + {{(SUM_WIDTH-13){1'b0}}, carried[top*13 +: 13]};
    end
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        for (m = 0; m < (1 << s); m = m + 1) begin
            bc_sums[((1 << s) - 1 + m)*SUM_WIDTH +: SUM_WIDTH] = subset_sum[m*SUM_WIDTH +: SUM_WIDTH] + {{(SUM_WIDTH-13){1'b0}}, bc[s*13 +: 13]};
            carried_sums[((1 << s) - 1 + m)*SUM_WIDTH +: SUM_WIDTH] = subset_sum[m*SUM_WIDTH +: SUM_WIDTH] + {{(SUM_WIDTH-13){1'b0}}, carried[s*13 +: 13]};
        end
    end
end

endmodule

`resetall
