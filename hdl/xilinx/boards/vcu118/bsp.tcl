# bsp.tcl - the standalone BSP of cpu_bd's MicroBlaze from the exported hardware:
#   xsct hdl/xilinx/boards/vcu118/bsp.tcl <top.xsa> <bsp dir>   (firmware.mk runs it)
# Gives <bsp dir>/microblaze_0/include (xparameters.h, xil_io.h, the low-level UART Lite and
# timer drivers) and <bsp dir>/microblaze_0/lib/libxil.a.
set xsa [lindex $argv 0]
set dir [lindex $argv 1]
hsi::open_hw_design $xsa
hsi::generate_bsp -dir $dir -proc microblaze_0 -os standalone -compile
hsi::close_hw_design [hsi::current_hw_design]
