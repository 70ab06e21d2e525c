`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * One switch port's emulated configuration space: a type-1 (PCI-to-PCI bridge) header
 * and a PCI Express capability at 0x40 (docs/pcie.md, "Switch configuration space").
 *
 * Reads are combinational (register number in, DW out); a write takes effect on the
 * clock it is presented. Which bits are read/write and which are write-1-to-clear is
 * the table in wmask(); everything else reads its constant from const_dw() (zero where
 * nothing is implemented, as the specification allows for optional registers).
 */
module sw_cfg_space #
(
    // Device ID (spec/switch.json: PS_SW_UP_DEVICE_ID or PS_SW_DN_DEVICE_ID)
    parameter [15:0] DEVICE_ID = `PS_SW_UP_DEVICE_ID,
    // PCI Express device/port type: 5 = upstream switch port, 6 = downstream switch port
    parameter [3:0]  PORT_TYPE = 4'd5,
    // Port Number in Link Capabilities
    parameter [7:0]  PORT_NUMBER = 8'd0
)
(
    input  wire         clk,
    input  wire         rst,

    // register number (DW index, 10 bits with the extended register number)
    input  wire [9:0]   rd_dw,
    output wire [31:0]  rd_data,

    input  wire         wr_en,
    input  wire [9:0]   wr_dw,
    input  wire [3:0]   wr_be,
    input  wire [31:0]  wr_data,

    // the real link, mirrored into Link Capabilities / Link Status
    input  wire [3:0]   link_max_speed,
    input  wire [5:0]   link_max_width,
    input  wire [3:0]   link_speed,
    input  wire [5:0]   link_width,
    input  wire         link_up,

    // sets Device Status "Unsupported Request Detected" (RW1C)
    input  wire         ur_event,

    output wire         mem_enable,
    output wire         bus_master,
    output wire [7:0]   primary_bus,
    output wire [7:0]   secondary_bus,
    output wire [7:0]   subordinate_bus,
    // memory window [mem_base, mem_limit] in 1 MiB units (address bits 31:20)
    output wire [11:0]  mem_base,
    output wire [11:0]  mem_limit,
    // prefetchable window in 1 MiB units (address bits 63:20)
    output wire [43:0]  pref_base,
    output wire [43:0]  pref_limit
);

localparam NREG = 21;  // DWs 0..20 hold every writable bit

// {rw1c mask, rw mask} of DW n: the one table of writable bits
function [63:0] wmask;
    input [9:0] n;
    begin
        case (n)
            10'd1:  wmask = {32'hF900_0000, 32'h0000_0006}; // status errors RW1C; command: memory space, bus master
            10'd3:  wmask = {32'h0000_0000, 32'h0000_00FF}; // cache line size
            10'd6:  wmask = {32'h0000_0000, 32'h00FF_FFFF}; // subordinate, secondary, primary bus
            10'd7:  wmask = {32'hF900_0000, 32'h0000_0000}; // secondary status errors RW1C (no I/O window)
            10'd8:  wmask = {32'h0000_0000, 32'hFFF0_FFF0}; // memory limit / base [31:20]
            10'd9:  wmask = {32'h0000_0000, 32'hFFF0_FFF0}; // prefetchable limit / base [31:20]
            10'd10: wmask = {32'h0000_0000, 32'hFFFF_FFFF}; // prefetchable base [63:32]
            10'd11: wmask = {32'h0000_0000, 32'hFFFF_FFFF}; // prefetchable limit [63:32]
            10'd15: wmask = {32'h0000_0000, 32'h0003_00FF}; // bridge control parity/SERR; interrupt line
            10'd18: wmask = {32'h000F_0000, 32'h0000_00EF}; // device status errors RW1C; device control
            10'd20: wmask = {32'h0000_0000, 32'h0000_00C3}; // link control: ASPM, common clock, ext. sync
            default: wmask = 64'd0;
        endcase
    end
endfunction

reg [31:0] w_reg [0:NREG-1];

// read-only contents
reg [31:0] const_dw;
always @* begin
    case (rd_dw)
        10'd0:  const_dw = {DEVICE_ID, `PS_SW_VENDOR_ID};
        10'd1:  const_dw = 32'h0010_0000;                        // status: capabilities list
        10'd2:  const_dw = {`PS_SW_CLASS_CODE, `PS_SW_REVISION_ID};
        10'd3:  const_dw = 32'h0001_0000;                        // header type 1
        10'd9:  const_dw = 32'h0001_0001;                        // 64-bit prefetchable window
        10'd13: const_dw = 32'h0000_0040;                        // capabilities pointer
        10'd16: const_dw = {8'h00, PORT_TYPE, 4'h2, 8'h00, 8'h10}; // PCIe cap v2, last in list
        10'd17: const_dw = 32'h0000_8001;                        // role-based errors, MPS 256 B
        10'd19: const_dw = {PORT_NUMBER, 14'd0, link_max_width, link_max_speed};
        10'd20: const_dw = {2'b00, link_up && PORT_TYPE == 4'd6, 3'b000, link_width, link_speed, 16'h0000};
        default: const_dw = 32'd0;
    endcase
end

wire [63:0] rd_mask = wmask(rd_dw);
wire [31:0] rd_w_mask = rd_mask[63:32] | rd_mask[31:0];
wire [31:0] rd_stored = rd_dw < NREG ? w_reg[rd_dw[4:0]] : 32'd0;
assign rd_data = (const_dw & ~rd_w_mask) | (rd_stored & rd_w_mask);

wire [63:0] wr_mask = wmask(wr_dw);
wire [31:0] wr_bytes = {{8{wr_be[3]}}, {8{wr_be[2]}}, {8{wr_be[1]}}, {8{wr_be[0]}}};
wire [31:0] wr_rw = wr_mask[31:0] & wr_bytes;
wire [31:0] wr_clear = wr_mask[63:32] & wr_bytes & wr_data;

integer i;
always @(posedge clk) begin
    if (wr_en && wr_dw < NREG) begin
        w_reg[wr_dw[4:0]] <= (w_reg[wr_dw[4:0]] & ~wr_rw & ~wr_clear) | (wr_data & wr_rw);
    end
    // an event wins over a clear in the same clock: it happened after the write was issued
    if (ur_event) begin
        w_reg[18][19] <= 1'b1;
    end
    if (rst) begin
        for (i = 0; i < NREG; i = i + 1) begin
            w_reg[i] <= 32'd0;
        end
    end
end

assign mem_enable      = w_reg[1][1];
assign bus_master      = w_reg[1][2];
assign primary_bus     = w_reg[6][7:0];
assign secondary_bus   = w_reg[6][15:8];
assign subordinate_bus = w_reg[6][23:16];
assign mem_base        = w_reg[8][15:4];
assign mem_limit       = w_reg[8][31:20];
assign pref_base       = {w_reg[10], w_reg[9][15:4]};
assign pref_limit      = {w_reg[11], w_reg[9][31:20]};

endmodule

`resetall
