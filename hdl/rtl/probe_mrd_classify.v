`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Memory-read classifier: combinational decode of one 128-bit TLP header image
 * (DW0 in [127:96]; header fields as in docs/pcie.md).
 *
 * - mem_read: MRd and MRdLk, 3DW or 4DW (Fmt 00x, Type 0000x). A locked read is a
 *   memory read on the wire, so it is counted; 'locked' tells it apart (the BAR
 *   responder answers it with UR, as a native PCIe endpoint must).
 * - len_dw: Length with 0 meaning 1024 DW.
 * - req_bytes: requested bytes from Length and the byte enables (docs/pcie.md):
 *   Length*4 - lead(FirstBE) - trail(LastBE, or FirstBE when Length is 1); a
 *   zero-length read (Length 1, FirstBE 0000) requests 0 bytes. An all-zero enable
 *   in a malformed request (Length > 1) removes no bytes.
 * - size_class: one-hot by requested bytes over the spec's size classes (spec/registers.json
 *   `sizeClasses`): bit k < PS_SIZE_EXACT_COUNT for exactly PS_SIZE_EXACT_BYTES[k], the top bit
 *   for every other size.
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
    output wire [`PS_SIZE_CLASS_COUNT-1:0] size_class
);

localparam EXACT_COUNT = `PS_SIZE_EXACT_COUNT;
localparam [EXACT_COUNT*13-1:0] EXACT_BYTES = `PS_SIZE_EXACT_BYTES;

wire [2:0] fmt      = hdr[127:125];
wire [4:0] tlp_type = hdr[124:120];
wire [9:0] len_raw  = hdr[105:96];
wire [3:0] last_be  = hdr[71:68];
wire [3:0] first_be = hdr[67:64];

// everything else in the header does not affect the count
wire unused_hdr = &{1'b0, hdr[119:106], hdr[95:72], hdr[33:32], hdr[1:0], 1'b0};

reg [1:0]  lead_int;
wire [12:0] bytes_int;
wire [EXACT_COUNT-1:0] exact_hit;

// the byte count without a subtract behind the enables' decode: Length*4 - s, s = lead + trail
// (0..6), is {Length - q, (-s) mod 4} with q = ceil(s / 4) in 0..2, so Length - 1 and Length - 2
// are formed from the header alone (in parallel with the decode) and the enables only pick one.
// Length 0 (1024 DW) wraps to 1023 and 1022 in 10 bits; a one-DW request has s <= 3.
wire       one_dw = len_raw == 10'd1;
wire [9:0] len_m1 = len_raw - 10'd1;
wire [9:0] len_m2 = len_raw - 10'd2;

// {q, (-s) mod 4} for the enables of the first and the last DW
function [3:0] be_code(input [3:0] fbe, input [3:0] ebe);
    reg [1:0] ld, tr;
    // (the skipped bytes' own name: Verilator 5.006 reports a function's local named like a
    // variable of a module instantiating this one as hiding it)
    reg [2:0] skipped;
    begin
        // bytes skipped before the first enabled byte of the first DW (an all-zero enable: none)
        casez (fbe)
            4'b???1: ld = 2'd0;
            4'b??10: ld = 2'd1;
            4'b?100: ld = 2'd2;
            4'b1000: ld = 2'd3;
            default: ld = 2'd0;
        endcase
        // bytes skipped after the last enabled byte of the last DW
        casez (ebe)
            4'b1???: tr = 2'd0;
            4'b01??: tr = 2'd1;
            4'b001?: tr = 2'd2;
            4'b0001: tr = 2'd3;
            default: tr = 2'd0;
        endcase
        // skipped (s) as a table of the two 2-bit ends, not an add (no carry cell ahead of the
        // select)
        case ({ld, tr})
            4'b0000:                            skipped = 3'd0;
            4'b0001, 4'b0100:                   skipped = 3'd1;
            4'b0010, 4'b0101, 4'b1000:          skipped = 3'd2;
            4'b0011, 4'b0110, 4'b1001, 4'b1100: skipped = 3'd3;
            4'b0111, 4'b1010, 4'b1101:          skipped = 3'd4;
            4'b1011, 4'b1110:                   skipped = 3'd5;
            default:                            skipped = 3'd6;
        endcase
        be_code[3:2] = (skipped == 3'd0) ? 2'd0 : ((skipped <= 3'd4) ? 2'd1 : 2'd2);
        be_code[1:0] = ~skipped[1:0] + 2'd1;
    end
endfunction

// a one-DW request has both ends in FirstBE; q = 3 stands for a zero-length read (0 bytes)
wire [3:0] code_one   = (first_be == 4'b0000) ? 4'b1100 : be_code(first_be, first_be);
wire [3:0] code_multi = be_code(first_be, last_be);
wire [3:0] code       = one_dw ? code_one : code_multi;

assign mem_read   = (fmt[2:1] == 2'b00) && (tlp_type[4:1] == 4'b0000);
assign locked     = tlp_type[0];
assign hdr_4dw    = fmt[0];
assign len_dw     = {len_raw == 10'd0, len_raw};
assign zero_len   = one_dw && (first_be == 4'b0000);
assign lead       = lead_int;
assign req_bytes  = bytes_int;
assign size_class = {~|exact_hit, exact_hit};
// a 4DW header carries Address[31:2] in DW3, a 3DW header in DW2
assign addr_dw    = fmt[0] ? hdr[31:2] : hdr[63:34];

assign bytes_int = (code[3:2] == 2'd0) ? {len_dw, 2'b00} :
                   (code[3:2] == 2'd1) ? {1'b0, len_m1, code[1:0]} :
                   (code[3:2] == 2'd2) ? {1'b0, len_m2, code[1:0]} : 13'd0;

always @* begin
    // bytes skipped before the first enabled byte of the first DW
    casez (first_be)
        4'b???1: lead_int = 2'd0;
        4'b??10: lead_int = 2'd1;
        4'b?100: lead_int = 2'd2;
        4'b1000: lead_int = 2'd3;
        default: lead_int = 2'd0;
    endcase
end

// one comparator per exact size class; at most one hits since the sizes are distinct
genvar k;
generate
    for (k = 0; k < EXACT_COUNT; k = k + 1) begin : g_class
        assign exact_hit[k] = (bytes_int == EXACT_BYTES[k*13 +: 13]);
    end
endgenerate

endmodule

`resetall
