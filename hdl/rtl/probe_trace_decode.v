`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Trace decode: what the trace unit needs to know of one TLP header image (DW0 in [127:96], as
 * probe_mrd_classify reads it), combinationally: its kind, and which of the header conditions of
 * the trigger hold. The trace unit registers the outputs (its first stage).
 *
 * Kinds (one-hot, spec TRC_TRIG_TYPES / TRC_FILT_TYPES bit order): MRD (MRd, MRdLk), MWR, CPLD
 * (CplD, CplDLk), CPL (Cpl, CplLk), OTHER. The Requester ID and tag are a completion's (DW2) for
 * completions and DW1's for every other TLP; the tag is 10 bits, T9 and T8 from DW0.
 */
module probe_trace_decode
(
    input  wire [127:0] hdr,

    // trigger header values (TRC_TRIG_*); the window compared while active (limit >= base)
    input  wire         trig_active,
    input  wire [63:0]  trig_base,
    input  wire [63:0]  trig_limit,
    input  wire [15:0]  trig_rid,
    input  wire [9:0]   trig_tag,
    input  wire [10:0]  trig_len,
    input  wire [2:0]   trig_status,
    // record filter window (TRC_FILT_*): active = enabled and limit >= base
    input  wire         filt_active,
    input  wire [63:0]  filt_base,
    input  wire [63:0]  filt_limit,

    output wire [4:0]   kind,
    output wire         is_mrd,
    output wire         is_cpl,
    output wire         hit_addr,
    output wire         hit_rid,
    output wire         hit_tag,
    output wire         hit_len,
    output wire         hit_status,
    // not a memory request outside the filter window (a completion's fate is its tag's, decided
    // by the trace unit)
    output wire         in_filt
);

localparam K_MRD = `PS_REG_TRC_TRIG_TYPES_MRD_BIT;
localparam K_MWR = `PS_REG_TRC_TRIG_TYPES_MWR_BIT;
localparam K_CPLD = `PS_REG_TRC_TRIG_TYPES_CPLD_BIT;
localparam K_CPL = `PS_REG_TRC_TRIG_TYPES_CPL_BIT;
localparam K_OTHER = `PS_REG_TRC_TRIG_TYPES_OTHER_BIT;

wire [2:0] fmt      = hdr[127:125];
wire [4:0] tlp_type = hdr[124:120];
wire       mrd      = (fmt[2:1] == 2'b00) && (tlp_type[4:1] == 4'b0000);
wire       mwr      = (fmt[2:1] == 2'b01) && (tlp_type == 5'b00000);
wire       cpl_any  = (fmt[2] == 1'b0) && (fmt[0] == 1'b0) && (tlp_type[4:1] == 4'b0101);
wire       cpld     = cpl_any && fmt[1];
wire       cpl      = cpl_any && !fmt[1];

reg [4:0] kind_int;
always @* begin
    kind_int = 5'd0;
    kind_int[K_MRD] = mrd;
    kind_int[K_MWR] = mwr;
    kind_int[K_CPLD] = cpld;
    kind_int[K_CPL] = cpl;
    kind_int[K_OTHER] = !(mrd || mwr || cpl_any);
end

wire [15:0] rid    = cpl_any ? hdr[63:48] : hdr[95:80];
wire [9:0]  tag10  = {hdr[119], hdr[115], cpl_any ? hdr[47:40] : hdr[79:72]};
wire unused_hdr = &{1'b0, hdr[118:116], hdr[114:106], hdr[76:64], hdr[1:0], 1'b0};
wire [10:0] len_dw = {hdr[105:96] == 10'd0, hdr[105:96]};

// the Address field as a byte address (dword aligned), 32-bit for a 3-DW header; the windows'
// active flags are registered settings, so each window is two compares on the header
wire        hdr_4dw = hdr[125];
wire [63:0] addr = hdr_4dw ? {hdr[63:32], hdr[31:2], 2'b00} : {32'd0, hdr[63:34], 2'b00};
wire trig_in_window = !trig_active || (addr >= trig_base && addr <= trig_limit);
wire filt_in_window = !filt_active || (addr >= filt_base && addr <= filt_limit);

assign kind       = kind_int;
assign is_mrd     = mrd;
assign is_cpl     = cpl_any;
assign hit_addr   = (mrd || mwr) && trig_in_window;
assign hit_rid    = rid == trig_rid;
assign hit_tag    = tag10 == trig_tag;
assign hit_len    = len_dw == trig_len;
assign hit_status = cpl_any && (hdr[79:77] == trig_status);
assign in_filt    = !(mrd || mwr) || filt_in_window;

endmodule

`resetall
