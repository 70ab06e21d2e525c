`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * The two-port PCIe switch on the generic TLP stream: an upstream port facing the host's
 * root port (up_rx: TLPs from the host, up_tx: to the host) and a downstream port facing
 * the GPU (dn_rx / dn_tx). Each port has an emulated type-1 configuration space
 * (sw_cfg_space); configuration requests for the switch's own ports are answered here,
 * everything else is routed (sw_ingress, sw_route) into the other port's ordering
 * queues (sw_egress). Each receive port enters through a register slice (sw_rx_slice): one
 * clock of latency, *_rx_ready from a flip-flop. *_tx_np_ok: the link partner of that port
 * can take a non-posted request now; while it is low, posted TLPs and completions pass the non-posted requests waiting. hdl/README.md "Switch" lists what is implemented.
 *
 * TLP_SEG_COUNT 1, 2 or 4 segments per beat (the straddled format of bar_responder and
 * probe_core: a TLP starts in any segment, header, valid, sop and eop per segment, data and
 * strb per beat); any data width of 64 bits or more that splits into whole segments.
 * Forwarded TLPs pass at one per segment per beat; locally terminated ones (configuration
 * of the switch's ports, UR) at one per clock.
 */
module sw_router #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter TLP_SEG_COUNT = 1,
    // beats in each port's forwarded queue (and completions in its local queue), as address bits
    parameter QUEUE_ADDR_WIDTH = 4,
    parameter CNT_WIDTH = 32,
    // 0: the upstream port's Type 1 header is emulated here (sw_cfg_space), today's design;
    // 1: a hard block in switch-upstream-port mode owns it (hdl/xilinx/boards/vpk120/README.md):
    // no upstream sw_cfg_space; routing leaves the upstream port's bus numbers and windows to it
    parameter UP_CFG_IN_BLOCK = 0
)
(
    input  wire                       clk,
    input  wire                       rst,

    input  wire [TLP_DATA_WIDTH-1:0]  up_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]  up_rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] up_rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]  up_rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]  up_rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]  up_rx_eop,
    output wire                       up_rx_ready,

    output wire [TLP_DATA_WIDTH-1:0]  up_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]  up_tx_strb,
    output wire [TLP_SEG_COUNT*128-1:0] up_tx_hdr,
    output wire [TLP_SEG_COUNT-1:0]  up_tx_valid,
    output wire [TLP_SEG_COUNT-1:0]  up_tx_sop,
    output wire [TLP_SEG_COUNT-1:0]  up_tx_eop,
    input  wire                       up_tx_ready,
    // the host's root port can take a non-posted request now (non-posted header credit)
    input  wire                       up_tx_np_ok,

    input  wire [TLP_DATA_WIDTH-1:0]  dn_rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]  dn_rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] dn_rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]  dn_rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]  dn_rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]  dn_rx_eop,
    output wire                       dn_rx_ready,

    output wire [TLP_DATA_WIDTH-1:0]  dn_tx_data,
    output wire [TLP_STRB_WIDTH-1:0]  dn_tx_strb,
    output wire [TLP_SEG_COUNT*128-1:0] dn_tx_hdr,
    output wire [TLP_SEG_COUNT-1:0]  dn_tx_valid,
    output wire [TLP_SEG_COUNT-1:0]  dn_tx_sop,
    output wire [TLP_SEG_COUNT-1:0]  dn_tx_eop,
    input  wire                       dn_tx_ready,
    // the GPU can take a non-posted request now
    input  wire                       dn_tx_np_ok,

    // the real links: Link Capabilities (max) and Link Status (current) of each port
    input  wire [3:0]                 up_link_max_speed,
    input  wire [5:0]                 up_link_max_width,
    input  wire [3:0]                 up_link_speed,
    input  wire [5:0]                 up_link_width,
    input  wire [3:0]                 dn_link_max_speed,
    input  wire [5:0]                 dn_link_max_width,
    input  wire [3:0]                 dn_link_speed,
    input  wire [5:0]                 dn_link_width,
    input  wire                       dn_link_up,

    // fates of the TLPs received on each port, counter i at [i*CNT_WIDTH +: CNT_WIDTH]
    // in PS_SW_CNT_* order (spec/switch.json)
    output wire [`PS_SW_CNT_COUNT*CNT_WIDTH-1:0] up_rx_cnt,
    output wire [`PS_SW_CNT_COUNT*CNT_WIDTH-1:0] dn_rx_cnt
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLP_SEG_COUNT != 1 && TLP_SEG_COUNT != 2 && TLP_SEG_COUNT != 4) begin : g_check_tlp_seg_count
        sw_router_TLP_SEG_COUNT_must_be_1_2_or_4 unsupported_parameter ();
    end
    if (TLP_DATA_WIDTH < 64 || TLP_STRB_WIDTH * 32 != TLP_DATA_WIDTH || TLP_STRB_WIDTH % TLP_SEG_COUNT != 0) begin : g_check_tlp_data_width
        sw_router_TLP_DATA_WIDTH_must_be_from_64_and_32_times_TLP_STRB_WIDTH_in_whole_segments unsupported_parameter ();
    end
endgenerate

localparam SEG_W = TLP_DATA_WIDTH/TLP_SEG_COUNT + TLP_STRB_WIDTH/TLP_SEG_COUNT + 130;

wire up_mem_enable;
wire up_bus_master;
wire [7:0] up_primary_bus;
wire [7:0] up_secondary_bus;
wire [7:0] up_subordinate_bus;
wire [11:0] up_mem_base;
wire [11:0] up_mem_limit;
wire [43:0] up_pref_base;
wire [43:0] up_pref_limit;
wire dn_mem_enable;
wire dn_bus_master;
wire [7:0] dn_primary_bus;
wire [7:0] dn_secondary_bus;
wire [7:0] dn_subordinate_bus;
wire [11:0] dn_mem_base;
wire [11:0] dn_mem_limit;
wire [43:0] dn_pref_base;
wire [43:0] dn_pref_limit;

wire [9:0]  cfg_dw;
wire        cfg_wr_up, cfg_wr_dn;
wire [3:0]  cfg_be;
wire [31:0] cfg_wr_data, cfg_rd_up, cfg_rd_dn;
wire        up_ur_event, dn_ur_event;
// a configuration write is applied at the end of this clock: the upstream ingress, which made
// it, takes nothing on that clock (the downstream ingress does not look at it)
wire        cfg_wr_any = cfg_wr_up || cfg_wr_dn;

generate
if (UP_CFG_IN_BLOCK == 0) begin : g_up_cfg
    sw_cfg_space #(.DEVICE_ID(`PS_SW_UP_DEVICE_ID), .PORT_TYPE(4'd5), .PORT_NUMBER(8'd0)) up_cfg (
        .clk(clk), .rst(rst),
        .rd_dw(cfg_dw), .rd_data(cfg_rd_up),
        .wr_en(cfg_wr_up), .wr_dw(cfg_dw), .wr_be(cfg_be), .wr_data(cfg_wr_data),
        .link_max_speed(up_link_max_speed), .link_max_width(up_link_max_width),
        .link_speed(up_link_speed), .link_width(up_link_width), .link_up(1'b1),
        .ur_event(up_ur_event),
        .mem_enable(up_mem_enable), .bus_master(up_bus_master), .primary_bus(up_primary_bus), .secondary_bus(up_secondary_bus), .subordinate_bus(up_subordinate_bus), .mem_base(up_mem_base), .mem_limit(up_mem_limit), .pref_base(up_pref_base), .pref_limit(up_pref_limit)
    );
end else begin : g_up_cfg_block
    // the block answers the upstream port's configuration and applies its header itself
    assign cfg_rd_up = 32'd0;
    assign up_mem_enable = 1'b0;
    assign up_bus_master = 1'b0;
    assign up_primary_bus = 8'd0;
    assign up_secondary_bus = 8'd0;
    assign up_subordinate_bus = 8'd0;
    assign up_mem_base = 12'd0;
    assign up_mem_limit = 12'd0;
    assign up_pref_base = 44'd0;
    assign up_pref_limit = 44'd0;
    wire unused_up_cfg = &{1'b0, cfg_wr_up, up_ur_event, up_link_max_speed, up_link_max_width, up_link_speed, up_link_width, 1'b0};
end
endgenerate

sw_cfg_space #(.DEVICE_ID(`PS_SW_DN_DEVICE_ID), .PORT_TYPE(4'd6), .PORT_NUMBER(8'd1)) dn_cfg (
    .clk(clk), .rst(rst),
    .rd_dw(cfg_dw), .rd_data(cfg_rd_dn),
    .wr_en(cfg_wr_dn), .wr_dw(cfg_dw), .wr_be(cfg_be), .wr_data(cfg_wr_data),
    .link_max_speed(dn_link_max_speed), .link_max_width(dn_link_max_width),
    .link_speed(dn_link_speed), .link_width(dn_link_width), .link_up(dn_link_up),
    .ur_event(dn_ur_event),
    .mem_enable(dn_mem_enable), .bus_master(dn_bus_master), .primary_bus(dn_primary_bus), .secondary_bus(dn_secondary_bus), .subordinate_bus(dn_subordinate_bus), .mem_base(dn_mem_base), .mem_limit(dn_mem_limit), .pref_base(dn_pref_base), .pref_limit(dn_pref_limit)
);
// the downstream port's primary bus is the internal bus; routing uses the upstream copy
wire unused_dn_primary = &{1'b0, dn_primary_bus, 1'b0};

