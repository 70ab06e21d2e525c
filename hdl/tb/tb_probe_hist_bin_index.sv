`timescale 1ns / 1ps
`default_nettype none

/*
 * Directed testbench of probe_hist_bin_index (Icarus -g2012 and Verilator --binary --timing):
 * every bin edge of a layout, one clock below, at and one clock above it, against the edges
 * the host computes (host/src/core/latency-histogram.ts binEdges, written by the test as one
 * hex number a line to the file named by +EDGES=...): the latency edge-1 lands in the bin
 * below, the edge itself and edge+1 in the bin the edge opens (or the next, for a one-clock
 * bin), the overflow edge and everything past it in bin BINS. Parameters as the module's;
 * the defaults are the spec's layout (pcie_scope_regs.vh). The last line is "N passed, N failed".
 */
// testbench arithmetic mixes integer bookkeeping with vectors on purpose
/* verilator lint_off WIDTH */
`include "pcie_scope_regs.vh"

module tb_probe_hist_bin_index #
(
    parameter AGE_WIDTH = 18,
    parameter BINS = `PS_HIST_BINS,
    parameter SUB_BINS_LOG2 = `PS_HIST_SUB_BINS_LOG2,
    parameter FIRST_EDGE_LOG2 = `PS_HIST_FIRST_EDGE_LOG2
);

localparam IDX_WIDTH = $clog2(BINS + 1);

reg  [AGE_WIDTH-1:0] latency;  // x until the first check sets it, so every process sees it change
wire [IDX_WIDTH-1:0] bin;

probe_hist_bin_index #(
    .AGE_WIDTH(AGE_WIDTH),
    .BINS(BINS),
    .IDX_WIDTH(IDX_WIDTH),
    .SUB_BINS_LOG2(SUB_BINS_LOG2),
    .FIRST_EDGE_LOG2(FIRST_EDGE_LOG2)
)
dut (
    .latency(latency),
    .bin(bin)
);

reg [63:0] edges [0:BINS];
integer passed = 0, failed = 0;

task automatic expect_bin(input [63:0] clocks, input integer want, input [8*24-1:0] what);
    begin
        if (clocks < (64'd1 << AGE_WIDTH)) begin
            latency = clocks[AGE_WIDTH-1:0];
            #1;
            if (bin == want) begin
                passed = passed + 1;
            end else begin
                failed = failed + 1;
                if (failed <= 20) $display("FAIL %0s: latency %0d in bin %0d, want %0d", what, clocks, bin, want);
            end
        end
    end
endtask

reg [1023:0] path;
integer k;

initial begin
    if (!$value$plusargs("EDGES=%s", path)) begin
        $display("no +EDGES=file");
        $fatal(1, "tb_probe_hist_bin_index: no edges");
    end
    $readmemh(path, edges);
    if (edges[0] !== 64'd0 || ^edges[BINS] === 1'bx) begin
        $display("FAIL the edges file holds no %0d edges from 0", BINS + 1);
        failed = failed + 1;
    end
    expect_bin(64'd0, 0, "zero");
    for (k = 1; k <= BINS; k = k + 1) begin
        expect_bin(edges[k] - 1, k - 1, "one clock below an edge");
        expect_bin(edges[k], k, "at an edge");
        expect_bin(edges[k] + 1, (k < BINS && edges[k] + 1 >= edges[k + 1]) ? k + 1 : k, "one clock above an edge");
    end
    expect_bin((64'd1 << AGE_WIDTH) - 1, BINS, "the largest latency");
    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0) $fatal(1, "tb_probe_hist_bin_index failed");
    $finish;
end

endmodule
