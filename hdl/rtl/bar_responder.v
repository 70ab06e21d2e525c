`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * BAR responder: completes the memory reads that reach the FPGA's BAR.
 *
 * Every accepted non-posted request enters a FIFO with its accept time plus a jitter draw
 * (uniform in 0..bar_jitter clocks from a 16-bit LFSR that steps once per request and
 * restarts from a fixed seed on reset, so a run is repeatable; 0 while bar_jitter is 0).
 * The head leaves once it is max(BAR_LATENCY, 2) clocks past that time: the first beat of its
 * completion is valid max(max(bar_latency, 2) + draw, 5) clocks after the request was
 * accepted, or later under back-pressure (completions leave in request order).
 *
 * - MRd of at most MAX_PAYLOAD_BYTES (Length * 4): CplDs with status SC. Without a
 *   split (cpl_split not 64 or 128 when the read is taken) one CplD: Length as requested, Byte Count =
 *   requested bytes (1 for a zero-length read), Lower Address = address of the first
 *   enabled byte [6:0]. With cpl_split 64 or 128 the read is answered as a root
 *   complex splits at its Read Completion Boundary: each CplD ends at the next
 *   multiple of cpl_split bytes of address (the last at the end of the data), its
 *   Byte Count the bytes still to come, its Lower Address that of its first byte, its
 *   Length the DWs it touches. The first CplD obeys the latency; the rest follow at
 *   once. Payload DW i of a CplD = A + 4*i for its DW-aligned start address A,
 *   spread over as many beats as needed (strb per DW).
 * - Longer MRd, MRdLk, IO, configuration and atomic requests: one Cpl (no data),
 *   status UR. Byte Count = requested bytes and Lower Address as above for memory
 *   reads, 4 and 0 for the others. 'bar_ur' pulses when that Cpl is handed over.
 * - Posted requests (MWr, Msg, MsgD), completions, prefixes and reserved types:
 *   accepted and dropped, payload beats included.
 *
 * Completions echo Requester ID, the 10-bit Tag (T9, T8, Tag[7:0]), TC and Attr.
 * A request's decode ends in a register (the decode register): its entry is written into the
 * FIFO on the clock after it is taken.
 * rx ready is a register: it is high on a clock only if the FIFO has room for TLP_SEG_COUNT
 * requests and the completion buffer for TLP_SEG_COUNT more reads of MAX_PAYLOAD_BYTES whatever
 * the clock before took and the decode register holds (so it falls a beat or two early):
 * each read taken reserves its payload (Length DWs) in a buffer of CPL_BUFFER_BYTES from the
 * clock after it is taken until the clock after its last CplD is planned, so a completer whose
 * buffer is full returns no non-posted credit and
 * further reads wait on the requester's side of the link instead of in flight. tx ready is
 * honoured on every beat.
 *
 * Completions go through three registers: a window of the FIFO's oldest TLP_SEG_COUNT entries
 * (with their due bits), the plan of the next beat (headers, and per segment its CplD's first
 * payload DW, its offset in it and its DW count) and the output beat, whose payload words are
 * made from the plan's registers. The plan chooses a beat's reads as a prefix over the window
 * (positions are sums of segment counts worked out when each read was taken), so no segment's
 * choice waits on the one before it.
 *
 * Segments (TLP_SEG_COUNT 2 or 4, as a straddled interface delivers): every segment of a
 * request beat may start a request (its header in rx_req_tlp_hdr[128*s +: 128]); they enter
 * the FIFO in segment order. A completion beat is TLP_SEG_COUNT segments of
 * TLP_STRB_WIDTH/TLP_SEG_COUNT DWs; each completion starts at a segment boundary (its header in
 * tx_cpl_tlp_hdr[128*s +: 128], sop[s]), its payload runs on from there, and the next one starts
 * in the segment after the one holding eop. A Cpl with status UR is the last TLP of its beat.
 */
module bar_responder #
(
    // TLP data width
    parameter TLP_DATA_WIDTH = 256,
    // TLP strobe width
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    // TLP segments per beat (1, 2 or 4): up to this many requests in and completions out per beat
    parameter TLP_SEG_COUNT = 1,
    // Completer ID in the completions
    parameter [15:0] COMPLETER_ID = 16'h0200,
    // longest read answered with data (Max_Payload_Size)
    parameter MAX_PAYLOAD_BYTES = 256,
    // pending-request FIFO depth (power of two)
    parameter FIFO_DEPTH = 256,
    // completion buffer the reads taken reserve their payload in (0: no limit)
    parameter CPL_BUFFER_BYTES = 16384
)
(
    input  wire                         clk,
    input  wire                         rst,

    /*
     * TLP input (requests)
     */
    input  wire [TLP_DATA_WIDTH-1:0]    rx_req_tlp_data,
    input  wire [TLP_STRB_WIDTH-1:0]    rx_req_tlp_strb,
    input  wire [TLP_SEG_COUNT*128-1:0] rx_req_tlp_hdr,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_valid,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_sop,
    input  wire [TLP_SEG_COUNT-1:0]     rx_req_tlp_eop,
    output wire                         rx_req_tlp_ready,

    /*
     * TLP output (completions)
     */
    output wire [TLP_DATA_WIDTH-1:0]    tx_cpl_tlp_data,
    output wire [TLP_STRB_WIDTH-1:0]    tx_cpl_tlp_strb,
    output wire [TLP_SEG_COUNT*128-1:0] tx_cpl_tlp_hdr,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_valid,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_sop,
    output wire [TLP_SEG_COUNT-1:0]     tx_cpl_tlp_eop,
    input  wire                         tx_cpl_tlp_ready,

    /*
     * Configuration and status
     */
    input  wire [15:0]                  bar_latency,
    input  wire [15:0]                  bar_jitter,
    input  wire [7:0]                   cpl_split,
    output wire                         bar_ur
);

localparam MAX_DW = MAX_PAYLOAD_BYTES/4;
localparam FIFO_AW = $clog2(FIFO_DEPTH);
// DWs per segment (a power of two); DW counts (payload, segment width) share one width
localparam SEG_DW_INT = TLP_STRB_WIDTH/TLP_SEG_COUNT;
localparam SEG_DW_LOG2 = $clog2(SEG_DW_INT);
localparam [31:0] SEG_DW_32 = SEG_DW_INT;
localparam [31:0] MAX_DW_32 = MAX_DW;
localparam [31:0] SEG_32 = TLP_SEG_COUNT;
localparam [11:0] SEG_DW = SEG_DW_32[11:0];
localparam [11:0] MAX_DW_12 = MAX_DW_32[11:0];
// segment-index bits, and the width of a count of 0..TLP_SEG_COUNT entries
localparam SEG_INDEX_WIDTH = (TLP_SEG_COUNT > 1) ? $clog2(TLP_SEG_COUNT) : 0;
localparam COUNT_WIDTH = SEG_INDEX_WIDTH + 1;
// a segment count or position 0..TLP_SEG_COUNT + 1 (saturated: past the end of a beat), one-hot,
// so that the beat's prefix adds and compares them in LUTs, without carry chains
localparam NS_W = TLP_SEG_COUNT + 2;
// payload DWs of one segment: 0..SEG_DW
localparam NDW_W = $clog2(SEG_DW_INT + 1);
// a segment count as a thermometer up to two beats
localparam TH_W = 2 * TLP_SEG_COUNT;
// the next CplD of a split read ({last, segments one-hot, segments as a thermometer})
localparam INFO_W = 1 + NS_W + TH_W;
// a DW count of a read answered with data (0..MAX_DW)
localparam LEN_W = $clog2(MAX_DW + 1);
localparam [11:0] LEN_MASK = (12'd1 << LEN_W) - 12'd1;
// A simulator skips the work that nothing reads on a clock (a FIFO entry not written, the
// plan's candidates of a slot that cannot start, the prefix and the owners of a beat no read
// starts in); synthesis builds it ungated (Yosys defines SYNTHESIS), so the gates add no logic
`ifdef SYNTHESIS
localparam SIM_GATE = 1'b0;
`else
localparam SIM_GATE = 1'b1;
`endif

// FIFO entry (bit offsets): the request as it was decoded, then how its completions fall into
// segments, worked out when it is taken so that the beat's plan only adds small counts and
// selects:
//   t_accept[31:0], addr_dw[29:0], attr[2:0], tc[2:0], tag[9:0], req_id[15:0],
//   lower_addr[6:0], byte_count[11:0], len_dw[11:0], ur,
//   ws: segments the read's CplDs of one beat take (its first, and its second when that is the
//       last; saturated), n2s / n1s: segments of its second / first CplD (saturated),
//   last2: split in two CplDs exactly, one: answered by one completion, sp128: split at 128 B,
//   n1t / n2t: the two CplDs' segments as a thermometer up to two beats (bit t-1: at least t),
//   room1: the first CplD's DWs when split, rest1: the DWs after it,
//   rb2: the second CplD's Byte Count (mod 4096), ndw1 / ndw2: the payload DWs in the last
//   segment of the first / second CplD, segs1 / segs2: their segments, a_info / b_info: the
//   next CplD of the split state the read leaves after its first CplD / its first two
//   ({last, segments one-hot, segments as a thermometer}, as next_info)
localparam E_T = 0, E_ADDR = 32, E_ATTR = 62, E_TC = 65, E_TAG = 68, E_RID = 78, E_LA = 94,
           E_BC = 101, E_LEN = 113, E_UR = 125, E_WS = 126, E_N2S = E_WS + NS_W,
           E_N1S = E_N2S + NS_W, E_LAST2 = E_N1S + NS_W, E_ONE = E_LAST2 + 1, E_SP128 = E_ONE + 1,
           E_N1T = E_SP128 + 1, E_N2T = E_N1T + 2 * TLP_SEG_COUNT, E_ROOM1 = E_N2T + 2 * TLP_SEG_COUNT,
           E_REST1 = E_ROOM1 + 6, E_RB2 = E_REST1 + 12, E_NDW1 = E_RB2 + 12, E_NDW2 = E_NDW1 + NDW_W,
           E_SEGS1 = E_NDW2 + NDW_W, E_SEGS2 = E_SEGS1 + 12, E_AINFO = E_SEGS2 + 12,
           E_BINFO = E_AINFO + INFO_W;
