`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Transmit engine shared by the RQ and CC adapters: puts a DESC_DW-DW descriptor in front of
 * each TLP of the generic stream (one TLP per beat, payload from DW0, every beat but the last
 * full) and shifts the payload behind it, Dword-aligned: the first output beat carries the
 * descriptor and the first DW_COUNT - DESC_DW payload DWs, the last DESC_DW DWs of each input
 * beat move to the next output beat, and a TLP whose tail does not fit gets one more beat
 * (the input waits for that clock). The output is registered; it never straddles (one TLP per
 * beat). The wrapper gives the descriptor and side bits for the TLP at the input's sop and may
 * drop it (nothing of it leaves). out_eptr is the index of the last valid DW of the beat (its low 4 bits: the 512-bit tuser
 * pointer; at 1024 bits framing is tlast / tkeep only).
 */
module xil_tx_pack #
(
    // data width of both sides: 256 or 512 (the UltraScale+ block's widths at Gen3 x8 / x16),
    // or 1024 (Versal CPM5, PG346)
    parameter DATA_WIDTH = 512,
    // descriptor DWs: 4 (RQ) or 3 (CC)
    parameter DESC_DW = 4,
    // side bits of a TLP shown with its first beat (the wrapper's tuser fields)
    parameter SIDE_W = 8
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * generic stream in
     */
    input  wire [DATA_WIDTH-1:0]      in_data,
    input  wire [DATA_WIDTH/32-1:0]   in_strb,
    input  wire                       in_valid,
    input  wire                       in_sop,
    input  wire                       in_eop,
    output wire                       in_ready,
    // for the TLP starting at the input (with in_sop)
    input  wire [DESC_DW*32-1:0]      in_desc,
    input  wire [SIDE_W-1:0]          in_side,
    input  wire                       in_drop,

    /*
     * descriptor stream out
     */
    output wire [DATA_WIDTH-1:0]      out_data,
    output wire [DATA_WIDTH/32-1:0]   out_keep,
    output wire                       out_valid,
    output wire                       out_sop,
    output wire                       out_last,
    output wire [3:0]                 out_eptr,
    output wire [SIDE_W-1:0]          out_side,
    input  wire                       out_ready
);

localparam BEAT_DW = DATA_WIDTH/32;
localparam COUNT_WIDTH = $clog2(BEAT_DW+1);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512 && DATA_WIDTH != 1024) begin : g_check_data_width
        xil_tx_pack_DATA_WIDTH_must_be_256_512_or_1024 unsupported_parameter ();
    end
    if (DESC_DW < 3 || DESC_DW > 4 || SIDE_W < 1) begin : g_check_desc_dw
        xil_tx_pack_DESC_DW_must_be_3_or_4_and_SIDE_W_from_1 unsupported_parameter ();
    end
endgenerate

reg [DATA_WIDTH-1:0] o_data_reg = {DATA_WIDTH{1'b0}}, o_data_next;
reg [BEAT_DW-1:0]    o_keep_reg = {BEAT_DW{1'b0}}, o_keep_next;
reg                  o_valid_reg = 1'b0, o_valid_next;
reg                  o_sop_reg = 1'b0, o_sop_next;
reg                  o_last_reg = 1'b0, o_last_next;
reg [3:0]            o_eptr_reg = 4'd0, o_eptr_next;
reg [SIDE_W-1:0]     o_side_reg = {SIDE_W{1'b0}}, o_side_next;

reg [DESC_DW*32-1:0]  carry_reg = {DESC_DW*32{1'b0}}, carry_next;
reg [COUNT_WIDTH-1:0] carry_n_reg = {COUNT_WIDTH{1'b0}}, carry_n_next;
reg                   flush_reg = 1'b0, flush_next;
reg                   drop_reg = 1'b0, drop_next;

integer n, total, i;
reg     can_load;

assign in_ready = (!o_valid_reg || out_ready) && !flush_reg;
assign out_data = o_data_reg;
assign out_keep = o_keep_reg;
assign out_valid = o_valid_reg;
assign out_sop = o_sop_reg;
assign out_last = o_last_reg;
assign out_eptr = o_eptr_reg;
assign out_side = o_side_reg;

always @* begin
    o_data_next = o_data_reg;
    o_keep_next = o_keep_reg;
    o_valid_next = o_valid_reg && !out_ready;
    o_sop_next = o_sop_reg;
    o_last_next = o_last_reg;
    o_eptr_next = o_eptr_reg;
    o_side_next = o_side_reg;
    carry_next = carry_reg;
    carry_n_next = carry_n_reg;
    flush_next = flush_reg;
    drop_next = drop_reg;
    can_load = !o_valid_reg || out_ready;

    n = 0;
    for (i = 0; i < BEAT_DW; i = i + 1) begin
        if (in_strb[i]) begin
            n = n + 1;
        end
    end
    total = 0;

    if (flush_reg && can_load) begin
        // the tail of a TLP that did not fit its last input beat
        o_data_next = {DATA_WIDTH{1'b0}};
        o_data_next[DESC_DW*32-1:0] = carry_reg;
        total = {{(32-COUNT_WIDTH){1'b0}}, carry_n_reg};
        o_valid_next = 1'b1;
        o_sop_next = 1'b0;
        o_last_next = 1'b1;
        flush_next = 1'b0;
    end else if (in_valid && in_ready) begin
        if (in_sop ? in_drop : drop_reg) begin
            drop_next = !in_eop;
        end else begin
            // descriptor (first beat) or the previous beat's last DESC_DW DWs, then this beat
            o_data_next = {in_data[DATA_WIDTH-DESC_DW*32-1:0], in_sop ? in_desc : carry_reg};
            total = DESC_DW + n;
            carry_next = in_data[DATA_WIDTH-1 -: DESC_DW*32];
            o_valid_next = 1'b1;
            o_sop_next = in_sop;
            if (in_sop) begin
                o_side_next = in_side;
            end
            if (total > BEAT_DW) begin
                carry_n_next = total[COUNT_WIDTH-1:0] - BEAT_DW[COUNT_WIDTH-1:0];
                total = BEAT_DW;
                flush_next = in_eop;
                o_last_next = 1'b0;
            end else begin
                carry_n_next = {COUNT_WIDTH{1'b0}};
                o_last_next = in_eop;
            end
        end
    end
    if (total > 0) begin
        for (i = 0; i < BEAT_DW; i = i + 1) begin
            o_keep_next[i] = i < total;
        end
        o_eptr_next = total[3:0] - 4'd1;
    end
end

always @(posedge clk) begin
    o_data_reg <= o_data_next;
    o_keep_reg <= o_keep_next;
    o_valid_reg <= o_valid_next;
    o_sop_reg <= o_sop_next;
    o_last_reg <= o_last_next;
    o_eptr_reg <= o_eptr_next;
    o_side_reg <= o_side_next;
    carry_reg <= carry_next;
    carry_n_reg <= carry_n_next;
    flush_reg <= flush_next;
    drop_reg <= drop_next;

    if (rst) begin
        o_valid_reg <= 1'b0;
        flush_reg <= 1'b0;
        drop_reg <= 1'b0;
        carry_n_reg <= {COUNT_WIDTH{1'b0}};
    end
end

endmodule

`resetall
