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
 * banks' entries at its address. Each bank has a copy per port, a simple dual-port block RAM
 * read at that port's addr_next, whose word misses only the bank's write of the clock it was
 * read in, which a register keeps and an address compare forwards; a read of an address written
 * the clock before takes that write's word instead of the banks' XOR. PORTS x PORTS copies: 25 BRAM18 at five ports, 81 at nine, each
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
 * XOR banks of block-RAM copies. A read takes the XOR of the copies' registered words when the
 * clock before wrote no bank at its address; when it did, the banks there add up to that write's
 * word (the one write that clock kept, the highest port), so the read takes that word from a
 * register instead of XORing every bank's forwarded entry: a multiplexer after the hit, not an
 * XOR tree behind the forwarding.
 */
// bank b's copy for port p: its registered word (without the bank's write of the clock it was
// read in) at [(b*PORTS + p)*DATA_WIDTH], and whether that write is at p's address
wire [PORTS*PORTS*DATA_WIDTH-1:0] copy_rd;
wire [PORTS*PORTS-1:0]            fwd_hit;
// each bank's write of the clock before: its bank word and the port's word
reg  [PORTS-1:0]                  fwd_en_reg = {PORTS{1'b0}};
reg  [PORTS*DATA_WIDTH-1:0]       fwd_bank_reg = {PORTS*DATA_WIDTH{1'b0}};
reg  [PORTS*DATA_WIDTH-1:0]       fwd_word_reg = {PORTS*DATA_WIDTH{1'b0}};

reg  [PORTS-1:0]            bank_wr_en;
reg  [PORTS*DATA_WIDTH-1:0] bank_wr_data;
reg  [PORTS*DATA_WIDTH-1:0] word;
reg  [DATA_WIDTH-1:0]       banks_xor, fwd_word, others;
reg                         fwd_any;
integer b, w;

// each port's word: the write of the clock before at its address, else the XOR of the copies
always @* begin
    for (w = 0; w < PORTS; w = w + 1) begin
        banks_xor = {DATA_WIDTH{1'b0}};
        fwd_word  = {DATA_WIDTH{1'b0}};
        fwd_any   = 1'b0;
        for (b = 0; b < PORTS; b = b + 1) begin
            banks_xor = banks_xor ^ copy_rd[(b*PORTS + w)*DATA_WIDTH +: DATA_WIDTH];
            fwd_word  = fwd_word | (fwd_word_reg[b*DATA_WIDTH +: DATA_WIDTH] & {DATA_WIDTH{fwd_hit[b*PORTS + w]}});
            fwd_any   = fwd_any | fwd_hit[b*PORTS + w];
        end
        word[w*DATA_WIDTH +: DATA_WIDTH] = fwd_any ? fwd_word : banks_xor;
    end
end

// each port's write (its own block: it depends on what a reader makes of the word): a higher
// port writing the same address wins; the data XOR the other banks' entries there (each a copy's
// word, or its bank's forwarded write)
always @* begin
    for (w = 0; w < PORTS; w = w + 1) begin
        bank_wr_en[w] = wr_en[w];
        for (b = w + 1; b < PORTS; b = b + 1) begin
            if (wr_en[b] && addr_reg[b*ADDR_WIDTH +: ADDR_WIDTH] == addr_reg[w*ADDR_WIDTH +: ADDR_WIDTH]) begin
                bank_wr_en[w] = 1'b0;
            end
        end
        others = {DATA_WIDTH{1'b0}};
        for (b = 0; b < PORTS; b = b + 1) begin
            if (b != w) begin
                others = others ^ (fwd_hit[b*PORTS + w] ? fwd_bank_reg[b*DATA_WIDTH +: DATA_WIDTH] :
                                                          copy_rd[(b*PORTS + w)*DATA_WIDTH +: DATA_WIDTH]);
            end
        end
        bank_wr_data[w*DATA_WIDTH +: DATA_WIDTH] = wr_data[w*DATA_WIDTH +: DATA_WIDTH] ^ others;
    end
end

assign rd_data = word;

always @(posedge clk) begin
    fwd_en_reg   <= bank_wr_en;
    fwd_bank_reg <= bank_wr_data;
    fwd_word_reg <= wr_data;
end

// each bank: a copy per port (a simple dual-port block RAM read at that port's addr_next)
genvar g, p;
generate
    for (g = 0; g < PORTS; g = g + 1) begin : g_bank
        for (p = 0; p < PORTS; p = p + 1) begin : g_copy
            wire same_addr;

            probe_bram_copy #(
                .ADDR_WIDTH(ADDR_WIDTH),
                .DATA_WIDTH(DATA_WIDTH)
            )
            copy_inst (
                .clk(clk),
                .wr_en(bank_wr_en[g]),
                .wr_addr(addr_reg[g*ADDR_WIDTH +: ADDR_WIDTH]),
                .wr_data(bank_wr_data[g*DATA_WIDTH +: DATA_WIDTH]),
                .rd_addr_next(addr_next[p*ADDR_WIDTH +: ADDR_WIDTH]),
                .rd_data(copy_rd[(g*PORTS + p)*DATA_WIDTH +: DATA_WIDTH]),
                .same_addr(same_addr)
            );

            assign fwd_hit[g*PORTS + p] = fwd_en_reg[g] && same_addr;
        end
    end
endgenerate
`endif

endmodule

`resetall
