`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Multi-port RAM in block RAM without a live-value table: PORTS ports, each reading one
 * address and maybe writing it, the address given one clock early.
 *
 * addr_next is the address a port uses in the next clock. In that clock rd_data is the word
 * there as it stood before that clock's writes, and a write (wr_en, wr_data) stores at it. Of
 * two writes to one address in one clock the higher port index wins. Every word reads 0 until
 * it is first written. This is probe_xor_ram's behaviour for a RAM whose every writer reads its
 * own address (the tracker's busy/first state), from synchronous block RAM.
 *
 * Synthesis form (SYNTHESIS, or PROBE_RAM_BANKS for a simulator): each port writes its own
 * bank, the word is the XOR of every bank's entry, and a write stores its data XOR the other
 * banks' entries at its address. Each bank is a probe_mp_ram with one write port and a read
 * port per port: a copy per port, a simple dual-port block RAM read at that port's addr_next,
 * whose word misses only the bank's write of the clock it was read in, which a register keeps
 * and an address compare forwards. PORTS x PORTS copies: 25 BRAM18 at five ports, 81 at nine, each
 * holding DATA_WIDTH bits a word. Block RAM, not LUT RAM, because a LUT-RAM copy costs one LUT
 * per 64 words and bit: at nine ports and 1 024 words the LUT-RAM form took about 10 000 LUT
 * sites (bench/RESULTS.md). Simulators otherwise build probe_ram_model (one memory) at the
 * registered addresses.
 */
module probe_xor_bram #
(
    // address width in bits (depth = 2**ADDR_WIDTH)
    parameter ADDR_WIDTH = 8,
    // word width in bits
    parameter DATA_WIDTH = 1,
    // ports (each reads its address and may write it)
    parameter PORTS = 2
)
(
    input  wire                        clk,

    // the addresses of the next clock
    input  wire [PORTS*ADDR_WIDTH-1:0] addr_next,
    // this clock's writes, at the addresses given the clock before
    input  wire [PORTS-1:0]            wr_en,
    input  wire [PORTS*DATA_WIDTH-1:0] wr_data,
    // this clock's words at those addresses, before this clock's writes
    output wire [PORTS*DATA_WIDTH-1:0] rd_data
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16 || DATA_WIDTH < 1 || PORTS < 2) begin : g_check_params
        probe_xor_bram_needs_ADDR_WIDTH_1_to_16_DATA_WIDTH_from_1_PORTS_from_2 unsupported_parameter ();
    end
endgenerate

reg [PORTS*ADDR_WIDTH-1:0] addr_reg = {PORTS*ADDR_WIDTH{1'b0}};

always @(posedge clk) begin
    addr_reg <= addr_next;
end

`ifdef SYNTHESIS
`define PROBE_XOR_BRAM_BANKED
`elsif PROBE_RAM_BANKS
`define PROBE_XOR_BRAM_BANKED
`endif

`ifndef PROBE_XOR_BRAM_BANKED
// the behaviour: one memory, read and written at the registered addresses
probe_ram_model #(
    .ADDR_WIDTH(ADDR_WIDTH),
    .DATA_WIDTH(DATA_WIDTH),
    .WR_PORTS(PORTS),
    .RD_PORTS(PORTS)
)
model_inst (
    .clk(clk),
    .wr_en(wr_en),
    .wr_addr(addr_reg),
    .wr_data(wr_data),
    .rd_addr(addr_reg),
    .rd_data(rd_data)
);
`else
/*
 * XOR banks, each a probe_mp_ram: block-RAM copies, the bank's last write forwarded
 */
// bank b's entry at port p's address: [(b*PORTS + p)*DATA_WIDTH]
wire [PORTS*PORTS*DATA_WIDTH-1:0] bank_rd;

reg  [PORTS-1:0]            bank_wr_en;
reg  [PORTS*DATA_WIDTH-1:0] bank_wr_data;
reg  [PORTS*DATA_WIDTH-1:0] word;
integer b, w;

// each port's word: the XOR of the banks
always @* begin
    for (w = 0; w < PORTS; w = w + 1) begin
        word[w*DATA_WIDTH +: DATA_WIDTH] = {DATA_WIDTH{1'b0}};
        for (b = 0; b < PORTS; b = b + 1) begin
            word[w*DATA_WIDTH +: DATA_WIDTH] = word[w*DATA_WIDTH +: DATA_WIDTH] ^ bank_rd[(b*PORTS + w)*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end

// each port's write (its own block: it depends on what a reader makes of the word): a higher
// port writing the same address wins; the data XOR the other banks' entries there
always @* begin
    for (w = 0; w < PORTS; w = w + 1) begin
        bank_wr_en[w] = wr_en[w];
        for (b = w + 1; b < PORTS; b = b + 1) begin
            if (wr_en[b] && addr_reg[b*ADDR_WIDTH +: ADDR_WIDTH] == addr_reg[w*ADDR_WIDTH +: ADDR_WIDTH]) begin
                bank_wr_en[w] = 1'b0;
            end
        end
        bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] = wr_data[w*DATA_WIDTH +: DATA_WIDTH];
        for (b = 0; b < PORTS; b = b + 1) begin
            if (b != w) begin
                bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] = bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] ^
                    bank_rd[(b*PORTS + w)*DATA_WIDTH +: DATA_WIDTH];
            end
        end
    end
end

assign rd_data = word;

// each bank: a copy per port, the bank's last write forwarded (probe_mp_ram, one write port)
genvar g;
generate
    for (g = 0; g < PORTS; g = g + 1) begin : g_bank
        probe_mp_ram #(
            .ADDR_WIDTH(ADDR_WIDTH),
            .DATA_WIDTH(DATA_WIDTH),
            .WR_PORTS(1),
            .RD_PORTS(PORTS)
        )
        bank_inst (
            .clk(clk),
            .wr_en(bank_wr_en[g]),
            .wr_addr(addr_reg[g*ADDR_WIDTH +: ADDR_WIDTH]),
            .wr_data(bank_wr_data[g*DATA_WIDTH +: DATA_WIDTH]),
            .rd_addr_next(addr_next),
            .rd_data(bank_rd[g*PORTS*DATA_WIDTH +: PORTS*DATA_WIDTH])
        );
    end
endgenerate
`endif

endmodule

`resetall
