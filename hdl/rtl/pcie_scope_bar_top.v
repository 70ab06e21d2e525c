`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * pcie-scope, BAR-endpoint design (docs/contracts.md section 1).
 *
 * The BAR responder completes the requests of the generic TLP request stream; probe_core
 * (counters, outstanding-read tracker, interval sampler, address filter, CSR) taps both
 * streams passively and sets the responder's latency and completion split.
 */
module pcie_scope_bar_top #
(
    // TLP data width
    parameter TLP_DATA_WIDTH = 256,
    // TLP strobe width
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    // TLP segments per beat
    parameter TLP_SEG_COUNT = 1,
    // clock frequency in Hz, reported in CLK_HZ
    parameter CLK_HZ = 250000000,
    // probe counter width in bits
    parameter CNT_WIDTH = 64,
    // tracker: tag bits (8, or 10 for PCIe 4.0 10-bit tags), read timeout (1 ms at 250 MHz; the latency
    // histograms' layout is the spec's: spec/registers.json latencyHistogram)
    parameter TAG_WIDTH = 8,
    parameter TIMEOUT_CYCLES = 250000,
    // interval sampler FIFO: 2**SAMPLE_FIFO_ADDR_WIDTH records (256 x 384 bits: three BRAM36)
    parameter SAMPLE_FIFO_ADDR_WIDTH = 8,
    // info registers: the largest read it expects, a build stamp
    parameter MRRS = 512,
    parameter BUILD_ID = 0,
    // the BAR responder answers reads of up to this many bytes (reported in MPS); larger ones get UR
    parameter MAX_PAYLOAD_BYTES = 256,
    // the BAR responder's completion buffer: the reads it has taken reserve their payload there
    // until answered, and it takes no request while full (0: no limit)
    parameter CPL_BUFFER_BYTES = 16384
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * TLP input (requests)
     */
    input  wire [TLP_DATA_WIDTH-1:0]    rx_req_tlp_data,
    input  wire [TLP_STRB_WIDTH-1:0]    rx_req_tlp_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] rx_req_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_sop,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_eop,
    output wire                         rx_req_tlp_ready,

    /*
     * TLP output (completions)
     */
    output wire [TLP_DATA_WIDTH-1:0]    tx_cpl_tlp_data,
    output wire [TLP_STRB_WIDTH-1:0]    tx_cpl_tlp_strb,
    output wire [TLP_SEG_COUNT*128-1:0] tx_cpl_tlp_hdr,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_valid,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_sop,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_eop,
    input  wire                         tx_cpl_tlp_ready,

    /*
     * the link in use, reported in LINK_GEN / LINK_WIDTH: generation in the Link Status speed
     * encoding (1 = 2.5 GT/s .. 6 = 64 GT/s) and width in lanes, 0 = unknown
     */
    input  wire [3:0]                   link_gen,
    input  wire [5:0]                   link_width,

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

localparam [15:0] COMPLETER_ID = 16'h0200;
localparam FIFO_DEPTH = 256;

wire [15:0] bar_latency;
wire [15:0] bar_jitter;
wire [7:0]  cpl_split;
wire        bar_ur;

bar_responder #(
    .TLP_DATA_WIDTH(TLP_DATA_WIDTH),
    .TLP_STRB_WIDTH(TLP_STRB_WIDTH),
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .COMPLETER_ID(COMPLETER_ID),
    .MAX_PAYLOAD_BYTES(MAX_PAYLOAD_BYTES),
    .FIFO_DEPTH(FIFO_DEPTH),
    .CPL_BUFFER_BYTES(CPL_BUFFER_BYTES)
)
bar_responder_inst (
    .clk(clk),
    .rst(rst),
    .rx_req_tlp_data(rx_req_tlp_data),
    .rx_req_tlp_strb(rx_req_tlp_strb),
    .rx_req_tlp_hdr(rx_req_tlp_hdr),
    .rx_req_tlp_valid(rx_req_tlp_valid),
    .rx_req_tlp_sop(rx_req_tlp_sop),
    .rx_req_tlp_eop(rx_req_tlp_eop),
    .rx_req_tlp_ready(rx_req_tlp_ready),
    .tx_cpl_tlp_data(tx_cpl_tlp_data),
    .tx_cpl_tlp_strb(tx_cpl_tlp_strb),
    .tx_cpl_tlp_hdr(tx_cpl_tlp_hdr),
    .tx_cpl_tlp_valid(tx_cpl_tlp_valid),
    .tx_cpl_tlp_sop(tx_cpl_tlp_sop),
    .tx_cpl_tlp_eop(tx_cpl_tlp_eop),
    .tx_cpl_tlp_ready(tx_cpl_tlp_ready),
    .bar_latency(bar_latency),
    .bar_jitter(bar_jitter),
    .cpl_split(cpl_split),
    .bar_ur(bar_ur)
);

// the responder's UR pulse (at most one per beat) in segment 0's bit
localparam [TLP_SEG_COUNT-1:0] SEG0 = 1;
wire [TLP_SEG_COUNT-1:0] bar_ur_seg = {TLP_SEG_COUNT{bar_ur}} & SEG0;

probe_core #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CLK_HZ(CLK_HZ),
    .CNT_WIDTH(CNT_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .SAMPLE_FIFO_ADDR_WIDTH(SAMPLE_FIFO_ADDR_WIDTH),
    .MRRS(MRRS),
    .BUILD_ID(BUILD_ID),
    .MPS(MAX_PAYLOAD_BYTES)
)
probe_core_inst (
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
    .bar_ur(bar_ur_seg),
    .link_gen(link_gen),
    .link_width(link_width),
    .bar_latency(bar_latency),
    .bar_jitter(bar_jitter),
    .cpl_split(cpl_split),
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
    .s_axil_rready(s_axil_rready)
);

endmodule

`resetall
