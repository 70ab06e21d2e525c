// bar_responder: the BAR endpoint answering reads
hdl/rtl/bar_responder.v
hdl/rtl/seg_fifo.v
hdl/rtl/probe_mrd_classify.v
