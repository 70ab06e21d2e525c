`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A latency histogram of probe_tracker (one instance per kind: first and last completion):
 * LAT_BINS bins of LAT_BIN_CYCLES clocks plus an overflow bin, each a CNT_WIDTH counter with a shadow, with probe_counter's rules:
 * events count only while 'enable', 'clear' empties every bin (this clock's events are lost,
 * as in probe_counter), 'snapshot' copies every bin including this clock's events.
 *
 * The bins are written by index (below): no per-clock increment vector over all bins and no
 * probe_counter per bin, whose adders and wide increment bus cost the Verilated twin most of
 * its speed once the bins were read on the CSR (and so no longer optimised away).
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
 * Bins as two flat vectors, written by index: each clock adds to the bins its completions hit
 * (one adder per segment), a snapshot copies the whole vector. A per-bin compare and adder
 * would cost the Verilated twin every bin on every clock; on an FPGA both forms are the same
 * flip-flops (the snapshot reads every word at once, so no RAM can hold them).
 */
reg [WORDS*CNT_WIDTH-1:0] bins_reg = {WORDS*CNT_WIDTH{1'b0}};
reg [WORDS*CNT_WIDTH-1:0] shadow_reg = {WORDS*CNT_WIDTH{1'b0}};

// per segment: whether it is the first of this clock's hits on its bin (the one that writes),
// and how many of this clock's hits share that bin (the segments from it on)
reg [SEG_COUNT-1:0]         seg_lead;
reg [SEG_COUNT*N_WIDTH-1:0] seg_n;
integer a, b;

always @* begin
    for (a = 0; a < SEG_COUNT; a = a + 1) begin
        seg_lead[a] = ev_hit[a];
        seg_n[a*N_WIDTH +: N_WIDTH] = {N_WIDTH{1'b0}};
        for (b = 0; b < SEG_COUNT; b = b + 1) begin
            if (ev_hit[b] && seg_bin[b*IDX_WIDTH +: IDX_WIDTH] == seg_bin[a*IDX_WIDTH +: IDX_WIDTH]) begin
                if (b < a) begin
                    seg_lead[a] = 1'b0;
                end else begin
                    seg_n[a*N_WIDTH +: N_WIDTH] = seg_n[a*N_WIDTH +: N_WIDTH] + 1'b1;
                end
            end
        end
    end
end

// the words of the bins hit this clock, events included
reg [SEG_COUNT*CNT_WIDTH-1:0] seg_sum;

always @* begin
    for (a = 0; a < SEG_COUNT; a = a + 1) begin
        seg_sum[a*CNT_WIDTH +: CNT_WIDTH] = bins_reg[seg_bin[a*IDX_WIDTH +: IDX_WIDTH]*CNT_WIDTH +: CNT_WIDTH] +
            {{(CNT_WIDTH-N_WIDTH){1'b0}}, seg_n[a*N_WIDTH +: N_WIDTH]};
    end
end

// later assignments win: the snapshot's copy, then this clock's bins, then clear and reset
always @(posedge clk) begin
    if (snapshot) begin
        shadow_reg <= bins_reg;
    end
    for (a = 0; a < SEG_COUNT; a = a + 1) begin
        if (enable && seg_lead[a]) begin
            bins_reg[seg_bin[a*IDX_WIDTH +: IDX_WIDTH]*CNT_WIDTH +: CNT_WIDTH] <= seg_sum[a*CNT_WIDTH +: CNT_WIDTH];
            if (snapshot) begin
                shadow_reg[seg_bin[a*IDX_WIDTH +: IDX_WIDTH]*CNT_WIDTH +: CNT_WIDTH] <= seg_sum[a*CNT_WIDTH +: CNT_WIDTH];
            end
        end
    end
    if (clear) begin
        bins_reg <= {WORDS*CNT_WIDTH{1'b0}};
    end
    if (rst) begin
        bins_reg <= {WORDS*CNT_WIDTH{1'b0}};
        shadow_reg <= {WORDS*CNT_WIDTH{1'b0}};
    end
end

assign rd_word = ({{(32-IDX_WIDTH){1'b0}}, rd_idx} < WORDS) ? shadow_reg[rd_idx*CNT_WIDTH +: CNT_WIDTH] : {CNT_WIDTH{1'b0}};
assign shadow = shadow_reg;

endmodule

`resetall
