`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * One ingress port of the switch: decides each TLP's fate at its first segment (sw_route, one
 * per segment), hands the segments of forwarded TLPs to the other port's egress, builds the
 * local completion (configuration CplD/Cpl, UR Cpl) for the same port's egress, and counts
 * every TLP once under its fate.
 *
 * Segments (TLP_SEG_COUNT 1, 2 or 4, the straddled format of bar_responder and probe_core): a
 * beat is TLP_SEG_COUNT segments of TLP_STRB_WIDTH/TLP_SEG_COUNT DWs; a TLP starts in any
 * segment (its header in rx_hdr[128*s +: 128], rx_sop[s]), its payload runs on from there
 * into the following segments and beats, and eop marks the segment holding its last DW;
 * rx_valid[s] marks the segments that carry something.
 *
 * The segments of a beat are taken in order, all on one clock, except that a locally
 * terminated TLP (configuration of the switch's own ports, UR) ends the part of the beat
 * taken on that clock: a configuration write or a UR (Device Status) changes what the TLPs
 * behind it see, so they are decided on the next clock. Locally terminated TLPs are thus
 * handled at one per clock; forwarded and discarded ones at one per segment.
 *
 * rx_ready is low while the other port's forwarded queue has room for fewer than a beat of
 * segments or this port's local queue is full; with several segments also while the beat
 * holds a locally terminated TLP with more after it (the beat is then taken over several
 * clocks). With one segment it depends on queue fullness only.
 */
module sw_ingress #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter TLP_SEG_COUNT = 1,
    parameter FROM_UP = 1,
    parameter CNT_WIDTH = 32,
    // sw_route: the upstream port's header is a hard block's
    parameter UP_CFG_IN_BLOCK = 0
)
(
    input  wire                        clk,
    input  wire                        rst,

    input  wire [TLP_DATA_WIDTH-1:0]   rx_data,
    input  wire [TLP_STRB_WIDTH-1:0]   rx_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] rx_hdr,
    input  wire [TLP_SEG_COUNT-1:0]    rx_valid,
    input  wire [TLP_SEG_COUNT-1:0]    rx_sop,
    input  wire [TLP_SEG_COUNT-1:0]    rx_eop,
    output wire                        rx_ready,

    // both ports' configuration (sw_cfg_space outputs)
    input  wire                        up_mem_enable,
    input  wire                        up_bus_master,
    input  wire [7:0]                  up_primary_bus,
    input  wire [7:0]                  up_secondary_bus,
    input  wire [7:0]                  up_subordinate_bus,
    input  wire [11:0]                 up_mem_base,
    input  wire [11:0]                 up_mem_limit,
    input  wire [43:0]                 up_pref_base,
    input  wire [43:0]                 up_pref_limit,
    input  wire                        dn_mem_enable,
    input  wire                        dn_bus_master,
    input  wire [7:0]                  dn_secondary_bus,
    input  wire [7:0]                  dn_subordinate_bus,
    input  wire [11:0]                 dn_mem_base,
    input  wire [11:0]                 dn_mem_limit,
    input  wire [43:0]                 dn_pref_base,
    input  wire [43:0]                 dn_pref_limit,

    // local configuration access (only used with FROM_UP)
    output wire [9:0]                  cfg_dw,
    output wire                        cfg_wr_up,
    output wire                        cfg_wr_dn,
    output wire [3:0]                  cfg_be,
    output wire [31:0]                 cfg_wr_data,
    input  wire [31:0]                 cfg_rd_up,
    input  wire [31:0]                 cfg_rd_dn,
    // a UR completion was generated (Device Status of this port)
    output wire                        ur_event,

    // to the other port's egress: segment s at [s*SEG_W +: SEG_W] as
    // {sop, eop, strb, hdr, data} (data at bit 0, sw_egress's F_* offsets), fwd_valid[s] where it
    // belongs to a forwarded TLP
    output wire [TLP_SEG_COUNT*(TLP_DATA_WIDTH/TLP_SEG_COUNT+TLP_STRB_WIDTH/TLP_SEG_COUNT+130)-1:0] fwd_seg,
    output reg  [TLP_SEG_COUNT-1:0]    fwd_valid,
    // the egress queue takes a whole beat
    input  wire                        fwd_room,

    // to this port's egress
    output wire [127:0]                loc_hdr,
    output wire [31:0]                 loc_data,
    output wire                        loc_has_data,
    output wire                        loc_valid,
    input  wire                        loc_full,

    // counter i at [i*CNT_WIDTH +: CNT_WIDTH], PS_SW_CNT_* order
    output wire [`PS_SW_CNT_COUNT*CNT_WIDTH-1:0] cnt
);

