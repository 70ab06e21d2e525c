# op103_pins.tcl - the downstream port's facts that this repository could not confirm, read by
# build.tcl. Fill each one from the source named beside it; build.tcl stops while one is empty.

# FMC+ HSPC pins (VCU118 package pins) of the OP103's sideband nets, LVCMOS18 on the VCU118's
# HSPC VADJ. Source: Opsero's OP103 FMC pinout (the LA pair of PERSTA_N / HOST_MODE_N) and
# UG1224's HSPC table (the package pin of that LA pair). PERSTB_N: tie like PERSTA_N if the
# adapter takes its reset from channel B in x8 mode.
set OP103_PERST_N_PIN ""
set OP103_HOST_MODE_N_PIN ""

# The downstream integrated block and the GT quad of FMC+ DP0 (lane 0; DP0-7 must be two
# adjacent quads of one SLR for x8, PG213 "GT Locations"). [H] places DP0's receiver (AR45)
# and GBTCLK0 in bank 121. The block that reaches quads 121-122 is not confirmed: Vivado's IP
# customisation refuses a block / quad pair the device does not offer (PG213's Virtex
# UltraScale+ table lists the valid pairs for XCVU9P FLGA2104).
set OP103_PCIE_BLOCK "X0Y1"
set OP103_GT_QUAD "GTY_Quad_121"