// host -> GPU and GPU -> host: the segments of each ingress beat, those forwarded marked
wire [TLP_SEG_COUNT*SEG_W-1:0] d_fwd_seg, u_fwd_seg;
wire [TLP_SEG_COUNT-1:0] d_fwd_valid, u_fwd_valid;
wire d_fwd_room, u_fwd_room;
// local completions to the host (for up_rx) and to the GPU (for dn_rx)
wire [127:0] u_loc_hdr, d_loc_hdr;
wire [31:0] u_loc_data, d_loc_data;
wire u_loc_has_data, d_loc_has_data, u_loc_valid, d_loc_valid, u_loc_room, d_loc_room;

// the downstream ingress makes no configuration access
wire [9:0]  dn_cfg_dw;
wire        dn_cfg_wr_up, dn_cfg_wr_dn;
wire [3:0]  dn_cfg_be;
wire [31:0] dn_cfg_wr_data;
wire unused_dn_cfg = &{1'b0, dn_cfg_dw, dn_cfg_wr_up, dn_cfg_wr_dn, dn_cfg_be, dn_cfg_wr_data, 1'b0};

// each receive port through a register slice (sw_rx_slice) before its ingress; the payload at
// bit 0 and the headers after it, so both sit on 32-bit boundaries (a Verilated model copies
// them word by word, without shifts)
localparam SLICE_W = TLP_DATA_WIDTH + TLP_STRB_WIDTH + TLP_SEG_COUNT*130;
wire [TLP_DATA_WIDTH-1:0]    up_in_data, dn_in_data;
wire [TLP_STRB_WIDTH-1:0]    up_in_strb, dn_in_strb;
wire [TLP_SEG_COUNT*128-1:0] up_in_hdr, dn_in_hdr;
wire [TLP_SEG_COUNT-1:0]     up_in_valid, up_in_sop, up_in_eop, dn_in_valid, dn_in_sop, dn_in_eop;
wire                         up_in_ready, dn_in_ready;

