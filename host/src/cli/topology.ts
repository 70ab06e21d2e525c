/**
 * `pcie-scope topology --twin [--json]`: the PCI tree the twin's host model enumerated through the
 * switch RTL (the twin in switch mode), printed like `lspci -tv` with IDs, class, link, BARs and
 * windows, or as the twin reported it (--json).
 */
import type { Command } from 'commander'
import { PsError } from '../core/errors.js'
import { TwinProcess } from '../transport/twin.js'
import type { TwinTopology } from '../transport/twin-lines.js'
import type { CliIo, SetCode } from './io.js'

type Found = Extract<TwinTopology, { found: true }>
type Fn = Found['functions'][number]

const hex = (v: number, digits: number): string => v.toString(16).padStart(digits, '0')
const bdf = (f: { bus: number; device: number; function: number }): string => `${hex(f.bus, 2)}:${hex(f.device, 2)}.${f.function}`
/** Link Status speed codes (PCI Express Base Specification, Link Capabilities/Status) */
const GTS = ['?', '2.5', '5', '8', '16', '32', '64']
/** lspci's bus range: [03] for one bus, [01-03] for several */
const range = (lo: number, hi: number): string => (lo === hi ? hex(lo, 2) : `${hex(lo, 2)}-${hex(hi, 2)}`)
const link = (speed: number, width: number): string => `${GTS[speed] ?? '?'}GT/s x${width}`
const CLASS_NAMES: Record<number, string> = { 0x060400: 'PCI bridge', 0x030200: '3D controller' }
const VENDOR_NAMES: Record<number, string> = { 0x10ee: 'Xilinx', 0x10de: 'NVIDIA' }

const size = (bytes: number): string => {
  for (const [unit, div] of [
    ['G', 2 ** 30],
    ['M', 2 ** 20],
    ['K', 2 ** 10],
  ] as const)
    if (bytes >= div && bytes % div === 0) return `${bytes / div}${unit}`
  return String(bytes)
}
const window = (w: { base: number; limit: number } | null): string =>
  w === null ? 'closed' : `${hex(w.base, 8)}-${hex(w.limit, 8)} [size=${size(w.limit - w.base + 1)}]`

const title = (f: Fn): string =>
  `${CLASS_NAMES[f.classCode] ?? 'class ' + hex(f.classCode, 6)} [${hex(f.classCode >> 8, 4)}]: ` +
  `${VENDOR_NAMES[f.vendorId] ?? 'vendor'} device [${hex(f.vendorId, 4)}:${hex(f.deviceId, 4)}]`

/** lspci -tv's tree line, then one block per function (lspci -vv's facts that matter here). */
const formatTopology = (t: TwinTopology): string => {
  if (!t.found) return `enumeration failed: ${t.problem}\n`
  const lines: string[] = []
  let tree = `-[0000:00]---${hex(t.root.device, 2)}.${t.root.function}-[${range(t.root.secondary, t.root.subordinate)}]--`
  for (const f of t.functions) {
    tree += `--${hex(f.device, 2)}.${f.function}`
    if (f.role !== 'endpoint') tree += `-[${range(f.buses.secondary, f.buses.subordinate)}]--`
    else tree += `  ${title(f)}`
  }
  lines.push(tree, '')
  lines.push(
    `00:${hex(t.root.device, 2)}.${t.root.function} root port (the twin's host model): bus ${hex(t.root.secondary, 2)}-${hex(t.root.subordinate, 2)} below`,
  )
  for (const f of t.functions) {
    lines.push(`${bdf(f)} ${title(f)}`)
    lines.push(`\tCommand: Mem${f.command & 2 ? '+' : '-'} BusMaster${f.command & 4 ? '+' : '-'}`)
    if (f.role === 'endpoint') {
      for (const b of f.bars)
        lines.push(
          `\tRegion ${b.index}: Memory at ${hex(b.base, 8)} (${b.bits}-bit, ${b.prefetchable ? '' : 'non-'}prefetchable) [size=${size(b.size)}]`,
        )
    } else {
      lines.push(`\tExpress ${f.role === 'upstream-port' ? 'Upstream' : 'Downstream'} Port`)
      lines.push(`\tLnkCap: ${link(f.link.maxSpeed, f.link.maxWidth)}  LnkSta: ${link(f.link.speed, f.link.width)}`)
      lines.push(
        `\tBus: primary=${hex(f.buses.primary, 2)}, secondary=${hex(f.buses.secondary, 2)}, subordinate=${hex(f.buses.subordinate, 2)}`,
      )
      lines.push(`\tMemory behind bridge: ${window(f.windows.memory)}`)
      lines.push(`\tPrefetchable memory behind bridge: ${window(f.windows.prefetchable)}`)
    }
  }
  lines.push('', `absent devices scanned: ${t.absentDevices}; registers read back otherwise: ${t.readbackMismatches}`)
  return lines.join('\n') + '\n'
}

export const registerTopology = (program: Command, io: CliIo, setCode: SetCode): void => {
  program
    .command('topology')
    .description('the PCI tree the twin (switch mode) enumerated through the switch RTL, like lspci -tv')
    .option('--twin', 'enumerate through the twin (the only source today)')
    .option('--json', 'print exactly one JSON object on stdout')
    .action(async (o: { twin?: boolean; json?: boolean }) => {
      if (!o.twin) throw new PsError('PS_USAGE', "topology needs --twin (a board's tree is read with lspci)")
      const twin = await TwinProcess.launch({ mode: 'switch' })
      try {
        const t = twin.topology
        if (!t) throw new PsError('PS_TWIN_START', 'the twin reported no topology (built before switch mode?)')
        io.stdout(o.json ? JSON.stringify(t) + '\n' : formatTopology(t))
        setCode(t.found ? 0 : 1)
      } finally {
        await twin.close()
      }
    })
}
