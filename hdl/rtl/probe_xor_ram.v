`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Multi-port RAM without a live-value table: WR_PORTS write ports, RD_PORTS asynchronous
 * read ports, each write port its own bank, the word the XOR of every bank's entry.
 *
 * A read returns the word as it stood before this clock's writes; of two writes to one
 * address in one clock the higher port index wins (the lower one is dropped); every word reads
 * 0 until it is first written. (The same rules as probe_mp_ram and probe_xor_bram, the block-RAM
 * RAMs, which need their read addresses a clock early; this one reads asynchronously, for the
 * filtered-out bits, read at the taps' own tags, and the live-value tables.)
 *
 * A write to address a stores data XOR the other banks' entries at a, so the XOR of all
 * banks is then the data. Each bank therefore has RD_PORTS + WR_PORTS - 1 read ports and one
 * write port: LUT RAM on an FPGA, where a read port costs one LUT per 64 words and bit. A
 * per-address flip-flop vector written by several ports costs a decoder per port and a
 * multiplexer per bit instead (bench/RESULTS.md: for 1 024 one-bit entries and five writers,
 * about 13 600 LUTs as flip-flops against about 1 100 LUT sites here).
 *
 * Three forms of the same RAM, chosen by the tool that reads this file:
 * - synthesis (SYNTHESIS): the XOR banks, each a memory with its own write port;
 * - Verilator (VERILATOR, unless PROBE_RAM_BANKS): one memory written port after port
 *   (probe_ram_model), which is the behaviour above at a fraction of the XOR logic's cost in
 *   a cycle-based model (the twin);
 * - event-driven simulators (Icarus): the XOR banks one after another in one vector, read in
 *   one block, so a clock's writes wake the RAM's readers once, not once per read port.
 * tb_probe_xor_ram checks the XOR forms (banked, as synthesised, and as one vector) against the
 * behaviour on random traffic; every probe bench runs the XOR form under Icarus, and the golden
 * sweep under Verilator with PROBE_RAM_BANKS.
 */
module probe_xor_ram #
(
    // address width in bits (depth = 2**ADDR_WIDTH)
    parameter ADDR_WIDTH = 8,
    // word width in bits
    parameter DATA_WIDTH = 1,
    // write ports
    parameter WR_PORTS = 2,
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

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16 || DATA_WIDTH < 1 || WR_PORTS < 2 || RD_PORTS < 1) begin : g_check_params
        probe_xor_ram_needs_ADDR_WIDTH_1_to_16_DATA_WIDTH_from_1_WR_PORTS_from_2_RD_PORTS_from_1 unsupported_parameter ();
    end
endgenerate

`ifdef SYNTHESIS
`define PROBE_XOR_RAM_XOR
`define PROBE_XOR_RAM_BANKED
`elsif PROBE_RAM_BANKS
`define PROBE_XOR_RAM_XOR
`define PROBE_XOR_RAM_BANKED
`elsif VERILATOR
`else
`define PROBE_XOR_RAM_XOR
`endif

`ifndef PROBE_XOR_RAM_XOR
// the behaviour: one memory
probe_ram_model #(
    .ADDR_WIDTH(ADDR_WIDTH),
    .DATA_WIDTH(DATA_WIDTH),
    .WR_PORTS(WR_PORTS),
    .RD_PORTS(RD_PORTS)
)
model_inst (
    .clk(clk),
    .wr_en(wr_en),
    .wr_addr(wr_addr),
    .wr_data(wr_data),
    .rd_addr(rd_addr),
    .rd_data(rd_data)
);
`else
localparam DEPTH = 1 << ADDR_WIDTH;

// read ports of each bank: the outside's, then the other write ports' addresses
localparam PORTS = RD_PORTS + WR_PORTS - 1;
// the read port of bank b that port p's address drives: p < RD_PORTS the outside's, then
// write port w (w != b) at RD_PORTS + (w < b ? w : w - 1)
function integer wr_port_index(input integer b, input integer w);
    wr_port_index = RD_PORTS + (w < b ? w : w - 1);
endfunction

// its inverse: the write port whose address read port p >= RD_PORTS of bank b carries
function integer port_writer(input integer b, input integer p);
    port_writer = (p - RD_PORTS) < b ? (p - RD_PORTS) : (p - RD_PORTS + 1);
endfunction

// every bank's read at every port: bank b, port p at [(b*PORTS + p)*DATA_WIDTH]
wire [WR_PORTS*PORTS*DATA_WIDTH-1:0] bank_rd;

reg  [WR_PORTS-1:0]            bank_wr_en;
reg  [WR_PORTS*DATA_WIDTH-1:0] bank_wr_data;
reg  [RD_PORTS*DATA_WIDTH-1:0] word;
integer b, w, r;

// write side: a higher port writing the same address wins; the data XOR the other banks
always @* begin
    for (w = 0; w < WR_PORTS; w = w + 1) begin
        bank_wr_en[w] = wr_en[w];
        for (b = w + 1; b < WR_PORTS; b = b + 1) begin
            if (wr_en[b] && wr_addr[b*ADDR_WIDTH +: ADDR_WIDTH] == wr_addr[w*ADDR_WIDTH +: ADDR_WIDTH]) begin
                bank_wr_en[w] = 1'b0;
            end
        end
        bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] = wr_data[w*DATA_WIDTH +: DATA_WIDTH];
        for (b = 0; b < WR_PORTS; b = b + 1) begin
            if (b != w) begin
                bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] = bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] ^
                    bank_rd[(b*PORTS + wr_port_index(b, w))*DATA_WIDTH +: DATA_WIDTH];
            end
        end
    end
end

// read side (its own block: the write side depends on what a reader makes of the word)
always @* begin
    for (r = 0; r < RD_PORTS; r = r + 1) begin
        word[r*DATA_WIDTH +: DATA_WIDTH] = {DATA_WIDTH{1'b0}};
        for (b = 0; b < WR_PORTS; b = b + 1) begin
            word[r*DATA_WIDTH +: DATA_WIDTH] = word[r*DATA_WIDTH +: DATA_WIDTH] ^ bank_rd[(b*PORTS + r)*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end

assign rd_data = word;

`ifdef PROBE_XOR_RAM_BANKED
/*
 * Synthesis (and Verilator with PROBE_RAM_BANKS): each bank its own memory, one write port
 * and a read port per address (UltraScale+ LUT RAM: one LUT per 64 words, bit and read port)
 */
