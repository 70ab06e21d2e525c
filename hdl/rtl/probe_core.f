// probe_core: the probe both tops share (counters, tracker, sampler, trace, CSR)
hdl/rtl/probe_core.v
hdl/rtl/probe_csr.v
-f hdl/rtl/probe_counters.f
-f hdl/rtl/probe_tracker.f
-f hdl/rtl/probe_sampler.f
-f hdl/rtl/probe_trace.f
