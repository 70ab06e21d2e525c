# op103_pins.tcl - the downstream port's facts, read by build.tcl (which stops while one is
# empty). Each is traced to public sources, none to Opsero's schematic or UG1224 themselves:
# a lab checks them on first power-up (hdl/xilinx/README.md "First power-up checklist").

# FMC+ HSPC pins (VCU118 package pins, bank 43, VADJ 1.8 V: LVCMOS18) of the OP103's sideband
# nets. The OP103 net -> FMC pair mapping comes from Opsero's own reference constraints for the
# OP103 (their IBERT designs, VCK190 FMCP1 variant): PERSTA_N on LA00_CC_P, PERSTB_N on LA04_P,
# HOST_MODE_N on LA14_P, LOCAL_CLKS_N on LA14_N (PRSNTA/B_N on LA00_CC_N / LA04_N and the
# redrivers' I2C on LA15_P/N are not used here). The FMC pair -> VCU118 package pin mapping
# comes from public VCU118 constraint files that quote the board's master XDC
# ("Bank 43 VCCO - VADJ_1V8_FPGA - IO_L7P_T1L_N0_QBC_AD13P_43 - FMCP_HSPC_LA00_CC_P"); LA00_CC_P
# = AL35 agrees across three independent ones.
set OP103_PERST_N_PIN "AL35"       ;# LA00_CC_P, PERSTA_N (lanes 0-3)
set OP103_PERSTB_N_PIN "AR37"      ;# LA04_P, PERSTB_N (lanes 4-7)
set OP103_HOST_MODE_N_PIN "AG31"   ;# LA14_P, HOST_MODE_N
set OP103_LOCAL_CLKS_N_PIN "AH31"  ;# LA14_N, LOCAL_CLKS_N

# The downstream integrated block and the GT quad of FMC+ DP0 (lane 0; DP0-7 must be two
# adjacent quads of one SLR for x8, PG213 "GT Locations"). [H] places DP0's receiver (AR45)
# and GBTCLK0 in bank 121. The block that reaches quads 121-122 is not confirmed: Vivado's IP
# customisation refuses a block / quad pair the device does not offer (PG213's Virtex
# UltraScale+ table lists the valid pairs for XCVU9P FLGA2104).
set OP103_PCIE_BLOCK "X0Y1"
set OP103_GT_QUAD "GTY_Quad_121"
