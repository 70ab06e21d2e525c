`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A latency histogram of probe_tracker (one instance per kind: first and last completion):
 * LAT_BINS bins of LAT_BIN_CYCLES clocks plus an overflow bin, each CNT_WIDTH bits, with
 * probe_counter's rules: events count only while 'enable', 'clear' empties every bin (this
 * clock's events are lost, as in probe_counter), 'snapshot' freezes every bin including this
 * clock's events for the readers.
 *
 * One probe_hist_bank (bins in LUT RAM, a lazy snapshot) per segment, each counting that
 * segment's completions; a bin's value is the sum over the banks. Nothing updates per bin per
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
    // bins (plus one overflow bin) and clocks per bin (a power of two)
    parameter LAT_BINS = 64,
    parameter LAT_BIN_CYCLES = 64
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
    // the shadow of bin rd_idx (0 past the overflow bin)
    input  wire [$clog2(LAT_BINS+1)-1:0]        rd_idx,
    output wire [CNT_WIDTH-1:0]                 rd_word
);

localparam WORDS = LAT_BINS + 1;
localparam IDX_WIDTH = $clog2(WORDS);
localparam BIN_SHIFT = $clog2(LAT_BIN_CYCLES);
localparam [31:0] LAT_BINS_32 = LAT_BINS;
localparam [IDX_WIDTH-1:0] OVERFLOW_BIN = LAT_BINS_32[IDX_WIDTH-1:0];

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (LAT_BIN_CYCLES != (1 << BIN_SHIFT) || LAT_BINS < 1) begin : g_check_lat_bin_cycles
        probe_latency_hist_LAT_BIN_CYCLES_must_be_a_power_of_two_and_LAT_BINS_positive unsupported_parameter ();
    end
    if (AGE_WIDTH > 32 || AGE_WIDTH < IDX_WIDTH) begin : g_check_age_width
        probe_latency_hist_AGE_WIDTH_must_be_IDX_WIDTH_to_32 unsupported_parameter ();
    end
    if (CNT_WIDTH < 2 || CNT_WIDTH > 64) begin : g_check_cnt_width
        probe_latency_hist_CNT_WIDTH_must_be_2_to_64 unsupported_parameter ();
    end
endgenerate

// the bin of each segment's latency, segment s at [s*IDX_WIDTH +: IDX_WIDTH] (a vector, not an
// array, so that every simulator's @* sees it change)
reg [SEG_COUNT*IDX_WIDTH-1:0] seg_bin;
reg [31:0]                    scaled;
integer s;

always @* begin
    scaled = 32'd0;
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        scaled = {{(32-AGE_WIDTH){1'b0}}, ev_latency[s*AGE_WIDTH +: AGE_WIDTH]} >> BIN_SHIFT;
        seg_bin[s*IDX_WIDTH +: IDX_WIDTH] = (scaled >= LAT_BINS_32) ? OVERFLOW_BIN : scaled[IDX_WIDTH-1:0];
    end
end

// bits above the bin index only decide the overflow bin
wire unused_scaled = &{1'b0, scaled[31:IDX_WIDTH], 1'b0};

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
            .enable(enable),
            .clear(clear),
            .snapshot(snapshot),
            .hit(ev_hit[b]),
            .idx(seg_bin[b*IDX_WIDTH +: IDX_WIDTH]),
            .rd_idx(rd_idx),
            .rd_word(bank_word[b*CNT_WIDTH +: CNT_WIDTH]),
            .shadow(bank_shadow[b*WORDS*CNT_WIDTH +: WORDS*CNT_WIDTH])
        );
    end
endgenerate

reg [CNT_WIDTH-1:0]         word_sum;
integer a;

always @* begin
    word_sum = {CNT_WIDTH{1'b0}};
    for (a = 0; a < SEG_COUNT; a = a + 1) begin
        word_sum = word_sum + bank_word[a*CNT_WIDTH +: CNT_WIDTH];
    end
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

assign rd_word = word_sum;

endmodule

`resetall
