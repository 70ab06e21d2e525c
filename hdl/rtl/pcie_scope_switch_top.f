// pcie_scope_switch_top: the switch design, a probe on each side, the CSR split by tap
hdl/rtl/pcie_scope_switch_top.v
hdl/rtl/probe_axil_tap_demux.v
hdl/rtl/tap_pipe.v
-f hdl/rtl/switch/sw_router.f
-f hdl/rtl/probe_core.f
