// The vendor modules vpk120_switch_top instantiates, as port tables: the block design's wrapper
// ps_bd_wrapper (its external ports are created by hdl/xilinx/boards/vpk120/ps_bd.tcl: the
// CPM5 controller's and the PL PCIE5 block's AXI4-Stream interfaces at 512 bits, their clocks,
// status and GT lanes, the PL clock, the CSR's AXI4-Lite port) and the XPM macros of the VCU118
// tables (UG974). The AXI4-Stream widths: tdata / tkeep as PG343 and PG346 give them at 512
// bits; tuser: CPM5 (pcie_up_*) as PG343's port-update table lists the pcie0_* ports (CQ 229,
// RQ 183; RC and CC not listed there, so PG213's 161 / 81), the PL block (pcie_dn_*) as PG343's
// 512-bit completer-request table (CQ 231) and the same RQ / RC / CC. tready is one bit: a
// block-design AXI4-Stream port's TREADY (the IP's own RQ / CC tready may be four copies, as
// PG213's, inside ps_bd: unverified).
import { VENDOR as VCU118_VENDOR, type Port, type VendorModule } from '../vcu118/vendor-ports.js'

const i = (name: string, width?: string): Port => ({ dir: 'input', name, ...(width ? { width } : {}) })
const o = (name: string, width?: string): Port => ({ dir: 'output', name, ...(width ? { width } : {}) })

/** tuser widths at 512 bits, per block (see above). */
export const TUSER = {
  pcie_up: { cq: 229, rc: 161, rq: 183, cc: 81 },
  pcie_dn: { cq: 231, rc: 161, rq: 183, cc: 81 },
} as const

/** One block's four AXI4-Stream interfaces, named as the wrapper names them: <port>_<signal>. */
function axis(p: 'pcie_up' | 'pcie_dn'): Port[] {
  const u = TUSER[p]
  const master = (ch: 'cq' | 'rc', uw: number) => [
    o(`${p}_${ch}_tdata`, '512'), o(`${p}_${ch}_tkeep`, '16'), o(`${p}_${ch}_tvalid`), i(`${p}_${ch}_tready`), o(`${p}_${ch}_tlast`), o(`${p}_${ch}_tuser`, String(uw)),
  ]
  const slave = (ch: 'rq' | 'cc', uw: number) => [
    i(`${p}_${ch}_tdata`, '512'), i(`${p}_${ch}_tkeep`, '16'), i(`${p}_${ch}_tvalid`), o(`${p}_${ch}_tready`), i(`${p}_${ch}_tlast`), i(`${p}_${ch}_tuser`, String(uw)),
  ]
  return [...master('cq', u.cq), ...master('rc', u.rc), ...slave('rq', u.rq), ...slave('cc', u.cc)]
}

/** A block's GT lanes and reference clock: gt_rtl and diff_clock_rtl interface ports. */
function serial(p: 'pcie_up' | 'pcie_dn'): Port[] {
  return [i(`${p}_gt_grx_p`, '8'), i(`${p}_gt_grx_n`, '8'), o(`${p}_gt_gtx_p`, '8'), o(`${p}_gt_gtx_n`, '8'), i(`${p}_refclk_clk_p`), i(`${p}_refclk_clk_n`)]
}

/** A block's user clock, reset, link and the status the top reads. */
function status(p: 'pcie_up' | 'pcie_dn'): Port[] {
  return [o(`${p}_user_clk`), o(`${p}_user_reset`), o(`${p}_user_lnk_up`), o(`${p}_cfg_current_speed`, '3'), o(`${p}_cfg_negotiated_width`, '3')]
}

const AXIL = (p: string): Port[] => [
  o(`${p}_awaddr`, '32'), o(`${p}_awprot`, '3'), o(`${p}_awvalid`), i(`${p}_awready`),
  o(`${p}_wdata`, '32'), o(`${p}_wstrb`, '4'), o(`${p}_wvalid`), i(`${p}_wready`),
  i(`${p}_bresp`, '2'), i(`${p}_bvalid`), o(`${p}_bready`),
  o(`${p}_araddr`, '32'), o(`${p}_arprot`, '3'), o(`${p}_arvalid`), i(`${p}_arready`),
  i(`${p}_rdata`, '32'), i(`${p}_rresp`, '2'), i(`${p}_rvalid`), o(`${p}_rready`),
]

/** ps_bd's external ports, each with the interface (or plain) port of ps_bd.tcl it belongs to. */
export const PS_BD_PORTS = [
  'pl_clk', 'pl_resetn', 'csr_clk', 'csr_resetn', 'M_AXI_CSR',
  'pcie_up_gt', 'pcie_up_refclk', 'pcie_up_user_clk', 'pcie_up_user_reset', 'pcie_up_user_lnk_up',
  'pcie_up_cfg_current_speed', 'pcie_up_cfg_negotiated_width', 'pcie_up_tfc_nph_av',
  'pcie_up_cq', 'pcie_up_rc', 'pcie_up_rq', 'pcie_up_cc',
  'pcie_dn_gt', 'pcie_dn_refclk', 'pcie_dn_sys_reset', 'pcie_dn_user_clk', 'pcie_dn_user_reset', 'pcie_dn_user_lnk_up',
  'pcie_dn_cfg_current_speed', 'pcie_dn_cfg_negotiated_width',
  'pcie_dn_cq', 'pcie_dn_rc', 'pcie_dn_rq', 'pcie_dn_cc',
] as const

export const VENDOR: VendorModule[] = [
  {
    name: 'ps_bd_wrapper',
    ports: [
      o('pl_clk'), o('pl_resetn'), i('csr_clk'), i('csr_resetn'), ...AXIL('M_AXI_CSR'),
      ...serial('pcie_up'), ...status('pcie_up'), o('pcie_up_tfc_nph_av', '4'), ...axis('pcie_up'),
      ...serial('pcie_dn'), i('pcie_dn_sys_reset'), ...status('pcie_dn'), ...axis('pcie_dn'),
    ],
  },
  ...VCU118_VENDOR.filter((m) => m.name === 'xpm_fifo_async' || m.name === 'xpm_cdc_array_single'),
]
