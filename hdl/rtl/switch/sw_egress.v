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
 * not taken is offered again unchanged (what the packer reads is kept: its flags, the local
 * queue's, and tx_np_ok as it was when the beat was first offered). fwd_room: both forwarded
 * queues have room for a beat (each a register: the forwarded segments reach the queues a clock
 * after the ingress takes them).
 *
 * The packer reads registers only: for each queue slot its eop, whether a TLP starting there
 * fits in each segment, and for each pair of slots which queue's TLP arrived first, all loaded
 * on the clock before from the queues' oldest 2*TLP_SEG_COUNT entries after that clock's write
 * (seg_fifo's peek), chosen by that clock's pops. Its choices and the pops start at flip-flops;
 * the pops end in the queues' read addresses and these flags.
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
// the packer reads its own flags (below), not the counts
wire [COUNT_WIDTH-1:0]              pc_count, np_count;
wire unused_count = &{1'b0, pc_count, np_count, 1'b0};
wire                                pc_room, np_room;
// room for two beats: not used here (room is a register, REG_ROOM: the ingress's beats reach
// the queues a clock after it takes them)
wire                                pc_room2, np_room2;
wire unused_room2 = &{1'b0, pc_room2, np_room2, 1'b0};
reg  [COUNT_WIDTH-1:0]              pc_pop, np_pop;

// each queue's oldest 2*SEG_COUNT entries, their top bits {arrival tag, sop, eop}: as stored, as
// written on this clock (with the input segment each came from); *_old: held before this clock's
// write, *_held: after it
localparam PEEK_WIDTH = ARRIVAL_WIDTH + 2;
localparam PEEK_N = 2*SEG_COUNT;
localparam SEG_INDEX_W1 = (SEG_INDEX_WIDTH > 0) ? SEG_INDEX_WIDTH : 1;
localparam P_EOP = 0;
localparam P_TAG = 2;
wire [PEEK_N*PEEK_WIDTH-1:0]   pc_stored, pc_written, np_stored, np_written;
wire [PEEK_N*SEG_INDEX_W1-1:0] pc_wseg, np_wseg;
wire [PEEK_N-1:0]              pc_old, pc_held, np_old, np_held;

seg_fifo #(.WIDTH(PC_ENTRY_WIDTH), .SEG_COUNT(SEG_COUNT), .ADDR_WIDTH(QUEUE_ADDR_WIDTH), .COUNT_WIDTH(COUNT_WIDTH), .REG_ROOM(1), .PEEK_WIDTH(PEEK_WIDTH)) pc_fifo (
    .clk(clk), .rst(rst),
    .in_data(q_in), .in_valid(pc_valid), .room(pc_room), .room2(pc_room2),
    .out_data(pc_head), .out_count(pc_count), .out_pop(pc_pop),
    .peek_stored(pc_stored), .peek_written(pc_written), .peek_seg(pc_wseg), .peek_old(pc_old), .peek_valid(pc_held)
);

seg_fifo #(.WIDTH(PC_ENTRY_WIDTH), .SEG_COUNT(SEG_COUNT), .ADDR_WIDTH(QUEUE_ADDR_WIDTH), .COUNT_WIDTH(COUNT_WIDTH), .REG_ROOM(1), .PEEK_WIDTH(PEEK_WIDTH)) np_fifo (
    .clk(clk), .rst(rst),
    .in_data(q_in), .in_valid(np_valid), .room(np_room), .room2(np_room2),
    .out_data(np_head), .out_count(np_count), .out_pop(np_pop),
    .peek_stored(np_stored), .peek_written(np_written), .peek_seg(np_wseg), .peek_old(np_old), .peek_valid(np_held)
);

assign fwd_room = pc_room && np_room;

