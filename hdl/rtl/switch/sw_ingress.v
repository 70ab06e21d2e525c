`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * One ingress port of the switch: decides each TLP's fate at its first beat (sw_route),
 * steers its beats to the other port's egress queues or drops them, builds the local
 * completion (configuration CplD/Cpl, UR Cpl) for the same port's egress, and counts
 * every TLP once under its fate.
 *
 * rx_ready depends on queue fullness only (never on rx_valid or the header): low while
 * the other port's forwarded queues or this port's local completion queue are full.
 */
module sw_ingress #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter FROM_UP = 1,
    parameter CNT_WIDTH = 32
)
(
    input  wire                       clk,
    input  wire                       rst,

    input  wire [TLP_DATA_WIDTH-1:0]  rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]  rx_strb,
    input  wire [127:0]               rx_hdr,
    input  wire                       rx_valid,
    input  wire                       rx_sop,
    input  wire                       rx_eop,
    output wire                       rx_ready,

    // both ports' configuration (sw_cfg_space outputs)
    input  wire                       up_mem_enable,
    input  wire                       up_bus_master,
    input  wire [7:0]                 up_primary_bus,
    input  wire [7:0]                 up_secondary_bus,
    input  wire [7:0]                 up_subordinate_bus,
    input  wire [11:0]                up_mem_base,
    input  wire [11:0]                up_mem_limit,
    input  wire [43:0]                up_pref_base,
    input  wire [43:0]                up_pref_limit,
    input  wire                       dn_mem_enable,
    input  wire                       dn_bus_master,
    input  wire [7:0]                 dn_secondary_bus,
    input  wire [7:0]                 dn_subordinate_bus,
    input  wire [11:0]                dn_mem_base,
    input  wire [11:0]                dn_mem_limit,
    input  wire [43:0]                dn_pref_base,
    input  wire [43:0]                dn_pref_limit,

    // local configuration access (only used with FROM_UP)
    output wire [9:0]                 cfg_dw,
    output wire                       cfg_wr_up,
    output wire                       cfg_wr_dn,
    output wire [3:0]                 cfg_be,
    output wire [31:0]                cfg_wr_data,
    input  wire [31:0]                cfg_rd_up,
    input  wire [31:0]                cfg_rd_dn,
    // a UR completion was generated (Device Status of this port)
    output wire                       ur_event,

    // to the other port's egress
    output wire [TLP_DATA_WIDTH-1:0]  fwd_data,
    output wire [TLP_STRB_WIDTH-1:0]  fwd_strb,
    output wire [127:0]               fwd_hdr,
    output wire                       fwd_sop,
    output wire                       fwd_eop,
    output wire [1:0]                 fwd_cls,
    output wire                       fwd_valid,
    input  wire                       fwd_full,

    // to this port's egress
    output wire [127:0]               loc_hdr,
    output wire [31:0]                loc_data,
    output wire                       loc_has_data,
    output wire                       loc_valid,
    input  wire                       loc_full,

    // counter i at [i*CNT_WIDTH +: CNT_WIDTH], PS_SW_CNT_* order
    output wire [`PS_SW_CNT_COUNT*CNT_WIDTH-1:0] cnt
);

localparam ACT_FWD = 2'd0, ACT_CFG = 2'd1, ACT_UR = 2'd2;

wire [1:0] act;
wire [2:0] cnt_idx;
wire [1:0] cls;
wire to_type0;
wire cfg_dn;

sw_route #(.FROM_UP(FROM_UP)) route (
    .hdr(rx_hdr),
    .up_mem_enable(up_mem_enable), .up_bus_master(up_bus_master),
    .up_secondary_bus(up_secondary_bus), .up_subordinate_bus(up_subordinate_bus),
    .up_mem_base(up_mem_base), .up_mem_limit(up_mem_limit),
    .up_pref_base(up_pref_base), .up_pref_limit(up_pref_limit),
    .dn_mem_enable(dn_mem_enable), .dn_bus_master(dn_bus_master),
    .dn_secondary_bus(dn_secondary_bus), .dn_subordinate_bus(dn_subordinate_bus),
    .dn_mem_base(dn_mem_base), .dn_mem_limit(dn_mem_limit),
    .dn_pref_base(dn_pref_base), .dn_pref_limit(dn_pref_limit),
    .act(act), .cnt(cnt_idx), .cls(cls), .to_type0(to_type0), .cfg_dn(cfg_dn)
);

// continuation beats follow their first beat's fate
reg       fwd_pkt_reg = 1'b0;
reg [1:0] cls_pkt_reg = 2'd0;

