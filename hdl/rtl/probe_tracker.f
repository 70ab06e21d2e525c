// probe_tracker: every read from request to last completion, its statistics and histograms
hdl/rtl/probe_tracker.v
hdl/rtl/probe_tracker_table.v
hdl/rtl/probe_tracker_sums.v
hdl/rtl/probe_ones.v
hdl/rtl/probe_tracker_stats.v
hdl/rtl/probe_latency_hist.v
hdl/rtl/probe_hist_bin_index.v
hdl/rtl/probe_hist_bank.v
hdl/rtl/probe_mp_ram.v
hdl/rtl/probe_xor_ram.v
hdl/rtl/probe_xor_bram.v
hdl/rtl/probe_bram_copy.v
hdl/rtl/probe_ram_model.v
hdl/rtl/probe_extreme.v
hdl/rtl/probe_counter.v
hdl/rtl/probe_mrd_classify.v
hdl/rtl/probe_addr_filter.v
