`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Multi-port RAM in block RAM: WR_PORTS write ports, RD_PORTS read ports whose address comes
 * one clock early.
 *
 * rd_addr_next is the address a port reads in the next clock; rd_data, in that clock, is the
 * word at that address as it stood before that clock's writes: every earlier clock's writes
 * are in it. This is the behaviour of an asynchronous read at the registered address (and the
 * Verilated and Icarus form is exactly that: probe_ram_model), built from synchronous block RAM. Two writes to
 * one address in one clock: the higher port index wins. Every word reads 0 until it is first
 * written.
 *
 * Synthesis form (SYNTHESIS, or PROBE_RAM_BANKS for a simulator): each write port writes its
 * own bank, and each bank has a copy per read port, a memory with one write and one
 * registered read (a simple dual-port block RAM). A copy reads at rd_addr_next, so its word
 * misses only the write of the clock it reads in: the bank's write of that clock is kept in a
 * register and forwarded when its address matches. With several write ports a live-value
 * table (a probe_xor_ram in LUT RAM, one entry of clog2(WR_PORTS) bits per address) says which
 * bank holds each address's newest word.
 *
 * Block RAM, not LUT RAM: a LUT-RAM read port costs one LUT per 64 words and bit, so the
 * tracker's 1 024 x 47-bit request table with two writers and three readers took about 6 000
 * LUT sites; here it takes 18 BRAM18 of the 4 320 in an XCVU9P and a few hundred LUTs of
 * forwarding (bench/RESULTS.md).
 */
module probe_mp_ram #
(
    // address width in bits (depth = 2**ADDR_WIDTH)
    parameter ADDR_WIDTH = 8,
    // word width in bits
    parameter DATA_WIDTH = 16,
    // write ports
    parameter WR_PORTS = 1,
    // read ports
    parameter RD_PORTS = 1
)
(
    input  wire                           clk,

    input  wire [WR_PORTS-1:0]            wr_en,
    input  wire [WR_PORTS*ADDR_WIDTH-1:0] wr_addr,
    input  wire [WR_PORTS*DATA_WIDTH-1:0] wr_data,

    // the addresses read in the next clock
    input  wire [RD_PORTS*ADDR_WIDTH-1:0] rd_addr_next,
    output wire [RD_PORTS*DATA_WIDTH-1:0] rd_data
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16 || DATA_WIDTH < 1 || WR_PORTS < 1 || RD_PORTS < 1) begin : g_check_params
        probe_mp_ram_needs_ADDR_WIDTH_1_to_16_and_DATA_WIDTH_WR_PORTS_RD_PORTS_from_1 unsupported_parameter ();
    end
endgenerate

reg [RD_PORTS*ADDR_WIDTH-1:0] rd_addr_reg = {RD_PORTS*ADDR_WIDTH{1'b0}};

always @(posedge clk) begin
    rd_addr_reg <= rd_addr_next;
end

`ifdef SYNTHESIS
`define PROBE_MP_RAM_BANKED
`elsif PROBE_RAM_BANKS
`define PROBE_MP_RAM_BANKED
`endif

`ifndef PROBE_MP_RAM_BANKED
// the behaviour: one memory, read at the registered address
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
    .rd_addr(rd_addr_reg),
    .rd_data(rd_data)
);
`else
/*
 * Banks of block-RAM copies, the clock's write forwarded, and a live-value table
 */
// bank w's block-RAM word for read port r (without the forwarded write), at
// [(w*RD_PORTS + r)*DATA_WIDTH]; the clock's write of bank w and whether read port r's address
// is the one it wrote (compared a clock early, from rd_addr_next, so that a read is a
// multiplexer of registers: no address compare between the RAM and its reader)
wire [WR_PORTS*RD_PORTS*DATA_WIDTH-1:0] bank_rd_data;
wire [WR_PORTS*DATA_WIDTH-1:0]          fwd_data;
wire [WR_PORTS*RD_PORTS-1:0]            fwd_hit;

// the registered read address is the model's; here the reads need only the early one
wire unused_rd_addr_reg = &{1'b0, rd_addr_reg, 1'b0};

