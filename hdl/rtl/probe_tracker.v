`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Outstanding-read tracker: a passive tap of the request and completion streams that
 * follows every memory read from its request to its last completion and keeps
 * occupancy and latency statistics.
 *
 * Taps as in probe_counters: up to TLP_SEG_COUNT TLP starts per stream per clock, a TLP
 * counts on valid & ready & sop of its segment, the probe never drives ready.
 *
 * Keying: by tag only (TAG_WIDTH 8, or 10 with T9/T8 from DW0), with the Requester ID
 * stored and checked. A probe on one link sees one requester's tag space in practice (a
 * GPU or a root port), which a tag-indexed table covers completely with no hashing, no
 * collisions and no requester table to overflow. A completion whose Requester ID differs
 * from the stored one is unexpected; a second requester reusing a live tag shows as
 * TAG_REUSE, so a mixed stream is visible in the counters, never silently mismatched.
 *
 * Per clock, in this order (probe_tracker_table): completions in segment order (a later
 * segment sees the effect of an earlier one on the same tag), then the timeout scan, then
 * requests in segment order. So a completion never matches a read starting in the same
 * clock, and a read started on a busy tag retires the older one (TAG_REUSE).
 *
 * Completion rules (docs/pcie.md):
 * - SC with data: carries Length*4 - LowerAddress[1:0] bytes; it is the last when its Byte
 *   Count (0 = 4096) is at most that. MISMATCH when the Byte Count differs from the bytes
 *   still expected (requested bytes, 1 for a zero-length read, less what earlier
 *   completions carried); the expected count keeps following the carried bytes, so one bad
 *   Byte Count counts once. The first one gives the first-completion latency and its
 *   histogram bin, the last the last-completion latency and its bin (one completion, both).
 * - UR, CA, other status: ends the read at once (CPL_UR, CPL_CA, CPL_OTHER).
 * - SC without data: ends the read; MISMATCH (it carried none of the expected bytes).
 * - no outstanding read on the tag, or another Requester ID: UNEXPECTED, nothing changes.
 * Latency = clock of the completion - clock of the request, at the tap.
 *
 * Address filter: a memory read whose address is outside [filter_base, filter_limit]
 * (probe_addr_filter) is not tracked, so it adds to no statistic. Its completions must not
 * count as UNEXPECTED either: a bit per tag remembers "this tag's read was filtered out";
 * a completion on such a tag is dropped before the table (whatever its Requester ID) and
 * clears the bit when it ends the read (error status, no data, or Byte Count at most the
 * bytes it carries: the table's own "last" rule). A read on the tag sets or clears the bit
 * by its own address. Completions are decided before requests within a clock, as in the
 * table. Limit: a filtered-out read reusing a tag whose tracked read is still outstanding
 * does not show as TAG_REUSE; the older read times out instead (a protocol violation by
 * the requester in any case).
 *
 * Timeout: a scan checks one tag per clock (tag n mod 2**TAG_WIDTH at tap clock n, n = 0 on
 * the first clock after reset) and retires a read that is TIMEOUT_CYCLES or more clocks
 * old: a read is timed out between TIMEOUT_CYCLES and TIMEOUT_CYCLES + 2**TAG_WIDTH - 1
 * clocks after its request. A completion before that counts normally.
 *
 * Statistics, one CNT_WIDTH word each on stat_shadow, index = probe_tracker_stats STAT_*:
 *   0 OUTSTANDING  1 PEAK  2 OCC_SUM  3 CYCLES  4 STARTED  5 RETIRED
 *   6..9 FIRST_MIN/MAX/SUM/COUNT  10..13 LAST_MIN/MAX/SUM/COUNT
 *   14 CPL_UR  15 CPL_CA  16 CPL_OTHER  17 UNEXPECTED  18 MISMATCH  19 TIMEOUT  20 TAG_REUSE
 * and on hist_shadow, word h*(LAT_BINS+1) + k: bin k of the histogram of kind h
 *   (PS_HIST_LAST 0: last-, PS_HIST_FIRST 1: first-completion latency in bin k of the log-spaced
 *   layout of probe_hist_bin_index), bin LAT_BINS its overflow bin. The histograms' shadows
 *   move one clock after the others (their bin index is registered).
 * Event statistics count only while 'enable', 'clear' empties them, 'snapshot' copies all
 * of them in one clock including that clock's events, as in probe_counters. OUTSTANDING is
 * the live count (the table is never cleared and tracks reads whatever the enable). The
 * taps go through four register stages (T, A, B and the statistics' R), so the shadows show
 * a snapshot taken at tap clock n from the clock after edge n+4 (one clock after
 * probe_counters', whose taps go through three); enable, clear and snapshot are delayed with
 * the taps, so both blocks' snapshots cover the same TLPs.
 */
module probe_tracker #
(
    // TLP segments per beat (straddled TLPs)
    parameter TLP_SEG_COUNT = 1,
    // tag bits used as the table index: 8, or 10 (PCIe 4.0 10-bit tags)
    parameter TAG_WIDTH = 8,
    // statistic width in bits
    parameter CNT_WIDTH = 64,
    // a read this many clocks old is retired by the timeout scan (1 ms at 250 MHz)
    parameter TIMEOUT_CYCLES = 250000,
    // first- and last-completion latency histograms: bins before the overflow bin, log2 of the
    // sub-bins per octave and of the first octave's lower edge in clocks (probe_hist_bin_index)
    parameter LAT_BINS = 88,
    parameter LAT_SUB_BINS_LOG2 = 3,
    parameter LAT_FIRST_EDGE_LOG2 = 3
)
(
    input  wire                           clk,
    input  wire                           rst,

    /*
     * Control
     */
    input  wire                           enable,
    input  wire                           clear,
    input  wire                           snapshot,

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
     * Address filter (CSR FILTER_*): reads outside the window are not tracked
     */
    input  wire                           filter_en,
    input  wire [63:0]                    filter_base,
    input  wire [63:0]                    filter_limit,

    /*
     * Per-clock taps for probe_sampler, all for the same tap clock (three clocks after it):
     * control, reads started and their requested bytes, completions with data and their
     * payload bytes (Length * 4; filtered-out reads' completions excluded), first
     * completions with their latency (zero-extended to 32 bits), reads outstanding
     */
    output wire                           smp_enable,
    output wire                           smp_clear,
    output wire [2:0]                     smp_mrd,
    output wire [14:0]                    smp_mrd_bytes,
    output wire [2:0]                     smp_cpld,
    output wire [14:0]                    smp_cpld_bytes,
    output wire [TLP_SEG_COUNT-1:0]       smp_first,
    output wire [TLP_SEG_COUNT*32-1:0]    smp_latency,
    output wire [TAG_WIDTH:0]             smp_outstanding,
    // for the trace unit's trigger, with the taps above: an unexpected completion per segment,
    // the timeout scan retiring a read
    output wire [TLP_SEG_COUNT-1:0]       smp_unexpected,
    output wire                           smp_timeout,

    /*
     * Statistic shadows, statistic i at [i*CNT_WIDTH +: CNT_WIDTH] (probe_tracker_stats STAT_*)
     */
    output wire [`PS_CNT_TRACKER_COUNT*CNT_WIDTH-1:0] stat_shadow,
    // every histogram's bins (probe_tracker_stats hist_shadow; for benches)
    output wire [`PS_HIST_KINDS*(LAT_BINS+1)*CNT_WIDTH-1:0] hist_shadow,
    // the latency histograms' shadows of bin hist_rd_idx, kind k (PS_HIST_*) at
    // [k*CNT_WIDTH +: CNT_WIDTH], two clocks after the index (probe_latency_hist; a design
    // reads these, not stat_shadow's bins)
    input  wire [$clog2(LAT_BINS+1)-1:0]          hist_rd_idx,
    output wire [`PS_HIST_KINDS*CNT_WIDTH-1:0]    hist_rd_words
);

