// xil_pcie_port: one PCIE4 block as one switch port
hdl/xilinx/rtl/xil_pcie_port.v
hdl/xilinx/rtl/xil_rx_merge.v
hdl/xilinx/rtl/xil_tx_split.v
-f hdl/xilinx/rtl/xil_adapters.f
