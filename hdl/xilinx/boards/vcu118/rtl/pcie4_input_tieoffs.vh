`ifndef PCIE4_INPUT_TIEOFFS_VH
`define PCIE4_INPUT_TIEOFFS_VH

/*
 * The PCIE4 integrated block's inputs the VCU118 tops do not drive, tied as PG213 describes
 * their idle state (every block alike): non-posted credits always granted (the design behind
 * the block pushes back through tready), link training on, no management, message, flow-control,
 * interrupt, power-management or FLR requests; cfg_ds_*: a root port's own ID is bus 0,
 * device 0, so the GPU below it is bus 1
 */
`define PCIE4_INPUT_TIEOFFS \
    .pcie_cq_np_req(2'b11), \
    .cfg_mgmt_addr(10'd0), .cfg_mgmt_function_number(8'd0), .cfg_mgmt_write(1'b0), .cfg_mgmt_write_data(32'd0), \
    .cfg_mgmt_byte_enable(4'd0), .cfg_mgmt_read(1'b0), .cfg_mgmt_debug_access(1'b0), \
    .cfg_msg_transmit(1'b0), .cfg_msg_transmit_type(3'd0), .cfg_msg_transmit_data(32'd0), \
    .cfg_fc_sel(3'd0), .cfg_dsn(64'd0), .cfg_power_state_change_ack(1'b1), \
    .cfg_err_cor_in(1'b0), .cfg_err_uncor_in(1'b0), .cfg_flr_done(4'd0), \
    .cfg_vf_flr_func_num(8'd0), .cfg_vf_flr_done(1'b0), .cfg_link_training_enable(1'b1), \
    .cfg_interrupt_int(4'd0), .cfg_interrupt_pending(4'd0), \
    .cfg_interrupt_msi_select(2'd0), .cfg_interrupt_msi_int(32'd0), .cfg_interrupt_msi_pending_status(32'd0), \
    .cfg_interrupt_msi_pending_status_data_enable(1'b0), .cfg_interrupt_msi_pending_status_function_num(2'd0), \
    .cfg_interrupt_msi_attr(3'd0), .cfg_interrupt_msi_tph_present(1'b0), .cfg_interrupt_msi_tph_type(2'd0), \
    .cfg_interrupt_msi_tph_st_tag(8'd0), .cfg_interrupt_msi_function_number(8'd0), \
    .cfg_pm_aspm_l1_entry_reject(1'b0), .cfg_pm_aspm_tx_l0s_entry_disable(1'b0), \
    .cfg_config_space_enable(1'b1), .cfg_req_pm_transition_l23_ready(1'b0), .cfg_hot_reset_in(1'b0), \
    .cfg_ds_port_number(8'd0), .cfg_ds_bus_number(8'd0), .cfg_ds_device_number(5'd0)

`endif
