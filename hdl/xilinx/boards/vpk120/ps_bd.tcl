# ps_bd.tcl - block design "ps_bd": everything of the VPK120 design that lives in a Vivado block design.
# Sourced by build.tcl, which calls ps_bd_create in an open project.
#
#   CIPS (versal_cips): the PS's Cortex-R5F runs the firmware from OCM; PS UART0 on the board's
#     USB-UART (MIO, as the VPK120's presets have it); the LPD's AXI master to the PL (M_AXI_LPD)
#     carries the firmware's CSR accesses; PL clock 0 (100 MHz) and its reset; CPM5 in
#     "PCIe controller only" mode with controller 1 as a switch upstream port, Gen4 x8, 512-bit
#     AXI4-Stream at 250 MHz, straddle off, on the edge connector's quads 104-105 (PG346;
#     UG1568's transceiver table), its four streams, user clock, status and GT lanes made
#     external for vpk120_switch_top.
#   The PL PCIE5 block X1Y0 (pcie_versal, PG343) as a Root Port, Gen4 x8, 512-bit AXI4-Stream at
#     250 MHz, straddle off, with its PHY (pcie_phy_versal), two GT quads (gt_quad_base,
#     GTYP_QUAD_X1Y0 / X1Y1) and the reference clock buffer, wired as PG343's PHY / GT quad
#     figure shows; its streams and status made external.
#   A SmartConnect from M_AXI_LPD to the AXI4-Lite port M_AXI_CSR in csr_clk (the CPM5 user
#     clock, given back by the top), crossing clocks.
#
# Written from the product guides' parameter and port names, never run (no Vivado here):
# CONFIG keys of versal_cips and pcie_versal, and the CPM5 interface pin names on the CIPS,
# are the first things `validate_bd_design` will check (README.md, "Not verified").

proc ps_bd_axis {name mode tuser} {
    set p [create_bd_intf_port -mode $mode -vlnv xilinx.com:interface:axis_rtl:1.0 $name]
    set_property -dict [list CONFIG.TDATA_NUM_BYTES 64 CONFIG.TUSER_WIDTH $tuser CONFIG.HAS_TKEEP 1 \
        CONFIG.HAS_TLAST 1 CONFIG.HAS_TREADY 1] $p
    return $p
}

proc ps_bd_block_ports {p} {
    create_bd_intf_port -mode Master -vlnv xilinx.com:interface:gt_rtl:1.0 ${p}_gt
    create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 ${p}_refclk
    set_property CONFIG.FREQ_HZ 100000000 [get_bd_intf_ports ${p}_refclk]
    create_bd_port -dir O -type clk ${p}_user_clk
    create_bd_port -dir O -type rst ${p}_user_reset
    create_bd_port -dir O ${p}_user_lnk_up
    create_bd_port -dir O -from 2 -to 0 ${p}_cfg_current_speed
    create_bd_port -dir O -from 2 -to 0 ${p}_cfg_negotiated_width
}

