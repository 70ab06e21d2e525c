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
 * Two stages. The beat from the receive slice is routed (sw_route, per segment) on its way into
 * the decision register (d_*), a clock before its segments are taken, so that taking them, the
 * steering and the local completion's selection start at flip-flops. A configuration write
 * (this port's, upstream) changes the routing: the next beat enters the decision register once
 * it is applied, no TLP is taken on that clock, and with several segments the rest of the beat
 * held is routed again on the next (redo), so every TLP is taken on a routing made with the
 * configuration the TLPs ahead of it left.
 *
 * The segments of a beat are taken in order, all on one clock, except that a locally
 * terminated TLP (configuration of the switch's own ports, UR) ends the part of the beat
 * taken on that clock: a configuration write or a UR (Device Status) changes what the TLPs
 * behind it see, so they are decided later. Locally terminated TLPs are thus handled at one
 * per clock (a configuration write at one per three); forwarded and discarded ones at one per
 * segment. A locally terminated TLP is registered when it is taken (l_*): its configuration
 * access, its UR event and its completion into the local queue happen on the next clock.
 *
 * rx_ready: the decision register is free on this clock (empty, or its beat all taken), which
 * needs room for a beat in the other port's forwarded queues and for a completion in this
 * port's local queue, and no configuration write taken or applied on this clock; with several
 * segments the beat must also hold no locally terminated TLP with more after it (it is then
 * taken over several clocks).
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
    // a configuration write is applied at the end of this clock (either port's space): with
    // FROM_UP, this ingress's own write, on which it takes nothing and after which the rest of a
    // held beat is routed again; unused in the downstream ingress
    input  wire                        cfg_wr,

    // local configuration access (only used with FROM_UP), a clock after the TLP is taken
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

    // to this port's egress, a clock after the TLP is taken
    output wire [127:0]                loc_hdr,
    output wire [31:0]                 loc_data,
    output wire                        loc_has_data,
    output wire                        loc_valid,
    // the local queue takes one more completion after the one registered here (a register)
    input  wire                        loc_room,

    // counter i at [i*CNT_WIDTH +: CNT_WIDTH], PS_SW_CNT_* order
    output wire [`PS_SW_CNT_COUNT*CNT_WIDTH-1:0] cnt
);

localparam SEG_COUNT = TLP_SEG_COUNT;
// DWs per segment
localparam SEG_DW = TLP_STRB_WIDTH / TLP_SEG_COUNT;
localparam SEG_W = 32*SEG_DW + SEG_DW + 130;
localparam ACT_FWD = 2'd0, ACT_CFG = 2'd1, ACT_UR = 2'd2;

// ---------------------------------------------------------------- routing, into the decision register

// the beat decided on (d_*), loaded from the receive slice when the last one is all taken
reg [TLP_DATA_WIDTH-1:0]  d_data_reg = {TLP_DATA_WIDTH{1'b0}};
reg [TLP_STRB_WIDTH-1:0]  d_strb_reg = {TLP_STRB_WIDTH{1'b0}};
reg [SEG_COUNT*128-1:0]   d_hdr_reg = {SEG_COUNT*128{1'b0}};
reg [SEG_COUNT-1:0]       d_valid_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       d_sop_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       d_eop_reg = {SEG_COUNT{1'b0}};
// per segment, the fate of a TLP starting there: forwarded, terminated here (configuration or
// UR), UR; forwarded as configuration type 0; a local access to the downstream port; its counter
reg [SEG_COUNT-1:0]       d_fwd_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       d_loc_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       d_ur_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       d_type0_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       d_cfg_dn_reg = {SEG_COUNT{1'b0}};
reg [3*SEG_COUNT-1:0]     d_cnt_reg = {3*SEG_COUNT{1'b0}};
// the configuration changed at the last edge: the beat held is routed again on this clock. Only
// the upstream ingress makes configuration writes, and the next beat waits for the write
// (rx_ready), so only the rest of a beat after a write is routed again: with several segments.
// The downstream ingress keeps the routing a beat got on entering the decision register: a
// request of the GPU there crossed no completion of the write (they travel different ports).
localparam REDO = FROM_UP != 0 && SEG_COUNT > 1;
reg                       redo_reg = 1'b0;

// per segment: the routing of the header entering the decision register (r = 0) and of the one
// held (r = 1, used on a redo; only where REDO); two sets of sw_route so that no multiplexer
// stands before them
localparam SETS = REDO ? 2 : 1;
wire [2*SEG_COUNT-1:0] act_r [0:SETS-1];
wire [3*SEG_COUNT-1:0] cnt_r [0:SETS-1];
wire [SEG_COUNT-1:0]   to_type0_r [0:SETS-1];
wire [SEG_COUNT-1:0]   cfg_dn_r [0:SETS-1];

genvar g, r;
generate
    for (r = 0; r < SETS; r = r + 1) begin : src
        for (g = 0; g < SEG_COUNT; g = g + 1) begin : seg
            wire [1:0] cls_unused;
            sw_route #(.FROM_UP(FROM_UP), .UP_CFG_IN_BLOCK(UP_CFG_IN_BLOCK)) route (
                .hdr(r == 0 ? rx_hdr[g*128 +: 128] : d_hdr_reg[g*128 +: 128]),
                .up_mem_enable(up_mem_enable), .up_bus_master(up_bus_master),
                .up_secondary_bus(up_secondary_bus), .up_subordinate_bus(up_subordinate_bus),
                .up_mem_base(up_mem_base), .up_mem_limit(up_mem_limit),
                .up_pref_base(up_pref_base), .up_pref_limit(up_pref_limit),
                .dn_mem_enable(dn_mem_enable), .dn_bus_master(dn_bus_master),
                .dn_secondary_bus(dn_secondary_bus), .dn_subordinate_bus(dn_subordinate_bus),
                .dn_mem_base(dn_mem_base), .dn_mem_limit(dn_mem_limit),
                .dn_pref_base(dn_pref_base), .dn_pref_limit(dn_pref_limit),
                .act(act_r[r][2*g +: 2]), .cnt(cnt_r[r][3*g +: 3]), .cls(cls_unused),
                .to_type0(to_type0_r[r][g]), .cfg_dn(cfg_dn_r[r][g])
            );
            // the egress orders by arrival: the class plays no part here
            wire unused_cls = &{1'b0, cls_unused, 1'b0};
        end
    end
    for (g = 0; g < SEG_COUNT; g = g + 1) begin : seg
        wire [127:0] h = d_hdr_reg[g*128 +: 128];
        assign fwd_seg[g*SEG_W +: SEG_W] = {
            d_sop_reg[g], d_eop_reg[g], d_strb_reg[g*SEG_DW +: SEG_DW],
            h[127:121], h[120] && !(d_sop_reg[g] && d_type0_reg[g]), h[119:0],
            d_data_reg[g*32*SEG_DW +: 32*SEG_DW]
        };
    end
endgenerate
wire [2*SEG_COUNT-1:0] act = redo_reg ? act_r[SETS-1] : act_r[0];
wire [3*SEG_COUNT-1:0] cnt_idx = redo_reg ? cnt_r[SETS-1] : cnt_r[0];
wire [SEG_COUNT-1:0]   to_type0 = redo_reg ? to_type0_r[SETS-1] : to_type0_r[0];
wire [SEG_COUNT-1:0]   cfg_dn = redo_reg ? cfg_dn_r[SETS-1] : cfg_dn_r[0];

// ---------------------------------------------------------------- taking the segments

// segments of the held beat already taken on an earlier clock
reg [SEG_COUNT-1:0] done_reg = {SEG_COUNT{1'b0}};
// the TLP in progress (continued in the next segment) is forwarded
reg fwd_pkt_reg = 1'b0;
// the locally terminated TLP taken last clock: its configuration write, by port
reg l_valid_reg = 1'b0;
reg l_wr_up_reg = 1'b0;
reg l_wr_dn_reg = 1'b0;

wire [SEG_COUNT-1:0] todo = d_valid_reg & ~done_reg;
// segments where a locally terminated TLP starts; for each segment, whether one starts in an
// earlier segment not yet taken (the part taken on this clock ends with that one)
wire [SEG_COUNT-1:0] lt = todo & d_sop_reg & d_loc_reg;
wire [SEG_COUNT-1:0] lt_before;
generate
    for (g = 0; g < SEG_COUNT; g = g + 1) begin : lt_prefix
        assign lt_before[g] = |(lt & ~({SEG_COUNT{1'b1}} << g));
    end
endgenerate
integer s;
wire split = |(todo & lt_before);

// no TLP is taken while a configuration write is applied or the beat is routed again
// this ingress's configuration write is applied on this clock (the upstream ingress's own)
wire wr_now = FROM_UP != 0 && cfg_wr;
wire room = fwd_room && loc_room && !wr_now && !redo_reg;
wire [SEG_COUNT-1:0] take = {SEG_COUNT{room}} & todo & ~lt_before;
wire [SEG_COUNT-1:0] first = take & d_sop_reg;
// the held beat is all taken on this clock (or there is none): the next one enters
wire d_free = !(|todo) || (room && !split);
// a local configuration write taken on this clock: the next beat enters once the write is applied
reg  [SEG_COUNT-1:0] d_wr;
always @* begin
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        d_wr[s] = !d_ur_reg[s] && d_hdr_reg[s*128 + 126];
    end
end
wire wr_take = FROM_UP != 0 && room && |(lt & ~lt_before & d_wr);
assign rx_ready = d_free && !redo_reg && !wr_take && !wr_now;

// each segment's TLP is forwarded: that of the last TLP start up to it among the segments not
// yet taken, else the TLP running on from before; and the TLP running on after this clock
reg [SEG_COUNT-1:0] in_fwd;
reg                 c_fwd, cur;
always @* begin
    c_fwd = fwd_pkt_reg;
    cur = fwd_pkt_reg;
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        if (todo[s] && d_sop_reg[s]) begin
            c_fwd = d_fwd_reg[s];
        end
        in_fwd[s] = c_fwd;
        if (first[s]) begin
            cur = d_fwd_reg[s];
        end
    end
    fwd_valid = take & in_fwd;
end

always @(posedge clk) begin
    fwd_pkt_reg <= cur;
    if (rx_ready) begin
        d_data_reg <= rx_data;
        d_strb_reg <= rx_strb;
        d_hdr_reg <= rx_hdr;
        d_valid_reg <= rx_valid;
        d_sop_reg <= rx_sop;
        d_eop_reg <= rx_eop;
        done_reg <= {SEG_COUNT{1'b0}};
    end else begin
        done_reg <= done_reg | take;
    end
    if (rx_ready || redo_reg) begin
        for (s = 0; s < SEG_COUNT; s = s + 1) begin
            d_fwd_reg[s] <= act[2*s +: 2] == ACT_FWD;
            d_loc_reg[s] <= act[2*s +: 2] == ACT_CFG || act[2*s +: 2] == ACT_UR;
            d_ur_reg[s] <= act[2*s +: 2] == ACT_UR;
        end
        d_type0_reg <= to_type0;
        d_cfg_dn_reg <= cfg_dn;
        d_cnt_reg <= cnt_idx;
    end
    redo_reg <= REDO && cfg_wr;
    if (rst) begin
        fwd_pkt_reg <= 1'b0;
        d_valid_reg <= {SEG_COUNT{1'b0}};
        done_reg <= {SEG_COUNT{1'b0}};
        redo_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- the local completion

// the locally terminated TLP taken on this clock (the first among the segments not yet taken),
// registered: its header, first payload DW, UR or configuration access, and port
reg [127:0] l_hdr, l_hdr_reg = 128'd0;
reg [31:0]  l_data, l_data_reg = 32'd0;
reg         l_ur, l_ur_reg = 1'b0;
reg         l_cfg_dn, l_cfg_dn_reg = 1'b0;
always @* begin
    l_hdr = d_hdr_reg[127:0];
    l_data = d_data_reg[31:0];
    l_ur = d_ur_reg[0];
    l_cfg_dn = d_cfg_dn_reg[0];
    for (s = 1; s < SEG_COUNT; s = s + 1) begin
        if (lt[s] && !lt_before[s]) begin
            l_hdr = d_hdr_reg[s*128 +: 128];
            l_data = d_data_reg[s*32*SEG_DW +: 32];
            l_ur = d_ur_reg[s];
            l_cfg_dn = d_cfg_dn_reg[s];
        end
    end
end
wire l_take = room && |lt;

always @(posedge clk) begin
    l_valid_reg <= l_take;
    l_wr_up_reg <= l_take && !l_ur && l_hdr[126] && !l_cfg_dn;
    l_wr_dn_reg <= l_take && !l_ur && l_hdr[126] && l_cfg_dn;
    l_hdr_reg <= l_hdr;
    l_data_reg <= l_data;
    l_ur_reg <= l_ur;
    l_cfg_dn_reg <= l_cfg_dn;
    if (rst) begin
        l_valid_reg <= 1'b0;
        l_wr_up_reg <= 1'b0;
        l_wr_dn_reg <= 1'b0;
    end
end

// local configuration access
wire cfg_write = l_hdr_reg[126];
assign cfg_dw = l_hdr_reg[43:34];
assign cfg_be = l_hdr_reg[67:64];
assign cfg_wr_data = l_data_reg;
assign cfg_wr_up = l_wr_up_reg;
assign cfg_wr_dn = l_wr_dn_reg;
assign ur_event = l_valid_reg && l_ur_reg;

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
    .hdr(l_hdr_reg), .mem_read(mem_read), .locked(mrd_locked), .hdr_4dw(mrd_4dw),
    .len_dw(mrd_len), .lead(mrd_lead), .req_bytes(mrd_bytes), .zero_len(mrd_zero),
    .addr_dw(mrd_addr_dw), .size_class(mrd_class)
);
wire unused_mrd = &{1'b0, mrd_locked, mrd_4dw, mrd_len, mrd_bytes[12], mrd_class, mrd_addr_dw[29:5], 1'b0};

wire is_ur = l_ur_reg;
wire with_data = !is_ur && !cfg_write;
// the port that answers: the upstream port is device 0 on its primary bus, the downstream
// port device 0 on the internal bus (the upstream port's secondary bus)
// (UP_CFG_IN_BLOCK: the internal bus is the one the configuration request names; the upstream
// port's own numbers are the block's, up_primary_bus 0 here)
wire [7:0] cpl_bus = (FROM_UP && !(!is_ur && l_cfg_dn_reg)) ? up_primary_bus
                   : (UP_CFG_IN_BLOCK != 0 && FROM_UP != 0) ? l_hdr_reg[63:56] : up_secondary_bus;
wire [11:0] byte_count = (is_ur && mem_read) ? (mrd_zero ? 12'd1 : mrd_bytes[11:0]) : 12'd4;
wire [6:0] lower_addr = (is_ur && mem_read) ? {mrd_addr_dw[4:0], mrd_lead} : 7'd0;

assign loc_hdr = {
    1'b0, with_data, 1'b0, 5'b01010,              // Fmt, Type: Cpl / CplD
    l_hdr_reg[119], l_hdr_reg[118:116], l_hdr_reg[115], // T9, TC, T8
    l_hdr_reg[114], 4'b0000, l_hdr_reg[109:108], 2'b00, // Attr2, LN TH TD EP, Attr, AT
    with_data ? 10'd1 : 10'd0,                    // Length
    cpl_bus, 8'h00, is_ur ? 3'b001 : 3'b000, 1'b0, byte_count,
    l_hdr_reg[95:80], l_hdr_reg[79:72], 1'b0, lower_addr,
    32'd0
};
assign loc_data = !with_data ? 32'd0 : l_cfg_dn_reg ? cfg_rd_dn : cfg_rd_up;
assign loc_has_data = with_data;
assign loc_valid = l_valid_reg;

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
                hit_reg[i] <= first[i] && d_cnt_reg[3*i +: 3] == IDX;
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


endmodule

`resetall