// a completion arrives only when room said it fits
wire                       loc_full;
wire unused_loc_full = &{1'b0, loc_full, 1'b0};
wire [LOC_ENTRY_WIDTH-1:0] l_out;
wire                       l_valid, l_valid_next;
wire unused_l_valid = &{1'b0, l_valid, 1'b0};
reg                        l_pop;
sw_fifo #(.WIDTH(LOC_ENTRY_WIDTH), .ADDR_WIDTH(QUEUE_ADDR_WIDTH)) loc_fifo (
    .clk(clk), .rst(rst),
    .in_data({loc_hdr, loc_data, loc_has_data}), .in_valid(loc_valid), .full(loc_full), .room(loc_room),
    .out_data(l_out), .out_valid(l_valid), .out_pop(l_pop), .next_valid(l_valid_next)
);

// ---------------------------------------------------------------- the packer's flags

// What the packer reads of the queues, registers loaded a clock ahead (from the entries each
// queue holds after that clock's write, at that clock's pops), so that its tables start at
// flip-flops:
//   *_eop_reg[k]: the queue's slot k (0 its oldest segment) holds an eop;
//   *_fit_reg[a*SEG_COUNT+o] (a <= o): a TLP starting at slot a fits in segment o: its eop is
//     queued before the beat ends, or its segments to the end of the beat are;
//   np_first_reg[a*SEG_COUNT+b] (a + b < SEG_COUNT): with the posted / completion queue at slot a
//     and the non-posted queue at slot b, the non-posted request arrived first (it is queued, and
//     no posted TLP or completion is or the one queued arrived after it);
//   loc_ready_reg: a local completion is queued.
// While a beat is held (offered and not taken) they keep their values, and np_ok_held_reg keeps
// tx_np_ok as it was when the beat was first offered: the packer makes the same beat again.
reg [SEG_COUNT-1:0]           pc_eop_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]           np_eop_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT*SEG_COUNT-1:0] pc_fit_reg = {SEG_COUNT*SEG_COUNT{1'b0}};
reg [SEG_COUNT*SEG_COUNT-1:0] np_fit_reg = {SEG_COUNT*SEG_COUNT{1'b0}};
reg [SEG_COUNT*SEG_COUNT-1:0] np_first_reg = {SEG_COUNT*SEG_COUNT{1'b0}};
reg                           loc_ready_reg = 1'b0;
reg                           np_ok_held_reg = 1'b0;

// The same flags for each queue entry i of the next clock's candidates (0 its oldest after this
// clock's write, before its pop): slot k of the next clock is entry pop + k. An entry's order
// against the other queue's: by the stored tags where both were held before this clock, else the
// one written on this clock arrived later (both on this clock: by input segment).
reg [PEEK_N-1:0]           c_pc_eop, c_np_eop;
reg [PEEK_N*SEG_COUNT-1:0] c_pc_fit, c_np_fit;
reg [PEEK_N*PEEK_N-1:0]    c_np_first;
reg                        c_later, c_pc_f, c_np_f;

// the request numbered n arrived before the TLP tagged p: the sign of n - p (modulo), as logic
// (the borrow out of the low bits, a comparison bit by bit) rather than a subtractor's carry chain
function tag_before;
    input [ARRIVAL_WIDTH-1:0] n, p;
    reg                       borrow;
    integer                   tb_bit;
    begin
        borrow = 1'b0;
        for (tb_bit = 0; tb_bit < ARRIVAL_WIDTH - 1; tb_bit = tb_bit + 1) begin
            borrow = (!n[tb_bit] && p[tb_bit]) || (!(n[tb_bit] ^ p[tb_bit]) && borrow);
        end
        tag_before = n[ARRIVAL_WIDTH-1] ^ p[ARRIVAL_WIDTH-1] ^ borrow;
    end
endfunction
integer ci, cj, co, ck;
always @* begin
    c_later = 1'b0;
    for (ci = 0; ci < PEEK_N; ci = ci + 1) begin
        c_pc_eop[ci] = pc_old[ci] ? pc_stored[ci*PEEK_WIDTH+P_EOP] : pc_written[ci*PEEK_WIDTH+P_EOP];
        c_np_eop[ci] = np_old[ci] ? np_stored[ci*PEEK_WIDTH+P_EOP] : np_written[ci*PEEK_WIDTH+P_EOP];
    end
    // a TLP from entry ci in segment co: held up to the beat's end, or an eop held before it
    for (ci = 0; ci < PEEK_N; ci = ci + 1) begin
        for (co = 0; co < SEG_COUNT; co = co + 1) begin
            c_pc_f = (ci + SEG_COUNT - 1 - co < PEEK_N) ? pc_held[ci + SEG_COUNT - 1 - co] : 1'b0;
            c_np_f = (ci + SEG_COUNT - 1 - co < PEEK_N) ? np_held[ci + SEG_COUNT - 1 - co] : 1'b0;
            for (ck = ci; ck < ci + SEG_COUNT - 1 - co; ck = ck + 1) begin
                if (ck < PEEK_N) begin
                    c_pc_f = c_pc_f || (pc_held[ck] && c_pc_eop[ck]);
                    c_np_f = c_np_f || (np_held[ck] && c_np_eop[ck]);
                end
            end
            c_pc_fit[ci*SEG_COUNT+co] = c_pc_f;
            c_np_fit[ci*SEG_COUNT+co] = c_np_f;
        end
    end
    c_np_first = {PEEK_N*PEEK_N{1'b0}};
    for (ci = 0; ci < PEEK_N; ci = ci + 1) begin
        for (cj = 0; ci + cj < PEEK_N; cj = cj + 1) begin
            if (pc_old[ci] && np_old[cj]) begin
                c_later = tag_before(np_stored[cj*PEEK_WIDTH+P_TAG +: ARRIVAL_WIDTH], pc_stored[ci*PEEK_WIDTH+P_TAG +: ARRIVAL_WIDTH]);
            end else if (np_old[cj]) begin
                c_later = 1'b1;
            end else if (pc_old[ci]) begin
                c_later = 1'b0;
            end else begin
                c_later = pc_wseg[ci*SEG_INDEX_W1 +: SEG_INDEX_W1] > np_wseg[cj*SEG_INDEX_W1 +: SEG_INDEX_W1];
            end
            c_np_first[ci*PEEK_N+cj] = np_held[cj] && (!pc_held[ci] || c_later);
        end
    end
end
// each entry's sop bit is not read
wire unused_peek = &{1'b0, pc_stored, pc_written, np_stored, np_written, 1'b0};

// ---------------------------------------------------------------- the packer

// a forwarded TLP continues from the last beat, and from which queue
reg          busy_reg = 1'b0;
reg          busy_np_reg = 1'b0;
// the beat offered last clock was not taken: it is offered again
reg          hold_reg = 1'b0;
wire         np_ok = hold_reg ? np_ok_held_reg : tx_np_ok;

// The choice of each segment o, for every state it can be reached in: a segments of the posted /
// completion queue and b of the non-posted queue taken before it (so o - a - b local completions,
// 0 or 1). Entry (o, a, b) of each table: segment o takes the next posted / completion segment,
// the next non-posted one, the local completion. Every entry is made at once from the flags; only
// the walk through the states below is in order, one LUT level a segment. A TLP started runs on
// (its fit said its segments are queued) without looking at the queue.
localparam NS = SEG_COUNT + 1;
localparam TAB = SEG_COUNT * NS * NS;
// a function of registers, in a continuous assignment: evaluated from the start in an
// event-driven simulator too (an always @* reading only registers that have not changed yet would
// not be)
function [3*TAB-1:0] packer_tables;
    input [SEG_COUNT-1:0]           pc_eop, np_eop;
    input [SEG_COUNT*SEG_COUNT-1:0] pc_fit, np_fit, np_first;
    input                           loc_ready, busy, busy_np, np_allowed;
    reg   [TAB-1:0]                 tp, tn, tl;
    reg                             run_p, run_n, go_p;
    integer                         to, ta, tb, tk;
    begin
        tp = {TAB{1'b0}};
        tn = {TAB{1'b0}};
        tl = {TAB{1'b0}};
        for (to = 0; to < SEG_COUNT; to = to + 1) begin
            for (ta = 0; ta <= to; ta = ta + 1) begin
                for (tb = 0; ta + tb <= to; tb = tb + 1) begin
                    // a TLP in progress: the last segment taken of a queue is not its TLP's last
                    run_p = 1'b0;
                    run_n = 1'b0;
                    for (tk = 0; tk < SEG_COUNT; tk = tk + 1) begin
                        if (tk + 1 == ta) run_p = !pc_eop[tk];
                        if (tk + 1 == tb) run_n = !np_eop[tk];
                    end
                    // the TLP at the posted / completion head goes before the non-posted one
                    go_p = pc_fit[ta*SEG_COUNT+to] && !(np_first[ta*SEG_COUNT+tb] && np_allowed);
                    if (to == 0 && busy) begin
                        // a TLP continued from the last beat: the rest of it, or a whole beat of it, is queued
                        tp[(to*NS + ta)*NS + tb] = !busy_np && pc_fit[0];
                        tn[(to*NS + ta)*NS + tb] = busy_np && np_fit[0];
                    end else if (run_p) begin
                        tp[(to*NS + ta)*NS + tb] = 1'b1;
                    end else if (run_n) begin
                        tn[(to*NS + ta)*NS + tb] = 1'b1;
                    end else if (go_p) begin
                        tp[(to*NS + ta)*NS + tb] = 1'b1;
                    end else if (loc_ready && ta + tb == to) begin
                        tl[(to*NS + ta)*NS + tb] = 1'b1;
                    end else begin
                        tn[(to*NS + ta)*NS + tb] = np_fit[tb*SEG_COUNT+to] && np_first[ta*SEG_COUNT+tb] && np_allowed;
                    end
                end
            end
        end
        packer_tables = {tl, tn, tp};
    end
endfunction
wire [TAB-1:0] t_pc, t_np, t_loc;
assign {t_loc, t_np, t_pc} = packer_tables(pc_eop_reg, np_eop_reg, pc_fit_reg, np_fit_reg, np_first_reg,
                                           loc_ready_reg, busy_reg, busy_np_reg, np_ok);

// the walk: st one-hot over (a, b) before each segment (all clear once a segment took nothing);
// fin one-hot over where it ended, the segments taken of each queue
reg [NS*NS-1:0]          st, st_next, fin;
reg [SEG_COUNT-1:0]      sel_pc, sel_np, sel_loc;
// per segment, the slot it takes of each queue (one-hot)
reg [SEG_COUNT*SEG_COUNT-1:0] at_pc, at_np;
reg [COUNT_WIDTH-1:0]    pp, pn;
reg                      cont, cont_np, loc_used;
integer                  wo, wa, wb, wk;
always @* begin
    st = {NS*NS{1'b0}};
    st[0] = 1'b1;
    st_next = {NS*NS{1'b0}};
    fin = {NS*NS{1'b0}};
    sel_pc = {SEG_COUNT{1'b0}};
    sel_np = {SEG_COUNT{1'b0}};
    sel_loc = {SEG_COUNT{1'b0}};
    at_pc = {SEG_COUNT*SEG_COUNT{1'b0}};
    at_np = {SEG_COUNT*SEG_COUNT{1'b0}};
    cont = busy_reg;
    cont_np = busy_np_reg;
    for (wo = 0; wo < SEG_COUNT; wo = wo + 1) begin
        st_next = {NS*NS{1'b0}};
        for (wa = 0; wa <= wo; wa = wa + 1) begin
            for (wb = 0; wa + wb <= wo; wb = wb + 1) begin
                if (st[wa*NS+wb] && t_pc[(wo*NS + wa)*NS + wb]) begin
                    sel_pc[wo] = 1'b1;
                    at_pc[wo*SEG_COUNT+wa] = 1'b1;
                    st_next[(wa+1)*NS+wb] = 1'b1;
                end
                if (st[wa*NS+wb] && t_np[(wo*NS + wa)*NS + wb]) begin
                    sel_np[wo] = 1'b1;
                    at_np[wo*SEG_COUNT+wb] = 1'b1;
                    st_next[wa*NS+wb+1] = 1'b1;
                end
                if (st[wa*NS+wb] && t_loc[(wo*NS + wa)*NS + wb]) begin
                    sel_loc[wo] = 1'b1;
                    st_next[wa*NS+wb] = 1'b1;
                end
                if (st[wa*NS+wb] && !t_pc[(wo*NS + wa)*NS + wb] && !t_np[(wo*NS + wa)*NS + wb] && !t_loc[(wo*NS + wa)*NS + wb]) begin
                    fin[wa*NS+wb] = 1'b1;
                end
            end
        end
        st = st_next;
    end
    fin = fin | st;
    // the segments taken of each queue
    pp = {COUNT_WIDTH{1'b0}};
    pn = {COUNT_WIDTH{1'b0}};
    for (wa = 0; wa < NS; wa = wa + 1) begin
        for (wb = 0; wa + wb < NS; wb = wb + 1) begin
            if (fin[wa*NS+wb]) begin
                pp = pp | wa[COUNT_WIDTH-1:0];
                pn = pn | wb[COUNT_WIDTH-1:0];
            end
        end
    end
    loc_used = |sel_loc;
    // the TLP left running into the next beat
    for (wk = 0; wk < SEG_COUNT; wk = wk + 1) begin
        if (at_pc[(SEG_COUNT-1)*SEG_COUNT+wk] && sel_pc[SEG_COUNT-1]) begin
            cont = !pc_eop_reg[wk];
            cont_np = 1'b0;
        end
        if (at_np[(SEG_COUNT-1)*SEG_COUNT+wk] && sel_np[SEG_COUNT-1]) begin
            cont = !np_eop_reg[wk];
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
integer                  bo, bk;
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
    for (bo = 0; bo < SEG_COUNT; bo = bo + 1) begin
        sg_pc = {SEG_W{1'b0}};
        sg_np = {SEG_W{1'b0}};
        for (bk = 0; bk <= bo; bk = bk + 1) begin
            if (at_pc[bo*SEG_COUNT+bk]) sg_pc = sg_pc | pc_head[bk*PC_ENTRY_WIDTH +: SEG_W];
            if (at_np[bo*SEG_COUNT+bk]) sg_np = sg_np | np_head[bk*PC_ENTRY_WIDTH +: SEG_W];
        end
        if (sel_loc[bo]) begin
            tx_data[bo*32*SEG_DW +: 32*SEG_DW] = loc_seg_data;
            tx_strb[bo*SEG_DW +: SEG_DW] = loc_seg_strb;
            tx_hdr[bo*128 +: 128] = l_out[LOC_ENTRY_WIDTH-1:33];
            tx_sop[bo] = 1'b1;
            tx_eop[bo] = 1'b1;
        end else begin
            {tx_sop[bo], tx_eop[bo], tx_strb[bo*SEG_DW +: SEG_DW], tx_hdr[bo*128 +: 128], tx_data[bo*32*SEG_DW +: 32*SEG_DW]} = sg_pc | sg_np;
        end
    end
end

// segment 0 takes something whenever the beat holds anything
wire offered = sel_pc[0] || sel_np[0] || sel_loc[0];
wire xfer = tx_ready && offered;
// the beat offered now is held (offered again on the next clock, unchanged)
wire hold_next = offered && !tx_ready;
always @* begin
    // an empty beat takes nothing: ready alone gates the counts
    pc_pop = tx_ready ? pp : {COUNT_WIDTH{1'b0}};
    np_pop = tx_ready ? pn : {COUNT_WIDTH{1'b0}};
    l_pop = tx_ready && loc_used;
end

// the next clock's flags: each queue's candidates from its pop on (fin: one-hot over the pops;
// when ready is low nothing was taken and fin is the first state). Each bit is the OR of its
// candidate ANDed with each final state (a flat OR, not a chain of multiplexers).
reg [SEG_COUNT-1:0]           pc_eop_next, np_eop_next;
reg [SEG_COUNT*SEG_COUNT-1:0] pc_fit_next, np_fit_next, np_first_next;
reg [NS*NS-1:0]               n_terms;
integer                       nx, ny, na, nb;
always @* begin
    n_terms = {NS*NS{1'b0}};
    for (na = 0; na < SEG_COUNT; na = na + 1) begin
        for (nx = 0; nx < NS; nx = nx + 1) for (ny = 0; nx + ny < NS; ny = ny + 1) n_terms[nx*NS+ny] = fin[nx*NS+ny] && c_pc_eop[nx+na];
        pc_eop_next[na] = |n_terms;
        for (nx = 0; nx < NS; nx = nx + 1) for (ny = 0; nx + ny < NS; ny = ny + 1) n_terms[nx*NS+ny] = fin[nx*NS+ny] && c_np_eop[ny+na];
        np_eop_next[na] = |n_terms;
        for (nb = 0; nb < SEG_COUNT; nb = nb + 1) begin
            // fit: slot na in segment nb
            for (nx = 0; nx < NS; nx = nx + 1) for (ny = 0; nx + ny < NS; ny = ny + 1) n_terms[nx*NS+ny] = fin[nx*NS+ny] && c_pc_fit[(nx+na)*SEG_COUNT+nb];
            pc_fit_next[na*SEG_COUNT+nb] = |n_terms;
            for (nx = 0; nx < NS; nx = nx + 1) for (ny = 0; nx + ny < NS; ny = ny + 1) n_terms[nx*NS+ny] = fin[nx*NS+ny] && c_np_fit[(ny+na)*SEG_COUNT+nb];
            np_fit_next[na*SEG_COUNT+nb] = |n_terms;
            // np first: slots na and nb
            n_terms = {NS*NS{1'b0}};
            if (na + nb < SEG_COUNT) begin
                for (nx = 0; nx < NS; nx = nx + 1) for (ny = 0; nx + ny < NS; ny = ny + 1) n_terms[nx*NS+ny] = fin[nx*NS+ny] && c_np_first[(nx+na)*PEEK_N + ny+nb];
            end
            np_first_next[na*SEG_COUNT+nb] = |n_terms;
        end
    end
end

always @(posedge clk) begin
    if (xfer) begin
        busy_reg <= cont;
        busy_np_reg <= cont_np;
    end
    hold_reg <= hold_next;
    np_ok_held_reg <= np_ok;
    if (!hold_next) begin
        pc_eop_reg <= pc_eop_next;
        np_eop_reg <= np_eop_next;
        pc_fit_reg <= pc_fit_next;
        np_fit_reg <= np_fit_next;
        np_first_reg <= np_first_next;
        loc_ready_reg <= l_valid_next;
    end
    if (rst) begin
        busy_reg <= 1'b0;
        busy_np_reg <= 1'b0;
        hold_reg <= 1'b0;
        np_ok_held_reg <= 1'b0;
        pc_eop_reg <= {SEG_COUNT{1'b0}};
        np_eop_reg <= {SEG_COUNT{1'b0}};
        pc_fit_reg <= {SEG_COUNT*SEG_COUNT{1'b0}};
        np_fit_reg <= {SEG_COUNT*SEG_COUNT{1'b0}};
        np_first_reg <= {SEG_COUNT*SEG_COUNT{1'b0}};
        loc_ready_reg <= 1'b0;
    end
end

endmodule

`resetall