localparam SEG_COUNT = TLP_SEG_COUNT;
// DWs per segment
localparam SEG_DW = TLP_STRB_WIDTH / TLP_SEG_COUNT;
localparam SEG_W = 32*SEG_DW + SEG_DW + 130;
localparam ACT_FWD = 2'd0, ACT_CFG = 2'd1, ACT_UR = 2'd2;

// per segment: the fate of a TLP starting there
wire [2*SEG_COUNT-1:0] act;
wire [3*SEG_COUNT-1:0] cnt_idx;
wire [SEG_COUNT-1:0]   to_type0;
wire [SEG_COUNT-1:0]   cfg_dn;

genvar g;
generate
    for (g = 0; g < SEG_COUNT; g = g + 1) begin : seg
        wire [1:0] cls_unused;
        sw_route #(.FROM_UP(FROM_UP), .UP_CFG_IN_BLOCK(UP_CFG_IN_BLOCK)) route (
            .hdr(rx_hdr[g*128 +: 128]),
            .up_mem_enable(up_mem_enable), .up_bus_master(up_bus_master),
            .up_secondary_bus(up_secondary_bus), .up_subordinate_bus(up_subordinate_bus),
            .up_mem_base(up_mem_base), .up_mem_limit(up_mem_limit),
            .up_pref_base(up_pref_base), .up_pref_limit(up_pref_limit),
            .dn_mem_enable(dn_mem_enable), .dn_bus_master(dn_bus_master),
            .dn_secondary_bus(dn_secondary_bus), .dn_subordinate_bus(dn_subordinate_bus),
            .dn_mem_base(dn_mem_base), .dn_mem_limit(dn_mem_limit),
            .dn_pref_base(dn_pref_base), .dn_pref_limit(dn_pref_limit),
            .act(act[2*g +: 2]), .cnt(cnt_idx[3*g +: 3]), .cls(cls_unused),
            .to_type0(to_type0[g]), .cfg_dn(cfg_dn[g])
        );
        // the egress orders by arrival: the class plays no part here
        wire unused_cls = &{1'b0, cls_unused, 1'b0};
        wire [127:0] h = rx_hdr[g*128 +: 128];
        assign fwd_seg[g*SEG_W +: SEG_W] = {
            rx_sop[g], rx_eop[g], rx_strb[g*SEG_DW +: SEG_DW],
            h[127:121], h[120] && !(rx_sop[g] && to_type0[g]), h[119:0],
            rx_data[g*32*SEG_DW +: 32*SEG_DW]
        };
    end
endgenerate

