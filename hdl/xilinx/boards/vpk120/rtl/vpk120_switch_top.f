// vpk120_switch_top: the switch design on the VPK120 (vendor modules not listed: Vivado IP and
// the block design ps_bd)
hdl/xilinx/boards/vpk120/rtl/vpk120_switch_top.v
hdl/xilinx/boards/vcu118/rtl/pcie_perst_gen.v
hdl/xilinx/rtl/xil_tlp_async_fifo.v
-f hdl/xilinx/rtl/xil_pcie_port.f
-f hdl/rtl/pcie_scope_switch_top.f
