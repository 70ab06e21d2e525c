`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Interval sampler: every 'period' enabled clocks, one record of what that interval saw
 * goes into a block-RAM FIFO (probe_sample_fifo) that firmware drains through the CSR
 * (SMP_* show the head record, CMD.SAMPLE_POP drops it). A microsecond time series
 * thus reaches the host over a slow UART without the host polling counters.
 *
 * Inputs are probe_tracker's smp_* taps: per clock, reads started and their bytes,
 * completions with data and their bytes, first completions with their latency, reads
 * outstanding; all of one tap clock, address filter applied. A record (word k at
 * [k*32 +: 32], k = (PS_REG_SMP_<name> - PS_REG_SMP_TS_LO) / 4, spec/registers.json):
 * TS (TIMESTAMP of the interval's last tap clock), CYCLES, MRD_COUNT, MRD_BYTES,
 * CPLD_COUNT, CPLD_BYTES, OCC_SUM, OCC_PEAK, LAT_SUM (64-bit), LAT_COUNT.
 *
 * 'period' is at most 2**PERIOD_WIDTH - 1 clocks so no 32-bit field wraps within an
 * interval (4 reads of 4096 bytes per clock at most). Intervals advance only on enabled
 * clocks; 'clear' (CMD.CLEAR, delayed with the taps) and any change of 'period' restart
 * the open interval, its partial counts discarded; period 0 stops sampling.
 *
 * A record that finds the FIFO full is dropped and 'overflow' (never cleared, wraps)
 * counts it: loss is always visible.
 */
module probe_sampler #
(
    // TLP segments per beat
    parameter TLP_SEG_COUNT = 1,
    // tag bits (the outstanding count has TAG_WIDTH+1 bits)
    parameter TAG_WIDTH = 8,
    // FIFO depth = 2**FIFO_ADDR_WIDTH records
    parameter FIFO_ADDR_WIDTH = 8,
    // clocks from a tap clock to its smp_* taps (probe_tracker: 3); aligns TS with TIMESTAMP
    parameter TAP_LAG = 3
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Configuration (CSR)
     */
    input  wire [17:0]                  period,
    input  wire                         pop,

    /*
     * Taps (probe_tracker smp_*)
     */
    input  wire                         smp_enable,
    input  wire                         smp_clear,
    input  wire [2:0]                   smp_mrd,
    input  wire [14:0]                  smp_mrd_bytes,
    input  wire [2:0]                   smp_cpld,
    input  wire [14:0]                  smp_cpld_bytes,
    input  wire [TLP_SEG_COUNT-1:0]     smp_first,
    input  wire [TLP_SEG_COUNT*32-1:0]  smp_latency,
    input  wire [TAG_WIDTH:0]           smp_outstanding,

    /*
     * FIFO head and status (CSR)
     */
    output wire [`PS_SMP_WORDS*32-1:0]  head,
    output wire [15:0]                  level,
    output wire [15:0]                  depth,
    output wire [31:0]                  overflow
);

