`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Probe CSR block: AXI4-Lite slave with the register map of spec/registers.json.
 *
 * Write address and write data are accepted independently (each into a holding
 * register); the write takes effect on the clock after both are held, the same clock
 * that raises BVALID. One read is in flight at a time: the read address is held for a
 * clock, then the register it names is read in two clocks: each group's word (the named
 * registers, the counters, a histogram bin, the sampler record, the trace window) into a
 * register of its own, then their OR into RDATA with RVALID (three clocks from the AR
 * handshake to RVALID: one 32-bit select over every register is too deep for a clock). Every input of the AXI port reaches only flip-flops, so a
 * Verilated model evaluates the CSR once a clock, not on every input change.
 * Every access gets OKAY: unmapped and write-only registers read 0, writes to
 * unmapped or read-only registers are ignored (firmware never traps on a probe read).
 * Byte lanes are honoured through WSTRB. Address bits [1:0] are ignored.
 *
 * CMD.SNAPSHOT and CMD.CLEAR act on the clock edge that raises BVALID (the pulses are decoded
 * from the held write, not registered), so any read issued after the write response already
 * sees the new shadows: firmware needs no ordering read (the shadows load SHADOW_LAG clocks
 * after the pulse, the probe's pipeline, and a read held here waits for them). CMD.SAMPLE_POP likewise: the next
 * read sees the next interval record (probe_sample_fifo reads ahead on the pop's clock).
 *
 * The histogram windows (from PS_REG_HIST_<KIND>_BASE, one per kind) show the tracker's
 * latency-histogram shadows, loaded by the same CMD.SNAPSHOT as the counters: read rarely (every
 * read costs bus cycles), after a snapshot. A histogram read answers HIST_READ_CLOCKS clocks
 * after the other registers' (the bin index is registered here, the tracker's read of the bin
 * takes two clocks more: a 64-bit select over the banks and their sum, too deep for one).
 *
 * SMP_* show the sampler FIFO's head record (0 while SAMPLE_STATUS reports it empty);
 * reading them has no side effect, so a retried read is harmless: only CMD.SAMPLE_POP
 * advances the FIFO. The info registers are build parameters, except LINK_GEN and LINK_WIDTH: the
 * link in use (link_gen, link_width), registered here once a clock; RCB follows CPL_SPLIT.
 */
module probe_csr #
(
    // probe clock frequency, reported in CLK_HZ
    parameter CLK_HZ = 250000000,
    // counter width in bits (the counters read as 64-bit LO/HI pairs)
    parameter CNT_WIDTH = 64,
    // info registers: Max_Payload_Size, Max_Read_Request_Size (bytes), tag bits, build identifier
    parameter MPS = 256,
    parameter MRRS = 512,
    parameter TAG_BITS = 8,
    parameter BUILD_ID = 0,
    // TAP_INFO: this window's tap id (spec taps.list) and the taps of the design
    parameter TAP_ID = 0,
    parameter TAP_COUNT = 1,
    // clocks from the edge that takes CMD.SNAPSHOT to the edge that loads the last shadow (the
    // probe's pipeline): a read waits for them, so it sees the snapshot
    parameter SHADOW_LAG = 0
)
(
    input  wire                               clk,
    input  wire                               rst,

    /*
     * AXI4-Lite slave
     */
    input  wire [11:0]                        s_axil_awaddr,
    input  wire                               s_axil_awvalid,
    output wire                               s_axil_awready,
    input  wire [31:0]                        s_axil_wdata,
    input  wire [3:0]                         s_axil_wstrb,
    input  wire                               s_axil_wvalid,
    output wire                               s_axil_wready,
    output wire [1:0]                         s_axil_bresp,
    output wire                               s_axil_bvalid,
    input  wire                               s_axil_bready,
    input  wire [11:0]                        s_axil_araddr,
    input  wire                               s_axil_arvalid,
    output wire                               s_axil_arready,
    output wire [31:0]                        s_axil_rdata,
    output wire [1:0]                         s_axil_rresp,
    output wire                               s_axil_rvalid,
    input  wire                               s_axil_rready,

    /*
     * Register outputs
     */
    output wire                               ctrl_enable,
    output wire                               cmd_snapshot,
    output wire                               cmd_clear,
    output wire [15:0]                        bar_latency,
    output wire [15:0]                        bar_jitter,
    output wire [7:0]                         cpl_split,
    output wire [17:0]                        sample_period,
    output wire                               sample_pop,
    output wire                               filter_en,
    output wire [63:0]                        filter_base,
    output wire [63:0]                        filter_limit,

    /*
     * Register inputs
     */
    input  wire                               status_enabled,
    input  wire [`PS_CNT_PROBE_COUNT*CNT_WIDTH-1:0]   probe_shadow,
    input  wire [`PS_CNT_TRACKER_COUNT*CNT_WIDTH-1:0] tracker_shadow,
    // the latency histograms: the bin the read address names (registered), and its shadow in
    // every histogram two clocks later (kind k, PS_HIST_*, at [k*CNT_WIDTH +: CNT_WIDTH])
    output wire [$clog2(`PS_HIST_BINS+1)-1:0]   hist_idx,
    input  wire [`PS_HIST_KINDS*CNT_WIDTH-1:0]  hist_words,
    input  wire [`PS_SMP_WORDS*32-1:0]        sample_head,
    input  wire [15:0]                        sample_level,
    input  wire [15:0]                        sample_depth,
    input  wire [31:0]                        sample_overflow,
    // the link the probe watches, as its port reports it: generation (Link Status speed
    // encoding: 1 = 2.5 GT/s .. 6 = 64 GT/s, 0 = unknown) and width in lanes (0 = unknown)
    input  wire [3:0]                         link_gen,
    input  wire [5:0]                         link_width,

    /*
     * The trace window (PS_TRC_WINDOW_BASE..): its writes, held as above and handed over on the
     * clock that raises BVALID; its read word, which the trace unit loads on the AR handshake
     */
    output wire                               trc_wr_fire,
    output wire [11:2]                        trc_waddr,
    output wire [31:0]                        trc_wdata,
    output wire [3:0]                         trc_wstrb,
    input  wire [31:0]                        trc_rdata
);

