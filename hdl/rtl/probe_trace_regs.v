`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Trace registers: the TRC_* window of spec/registers.json, behind probe_csr.
 *
 * probe_csr decodes the AXI4-Lite channels and hands over every write into the window (wr_fire
 * with its held address, data and strobes, on the clock that raises BVALID) and takes the word
 * of a read in the window from rdata. That word is loaded here on the clock of the read's AR
 * handshake (ar_fire, araddr), one clock before probe_csr registers its group's word and two
 * before RDATA, so the register mux here is a stage of its own. TRC_RD_INDEX's write is passed on the clock it fires
 * (rd_index_wr, with the written value) so that the record it names is read from the ring by
 * the clock after, when the earliest AR handshake can follow the write response.
 *
 * Commands (TRC_CMD) are pulses on the write's clock. Settings are plain registers, used by the
 * trace unit's stages as they are: set them before ARM.
 */
module probe_trace_regs #
(
    // ring depth in records (reported in TRC_DEPTH)
    parameter DEPTH = 4096,
    // the tap id shown in each record (TRC_REC_INFO bits 31:24)
    parameter TAP_ID = 0
)
(
    input  wire          clk,
    input  wire          rst,

    // probe_csr's side: writes into the window, reads from it
    input  wire          wr_fire,
    input  wire [11:2]   waddr,
    input  wire [31:0]   wdata,
    input  wire [3:0]    wstrb,
    input  wire          ar_fire,
    input  wire [11:2]   araddr,
    output wire [31:0]   rdata,

    // commands
    output wire          cmd_arm,
    output wire          cmd_force,
    output wire          cmd_stop,
    output wire          rd_index_wr,
    output wire [31:0]   rd_index_value,

    // settings
    output wire [31:0]   pre,
    output wire [9:0]    trig_en,
    output wire [4:0]    trig_types,
    output wire [63:0]   trig_base,
    output wire [63:0]   trig_limit,
    output wire [15:0]   trig_rid,
    output wire [9:0]    trig_tag,
    output wire [10:0]   trig_len,
    output wire [2:0]    trig_status,
    output wire [31:0]   trig_latency,
    output wire [10:0]   trig_outstanding,
    output wire [4:0]    filt_types,
    output wire          filt_en,
    output wire [63:0]   filt_base,
    output wire [63:0]   filt_limit,

    // status
    input  wire [1:0]    state,
    input  wire          triggered,
    input  wire          full,
    input  wire [31:0]   count,
    input  wire [31:0]   trig_pos,
    input  wire [47:0]   trig_ts,
    input  wire [31:0]   lost,
    // the record at TRC_RD_INDEX: {stream, segment[1:0], timestamp[47:0], header[127:0]}
    input  wire [178:0]  rec
);

localparam [31:0] DEPTH_VALUE = DEPTH;
localparam [7:0]  TAP_ID_VALUE = TAP_ID;
localparam [31:0] FILT_TYPES_RESET = `PS_REG_TRC_FILT_TYPES_RESET;

// the narrow settings are held as whole words, written through the byte strobes like the
// others (a write's new word formed on its clock only) and read back with their unused bits
// zero; synthesis keeps the flip-flops of the bits something reads
reg [31:0] pre_reg = 32'd0;
reg [31:0] trig_en_word = 32'd0;
reg [31:0] trig_types_word = 32'd0;
reg [63:0] trig_base_reg = 64'd0;
reg [63:0] trig_limit_reg = 64'd0;
reg [31:0] trig_rid_word = 32'd0;
reg [31:0] trig_tag_word = 32'd0;
reg [31:0] trig_len_word = 32'd0;
reg [31:0] trig_status_word = 32'd0;
reg [31:0] trig_latency_reg = 32'd0;
reg [31:0] trig_outstanding_word = 32'd0;
reg [31:0] filt_types_word = FILT_TYPES_RESET;
reg [31:0] filt_en_word = 32'd0;
reg [63:0] filt_base_reg = 64'd0;
reg [63:0] filt_limit_reg = 64'd0;
reg [31:0] rd_index_reg = 32'd0;
reg [31:0] rdata_reg = 32'd0;

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

