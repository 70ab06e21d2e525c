`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Two generic TLP streams into one, a whole TLP at a time: the integrated block delivers a
 * port's requests (CQ) and completions (RC) on separate interfaces, the switch takes one
 * stream per port. The source is a register, so ready never depends on valid (no
 * combinational path back into the adapters): it moves to the other source after a TLP
 * ends or while the current one is idle between TLPs, only if the other has a beat
 * waiting. A beat once offered stays offered (the source holds while it is valid), and no
 * TLP is reordered within either source; the block has already split the link's one order
 * into two interfaces.
 */
module xil_rx_merge #
(
    parameter DATA_WIDTH = 256
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * source a (requests, from xil_cq_rx) and source b (completions, from xil_rc_rx)
     */
    input  wire [DATA_WIDTH-1:0]      a_tlp_data,
    input  wire [DATA_WIDTH/32-1:0]   a_tlp_strb,
    input  wire [127:0]               a_tlp_hdr,
    input  wire                       a_tlp_valid,
    input  wire                       a_tlp_sop,
    input  wire                       a_tlp_eop,
    output wire                       a_tlp_ready,

    input  wire [DATA_WIDTH-1:0]      b_tlp_data,
    input  wire [DATA_WIDTH/32-1:0]   b_tlp_strb,
    input  wire [127:0]               b_tlp_hdr,
    input  wire                       b_tlp_valid,
    input  wire                       b_tlp_sop,
    input  wire                       b_tlp_eop,
    output wire                       b_tlp_ready,

    /*
     * merged stream
     */
    output wire [DATA_WIDTH-1:0]      out_tlp_data,
    output wire [DATA_WIDTH/32-1:0]   out_tlp_strb,
    output wire [127:0]               out_tlp_hdr,
    output wire                       out_tlp_valid,
    output wire                       out_tlp_sop,
    output wire                       out_tlp_eop,
    input  wire                       out_tlp_ready
);

// sel_reg: the source now connected (0: a, 1: b); mid_reg: inside a TLP of that source
reg sel_reg = 1'b0, sel_next;
reg mid_reg = 1'b0, mid_next;

wire cur_valid = sel_reg ? b_tlp_valid : a_tlp_valid;
wire other_valid = sel_reg ? a_tlp_valid : b_tlp_valid;

assign out_tlp_data  = sel_reg ? b_tlp_data : a_tlp_data;
assign out_tlp_strb  = sel_reg ? b_tlp_strb : a_tlp_strb;
assign out_tlp_hdr   = sel_reg ? b_tlp_hdr  : a_tlp_hdr;
assign out_tlp_valid = cur_valid;
assign out_tlp_sop   = sel_reg ? b_tlp_sop  : a_tlp_sop;
assign out_tlp_eop   = sel_reg ? b_tlp_eop  : a_tlp_eop;

assign a_tlp_ready = out_tlp_ready && !sel_reg;
assign b_tlp_ready = out_tlp_ready && sel_reg;

always @* begin
    sel_next = sel_reg;
    mid_next = mid_reg;
    if (cur_valid && out_tlp_ready) begin
        mid_next = !out_tlp_eop;
        // round robin: the other source's turn after each TLP
        if (out_tlp_eop && other_valid) begin
            sel_next = !sel_reg;
        end
    end else if (!cur_valid && !mid_reg && other_valid) begin
        sel_next = !sel_reg;
    end
end

always @(posedge clk) begin
    sel_reg <= sel_next;
    mid_reg <= mid_next;

    if (rst) begin
        sel_reg <= 1'b0;
        mid_reg <= 1'b0;
    end
end

endmodule

`resetall
