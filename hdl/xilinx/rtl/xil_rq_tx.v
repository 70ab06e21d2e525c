`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Generic TLP stream (requests) -> UltraScale+ requester request (RQ) interface.
 *
 * Each request's header image becomes a 128-bit RQ descriptor (docs/xilinx.md, "RQ"), Dword-
 * aligned, no straddling on the way out: memory read / write, locked read, I/O, AtomicOps and
 * configuration type 0 / 1 (register number in Address[11:2], the target's bus / device /
 * function as Completer ID). Requester ID Enable is REQ_ID_ENABLE, so the block sends the
 * Requester ID and Tag of the header (a switch relays the GPU's IDs; the block must run with
 * client tags). Messages, completions and prefixes are dropped whole and counted in drop_count.
 * tuser carries the first / last DW byte enables and, at 512 bits, is_sop / is_eop / pointer.
 */
module xil_rq_tx #
(
    // 0: framing as PG213 (UltraScale+) describes it; 1: straddle off, framing from tlast and
    // tkeep alone, the form PG343 / PG346 (Versal PL PCIE, CPM5) give for straddle disabled:
    // 256, 512 or 1024 bits, tuser of any width holding the fields used
    parameter TLAST_FRAMING = 0,
    // AXI4-Stream and generic data width: 256 or 512
    parameter DATA_WIDTH = 512,
    // tuser width: 137 at 512 bits, 62 at 256 (PG213)
    parameter USER_WIDTH = TLAST_FRAMING == 1 ? (DATA_WIDTH == 1024 ? 373 : DATA_WIDTH == 512 ? 183 : 62)
                                         : (DATA_WIDTH == 512 ? 137 : 62),
    // TLAST_FRAMING only: where tuser takes first_be and last_be (as xil_cq_rx: PG213's pattern)
    parameter FIRST_BE_LSB = 0,
    parameter LAST_BE_LSB = DATA_WIDTH == 1024 ? 16 : DATA_WIDTH == 512 ? 8 : 4,
    // descriptor bit 120: send the header's Requester ID instead of the block's
    parameter REQ_ID_ENABLE = 1,
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
     * RQ to the integrated block
     */
    output wire [DATA_WIDTH-1:0]      m_axis_rq_tdata,
    output wire [DATA_WIDTH/32-1:0]   m_axis_rq_tkeep,
    output wire                       m_axis_rq_tvalid,
    input  wire                       m_axis_rq_tready,
    output wire                       m_axis_rq_tlast,
    output reg  [USER_WIDTH-1:0]      m_axis_rq_tuser,

    // TLPs dropped: not a request the RQ interface carries
    output wire [CNT_WIDTH-1:0]       drop_count
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLAST_FRAMING != 0 && TLAST_FRAMING != 1) begin : g_check_framing
        xil_rq_tx_TLAST_FRAMING_must_be_0_or_1 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin : g_check_data_width
        xil_rq_tx_DATA_WIDTH_must_be_256_or_512 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 1 && DATA_WIDTH != 256 && DATA_WIDTH != 512 && DATA_WIDTH != 1024) begin : g_check_data_width_tlast
        xil_rq_tx_DATA_WIDTH_must_be_256_512_or_1024_with_TLAST_FRAMING unsupported_parameter ();
    end
    if (TLAST_FRAMING == 0 && USER_WIDTH != (DATA_WIDTH == 512 ? 137 : 62)) begin : g_check_user_width
        xil_rq_tx_USER_WIDTH_must_be_137_at_512_bits_62_at_256 unsupported_parameter ();
    end
    if (TLAST_FRAMING == 1 && (USER_WIDTH < FIRST_BE_LSB + 4 || USER_WIDTH < LAST_BE_LSB + 4)) begin : g_check_user_width_tlast
        xil_rq_tx_USER_WIDTH_must_hold_first_be_and_last_be unsupported_parameter ();
    end
    if (REQ_ID_ENABLE != 0 && REQ_ID_ENABLE != 1) begin : g_check_req_id_enable
        xil_rq_tx_REQ_ID_ENABLE_must_be_0_or_1 unsupported_parameter ();
    end
endgenerate

// header image fields (docs/pcie.md, "Header image")
wire [31:0] h_dw0 = tx_tlp_hdr[127:96];
wire [31:0] h_dw1 = tx_tlp_hdr[95:64];
wire [31:0] h_dw2 = tx_tlp_hdr[63:32];
wire [31:0] h_dw3 = tx_tlp_hdr[31:0];
wire [2:0]  h_fmt = h_dw0[31:29];
wire [4:0]  h_type = h_dw0[28:24];
wire [9:0]  h_len = h_dw0[9:0];

reg [3:0]   req_type;
reg [63:0]  addr;
reg         cfg;
reg         drop;
reg [127:0] desc;

always @* begin
    drop = h_fmt[2];
    cfg = 1'b0;
    req_type = 4'b1111;
    case (h_type)
        5'b00000: req_type = h_fmt[1] ? 4'b0001 : 4'b0000; // memory write / read
        5'b00001: begin req_type = 4'b0111; drop = drop || h_fmt[1]; end // locked read
        5'b00010: req_type = h_fmt[1] ? 4'b0011 : 4'b0010; // I/O write / read
        5'b00100: begin req_type = h_fmt[1] ? 4'b1010 : 4'b1000; cfg = 1'b1; end // cfg type 0
        5'b00101: begin req_type = h_fmt[1] ? 4'b1011 : 4'b1001; cfg = 1'b1; end // cfg type 1
        5'b01100: begin req_type = 4'b0100; drop = drop || !h_fmt[1]; end // FetchAdd
        5'b01101: begin req_type = 4'b0101; drop = drop || !h_fmt[1]; end // Swap
        5'b01110: begin req_type = 4'b0110; drop = drop || !h_fmt[1]; end // CAS
        default: drop = 1'b1; // messages, completions, reserved
    endcase
    if (cfg) begin
        addr = {52'd0, h_dw2[11:2], 2'b00};
    end else if (h_fmt[0]) begin
        addr = {h_dw2, h_dw3[31:2], 2'b00};
    end else begin
        addr = {32'd0, h_dw2[31:2], 2'b00};
    end
    desc = {1'b0,                              // 127 Force ECRC
            h_dw0[18], h_dw0[13:12],           // 126:124 Attributes {IDO, RO, NS}
            h_dw0[22:20],                      // 123:121 TC
            REQ_ID_ENABLE == 1,                // 120 Requester ID Enable
            cfg ? h_dw2[31:16] : 16'd0,        // 119:104 Completer ID
            h_dw1[15:8],                       // 103:96 Tag
            h_dw1[31:16],                      // 95:80 Requester ID
            h_dw0[14],                         // 79 Poisoned Request
            req_type,                          // 78:75 Request Type
            h_len == 10'd0, h_len,             // 74:64 Dword Count (0 = 1024)
            addr[63:2],                        // 63:2 Address
            h_dw0[11:10]};                     // 1:0 Address Type
end

wire [DATA_WIDTH/32-1:0] keep;
wire       sop, last;
wire [3:0] eptr;
wire [7:0] be;

xil_tx_pack #(
    .DATA_WIDTH(DATA_WIDTH),
    .DESC_DW(4),
    .SIDE_W(8)
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
    .in_side(h_dw1[7:0]),
    .in_drop(drop),
    .out_data(m_axis_rq_tdata),
    .out_keep(keep),
    .out_valid(m_axis_rq_tvalid),
    .out_sop(sop),
    .out_last(last),
    .out_eptr(eptr),
    .out_side(be),
    .out_ready(m_axis_rq_tready)
);

assign m_axis_rq_tkeep = keep;
assign m_axis_rq_tlast = last;

generate
if (TLAST_FRAMING == 1) begin : g_user_tlast
    // first_be, last_be on the first beat; everything else 0; framing is tlast / tkeep
    always @* begin
        m_axis_rq_tuser = {USER_WIDTH{1'b0}};
        if (sop) begin
            m_axis_rq_tuser[FIRST_BE_LSB +: 4] = be[3:0];
            m_axis_rq_tuser[LAST_BE_LSB +: 4] = be[7:4];
        end
    end
    wire unused_eptr = &{1'b0, eptr, 1'b0};
end else if (DATA_WIDTH == 512) begin : g_user_512
    // first_be [3:0], last_be [11:8], is_sop [20], is_sop0_ptr [23:22] (0), is_eop [26],
    // is_eop0_ptr [31:28]; addr_offset, discontinue, TPH, seq_num and parity 0
    always @* begin
        m_axis_rq_tuser = {USER_WIDTH{1'b0}};
        if (sop) begin
            m_axis_rq_tuser[3:0] = be[3:0];
            m_axis_rq_tuser[11:8] = be[7:4];
        end
        m_axis_rq_tuser[20] = sop;
        m_axis_rq_tuser[26] = last;
        m_axis_rq_tuser[31:28] = last ? eptr : 4'd0;
    end
end else begin : g_user_256
    // first_be [3:0], last_be [7:4]; framing is tlast / tkeep
    always @* begin
        m_axis_rq_tuser = {USER_WIDTH{1'b0}};
        if (sop) begin
            m_axis_rq_tuser[7:0] = be;
        end
    end
    wire unused_eptr = &{1'b0, eptr, 1'b0};
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

wire unused_rq = &{1'b0, addr[1:0], h_dw0[23], h_dw0[19], h_dw0[17:15], h_dw2[15:12], h_dw2[1:0], h_dw3[1:0], 1'b0};

endmodule

`resetall