assign rx_ready = !fwd_full && !loc_full;
wire accept = rx_valid && rx_ready;
wire first = accept && rx_sop;

assign fwd_valid = accept && (rx_sop ? act == ACT_FWD : fwd_pkt_reg);
assign fwd_cls = rx_sop ? cls : cls_pkt_reg;
assign fwd_data = rx_data;
assign fwd_strb = rx_strb;
assign fwd_hdr = {rx_hdr[127:121], rx_hdr[120] && !to_type0, rx_hdr[119:0]};
assign fwd_sop = rx_sop;
assign fwd_eop = rx_eop;

always @(posedge clk) begin
    if (first) begin
        fwd_pkt_reg <= act == ACT_FWD;
        cls_pkt_reg <= cls;
    end
    if (rst) begin
        fwd_pkt_reg <= 1'b0;
        cls_pkt_reg <= 2'd0;
    end
end

// local configuration access
wire cfg_write = rx_hdr[126];
assign cfg_dw = rx_hdr[43:34];
assign cfg_be = rx_hdr[67:64];
assign cfg_wr_data = rx_data[31:0];
assign cfg_wr_up = first && act == ACT_CFG && cfg_write && !cfg_dn;
assign cfg_wr_dn = first && act == ACT_CFG && cfg_write && cfg_dn;
assign ur_event = first && act == ACT_UR;

// local completion: CplD for a configuration read, Cpl for a write, Cpl UR
wire        mem_read;
wire        mrd_locked;
wire        mrd_4dw;
wire [10:0] mrd_len;
wire [1:0]  mrd_lead;
wire [12:0] mrd_bytes;
wire        mrd_zero;
wire [29:0] mrd_addr_dw;
wire [`PS_SIZE_CLASS_COUNT-1:0] mrd_class;
probe_mrd_classify mrd (
    .hdr(rx_hdr), .mem_read(mem_read), .locked(mrd_locked), .hdr_4dw(mrd_4dw),
    .len_dw(mrd_len), .lead(mrd_lead), .req_bytes(mrd_bytes), .zero_len(mrd_zero),
    .addr_dw(mrd_addr_dw), .size_class(mrd_class)
);
wire unused_mrd = &{1'b0, mrd_locked, mrd_4dw, mrd_len, mrd_bytes[12], mrd_class, mrd_addr_dw[29:5], 1'b0};

wire is_ur = act == ACT_UR;
wire with_data = !is_ur && !cfg_write;
// the port that answers: the upstream port is device 0 on its primary bus, the downstream
// port device 0 on the internal bus (the upstream port's secondary bus)
wire [7:0] cpl_bus = (FROM_UP && !(act == ACT_CFG && cfg_dn)) ? up_primary_bus : up_secondary_bus;
wire [11:0] byte_count = (is_ur && mem_read) ? (mrd_zero ? 12'd1 : mrd_bytes[11:0]) : 12'd4;
wire [6:0] lower_addr = (is_ur && mem_read) ? {mrd_addr_dw[4:0], mrd_lead} : 7'd0;

assign loc_hdr = {
    1'b0, with_data, 1'b0, 5'b01010,              // Fmt, Type: Cpl / CplD
    rx_hdr[119], rx_hdr[118:116], rx_hdr[115],    // T9, TC, T8
    rx_hdr[114], 4'b0000, rx_hdr[109:108], 2'b00, // Attr2, LN TH TD EP, Attr, AT
    with_data ? 10'd1 : 10'd0,                    // Length
    cpl_bus, 8'h00, is_ur ? 3'b001 : 3'b000, 1'b0, byte_count,
    rx_hdr[95:80], rx_hdr[79:72], 1'b0, lower_addr,
    32'd0
};
assign loc_data = !with_data ? 32'd0 : cfg_dn ? cfg_rd_dn : cfg_rd_up;
assign loc_has_data = with_data;
assign loc_valid = first && (act == ACT_CFG || act == ACT_UR);

// one counter per fate
genvar g;
generate
    for (g = 0; g < `PS_SW_CNT_COUNT; g = g + 1) begin : c
        reg [CNT_WIDTH-1:0] count_reg = 0;
        always @(posedge clk) begin
            if (first && cnt_idx == g) begin
                count_reg <= count_reg + 1'b1;
            end
            if (rst) begin
                count_reg <= 0;
            end
        end
        assign cnt[g*CNT_WIDTH +: CNT_WIDTH] = count_reg;
    end
endgenerate

endmodule

`resetall