localparam ENTRY_W = E_BINFO + INFO_W;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLP_SEG_COUNT != 1 && TLP_SEG_COUNT != 2 && TLP_SEG_COUNT != 4) begin : g_check_tlp_seg_count
        bar_responder_TLP_SEG_COUNT_must_be_1_2_or_4 unsupported_parameter ();
    end
    if (TLP_STRB_WIDTH % TLP_SEG_COUNT != 0 || FIFO_DEPTH < TLP_SEG_COUNT ||
        (1 << SEG_DW_LOG2) != SEG_DW_INT) begin : g_check_tlp_strb_width
        bar_responder_TLP_STRB_WIDTH_must_split_into_segments_and_FIFO_DEPTH_hold_a_beat unsupported_parameter ();
    end
    if (TLP_DATA_WIDTH < 32 || TLP_DATA_WIDTH % 32 != 0 || TLP_STRB_WIDTH * 32 != TLP_DATA_WIDTH) begin : g_check_tlp_data_width
        bar_responder_TLP_DATA_WIDTH_must_be_32_times_TLP_STRB_WIDTH unsupported_parameter ();
    end
    if (MAX_PAYLOAD_BYTES < 4 || MAX_PAYLOAD_BYTES > 4096 || MAX_PAYLOAD_BYTES % 4 != 0) begin : g_check_max_payload_bytes
        bar_responder_MAX_PAYLOAD_BYTES_must_be_4_to_4096_in_whole_DWs unsupported_parameter ();
    end
    if (FIFO_DEPTH < 2 || (1 << FIFO_AW) != FIFO_DEPTH) begin : g_check_fifo_depth
        bar_responder_FIFO_DEPTH_must_be_a_power_of_two_from_2 unsupported_parameter ();
    end
endgenerate

