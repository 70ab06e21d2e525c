`timescale 1ns / 1ps
`default_nettype none

/*
 * Self-checking testbench of probe_sampler (Icarus -g2012 and Verilator --binary --timing).
 *
 * Random per-clock taps (reads, bytes, completions, first completions with latencies on
 * every segment, outstanding), random enable, CMD.CLEAR pulses and period changes drive
 * the sampler; a reference model here closes the same intervals, keeps its own FIFO of
 * the FIFO's depth and counts records that find it full. The bench pops the head now
 * and then (bursts of no pops let the FIFO overflow) and compares every popped record
 * word by word, the level and the overflow count with the model's. A drain at the end
 * checks that no record is left over. The last line is "N passed, N failed".
 */
/* verilator lint_off WIDTH */
`include "pcie_scope_regs.vh"

module tb_probe_sampler #
(
    parameter SEG = 4,
    parameter TAG_WIDTH = 10,
    parameter SEED = 1,
    parameter CLOCKS = 30000
);

localparam FIFO_ADDR_WIDTH = 3;
localparam DEPTH = 1 << FIFO_ADDR_WIDTH;
localparam WORDS = `PS_SMP_WORDS;
localparam LAG = 2;
localparam W_TS_LO      = (`PS_REG_SMP_TS_LO      - `PS_REG_SMP_TS_LO) / 4;
localparam W_TS_HI      = (`PS_REG_SMP_TS_HI      - `PS_REG_SMP_TS_LO) / 4;
localparam W_CYCLES     = (`PS_REG_SMP_CYCLES     - `PS_REG_SMP_TS_LO) / 4;
localparam W_MRD_COUNT  = (`PS_REG_SMP_MRD_COUNT  - `PS_REG_SMP_TS_LO) / 4;
localparam W_MRD_BYTES  = (`PS_REG_SMP_MRD_BYTES  - `PS_REG_SMP_TS_LO) / 4;
localparam W_CPLD_COUNT = (`PS_REG_SMP_CPLD_COUNT - `PS_REG_SMP_TS_LO) / 4;
localparam W_CPLD_BYTES = (`PS_REG_SMP_CPLD_BYTES - `PS_REG_SMP_TS_LO) / 4;
localparam W_OCC_SUM    = (`PS_REG_SMP_OCC_SUM    - `PS_REG_SMP_TS_LO) / 4;
localparam W_OCC_PEAK   = (`PS_REG_SMP_OCC_PEAK   - `PS_REG_SMP_TS_LO) / 4;
localparam W_LAT_SUM_LO = (`PS_REG_SMP_LAT_SUM_LO - `PS_REG_SMP_TS_LO) / 4;
localparam W_LAT_SUM_HI = (`PS_REG_SMP_LAT_SUM_HI - `PS_REG_SMP_TS_LO) / 4;
localparam W_LAT_COUNT  = (`PS_REG_SMP_LAT_COUNT  - `PS_REG_SMP_TS_LO) / 4;

reg clk = 0;
reg rst = 1;
always #2 clk = !clk;

reg  [17:0]          period = 0;
reg                  pop = 0;
reg                  en = 0;
reg                  clr = 0;
reg  [2:0]           mrd = 0;
reg  [14:0]          mrd_bytes = 0;
reg  [2:0]           cpld = 0;
reg  [14:0]          cpld_bytes = 0;
reg  [SEG-1:0]       first = 0;
reg  [SEG*32-1:0]    latency = 0;
reg  [TAG_WIDTH:0]   outstanding = 0;
wire [WORDS*32-1:0]  head;
wire [15:0]          level;
wire [15:0]          depth;
wire [31:0]          overflow;

