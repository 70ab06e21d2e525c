# build.tcl - a VCU118 bitstream, from the repository root:
#
#   npm run gen                       (hdl/rtl/generated/pcie_scope_regs.vh)
#   vivado -mode batch -source hdl/xilinx/boards/vcu118/build.tcl -tclargs switch|bar
#   make -f hdl/xilinx/boards/vcu118/firmware.mk DESIGN=switch|bar   (BSP, ELF, bitstream with it)
#
# switch: vcu118_switch_top, both integrated blocks (host on the edge connector, GPU on the
# FMC+ through the OP103); bar: vcu118_bar_top, the edge connector's block only (the GPU reads
# the FPGA's BAR from another slot of the host). Writes build/vivado/vcu118-<design>/: the
# project, top.bit (BRAM without firmware), top.mmi (where the MicroBlaze's BRAM lies, for
# updatemem) and top.xsa (the hardware for the BSP). Written for Vivado 2022.2 (the classic standalone BSP flow of xsct);
# never run in this repository, which has no Vivado (hdl/xilinx/README.md).

set here [file dirname [file normalize [info script]]]
set root [file normalize $here/../../../..]
set design [expr {$argc > 0 ? [lindex $argv 0] : "switch"}]
if {$design ni {switch bar}} { error "design must be switch or bar, not $design" }
set top vcu118_${design}_top
set out $root/build/vivado/vcu118-$design
set part xcvu9p-flga2104-2L-e

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

# spec/switch.json: the switch ports' device IDs (the blocks' own headers carry them too)
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

# the downstream facts a lab confirms first (op103_pins.tcl says from where)
if {$design eq "switch"} {
    source $here/op103_pins.tcl
    foreach fact {OP103_PERST_N_PIN OP103_PERSTB_N_PIN OP103_HOST_MODE_N_PIN OP103_LOCAL_CLKS_N_PIN OP103_PCIE_BLOCK OP103_GT_QUAD} {
        if {[set $fact] eq ""} {
            error "$fact is empty: fill it in hdl/xilinx/boards/vcu118/op103_pins.tcl from the source named there"
        }
    }
}

file mkdir $out
create_project -force pcie_scope_vcu118 $out -part $part
set_property target_language Verilog [current_project]

