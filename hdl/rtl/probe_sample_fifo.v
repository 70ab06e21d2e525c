`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Interval-record FIFO for probe_sampler, in block-RAM form: one write port, one
 * registered read port, no reset on the memory, so synthesis maps it to BRAM.
 *
 * The head word is always on 'head' (no read strobe): the memory reads the address the
 * head will have after this clock's pop, on the clocks where the head can change (a pop,
 * or the clock after a push, which may have written the head's word; a read enable, as
 * block RAM has, so a Verilated model copies no record on the clocks between). A pushed
 * word shows at the head, and in 'level', one clock after the push (the memory's read
 * latency); 'level' is what a reader may rely on. A pop while 'level' is 0 is ignored. A push while 'full'
 * with no pop in the same clock is refused: the caller counts it (probe_sampler's
 * overflow counter).
 */
module probe_sample_fifo #
(
    // depth = 2**ADDR_WIDTH words
    parameter ADDR_WIDTH = 8,
    parameter DATA_WIDTH = 384
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  push,
    input  wire [DATA_WIDTH-1:0] push_data,
    output wire                  full,

    input  wire                  pop,
    output wire [DATA_WIDTH-1:0] head,
    output wire [ADDR_WIDTH:0]   level
);

localparam [ADDR_WIDTH:0] DEPTH = {1'b1, {ADDR_WIDTH{1'b0}}};

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 15) begin : g_check_addr_width
        probe_sample_fifo_ADDR_WIDTH_must_be_1_to_15 unsupported_parameter ();
    end
endgenerate

reg [DATA_WIDTH-1:0] mem [0:(1 << ADDR_WIDTH)-1];
reg [DATA_WIDTH-1:0] head_reg;

reg [ADDR_WIDTH:0] wr_ptr_reg = {(ADDR_WIDTH+1){1'b0}};
reg [ADDR_WIDTH:0] rd_ptr_reg = {(ADDR_WIDTH+1){1'b0}};
reg [ADDR_WIDTH:0] level_reg = {(ADDR_WIDTH+1){1'b0}};
reg                pushed_reg = 1'b0;

// words in the memory (ahead of 'level' by a push still in the read latency)
wire [ADDR_WIDTH:0] stored = wr_ptr_reg - rd_ptr_reg;
wire                pop_ok = pop && (level_reg != {(ADDR_WIDTH+1){1'b0}});
// a pop in the same clock frees the word a push into a full FIFO takes
wire                push_ok = push && (stored != DEPTH || pop_ok);
wire [ADDR_WIDTH:0] rd_ptr_next = rd_ptr_reg + {{ADDR_WIDTH{1'b0}}, pop_ok};

assign full  = stored == DEPTH;
assign head  = head_reg;
assign level = level_reg;

always @(posedge clk) begin
    if (push_ok) begin
        mem[wr_ptr_reg[ADDR_WIDTH-1:0]] <= push_data;
    end
    if (pop_ok || pushed_reg) begin
        head_reg <= mem[rd_ptr_next[ADDR_WIDTH-1:0]];
    end
end

always @(posedge clk) begin
    wr_ptr_reg <= wr_ptr_reg + {{ADDR_WIDTH{1'b0}}, push_ok};
    rd_ptr_reg <= rd_ptr_next;
    pushed_reg <= push_ok;
    level_reg  <= level_reg + {{ADDR_WIDTH{1'b0}}, pushed_reg} - {{ADDR_WIDTH{1'b0}}, pop_ok};

    if (rst) begin
        wr_ptr_reg <= {(ADDR_WIDTH+1){1'b0}};
        rd_ptr_reg <= {(ADDR_WIDTH+1){1'b0}};
        level_reg  <= {(ADDR_WIDTH+1){1'b0}};
        pushed_reg <= 1'b0;
    end
end

endmodule

`resetall
