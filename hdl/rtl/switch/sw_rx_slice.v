`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A register slice at one ingress port of the switch: the beat presented by the link (payload
 * WIDTH bits, one valid bit per segment) enters a register before sw_ingress decodes it, at
 * full rate, and in_ready is a register too. A main register holds the beat offered to the
 * ingress; a skid register takes the one that arrives on the clock the ingress stalls, so the
 * link is stalled one clock later, from a flip-flop.
 *
 * Why: on the board a 512-bit receive bus then loads one flip-flop per bit instead of every
 * segment's decoder, and in_ready no longer depends on the beat's contents; in a Verilated model
 * the ingress, the routing and the queue writes are evaluated once a clock instead of on every
 * input change. Cost: one clock of latency and two beats of flip-flops per port.
 *
 * Stream rules kept: a beat offered and not taken is offered again unchanged; beats leave in
 * the order they came.
 */
module sw_rx_slice #
(
    // payload bits of a beat (everything but the per-segment valid bits)
    parameter WIDTH = 8,
    parameter SEG_COUNT = 1
)
(
    input  wire                 clk,
    input  wire                 rst,

    input  wire [WIDTH-1:0]     in_data,
    input  wire [SEG_COUNT-1:0] in_valid,
    output wire                 in_ready,

    output wire [WIDTH-1:0]     out_data,
    output wire [SEG_COUNT-1:0] out_valid,
    input  wire                 out_ready
);

reg [WIDTH-1:0]     main_reg = {WIDTH{1'b0}};
reg [SEG_COUNT-1:0] main_valid_reg = {SEG_COUNT{1'b0}};
reg [WIDTH-1:0]     skid_reg = {WIDTH{1'b0}};
reg [SEG_COUNT-1:0] skid_valid_reg = {SEG_COUNT{1'b0}};

assign in_ready  = !(|skid_valid_reg);
assign out_data  = main_reg;
assign out_valid = main_valid_reg;

always @(posedge clk) begin
    if (out_ready || !(|main_valid_reg)) begin
        // the main register is free this clock: the skid's beat first, else the link's
        if (|skid_valid_reg) begin
            main_reg       <= skid_reg;
            main_valid_reg <= skid_valid_reg;
            skid_valid_reg <= {SEG_COUNT{1'b0}};
        end else begin
            main_reg       <= in_data;
            main_valid_reg <= in_valid;
        end
    end else if (!(|skid_valid_reg)) begin
        // the ingress stalls and the link did not know yet: keep its beat
        skid_reg       <= in_data;
        skid_valid_reg <= in_valid;
    end

    if (rst) begin
        main_valid_reg <= {SEG_COUNT{1'b0}};
        skid_valid_reg <= {SEG_COUNT{1'b0}};
    end
end

endmodule

`resetall
