`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * PERST# for a device below a root port: held low while the clock is not yet stable and
 * for HOLD_CYCLES after (the CEM specification's 100 ms from power stable to PERST#
 * deassertion), then high until the next reset. The same signal resets the root port's
 * integrated block, so the block and the device leave reset together.
 */
module pcie_perst_gen #
(
    // 100 ms at the 125 MHz board clock
    parameter HOLD_CYCLES = 12500000
)
(
    input  wire clk,
    // asynchronous, active high (clock not locked, reset button)
    input  wire rst,
    output wire perst_n
);

localparam COUNT_WIDTH = $clog2(HOLD_CYCLES + 1);

reg [COUNT_WIDTH-1:0] count_reg = {COUNT_WIDTH{1'b0}};
reg                   perst_n_reg = 1'b0;

assign perst_n = perst_n_reg;

always @(posedge clk or posedge rst) begin
    if (rst) begin
        count_reg <= {COUNT_WIDTH{1'b0}};
        perst_n_reg <= 1'b0;
    end else if (count_reg == HOLD_CYCLES[COUNT_WIDTH-1:0]) begin
        perst_n_reg <= 1'b1;
    end else begin
        count_reg <= count_reg + 1'b1;
    end
end

endmodule

`resetall
