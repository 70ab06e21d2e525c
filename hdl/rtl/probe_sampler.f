// probe_sampler: the interval sampler and its record FIFO
hdl/rtl/probe_sampler.v
hdl/rtl/probe_sample_fifo.v
