`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One block-RAM copy of a bank in the banked RAMs (probe_mp_ram, probe_xor_bram): a simple
 * dual-port memory with one write and one registered read-first read, and whether the read's
 * address is the one this edge writes (compared from rd_addr_next, a clock early, so that the
 * reader's forwarding is a multiplexer of registers: no address compare behind the RAM).
 *
 * rd_data: the word at the rd_addr_next of the clock before, as it stood before that edge's
 * write; same_addr: wr_addr at that edge equalled that rd_addr_next (the caller qualifies it with
 * its own registered write enable). Every word reads 0 until it is first written.
 */
module probe_bram_copy #
(
    // address width in bits (depth = 2**ADDR_WIDTH)
    parameter ADDR_WIDTH = 8,
    // word width in bits
    parameter DATA_WIDTH = 16
)
(
    input  wire                  clk,

    input  wire                  wr_en,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [DATA_WIDTH-1:0] wr_data,

    input  wire [ADDR_WIDTH-1:0] rd_addr_next,
    output reg  [DATA_WIDTH-1:0] rd_data = {DATA_WIDTH{1'b0}},
    output reg                   same_addr = 1'b0
);

localparam DEPTH = 1 << ADDR_WIDTH;

(* ram_style = "block" *)
reg [DATA_WIDTH-1:0] mem [0:DEPTH-1];
integer i;

initial begin
    for (i = 0; i < DEPTH; i = i + 1) begin
        mem[i] = {DATA_WIDTH{1'b0}};
    end
end

always @(posedge clk) begin
    if (wr_en) begin
        mem[wr_addr] <= wr_data;
    end
end

always @(posedge clk) begin
    rd_data <= mem[rd_addr_next];
    same_addr <= wr_addr == rd_addr_next;
end

endmodule

`resetall
