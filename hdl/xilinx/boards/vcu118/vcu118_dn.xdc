# vcu118_dn.xdc - the downstream port of vcu118_switch_top on the VCU118 (with vcu118.xdc).
# Sources as in vcu118.xdc ([H]: AMD's VCU118 HDMI 2.0 FMC example constraints). The OP103's
# sideband pins (PERST#, HOST_MODE_N) are written by build.tcl from op103_pins.tcl, which must
# be filled from Opsero's pinout first.

# Downstream port, FMC+ HSPC through the OP103. Reference clock: FMCP_HSPC_GBTCLK0_M2C, bank 121
# [H]; on the OP103 it comes from one of its two 100 MHz oscillators (Opsero OP103 datasheet).
# Only the P pin is placed: the N pin of a GT reference clock pair follows.
set_property PACKAGE_PIN AK38 [get_ports pcie_dn_refclk_p]
create_clock -period 10.000 -name pcie_dn_refclk [get_ports pcie_dn_refclk_p]

# GT lanes (pcie_dn_rx_*, pcie_dn_tx_*) follow the IP's quad (op103_pins.tcl). Clock-domain
# crossings between the two user clocks are the XPM macros' own constraints; the downstream
# PERST# is an asynchronous reset.
set_false_path -to [get_ports pcie_dn_perst_n]