sw_rx_slice #(.WIDTH(SLICE_W), .SEG_COUNT(TLP_SEG_COUNT)) up_slice (
    .clk(clk), .rst(rst),
    .in_data({up_rx_sop, up_rx_eop, up_rx_strb, up_rx_hdr, up_rx_data}), .in_valid(up_rx_valid), .in_ready(up_rx_ready),
    .out_data({up_in_sop, up_in_eop, up_in_strb, up_in_hdr, up_in_data}), .out_valid(up_in_valid), .out_ready(up_in_ready)
);

sw_rx_slice #(.WIDTH(SLICE_W), .SEG_COUNT(TLP_SEG_COUNT)) dn_slice (
    .clk(clk), .rst(rst),
    .in_data({dn_rx_sop, dn_rx_eop, dn_rx_strb, dn_rx_hdr, dn_rx_data}), .in_valid(dn_rx_valid), .in_ready(dn_rx_ready),
    .out_data({dn_in_sop, dn_in_eop, dn_in_strb, dn_in_hdr, dn_in_data}), .out_valid(dn_in_valid), .out_ready(dn_in_ready)
);

sw_ingress #(.TLP_DATA_WIDTH(TLP_DATA_WIDTH), .TLP_STRB_WIDTH(TLP_STRB_WIDTH), .TLP_SEG_COUNT(TLP_SEG_COUNT), .FROM_UP(1), .CNT_WIDTH(CNT_WIDTH), .UP_CFG_IN_BLOCK(UP_CFG_IN_BLOCK)) up_in (
    .clk(clk), .rst(rst),
    .rx_data(up_in_data), .rx_strb(up_in_strb), .rx_hdr(up_in_hdr), .rx_valid(up_in_valid),
    .rx_sop(up_in_sop), .rx_eop(up_in_eop), .rx_ready(up_in_ready),
    .up_mem_enable(up_mem_enable),
        .up_bus_master(up_bus_master),
        .up_primary_bus(up_primary_bus),
        .up_secondary_bus(up_secondary_bus),
        .up_subordinate_bus(up_subordinate_bus),
        .up_mem_base(up_mem_base),
        .up_mem_limit(up_mem_limit),
        .up_pref_base(up_pref_base),
        .up_pref_limit(up_pref_limit),
        .dn_mem_enable(dn_mem_enable),
        .dn_bus_master(dn_bus_master),
        .dn_secondary_bus(dn_secondary_bus),
        .dn_subordinate_bus(dn_subordinate_bus),
        .dn_mem_base(dn_mem_base),
        .dn_mem_limit(dn_mem_limit),
        .dn_pref_base(dn_pref_base),
        .dn_pref_limit(dn_pref_limit),
        .cfg_wr(cfg_wr_any),
    .cfg_dw(cfg_dw), .cfg_wr_up(cfg_wr_up), .cfg_wr_dn(cfg_wr_dn), .cfg_be(cfg_be),
    .cfg_wr_data(cfg_wr_data), .cfg_rd_up(cfg_rd_up), .cfg_rd_dn(cfg_rd_dn), .ur_event(up_ur_event),
    .fwd_seg(d_fwd_seg), .fwd_valid(d_fwd_valid), .fwd_room(d_fwd_room),
    .loc_hdr(u_loc_hdr), .loc_data(u_loc_data), .loc_has_data(u_loc_has_data),
    .loc_valid(u_loc_valid), .loc_room(u_loc_room),
    .cnt(up_rx_cnt)
);

