`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * xil_rx_merge and xil_tx_split back to back: two sources of multi-beat TLPs (requests and
 * completions, as CQ and RC deliver them) with random gaps go through the merge, its output
 * through the split, both split outputs under random ready. The split must give back each
 * source's beats exactly, in order, with their sop/eop; the merged stream must never
 * interleave two TLPs and must hold a beat that waits for ready. Prints "N passed, N failed".
 */
module tb_xil_port_streams;

localparam DATA_WIDTH = 256;
localparam TLPS = 300;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = !clk;

integer seed = 7;
integer passed = 0;
integer failed = 0;

// sources: data = {source, TLP number, beat number}; length 1..4 beats
reg [15:0] src_tlp [0:1];
reg [7:0]  src_beat [0:1];
reg [7:0]  src_len [0:1];
reg        src_valid [0:1];

wire [DATA_WIDTH-1:0] a_data = {{(DATA_WIDTH-32){1'b0}}, 8'd0, src_tlp[0], src_beat[0]};
wire [DATA_WIDTH-1:0] b_data = {{(DATA_WIDTH-32){1'b0}}, 8'd1, src_tlp[1], src_beat[1]};
// a: MRd (Fmt 000, Type 00000); b: CplD (Fmt 010, Type 01010). The header is valid with sop
// only: later beats carry the other kind's, so a split that looks past sop goes wrong
localparam [127:0] MRD_HDR = {3'b000, 5'b00000, 120'd0};
localparam [127:0] CPLD_HDR = {3'b010, 5'b01010, 120'd0};
wire [127:0] a_hdr = src_beat[0] == 0 ? MRD_HDR : CPLD_HDR;
wire [127:0] b_hdr = src_beat[1] == 0 ? CPLD_HDR : MRD_HDR;
wire a_ready, b_ready;

wire [DATA_WIDTH-1:0] m_data;
wire [DATA_WIDTH/32-1:0] m_strb;
wire [127:0] m_hdr;
wire m_valid, m_sop, m_eop, m_ready;

xil_rx_merge #(.DATA_WIDTH(DATA_WIDTH)) merge_inst (
    .clk(clk), .rst(rst),
    .a_tlp_data(a_data), .a_tlp_strb({(DATA_WIDTH/32){1'b1}}), .a_tlp_hdr(a_hdr), .a_tlp_valid(src_valid[0]),
    .a_tlp_sop(src_beat[0] == 0), .a_tlp_eop(src_beat[0] == src_len[0] - 1), .a_tlp_ready(a_ready),
    .b_tlp_data(b_data), .b_tlp_strb({(DATA_WIDTH/32){1'b1}}), .b_tlp_hdr(b_hdr), .b_tlp_valid(src_valid[1]),
    .b_tlp_sop(src_beat[1] == 0), .b_tlp_eop(src_beat[1] == src_len[1] - 1), .b_tlp_ready(b_ready),
    .out_tlp_data(m_data), .out_tlp_strb(m_strb), .out_tlp_hdr(m_hdr), .out_tlp_valid(m_valid),
    .out_tlp_sop(m_sop), .out_tlp_eop(m_eop), .out_tlp_ready(m_ready)
);

wire [DATA_WIDTH-1:0] rq_data, cc_data;
wire [DATA_WIDTH/32-1:0] rq_strb, cc_strb;
wire [127:0] rq_hdr, cc_hdr;
wire rq_valid, rq_sop, rq_eop, cc_valid, cc_sop, cc_eop;
reg rq_ready = 1'b0, cc_ready = 1'b0;

xil_tx_split #(.DATA_WIDTH(DATA_WIDTH)) split_inst (
    .clk(clk), .rst(rst),
    .in_tlp_data(m_data), .in_tlp_strb(m_strb), .in_tlp_hdr(m_hdr), .in_tlp_valid(m_valid),
    .in_tlp_sop(m_sop), .in_tlp_eop(m_eop), .in_tlp_ready(m_ready),
    .req_tlp_data(rq_data), .req_tlp_strb(rq_strb), .req_tlp_hdr(rq_hdr), .req_tlp_valid(rq_valid),
    .req_tlp_sop(rq_sop), .req_tlp_eop(rq_eop), .req_tlp_ready(rq_ready),
    .cpl_tlp_data(cc_data), .cpl_tlp_strb(cc_strb), .cpl_tlp_hdr(cc_hdr), .cpl_tlp_valid(cc_valid),
    .cpl_tlp_sop(cc_sop), .cpl_tlp_eop(cc_eop), .cpl_tlp_ready(cc_ready)
);

task check(input ok, input [8*48-1:0] what);
    begin
        if (ok) begin
            passed = passed + 1;
        end else begin
            failed = failed + 1;
            $display("FAIL at %0t: %0s", $time, what);
        end
    end
endtask

// expected next beat on each split output, and the length of the TLP in progress there
reg [15:0] exp_tlp [0:1];
reg [7:0]  exp_beat [0:1];
// lengths as the sources chose them, by TLP number
reg [7:0]  len_of [0:1][0:TLPS-1];
// the merged stream: a held beat, and the source inside a TLP
reg                  m_held = 1'b0;
reg [DATA_WIDTH-1:0] m_held_data;
reg                  m_in_tlp = 1'b0;
reg [7:0]            m_src;

integer s;

task new_tlp(input integer k);
    begin
        src_len[k] = 8'd1 + ($random(seed) & 3);
        len_of[k][src_tlp[k]] = src_len[k];
    end
endtask

initial begin
    for (s = 0; s < 2; s = s + 1) begin
        src_tlp[s] = 0;
        src_beat[s] = 0;
        src_valid[s] = 1'b0;
        exp_tlp[s] = 0;
        exp_beat[s] = 0;
        new_tlp(s);
    end
    repeat (4) @(posedge clk);
    rst <= 1'b0;
end

// sources: a beat stays offered until taken; new beats appear at random
always @(posedge clk) begin
    if (!rst) begin
        if (src_valid[0] && a_ready) begin
            src_valid[0] <= 1'b0;
            if (src_beat[0] == src_len[0] - 1) begin
                src_beat[0] <= 0;
                src_tlp[0] = src_tlp[0] + 1;
                if (src_tlp[0] < TLPS) new_tlp(0);
            end else begin
                src_beat[0] <= src_beat[0] + 1;
            end
        end
        if (src_valid[1] && b_ready) begin
            src_valid[1] <= 1'b0;
            if (src_beat[1] == src_len[1] - 1) begin
                src_beat[1] <= 0;
                src_tlp[1] = src_tlp[1] + 1;
                if (src_tlp[1] < TLPS) new_tlp(1);
            end else begin
                src_beat[1] <= src_beat[1] + 1;
            end
        end
    end
end

always @(negedge clk) begin
    if (!rst) begin
        // offer after the clock edge's updates; keep what is offered and not taken
        if (!src_valid[0] && src_tlp[0] < TLPS && ($random(seed) & 1)) src_valid[0] <= 1'b1;
        if (!src_valid[1] && src_tlp[1] < TLPS && ($random(seed) & 1)) src_valid[1] <= 1'b1;
        rq_ready <= ($random(seed) & 3) != 0;
        cc_ready <= ($random(seed) & 3) != 0;
    end
end

// the merged stream: stable while waiting, whole TLPs
always @(posedge clk) begin
    if (!rst) begin
        if (m_held) check(m_valid && m_data == m_held_data, "merge changed a beat that waited for ready");
        m_held <= m_valid && !m_ready;
        m_held_data <= m_data;
        if (m_valid && m_ready) begin
            if (m_in_tlp) check(m_data[31:24] == m_src && !m_sop, "merge interleaved two TLPs");
            m_in_tlp <= !m_eop;
            m_src <= m_data[31:24];
        end
    end
end

// split outputs: each source's beats, in order, with sop/eop
always @(posedge clk) begin
    if (!rst) begin
        if (rq_valid && rq_ready) begin
            check(rq_data[31:0] == {8'd0, exp_tlp[0], exp_beat[0]}, "requests out of order or lost");
            check(rq_sop == (exp_beat[0] == 0) && rq_eop == (exp_beat[0] == len_of[0][exp_tlp[0]] - 1), "request framing");
            if (exp_beat[0] == len_of[0][exp_tlp[0]] - 1) begin
                exp_beat[0] <= 0;
                exp_tlp[0] <= exp_tlp[0] + 1;
            end else begin
                exp_beat[0] <= exp_beat[0] + 1;
            end
        end
        if (cc_valid && cc_ready) begin
            check(cc_data[31:0] == {8'd1, exp_tlp[1], exp_beat[1]}, "completions out of order or lost");
            check(cc_sop == (exp_beat[1] == 0) && cc_eop == (exp_beat[1] == len_of[1][exp_tlp[1]] - 1), "completion framing");
            if (exp_beat[1] == len_of[1][exp_tlp[1]] - 1) begin
                exp_beat[1] <= 0;
                exp_tlp[1] <= exp_tlp[1] + 1;
            end else begin
                exp_beat[1] <= exp_beat[1] + 1;
            end
        end
    end
end

initial begin
    wait (!rst);
    while (!(exp_tlp[0] == TLPS && exp_tlp[1] == TLPS) && $time < 400000) @(posedge clk);
    check(exp_tlp[0] == TLPS, "not every request came out");
    check(exp_tlp[1] == TLPS, "not every completion came out");
    $display("%0d passed, %0d failed", passed, failed);
    $finish;
end

endmodule

`resetall