# RTL: probe and switch (hdl/rtl), UltraScale+ adapters (hdl/xilinx/rtl), the board's modules
add_files [concat [glob $root/hdl/rtl/*.v] [glob $root/hdl/rtl/switch/*.v] [glob $root/hdl/xilinx/rtl/*.v] \
    [glob $here/rtl/*.v]]
add_files $root/hdl/rtl/generated/pcie_scope_regs.vh
set_property include_dirs [list $root/hdl/rtl/generated $here/rtl] [current_fileset]
set_property top $top [current_fileset]
add_files -fileset constrs_1 $here/vcu118.xdc

if {$design eq "switch"} {
    add_files -fileset constrs_1 $here/vcu118_dn.xdc
    # the OP103's sideband pins, as a constraints file of their own
    set fh [open $out/op103_pins.xdc w]
    puts $fh "set_property -dict {PACKAGE_PIN $OP103_PERST_N_PIN IOSTANDARD LVCMOS18} \[get_ports pcie_dn_perst_n\]"
    puts $fh "set_property -dict {PACKAGE_PIN $OP103_PERSTB_N_PIN IOSTANDARD LVCMOS18} \[get_ports pcie_dn_perstb_n\]"
    puts $fh "set_property -dict {PACKAGE_PIN $OP103_HOST_MODE_N_PIN IOSTANDARD LVCMOS18} \[get_ports op103_host_mode_n\]"
    puts $fh "set_property -dict {PACKAGE_PIN $OP103_LOCAL_CLKS_N_PIN IOSTANDARD LVCMOS18} \[get_ports op103_local_clks_n\]"
    puts $fh "set_false_path -to \[get_ports {op103_host_mode_n op103_local_clks_n}\]"
    close $fh
    add_files -fileset constrs_1 $out/op103_pins.xdc
}

# one integrated block: Gen3 x8, 256-bit AXI-Stream at 250 MHz (what the adapters take at 256
# bits: RC straddled, CQ not), client tags (the switch forwards the GPU's tags unchanged),
# extended tags, a 100 MHz reference clock
proc pcie_ip {name port_type block quad device_id class_code} {
    create_ip -name pcie4_uscale_plus -vendor xilinx.com -library ip -module_name $name
    set_property -dict [list \
        CONFIG.mode_selection {Advanced} \
        CONFIG.device_port_type $port_type \
        CONFIG.pcie_blk_locn $block \
        CONFIG.en_gt_selection {true} \
        CONFIG.select_quad $quad \
        CONFIG.PL_LINK_CAP_MAX_LINK_SPEED {8.0_GT/s} \
        CONFIG.PL_LINK_CAP_MAX_LINK_WIDTH {X8} \
        CONFIG.axisten_if_width {256_bit} \
        CONFIG.axisten_freq {250} \
        CONFIG.AXISTEN_IF_RC_STRADDLE {true} \
        CONFIG.axisten_if_enable_client_tag {true} \
        CONFIG.extended_tag_field {true} \
        CONFIG.REF_CLK_FREQ {100_MHz} \
        CONFIG.vendor_id {10EE} \
        CONFIG.PF0_DEVICE_ID $device_id \
        CONFIG.PF0_CLASS_CODE $class_code \
    ] [get_ips $name]
}

# upstream: the edge connector's block (PCIE4 X1Y2, lane 0 in quad 227: hdl/xilinx/README.md),
# an Endpoint whose own type-0 header the host sees, with one 16 MiB 64-bit prefetchable BAR:
# class 0x068000 (other bridge) in front of the switch, 0x058000 (other memory) as the BAR
# endpoint
pcie_ip pcie_up {PCI_Express_Endpoint_device} {X1Y2} {GTY_Quad_227} [switch_id upstreamDeviceId] \
    [expr {$design eq "switch" ? "068000" : "058000"}]
set_property -dict [list CONFIG.pf0_bar0_64bit {true} CONFIG.pf0_bar0_prefetchable {true} \
    CONFIG.pf0_bar0_scale {Megabytes} CONFIG.pf0_bar0_size {16}] [get_ips pcie_up]
# downstream: the FMC+ block as the GPU's Root Port
if {$design eq "switch"} {
    pcie_ip pcie_dn {Root_Port_of_PCI_Express_Root_Complex} $OP103_PCIE_BLOCK $OP103_GT_QUAD \
        [switch_id downstreamDeviceId] {060400}
}
generate_target all [get_ips]

# the soft CPU
source $here/cpu_bd.tcl
ps_cpu_bd [board_fact PS_XIL_CSR_BASEADDR] [board_fact PS_LMB_BYTES]
generate_target all [get_files cpu_bd.bd]
add_files -norecurse [make_wrapper -files [get_files cpu_bd.bd] -top]

launch_runs synth_1 -jobs 8
wait_on_run synth_1
if {[get_property PROGRESS [get_runs synth_1]] ne "100%"} { error "synthesis failed" }
launch_runs impl_1 -to_step write_bitstream -jobs 8
wait_on_run impl_1
if {[get_property PROGRESS [get_runs impl_1]] ne "100%"} { error "implementation failed" }

open_run impl_1
report_timing_summary -file $out/timing_summary.rpt
if {[get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]] < 0} {
    puts "WARNING: setup timing not met, see $out/timing_summary.rpt"
}
file copy -force [get_property DIRECTORY [get_runs impl_1]]/$top.bit $out/top.bit
write_mem_info -force $out/top.mmi
write_hw_platform -fixed -force -file $out/top.xsa
