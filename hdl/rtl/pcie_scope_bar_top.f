// pcie_scope_bar_top: the BAR-endpoint design
hdl/rtl/pcie_scope_bar_top.v
-f hdl/rtl/bar_responder.f
-f hdl/rtl/probe_core.f
