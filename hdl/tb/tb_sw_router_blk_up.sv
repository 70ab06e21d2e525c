`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Directed bench of sw_router with UP_CFG_IN_BLOCK = 1 (Icarus -g2012, Verilator --binary
 * --timing): the upstream port's Type 1 header belongs to a hard block
 * (hdl/xilinx/boards/vpk120/README.md), so the fabric keeps only the downstream port's. The host enumerates the downstream port by Type 1
 * requests on the internal bus (bus 1 here, a bus number the fabric never stores), which the
 * downstream port's header answers with its own Completer ID; a Type 0 request (the block's own
 * header) reaching the fabric gets UR; requests below the downstream port's secondary bus are
 * converted to Type 0; memory routing follows the downstream port's window alone. With
 * UP_CFG_IN_BLOCK = 0 the Type 0 read would be answered (CplD) and the checks fail.
 * Closing line: "N passed, N failed".
 */
module tb_sw_router_blk_up;

parameter UP_CFG_IN_BLOCK = 1;

localparam W = 256;
localparam SW = W/32;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

integer passed = 0;
integer failed = 0;

reg  [W-1:0]  up_rx_data = 0, dn_rx_data = 0;
reg  [SW-1:0] up_rx_strb = 0, dn_rx_strb = 0;
reg  [127:0]  up_rx_hdr = 0, dn_rx_hdr = 0;
reg           up_rx_valid = 0, dn_rx_valid = 0;
wire          up_rx_ready, dn_rx_ready;
wire [W-1:0]  up_tx_data, dn_tx_data;
wire [SW-1:0] up_tx_strb, dn_tx_strb;
wire [127:0]  up_tx_hdr, dn_tx_hdr;
wire          up_tx_valid, dn_tx_valid, up_tx_sop, dn_tx_sop, up_tx_eop, dn_tx_eop;
wire [`PS_SW_CNT_COUNT*32-1:0] up_cnt, dn_cnt;

sw_router #(.TLP_DATA_WIDTH(W), .UP_CFG_IN_BLOCK(UP_CFG_IN_BLOCK)) dut (
    .clk(clk), .rst(rst),
    .up_rx_data(up_rx_data), .up_rx_strb(up_rx_strb), .up_rx_hdr(up_rx_hdr), .up_rx_valid(up_rx_valid),
    .up_rx_sop(up_rx_valid), .up_rx_eop(up_rx_valid), .up_rx_ready(up_rx_ready),
    .up_tx_data(up_tx_data), .up_tx_strb(up_tx_strb), .up_tx_hdr(up_tx_hdr), .up_tx_valid(up_tx_valid),
    .up_tx_sop(up_tx_sop), .up_tx_eop(up_tx_eop), .up_tx_ready(1'b1), .up_tx_np_ok(1'b1),
    .dn_rx_data(dn_rx_data), .dn_rx_strb(dn_rx_strb), .dn_rx_hdr(dn_rx_hdr), .dn_rx_valid(dn_rx_valid),
    .dn_rx_sop(dn_rx_valid), .dn_rx_eop(dn_rx_valid), .dn_rx_ready(dn_rx_ready),
    .dn_tx_data(dn_tx_data), .dn_tx_strb(dn_tx_strb), .dn_tx_hdr(dn_tx_hdr), .dn_tx_valid(dn_tx_valid),
    .dn_tx_sop(dn_tx_sop), .dn_tx_eop(dn_tx_eop), .dn_tx_ready(1'b1), .dn_tx_np_ok(1'b1),
    .up_link_max_speed(4'd4), .up_link_max_width(6'd8), .up_link_speed(4'd4), .up_link_width(6'd8),
    .dn_link_max_speed(4'd4), .dn_link_max_width(6'd8), .dn_link_speed(4'd4), .dn_link_width(6'd8),
    .dn_link_up(1'b1),
    .up_rx_cnt(up_cnt), .dn_rx_cnt(dn_cnt)
);

// what left each side: the last header and first DW, and how many TLPs
reg [127:0] up_seen_hdr = 0, dn_seen_hdr = 0;
reg [31:0]  up_seen_dw0 = 0;
integer     up_seen = 0, dn_seen = 0;
always @(posedge clk) begin
    if (up_tx_valid && up_tx_sop) begin
        up_seen_hdr <= up_tx_hdr;
        up_seen_dw0 <= up_tx_data[31:0];
        up_seen <= up_seen + 1;
    end
    if (dn_tx_valid && dn_tx_sop) begin
        dn_seen_hdr <= dn_tx_hdr;
        dn_seen <= dn_seen + 1;
    end
end

task check(input ok, input [8*48-1:0] what);
    begin
        if (ok) begin
            passed = passed + 1;
        end else begin
            failed = failed + 1;
            $display("FAIL %0s: up hdr %h dw0 %h, dn hdr %h", what, up_seen_hdr, up_seen_dw0, dn_seen_hdr);
        end
    end
endtask

