`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The behaviour the probe's multi-port RAMs share, as one memory: WR_PORTS write ports,
 * RD_PORTS asynchronous read ports. A read returns the word as it stood before this clock's
 * writes; of two writes to one address in one clock the higher port index wins; every word
 * reads 0 until it is first written.
 *
 * What simulators build for probe_xor_ram (Verilator), probe_mp_ram and probe_xor_bram (these
 * two read it at their registered addresses): the banks those build for synthesis give the same
 * words at a fraction of a cycle-based model's cost (the twin). Not for synthesis: several write
 * ports on one memory is what the banks are there to avoid.
 */
module probe_ram_model #
(
    // address width in bits (depth = 2**ADDR_WIDTH)
    parameter ADDR_WIDTH = 8,
    // word width in bits
    parameter DATA_WIDTH = 1,
    // write ports
    parameter WR_PORTS = 1,
    // asynchronous read ports
    parameter RD_PORTS = 1
)
(
    input  wire                           clk,

    input  wire [WR_PORTS-1:0]            wr_en,
    input  wire [WR_PORTS*ADDR_WIDTH-1:0] wr_addr,
    input  wire [WR_PORTS*DATA_WIDTH-1:0] wr_data,

    input  wire [RD_PORTS*ADDR_WIDTH-1:0] rd_addr,
    output wire [RD_PORTS*DATA_WIDTH-1:0] rd_data
);

localparam DEPTH = 1 << ADDR_WIDTH;

reg [DATA_WIDTH-1:0] mem [0:DEPTH-1];
integer i;

initial begin
    for (i = 0; i < DEPTH; i = i + 1) begin
        mem[i] = {DATA_WIDTH{1'b0}};
    end
end

// the later port's write last
always @(posedge clk) begin
    for (i = 0; i < WR_PORTS; i = i + 1) begin
        if (wr_en[i]) begin
            mem[wr_addr[i*ADDR_WIDTH +: ADDR_WIDTH]] <= wr_data[i*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end

genvar r;
generate
    for (r = 0; r < RD_PORTS; r = r + 1) begin : g_rd
        assign rd_data[r*DATA_WIDTH +: DATA_WIDTH] = mem[rd_addr[r*ADDR_WIDTH +: ADDR_WIDTH]];
    end
endgenerate

endmodule

`resetall
