`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One probe counter: a running count that adds 'inc' on every clock where
 * 'count_en' is set, and a shadow copy for consistent reads.
 *
 * 'snapshot' copies the running value including this clock's increment into the
 * shadow; 'clear' zeroes the running value after that. Both in one clock give a
 * snapshot-and-clear that loses no event.
 */
module probe_counter #
(
    // counter width in bits
    parameter CNT_WIDTH = 64,
    // increment width in bits
    parameter INC_WIDTH = 16
)
(
    input  wire                 clk,
    input  wire                 rst,

    input  wire                 count_en,
    input  wire [INC_WIDTH-1:0] inc,
    input  wire                 clear,
    input  wire                 snapshot,

    output wire [CNT_WIDTH-1:0] shadow
);

initial begin
    if (INC_WIDTH < 1 || CNT_WIDTH <= INC_WIDTH) begin
        $error("Error: CNT_WIDTH must exceed INC_WIDTH (instance %m)");
        $finish;
    end
end

reg [CNT_WIDTH-1:0] count_reg = {CNT_WIDTH{1'b0}}, count_next;
reg [CNT_WIDTH-1:0] shadow_reg = {CNT_WIDTH{1'b0}}, shadow_next;
reg [CNT_WIDTH-1:0] sum;

assign shadow = shadow_reg;

always @* begin
    sum = count_reg;
    if (count_en) begin
        sum = count_reg + {{(CNT_WIDTH-INC_WIDTH){1'b0}}, inc};
    end

    count_next  = clear ? {CNT_WIDTH{1'b0}} : sum;
    shadow_next = snapshot ? sum : shadow_reg;
end

always @(posedge clk) begin
    count_reg  <= count_next;
    shadow_reg <= shadow_next;

    if (rst) begin
        count_reg  <= {CNT_WIDTH{1'b0}};
        shadow_reg <= {CNT_WIDTH{1'b0}};
    end
end

endmodule

`resetall