proc ps_bd_create {csr_base device_ids} {
    lassign $device_ids up_id dn_id
    create_bd_design ps_bd

    # external ports (vpk120_switch_top connects ps_bd_wrapper's; tuser widths: README.md)
    create_bd_port -dir O -type clk pl_clk
    create_bd_port -dir O -type rst pl_resetn
    create_bd_port -dir I -type clk -freq_hz 250000000 csr_clk
    create_bd_port -dir I -type rst csr_resetn
    set csr [create_bd_intf_port -mode Master -vlnv xilinx.com:interface:aximm_rtl:1.0 M_AXI_CSR]
    set_property -dict [list CONFIG.PROTOCOL AXI4LITE CONFIG.ADDR_WIDTH 32 CONFIG.DATA_WIDTH 32] $csr
    set_property -dict [list CONFIG.ASSOCIATED_BUSIF M_AXI_CSR CONFIG.ASSOCIATED_RESET csr_resetn] [get_bd_ports csr_clk]
    ps_bd_block_ports pcie_up
    create_bd_port -dir O -from 3 -to 0 pcie_up_tfc_nph_av
    ps_bd_axis pcie_up_cq Master 229
    ps_bd_axis pcie_up_rc Master 161
    ps_bd_axis pcie_up_rq Slave 183
    ps_bd_axis pcie_up_cc Slave 81
    ps_bd_block_ports pcie_dn
    create_bd_port -dir I -type rst pcie_dn_sys_reset
    set_property CONFIG.POLARITY ACTIVE_LOW [get_bd_ports pcie_dn_sys_reset]
    ps_bd_axis pcie_dn_cq Master 231
    ps_bd_axis pcie_dn_rc Master 161
    ps_bd_axis pcie_dn_rq Slave 183
    ps_bd_axis pcie_dn_cc Slave 81

    # CIPS: PS (R5F, UART0, LPD to PL, PL clock) and CPM5 controller 1 as the switch's upstream port
    set cips [create_bd_cell -type ip -vlnv xilinx.com:ip:versal_cips cips]
    set_property -dict [list \
        CONFIG.PS_PMC_CONFIG [list \
            PS_UART0_PERIPHERAL {{ENABLE 1} {IO {PMC_MIO 42 .. 43}}} \
            PS_UART0_BAUD_RATE 921600 \
            PS_USE_M_AXI_LPD 1 \
            PS_USE_PMCPL_CLK0 1 \
            PMC_CRP_PL0_REF_CTRL_FREQMHZ 100 \
            PS_NUM_FABRIC_RESETS 1 \
            PS_PCIE1_PERIPHERAL_ENABLE 1 \
            PS_PCIE_RESET {{ENABLE 1}} \
            PS_PCIE_EP_RESET1_IO {PMC_MIO 38} \
        ] \
        CONFIG.CPM_CONFIG [list \
            CPM_PCIE1_MODES {None} \
            CPM_PCIE1_PORT_TYPE {Upstream_Port_of_PCI_Express_Switch} \
            CPM_PCIE1_MAX_LINK_SPEED {16.0_GT/s} \
            CPM_PCIE1_MODE1_LINK_WIDTH {X8} \
            CPM_PCIE1_AXISTEN_IF_WIDTH {512} \
            CPM_PCIE1_USER_CLK_FREQ {250_MHz} \
            CPM_PCIE1_AXISTEN_IF_CQ_STRADDLE {0} \
            CPM_PCIE1_AXISTEN_IF_RC_STRADDLE {0} \
            CPM_PCIE1_AXISTEN_IF_CC_STRADDLE {0} \
            CPM_PCIE1_AXISTEN_IF_RQ_STRADDLE {0} \
            CPM_PCIE1_PF0_DEVICE_ID $up_id \
            CPM_PCIE1_PF0_BASE_CLASS_VALUE {06} \
            CPM_PCIE1_PF0_SUB_CLASS_VALUE {04} \
        ] \
    ] $cips
    connect_bd_net [get_bd_pins cips/pl0_ref_clk] [get_bd_ports pl_clk]
    connect_bd_net [get_bd_pins cips/pl0_resetn] [get_bd_ports pl_resetn]
    connect_bd_intf_net [get_bd_intf_pins cips/PCIE1_GT] [get_bd_intf_ports pcie_up_gt]
    connect_bd_intf_net [get_bd_intf_pins cips/gt_refclk1] [get_bd_intf_ports pcie_up_refclk]
    connect_bd_intf_net [get_bd_intf_pins cips/pcie1_m_axis_cq] [get_bd_intf_ports pcie_up_cq]
    connect_bd_intf_net [get_bd_intf_pins cips/pcie1_m_axis_rc] [get_bd_intf_ports pcie_up_rc]
    connect_bd_intf_net [get_bd_intf_ports pcie_up_rq] [get_bd_intf_pins cips/pcie1_s_axis_rq]
    connect_bd_intf_net [get_bd_intf_ports pcie_up_cc] [get_bd_intf_pins cips/pcie1_s_axis_cc]
    connect_bd_net [get_bd_pins cips/pcie1_user_clk] [get_bd_ports pcie_up_user_clk]
    connect_bd_net [get_bd_pins cips/pcie1_user_reset] [get_bd_ports pcie_up_user_reset]
    connect_bd_net [get_bd_pins cips/pcie1_user_lnk_up] [get_bd_ports pcie_up_user_lnk_up]
    connect_bd_net [get_bd_pins cips/pcie1_cfg_current_speed] [get_bd_ports pcie_up_cfg_current_speed]
    connect_bd_net [get_bd_pins cips/pcie1_cfg_negotiated_width] [get_bd_ports pcie_up_cfg_negotiated_width]
    connect_bd_net [get_bd_pins cips/pcie1_pcie_tfc_nph_av] [get_bd_ports pcie_up_tfc_nph_av]

    # PL PCIE5 X1Y0 as the GPU's Root Port, its PHY, GT quads and reference clock buffer
    set dn [create_bd_cell -type ip -vlnv xilinx.com:ip:pcie_versal pcie_dn]
    set_property -dict [list \
        CONFIG.PL_LINK_CAP_MAX_LINK_SPEED {16.0_GT/s} \
        CONFIG.PL_LINK_CAP_MAX_LINK_WIDTH {X8} \
        CONFIG.device_port_type {Root_Port_of_PCI_Express_Root_Complex} \
        CONFIG.pcie_blk_locn {X1Y0} \
        CONFIG.AXISTEN_IF_EXT_512_CQ_STRADDLE {false} \
        CONFIG.AXISTEN_IF_EXT_512_RC_STRADDLE {false} \
        CONFIG.axisten_if_width {512_bit} \
        CONFIG.axisten_freq {250} \
        CONFIG.axisten_if_enable_client_tag {true} \
        CONFIG.PF0_DEVICE_ID $dn_id \
        CONFIG.PF0_CLASS_CODE {060400} \
    ] $dn
    set phy [create_bd_cell -type ip -vlnv xilinx.com:ip:pcie_phy_versal pcie_dn_phy]
    set_property -dict [list CONFIG.PL_LINK_CAP_MAX_LINK_SPEED {16.0_GT/s} CONFIG.PL_LINK_CAP_MAX_LINK_WIDTH {X8} \
        CONFIG.pcie_blk_locn {X1Y0} CONFIG.phy_refclk_freq {100_MHz}] $phy
    create_bd_cell -type ip -vlnv xilinx.com:ip:gt_quad_base pcie_dn_quad0
    create_bd_cell -type ip -vlnv xilinx.com:ip:gt_quad_base pcie_dn_quad1
    set refbuf [create_bd_cell -type ip -vlnv xilinx.com:ip:util_ds_buf pcie_dn_refclk_buf]
    set_property CONFIG.C_BUF_TYPE {IBUFDSGTE} $refbuf
    connect_bd_intf_net [get_bd_intf_ports pcie_dn_refclk] [get_bd_intf_pins pcie_dn_refclk_buf/CLK_IN_D]
    connect_bd_net [get_bd_pins pcie_dn_refclk_buf/IBUF_OUT] [get_bd_pins pcie_dn_phy/phy_gtrefclk] \
        [get_bd_pins pcie_dn_quad0/GT_REFCLK0] [get_bd_pins pcie_dn_quad1/GT_REFCLK0]
    connect_bd_net [get_bd_pins pcie_dn_refclk_buf/IBUF_DS_ODIV2] [get_bd_pins pcie_dn_phy/phy_refclk] \
        [get_bd_pins pcie_dn/sys_clk]
    connect_bd_net [get_bd_pins pcie_dn_phy/phy_coreclk] [get_bd_pins pcie_dn/phy_coreclk]
    connect_bd_net [get_bd_pins pcie_dn_phy/phy_userclk] [get_bd_pins pcie_dn/phy_userclk]
    connect_bd_net [get_bd_pins pcie_dn_phy/phy_userclk2] [get_bd_pins pcie_dn/phy_userclk2]
    connect_bd_net [get_bd_pins pcie_dn_phy/phy_mcapclk] [get_bd_pins pcie_dn/phy_mcapclk]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn/pcie_mgt] [get_bd_intf_pins pcie_dn_phy/pcie_mgt]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn/phy_mac_rx] [get_bd_intf_pins pcie_dn_phy/phy_mac_rx]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn/phy_mac_tx] [get_bd_intf_pins pcie_dn_phy/phy_mac_tx]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/GT_TX0] [get_bd_intf_pins pcie_dn_quad0/TX0_GT_IP_Interface]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/GT_RX0] [get_bd_intf_pins pcie_dn_quad0/RX0_GT_IP_Interface]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/GT_TX1] [get_bd_intf_pins pcie_dn_quad1/TX0_GT_IP_Interface]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/GT_RX1] [get_bd_intf_pins pcie_dn_quad1/RX0_GT_IP_Interface]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/GT_BUFGT] [get_bd_intf_pins pcie_dn_quad0/GT_BUFGT]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/gt_rxmargin_q0] [get_bd_intf_pins pcie_dn_quad0/gt_rxmargin_intf]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/gt_rxmargin_q1] [get_bd_intf_pins pcie_dn_quad1/gt_rxmargin_intf]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn_phy/pcie_gt] [get_bd_intf_ports pcie_dn_gt]
    connect_bd_net [get_bd_ports pcie_dn_sys_reset] [get_bd_pins pcie_dn/sys_reset] [get_bd_pins pcie_dn_phy/phy_rst_n]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn/m_axis_cq] [get_bd_intf_ports pcie_dn_cq]
    connect_bd_intf_net [get_bd_intf_pins pcie_dn/m_axis_rc] [get_bd_intf_ports pcie_dn_rc]
    connect_bd_intf_net [get_bd_intf_ports pcie_dn_rq] [get_bd_intf_pins pcie_dn/s_axis_rq]
    connect_bd_intf_net [get_bd_intf_ports pcie_dn_cc] [get_bd_intf_pins pcie_dn/s_axis_cc]
    connect_bd_net [get_bd_pins pcie_dn/user_clk] [get_bd_ports pcie_dn_user_clk]
    connect_bd_net [get_bd_pins pcie_dn/user_reset] [get_bd_ports pcie_dn_user_reset]
    connect_bd_net [get_bd_pins pcie_dn/user_lnk_up] [get_bd_ports pcie_dn_user_lnk_up]
    connect_bd_net [get_bd_pins pcie_dn/cfg_current_speed] [get_bd_ports pcie_dn_cfg_current_speed]
    connect_bd_net [get_bd_pins pcie_dn/cfg_negotiated_width] [get_bd_ports pcie_dn_cfg_negotiated_width]

    # the firmware's path to the CSR: M_AXI_LPD -> SmartConnect -> M_AXI_CSR (csr_clk)
    create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset rst_pl
    connect_bd_net [get_bd_pins cips/pl0_ref_clk] [get_bd_pins rst_pl/slowest_sync_clk] [get_bd_pins cips/m_axi_lpd_aclk]
    connect_bd_net [get_bd_pins cips/pl0_resetn] [get_bd_pins rst_pl/ext_reset_in]
    create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect axi_sc
    set_property -dict [list CONFIG.NUM_SI 1 CONFIG.NUM_MI 1 CONFIG.NUM_CLKS 2] [get_bd_cells axi_sc]
    connect_bd_intf_net [get_bd_intf_pins cips/M_AXI_LPD] [get_bd_intf_pins axi_sc/S00_AXI]
    connect_bd_intf_net [get_bd_intf_pins axi_sc/M00_AXI] $csr
    connect_bd_net [get_bd_pins cips/pl0_ref_clk] [get_bd_pins axi_sc/aclk]
    connect_bd_net [get_bd_ports csr_clk] [get_bd_pins axi_sc/aclk1]
    connect_bd_net [get_bd_pins rst_pl/interconnect_aresetn] [get_bd_pins axi_sc/aresetn]

    # address map: the CSR at the start of the LPD's PL window (board.mk)
    assign_bd_address -target_address_space /cips/M_AXI_LPD -offset $csr_base -range 8K \
        [get_bd_addr_segs M_AXI_CSR/Reg]

    validate_bd_design
    save_bd_design
}
