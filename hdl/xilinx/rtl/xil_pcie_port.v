`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One UltraScale+ integrated block as one switch port on the generic TLP stream: its four
 * AXI-Stream interfaces (CQ, RC in; RQ, CC out) through the adapters, the two receive
 * streams merged into rx_tlp_*, tx_tlp_* split into requests (RQ) and completions (CC).
 * The AXI-Stream port names are the block's own, seen from the block (m_axis_cq_* is the
 * block's output), so a board top wires them one to one.
 */
module xil_pcie_port #
(
    // AXI4-Stream and generic data width: 256 or 512; 1024 with TLAST_FRAMING
    parameter DATA_WIDTH = 256,
    // 0: an UltraScale+ block (PG213 framing); 1: a Versal block (PL PCIE PG343, CPM5 PG346)
    // with straddle off: framing from tlast / tkeep (xil_cq_rx)
    parameter TLAST_FRAMING = 0,
    // CQ straddle (512 bits only), RC straddle (256 or 512)
    parameter CQ_STRADDLE = 0,
    parameter RC_STRADDLE = 1,
    // send the header's Requester ID on RQ / Completer ID on CC (xil_rq_tx, xil_cc_tx)
    parameter REQ_ID_ENABLE = 1,
    parameter CPL_ID_ENABLE = 1,
    // tuser widths (PG213; with TLAST_FRAMING PG343 / PG346, docs/xilinx.md, "Versal blocks")
    parameter CQ_USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 465 : DATA_WIDTH == 512 ? 229 : 109)
                                            : (DATA_WIDTH == 512 ? 183 : 88),
    parameter RC_USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 337 : DATA_WIDTH == 512 ? 161 : 75)
                                            : (DATA_WIDTH == 512 ? 161 : 75),
    parameter RQ_USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 373 : DATA_WIDTH == 512 ? 183 : 62)
                                            : (DATA_WIDTH == 512 ? 137 : 62),
    parameter CC_USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 165 : DATA_WIDTH == 512 ? 81 : 33)
                                            : (DATA_WIDTH == 512 ? 81 : 33)
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * the block's interfaces
     */
    input  wire [DATA_WIDTH-1:0]      m_axis_cq_tdata,
    input  wire [DATA_WIDTH/32-1:0]   m_axis_cq_tkeep,
    input  wire                       m_axis_cq_tvalid,
    output wire                       m_axis_cq_tready,
    input  wire                       m_axis_cq_tlast,
    input  wire [CQ_USER_WIDTH-1:0]   m_axis_cq_tuser,

    input  wire [DATA_WIDTH-1:0]      m_axis_rc_tdata,
    input  wire [DATA_WIDTH/32-1:0]   m_axis_rc_tkeep,
    input  wire                       m_axis_rc_tvalid,
    output wire                       m_axis_rc_tready,
    input  wire                       m_axis_rc_tlast,
    input  wire [RC_USER_WIDTH-1:0]   m_axis_rc_tuser,

    output wire [DATA_WIDTH-1:0]      s_axis_rq_tdata,
    output wire [DATA_WIDTH/32-1:0]   s_axis_rq_tkeep,
    output wire                       s_axis_rq_tvalid,
    input  wire                       s_axis_rq_tready,
    output wire                       s_axis_rq_tlast,
    output wire [RQ_USER_WIDTH-1:0]   s_axis_rq_tuser,

    output wire [DATA_WIDTH-1:0]      s_axis_cc_tdata,
    output wire [DATA_WIDTH/32-1:0]   s_axis_cc_tkeep,
    output wire                       s_axis_cc_tvalid,
    input  wire                       s_axis_cc_tready,
    output wire                       s_axis_cc_tlast,
    output wire [CC_USER_WIDTH-1:0]   s_axis_cc_tuser,

    /*
     * generic TLP stream: everything the link partner sent, everything to send it
     */
    output wire [DATA_WIDTH-1:0]      rx_tlp_data,
    output wire [DATA_WIDTH/32-1:0]   rx_tlp_strb,
    output wire [127:0]               rx_tlp_hdr,
    output wire                       rx_tlp_valid,
    output wire                       rx_tlp_sop,
    output wire                       rx_tlp_eop,
    input  wire                       rx_tlp_ready,

    input  wire [DATA_WIDTH-1:0]      tx_tlp_data,
    input  wire [DATA_WIDTH/32-1:0]   tx_tlp_strb,
    input  wire [127:0]               tx_tlp_hdr,
    input  wire                       tx_tlp_valid,
    input  wire                       tx_tlp_sop,
    input  wire                       tx_tlp_eop,
    output wire                       tx_tlp_ready,

    // TLPs an adapter dropped (xil_*: unsupported type or broken framing), CQ, RC, RQ, CC
    output wire [4*32-1:0]            drop_count
);

localparam STRB_WIDTH = DATA_WIDTH/32;

wire [DATA_WIDTH-1:0] req_rx_data, cpl_rx_data, req_tx_data, cpl_tx_data;
wire [STRB_WIDTH-1:0] req_rx_strb, cpl_rx_strb, req_tx_strb, cpl_tx_strb;
wire [127:0]          req_rx_hdr, cpl_rx_hdr, req_tx_hdr, cpl_tx_hdr;
wire                  req_rx_valid, req_rx_sop, req_rx_eop, req_rx_ready;
wire                  cpl_rx_valid, cpl_rx_sop, cpl_rx_eop, cpl_rx_ready;
wire                  req_tx_valid, req_tx_sop, req_tx_eop, req_tx_ready;
wire                  cpl_tx_valid, cpl_tx_sop, cpl_tx_eop, cpl_tx_ready;

xil_cq_rx #(
    .DATA_WIDTH(DATA_WIDTH),
    .TLAST_FRAMING(TLAST_FRAMING),
    .STRADDLE(CQ_STRADDLE),
    .USER_WIDTH(CQ_USER_WIDTH)
)
cq_rx_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_cq_tdata(m_axis_cq_tdata),
    .s_axis_cq_tkeep(m_axis_cq_tkeep),
    .s_axis_cq_tvalid(m_axis_cq_tvalid),
    .s_axis_cq_tready(m_axis_cq_tready),
    .s_axis_cq_tlast(m_axis_cq_tlast),
    .s_axis_cq_tuser(m_axis_cq_tuser),
    .rx_tlp_data(req_rx_data),
    .rx_tlp_strb(req_rx_strb),
    .rx_tlp_hdr(req_rx_hdr),
    .rx_tlp_valid(req_rx_valid),
    .rx_tlp_sop(req_rx_sop),
    .rx_tlp_eop(req_rx_eop),
    .rx_tlp_ready(req_rx_ready),
    .drop_count(drop_count[0*32 +: 32])
);

xil_rc_rx #(
    .DATA_WIDTH(DATA_WIDTH),
    .TLAST_FRAMING(TLAST_FRAMING),
    .STRADDLE(RC_STRADDLE),
    .USER_WIDTH(RC_USER_WIDTH)
)
rc_rx_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_rc_tdata(m_axis_rc_tdata),
    .s_axis_rc_tkeep(m_axis_rc_tkeep),
    .s_axis_rc_tvalid(m_axis_rc_tvalid),
    .s_axis_rc_tready(m_axis_rc_tready),
    .s_axis_rc_tlast(m_axis_rc_tlast),
    .s_axis_rc_tuser(m_axis_rc_tuser),
    .rx_tlp_data(cpl_rx_data),
    .rx_tlp_strb(cpl_rx_strb),
    .rx_tlp_hdr(cpl_rx_hdr),
    .rx_tlp_valid(cpl_rx_valid),
    .rx_tlp_sop(cpl_rx_sop),
    .rx_tlp_eop(cpl_rx_eop),
    .rx_tlp_ready(cpl_rx_ready),
    .drop_count(drop_count[1*32 +: 32])
);

xil_rx_merge #(
    .DATA_WIDTH(DATA_WIDTH)
)
rx_merge_inst (
    .clk(clk),
    .rst(rst),
    .a_tlp_data(req_rx_data), .a_tlp_strb(req_rx_strb), .a_tlp_hdr(req_rx_hdr), .a_tlp_valid(req_rx_valid), .a_tlp_sop(req_rx_sop), .a_tlp_eop(req_rx_eop), .a_tlp_ready(req_rx_ready),
    .b_tlp_data(cpl_rx_data), .b_tlp_strb(cpl_rx_strb), .b_tlp_hdr(cpl_rx_hdr), .b_tlp_valid(cpl_rx_valid), .b_tlp_sop(cpl_rx_sop), .b_tlp_eop(cpl_rx_eop), .b_tlp_ready(cpl_rx_ready),
    .out_tlp_data(rx_tlp_data), .out_tlp_strb(rx_tlp_strb), .out_tlp_hdr(rx_tlp_hdr), .out_tlp_valid(rx_tlp_valid), .out_tlp_sop(rx_tlp_sop), .out_tlp_eop(rx_tlp_eop), .out_tlp_ready(rx_tlp_ready)
);

xil_tx_split #(
    .DATA_WIDTH(DATA_WIDTH)
)
tx_split_inst (
    .clk(clk),
    .rst(rst),
    .in_tlp_data(tx_tlp_data), .in_tlp_strb(tx_tlp_strb), .in_tlp_hdr(tx_tlp_hdr), .in_tlp_valid(tx_tlp_valid), .in_tlp_sop(tx_tlp_sop), .in_tlp_eop(tx_tlp_eop), .in_tlp_ready(tx_tlp_ready),
    .req_tlp_data(req_tx_data), .req_tlp_strb(req_tx_strb), .req_tlp_hdr(req_tx_hdr), .req_tlp_valid(req_tx_valid), .req_tlp_sop(req_tx_sop), .req_tlp_eop(req_tx_eop), .req_tlp_ready(req_tx_ready),
    .cpl_tlp_data(cpl_tx_data), .cpl_tlp_strb(cpl_tx_strb), .cpl_tlp_hdr(cpl_tx_hdr), .cpl_tlp_valid(cpl_tx_valid), .cpl_tlp_sop(cpl_tx_sop), .cpl_tlp_eop(cpl_tx_eop), .cpl_tlp_ready(cpl_tx_ready)
);

xil_rq_tx #(
    .DATA_WIDTH(DATA_WIDTH),
    .TLAST_FRAMING(TLAST_FRAMING),
    .USER_WIDTH(RQ_USER_WIDTH),
    .REQ_ID_ENABLE(REQ_ID_ENABLE)
)
rq_tx_inst (
    .clk(clk),
    .rst(rst),
    .tx_tlp_data(req_tx_data),
    .tx_tlp_strb(req_tx_strb),
    .tx_tlp_hdr(req_tx_hdr),
    .tx_tlp_valid(req_tx_valid),
    .tx_tlp_sop(req_tx_sop),
    .tx_tlp_eop(req_tx_eop),
    .tx_tlp_ready(req_tx_ready),
    .m_axis_rq_tdata(s_axis_rq_tdata),
    .m_axis_rq_tkeep(s_axis_rq_tkeep),
    .m_axis_rq_tvalid(s_axis_rq_tvalid),
    .m_axis_rq_tready(s_axis_rq_tready),
    .m_axis_rq_tlast(s_axis_rq_tlast),
    .m_axis_rq_tuser(s_axis_rq_tuser),
    .drop_count(drop_count[2*32 +: 32])
);

xil_cc_tx #(
    .DATA_WIDTH(DATA_WIDTH),
    .TLAST_FRAMING(TLAST_FRAMING),
    .USER_WIDTH(CC_USER_WIDTH),
    .CPL_ID_ENABLE(CPL_ID_ENABLE)
)
cc_tx_inst (
    .clk(clk),
    .rst(rst),
    .tx_tlp_data(cpl_tx_data),
    .tx_tlp_strb(cpl_tx_strb),
    .tx_tlp_hdr(cpl_tx_hdr),
    .tx_tlp_valid(cpl_tx_valid),
    .tx_tlp_sop(cpl_tx_sop),
    .tx_tlp_eop(cpl_tx_eop),
    .tx_tlp_ready(cpl_tx_ready),
    .m_axis_cc_tdata(s_axis_cc_tdata),
    .m_axis_cc_tkeep(s_axis_cc_tkeep),
    .m_axis_cc_tvalid(s_axis_cc_tvalid),
    .m_axis_cc_tready(s_axis_cc_tready),
    .m_axis_cc_tlast(s_axis_cc_tlast),
    .m_axis_cc_tuser(s_axis_cc_tuser),
    .drop_count(drop_count[3*32 +: 32])
);

endmodule

`resetall
