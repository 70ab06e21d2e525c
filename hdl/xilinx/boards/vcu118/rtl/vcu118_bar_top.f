// vcu118_bar_top: the BAR design on the VCU118 (vendor modules not listed: Vivado IP)
hdl/xilinx/boards/vcu118/rtl/vcu118_bar_top.v
-f hdl/xilinx/rtl/xil_pcie_port.f
-f hdl/rtl/pcie_scope_bar_top.f
