# fmcp_pins.tcl - the downstream port's facts on the VPK120, read by build.tcl (which stops
# while one is empty). Sources: [O] Opsero's public VPK120 constraints for its FPGA Drive FMC
# Gen4 on the VPK120's FMCP connector (fpga-drive-aximm-pcie, Vivado/src/constraints/vpk120.xdc),
# [P] AMD PG344's GT quad table for XCVP1202 VSVA2785, [V] the VCU118 flow's OP103 net -> FMC
# pair mapping (op103_pins.tcl there). None is checked against UG1568's master XDC or the VPK120
# schematic: a lab does that first (README.md, "First power-up").

# OP103 sideband nets on FMCP LA pins (VPK120 package pins). [O] places LA00_CC_P at G26 and
# LA04_P at H27 (its PERST# pins) with IOSTANDARD LVCMOS15, "determined by VADJ" (the VPK120's
# FMCP VADJ, 1.5 V in [O]); [V] puts the OP103's PERSTA_N on LA00_CC_P and PERSTB_N on LA04_P.
# LA14_P / LA14_N (HOST_MODE_N, LOCAL_CLKS_N) appear in no source found: empty until a lab
# reads them from UG1568, so build.tcl stops rather than guess.
set OP103_PERST_N_PIN "G26"        ;# LA00_CC_P, PERSTA_N (lanes 0-3) [O][V]
set OP103_PERSTB_N_PIN "H27"       ;# LA04_P, PERSTB_N (lanes 4-7) [O][V]
set OP103_HOST_MODE_N_PIN ""       ;# LA14_P, HOST_MODE_N: not found
set OP103_LOCAL_CLKS_N_PIN ""      ;# LA14_N, LOCAL_CLKS_N: not found
set OP103_IOSTANDARD "LVCMOS15"    ;# VADJ as [O] has it; the OP103's support for 1.5 V not checked

# The downstream block and its quads: FMCP DP0-3 on GTYP bank 200, DP4-7 on bank 201, the
# card's reference clock on bank 200's REFCLK1 (AU47 / AU48) [O]; the PL PCIE5 block next to
# GTYP_QUAD_X1Y0 / X1Y1 is X1Y0 [P]. Bank 200 = X1Y0 and 201 = X1Y1 by the numbering UG1568's
# transceiver table uses on the left side (quad 105 = X0Y5); not confirmed for the right side.
set DN_PCIE_BLOCK "X1Y0"
set DN_GT_QUADS "GTYP_QUAD_X1Y0 GTYP_QUAD_X1Y1"
set DN_REFCLK_P_PIN "AU47"
