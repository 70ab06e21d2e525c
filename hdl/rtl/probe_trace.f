// probe_trace: the trace unit beside a probe (decode, registers, control, ring)
hdl/rtl/probe_trace.v
hdl/rtl/probe_trace_decode.v
hdl/rtl/probe_trace_regs.v
hdl/rtl/probe_trace_ctrl.v
hdl/rtl/probe_trace_ring.v
hdl/rtl/probe_ones.v
hdl/rtl/probe_xor_bram.v
hdl/rtl/probe_bram_copy.v
hdl/rtl/probe_ram_model.v
