`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie4_input_tieoffs.vh"

/*
 * pcie-scope BAR-endpoint design on an AMD VCU118 (XCVU9P): the host's x16 edge connector
 * (PCIE4 block pcie_up, Endpoint, Gen3 x8) carries the BAR the GPU reads zero-copy (the GPU
 * sits in another slot of the same host), pcie_scope_bar_top answers and counts those reads,
 * and the MicroBlaze of cpu_bd runs the firmware on the CSR. The same board files as
 * vcu118_switch_top without the downstream block: build.tcl's "bar" design, pins in vcu118.xdc.
 */
module vcu118_bar_top #
(
    // CSR BUILD_ID
    parameter BUILD_ID = 0
)
(
    input  wire        clk_125mhz_p,
    input  wire        clk_125mhz_n,
    input  wire        cpu_reset,
    output wire        uart_txd,
    input  wire        uart_rxd,
    output wire [7:0]  led,

    input  wire [7:0]  pcie_up_rx_p,
    input  wire [7:0]  pcie_up_rx_n,
    output wire [7:0]  pcie_up_tx_p,
    output wire [7:0]  pcie_up_tx_n,
    input  wire        pcie_up_refclk_p,
    input  wire        pcie_up_refclk_n,
    input  wire        pcie_up_perst_n
);

localparam DATA_WIDTH = 256;
localparam STRB_WIDTH = DATA_WIDTH/32;

wire up_clk, up_rst;

/*
 * soft CPU
 */
wire cpu_clk, cpu_locked;
wire [31:0] csr_awaddr, csr_araddr;
wire [2:0]  csr_awprot, csr_arprot;
wire csr_awvalid, csr_awready, csr_wvalid, csr_wready, csr_bvalid, csr_bready;
wire csr_arvalid, csr_arready, csr_rvalid, csr_rready;
wire [31:0] csr_wdata, csr_rdata;
wire [3:0]  csr_wstrb;
wire [1:0]  csr_bresp, csr_rresp;

cpu_bd_wrapper cpu_bd_inst (
    .clk_125mhz_clk_p(clk_125mhz_p),
    .clk_125mhz_clk_n(clk_125mhz_n),
    .reset(cpu_reset),
    .cpu_clk(cpu_clk),
    .cpu_locked(cpu_locked),
    .uart_rxd(uart_rxd),
    .uart_txd(uart_txd),
    .csr_clk(up_clk),
    .csr_resetn(!up_rst),
    .M_AXI_CSR_awaddr(csr_awaddr),
    .M_AXI_CSR_awprot(csr_awprot),
    .M_AXI_CSR_awvalid(csr_awvalid),
    .M_AXI_CSR_awready(csr_awready),
    .M_AXI_CSR_wdata(csr_wdata),
    .M_AXI_CSR_wstrb(csr_wstrb),
    .M_AXI_CSR_wvalid(csr_wvalid),
    .M_AXI_CSR_wready(csr_wready),
    .M_AXI_CSR_bresp(csr_bresp),
    .M_AXI_CSR_bvalid(csr_bvalid),
    .M_AXI_CSR_bready(csr_bready),
    .M_AXI_CSR_araddr(csr_araddr),
    .M_AXI_CSR_arprot(csr_arprot),
    .M_AXI_CSR_arvalid(csr_arvalid),
    .M_AXI_CSR_arready(csr_arready),
    .M_AXI_CSR_rdata(csr_rdata),
    .M_AXI_CSR_rresp(csr_rresp),
    .M_AXI_CSR_rvalid(csr_rvalid),
    .M_AXI_CSR_rready(csr_rready)
);

// the CSR decodes 12 bits; protection unused; the CPU's own clock drives nothing here
wire unused_cpu = &{1'b0, csr_awaddr[31:12], csr_araddr[31:12], csr_awprot, csr_arprot, cpu_clk, cpu_locked, 1'b0};

/*
 * the integrated block (Endpoint) as one stream each way
 */
wire up_refclk, up_refclk_gt;

IBUFDS_GTE4 up_refclk_ibuf_inst (
    .I(pcie_up_refclk_p),
    .IB(pcie_up_refclk_n),
    .CEB(1'b0),
    .O(up_refclk_gt),
    .ODIV2(up_refclk)
);

wire [DATA_WIDTH-1:0] up_cq_tdata, up_rc_tdata, up_rq_tdata, up_cc_tdata;
wire [STRB_WIDTH-1:0] up_cq_tkeep, up_rc_tkeep, up_rq_tkeep, up_cc_tkeep;
wire up_cq_tvalid, up_cq_tready, up_cq_tlast;
wire up_rc_tvalid, up_rc_tready, up_rc_tlast;
wire up_rq_tvalid, up_rq_tlast;
wire up_cc_tvalid, up_cc_tlast;
// the block's RQ and CC tready are 4 copies of one bit (PG213); bit 0 is used
wire [3:0] up_rq_tready4, up_cc_tready4;
wire unused_up_tready = &{1'b0, up_rq_tready4[3:1], up_cc_tready4[3:1], 1'b0};
wire [87:0] up_cq_tuser;
wire [74:0] up_rc_tuser;
wire [61:0] up_rq_tuser;
wire [32:0] up_cc_tuser;
wire up_lnk_up;
// the trained link (PG213 Configuration Status: cfg_current_speed 0 = 2.5 GT/s .. 3 = 16 GT/s,
// cfg_negotiated_width = log2 of lanes), in up_clk like the probe
wire [1:0] up_cfg_speed;
wire [2:0] up_cfg_width;

pcie_up pcie_up_inst (
    .pci_exp_rxp(pcie_up_rx_p),
    .pci_exp_rxn(pcie_up_rx_n),
    .pci_exp_txp(pcie_up_tx_p),
    .pci_exp_txn(pcie_up_tx_n),
    .sys_clk(up_refclk),
    .sys_clk_gt(up_refclk_gt),
    .sys_reset(pcie_up_perst_n),
    .user_clk(up_clk),
    .user_reset(up_rst),
    .user_lnk_up(up_lnk_up),
    .m_axis_cq_tdata(up_cq_tdata), .m_axis_cq_tkeep(up_cq_tkeep), .m_axis_cq_tvalid(up_cq_tvalid), .m_axis_cq_tready(up_cq_tready), .m_axis_cq_tlast(up_cq_tlast), .m_axis_cq_tuser(up_cq_tuser),
    .m_axis_rc_tdata(up_rc_tdata), .m_axis_rc_tkeep(up_rc_tkeep), .m_axis_rc_tvalid(up_rc_tvalid), .m_axis_rc_tready(up_rc_tready), .m_axis_rc_tlast(up_rc_tlast), .m_axis_rc_tuser(up_rc_tuser),
    .s_axis_rq_tdata(up_rq_tdata), .s_axis_rq_tkeep(up_rq_tkeep), .s_axis_rq_tvalid(up_rq_tvalid), .s_axis_rq_tready(up_rq_tready4), .s_axis_rq_tlast(up_rq_tlast), .s_axis_rq_tuser(up_rq_tuser),
    .s_axis_cc_tdata(up_cc_tdata), .s_axis_cc_tkeep(up_cc_tkeep), .s_axis_cc_tvalid(up_cc_tvalid), .s_axis_cc_tready(up_cc_tready4), .s_axis_cc_tlast(up_cc_tlast), .s_axis_cc_tuser(up_cc_tuser),
    .cfg_current_speed(up_cfg_speed),
    .cfg_negotiated_width(up_cfg_width),
    `PCIE4_INPUT_TIEOFFS
);

