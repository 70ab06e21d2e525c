`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One egress port of the switch: the segments of the TLPs forwarded from the other port in
 * two queues in arrival order (seg_fifo, up to TLP_SEG_COUNT segments in and out per clock
 * each): posted TLPs and completions in one, non-posted requests in the other; a third queue
 * for the completions the switch makes itself (configuration, UR); and the beat packer.
 *
 * Ordering: posted TLPs and completions leave in the order they arrived among themselves, and
 * so do non-posted requests. Each posted TLP or completion is queued with the number of
 * non-posted requests that arrived before it, each non-posted request with its own number
 * (modulo 2^ARRIVAL_WIDTH), so the packer knows which of the two queue heads arrived first. The older head goes first, except that a non-posted request
 * goes only while tx_np_ok is high (the link partner can take one): while it is low, posted
 * TLPs and completions pass the non-posted requests waiting (the passing the PCIe ordering
 * table requires); a non-posted request never passes an older posted TLP or completion. With
 * tx_np_ok always high the order is strict arrival order. A local completion goes at a TLP
 * boundary before a forwarded non-posted request, after a forwarded posted TLP or
 * completion; at most one per beat.
 *
 * A beat is TLP_SEG_COUNT segments, filled in order (the format of sw_ingress): the rest of
 * the TLP in progress, then as many TLPs as start in the segments left; a TLP keeps its
 * segments contiguous to its eop. A TLP starts only when its queue holds its segments up to
 * its eop or to the end of the beat, and a TLP continued from the last beat leaves only when
 * its queue holds the rest of it or a whole beat of it, so no TLP has a hole; when the queues
 * keep up with a full-rate input every segment of every beat is filled. A beat offered and
 * not taken is offered again unchanged (what each segment took is kept; tx_np_ok is looked
 * at when a beat is first offered). fwd_room: both forwarded queues have room for a beat (each
 * a register: the forwarded segments reach the queues a clock after the ingress takes them).
 */
module sw_egress #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    parameter TLP_SEG_COUNT = 1,
    // beats in each forwarded queue and completions in the local queue, as address bits
    parameter QUEUE_ADDR_WIDTH = 4
)
(
    input  wire                        clk,
    input  wire                        rst,

    // forwarded segments (sw_ingress's fwd_seg: {sop, eop, strb, hdr, data} each)
    input  wire [TLP_SEG_COUNT*(TLP_DATA_WIDTH/TLP_SEG_COUNT+TLP_STRB_WIDTH/TLP_SEG_COUNT+130)-1:0] fwd_seg,
    input  wire [TLP_SEG_COUNT-1:0]    fwd_valid,
    // room for a whole beat of segments
    output wire                        fwd_room,

    // local completions: header and at most one payload DW
    input  wire [127:0]                loc_hdr,
    input  wire [31:0]                 loc_data,
    input  wire                        loc_has_data,
    input  wire                        loc_valid,
    // the local queue takes the completion written on this clock and one more (a register)
    output wire                        loc_room,

    output reg  [TLP_DATA_WIDTH-1:0]   tx_data,
    output reg  [TLP_STRB_WIDTH-1:0]   tx_strb,
    output reg  [TLP_SEG_COUNT*128-1:0] tx_hdr,
    output reg  [TLP_SEG_COUNT-1:0]    tx_valid,
    output reg  [TLP_SEG_COUNT-1:0]    tx_sop,
    output reg  [TLP_SEG_COUNT-1:0]    tx_eop,
    input  wire                        tx_ready,
    // the link partner can take a non-posted request now
    input  wire                        tx_np_ok
);

localparam SEG_COUNT = TLP_SEG_COUNT;
// DWs per segment
localparam SEG_DW = TLP_STRB_WIDTH / TLP_SEG_COUNT;
localparam SEG_W = 32*SEG_DW + SEG_DW + 130;
// fields of a forwarded segment ({sop, eop, strb, hdr, data}, sw_ingress): data at bit 0 and the
// header after it on a 32-bit boundary where a segment is whole words of data
localparam F_HDR = 32*SEG_DW;
localparam F_EOP = F_HDR + 128 + SEG_DW;
localparam F_SOP = F_EOP + 1;
// a local completion: {header, data DW, has data}
localparam LOC_ENTRY_WIDTH = 128 + 32 + 1;
// a count of 0..SEG_COUNT segments, and a segment index
localparam COUNT_WIDTH = (SEG_COUNT == 1) ? 1 : (SEG_COUNT == 2) ? 2 : 3;
localparam SEG_INDEX_WIDTH = (SEG_COUNT == 1) ? 0 : (SEG_COUNT == 2) ? 1 : 2;
// the non-posted arrival tag: twice as many values as non-posted requests the queue can hold, so
// that a tag's distance to a queued request's number is its sign bit
localparam ARRIVAL_WIDTH = QUEUE_ADDR_WIDTH + SEG_INDEX_WIDTH + 2;
// a queue entry: {arrival tag, segment}; a posted TLP's or completion's tag counts the non-posted
// requests that arrived before it, a non-posted request's those before it (its own number)
localparam PC_ENTRY_WIDTH = ARRIVAL_WIDTH + SEG_W;
localparam [ARRIVAL_WIDTH-1:0] ARRIVAL_ONE = {{(ARRIVAL_WIDTH-1){1'b0}}, 1'b1};
// what a segment of the offered beat holds
localparam [1:0] SEL_NONE = 2'd0, SEL_PC = 2'd1, SEL_NP = 2'd2, SEL_LOC = 2'd3;

// Parameter check at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (SEG_COUNT != 1 && SEG_COUNT != 2 && SEG_COUNT != 4) begin : g_check_tlp_seg_count
        sw_egress_TLP_SEG_COUNT_must_be_1_2_or_4 unsupported_parameter ();
    end
endgenerate

// ordering class of a forwarded header from {Fmt[1], Type[4:1]}: a non-posted request (not a
// posted TLP, not a completion)
function non_posted;
    input [4:0] t;
    begin
        non_posted = !((t[3:0] == 4'b0000 && t[4]) || t[3:2] == 2'b10 || t[3:0] == 4'b0101);
    end
endfunction

// ---------------------------------------------------------------- the two forwarded queues

// class of the forwarded TLP running on from the last input beat; non-posted requests arrived
reg                     in_np_reg = 1'b0;
reg [ARRIVAL_WIDTH-1:0] np_in_reg = {ARRIVAL_WIDTH{1'b0}};

// each forwarded segment's queue, from the class of the TLP it belongs to
reg [SEG_COUNT-1:0] pc_fwd, np_fwd;
reg                 in_np;
reg [SEG_W-1:0]     fsg;
integer i;
always @* begin
    in_np = in_np_reg;
    pc_fwd = {SEG_COUNT{1'b0}};
    np_fwd = {SEG_COUNT{1'b0}};
    for (i = 0; i < SEG_COUNT; i = i + 1) begin
        fsg = fwd_seg[i*SEG_W +: SEG_W];
        if (fwd_valid[i]) begin
            if (fsg[F_SOP]) begin
                in_np = non_posted({fsg[F_HDR+126], fsg[F_HDR+124:F_HDR+121]});
            end
            pc_fwd[i] = !in_np;
            np_fwd[i] = in_np;
        end
    end
end

// the forwarded segments and their queues a clock after the ingress took them: its routing
// decisions end here, and the queues' write steering and room start at flip-flops
reg [SEG_COUNT*SEG_W-1:0] fin_seg_reg = {SEG_COUNT*SEG_W{1'b0}};
reg [SEG_COUNT-1:0]       pc_valid = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]       np_valid = {SEG_COUNT{1'b0}};
always @(posedge clk) begin
    fin_seg_reg <= fwd_seg;
    pc_valid <= pc_fwd;
    np_valid <= np_fwd;
    if (rst) begin
        pc_valid <= {SEG_COUNT{1'b0}};
        np_valid <= {SEG_COUNT{1'b0}};
    end
end

// a posted TLP or completion carries the non-posted requests that arrived before it, a
// non-posted request its own number (the same count, before it is added in)
reg [SEG_COUNT*PC_ENTRY_WIDTH-1:0] q_in;
reg [ARRIVAL_WIDTH-1:0]            np_in;
reg [SEG_W-1:0]                    isg;
always @* begin
    np_in = np_in_reg;
    q_in = {SEG_COUNT*PC_ENTRY_WIDTH{1'b0}};
    for (i = 0; i < SEG_COUNT; i = i + 1) begin
        isg = fin_seg_reg[i*SEG_W +: SEG_W];
        q_in[i*PC_ENTRY_WIDTH +: PC_ENTRY_WIDTH] = {np_in, isg};
        if (np_valid[i] && isg[F_SOP]) begin
            np_in = np_in + ARRIVAL_ONE;
        end
    end
end

always @(posedge clk) begin
    in_np_reg <= in_np;
    np_in_reg <= np_in;
    if (rst) begin
        in_np_reg <= 1'b0;
        np_in_reg <= {ARRIVAL_WIDTH{1'b0}};
    end
end

wire [SEG_COUNT*PC_ENTRY_WIDTH-1:0] pc_head;
wire [SEG_COUNT*PC_ENTRY_WIDTH-1:0] np_head;
wire [COUNT_WIDTH-1:0]              pc_count, np_count;
wire                                pc_room, np_room;
// room for two beats: not used here (room is a register, REG_ROOM: the ingress's beats reach
// the queues a clock after it takes them)
wire                                pc_room2, np_room2;
wire unused_room2 = &{1'b0, pc_room2, np_room2, 1'b0};
reg  [COUNT_WIDTH-1:0]              pc_pop, np_pop;

seg_fifo #(.WIDTH(PC_ENTRY_WIDTH), .SEG_COUNT(SEG_COUNT), .ADDR_WIDTH(QUEUE_ADDR_WIDTH), .COUNT_WIDTH(COUNT_WIDTH), .REG_ROOM(1)) pc_fifo (
    .clk(clk), .rst(rst),
    .in_data(q_in), .in_valid(pc_valid), .room(pc_room), .room2(pc_room2),
    .out_data(pc_head), .out_count(pc_count), .out_pop(pc_pop)
);

seg_fifo #(.WIDTH(PC_ENTRY_WIDTH), .SEG_COUNT(SEG_COUNT), .ADDR_WIDTH(QUEUE_ADDR_WIDTH), .COUNT_WIDTH(COUNT_WIDTH), .REG_ROOM(1)) np_fifo (
    .clk(clk), .rst(rst),
    .in_data(q_in), .in_valid(np_valid), .room(np_room), .room2(np_room2),
    .out_data(np_head), .out_count(np_count), .out_pop(np_pop)
);

assign fwd_room = pc_room && np_room;

// a completion arrives only when room said it fits
wire                       loc_full;
wire unused_loc_full = &{1'b0, loc_full, 1'b0};
wire [LOC_ENTRY_WIDTH-1:0] l_out;
wire                       l_valid;
reg                        l_pop;
sw_fifo #(.WIDTH(LOC_ENTRY_WIDTH), .ADDR_WIDTH(QUEUE_ADDR_WIDTH)) loc_fifo (
    .clk(clk), .rst(rst),
    .in_data({loc_hdr, loc_data, loc_has_data}), .in_valid(loc_valid), .full(loc_full), .room(loc_room),
    .out_data(l_out), .out_valid(l_valid), .out_pop(l_pop)
);

// ---------------------------------------------------------------- the packer

// a forwarded TLP continues from the last beat, and from which queue
reg          busy_reg = 1'b0;
reg          busy_np_reg = 1'b0;
// the beat offered last clock and not taken: what each segment held, offered again as it was
reg                   hold_reg = 1'b0;
reg [2*SEG_COUNT-1:0] hold_sel_reg = {2*SEG_COUNT{1'b0}};

// what the packer reads of each queue's oldest SEG_COUNT segments, slot k: held (k below the
// count), eop, and for each pair of slots whether the posted TLP or completion arrived after the
// non-posted request (its tag, the requests that arrived before it, passes the request's number:
// the sign of their difference, a carry chain), all at once so that the choices only index them
reg [SEG_COUNT-1:0]       vp, vn, ep, en;
// a held eop at slot j or later (the TLP at j ends in the window); index SEG_COUNT: none
reg [SEG_COUNT:0]         endp, endn;
reg [SEG_COUNT*SEG_COUNT-1:0] later;
reg [ARRIVAL_WIDTH-1:0]   tag_diff;
integer o, k, c;
always @* begin
    tag_diff = {ARRIVAL_WIDTH{1'b0}};
    for (k = 0; k < SEG_COUNT; k = k + 1) begin
        vp[k] = pc_count > k[COUNT_WIDTH-1:0];
        vn[k] = np_count > k[COUNT_WIDTH-1:0];
        ep[k] = pc_head[k*PC_ENTRY_WIDTH+F_EOP];
        en[k] = np_head[k*PC_ENTRY_WIDTH+F_EOP];
        for (c = 0; c < SEG_COUNT; c = c + 1) begin
            tag_diff = np_head[c*PC_ENTRY_WIDTH+SEG_W +: ARRIVAL_WIDTH] - pc_head[k*PC_ENTRY_WIDTH+SEG_W +: ARRIVAL_WIDTH];
            later[k*SEG_COUNT+c] = tag_diff[ARRIVAL_WIDTH-1];
        end
    end
    endp[SEG_COUNT] = 1'b0;
    endn[SEG_COUNT] = 1'b0;
    for (k = SEG_COUNT - 1; k >= 0; k = k - 1) begin
        endp[k] = endp[k+1] || (vp[k] && ep[k]);
        endn[k] = endn[k+1] || (vn[k] && en[k]);
    end
end
wire unused_tag_diff = &{1'b0, tag_diff, 1'b0};

// The choice of each segment o, for every state it can be reached in: a segments of the posted /
// completion queue and b of the non-posted queue taken before it (so o - a - b local completions,
// 0 or 1). Entry (o, a, b) of each table: segment o takes the next posted / completion segment,
// the next non-posted one, the local completion. Every entry is made at once from the slots'
// flags; only the walk through the states below is in order, one LUT level a segment.
localparam NS = SEG_COUNT + 1;
localparam TAB = SEG_COUNT * NS * NS;
reg [TAB-1:0] t_pc, t_np, t_loc;
reg           np_first, fit_pc, fit_np, run_pc, run_np;
reg [1:0]     hs;
integer a, b;
always @* begin
    t_pc = {TAB{1'b0}};
    t_np = {TAB{1'b0}};
    t_loc = {TAB{1'b0}};
    np_first = 1'b0;
    fit_pc = 1'b0;
    fit_np = 1'b0;
    run_pc = 1'b0;
    run_np = 1'b0;
    hs = SEL_NONE;
    for (o = 0; o < SEG_COUNT; o = o + 1) begin
        for (a = 0; a <= o; a = a + 1) begin
            for (b = 0; a + b <= o; b = b + 1) begin
                // a TLP in progress: the last segment taken of a queue is not its TLP's last
                run_pc = busy_reg && !busy_np_reg;
                run_np = busy_reg && busy_np_reg;
                for (k = 0; k < SEG_COUNT; k = k + 1) begin
                    if (k + 1 == a) run_pc = !ep[k];
                    if (k + 1 == b) run_np = !en[k];
                end
                // which queued TLP arrived first: the non-posted request when no posted TLP or
                // completion is queued, or when the one queued arrived after it
                np_first = vn[b] && (!vp[a] || later[a*SEG_COUNT+b]);
                // the TLP at each queue's head fits: its eop is queued, or its segments to the end of this beat
                fit_pc = vp[a] && (endp[a] || vp[a + SEG_COUNT - 1 - o]);
                fit_np = vn[b] && (endn[b] || vn[b + SEG_COUNT - 1 - o]);
                hs = hold_sel_reg[2*o +: 2];
                if (hold_reg) begin
                    t_pc[(o*NS + a)*NS + b] = hs == SEL_PC;
                    t_np[(o*NS + a)*NS + b] = hs == SEL_NP;
                    t_loc[(o*NS + a)*NS + b] = hs == SEL_LOC;
                end else if (o == 0 && busy_reg) begin
                    // a TLP continued from the last beat: the rest of it, or a whole beat of it, is queued
                    t_pc[(o*NS + a)*NS + b] = !busy_np_reg && (endp[0] || vp[SEG_COUNT-1]);
                    t_np[(o*NS + a)*NS + b] = busy_np_reg && (endn[0] || vn[SEG_COUNT-1]);
                end else if (run_pc) begin
                    t_pc[(o*NS + a)*NS + b] = vp[a];
                end else if (run_np) begin
                    t_np[(o*NS + a)*NS + b] = vn[b];
                end else if (fit_pc && !(np_first && tx_np_ok)) begin
                    t_pc[(o*NS + a)*NS + b] = 1'b1;
                end else if (l_valid && a + b == o) begin
                    t_loc[(o*NS + a)*NS + b] = 1'b1;
                end else begin
                    t_np[(o*NS + a)*NS + b] = fit_np && np_first && tx_np_ok;
                end
            end
        end
    end
end

// the walk: st one-hot over (a, b) before each segment (all clear once a segment took nothing)
reg [NS*NS-1:0]          st, st_next;
reg [SEG_COUNT-1:0]      sel_pc, sel_np, sel_loc;
reg [2*SEG_COUNT-1:0]    sel_all;
// per segment, the slot it takes of each queue (one-hot)
reg [SEG_COUNT*SEG_COUNT-1:0] at_pc, at_np;
reg [COUNT_WIDTH-1:0]    pp, pn;
reg                      cont, cont_np, loc_used;
integer                  v, n;
always @* begin
    st = {NS*NS{1'b0}};
    st[0] = 1'b1;
    st_next = {NS*NS{1'b0}};
    sel_pc = {SEG_COUNT{1'b0}};
    sel_np = {SEG_COUNT{1'b0}};
    sel_loc = {SEG_COUNT{1'b0}};
    sel_all = {2*SEG_COUNT{1'b0}};
    at_pc = {SEG_COUNT*SEG_COUNT{1'b0}};
    at_np = {SEG_COUNT*SEG_COUNT{1'b0}};
    cont = busy_reg;
    cont_np = busy_np_reg;
    for (o = 0; o < SEG_COUNT; o = o + 1) begin
        st_next = {NS*NS{1'b0}};
        for (a = 0; a <= o; a = a + 1) begin
            for (b = 0; a + b <= o; b = b + 1) begin
                if (st[a*NS+b] && t_pc[(o*NS + a)*NS + b]) begin
                    sel_pc[o] = 1'b1;
                    at_pc[o*SEG_COUNT+a] = 1'b1;
                    st_next[(a+1)*NS+b] = 1'b1;
                end
                if (st[a*NS+b] && t_np[(o*NS + a)*NS + b]) begin
                    sel_np[o] = 1'b1;
                    at_np[o*SEG_COUNT+b] = 1'b1;
                    st_next[a*NS+b+1] = 1'b1;
                end
                if (st[a*NS+b] && t_loc[(o*NS + a)*NS + b]) begin
                    sel_loc[o] = 1'b1;
                    st_next[a*NS+b] = 1'b1;
                end
            end
        end
        st = st_next;
        sel_all[2*o +: 2] = sel_pc[o] ? SEL_PC : sel_np[o] ? SEL_NP : sel_loc[o] ? SEL_LOC : SEL_NONE;
    end
    // what was taken of each queue, and the TLP left running into the next beat
    // the counts as a lookup on the bits (logic, not an adder's carry chain)
    pp = {COUNT_WIDTH{1'b0}};
    pn = {COUNT_WIDTH{1'b0}};
    loc_used = |sel_loc;
    for (v = 0; v < (1 << SEG_COUNT); v = v + 1) begin
        n = 0;
        for (k = 0; k < SEG_COUNT; k = k + 1) begin
            n = n + ((v >> k) & 1);
        end
        if (sel_pc == v[SEG_COUNT-1:0]) pp = n[COUNT_WIDTH-1:0];
        if (sel_np == v[SEG_COUNT-1:0]) pn = n[COUNT_WIDTH-1:0];
    end
    for (k = 0; k < SEG_COUNT; k = k + 1) begin
        if (at_pc[(SEG_COUNT-1)*SEG_COUNT+k] && sel_pc[SEG_COUNT-1]) begin
            cont = !ep[k];
            cont_np = 1'b0;
        end
        if (at_np[(SEG_COUNT-1)*SEG_COUNT+k] && sel_np[SEG_COUNT-1]) begin
            cont = !en[k];
            cont_np = 1'b1;
        end
    end
    if (!sel_pc[SEG_COUNT-1] && !sel_np[SEG_COUNT-1]) begin
        cont = 1'b0;
    end
end

// the output beat: each segment a queue's slot (constant slices) or the local completion
reg [SEG_W-1:0]          sg_pc;
reg [SEG_W-1:0]          sg_np;
reg [SEG_DW*32-1:0]      loc_seg_data;
reg [SEG_DW-1:0]         loc_seg_strb;
always @* begin
    loc_seg_data = {SEG_DW*32{1'b0}};
    loc_seg_data[31:0] = l_out[32:1];
    loc_seg_strb = {SEG_DW{1'b0}};
    loc_seg_strb[0] = l_out[0];
    tx_data = {TLP_DATA_WIDTH{1'b0}};
    tx_strb = {TLP_STRB_WIDTH{1'b0}};
    tx_hdr = {SEG_COUNT*128{1'b0}};
    tx_valid = sel_pc | sel_np | sel_loc;
    tx_sop = {SEG_COUNT{1'b0}};
    tx_eop = {SEG_COUNT{1'b0}};
    sg_pc = {SEG_W{1'b0}};
    sg_np = {SEG_W{1'b0}};
    for (o = 0; o < SEG_COUNT; o = o + 1) begin
        sg_pc = {SEG_W{1'b0}};
        sg_np = {SEG_W{1'b0}};
        for (k = 0; k <= o; k = k + 1) begin
            if (at_pc[o*SEG_COUNT+k]) sg_pc = sg_pc | pc_head[k*PC_ENTRY_WIDTH +: SEG_W];
            if (at_np[o*SEG_COUNT+k]) sg_np = sg_np | np_head[k*PC_ENTRY_WIDTH +: SEG_W];
        end
        if (sel_loc[o]) begin
            tx_data[o*32*SEG_DW +: 32*SEG_DW] = loc_seg_data;
            tx_strb[o*SEG_DW +: SEG_DW] = loc_seg_strb;
            tx_hdr[o*128 +: 128] = l_out[LOC_ENTRY_WIDTH-1:33];
            tx_sop[o] = 1'b1;
            tx_eop[o] = 1'b1;
        end else begin
            {tx_sop[o], tx_eop[o], tx_strb[o*SEG_DW +: SEG_DW], tx_hdr[o*128 +: 128], tx_data[o*32*SEG_DW +: 32*SEG_DW]} = sg_pc | sg_np;
        end
    end
end

wire xfer = tx_ready && |tx_valid;
always @* begin
    // an empty beat takes nothing: ready alone gates the counts
    pc_pop = tx_ready ? pp : {COUNT_WIDTH{1'b0}};
    np_pop = tx_ready ? pn : {COUNT_WIDTH{1'b0}};
    l_pop = tx_ready && loc_used;
end

always @(posedge clk) begin
    if (xfer) begin
        busy_reg <= cont;
        busy_np_reg <= cont_np;
    end
    hold_reg <= |tx_valid && !tx_ready;
    hold_sel_reg <= sel_all;
    if (rst) begin
        busy_reg <= 1'b0;
        busy_np_reg <= 1'b0;
        hold_reg <= 1'b0;
        hold_sel_reg <= {2*SEG_COUNT{1'b0}};
    end
end

endmodule

`resetall
