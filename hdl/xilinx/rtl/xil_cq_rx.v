`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * UltraScale+ completer request (CQ) interface -> generic TLP stream (requests).
 *
 * Framing: at 512 bits from tuser is_sop / is_sop_ptr / is_eop / is_eop_ptr (two TLPs per beat
 * when STRADDLE is 1, the second's byte enables in the seg1 fields); at 256 bits from tuser sop,
 * tlast and tkeep. The 128-bit CQ descriptor becomes a header image (docs/xilinx.md, "CQ"):
 * memory read / write, locked read, I/O and AtomicOps; the 3-DW or 4-DW form follows from
 * Address[63:32] (a request below 4 GiB must use the 3-DW form, so this is exact). Request
 * types the image cannot be rebuilt from (configuration: the CQ descriptor has no target bus
 * number; messages: a different descriptor layout; reserved) are dropped whole and counted in
 * drop_count, never forwarded. BAR ID, BAR aperture and target function are not carried. A
 * TLP that ends inside its descriptor is dropped and counted too.
 */
module xil_cq_rx #
(
    // 0: framing as PG213 (UltraScale+) describes it; 1: straddle off, framing from tlast and
    // tkeep alone, the form PG343 / PG346 (Versal PL PCIE, CPM5) give for straddle disabled:
    // 256, 512 or 1024 bits, tuser of any width holding the fields used
    parameter TLAST_FRAMING = 0,
    // AXI4-Stream and generic data width: 256 or 512
    parameter DATA_WIDTH = 512,
    // 512 bits only: up to two TLPs per beat
    parameter STRADDLE = 1,
    // tuser width: 183 at 512 bits, 88 at 256 (PG213)
    parameter USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 465 : DATA_WIDTH == 512 ? 229 : 109)
                                         : (DATA_WIDTH == 512 ? 183 : 88),
    // TLAST_FRAMING only: where tuser holds the first TLP's first_be and last_be. PG213's
    // pattern (first_be of each straddle slot from bit 0, then the last_be) carried over; the
    // Versal tuser field tables were not read for this (docs/xilinx.md, "Versal blocks")
    parameter FIRST_BE_LSB = 0,
    parameter LAST_BE_LSB = DATA_WIDTH == 1024 ? 16 : DATA_WIDTH == 512 ? 8 : 4,
    // width of drop_count
    parameter CNT_WIDTH = 32
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * CQ from the integrated block
     */
    input  wire [DATA_WIDTH-1:0]      s_axis_cq_tdata,
    input  wire [DATA_WIDTH/32-1:0]   s_axis_cq_tkeep,
    input  wire                       s_axis_cq_tvalid,
    output wire                       s_axis_cq_tready,
    input  wire                       s_axis_cq_tlast,
    input  wire [USER_WIDTH-1:0]      s_axis_cq_tuser,

    /*
     * generic TLP stream out
     */
    output wire [DATA_WIDTH-1:0]      rx_tlp_data,
    output wire [DATA_WIDTH/32-1:0]   rx_tlp_strb,
    output reg  [127:0]               rx_tlp_hdr,
    output wire                       rx_tlp_valid,
    output wire                       rx_tlp_sop,
    output wire                       rx_tlp_eop,
    input  wire                       rx_tlp_ready,

    // TLPs dropped: unsupported request type or broken framing
    output wire [CNT_WIDTH-1:0]       drop_count
);

localparam BEAT_DW = DATA_WIDTH/32;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLAST_FRAMING != 0 && TLAST_FRAMING != 1) begin : g_check_framing
        xil_cq_rx_TLAST_FRAMING_must_be_0_or_1 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin : g_check_data_width
        xil_cq_rx_DATA_WIDTH_must_be_256_or_512 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 1 && DATA_WIDTH != 256 && DATA_WIDTH != 512 && DATA_WIDTH != 1024) begin : g_check_data_width_tlast
        xil_cq_rx_DATA_WIDTH_must_be_256_512_or_1024_with_TLAST_FRAMING unsupported_parameter ();
    end
    if ((STRADDLE != 0 && STRADDLE != 1) || (STRADDLE == 1 && (DATA_WIDTH != 512 || TLAST_FRAMING == 1))) begin : g_check_straddle
        xil_cq_rx_STRADDLE_must_be_0_or_1_at_512_bits_0_at_256 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && USER_WIDTH != (DATA_WIDTH == 512 ? 183 : 88)) begin : g_check_user_width
        xil_cq_rx_USER_WIDTH_must_be_183_at_512_bits_88_at_256 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 1 && (USER_WIDTH < FIRST_BE_LSB + 4 || USER_WIDTH < LAST_BE_LSB + 4)) begin : g_check_user_width_tlast
        xil_cq_rx_USER_WIDTH_must_hold_first_be_and_last_be unsupported_parameter ();
    end
endgenerate

// framing and byte enables per DW ({last_be, first_be} at each TLP's first DW)
reg [BEAT_DW-1:0]   f_start, f_end;
reg [BEAT_DW*8-1:0] f_side;

wire in_busy;

generate
if (TLAST_FRAMING == 1) begin : g_frame_tlast
    // one TLP per beat at most starts, at DW0 of the first beat after a tlast; it ends at the
    // last kept DW of its tlast beat (tkeep is contiguous from the descriptor on)
    integer i;
    always @* begin
        f_start = {BEAT_DW{1'b0}};
        f_end = {BEAT_DW{1'b0}};
        f_side = {BEAT_DW*8{1'b0}};
        f_start[0] = !in_busy;
        f_side[7:0] = {s_axis_cq_tuser[LAST_BE_LSB +: 4], s_axis_cq_tuser[FIRST_BE_LSB +: 4]};
        for (i = 0; i < BEAT_DW; i = i + 1) begin
            if (s_axis_cq_tlast && s_axis_cq_tkeep[i] && (i == BEAT_DW-1 || !s_axis_cq_tkeep[(i+1) % BEAT_DW])) begin
                f_end[i] = 1'b1;
            end
        end
    end
end else if (DATA_WIDTH == 512) begin : g_frame_512
    // is_sop [81:80], is_sop0/1_ptr [83:82] / [85:84] (128-bit lane), is_eop [87:86],
    // is_eop0/1_ptr [91:88] / [95:92] (last DW); first_be [7:0] and last_be [15:8] per seg
    wire [3:0] sop0_dw = {s_axis_cq_tuser[83:82], 2'b00};
    wire [3:0] sop1_dw = {s_axis_cq_tuser[85:84], 2'b00};
    always @* begin
        f_start = {BEAT_DW{1'b0}};
        f_end = {BEAT_DW{1'b0}};
        f_side = {BEAT_DW*8{1'b0}};
        if (s_axis_cq_tuser[80]) begin
            f_start[sop0_dw] = 1'b1;
            f_side[sop0_dw*8 +: 8] = {s_axis_cq_tuser[11:8], s_axis_cq_tuser[3:0]};
        end
        if (STRADDLE == 1 && s_axis_cq_tuser[81]) begin
            f_start[sop1_dw] = 1'b1;
            f_side[sop1_dw*8 +: 8] = {s_axis_cq_tuser[15:12], s_axis_cq_tuser[7:4]};
        end
        if (s_axis_cq_tuser[86]) begin
            f_end[s_axis_cq_tuser[91:88]] = 1'b1;
        end
        if (STRADDLE == 1 && s_axis_cq_tuser[87]) begin
            f_end[s_axis_cq_tuser[95:92]] = 1'b1;
        end
    end
end else begin : g_frame_256
    // sop [40], first_be [3:0], last_be [7:4]; the last kept DW ends the TLP on tlast
    integer i;
    always @* begin
        f_start = {BEAT_DW{1'b0}};
        f_end = {BEAT_DW{1'b0}};
        f_side = {BEAT_DW*8{1'b0}};
        f_start[0] = s_axis_cq_tuser[40];
        f_side[7:0] = s_axis_cq_tuser[7:0];
        for (i = 0; i < BEAT_DW; i = i + 1) begin
            if (s_axis_cq_tlast && s_axis_cq_tkeep[i] && (i == BEAT_DW-1 || !s_axis_cq_tkeep[(i+1) % BEAT_DW])) begin
                f_end[i] = 1'b1;
            end
        end
    end
end
endgenerate

wire [127:0] desc;
wire [7:0]   side;
wire         start_take, short_take;
reg          drop;

xil_rx_unpack #(
    .DATA_WIDTH(DATA_WIDTH),
    .DESC_DW(4),
    .SIDE_W(8)
) unpack_inst (
    .clk(clk),
    .rst(rst),
    .in_data(s_axis_cq_tdata),
    .in_start(f_start),
    .in_end(f_end),
    .in_side(f_side),
    .in_valid(s_axis_cq_tvalid),
    .in_ready(s_axis_cq_tready),
    .head_desc(desc),
    .head_side(side),
    .head_drop(drop),
    .start_take(start_take),
    .short_take(short_take),
    .in_busy(in_busy),
    .out_data(rx_tlp_data),
    .out_strb(rx_tlp_strb),
    .out_valid(rx_tlp_valid),
    .out_sop(rx_tlp_sop),
    .out_eop(rx_tlp_eop),
    .out_ready(rx_tlp_ready)
);

// descriptor fields (PG213 completer request descriptor)
wire [1:0]  d_at = desc[1:0];
wire [63:0] d_addr = {desc[63:2], 2'b00};
wire [10:0] d_dwords = desc[74:64];
wire [3:0]  d_type = desc[78:75];
wire [15:0] d_req_id = desc[95:80];
wire [7:0]  d_tag = desc[103:96];
wire [2:0]  d_tc = desc[123:121];
wire [2:0]  d_attr = desc[126:124];
wire        d_4dw = d_addr[63:32] != 32'd0;

reg [2:0] fmt;
reg [4:0] typ;
reg       four;

always @* begin
    drop = 1'b0;
    four = d_4dw;
    fmt = 3'b000;
    typ = 5'b00000;
    case (d_type)
        4'b0000: begin fmt = {2'b00, d_4dw}; typ = 5'b00000; end // memory read
        4'b0001: begin fmt = {2'b01, d_4dw}; typ = 5'b00000; end // memory write
        4'b0010: begin fmt = 3'b000; typ = 5'b00010; four = 1'b0; end // I/O read
        4'b0011: begin fmt = 3'b010; typ = 5'b00010; four = 1'b0; end // I/O write
        4'b0100: begin fmt = {2'b01, d_4dw}; typ = 5'b01100; end // FetchAdd
        4'b0101: begin fmt = {2'b01, d_4dw}; typ = 5'b01101; end // Swap
        4'b0110: begin fmt = {2'b01, d_4dw}; typ = 5'b01110; end // CAS
        4'b0111: begin fmt = {2'b00, d_4dw}; typ = 5'b00001; end // locked read
        default: drop = 1'b1; // configuration, messages, reserved
    endcase
    // DW0: Fmt, Type, T9, TC, T8, Attr[2], LN, TH, TD, EP, Attr[1:0], AT, Length
    rx_tlp_hdr[127:96] = {fmt, typ, 1'b0, d_tc, 1'b0, d_attr[2], 4'b0000, d_attr[1:0], d_at, d_dwords[9:0]};
    // DW1: Requester ID, Tag, Last DW BE, First DW BE
    rx_tlp_hdr[95:64] = {d_req_id, d_tag, side[7:4], side[3:0]};
    if (four) begin
        rx_tlp_hdr[63:0] = d_addr;
    end else begin
        rx_tlp_hdr[63:0] = {d_addr[31:0], 32'd0};
    end
end

reg [CNT_WIDTH-1:0] drop_count_reg = {CNT_WIDTH{1'b0}};
assign drop_count = drop_count_reg;

always @(posedge clk) begin
    if ((start_take && drop) || short_take) begin
        drop_count_reg <= drop_count_reg + 1'b1;
    end
    if (rst) begin
        drop_count_reg <= {CNT_WIDTH{1'b0}};
    end
end

// target function, BAR ID and aperture, reserved bits; tuser parity, TPH, discontinue
wire unused_cq = &{1'b0, d_dwords[10], s_axis_cq_tlast, desc[127], desc[120:104], desc[79], in_busy, s_axis_cq_tuser, s_axis_cq_tkeep, 1'b0};

endmodule

`resetall