localparam SEG_COUNT = TLP_SEG_COUNT;

// a read leaves the table at most TIMEOUT_CYCLES + 2**TAG_WIDTH - 1 clocks old; one more
// value stays free so an all-ones latency means "none"
localparam AGE_WIDTH = $clog2(TIMEOUT_CYCLES + (1 << TAG_WIDTH) + 1);

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (SEG_COUNT < 1 || SEG_COUNT > 4) begin : g_check_tlp_seg_count
        probe_tracker_TLP_SEG_COUNT_must_be_1_to_4 unsupported_parameter ();
    end
    if (TAG_WIDTH != 8 && TAG_WIDTH != 10) begin : g_check_tag_width
        probe_tracker_TAG_WIDTH_must_be_8_or_10 unsupported_parameter ();
    end
    if (TIMEOUT_CYCLES < 1 || AGE_WIDTH > 32) begin : g_check_timeout_cycles
        probe_tracker_TIMEOUT_CYCLES_must_be_from_1_with_ages_within_32_bits unsupported_parameter ();
    end
    if (CNT_WIDTH < AGE_WIDTH + 4 || CNT_WIDTH > 64) begin : g_check_cnt_width
        probe_tracker_CNT_WIDTH_must_be_AGE_WIDTH_plus_4_to_64 unsupported_parameter ();
    end