// segments of the current beat already taken on an earlier clock
reg [SEG_COUNT-1:0] done_reg = {SEG_COUNT{1'b0}};
// the TLP in progress (continued in the next segment) is forwarded
reg fwd_pkt_reg = 1'b0;

wire [SEG_COUNT-1:0] todo = rx_valid & ~done_reg;

// the first locally terminated TLP among the segments not yet taken, and whether more follow it
reg         found, split;
reg [31:0]  lsel;
integer s;
always @* begin
    found = 1'b0;
    split = 1'b0;
    lsel = 32'd0;
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        if (found && todo[s]) begin
            split = 1'b1;
        end
        if (!found && todo[s] && rx_sop[s] && (act[2*s +: 2] == ACT_CFG || act[2*s +: 2] == ACT_UR)) begin
            found = 1'b1;
            lsel = s;
        end
    end
end

wire room = fwd_room && !loc_full;
assign rx_ready = room && !split;

// the segments taken this clock; the fate of each (forwarded or not) in segment order
reg [SEG_COUNT-1:0] take;
reg [SEG_COUNT-1:0] first;
reg                 cur;
always @* begin
    cur = fwd_pkt_reg;
    take = {SEG_COUNT{1'b0}};
    first = {SEG_COUNT{1'b0}};
    fwd_valid = {SEG_COUNT{1'b0}};
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        if (room && todo[s] && (!split || s <= lsel)) begin
            take[s] = 1'b1;
            if (rx_sop[s]) begin
                first[s] = 1'b1;
                cur = act[2*s +: 2] == ACT_FWD;
            end
            fwd_valid[s] = cur;
        end
    end
end

always @(posedge clk) begin
    fwd_pkt_reg <= cur;
    if (rx_ready && |rx_valid) begin
        done_reg <= {SEG_COUNT{1'b0}};
    end else begin
        done_reg <= done_reg | take;
    end
    if (rst) begin
        fwd_pkt_reg <= 1'b0;
        done_reg <= {SEG_COUNT{1'b0}};
    end
end

// the locally terminated TLP of this clock (a mux over the segments: constant slices)
reg [127:0] l_hdr;
reg [1:0]   l_act;
reg         l_cfg_dn;
reg [31:0]  l_data;
always @* begin
    l_hdr = rx_hdr[127:0];
    l_act = act[1:0];
    l_cfg_dn = cfg_dn[0];
    l_data = rx_data[31:0];
    for (s = 1; s < SEG_COUNT; s = s + 1) begin
        if (lsel == s) begin
            l_hdr = rx_hdr[s*128 +: 128];
            l_act = act[2*s +: 2];
            l_cfg_dn = cfg_dn[s];
            l_data = rx_data[s*32*SEG_DW +: 32];
        end
    end
end
wire l_first = room && found;

// local configuration access
wire cfg_write = l_hdr[126];
assign cfg_dw = l_hdr[43:34];
assign cfg_be = l_hdr[67:64];
assign cfg_wr_data = l_data;
assign cfg_wr_up = l_first && l_act == ACT_CFG && cfg_write && !l_cfg_dn;
assign cfg_wr_dn = l_first && l_act == ACT_CFG && cfg_write && l_cfg_dn;
assign ur_event = l_first && l_act == ACT_UR;

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
    .hdr(l_hdr), .mem_read(mem_read), .locked(mrd_locked), .hdr_4dw(mrd_4dw),
    .len_dw(mrd_len), .lead(mrd_lead), .req_bytes(mrd_bytes), .zero_len(mrd_zero),
    .addr_dw(mrd_addr_dw), .size_class(mrd_class)
);
wire unused_mrd = &{1'b0, mrd_locked, mrd_4dw, mrd_len, mrd_bytes[12], mrd_class, mrd_addr_dw[29:5], 1'b0};

wire is_ur = l_act == ACT_UR;
wire with_data = !is_ur && !cfg_write;
// the port that answers: the upstream port is device 0 on its primary bus, the downstream
// port device 0 on the internal bus (the upstream port's secondary bus)
// (UP_CFG_IN_BLOCK: the internal bus is the one the configuration request names; the upstream
// port's own numbers are the block's, up_primary_bus 0 here)
wire [7:0] cpl_bus = (FROM_UP && !(l_act == ACT_CFG && l_cfg_dn)) ? up_primary_bus
                   : (UP_CFG_IN_BLOCK != 0 && FROM_UP != 0) ? l_hdr[63:56] : up_secondary_bus;
wire [11:0] byte_count = (is_ur && mem_read) ? (mrd_zero ? 12'd1 : mrd_bytes[11:0]) : 12'd4;
wire [6:0] lower_addr = (is_ur && mem_read) ? {mrd_addr_dw[4:0], mrd_lead} : 7'd0;

assign loc_hdr = {
    1'b0, with_data, 1'b0, 5'b01010,              // Fmt, Type: Cpl / CplD
    l_hdr[119], l_hdr[118:116], l_hdr[115],       // T9, TC, T8
    l_hdr[114], 4'b0000, l_hdr[109:108], 2'b00,   // Attr2, LN TH TD EP, Attr, AT
    with_data ? 10'd1 : 10'd0,                    // Length
    cpl_bus, 8'h00, is_ur ? 3'b001 : 3'b000, 1'b0, byte_count,
    l_hdr[95:80], l_hdr[79:72], 1'b0, lower_addr,
    32'd0
};
assign loc_data = !with_data ? 32'd0 : l_cfg_dn ? cfg_rd_dn : cfg_rd_up;
assign loc_has_data = with_data;
assign loc_valid = l_first;

// one counter per fate; up to TLP_SEG_COUNT TLPs start per clock. Each segment's fate is decoded
// into a register first and added on the next clock, so a count lags its TLPs by a clock and the
// routing decision does not run on into the add
localparam INC_WIDTH = 3;
generate
    for (g = 0; g < `PS_SW_CNT_COUNT; g = g + 1) begin : c
        localparam [2:0] IDX = g;
        reg [CNT_WIDTH-1:0] count_reg = 0;
        reg [SEG_COUNT-1:0] hit_reg = {SEG_COUNT{1'b0}};
        reg [INC_WIDTH-1:0] inc;
        integer i;
        always @* begin
            inc = {INC_WIDTH{1'b0}};
            for (i = 0; i < SEG_COUNT; i = i + 1) begin
                inc = inc + {{(INC_WIDTH-1){1'b0}}, hit_reg[i]};
            end
        end
        always @(posedge clk) begin
            for (i = 0; i < SEG_COUNT; i = i + 1) begin
                hit_reg[i] <= first[i] && cnt_idx[3*i +: 3] == IDX;
            end
            count_reg <= count_reg + {{(CNT_WIDTH-INC_WIDTH){1'b0}}, inc};
            if (rst) begin
                hit_reg <= {SEG_COUNT{1'b0}};
                count_reg <= 0;
            end
        end
        assign cnt[g*CNT_WIDTH +: CNT_WIDTH] = count_reg;
    end
endgenerate

// the payload of a TLP is decided at its first segment; eop plays no part in its fate
wire unused_take = &{1'b0, take, lsel[31:0], 1'b0};

endmodule

`resetall