sw_ingress #(.TLP_DATA_WIDTH(TLP_DATA_WIDTH), .TLP_STRB_WIDTH(TLP_STRB_WIDTH), .TLP_SEG_COUNT(TLP_SEG_COUNT), .FROM_UP(0), .CNT_WIDTH(CNT_WIDTH), .UP_CFG_IN_BLOCK(UP_CFG_IN_BLOCK)) dn_in (
    .clk(clk), .rst(rst),
    .rx_data(dn_in_data), .rx_strb(dn_in_strb), .rx_hdr(dn_in_hdr), .rx_valid(dn_in_valid),
    .rx_sop(dn_in_sop), .rx_eop(dn_in_eop), .rx_ready(dn_in_ready),
    .up_mem_enable(up_mem_enable),
        .up_bus_master(up_bus_master),
        .up_primary_bus(up_primary_bus),
        .up_secondary_bus(up_secondary_bus),
        .up_subordinate_bus(up_subordinate_bus),
        .up_mem_base(up_mem_base),
        .up_mem_limit(up_mem_limit),
        .up_pref_base(up_pref_base),
        .up_pref_limit(up_pref_limit),
        .dn_mem_enable(dn_mem_enable),
        .dn_bus_master(dn_bus_master),
        .dn_secondary_bus(dn_secondary_bus),
        .dn_subordinate_bus(dn_subordinate_bus),
        .dn_mem_base(dn_mem_base),
        .dn_mem_limit(dn_mem_limit),
        .dn_pref_base(dn_pref_base),
        .dn_pref_limit(dn_pref_limit),
        .cfg_wr(cfg_wr_any),
    .cfg_dw(dn_cfg_dw), .cfg_wr_up(dn_cfg_wr_up), .cfg_wr_dn(dn_cfg_wr_dn), .cfg_be(dn_cfg_be),
    .cfg_wr_data(dn_cfg_wr_data), .cfg_rd_up(32'd0), .cfg_rd_dn(32'd0), .ur_event(dn_ur_event),
    .fwd_seg(u_fwd_seg), .fwd_valid(u_fwd_valid), .fwd_room(u_fwd_room),
    .loc_hdr(d_loc_hdr), .loc_data(d_loc_data), .loc_has_data(d_loc_has_data),
    .loc_valid(d_loc_valid), .loc_room(d_loc_room),
    .cnt(dn_rx_cnt)
);

