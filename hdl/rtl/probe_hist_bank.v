`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One bank of a latency histogram (probe_latency_hist keeps one per TLP segment): WORDS bins of
 * CNT_WIDTH bits in a RAM, counting at most one event per clock, with probe_counter's rules:
 * events count only while 'enable'; 'clear' empties every bin (this clock's event is lost);
 * 'snapshot' freezes every bin including this clock's event for the readers.
 *
 * Nothing here touches every bin on a clock, so a Verilated model pays the same per clock for
 * 89 bins as for one, and synthesis builds LUT RAM with one adder instead of a register, a
 * shadow and an adder per bin:
 *
 *  - run_mem holds the running bins; run_valid[k] says run_mem[k] has counted since the last
 *    clear (a clear empties the bank by clearing the vector, not the RAM);
 *  - the snapshot is lazy: at a snapshot, snap_valid takes run_valid (with this clock's event),
 *    and moved is cleared. Until bin k counts again its snapshot value is still in run_mem[k]
 *    (0 unless snap_valid[k]); the first event on bin k after the snapshot copies that value to
 *    snap_mem[k] first and sets moved[k]. A bin's snapshot value is therefore
 *    moved[k] ? snap_mem[k] : (snap_valid[k] ? run_mem[k] : 0).
 *
 * An event reads and writes run_mem[idx] in one clock (asynchronous read: LUT RAM), so back-to-
 * back events on one bin need no forwarding. The reader's side is block RAM: snap_mem, and
 * run_rd_mem (run_mem's twin, written with it), each read at rd_idx through its output register,
 * so that run_mem's LUT RAM has one read port, not two, and snap_mem none. rd_word is therefore
 * registered: bin rd_idx's snapshot value as it stood at the clock before (the valid bits
 * registered beside the RAMs' words).
 */
module probe_hist_bank #
(
    // bins
    parameter WORDS = 89,
    // bin index width
    parameter IDX_WIDTH = 7,
    // bin width in bits
    parameter CNT_WIDTH = 64
)
(
    input  wire                         clk,
    input  wire                         rst,

    input  wire                         enable,
    input  wire                         clear,
    input  wire                         snapshot,

    // this clock's event and its bin
    input  wire                         hit,
    input  wire [IDX_WIDTH-1:0]         idx,

    // the snapshot value of bin rd_idx (0 past the last bin), a clock later
    input  wire [IDX_WIDTH-1:0]         rd_idx,
    output wire [CNT_WIDTH-1:0]         rd_word,

    // every bin's snapshot value, bin k at [k*CNT_WIDTH +: CNT_WIDTH] (for benches: a design
    // reads rd_word; unread, this bus and its reads of every bin are optimised away)
    output wire [WORDS*CNT_WIDTH-1:0]   shadow
);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (WORDS < 2 || WORDS > (1 << IDX_WIDTH) || CNT_WIDTH < 2 || CNT_WIDTH > 64) begin : g_check_words
        probe_hist_bank_WORDS_must_be_2_to_2_pow_IDX_WIDTH_and_CNT_WIDTH_2_to_64 unsupported_parameter ();
    end
endgenerate

reg [CNT_WIDTH-1:0] run_mem    [0:WORDS-1];
(* ram_style = "block" *)
reg [CNT_WIDTH-1:0] run_rd_mem [0:WORDS-1];
(* ram_style = "block" *)
reg [CNT_WIDTH-1:0] snap_mem   [0:WORDS-1];
reg [WORDS-1:0]     run_valid  = {WORDS{1'b0}};
reg [WORDS-1:0]     snap_valid = {WORDS{1'b0}};
reg [WORDS-1:0]     moved      = {WORDS{1'b0}};

wire                 count     = enable && hit;
wire [CNT_WIDTH-1:0] raw       = run_mem[idx];
wire [CNT_WIDTH-1:0] running   = run_valid[idx] ? raw : {CNT_WIDTH{1'b0}};
wire [CNT_WIDTH-1:0] snap_held = snap_valid[idx] ? raw : {CNT_WIDTH{1'b0}};

// this clock's event as a one-hot vector over the bins, and the valid vectors updated as whole
// vectors (later terms win: a clear or a snapshot after this clock's event). Not bits written by
// index: Yosys builds an indexed bit write with a 32-bit offset subtract, a carry chain ahead of
// every valid bit; a shift of a constant 1 is a decoder. A simulator does the reverse: the shift
// is a loop over the vector's words on every clock, the indexed write one store on an event's
// clock only, so simulation (SYNTHESIS not defined) writes the bits by index, to the same effect
`ifdef SYNTHESIS
wire [WORDS-1:0] ev_bin = count ? ({{(WORDS-1){1'b0}}, 1'b1} << idx) : {WORDS{1'b0}};
`endif

always @(posedge clk) begin
`ifdef SYNTHESIS
    run_valid <= clear ? {WORDS{1'b0}} : (run_valid | ev_bin);
    moved     <= snapshot ? {WORDS{1'b0}} : (moved | ev_bin);
    if (snapshot) begin
        snap_valid <= run_valid | ev_bin;
    end
`else
    if (count) begin
        run_valid[idx] <= 1'b1;
        moved[idx]     <= 1'b1;
    end
    if (clear) begin
        run_valid <= {WORDS{1'b0}};
    end
    if (snapshot) begin
        moved      <= {WORDS{1'b0}};
        snap_valid <= run_valid;
        if (count) begin
            snap_valid[idx] <= 1'b1;
        end
    end
`endif
    if (rst) begin
        run_valid  <= {WORDS{1'b0}};
        snap_valid <= {WORDS{1'b0}};
        moved      <= {WORDS{1'b0}};
    end
end

always @(posedge clk) begin
    if (count) begin
        run_mem[idx]    <= running + {{(CNT_WIDTH-1){1'b0}}, 1'b1};
        run_rd_mem[idx] <= running + {{(CNT_WIDTH-1){1'b0}}, 1'b1};
        if (!moved[idx]) begin
            snap_mem[idx] <= snap_held;
        end
    end
end

// a bin's snapshot value, as the header says: the block RAMs' read-first words and the valid
// bits at rd_idx, all registered at one edge (so a move on that edge is seen on neither side)
localparam [31:0] WORDS_32 = WORDS;

wire                in_range = {{(32-IDX_WIDTH){1'b0}}, rd_idx} < WORDS_32;
reg [CNT_WIDTH-1:0] run_rd_reg = {CNT_WIDTH{1'b0}};
reg [CNT_WIDTH-1:0] snap_rd_reg = {CNT_WIDTH{1'b0}};
reg                 moved_rd_reg = 1'b0;
reg                 valid_rd_reg = 1'b0;

always @(posedge clk) begin
    run_rd_reg   <= run_rd_mem[rd_idx];
    snap_rd_reg  <= snap_mem[rd_idx];
    moved_rd_reg <= in_range && moved[rd_idx];
    valid_rd_reg <= in_range && snap_valid[rd_idx];
end

assign rd_word = moved_rd_reg ? snap_rd_reg :
                 valid_rd_reg ? run_rd_reg : {CNT_WIDTH{1'b0}};

genvar w;
generate
    for (w = 0; w < WORDS; w = w + 1) begin : g_word
        assign shadow[w*CNT_WIDTH +: CNT_WIDTH] = moved[w] ? snap_mem[w] :
                                                  snap_valid[w] ? run_mem[w] : {CNT_WIDTH{1'b0}};
    end
endgenerate

endmodule

`resetall
