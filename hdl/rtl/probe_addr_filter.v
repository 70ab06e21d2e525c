`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Address filter: is a request header's address inside the window [base, limit]?
 *
 * The address is the header's Address field as a byte address (dword aligned: the
 * first-byte enables are not added), 32-bit for a 3-DW header, 64-bit for a 4-DW one.
 * With 'en' clear, or a limit below the base, every request is inside: the filter
 * can only narrow what the probe counts, never hide everything by a bad setting.
 * Purely combinational; both probe_counters and probe_tracker use it per segment.
 */
module probe_addr_filter
(
    input  wire [127:0] hdr,
    input  wire         en,
    input  wire [63:0]  base,
    input  wire [63:0]  limit,
    output wire         in_window
);

// Fmt bit 0: 4-DW header, address in DW2 (high) and DW3 (low); else DW2 only
wire        hdr_4dw = hdr[125];
wire [63:0] addr = hdr_4dw ? {hdr[63:32], hdr[31:2], 2'b00} : {32'd0, hdr[63:34], 2'b00};
wire        active = en && (limit >= base);

assign in_window = !active || (addr >= base && addr <= limit);

wire unused_hdr = &{1'b0, hdr[127:126], hdr[124:64], hdr[1:0], 1'b0};

endmodule

`resetall