sw_egress #(.TLP_DATA_WIDTH(TLP_DATA_WIDTH), .TLP_STRB_WIDTH(TLP_STRB_WIDTH), .TLP_SEG_COUNT(TLP_SEG_COUNT), .QUEUE_ADDR_WIDTH(QUEUE_ADDR_WIDTH)) up_out (
    .clk(clk), .rst(rst),
    .fwd_seg(u_fwd_seg), .fwd_valid(u_fwd_valid), .fwd_room(u_fwd_room),
    .loc_hdr(u_loc_hdr), .loc_data(u_loc_data), .loc_has_data(u_loc_has_data),
    .loc_valid(u_loc_valid), .loc_room(u_loc_room),
    .tx_data(up_tx_data), .tx_strb(up_tx_strb), .tx_hdr(up_tx_hdr), .tx_valid(up_tx_valid),
    .tx_sop(up_tx_sop), .tx_eop(up_tx_eop), .tx_ready(up_tx_ready), .tx_np_ok(up_tx_np_ok)
);

sw_egress #(.TLP_DATA_WIDTH(TLP_DATA_WIDTH), .TLP_STRB_WIDTH(TLP_STRB_WIDTH), .TLP_SEG_COUNT(TLP_SEG_COUNT), .QUEUE_ADDR_WIDTH(QUEUE_ADDR_WIDTH)) dn_out (
    .clk(clk), .rst(rst),
    .fwd_seg(d_fwd_seg), .fwd_valid(d_fwd_valid), .fwd_room(d_fwd_room),
    .loc_hdr(d_loc_hdr), .loc_data(d_loc_data), .loc_has_data(d_loc_has_data),
    .loc_valid(d_loc_valid), .loc_room(d_loc_room),
    .tx_data(dn_tx_data), .tx_strb(dn_tx_strb), .tx_hdr(dn_tx_hdr), .tx_valid(dn_tx_valid),
    .tx_sop(dn_tx_sop), .tx_eop(dn_tx_eop), .tx_ready(dn_tx_ready), .tx_np_ok(dn_tx_np_ok)
);

endmodule

`resetall
