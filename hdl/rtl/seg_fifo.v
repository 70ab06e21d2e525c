`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Segment FIFO: up to SEG_COUNT entries in and SEG_COUNT out per clock, first-word
 * fall-through. The switch's egress queues its forwarded segments in it (sw_egress), the BAR
 * responder the reads it has taken (bar_responder).
 *
 * The entries written on one clock are the in_valid segments of in_data, taken in segment
 * order (any subset: the FIFO packs them); out_data shows the oldest SEG_COUNT entries,
 * oldest at segment 0, out_count of them valid; out_pop removes that many (at most
 * out_count). SEG_COUNT banks of LUT RAM, entry i in bank i mod SEG_COUNT: each bank has
 * one write and one read port, so a word written on one clock can leave on the next.
 */
module seg_fifo #
(
    parameter WIDTH = 8,
    // entries in and out per clock: 1, 2 or 4
    parameter SEG_COUNT = 1,
    // entries per bank, as address bits (the FIFO holds SEG_COUNT << ADDR_WIDTH; 0: one entry
    // per bank)
    parameter ADDR_WIDTH = 4,
    // width of the counts: $clog2(SEG_COUNT + 1)
    parameter COUNT_WIDTH = 1,
    // 1: room is a register, for a writer a clock behind its ready (it writes on the clock after
    // the one room allowed the write): high when a beat still fits after this clock's write
    // and, if room is high now, one more beat
    parameter REG_ROOM = 0,
    // the beats room2 asks room for (2, or 3 for a writer with a register more before the write)
    parameter ROOM2_BEATS = 2
)
(
    input  wire                       clk,
    input  wire                       rst,

    input  wire [SEG_COUNT*WIDTH-1:0] in_data,
    input  wire [SEG_COUNT-1:0]       in_valid,
    // at least SEG_COUNT entries free: a whole beat fits
    output wire                       room,
    // at least ROOM2_BEATS * SEG_COUNT free: a beat fits after the ones already on their way
    // (for a registered ready)
    output wire                       room2,

    output reg  [SEG_COUNT*WIDTH-1:0] out_data,
    output wire [COUNT_WIDTH-1:0]     out_count,
    input  wire [COUNT_WIDTH-1:0]     out_pop
);

localparam SEG_INDEX_WIDTH = (SEG_COUNT > 1) ? $clog2(SEG_COUNT) : 0;
localparam PTR_WIDTH = ADDR_WIDTH + SEG_INDEX_WIDTH + 1;
// a bank's address bits: with ADDR_WIDTH 0 a bank is addressed by the pointers' wrap bit, two
// words of which the FIFO's bound lets one be used at a time
localparam BANK_ADDR_WIDTH = (ADDR_WIDTH > 0) ? ADDR_WIDTH : 1;
localparam [31:0] CAP_32 = (SEG_COUNT << ADDR_WIDTH) - SEG_COUNT;
localparam [31:0] CAP2_32 = (SEG_COUNT << ADDR_WIDTH) - ROOM2_BEATS * SEG_COUNT;
localparam [31:0] SEG_32 = SEG_COUNT;
localparam [31:0] MASK_32 = SEG_COUNT - 1;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects
// a block that names a module which does not exist, its name saying what to fix
generate
    if (SEG_COUNT != 1 && SEG_COUNT != 2 && SEG_COUNT != 4) begin : g_check_seg_count
        seg_fifo_SEG_COUNT_must_be_1_2_or_4 unsupported_parameter ();
    end
    if ((1 << COUNT_WIDTH) <= SEG_COUNT || (1 << (COUNT_WIDTH - 1)) > SEG_COUNT) begin : g_check_count_width
        seg_fifo_COUNT_WIDTH_must_be_clog2_of_SEG_COUNT_plus_1 unsupported_parameter ();
    end
endgenerate

reg [PTR_WIDTH-1:0] wr_ptr_reg = {PTR_WIDTH{1'b0}};
reg [PTR_WIDTH-1:0] rd_ptr_reg = {PTR_WIDTH{1'b0}};

wire [PTR_WIDTH-1:0] used = wr_ptr_reg - rd_ptr_reg;
wire [31:0]          used_32 = {{(32-PTR_WIDTH){1'b0}}, used};
// a FIFO of fewer than ROOM2_BEATS beats never has room2
assign room2 = ((SEG_COUNT << ADDR_WIDTH) >= ROOM2_BEATS * SEG_COUNT) && used_32 <= CAP2_32;
wire [31:0]   count_32 = used_32 < SEG_32 ? used_32 : SEG_32;
assign out_count = count_32[COUNT_WIDTH-1:0];
wire unused_count = &{1'b0, count_32[31:COUNT_WIDTH], 1'b0};

// the k-th valid input segment goes to entry wr_ptr + k: bank (wr_ptr + k) mod SEG_COUNT.
// A bank not written this clock keeps its segment's data on its write port (a don't-care: no
// zeroing mux on the board, no wide clear in a Verilated model); one segment needs no steering.
reg [SEG_COUNT-1:0]                 bank_we;
reg [SEG_COUNT*WIDTH-1:0]           bank_wdata;
reg [SEG_COUNT*BANK_ADDR_WIDTH-1:0] bank_waddr;
reg [31:0]                          k;
generate
    if (SEG_COUNT == 1) begin : g_one_in
        always @* begin
            bank_we = in_valid;
            bank_wdata = in_data;
            bank_waddr = wr_ptr_reg[BANK_ADDR_WIDTH-1:0];
            k = {31'd0, in_valid[0]};
        end
    end else begin : g_many_in
        // The valid segments go in order to the banks from the pointer's on (bank b below it
        // at the pointer's row a step on): a one-hot bank pointer rotates past each valid
        // segment, so each bank's write enable and segment are functions of in_valid and the
        // pointer's low bits (logic, no adder before a compare), the data one multiplexer
        reg [SEG_COUNT-1:0]                 next_bank;
        reg [SEG_COUNT*SEG_INDEX_WIDTH-1:0] src;
        reg [BANK_ADDR_WIDTH-1:0]           wr_row, wr_row_next;
        integer s, b;
        always @* begin
            bank_we = {SEG_COUNT{1'b0}};
            bank_waddr = {SEG_COUNT*BANK_ADDR_WIDTH{1'b0}};
            k = 32'd0;
            for (s = 0; s < SEG_COUNT; s = s + 1) k = k + {31'd0, in_valid[s]};
            wr_row = wr_ptr_reg[SEG_INDEX_WIDTH +: BANK_ADDR_WIDTH];
            wr_row_next = wr_row + {{(BANK_ADDR_WIDTH-1){1'b0}}, 1'b1};
            for (b = 0; b < SEG_COUNT; b = b + 1) begin
                next_bank[b] = (wr_ptr_reg[SEG_INDEX_WIDTH-1:0] == b[SEG_INDEX_WIDTH-1:0]);
                bank_waddr[b*BANK_ADDR_WIDTH +: BANK_ADDR_WIDTH] =
                    (b[SEG_INDEX_WIDTH-1:0] >= wr_ptr_reg[SEG_INDEX_WIDTH-1:0]) ? wr_row : wr_row_next;
                // (a bank not written keeps its own segment's data)
                src[b*SEG_INDEX_WIDTH +: SEG_INDEX_WIDTH] = b[SEG_INDEX_WIDTH-1:0];
            end
            for (s = 0; s < SEG_COUNT; s = s + 1) begin
                if (in_valid[s]) begin
                    for (b = 0; b < SEG_COUNT; b = b + 1) begin
                        if (next_bank[b]) begin
                            bank_we[b] = 1'b1;
                            src[b*SEG_INDEX_WIDTH +: SEG_INDEX_WIDTH] = s[SEG_INDEX_WIDTH-1:0];
                        end
                    end
                    next_bank = {next_bank[SEG_COUNT-2:0], next_bank[SEG_COUNT-1]};
                end
            end
            for (b = 0; b < SEG_COUNT; b = b + 1) begin
                bank_wdata[b*WIDTH +: WIDTH] = in_data[{{(32-SEG_INDEX_WIDTH){1'b0}}, src[b*SEG_INDEX_WIDTH +: SEG_INDEX_WIDTH]} * WIDTH +: WIDTH];
            end
        end
    end
endgenerate

wire [SEG_COUNT*WIDTH-1:0] bank_rdata;

// Read side: each bank's read address is a register (the address of its entry among the oldest
// SEG_COUNT), so a head's read is the LUT RAM read and the rotation, no add before it. A pop of
// n entries steps the banks holding the n oldest by one: both outcomes are made from registers
// and the pop only chooses between them. rd_sel_reg is rd_ptr mod SEG_COUNT (the bank of the
// oldest entry).
localparam [BANK_ADDR_WIDTH-1:0] BANK_ONE = 1;
reg [SEG_COUNT*BANK_ADDR_WIDTH-1:0] bank_raddr_reg = {SEG_COUNT*BANK_ADDR_WIDTH{1'b0}};
reg [SEG_COUNT*BANK_ADDR_WIDTH-1:0] bank_raddr_next;
reg [31:0]                          rd_sel_reg = 32'd0;
reg [31:0]                          rd_sel_next;
reg [PTR_WIDTH-1:0]                 rd_ptr_next;
reg [31:0]                          r, m;
always @* begin
    bank_raddr_next = bank_raddr_reg;
    rd_sel_next = rd_sel_reg;
    rd_ptr_next = rd_ptr_reg;
    // the banks holding the oldest out_pop entries: (bank - rd_sel) mod SEG_COUNT < out_pop; each
    // outcome made from registers, the pop count (an equality per value) only choosing
    for (m = 1; m <= SEG_32; m = m + 32'd1) begin
        if ({{(32-COUNT_WIDTH){1'b0}}, out_pop} == m) begin
            rd_sel_next = (rd_sel_reg + m) & MASK_32;
            rd_ptr_next = rd_ptr_reg + m[PTR_WIDTH-1:0];
            for (r = 0; r < SEG_32; r = r + 32'd1) begin
                if (((r - rd_sel_reg) & MASK_32) < m) begin
                    bank_raddr_next[r*BANK_ADDR_WIDTH +: BANK_ADDR_WIDTH] = bank_raddr_reg[r*BANK_ADDR_WIDTH +: BANK_ADDR_WIDTH] + BANK_ONE;
                end
            end
        end
    end
end

genvar g;
generate
    for (g = 0; g < SEG_COUNT; g = g + 1) begin : bank
        reg [WIDTH-1:0] mem [0:(1<<BANK_ADDR_WIDTH)-1];
        always @(posedge clk) begin
            if (bank_we[g]) begin
                mem[bank_waddr[g*BANK_ADDR_WIDTH +: BANK_ADDR_WIDTH]] <= bank_wdata[g*WIDTH +: WIDTH];
            end
        end
        assign bank_rdata[g*WIDTH +: WIDTH] = mem[bank_raddr_reg[g*BANK_ADDR_WIDTH +: BANK_ADDR_WIDTH]];
    end
endgenerate

// out segment j: entry rd_ptr + j, in bank (rd_sel + j) mod SEG_COUNT
generate
    if (SEG_COUNT == 1) begin : g_one_out
        always @* begin
            out_data = bank_rdata;
        end
    end else begin : g_many_out
        integer j, b;
        always @* begin
            out_data = bank_rdata;
            for (j = 0; j < SEG_COUNT; j = j + 1) begin
                for (b = 0; b < SEG_COUNT; b = b + 1) begin
                    if (((rd_sel_reg + j) & MASK_32) == b) begin
                        out_data[j*WIDTH +: WIDTH] = bank_rdata[b*WIDTH +: WIDTH];
                    end
                end
            end
        end
    end
endgenerate

always @(posedge clk) begin
    wr_ptr_reg <= wr_ptr_reg + k[PTR_WIDTH-1:0];
    rd_ptr_reg <= rd_ptr_next;
    bank_raddr_reg <= bank_raddr_next;
    rd_sel_reg <= rd_sel_next;
    if (rst) begin
        wr_ptr_reg <= {PTR_WIDTH{1'b0}};
        rd_ptr_reg <= {PTR_WIDTH{1'b0}};
        bank_raddr_reg <= {SEG_COUNT*BANK_ADDR_WIDTH{1'b0}};
        rd_sel_reg <= 32'd0;
    end
end
wire unused_k = &{1'b0, k[31:PTR_WIDTH], 1'b0};

generate
    if (REG_ROOM != 0) begin : g_reg_room
        // entries after this clock's write (the pops of this clock are seen on the next)
        wire [PTR_WIDTH-1:0] used_next = wr_ptr_reg + k[PTR_WIDTH-1:0] - rd_ptr_reg;
        wire [31:0]          used_next_32 = {{(32-PTR_WIDTH){1'b0}}, used_next};
        reg                  room_reg = 1'b0;
        always @(posedge clk) begin
            room_reg <= room_reg ? used_next_32 <= CAP2_32 : used_next_32 <= CAP_32;
            if (rst) begin
                room_reg <= 1'b0;
            end
        end
        assign room = room_reg;
    end else begin : g_room
        assign room = used_32 <= CAP_32;
    end
endgenerate

endmodule

`resetall
