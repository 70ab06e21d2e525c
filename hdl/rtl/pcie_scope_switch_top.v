`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * pcie-scope, switch design: the two-port switch (sw_router) between the host's root port
 * (upstream port, up_*) and the GPU (downstream port, dn_*), with a probe (probe_core, the BAR
 * top's) on each side of the switch, spec/registers.json `taps`:
 *   tap 0, GPU side:  the GPU's requests as it sends them (dn_rx) and the completions as it
 *                     receives them (dn_tx): the latency the GPU sees;
 *   tap 1, host side: the same requests leaving towards the host (up_tx) and the host's
 *                     completions arriving (up_rx): the host's latency alone.
 * The GPU side's latency exceeds the host side's by the switch's traversal of the request
 * (dn_rx -> up_tx) and of the completion (up_rx -> dn_tx), when no port is back-pressured.
 * Each tap has the whole register map in its own 4-KiB window (address bit 12,
 * probe_axil_tap_demux); TAP_INFO says which. BAR_LATENCY and CPL_SPLIT of tap 0 drive no
 * responder: they leave as ports for a completer model beside the design (the twin's host root
 * complex); tap 1's are unused. BAR_UR counts, per tap, the UR completions crossing its
 * completion side (tap 0: handed to the GPU, the switch's own and the host's; tap 1: the
 * host's). The switch's fate counters are ports (sw_*_cnt), not on the CSR yet.
 */
module pcie_scope_switch_top #
(
    // TLP data width
    parameter TLP_DATA_WIDTH = 256,
    // TLP strobe width
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    // TLP segments per beat (1, 2 or 4: the switch and both probes)
    parameter TLP_SEG_COUNT = 1,
    // clock frequency in Hz, reported in CLK_HZ
    parameter CLK_HZ = 250000000,
    // probe counter width in bits
    parameter CNT_WIDTH = 64,
    // tracker, as in pcie_scope_bar_top
    parameter TAG_WIDTH = 8,
    parameter TIMEOUT_CYCLES = 250000,
    // interval sampler FIFO and info registers, as in pcie_scope_bar_top
    parameter SAMPLE_FIFO_ADDR_WIDTH = 8,
    parameter MPS = 256,
    parameter MRRS = 512,
    // the host completer model's completion buffer, as the BAR responder's (cpl_buffer_bytes port)
    parameter CPL_BUFFER_BYTES = 16384,
    parameter BUILD_ID = 0,
    // sw_router: 1 when a hard block in switch-upstream-port mode owns the upstream port's
    // Type 1 header (the VPK120 design, hdl/xilinx/boards/vpk120/README.md); 0 (default)
    // emulates it in fabric
    parameter UP_CFG_IN_BLOCK = 0
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * upstream port: TLPs from the host
     */
    input  wire [TLP_DATA_WIDTH-1:0]    up_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]    up_rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] up_rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     up_rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]     up_rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]     up_rx_eop,
    output wire                         up_rx_ready,

    /*
     * upstream port: TLPs to the host
     */
    output wire [TLP_DATA_WIDTH-1:0]    up_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]    up_tx_strb,
    output wire [TLP_SEG_COUNT*128-1:0] up_tx_hdr,
    output wire [TLP_SEG_COUNT-1:0]     up_tx_valid,
    output wire [TLP_SEG_COUNT-1:0]     up_tx_sop,
    output wire [TLP_SEG_COUNT-1:0]     up_tx_eop,
    input  wire                         up_tx_ready,
    // the host can take a non-posted request now (its non-posted header credit); while low,
    // posted TLPs and completions pass the non-posted requests waiting in the switch
    input  wire                         up_tx_np_ok,

    /*
     * downstream port: TLPs from the GPU
     */
    input  wire [TLP_DATA_WIDTH-1:0]    dn_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]    dn_rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] dn_rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     dn_rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]     dn_rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]     dn_rx_eop,
    output wire                         dn_rx_ready,

    /*
     * downstream port: TLPs to the GPU
     */
    output wire [TLP_DATA_WIDTH-1:0]    dn_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]    dn_tx_strb,
    output wire [TLP_SEG_COUNT*128-1:0] dn_tx_hdr,
    output wire [TLP_SEG_COUNT-1:0]     dn_tx_valid,
    output wire [TLP_SEG_COUNT-1:0]     dn_tx_sop,
    output wire [TLP_SEG_COUNT-1:0]     dn_tx_eop,
    input  wire                         dn_tx_ready,
    // the GPU can take a non-posted request now
    input  wire                         dn_tx_np_ok,

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
     * the CSR's BAR_LATENCY, BAR_JITTER and CPL_SPLIT: settings of a completer model outside the
     * design (the twin's host root complex); unused on a board, where the host answers
     */
    output wire [15:0]                  bar_latency,
    output wire [15:0]                  bar_jitter,
    output wire [7:0]                   cpl_split,
    // CPL_BUFFER_BYTES, for the completer model (a constant of this build)
    output wire [31:0]                  cpl_buffer_bytes,

    /*
     * AXI4-Lite slave (CSR): bit 12 selects the tap (0 GPU side, 1 host side)
     */
    input  wire [12:0]                  s_axil_awaddr,
    input  wire                         s_axil_awvalid,
    output wire                         s_axil_awready,
    input  wire [31:0]                  s_axil_wdata,
    input  wire [3:0]                   s_axil_wstrb,
    input  wire                         s_axil_wvalid,
    output wire                         s_axil_wready,
    output wire [1:0]                   s_axil_bresp,
    output wire                         s_axil_bvalid,
    input  wire                         s_axil_bready,
    input  wire [12:0]                  s_axil_araddr,
    input  wire                         s_axil_arvalid,
    output wire                         s_axil_arready,
    output wire [31:0]                  s_axil_rdata,
    output wire [1:0]                   s_axil_rresp,
    output wire                         s_axil_rvalid,
    input  wire                         s_axil_rready
);

// On a board the host answers and none of the completer settings apply. The host side's
// completer settings have no user at all.
wire [15:0] host_bar_latency;
wire [15:0] host_bar_jitter;
wire [7:0]  host_cpl_split;
wire unused_completer = &{1'b0, host_bar_latency, host_bar_jitter, host_cpl_split, 1'b0};

sw_router #(
    .TLP_DATA_WIDTH(TLP_DATA_WIDTH),
    .TLP_STRB_WIDTH(TLP_STRB_WIDTH),
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CNT_WIDTH(32),
    .UP_CFG_IN_BLOCK(UP_CFG_IN_BLOCK)
)
switch_inst (
    .clk(clk),
    .rst(rst),
    .up_rx_data(up_rx_data), .up_rx_strb(up_rx_strb), .up_rx_hdr(up_rx_hdr), .up_rx_valid(up_rx_valid), .up_rx_sop(up_rx_sop), .up_rx_eop(up_rx_eop), .up_rx_ready(up_rx_ready),
    .up_tx_data(up_tx_data), .up_tx_strb(up_tx_strb), .up_tx_hdr(up_tx_hdr), .up_tx_valid(up_tx_valid), .up_tx_sop(up_tx_sop), .up_tx_eop(up_tx_eop), .up_tx_ready(up_tx_ready), .up_tx_np_ok(up_tx_np_ok),
    .dn_rx_data(dn_rx_data), .dn_rx_strb(dn_rx_strb), .dn_rx_hdr(dn_rx_hdr), .dn_rx_valid(dn_rx_valid), .dn_rx_sop(dn_rx_sop), .dn_rx_eop(dn_rx_eop), .dn_rx_ready(dn_rx_ready),
    .dn_tx_data(dn_tx_data), .dn_tx_strb(dn_tx_strb), .dn_tx_hdr(dn_tx_hdr), .dn_tx_valid(dn_tx_valid), .dn_tx_sop(dn_tx_sop), .dn_tx_eop(dn_tx_eop), .dn_tx_ready(dn_tx_ready), .dn_tx_np_ok(dn_tx_np_ok),
    .up_link_max_speed(up_link_max_speed), .up_link_max_width(up_link_max_width),
    .up_link_speed(up_link_speed), .up_link_width(up_link_width),
    .dn_link_max_speed(dn_link_max_speed), .dn_link_max_width(dn_link_max_width),
    .dn_link_speed(dn_link_speed), .dn_link_width(dn_link_width), .dn_link_up(dn_link_up),
    .up_rx_cnt(sw_up_rx_cnt),
    .dn_rx_cnt(sw_dn_rx_cnt)
);

// the CSR port split by tap: tap i's handshakes at bit i, its data at [32*i +: 32]
wire [11:0] tap_awaddr;
wire [1:0]  tap_awvalid;
wire [1:0]  tap_awready;
wire [31:0] tap_wdata;
wire [3:0]  tap_wstrb;
wire [1:0]  tap_wvalid;
wire [1:0]  tap_wready;
wire [3:0]  tap_bresp;
wire [1:0]  tap_bvalid;
wire [1:0]  tap_bready;
wire [11:0] tap_araddr;
wire [1:0]  tap_arvalid;
wire [1:0]  tap_arready;
wire [63:0] tap_rdata;
wire [3:0]  tap_rresp;
wire [1:0]  tap_rvalid;
wire [1:0]  tap_rready;

probe_axil_tap_demux csr_demux_inst (
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
    .m_axil_awaddr(tap_awaddr),
    .m_axil_awvalid(tap_awvalid),
    .m_axil_awready(tap_awready),
    .m_axil_wdata(tap_wdata),
    .m_axil_wstrb(tap_wstrb),
    .m_axil_wvalid(tap_wvalid),
    .m_axil_wready(tap_wready),
    .m_axil_bresp(tap_bresp),
    .m_axil_bvalid(tap_bvalid),
    .m_axil_bready(tap_bready),
    .m_axil_araddr(tap_araddr),
    .m_axil_arvalid(tap_arvalid),
    .m_axil_arready(tap_arready),
    .m_axil_rdata(tap_rdata),
    .m_axil_rresp(tap_rresp),
    .m_axil_rvalid(tap_rvalid),
    .m_axil_rready(tap_rready)
);

// every stream a probe taps, a clock later (tap_pipe): the egress beats leave the switch's
// packer combinationally, and the probes' paths start at these registers instead. All four
// alike, so each tap's latencies and the difference between the taps stay as they were
wire [TLP_SEG_COUNT*128-1:0] t_dn_rx_hdr, t_dn_tx_hdr, t_up_tx_hdr, t_up_rx_hdr;
wire [TLP_SEG_COUNT-1:0]     t_dn_rx_valid, t_dn_tx_valid, t_up_tx_valid, t_up_rx_valid;
wire [TLP_SEG_COUNT-1:0]     t_dn_rx_sop, t_dn_tx_sop, t_up_tx_sop, t_up_rx_sop;
wire                         t_dn_rx_ready, t_dn_tx_ready, t_up_tx_ready, t_up_rx_ready;

tap_pipe #(.SEG_COUNT(TLP_SEG_COUNT)) tap_dn_rx (
    .clk(clk), .rst(rst),
    .in_hdr(dn_rx_hdr), .in_valid(dn_rx_valid), .in_sop(dn_rx_sop), .in_ready(dn_rx_ready),
    .out_hdr(t_dn_rx_hdr), .out_valid(t_dn_rx_valid), .out_sop(t_dn_rx_sop), .out_ready(t_dn_rx_ready)
);
tap_pipe #(.SEG_COUNT(TLP_SEG_COUNT)) tap_dn_tx (
    .clk(clk), .rst(rst),
    .in_hdr(dn_tx_hdr), .in_valid(dn_tx_valid), .in_sop(dn_tx_sop), .in_ready(dn_tx_ready),
    .out_hdr(t_dn_tx_hdr), .out_valid(t_dn_tx_valid), .out_sop(t_dn_tx_sop), .out_ready(t_dn_tx_ready)
);
tap_pipe #(.SEG_COUNT(TLP_SEG_COUNT)) tap_up_tx (
    .clk(clk), .rst(rst),
    .in_hdr(up_tx_hdr), .in_valid(up_tx_valid), .in_sop(up_tx_sop), .in_ready(up_tx_ready),
    .out_hdr(t_up_tx_hdr), .out_valid(t_up_tx_valid), .out_sop(t_up_tx_sop), .out_ready(t_up_tx_ready)
);
tap_pipe #(.SEG_COUNT(TLP_SEG_COUNT)) tap_up_rx (
    .clk(clk), .rst(rst),
    .in_hdr(up_rx_hdr), .in_valid(up_rx_valid), .in_sop(up_rx_sop), .in_ready(up_rx_ready),
    .out_hdr(t_up_rx_hdr), .out_valid(t_up_rx_valid), .out_sop(t_up_rx_sop), .out_ready(t_up_rx_ready)
);

// the UR completions (Cpl, status 001) handed to the GPU, and those arriving from the host, one
// bit per segment: decoded from the tapped registers (a header is only read with its valid bit),
// so that the decode follows the register and not the packer
wire [TLP_SEG_COUNT-1:0] t_gpu_ur;
wire [TLP_SEG_COUNT-1:0] t_host_ur;
genvar g;
generate
    for (g = 0; g < TLP_SEG_COUNT; g = g + 1) begin : ur
        wire [127:0] dh = t_dn_tx_hdr[g*128 +: 128];
        wire [127:0] uh = t_up_rx_hdr[g*128 +: 128];
        assign t_gpu_ur[g] = t_dn_tx_valid[g] && t_dn_tx_ready && t_dn_tx_sop[g]
                             && dh[124:120] == 5'b01010 && dh[79:77] == 3'b001;
        assign t_host_ur[g] = t_up_rx_valid[g] && t_up_rx_ready && t_up_rx_sop[g]
                              && uh[124:120] == 5'b01010 && uh[79:77] == 3'b001;
        wire unused_hdr = &{1'b0, dh[127:125], dh[119:80], dh[76:0], uh[127:125], uh[119:80], uh[76:0], 1'b0};
    end
endgenerate

// tap 0, GPU side: the GPU's reads on dn_rx, their completions on dn_tx
probe_core #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CLK_HZ(CLK_HZ),
    .CNT_WIDTH(CNT_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .SAMPLE_FIFO_ADDR_WIDTH(SAMPLE_FIFO_ADDR_WIDTH),
    .MRRS(MRRS),
    .BUILD_ID(BUILD_ID),
    .MPS(MPS),
    .TAP_ID(`PS_TAP_GPU),
    .TAP_COUNT(`PS_TAP_COUNT)
)
probe_gpu_inst (
    .clk(clk),
    .rst(rst),
    .rx_req_tlp_hdr(t_dn_rx_hdr),
    .rx_req_tlp_valid(t_dn_rx_valid),
    .rx_req_tlp_sop(t_dn_rx_sop),
    .rx_req_tlp_ready(t_dn_rx_ready),
    .tx_cpl_tlp_hdr(t_dn_tx_hdr),
    .tx_cpl_tlp_valid(t_dn_tx_valid),
    .tx_cpl_tlp_sop(t_dn_tx_sop),
    .tx_cpl_tlp_ready(t_dn_tx_ready),
    .bar_ur(t_gpu_ur),
    // LINK_GEN / LINK_WIDTH: the link this tap watches, as its port's Link Status reports it
    .link_gen(dn_link_speed),
    .link_width(dn_link_width),
    .bar_latency(bar_latency),
    .bar_jitter(bar_jitter),
    .cpl_split(cpl_split),
    .s_axil_awaddr(tap_awaddr),
    .s_axil_awvalid(tap_awvalid[0]),
    .s_axil_awready(tap_awready[0]),
    .s_axil_wdata(tap_wdata),
    .s_axil_wstrb(tap_wstrb),
    .s_axil_wvalid(tap_wvalid[0]),
    .s_axil_wready(tap_wready[0]),
    .s_axil_bresp(tap_bresp[1:0]),
    .s_axil_bvalid(tap_bvalid[0]),
    .s_axil_bready(tap_bready[0]),
    .s_axil_araddr(tap_araddr),
    .s_axil_arvalid(tap_arvalid[0]),
    .s_axil_arready(tap_arready[0]),
    .s_axil_rdata(tap_rdata[31:0]),
    .s_axil_rresp(tap_rresp[1:0]),
    .s_axil_rvalid(tap_rvalid[0]),
    .s_axil_rready(tap_rready[0])
);

// tap 1, host side: the same reads on up_tx, the host's completions on up_rx
probe_core #(
    .TLP_SEG_COUNT(TLP_SEG_COUNT),
    .CLK_HZ(CLK_HZ),
    .CNT_WIDTH(CNT_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .SAMPLE_FIFO_ADDR_WIDTH(SAMPLE_FIFO_ADDR_WIDTH),
    .MRRS(MRRS),
    .BUILD_ID(BUILD_ID),
    .MPS(MPS),
    .TAP_ID(`PS_TAP_HOST),
    .TAP_COUNT(`PS_TAP_COUNT)
)
probe_host_inst (
    .clk(clk),
    .rst(rst),
    .rx_req_tlp_hdr(t_up_tx_hdr),
    .rx_req_tlp_valid(t_up_tx_valid),
    .rx_req_tlp_sop(t_up_tx_sop),
    .rx_req_tlp_ready(t_up_tx_ready),
    .tx_cpl_tlp_hdr(t_up_rx_hdr),
    .tx_cpl_tlp_valid(t_up_rx_valid),
    .tx_cpl_tlp_sop(t_up_rx_sop),
    .tx_cpl_tlp_ready(t_up_rx_ready),
    .bar_ur(t_host_ur),
    .link_gen(up_link_speed),
    .link_width(up_link_width),
    .bar_latency(host_bar_latency),
    .bar_jitter(host_bar_jitter),
    .cpl_split(host_cpl_split),
    .s_axil_awaddr(tap_awaddr),
    .s_axil_awvalid(tap_awvalid[1]),
    .s_axil_awready(tap_awready[1]),
    .s_axil_wdata(tap_wdata),
    .s_axil_wstrb(tap_wstrb),
    .s_axil_wvalid(tap_wvalid[1]),
    .s_axil_wready(tap_wready[1]),
    .s_axil_bresp(tap_bresp[3:2]),
    .s_axil_bvalid(tap_bvalid[1]),
    .s_axil_bready(tap_bready[1]),
    .s_axil_araddr(tap_araddr),
    .s_axil_arvalid(tap_arvalid[1]),
    .s_axil_arready(tap_arready[1]),
    .s_axil_rdata(tap_rdata[63:32]),
    .s_axil_rresp(tap_rresp[3:2]),
    .s_axil_rvalid(tap_rvalid[1]),
    .s_axil_rready(tap_rready[1])
);

localparam [31:0] CPL_BUFFER_BYTES_32 = CPL_BUFFER_BYTES;
assign cpl_buffer_bytes = CPL_BUFFER_BYTES_32;

endmodule

`resetall
