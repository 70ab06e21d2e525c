`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A latency histogram of probe_tracker (one instance per kind: first and last completion):
 * LAT_BINS log-spaced bins plus an overflow bin, each CNT_WIDTH bits (the layout of
 * probe_hist_bin_index: 2**LAT_SUB_BINS_LOG2 sub-bins per octave from 2**LAT_FIRST_EDGE_LOG2
 * clocks, linear below), with probe_counter's rules: events count only while 'enable', 'clear'
 * empties every bin (this clock's events are lost, as in probe_counter), 'snapshot' freezes
 * every bin including this clock's events for the readers.
 *
 * The bin index (a leading-one detector and a multiplexer) is registered before the banks'
 * read-add-write, with the events, enable, clear and snapshot beside it: the histogram is the
 * same, one clock later (its shadows move the clock after the tracker's other shadows).
 *
 * One probe_hist_bank (bins in LUT RAM, the reader's copies in block RAM, a lazy snapshot) per
 * segment, each counting that segment's completions; a bin's value is the sum over the banks. Nothing updates per bin per
 * clock: a Verilated model pays per segment, not per bin, and synthesis builds one adder per
 * segment instead of one per bin.
 */
module probe_latency_hist #
(
    // TLP segments per beat: completions per clock
    parameter SEG_COUNT = 1,
    // latency width in bits
    parameter AGE_WIDTH = 18,
    // bin width in bits
    parameter CNT_WIDTH = 64,
    // bins (plus one overflow bin), log2 of the sub-bins per octave and of the first octave's
    // lower edge in clocks
    parameter LAT_BINS = 88,
    parameter LAT_SUB_BINS_LOG2 = 3,
    parameter LAT_FIRST_EDGE_LOG2 = 3
)
(
    input  wire                                 clk,
    input  wire                                 rst,

    input  wire                                 enable,
    input  wire                                 clear,
    input  wire                                 snapshot,

    // the completions this histogram counts this clock (a read's first, or its last), and
    // their latencies
    input  wire [SEG_COUNT-1:0]                 ev_hit,
    input  wire [SEG_COUNT*AGE_WIDTH-1:0]       ev_latency,

    // every bin's snapshot value, bin k at [k*CNT_WIDTH +: CNT_WIDTH], the overflow bin last (for
    // benches: it reads every bin of every bank, so a design reads rd_word instead, and unread it
    // is optimised away)
    output wire [(LAT_BINS+1)*CNT_WIDTH-1:0]    shadow,
    // the shadow of bin rd_idx (0 past the overflow bin), two clocks later: each bank's word is
    // registered (its block RAMs' read), then their sum (a 64-bit add: each a clock)
    input  wire [$clog2(LAT_BINS+1)-1:0]        rd_idx,
    output wire [CNT_WIDTH-1:0]                 rd_word
);

localparam WORDS = LAT_BINS + 1;
localparam IDX_WIDTH = $clog2(WORDS);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix (probe_hist_bin_index
// checks the layout)
generate
    if (AGE_WIDTH > 32 || AGE_WIDTH < IDX_WIDTH) begin : g_check_age_width
        probe_latency_hist_AGE_WIDTH_must_be_IDX_WIDTH_to_32 unsupported_parameter ();
    end
    if (CNT_WIDTH < 2 || CNT_WIDTH > 64) begin : g_check_cnt_width
        probe_latency_hist_CNT_WIDTH_must_be_2_to_64 unsupported_parameter ();
    end
endgenerate

// the bin of each segment's latency, segment s at [s*IDX_WIDTH +: IDX_WIDTH], and the same
// registered with the events (counted only while enabled) and the controls
wire [SEG_COUNT*IDX_WIDTH-1:0] seg_bin;
reg  [SEG_COUNT*IDX_WIDTH-1:0] bin_reg = {SEG_COUNT*IDX_WIDTH{1'b0}};
reg  [SEG_COUNT-1:0]           hit_reg = {SEG_COUNT{1'b0}};
reg                            clear_reg = 1'b0;
reg                            snapshot_reg = 1'b0;

genvar i;
generate
    for (i = 0; i < SEG_COUNT; i = i + 1) begin : g_index
        probe_hist_bin_index #(
            .AGE_WIDTH(AGE_WIDTH),
            .BINS(LAT_BINS),
            .IDX_WIDTH(IDX_WIDTH),
            .SUB_BINS_LOG2(LAT_SUB_BINS_LOG2),
            .FIRST_EDGE_LOG2(LAT_FIRST_EDGE_LOG2)
        )
        index_inst (
            .latency(ev_latency[i*AGE_WIDTH +: AGE_WIDTH]),
            .bin(seg_bin[i*IDX_WIDTH +: IDX_WIDTH])
        );
    end
endgenerate

always @(posedge clk) begin
    bin_reg      <= seg_bin;
    hit_reg      <= enable ? ev_hit : {SEG_COUNT{1'b0}};
    clear_reg    <= clear;
    snapshot_reg <= snapshot;
    if (rst) begin
        hit_reg      <= {SEG_COUNT{1'b0}};
        clear_reg    <= 1'b0;
        snapshot_reg <= 1'b0;
    end
end

// each bank's snapshot of bin rd_idx, and of every bin (bank s at [s*WORDS*CNT_WIDTH +: ...])
wire [SEG_COUNT*CNT_WIDTH-1:0]         bank_word;
wire [SEG_COUNT*WORDS*CNT_WIDTH-1:0]   bank_shadow;

genvar b;
generate
    for (b = 0; b < SEG_COUNT; b = b + 1) begin : g_bank
        probe_hist_bank #(
            .WORDS(WORDS),
            .IDX_WIDTH(IDX_WIDTH),
            .CNT_WIDTH(CNT_WIDTH)
        )
        bank_inst (
            .clk(clk),
            .rst(rst),
            .enable(1'b1),
            .clear(clear_reg),
            .snapshot(snapshot_reg),
            .hit(hit_reg[b]),
            .idx(bin_reg[b*IDX_WIDTH +: IDX_WIDTH]),
            .rd_idx(rd_idx),
            .rd_word(bank_word[b*CNT_WIDTH +: CNT_WIDTH]),
            .shadow(bank_shadow[b*WORDS*CNT_WIDTH +: WORDS*CNT_WIDTH])
        );
    end
endgenerate

reg [CNT_WIDTH-1:0]           word_sum_reg = {CNT_WIDTH{1'b0}};

// the sum of the banks' words (each from registers in its bank) (a function called in the clocked block: an always @*
// would leave the sum unknown in Icarus until a bank's word first changes)
function [CNT_WIDTH-1:0] bank_sum(input [SEG_COUNT*CNT_WIDTH-1:0] words);
    integer a;
    begin
        bank_sum = {CNT_WIDTH{1'b0}};
        for (a = 0; a < SEG_COUNT; a = a + 1) begin
            bank_sum = bank_sum + words[a*CNT_WIDTH +: CNT_WIDTH];
        end
    end
endfunction

always @(posedge clk) begin
    word_sum_reg <= bank_sum(bank_word);
end

genvar w;
generate
    for (w = 0; w < WORDS; w = w + 1) begin : g_word
        reg [CNT_WIDTH-1:0] bin_sum;
        integer c;
        always @* begin
            bin_sum = {CNT_WIDTH{1'b0}};
            for (c = 0; c < SEG_COUNT; c = c + 1) begin
                bin_sum = bin_sum + bank_shadow[(c*WORDS + w)*CNT_WIDTH +: CNT_WIDTH];
            end
        end
        assign shadow[w*CNT_WIDTH +: CNT_WIDTH] = bin_sum;
    end
endgenerate

assign rd_word = word_sum_reg;

endmodule

`resetall