endgenerate

/*
 * Stage T: the taps, the controls and the address filter registered together (a 512-bit tap
 * loads the link's bus with one flip-flop per bit, and the decode starts from flip-flops; only a
 * completion's "covers its Byte Count" is compared on the tap, from 24 header bits)
 */
reg [SEG_COUNT*128-1:0] t_rx_hdr_reg = {SEG_COUNT*128{1'b0}};
reg [SEG_COUNT*128-1:0] t_tx_hdr_reg = {SEG_COUNT*128{1'b0}};
reg [SEG_COUNT-1:0]     rx_evt = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]     tx_evt = {SEG_COUNT{1'b0}};
reg [2:0]               t_ctl_reg = 3'd0;
reg                     t_filter_en_reg = 1'b0;
reg [63:0]              t_filter_base_reg = 64'd0;
reg [63:0]              t_filter_limit_reg = 64'd0;

// a completion header carries the rest of its Byte Count: Byte Count <= Length * 4 - Lower
// Address[1:0], compared as Byte Count + Lower Address[1:0] <= Length * 4 (no subtraction
// before the compare), each field's 4096-byte form (0) apart. On the tap, so that stage T's
// clears of filtered-out bits and the table's 'last' start from a flip-flop
function covers_of(input [11:0] bc, input [9:0] len, input [1:0] la);
    reg [12:0] bc_la;
    begin
        bc_la = {1'b0, bc} + {11'd0, la};
        if (bc == 12'd0) begin
            covers_of = len == 10'd0 && la == 2'b00;
        end else if (len == 10'd0) begin
            covers_of = !bc_la[12] || (bc_la[11:0] == 12'd0);
        end else begin
            covers_of = bc_la <= {1'b0, len, 2'b00};
        end
    end
endfunction

reg [SEG_COUNT-1:0] t_covers_reg = {SEG_COUNT{1'b0}};
integer c;

always @(posedge clk) begin
    for (c = 0; c < SEG_COUNT; c = c + 1) begin
        t_covers_reg[c] <= covers_of(tx_cpl_tlp_hdr[c*128 + 64 +: 12], tx_cpl_tlp_hdr[c*128 + 96 +: 10], tx_cpl_tlp_hdr[c*128 + 32 +: 2]);
    end
end

always @(posedge clk) begin
    t_rx_hdr_reg       <= rx_req_tlp_hdr;
    t_tx_hdr_reg       <= tx_cpl_tlp_hdr;
    rx_evt             <= rx_req_tlp_valid & rx_req_tlp_sop & {SEG_COUNT{rx_req_tlp_ready}};
    tx_evt             <= tx_cpl_tlp_valid & tx_cpl_tlp_sop & {SEG_COUNT{tx_cpl_tlp_ready}};
    t_ctl_reg          <= {enable, clear, snapshot};
    t_filter_en_reg    <= filter_en;
    t_filter_base_reg  <= filter_base;
    t_filter_limit_reg <= filter_limit;
    if (rst) begin
        rx_evt    <= {SEG_COUNT{1'b0}};
        tx_evt    <= {SEG_COUNT{1'b0}};
        t_ctl_reg <= 3'd0;
    end
end

/*
 * Stage A: decode the taps, register what the table needs
 */

wire [SEG_COUNT-1:0]           req_seen;
wire [SEG_COUNT-1:0]           req_in;
wire [SEG_COUNT*13-1:0]        req_bytes_seg;
wire [SEG_COUNT*13-1:0]        cpl_dbytes;
wire [SEG_COUNT-1:0]           cpl_final;
// the completion carries the rest of its Byte Count (the table's 'last', registered with stage A)
wire [SEG_COUNT-1:0]           cpl_covers;
wire [SEG_COUNT-1:0]           cpl_seen;
wire [SEG_COUNT*TAG_WIDTH-1:0] req_tag;
wire [SEG_COUNT*16-1:0]        req_rid;
wire [SEG_COUNT*13-1:0]        req_expect;
wire [SEG_COUNT*TAG_WIDTH-1:0] cpl_tag;
wire [SEG_COUNT*16-1:0]        cpl_rid;
wire [SEG_COUNT*3-1:0]         cpl_status;
wire [SEG_COUNT-1:0]           cpl_data;
wire [SEG_COUNT*13-1:0]        cpl_bc;
wire [SEG_COUNT*13-1:0]        cpl_carried;

genvar seg;
generate
    for (seg = 0; seg < SEG_COUNT; seg = seg + 1) begin : g_seg
        wire [127:0] rx_hdr = t_rx_hdr_reg[seg*128 +: 128];
        wire [127:0] tx_hdr = t_tx_hdr_reg[seg*128 +: 128];

        wire        mem_read;
        wire        locked;
        wire        hdr_4dw;
        wire [10:0] len_dw;
        wire [1:0]  lead;
        wire [12:0] req_bytes;
        wire        zero_len;
        wire [29:0] addr_dw;
        wire [`PS_SIZE_CLASS_COUNT-1:0] size_class;

        probe_mrd_classify classify_inst (
            .hdr(rx_hdr),
            .mem_read(mem_read),
            .locked(locked),
            .hdr_4dw(hdr_4dw),
            .len_dw(len_dw),
            .lead(lead),
            .req_bytes(req_bytes),
            .zero_len(zero_len),
            .addr_dw(addr_dw),
            .size_class(size_class)
        );

        wire unused_classify = &{1'b0, locked, hdr_4dw, len_dw, lead, addr_dw, size_class, 1'b0};

        // 10-bit tags: T9, T8 in DW0, Tag[7:0] in DW1 (requests) or DW2 (completions)
        wire [9:0] rx_tag10 = {rx_hdr[119], rx_hdr[115], rx_hdr[79:72]};
        wire [9:0] tx_tag10 = {tx_hdr[119], tx_hdr[115], tx_hdr[47:40]};

        wire in_window;

        probe_addr_filter filter_inst (
            .hdr(rx_hdr),
            .en(t_filter_en_reg),
            .base(t_filter_base_reg),
            .limit(t_filter_limit_reg),
            .in_window(in_window)
        );

        assign req_seen[seg] = rx_evt[seg] && mem_read;
        assign req_in[seg] = in_window;
        assign req_bytes_seg[seg*13 +: 13] = req_bytes;
        assign req_tag[seg*TAG_WIDTH +: TAG_WIDTH] = rx_tag10[TAG_WIDTH-1:0];
        assign req_rid[seg*16 +: 16] = rx_hdr[95:80];
        // a zero-length read is answered with Byte Count 1
        assign req_expect[seg*13 +: 13] = zero_len ? 13'd1 : req_bytes;

        // Cpl, CplD, CplLk, CplDLk: Fmt 0x0, Type 0101x
        wire [9:0]  cpl_len    = tx_hdr[105:96];
        wire [11:0] byte_count = tx_hdr[75:64];
        wire [1:0]  lower_addr = tx_hdr[33:32];
        wire        with_data  = tx_hdr[126];

        assign cpl_seen[seg] = tx_evt[seg] && !tx_hdr[127] && !tx_hdr[125] && (tx_hdr[124:121] == 4'b0101);
        assign cpl_tag[seg*TAG_WIDTH +: TAG_WIDTH] = tx_tag10[TAG_WIDTH-1:0];
        assign cpl_rid[seg*16 +: 16] = tx_hdr[63:48];
        assign cpl_status[seg*3 +: 3] = tx_hdr[79:77];
        assign cpl_data[seg] = with_data;
        // Byte Count and Length: 0 means 4096 bytes / 1024 DW
        assign cpl_bc[seg*13 +: 13] = {byte_count == 12'd0, byte_count};
        assign cpl_carried[seg*13 +: 13] = with_data ? ({cpl_len == 10'd0, cpl_len, 2'b00} - {11'd0, lower_addr}) : 13'd0;
        assign cpl_dbytes[seg*13 +: 13] = with_data ? {cpl_len == 10'd0, cpl_len, 2'b00} : 13'd0;
        // ends its read: error status, no data, or the rest of the Byte Count carried (compared
        // on the tap, registered with it: t_covers_reg)
        assign cpl_covers[seg] = t_covers_reg[seg];
        assign cpl_final[seg] = (tx_hdr[79:77] != 3'b000) || !with_data || cpl_covers[seg];

        // the untagged high tag bits with 8-bit tags, and fields the tracker does not use
        wire unused_hdr = &{1'b0, rx_tag10, tx_tag10, tx_hdr[120], tx_hdr[118:116], tx_hdr[114:106], tx_hdr[95:80],
                               tx_hdr[76], tx_hdr[39:34], tx_hdr[31:0], 1'b0};
    end
endgenerate

/*
 * Filtered-out reads: one bit per tag (see the header comment), LUT RAM
 */
// A reset empties the tag state though its RAMs have no reset: each word carries the epoch it
// was written in, the epoch flips at each reset, and a word of another epoch reads as empty
reg epoch_reg = 1'b0;
reg rst_reg = 1'b0;

always @(posedge clk) begin
    rst_reg <= rst;
    if (rst && !rst_reg) begin
        epoch_reg <= !epoch_reg;
    end
end

// The bits, {epoch, filtered out} per tag, read at each completion's tag and at a sweep tag:
// written by the completions of a filtered-out read (0 by the one that ends it), the sweep (0, on a set bit of
// another epoch: every tag within 2**TAG_WIDTH clocks of a reset, so a bit cannot come back
// after the next one), then the requests (1 when outside the window); the later write wins
reg  [TAG_WIDTH-1:0]   sweep_reg = {TAG_WIDTH{1'b0}};
wire [2*SEG_COUNT+1:0] out_rd;
reg  [2*SEG_COUNT:0]   out_wr_en;
reg  [4*SEG_COUNT+1:0] out_wr_data;
wire [SEG_COUNT:0]     out_stale;

always @(posedge clk) begin
    sweep_reg <= sweep_reg + {{(TAG_WIDTH-1){1'b0}}, 1'b1};
end

probe_xor_ram #(
    .ADDR_WIDTH(TAG_WIDTH),
    .DATA_WIDTH(2),
    .WR_PORTS(2*SEG_COUNT + 1),
    .RD_PORTS(SEG_COUNT + 1)
)
out_ram_inst (
    .clk(clk),
    .wr_en(out_wr_en),
    .wr_addr({req_tag, sweep_reg, cpl_tag}),
    .wr_data(out_wr_data),
    .rd_addr({sweep_reg, cpl_tag}),
    .rd_data(out_rd)
);

reg [SEG_COUNT-1:0] req_start;
reg [SEG_COUNT-1:0] cpl_start;
// a completion's view of its tag's bit (read before this clock's writes, with earlier segments'
// clears by tag compare), and the completions' writes of it: every completion writes its tag's
// word in the current epoch, the bit 1 only when it was set and neither it nor an earlier one of
// its tag ended the read (a word it found clear or stale is rewritten clear, which reads the
// same). So the write enables are the tap's registered valid bits, and what the RAM read found
// reaches the banks only as data: it does not pass through the higher-port-wins compares and the
// banks' write-address decode as well
reg                 view_out, ended;
reg [SEG_COUNT-1:0] out_keep;
integer s, j;

genvar o;
generate
    for (o = 0; o <= SEG_COUNT; o = o + 1) begin : g_out_stale
        assign out_stale[o] = out_rd[2*o + 1] != epoch_reg;
    end
endgenerate

always @* begin
    cpl_start = cpl_seen;
    out_keep  = {SEG_COUNT{1'b0}};
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        // an earlier segment on the same tag read the same bit: it cleared it if it saw it set
        // and ended its read, so it is enough that one ended a read (no chain of clears)
        ended = 1'b0;
        for (j = 0; j < SEG_COUNT; j = j + 1) begin
            if (j < s && cpl_seen[j] && cpl_final[j] && cpl_tag[j*TAG_WIDTH +: TAG_WIDTH] == cpl_tag[s*TAG_WIDTH +: TAG_WIDTH]) begin
                ended = 1'b1;
            end
        end
        view_out = out_rd[2*s] && !out_stale[s] && !ended;
        if (cpl_seen[s] && view_out) begin
            cpl_start[s] = 1'b0;
        end
        out_keep[s]  = out_rd[2*s] && !out_stale[s] && !(ended || cpl_final[s]);
    end
    // no request writes while in reset: from its second clock on they would carry the new
    // epoch, and a filtered-out bit would outlive the reset that empties the table
    out_wr_en = {req_seen & {SEG_COUNT{!rst}}, out_stale[SEG_COUNT] && out_rd[2*SEG_COUNT], cpl_seen};
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        out_wr_data[2*s +: 2] = {epoch_reg, out_keep[s]};
        out_wr_data[2*(SEG_COUNT + 1 + s) +: 2] = {epoch_reg, !req_in[s]};
    end
    out_wr_data[2*SEG_COUNT +: 2] = {epoch_reg, 1'b0};
    req_start = req_seen & req_in;
end

// the sampler's per-segment bytes, registered with stage A; their sums over the segments are
// stage B's (registered alongside the table's events)
reg [SEG_COUNT*13-1:0] a_req_bytes_reg = {SEG_COUNT*13{1'b0}};
reg [SEG_COUNT*13-1:0] a_cpl_dbytes_reg = {SEG_COUNT*13{1'b0}};

always @(posedge clk) begin
    a_req_bytes_reg  <= req_bytes_seg;
    a_cpl_dbytes_reg <= cpl_dbytes;
end

reg [SEG_COUNT-1:0]           a_req_start_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT*TAG_WIDTH-1:0] a_req_tag_reg = {SEG_COUNT*TAG_WIDTH{1'b0}};
reg [SEG_COUNT*16-1:0]        a_req_rid_reg = {SEG_COUNT*16{1'b0}};
reg [SEG_COUNT*13-1:0]        a_req_expect_reg = {SEG_COUNT*13{1'b0}};
reg [SEG_COUNT-1:0]           a_cpl_start_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT*TAG_WIDTH-1:0] a_cpl_tag_reg = {SEG_COUNT*TAG_WIDTH{1'b0}};
reg [SEG_COUNT*16-1:0]        a_cpl_rid_reg = {SEG_COUNT*16{1'b0}};
reg [SEG_COUNT*3-1:0]         a_cpl_status_reg = {SEG_COUNT*3{1'b0}};
reg [SEG_COUNT-1:0]           a_cpl_data_reg = {SEG_COUNT{1'b0}};
reg [SEG_COUNT-1:0]           a_cpl_last_reg = {SEG_COUNT{1'b0}};
// the table's sums for a clock's completions of one tag (probe_tracker_sums), registered here so
// the table starts its compares and subtractions from flip-flops
localparam SUMS = (1 << SEG_COUNT) - 1;
localparam SUM_WIDTH = 15;
wire [SUMS*SUM_WIDTH-1:0]     cpl_bc_sums;
wire [SUMS*SUM_WIDTH-1:0]     cpl_carried_sums;
reg  [SUMS*SUM_WIDTH-1:0]     a_cpl_bc_sums_reg = {SUMS*SUM_WIDTH{1'b0}};
reg  [SUMS*SUM_WIDTH-1:0]     a_cpl_carried_sums_reg = {SUMS*SUM_WIDTH{1'b0}};

probe_tracker_sums #(
    .SEG_COUNT(SEG_COUNT),
    .SUM_WIDTH(SUM_WIDTH)
)
sums_inst (
    .bc(cpl_bc),
    .carried(cpl_carried),
    .bc_sums(cpl_bc_sums),
    .carried_sums(cpl_carried_sums)
);
// enable, clear, snapshot travel with the taps: stage A, then stage B
reg [2:0]               a_ctl_reg = 3'd0;
reg [2:0]               b_ctl_reg = 3'd0;

always @(posedge clk) begin
    a_req_start_reg   <= req_start;
    a_req_tag_reg     <= req_tag;
    a_req_rid_reg     <= req_rid;
    a_req_expect_reg  <= req_expect;
    a_cpl_start_reg   <= cpl_start;
    a_cpl_tag_reg     <= cpl_tag;
    a_cpl_rid_reg     <= cpl_rid;
    a_cpl_status_reg  <= cpl_status;
    a_cpl_data_reg    <= cpl_data;
    a_cpl_last_reg    <= cpl_covers;
    a_cpl_bc_sums_reg      <= cpl_bc_sums;
    a_cpl_carried_sums_reg <= cpl_carried_sums;
    a_ctl_reg         <= t_ctl_reg;
    b_ctl_reg         <= a_ctl_reg;

    if (rst) begin
        a_req_start_reg <= {SEG_COUNT{1'b0}};
        a_cpl_start_reg <= {SEG_COUNT{1'b0}};
        a_ctl_reg       <= 3'd0;
        b_ctl_reg       <= 3'd0;
    end
end

// sampler sums of stage A's reads and completions with data
reg [2:0]  smp_mrd_sum;
reg [14:0] smp_mrd_bytes_sum;
reg [2:0]  smp_cpld_sum;
reg [14:0] smp_cpld_bytes_sum;

always @* begin
    smp_mrd_sum = 3'd0;
    smp_mrd_bytes_sum = 15'd0;
    smp_cpld_sum = 3'd0;
    smp_cpld_bytes_sum = 15'd0;
    for (s = 0; s < SEG_COUNT; s = s + 1) begin
        if (a_req_start_reg[s]) begin
            smp_mrd_sum = smp_mrd_sum + 3'd1;
            smp_mrd_bytes_sum = smp_mrd_bytes_sum + {2'b00, a_req_bytes_reg[s*13 +: 13]};
        end
        if (a_cpl_start_reg[s] && a_cpl_data_reg[s]) begin
            smp_cpld_sum = smp_cpld_sum + 3'd1;
            smp_cpld_bytes_sum = smp_cpld_bytes_sum + {2'b00, a_cpl_dbytes_reg[s*13 +: 13]};
        end
    end
end

reg [2:0]  b_mrd_reg = 3'd0;
reg [14:0] b_mrd_bytes_reg = 15'd0;
reg [2:0]  b_cpld_reg = 3'd0;
reg [14:0] b_cpld_bytes_reg = 15'd0;

always @(posedge clk) begin
    b_mrd_reg        <= smp_mrd_sum;
    b_mrd_bytes_reg  <= smp_mrd_bytes_sum;
    b_cpld_reg       <= smp_cpld_sum;
    b_cpld_bytes_reg <= smp_cpld_bytes_sum;
    if (rst) begin
        b_mrd_reg  <= 3'd0;
        b_cpld_reg <= 3'd0;
    end
end

/*
 * Stage B: the outstanding-read table, one clock of TLPs per clock
 */
localparam EV_WIDTH = $clog2(2*SEG_COUNT + 2);

wire [SEG_COUNT-1:0]           ev_first;
wire [SEG_COUNT-1:0]           ev_last;
wire [SEG_COUNT*AGE_WIDTH-1:0] ev_latency;
wire [SEG_COUNT-1:0]           ev_ur;
wire [SEG_COUNT-1:0]           ev_ca;
wire [SEG_COUNT-1:0]           ev_other;
wire [SEG_COUNT-1:0]           ev_unexpected;
wire [SEG_COUNT-1:0]           ev_mismatch;
wire [EV_WIDTH-1:0]            ev_started;
wire [EV_WIDTH-1:0]            ev_retired;
wire                           ev_timeout;
wire [EV_WIDTH-1:0]            ev_reuse;
wire [TAG_WIDTH:0]             outstanding;

probe_tracker_table #(
    .SEG_COUNT(SEG_COUNT),
    .TAG_WIDTH(TAG_WIDTH),
    .AGE_WIDTH(AGE_WIDTH),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .EV_WIDTH(EV_WIDTH),
    .SUMS(SUMS),
    .SUM_WIDTH(SUM_WIDTH)
)
table_inst (
    .clk(clk),
    .rst(rst),
    .epoch(epoch_reg),
    .req_start(a_req_start_reg),
    .req_tag(a_req_tag_reg),
    .req_tag_next(req_tag),
    .req_rid(a_req_rid_reg),
    .req_expect(a_req_expect_reg),
    .cpl_start(a_cpl_start_reg),
    .cpl_tag(a_cpl_tag_reg),
    .cpl_tag_next(cpl_tag),
    .cpl_rid(a_cpl_rid_reg),
    .cpl_status(a_cpl_status_reg),
    .cpl_data(a_cpl_data_reg),
    .cpl_bc_sums(a_cpl_bc_sums_reg),
    .cpl_carried_sums(a_cpl_carried_sums_reg),
    .cpl_last(a_cpl_last_reg),
    .ev_first(ev_first),
    .ev_last(ev_last),
    .ev_latency(ev_latency),
    .ev_ur(ev_ur),
    .ev_ca(ev_ca),
    .ev_other(ev_other),
    .ev_unexpected(ev_unexpected),
    .ev_mismatch(ev_mismatch),
    .ev_started(ev_started),
    .ev_retired(ev_retired),
    .ev_timeout(ev_timeout),
    .ev_reuse(ev_reuse),
    .outstanding(outstanding)
);

/*
 * Sampler taps: the table's events and the sums registered alongside, with the control of stage B
 */
assign smp_enable      = b_ctl_reg[2];
assign smp_clear       = b_ctl_reg[1];
assign smp_mrd         = b_mrd_reg;
assign smp_mrd_bytes   = b_mrd_bytes_reg;
assign smp_cpld        = b_cpld_reg;
assign smp_cpld_bytes  = b_cpld_bytes_reg;
assign smp_first       = ev_first;
assign smp_outstanding = outstanding;
assign smp_unexpected  = ev_unexpected;
assign smp_timeout     = ev_timeout;

generate
    for (seg = 0; seg < SEG_COUNT; seg = seg + 1) begin : g_smp_lat
        if (AGE_WIDTH < 32) begin : g_pad
            assign smp_latency[seg*32 +: 32] = {{(32-AGE_WIDTH){1'b0}}, ev_latency[seg*AGE_WIDTH +: AGE_WIDTH]};
        end else begin : g_full
            assign smp_latency[seg*32 +: 32] = ev_latency[seg*AGE_WIDTH +: AGE_WIDTH];
        end
    end
endgenerate

/*
 * Stage C: statistics
 */
probe_tracker_stats #(
    .SEG_COUNT(SEG_COUNT),
    .TAG_WIDTH(TAG_WIDTH),
    .AGE_WIDTH(AGE_WIDTH),
    .EV_WIDTH(EV_WIDTH),
    .CNT_WIDTH(CNT_WIDTH),
    .LAT_BINS(LAT_BINS),
    .LAT_SUB_BINS_LOG2(LAT_SUB_BINS_LOG2),
    .LAT_FIRST_EDGE_LOG2(LAT_FIRST_EDGE_LOG2)
)
stats_inst (
    .clk(clk),
    .rst(rst),
    .enable(b_ctl_reg[2]),
    .clear(b_ctl_reg[1]),
    .snapshot(b_ctl_reg[0]),
    .ev_first(ev_first),
    .ev_last(ev_last),
    .ev_latency(ev_latency),
    .ev_ur(ev_ur),
    .ev_ca(ev_ca),
    .ev_other(ev_other),
    .ev_unexpected(ev_unexpected),
    .ev_mismatch(ev_mismatch),
    .ev_started(ev_started),
    .ev_retired(ev_retired),
    .ev_timeout(ev_timeout),
    .ev_reuse(ev_reuse),
    .outstanding(outstanding),
    .stat_shadow(stat_shadow),
    .hist_shadow(hist_shadow),
    .hist_rd_idx(hist_rd_idx),
    .hist_rd_words(hist_rd_words)
);

endmodule

`resetall