localparam CNT_COUNT = `PS_CNT_COUNT;
localparam [1:0] RESP_OKAY = 2'b00;
localparam [31:0] CLK_HZ_VALUE = CLK_HZ;
localparam [31:0] BAR_LATENCY_RESET_32 = `PS_REG_BAR_LATENCY_RESET;
localparam [15:0] BAR_LATENCY_RESET = BAR_LATENCY_RESET_32[15:0];
localparam [31:0] CPL_SPLIT_RESET_32 = `PS_REG_CPL_SPLIT_RESET;
localparam [7:0]  CPL_SPLIT_RESET = CPL_SPLIT_RESET_32[7:0];
localparam IDX_WIDTH = $clog2(CNT_COUNT);
localparam [31:0] MPS_VALUE = MPS;
localparam [31:0] MRRS_VALUE = MRRS;
localparam [31:0] TAG_BITS_VALUE = TAG_BITS;
localparam [31:0] BUILD_ID_VALUE = BUILD_ID;
localparam SMP_WORDS = `PS_SMP_WORDS;
localparam SMP_IDX_WIDTH = $clog2(SMP_WORDS);
localparam [11:0] SMP_END = `PS_REG_SMP_TS_LO + 12'd4 * SMP_WORDS;
// first address past the counter shadows
localparam [12:0] CNT_END = {1'b0, `PS_REG_CNT_BASE} + 13'd8 * CNT_COUNT;
// each histogram: bins then overflow, 64-bit words from its base
localparam HIST_WORDS = `PS_HIST_BINS + 1;
localparam HIST_IDX_WIDTH = $clog2(HIST_WORDS);
localparam HIST_KINDS = `PS_HIST_KINDS;
localparam [12:0] HIST_LAST_END = {1'b0, `PS_REG_HIST_LAST_BASE} + 13'd8 * HIST_WORDS;
localparam [12:0] HIST_FIRST_END = {1'b0, `PS_REG_HIST_FIRST_BASE} + 13'd8 * HIST_WORDS;
// HIST_LAYOUT: the histograms' layout, the spec's (bins << 16 | log2 first edge << 8 | log2 sub-bins)
localparam [15:0] HIST_BINS_16 = `PS_HIST_BINS;
localparam [7:0]  HIST_FIRST_EDGE_LOG2_8 = `PS_HIST_FIRST_EDGE_LOG2;
localparam [7:0]  HIST_SUB_BINS_LOG2_8 = `PS_HIST_SUB_BINS_LOG2;
localparam [31:0] HIST_LAYOUT_VALUE = {HIST_BINS_16, HIST_FIRST_EDGE_LOG2_8, HIST_SUB_BINS_LOG2_8};
localparam [7:0] TAP_ID_VALUE = TAP_ID;
localparam [7:0] TAP_COUNT_VALUE = TAP_COUNT;
localparam [31:0] TAP_INFO_VALUE = {16'd0, TAP_COUNT_VALUE, TAP_ID_VALUE};

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (CNT_WIDTH < 33 || CNT_WIDTH > 64) begin : g_check_cnt_width
        probe_csr_CNT_WIDTH_must_be_33_to_64 unsupported_parameter ();
    end
    if (CLK_HZ < 1) begin : g_check_clk_hz
        probe_csr_CLK_HZ_must_be_positive unsupported_parameter ();
    end
endgenerate

// 32-bit word w of the counters widened to 64 bits (counter w/2, high half when w is odd), from
// probe_counters' shadows or the tracker's, which follow them: one index into the two buses
// joined, no compare or subtract on the index. Read by the read decode on a read's clock only:
// a bus of every counter joined or widened by a wire would be rebuilt by a Verilated model on
// every clock
function [31:0] cnt_word_at(input [IDX_WIDTH:0] w);
    reg [CNT_COUNT*CNT_WIDTH-1:0] all;
    reg [63:0] wide;
    begin
        all = {tracker_shadow, probe_shadow};
        wide = 64'd0;
        wide[CNT_WIDTH-1:0] = all[w[IDX_WIDTH:1]*CNT_WIDTH +: CNT_WIDTH];
        cnt_word_at = w[0] ? wide[63:32] : wide[31:0];
    end
endfunction

// the addressed bin of each histogram, widened to 64 bits, kind k at [k*64 +: 64]
wire [HIST_KINDS*64-1:0] hist64;

genvar k;
generate
    for (k = 0; k < HIST_KINDS; k = k + 1) begin : g_hist
        if (CNT_WIDTH < 64) begin : g_pad
            assign hist64[k*64 +: 64] = {{(64-CNT_WIDTH){1'b0}}, hist_words[k*CNT_WIDTH +: CNT_WIDTH]};
        end else begin : g_full
            assign hist64[k*64 +: 64] = hist_words[k*CNT_WIDTH +: CNT_WIDTH];
        end
    end
endgenerate

// the link inputs, registered once: they may come from another block's status outputs
reg [3:0]  link_gen_reg = 4'd0;
reg [5:0]  link_width_reg = 6'd0;

reg        aw_held_reg = 1'b0;
// the write address's dword (bits [1:0] are ignored)
reg [11:2] awaddr_reg = 10'd0;
wire unused_awaddr_lanes = &{1'b0, s_axil_awaddr[1:0], 1'b0};
reg        w_held_reg = 1'b0;
reg [31:0] wdata_reg = 32'd0;
reg [3:0]  wstrb_reg = 4'd0;
reg        bvalid_reg = 1'b0;
reg        ar_held_reg = 1'b0;
reg [11:0] araddr_reg = 12'd0;
reg        rvalid_reg = 1'b0;
reg [31:0] rdata_reg = 32'd0;
// the read's first clock: each group's word, 0 unless the address falls in it (ORed into RDATA)
reg        rd_pend_reg = 1'b0;
reg [31:0] rd_named_reg = 32'd0;
reg [31:0] rd_cnt_reg = 32'd0;
reg [31:0] rd_hist_reg = 32'd0;
reg [31:0] rd_smp_reg = 32'd0;
reg [31:0] rd_trc_reg = 32'd0;

reg        enable_reg = 1'b0, enable_next;
reg        snapshot_pulse;
reg        clear_pulse;
reg [15:0] latency_reg = BAR_LATENCY_RESET, latency_next;
reg [15:0] jitter_reg = 16'd0, jitter_next;
// BAR_JITTER as written; bits 31:16 are not kept
reg [31:0] jitter_word;
wire unused_jitter_word = &{1'b0, jitter_word[31:16], 1'b0};
reg [7:0]  split_reg = CPL_SPLIT_RESET, split_next;
reg [17:0] period_reg = 18'd0, period_next;
reg        pop_pulse;
reg        filter_en_reg = 1'b0, filter_en_next;
reg [63:0] filter_base_reg = 64'd0, filter_base_next;
reg [63:0] filter_limit_reg = 64'd0, filter_limit_next;
// SAMPLE_PERIOD as written; bits 31:18 are not kept
reg [31:0] period_word;
wire unused_period_word = &{1'b0, period_word[31:18], 1'b0};

reg        write_fire;

// clocks until the shadows hold the last snapshot: a read is answered only at 0
localparam SETTLE_WIDTH = $clog2(SHADOW_LAG + 2);
localparam [SETTLE_WIDTH-1:0] SETTLE_CLOCKS = SHADOW_LAG;
reg [SETTLE_WIDTH-1:0] settle_reg = {SETTLE_WIDTH{1'b0}};
wire settled = settle_reg == {SETTLE_WIDTH{1'b0}};

// the read address's offsets into the counter and sampler windows; the low bits pick nothing,
// the high bits are range-checked against CNT_END and SMP_END
wire [11:0] cnt_off = araddr_reg - `PS_REG_CNT_BASE;
wire [11:0] smp_off = araddr_reg - `PS_REG_SMP_TS_LO;
wire unused_cnt_off = &{1'b0, cnt_off[1:0], cnt_off[11:3+IDX_WIDTH], 1'b0};
wire unused_smp_off = &{1'b0, smp_off[1:0], smp_off[11:2+SMP_IDX_WIDTH], 1'b0};

assign s_axil_awready = !aw_held_reg;
assign s_axil_wready  = !w_held_reg;
assign s_axil_bresp   = RESP_OKAY;
assign s_axil_bvalid  = bvalid_reg;
assign s_axil_arready = !rvalid_reg && !ar_held_reg && !rd_pend_reg;
assign s_axil_rdata   = rdata_reg;
assign s_axil_rresp   = RESP_OKAY;
assign s_axil_rvalid  = rvalid_reg;

assign ctrl_enable  = enable_reg;
assign cmd_snapshot = snapshot_pulse;
assign cmd_clear    = clear_pulse;
assign bar_latency  = latency_reg;
assign bar_jitter   = jitter_reg;
assign cpl_split    = split_reg;
assign sample_period = period_reg;
assign sample_pop    = pop_pulse;
assign filter_en     = filter_en_reg;
assign filter_base   = filter_base_reg;
assign filter_limit  = filter_limit_reg;

localparam [12:0] TRC_END = {1'b0, `PS_TRC_WINDOW_BASE} + `PS_TRC_WINDOW_BYTES;
function in_trc_window(input [11:0] addr);
    in_trc_window = {1'b0, addr} >= {1'b0, `PS_TRC_WINDOW_BASE} && {1'b0, addr} < TRC_END;
endfunction
assign trc_wr_fire = write_fire && in_trc_window({awaddr_reg, 2'b00});
assign trc_waddr   = awaddr_reg;
assign trc_wdata   = wdata_reg;
assign trc_wstrb   = wstrb_reg;

// a 32-bit register written through the byte strobes
function [31:0] lanes(input [31:0] old, input [31:0] data, input [3:0] strb);
    integer b;
    begin
        lanes = old;
        for (b = 0; b < 4; b = b + 1) begin
            if (strb[b]) begin
                lanes[b*8 +: 8] = data[b*8 +: 8];
            end
        end
    end
endfunction

// the low bits pick nothing; the high bits are range-checked against SMP_END
// the bin the read address names in the window it falls in (every probe_latency_hist answers
// with its shadow of that bin, hist_words)
wire in_hist_last  = {1'b0, araddr_reg} >= {1'b0, `PS_REG_HIST_LAST_BASE} && {1'b0, araddr_reg} < HIST_LAST_END;
wire in_hist_first = {1'b0, araddr_reg} >= {1'b0, `PS_REG_HIST_FIRST_BASE} && {1'b0, araddr_reg} < HIST_FIRST_END;
wire [11:0] hist_addr_off = araddr_reg - (in_hist_first ? `PS_REG_HIST_FIRST_BASE : `PS_REG_HIST_LAST_BASE);
wire in_hist = in_hist_last || in_hist_first;
wire in_cnt = {1'b0, araddr_reg} >= {1'b0, `PS_REG_CNT_BASE} && {1'b0, araddr_reg} < CNT_END;
wire in_smp = araddr_reg >= `PS_REG_SMP_TS_LO && araddr_reg < SMP_END;
// the bin index, registered; its words come two clocks after it, so a histogram read is
// answered on its fourth settled clock (hist_wait_reg counts them, a snapshot starts it over)
localparam [1:0] HIST_READ_CLOCKS = 2'd3;
reg [HIST_IDX_WIDTH-1:0] hist_idx_reg = {HIST_IDX_WIDTH{1'b0}};
reg [1:0] hist_wait_reg = 2'd0;
assign hist_idx = hist_idx_reg;
wire [63:0] hist_sel = in_hist_first ? hist64[`PS_HIST_FIRST*64 +: 64] : hist64[`PS_HIST_LAST*64 +: 64];
// bit 2 picks the word; the high bits are range-checked against the window's end
wire unused_hist_addr_off = &{1'b0, hist_addr_off[1:0], hist_addr_off[11:3+HIST_IDX_WIDTH], 1'b0};

// RCB in force: CPL_SPLIT when it names one, else 0 (split at MPS only)
wire [31:0] rcb_value = (split_reg == 8'd64 || split_reg == 8'd128) ? {24'd0, split_reg} : 32'd0;

// read decode of the named registers (0 elsewhere: the windows, which lie apart from them and from
// one another, are read as groups of their own); a function called only on the clock a read is
// accepted, so the register mux is evaluated once per read, not on every clock (what a Verilated
// twin pays for an always @* mux)
function [31:0] read_value_at(input [11:2] addr);
    begin
        read_value_at = 32'd0;

        case ({addr, 2'b00})
            `PS_REG_ID:          read_value_at = `PS_ID_MAGIC;
            `PS_REG_VERSION:     read_value_at = `PS_VERSION_VALUE;
            `PS_REG_CTRL:        read_value_at[`PS_REG_CTRL_ENABLE_BIT] = enable_reg;
            `PS_REG_STATUS:      read_value_at[`PS_REG_STATUS_ENABLED_BIT] = status_enabled;
            `PS_REG_CLK_HZ:      read_value_at = CLK_HZ_VALUE;
            `PS_REG_BAR_LATENCY: read_value_at = {16'd0, latency_reg};
            `PS_REG_BAR_JITTER:  read_value_at = {16'd0, jitter_reg};
            `PS_REG_CPL_SPLIT:   read_value_at = {24'd0, split_reg};
            `PS_REG_SAMPLE_PERIOD:   read_value_at = {14'd0, period_reg};
            `PS_REG_SAMPLE_STATUS:   read_value_at = {sample_depth, sample_level};
            `PS_REG_SAMPLE_OVERFLOW: read_value_at = sample_overflow;
            `PS_REG_FILTER_CTRL:     read_value_at[`PS_REG_FILTER_CTRL_EN_BIT] = filter_en_reg;
            `PS_REG_FILTER_BASE_LO:  read_value_at = filter_base_reg[31:0];
            `PS_REG_FILTER_BASE_HI:  read_value_at = filter_base_reg[63:32];
            `PS_REG_FILTER_LIMIT_LO: read_value_at = filter_limit_reg[31:0];
            `PS_REG_FILTER_LIMIT_HI: read_value_at = filter_limit_reg[63:32];
            `PS_REG_LINK_GEN:        read_value_at = {28'd0, link_gen_reg};
            `PS_REG_LINK_WIDTH:      read_value_at = {26'd0, link_width_reg};
            `PS_REG_MPS:             read_value_at = MPS_VALUE;
            `PS_REG_MRRS:            read_value_at = MRRS_VALUE;
            `PS_REG_RCB:             read_value_at = rcb_value;
            `PS_REG_TAG_BITS:        read_value_at = TAG_BITS_VALUE;
            `PS_REG_BUILD_ID:        read_value_at = BUILD_ID_VALUE;
            `PS_REG_HIST_LAYOUT:     read_value_at = HIST_LAYOUT_VALUE;
            `PS_REG_TAP_INFO:        read_value_at = TAP_INFO_VALUE;
            default:                 read_value_at = 32'd0;
        endcase
    end
endfunction

// the write decode reads registers only, so that what it drives (the counters' snapshot and
// clear) is not recomputed whenever an input changes (a Verilated model's input pass)
always @* begin
    enable_next   = enable_reg;
    snapshot_pulse = 1'b0;
    clear_pulse    = 1'b0;
    latency_next  = latency_reg;
    jitter_next   = jitter_reg;
    jitter_word   = 32'd0;
    split_next    = split_reg;
    period_next   = period_reg;
    period_word   = 32'd0;
    pop_pulse     = 1'b0;
    filter_en_next    = filter_en_reg;
    filter_base_next  = filter_base_reg;
    filter_limit_next = filter_limit_reg;

    write_fire = aw_held_reg && w_held_reg && !bvalid_reg;
    if (write_fire) begin
        case ({awaddr_reg, 2'b00})
            `PS_REG_CTRL: begin
                if (wstrb_reg[0]) begin
                    enable_next = wdata_reg[`PS_REG_CTRL_ENABLE_BIT];
                end
            end
            `PS_REG_CMD: begin
                if (wstrb_reg[0]) begin
                    snapshot_pulse = wdata_reg[`PS_REG_CMD_SNAPSHOT_BIT];
                    clear_pulse    = wdata_reg[`PS_REG_CMD_CLEAR_BIT];
                    pop_pulse      = wdata_reg[`PS_REG_CMD_SAMPLE_POP_BIT];
                end
            end
            `PS_REG_BAR_LATENCY: begin
                if (wstrb_reg[0]) begin
                    latency_next[7:0] = wdata_reg[7:0];
                end
                if (wstrb_reg[1]) begin
                    latency_next[15:8] = wdata_reg[15:8];
                end
            end
            `PS_REG_BAR_JITTER: begin
                jitter_word = lanes({16'd0, jitter_reg}, wdata_reg, wstrb_reg);
                jitter_next = jitter_word[15:0];
            end
            `PS_REG_CPL_SPLIT: begin
                if (wstrb_reg[0]) begin
                    split_next = wdata_reg[7:0];
                end
            end
            `PS_REG_SAMPLE_PERIOD: begin
                period_word = lanes({14'd0, period_reg}, wdata_reg, wstrb_reg);
                period_next = period_word[17:0];
            end
            `PS_REG_FILTER_CTRL: begin
                if (wstrb_reg[0]) begin
                    filter_en_next = wdata_reg[`PS_REG_FILTER_CTRL_EN_BIT];
                end
            end
            `PS_REG_FILTER_BASE_LO:  filter_base_next[31:0]   = lanes(filter_base_reg[31:0], wdata_reg, wstrb_reg);
            `PS_REG_FILTER_BASE_HI:  filter_base_next[63:32]  = lanes(filter_base_reg[63:32], wdata_reg, wstrb_reg);
            `PS_REG_FILTER_LIMIT_LO: filter_limit_next[31:0]  = lanes(filter_limit_reg[31:0], wdata_reg, wstrb_reg);
            `PS_REG_FILTER_LIMIT_HI: filter_limit_next[63:32] = lanes(filter_limit_reg[63:32], wdata_reg, wstrb_reg);
            default: begin
                // read-only or unmapped: ignored
            end
        endcase
    end
end

always @(posedge clk) begin
    link_gen_reg   <= link_gen;
    link_width_reg <= link_width;
end

// the AXI4-Lite channels: hold address and data until both are here and B is free; one read in
// flight, its address held a clock before the register it names answers (later assignments win)
always @(posedge clk) begin
    if (s_axil_awvalid && !aw_held_reg) begin
        aw_held_reg <= 1'b1;
        awaddr_reg  <= s_axil_awaddr[11:2];
    end
    if (s_axil_wvalid && !w_held_reg) begin
        w_held_reg <= 1'b1;
        wdata_reg  <= s_axil_wdata;
        wstrb_reg  <= s_axil_wstrb;
    end
    if (bvalid_reg && s_axil_bready) begin
        bvalid_reg <= 1'b0;
    end
    if (write_fire) begin
        aw_held_reg <= 1'b0;
        w_held_reg  <= 1'b0;
        bvalid_reg  <= 1'b1;
    end

    if (s_axil_arvalid && !rvalid_reg && !ar_held_reg) begin
        ar_held_reg <= 1'b1;
        araddr_reg  <= s_axil_araddr;
    end
    if (snapshot_pulse) begin
        settle_reg <= SETTLE_CLOCKS;
    end else if (!settled) begin
        settle_reg <= settle_reg - 1'b1;
    end
    hist_idx_reg <= hist_addr_off[3 +: HIST_IDX_WIDTH];
    if (ar_held_reg && settled && !snapshot_pulse) begin
        if (hist_wait_reg != HIST_READ_CLOCKS) begin
            hist_wait_reg <= hist_wait_reg + 2'd1;
        end
    end else begin
        hist_wait_reg <= 2'd0;
    end
    // the read's two clocks: the groups' words, then their OR (the windows are apart, so at most
    // one group is not 0)
    rd_pend_reg <= 1'b0;
    if (ar_held_reg && settled && (!in_hist || hist_wait_reg == HIST_READ_CLOCKS)) begin
        hist_wait_reg <= 2'd0;
        ar_held_reg <= 1'b0;
        rd_pend_reg <= 1'b1;
        rd_named_reg <= read_value_at(araddr_reg[11:2]);
        rd_cnt_reg   <= in_cnt ? cnt_word_at(cnt_off[2 +: IDX_WIDTH+1]) : 32'd0;
        rd_hist_reg  <= in_hist ? (hist_addr_off[2] ? hist_sel[63:32] : hist_sel[31:0]) : 32'd0;
        rd_trc_reg   <= in_trc_window(araddr_reg) ? trc_rdata : 32'd0;
        // the sampler FIFO head reads 0 while the FIFO is empty
        rd_smp_reg   <= (in_smp && sample_level != 16'd0) ? sample_head[{smp_off[2 +: SMP_IDX_WIDTH], 5'd0} +: 32] : 32'd0;
    end
    if (rd_pend_reg) begin
        rvalid_reg <= 1'b1;
        rdata_reg  <= rd_named_reg | rd_cnt_reg | rd_hist_reg | rd_trc_reg | rd_smp_reg;
    end
    if (rvalid_reg && s_axil_rready) begin
        rvalid_reg <= 1'b0;
    end

    enable_reg   <= enable_next;
    latency_reg  <= latency_next;
    jitter_reg   <= jitter_next;
    split_reg    <= split_next;
    period_reg   <= period_next;
    filter_en_reg    <= filter_en_next;
    filter_base_reg  <= filter_base_next;
    filter_limit_reg <= filter_limit_next;

    if (rst) begin
        aw_held_reg  <= 1'b0;
        w_held_reg   <= 1'b0;
        bvalid_reg   <= 1'b0;
        ar_held_reg  <= 1'b0;
        rd_pend_reg  <= 1'b0;
        hist_wait_reg <= 2'd0;
        rvalid_reg   <= 1'b0;
        settle_reg   <= {SETTLE_WIDTH{1'b0}};
        enable_reg   <= 1'b0;
        latency_reg  <= BAR_LATENCY_RESET;
        jitter_reg   <= 16'd0;
        split_reg    <= CPL_SPLIT_RESET;
        period_reg   <= 18'd0;
        filter_en_reg    <= 1'b0;
        filter_base_reg  <= 64'd0;
        filter_limit_reg <= 64'd0;
    end
end

endmodule

`resetall
