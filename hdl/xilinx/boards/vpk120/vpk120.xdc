# vpk120.xdc - vpk120_switch_top on the VPK120: what is known without the board's master XDC.
# The upstream port's lanes and reference clock are CPM5's dedicated pins (GTYP quads 104-105,
# PCIe edge clock 0 on quad 105 REFCLK0: UG1568's transceiver table), placed by the CIPS
# configuration, not by pin. The downstream facts (OP103 sideband pins, quads, reference clock)
# are in fmcp_pins.tcl; build.tcl writes them as a constraints file of its own.

# Downstream lanes: FMCP DP0-7 on GTYP banks 200-201 in lane order 0-7 ([O] in fmcp_pins.tcl:
# Opsero's VPK120 constraints place DP0-3 on bank 200 "in this order: 0->0, 1->1, 2->2, 3->3",
# DP4-7 on bank 201 likewise). Pins for lanes 0-3 [O]; lanes 4-7 [O] (commented there, for
# their second x4 link).
set_property PACKAGE_PIN BJ36 [get_ports {pcie_dn_tx_p[0]}]
set_property PACKAGE_PIN BM37 [get_ports {pcie_dn_rx_p[0]}]
set_property PACKAGE_PIN BG37 [get_ports {pcie_dn_tx_p[1]}]
set_property PACKAGE_PIN BM39 [get_ports {pcie_dn_rx_p[1]}]
set_property PACKAGE_PIN BJ38 [get_ports {pcie_dn_tx_p[2]}]
set_property PACKAGE_PIN BM41 [get_ports {pcie_dn_rx_p[2]}]
set_property PACKAGE_PIN BG39 [get_ports {pcie_dn_tx_p[3]}]
set_property PACKAGE_PIN BM43 [get_ports {pcie_dn_rx_p[3]}]
set_property PACKAGE_PIN BJ40 [get_ports {pcie_dn_tx_p[4]}]
set_property PACKAGE_PIN BK44 [get_ports {pcie_dn_rx_p[4]}]
set_property PACKAGE_PIN BG41 [get_ports {pcie_dn_tx_p[5]}]
set_property PACKAGE_PIN BM45 [get_ports {pcie_dn_rx_p[5]}]
set_property PACKAGE_PIN BJ42 [get_ports {pcie_dn_tx_p[6]}]
set_property PACKAGE_PIN BK46 [get_ports {pcie_dn_rx_p[6]}]
set_property PACKAGE_PIN BG43 [get_ports {pcie_dn_tx_p[7]}]
set_property PACKAGE_PIN BM47 [get_ports {pcie_dn_rx_p[7]}]

# Downstream reference clock: 100 MHz from the OP103's oscillator (LOCAL_CLKS_N low) on FMCP's
# GBTCLK into bank 200 REFCLK1 [O]; its pin is written from fmcp_pins.tcl, the clock is here.
create_clock -period 10.000 -name pcie_dn_refclk [get_ports pcie_dn_refclk_p]

# The GPU's PERST# and the OP103's mode pins are static or asynchronous.
set_false_path -to [get_ports {pcie_dn_perst_n pcie_dn_perstb_n op103_host_mode_n op103_local_clks_n}]
