# cpu_bd.tcl - the soft CPU as block design "cpu_bd": MicroBlaze with local BRAM (code and data),
# AXI UART Lite at 921 600 baud for the firmware's protocol, AXI Timer as its time base, and an
# AXI4-Lite master port M_AXI_CSR to the probe's CSR in the switch's clock (csr_clk; the
# SmartConnect crosses clocks). Sourced by build.tcl, which calls ps_cpu_bd in an open project.
# Instance names give the BSP's xparameters.h the XPAR_UARTLITE_0_* / XPAR_TMRCTR_0_* names the
# firmware's ps_config.h defaults to.

proc ps_cpu_bd {csr_base lmb_bytes} {
    create_bd_design cpu_bd

    # external ports (the VCU118 tops connect cpu_bd_wrapper's)
    set clk_in [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 clk_125mhz]
    set_property CONFIG.FREQ_HZ 125000000 $clk_in
    create_bd_port -dir I -type rst reset
    set_property CONFIG.POLARITY ACTIVE_HIGH [get_bd_ports reset]
    create_bd_port -dir O -type clk cpu_clk
    create_bd_port -dir O cpu_locked
    create_bd_intf_port -mode Master -vlnv xilinx.com:interface:uart_rtl:1.0 uart
    create_bd_port -dir I -type clk -freq_hz 250000000 csr_clk
    create_bd_port -dir I -type rst csr_resetn
    set csr [create_bd_intf_port -mode Master -vlnv xilinx.com:interface:aximm_rtl:1.0 M_AXI_CSR]
    set_property -dict [list CONFIG.PROTOCOL AXI4LITE CONFIG.ADDR_WIDTH 32 CONFIG.DATA_WIDTH 32] $csr
    set_property -dict [list CONFIG.ASSOCIATED_BUSIF M_AXI_CSR CONFIG.ASSOCIATED_RESET csr_resetn] [get_bd_ports csr_clk]

    # CPU clock 117.9648 MHz = 8 x 16 x 921 600: the UART Lite's divider of 8 is exact (at 125 MHz
    # it would be 8.48, a 6 % baud error); the wizard picks the nearest it can make
    create_bd_cell -type ip -vlnv xilinx.com:ip:clk_wiz clk_wiz_0
    set_property -dict [list CONFIG.PRIM_SOURCE Differential_clock_capable_pin CONFIG.PRIM_IN_FREQ 125.000 \
        CONFIG.CLKOUT1_REQUESTED_OUT_FREQ 117.9648 CONFIG.USE_RESET true CONFIG.RESET_TYPE ACTIVE_HIGH] \
        [get_bd_cells clk_wiz_0]
    connect_bd_intf_net $clk_in [get_bd_intf_pins clk_wiz_0/CLK_IN1_D]
    connect_bd_net [get_bd_ports reset] [get_bd_pins clk_wiz_0/reset]
    set clk [get_bd_pins clk_wiz_0/clk_out1]
    connect_bd_net $clk [get_bd_ports cpu_clk]
    connect_bd_net [get_bd_pins clk_wiz_0/locked] [get_bd_ports cpu_locked]

    create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset rst_0
    connect_bd_net $clk [get_bd_pins rst_0/slowest_sync_clk]
    connect_bd_net [get_bd_ports reset] [get_bd_pins rst_0/ext_reset_in]
    connect_bd_net [get_bd_pins clk_wiz_0/locked] [get_bd_pins rst_0/dcm_locked]

    # MicroBlaze, its debug module and local memory (both LMBs on one dual-port BRAM)
    create_bd_cell -type ip -vlnv xilinx.com:ip:microblaze microblaze_0
    set_property -dict [list CONFIG.C_D_AXI 1 CONFIG.C_DEBUG_ENABLED 1] [get_bd_cells microblaze_0]
    create_bd_cell -type ip -vlnv xilinx.com:ip:mdm mdm_0
    connect_bd_intf_net [get_bd_intf_pins mdm_0/MBDEBUG_0] [get_bd_intf_pins microblaze_0/DEBUG]
    foreach bus {ilmb dlmb} {
        create_bd_cell -type ip -vlnv xilinx.com:ip:lmb_v10 $bus
        create_bd_cell -type ip -vlnv xilinx.com:ip:lmb_bram_if_cntlr ${bus}_cntlr
        connect_bd_intf_net [get_bd_intf_pins $bus/LMB_Sl_0] [get_bd_intf_pins ${bus}_cntlr/SLMB]
        connect_bd_net $clk [get_bd_pins $bus/LMB_Clk] [get_bd_pins ${bus}_cntlr/LMB_Clk]
        connect_bd_net [get_bd_pins rst_0/bus_struct_reset] [get_bd_pins $bus/SYS_Rst] [get_bd_pins ${bus}_cntlr/LMB_Rst]
    }
    connect_bd_intf_net [get_bd_intf_pins microblaze_0/ILMB] [get_bd_intf_pins ilmb/LMB_M]
    connect_bd_intf_net [get_bd_intf_pins microblaze_0/DLMB] [get_bd_intf_pins dlmb/LMB_M]
    create_bd_cell -type ip -vlnv xilinx.com:ip:blk_mem_gen lmb_bram
    set_property -dict [list CONFIG.Memory_Type True_Dual_Port_RAM CONFIG.use_bram_block BRAM_Controller] \
        [get_bd_cells lmb_bram]
    connect_bd_intf_net [get_bd_intf_pins ilmb_cntlr/BRAM_PORT] [get_bd_intf_pins lmb_bram/BRAM_PORTA]
    connect_bd_intf_net [get_bd_intf_pins dlmb_cntlr/BRAM_PORT] [get_bd_intf_pins lmb_bram/BRAM_PORTB]
    connect_bd_net $clk [get_bd_pins microblaze_0/Clk]
    connect_bd_net [get_bd_pins rst_0/mb_reset] [get_bd_pins microblaze_0/Reset]
    connect_bd_net [get_bd_pins mdm_0/Debug_SYS_Rst] [get_bd_pins rst_0/mb_debug_sys_rst]

    # peripherals on the data bus: UART, timer, the probe CSR in csr_clk
    create_bd_cell -type ip -vlnv xilinx.com:ip:axi_uartlite axi_uartlite_0
    set_property CONFIG.C_BAUDRATE 921600 [get_bd_cells axi_uartlite_0]
    connect_bd_intf_net [get_bd_intf_pins axi_uartlite_0/UART] [get_bd_intf_ports uart]
    create_bd_cell -type ip -vlnv xilinx.com:ip:axi_timer axi_timer_0
    create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect axi_sc
    set_property -dict [list CONFIG.NUM_SI 1 CONFIG.NUM_MI 3 CONFIG.NUM_CLKS 2] [get_bd_cells axi_sc]
    connect_bd_intf_net [get_bd_intf_pins microblaze_0/M_AXI_DP] [get_bd_intf_pins axi_sc/S00_AXI]
    connect_bd_intf_net [get_bd_intf_pins axi_sc/M00_AXI] [get_bd_intf_pins axi_uartlite_0/S_AXI]
    connect_bd_intf_net [get_bd_intf_pins axi_sc/M01_AXI] [get_bd_intf_pins axi_timer_0/S_AXI]
    connect_bd_intf_net [get_bd_intf_pins axi_sc/M02_AXI] $csr
    connect_bd_net $clk [get_bd_pins axi_sc/aclk] [get_bd_pins axi_uartlite_0/s_axi_aclk] [get_bd_pins axi_timer_0/s_axi_aclk]
    connect_bd_net [get_bd_ports csr_clk] [get_bd_pins axi_sc/aclk1]
    connect_bd_net [get_bd_pins rst_0/interconnect_aresetn] [get_bd_pins axi_sc/aresetn]
    connect_bd_net [get_bd_pins rst_0/peripheral_aresetn] [get_bd_pins axi_uartlite_0/s_axi_aresetn] \
        [get_bd_pins axi_timer_0/s_axi_aresetn]

    # address map
    set lmb_range [expr {$lmb_bytes / 1024}]K
    assign_bd_address -target_address_space /microblaze_0/Instruction -offset 0x00000000 -range $lmb_range \
        [get_bd_addr_segs ilmb_cntlr/SLMB/Mem]
    assign_bd_address -target_address_space /microblaze_0/Data -offset 0x00000000 -range $lmb_range \
        [get_bd_addr_segs dlmb_cntlr/SLMB/Mem]
    assign_bd_address -target_address_space /microblaze_0/Data -offset 0x40600000 -range 64K \
        [get_bd_addr_segs axi_uartlite_0/S_AXI/Reg]
    assign_bd_address -target_address_space /microblaze_0/Data -offset 0x41C00000 -range 64K \
        [get_bd_addr_segs axi_timer_0/S_AXI/Reg]
    assign_bd_address -target_address_space /microblaze_0/Data -offset $csr_base -range 8K \
        [get_bd_addr_segs M_AXI_CSR/Reg]

    validate_bd_design
    save_bd_design
}
