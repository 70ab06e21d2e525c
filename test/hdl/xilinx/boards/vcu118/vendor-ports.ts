// The vendor modules vcu118_top instantiates, as port tables: the two PCIE4 blocks as the IP
// generates them for this configuration (pcie4_uscale_plus at 256 bits, x8: PG213's port
// tables; names and widths as in Vivado's synthesis stub of that IP), IBUFDS_GTE4 (UG974),
// the XPM macros xpm_fifo_async and xpm_cdc_array_single (UG974) and the block design's
// wrapper (its external ports, created by hdl/xilinx/boards/vcu118/cpu_bd.tcl). From the
// tables the test writes stubs of the pins the design connects, so that Verilator -Wall and
// Icarus check the top's connections against the real names and widths.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Port {
  dir: 'input' | 'output'
  name: string
  /** a width expression (parameter names allowed), 1 when absent */
  width?: string
}

export interface VendorModule {
  name: string
  params?: Array<[string, string]>
  ports: Port[]
}

const i = (name: string, width?: string): Port => ({ dir: 'input', name, ...(width ? { width } : {}) })
const o = (name: string, width?: string): Port => ({ dir: 'output', name, ...(width ? { width } : {}) })

/** pcie4_uscale_plus, 256-bit AXI-Stream, 8 lanes, default interface set. */
function pcie4(name: string): VendorModule {
  return {
    name,
    ports: [
      o('pci_exp_txn', '8'), o('pci_exp_txp', '8'), i('pci_exp_rxn', '8'), i('pci_exp_rxp', '8'),
      o('user_clk'), o('user_reset'), o('user_lnk_up'),
      i('s_axis_rq_tdata', '256'), i('s_axis_rq_tkeep', '8'), i('s_axis_rq_tlast'), o('s_axis_rq_tready', '4'), i('s_axis_rq_tuser', '62'), i('s_axis_rq_tvalid'),
      o('m_axis_rc_tdata', '256'), o('m_axis_rc_tkeep', '8'), o('m_axis_rc_tlast'), i('m_axis_rc_tready'), o('m_axis_rc_tuser', '75'), o('m_axis_rc_tvalid'),
      o('m_axis_cq_tdata', '256'), o('m_axis_cq_tkeep', '8'), o('m_axis_cq_tlast'), i('m_axis_cq_tready'), o('m_axis_cq_tuser', '88'), o('m_axis_cq_tvalid'),
      i('s_axis_cc_tdata', '256'), i('s_axis_cc_tkeep', '8'), i('s_axis_cc_tlast'), o('s_axis_cc_tready', '4'), i('s_axis_cc_tuser', '33'), i('s_axis_cc_tvalid'),
      o('pcie_rq_seq_num0', '6'), o('pcie_rq_seq_num_vld0'), o('pcie_rq_seq_num1', '6'), o('pcie_rq_seq_num_vld1'),
      o('pcie_rq_tag0', '8'), o('pcie_rq_tag1', '8'), o('pcie_rq_tag_av', '4'), o('pcie_rq_tag_vld0'), o('pcie_rq_tag_vld1'),
      o('pcie_tfc_nph_av', '4'), o('pcie_tfc_npd_av', '4'), i('pcie_cq_np_req', '2'), o('pcie_cq_np_req_count', '6'),
      o('cfg_phy_link_down'), o('cfg_phy_link_status', '2'), o('cfg_negotiated_width', '3'), o('cfg_current_speed', '2'),
      o('cfg_max_payload', '2'), o('cfg_max_read_req', '3'), o('cfg_function_status', '16'), o('cfg_function_power_state', '12'),
      o('cfg_vf_status', '504'), o('cfg_vf_power_state', '756'), o('cfg_link_power_state', '2'),
      i('cfg_mgmt_addr', '10'), i('cfg_mgmt_function_number', '8'), i('cfg_mgmt_write'), i('cfg_mgmt_write_data', '32'),
      i('cfg_mgmt_byte_enable', '4'), i('cfg_mgmt_read'), o('cfg_mgmt_read_data', '32'), o('cfg_mgmt_read_write_done'), i('cfg_mgmt_debug_access'),
      o('cfg_err_cor_out'), o('cfg_err_nonfatal_out'), o('cfg_err_fatal_out'), o('cfg_local_error_valid'), o('cfg_local_error_out', '5'),
      o('cfg_ltssm_state', '6'), o('cfg_rx_pm_state', '2'), o('cfg_tx_pm_state', '2'), o('cfg_rcb_status', '4'), o('cfg_obff_enable', '2'),
      o('cfg_pl_status_change'), o('cfg_tph_requester_enable', '4'), o('cfg_tph_st_mode', '12'), o('cfg_vf_tph_requester_enable', '252'), o('cfg_vf_tph_st_mode', '756'),
      o('cfg_msg_received'), o('cfg_msg_received_data', '8'), o('cfg_msg_received_type', '5'),
      i('cfg_msg_transmit'), i('cfg_msg_transmit_type', '3'), i('cfg_msg_transmit_data', '32'), o('cfg_msg_transmit_done'),
      o('cfg_fc_ph', '8'), o('cfg_fc_pd', '12'), o('cfg_fc_nph', '8'), o('cfg_fc_npd', '12'), o('cfg_fc_cplh', '8'), o('cfg_fc_cpld', '12'), i('cfg_fc_sel', '3'),
      i('cfg_dsn', '64'), o('cfg_bus_number', '8'), i('cfg_power_state_change_ack'), o('cfg_power_state_change_interrupt'),
      i('cfg_err_cor_in'), i('cfg_err_uncor_in'), o('cfg_flr_in_process', '4'), i('cfg_flr_done', '4'),
      o('cfg_vf_flr_in_process', '252'), i('cfg_vf_flr_func_num', '8'), i('cfg_vf_flr_done', '1'), i('cfg_link_training_enable'),
      i('cfg_interrupt_int', '4'), i('cfg_interrupt_pending', '4'), o('cfg_interrupt_sent'),
      o('cfg_interrupt_msi_enable', '4'), o('cfg_interrupt_msi_mmenable', '12'), o('cfg_interrupt_msi_mask_update'), o('cfg_interrupt_msi_data', '32'),
      i('cfg_interrupt_msi_select', '2'), i('cfg_interrupt_msi_int', '32'), i('cfg_interrupt_msi_pending_status', '32'),
      i('cfg_interrupt_msi_pending_status_data_enable'), i('cfg_interrupt_msi_pending_status_function_num', '2'),
      o('cfg_interrupt_msi_sent'), o('cfg_interrupt_msi_fail'), i('cfg_interrupt_msi_attr', '3'), i('cfg_interrupt_msi_tph_present'),
      i('cfg_interrupt_msi_tph_type', '2'), i('cfg_interrupt_msi_tph_st_tag', '8'), i('cfg_interrupt_msi_function_number', '8'),
      i('cfg_pm_aspm_l1_entry_reject'), i('cfg_pm_aspm_tx_l0s_entry_disable'), o('cfg_hot_reset_out'),
      i('cfg_config_space_enable'), i('cfg_req_pm_transition_l23_ready'), i('cfg_hot_reset_in'),
      i('cfg_ds_port_number', '8'), i('cfg_ds_bus_number', '8'), i('cfg_ds_device_number', '5'),
      i('sys_clk'), i('sys_clk_gt'), i('sys_reset'), o('phy_rdy_out'),
    ],
  }
}

