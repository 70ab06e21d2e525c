`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Probe: passive tap of the request (RX) and completion (TX) TLP streams.
 *
 * A TLP is counted on the clock where valid & ready & sop is set in its segment;
 * ready is an input here, the probe never drives it. Up to TLP_SEG_COUNT TLPs start
 * per clock on each stream, so each counter adds a popcount (or a byte sum).
 *
 * Running counters, in spec/registers.json order (index PS_CNT_*): CYCLES (clocks
 * while enabled), TIMESTAMP (free-running, never cleared), one MRD_<size> per size
 * class (PS_CNT_SIZE_FIRST onwards, the catch-all MRD_OTHER last), MRD_BYTES
 * (requested bytes), CPLD_COUNT, CPLD_BYTES (payload bytes = Length * 4 of each CplD),
 * BAR_UR (UR completions: bar_ur, one bit per segment), CPL_COUNT (completions without data), MWR_COUNT,
 * MWR_BYTES (memory writes and their byte-enable exact bytes), POISONED (EP set, either tap).
 * With the address filter on, memory reads and writes outside [filter_base, filter_limit]
 * count nowhere (size classes, MRD_BYTES, MWR_*); CPLD_*, CPL_COUNT and POISONED stay the
 * wire's (a completion carries no address; the tracker and the sampler leave out the
 * completions of filtered-out reads). All but TIMESTAMP count only while 'enable'
 * is set. Every counter must be wired below (g_cnt picks each one's increment by index):
 * elaboration and lint stop when a spec counter has no increment, so a counter cannot
 * silently read 0. 'clear' zeroes them; 'snapshot' copies every counter into its shadow on
 * the same clock, so the shadow set is one consistent view.
 */
module probe_counters #
(
    // TLP segments per beat (straddled TLPs)
    parameter TLP_SEG_COUNT = 1,
    // counter width in bits
    parameter CNT_WIDTH = 64
)
(
    input  wire                           clk,
    input  wire                           rst,

    /*
     * Control (from the CSR block)
     */
    input  wire                           enable,
    input  wire                           clear,
    input  wire                           snapshot,
    output wire                           enabled,

    /*
     * Tap of the request stream
     */
    input  wire [TLP_SEG_COUNT*128-1:0]   rx_req_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]       rx_req_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]       rx_req_tlp_sop,
    input  wire                           rx_req_tlp_ready,

    /*
     * Tap of the completion stream
     */
    input  wire [TLP_SEG_COUNT*128-1:0]   tx_cpl_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]       tx_cpl_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]       tx_cpl_tlp_sop,
    input  wire                           tx_cpl_tlp_ready,

    /*
     * Unsupported Request answered by the BAR responder
     */
    // UR completions handed over this clock, one bit per segment (their number counts)
    input  wire [TLP_SEG_COUNT-1:0]       bar_ur,

    /*
     * Address filter (CSR FILTER_*): memory reads outside the window are not counted
     */
    input  wire                           filter_en,
    input  wire [63:0]                    filter_base,
    input  wire [63:0]                    filter_limit,

    /*
     * Shadow counters 0..PS_CNT_PROBE_COUNT-1, counter i at [i*CNT_WIDTH +: CNT_WIDTH]
     */
    output wire [`PS_CNT_PROBE_COUNT*CNT_WIDTH-1:0] cnt_shadow
);

