`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One clock of delay on what a probe taps of a TLP stream: the segments' headers, valid and sop
 * bits and the stream's ready. The switch's egress makes its output beat combinationally from its
 * queues; through this register the probe's paths start at flip-flops and not at the end of the
 * packer's (the switch top decodes its UR bits from this register's outputs too). The probe sees
 * every event one clock later; with each stream of a top delayed alike, its latencies are
 * unchanged.
 */
module tap_pipe #
(
    parameter SEG_COUNT = 1
)
(
    input  wire                   clk,
    input  wire                   rst,

    input  wire [SEG_COUNT*128-1:0] in_hdr,
    input  wire [SEG_COUNT-1:0]     in_valid,
    input  wire [SEG_COUNT-1:0]     in_sop,
    input  wire                     in_ready,

    output reg  [SEG_COUNT*128-1:0] out_hdr = {SEG_COUNT*128{1'b0}},
    output reg  [SEG_COUNT-1:0]     out_valid = {SEG_COUNT{1'b0}},
    output reg  [SEG_COUNT-1:0]     out_sop = {SEG_COUNT{1'b0}},
    output reg                      out_ready = 1'b0
);

// a segment's header is taken only with its valid bit: an idle stream's registers stay still
// (nothing the probe reads changes; a Verilated model does less)
integer s;
always @(posedge clk) begin
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        if (in_valid[s]) out_hdr[s*128 +: 128] <= in_hdr[s*128 +: 128];
    end
    out_valid <= in_valid;
    out_sop   <= in_sop;
    out_ready <= in_ready;
    if (rst) begin
        out_valid <= {SEG_COUNT{1'b0}};
        out_ready <= 1'b0;
    end
end

endmodule

`resetall