// one single-beat TLP into a port, then time for it to cross
task send(input from_up, input [127:0] hdr, input [31:0] dw0, input has_data);
    begin
        @(negedge clk);
        if (from_up) begin
            up_rx_hdr = hdr; up_rx_data = {{(W-32){1'b0}}, dw0}; up_rx_strb = has_data ? 1 : 0; up_rx_valid = 1'b1;
            @(posedge clk);
            while (!up_rx_ready) @(posedge clk);
            @(negedge clk);
            up_rx_valid = 1'b0;
        end else begin
            dn_rx_hdr = hdr; dn_rx_data = {{(W-32){1'b0}}, dw0}; dn_rx_strb = has_data ? 1 : 0; dn_rx_valid = 1'b1;
            @(posedge clk);
            while (!dn_rx_ready) @(posedge clk);
            @(negedge clk);
            dn_rx_valid = 1'b0;
        end
        repeat (12) @(posedge clk);
    end
endtask

// header images (docs/pcie.md): configuration request, 3-DW memory read, completion with data
function [127:0] cfg(input wr, input type1, input [7:0] bus, input [4:0] dev, input [9:0] dw);
    cfg = {1'b0, wr, 1'b0, 4'b0010, type1, 14'd0, 10'd1, 16'h0000, 8'h11, 4'h0, 4'hF, bus, dev, 3'd0, 4'd0, dw, 2'b00, 32'd0};
endfunction
function [127:0] mrd(input [15:0] req_id, input [31:0] addr);
    mrd = {3'b000, 5'b00000, 14'd0, 10'd1, req_id, 8'h22, 4'h0, 4'hF, addr, 32'd0};
endfunction
function [127:0] cpld(input [15:0] req_id);
    cpld = {3'b010, 5'b01010, 14'd0, 10'd1, 16'h0200, 3'b000, 1'b0, 12'd4, req_id, 8'h33, 8'h00, 32'd0};
endfunction

wire [2:0]  up_status = up_seen_hdr[79:77];
wire [7:0]  up_cpl_bus = up_seen_hdr[95:88];
wire [4:0]  up_type = up_seen_hdr[124:120];
wire [4:0]  dn_type = dn_seen_hdr[124:120];
integer n_up, n_dn;

initial begin
    repeat (4) @(posedge clk);
    rst = 1'b0;
    repeat (4) @(posedge clk);

    // the downstream port's header on the internal bus (bus 1): buses 2..2, window 0x900xxxxx,
    // memory space and bus master on; each write completes (Cpl) from bus 1, device 0
    send(1, cfg(1, 1, 8'd1, 5'd0, 10'd6), 32'h0002_0201, 1);
    check(up_seen == 1 && up_type == 5'b01010 && up_status == 3'b000 && up_cpl_bus == 8'd1, "bus numbers written, Cpl from bus 1");
    send(1, cfg(1, 1, 8'd1, 5'd0, 10'd8), 32'h90F0_9000, 1);
    send(1, cfg(1, 1, 8'd1, 5'd0, 10'd1), 32'h0000_0006, 1);
    check(up_seen == 3 && up_status == 3'b000, "window and command written");
    send(1, cfg(0, 1, 8'd1, 5'd0, 10'd6), 32'd0, 0);
    check(up_seen == 4 && up_seen_hdr[126] && up_seen_dw0 == 32'h0002_0201, "bus numbers read back");
    send(1, cfg(0, 1, 8'd1, 5'd0, 10'd0), 32'd0, 0);
    check(up_seen == 5 && up_seen_dw0 == {`PS_SW_DN_DEVICE_ID, `PS_SW_VENDOR_ID}, "downstream port's IDs");
    send(1, cfg(0, 1, 8'd1, 5'd1, 10'd0), 32'd0, 0);
    check(up_seen == 6 && up_status == 3'b001, "device 1 on the internal bus: UR");

    // a Type 0 request is the block's business: UR, never the fabric's header
    send(1, cfg(0, 0, 8'd0, 5'd0, 10'd0), 32'd0, 0);
    check(up_seen == 7 && up_type == 5'b01010 && up_status == 3'b001 && !up_seen_hdr[126], "Type 0 read: UR");

    // below the downstream port: converted to Type 0 for the GPU
    n_dn = dn_seen;
    send(1, cfg(0, 1, 8'd2, 5'd0, 10'd0), 32'd0, 0);
    check(dn_seen == n_dn + 1 && dn_type == 5'b00100, "Type 1 to bus 2 leaves as Type 0");

    // memory: the downstream port's window alone decides
    n_dn = dn_seen;
    send(1, mrd(16'h0000, 32'h9000_0100), 32'd0, 0);
    check(dn_seen == n_dn + 1 && dn_type == 5'b00000, "host read in the window goes down");
    n_up = up_seen;
    send(1, mrd(16'h0000, 32'hA000_0000), 32'd0, 0);
    check(up_seen == n_up + 1 && up_status == 3'b001, "host read outside the window: UR");
    n_up = up_seen;
    send(0, mrd(16'h0200, 32'h1000_0000), 32'd0, 0);
    check(up_seen == n_up + 1 && up_type == 5'b00000, "GPU read outside its window goes up");
    n_dn = dn_seen;
    send(0, mrd(16'h0200, 32'h9000_0000), 32'd0, 0);
    check(dn_seen == n_dn + 1 && dn_seen_hdr[79:77] == 3'b001, "GPU read into its own window: UR");
    n_up = up_seen;
    send(0, cpld(16'h0000), 32'hCAFE_F00D, 1);
    check(up_seen == n_up + 1 && up_seen_dw0 == 32'hCAFE_F00D, "GPU's completion to bus 0 goes up");

    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0) $fatal(1, "tb_sw_router_blk_up failed");
    $finish;
end

initial begin
    #200000;
    $fatal(1, "tb_sw_router_blk_up: timeout");
end

endmodule
