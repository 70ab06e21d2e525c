`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * pcie-scope, switch design: the two-port switch (sw_router) between the host's root port
 * (upstream port, up_*) and the GPU (downstream port, dn_*), with the probe on the GPU's
 * side of the switch: probe_core (the same probe as the BAR top) taps the downstream port's
 * upstream-going requests (dn_rx, what the GPU sends) and the completions coming back to
 * it (dn_tx). The CSR block is the BAR top's, same map; BAR_LATENCY and CPL_SPLIT drive no
 * responder here: they leave as ports for a completer model beside the design (the twin's
 * host root complex). BAR_UR counts UR completions handed to the GPU
 * (the switch's own and those forwarded from the host). The switch's fate counters are
 * ports (sw_*_cnt), not on the CSR yet.
 */
module pcie_scope_switch_top #
(
    // TLP data width
    parameter TLP_DATA_WIDTH = 256,
    // TLP strobe width
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    // TLP segments per beat (the switch: 1 only)
    parameter TLP_SEG_COUNT = 1,
    // clock frequency in Hz, reported in CLK_HZ
    parameter CLK_HZ = 250000000,
    // probe counter width in bits
    parameter CNT_WIDTH = 64,
    // tracker, as in pcie_scope_bar_top
    parameter TAG_WIDTH = 8,
    parameter TIMEOUT_CYCLES = 250000,
    parameter LAT_BIN_CYCLES = 64,
    // interval sampler FIFO and info registers, as in pcie_scope_bar_top
    parameter SAMPLE_FIFO_ADDR_WIDTH = 8,
    parameter LINK_GEN = 4,
    parameter LINK_WIDTH = 16,
    parameter MPS = 256,
    parameter MRRS = 512,
    // the host completer model's completion buffer, as the BAR responder's (cpl_buffer_bytes port)
    parameter CPL_BUFFER_BYTES = 16384,
    parameter BUILD_ID = 0
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * upstream port: TLPs from the host
     */
    input  wire [TLP_DATA_WIDTH-1:0]    up_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]    up_rx_strb,
    input  wire [127:0]                 up_rx_hdr,
    input  wire                         up_rx_valid,
    input  wire                         up_rx_sop,
    input  wire                         up_rx_eop,
    output wire                         up_rx_ready,

    /*
     * upstream port: TLPs to the host
     */
    output wire [TLP_DATA_WIDTH-1:0]    up_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]    up_tx_strb,
    output wire [127:0]                 up_tx_hdr,
    output wire                         up_tx_valid,
    output wire                         up_tx_sop,
    output wire                         up_tx_eop,
    input  wire                         up_tx_ready,

    /*
     * downstream port: TLPs from the GPU
     */
    input  wire [TLP_DATA_WIDTH-1:0]    dn_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]    dn_rx_strb,
    input  wire [127:0]                 dn_rx_hdr,
    input  wire                         dn_rx_valid,
    input  wire                         dn_rx_sop,
    input  wire                         dn_rx_eop,
    output wire                         dn_rx_ready,

    /*
     * downstream port: TLPs to the GPU
     */
    output wire [TLP_DATA_WIDTH-1:0]    dn_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]    dn_tx_strb,
    output wire [127:0]                 dn_tx_hdr,
    output wire                         dn_tx_valid,
    output wire                         dn_tx_sop,
    output wire                         dn_tx_eop,
    input  wire                         dn_tx_ready,

    /*
     * the real links (Link Capabilities / Link Status of the switch ports)
     */
    input  wire [3:0]                   up_link_max_speed,
    input  wire [5:0]                   up_link_max_width,
    input  wire [3:0]                   up_link_speed,
    input  wire [5:0]                   up_link_width,
    input  wire [3:0]                   dn_link_max_speed,
    input  wire [5:0]                   dn_link_max_width,
    input  wire [3:0]                   dn_link_speed,
    input  wire [5:0]                   dn_link_width,
    input  wire                         dn_link_up,

    /*
     * switch fate counters per port (PS_SW_CNT_* order, 32 bits each)
     */
    output wire [`PS_SW_CNT_COUNT*32-1:0] sw_up_rx_cnt,
    output wire [`PS_SW_CNT_COUNT*32-1:0] sw_dn_rx_cnt,

    /*
     * the CSR's BAR_LATENCY and CPL_SPLIT: settings of a completer model outside the design
     * (the twin's host root complex); unused on a board, where the host answers
     */
    output wire [15:0]                  bar_latency,
    output wire [7:0]                   cpl_split,
    // CPL_BUFFER_BYTES, for the completer model (a constant of this build)
    output wire [31:0]                  cpl_buffer_bytes,

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

// BAR_JITTER: the twin's host model answers with a fixed latency in switch mode (no jitter draw
// there yet); on a board the host answers and none of the completer settings apply
wire [15:0] bar_jitter;
wire unused_bar_jitter = &{1'b0, bar_jitter, 1'b0};

sw_router #(
    .TLP_DATA_WIDTH(TLP_DATA_WIDTH),
    .TLP_STRB_WIDTH(TLP_STRB_WIDTH),
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CNT_WIDTH(32)
)
switch_inst (
    .clk(clk),
    .rst(rst),
    .up_rx_data(up_rx_data), .up_rx_strb(up_rx_strb), .up_rx_hdr(up_rx_hdr), .up_rx_valid(up_rx_valid), .up_rx_sop(up_rx_sop), .up_rx_eop(up_rx_eop), .up_rx_ready(up_rx_ready),
    .up_tx_data(up_tx_data), .up_tx_strb(up_tx_strb), .up_tx_hdr(up_tx_hdr), .up_tx_valid(up_tx_valid), .up_tx_sop(up_tx_sop), .up_tx_eop(up_tx_eop), .up_tx_ready(up_tx_ready),
    .dn_rx_data(dn_rx_data), .dn_rx_strb(dn_rx_strb), .dn_rx_hdr(dn_rx_hdr), .dn_rx_valid(dn_rx_valid), .dn_rx_sop(dn_rx_sop), .dn_rx_eop(dn_rx_eop), .dn_rx_ready(dn_rx_ready),
    .dn_tx_data(dn_tx_data), .dn_tx_strb(dn_tx_strb), .dn_tx_hdr(dn_tx_hdr), .dn_tx_valid(dn_tx_valid), .dn_tx_sop(dn_tx_sop), .dn_tx_eop(dn_tx_eop), .dn_tx_ready(dn_tx_ready),
    .up_link_max_speed(up_link_max_speed), .up_link_max_width(up_link_max_width),
    .up_link_speed(up_link_speed), .up_link_width(up_link_width),
    .dn_link_max_speed(dn_link_max_speed), .dn_link_max_width(dn_link_max_width),
    .dn_link_speed(dn_link_speed), .dn_link_width(dn_link_width), .dn_link_up(dn_link_up),
    .up_rx_cnt(sw_up_rx_cnt),
    .dn_rx_cnt(sw_dn_rx_cnt)
);

// a UR completion (Cpl, status 001) handed to the GPU
wire gpu_ur = dn_tx_valid && dn_tx_ready && dn_tx_sop
              && dn_tx_hdr[124:120] == 5'b01010 && dn_tx_hdr[79:77] == 3'b001;

probe_core #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CLK_HZ(CLK_HZ),
    .CNT_WIDTH(CNT_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .LAT_BIN_CYCLES(LAT_BIN_CYCLES),
    .SAMPLE_FIFO_ADDR_WIDTH(SAMPLE_FIFO_ADDR_WIDTH),
    .LINK_GEN(LINK_GEN),
    .LINK_WIDTH(LINK_WIDTH),
    .MRRS(MRRS),
    .BUILD_ID(BUILD_ID),
    .MPS(MPS)
)
probe_core_inst (
    .clk(clk),
    .rst(rst),
    .rx_req_tlp_hdr(dn_rx_hdr),
    .rx_req_tlp_valid(dn_rx_valid),
    .rx_req_tlp_sop(dn_rx_sop),
    .rx_req_tlp_ready(dn_rx_ready),
    .tx_cpl_tlp_hdr(dn_tx_hdr),
    .tx_cpl_tlp_valid(dn_tx_valid),
    .tx_cpl_tlp_sop(dn_tx_sop),
    .tx_cpl_tlp_ready(dn_tx_ready),
    .bar_ur(gpu_ur),
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

localparam [31:0] CPL_BUFFER_BYTES_32 = CPL_BUFFER_BYTES;
assign cpl_buffer_bytes = CPL_BUFFER_BYTES_32;

endmodule

`resetall
