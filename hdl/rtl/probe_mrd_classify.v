`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Memory-read classifier: combinational decode of one 128-bit TLP header image
 * (DW0 in [127:96], see pcie-tlp.md section 2).
 *
 * - mem_read: MRd and MRdLk, 3DW or 4DW (Fmt 00x, Type 0000x). A locked read is a
 *   memory read on the wire, so it is counted; 'locked' tells it apart (the BAR
 *   responder answers it with UR, as a native PCIe endpoint must).
 * - len_dw: Length with 0 meaning 1024 DW.
 * - req_bytes: requested bytes from Length and the byte enables (pcie-tlp.md section 3):
 *   Length*4 - lead(FirstBE) - trail(LastBE, or FirstBE when Length is 1); a
 *   zero-length read (Length 1, FirstBE 0000) requests 0 bytes. An all-zero enable
 *   in a malformed request (Length > 1) removes no bytes.
 * - size_class: one-hot {other, 128, 96, 64, 32} by requested bytes.
 */
module probe_mrd_classify
(
    input  wire [127:0] hdr,

    output wire         mem_read,
    output wire         locked,
    output wire         hdr_4dw,
    output wire [10:0]  len_dw,
    output wire [1:0]   lead,
    output wire [12:0]  req_bytes,
    output wire         zero_len,
    output wire [29:0]  addr_dw,
    output wire [4:0]   size_class
);

localparam [4:0] CLASS_32    = 5'b00001;
localparam [4:0] CLASS_64    = 5'b00010;
localparam [4:0] CLASS_96    = 5'b00100;
localparam [4:0] CLASS_128   = 5'b01000;
localparam [4:0] CLASS_OTHER = 5'b10000;

wire [2:0] fmt      = hdr[127:125];
wire [4:0] tlp_type = hdr[124:120];
wire [9:0] len_raw  = hdr[105:96];
wire [3:0] last_be  = hdr[71:68];
wire [3:0] first_be = hdr[67:64];

// everything else in the header does not affect the count
wire unused_hdr = &{1'b0, hdr[119:106], hdr[95:72], hdr[33:32], hdr[1:0], 1'b0};

reg [1:0]  lead_int;
reg [1:0]  trail_int;
reg [3:0]  end_be;
reg [12:0] bytes_int;
reg [4:0]  class_int;

assign mem_read   = (fmt[2:1] == 2'b00) && (tlp_type[4:1] == 4'b0000);
assign locked     = tlp_type[0];
assign hdr_4dw    = fmt[0];
assign len_dw     = {len_raw == 10'd0, len_raw};
assign zero_len   = (len_dw == 11'd1) && (first_be == 4'b0000);
assign lead       = lead_int;
assign req_bytes  = bytes_int;
assign size_class = class_int;
// a 4DW header carries Address[31:2] in DW3, a 3DW header in DW2
assign addr_dw    = fmt[0] ? hdr[31:2] : hdr[63:34];

always @* begin
    // bytes skipped before the first enabled byte of the first DW
    casez (first_be)
        4'b???1: lead_int = 2'd0;
        4'b??10: lead_int = 2'd1;
        4'b?100: lead_int = 2'd2;
        4'b1000: lead_int = 2'd3;
        default: lead_int = 2'd0;
    endcase

    // a one-DW request has both ends in FirstBE
    end_be = (len_dw == 11'd1) ? first_be : last_be;

    // bytes skipped after the last enabled byte of the last DW
    casez (end_be)
        4'b1???: trail_int = 2'd0;
        4'b01??: trail_int = 2'd1;
        4'b001?: trail_int = 2'd2;
        4'b0001: trail_int = 2'd3;
        default: trail_int = 2'd0;
    endcase

    if (zero_len) begin
        bytes_int = 13'd0;
    end else begin
        bytes_int = {len_dw, 2'b00} - {11'd0, lead_int} - {11'd0, trail_int};
    end

    case (bytes_int)
        13'd32:  class_int = CLASS_32;
        13'd64:  class_int = CLASS_64;
        13'd96:  class_int = CLASS_96;
        13'd128: class_int = CLASS_128;
        default: class_int = CLASS_OTHER;
    endcase
end

endmodule

`resetall
