`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * UltraScale+ requester completion (RC) interface -> generic TLP stream (completions).
 *
 * Framing: at 512 bits from tuser is_sop[3:0] / is_sop_ptr (128-bit lanes) / is_eop[3:0] /
 * is_eop_ptr, up to four completions per beat when STRADDLE is 1; at 256 bits from is_sof_0/1
 * and is_eof_0/1, two per beat when STRADDLE is 1 (the first start is at DW4 when a completion
 * is still ending in the beat's lower half, the second always at DW4). The 96-bit RC
 * descriptor becomes a completion header image (docs/xilinx.md, "RC"): Cpl or CplD from the
 * Dword Count, CplLk / CplDLk from Locked Read Completion, Lower Address bits 6:0. Descriptors
 * whose Error Code says the block, not the wire, made or judged the completion (byte count,
 * mismatch, address, tag, FLR, timeout) are dropped whole and counted; codes 0 (normal), 1
 * (poisoned: EP is set) and 2 (UR / CA / CRS status: in the header) are real completions and pass.
 */
module xil_rc_rx #
(
    // 0: framing as PG213 (UltraScale+) describes it; 1: straddle off, framing from tlast and
    // tkeep alone, the form PG343 / PG346 (Versal PL PCIE, CPM5) give for straddle disabled:
    // 256, 512 or 1024 bits, tuser of any width holding the fields used
    parameter TLAST_FRAMING = 0,
    // AXI4-Stream and generic data width: 256 or 512
    parameter DATA_WIDTH = 512,
    // several completions per beat: up to 4 at 512 bits, 2 at 256
    parameter STRADDLE = 1,
    // tuser width: 161 at 512 bits, 75 at 256 (PG213)
    parameter USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 337 : DATA_WIDTH == 512 ? 161 : 75)
                                         : (DATA_WIDTH == 512 ? 161 : 75),
    // width of drop_count
    parameter CNT_WIDTH = 32
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * RC from the integrated block
     */
    input  wire [DATA_WIDTH-1:0]      s_axis_rc_tdata,
    input  wire [DATA_WIDTH/32-1:0]   s_axis_rc_tkeep,
    input  wire                       s_axis_rc_tvalid,
    output wire                       s_axis_rc_tready,
    input  wire                       s_axis_rc_tlast,
    input  wire [USER_WIDTH-1:0]      s_axis_rc_tuser,

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

    // completions dropped: Error Code other than 0, 1, 2, or broken framing
    output wire [CNT_WIDTH-1:0]       drop_count
);

localparam BEAT_DW = DATA_WIDTH/32;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLAST_FRAMING != 0 && TLAST_FRAMING != 1) begin : g_check_framing
        xil_rc_rx_TLAST_FRAMING_must_be_0_or_1 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin : g_check_data_width
        xil_rc_rx_DATA_WIDTH_must_be_256_or_512 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 1 && DATA_WIDTH != 256 && DATA_WIDTH != 512 && DATA_WIDTH != 1024) begin : g_check_data_width_tlast
        xil_rc_rx_DATA_WIDTH_must_be_256_512_or_1024_with_TLAST_FRAMING unsupported_parameter ();
    end
    if ((STRADDLE != 0 && STRADDLE != 1) || (STRADDLE == 1 && TLAST_FRAMING == 1)) begin : g_check_straddle
        xil_rc_rx_STRADDLE_must_be_0_or_1 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && USER_WIDTH != (DATA_WIDTH == 512 ? 161 : 75)) begin : g_check_user_width
        xil_rc_rx_USER_WIDTH_must_be_161_at_512_bits_75_at_256 unsupported_parameter ();
    end
endgenerate

reg  [BEAT_DW-1:0] f_start, f_end;
wire               in_busy;

generate
if (TLAST_FRAMING == 1) begin : g_frame_tlast
    // as xil_cq_rx: a TLP starts at DW0 after a tlast and ends at the tlast beat's last kept DW;
    // tuser is not read
    integer i;
    always @* begin
        f_start = {BEAT_DW{1'b0}};
        f_end = {BEAT_DW{1'b0}};
        f_start[0] = !in_busy;
        for (i = 0; i < BEAT_DW; i = i + 1) begin
            if (s_axis_rc_tlast && s_axis_rc_tkeep[i] && (i == BEAT_DW-1 || !s_axis_rc_tkeep[(i+1) % BEAT_DW])) begin
                f_end[i] = 1'b1;
            end
        end
    end
end else if (DATA_WIDTH == 512) begin : g_frame_512
    // is_sop [67:64], is_sopN_ptr [69+2N:68+2N] (128-bit lane), is_eop [79:76],
    // is_eopN_ptr [83+4N:80+4N] (last DW)
    integer n;
    always @* begin
        f_start = {BEAT_DW{1'b0}};
        f_end = {BEAT_DW{1'b0}};
        for (n = 0; n < 4; n = n + 1) begin
            if ((STRADDLE == 1 || n == 0) && s_axis_rc_tuser[64+n]) begin
                f_start[{s_axis_rc_tuser[68+2*n +: 2], 2'b00}] = 1'b1;
            end
            if ((STRADDLE == 1 || n == 0) && s_axis_rc_tuser[76+n]) begin
                f_end[s_axis_rc_tuser[80+4*n +: 4]] = 1'b1;
            end
        end
    end
end else begin : g_frame_256
    // is_sof_0 [32], is_sof_1 [33], is_eof_0 [37:34], is_eof_1 [41:38] ({last DW, present})
    always @* begin
        f_start = {BEAT_DW{1'b0}};
        f_end = {BEAT_DW{1'b0}};
        if (s_axis_rc_tuser[32]) begin
            f_start[in_busy ? 4 : 0] = 1'b1;
        end
        if (STRADDLE == 1 && s_axis_rc_tuser[33]) begin
            f_start[4] = 1'b1;
        end
        if (s_axis_rc_tuser[34]) begin
            f_end[s_axis_rc_tuser[37:35]] = 1'b1;
        end
        if (STRADDLE == 1 && s_axis_rc_tuser[38]) begin
            f_end[s_axis_rc_tuser[41:39]] = 1'b1;
        end
    end
end
endgenerate

wire [95:0] desc;
wire [0:0]  side;
wire        start_take, short_take;
reg         drop;

xil_rx_unpack #(
    .DATA_WIDTH(DATA_WIDTH),
    .DESC_DW(3),
    .SIDE_W(1)
) unpack_inst (
    .clk(clk),
    .rst(rst),
    .in_data(s_axis_rc_tdata),
    .in_start(f_start),
    .in_end(f_end),
    .in_side({BEAT_DW{1'b0}}),
    .in_valid(s_axis_rc_tvalid),
    .in_ready(s_axis_rc_tready),
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

// descriptor fields (PG213 requester completion descriptor)
wire [11:0] d_lower_addr = desc[11:0];
wire [3:0]  d_error = desc[15:12];
wire [12:0] d_byte_count = desc[28:16];
wire        d_locked = desc[29];
wire [10:0] d_dwords = desc[42:32];
wire [2:0]  d_status = desc[45:43];
wire        d_poisoned = desc[46];
wire [15:0] d_req_id = desc[63:48];
wire [7:0]  d_tag = desc[71:64];
wire [15:0] d_cpl_id = desc[87:72];
wire [2:0]  d_tc = desc[91:89];
wire [2:0]  d_attr = desc[94:92];

always @* begin
    drop = d_error > 4'd2;
    // DW0: Fmt (with data when Dword Count is not 0), Type Cpl / CplLk, TC, Attr, EP, Length
    rx_tlp_hdr[127:96] = {1'b0, d_dwords != 11'd0, 1'b0, 4'b0101, d_locked, 1'b0, d_tc, 1'b0,
                          d_attr[2], 3'b000, d_poisoned, d_attr[1:0], 2'b00, d_dwords[9:0]};
    // DW1: Completer ID, Status, BCM, Byte Count (4096 -> 0)
    rx_tlp_hdr[95:64] = {d_cpl_id, d_status, 1'b0, d_byte_count[11:0]};
    // DW2: Requester ID, Tag, Lower Address
    rx_tlp_hdr[63:32] = {d_req_id, d_tag, 1'b0, d_lower_addr[6:0]};
    rx_tlp_hdr[31:0] = 32'd0;
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

// Lower Address 11:7, Request Completed, reserved bits; byte enables, discontinue, parity
wire unused_rc = &{1'b0, d_lower_addr[11:7], d_byte_count[12], d_dwords[10], desc[31:30], desc[47],
                   desc[95], desc[88], side, in_busy, s_axis_rc_tuser, s_axis_rc_tkeep, s_axis_rc_tlast, 1'b0};

endmodule

`resetall
