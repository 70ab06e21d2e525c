`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * pcie-scope probe core: everything of the probe that both designs share (the BAR endpoint,
 * pcie_scope_bar_top, and the switch, pcie_scope_switch_top).
 *
 * probe_counters and the outstanding-read tracker tap one request stream and the completion
 * stream answering it, passively (valid, ready, sop and headers only); the interval sampler takes
 * the tracker's per-clock taps; probe_csr exposes control, the counter shadows (0..
 * PS_CNT_PROBE_COUNT-1 from probe_counters, then the tracker's statistics in spec order), the
 * sampler's FIFO, the address filter and the tracker's first- and last-completion latency
 * histograms (their shadows after the counters', one CSR window each) over AXI4-Lite. bar_latency and cpl_split are CSR registers for a BAR responder, where the design
 * has one. probe_trace records the TLPs of the same two taps (docs/trace.md), its trigger fed by
 * the tracker's events, its registers in probe_csr's trace window.
 */
module probe_core #
(
    // TLP segments per beat
    parameter TLP_SEG_COUNT = 1,
    // clock frequency in Hz, reported in CLK_HZ
    parameter CLK_HZ = 250000000,
    // probe counter width in bits
    parameter CNT_WIDTH = 64,
    // tracker: tag bits (8, or 10 for PCIe 4.0 10-bit tags), read timeout (1 ms at 250 MHz); the
    // first- and last-completion latency histograms take their layout from the spec
    // (PS_HIST_*: 88 log-spaced bins, 8 to an octave, to 8192 clocks = 32.8 us at 250 MHz, plus overflow)
    parameter TAG_WIDTH = 8,
    parameter TIMEOUT_CYCLES = 250000,
    // interval sampler FIFO: 2**SAMPLE_FIFO_ADDR_WIDTH records (256 x 384 bits: three BRAM36)
    parameter SAMPLE_FIFO_ADDR_WIDTH = 8,
    // info registers: the largest read it expects, a build stamp
    parameter MRRS = 512,
    parameter BUILD_ID = 0,
    // max payload size reported in the MPS info register
    parameter MPS = 256,
    // TAP_INFO: which tap of the design this probe is (spec taps.list) and how many it has
    parameter TAP_ID = 0,
    parameter TAP_COUNT = 1,
    // trace ring depth in records (a power of two, at least PS_TRC_MIN_DEPTH)
    parameter TRACE_DEPTH = `PS_TRC_MIN_DEPTH
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Taps: the request stream and the completions answering it
     */
    input  wire [TLP_SEG_COUNT*128-1:0] rx_req_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_sop,
    input  wire                         rx_req_tlp_ready,
    input  wire [TLP_SEG_COUNT*128-1:0] tx_cpl_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_sop,
    input  wire                         tx_cpl_tlp_ready,
    // requests answered Unsupported Request: the UR completions handed over this clock, one
    // bit per segment (the BAR responder's one per beat in bit 0; the switch's per segment)
    input  wire [TLP_SEG_COUNT-1:0]     bar_ur,

    // the watched link's generation and width (probe_csr's link_gen, link_width)
    input  wire [3:0]                   link_gen,
    input  wire [5:0]                   link_width,

    /*
     * CSR outputs for a BAR responder
     */
    output wire [15:0]                  bar_latency,
    output wire [15:0]                  bar_jitter,
    output wire [7:0]                   cpl_split,

    /*
     * AXI4-Lite slave (CSR)
     */
    input  wire [11:0]                  s_axil_awaddr,
    input  wire                         s_axil_awvalid,
    output wire                         s_axil_awready,
    input  wire [31:0]                  s_axil_wdata,
    input  wire [3:0]                   s_axil_wstrb,
    input  wire                         s_axil_wvalid,
    output wire                         s_axil_wready,
    output wire [1:0]                   s_axil_bresp,
    output wire                         s_axil_bvalid,
    input  wire                         s_axil_bready,
    input  wire [11:0]                  s_axil_araddr,
    input  wire                         s_axil_arvalid,
    output wire                         s_axil_arready,
    output wire [31:0]                  s_axil_rdata,
    output wire [1:0]                   s_axil_rresp,
    output wire                         s_axil_rvalid,
    input  wire                         s_axil_rready
);

wire        ctrl_enable;
wire        cmd_snapshot;
wire        cmd_clear;
wire        status_enabled;
wire [`PS_CNT_PROBE_COUNT*CNT_WIDTH-1:0] probe_shadow;
wire [17:0] sample_period;
wire        sample_pop;
wire        filter_en;
wire [63:0] filter_base;
wire [63:0] filter_limit;
wire [`PS_SMP_WORDS*32-1:0] sample_head;
wire [15:0] sample_level;
wire [15:0] sample_depth;
wire [31:0] sample_overflow;

