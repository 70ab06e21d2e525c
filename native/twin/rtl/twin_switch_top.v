`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * The twin's switch-mode top (simulation only, never synthesised): pcie_scope_switch_top with
 * its clock made from a toggle, as twin_bar_top does for the BAR top: the twin flips 'tick'
 * once a cycle, with that cycle's inputs, and one eval() of the Verilated model is one rising
 * edge.
 *
 * The host model's inputs (up_rx_*, up_tx_ready, up_tx_np_ok) arrive one clock ahead and are
 * registered here: the twin computes, before an edge, what the host drives after it, and the
 * switch top sees at the next edge exactly what it would see from a host that drove them
 * after this one. Its tx_np_ok thus comes from a flip-flop, and so does the GPU side's
 * (dn_tx_np_ok, constant in the twin): each egress packer, combinational in its tx_np_ok, is
 * evaluated once a clock, after the edge, and not again for an input change before it.
 * s_axil_arready/awready follow the CSR address without a flip-flop (probe_axil_tap_demux):
 * the twin settles the design again, without an edge, while the CSR port is in use
 * (switch_dut.cpp); every other input waits for the edge.
 */
module twin_switch_top #
(
    parameter TLP_DATA_WIDTH = 512,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter TLP_SEG_COUNT = 1
)
(
    // one rising edge of the design's clock per change of 'tick'
    input  wire                               tick,
    input  wire                               rst,
    input  wire [TLP_DATA_WIDTH-1:0]          up_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]          up_rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0]       up_rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]           up_rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]           up_rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]           up_rx_eop,
    output wire                               up_rx_ready,
    output wire [TLP_DATA_WIDTH-1:0]          up_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]          up_tx_strb,
    output wire [TLP_SEG_COUNT*128-1:0]       up_tx_hdr,
    output wire [TLP_SEG_COUNT-1:0]           up_tx_valid,
    output wire [TLP_SEG_COUNT-1:0]           up_tx_sop,
    output wire [TLP_SEG_COUNT-1:0]           up_tx_eop,
    input  wire                               up_tx_ready,
    input  wire                               up_tx_np_ok,
    input  wire [TLP_DATA_WIDTH-1:0]          dn_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]          dn_rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0]       dn_rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]           dn_rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]           dn_rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]           dn_rx_eop,
    output wire                               dn_rx_ready,
    output wire [TLP_DATA_WIDTH-1:0]          dn_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]          dn_tx_strb,
    output wire [TLP_SEG_COUNT*128-1:0]       dn_tx_hdr,
    output wire [TLP_SEG_COUNT-1:0]           dn_tx_valid,
    output wire [TLP_SEG_COUNT-1:0]           dn_tx_sop,
    output wire [TLP_SEG_COUNT-1:0]           dn_tx_eop,
    input  wire                               dn_tx_ready,
    input  wire                               dn_tx_np_ok,
    input  wire [3:0]                         up_link_max_speed,
    input  wire [5:0]                         up_link_max_width,
    input  wire [3:0]                         up_link_speed,
    input  wire [5:0]                         up_link_width,
    input  wire [3:0]                         dn_link_max_speed,
    input  wire [5:0]                         dn_link_max_width,
    input  wire [3:0]                         dn_link_speed,
    input  wire [5:0]                         dn_link_width,
    input  wire                               dn_link_up,
    output wire [`PS_SW_CNT_COUNT*32-1:0]     sw_up_rx_cnt,
    output wire [`PS_SW_CNT_COUNT*32-1:0]     sw_dn_rx_cnt,
    output wire [15:0]                        bar_latency,
    output wire [15:0]                        bar_jitter,
    output wire [7:0]                         cpl_split,
    output wire [31:0]                        cpl_buffer_bytes,
    input  wire [12:0]                        s_axil_awaddr,
    input  wire                               s_axil_awvalid,
    output wire                               s_axil_awready,
    input  wire [31:0]                        s_axil_wdata,
    input  wire [3:0]                         s_axil_wstrb,
    input  wire                               s_axil_wvalid,
    output wire                               s_axil_wready,
    output wire [1:0]                         s_axil_bresp,
    output wire                               s_axil_bvalid,
    input  wire                               s_axil_bready,
    input  wire [12:0]                        s_axil_araddr,
    input  wire                               s_axil_arvalid,
    output wire                               s_axil_arready,
    output wire [31:0]                        s_axil_rdata,
    output wire [1:0]                         s_axil_rresp,
    output wire                               s_axil_rvalid,
    input  wire                               s_axil_rready
);

reg  tick_seen = 1'b0;
wire clk = tick ^ tick_seen;

// the host model's inputs for the clock after this edge (reset values: an idle host that can
// take everything)
reg [TLP_DATA_WIDTH-1:0]    up_rx_data_q = {TLP_DATA_WIDTH{1'b0}};
reg [TLP_STRB_WIDTH-1:0]    up_rx_strb_q = {TLP_STRB_WIDTH{1'b0}};
reg [TLP_SEG_COUNT*128-1:0] up_rx_hdr_q = {TLP_SEG_COUNT*128{1'b0}};
reg [TLP_SEG_COUNT-1:0]     up_rx_valid_q = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     up_rx_sop_q = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     up_rx_eop_q = {TLP_SEG_COUNT{1'b0}};
reg                         up_tx_ready_q = 1'b1;
reg                         up_tx_np_ok_q = 1'b1;
// the GPU model's non-posted credit (constant in the twin): a register too, so that neither
// port's egress packer hangs off an input
reg                         dn_tx_np_ok_q = 1'b1;

always @(posedge clk) begin
    tick_seen <= tick;
    up_rx_data_q <= up_rx_data;
    up_rx_strb_q <= up_rx_strb;
    up_rx_hdr_q <= up_rx_hdr;
    up_rx_valid_q <= up_rx_valid;
    up_rx_sop_q <= up_rx_sop;
    up_rx_eop_q <= up_rx_eop;
    up_tx_ready_q <= up_tx_ready;
    up_tx_np_ok_q <= up_tx_np_ok;
    dn_tx_np_ok_q <= dn_tx_np_ok;
end

pcie_scope_switch_top #(
    .TLP_DATA_WIDTH(TLP_DATA_WIDTH),
    .TLP_STRB_WIDTH(TLP_STRB_WIDTH),
    .TLP_SEG_COUNT(TLP_SEG_COUNT)
)
switch_top_inst (
    .clk(clk),
    .rst(rst),
    .up_rx_data(up_rx_data_q),
    .up_rx_strb(up_rx_strb_q),
    .up_rx_hdr(up_rx_hdr_q),
    .up_rx_valid(up_rx_valid_q),
    .up_rx_sop(up_rx_sop_q),
    .up_rx_eop(up_rx_eop_q),
    .up_rx_ready(up_rx_ready),
    .up_tx_data(up_tx_data),
    .up_tx_strb(up_tx_strb),
    .up_tx_hdr(up_tx_hdr),
    .up_tx_valid(up_tx_valid),
    .up_tx_sop(up_tx_sop),
    .up_tx_eop(up_tx_eop),
    .up_tx_ready(up_tx_ready_q),
    .up_tx_np_ok(up_tx_np_ok_q),
    .dn_rx_data(dn_rx_data),
    .dn_rx_strb(dn_rx_strb),
    .dn_rx_hdr(dn_rx_hdr),
    .dn_rx_valid(dn_rx_valid),
    .dn_rx_sop(dn_rx_sop),
    .dn_rx_eop(dn_rx_eop),
    .dn_rx_ready(dn_rx_ready),
    .dn_tx_data(dn_tx_data),
    .dn_tx_strb(dn_tx_strb),
    .dn_tx_hdr(dn_tx_hdr),
    .dn_tx_valid(dn_tx_valid),
    .dn_tx_sop(dn_tx_sop),
    .dn_tx_eop(dn_tx_eop),
    .dn_tx_ready(dn_tx_ready),
    .dn_tx_np_ok(dn_tx_np_ok_q),
    .up_link_max_speed(up_link_max_speed),
    .up_link_max_width(up_link_max_width),
    .up_link_speed(up_link_speed),
    .up_link_width(up_link_width),
    .dn_link_max_speed(dn_link_max_speed),
    .dn_link_max_width(dn_link_max_width),
    .dn_link_speed(dn_link_speed),
    .dn_link_width(dn_link_width),
    .dn_link_up(dn_link_up),
    .sw_up_rx_cnt(sw_up_rx_cnt),
    .sw_dn_rx_cnt(sw_dn_rx_cnt),
    .bar_latency(bar_latency),
    .bar_jitter(bar_jitter),
    .cpl_split(cpl_split),
    .cpl_buffer_bytes(cpl_buffer_bytes),
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
