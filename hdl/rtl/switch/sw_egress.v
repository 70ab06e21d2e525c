`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One egress port of the switch: a posted, a non-posted and a completion queue for the
 * TLPs forwarded from the other port, a fourth queue for the completions the switch
 * makes itself (configuration, UR), and the ordering arbiter.
 *
 * Ordering (PCIe Base Specification, transaction ordering table): at every TLP boundary
 * the posted queue goes first, then forwarded completions, then local completions, then
 * non-posted requests. A non-posted request or completion is therefore only sent when
 * the posted queue is empty, i.e. after every posted TLP that arrived before it: neither
 * passes posted. Posted passes both (allowed), completions pass non-posted (required
 * for deadlock freedom). Within a queue the order is arrival order. A TLP, once started,
 * keeps the output until its eop.
 */
module sw_egress #
(
    parameter TLP_DATA_WIDTH = 256,
    parameter TLP_STRB_WIDTH = TLP_DATA_WIDTH/32,
    // beats per forwarded queue and completions in the local queue, as address bits
    parameter QUEUE_ADDR_WIDTH = 4
)
(
    input  wire                       clk,
    input  wire                       rst,

    // forwarded beats; cls: 0 posted, 1 non-posted, 2 completion
    input  wire [TLP_DATA_WIDTH-1:0]  fwd_data,
    input  wire [TLP_STRB_WIDTH-1:0]  fwd_strb,
    input  wire [127:0]               fwd_hdr,
    input  wire                       fwd_sop,
    input  wire                       fwd_eop,
    input  wire [1:0]                 fwd_cls,
    input  wire                       fwd_valid,
    // any forwarded queue full: the ingress holds its ready low
    output wire                       fwd_full,

    // local completions: header and at most one payload DW
    input  wire [127:0]               loc_hdr,
    input  wire [31:0]                loc_data,
    input  wire                       loc_has_data,
    input  wire                       loc_valid,
    output wire                       loc_full,

    output wire [TLP_DATA_WIDTH-1:0]  tx_data,
    output wire [TLP_STRB_WIDTH-1:0]  tx_strb,
    output wire [127:0]               tx_hdr,
    output wire                       tx_valid,
    output wire                       tx_sop,
    output wire                       tx_eop,
    input  wire                       tx_ready
);

localparam BEAT = TLP_DATA_WIDTH + TLP_STRB_WIDTH + 128 + 2;
localparam LOC = 128 + 32 + 1;
localparam Q_P = 2'd0, Q_NP = 2'd1, Q_CPL = 2'd2, Q_LOC = 2'd3;

wire [BEAT-1:0] fwd_beat = {fwd_data, fwd_strb, fwd_hdr, fwd_sop, fwd_eop};
wire [BEAT-1:0] q_out [0:2];
wire [2:0] q_valid;
wire [2:0] q_full;
wire [3:0] pop;

genvar g;
generate
    for (g = 0; g < 3; g = g + 1) begin : q
        sw_fifo #(.WIDTH(BEAT), .ADDR_WIDTH(QUEUE_ADDR_WIDTH)) fifo (
            .clk(clk), .rst(rst),
            .in_data(fwd_beat), .in_valid(fwd_valid && fwd_cls == g), .full(q_full[g]),
            .out_data(q_out[g]), .out_valid(q_valid[g]), .out_pop(pop[g])
        );
    end
endgenerate

wire [LOC-1:0] l_out;
wire l_valid;
sw_fifo #(.WIDTH(LOC), .ADDR_WIDTH(QUEUE_ADDR_WIDTH)) loc_fifo (
    .clk(clk), .rst(rst),
    .in_data({loc_hdr, loc_data, loc_has_data}), .in_valid(loc_valid), .full(loc_full),
    .out_data(l_out), .out_valid(l_valid), .out_pop(pop[3])
);

assign fwd_full = |q_full;

// a TLP in progress keeps its queue (busy_reg); otherwise the priority order above
reg        busy_reg = 1'b0;
reg [1:0]  cur_reg = Q_P;
reg [1:0]  pick;
always @* begin
    if (q_valid[Q_P]) begin
        pick = Q_P;
    end else if (q_valid[Q_CPL]) begin
        pick = Q_CPL;
    end else if (l_valid) begin
        pick = Q_LOC;
    end else begin
        pick = Q_NP;
    end
end
wire [1:0] sel = busy_reg ? cur_reg : pick;

wire [BEAT-1:0] beat = sel == Q_LOC ? {{(TLP_DATA_WIDTH-32){1'b0}}, l_out[32:1],
                                       {(TLP_STRB_WIDTH-1){1'b0}}, l_out[0], l_out[LOC-1:33], 2'b11}
                                    : q_out[sel];
assign tx_valid = sel == Q_LOC ? l_valid : q_valid[sel];
assign {tx_data, tx_strb, tx_hdr, tx_sop, tx_eop} = beat;

wire xfer = tx_valid && tx_ready;
assign pop = xfer ? (4'b0001 << sel) : 4'b0000;

always @(posedge clk) begin
    if (xfer) begin
        busy_reg <= !tx_eop;
        cur_reg <= sel;
    end
    if (rst) begin
        busy_reg <= 1'b0;
        cur_reg <= Q_P;
    end
end

endmodule

`resetall