localparam WORDS = `PS_SMP_WORDS;
localparam W_TS_LO      = (`PS_REG_SMP_TS_LO      - `PS_REG_SMP_TS_LO) / 4;
localparam W_TS_HI      = (`PS_REG_SMP_TS_HI      - `PS_REG_SMP_TS_LO) / 4;
localparam W_CYCLES     = (`PS_REG_SMP_CYCLES     - `PS_REG_SMP_TS_LO) / 4;
localparam W_MRD_COUNT  = (`PS_REG_SMP_MRD_COUNT  - `PS_REG_SMP_TS_LO) / 4;
localparam W_MRD_BYTES  = (`PS_REG_SMP_MRD_BYTES  - `PS_REG_SMP_TS_LO) / 4;
localparam W_CPLD_COUNT = (`PS_REG_SMP_CPLD_COUNT - `PS_REG_SMP_TS_LO) / 4;
localparam W_CPLD_BYTES = (`PS_REG_SMP_CPLD_BYTES - `PS_REG_SMP_TS_LO) / 4;
localparam W_OCC_SUM    = (`PS_REG_SMP_OCC_SUM    - `PS_REG_SMP_TS_LO) / 4;
localparam W_OCC_PEAK   = (`PS_REG_SMP_OCC_PEAK   - `PS_REG_SMP_TS_LO) / 4;
localparam W_LAT_SUM_LO = (`PS_REG_SMP_LAT_SUM_LO - `PS_REG_SMP_TS_LO) / 4;
localparam W_LAT_SUM_HI = (`PS_REG_SMP_LAT_SUM_HI - `PS_REG_SMP_TS_LO) / 4;
localparam W_LAT_COUNT  = (`PS_REG_SMP_LAT_COUNT  - `PS_REG_SMP_TS_LO) / 4;
// the record's words, one bit each: every word must be filled below
localparam [WORDS-1:0] ONE = {{(WORDS-1){1'b0}}, 1'b1};
localparam [WORDS-1:0] FILLED =
    (ONE << W_TS_LO) | (ONE << W_TS_HI) | (ONE << W_CYCLES) | (ONE << W_MRD_COUNT) |
    (ONE << W_MRD_BYTES) | (ONE << W_CPLD_COUNT) | (ONE << W_CPLD_BYTES) | (ONE << W_OCC_SUM) |
    (ONE << W_OCC_PEAK) | (ONE << W_LAT_SUM_LO) | (ONE << W_LAT_SUM_HI) | (ONE << W_LAT_COUNT);
localparam [31:0] DEPTH_32 = 32'd1 << FIFO_ADDR_WIDTH;
localparam [63:0] TAP_LAG_64 = TAP_LAG;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLP_SEG_COUNT < 1 || TLP_SEG_COUNT > 4) begin : g_check_tlp_seg_count
        probe_sampler_TLP_SEG_COUNT_must_be_1_to_4 unsupported_parameter ();
    end
    if (FIFO_ADDR_WIDTH < 1 || FIFO_ADDR_WIDTH > 15 || TAG_WIDTH > 15) begin : g_check_fifo_addr_width
        probe_sampler_FIFO_ADDR_WIDTH_must_be_1_to_15_and_TAG_WIDTH_at_most_15 unsupported_parameter ();
    end
endgenerate

// A record word of spec/registers.json that nothing fills would read 0 forever: stop elaboration.
generate
    if (FILLED != {WORDS{1'b1}}) begin : g_unfilled
        spec_record_word_without_source_in_probe_sampler unfilled_word_error ();
    end
endgenerate

// TIMESTAMP of the tap clock whose taps arrive now: probe_counters' TIMESTAMP counts every
// clock from reset and its snapshot includes the clock, so tap clock n reads n + 1
reg [63:0] now_reg = 64'd1 - TAP_LAG_64;

reg [17:0] period_reg = 18'd0;
reg [17:0] cyc_reg = 18'd0;
reg [31:0] mrd_reg = 32'd0, mrd_bytes_reg = 32'd0;
reg [31:0] cpld_reg = 32'd0, cpld_bytes_reg = 32'd0;
reg [31:0] occ_sum_reg = 32'd0;
reg [TAG_WIDTH:0] peak_reg = {(TAG_WIDTH+1){1'b0}};
reg [63:0] lat_sum_reg = 64'd0;
reg [31:0] lat_count_reg = 32'd0;
reg [31:0] overflow_reg = 32'd0;

// this clock's values, the interval's so far plus this clock's taps
reg [17:0] cyc_now;
reg [31:0] mrd_now, mrd_bytes_now, cpld_now, cpld_bytes_now, occ_sum_now, lat_count_now;
reg [TAG_WIDTH:0] peak_now;
reg [63:0] lat_sum_now;
reg [WORDS*32-1:0] record;
reg        close;
integer s;

wire restart = smp_clear || (period != period_reg);
wire count = smp_enable && (period != 18'd0) && !restart;

always @* begin
    cyc_now        = cyc_reg + 18'd1;
    mrd_now        = mrd_reg + {29'd0, smp_mrd};
    mrd_bytes_now  = mrd_bytes_reg + {17'd0, smp_mrd_bytes};
    cpld_now       = cpld_reg + {29'd0, smp_cpld};
    cpld_bytes_now = cpld_bytes_reg + {17'd0, smp_cpld_bytes};
    occ_sum_now    = occ_sum_reg + {{(31-TAG_WIDTH){1'b0}}, smp_outstanding};
    peak_now       = (smp_outstanding > peak_reg) ? smp_outstanding : peak_reg;
    lat_sum_now    = lat_sum_reg;
    lat_count_now  = lat_count_reg;
    for (s = 0; s < TLP_SEG_COUNT; s = s + 1) begin
        if (smp_first[s]) begin
            lat_sum_now   = lat_sum_now + {32'd0, smp_latency[s*32 +: 32]};
            lat_count_now = lat_count_now + 32'd1;
        end
    end
    close = count && (cyc_now == period);

    record = {WORDS*32{1'b0}};
    record[W_TS_LO*32      +: 32] = now_reg[31:0];
    record[W_TS_HI*32      +: 32] = now_reg[63:32];
    record[W_CYCLES*32     +: 32] = {14'd0, cyc_now};
    record[W_MRD_COUNT*32  +: 32] = mrd_now;
    record[W_MRD_BYTES*32  +: 32] = mrd_bytes_now;
    record[W_CPLD_COUNT*32 +: 32] = cpld_now;
    record[W_CPLD_BYTES*32 +: 32] = cpld_bytes_now;
    record[W_OCC_SUM*32    +: 32] = occ_sum_now;
    record[W_OCC_PEAK*32   +: 32] = {{(31-TAG_WIDTH){1'b0}}, peak_now};
    record[W_LAT_SUM_LO*32 +: 32] = lat_sum_now[31:0];
    record[W_LAT_SUM_HI*32 +: 32] = lat_sum_now[63:32];
    record[W_LAT_COUNT*32  +: 32] = lat_count_now;
end

wire fifo_full;
wire [FIFO_ADDR_WIDTH:0] fifo_level;
// the FIFO takes a record while full when the same clock pops one (probe_sample_fifo)
wire fifo_pop_ok = pop && (fifo_level != {(FIFO_ADDR_WIDTH+1){1'b0}});

probe_sample_fifo #(
    .ADDR_WIDTH(FIFO_ADDR_WIDTH),
    .DATA_WIDTH(WORDS*32)
)
fifo_inst (
    .clk(clk),
    .rst(rst),
    .push(close),
    .push_data(record),
    .full(fifo_full),
    .pop(pop),
    .head(head),
    .level(fifo_level)
);

assign level    = {{(15-FIFO_ADDR_WIDTH){1'b0}}, fifo_level};
assign depth    = DEPTH_32[15:0];
assign overflow = overflow_reg;

always @(posedge clk) begin
    now_reg    <= now_reg + 64'd1;
    period_reg <= period;

    if (restart || close) begin
        cyc_reg        <= 18'd0;
        mrd_reg        <= 32'd0;
        mrd_bytes_reg  <= 32'd0;
        cpld_reg       <= 32'd0;
        cpld_bytes_reg <= 32'd0;
        occ_sum_reg    <= 32'd0;
        peak_reg       <= {(TAG_WIDTH+1){1'b0}};
        lat_sum_reg    <= 64'd0;
        lat_count_reg  <= 32'd0;
    end else if (count) begin
        cyc_reg        <= cyc_now;
        mrd_reg        <= mrd_now;
        mrd_bytes_reg  <= mrd_bytes_now;
        cpld_reg       <= cpld_now;
        cpld_bytes_reg <= cpld_bytes_now;
        occ_sum_reg    <= occ_sum_now;
        peak_reg       <= peak_now;
        lat_sum_reg    <= lat_sum_now;
        lat_count_reg  <= lat_count_now;
    end

    if (close && fifo_full && !fifo_pop_ok) begin
        overflow_reg <= overflow_reg + 32'd1;
    end

    if (rst) begin
        now_reg       <= 64'd1 - TAP_LAG_64;
        period_reg    <= 18'd0;
        cyc_reg       <= 18'd0;
        mrd_reg       <= 32'd0;
        mrd_bytes_reg <= 32'd0;
        cpld_reg      <= 32'd0;
        cpld_bytes_reg <= 32'd0;
        occ_sum_reg   <= 32'd0;
        peak_reg      <= {(TAG_WIDTH+1){1'b0}};
        lat_sum_reg   <= 64'd0;
        lat_count_reg <= 32'd0;
        overflow_reg  <= 32'd0;
    end
end

endmodule

`resetall
