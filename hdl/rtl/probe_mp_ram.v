`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Multi-port RAM: WR_PORTS write ports, RD_PORTS asynchronous read ports.
 *
 * A read returns the word as it stood before this clock's writes. Two writes to one
 * address in one clock: the higher port index wins.
 *
 * One write port is a plain memory (LUT RAM on an FPGA, one copy per read port).
 * With several write ports each port writes its own bank and a live-value table (one
 * entry of clog2(WR_PORTS) bits per address) remembers which bank holds the newest
 * word; a read picks that bank. The live-value table is a probe_xor_ram, so it and the
 * data words stay in LUT RAM whatever the port count.
 *
 * Every word reads 0 until it is first written.
 */
module probe_mp_ram #
(
    // address width in bits (depth = 2**ADDR_WIDTH)
    parameter ADDR_WIDTH = 8,
    // word width in bits
    parameter DATA_WIDTH = 16,
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

// bank select width (1 when there is a single bank, then unused)
localparam SEL_WIDTH = WR_PORTS > 1 ? $clog2(WR_PORTS) : 1;

initial begin
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16 || DATA_WIDTH < 1 || WR_PORTS < 1 || RD_PORTS < 1) begin
        $error("Error: probe_mp_ram needs ADDR_WIDTH 1..16, DATA_WIDTH, WR_PORTS and RD_PORTS >= 1 (instance %m)");
        $finish;
    end
end

// every bank's read of every read port: bank w, port r at [(w*RD_PORTS + r)*DATA_WIDTH]
wire [WR_PORTS*RD_PORTS*DATA_WIDTH-1:0] bank_rd_data;

// LUT RAM in pieces of at most 256 words, the deepest dual-port LUT RAM of UltraScale+
// (RAM256X1D); a deeper table is several pieces and a read multiplexer. Yosys 0.23 maps a
// 1024-word single-port table to a LUT RAM cell its own library lacks, and stops.
localparam PIECE_ADDR_WIDTH = ADDR_WIDTH > 8 ? 8 : ADDR_WIDTH;
localparam PIECE_DEPTH = 1 << PIECE_ADDR_WIDTH;
localparam PIECES = 1 << (ADDR_WIDTH - PIECE_ADDR_WIDTH);

// the piece that holds an address (0 when the table is one piece)
function [31:0] piece_of(input [ADDR_WIDTH-1:0] addr);
    piece_of = {{(32-ADDR_WIDTH){1'b0}}, addr} >> PIECE_ADDR_WIDTH;
endfunction

genvar w, r, q;
generate
    for (w = 0; w < WR_PORTS; w = w + 1) begin : g_bank
        wire [ADDR_WIDTH-1:0] bank_wr_addr = wr_addr[w*ADDR_WIDTH +: ADDR_WIDTH];
        // every piece's read of every read port: piece q, port r at [(q*RD_PORTS + r)*DATA_WIDTH]
        wire [PIECES*RD_PORTS*DATA_WIDTH-1:0] piece_rd_data;

        for (q = 0; q < PIECES; q = q + 1) begin : g_piece
            reg [DATA_WIDTH-1:0] mem [0:PIECE_DEPTH-1];
            integer i;

            initial begin
                for (i = 0; i < PIECE_DEPTH; i = i + 1) begin
                    mem[i] = {DATA_WIDTH{1'b0}};
                end
            end

            always @(posedge clk) begin
                if (wr_en[w] && piece_of(bank_wr_addr) == q) begin
                    mem[bank_wr_addr[PIECE_ADDR_WIDTH-1:0]] <= wr_data[w*DATA_WIDTH +: DATA_WIDTH];
                end
            end

            for (r = 0; r < RD_PORTS; r = r + 1) begin : g_rd
                assign piece_rd_data[(q*RD_PORTS + r)*DATA_WIDTH +: DATA_WIDTH] =
                    mem[rd_addr[r*ADDR_WIDTH +: PIECE_ADDR_WIDTH]];
            end
        end

        for (r = 0; r < RD_PORTS; r = r + 1) begin : g_rd
            wire [ADDR_WIDTH-1:0] port_addr = rd_addr[r*ADDR_WIDTH +: ADDR_WIDTH];
            assign bank_rd_data[(w*RD_PORTS + r)*DATA_WIDTH +: DATA_WIDTH] =
                piece_rd_data[(piece_of(port_addr)*RD_PORTS + r)*DATA_WIDTH +: DATA_WIDTH];
        end
    end

    if (WR_PORTS == 1) begin : g_single
        assign rd_data = bank_rd_data;
    end else begin : g_lvt
        // live-value table: the bank that holds each address's newest word (later ports
        // override earlier ones, as the banks' priority says), itself a multi-write RAM
        wire [RD_PORTS*SEL_WIDTH-1:0] sel;
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
            .rd_addr(rd_addr),
            .rd_data(sel)
        );

        for (r = 0; r < RD_PORTS; r = r + 1) begin : g_rd
            wire [SEL_WIDTH-1:0] port_sel = sel[r*SEL_WIDTH +: SEL_WIDTH];
            reg  [DATA_WIDTH-1:0] word;
            integer b;

            always @* begin
                word = bank_rd_data[r*DATA_WIDTH +: DATA_WIDTH];
                for (b = 1; b < WR_PORTS; b = b + 1) begin
                    if (port_sel == b[SEL_WIDTH-1:0]) begin
                        word = bank_rd_data[(b*RD_PORTS + r)*DATA_WIDTH +: DATA_WIDTH];
                    end
                end
            end

            assign rd_data[r*DATA_WIDTH +: DATA_WIDTH] = word;
        end
    end
endgenerate

endmodule

`resetall