genvar w, r;
generate
    for (w = 0; w < WR_PORTS; w = w + 1) begin : g_bank
        // the write the copies' reads of this clock missed
        reg                  fwd_en_reg = 1'b0;
        reg [DATA_WIDTH-1:0] fwd_data_reg = {DATA_WIDTH{1'b0}};

        always @(posedge clk) begin
            fwd_en_reg   <= wr_en[w];
            fwd_data_reg <= wr_data[w*DATA_WIDTH +: DATA_WIDTH];
        end
        assign fwd_data[w*DATA_WIDTH +: DATA_WIDTH] = fwd_data_reg;

        for (r = 0; r < RD_PORTS; r = r + 1) begin : g_copy
            wire same_addr;

            probe_bram_copy #(
                .ADDR_WIDTH(ADDR_WIDTH),
                .DATA_WIDTH(DATA_WIDTH)
            )
            copy_inst (
                .clk(clk),
                .wr_en(wr_en[w]),
                .wr_addr(wr_addr[w*ADDR_WIDTH +: ADDR_WIDTH]),
                .wr_data(wr_data[w*DATA_WIDTH +: DATA_WIDTH]),
                .rd_addr_next(rd_addr_next[r*ADDR_WIDTH +: ADDR_WIDTH]),
                .rd_data(bank_rd_data[(w*RD_PORTS + r)*DATA_WIDTH +: DATA_WIDTH]),
                .same_addr(same_addr)
            );

            assign fwd_hit[w*RD_PORTS + r] = fwd_en_reg && same_addr;
        end
    end

    if (WR_PORTS == 1) begin : g_single
        for (r = 0; r < RD_PORTS; r = r + 1) begin : g_rd
            assign rd_data[r*DATA_WIDTH +: DATA_WIDTH] = fwd_hit[r] ? fwd_data : bank_rd_data[r*DATA_WIDTH +: DATA_WIDTH];
        end
    end else begin : g_lvt
        localparam SEL_WIDTH = $clog2(WR_PORTS);

        // live-value table: the bank that holds each address's newest word (later ports
        // override earlier ones, as the banks' priority says), read a clock early at
        // rd_addr_next and registered, as the copies are: it misses the same clock's writes,
        // which the forwarded writes cover (the newest, the highest port, first)
        wire [RD_PORTS*SEL_WIDTH-1:0] sel;
        reg  [RD_PORTS*SEL_WIDTH-1:0] sel_reg = {RD_PORTS*SEL_WIDTH{1'b0}};
        wire [WR_PORTS*SEL_WIDTH-1:0] port_index;

        for (w = 0; w < WR_PORTS; w = w + 1) begin : g_index
            assign port_index[w*SEL_WIDTH +: SEL_WIDTH] = w[SEL_WIDTH-1:0];
        end

        probe_xor_ram #(
            .ADDR_WIDTH(ADDR_WIDTH),
            .DATA_WIDTH(SEL_WIDTH),
            .WR_PORTS(WR_PORTS),
            .RD_PORTS(RD_PORTS)
        )
        lvt_inst (
            .clk(clk),
            .wr_en(wr_en),
            .wr_addr(wr_addr),
            .wr_data(port_index),
            .rd_addr(rd_addr_next),
            .rd_data(sel)
        );

        always @(posedge clk) begin
            sel_reg <= sel;
        end

        // a read: the forwarded writes taken in pairs (each pair's hit and newer word from its
        // two banks' registers alone), the newest pair that hit over the bank the table names;
        // two LUT levels at four write ports rather than a chain of forwarding multiplexers
        for (r = 0; r < RD_PORTS; r = r + 1) begin : g_rd
            wire [SEL_WIDTH-1:0] port_sel = sel_reg[r*SEL_WIDTH +: SEL_WIDTH];
            reg  [DATA_WIDTH-1:0] word, pair_word;
            reg                   pair_hit;
            integer b, b1;

            always @* begin
                word = bank_rd_data[r*DATA_WIDTH +: DATA_WIDTH];
                for (b = 1; b < WR_PORTS; b = b + 1) begin
                    if (port_sel == b[SEL_WIDTH-1:0]) begin
                        word = bank_rd_data[(b*RD_PORTS + r)*DATA_WIDTH +: DATA_WIDTH];
                    end
                end
                for (b = 0; b < WR_PORTS; b = b + 2) begin
                    // (the pair's second bank, or the first again when it has none)
                    b1 = (b + 1 < WR_PORTS) ? b + 1 : b;
                    pair_hit  = fwd_hit[b*RD_PORTS + r] || fwd_hit[b1*RD_PORTS + r];
                    pair_word = fwd_hit[b1*RD_PORTS + r] ? fwd_data[b1*DATA_WIDTH +: DATA_WIDTH] : fwd_data[b*DATA_WIDTH +: DATA_WIDTH];
                    if (pair_hit) begin
                        word = pair_word;
                    end
                end
            end

            assign rd_data[r*DATA_WIDTH +: DATA_WIDTH] = word;
        end
    end
endgenerate
`endif

endmodule

`resetall
