`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One generic TLP stream into two by kind: completions (Type 0101x: Cpl, CplD, CplLk,
 * CplDLk) to the block's completer interface (CC), everything else to its requester
 * interface (RQ). The kind is read from the header at the first beat and held to the last.
 */
module xil_tx_split #
(
    parameter DATA_WIDTH = 256
)
(
    input  wire                       clk,
    input  wire                       rst,

    input  wire [DATA_WIDTH-1:0]      in_tlp_data,
    input  wire [DATA_WIDTH/32-1:0]   in_tlp_strb,
    input  wire [127:0]               in_tlp_hdr,
    input  wire                       in_tlp_valid,
    input  wire                       in_tlp_sop,
    input  wire                       in_tlp_eop,
    output wire                       in_tlp_ready,

    /*
     * requests (to xil_rq_tx)
     */
    output wire [DATA_WIDTH-1:0]      req_tlp_data,
    output wire [DATA_WIDTH/32-1:0]   req_tlp_strb,
    output wire [127:0]               req_tlp_hdr,
    output wire                       req_tlp_valid,
    output wire                       req_tlp_sop,
    output wire                       req_tlp_eop,
    input  wire                       req_tlp_ready,

    /*
     * completions (to xil_cc_tx)
     */
    output wire [DATA_WIDTH-1:0]      cpl_tlp_data,
    output wire [DATA_WIDTH/32-1:0]   cpl_tlp_strb,
    output wire [127:0]               cpl_tlp_hdr,
    output wire                       cpl_tlp_valid,
    output wire                       cpl_tlp_sop,
    output wire                       cpl_tlp_eop,
    input  wire                       cpl_tlp_ready
);

// the kind of the TLP in progress (the header is valid with sop only)
reg cpl_reg = 1'b0;
wire is_cpl = in_tlp_sop ? in_tlp_hdr[124:121] == 4'b0101 : cpl_reg;

assign req_tlp_data  = in_tlp_data;
assign req_tlp_strb  = in_tlp_strb;
assign req_tlp_hdr   = in_tlp_hdr;
assign req_tlp_valid = in_tlp_valid && !is_cpl;
assign req_tlp_sop   = in_tlp_sop;
assign req_tlp_eop   = in_tlp_eop;

assign cpl_tlp_data  = in_tlp_data;
assign cpl_tlp_strb  = in_tlp_strb;
assign cpl_tlp_hdr   = in_tlp_hdr;
assign cpl_tlp_valid = in_tlp_valid && is_cpl;
assign cpl_tlp_sop   = in_tlp_sop;
assign cpl_tlp_eop   = in_tlp_eop;

assign in_tlp_ready = is_cpl ? cpl_tlp_ready : req_tlp_ready;

always @(posedge clk) begin
    if (in_tlp_valid && in_tlp_sop) begin
        cpl_reg <= is_cpl;
    end

    if (rst) begin
        cpl_reg <= 1'b0;
    end
end

endmodule

`resetall
