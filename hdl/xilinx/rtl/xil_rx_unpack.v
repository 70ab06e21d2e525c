`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Receive engine shared by the CQ and RC adapters: turns beats of a descriptor stream (TLPs
 * marked by per-DW start / end flags, two or more of them straddled in one beat, gaps between
 * them) into the generic stream's form, one TLP per beat with its payload from DW0.
 *
 * Each accepted beat's DWs that lie inside a TLP are packed, in order, behind the DWs already
 * held (a buffer of 3 beats' worth). At the head of the buffer a TLP start shows its DESC_DW
 * descriptor DWs on head_desc (and the side bits of its first DW on head_side); the wrapper
 * turns them into a header image and says whether to drop the TLP. The first output beat carries
 * the DW_COUNT DWs after the descriptor, later beats the next DW_COUNT, the last beat up to the
 * TLP's end. A beat leaves when the TLP's end is in the buffer or a whole beat of it is.
 * in_ready depends on the buffer level only; a dropped TLP leaves without out_valid, whatever
 * out_ready. A TLP that ends inside its descriptor (malformed framing) is dropped and reported
 * on short_take.
 */
module xil_rx_unpack #
(
    // data width of both sides: 256 or 512 (the UltraScale+ block's widths at Gen3 x8 / x16),
    // or 1024 (Versal CPM5, PG346)
    parameter DATA_WIDTH = 512,
    // descriptor DWs ahead of the payload: 4 (CQ) or 3 (RC)
    parameter DESC_DW = 4,
    // side bits stored with every DW (the wrapper's per-TLP extras, e.g. byte enables)
    parameter SIDE_W = 8
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * input beats: DW i is in a TLP from a start flag up to and including an end flag
     */
    input  wire [DATA_WIDTH-1:0]      in_data,
    input  wire [DATA_WIDTH/32-1:0]   in_start,
    input  wire [DATA_WIDTH/32-1:0]   in_end,
    input  wire [DATA_WIDTH/32*SIDE_W-1:0] in_side,
    input  wire                       in_valid,
    output wire                       in_ready,

    /*
     * the TLP at the head: its descriptor, the wrapper's verdict
     */
    output reg  [DESC_DW*32-1:0]      head_desc,
    output reg  [SIDE_W-1:0]          head_side,
    input  wire                       head_drop,
    // a TLP start left the head this clock (forwarded, dropped or short)
    output reg                        start_take,
    output reg                        short_take,
    // the input side is inside a TLP (a start was taken, its end not yet)
    output wire                       in_busy,

    /*
     * output beats: payload only, DW0-aligned
     */
    output reg  [DATA_WIDTH-1:0]      out_data,
    output reg  [DATA_WIDTH/32-1:0]   out_strb,
    output reg                        out_valid,
    output reg                        out_sop,
    output reg                        out_eop,
    input  wire                       out_ready
);

localparam BEAT_DW = DATA_WIDTH/32;
localparam BUF_DW = 3*BEAT_DW;
localparam COUNT_WIDTH = $clog2(BUF_DW+1);
// a beat is taken while a whole beat of room is left
localparam integer IN_ROOM = BUF_DW - BEAT_DW;
localparam [COUNT_WIDTH-1:0] IN_LIMIT = IN_ROOM[COUNT_WIDTH-1:0];

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512 && DATA_WIDTH != 1024) begin : g_check_data_width
        xil_rx_unpack_DATA_WIDTH_must_be_256_512_or_1024 unsupported_parameter ();
    end
    if (DESC_DW < 3 || DESC_DW > 4 || SIDE_W < 1) begin : g_check_desc_dw
        xil_rx_unpack_DESC_DW_must_be_3_or_4_and_SIDE_W_from_1 unsupported_parameter ();
    end
endgenerate

reg [BUF_DW*32-1:0]     buf_data_reg = {BUF_DW*32{1'b0}}, buf_data_next;
reg [BUF_DW*SIDE_W-1:0] buf_side_reg = {BUF_DW*SIDE_W{1'b0}}, buf_side_next;
reg [BUF_DW-1:0]        buf_sop_reg = {BUF_DW{1'b0}}, buf_sop_next;
reg [BUF_DW-1:0]        buf_eop_reg = {BUF_DW{1'b0}}, buf_eop_next;
reg [COUNT_WIDTH-1:0]   cnt_reg = {COUNT_WIDTH{1'b0}}, cnt_next;
reg                     drop_reg = 1'b0, drop_next;
reg                     in_tlp_reg = 1'b0, in_tlp_next;

// the input beat, packed
reg [BEAT_DW*32-1:0]     c_data;
reg [BEAT_DW*SIDE_W-1:0] c_side;
reg [BEAT_DW-1:0]        c_sop, c_eop;
integer            n_in;
reg                st;

// head decisions
integer cnt, e_idx, pop, n_out, base, i, k;
reg     e_found, emit, dropping, head_start, last;

assign in_ready = cnt_reg <= IN_LIMIT;
assign in_busy = in_tlp_reg;

always @* begin
    // pack the input beat's in-TLP DWs
    c_data = {BEAT_DW*32{1'b0}};
    c_side = {BEAT_DW*SIDE_W{1'b0}};
    c_sop = {BEAT_DW{1'b0}};
    c_eop = {BEAT_DW{1'b0}};
    n_in = 0;
    st = in_tlp_reg;
    for (i = 0; i < BEAT_DW; i = i + 1) begin
        if (in_start[i]) begin
            st = 1'b1;
        end
        if (st) begin
            c_data[n_in*32 +: 32] = in_data[i*32 +: 32];
            c_side[n_in*SIDE_W +: SIDE_W] = in_side[i*SIDE_W +: SIDE_W];
            c_sop[n_in] = in_start[i];
            c_eop[n_in] = in_end[i];
            n_in = n_in + 1;
        end
        if (in_end[i]) begin
            st = 1'b0;
        end
    end

    // the head: where does its TLP end, can a beat leave?
    cnt = {{(32-COUNT_WIDTH){1'b0}}, cnt_reg};
    head_start = cnt > 0 && buf_sop_reg[0];
    head_desc = buf_data_reg[DESC_DW*32-1:0];
    head_side = buf_side_reg[SIDE_W-1:0];
    e_found = 1'b0;
    e_idx = 0;
    for (i = BUF_DW-1; i >= 0; i = i - 1) begin
        if (i < cnt && buf_eop_reg[i]) begin
            e_found = 1'b1;
            e_idx = i;
        end
    end
    base = head_start ? DESC_DW : 0;
    emit = 1'b0;
    last = 1'b0;
    pop = 0;
    n_out = 0;
    short_take = 1'b0;
    if (head_start && e_found && e_idx < DESC_DW - 1) begin
        // ends inside its descriptor: malformed, drop it
        pop = e_idx + 1;
        short_take = 1'b1;
    end else if (cnt > 0) begin
        if (e_found && e_idx < base + BEAT_DW) begin
            emit = 1'b1;
            last = 1'b1;
            pop = e_idx + 1;
            n_out = e_idx + 1 - base;
        end else if (cnt >= base + BEAT_DW) begin
            emit = 1'b1;
            pop = base + BEAT_DW;
            n_out = BEAT_DW;
        end
    end
    dropping = head_start ? head_drop : drop_reg;

    out_data = {DATA_WIDTH{1'b0}};
    out_strb = {BEAT_DW{1'b0}};
    for (i = 0; i < BEAT_DW; i = i + 1) begin
        if (i < n_out) begin
            out_data[i*32 +: 32] = buf_data_reg[(base+i)*32 +: 32];
            out_strb[i] = 1'b1;
        end
    end
    out_valid = emit && !dropping;
    out_sop = head_start;
    out_eop = last;

    // a beat leaves (or is dropped) unless it waits for out_ready
    if (emit && !dropping && !out_ready) begin
        pop = 0;
    end
    start_take = head_start && pop > 0;
    drop_next = drop_reg;
    if (pop > 0) begin
        drop_next = (emit && !last) ? dropping : 1'b0;
    end

    // shift out what left, then append the accepted beat
    buf_data_next = buf_data_reg >> (pop*32);
    buf_side_next = buf_side_reg >> (pop*SIDE_W);
    buf_sop_next = buf_sop_reg >> pop;
    buf_eop_next = buf_eop_reg >> pop;
    k = cnt - pop;
    in_tlp_next = in_tlp_reg;
    if (in_valid && in_ready) begin
        in_tlp_next = st;
        for (i = 0; i < BEAT_DW; i = i + 1) begin
            if (i < n_in) begin
                buf_data_next[(k+i)*32 +: 32] = c_data[i*32 +: 32];
                buf_side_next[(k+i)*SIDE_W +: SIDE_W] = c_side[i*SIDE_W +: SIDE_W];
                buf_sop_next[k+i] = c_sop[i];
                buf_eop_next[k+i] = c_eop[i];
            end
        end
        k = k + n_in;
    end
    cnt_next = k[COUNT_WIDTH-1:0];
end

always @(posedge clk) begin
    buf_data_reg <= buf_data_next;
    buf_side_reg <= buf_side_next;
    buf_sop_reg <= buf_sop_next;
    buf_eop_reg <= buf_eop_next;
    cnt_reg <= cnt_next;
    drop_reg <= drop_next;
    in_tlp_reg <= in_tlp_next;

    if (rst) begin
        buf_sop_reg <= {BUF_DW{1'b0}};
        buf_eop_reg <= {BUF_DW{1'b0}};
        cnt_reg <= {COUNT_WIDTH{1'b0}};
        drop_reg <= 1'b0;
        in_tlp_reg <= 1'b0;
    end
end

endmodule

`resetall
