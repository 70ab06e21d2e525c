# board.mk - facts of the VCU118 design that more than one tool needs, written once.
# Read by build.tcl and cpu_bd.tcl (regexp) and included by firmware.mk.

# the probe CSR in the MicroBlaze's data space: cpu_bd's M_AXI_CSR segment (8 KiB: the
# switch design's two probe taps, 4 KiB each; the BAR design decodes the first)
PS_XIL_CSR_BASEADDR := 0x44A00000
# MicroBlaze local memory (code, data, stack, BSS) in bytes, a power of two
PS_LMB_BYTES := 131072
# the firmware's stack in bytes (ps_app_t is static; the deepest call chain is a frame encode)
PS_STACK_BYTES := 4096
