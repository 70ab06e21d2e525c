// the UltraScale+ adapters, each a top of its own (xil_cq_rx, xil_rc_rx, xil_rq_tx, xil_cc_tx) with their engines
hdl/xilinx/rtl/xil_cq_rx.v
hdl/xilinx/rtl/xil_rc_rx.v
hdl/xilinx/rtl/xil_rq_tx.v
hdl/xilinx/rtl/xil_cc_tx.v
hdl/xilinx/rtl/xil_rx_unpack.v
hdl/xilinx/rtl/xil_tx_pack.v
