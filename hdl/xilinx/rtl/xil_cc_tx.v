`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Generic TLP stream (completions) -> UltraScale+ completer completion (CC) interface.
 *
 * Each completion's header image becomes a 96-bit CC descriptor (docs/xilinx.md, "CC"),
 * Dword-aligned, no straddling on the way out: Lower Address, Byte Count (0 = 4096), Locked Read
 * Completion for CplLk / CplDLk, Dword Count (0 for a completion without data), status, EP,
 * Requester ID, Tag, and the header's Completer ID with Completer ID Enable set when
 * CPL_ID_ENABLE is 1 (a switch relays the GPU's completions under the GPU's ID). Anything but a
 * completion is dropped whole and counted in drop_count. At 512 bits tuser carries is_sop /
 * is_eop / pointer; discontinue and parity are 0.
 */
module xil_cc_tx #
(
    // 0: framing as PG213 (UltraScale+) describes it; 1: straddle off, framing from tlast and
    // tkeep alone, the form PG343 / PG346 (Versal PL PCIE, CPM5) give for straddle disabled:
    // 256, 512 or 1024 bits, tuser of any width holding the fields used
    parameter TLAST_FRAMING = 0,
    // AXI4-Stream and generic data width: 256 or 512
    parameter DATA_WIDTH = 512,
    // tuser width: 81 at 512 bits, 33 at 256 (PG213)
    parameter USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 165 : DATA_WIDTH == 512 ? 81 : 33)
                                         : (DATA_WIDTH == 512 ? 81 : 33),
    // descriptor bit 88: send the header's Completer ID instead of the block's
    parameter CPL_ID_ENABLE = 1,
    // width of drop_count
    parameter CNT_WIDTH = 32
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * generic TLP stream in
     */
    input  wire [DATA_WIDTH-1:0]      tx_tlp_data,
    input  wire [DATA_WIDTH/32-1:0]   tx_tlp_strb,
    input  wire [127:0]               tx_tlp_hdr,
    input  wire                       tx_tlp_valid,
    input  wire                       tx_tlp_sop,
    input  wire                       tx_tlp_eop,
    output wire                       tx_tlp_ready,

    /*
     * CC to the integrated block
     */
    output wire [DATA_WIDTH-1:0]      m_axis_cc_tdata,
    output wire [DATA_WIDTH/32-1:0]   m_axis_cc_tkeep,
    output wire                       m_axis_cc_tvalid,
    input  wire                       m_axis_cc_tready,
    output wire                       m_axis_cc_tlast,
    output wire [USER_WIDTH-1:0]      m_axis_cc_tuser,

    // TLPs dropped: not a completion
    output wire [CNT_WIDTH-1:0]       drop_count
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLAST_FRAMING != 0 && TLAST_FRAMING != 1) begin : g_check_framing
        xil_cc_tx_TLAST_FRAMING_must_be_0_or_1 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin : g_check_data_width
        xil_cc_tx_DATA_WIDTH_must_be_256_or_512 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 1 && DATA_WIDTH != 256 && DATA_WIDTH != 512 && DATA_WIDTH != 1024) begin : g_check_data_width_tlast
        xil_cc_tx_DATA_WIDTH_must_be_256_512_or_1024_with_TLAST_FRAMING unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && USER_WIDTH != (DATA_WIDTH == 512 ? 81 : 33)) begin : g_check_user_width
        xil_cc_tx_USER_WIDTH_must_be_81_at_512_bits_33_at_256 unsupported_parameter ();
    end
    if (CPL_ID_ENABLE != 0 && CPL_ID_ENABLE != 1) begin : g_check_cpl_id_enable
        xil_cc_tx_CPL_ID_ENABLE_must_be_0_or_1 unsupported_parameter ();
    end
endgenerate

// header image fields (docs/pcie.md, "Header image")
wire [31:0] h_dw0 = tx_tlp_hdr[127:96];
wire [31:0] h_dw1 = tx_tlp_hdr[95:64];
wire [31:0] h_dw2 = tx_tlp_hdr[63:32];
wire [2:0]  h_fmt = h_dw0[31:29];
wire [4:0]  h_type = h_dw0[28:24];
wire [9:0]  h_len = h_dw0[9:0];
wire [11:0] h_bc = h_dw1[11:0];

// Cpl / CplLk without data (Fmt 000), CplD / CplDLk with data (Fmt 010)
wire drop = h_type[4:1] != 4'b0101 || h_fmt[2] || h_fmt[0];

wire [95:0] desc = {1'b0,                                  // 95 Force ECRC
                    h_dw0[18], h_dw0[13:12],               // 94:92 Attributes
                    h_dw0[22:20],                          // 91:89 TC
                    CPL_ID_ENABLE == 1,                    // 88 Completer ID Enable
                    h_dw1[31:16],                          // 87:72 Completer ID
                    h_dw2[15:8],                           // 71:64 Tag
                    h_dw2[31:16],                          // 63:48 Requester ID
                    1'b0,                                  // 47
                    h_dw0[14],                             // 46 Poisoned Completion
                    h_dw1[15:13],                          // 45:43 Completion Status
                    h_fmt[1] ? {h_len == 10'd0, h_len} : 11'd0, // 42:32 Dword Count
                    2'b00,                                 // 31:30
                    h_type[0],                             // 29 Locked Read Completion
                    h_bc == 12'd0, h_bc,                   // 28:16 Byte Count (0 = 4096)
                    6'd0,                                  // 15:10
                    2'b00,                                 // 9:8 Address Type
                    1'b0,                                  // 7
                    h_dw2[6:0]};                           // 6:0 Lower Address

wire [DATA_WIDTH/32-1:0] keep;
wire       sop, last;
wire [3:0] eptr;
wire [0:0] side;

xil_tx_pack #(
    .DATA_WIDTH(DATA_WIDTH),
    .DESC_DW(3),
    .SIDE_W(1)
) pack_inst (
    .clk(clk),
    .rst(rst),
    .in_data(tx_tlp_data),
    .in_strb(tx_tlp_strb),
    .in_valid(tx_tlp_valid),
    .in_sop(tx_tlp_sop),
    .in_eop(tx_tlp_eop),
    .in_ready(tx_tlp_ready),
    .in_desc(desc),
    .in_side(1'b0),
    .in_drop(drop),
    .out_data(m_axis_cc_tdata),
    .out_keep(keep),
    .out_valid(m_axis_cc_tvalid),
    .out_sop(sop),
    .out_last(last),
    .out_eptr(eptr),
    .out_side(side),
    .out_ready(m_axis_cc_tready)
);

assign m_axis_cc_tkeep = keep;
assign m_axis_cc_tlast = last;

generate
if (TLAST_FRAMING == 1) begin : g_user_tlast
    // discontinue and parity 0; framing is tlast / tkeep
    assign m_axis_cc_tuser = {USER_WIDTH{1'b0}};
    wire unused_framing = &{1'b0, sop, eptr, 1'b0};
end else if (DATA_WIDTH == 512) begin : g_user_512
    // is_sop [0], is_sop0_ptr [3:2] (0), is_eop [6], is_eop0_ptr [11:8] (on the last beat)
    assign m_axis_cc_tuser = {{(USER_WIDTH-12){1'b0}}, last ? eptr : 4'd0, 1'b0, last, 5'b00000, sop};
end else begin : g_user_256
    // discontinue [0] and parity: 0; framing is tlast / tkeep
    assign m_axis_cc_tuser = {USER_WIDTH{1'b0}};
    wire unused_framing = &{1'b0, sop, eptr, 1'b0};
end
endgenerate

reg [CNT_WIDTH-1:0] drop_count_reg = {CNT_WIDTH{1'b0}};
assign drop_count = drop_count_reg;

always @(posedge clk) begin
    if (tx_tlp_valid && tx_tlp_ready && tx_tlp_sop && drop) begin
        drop_count_reg <= drop_count_reg + 1'b1;
    end
    if (rst) begin
        drop_count_reg <= {CNT_WIDTH{1'b0}};
    end
end

wire unused_cc = &{1'b0, side, h_dw0[23], h_dw0[19], h_dw0[17:15], h_dw0[11:10], h_dw1[12],
                   h_dw2[7], tx_tlp_hdr[31:0], 1'b0};

endmodule

`resetall
