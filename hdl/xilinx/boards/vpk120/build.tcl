# build.tcl - the VPK120 switch design, from the repository root:
#
#   npm run gen                       (hdl/rtl/generated/pcie_scope_regs.vh)
#   vivado -mode batch -source hdl/xilinx/boards/vpk120/build.tcl
#   make -f hdl/xilinx/boards/vpk120/firmware.mk   (R5F BSP, firmware ELF, BOOT.pdi with both)
#
# vpk120_switch_top: CPM5 controller 1 on the edge connector as the switch's upstream port (the
# block owns that port's Type 1 header), the PL PCIE5 block X1Y0 on FMCP1 through the OP103 as
# the GPU's Root Port, the fabric switch (pcie_scope_switch_top, UP_CFG_IN_BLOCK) and its probe.
# Writes build/vivado/vpk120/: the project, top.pdi (the device image: PMC, CPM5, NoC, PL) and
# top.xsa (the hardware for the BSP). Written for Vivado 2023.2; never run in this repository,
# which has no Vivado (README.md beside this file says what that leaves unchecked).

set here [file dirname [file normalize [info script]]]
set root [file normalize $here/../../../..]
set top vpk120_switch_top
set out $root/build/vivado/vpk120

# board.mk: a make variable of the form NAME := VALUE
proc board_fact {name} {
    global here
    set fh [open $here/board.mk]
    set text [read $fh]
    close $fh
    if {![regexp -line "^$name\\s*:=\\s*(\\S+)" $text -> value]} {
        error "board.mk has no $name"
    }
    return $value
}

# spec/switch.json: the switch ports' device IDs (CPM5's own header carries the upstream one)
proc switch_id {key} {
    global root
    set fh [open $root/spec/switch.json]
    set text [read $fh]
    close $fh
    if {![regexp "\"$key\": \"0x(\[0-9A-Fa-f\]+)\"" $text -> value]} {
        error "spec/switch.json has no $key"
    }
    return $value
}

# the downstream facts a lab confirms first (fmcp_pins.tcl says from where)
source $here/fmcp_pins.tcl
foreach fact {OP103_PERST_N_PIN OP103_PERSTB_N_PIN OP103_HOST_MODE_N_PIN OP103_LOCAL_CLKS_N_PIN OP103_IOSTANDARD DN_PCIE_BLOCK DN_GT_QUADS DN_REFCLK_P_PIN} {
    if {[set $fact] eq ""} {
        error "$fact is empty: fill it in hdl/xilinx/boards/vpk120/fmcp_pins.tcl from the source named there"
    }
}

# the part from the board files Vivado installs for the VPK120 (UG1568's board)
set board [lindex [lsort [get_board_parts -quiet *vpk120*]] end]
if {$board eq ""} { error "no VPK120 board files in this Vivado installation" }
file mkdir $out
create_project -force pcie_scope_vpk120 $out -part [get_property PART_NAME [get_board_parts $board]]
set_property board_part $board [current_project]
set_property target_language Verilog [current_project]

# RTL: probe and switch (hdl/rtl), the adapters (hdl/xilinx/rtl), the board's modules (and the
# PERST# generator the VCU118 design uses too)
add_files [concat [glob $root/hdl/rtl/*.v] [glob $root/hdl/rtl/switch/*.v] [glob $root/hdl/xilinx/rtl/*.v] \
    [glob $here/rtl/*.v] $root/hdl/xilinx/boards/vcu118/rtl/pcie_perst_gen.v]
add_files $root/hdl/rtl/generated/pcie_scope_regs.vh
set_property include_dirs [list $root/hdl/rtl/generated] [current_fileset]
set_property top $top [current_fileset]
add_files -fileset constrs_1 $here/vpk120.xdc

# the OP103's sideband pins and the downstream reference clock pin, as a constraints file of their own
set fh [open $out/fmcp_pins.xdc w]
foreach {port pin} [list pcie_dn_perst_n $OP103_PERST_N_PIN pcie_dn_perstb_n $OP103_PERSTB_N_PIN \
        op103_host_mode_n $OP103_HOST_MODE_N_PIN op103_local_clks_n $OP103_LOCAL_CLKS_N_PIN] {
    puts $fh "set_property -dict {PACKAGE_PIN $pin IOSTANDARD $OP103_IOSTANDARD} \[get_ports $port\]"
}
puts $fh "set_property PACKAGE_PIN $DN_REFCLK_P_PIN \[get_ports pcie_dn_refclk_p\]"
close $fh
add_files -fileset constrs_1 $out/fmcp_pins.xdc

# the block design: PS, CPM5 upstream port, PL PCIE5 Root Port, the CSR's AXI port
source $here/ps_bd.tcl
ps_bd_create [board_fact PS_VSL_CSR_BASEADDR] [list [switch_id upstreamDeviceId] [switch_id downstreamDeviceId]]
generate_target all [get_files ps_bd.bd]
add_files -norecurse [make_wrapper -files [get_files ps_bd.bd] -top]

launch_runs synth_1 -jobs 8
wait_on_run synth_1
if {[get_property PROGRESS [get_runs synth_1]] ne "100%"} { error "synthesis failed" }
launch_runs impl_1 -to_step write_device_image -jobs 8
wait_on_run impl_1
if {[get_property PROGRESS [get_runs impl_1]] ne "100%"} { error "implementation failed" }

open_run impl_1
report_timing_summary -file $out/timing_summary.rpt
if {[get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]] < 0} {
    puts "WARNING: setup timing not met, see $out/timing_summary.rpt"
}
file copy -force [get_property DIRECTORY [get_runs impl_1]]/$top.pdi $out/top.pdi
write_hw_platform -fixed -force -file $out/top.xsa
