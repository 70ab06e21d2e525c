// probe_counters: the size-class and byte counters of one tap (paths from the repository root)
hdl/rtl/probe_counters.v
hdl/rtl/probe_counter.v
hdl/rtl/probe_ones.v
hdl/rtl/probe_mrd_classify.v
hdl/rtl/probe_addr_filter.v
