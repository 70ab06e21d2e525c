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
 * completion is valid max(max(bar_latency, 2) + draw, 3) clocks after the request was
 * accepted, or later under back-pressure (completions leave in request order).
 *
 * - MRd of at most MAX_PAYLOAD_BYTES (Length * 4): CplDs with status SC. Without a
 *   split (cpl_split not 64 or 128) one CplD: Length as requested, Byte Count =
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
 * rx ready is a register: it is high on a clock only if the FIFO has room for TLP_SEG_COUNT
 * requests and the completion buffer for TLP_SEG_COUNT more reads of MAX_PAYLOAD_BYTES whatever
 * the clock before took (so it falls a beat early while the previous clock's ready was high):
 * each read taken reserves its payload (Length DWs) in a buffer of CPL_BUFFER_BYTES until its
 * last CplD starts, so a completer whose buffer is full returns no non-posted credit and
 * further reads wait on the requester's side of the link instead of in flight. tx ready is
 * honoured on every beat.
 *
 * Completions go through two registers: the plan of the next beat (headers, and per segment
 * its first payload DW address and DW count) and the output beat, whose payload words are made
 * from the plan's registers; the FIFO's head and the due-time compare never reach the payload
 * adders in one clock.
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
// DWs per segment; DW counts (remaining payload, segment width) share one width
localparam SEG_DW_INT = TLP_STRB_WIDTH/TLP_SEG_COUNT;
localparam [31:0] SEG_DW_32 = SEG_DW_INT;
localparam [31:0] MAX_DW_32 = MAX_DW;
localparam [11:0] SEG_DW = SEG_DW_32[11:0];
localparam [29:0] SEG_DW_30 = SEG_DW_32[29:0];
localparam [11:0] MAX_DW_12 = MAX_DW_32[11:0];
// segment-index bits, and the width of a count of 0..TLP_SEG_COUNT entries
localparam SEG_INDEX_WIDTH = (TLP_SEG_COUNT > 1) ? $clog2(TLP_SEG_COUNT) : 0;
localparam COUNT_WIDTH = SEG_INDEX_WIDTH + 1;

// FIFO entry: {ur, len_dw[11:0], byte_count[11:0], lower_addr[6:0], req_id[15:0],
//              tag[9:0], tc[2:0], attr[2:0], addr_dw[29:0], t_accept[31:0]}
localparam ENTRY_W = 1 + 12 + 12 + 7 + 16 + 10 + 3 + 3 + 30 + 32;

// Parameter checks at elaboration (Verilator, Icarus and Yosys alike): a wrong value selects a
// block naming a module that does not exist, the name saying what to fix
generate
    if (TLP_SEG_COUNT != 1 && TLP_SEG_COUNT != 2 && TLP_SEG_COUNT != 4) begin : g_check_tlp_seg_count
        bar_responder_TLP_SEG_COUNT_must_be_1_2_or_4 unsupported_parameter ();
    end
    if (TLP_STRB_WIDTH % TLP_SEG_COUNT != 0 || FIFO_DEPTH < TLP_SEG_COUNT) begin : g_check_tlp_strb_width
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

// free-running clock count for the accept times
reg [31:0] now_reg = 32'd0;

/*
 * Pending-request FIFO (seg_fifo, below): up to TLP_SEG_COUNT requests enter it per clock and
 * up to TLP_SEG_COUNT leave (one per completion segment)
 */
// room for a whole beat of requests; the oldest entries present (up to TLP_SEG_COUNT); the
// reads that leave with the beat taken
wire                   fifo_room, fifo_room2;
wire [COUNT_WIDTH-1:0] fifo_count;
wire [COUNT_WIDTH-1:0] fifo_pop;
wire [31:0]            fifo_count_32 = {{(32-COUNT_WIDTH){1'b0}}, fifo_count};

// due: the entry's first beat, valid two clocks later (the plan, then the output register), is
// max(bar_latency, 2) clocks past its (jittered) accept time. due_base_reg is this clock's
// now + 2 - max(bar_latency, 2), made a clock ahead, so the compare is one subtraction from the
// FIFO's word: due while it is not negative (ages stay far below 2^31 clocks)
reg  [31:0] due_base_reg = 32'd0;
wire [15:0] latency_eff = (bar_latency < 16'd2) ? 16'd2 : bar_latency;

/*
 * Completion buffer: the payload DWs of the reads taken and not yet answered (reserved when a
 * read enters the FIFO, released when its last CplD starts)
 */
localparam BUF_W = 24;
localparam [31:0] CPL_BUFFER_DW_32 = CPL_BUFFER_BYTES / 4;
localparam [31:0] BEAT_RESERVE_DW_32 = TLP_SEG_COUNT * (MAX_PAYLOAD_BYTES / 4);
reg  [BUF_W-1:0] reserved_dw_reg = {BUF_W{1'b0}};
reg  [BUF_W-1:0] push_dw, pop_dw;
wire [31:0]      reserved_dw_32 = {{(32-BUF_W){1'b0}}, reserved_dw_reg};
// room for one more beat of reads, and for two (one the current clock may take)
wire buffer_full  = (CPL_BUFFER_BYTES != 0) && (reserved_dw_32 + BEAT_RESERVE_DW_32 > CPL_BUFFER_DW_32);
wire buffer_full2 = (CPL_BUFFER_BYTES != 0) && (reserved_dw_32 + 2 * BEAT_RESERVE_DW_32 > CPL_BUFFER_DW_32);

// a beat is taken only while every segment of it would find room. Ready is registered (the
// header decode, the FIFO's write steering and the probe's taps start from a flip-flop): while
// it is high the clock may take a beat, so the next clock's ready needs room for two
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
// per segment: the entry less its accept time, and when it enters the FIFO
wire [(ENTRY_W-32)*TLP_SEG_COUNT-1:0] push_fields;
reg  [32*TLP_SEG_COUNT-1:0]          push_time;
reg  [15:0]                          lfsr_v;
reg  [32:0]                          jitter_product;
// the oldest TLP_SEG_COUNT entries (those a beat of completions can start)
wire [ENTRY_W*TLP_SEG_COUNT-1:0]     heads;
integer k;

// one segment's entry less its accept time: {ur, len_dw[11:0], ...}
reg  [ENTRY_W-33:0]                  push_entry;

always @* begin
    lfsr_v = lfsr_reg;
    push_dw = {BUF_W{1'b0}};
    push_entry = {(ENTRY_W-32){1'b0}};
    push_time = {32*TLP_SEG_COUNT{1'b0}};
    jitter_product = 33'd0;
    // the draw and the entry only for a segment that pushes (a Verilated model runs none of it
    // on the clocks without a request)
    for (k = 0; k < TLP_SEG_COUNT; k = k + 1) begin
        if (push[k]) begin
            jitter_product = {17'd0, lfsr_v} * {16'd0, {1'b0, bar_jitter} + 17'd1};
            push_time[k*32 +: 32] = now_reg + {16'd0, jitter_product[31:16]};
            push_entry = push_fields[(ENTRY_W-32)*k +: ENTRY_W-32];
            if (!push_entry[ENTRY_W-33]) begin
                push_dw = push_dw + {{(BUF_W-12){1'b0}}, push_entry[ENTRY_W-34 -: 12]};
            end
            lfsr_v = {1'b0, lfsr_v[15:1]} ^ (lfsr_v[0] ? 16'hB400 : 16'h0000);
        end
    end
end
wire unused_jitter_product = &{1'b0, jitter_product[32], jitter_product[15:0], 1'b0};

// payload beats and the end of frame play no part here
wire unused_rx = &{1'b0, rx_req_tlp_data, rx_req_tlp_strb, rx_req_tlp_eop, 1'b0};

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

        // Byte Count and Lower Address carried by the completion
        wire [11:0] req_byte_count = !req_mem_read ? 12'd4 : (req_zero_len ? 12'd1 : req_bytes[11:0]);
        wire [6:0]  req_lower_addr = req_mem_read ? {req_addr_dw[4:0], req_lead} : 7'd0;

        assign push[g] = rx_req_tlp_valid[g] && rx_req_tlp_sop[g] && rx_req_tlp_ready && req_non_posted;

        // the FIFO entry less its accept time, packed only on a clock the segment pushes
        reg [ENTRY_W-33:0] fields;
        always @* begin
            fields = {(ENTRY_W-32){1'b0}};
            if (push[g]) begin
                fields = {
                    !req_answer_data,
                    {1'b0, req_len_dw},
                    req_byte_count,
                    req_lower_addr,
                    req_hdr[95:80],                          // Requester ID
                    {req_hdr[119], req_hdr[115], req_hdr[79:72]}, // 10-bit tag
                    req_hdr[118:116],                        // TC
                    {req_hdr[114], req_hdr[109:108]},        // Attr {IDO, RO, NS}
                    req_addr_dw
                };
            end
        end
        assign push_fields[(ENTRY_W-32)*g +: ENTRY_W-32] = fields;
    end
endgenerate

// the pushes of a clock take consecutive entries in segment order, the oldest TLP_SEG_COUNT
// entries are the heads (seg_fifo: one LUT RAM bank per segment, each written and read once a
// clock)
wire [ENTRY_W*TLP_SEG_COUNT-1:0] fifo_in;
generate
    for (g = 0; g < TLP_SEG_COUNT; g = g + 1) begin : fifo_entry
        assign fifo_in[ENTRY_W*g +: ENTRY_W] = {push_fields[(ENTRY_W-32)*g +: ENTRY_W-32], push_time[g*32 +: 32]};
    end
endgenerate

seg_fifo #(.WIDTH(ENTRY_W), .SEG_COUNT(TLP_SEG_COUNT), .ADDR_WIDTH(FIFO_AW - SEG_INDEX_WIDTH), .COUNT_WIDTH(COUNT_WIDTH)) fifo_inst (
    .clk(clk), .rst(rst),
    .in_data(fifo_in), .in_valid(push), .room(fifo_room), .room2(fifo_room2),
    .out_data(heads), .out_count(fifo_count), .out_pop(fifo_pop)
);

/*
 * Completion output. One beat is TLP_SEG_COUNT segments of SEG_DW DWs; a completion starts
 * at a segment boundary and its payload runs on from there (into the next beats when longer).
 * The segments of a beat are filled in order: the rest of the completion in flight, then as
 * many completions as start in the free segments, each the next CplD of the head read (the
 * first one once it is due, a split read's next one at once). A Cpl with status UR ends its
 * beat, so that 'bar_ur' counts one per beat.
 *
 * The beat is planned a clock before it is output: the plan registers (pl_*) hold its headers
 * and, per segment, the first payload DW address and the payload DW count; the output register
 * makes the payload words from them. Each stage loads when it is empty or the next one loads.
 */
// payload DWs of one segment: 0..SEG_DW
localparam NDW_W = $clog2(SEG_DW_INT + 1);

reg                      busy_reg = 1'b0, busy_next;     // a CplD's payload continues
reg [29:0]               cur_dw_reg = 30'd0, cur_dw_next;
reg [11:0]               rem_reg = 12'd0, rem_next;
reg                      split_reg = 1'b0, split_next;   // the head's read has more CplDs to send
reg  [32:0]              sub_ba_reg = 33'd0, sub_ba_next; // byte address of that CplD's first byte
reg  [12:0]              sub_rb_reg = 13'd0, sub_rb_next; // bytes still to complete (its Byte Count)
reg  [11:0]              sub_dw_reg = 12'd0, sub_dw_next; // DWs still to send
reg                      sub_128_reg = 1'b0, sub_128_next; // the read is split at 128 bytes, not 64

// the planned beat
reg [TLP_SEG_COUNT-1:0]       pl_valid_reg = {TLP_SEG_COUNT{1'b0}}, pl_valid_next;
reg [TLP_SEG_COUNT-1:0]       pl_sop_reg = {TLP_SEG_COUNT{1'b0}}, pl_sop_next;
reg [TLP_SEG_COUNT-1:0]       pl_eop_reg = {TLP_SEG_COUNT{1'b0}}, pl_eop_next;
reg                           pl_ur_reg = 1'b0, pl_ur_next;
reg [TLP_SEG_COUNT*128-1:0]   pl_hdr_reg = {TLP_SEG_COUNT*128{1'b0}}, pl_hdr_next;
reg [TLP_SEG_COUNT*30-1:0]    pl_dw_reg = {TLP_SEG_COUNT*30{1'b0}}, pl_dw_next;
reg [TLP_SEG_COUNT*NDW_W-1:0] pl_ndw_reg = {TLP_SEG_COUNT*NDW_W{1'b0}}, pl_ndw_next;

// the output beat
reg [TLP_SEG_COUNT-1:0]     tx_valid_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     tx_sop_reg = {TLP_SEG_COUNT{1'b0}};
reg [TLP_SEG_COUNT-1:0]     tx_eop_reg = {TLP_SEG_COUNT{1'b0}};
reg                         tx_ur_reg = 1'b0;
reg [TLP_DATA_WIDTH-1:0]    tx_data_reg = {TLP_DATA_WIDTH{1'b0}}, tx_data_next;
reg [TLP_STRB_WIDTH-1:0]    tx_strb_reg = {TLP_STRB_WIDTH{1'b0}}, tx_strb_next;
reg [TLP_SEG_COUNT*128-1:0] tx_hdr_reg = {TLP_SEG_COUNT*128{1'b0}};

// the segment loop's view of the head read
reg [ENTRY_W-1:0] head;
reg         head_ur;
reg [11:0]  head_byte_count;
reg [6:0]   head_lower_addr;
reg [15:0]  head_req_id;
reg [9:0]   head_tag;
reg [2:0]   head_tc;
reg [2:0]   head_attr;
reg [29:0]  head_addr_dw;
reg         head_due;
reg  [31:0] due_d;
reg [31:0]  popped;       // reads left the FIFO so far in this beat
reg         stop;         // a UR went into this beat
// the next CplD of the head's read (byte addresses carry a 33rd bit so that a read at the top
// of the 4-GB space does not wrap)
reg [32:0]  cur_ba;
reg [12:0]  cur_rb, cur_bytes;
reg [11:0]  cur_dw_all, room_dw;
reg         cur_last, cur_128;
reg [11:0]  cur_len_dw;
reg [127:0] head_cpl_hdr;
// one segment's payload
reg [29:0]  beat_dw;
reg [11:0]  beat_rem;
reg [11:0]  beat_ndw;
integer s;

wire split_on = (cpl_split == 8'd64) || (cpl_split == 8'd128);

assign tx_cpl_tlp_data  = tx_data_reg;
assign tx_cpl_tlp_strb  = tx_strb_reg;
assign tx_cpl_tlp_hdr   = tx_hdr_reg;
assign tx_cpl_tlp_valid = tx_valid_reg;
assign tx_cpl_tlp_sop   = tx_sop_reg;
assign tx_cpl_tlp_eop   = tx_eop_reg;

assign bar_ur = (|tx_valid_reg) && tx_ur_reg && tx_cpl_tlp_ready;

// the output register takes the planned beat when it is empty or being taken, the plan the next
// beat when it is empty or being output (the plan itself is made from registers only)
wire tx_load = !(|tx_valid_reg) || tx_cpl_tlp_ready;
wire pl_load = !(|pl_valid_reg) || tx_load;

always @* begin
    busy_next     = busy_reg;
    cur_dw_next   = cur_dw_reg;
    rem_next      = rem_reg;
    split_next    = split_reg;
    sub_ba_next   = sub_ba_reg;
    sub_rb_next   = sub_rb_reg;
    sub_dw_next   = sub_dw_reg;
    sub_128_next  = sub_128_reg;
    pl_hdr_next   = pl_hdr_reg;
    popped        = 32'd0;
    pop_dw        = {BUF_W{1'b0}};
    stop          = 1'b0;

    head = {ENTRY_W{1'b0}};
    head_ur = 1'b0; head_byte_count = 12'd0; head_lower_addr = 7'd0; head_req_id = 16'd0;
    head_tag = 10'd0; head_tc = 3'd0; head_attr = 3'd0; head_addr_dw = 30'd0;
    head_due = 1'b0; due_d = 32'd0;
    cur_ba = 33'd0; cur_rb = 13'd0; cur_bytes = 13'd0; cur_dw_all = 12'd0; room_dw = 12'd0;
    cur_last = 1'b0; cur_128 = 1'b0; cur_len_dw = 12'd0; head_cpl_hdr = 128'd0;
    beat_dw = 30'd0; beat_rem = 12'd0; beat_ndw = 12'd0;

    // the beat the plan takes when it is empty or being output (pl_load)
    pl_valid_next = {TLP_SEG_COUNT{1'b0}};
    pl_sop_next   = {TLP_SEG_COUNT{1'b0}};
    pl_eop_next   = {TLP_SEG_COUNT{1'b0}};
    pl_ur_next    = 1'b0;
    pl_dw_next    = {TLP_SEG_COUNT*30{1'b0}};
    pl_ndw_next   = {TLP_SEG_COUNT*NDW_W{1'b0}};

    for (s = 0; s < TLP_SEG_COUNT; s = s + 1) begin
        // this segment's payload: the rest of the current CplD, or the start of the head's
        // (the head's fields are decoded only where a CplD may start: a Verilated model runs
        // none of it on the clocks that carry payload or nothing)
        beat_dw  = cur_dw_next;
        beat_rem = 12'd0;

        if (busy_next) begin
            beat_rem         = rem_next;
            pl_valid_next[s] = 1'b1;
            pl_eop_next[s]   = (rem_next <= SEG_DW);
            busy_next        = (rem_next > SEG_DW);
            rem_next         = rem_next - SEG_DW;
        end else if (!stop && (popped < fifo_count_32)) begin
            // the head read as seen by this segment (the FIFO's oldest not yet popped)
            head            = heads[ENTRY_W*popped +: ENTRY_W];
            head_ur         = head[ENTRY_W-1];
            head_byte_count = head[ENTRY_W-14 -: 12];
            head_lower_addr = head[ENTRY_W-26 -: 7];
            head_req_id     = head[ENTRY_W-33 -: 16];
            head_tag        = head[ENTRY_W-49 -: 10];
            head_tc         = head[ENTRY_W-59 -: 3];
            head_attr       = head[ENTRY_W-62 -: 3];
            head_addr_dw    = head[61:32];
            due_d           = due_base_reg - head[31:0];
            head_due        = !due_d[31];

            if (split_next || head_due) begin
                // the CplD ends at the end of the read or at the next multiple of the split
                // size, room_dw DWs on; counted in DWs (a read's first and last bytes are
                // within its first and last DWs), so no wide compare follows the FIFO's read.
                // A split read keeps the split size it started with.
                if (split_next) begin
                    // the rest of a split read: it starts on a multiple of the split size
                    cur_ba     = sub_ba_next;
                    cur_rb     = sub_rb_next;
                    cur_dw_all = sub_dw_next;
                    cur_128    = sub_128_next;
                    room_dw    = cur_128 ? 12'd32 : 12'd16;
                    cur_last   = (cur_dw_all <= room_dw);
                end else begin
                    cur_ba     = {1'b0, head_addr_dw, head_lower_addr[1:0]};
                    cur_rb     = (head_byte_count == 12'd0) ? 13'd4096 : {1'b0, head_byte_count};
                    cur_dw_all = head[ENTRY_W-2 -: 12];
                    cur_128    = (cpl_split == 8'd128);
                    room_dw    = cur_128 ? 12'd32 - {7'd0, head_addr_dw[4:0]} : 12'd16 - {8'd0, head_addr_dw[3:0]};
                    cur_last   = !split_on || (cur_dw_all <= room_dw);
                end
                cur_len_dw  = cur_last ? cur_dw_all : room_dw;
                // the bytes of a CplD that is not the last: to the boundary
                cur_bytes   = {room_dw[10:0], 2'b00} - (split_next ? 13'd0 : {11'd0, head_lower_addr[1:0]});

                head_cpl_hdr = {
                    head_ur ? 8'h0A : 8'h4A,                 // Fmt/Type: Cpl or CplD
                    head_tag[9], head_tc, head_tag[8], head_attr[2], 1'b0, 1'b0, // T9 TC T8 Attr2 LN TH
                    1'b0, 1'b0, head_attr[1:0], 2'b00,       // TD EP Attr[1:0] AT
                    head_ur ? 10'd0 : cur_len_dw[9:0],       // Length (1024 DW encodes as 0)
                    COMPLETER_ID,
                    head_ur ? 3'b001 : 3'b000,               // status UR or SC
                    1'b0,                                    // BCM
                    head_ur ? head_byte_count : cur_rb[11:0], // Byte Count (4096 encodes as 0)
                    head_req_id,
                    head_tag[7:0],
                    1'b0,
                    head_ur ? head_lower_addr : cur_ba[6:0],
                    32'd0                                    // no DW3 in a 3DW header
                };

                beat_dw  = cur_ba[31:2];
                pl_valid_next[s] = 1'b1;
                pl_sop_next[s]   = 1'b1;
                pl_hdr_next[s*128 +: 128] = head_cpl_hdr;
                if (head_ur) begin
                    popped         = popped + 32'd1;
                    stop           = 1'b1;
                    pl_eop_next[s] = 1'b1;
                    pl_ur_next     = 1'b1;
                end else begin
                    beat_rem = cur_len_dw;
                    // the read leaves the FIFO with its last CplD
                    if (cur_last) begin
                        popped = popped + 32'd1;
                        pop_dw = pop_dw + {{(BUF_W-12){1'b0}}, head[ENTRY_W-2 -: 12]};
                    end
                    split_next     = !cur_last;
                    sub_ba_next    = {cur_ba[32:2] + {19'd0, room_dw}, 2'b00};
                    sub_rb_next    = cur_rb - cur_bytes;
                    sub_dw_next    = cur_dw_all - room_dw;
                    sub_128_next   = cur_128;
                    // both outcomes of cur_last made beside its compare, then chosen
                    pl_eop_next[s] = cur_last ? (cur_dw_all <= SEG_DW) : (room_dw <= SEG_DW);
                    busy_next      = !pl_eop_next[s];
                    rem_next       = cur_last ? (cur_dw_all - SEG_DW) : (room_dw - SEG_DW);
                end
            end
        end

        if (pl_valid_next[s]) begin
            // the segment's payload: its first DW's address and how many DWs it holds
            beat_ndw = (beat_rem >= SEG_DW) ? SEG_DW : beat_rem;
            pl_dw_next[s*30 +: 30] = beat_dw;
            pl_ndw_next[s*NDW_W +: NDW_W] = beat_ndw[NDW_W-1:0];
            cur_dw_next = beat_dw + SEG_DW_30;
        end
    end

end

// the output beat's payload from the plan: DW j of a segment is the byte address of its first
// byte; a segment the payload fills (the common case) is written without a compare per DW
reg [31:0] seg_ba;
reg [NDW_W-1:0] seg_ndw;
integer t, u;
always @* begin
    tx_data_next = {TLP_DATA_WIDTH{1'b0}};
    tx_strb_next = {TLP_STRB_WIDTH{1'b0}};
    seg_ba = 32'd0;
    seg_ndw = {NDW_W{1'b0}};
    for (t = 0; t < TLP_SEG_COUNT; t = t + 1) begin
        seg_ba = {pl_dw_reg[t*30 +: 30], 2'b00};
        seg_ndw = pl_ndw_reg[t*NDW_W +: NDW_W];
        // (nothing to do for a segment without payload: a Verilated model skips it)
        if (seg_ndw == {NDW_W{1'b0}}) begin
            // the segment's DWs stay zero
        end else if ({{(32-NDW_W){1'b0}}, seg_ndw} == SEG_DW_32) begin
            for (u = 0; u < SEG_DW_INT; u = u + 1) begin
                tx_data_next[(t*SEG_DW_INT + u)*32 +: 32] = seg_ba + 4 * u;
            end
            tx_strb_next[t*SEG_DW_INT +: SEG_DW_INT] = {SEG_DW_INT{1'b1}};
        end else begin
            for (u = 0; u < SEG_DW_INT; u = u + 1) begin
                if (u < seg_ndw) begin
                    tx_data_next[(t*SEG_DW_INT + u)*32 +: 32] = seg_ba + 4 * u;
                    tx_strb_next[t*SEG_DW_INT + u] = 1'b1;
                end
            end
        end
    end
end

// a CplD of at most 4096 bytes: the high bits are zero; the length is re-derived per CplD
wire unused_sub = &{1'b0, room_dw[11], cur_ba[32],
                   popped[31:COUNT_WIDTH], beat_ndw[11:NDW_W], due_d[30:0], 1'b0};
assign fifo_pop = pl_load ? popped[COUNT_WIDTH-1:0] : {COUNT_WIDTH{1'b0}};

always @(posedge clk) begin
    lfsr_reg     <= lfsr_v;
    reserved_dw_reg <= reserved_dw_reg + push_dw - (pl_load ? pop_dw : {BUF_W{1'b0}});
    now_reg      <= now_reg + 32'd1;
    due_base_reg <= now_reg + 32'd3 - {16'd0, latency_eff};
    ready_reg    <= ready_reg ? (fifo_room2 && !buffer_full2) : (fifo_room && !buffer_full);
    if (pl_load) begin
        busy_reg     <= busy_next;
        split_reg    <= split_next;
        sub_ba_reg   <= sub_ba_next;
        sub_rb_reg   <= sub_rb_next;
        sub_dw_reg   <= sub_dw_next;
        sub_128_reg  <= sub_128_next;
        cur_dw_reg   <= cur_dw_next;
        rem_reg      <= rem_next;
        pl_valid_reg <= pl_valid_next;
        pl_sop_reg   <= pl_sop_next;
        pl_eop_reg   <= pl_eop_next;
        pl_ur_reg    <= pl_ur_next;
        pl_hdr_reg   <= pl_hdr_next;
        pl_dw_reg    <= pl_dw_next;
        pl_ndw_reg   <= pl_ndw_next;
    end
    if (tx_load) begin
        tx_valid_reg <= pl_valid_reg;
        tx_sop_reg   <= pl_sop_reg;
        tx_eop_reg   <= pl_eop_reg;
        tx_ur_reg    <= pl_ur_reg;
        tx_data_reg  <= tx_data_next;
        tx_strb_reg  <= tx_strb_next;
        tx_hdr_reg   <= pl_hdr_reg;
    end

    if (rst) begin
        reserved_dw_reg <= {BUF_W{1'b0}};
        now_reg      <= 32'd0;
        due_base_reg <= 32'd2 - {16'd0, latency_eff};
        ready_reg    <= 1'b0;
        lfsr_reg     <= LFSR_SEED;
        busy_reg     <= 1'b0;
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