// segments a CplD of n DWs of payload takes
function [11:0] segs_of(input [11:0] n);
    segs_of = (n + SEG_DW - 12'd1) >> SEG_DW_LOG2;
endfunction
// a segment count saturated at TLP_SEG_COUNT + 1, one-hot
function [NS_W-1:0] sat_ns(input [11:0] n);
    integer b;
    begin
        sat_ns = {NS_W{1'b0}};
        for (b = 0; b < NS_W; b = b + 1) begin
            if ((b == NS_W - 1) ? ({20'd0, n} >= b) : ({20'd0, n} == b)) sat_ns[b] = 1'b1;
        end
    end
endfunction
// a segment count as a thermometer of 2 * TLP_SEG_COUNT bits (bit t-1: at least t)
function [2*TLP_SEG_COUNT-1:0] therm(input [11:0] n);
    integer b;
    begin
        for (b = 0; b < 2 * TLP_SEG_COUNT; b = b + 1) therm[b] = ({20'd0, n} > b);
    end
endfunction
// the segments of a CplD of n DWs as that thermometer, compared on the DW count (no adder)
function [2*TLP_SEG_COUNT-1:0] therm_dw(input [11:0] n);
    integer b;
    begin
        for (b = 0; b < 2 * TLP_SEG_COUNT; b = b + 1) therm_dw[b] = ({20'd0, n} > b * SEG_DW_INT);
    end
endfunction
// a thermometer's count saturated at TLP_SEG_COUNT + 1, one-hot
function [NS_W-1:0] therm_ns(input [2*TLP_SEG_COUNT-1:0] th);
    integer b;
    begin
        therm_ns[0] = !th[0];
        for (b = 1; b < NS_W - 1; b = b + 1) therm_ns[b] = th[b-1] && !th[b];
        therm_ns[NS_W-1] = th[NS_W-2];
    end
endfunction
// the sum of two one-hot counts, saturated: x moved up by each count y may hold, as words (the
// same AND-OR of bit pairs, without a branch per pair in a Verilated model)
function [NS_W-1:0] oh_add(input [NS_W-1:0] x, input [NS_W-1:0] y);
    integer b;
    reg [2*NS_W-1:0] x_up;
    begin
        oh_add = {NS_W{1'b0}};
        for (b = 0; b < NS_W; b = b + 1) begin
            x_up = {{NS_W{1'b0}}, x} << b;
            // (the bits moved past the top fold into it)
            oh_add = oh_add | ({NS_W{y[b]}} & {|x_up[2*NS_W-1:NS_W-1], x_up[NS_W-2:0]});
        end
    end
endfunction
// payload DWs in the last segment of a CplD whose DW count ends in n_lo (a count >= 1): the
// count mod SEG_DW, or SEG_DW when that is 0 (a choice, no adder)
localparam [31:0] SEG_DW_MASK_32 = SEG_DW_INT - 1;
function [NDW_W-1:0] last_ndw_of(input [NDW_W-1:0] n_lo);
    last_ndw_of = ((n_lo & SEG_DW_MASK_32[NDW_W-1:0]) == {NDW_W{1'b0}}) ? SEG_DW[NDW_W-1:0] :
                  (n_lo & SEG_DW_MASK_32[NDW_W-1:0]);
endfunction
// The next CplD of a split read that has x DWs left after the CplD being planned, less one block
// more when skip: {the last (what is left fits in a block), its segments one-hot (saturated),
// the same as a thermometer}. Each bit is a compare of x with a constant (no subtraction first);
// the thermometer of min(left, block) is the AND of theirs.
function [INFO_W-1:0] next_info(input [11:0] x, input i_128, input skip);
    reg [TH_W-1:0] ni_th128, ni_th64;
    integer nb;
    begin
        // (each split size's compares apart: with constants, they stay logic, no carry chain)
        for (nb = 0; nb < TH_W; nb = nb + 1) begin
            ni_th128[nb] = ({20'd0, x} > (skip ? 32 : 0) + nb * SEG_DW_INT) && (32 > nb * SEG_DW_INT);
            ni_th64[nb] = ({20'd0, x} > (skip ? 16 : 0) + nb * SEG_DW_INT) && (16 > nb * SEG_DW_INT);
        end
        next_info = i_128 ? {{20'd0, x} <= (skip ? 64 : 32), therm_ns(ni_th128), ni_th128} :
                            {{20'd0, x} <= (skip ? 32 : 16), therm_ns(ni_th64), ni_th64};
    end
endfunction

// The request's decode, in two halves either side of the decode register. The first: the
// completion's Byte Count and Lower Address, and how its CplDs fall into segments at the split
// size in force (the first CplD ends at the next boundary, room1 DWs on, the second at the next
// or the end) as far as the compares: the DW counts as thermometers. i_echo: the header's fields
// the completions echo, {Requester ID, 10-bit tag, TC, Attr}
// the decode register's fields (bit offsets)
// (address, echo {Requester ID, tag, TC, Attr} and Lower Address below D_BC)
localparam D_BC = 69, D_LEN = 81, D_ROOM1 = 93, D_REST1 = 99,
           D_BYTES1 = 111, D_128 = 119, D_UR = 120, D_LAST2 = 121, D_ONE = 122, D_TREST1 = 123,
           D_TROOM1 = D_TREST1 + TH_W, D_TLEN = D_TROOM1 + TH_W, DEC_W = D_TLEN + TH_W;
function [DEC_W-1:0] dec_first(input i_mem_read, input i_answer_data, input i_zero_len,
                               input [10:0] i_len_dw, input [29:0] i_addr_dw, input [1:0] i_lead,
                               input [11:0] i_bytes, input [31:0] i_echo, input i_128, input i_split);
    reg [11:0] x_dw, x_len, x_lo, x_sum, x_rest1;
    reg [5:0] x_room1;
    reg [7:0] x_bytes1;
    reg [TH_W-1:0] x_th_rest1, x_th_room1;
    integer xb;
    begin
        x_dw    = {1'b0, i_len_dw};
        // a read answered with data has at most MAX_DW DWs: its Length's low LEN_W bits (the
        // rest matter to a UR alone, whose counts are fixed)
        x_len   = x_dw & LEN_MASK;
        // the address's DWs into its first block, and the Length plus them: every compare of
        // the DWs after the first CplD is one of that sum with a constant (room1 = block - lo),
        // not a compare after a subtraction
        x_lo    = i_128 ? {7'd0, i_addr_dw[4:0]} : {8'd0, i_addr_dw[3:0]};
        x_sum   = x_len + x_lo;
        x_room1 = (i_128 ? 6'd32 : 6'd16) - x_lo[5:0];
        x_rest1 = x_sum - (i_128 ? 12'd32 : 12'd16);
        // the first CplD's bytes when split: to the boundary from the first enabled byte
        x_bytes1 = {x_room1, 2'b00} - {6'd0, i_lead};
        // (each split size's compares apart: with constants, they stay logic, no carry chain;
        // room1 > c is lo < block - c)
        for (xb = 0; xb < TH_W; xb = xb + 1) begin
            x_th_rest1[xb] = i_128 ? ({20'd0, x_sum} > 32 + xb * SEG_DW_INT) : ({20'd0, x_sum} > 16 + xb * SEG_DW_INT);
            x_th_room1[xb] = i_128 ? ({27'd0, i_addr_dw[4:0]} + xb * SEG_DW_INT < 32) :
                                     ({28'd0, i_addr_dw[3:0]} + xb * SEG_DW_INT < 16);
        end
        dec_first = {
            therm_dw(x_len), x_th_room1, x_th_rest1,
            !i_answer_data || !i_split || (i_128 ? (x_sum <= 12'd32) : (x_sum <= 12'd16)),  // one
            i_128 ? (x_sum <= 12'd64) : (x_sum <= 12'd32),                                 // last2
            !i_answer_data,                                                      // ur
            i_128,
            x_bytes1,
            x_rest1,
            x_room1,
            x_dw,
            !i_mem_read ? 12'd4 : (i_zero_len ? 12'd1 : i_bytes),      // Byte Count
            i_mem_read ? {i_addr_dw[4:0], i_lead} : 7'd0,              // Lower Address
            i_echo,
            i_addr_dw
        };
    end
endfunction
// the second half, from the decode register into the FIFO's write: the CplDs' segment counts
// chosen from the thermometers, one-hot, and the beat's sum of them; the second CplD's Byte
// Count, each CplD's segments and the DWs of its last one, and the split state's next CplD
// after the first CplD and after two
function [ENTRY_W-33:0] dec_second(input [DEC_W-1:0] d);
    reg [TH_W-1:0] x2_n1t, x2_n2t;
    reg [NS_W-1:0] x2_n1s, x2_n2s, x2_ws;
    reg [11:0] x2_blk, x2_len1, x2_len2, x2_rest1, x2_rb2, x2_segs2;
    reg [NDW_W-1:0] x2_ndw2;
    reg [INFO_W-1:0] x2_ainfo, x2_binfo;
    reg x2_one, x2_last2, x2_ur, x2_128;
    begin
        {x2_one, x2_last2, x2_ur, x2_128} = {d[D_ONE], d[D_LAST2], d[D_UR], d[D_128]};
        x2_blk = x2_128 ? 12'd32 : 12'd16;
        x2_rest1 = d[D_REST1 +: 12];
        x2_len1 = x2_one ? d[D_LEN +: 12] : {6'd0, d[D_ROOM1 +: 6]};
        x2_n1t = x2_ur ? therm(12'd1) : x2_one ? d[D_TLEN +: TH_W] : d[D_TROOM1 +: TH_W];
        x2_n1s = therm_ns(x2_n1t);
        x2_ws = x2_n1s;
        // the second CplD and the split state, for a read answered by several (a simulator
        // leaves them 0 for one answered by one, where nothing reads them)
        x2_len2 = 12'd0; x2_n2t = {TH_W{1'b0}}; x2_n2s = {NS_W{1'b0}}; x2_rb2 = 12'd0;
        x2_segs2 = 12'd0; x2_ndw2 = {NDW_W{1'b0}}; x2_ainfo = {INFO_W{1'b0}}; x2_binfo = {INFO_W{1'b0}};
        if (!SIM_GATE || !x2_one) begin
            x2_len2 = x2_last2 ? x2_rest1 : x2_blk;
            x2_n2t = x2_last2 ? d[D_TREST1 +: TH_W] : therm_dw(x2_blk);
            x2_n2s = therm_ns(x2_n2t);
            if (!x2_one) x2_ws = oh_add(x2_n1s, x2_n2s);
            x2_rb2 = d[D_BC +: 12] - {4'd0, d[D_BYTES1 +: 8]};
            x2_segs2 = segs_of(x2_len2);
            x2_ndw2 = last_ndw_of(x2_len2[NDW_W-1:0]);
            x2_ainfo = next_info(x2_rest1, x2_128, 1'b0);
            x2_binfo = next_info(x2_rest1, x2_128, 1'b1);
        end
        dec_second = {
            x2_binfo,
            x2_ainfo,
            x2_segs2,
            x2_ur ? 12'd1 : segs_of(x2_len1),
            x2_ndw2,
            x2_ur ? {NDW_W{1'b0}} : last_ndw_of(x2_len1[NDW_W-1:0]),
            x2_rb2,
            d[D_REST1 +: 12], d[D_ROOM1 +: 6],
            x2_n2t,
            x2_n1t,
            x2_128,
            x2_one,
            x2_last2,
            x2_n1s,
            x2_n2s,
            x2_ws,
            x2_ur,
            d[0 +: 12 + 12 + 7 + 32 + 30]                              // Length .. address
        };
    end
endfunction

// free-running clock count for the accept times
reg [31:0] now_reg = 32'd0;

/*
 * Pending-request FIFO (seg_fifo, below): up to TLP_SEG_COUNT requests enter it per clock and
 * up to TLP_SEG_COUNT leave it per clock into the head window (below)
 */
wire                   fifo_room, fifo_room3;
wire [COUNT_WIDTH-1:0] fifo_count;
reg  [COUNT_WIDTH-1:0] fifo_pop;

// due: the entry's first beat, valid two clocks after the plan takes it (the plan, then the
// output register), is max(bar_latency, 2) clocks past its (jittered) accept time. An entry's
// time is stamped when it is written, a clock after the accept (the decode register between).
// The head window holds each entry's due bit for the clock it is in the window, compared
// against that clock's now + 3 - max(bar_latency, 2), made a clock ahead (now + 4 - ...) in a
// register a further clock ahead (so bar_latency takes effect a clock after it changes): one
// subtraction from the entry, from registers, not negative when due (ages stay far below 2^31
// clocks)
wire [15:0] latency_eff = (bar_latency < 16'd2) ? 16'd2 : bar_latency;
reg  [31:0] due_base_reg = 32'd0;

/*
 * Completion buffer: the payload DWs of the reads taken and not yet answered (reserved when a
 * read enters the FIFO, from its length registered beside the decode register; released the
 * clock after its last CplD is planned)
 */
localparam BUF_W = 24;
localparam [31:0] CPL_BUFFER_DW_32 = CPL_BUFFER_BYTES / 4;
localparam [31:0] BEAT_RESERVE_DW_32 = TLP_SEG_COUNT * (MAX_PAYLOAD_BYTES / 4);
reg  [BUF_W-1:0] reserved_dw_reg = {BUF_W{1'b0}};
wire [31:0]      reserved_dw_32 = {{(32-BUF_W){1'b0}}, reserved_dw_reg};
// no room for one, two or three more beats of reads (the ones the current clock may take and
// the clock before took, which the count does not hold yet, and the next clock's): compares of
// the register with constants, chosen by ready_reg and wr_v_reg
wire buffer_full  = (CPL_BUFFER_BYTES != 0) && (reserved_dw_32 + BEAT_RESERVE_DW_32 > CPL_BUFFER_DW_32);
wire buffer_full2 = (CPL_BUFFER_BYTES != 0) && (reserved_dw_32 + 2 * BEAT_RESERVE_DW_32 > CPL_BUFFER_DW_32);
wire buffer_full3 = (CPL_BUFFER_BYTES != 0) && (reserved_dw_32 + 3 * BEAT_RESERVE_DW_32 > CPL_BUFFER_DW_32);
// the payload DWs of the reads that left on the clock before, per window slot
reg  [12*TLP_SEG_COUNT-1:0] release_dw_reg = {12*TLP_SEG_COUNT{1'b0}};
reg  [12*TLP_SEG_COUNT-1:0] release_dw_next;

// the sum of a DW count per segment (made in the clocked block, from registers)
function [BUF_W-1:0] dw_sum(input [12*TLP_SEG_COUNT-1:0] per_seg);
    integer ds;
    begin
        dw_sum = {BUF_W{1'b0}};
        for (ds = 0; ds < TLP_SEG_COUNT; ds = ds + 1) begin
            dw_sum = dw_sum + {{(BUF_W-12){1'b0}}, per_seg[12*ds +: 12]};
        end
    end
endfunction

// a beat is taken only while every segment of it would find room. Ready is registered (the
// header decode, the FIFO's write steering and the probe's taps start from a flip-flop): while
// it is high the clock may take a beat, so the next clock's ready needs room for two: in the
// buffer one more while the decode register holds a beat (the buffer counts a read from the
// clock after it is taken), in the FIFO three while either (it writes the decode register's
// beat on the clock after it is taken)
reg ready_reg = 1'b0;
assign rx_req_tlp_ready = ready_reg;

/*
 * Latency jitter: a Galois LFSR (x^16 + x^14 + x^13 + x^11 + 1, period 65535) steps with every
 * request taken, in segment order; the draw scales it onto 0..bar_jitter (multiply and keep
 * the high half)
 */
localparam [15:0] LFSR_SEED = 16'hACE1;
reg  [15:0] lfsr_reg = LFSR_SEED;

wire [TLP_SEG_COUNT-1:0]             push;
// per segment: the payload DWs of the read taken on the clock before when it is answered with
// data (registered beside the decode register, so the buffer's sum starts from flip-flops)
wire [12*TLP_SEG_COUNT-1:0]          read_dw;
// the decode register: per segment the entry less its time, and whether it enters the FIFO
// (on the clock after the accept)
wire [(ENTRY_W-32)*TLP_SEG_COUNT-1:0] wr_fields;
reg  [TLP_SEG_COUNT-1:0]             wr_v_reg = {TLP_SEG_COUNT{1'b0}};
reg  [32*TLP_SEG_COUNT-1:0]          push_time;
reg  [15:0]                          lfsr_v;
reg  [32:0]                          jitter_product;
// the oldest TLP_SEG_COUNT entries in the FIFO (after those in the window)
wire [ENTRY_W*TLP_SEG_COUNT-1:0]     heads;
integer k;


always @* begin
    lfsr_v = lfsr_reg;
    push_time = {32*TLP_SEG_COUNT{1'b0}};
    jitter_product = 33'd0;
    // the draw only for a segment that writes (a Verilated model runs none of it on the clocks
    // without a request)
    for (k = 0; k < TLP_SEG_COUNT; k = k + 1) begin
        if (wr_v_reg[k]) begin
            jitter_product = {17'd0, lfsr_v} * {16'd0, {1'b0, bar_jitter} + 17'd1};
            push_time[k*32 +: 32] = now_reg + {16'd0, jitter_product[31:16]};
            lfsr_v = {1'b0, lfsr_v[15:1]} ^ (lfsr_v[0] ? 16'hB400 : 16'h0000);
        end
    end
end
wire unused_jitter_product = &{1'b0, jitter_product[32], jitter_product[15:0], 1'b0};

// payload beats and the end of frame play no part here
wire unused_rx = &{1'b0, rx_req_tlp_data, rx_req_tlp_strb, rx_req_tlp_eop, 1'b0};

wire split_on = (cpl_split == 8'd64) || (cpl_split == 8'd128);

genvar g;
generate
    for (g = 0; g < TLP_SEG_COUNT; g = g + 1) begin : seg
        /*
         * Request decode of segment g
         */
        wire [127:0] req_hdr  = rx_req_tlp_hdr[g*128 +: 128];
        wire [4:0]   req_type = req_hdr[124:120];

        wire        req_mem_read;
        wire        req_locked;
        wire        req_4dw;
        wire [10:0] req_len_dw;
        wire [1:0]  req_lead;
        wire [12:0] req_bytes;
        wire        req_zero_len;
        wire [29:0] req_addr_dw;
        wire [`PS_SIZE_CLASS_COUNT-1:0] req_class;

        probe_mrd_classify classify_inst (
            .hdr(req_hdr),
            .mem_read(req_mem_read),
            .locked(req_locked),
            .hdr_4dw(req_4dw),
            .len_dw(req_len_dw),
            .lead(req_lead),
            .req_bytes(req_bytes),
            .zero_len(req_zero_len),
            .addr_dw(req_addr_dw),
            .size_class(req_class)
        );

        // the size class and the header fields a completion does not echo play no part here
        wire unused_hdr = &{1'b0, req_4dw, req_class,
                            req_hdr[113:106], req_hdr[71:64], req_hdr[33:0],
                            req_bytes[12], 1'b0};  // Byte Count 4096 encodes as 0

        // non-posted requests that are not plain memory reads (Fmt/Type decode, docs/pcie.md)
        wire req_io     = (req_type == 5'b00010);
        wire req_cfg    = (req_type[4:1] == 4'b0010);
        wire req_atomic = (req_type[4:2] == 3'b011) && (req_type != 5'b01111);
        wire req_prefix = req_hdr[127];  // Fmt 1xx

        wire req_answer_data = req_mem_read && !req_locked && (req_len_dw <= MAX_DW_12[10:0]);
        wire req_non_posted  = !req_prefix && (req_mem_read || req_io || req_cfg || req_atomic);

        assign push[g] = rx_req_tlp_valid[g] && rx_req_tlp_sop[g] && rx_req_tlp_ready && req_non_posted;
        // the completion buffer counts a read from the clock after it is taken
        reg [11:0] read_dw_reg = 12'd0;
        always @(posedge clk) begin
            read_dw_reg <= (push[g] && req_answer_data) ? {1'b0, req_len_dw} : 12'd0;
            if (rst) read_dw_reg <= 12'd0;
        end
        assign read_dw[12*g +: 12] = read_dw_reg;

        /*
         * The FIFO entry less its time, into the decode register on a clock the segment
         * pushes (a clock enable); the register ends the decode's path, the FIFO's write starts
         * from it. Made in the clocked block, so a Verilated model decodes once per request, at
         * the edge, not in the combinational passes before and after it.
         */
        reg [DEC_W-1:0] dec_reg = {DEC_W{1'b0}};
        always @(posedge clk) begin
            if (push[g]) begin
                dec_reg <= dec_first(req_mem_read, req_answer_data, req_zero_len, req_len_dw, req_addr_dw,
                                     req_lead, req_bytes[11:0],
                                     {req_hdr[95:80],                               // Requester ID
                                      req_hdr[119], req_hdr[115], req_hdr[79:72],   // 10-bit tag
                                      req_hdr[118:116],                             // TC
                                      req_hdr[114], req_hdr[109:108]},              // Attr {IDO, RO, NS}
                                     cpl_split == 8'd128, split_on);
            end
        end
        // (a simulator makes the entry only on a clock the segment writes)
        reg [ENTRY_W-33:0] wr_entry;
        always @* begin
            wr_entry = {(ENTRY_W-32){1'b0}};
            if (!SIM_GATE || wr_v_reg[g]) wr_entry = dec_second(dec_reg);
        end
        assign wr_fields[(ENTRY_W-32)*g +: ENTRY_W-32] = wr_entry;
    end
endgenerate

// the writes of a clock (the pushes of the clock before) take consecutive entries in segment
// order (seg_fifo: one LUT RAM bank per segment, each written and read once a clock)
wire [ENTRY_W*TLP_SEG_COUNT-1:0] fifo_in;
generate
    for (g = 0; g < TLP_SEG_COUNT; g = g + 1) begin : fifo_entry
        assign fifo_in[ENTRY_W*g +: ENTRY_W] = {wr_fields[(ENTRY_W-32)*g +: ENTRY_W-32], push_time[g*32 +: 32]};
    end
endgenerate

// no peek (PEEK_WIDTH 0): the window below reads the heads
wire [2*TLP_SEG_COUNT-1:0] fifo_peek_stored, fifo_peek_written, fifo_peek_old, fifo_peek_valid;
wire [2*TLP_SEG_COUNT*((TLP_SEG_COUNT > 1) ? $clog2(TLP_SEG_COUNT) : 1)-1:0] fifo_peek_seg;
seg_fifo #(.WIDTH(ENTRY_W), .SEG_COUNT(TLP_SEG_COUNT), .ADDR_WIDTH(FIFO_AW - SEG_INDEX_WIDTH), .COUNT_WIDTH(COUNT_WIDTH),
           .ROOM2_BEATS(3)) fifo_inst (
    .clk(clk), .rst(rst),
    .in_data(fifo_in), .in_valid(wr_v_reg), .room(fifo_room), .room2(fifo_room3),
    .out_data(heads), .out_count(fifo_count), .out_pop(fifo_pop),
    .peek_stored(fifo_peek_stored), .peek_written(fifo_peek_written), .peek_seg(fifo_peek_seg),
    .peek_old(fifo_peek_old), .peek_valid(fifo_peek_valid)
);
wire unused_fifo_peek = &{1'b0, fifo_peek_stored, fifo_peek_written, fifo_peek_seg, fifo_peek_old, fifo_peek_valid, 1'b0};

/*
 * Head window: the oldest TLP_SEG_COUNT entries in registers, slot 0 the oldest (win_v_reg a
 * prefix of valid slots, win_due_reg each one's due bit for this clock). The beat's plan takes
 * reads from the window; the window refills from the FIFO's heads on the same clock, so the
 * plan starts from flip-flops and the FIFO's read, its rotation and the due subtraction are a
 * path of their own into the window.
 */
reg [ENTRY_W*TLP_SEG_COUNT-1:0] win_reg = {ENTRY_W*TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]         win_v_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]         win_due_reg = {TLP_SEG_COUNT{1'b0}};
reg [ENTRY_W*TLP_SEG_COUNT-1:0] win_next;
reg [TLP_SEG_COUNT-1:0]         win_v_next, win_due_next;
// the slots whose reads leave with the planned beat (a prefix of the valid slots)
reg [TLP_SEG_COUNT-1:0]         take;

reg [TLP_SEG_COUNT:0]   k_is;     // k_is[m]: m slots are taken
reg [TLP_SEG_COUNT:0]   d_is;     // d_is[m]: m valid slots stay
reg [TLP_SEG_COUNT-1:0] fifo_take;
reg [TLP_SEG_COUNT-1:0] w_due, f_due;
reg [TLP_SEG_COUNT:0]   nv_is;    // nv_is[m]: m slots are valid
reg [31:0]              due_w, due_f;
integer wj, wi, vi;
// (from registers alone: a Verilated model evaluates it once a clock; what follows reads take)
always @* begin
    for (vi = 0; vi < TLP_SEG_COUNT; vi = vi + 1) begin
        due_w = due_base_reg - win_reg[ENTRY_W*vi + E_T +: 32];
        due_f = due_base_reg - heads[ENTRY_W*vi + E_T +: 32];
        w_due[vi] = !due_w[31];
        f_due[vi] = !due_f[31];
    end
    for (vi = 0; vi <= TLP_SEG_COUNT; vi = vi + 1) begin
        nv_is[vi] = (vi == 0 || win_v_reg[(vi == 0) ? 0 : vi - 1]) && (vi == TLP_SEG_COUNT || !win_v_reg[(vi == TLP_SEG_COUNT) ? 0 : vi]);
    end
end
always @* begin
    for (wi = 0; wi <= TLP_SEG_COUNT; wi = wi + 1) begin
        k_is[wi] = (wi == 0 || take[(wi == 0) ? 0 : wi - 1]) && (wi == TLP_SEG_COUNT || !take[(wi == TLP_SEG_COUNT) ? 0 : wi]);
    end
    // the valid slots less the taken ones (both prefixes), without an adder
    d_is = {(TLP_SEG_COUNT+1){1'b0}};
    for (wi = 0; wi <= TLP_SEG_COUNT; wi = wi + 1) begin
        for (wj = 0; wj <= TLP_SEG_COUNT - wi; wj = wj + 1) begin
            d_is[wi] = d_is[wi] | (nv_is[wi + wj] && k_is[wj]);
        end
    end
    win_next = win_reg;
    win_v_next = {TLP_SEG_COUNT{1'b0}};
    win_due_next = {TLP_SEG_COUNT{1'b0}};
    fifo_take = {TLP_SEG_COUNT{1'b0}};
    // slot j: the slot j + taken if still valid, else FIFO head j - staying
    for (wj = 0; wj < TLP_SEG_COUNT; wj = wj + 1) begin
        for (wi = wj; wi < TLP_SEG_COUNT; wi = wi + 1) begin
            if (k_is[wi - wj] && win_v_reg[wi]) begin
                win_v_next[wj] = 1'b1;
                win_due_next[wj] = win_due_next[wj] | w_due[wi];
            end
        end
        for (wi = 0; wi <= wj; wi = wi + 1) begin
            if (d_is[wj - wi] && fifo_v_reg[wi]) begin
                win_v_next[wj] = 1'b1;
                win_due_next[wj] = win_due_next[wj] | f_due[wi];
                fifo_take[wi] = 1'b1;
            end
        end
        // the entry itself, the same choice: a slot that stays (none taken, still valid) holds,
        // so a Verilated model moves entries only on the clocks a read leaves or a slot fills
        if (!(k_is[0] && win_v_reg[wj])) begin
            win_next[ENTRY_W*wj +: ENTRY_W] = {ENTRY_W{1'b0}};
            for (wi = wj + 1; wi < TLP_SEG_COUNT; wi = wi + 1) begin
                if (k_is[wi - wj] && win_v_reg[wi]) begin
                    win_next[ENTRY_W*wj +: ENTRY_W] = win_next[ENTRY_W*wj +: ENTRY_W] | win_reg[ENTRY_W*wi +: ENTRY_W];
                end
            end
            for (wi = 0; wi <= wj; wi = wi + 1) begin
                if (d_is[wj - wi] && fifo_v_reg[wi]) begin
                    win_next[ENTRY_W*wj +: ENTRY_W] = win_next[ENTRY_W*wj +: ENTRY_W] | heads[ENTRY_W*wi +: ENTRY_W];
                end
            end
        end
    end
    // the FIFO heads taken are a prefix: their count
    fifo_pop = {COUNT_WIDTH{1'b0}};
    for (wi = 0; wi < TLP_SEG_COUNT; wi = wi + 1) begin
        if (fifo_take[wi]) fifo_pop = wi[COUNT_WIDTH-1:0] + 1'b1;
    end
end
wire unused_window = &{1'b0, due_w[30:0], due_f[30:0], 1'b0};

// The FIFO's entries, counted here as seg_fifo's pointers move (its writes, wr_v_reg, and its
// pops), so that which heads are present (fifo_v_reg[i]: head i) is a register, not a compare
// after the pointers' subtraction: the count after the clock's writes less each possible pop is
// made from registers, the pop only choosing one
reg [FIFO_AW:0]         fifo_n_reg = {(FIFO_AW+1){1'b0}}, fifo_n_next, fifo_in_n;
reg [TLP_SEG_COUNT-1:0] fifo_v_reg = {TLP_SEG_COUNT{1'b0}}, fifo_v_next, fifo_v_left;
integer pm, pv;
always @* begin
    fifo_in_n = fifo_n_reg;
    for (pv = 0; pv < TLP_SEG_COUNT; pv = pv + 1) fifo_in_n = fifo_in_n + {{FIFO_AW{1'b0}}, wr_v_reg[pv]};
    fifo_n_next = {(FIFO_AW+1){1'b0}};
    fifo_v_next = {TLP_SEG_COUNT{1'b0}};
    for (pm = 0; pm <= TLP_SEG_COUNT; pm = pm + 1) begin
        for (pv = 0; pv < TLP_SEG_COUNT; pv = pv + 1) fifo_v_left[pv] = ({{(31-FIFO_AW){1'b0}}, fifo_in_n} > pv + pm);
        if ({{(32-COUNT_WIDTH){1'b0}}, fifo_pop} == pm) begin
            fifo_n_next = fifo_n_next | (fifo_in_n - pm[FIFO_AW:0]);
            fifo_v_next = fifo_v_next | fifo_v_left;
        end
    end
end
// (seg_fifo's own count of its heads is the same, from its pointers)
wire unused_fifo_count = &{1'b0, fifo_count, 1'b0};

/*
 * Completion output. One beat is TLP_SEG_COUNT segments of SEG_DW DWs; a completion starts
 * at a segment boundary and its payload runs on from there (into the next beats when longer).
 * The segments of a beat are filled in order: the rest of the completion in flight, then the
 * window's reads in order, each with the CplDs it can start in this beat (a split read's first
 * and, when that is its last, its second; a split read whose CplDs go on ends the beat), as
 * long as each is due; a Cpl with status UR ends its beat, so that 'bar_ur' counts one per
 * beat.
 *
 * The choice is a prefix over the window, not a chain through it: each read's segment counts
 * were worked out when it was taken (saturated just past a beat), so a read's position is the
 * in-flight completion's segments plus the earlier reads' counts, and whether it starts is its
 * position, its due bit and the earlier reads' "due and finished within the beat", all made
 * beside each other. The plan registers (pl_*) hold the beat's headers and, per segment, the
 * first payload DW of its CplD, the segment's offset in it and its DW count; the output register
 * makes the payload words from them. Each stage loads when it is empty or the next one loads.
 */
localparam OFF_W = 12;
// a CplD's header fields (cpl_hf)
localparam HF_W = 62;
localparam [NS_W-1:0] NS_ZERO = 1;

// no read starts in the beat: the CplD in flight fills it (positions only grow)
wire beat_full = |p0_reg[NS_W-1 -: 2];

// the CplD in flight: its first payload DW, its segments, those sent before this beat, the DWs
// of its last segment, and min(segments left, TLP_SEG_COUNT)
reg [29:0]        f_dw0_reg = 30'd0, f_dw0_next;
reg [11:0]        f_n_reg = 12'd0, f_n_next;
reg [11:0]        f_off_reg = 12'd0, f_off_next;
reg [NDW_W-1:0]   f_lastndw_reg = {NDW_W{1'b0}}, f_lastndw_next;
// it ends within this beat (its segments left, at most TLP_SEG_COUNT, are p0_reg's), made when
// the beat before was planned: the in-flight segments' eop needs no compare
reg               f_ends_reg = 1'b1, f_ends_next;
reg [NS_W-1:0]    p0_reg = NS_ZERO, p0_next;
// a read whose CplDs go on (always window slot 0): the next CplD's DWs still to send, byte
// address and Byte Count, the split size, and that CplD's segments (saturated) and lastness
reg               split_reg = 1'b0, split_next;
reg  [11:0]       sub_dw_reg = 12'd0, sub_dw_next;
reg  [32:0]       sub_ba_reg = 33'd0, sub_ba_next;
reg  [11:0]       sub_rb_reg = 12'd0, sub_rb_next;
reg               sub_128_reg = 1'b0, sub_128_next;
reg               sub_one_reg = 1'b0, sub_one_next;
reg  [NS_W-1:0]   sub_n1s_reg = {NS_W{1'b0}}, sub_n1s_next;
reg  [2*TLP_SEG_COUNT-1:0] sub_n1t_reg = {2*TLP_SEG_COUNT{1'b0}}, sub_n1t_next;

// the planned beat
reg [TLP_SEG_COUNT-1:0]       pl_valid_reg = {TLP_SEG_COUNT{1'b0}}, pl_valid_next;
reg [TLP_SEG_COUNT-1:0]       pl_sop_reg = {TLP_SEG_COUNT{1'b0}}, pl_sop_next;
reg [TLP_SEG_COUNT-1:0]       pl_eop_reg = {TLP_SEG_COUNT{1'b0}}, pl_eop_next;
reg                           pl_ur_reg = 1'b0, pl_ur_next;
reg [TLP_SEG_COUNT*HF_W-1:0]  pl_hf_reg = {TLP_SEG_COUNT*HF_W{1'b0}}, pl_hf_next;
reg [TLP_SEG_COUNT*30-1:0]    pl_dw_reg = {TLP_SEG_COUNT*30{1'b0}}, pl_dw_next;
reg [TLP_SEG_COUNT*OFF_W-1:0] pl_off_reg = {TLP_SEG_COUNT*OFF_W{1'b0}}, pl_off_next;
reg [TLP_SEG_COUNT*NDW_W-1:0] pl_ndw_reg = {TLP_SEG_COUNT*NDW_W{1'b0}}, pl_ndw_next;

// the output beat
reg [TLP_SEG_COUNT-1:0]     tx_valid_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     tx_sop_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     tx_eop_reg = {TLP_SEG_COUNT{1'b0}};
reg                         tx_ur_reg = 1'b0;
reg [TLP_DATA_WIDTH-1:0]    tx_data_reg = {TLP_DATA_WIDTH{1'b0}}, tx_data_next;
reg [TLP_STRB_WIDTH-1:0]    tx_strb_reg = {TLP_STRB_WIDTH{1'b0}}, tx_strb_next;
reg [TLP_SEG_COUNT*128-1:0] tx_hdr_reg = {TLP_SEG_COUNT*128{1'b0}};

assign tx_cpl_tlp_data  = tx_data_reg;
assign tx_cpl_tlp_strb  = tx_strb_reg;
assign tx_cpl_tlp_hdr   = tx_hdr_reg;
assign tx_cpl_tlp_valid = tx_valid_reg;
assign tx_cpl_tlp_sop   = tx_sop_reg;
assign tx_cpl_tlp_eop   = tx_eop_reg;

assign bar_ur = (|tx_valid_reg) && tx_ur_reg && tx_cpl_tlp_ready;

// the output register takes the planned beat when it is empty or being taken, the plan the next
// beat when it is empty or being output
wire tx_load = !(|tx_valid_reg) || tx_cpl_tlp_ready;
wire pl_load = !(|pl_valid_reg) || tx_load;

/*
 * Each window slot's read, as the plan sees it (slot 0 the split read's next CplD while one
 * goes on), and its two possible CplDs of this beat (candidate 2j its first, 2j+1 its second)
 */
localparam NC = 2 * TLP_SEG_COUNT;
reg [TLP_SEG_COUNT-1:0] u_ur, u_one, u_last2, u_rdy, u_ok, u_go, u_two, u_leave;
reg [NS_W*TLP_SEG_COUNT-1:0] u_n1s, u_ws;
reg [NC-1:0]            c_go, c_last;
reg [NS_W*NC-1:0]       c_start, c_ns;
reg [HF_W*NC-1:0]       c_hf;
reg [30*NC-1:0]         c_dw0;
reg [12*NC-1:0]         c_n;
reg [NDW_W*NC-1:0]      c_lastndw;
reg [NS_W*NC*TLP_SEG_COUNT-1:0] c_p0;   // p0 after the beat if candidate c is the last, by start
// the split state a read leaves after its first CplD (a) or its first two (b)
reg [12*TLP_SEG_COUNT-1:0] a_dw, b_dw;
reg [33*TLP_SEG_COUNT-1:0] a_ba, b_ba;
reg [12*TLP_SEG_COUNT-1:0] a_rb, b_rb;
reg [TLP_SEG_COUNT-1:0]    a_one, b_one, u_128;
reg [NS_W*TLP_SEG_COUNT-1:0] a_n1s, b_n1s;
reg [2*TLP_SEG_COUNT*TLP_SEG_COUNT-1:0] a_n1t, b_n1t;
reg [2*TLP_SEG_COUNT*NC-1:0] c_nt;
// each candidate's segments pass two beats (beyond its thermometer)
reg [NC-1:0]               c_big;

// one slot's fields
reg [ENTRY_W-1:0] e;
reg        e_sub;
reg [11:0] e_len, e_bc, e_blk, e_sub_blk, e_room1, e_rest1, e_len1, e_len2, e_rb1, e_rb2;
reg [1:0]  e_la;
reg [32:0] e_ba1, e_ba2;
reg [31:0] q32;
integer fj, fc, fq, pj, pc, lj, lc, lq, dj, hs;

// a CplD's header
// a CplD's header fields (the rest of the header is constant; the output register places them):
// {UR, Length, Byte Count, Lower Address, 10-bit tag, TC, Attr, Requester ID}
// (ent: the entry's fields from Attr to Byte Count)
function [HF_W-1:0] cpl_hf(input ur, input [E_LEN-E_ATTR-1:0] ent, input [9:0] len_dw,
                           input [11:0] rb, input [6:0] la);
    cpl_hf = {
        ur,
        ur ? 10'd0 : len_dw,                    // Length (1024 DW encodes as 0)
        ur ? ent[E_BC-E_ATTR +: 12] : rb,       // Byte Count (4096 encodes as 0)
        ur ? ent[E_LA-E_ATTR +: 7] : la,
        ent[E_TAG-E_ATTR +: 10], ent[E_TC-E_ATTR +: 3], ent[0 +: 3], ent[E_RID-E_ATTR +: 16]
    };
endfunction
// the header from its fields (a segment without a header: zero)
function [127:0] cpl_hdr(input sop, input [HF_W-1:0] hf);
    cpl_hdr = !sop ? 128'd0 : {
        hf[61] ? 8'h0A : 8'h4A,                                     // Fmt/Type: Cpl or CplD
        hf[31], hf[19 +: 3], hf[30], hf[18], 1'b0, 1'b0,            // T9 TC T8 Attr2 LN TH
        1'b0, 1'b0, hf[16 +: 2], 2'b00,                             // TD EP Attr[1:0] AT
        hf[51 +: 10],                                               // Length
        COMPLETER_ID,
        hf[61] ? 3'b001 : 3'b000,                                   // status UR or SC
        1'b0,                                                       // BCM
        hf[39 +: 12],                                               // Byte Count
        hf[0 +: 16],                                                // Requester ID
        hf[22 +: 8],                                                // Tag[7:0]
        1'b0,
        hf[32 +: 7],                                                // Lower Address
        32'd0                                                       // no DW3 in a 3DW header
    };
endfunction


always @* begin
    u_ur = {TLP_SEG_COUNT{1'b0}}; u_one = {TLP_SEG_COUNT{1'b0}}; u_last2 = {TLP_SEG_COUNT{1'b0}};
    u_rdy = {TLP_SEG_COUNT{1'b0}}; u_128 = {TLP_SEG_COUNT{1'b0}};
    u_n1s = {NS_W*TLP_SEG_COUNT{1'b0}}; u_ws = {NS_W*TLP_SEG_COUNT{1'b0}};
    c_hf = {HF_W*NC{1'b0}}; c_dw0 = {30*NC{1'b0}}; c_n = {12*NC{1'b0}};
    c_lastndw = {NDW_W*NC{1'b0}}; c_ns = {NS_W*NC{1'b0}};
    a_dw = {12*TLP_SEG_COUNT{1'b0}}; b_dw = {12*TLP_SEG_COUNT{1'b0}};
    a_ba = {33*TLP_SEG_COUNT{1'b0}}; b_ba = {33*TLP_SEG_COUNT{1'b0}};
    a_rb = {12*TLP_SEG_COUNT{1'b0}}; b_rb = {12*TLP_SEG_COUNT{1'b0}};
    a_one = {TLP_SEG_COUNT{1'b0}}; b_one = {TLP_SEG_COUNT{1'b0}};
    a_n1s = {NS_W*TLP_SEG_COUNT{1'b0}}; b_n1s = {NS_W*TLP_SEG_COUNT{1'b0}};
    a_n1t = {2*TLP_SEG_COUNT*TLP_SEG_COUNT{1'b0}}; b_n1t = {2*TLP_SEG_COUNT*TLP_SEG_COUNT{1'b0}};
    c_nt = {2*TLP_SEG_COUNT*NC{1'b0}};
    c_big = {NC{1'b0}};
    e = {ENTRY_W{1'b0}}; e_sub = 1'b0;
    e_len = 12'd0; e_bc = 12'd0; e_blk = 12'd0; e_sub_blk = 12'd0; e_room1 = 12'd0; e_rest1 = 12'd0;
    e_len1 = 12'd0; e_len2 = 12'd0; e_la = 2'd0; e_rb1 = 12'd0; e_rb2 = 12'd0; e_ba1 = 33'd0; e_ba2 = 33'd0;
    for (fj = 0; fj < TLP_SEG_COUNT; fj = fj + 1) begin
        u_rdy[fj] = win_v_reg[fj] && (win_due_reg[fj] || ((fj == 0) && split_reg));
        // (the rest is read only when the slot's read starts)
        if (!SIM_GATE || (u_rdy[fj] && !beat_full)) begin
            e = win_reg[ENTRY_W*fj +: ENTRY_W];
            e_sub = (fj == 0) && split_reg;
            e_len = e[E_LEN +: 12];
            e_bc = e[E_BC +: 12];
            e_la = e[E_LA +: 2];
            // the entry's split size, and the one in force for the slot's next CplD
            e_blk = e[E_SP128] ? 12'd32 : 12'd16;
            u_128[fj] = e_sub ? sub_128_reg : e[E_SP128];
            e_sub_blk = sub_128_reg ? 12'd32 : 12'd16;
            e_room1 = {6'd0, e[E_ROOM1 +: 6]};
            e_rest1 = e[E_REST1 +: 12];
            u_ur[fj] = e[E_UR] && !e_sub;
            u_one[fj] = e_sub ? sub_one_reg : e[E_ONE];
            u_last2[fj] = e[E_LAST2] && !e_sub;
            u_n1s[NS_W*fj +: NS_W] = e_sub ? sub_n1s_reg : e[E_N1S +: NS_W];
            u_ws[NS_W*fj +: NS_W] = e_sub ? sub_n1s_reg : e[E_WS +: NS_W];

            // the first CplD: the read's (to the boundary when split), or the split read's next;
            // its counts from the entry, or from the split state's registers
            if (e_sub) begin
                e_len1 = sub_one_reg ? sub_dw_reg : e_sub_blk;
                e_rb1 = sub_rb_reg;
                e_ba1 = sub_ba_reg;
                c_n[12*(2*fj) +: 12] = segs_of(e_len1);
                c_lastndw[NDW_W*(2*fj) +: NDW_W] = last_ndw_of(e_len1[NDW_W-1:0]);
                c_nt[TH_W*(2*fj) +: TH_W] = sub_n1t_reg;
                c_big[2*fj] = {20'd0, e_len1} > 2 * SEG_DW_INT * TLP_SEG_COUNT;
            end else begin
                e_len1 = e[E_ONE] ? e_len : e_room1;
                e_rb1 = e_bc;
                e_ba1 = {1'b0, e[E_ADDR +: 30], e_la[1:0]};
                c_n[12*(2*fj) +: 12] = e[E_SEGS1 +: 12];
                c_lastndw[NDW_W*(2*fj) +: NDW_W] = e[E_NDW1 +: NDW_W];
                c_nt[TH_W*(2*fj) +: TH_W] = e[E_N1T +: TH_W];
                c_big[2*fj] = {20'd0, e[E_SEGS1 +: 12]} > 2 * TLP_SEG_COUNT;
            end
            c_hf[HF_W*(2*fj) +: HF_W] = cpl_hf(u_ur[fj], e[E_ATTR +: E_LEN-E_ATTR], e_len1[9:0], e_rb1, e_ba1[6:0]);
            c_dw0[30*(2*fj) +: 30] = e_ba1[31:2];
            c_ns[NS_W*(2*fj) +: NS_W] = u_n1s[NS_W*fj +: NS_W];

            // (the second CplD and the split state are read only for a read answered by several)
            if (!SIM_GATE || !u_one[fj]) begin
                // the second CplD starts at the boundary (a read's own: a split read going on
                // starts one CplD a beat)
                e_ba2 = {({1'b0, e[E_ADDR +: 30]} + {19'd0, e_room1}), 2'b00};
                e_rb2 = e[E_RB2 +: 12];
                e_len2 = e[E_LAST2] ? e_rest1 : e_blk;
                c_hf[HF_W*(2*fj+1) +: HF_W] = cpl_hf(1'b0, e[E_ATTR +: E_LEN-E_ATTR], e_len2[9:0], e_rb2, e_ba2[6:0]);
                c_dw0[30*(2*fj+1) +: 30] = e_ba2[31:2];
                c_n[12*(2*fj+1) +: 12] = e[E_SEGS2 +: 12];
                c_lastndw[NDW_W*(2*fj+1) +: NDW_W] = e[E_NDW2 +: NDW_W];
                c_ns[NS_W*(2*fj+1) +: NS_W] = e[E_N2S +: NS_W];
                c_nt[TH_W*(2*fj+1) +: TH_W] = e[E_N2T +: TH_W];
                c_big[2*fj+1] = {20'd0, e[E_SEGS2 +: 12]} > 2 * TLP_SEG_COUNT;

                // the split state after the first CplD: the entry's, or the split read's a block on
                if (e_sub) begin
                    a_dw[12*fj +: 12] = sub_dw_reg - e_sub_blk;
                    a_ba[33*fj +: 33] = sub_ba_reg + {19'd0, e_sub_blk, 2'b00};
                    a_rb[12*fj +: 12] = sub_rb_reg - {e_sub_blk[9:0], 2'b00};
                    {a_one[fj], a_n1s[NS_W*fj +: NS_W], a_n1t[TH_W*fj +: TH_W]} = next_info(sub_dw_reg, sub_128_reg, 1'b1);
                end else begin
                    a_dw[12*fj +: 12] = e_rest1;
                    a_ba[33*fj +: 33] = e_ba2;
                    a_rb[12*fj +: 12] = e_rb2;
                    {a_one[fj], a_n1s[NS_W*fj +: NS_W], a_n1t[TH_W*fj +: TH_W]} = e[E_AINFO +: INFO_W];
                end
                // and after a second that is not the last (never a split read going on)
                b_dw[12*fj +: 12] = e_rest1 - e_blk;
                b_ba[33*fj +: 33] = {({1'b0, e[E_ADDR +: 30]} + {19'd0, e_room1} + {19'd0, e_blk}), 2'b00};
                b_rb[12*fj +: 12] = e_rb2 - {e_blk[9:0], 2'b00};
                {b_one[fj], b_n1s[NS_W*fj +: NS_W], b_n1t[TH_W*fj +: TH_W]} = e[E_BINFO +: INFO_W];
            end
        end
    end

    // each candidate's p0 for the next beat when it is the last to start, by its start q
    // (one-hot: min(TLP_SEG_COUNT, q + segments - TLP_SEG_COUNT), at least 0), from the
    // segments' thermometer: p0 >= x when segments >= TLP_SEG_COUNT - q + x
    c_p0 = {NS_W*NC*TLP_SEG_COUNT{1'b0}};
    for (fc = 0; fc < NC; fc = fc + 1) if (!SIM_GATE || !beat_full) begin
        for (fq = 0; fq < TLP_SEG_COUNT; fq = fq + 1) begin
            for (q32 = 0; q32 <= SEG_32; q32 = q32 + 32'd1) begin
                c_p0[NS_W*(TLP_SEG_COUNT*fc + fq) + q32] =
                    (q32 == 32'd0 || c_nt[2*TLP_SEG_COUNT*fc + TLP_SEG_COUNT - fq + q32 - 1]) &&
                    (q32 == SEG_32 || !c_nt[2*TLP_SEG_COUNT*fc + TLP_SEG_COUNT - fq + q32]);
            end
        end
    end
end
wire unused_e = &{1'b0, e[E_T +: 32], e_ba1[32], e_ba2[32], e_ba2[1:0], e_len2[11:10], q32, 1'b0};

/*
 * The beat's prefix: positions (saturated sums), which reads start, which start a second CplD,
 * which leave
 */
reg [NS_W*(TLP_SEG_COUNT+1)-1:0] u_p;
reg [NS_W-1:0] pos, sum1;
reg all_ok;
always @* begin
    u_p = {NS_W*(TLP_SEG_COUNT+1){1'b0}};
    u_p[0 +: NS_W] = p0_reg;
    u_ok = {TLP_SEG_COUNT{1'b0}};
    u_go = {TLP_SEG_COUNT{1'b0}};
    u_two = {TLP_SEG_COUNT{1'b0}};
    u_leave = {TLP_SEG_COUNT{1'b0}};
    c_go = {NC{1'b0}};
    c_start = {NS_W*NC{1'b0}};
    all_ok = 1'b1;
    pos = {NS_W{1'b0}};
    sum1 = {NS_W{1'b0}};
    // (no read starts unless slot 0's can)
    for (pj = 0; pj < TLP_SEG_COUNT; pj = pj + 1) if (!SIM_GATE || (u_rdy[0] && !beat_full)) begin
        pos = u_p[NS_W*pj +: NS_W];
        sum1 = oh_add(pos, u_n1s[NS_W*pj +: NS_W]);
        u_p[NS_W*(pj+1) +: NS_W] = oh_add(pos, u_ws[NS_W*pj +: NS_W]);
        // a read is finished within the beat when its last CplD starts in it
        u_ok[pj] = u_rdy[pj] && !u_ur[pj] && (u_one[pj] || u_last2[pj]);
        // (a position of TLP_SEG_COUNT or more is past the beat)
        u_go[pj] = all_ok && u_rdy[pj] && !(|pos[NS_W-1 -: 2]);
        u_two[pj] = u_go[pj] && !u_one[pj] && !(pj == 0 && split_reg) && !(|sum1[NS_W-1 -: 2]);
        u_leave[pj] = u_go[pj] && (u_one[pj] || (u_two[pj] && u_last2[pj]));
        all_ok = all_ok && u_ok[pj];
        c_go[2*pj] = u_go[pj];
        c_go[2*pj+1] = u_two[pj];
        c_start[NS_W*2*pj +: NS_W] = pos;
        c_start[NS_W*(2*pj+1) +: NS_W] = sum1;
    end
    // the last CplD to start in the beat
    c_last = {NC{1'b0}};
    for (pc = 0; pc < NC; pc = pc + 1) begin
        c_last[pc] = c_go[pc] && (pc == NC - 1 || !c_go[(pc == NC - 1) ? pc : pc + 1]) &&
                     (pc >= NC - 2 || !c_go[(pc >= NC - 2) ? pc : pc + 2]);
    end
end

// (tx ready, an input, enters the plan only here and in the window's update: the blocks above
// read registers alone, so a Verilated model evaluates them once a clock, after the edge)
always @* begin
    take = u_leave & {TLP_SEG_COUNT{pl_load}};
end

/*
 * The planned beat, the next in-flight CplD and split state, segment by segment from the
 * prefix (each an OR of the one candidate that owns it)
 */
reg [11:0]  f_left;
reg         own, any_go, c_eop;
integer s, sa;
always @* begin
    pl_valid_next = {TLP_SEG_COUNT{1'b0}};
    pl_sop_next   = {TLP_SEG_COUNT{1'b0}};
    pl_eop_next   = {TLP_SEG_COUNT{1'b0}};
    pl_hf_next    = {TLP_SEG_COUNT*HF_W{1'b0}};
    pl_dw_next    = {TLP_SEG_COUNT*30{1'b0}};
    pl_off_next   = {TLP_SEG_COUNT*OFF_W{1'b0}};
    pl_ndw_next   = {TLP_SEG_COUNT*NDW_W{1'b0}};
    pl_ur_next    = |(u_go & u_ur);
    f_left = f_n_reg - f_off_reg;
    own = 1'b0;
    c_eop = 1'b0;
    any_go = |u_go;
    for (s = 0; s < TLP_SEG_COUNT; s = s + 1) begin
        if (|(p0_reg >> (s + 1))) begin
            // the rest of the CplD in flight
            pl_valid_next[s] = 1'b1;
            pl_eop_next[s] = p0_reg[s + 1] && (s + 1 < TLP_SEG_COUNT || f_ends_reg);
            pl_dw_next[30*s +: 30] = f_dw0_reg;
            pl_off_next[OFF_W*s +: OFF_W] = f_off_reg + s[OFF_W-1:0];
            pl_ndw_next[NDW_W*s +: NDW_W] = pl_eop_next[s] ? f_lastndw_reg : SEG_DW[NDW_W-1:0];
        end
        for (lc = 0; lc < NC; lc = lc + 1) if (!SIM_GATE || any_go) begin
            // candidate lc started at segment sa <= s owns s while s - sa is below its segments
            for (sa = 0; sa <= s; sa = sa + 1) begin
                own = c_go[lc] && c_start[NS_W*lc + sa] && (|(c_ns[NS_W*lc +: NS_W] >> (s - sa + 1)));
                c_eop = c_ns[NS_W*lc + s - sa + 1];
                if (own) begin
                    pl_valid_next[s] = 1'b1;
                    pl_sop_next[s] = pl_sop_next[s] | (sa == s);
                    pl_eop_next[s] = pl_eop_next[s] | c_eop;
                    pl_dw_next[30*s +: 30] = pl_dw_next[30*s +: 30] | c_dw0[30*lc +: 30];
                    pl_off_next[OFF_W*s +: OFF_W] = pl_off_next[OFF_W*s +: OFF_W] | (s[OFF_W-1:0] - sa[OFF_W-1:0]);
                    pl_ndw_next[NDW_W*s +: NDW_W] = pl_ndw_next[NDW_W*s +: NDW_W] |
                        (c_eop ? c_lastndw[NDW_W*lc +: NDW_W] : SEG_DW[NDW_W-1:0]);
                    if (sa == s) begin
                        pl_hf_next[HF_W*s +: HF_W] = pl_hf_next[HF_W*s +: HF_W] | c_hf[HF_W*lc +: HF_W];
                    end
                end
            end
        end
    end

    // the CplD in flight after the beat: the last to start, or the same one a beat on
    f_dw0_next = f_dw0_reg;
    f_n_next = f_n_reg;
    f_off_next = f_off_reg + SEG_32[11:0];
    f_lastndw_next = f_lastndw_reg;
    f_ends_next = f_left <= {SEG_32[10:0], 1'b0};
    // (min(f_left - TLP_SEG_COUNT, TLP_SEG_COUNT), at least 0, one-hot: compares of f_left with
    // constants, no second subtraction)
    for (sa = 0; sa < NS_W; sa = sa + 1) begin
        p0_next[sa] = (sa == 0) ? ({20'd0, f_left} <= SEG_32) :
                      (sa < TLP_SEG_COUNT) ? ({20'd0, f_left} == SEG_32 + sa) :
                      (sa == TLP_SEG_COUNT) && ({20'd0, f_left} >= 2 * SEG_32);
    end
    if (!(|p0_reg[NS_W-1 -: 2])) begin
        // the in-flight CplD ended in this beat
        f_off_next = f_off_reg;
        p0_next = sat_ns(12'd0);
    end
    if (any_go) begin
        f_dw0_next = {30{1'b0}};
        f_ends_next = 1'b1;
        f_n_next = 12'd0;
        f_off_next = 12'd0;
        f_lastndw_next = {NDW_W{1'b0}};
        p0_next = {NS_W{1'b0}};
        for (lc = 0; lc < NC; lc = lc + 1) begin
            if (c_last[lc]) begin
                f_dw0_next = f_dw0_next | c_dw0[30*lc +: 30];
                f_n_next = f_n_next | c_n[12*lc +: 12];
                f_lastndw_next = f_lastndw_next | c_lastndw[NDW_W*lc +: NDW_W];
                for (lq = 0; lq < TLP_SEG_COUNT; lq = lq + 1) begin
                    if (c_start[NS_W*lc + lq]) begin
                        f_off_next = f_off_next | (SEG_32[11:0] - lq[11:0]);
                        p0_next = p0_next | c_p0[NS_W*(TLP_SEG_COUNT*lc + lq) +: NS_W];
                        // started at lq, it ends within the next beat when it has at most
                        // 2 * TLP_SEG_COUNT - lq segments
                        f_ends_next = f_ends_next & ((lq == 0) ? !c_big[lc] : !c_nt[TH_W*lc + TH_W - lq]);
                    end
                end
            end
        end
    end

    // the split state: the read that started CplDs and did not leave (the last to start)
    split_next = split_reg;
    sub_dw_next = sub_dw_reg;
    sub_ba_next = sub_ba_reg;
    sub_rb_next = sub_rb_reg;
    sub_128_next = sub_128_reg;
    sub_one_next = sub_one_reg;
    sub_n1s_next = sub_n1s_reg;
    sub_n1t_next = sub_n1t_reg;
    if (any_go) begin
        split_next = |(u_go & ~u_leave);
        sub_dw_next = 12'd0;
        sub_ba_next = 33'd0;
        sub_rb_next = 12'd0;
        sub_128_next = 1'b0;
        sub_one_next = 1'b0;
        sub_n1s_next = {NS_W{1'b0}};
        sub_n1t_next = {2*TLP_SEG_COUNT{1'b0}};
        for (lj = 0; lj < TLP_SEG_COUNT; lj = lj + 1) begin
            if (u_go[lj] && !u_leave[lj]) begin
                sub_128_next = sub_128_next | u_128[lj];
                if (u_two[lj]) begin
                    sub_dw_next = sub_dw_next | b_dw[12*lj +: 12];
                    sub_ba_next = sub_ba_next | b_ba[33*lj +: 33];
                    sub_rb_next = sub_rb_next | b_rb[12*lj +: 12];
                    sub_one_next = sub_one_next | b_one[lj];
                    sub_n1s_next = sub_n1s_next | b_n1s[NS_W*lj +: NS_W];
                    sub_n1t_next = sub_n1t_next | b_n1t[2*TLP_SEG_COUNT*lj +: 2*TLP_SEG_COUNT];
                end else begin
                    sub_dw_next = sub_dw_next | a_dw[12*lj +: 12];
                    sub_ba_next = sub_ba_next | a_ba[33*lj +: 33];
                    sub_rb_next = sub_rb_next | a_rb[12*lj +: 12];
                    sub_one_next = sub_one_next | a_one[lj];
                    sub_n1s_next = sub_n1s_next | a_n1s[NS_W*lj +: NS_W];
                    sub_n1t_next = sub_n1t_next | a_n1t[2*TLP_SEG_COUNT*lj +: 2*TLP_SEG_COUNT];
                end
            end
        end
    end
end

// the reads that leave release their payload DWs on the next clock
always @* begin
    for (dj = 0; dj < TLP_SEG_COUNT; dj = dj + 1) begin
        release_dw_next[12*dj +: 12] = (take[dj] && !u_ur[dj]) ? win_reg[ENTRY_W*dj + E_LEN +: 12] : 12'd0;
    end
end
wire unused_plan = &{1'b0, own, c_eop, 1'b0};


// the output beat's payload from the plan: DW u of segment t is its CplD's first DW plus the
// segment's offset in it; a segment the payload fills (the common case) is written without a
// compare per DW
reg [29:0] seg_dw;
reg [NDW_W-1:0] seg_ndw;
reg [31:0] seg_at;
integer t, u;
always @* begin
    tx_data_next = {TLP_DATA_WIDTH{1'b0}};
    tx_strb_next = {TLP_STRB_WIDTH{1'b0}};
    seg_dw = 30'd0;
    seg_at = 32'd0;
    seg_ndw = {NDW_W{1'b0}};
    for (t = 0; t < TLP_SEG_COUNT; t = t + 1) begin
        seg_dw = pl_dw_reg[t*30 +: 30];
        seg_ndw = pl_ndw_reg[t*NDW_W +: NDW_W];
        // (nothing to do for a segment without payload: a Verilated model skips it; a full one
        // needs no compare per DW)
        if ({{(32-NDW_W){1'b0}}, seg_ndw} == SEG_DW_32) begin
            for (u = 0; u < SEG_DW_INT; u = u + 1) begin
                // the segment's DW offset in its CplD, plus u (below the segment's DWs: no carry)
                seg_at = ({20'd0, pl_off_reg[t*OFF_W +: OFF_W]} << SEG_DW_LOG2) | u;
                tx_data_next[(t*SEG_DW_INT + u)*32 +: 32] = {seg_dw + seg_at[29:0], 2'b00};
            end
            tx_strb_next[t*SEG_DW_INT +: SEG_DW_INT] = {SEG_DW_INT{1'b1}};
        end else if (seg_ndw != {NDW_W{1'b0}}) begin
            for (u = 0; u < SEG_DW_INT; u = u + 1) begin
                seg_at = ({20'd0, pl_off_reg[t*OFF_W +: OFF_W]} << SEG_DW_LOG2) | u;
                if (u < seg_ndw) begin
                    tx_data_next[(t*SEG_DW_INT + u)*32 +: 32] = {seg_dw + seg_at[29:0], 2'b00};
                    tx_strb_next[t*SEG_DW_INT + u] = 1'b1;
                end
            end
        end
    end
end
wire unused_seg_at = &{1'b0, seg_at[31:30], 1'b0};

always @(posedge clk) begin
    lfsr_reg     <= lfsr_v;
    reserved_dw_reg <= reserved_dw_reg + dw_sum(read_dw) - dw_sum(release_dw_reg);
    release_dw_reg <= release_dw_next;
    now_reg      <= now_reg + 32'd1;
    due_base_reg <= now_reg + 32'd5 - {16'd0, latency_eff};
    wr_v_reg     <= push;
    ready_reg    <= ((ready_reg && (|wr_v_reg)) ? !buffer_full3 : (ready_reg || (|wr_v_reg)) ? !buffer_full2 : !buffer_full) &&
                    ((ready_reg || (|wr_v_reg)) ? fifo_room3 : fifo_room);
    win_reg      <= win_next;
    fifo_n_reg   <= fifo_n_next;
    fifo_v_reg   <= fifo_v_next;
    win_v_reg    <= win_v_next;
    win_due_reg  <= win_due_next;
    if (pl_load) begin
        f_dw0_reg    <= f_dw0_next;
        f_n_reg      <= f_n_next;
        f_off_reg    <= f_off_next;
        f_lastndw_reg <= f_lastndw_next;
        f_ends_reg   <= f_ends_next;
        p0_reg       <= p0_next;
        split_reg    <= split_next;
        sub_dw_reg   <= sub_dw_next;
        sub_ba_reg   <= sub_ba_next;
        sub_rb_reg   <= sub_rb_next;
        sub_128_reg  <= sub_128_next;
        sub_one_reg  <= sub_one_next;
        sub_n1s_reg  <= sub_n1s_next;
        sub_n1t_reg  <= sub_n1t_next;
        pl_valid_reg <= pl_valid_next;
        pl_sop_reg   <= pl_sop_next;
        pl_eop_reg   <= pl_eop_next;
        pl_ur_reg    <= pl_ur_next;
        pl_hf_reg    <= pl_hf_next;
        pl_dw_reg    <= pl_dw_next;
        pl_off_reg   <= pl_off_next;
        pl_ndw_reg   <= pl_ndw_next;
    end
    if (tx_load) begin
        tx_valid_reg <= pl_valid_reg;
        tx_sop_reg   <= pl_sop_reg;
        tx_eop_reg   <= pl_eop_reg;
        tx_ur_reg    <= pl_ur_reg;
        tx_data_reg  <= tx_data_next;
        tx_strb_reg  <= tx_strb_next;
        for (hs = 0; hs < TLP_SEG_COUNT; hs = hs + 1) begin
            tx_hdr_reg[128*hs +: 128] <= cpl_hdr(pl_sop_reg[hs], pl_hf_reg[HF_W*hs +: HF_W]);
        end
    end

    if (rst) begin
        reserved_dw_reg <= {BUF_W{1'b0}};
        release_dw_reg <= {12*TLP_SEG_COUNT{1'b0}};
        now_reg      <= 32'd0;
        due_base_reg <= 32'd4 - {16'd0, latency_eff};
        ready_reg    <= 1'b0;
        wr_v_reg     <= {TLP_SEG_COUNT{1'b0}};
        lfsr_reg     <= LFSR_SEED;
        win_v_reg    <= {TLP_SEG_COUNT{1'b0}};
        fifo_n_reg   <= {(FIFO_AW+1){1'b0}};
        fifo_v_reg   <= {TLP_SEG_COUNT{1'b0}};
        p0_reg       <= NS_ZERO;
        split_reg    <= 1'b0;
        pl_valid_reg <= {TLP_SEG_COUNT{1'b0}};
        pl_sop_reg   <= {TLP_SEG_COUNT{1'b0}};
        pl_eop_reg   <= {TLP_SEG_COUNT{1'b0}};
        pl_ur_reg    <= 1'b0;
        tx_valid_reg <= {TLP_SEG_COUNT{1'b0}};
        tx_sop_reg   <= {TLP_SEG_COUNT{1'b0}};
        tx_eop_reg   <= {TLP_SEG_COUNT{1'b0}};
        tx_ur_reg    <= 1'b0;
    end
end

endmodule

`resetall
