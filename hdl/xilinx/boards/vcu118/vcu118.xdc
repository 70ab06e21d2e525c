# vcu118.xdc - pins of the VCU118 tops (vcu118_bar_top, and vcu118_switch_top with
# vcu118_dn.xdc) on the AMD VCU118 (XCVU9P-L2FLGA2104E).
#
# Each pin names the board net it lands on and where the fact was read:
#   [V] alexforencich/verilog-pcie, example/VCU118/fpga/fpga.xdc (a public VCU118 design whose
#       PCIe example trains on this board; its net comments follow the board's schematic)
#   [H] AMD's VCU118 HDMI 2.0 FMC example constraints (FMC+ HSPC nets, bank numbers)
# The board user guide (UG1224) itself was not available here: the lab checks every line
# against UG1224's pin tables before the first bitstream (hdl/xilinx/README.md).

set_property CFGBVS GND [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS true [current_design]

# 125 MHz system clock CLK_125MHZ_P/N, LVDS [V]; the clock wizard in cpu_bd sets its period
set_property -dict {PACKAGE_PIN AY24 IOSTANDARD LVDS} [get_ports clk_125mhz_p]
set_property -dict {PACKAGE_PIN AY23 IOSTANDARD LVDS} [get_ports clk_125mhz_n]

# CPU_RESET push button, active high [V]
set_property -dict {PACKAGE_PIN L19 IOSTANDARD LVCMOS12} [get_ports cpu_reset]
set_false_path -from [get_ports cpu_reset]

# USB-UART bridge [V]: uart_txd is the FPGA's output (USB_UART_RX of the bridge), uart_rxd its input
set_property -dict {PACKAGE_PIN BB21 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8} [get_ports uart_txd]
set_property -dict {PACKAGE_PIN AW25 IOSTANDARD LVCMOS18} [get_ports uart_rxd]
set_false_path -to [get_ports uart_txd]
set_false_path -from [get_ports uart_rxd]

# GPIO_LED_0..7 [V]
set_property -dict {PACKAGE_PIN AT32 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[0]}]
set_property -dict {PACKAGE_PIN AV34 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[1]}]
set_property -dict {PACKAGE_PIN AY30 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[2]}]
set_property -dict {PACKAGE_PIN BB32 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[3]}]
set_property -dict {PACKAGE_PIN BF32 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[4]}]
set_property -dict {PACKAGE_PIN AU37 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[5]}]
set_property -dict {PACKAGE_PIN AV36 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[6]}]
set_property -dict {PACKAGE_PIN BA37 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[7]}]
set_false_path -to [get_ports {led[*]}]

# Upstream port, the x16 edge connector. PERST# from the host [V]
set_property -dict {PACKAGE_PIN AM17 IOSTANDARD LVCMOS18 PULLUP true} [get_ports pcie_up_perst_n]
set_false_path -from [get_ports pcie_up_perst_n]

# Reference clock from the host: MGTREFCLK0 of GTY quad 225 [V]. Lanes 0-7 are the channels of
# quads 227 and 226 [V] (lane 0 = MGTY channel 3 of quad 227); a GTY quad may take its reference
# clock from up to two quads above or below, so quad 225's clock reaches 226 and 227.
set_property PACKAGE_PIN AL9 [get_ports pcie_up_refclk_p]
set_property PACKAGE_PIN AL8 [get_ports pcie_up_refclk_n]
create_clock -period 10.000 -name pcie_up_refclk [get_ports pcie_up_refclk_p]

# GT lanes (pcie_up_rx_*, pcie_up_tx_*) are not placed here: the integrated block's IP places
# its GT channels from the quad chosen in build.tcl (select_quad), and the pins follow the
# channels. The CPU clock's crossing to the CSR is the SmartConnect's own constraint.
