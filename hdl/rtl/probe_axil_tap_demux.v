`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * AXI4-Lite 1-to-2 demultiplexer for the probe taps of a design (spec/registers.json `taps`):
 * address bit 12 (the taps' window stride, 0x1000) picks the tap, bits 11:0 go to it unchanged,
 * so each probe_csr sees the register map it has alone.
 *
 * AW and AR pass to the chosen slave in the clock they are presented. One write and one read are
 * in flight at a time (the firmware issues one access at a time anyway); the target of a write
 * is fixed by its address, so W passes from the clock after AW was taken (WREADY never depends
 * on this clock's AWVALID: a write costs one clock more than on probe_csr alone), and a second
 * AW waits for the first write's response. A slave answers (BVALID / RVALID) in a later clock
 * than the one that accepted the request, as AXI requires; probe_csr does.
 */
module probe_axil_tap_demux
(
    input  wire         clk,
    input  wire         rst,

    /*
     * AXI4-Lite slave: 13-bit address, bit 12 the tap
     */
    input  wire [12:0]  s_axil_awaddr,
    input  wire         s_axil_awvalid,
    output wire         s_axil_awready,
    input  wire [31:0]  s_axil_wdata,
    input  wire [3:0]   s_axil_wstrb,
    input  wire         s_axil_wvalid,
    output wire         s_axil_wready,
    output wire [1:0]   s_axil_bresp,
    output wire         s_axil_bvalid,
    input  wire         s_axil_bready,
    input  wire [12:0]  s_axil_araddr,
    input  wire         s_axil_arvalid,
    output wire         s_axil_arready,
    output wire [31:0]  s_axil_rdata,
    output wire [1:0]   s_axil_rresp,
    output wire         s_axil_rvalid,
    input  wire         s_axil_rready,

    /*
     * AXI4-Lite masters, tap i's handshakes at bit i, its data at [32*i +: 32]
     */
    output wire [11:0]  m_axil_awaddr,
    output wire [1:0]   m_axil_awvalid,
    input  wire [1:0]   m_axil_awready,
    output wire [31:0]  m_axil_wdata,
    output wire [3:0]   m_axil_wstrb,
    output wire [1:0]   m_axil_wvalid,
    input  wire [1:0]   m_axil_wready,
    input  wire [3:0]   m_axil_bresp,
    input  wire [1:0]   m_axil_bvalid,
    output wire [1:0]   m_axil_bready,
    output wire [11:0]  m_axil_araddr,
    output wire [1:0]   m_axil_arvalid,
    input  wire [1:0]   m_axil_arready,
    input  wire [63:0]  m_axil_rdata,
    input  wire [3:0]   m_axil_rresp,
    input  wire [1:0]   m_axil_rvalid,
    output wire [1:0]   m_axil_rready
);

// write: busy from the AW handshake to the B handshake; the target is latched with the AW
reg wr_busy = 1'b0;
reg wr_sel = 1'b0;
reg w_done = 1'b0;

wire w_sel = wr_busy ? wr_sel : s_axil_awaddr[12];
wire [1:0] w_onehot = w_sel ? 2'b10 : 2'b01;

assign m_axil_awaddr = s_axil_awaddr[11:0];
assign m_axil_awvalid = (s_axil_awvalid && !wr_busy) ? w_onehot : 2'b00;
assign s_axil_awready = !wr_busy && m_axil_awready[w_sel];
assign m_axil_wdata = s_axil_wdata;
assign m_axil_wstrb = s_axil_wstrb;
assign m_axil_wvalid = (s_axil_wvalid && wr_busy && !w_done) ? w_onehot : 2'b00;
assign s_axil_wready = wr_busy && !w_done && m_axil_wready[wr_sel];
assign s_axil_bvalid = wr_busy && m_axil_bvalid[wr_sel];
assign s_axil_bresp = wr_sel ? m_axil_bresp[3:2] : m_axil_bresp[1:0];
assign m_axil_bready = (wr_busy && s_axil_bready) ? (wr_sel ? 2'b10 : 2'b01) : 2'b00;

wire aw_hs = s_axil_awvalid && s_axil_awready;
wire w_hs = s_axil_wvalid && s_axil_wready;
wire b_hs = s_axil_bvalid && s_axil_bready;

always @(posedge clk) begin
    if (rst) begin
        wr_busy <= 1'b0;
        wr_sel <= 1'b0;
        w_done <= 1'b0;
    end else if (b_hs) begin
        wr_busy <= 1'b0;
        w_done <= 1'b0;
    end else begin
        if (aw_hs) begin
            wr_busy <= 1'b1;
            wr_sel <= s_axil_awaddr[12];
        end
        if (w_hs) begin
            w_done <= 1'b1;
        end
    end
end

// read: busy from the AR handshake to the R handshake
reg rd_busy = 1'b0;
reg rd_sel = 1'b0;

wire r_sel = rd_busy ? rd_sel : s_axil_araddr[12];

assign m_axil_araddr = s_axil_araddr[11:0];
assign m_axil_arvalid = (s_axil_arvalid && !rd_busy) ? (r_sel ? 2'b10 : 2'b01) : 2'b00;
assign s_axil_arready = !rd_busy && m_axil_arready[r_sel];
assign s_axil_rvalid = rd_busy && m_axil_rvalid[rd_sel];
assign s_axil_rdata = rd_sel ? m_axil_rdata[63:32] : m_axil_rdata[31:0];
assign s_axil_rresp = rd_sel ? m_axil_rresp[3:2] : m_axil_rresp[1:0];
assign m_axil_rready = (rd_busy && s_axil_rready) ? (rd_sel ? 2'b10 : 2'b01) : 2'b00;

always @(posedge clk) begin
    if (rst) begin
        rd_busy <= 1'b0;
        rd_sel <= 1'b0;
    end else if (s_axil_rvalid && s_axil_rready) begin
        rd_busy <= 1'b0;
    end else if (s_axil_arvalid && s_axil_arready) begin
        rd_busy <= 1'b1;
        rd_sel <= s_axil_araddr[12];
    end
end

endmodule

`resetall
