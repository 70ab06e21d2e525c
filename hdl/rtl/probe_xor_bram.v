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
 * banks' entries at its address. Each bank has a copy per port, a memory with one write and
 * one registered read (a simple dual-port block RAM) at that port's addr_next; a copy's word
 * misses only the bank's write of the clock it was read in, which a register keeps and an
 * address compare forwards. PORTS x PORTS copies: 25 BRAM18 at five ports, 81 at nine, each
 * holding DATA_WIDTH bits a word. Block RAM, not LUT RAM, because a LUT-RAM copy costs one LUT
 * per 64 words and bit: at nine ports and 1 024 words the LUT-RAM form took about 10 000 LUT
 * sites (bench/RESULTS.md). Simulators otherwise build one memory read at the registered
 * address.
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

localparam DEPTH = 1 << ADDR_WIDTH;

initial begin
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16 || DATA_WIDTH < 1 || PORTS < 2) begin
        $error("Error: probe_xor_bram needs ADDR_WIDTH 1..16, DATA_WIDTH >= 1, PORTS >= 2 (instance %m)");
        $finish;
    end
end

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
/*
 * The behaviour: one memory, the later port's write last, read at the registered address
 */
reg [DATA_WIDTH-1:0] mem [0:DEPTH-1];
integer i;

initial begin
    for (i = 0; i < DEPTH; i = i + 1) begin
        mem[i] = {DATA_WIDTH{1'b0}};
    end
end

always @(posedge clk) begin
    for (i = 0; i < PORTS; i = i + 1) begin
        if (wr_en[i]) begin
            mem[addr_reg[i*ADDR_WIDTH +: ADDR_WIDTH]] <= wr_data[i*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end

genvar r;
generate
    for (r = 0; r < PORTS; r = r + 1) begin : g_rd
        assign rd_data[r*DATA_WIDTH +: DATA_WIDTH] = mem[addr_reg[r*ADDR_WIDTH +: ADDR_WIDTH]];
    end
endgenerate
`else
/*
 * XOR banks of block-RAM copies, each bank's last write forwarded
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

genvar g, p;
generate
    for (g = 0; g < PORTS; g = g + 1) begin : g_bank
        // the write the copies' reads of this clock missed
        reg                  fwd_en_reg = 1'b0;
        reg [ADDR_WIDTH-1:0] fwd_addr_reg = {ADDR_WIDTH{1'b0}};
        reg [DATA_WIDTH-1:0] fwd_data_reg = {DATA_WIDTH{1'b0}};

        always @(posedge clk) begin
            fwd_en_reg   <= bank_wr_en[g];
            fwd_addr_reg <= addr_reg[g*ADDR_WIDTH +: ADDR_WIDTH];
            fwd_data_reg <= bank_wr_data[g*DATA_WIDTH +: DATA_WIDTH];
        end

        for (p = 0; p < PORTS; p = p + 1) begin : g_copy
            (* ram_style = "block" *)
            reg [DATA_WIDTH-1:0] mem [0:DEPTH-1];
            reg [DATA_WIDTH-1:0] rd_reg = {DATA_WIDTH{1'b0}};
            integer i;

            initial begin
                for (i = 0; i < DEPTH; i = i + 1) begin
                    mem[i] = {DATA_WIDTH{1'b0}};
                end
            end

            always @(posedge clk) begin
                if (bank_wr_en[g]) begin
                    mem[addr_reg[g*ADDR_WIDTH +: ADDR_WIDTH]] <= bank_wr_data[g*DATA_WIDTH +: DATA_WIDTH];
                end
            end

            // read-first: the word before this edge's write
            always @(posedge clk) begin
                rd_reg <= mem[addr_next[p*ADDR_WIDTH +: ADDR_WIDTH]];
            end

            assign bank_rd[(g*PORTS + p)*DATA_WIDTH +: DATA_WIDTH] =
                (fwd_en_reg && fwd_addr_reg == addr_reg[p*ADDR_WIDTH +: ADDR_WIDTH]) ? fwd_data_reg : rd_reg;
        end
    end
endgenerate
`endif

endmodule

`resetall