probe_sampler #(
    .TLP_SEG_COUNT(SEG),
    .TAG_WIDTH(TAG_WIDTH),
    .FIFO_ADDR_WIDTH(FIFO_ADDR_WIDTH),
    .TAP_LAG(LAG)
) dut (
    .clk(clk), .rst(rst), .period(period), .pop(pop),
    .smp_enable(en), .smp_clear(clr), .smp_mrd(mrd), .smp_mrd_bytes(mrd_bytes),
    .smp_cpld(cpld), .smp_cpld_bytes(cpld_bytes), .smp_first(first), .smp_latency(latency),
    .smp_outstanding(outstanding),
    .head(head), .level(level), .depth(depth), .overflow(overflow)
);

integer pass_count = 0;
integer fail_count = 0;
integer cyc = 0;

task automatic check(input cond, input [8*40-1:0] what, input [63:0] got, input [63:0] want);
    begin
        if (cond) begin
            pass_count = pass_count + 1;
        end else begin
            fail_count = fail_count + 1;
            if (fail_count <= 30) $display("FAIL @%0d %0s: got %0d want %0d", cyc, what, got, want);
        end
    end
endtask

reg [31:0] lfsr = 32'h2545_f491 ^ SEED;
function automatic [31:0] rnd(input integer dummy);
    begin
        lfsr = lfsr ^ (lfsr << 13);
        lfsr = lfsr ^ (lfsr >> 17);
        lfsr = lfsr ^ (lfsr << 5);
        rnd = lfsr;
    end
endfunction

function automatic chance(input integer permille);
    chance = (rnd(0) % 1000) < permille;
endfunction

/*
 * Reference model
 */
reg [63:0] m_now;
reg [17:0] m_prev_period = 0;
reg [63:0] m_cyc, m_mrd, m_mrd_bytes, m_cpld, m_cpld_bytes, m_occ, m_peak, m_lat, m_lat_n;
reg [WORDS*32-1:0] m_fifo [0:DEPTH-1];
integer m_wr = 0, m_rd = 0, m_n = 0;
reg [63:0] m_overflow = 0;
integer n_records = 0, n_popped = 0, n_restarts = 0;

task automatic m_zero;
    begin
        m_cyc = 0; m_mrd = 0; m_mrd_bytes = 0; m_cpld = 0; m_cpld_bytes = 0;
        m_occ = 0; m_peak = 0; m_lat = 0; m_lat_n = 0;
    end
endtask

// one clock: the taps now on the inputs, as the sampler sees them at the next edge
task automatic model_step;
    integer s;
    reg [WORDS*32-1:0] rec;
    begin
        if (clr || period != m_prev_period) begin
            m_zero();
            n_restarts = n_restarts + 1;
        end else if (en && period != 0) begin
            m_cyc = m_cyc + 1;
            m_mrd = m_mrd + mrd;
            m_mrd_bytes = m_mrd_bytes + mrd_bytes;
            m_cpld = m_cpld + cpld;
            m_cpld_bytes = m_cpld_bytes + cpld_bytes;
            m_occ = m_occ + outstanding;
            if (outstanding > m_peak) m_peak = outstanding;
            for (s = 0; s < SEG; s = s + 1) begin
                if (first[s]) begin
                    m_lat = m_lat + latency[s*32 +: 32];
                    m_lat_n = m_lat_n + 1;
                end
            end
            if (m_cyc == period) begin
                rec = 0;
                rec[W_TS_LO*32 +: 32] = m_now[31:0];
                rec[W_TS_HI*32 +: 32] = m_now[63:32];
                rec[W_CYCLES*32 +: 32] = m_cyc;
                rec[W_MRD_COUNT*32 +: 32] = m_mrd;
                rec[W_MRD_BYTES*32 +: 32] = m_mrd_bytes;
                rec[W_CPLD_COUNT*32 +: 32] = m_cpld;
                rec[W_CPLD_BYTES*32 +: 32] = m_cpld_bytes;
                rec[W_OCC_SUM*32 +: 32] = m_occ;
                rec[W_OCC_PEAK*32 +: 32] = m_peak;
                rec[W_LAT_SUM_LO*32 +: 32] = m_lat[31:0];
                rec[W_LAT_SUM_HI*32 +: 32] = m_lat[63:32];
                rec[W_LAT_COUNT*32 +: 32] = m_lat_n;
                n_records = n_records + 1;
                if (m_n == DEPTH) begin
                    m_overflow = m_overflow + 1;
                end else begin
                    m_fifo[m_wr] = rec;
                    m_wr = (m_wr + 1) % DEPTH;
                    m_n = m_n + 1;
                end
                m_zero();
            end
        end
        m_prev_period = period;
        m_now = m_now + 1;
    end
