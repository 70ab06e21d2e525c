`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Self-checking bench of bar_responder with TLP_SEG_COUNT segments per 512-bit beat (Icarus
 * -g2012 and Verilator --binary --timing): every segment of a request beat may carry a
 * request (MRd of 1..64 DW with any byte enables, MRd longer than MPS, IO reads: UR; MWr:
 * dropped), completions are taken under random back-pressure, and every completion is checked
 * against its read: status, Byte Count, Lower Address, a split only at a CPL_SPLIT boundary,
 * payload DW i = its DW address, completions started in request order, every read answered
 * exactly once with all its bytes. Parameters: SEG (1, 2, 4), SPLIT (0, 64, 128), SEED.
 * The closing line: "N passed, N failed".
 */
// testbench arithmetic mixes integer bookkeeping with DUT-width vectors on purpose
/* verilator lint_off WIDTH */
module tb_bar_responder_seg;

parameter SEG = 4;
parameter SPLIT = 64;
parameter SEED = 1;
parameter REQS = 3000;

localparam DATA_WIDTH = 512;
localparam STRB_WIDTH = DATA_WIDTH/32;
localparam SEG_DW = STRB_WIDTH/SEG;
localparam MPS = 256;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;

reg  [DATA_WIDTH-1:0] rx_data = 0;
reg  [STRB_WIDTH-1:0] rx_strb = 0;
reg  [SEG*128-1:0]    rx_hdr = 0;
reg  [SEG-1:0]        rx_valid = 0;
reg  [SEG-1:0]        rx_sop = 0;
reg  [SEG-1:0]        rx_eop = 0;
wire                  rx_ready;
wire [DATA_WIDTH-1:0] tx_data;
wire [STRB_WIDTH-1:0] tx_strb;
wire [SEG*128-1:0]    tx_hdr;
wire [SEG-1:0]        tx_valid;
wire [SEG-1:0]        tx_sop;
wire [SEG-1:0]        tx_eop;
reg                   tx_ready = 1'b1;
wire                  bar_ur;

bar_responder #(
    .TLP_DATA_WIDTH(DATA_WIDTH),
    .TLP_SEG_COUNT(SEG),
    .MAX_PAYLOAD_BYTES(MPS),
    .FIFO_DEPTH(64)
) dut (
    .clk(clk), .rst(rst),
    .rx_req_tlp_data(rx_data), .rx_req_tlp_strb(rx_strb), .rx_req_tlp_hdr(rx_hdr),
    .rx_req_tlp_valid(rx_valid), .rx_req_tlp_sop(rx_sop), .rx_req_tlp_eop(rx_eop),
    .rx_req_tlp_ready(rx_ready),
    .tx_cpl_tlp_data(tx_data), .tx_cpl_tlp_strb(tx_strb), .tx_cpl_tlp_hdr(tx_hdr),
    .tx_cpl_tlp_valid(tx_valid), .tx_cpl_tlp_sop(tx_sop), .tx_cpl_tlp_eop(tx_eop),
    .tx_cpl_tlp_ready(tx_ready),
    .bar_latency(16'd3), .bar_jitter(16'd5), .cpl_split(SPLIT[7:0]), .bar_ur(bar_ur)
);

integer passed = 0, failed = 0;
integer seed = SEED;

// per tag (10 bits): what the read expects
reg        t_active [0:1023];
reg        t_ur     [0:1023];
reg [31:0] t_next   [0:1023];  // byte address of the next completion's first byte
reg [12:0] t_rem    [0:1023];  // bytes still to come
// request order of the non-posted requests, and how far the completions have started
reg [9:0]  order [0:REQS-1];
integer    n_order = 0, n_started = 0;
integer    n_issued = 0, n_done = 0, n_ur = 0, n_ur_seen = 0, n_cpl = 0;
integer    multi_req_beats = 0, multi_cpl_beats = 0;
reg [9:0]  next_tag = 0;
reg [SEG*128-1:0] hdr_build = 0;

task check(input ok, input [8*48-1:0] what);
    begin
        if (ok) passed = passed + 1;
        else begin
            failed = failed + 1;
            if (failed < 20) $display("FAIL %0s at %0t tag %0d bc %0d want %0d h %h", what, $time, tg, bc, want_bc, h);
        end
    end
endtask

function [127:0] mk_hdr(input [2:0] fmt, input [4:0] typ, input [9:0] len, input [9:0] tag,
                        input [3:0] lbe, input [3:0] fbe, input [31:0] addr);
    mk_hdr = {fmt, typ, tag[9], 3'd0, tag[8], 3'd0, 4'd0, 2'b00, len,
              16'h0100, tag[7:0], lbe, fbe, addr[31:2], 2'b00, 32'd0};
endfunction

function integer lead(input [3:0] be);
    lead = be[0] ? 0 : be[1] ? 1 : be[2] ? 2 : 3;
endfunction
function integer trail(input [3:0] be);
    trail = be[3] ? 0 : be[2] ? 1 : be[1] ? 2 : 3;
endfunction

// one request into segment s of the beat being built; returns whether it is non-posted
task put_req(input integer s);
    integer kind, len, nb;
    reg [3:0] fbe, lbe;
    reg [31:0] addr;
    reg [9:0] tag;
    begin
        kind = $unsigned($random(seed)) % 16;
        len = 1 + $unsigned($random(seed)) % 64;
        addr = {$random(seed)} & 32'h3FFF_FFFC;
        fbe = 4'hF; lbe = 4'hF;
        case ($unsigned($random(seed)) % 4)
            0: fbe = 4'hE; 1: fbe = 4'hC; 2: fbe = 4'h8; default: fbe = 4'hF;
        endcase
        case ($unsigned($random(seed)) % 4)
            0: lbe = 4'h7; 1: lbe = 4'h3; 2: lbe = 4'h1; default: lbe = 4'hF;
        endcase
        if (len == 1) lbe = 4'h0;
        tag = next_tag;
        next_tag = next_tag + 10'd1;
        t_active[tag] = 1'b1;
        t_ur[tag] = 1'b0;
        if (kind == 0) begin  // MRd longer than MPS: UR
            len = MPS/4 + 1 + $unsigned($random(seed)) % 8;
            hdr_build[s*128 +: 128] = mk_hdr(3'b000, 5'b00000, len, tag, 4'hF, 4'hF, addr);
            t_ur[tag] = 1'b1;
        end else if (kind == 1) begin  // IO read: UR
            hdr_build[s*128 +: 128] = mk_hdr(3'b000, 5'b00010, 10'd1, tag, 4'h0, 4'hF, addr);
            t_ur[tag] = 1'b1;
        end else if (kind == 2) begin  // MWr of one DW: posted, dropped
            hdr_build[s*128 +: 128] = mk_hdr(3'b010, 5'b00000, 10'd1, tag, 4'h0, 4'hF, addr);
            t_active[tag] = 1'b0;
        end else begin
            hdr_build[s*128 +: 128] = mk_hdr(3'b000, 5'b00000, len, tag, lbe, fbe, addr);
            nb = (len == 1) ? (4 - lead(fbe) - trail(fbe)) : (len*4 - lead(fbe) - trail(lbe));
            if (len == 1 && fbe == 4'hE) nb = 3;
            if (len == 1 && fbe == 4'hC) nb = 2;
            if (len == 1 && fbe == 4'h8) nb = 1;
            t_next[tag] = addr + lead(fbe);
            t_rem[tag] = nb;
        end
        if (t_active[tag]) begin
            order[n_order] = tag;
            n_order = n_order + 1;
        end
        rx_valid[s] = 1'b1;
        rx_sop[s] = 1'b1;
        rx_eop[s] = 1'b1;
    end
endtask

// driver: a new beat of 0..SEG requests once the last one was taken
integer s, nreq;
initial begin
    for (s = 0; s < 1024; s = s + 1) t_active[s] = 1'b0;
    repeat (8) @(negedge clk);
    rst = 1'b0;
    while (n_issued < REQS) begin
        @(negedge clk);
        if (rx_valid == 0 || rx_ready_taken) begin
            rx_valid = 0; rx_sop = 0; rx_eop = 0;
            nreq = $unsigned($random(seed)) % (SEG + 2);
            if (nreq > SEG) nreq = SEG;
            if (n_issued + nreq > REQS) nreq = REQS - n_issued;
            for (s = 0; s < nreq; s = s + 1) put_req(s);
            // the whole bus in one assignment (Verilator 5.006 --timing missed part-selects
            // written inside the task)
            rx_hdr = hdr_build;
            n_issued = n_issued + nreq;
            if (nreq > 1) multi_req_beats = multi_req_beats + 1;
        end
        tx_ready = ($unsigned($random(seed)) % 4) != 0;
    end
    // the rest drains at full rate
    tx_ready = 1'b1;
    @(negedge clk);
    if (rx_ready_taken) begin rx_valid = 0; rx_sop = 0; rx_eop = 0; end
    while (rx_valid != 0) begin
        @(negedge clk);
        if (rx_ready_taken) begin rx_valid = 0; rx_sop = 0; rx_eop = 0; end
    end
end

// the beat on the request bus was taken at the last edge
reg rx_ready_taken = 1'b0;
always @(posedge clk) rx_ready_taken <= rx_ready;

// monitor: completions, segment by segment
reg        c_active = 1'b0;
reg [9:0]  c_tag;
reg        c_data;
reg [31:0] c_dw_addr;
integer    c_dws, c_len, c_bytes;
reg        c_last;
reg [127:0] h;
integer    j, m, sops;
reg [9:0]  tg;
reg [11:0] bc;
integer    want_bc;

always @(posedge clk) begin
    if (!rst && tx_ready && (tx_valid != 0)) begin
        sops = 0;
        for (m = 0; m < SEG; m = m + 1) begin
            if (tx_valid[m]) begin
                if (tx_sop[m]) begin
                    sops = sops + 1;
                    check(!c_active, "sop while a completion is open");
                    h = tx_hdr[m*128 +: 128];
                    tg = {h[119], h[115], h[47:40]};
                    bc = h[75:64];
                    c_active = 1'b1;
                    c_tag = tg;
                    c_data = h[126];
                    c_len = (h[105:96] == 0) ? 1024 : h[105:96];
                    c_dws = 0;
                    check(t_active[tg], "completion for no open read");
                    // the first completion of a read starts in request order
                    if (t_active[tg] && !(n_started > 0 && order[n_started-1] == tg && !t_ur[tg])) begin
                        check(n_started < n_order && order[n_started] == tg, "completion out of request order");
                        n_started = n_started + 1;
                    end
                    check(h[95:80] == 16'h0200, "completer id");
                    check(h[63:48] == 16'h0100, "requester id");
                    if (t_ur[tg]) begin
                        check(!c_data && h[79:77] == 3'b001, "UR Cpl status/format");
                        c_last = 1'b1;
                        c_bytes = 0;
                        n_ur_seen = n_ur_seen + 1;
                    end else begin
                        check(c_data && h[79:77] == 3'b000, "CplD status/format");
                        want_bc = t_rem[tg];
                        check(((bc == 0) ? 4096 : bc) == want_bc, "byte count");
                        check(h[38:32] == t_next[tg][6:0], "lower address");
                        c_dw_addr = t_next[tg] & 32'hFFFF_FFFC;
                        c_bytes = c_len*4 - t_next[tg][1:0];
                        c_last = (c_bytes >= want_bc);
                        if (c_last) c_bytes = want_bc;
                        if (!c_last)
                            check(SPLIT != 0 && ((t_next[tg] + c_bytes) % SPLIT) == 0,
                                  "split not at the CPL_SPLIT boundary");
                    end
                end
                check(c_active, "segment outside a completion");
                for (j = m*SEG_DW; j < (m+1)*SEG_DW; j = j + 1) begin
                    if (tx_strb[j]) begin
                        check(c_data && tx_data[j*32 +: 32] == c_dw_addr, "payload DW");
                        c_dw_addr = c_dw_addr + 4;
                        c_dws = c_dws + 1;
                    end
                end
                if (tx_eop[m]) begin
                    n_cpl = n_cpl + 1;
                    check(c_data ? (c_dws == c_len) : (c_dws == 0), "payload length");
                    t_next[c_tag] = t_next[c_tag] + c_bytes;
                    t_rem[c_tag] = t_rem[c_tag] - c_bytes;
                    if (c_last) begin
                        t_active[c_tag] = 1'b0;
                        n_done = n_done + 1;
                    end
                    c_active = 1'b0;
                end
            end
        end
        if (sops > 1) multi_cpl_beats = multi_cpl_beats + 1;
    end
end

// bar_ur: one per UR Cpl handed over
always @(posedge clk) if (bar_ur) n_ur = n_ur + 1;

integer waited;
initial begin
    waited = 0;
    wait (n_issued == REQS);
    while (n_done < n_order && waited < 200000) begin
        @(posedge clk);
        waited = waited + 1;
    end
    repeat (4) @(posedge clk);
    check(n_done == n_order, "every non-posted request answered");
    check(n_ur == n_ur_seen, "bar_ur once per UR Cpl");
    check(!c_active, "no completion left open");
    if (SEG > 1) begin
        check(multi_req_beats > 0, "beats with several requests");
        check(multi_cpl_beats > 0, "beats with several completions");
    end
    $display("SEG %0d SPLIT %0d: %0d requests, %0d answered, %0d completions, %0d UR, %0d multi-request beats, %0d multi-completion beats",
             SEG, SPLIT, n_order, n_done, n_cpl, n_ur, multi_req_beats, multi_cpl_beats);
    $display("%0d passed, %0d failed", passed, failed);
    $finish;
end

endmodule
