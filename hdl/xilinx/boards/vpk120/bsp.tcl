# bsp.tcl - the standalone BSP of the RPU's first Cortex-R5F from the exported hardware:
#   xsct hdl/xilinx/boards/vpk120/bsp.tcl <top.xsa> <bsp dir>   (firmware.mk runs it)
# Gives <bsp dir>/psv_cortexr5_0/include, lib/libxil.a (start-up code, MPU table, the R5F's
# C library glue) and lscript.ld; the firmware uses no BSP driver (hal_versal.c drives its
# registers itself).
set xsa [lindex $argv 0]
set dir [lindex $argv 1]
hsi::open_hw_design $xsa
hsi::generate_bsp -dir $dir -proc psv_cortexr5_0 -os standalone -compile
hsi::close_hw_design [hsi::current_hw_design]
