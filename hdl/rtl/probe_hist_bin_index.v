`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The bin of one latency in a log-spaced histogram (spec/registers.json latencyHistogram), with
 * S = 2**SUB_BINS_LOG2 sub-bins per octave and F = 2**FIRST_EDGE_LOG2 clocks (F >= S):
 *   bins 0..S-1 split [0, F) into S bins of F/S clocks;
 *   octave j >= 0, [F*2**j, F*2**(j+1)), is bins S*(j+1) .. S*(j+1)+S-1, each F*2**j/S clocks;
 *   every latency from the lower edge of bin BINS up lands in bin BINS (overflow).
 * With the latency scaled by F/S (v), a bin below 2S is v itself, and above it the position of
 * v's leading one picks the octave and the S-1 bits after it the sub-bin: a leading-one detector
 * and a multiplexer, no arithmetic. Combinational: probe_latency_hist registers the result.
 */
module probe_hist_bin_index #
(
    // latency width in bits
    parameter AGE_WIDTH = 18,
    // bins before the overflow bin
    parameter BINS = 88,
    // bin index width (holds BINS)
    parameter IDX_WIDTH = 7,
    // log2 of the sub-bins per octave, and of the first octave's lower edge in clocks
    parameter SUB_BINS_LOG2 = 3,
    parameter FIRST_EDGE_LOG2 = 3
)
(
    input  wire [AGE_WIDTH-1:0] latency,
    output wire [IDX_WIDTH-1:0] bin
);

localparam SB = SUB_BINS_LOG2;
localparam SHIFT = FIRST_EDGE_LOG2 - SUB_BINS_LOG2;
// width of the scaled latency
localparam VW = AGE_WIDTH - SHIFT;

// the lower edge of bin k in clocks (saturating past 2**40: no latency gets there)
function [63:0] edge_of(input integer k);
    integer j;
    reg [63:0] k64, s64;
    begin
        k64 = {32'd0, k};
        s64 = 64'd1 << SB;
        if (k64 < s64) begin
            edge_of = (64'd1 << SHIFT) * k64;
        end else begin
            j = k / (1 << SB) - 1;
            if (FIRST_EDGE_LOG2 + j > 40) edge_of = 64'd1 << 48;
            else edge_of = ((64'd1 << (FIRST_EDGE_LOG2 + j)) >> SB) * (k64 % s64 + s64);
        end
    end
endfunction

localparam [63:0] OVERFLOW_EDGE = edge_of(BINS);
localparam [31:0] BINS_32 = BINS;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (SUB_BINS_LOG2 < 1 || FIRST_EDGE_LOG2 < SUB_BINS_LOG2 || AGE_WIDTH < FIRST_EDGE_LOG2 + 2 || BINS < 2 * (1 << SB) || BINS >= (1 << IDX_WIDTH)) begin : g_check_layout
        probe_hist_bin_index_needs_FIRST_EDGE_LOG2_ge_SUB_BINS_LOG2_ge_1_and_BINS_from_2S_below_2_pow_IDX_WIDTH unsupported_parameter ();
    end
endgenerate

// the latency in units of F/S clocks (bits below are the same bin)
wire [VW-1:0] v = latency[AGE_WIDTH-1:SHIFT];

generate
    if (SHIFT > 0) begin : g_unused_low
        wire unused_low = &{1'b0, latency[SHIFT-1:0], 1'b0};
    end
endgenerate

// the leading one of v: its position e > SB names the octave, whose first bin is (e - SB + 1) * S,
// and the SB bits after it the sub-bin (an octave past IDX_WIDTH bits is all overflow, caught by
// the compare below). The loop climbs, so the highest one set writes last; no "seen" chain, which
// a simulator would otherwise carry through every bit.
reg [IDX_WIDTH-1:0] octave_bin;
reg [31:0]          octave;
integer e;

always @* begin
    octave_bin = {IDX_WIDTH{1'b0}};
    octave = 32'd0;
    for (e = SB + 1; e < VW; e = e + 1) begin
        octave = e - SB + 1;
        if (v[e]) octave_bin = {octave[IDX_WIDTH-SB-1:0], v[e-1 -: SB]};
    end
end
wire seen = |v[VW-1:SB+1];

// only the octave's low bits reach the bin
wire unused_octave = &{1'b0, octave[31:IDX_WIDTH-SB], 1'b0};

wire overflow = {{(64-AGE_WIDTH){1'b0}}, latency} >= OVERFLOW_EDGE;
wire linear   = !seen;

assign bin = overflow ? BINS_32[IDX_WIDTH-1:0] :
             linear   ? {{(IDX_WIDTH-SB-1){1'b0}}, v[SB:0]} : octave_bin;

endmodule

`resetall