wire [WR_PORTS*PORTS*ADDR_WIDTH-1:0] bank_rd_addr;
genvar g, p;
generate
    for (g = 0; g < WR_PORTS; g = g + 1) begin : g_bank
        for (p = 0; p < PORTS; p = p + 1) begin : g_addr
            if (p < RD_PORTS) begin : g_out
                assign bank_rd_addr[(g*PORTS + p)*ADDR_WIDTH +: ADDR_WIDTH] = rd_addr[p*ADDR_WIDTH +: ADDR_WIDTH];
            end else begin : g_wr
                assign bank_rd_addr[(g*PORTS + p)*ADDR_WIDTH +: ADDR_WIDTH] = wr_addr[port_writer(g, p)*ADDR_WIDTH +: ADDR_WIDTH];
            end
        end

        reg [DATA_WIDTH-1:0] mem [0:DEPTH-1];
        integer i;

        initial begin
            for (i = 0; i < DEPTH; i = i + 1) begin
                mem[i] = {DATA_WIDTH{1'b0}};
            end
        end

        always @(posedge clk) begin
            if (bank_wr_en[g]) begin
                mem[wr_addr[g*ADDR_WIDTH +: ADDR_WIDTH]] <= bank_wr_data[g*DATA_WIDTH +: DATA_WIDTH];
            end
        end

        for (p = 0; p < PORTS; p = p + 1) begin : g_rd
            assign bank_rd[(g*PORTS + p)*DATA_WIDTH +: DATA_WIDTH] = mem[bank_rd_addr[(g*PORTS + p)*ADDR_WIDTH +: ADDR_WIDTH]];
        end
    end
endgenerate
`else
/*
 * Event-driven simulators (Icarus): the banks one after another in one vector, every read in
 * one block, so a clock's writes change bank_rd once, not once per read port (each a wake-up
 * of the logic that reads the RAM), and no block is sensitive to a whole memory
 */
localparam BITS = WR_PORTS*DEPTH*DATA_WIDTH;

reg [BITS-1:0] mem;
reg [WR_PORTS*PORTS*DATA_WIDTH-1:0] bank_rd_word;
integer i, rb, rp;

initial begin
    for (i = 0; i < WR_PORTS*DEPTH; i = i + 1) begin
        mem[i*DATA_WIDTH +: DATA_WIDTH] = {DATA_WIDTH{1'b0}};
    end
end

always @(posedge clk) begin
    for (i = 0; i < WR_PORTS; i = i + 1) begin
        if (bank_wr_en[i]) begin
            mem[(i*DEPTH + {{(32-ADDR_WIDTH){1'b0}}, wr_addr[i*ADDR_WIDTH +: ADDR_WIDTH]})*DATA_WIDTH +: DATA_WIDTH] <=
                bank_wr_data[i*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end

always @* begin
    for (rb = 0; rb < WR_PORTS; rb = rb + 1) begin
        for (rp = 0; rp < PORTS; rp = rp + 1) begin
            bank_rd_word[(rb*PORTS + rp)*DATA_WIDTH +: DATA_WIDTH] = mem[(rb*DEPTH + {{(32-ADDR_WIDTH){1'b0}},
                rp < RD_PORTS ? rd_addr[rp*ADDR_WIDTH +: ADDR_WIDTH]
                              : wr_addr[port_writer(rb, rp)*ADDR_WIDTH +: ADDR_WIDTH]})*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end

assign bank_rd = bank_rd_word;
`endif
`endif
`undef PROBE_XOR_RAM_XOR
`undef PROBE_XOR_RAM_BANKED


endmodule

`resetall
