`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A latency histogram of probe_tracker (one instance per kind: first and last completion):
 * LAT_BINS bins of LAT_BIN_CYCLES clocks plus an overflow bin, each a CNT_WIDTH counter with a shadow, with probe_counter's rules:
 * events count only while 'enable', 'clear' empties every bin (this clock's events are lost,
 * as in probe_counter), 'snapshot' copies every bin including this clock's events.
 *
 * Each bin is updated only on a clock that hits it (below): no per-clock increment vector over
 * all bins and no probe_counter per bin, whose adders and wide increment bus cost the Verilated
 * twin most of its speed once the bins were read on the CSR (and so no longer optimised away).
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

    // bin k at [k*CNT_WIDTH +: CNT_WIDTH], the overflow bin last (for benches: a bus this wide
    // costs a Verilated model a copy of every bin per clock, so a design reads rd_word instead)
    output wire [(LAT_BINS+1)*CNT_WIDTH-1:0]    shadow,
    // the shadow of bin rd_idx (0 past the overflow bin)
    input  wire [$clog2(LAT_BINS+1)-1:0]        rd_idx,
    output wire [CNT_WIDTH-1:0]                 rd_word
);

localparam WORDS = LAT_BINS + 1;
localparam IDX_WIDTH = $clog2(WORDS);
localparam BIN_SHIFT = $clog2(LAT_BIN_CYCLES);
localparam N_WIDTH = $clog2(SEG_COUNT + 1);
localparam [31:0] LAT_BINS_32 = LAT_BINS;
localparam [IDX_WIDTH-1:0] OVERFLOW_BIN = LAT_BINS_32[IDX_WIDTH-1:0];

initial begin
    if (LAT_BIN_CYCLES != (1 << BIN_SHIFT) || LAT_BINS < 1 || AGE_WIDTH > 32 || AGE_WIDTH < IDX_WIDTH) begin
        $error("Error: LAT_BIN_CYCLES must be a power of two, LAT_BINS positive, AGE_WIDTH %0d..32 (instance %m)", IDX_WIDTH);
        $finish;
    end
    if (CNT_WIDTH <= N_WIDTH || CNT_WIDTH > 64) begin
        $error("Error: CNT_WIDTH must be %0d..64 (instance %m)", N_WIDTH + 1);
        $finish;
    end
end

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

/*
 * Bins: one running word and one shadow per bin, each updated only on a clock some completion
 * falls in it (word_hit, one decoder for all bins) or on snapshot and clear. A Verilated model
 * then spends one bit test per bin per clock; synthesis gets a decoder and a clock enable per
 * word, no per-bin comparators on the clock's latencies.
 */
reg [WORDS-1:0]         word_hit;
// per bin, the completions of this clock in it while enabled (bin k at [k*N_WIDTH +: N_WIDTH])
reg [WORDS*N_WIDTH-1:0] word_n;
integer a;

always @* begin
    word_hit = {WORDS{1'b0}};
    word_n = {WORDS*N_WIDTH{1'b0}};
    for (a = 0; a < SEG_COUNT; a = a + 1) begin
        if (enable && ev_hit[a]) begin
            word_hit[seg_bin[a*IDX_WIDTH +: IDX_WIDTH]] = 1'b1;
            word_n[seg_bin[a*IDX_WIDTH +: IDX_WIDTH]*N_WIDTH +: N_WIDTH] =
                word_n[seg_bin[a*IDX_WIDTH +: IDX_WIDTH]*N_WIDTH +: N_WIDTH] + 1'b1;
        end
    end
end

wire [CNT_WIDTH-1:0] shadow_word [0:WORDS-1];

assign rd_word = ({{(32-IDX_WIDTH){1'b0}}, rd_idx} < WORDS) ? shadow_word[rd_idx] : {CNT_WIDTH{1'b0}};

genvar w;
generate
    for (w = 0; w < WORDS; w = w + 1) begin : g_bin
        reg [CNT_WIDTH-1:0] bin_reg = {CNT_WIDTH{1'b0}};
        reg [CNT_WIDTH-1:0] shadow_reg = {CNT_WIDTH{1'b0}};

        // later assignments win: clear after this clock's hits (they are lost), reset last
        always @(posedge clk) begin
            // one expression for both, so that synthesis builds one adder per bin; the shadow
            // first, so that no read of bin_reg follows a write to it (a Verilated model then
            // needs no delayed copy of each bin)
            if (snapshot) begin
                shadow_reg <= bin_reg + {{(CNT_WIDTH-N_WIDTH){1'b0}}, word_n[w*N_WIDTH +: N_WIDTH]};
            end
            if (word_hit[w]) begin
                bin_reg <= bin_reg + {{(CNT_WIDTH-N_WIDTH){1'b0}}, word_n[w*N_WIDTH +: N_WIDTH]};
            end
            if (clear) begin
                bin_reg <= {CNT_WIDTH{1'b0}};
            end
            if (rst) begin
                bin_reg <= {CNT_WIDTH{1'b0}};
                shadow_reg <= {CNT_WIDTH{1'b0}};
            end
        end

        assign shadow[w*CNT_WIDTH +: CNT_WIDTH] = shadow_reg;
        assign shadow_word[w] = shadow_reg;
    end
endgenerate

endmodule

`resetall
