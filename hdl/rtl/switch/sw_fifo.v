`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * First-word-fall-through FIFO: the head is readable combinationally (LUT RAM), so a
 * word written on one clock can leave on the next and a full-rate stream sees no bubble.
 * room is a register for a writer a clock behind its decision (the switch's ingress registers
 * a local completion before writing it): high when two more words fit after this clock's
 * write, so the one the writer holds and one more it may decide on now (this clock's pop is
 * seen on the next).
 */
module sw_fifo #
(
    parameter WIDTH = 8,
    // entries, a power of two
    parameter ADDR_WIDTH = 4
)
(
    input  wire             clk,
    input  wire             rst,

    input  wire [WIDTH-1:0] in_data,
    input  wire             in_valid,
    output wire             full,
    output wire             room,

    output wire [WIDTH-1:0] out_data,
    output wire             out_valid,
    input  wire             out_pop,
    // a word is held after this clock's write and pop (out_valid on the next clock)
    output wire             next_valid
);

reg [WIDTH-1:0] mem [0:(1<<ADDR_WIDTH)-1];
reg [ADDR_WIDTH:0] wr_ptr_reg = 0;
reg [ADDR_WIDTH:0] rd_ptr_reg = 0;

assign full = (wr_ptr_reg ^ rd_ptr_reg) == {1'b1, {ADDR_WIDTH{1'b0}}};
assign out_valid = wr_ptr_reg != rd_ptr_reg;
assign out_data = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];

wire [ADDR_WIDTH:0] wr_ptr_next = wr_ptr_reg + {{ADDR_WIDTH{1'b0}}, in_valid && !full};
wire [ADDR_WIDTH:0] rd_ptr_p1 = rd_ptr_reg + 1'b1;
// both outcomes from registers, the pop choosing
assign next_valid = (out_pop && out_valid) ? wr_ptr_next != rd_ptr_p1 : wr_ptr_next != rd_ptr_reg;

// words after this clock's write
wire [ADDR_WIDTH:0] used_next = wr_ptr_reg - rd_ptr_reg + {{ADDR_WIDTH{1'b0}}, in_valid && !full};
localparam [ADDR_WIDTH+1:0] ROOM_MAX = (1 << ADDR_WIDTH) - 2;
reg room_reg = 1'b0;
assign room = room_reg;

always @(posedge clk) begin
    room_reg <= {1'b0, used_next} <= ROOM_MAX;
    if (in_valid && !full) begin
        mem[wr_ptr_reg[ADDR_WIDTH-1:0]] <= in_data;
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (out_pop && out_valid) begin
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
    end
    if (rst) begin
        room_reg <= 1'b0;
        wr_ptr_reg <= 0;
        rd_ptr_reg <= 0;
    end
end

endmodule

`resetall
