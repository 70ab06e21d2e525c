`timescale 1ns / 1ps
`default_nettype none

/*
 * probe_xor_ram against its behaviour (Icarus -g2012 and Verilator --binary --timing): random
 * writes on every port, often to one address from several ports in a clock, and random reads,
 * compared every clock with a reference memory written port after port (the later port wins; a
 * read sees the word before this clock's writes). Whichever form of the RAM the simulator builds
 * is checked: under Icarus the XOR banks as one vector (with -DSYNTHESIS the banks as
 * synthesised, slowly), under Verilator with +define+PROBE_RAM_BANKS the banks as
 * synthesised. A small address space makes collisions common. The last line is "N passed,
 * N failed".
 */
/* verilator lint_off WIDTH */
module tb_probe_xor_ram #
(
    parameter ADDR_WIDTH = 4,
    parameter DATA_WIDTH = 3,
    parameter WR_PORTS = 5,
    parameter RD_PORTS = 5,
    parameter CLOCKS = 4000,
    parameter SEED = 1
);

localparam DEPTH = 1 << ADDR_WIDTH;

reg clk = 1'b0;
always #2 clk = !clk;

reg  [WR_PORTS-1:0]            wr_en = {WR_PORTS{1'b0}};
reg  [WR_PORTS*ADDR_WIDTH-1:0] wr_addr = {WR_PORTS*ADDR_WIDTH{1'b0}};
reg  [WR_PORTS*DATA_WIDTH-1:0] wr_data = {WR_PORTS*DATA_WIDTH{1'b0}};
reg  [RD_PORTS*ADDR_WIDTH-1:0] rd_addr = {RD_PORTS*ADDR_WIDTH{1'b0}};
wire [RD_PORTS*DATA_WIDTH-1:0] rd_data;

probe_xor_ram #(
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
    .rd_addr(rd_addr),
    .rd_data(rd_data)
);

reg [DATA_WIDTH-1:0] ref_mem [0:DEPTH-1];
integer passed = 0;
integer failed = 0;
integer collisions = 0;
integer seed = SEED;
integer i, p, q, cyc;
reg [DATA_WIDTH-1:0] want;
// the next clock's inputs, built here and assigned whole (Verilator 5.006 in timing mode does not
// wake the design on a bit-select write from a process)
reg [WR_PORTS-1:0]            we_n;
reg [WR_PORTS*ADDR_WIDTH-1:0] wa_n;
reg [WR_PORTS*DATA_WIDTH-1:0] wd_n;
reg [RD_PORTS*ADDR_WIDTH-1:0] ra_n;

initial begin
    for (i = 0; i < DEPTH; i = i + 1) ref_mem[i] = {DATA_WIDTH{1'b0}};

    wa_n = {WR_PORTS*ADDR_WIDTH{1'b0}};
    for (cyc = 0; cyc < CLOCKS; cyc = cyc + 1) begin
        // drive this clock's ports (collisions: a third of the writes share port 0's address)
        @(negedge clk);
        for (p = 0; p < WR_PORTS; p = p + 1) begin
            we_n[p] = ($random(seed) & 3) != 0;
            wa_n[p*ADDR_WIDTH +: ADDR_WIDTH] = ($random(seed) % 3 == 0) ? wa_n[0 +: ADDR_WIDTH] : $random(seed);
            wd_n[p*DATA_WIDTH +: DATA_WIDTH] = $random(seed);
        end
        for (p = 0; p < RD_PORTS; p = p + 1) begin
            ra_n[p*ADDR_WIDTH +: ADDR_WIDTH] = ($random(seed) & 1) ? wa_n[(p % WR_PORTS)*ADDR_WIDTH +: ADDR_WIDTH] : $random(seed);
        end
        wr_en = we_n;
        wr_addr = wa_n;
        wr_data = wd_n;
        rd_addr = ra_n;
        #1;
        // reads: the words before this clock's writes
        for (p = 0; p < RD_PORTS; p = p + 1) begin
            want = ref_mem[rd_addr[p*ADDR_WIDTH +: ADDR_WIDTH]];
            if (rd_data[p*DATA_WIDTH +: DATA_WIDTH] === want) begin
                passed = passed + 1;
            end else begin
                failed = failed + 1;
                if (failed <= 10) $display("FAIL clock %0d read port %0d at %0d: got %0d want %0d", cyc, p,
                                           rd_addr[p*ADDR_WIDTH +: ADDR_WIDTH], rd_data[p*DATA_WIDTH +: DATA_WIDTH], want);
            end
        end
        // the writes, port after port (the later wins)
        for (p = 0; p < WR_PORTS; p = p + 1) begin
            if (wr_en[p]) begin
                for (q = p + 1; q < WR_PORTS; q = q + 1) begin
                    if (wr_en[q] && wr_addr[q*ADDR_WIDTH +: ADDR_WIDTH] == wr_addr[p*ADDR_WIDTH +: ADDR_WIDTH]) collisions = collisions + 1;
                end
                ref_mem[wr_addr[p*ADDR_WIDTH +: ADDR_WIDTH]] = wr_data[p*DATA_WIDTH +: DATA_WIDTH];
            end
        end
    end

    // every word once more, after the last writes
    @(negedge clk);
    wr_en = {WR_PORTS{1'b0}};
    for (i = 0; i < DEPTH; i = i + 1) begin
        ra_n[0 +: ADDR_WIDTH] = i;
        rd_addr = ra_n;
        #1;
        if (rd_data[0 +: DATA_WIDTH] === ref_mem[i]) passed = passed + 1;
        else begin
            failed = failed + 1;
            $display("FAIL final word %0d: got %0d want %0d", i, rd_data[0 +: DATA_WIDTH], ref_mem[i]);
        end
    end

    if (collisions < CLOCKS / 10) begin
        failed = failed + 1;
        $display("FAIL too few same-address writes in one clock: %0d", collisions);
    end
    $display("W %0d R %0d D %0d A %0d: %0d same-address writes in one clock", WR_PORTS, RD_PORTS, DATA_WIDTH, ADDR_WIDTH, collisions);
    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0) $fatal(1, "tb_probe_xor_ram failed");
    $finish;
end

endmodule
