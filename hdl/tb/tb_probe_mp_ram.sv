`timescale 1ns / 1ps
`default_nettype none

/*
 * probe_mp_ram against its behaviour (Icarus -g2012 and Verilator --binary --timing): random
 * writes on every port, often to one address from several ports in a clock, and reads whose
 * address comes a clock early, half of them at an address written in the clock they are
 * issued in (the write the block RAM copies miss and the forwarding supplies). Each read is
 * compared with a reference memory written port after port (the later port wins) that holds
 * every write before the clock the word is read in. Whichever form the simulator builds is
 * checked: the banks of block-RAM copies with PROBE_RAM_BANKS (the code synthesis reads), the
 * one memory without. The last line is "N passed, N failed".
 */
/* verilator lint_off WIDTH */
module tb_probe_mp_ram #
(
    parameter ADDR_WIDTH = 4,
    parameter DATA_WIDTH = 13,
    parameter WR_PORTS = 2,
    parameter RD_PORTS = 3,
    parameter CLOCKS = 4000,
    parameter SEED = 1
);

localparam DEPTH = 1 << ADDR_WIDTH;

reg clk = 1'b0;
always #2 clk = !clk;

reg  [WR_PORTS-1:0]            wr_en = {WR_PORTS{1'b0}};
reg  [WR_PORTS*ADDR_WIDTH-1:0] wr_addr = {WR_PORTS*ADDR_WIDTH{1'b0}};
reg  [WR_PORTS*DATA_WIDTH-1:0] wr_data = {WR_PORTS*DATA_WIDTH{1'b0}};
reg  [RD_PORTS*ADDR_WIDTH-1:0] rd_addr_next = {RD_PORTS*ADDR_WIDTH{1'b0}};
wire [RD_PORTS*DATA_WIDTH-1:0] rd_data;

probe_mp_ram #(
    .ADDR_WIDTH(ADDR_WIDTH),
    .DATA_WIDTH(DATA_WIDTH),
    .WR_PORTS(WR_PORTS),
    .RD_PORTS(RD_PORTS)
)
dut (
    .clk(clk),
    .wr_en(wr_en),
    .wr_addr(wr_addr),
    .wr_data(wr_data),
    .rd_addr_next(rd_addr_next),
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
// the next clock's inputs, built here and assigned whole (Verilator 5.006 in timing mode does not
// wake the design on a bit-select write from a process)
reg [WR_PORTS-1:0]            we_n;
reg [WR_PORTS*ADDR_WIDTH-1:0] wa_n;
reg [WR_PORTS*DATA_WIDTH-1:0] wd_n;
reg [RD_PORTS*ADDR_WIDTH-1:0] ra_n;
// the addresses being read this clock (given the clock before)
reg [RD_PORTS*ADDR_WIDTH-1:0] ra_now = {RD_PORTS*ADDR_WIDTH{1'b0}};

initial begin
    for (i = 0; i < DEPTH; i = i + 1) ref_mem[i] = {DATA_WIDTH{1'b0}};

    wa_n = {WR_PORTS*ADDR_WIDTH{1'b0}};
    for (cyc = 0; cyc <= CLOCKS; cyc = cyc + 1) begin
        @(negedge clk);
        // this clock's reads: every write before this clock
        if (cyc > 0) begin
            for (p = 0; p < RD_PORTS; p = p + 1) begin
                want = ref_mem[ra_now[p*ADDR_WIDTH +: ADDR_WIDTH]];
                if (rd_data[p*DATA_WIDTH +: DATA_WIDTH] === want) begin
                    passed = passed + 1;
                end else begin
                    failed = failed + 1;
                    if (failed <= 10) $display("FAIL clock %0d read port %0d at %0d: got %0d want %0d", cyc, p,
                                               ra_now[p*ADDR_WIDTH +: ADDR_WIDTH], rd_data[p*DATA_WIDTH +: DATA_WIDTH], want);
                end
            end
        end
        // this clock's writes (collisions: a third share port 0's address) and the next
        // clock's read addresses (half at an address written now)
        for (p = 0; p < WR_PORTS; p = p + 1) begin
            we_n[p] = ($random(seed) & 3) != 0 && cyc < CLOCKS;
            wa_n[p*ADDR_WIDTH +: ADDR_WIDTH] = ($random(seed) % 3 == 0) ? wa_n[0 +: ADDR_WIDTH] : $random(seed);
            wd_n[p*DATA_WIDTH +: DATA_WIDTH] = $random(seed);
        end
        for (p = 0; p < RD_PORTS; p = p + 1) begin
            q = p % WR_PORTS;
            ra_n[p*ADDR_WIDTH +: ADDR_WIDTH] = ($random(seed) & 1) ? wa_n[q*ADDR_WIDTH +: ADDR_WIDTH] : $random(seed);
            if (we_n[q] && ra_n[p*ADDR_WIDTH +: ADDR_WIDTH] == wa_n[q*ADDR_WIDTH +: ADDR_WIDTH]) forwarded = forwarded + 1;
        end
        wr_en = we_n;
        wr_addr = wa_n;
        wr_data = wd_n;
        rd_addr_next = ra_n;
        ra_now = ra_n;
        // the writes, port after port (the later wins)
        for (p = 0; p < WR_PORTS; p = p + 1) begin
            if (we_n[p]) begin
                for (q = p + 1; q < WR_PORTS; q = q + 1) begin
                    if (we_n[q] && wa_n[q*ADDR_WIDTH +: ADDR_WIDTH] == wa_n[p*ADDR_WIDTH +: ADDR_WIDTH]) collisions = collisions + 1;
                end
                ref_mem[wa_n[p*ADDR_WIDTH +: ADDR_WIDTH]] = wd_n[p*DATA_WIDTH +: DATA_WIDTH];
            end
        end
    end

    if (WR_PORTS > 1 && collisions < CLOCKS / 10) begin
        failed = failed + 1;
        $display("FAIL too few same-address writes in one clock: %0d", collisions);
    end
    if (forwarded < CLOCKS / 4) begin
        failed = failed + 1;
        $display("FAIL too few reads of a word written in the clock they were issued in: %0d", forwarded);
    end
    $display("W %0d R %0d D %0d A %0d: %0d same-address writes in one clock, %0d reads of a word written as issued",
             WR_PORTS, RD_PORTS, DATA_WIDTH, ADDR_WIDTH, collisions, forwarded);
    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0) $fatal(1, "tb_probe_mp_ram failed");
    $finish;
end

endmodule
