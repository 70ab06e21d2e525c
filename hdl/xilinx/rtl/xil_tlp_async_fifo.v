`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A generic TLP stream across clock domains: the two integrated blocks each have their own
 * user clock (their reference clocks come from different sources), the switch runs on one.
 * Beats go whole ({eop, sop, hdr, strb, data}) through the vendor's asynchronous FIFO
 * macro (xpm_fifo_async, AMD UG974) in first-word-fall-through mode, which also brings its
 * own clock-domain-crossing constraints. rst is synchronous to in_clk, as the macro wants.
 */
module xil_tlp_async_fifo #
(
    parameter DATA_WIDTH = 256,
    // beats, a power of two, 16 or more
    parameter DEPTH = 64
)
(
    input  wire                       in_clk,
    input  wire                       rst,

    input  wire [DATA_WIDTH-1:0]      in_tlp_data,
    input  wire [DATA_WIDTH/32-1:0]   in_tlp_strb,
    input  wire [127:0]               in_tlp_hdr,
    input  wire                       in_tlp_valid,
    input  wire                       in_tlp_sop,
    input  wire                       in_tlp_eop,
    output wire                       in_tlp_ready,

    input  wire                       out_clk,

    output wire [DATA_WIDTH-1:0]      out_tlp_data,
    output wire [DATA_WIDTH/32-1:0]   out_tlp_strb,
    output wire [127:0]               out_tlp_hdr,
    output wire                       out_tlp_valid,
    output wire                       out_tlp_sop,
    output wire                       out_tlp_eop,
    input  wire                       out_tlp_ready
);

localparam ENTRY_WIDTH = 2 + 128 + DATA_WIDTH/32 + DATA_WIDTH;

wire [ENTRY_WIDTH-1:0] dout;
wire full, empty, wr_rst_busy, rd_rst_busy;

assign in_tlp_ready = !full && !wr_rst_busy;
assign out_tlp_valid = !empty && !rd_rst_busy;
assign {out_tlp_eop, out_tlp_sop, out_tlp_hdr, out_tlp_strb, out_tlp_data} = dout;

xpm_fifo_async #(
    .FIFO_MEMORY_TYPE("auto"),
    .FIFO_WRITE_DEPTH(DEPTH),
    .WRITE_DATA_WIDTH(ENTRY_WIDTH),
    .READ_DATA_WIDTH(ENTRY_WIDTH),
    .READ_MODE("fwft"),
    .FIFO_READ_LATENCY(0),
    .CDC_SYNC_STAGES(2),
    .USE_ADV_FEATURES("0000")
)
fifo_inst (
    .wr_clk(in_clk),
    .rst(rst),
    .din({in_tlp_eop, in_tlp_sop, in_tlp_hdr, in_tlp_strb, in_tlp_data}),
    .wr_en(in_tlp_valid && in_tlp_ready),
    .full(full),
    .wr_rst_busy(wr_rst_busy),
    .rd_clk(out_clk),
    .rd_en(out_tlp_valid && out_tlp_ready),
    .dout(dout),
    .empty(empty),
    .rd_rst_busy(rd_rst_busy),
    .sleep(1'b0),
    .injectsbiterr(1'b0),
    .injectdbiterr(1'b0)
);

endmodule

`resetall