// the counters this block owns (spec source "probe"); probe_tracker owns the rest
localparam CNT_COUNT = `PS_CNT_PROBE_COUNT;
localparam CLASS_COUNT = `PS_SIZE_CLASS_COUNT;
localparam SIZE_FIRST = `PS_CNT_SIZE_FIRST;
// one segment adds at most 4096 bytes
localparam INC_WIDTH = 13 + $clog2(TLP_SEG_COUNT+1);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLP_SEG_COUNT < 1 || TLP_SEG_COUNT > 8) begin : g_check_tlp_seg_count
        probe_counters_TLP_SEG_COUNT_must_be_1_to_8 unsupported_parameter ();
    end
    if (CNT_WIDTH <= INC_WIDTH || CNT_WIDTH > 64) begin : g_check_cnt_width
        probe_counters_CNT_WIDTH_must_exceed_INC_WIDTH_up_to_64 unsupported_parameter ();
    end
endgenerate

/*
 * Tap stage: the taps, the controls and the address filter are registered together, so every
 * counter sees exactly what it saw without the stage, one clock later (with the decode and sum
 * stages below, the shadows move three clocks after the command that asks for them; probe_csr
 * holds a read until then). The decode below then reads registers only: on the board a 512-bit tap
 * loads the PCIe block's bus with one flip-flop per bit instead of every decoder; in a
 * Verilated model the decode runs once a clock, not on every input change.
 */
reg [TLP_SEG_COUNT*128-1:0] rx_hdr_reg = {TLP_SEG_COUNT*128{1'b0}};
reg [TLP_SEG_COUNT*128-1:0] tx_hdr_reg = {TLP_SEG_COUNT*128{1'b0}};
// the TLPs that started on each tap (valid & sop & ready per segment)
reg [TLP_SEG_COUNT-1:0]     rx_evt = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     tx_evt = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     bar_ur_reg = {TLP_SEG_COUNT{1'b0}};
// tick: a clock of the tap stage after reset (TIMESTAMP counts them, as it counted clocks)
reg                         tick_reg = 1'b0;
reg                         enable_reg = 1'b0;
reg                         clear_reg = 1'b0;
reg                         snapshot_reg = 1'b0;
reg                         filter_en_reg = 1'b0;
reg [63:0]                  filter_base_reg = 64'd0;
reg [63:0]                  filter_limit_reg = 64'd0;

always @(posedge clk) begin
    rx_hdr_reg   <= rx_req_tlp_hdr;
    tx_hdr_reg   <= tx_cpl_tlp_hdr;
    rx_evt       <= rx_req_tlp_valid & rx_req_tlp_sop & {TLP_SEG_COUNT{rx_req_tlp_ready}};
    tx_evt       <= tx_cpl_tlp_valid & tx_cpl_tlp_sop & {TLP_SEG_COUNT{tx_cpl_tlp_ready}};
    bar_ur_reg   <= bar_ur;
    tick_reg     <= 1'b1;
    enable_reg   <= enable;
    clear_reg    <= clear;
    snapshot_reg <= snapshot;
    filter_en_reg    <= filter_en;
    filter_base_reg  <= filter_base;
    filter_limit_reg <= filter_limit;
    if (rst) begin
        rx_evt       <= {TLP_SEG_COUNT{1'b0}};
        tx_evt       <= {TLP_SEG_COUNT{1'b0}};
        bar_ur_reg   <= {TLP_SEG_COUNT{1'b0}};
        tick_reg     <= 1'b0;
        enable_reg   <= 1'b0;
        clear_reg    <= 1'b0;
        snapshot_reg <= 1'b0;
    end
end

// the classifier's size classes: the sum stage classifies the registered bytes instead
wire [TLP_SEG_COUNT*CLASS_COUNT-1:0] seg_class;
wire unused_seg_class = &{1'b0, seg_class, 1'b0};
wire [TLP_SEG_COUNT*13-1:0] seg_bytes;
wire [TLP_SEG_COUNT-1:0]    seg_mrd;
wire [TLP_SEG_COUNT-1:0]    seg_mwr;
wire [TLP_SEG_COUNT-1:0]    seg_cpld;
wire [TLP_SEG_COUNT*13-1:0] seg_cpld_bytes;
wire [TLP_SEG_COUNT-1:0]    seg_cpl;
// EP set: one bit per segment and tap
wire [TLP_SEG_COUNT-1:0]    seg_rx_ep;
wire [TLP_SEG_COUNT-1:0]    seg_tx_ep;

genvar seg;
generate
    for (seg = 0; seg < TLP_SEG_COUNT; seg = seg + 1) begin : g_seg
        wire [127:0] rx_hdr = rx_hdr_reg[seg*128 +: 128];
        wire [127:0] tx_hdr = tx_hdr_reg[seg*128 +: 128];

        wire        mem_read;
        wire        locked;
        wire        hdr_4dw;
        wire [10:0] len_dw;
        wire [1:0]  lead;
        wire        zero_len;
        wire [29:0] addr_dw;

        probe_mrd_classify classify_inst (
            .hdr(rx_hdr),
            .mem_read(mem_read),
            .locked(locked),
            .hdr_4dw(hdr_4dw),
            .len_dw(len_dw),
            .lead(lead),
            .req_bytes(seg_bytes[seg*13 +: 13]),
            .zero_len(zero_len),
            .addr_dw(addr_dw),
            .size_class(seg_class[seg*CLASS_COUNT +: CLASS_COUNT])
        );

        wire unused_classify = &{1'b0, locked, hdr_4dw, len_dw, lead, zero_len, addr_dw, 1'b0};

        wire in_window;

        probe_addr_filter filter_inst (
            .hdr(rx_hdr),
            .en(filter_en_reg),
            .base(filter_base_reg),
            .limit(filter_limit_reg),
            .in_window(in_window)
        );

        assign seg_mrd[seg] = rx_evt[seg] && mem_read && in_window;

        // memory write: Fmt 01x (3DW or 4DW, with data), Type 00000; its bytes by the enables
        // exactly as a read's (req_bytes), so the classifier serves both
        assign seg_mwr[seg] = rx_evt[seg] && (rx_hdr[127:126] == 2'b01) && (rx_hdr[124:120] == 5'b00000) && in_window;

        // completion with data: Fmt x1x (no prefix), Type 0101x; Length 0 = 1024 DW
        wire [9:0] cpl_len = tx_hdr[105:96];
        assign seg_cpld[seg] = tx_evt[seg] && (tx_hdr[127:126] == 2'b01) && (tx_hdr[124:121] == 4'b0101);
        assign seg_cpld_bytes[seg*13 +: 13] = {cpl_len == 10'd0, cpl_len, 2'b00};
        // completion without data: Fmt 000, Type 0101x (Cpl, CplLk), any status
        assign seg_cpl[seg] = tx_evt[seg] && (tx_hdr[127:125] == 3'b000) && (tx_hdr[124:121] == 4'b0101);

        // poisoned: EP (DW0 bit 14) on any TLP that is not a prefix (Fmt 1xx), whatever the
        // filter: a poisoned payload is worth seeing wherever it goes
        assign seg_rx_ep[seg] = rx_evt[seg] && !rx_hdr[127] && rx_hdr[110];
        assign seg_tx_ep[seg] = tx_evt[seg] && !tx_hdr[127] && tx_hdr[110];

        wire unused_tx_hdr = &{1'b0, tx_hdr[120:111], tx_hdr[109:106], tx_hdr[95:0], 1'b0};
    end
endgenerate

// per-clock increments
/*
 * Decode stage: each segment's events, gated by the enable, registered with the controls; then
 * the sum stage: the per-clock increments, registered. Each counter's add then starts from
 * flip-flops (a 64-bit carry chain and its clear); the decode with the address filter's
 * compares, and the size classes with the adds over the segments, each have a clock of their
 * own.
 */
reg [TLP_SEG_COUNT*13-1:0] d_bytes_reg = {TLP_SEG_COUNT*13{1'b0}};
reg [TLP_SEG_COUNT*13-1:0] d_cpld_bytes_reg = {TLP_SEG_COUNT*13{1'b0}};
reg [TLP_SEG_COUNT-1:0]    d_mrd_reg = {TLP_SEG_COUNT{1'b0}}, d_mwr_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]    d_cpld_reg = {TLP_SEG_COUNT{1'b0}}, d_cpl_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]    d_rx_ep_reg = {TLP_SEG_COUNT{1'b0}}, d_tx_ep_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]    d_bar_ur_reg = {TLP_SEG_COUNT{1'b0}};
// the controls of the decode and the sum stage: {tick, enable, clear, snapshot}
reg [3:0]                  d_ctl_reg = 4'd0, s_ctl_reg = 4'd0;

always @(posedge clk) begin
    d_bytes_reg      <= seg_bytes;
    d_cpld_bytes_reg <= seg_cpld_bytes;
    d_mrd_reg        <= seg_mrd & {TLP_SEG_COUNT{enable_reg}};
    d_mwr_reg        <= seg_mwr & {TLP_SEG_COUNT{enable_reg}};
    d_cpld_reg       <= seg_cpld & {TLP_SEG_COUNT{enable_reg}};
    d_cpl_reg        <= seg_cpl & {TLP_SEG_COUNT{enable_reg}};
    d_rx_ep_reg      <= seg_rx_ep & {TLP_SEG_COUNT{enable_reg}};
    d_tx_ep_reg      <= seg_tx_ep & {TLP_SEG_COUNT{enable_reg}};
    d_bar_ur_reg     <= bar_ur_reg & {TLP_SEG_COUNT{enable_reg}};
    d_ctl_reg        <= {tick_reg, enable_reg, clear_reg, snapshot_reg};
    s_ctl_reg        <= d_ctl_reg;
    if (rst) begin
        d_mrd_reg    <= {TLP_SEG_COUNT{1'b0}};
        d_mwr_reg    <= {TLP_SEG_COUNT{1'b0}};
        d_cpld_reg   <= {TLP_SEG_COUNT{1'b0}};
        d_cpl_reg    <= {TLP_SEG_COUNT{1'b0}};
        d_rx_ep_reg  <= {TLP_SEG_COUNT{1'b0}};
        d_tx_ep_reg  <= {TLP_SEG_COUNT{1'b0}};
        d_bar_ur_reg <= {TLP_SEG_COUNT{1'b0}};
        d_ctl_reg    <= 4'd0;
        s_ctl_reg    <= 4'd0;
    end
end

wire tick_s     = s_ctl_reg[3];
wire enable_s   = s_ctl_reg[2];
wire clear_s    = s_ctl_reg[1];
wire snapshot_s = s_ctl_reg[0];

// each segment's size class, from its registered bytes: one-hot, bit k < PS_SIZE_EXACT_COUNT for
// exactly PS_SIZE_EXACT_BYTES[k] bytes, the top bit for every other size (probe_mrd_classify's
// rule; its size_class, a clock earlier, would put the compares behind the byte count's subtract)
localparam EXACT_COUNT = `PS_SIZE_EXACT_COUNT;
localparam [EXACT_COUNT*13-1:0] EXACT_BYTES = `PS_SIZE_EXACT_BYTES;
wire [TLP_SEG_COUNT*CLASS_COUNT-1:0] d_class;

genvar x;
generate
    for (seg = 0; seg < TLP_SEG_COUNT; seg = seg + 1) begin : g_seg_class
        wire [EXACT_COUNT-1:0] exact_hit;
        for (x = 0; x < EXACT_COUNT; x = x + 1) begin : g_exact
            assign exact_hit[x] = d_bytes_reg[seg*13 +: 13] == EXACT_BYTES[x*13 +: 13];
        end
        assign d_class[seg*CLASS_COUNT +: CLASS_COUNT] = {~|exact_hit, exact_hit};
    end
endgenerate

// the event counts, as Boolean ones counts (probe_ones), zero-extended to the increment width
localparam ONES_WIDTH = $clog2(2*TLP_SEG_COUNT + 1);
localparam [INC_WIDTH-ONES_WIDTH-1:0] ONES_PAD = {(INC_WIDTH-ONES_WIDTH){1'b0}};

wire [CLASS_COUNT*ONES_WIDTH-1:0] ones_class;
wire [ONES_WIDTH-1:0] ones_cpld, ones_cpl, ones_mwr, ones_poisoned, ones_bar_ur;

genvar oc;
generate
    for (oc = 0; oc < CLASS_COUNT; oc = oc + 1) begin : g_class_ones
        wire [TLP_SEG_COUNT-1:0] class_hit;
        for (x = 0; x < TLP_SEG_COUNT; x = x + 1) begin : g_hit
            assign class_hit[x] = d_mrd_reg[x] && d_class[x*CLASS_COUNT + oc];
        end
        probe_ones #(.IN_WIDTH(TLP_SEG_COUNT), .OUT_WIDTH(ONES_WIDTH)) ones_inst (.v(class_hit), .count(ones_class[oc*ONES_WIDTH +: ONES_WIDTH]));
    end
endgenerate

probe_ones #(.IN_WIDTH(TLP_SEG_COUNT), .OUT_WIDTH(ONES_WIDTH)) cpld_ones_inst (.v(d_cpld_reg), .count(ones_cpld));
probe_ones #(.IN_WIDTH(TLP_SEG_COUNT), .OUT_WIDTH(ONES_WIDTH)) cpl_ones_inst (.v(d_cpl_reg), .count(ones_cpl));
probe_ones #(.IN_WIDTH(TLP_SEG_COUNT), .OUT_WIDTH(ONES_WIDTH)) mwr_ones_inst (.v(d_mwr_reg), .count(ones_mwr));
probe_ones #(.IN_WIDTH(2*TLP_SEG_COUNT), .OUT_WIDTH(ONES_WIDTH)) poisoned_ones_inst (.v({d_tx_ep_reg, d_rx_ep_reg}), .count(ones_poisoned));
probe_ones #(.IN_WIDTH(TLP_SEG_COUNT), .OUT_WIDTH(ONES_WIDTH)) bar_ur_ones_inst (.v(d_bar_ur_reg), .count(ones_bar_ur));

reg [CLASS_COUNT*INC_WIDTH-1:0] inc_class;
reg [INC_WIDTH-1:0] inc_mrd_bytes;
reg [INC_WIDTH-1:0] inc_cpld, inc_cpld_bytes, inc_cpl;
reg [INC_WIDTH-1:0] inc_mwr, inc_mwr_bytes;
reg [INC_WIDTH-1:0] inc_poisoned;
reg [INC_WIDTH-1:0] inc_bar_ur;
integer i;
integer k;

always @* begin
    inc_mrd_bytes  = {INC_WIDTH{1'b0}};
    inc_cpld_bytes = {INC_WIDTH{1'b0}};
    inc_mwr_bytes  = {INC_WIDTH{1'b0}};

    for (k = 0; k < CLASS_COUNT; k = k + 1) begin
        inc_class[k*INC_WIDTH +: INC_WIDTH] = {ONES_PAD, ones_class[k*ONES_WIDTH +: ONES_WIDTH]};
    end
    inc_cpld     = {ONES_PAD, ones_cpld};
    inc_cpl      = {ONES_PAD, ones_cpl};
    inc_mwr      = {ONES_PAD, ones_mwr};
    inc_poisoned = {ONES_PAD, ones_poisoned};
    inc_bar_ur   = {ONES_PAD, ones_bar_ur};

    for (i = 0; i < TLP_SEG_COUNT; i = i + 1) begin
        if (d_mrd_reg[i]) begin
            inc_mrd_bytes = inc_mrd_bytes + {{(INC_WIDTH-13){1'b0}}, d_bytes_reg[i*13 +: 13]};
        end
        if (d_mwr_reg[i]) begin
            inc_mwr_bytes = inc_mwr_bytes + {{(INC_WIDTH-13){1'b0}}, d_bytes_reg[i*13 +: 13]};
        end
        if (d_cpld_reg[i]) begin
            inc_cpld_bytes = inc_cpld_bytes + {{(INC_WIDTH-13){1'b0}}, d_cpld_bytes_reg[i*13 +: 13]};
        end
    end
end

reg [CLASS_COUNT*INC_WIDTH-1:0] inc_class_reg = {CLASS_COUNT*INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] inc_mrd_bytes_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] inc_cpld_reg = {INC_WIDTH{1'b0}}, inc_cpld_bytes_reg = {INC_WIDTH{1'b0}}, inc_cpl_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] inc_mwr_reg = {INC_WIDTH{1'b0}}, inc_mwr_bytes_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] inc_poisoned_reg = {INC_WIDTH{1'b0}};
reg [INC_WIDTH-1:0] inc_bar_ur_reg = {INC_WIDTH{1'b0}};

always @(posedge clk) begin
    inc_class_reg      <= inc_class;
    inc_mrd_bytes_reg  <= inc_mrd_bytes;
    inc_cpld_reg       <= inc_cpld;
    inc_cpld_bytes_reg <= inc_cpld_bytes;
    inc_cpl_reg        <= inc_cpl;
    inc_mwr_reg        <= inc_mwr;
    inc_mwr_bytes_reg  <= inc_mwr_bytes;
    inc_poisoned_reg   <= inc_poisoned;
    inc_bar_ur_reg     <= inc_bar_ur;
    if (rst) begin
        inc_class_reg      <= {CLASS_COUNT*INC_WIDTH{1'b0}};
        inc_mrd_bytes_reg  <= {INC_WIDTH{1'b0}};
        inc_cpld_reg       <= {INC_WIDTH{1'b0}};
        inc_cpld_bytes_reg <= {INC_WIDTH{1'b0}};
        inc_cpl_reg        <= {INC_WIDTH{1'b0}};
        inc_mwr_reg        <= {INC_WIDTH{1'b0}};
        inc_mwr_bytes_reg  <= {INC_WIDTH{1'b0}};
        inc_poisoned_reg   <= {INC_WIDTH{1'b0}};
        inc_bar_ur_reg     <= {INC_WIDTH{1'b0}};
    end
end

assign enabled = enable;

// the shadows: one register bus, counter c's slot written on a snapshot only (the CSR reads
// the bus as it stands; a Verilated model copies nothing on the clocks between)
reg [CNT_COUNT*CNT_WIDTH-1:0] shadow_reg = {CNT_COUNT*CNT_WIDTH{1'b0}};

assign cnt_shadow = shadow_reg;

genvar c;
generate
    for (c = 0; c < CNT_COUNT; c = c + 1) begin : g_cnt
        wire [CNT_WIDTH-1:0] snap_value;

        // the counter's increment, its own wire chosen at elaboration (one packed vector of
        // every increment would be zeroed, filled and sliced again by a Verilated model on
        // every clock). A counter of spec/registers.json that nothing here increments would
        // read 0 forever: elaboration (and lint) stops on the module that does not exist.
        wire [INC_WIDTH-1:0] cnt_inc;
        if (c == `PS_CNT_TIMESTAMP) begin : g_timestamp
            assign cnt_inc = {{(INC_WIDTH-1){1'b0}}, tick_s};
        end else if (c == `PS_CNT_CYCLES) begin : g_cycles
            assign cnt_inc = {{(INC_WIDTH-1){1'b0}}, enable_s};
        end else if (c >= SIZE_FIRST && c < SIZE_FIRST + CLASS_COUNT) begin : g_class
            assign cnt_inc = inc_class_reg[(c-SIZE_FIRST)*INC_WIDTH +: INC_WIDTH];
        end else if (c == `PS_CNT_MRD_BYTES) begin : g_mrd_bytes
            assign cnt_inc = inc_mrd_bytes_reg;
        end else if (c == `PS_CNT_CPLD_COUNT) begin : g_cpld
            assign cnt_inc = inc_cpld_reg;
        end else if (c == `PS_CNT_CPLD_BYTES) begin : g_cpld_bytes
            assign cnt_inc = inc_cpld_bytes_reg;
        end else if (c == `PS_CNT_BAR_UR) begin : g_bar_ur
            assign cnt_inc = inc_bar_ur_reg;
        end else if (c == `PS_CNT_CPL_COUNT) begin : g_cpl
            assign cnt_inc = inc_cpl_reg;
        end else if (c == `PS_CNT_MWR_COUNT) begin : g_mwr
            assign cnt_inc = inc_mwr_reg;
        end else if (c == `PS_CNT_MWR_BYTES) begin : g_mwr_bytes
            assign cnt_inc = inc_mwr_bytes_reg;
        end else if (c == `PS_CNT_POISONED) begin : g_poisoned
            assign cnt_inc = inc_poisoned_reg;
        end else begin : g_unwired
            assign cnt_inc = {INC_WIDTH{1'b0}};
            spec_counter_without_increment_in_probe_counters unwired_counter_error ();
        end

        probe_counter #(
            .CNT_WIDTH(CNT_WIDTH),
            .INC_WIDTH(INC_WIDTH)
        )
        counter_inst (
            .clk(clk),
            .rst(rst),
            .count_en(1'b1),
            .inc(cnt_inc),
            // the timestamp is never cleared
            .clear(clear_s && (c != `PS_CNT_TIMESTAMP)),
            .snap_value(snap_value)
        );

        always @(posedge clk) begin
            if (snapshot_s) begin
                shadow_reg[c*CNT_WIDTH +: CNT_WIDTH] <= snap_value;
            end
            if (rst) begin
                shadow_reg[c*CNT_WIDTH +: CNT_WIDTH] <= {CNT_WIDTH{1'b0}};
            end
        end
    end
endgenerate

endmodule

`resetall
