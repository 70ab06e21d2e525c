`timescale 1ns / 1ps
`default_nettype none

/*
 * probe_xor_bram against its behaviour (Icarus -g2012 and Verilator --binary --timing): every
 * port reads its address (given a clock early) and often writes it; ports often share an
 * address in a clock, and the next clock's addresses are often one written now (the write the
 * block-RAM copies miss and the forwarding supplies). Each read is compared with a reference
 * memory written port after port (the later port wins) that holds every write before the
 * clock. The banks of block-RAM copies with PROBE_RAM_BANKS (the code synthesis reads), the one
 * memory without. The last line is "N passed, N failed".
 */
/* verilator lint_off WIDTH */
module tb_probe_xor_bram #
(
    parameter ADDR_WIDTH = 4,
    parameter DATA_WIDTH = 3,
    parameter PORTS = 5,
    parameter CLOCKS = 4000,
    parameter SEED = 1
);

localparam DEPTH = 1 << ADDR_WIDTH;

reg clk = 1'b0;
always #2 clk = !clk;

reg  [PORTS*ADDR_WIDTH-1:0] addr_next = {PORTS*ADDR_WIDTH{1'b0}};
reg  [PORTS-1:0]            wr_en = {PORTS{1'b0}};
reg  [PORTS*DATA_WIDTH-1:0] wr_data = {PORTS*DATA_WIDTH{1'b0}};
wire [PORTS*DATA_WIDTH-1:0] rd_data;

probe_xor_bram #(
    .ADDR_WIDTH(ADDR_WIDTH),
    .DATA_WIDTH(DATA_WIDTH),
    .PORTS(PORTS)
)
dut (
    .clk(clk),
    .addr_next(addr_next),
    .wr_en(wr_en),
    .wr_data(wr_data),
    .rd_data(rd_data)
);

reg [DATA_WIDTH-1:0] ref_mem [0:DEPTH-1];
integer passed = 0;
integer failed = 0;
integer collisions = 0;
integer forwarded = 0;
integer seed = SEED;
integer i, p, q, cyc;
reg [DATA_WIDTH-1:0] want;
// inputs built here and assigned whole (Verilator 5.006 in timing mode does not wake the
// design on a bit-select write from a process)
reg [PORTS-1:0]            we_n;
reg [PORTS*DATA_WIDTH-1:0] wd_n;
reg [PORTS*ADDR_WIDTH-1:0] an_n;
// this clock's addresses (given the clock before)
reg [PORTS*ADDR_WIDTH-1:0] addr_now = {PORTS*ADDR_WIDTH{1'b0}};

initial begin
    for (i = 0; i < DEPTH; i = i + 1) ref_mem[i] = {DATA_WIDTH{1'b0}};

    for (cyc = 0; cyc <= CLOCKS; cyc = cyc + 1) begin
        @(negedge clk);
        // this clock's reads: every write before this clock
        if (cyc > 0) begin
            for (p = 0; p < PORTS; p = p + 1) begin
                want = ref_mem[addr_now[p*ADDR_WIDTH +: ADDR_WIDTH]];
                if (rd_data[p*DATA_WIDTH +: DATA_WIDTH] === want) begin
                    passed = passed + 1;
                end else begin
                    failed = failed + 1;
                    if (failed <= 10) $display("FAIL clock %0d port %0d at %0d: got %0d want %0d", cyc, p,
                                               addr_now[p*ADDR_WIDTH +: ADDR_WIDTH], rd_data[p*DATA_WIDTH +: DATA_WIDTH], want);
                end
            end
        end
        // this clock's writes, at this clock's addresses
        for (p = 0; p < PORTS; p = p + 1) begin
            we_n[p] = cyc > 0 && cyc < CLOCKS && ($random(seed) & 3) != 0;
            wd_n[p*DATA_WIDTH +: DATA_WIDTH] = $random(seed);
        end
        // the next clock's addresses: a third share port 0's, half of the rest one written now
        for (p = 0; p < PORTS; p = p + 1) begin
            q = ($random(seed) & 32'h7fff) % PORTS;
            if (p > 0 && $random(seed) % 3 == 0) an_n[p*ADDR_WIDTH +: ADDR_WIDTH] = an_n[0 +: ADDR_WIDTH];
            else if ($random(seed) & 1) an_n[p*ADDR_WIDTH +: ADDR_WIDTH] = addr_now[q*ADDR_WIDTH +: ADDR_WIDTH];
            else an_n[p*ADDR_WIDTH +: ADDR_WIDTH] = $random(seed);
        end
        for (p = 0; p < PORTS; p = p + 1) begin
            for (q = 0; q < PORTS; q = q + 1) begin
                if (we_n[q] && an_n[p*ADDR_WIDTH +: ADDR_WIDTH] == addr_now[q*ADDR_WIDTH +: ADDR_WIDTH]) forwarded = forwarded + 1;
            end
        end
        wr_en = we_n;
        wr_data = wd_n;
        addr_next = an_n;
        // the writes, port after port (the later wins)
        for (p = 0; p < PORTS; p = p + 1) begin
            if (we_n[p]) begin
                for (q = p + 1; q < PORTS; q = q + 1) begin
                    if (we_n[q] && addr_now[q*ADDR_WIDTH +: ADDR_WIDTH] == addr_now[p*ADDR_WIDTH +: ADDR_WIDTH]) collisions = collisions + 1;
                end
                ref_mem[addr_now[p*ADDR_WIDTH +: ADDR_WIDTH]] = wd_n[p*DATA_WIDTH +: DATA_WIDTH];
            end
        end
        addr_now = an_n;
    end

    if (collisions < CLOCKS / 10) begin
        failed = failed + 1;
        $display("FAIL too few same-address writes in one clock: %0d", collisions);
    end
    if (forwarded < CLOCKS / 4) begin
        failed = failed + 1;
        $display("FAIL too few reads of a word written in the clock before: %0d", forwarded);
    end
    $display("P %0d D %0d A %0d: %0d same-address writes in one clock, %0d reads of a word written the clock before",
             PORTS, DATA_WIDTH, ADDR_WIDTH, collisions, forwarded);
    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0) $fatal(1, "tb_probe_xor_bram failed");
    $finish;
end

endmodule