wire [DATA_WIDTH-1:0] rx_data, tx_data;
wire [STRB_WIDTH-1:0] rx_strb, tx_strb;
wire [127:0] rx_hdr, tx_hdr;
wire rx_valid, rx_sop, rx_eop, rx_ready;
wire tx_valid, tx_sop, tx_eop, tx_ready;
wire [4*32-1:0] drop_count;

// CPL_ID_ENABLE 0: the block puts its own bus/device/function in the completions, not the
// responder's fixed Completer ID; the design sends no requests, so RQ and RC stay idle
xil_pcie_port #(
    .DATA_WIDTH(DATA_WIDTH),
    .CPL_ID_ENABLE(0)
)
up_port_inst (
    .clk(up_clk),
    .rst(up_rst),
    .m_axis_cq_tdata(up_cq_tdata), .m_axis_cq_tkeep(up_cq_tkeep), .m_axis_cq_tvalid(up_cq_tvalid), .m_axis_cq_tready(up_cq_tready), .m_axis_cq_tlast(up_cq_tlast), .m_axis_cq_tuser(up_cq_tuser),
    .m_axis_rc_tdata(up_rc_tdata), .m_axis_rc_tkeep(up_rc_tkeep), .m_axis_rc_tvalid(up_rc_tvalid), .m_axis_rc_tready(up_rc_tready), .m_axis_rc_tlast(up_rc_tlast), .m_axis_rc_tuser(up_rc_tuser),
    .s_axis_rq_tdata(up_rq_tdata), .s_axis_rq_tkeep(up_rq_tkeep), .s_axis_rq_tvalid(up_rq_tvalid), .s_axis_rq_tready(up_rq_tready4[0]), .s_axis_rq_tlast(up_rq_tlast), .s_axis_rq_tuser(up_rq_tuser),
    .s_axis_cc_tdata(up_cc_tdata), .s_axis_cc_tkeep(up_cc_tkeep), .s_axis_cc_tvalid(up_cc_tvalid), .s_axis_cc_tready(up_cc_tready4[0]), .s_axis_cc_tlast(up_cc_tlast), .s_axis_cc_tuser(up_cc_tuser),
    .rx_tlp_data(rx_data), .rx_tlp_strb(rx_strb), .rx_tlp_hdr(rx_hdr), .rx_tlp_valid(rx_valid), .rx_tlp_sop(rx_sop), .rx_tlp_eop(rx_eop), .rx_tlp_ready(rx_ready),
    .tx_tlp_data(tx_data), .tx_tlp_strb(tx_strb), .tx_tlp_hdr(tx_hdr), .tx_tlp_valid(tx_valid), .tx_tlp_sop(tx_sop), .tx_tlp_eop(tx_eop), .tx_tlp_ready(tx_ready),
    .drop_count(drop_count)
);