wire [31:0] wr_word = lanes(32'd0, wdata, wstrb);
wire unused_wr_word = &{1'b0, wr_word[31:3], 1'b0};
wire        wr_cmd  = wr_fire && ({waddr, 2'b00} == `PS_REG_TRC_CMD);

assign cmd_arm        = wr_cmd && wr_word[`PS_REG_TRC_CMD_ARM_BIT];
assign cmd_force      = wr_cmd && wr_word[`PS_REG_TRC_CMD_FORCE_BIT];
assign cmd_stop       = wr_cmd && wr_word[`PS_REG_TRC_CMD_STOP_BIT];
assign rd_index_wr    = wr_fire && ({waddr, 2'b00} == `PS_REG_TRC_RD_INDEX);
assign rd_index_value = lanes(rd_index_reg, wdata, wstrb);

assign pre              = pre_reg;
assign trig_en          = trig_en_word[9:0];
assign trig_types       = trig_types_word[4:0];
assign trig_base        = trig_base_reg;
assign trig_limit       = trig_limit_reg;
assign trig_rid         = trig_rid_word[15:0];
assign trig_tag         = trig_tag_word[9:0];
assign trig_len         = trig_len_word[10:0];
assign trig_status      = trig_status_word[2:0];
assign trig_latency     = trig_latency_reg;
assign trig_outstanding = trig_outstanding_word[10:0];
assign filt_types       = filt_types_word[4:0];
assign filt_en          = filt_en_word[`PS_REG_TRC_FILT_CTRL_EN_BIT];
assign filt_base        = filt_base_reg;
assign filt_limit       = filt_limit_reg;
assign rdata            = rdata_reg;

// the settings' words as read back (and as a partial write starts from)
wire [31:0] w_pre      = pre_reg;
wire [31:0] w_trig_en  = {22'd0, trig_en_word[9:0]};
wire [31:0] w_types    = {27'd0, trig_types_word[4:0]};
wire [31:0] w_rid      = {16'd0, trig_rid_word[15:0]};
wire [31:0] w_tag      = {22'd0, trig_tag_word[9:0]};
wire [31:0] w_len      = {21'd0, trig_len_word[10:0]};
wire [31:0] w_status   = {29'd0, trig_status_word[2:0]};
wire [31:0] w_out      = {21'd0, trig_outstanding_word[10:0]};
wire [31:0] w_ftypes   = {27'd0, filt_types_word[4:0]};
wire [31:0] w_fctrl    = {31'd0, filt_en};

wire unused_narrow = &{1'b0, trig_en_word[31:10], trig_types_word[31:5], trig_rid_word[31:16], trig_tag_word[31:10],
                       trig_len_word[31:11], trig_status_word[31:3], trig_outstanding_word[31:11],
                       filt_types_word[31:5], filt_en_word, 1'b0};

always @(posedge clk) begin
    if (wr_fire) begin
        case ({waddr, 2'b00})
            `PS_REG_TRC_PRE:              pre_reg <= lanes(w_pre, wdata, wstrb);
            `PS_REG_TRC_TRIG_EN:          trig_en_word <= lanes(trig_en_word, wdata, wstrb);
            `PS_REG_TRC_TRIG_TYPES:       trig_types_word <= lanes(trig_types_word, wdata, wstrb);
            `PS_REG_TRC_TRIG_BASE_LO:     trig_base_reg[31:0] <= lanes(trig_base_reg[31:0], wdata, wstrb);
            `PS_REG_TRC_TRIG_BASE_HI:     trig_base_reg[63:32] <= lanes(trig_base_reg[63:32], wdata, wstrb);
            `PS_REG_TRC_TRIG_LIMIT_LO:    trig_limit_reg[31:0] <= lanes(trig_limit_reg[31:0], wdata, wstrb);
            `PS_REG_TRC_TRIG_LIMIT_HI:    trig_limit_reg[63:32] <= lanes(trig_limit_reg[63:32], wdata, wstrb);
            `PS_REG_TRC_TRIG_RID:         trig_rid_word <= lanes(trig_rid_word, wdata, wstrb);
            `PS_REG_TRC_TRIG_TAG:         trig_tag_word <= lanes(trig_tag_word, wdata, wstrb);
            `PS_REG_TRC_TRIG_LEN:         trig_len_word <= lanes(trig_len_word, wdata, wstrb);
            `PS_REG_TRC_TRIG_STATUS:      trig_status_word <= lanes(trig_status_word, wdata, wstrb);
            `PS_REG_TRC_TRIG_LATENCY:     trig_latency_reg <= lanes(trig_latency_reg, wdata, wstrb);
            `PS_REG_TRC_TRIG_OUTSTANDING: trig_outstanding_word <= lanes(trig_outstanding_word, wdata, wstrb);
            `PS_REG_TRC_FILT_TYPES:       filt_types_word <= lanes(filt_types_word, wdata, wstrb);
            `PS_REG_TRC_FILT_CTRL:        filt_en_word <= lanes(filt_en_word, wdata, wstrb);
            `PS_REG_TRC_FILT_BASE_LO:     filt_base_reg[31:0] <= lanes(filt_base_reg[31:0], wdata, wstrb);
            `PS_REG_TRC_FILT_BASE_HI:     filt_base_reg[63:32] <= lanes(filt_base_reg[63:32], wdata, wstrb);
            `PS_REG_TRC_FILT_LIMIT_LO:    filt_limit_reg[31:0] <= lanes(filt_limit_reg[31:0], wdata, wstrb);
            `PS_REG_TRC_FILT_LIMIT_HI:    filt_limit_reg[63:32] <= lanes(filt_limit_reg[63:32], wdata, wstrb);
            `PS_REG_TRC_RD_INDEX:         rd_index_reg <= lanes(rd_index_reg, wdata, wstrb);
            default: begin
                // read-only, write-only commands (decoded above) or unmapped
            end
        endcase
    end
    if (rst) begin
        pre_reg <= 32'd0;
        trig_en_word <= 32'd0;
        trig_types_word <= 32'd0;
        trig_base_reg <= 64'd0;
        trig_limit_reg <= 64'd0;
        trig_rid_word <= 32'd0;
        trig_tag_word <= 32'd0;
        trig_len_word <= 32'd0;
        trig_status_word <= 32'd0;
        trig_latency_reg <= 32'd0;
        trig_outstanding_word <= 32'd0;
        filt_types_word <= FILT_TYPES_RESET;
        filt_en_word <= 32'd0;
        filt_base_reg <= 64'd0;
        filt_limit_reg <= 64'd0;
        rd_index_reg <= 32'd0;
    end
end

// the word a read names, loaded on its AR handshake
wire [31:0] rec_info = {TAP_ID_VALUE, 5'd0, rec[178], rec[177:176], rec[175:160]};
wire [31:0] status_word = {28'd0, full, triggered, state};

function [31:0] word_at(input [11:2] addr);
    begin
        word_at = 32'd0;
        case ({addr, 2'b00})
            `PS_REG_TRC_STATUS:           word_at = status_word;
            `PS_REG_TRC_DEPTH:            word_at = DEPTH_VALUE;
            `PS_REG_TRC_COUNT:            word_at = count;
            `PS_REG_TRC_TRIG_POS:         word_at = trig_pos;
            `PS_REG_TRC_TRIG_TS_LO:       word_at = trig_ts[31:0];
            `PS_REG_TRC_TRIG_TS_HI:       word_at = {16'd0, trig_ts[47:32]};
            `PS_REG_TRC_LOST:             word_at = lost;
            `PS_REG_TRC_PRE:              word_at = w_pre;
            `PS_REG_TRC_TRIG_EN:          word_at = w_trig_en;
            `PS_REG_TRC_TRIG_TYPES:       word_at = w_types;
            `PS_REG_TRC_TRIG_BASE_LO:     word_at = trig_base_reg[31:0];
            `PS_REG_TRC_TRIG_BASE_HI:     word_at = trig_base_reg[63:32];
            `PS_REG_TRC_TRIG_LIMIT_LO:    word_at = trig_limit_reg[31:0];
            `PS_REG_TRC_TRIG_LIMIT_HI:    word_at = trig_limit_reg[63:32];
            `PS_REG_TRC_TRIG_RID:         word_at = w_rid;
            `PS_REG_TRC_TRIG_TAG:         word_at = w_tag;
            `PS_REG_TRC_TRIG_LEN:         word_at = w_len;
            `PS_REG_TRC_TRIG_STATUS:      word_at = w_status;
            `PS_REG_TRC_TRIG_LATENCY:     word_at = trig_latency_reg;
            `PS_REG_TRC_TRIG_OUTSTANDING: word_at = w_out;
            `PS_REG_TRC_FILT_TYPES:       word_at = w_ftypes;
            `PS_REG_TRC_FILT_CTRL:        word_at = w_fctrl;
            `PS_REG_TRC_FILT_BASE_LO:     word_at = filt_base_reg[31:0];
            `PS_REG_TRC_FILT_BASE_HI:     word_at = filt_base_reg[63:32];
            `PS_REG_TRC_FILT_LIMIT_LO:    word_at = filt_limit_reg[31:0];
            `PS_REG_TRC_FILT_LIMIT_HI:    word_at = filt_limit_reg[63:32];
            `PS_REG_TRC_RD_INDEX:         word_at = rd_index_reg;
            `PS_REG_TRC_REC_DW0:          word_at = rec[127:96];
            `PS_REG_TRC_REC_DW1:          word_at = rec[95:64];
            `PS_REG_TRC_REC_DW2:          word_at = rec[63:32];
            `PS_REG_TRC_REC_DW3:          word_at = rec[31:0];
            `PS_REG_TRC_REC_TS_LO:        word_at = rec[159:128];
            `PS_REG_TRC_REC_INFO:         word_at = rec_info;
            default:                      word_at = 32'd0;
        endcase
    end
endfunction

always @(posedge clk) begin
    if (ar_fire) begin
        rdata_reg <= word_at(araddr[11:2]);
    end
end

endmodule

`resetall