const AXIL = (p: string): Port[] => [
  o(`${p}_awaddr`, '32'), o(`${p}_awprot`, '3'), o(`${p}_awvalid`), i(`${p}_awready`),
  o(`${p}_wdata`, '32'), o(`${p}_wstrb`, '4'), o(`${p}_wvalid`), i(`${p}_wready`),
  i(`${p}_bresp`, '2'), i(`${p}_bvalid`), o(`${p}_bready`),
  o(`${p}_araddr`, '32'), o(`${p}_arprot`, '3'), o(`${p}_arvalid`), i(`${p}_arready`),
  i(`${p}_rdata`, '32'), i(`${p}_rresp`, '2'), i(`${p}_rvalid`), o(`${p}_rready`),
]

export const VENDOR: VendorModule[] = [
  pcie4('pcie_up'),
  pcie4('pcie_dn'),
  {
    name: 'IBUFDS_GTE4',
    params: [['REFCLK_EN_TX_PATH', "1'b0"], ['REFCLK_HROW_CK_SEL', "2'b00"], ['REFCLK_ICNTL_RX', "2'b00"]],
    ports: [i('I'), i('IB'), i('CEB'), o('O'), o('ODIV2')],
  },
  {
    name: 'xpm_fifo_async',
    params: [
      ['CASCADE_HEIGHT', '0'], ['CDC_SYNC_STAGES', '2'], ['DOUT_RESET_VALUE', '"0"'], ['ECC_MODE', '"no_ecc"'],
      ['FIFO_MEMORY_TYPE', '"auto"'], ['FIFO_READ_LATENCY', '1'], ['FIFO_WRITE_DEPTH', '2048'], ['FULL_RESET_VALUE', '0'],
      ['PROG_EMPTY_THRESH', '10'], ['PROG_FULL_THRESH', '10'], ['RD_DATA_COUNT_WIDTH', '1'], ['READ_DATA_WIDTH', '32'],
      ['READ_MODE', '"std"'], ['RELATED_CLOCKS', '0'], ['SIM_ASSERT_CHK', '0'], ['USE_ADV_FEATURES', '"0707"'],
      ['WAKEUP_TIME', '0'], ['WRITE_DATA_WIDTH', '32'], ['WR_DATA_COUNT_WIDTH', '1'],
    ],
    ports: [
      o('almost_empty'), o('almost_full'), o('data_valid'), o('dbiterr'), o('dout', 'READ_DATA_WIDTH'), o('empty'), o('full'),
      o('overflow'), o('prog_empty'), o('prog_full'), o('rd_data_count', 'RD_DATA_COUNT_WIDTH'), o('rd_rst_busy'), o('sbiterr'),
      o('underflow'), o('wr_ack'), o('wr_data_count', 'WR_DATA_COUNT_WIDTH'), o('wr_rst_busy'),
      i('din', 'WRITE_DATA_WIDTH'), i('injectdbiterr'), i('injectsbiterr'), i('rd_clk'), i('rd_en'), i('rst'), i('sleep'), i('wr_clk'), i('wr_en'),
    ],
  },
  {
    name: 'xpm_cdc_array_single',
    params: [['DEST_SYNC_FF', '4'], ['INIT_SYNC_FF', '0'], ['SIM_ASSERT_CHK', '0'], ['SRC_INPUT_REG', '1'], ['WIDTH', '2']],
    ports: [i('src_clk'), i('src_in', 'WIDTH'), i('dest_clk'), o('dest_out', 'WIDTH')],
  },
  {
    name: 'cpu_bd_wrapper',
    ports: [
      i('clk_125mhz_clk_p'), i('clk_125mhz_clk_n'), i('reset'), o('cpu_clk'), o('cpu_locked'),
      i('uart_rxd'), o('uart_txd'), i('csr_clk'), i('csr_resetn'), ...AXIL('M_AXI_CSR'),
    ],
  },
]