/*
 * the BAR responder with the probe
 */
pcie_scope_bar_top #(
    .TLP_DATA_WIDTH(DATA_WIDTH),
    .CLK_HZ(250000000),
    .MRRS(512),
    .BUILD_ID(BUILD_ID)
)
bar_inst (
    .clk(up_clk),
    .rst(up_rst),
    .rx_req_tlp_data(rx_data),
    .rx_req_tlp_strb(rx_strb),
    .rx_req_tlp_hdr(rx_hdr),
    .rx_req_tlp_valid(rx_valid),
    .rx_req_tlp_sop(rx_sop),
    .rx_req_tlp_eop(rx_eop),
    .rx_req_tlp_ready(rx_ready),
    .tx_cpl_tlp_data(tx_data),
    .tx_cpl_tlp_strb(tx_strb),
    .tx_cpl_tlp_hdr(tx_hdr),
    .tx_cpl_tlp_valid(tx_valid),
    .tx_cpl_tlp_sop(tx_sop),
    .tx_cpl_tlp_eop(tx_eop),
    .tx_cpl_tlp_ready(tx_ready),
    // LINK_GEN / LINK_WIDTH: the block's encodings to Link Status ones (speed 1 = 2.5 GT/s ..,
    // width in lanes), as the switch top converts them
    .link_gen({2'b00, up_cfg_speed} + 4'd1),
    .link_width(6'd1 << up_cfg_width),
    .s_axil_awaddr(csr_awaddr[11:0]),
    .s_axil_awvalid(csr_awvalid),
    .s_axil_awready(csr_awready),
    .s_axil_wdata(csr_wdata),
    .s_axil_wstrb(csr_wstrb),
    .s_axil_wvalid(csr_wvalid),
    .s_axil_wready(csr_wready),
    .s_axil_bresp(csr_bresp),
    .s_axil_bvalid(csr_bvalid),
    .s_axil_bready(csr_bready),
    .s_axil_araddr(csr_araddr[11:0]),
    .s_axil_arvalid(csr_arvalid),
    .s_axil_arready(csr_arready),
    .s_axil_rdata(csr_rdata),
    .s_axil_rresp(csr_rresp),
    .s_axil_rvalid(csr_rvalid),
    .s_axil_rready(csr_rready)
);

/*
 * LEDs for the first power-up: link, adapter drops, a heartbeat (the others stay dark)
 */
reg [26:0] heartbeat_reg = 27'd0;

always @(posedge up_clk) begin
    heartbeat_reg <= heartbeat_reg + 1'b1;
end

assign led = {heartbeat_reg[26], 4'b0000, |drop_count, 1'b0, up_lnk_up};

endmodule

`resetall