endtask

// the head against the model's oldest record, then pop both
task automatic check_and_pop;
    integer w;
    begin
        for (w = 0; w < WORDS; w = w + 1) begin
            check(head[w*32 +: 32] == m_fifo[m_rd][w*32 +: 32], "record word", head[w*32 +: 32], m_fifo[m_rd][w*32 +: 32]);
        end
        m_rd = (m_rd + 1) % DEPTH;
        m_n = m_n - 1;
        n_popped = n_popped + 1;
        pop = 1;
    end
endtask

integer s;
integer hold = 0;      // clocks left with no pops (lets the FIFO fill)
reg     big_lat;
reg [31:0] r_a, r_b;

initial begin
    m_zero();
    m_now = 64'd1 - LAG;
    repeat (3) @(posedge clk);
    #1 rst = 0;
    check(depth == DEPTH, "depth", depth, DEPTH);

    for (cyc = 0; cyc < CLOCKS; cyc = cyc + 1) begin
        // the level and head the sampler shows after the last edge
        pop = 0;
        if (level != 0) begin
            check(level <= m_n, "level at most the model's records", level, m_n);
            if (hold == 0 && chance(400)) check_and_pop();
        end
        if (hold > 0) hold = hold - 1;
        else if (chance(2)) hold = 200;

        // next taps
        en = !chance(80);
        clr = chance(3);
        // every draw its own statement: Verilator evaluates both arms of a ?:
        if (chance(2)) begin
            r_a = rnd(0);
            r_b = rnd(0);
            period = (r_a % 4 == 0) ? 0 : 1 + r_b % 40;
        end
        mrd = rnd(0) % (SEG + 1);
        mrd_bytes = mrd * (rnd(0) % 4097);
        cpld = rnd(0) % (SEG + 1);
        cpld_bytes = cpld * (rnd(0) % 4097);
        outstanding = rnd(0) % (1 << (TAG_WIDTH + 1));
        for (s = 0; s < SEG; s = s + 1) begin
            first[s] = chance(300);
            big_lat = chance(20);
            r_a = rnd(0);
            latency[s*32 +: 32] = big_lat ? r_a : r_a % 5000;
        end
        model_step();
        @(posedge clk);
        #1;
        check(overflow == m_overflow[31:0], "overflow count", overflow, m_overflow);
    end

    // drain: no new records (period 0), pop everything
    pop = 0;
    period = 0;
    model_step();
    @(posedge clk);
    #1;
    pop = 0;
    model_step();
    @(posedge clk);
    #1;
    while (level != 0) begin
        check_and_pop();
        model_step();
        @(posedge clk);
        #1;
        pop = 0;
    end
    check(m_n == 0, "model FIFO drained with the sampler's", m_n, 0);
    check(head == 0 || level == 0, "empty", level, 0);

    // the run exercised what it claims to
    check(n_records > 200, "records closed", n_records, 200);
    check(n_popped > 100, "records popped", n_popped, 100);
    check(m_overflow > 5, "records dropped on a full FIFO", m_overflow, 5);
    check(n_restarts > 50, "restarts", n_restarts, 50);

    $display("SEG %0d TAG_WIDTH %0d SEED %0d: %0d clocks, %0d records (%0d popped, %0d dropped), %0d restarts",
             SEG, TAG_WIDTH, SEED, CLOCKS, n_records, n_popped, m_overflow, n_restarts);
    $display("%0d passed, %0d failed", pass_count, fail_count);
    if (fail_count != 0) $fatal(1, "tb_probe_sampler failed");
    $finish;
end

endmodule
