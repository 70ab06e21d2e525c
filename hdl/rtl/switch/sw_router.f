// sw_router: the two-port switch
hdl/rtl/switch/sw_router.v
hdl/rtl/switch/sw_ingress.v
hdl/rtl/switch/sw_route.v
hdl/rtl/switch/sw_egress.v
hdl/rtl/switch/sw_fifo.v
hdl/rtl/switch/sw_rx_slice.v
hdl/rtl/switch/sw_cfg_space.v
hdl/rtl/seg_fifo.v
hdl/rtl/probe_mrd_classify.v