wire                          smp_enable;
wire                          smp_clear;
wire [2:0]                    smp_mrd;
wire [14:0]                   smp_mrd_bytes;
wire [2:0]                    smp_cpld;
wire [14:0]                   smp_cpld_bytes;
wire [TLP_SEG_COUNT-1:0]      smp_first;
wire [TLP_SEG_COUNT*32-1:0]   smp_latency;
wire [TAG_WIDTH:0]            smp_outstanding;
wire [TLP_SEG_COUNT-1:0]      smp_unexpected;
wire                          smp_timeout;

wire        trc_wr_fire;
wire [11:2] trc_waddr;
wire [31:0] trc_wdata;
wire [3:0]  trc_wstrb;
wire [31:0] trc_rdata;

generate
    if (TRACE_DEPTH < `PS_TRC_MIN_DEPTH) begin : g_check_trace_depth
        probe_core_TRACE_DEPTH_must_be_at_least_PS_TRC_MIN_DEPTH unsupported_parameter ();
    end
endgenerate

localparam LAT_BINS = `PS_HIST_BINS;
// clocks from the edge that takes CMD.SNAPSHOT to the last shadow's (probe_counters: its tap,
// decode and sum stages, 3; the tracker: its stages T, A, B and its statistics' stage R, 4)
localparam SHADOW_LAG = 4;
wire [`PS_CNT_TRACKER_COUNT*CNT_WIDTH-1:0] tracker_shadow;
wire [`PS_HIST_KINDS*(LAT_BINS+1)*CNT_WIDTH-1:0] hist_shadow;
wire [$clog2(LAT_BINS+1)-1:0] hist_idx;
wire [`PS_HIST_KINDS*CNT_WIDTH-1:0] hist_words;

// The CSR reads the counters' shadows where they are kept, probe_counters' and the tracker's
// register buses, as two buses: one concatenated here would be a wire that a Verilated model
// rebuilds word by word on every clock. It reads the histograms' bins one at a time through
// hist_idx / hist_words, so the tracker's all-bins bus goes unused here.
wire unused_histogram_bus = &{1'b0, hist_shadow, 1'b0};


probe_counters #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CNT_WIDTH(CNT_WIDTH)
)
probe_inst (
    .clk(clk),
    .rst(rst),
    .enable(ctrl_enable),
    .clear(cmd_clear),
    .snapshot(cmd_snapshot),
    .enabled(status_enabled),
    .rx_req_tlp_hdr(rx_req_tlp_hdr),
    .rx_req_tlp_valid(rx_req_tlp_valid),
    .rx_req_tlp_sop(rx_req_tlp_sop),
    .rx_req_tlp_ready(rx_req_tlp_ready),
    .tx_cpl_tlp_hdr(tx_cpl_tlp_hdr),
    .tx_cpl_tlp_valid(tx_cpl_tlp_valid),
    .tx_cpl_tlp_sop(tx_cpl_tlp_sop),
    .tx_cpl_tlp_ready(tx_cpl_tlp_ready),
    .bar_ur(bar_ur),
    .filter_en(filter_en),
    .filter_base(filter_base),
    .filter_limit(filter_limit),
    .cnt_shadow(probe_shadow)
);

probe_tracker #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .TAG_WIDTH(TAG_WIDTH),
    .CNT_WIDTH(CNT_WIDTH),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .LAT_BINS(LAT_BINS),
    .LAT_SUB_BINS_LOG2(`PS_HIST_SUB_BINS_LOG2),
    .LAT_FIRST_EDGE_LOG2(`PS_HIST_FIRST_EDGE_LOG2)
)
tracker_inst (
    .clk(clk),
    .rst(rst),
    .enable(ctrl_enable),
    .clear(cmd_clear),
    .snapshot(cmd_snapshot),
    .rx_req_tlp_hdr(rx_req_tlp_hdr),
    .rx_req_tlp_valid(rx_req_tlp_valid),
    .rx_req_tlp_sop(rx_req_tlp_sop),
    .rx_req_tlp_ready(rx_req_tlp_ready),
    .tx_cpl_tlp_hdr(tx_cpl_tlp_hdr),
    .tx_cpl_tlp_valid(tx_cpl_tlp_valid),
    .tx_cpl_tlp_sop(tx_cpl_tlp_sop),
    .tx_cpl_tlp_ready(tx_cpl_tlp_ready),
    .filter_en(filter_en),
    .filter_base(filter_base),
    .filter_limit(filter_limit),
    .smp_enable(smp_enable),
    .smp_clear(smp_clear),
    .smp_mrd(smp_mrd),
    .smp_mrd_bytes(smp_mrd_bytes),
    .smp_cpld(smp_cpld),
    .smp_cpld_bytes(smp_cpld_bytes),
    .smp_first(smp_first),
    .smp_latency(smp_latency),
    .smp_outstanding(smp_outstanding),
    .smp_unexpected(smp_unexpected),
    .smp_timeout(smp_timeout),
    .stat_shadow(tracker_shadow),
    .hist_shadow(hist_shadow),
    .hist_rd_idx(hist_idx),
    .hist_rd_words(hist_words)
);

probe_sampler #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .TAG_WIDTH(TAG_WIDTH),
    .FIFO_ADDR_WIDTH(SAMPLE_FIFO_ADDR_WIDTH),
    .TAP_LAG(3)
)
sampler_inst (
    .clk(clk),
    .rst(rst),
    .period(sample_period),
    .pop(sample_pop),
    .smp_enable(smp_enable),
    .smp_clear(smp_clear),
    .smp_mrd(smp_mrd),
    .smp_mrd_bytes(smp_mrd_bytes),
    .smp_cpld(smp_cpld),
    .smp_cpld_bytes(smp_cpld_bytes),
    .smp_first(smp_first),
    .smp_latency(smp_latency),
    .smp_outstanding(smp_outstanding),
    .head(sample_head),
    .level(sample_level),
    .depth(sample_depth),
    .overflow(sample_overflow)
);

probe_csr #(
    .CLK_HZ(CLK_HZ),
    .CNT_WIDTH(CNT_WIDTH),
    .MPS(MPS),
    .MRRS(MRRS),
    .TAG_BITS(TAG_WIDTH),
    .BUILD_ID(BUILD_ID),
    .TAP_ID(TAP_ID),
    .TAP_COUNT(TAP_COUNT),
    .SHADOW_LAG(SHADOW_LAG)
)
csr_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .ctrl_enable(ctrl_enable),
    .cmd_snapshot(cmd_snapshot),
    .cmd_clear(cmd_clear),
    .bar_latency(bar_latency),
    .bar_jitter(bar_jitter),
    .cpl_split(cpl_split),
    .sample_period(sample_period),
    .sample_pop(sample_pop),
    .filter_en(filter_en),
    .filter_base(filter_base),
    .filter_limit(filter_limit),
    .status_enabled(status_enabled),
    .probe_shadow(probe_shadow),
    .tracker_shadow(tracker_shadow),
    .hist_idx(hist_idx),
    .hist_words(hist_words),
    .sample_head(sample_head),
    .sample_level(sample_level),
    .sample_depth(sample_depth),
    .sample_overflow(sample_overflow),
    .link_gen(link_gen),
    .link_width(link_width),
    .trc_wr_fire(trc_wr_fire),
    .trc_waddr(trc_waddr),
    .trc_wdata(trc_wdata),
    .trc_wstrb(trc_wstrb),
    .trc_rdata(trc_rdata)
);

probe_trace #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .TAG_WIDTH(TAG_WIDTH),
    .DEPTH(TRACE_DEPTH),
    .TAP_ID(TAP_ID),
    .EV_LAG(3) // probe_tracker's events, as probe_sampler's TAP_LAG
)
trace_inst (
    .clk(clk),
    .rst(rst),
    .rx_req_tlp_hdr(rx_req_tlp_hdr),
    .rx_req_tlp_valid(rx_req_tlp_valid),
    .rx_req_tlp_sop(rx_req_tlp_sop),
    .rx_req_tlp_ready(rx_req_tlp_ready),
    .tx_cpl_tlp_hdr(tx_cpl_tlp_hdr),
    .tx_cpl_tlp_valid(tx_cpl_tlp_valid),
    .tx_cpl_tlp_sop(tx_cpl_tlp_sop),
    .tx_cpl_tlp_ready(tx_cpl_tlp_ready),
    .ev_first(smp_first),
    .ev_latency(smp_latency),
    .ev_unexpected(smp_unexpected),
    .ev_timeout(smp_timeout),
    .ev_outstanding(smp_outstanding),
    .csr_wr_fire(trc_wr_fire),
    .csr_waddr(trc_waddr),
    .csr_wdata(trc_wdata),
    .csr_wstrb(trc_wstrb),
    .csr_ar_fire(s_axil_arvalid && s_axil_arready),
    .csr_araddr(s_axil_araddr[11:2]),
    .csr_rdata(trc_rdata)
);

endmodule

`resetall
