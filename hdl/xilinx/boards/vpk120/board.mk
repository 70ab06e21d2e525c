# board.mk - facts of the VPK120 design that more than one tool needs, written once.
# Read by build.tcl and ps_bd.tcl (regexp) and included by firmware.mk.

# the probe CSR in the R5F's address space: ps_bd's M_AXI_CSR segment, at the start of the
# LPD's AXI window to the PL (AM011 address map), 8 KiB: the switch design's two probe taps
PS_VSL_CSR_BASEADDR := 0x80000000
# the firmware's stack in bytes (ps_app_t is static; the deepest call chain is a frame encode)
PS_STACK_BYTES := 4096
