`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The twin's endpoint-mode top (simulation only, never synthesised): pcie_scope_bar_top with its
 * clock made from a toggle, so that one eval() of the Verilated model is one rising edge.
 *
 * A Verilated model sees an edge only between two evaluations, so a clock input costs two evals
 * a cycle (low, then high), and each eval re-runs every piece of logic an input feeds. Here the
 * twin flips 'tick' once a cycle, with that cycle's inputs: clk = tick ^ tick_seen rises, the
 * design's flip-flops and tick_seen take the edge, and clk falls again within the same eval.
 *
 * This is exact only because no output of pcie_scope_bar_top depends on an input without a
 * flip-flop between them (its outputs are registers, or logic of registers): the outputs after
 * an edge are what the design drives for the whole next cycle. hdl/README states that property
 * and the twin's endpoint tests fail without it.
 */
module twin_bar_top #
(
    parameter TLP_DATA_WIDTH = 512,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter TLP_SEG_COUNT = 1
)
(
    // one rising edge of the design's clock per change of 'tick'
    input  wire                         tick,
    input  wire                         rst,

    input  wire [TLP_DATA_WIDTH-1:0]    rx_req_tlp_data,
    input  wire [TLP_STRB_WIDTH-1:0]    rx_req_tlp_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] rx_req_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_sop,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_eop,
    output wire                         rx_req_tlp_ready,

    output wire [TLP_DATA_WIDTH-1:0]    tx_cpl_tlp_data,
    output wire [TLP_STRB_WIDTH-1:0]    tx_cpl_tlp_strb,
    output wire [TLP_SEG_COUNT*128-1:0] tx_cpl_tlp_hdr,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_valid,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_sop,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_eop,
    input  wire                         tx_cpl_tlp_ready,

    // the modelled link (the twin's --link), reported in LINK_GEN / LINK_WIDTH
    input  wire [3:0]                   link_gen,
    input  wire [5:0]                   link_width,

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

reg  tick_seen = 1'b0;
wire clk = tick ^ tick_seen;

always @(posedge clk) begin
    tick_seen <= tick;
end

pcie_scope_bar_top #(
    .TLP_DATA_WIDTH(TLP_DATA_WIDTH),
    .TLP_STRB_WIDTH(TLP_STRB_WIDTH),
    .TLP_SEG_COUNT(TLP_SEG_COUNT)
)
bar_top_inst (
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
    .link_gen(link_gen),
    .link_width(link_width),
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