/**
 * Verilog-2005 stubs, one file per module under `dir`, holding the ports the design connects
 * (`used`: module -> pin names): the real block has more outputs, which a design may leave
 * open, and Verilator -Wall flags open pins. Outputs drive 0, inputs are used. Throws on a
 * pin the table does not have.
 */
export function writeVendorStubs(dir: string, used: Map<string, Set<string>>, mods: VendorModule[] = VENDOR): string[] {
  const files: string[] = []
  for (const m of mods) {
    const pins = used.get(m.name)
    if (!pins) continue
    const unknown = [...pins].filter((p) => !m.ports.some((q) => q.name === p))
    if (unknown.length) throw new Error(`${m.name} has no port ${unknown.join(', ')}`)
    const ports = m.ports.filter((p) => pins.has(p.name))
    const range = (w?: string) => (w && w !== '1' ? `[${/^\d+$/.test(w) ? Number(w) - 1 : `${w}-1`}:0] ` : '')
    const params = m.params?.length ? ` #(\n${m.params.map(([n, v]) => `    parameter ${n} = ${v}`).join(',\n')}\n)` : ''
    const ins = ports.filter((q) => q.dir === 'input').map((q) => q.name)
    const text = [
      '`timescale 1ns / 1ps',
      '`default_nettype none',
      `// lint stub of ${m.name} (test/hdl/xilinx/boards/vcu118/vendor-ports.ts)`,
      `module ${m.name}${params} (`,
      ports.map((p) => `    ${p.dir} wire ${range(p.width)}${p.name}`).join(',\n'),
      ');',
      ...ports.filter((q) => q.dir === 'output').map((q) => `assign ${q.name} = 0;`),
      ...(ins.length ? [`wire unused_inputs = &{1'b0, ${ins.join(', ')}, 1'b0};`] : []),
      ...(m.params?.length ? [`wire unused_params = &{1'b0, ${m.params.map(([n, v]) => `${n} != ${v.startsWith('"') ? '""' : '0'}`).join(', ')}, 1'b0};`] : []),
      'endmodule',
      '',
    ].join('\n')
    const file = join(dir, `${m.name}.v`)
    writeFileSync(file, text)
    files.push(file)
  }
  return files
}

/** Pin names of every instance of `module` in preprocessed Verilog text. */
export function instancePins(text: string, module: string): Set<string> {
  const pins = new Set<string>()
  const head = new RegExp(`\\b${module}\\b\\s*(?:#\\s*\\()?`, 'g')
  for (const m of text.matchAll(head)) {
    let at = m.index + m[0].length
    // skip a parameter list, then the instance name, to the port list's parenthesis
    if (m[0].endsWith('(')) at = closeOf(text, at - 1) + 1
    const open = text.indexOf('(', at)
    if (!/^\s*\w+\s*$/.test(text.slice(at, open))) continue
    const body = text.slice(open + 1, closeOf(text, open))
    let depth = 0
    for (let k = 0; k < body.length; k++) {
      const c = body[k]
      if (c === '(') depth++
      else if (c === ')') depth--
      else if (c === '.' && depth === 0) {
        const pin = /^\.(\w+)\s*\(/.exec(body.slice(k))
        if (pin?.[1]) pins.add(pin[1])
      }
    }
  }
  return pins
}

function closeOf(text: string, open: number): number {
  let depth = 0
  for (let k = open; k < text.length; k++) {
    if (text[k] === '(') depth++
    else if (text[k] === ')' && --depth === 0) return k
  }
  throw new Error('unbalanced parentheses')
}
