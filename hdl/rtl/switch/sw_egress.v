`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One egress port of the switch: the segments of the TLPs forwarded from the other port in
 * one queue in arrival order (sw_seg_fifo, up to TLP_SEG_COUNT segments in and out per
 * clock), a second queue for the completions the switch makes itself (configuration, UR),
 * and the beat packer.
 *
 * Ordering: forwarded TLPs leave in the order they arrived, whatever their class, so no TLP
 * passes another (within a class and across classes: a non-posted request or completion
 * never passes a posted TLP, posted TLPs do not pass the others either). A local completion
 * goes at a TLP boundary before a forwarded non-posted request, after a forwarded posted TLP
 * or completion; at most one per beat.
 *
 * A beat is TLP_SEG_COUNT segments, filled in order (the format of sw_ingress): the rest of
 * the TLP in progress, then as many TLPs as start in the segments left; a TLP keeps its
 * segments contiguous to its eop. A TLP starts only when the queue holds its segments up to
 * its eop or to the end of the beat, and a TLP continued from the last beat leaves only when
 * the queue holds the rest of it or a whole beat of it, so no TLP has a hole; when the queue
 * keeps up with a full-rate input every segment of every beat is filled. A beat offered and
 * not taken is offered again unchanged.
 */
module sw_egress #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter TLP_SEG_COUNT = 1,
    // beats in the forwarded queue and completions in the local queue, as address bits
    parameter QUEUE_ADDR_WIDTH = 4
)
(
    input  wire                        clk,
    input  wire                        rst,

    // forwarded segments (sw_ingress's fwd_seg: {data, strb, hdr, sop, eop} each)
    input  wire [TLP_SEG_COUNT*(TLP_DATA_WIDTH/TLP_SEG_COUNT+TLP_STRB_WIDTH/TLP_SEG_COUNT+130)-1:0] fwd_seg,
    input  wire [TLP_SEG_COUNT-1:0]    fwd_valid,
    // room for a whole beat of segments
    output wire                        fwd_room,

    // local completions: header and at most one payload DW
    input  wire [127:0]                loc_hdr,
    input  wire [31:0]                 loc_data,
    input  wire                        loc_has_data,
    input  wire                        loc_valid,
    output wire                        loc_full,

    output reg  [TLP_DATA_WIDTH-1:0]   tx_data,
    output reg  [TLP_STRB_WIDTH-1:0]   tx_strb,
    output reg  [TLP_SEG_COUNT*128-1:0] tx_hdr,
    output reg  [TLP_SEG_COUNT-1:0]    tx_valid,
    output reg  [TLP_SEG_COUNT-1:0]    tx_sop,
    output reg  [TLP_SEG_COUNT-1:0]    tx_eop,
    input  wire                        tx_ready
);

localparam S = TLP_SEG_COUNT;
localparam SD = TLP_STRB_WIDTH / TLP_SEG_COUNT;
localparam SEG_W = 32*SD + SD + 130;
localparam LOC = 128 + 32 + 1;
localparam CW = (S == 1) ? 1 : (S == 2) ? 2 : 3;
localparam [31:0] S_32 = S;

wire [S*SEG_W-1:0] head;
wire [CW-1:0]      head_count;
reg  [CW-1:0]      pop_count;

sw_seg_fifo #(.WIDTH(SEG_W), .SEG_COUNT(S), .ADDR_WIDTH(QUEUE_ADDR_WIDTH), .CW(CW)) fwd_fifo (
    .clk(clk), .rst(rst),
    .in_data(fwd_seg), .in_valid(fwd_valid), .room(fwd_room),
    .out_data(head), .out_count(head_count), .out_pop(pop_count)
);

wire [LOC-1:0] l_out;
wire l_valid;
reg  l_pop;
sw_fifo #(.WIDTH(LOC), .ADDR_WIDTH(QUEUE_ADDR_WIDTH)) loc_fifo (
    .clk(clk), .rst(rst),
    .in_data({loc_hdr, loc_data, loc_has_data}), .in_valid(loc_valid), .full(loc_full),
    .out_data(l_out), .out_valid(l_valid), .out_pop(l_pop)
);

// a forwarded TLP continues from the last beat
reg          busy_reg = 1'b0;
// the beat offered last clock and not taken: how many queued segments and whether a local
// completion it held, so that it is offered again as it was
reg          hold_reg = 1'b0;
reg [CW-1:0] hold_count_reg = {CW{1'b0}};
reg          hold_loc_reg = 1'b0;

// ordering class of a forwarded header from {Fmt[1], Type[4:1]}: a non-posted request (not a
// posted TLP, not a completion)
function non_posted;
    input [4:0] t;
    begin
        non_posted = !((t[3:0] == 4'b0000 && t[4]) || t[3:2] == 2'b10 || t[3:0] == 4'b0101);
    end
endfunction

reg [31:0]      avail, p, kk;
reg             loc_ok, loc_used, cont, stop, fwd_ok, ends;
reg [SEG_W-1:0] sg;
reg [SD*32-1:0] loc_seg_data;
reg [SD-1:0]    loc_seg_strb;
integer o, k;
always @* begin
    avail = hold_reg ? {{(32-CW){1'b0}}, hold_count_reg} : {{(32-CW){1'b0}}, head_count};
    loc_ok = hold_reg ? hold_loc_reg : l_valid;
    loc_seg_data = {SD*32{1'b0}};
    loc_seg_data[31:0] = l_out[32:1];
    loc_seg_strb = {SD{1'b0}};
    loc_seg_strb[0] = l_out[0];
    tx_data = {TLP_DATA_WIDTH{1'b0}};
    tx_strb = {TLP_STRB_WIDTH{1'b0}};
    tx_hdr = {S*128{1'b0}};
    tx_valid = {S{1'b0}};
    tx_sop = {S{1'b0}};
    tx_eop = {S{1'b0}};
    p = 32'd0;
    kk = 32'd0;
    sg = {SEG_W{1'b0}};
    loc_used = 1'b0;
    fwd_ok = 1'b0;
    cont = busy_reg;
    // a TLP continued from the last beat: the rest of it, or a whole beat of it, is queued
    ends = 1'b0;
    for (k = 0; k < S; k = k + 1) begin
        kk = k;
        sg = head[k*SEG_W +: SEG_W];
        if (kk < avail && sg[0]) begin
            ends = 1'b1;
        end
    end
    stop = busy_reg && !(ends || avail == S_32);
    for (o = 0; o < S; o = o + 1) begin
        // the queue's next segment: p is o, or o - 1 once a local completion took a segment
        // (every slot before this one took a segment; constant slices, no shifter)
        if (loc_used && o > 0) begin
            sg = head[(o-1)*SEG_W +: SEG_W];
        end else begin
            sg = head[o*SEG_W +: SEG_W];
        end
        if (!stop) begin
            if (cont) begin
                if (p < avail) begin
                    tx_valid[o] = 1'b1;
                    {tx_data[o*32*SD +: 32*SD], tx_strb[o*SD +: SD], tx_hdr[o*128 +: 128], tx_sop[o], tx_eop[o]} = sg;
                    cont = !sg[0];
                    p = p + 32'd1;
                end else begin
                    stop = 1'b1;
                end
            end else begin
                // the TLP at the queue's head fits: its eop is queued, or its segments to the end of this beat
                ends = 1'b0;
                for (k = 0; k < S; k = k + 1) begin
                    kk = k;
                    if (kk >= p && kk < avail && head[k*SEG_W]) begin
                        ends = 1'b1;
                    end
                end
                fwd_ok = p < avail && (ends || avail - p >= S_32 - o);
                if (fwd_ok && !non_posted({sg[128], sg[126:123]})) begin
                    tx_valid[o] = 1'b1;
                    {tx_data[o*32*SD +: 32*SD], tx_strb[o*SD +: SD], tx_hdr[o*128 +: 128], tx_sop[o], tx_eop[o]} = sg;
                    cont = !sg[0];
                    p = p + 32'd1;
                end else if (loc_ok && !loc_used) begin
                    tx_valid[o] = 1'b1;
                    tx_data[o*32*SD +: 32*SD] = loc_seg_data;
                    tx_strb[o*SD +: SD] = loc_seg_strb;
                    tx_hdr[o*128 +: 128] = l_out[LOC-1:33];
                    tx_sop[o] = 1'b1;
                    tx_eop[o] = 1'b1;
                    loc_used = 1'b1;
                end else if (fwd_ok) begin
                    tx_valid[o] = 1'b1;
                    {tx_data[o*32*SD +: 32*SD], tx_strb[o*SD +: SD], tx_hdr[o*128 +: 128], tx_sop[o], tx_eop[o]} = sg;
                    cont = !sg[0];
                    p = p + 32'd1;
                end else begin
                    stop = 1'b1;
                end
            end
        end
    end
end

wire xfer = tx_ready && |tx_valid;
always @* begin
    pop_count = xfer ? p[CW-1:0] : {CW{1'b0}};
    l_pop = xfer && loc_used;
end
wire unused_p = &{1'b0, p[31:CW], kk, fwd_ok, 1'b0};

always @(posedge clk) begin
    if (xfer) begin
        busy_reg <= cont;
    end
    hold_reg <= |tx_valid && !tx_ready;
    hold_count_reg <= p[CW-1:0];
    hold_loc_reg <= loc_used;
    if (rst) begin
        busy_reg <= 1'b0;
        hold_reg <= 1'b0;
        hold_count_reg <= {CW{1'b0}};
        hold_loc_reg <= 1'b0;
    end
end

endmodule

`resetall
