/**
 * The GPU's own PCIe counters as samples (native/sampler, docs/gpu-counters.md): what a source
 * offers, one sample per interval, and the two ways samples arrive: the addon's batches (a flat
 * Float64Array, `stride` numbers a sample) and the CSV that `pcie-scope-gpu-counters --samples`
 * writes on GPU hosts without Node (the fixtures of the tests are such files).
 */

/** What a counter means to the derivations (native/sampler/sampler.h `Role`). */
export const COUNTER_ROLES = ['readBytes', 'writeBytes', 'sysmemReadSectors', 'sysmemWriteSectors', 'other'] as const
export type CounterRole = (typeof COUNTER_ROLES)[number]

export interface CounterMetric {
  /** as the source names it: `pcie__read_bytes.sum`, `nvml:rx` */
  name: string
  role: CounterRole
}

/** `pm-sampling`: CUPTI's PM sampling; `nvml`: NVML's PCIe throughput, the fallback. */
export type GpuCounterSourceName = 'pm-sampling' | 'nvml'

/** The source in use, as the addon's `start` event and the program's `{"start":…}` line give it. */
export interface GpuCounterSourceInfo {
  source: GpuCounterSourceName
  /** `GH100` (PM sampling's chip name) or NVML's device name */
  chip: string
  /** what each sample holds, in order */
  metrics: CounterMetric[]
  /** the chip's PCIe and sysmem base metrics PM sampling offers */
  offered: string[]
  /** wanted and offered, left out because they did not fit one pass with those kept */
  dropped: string[]
  /** the interval in force (NVML: at least 20 ms) */
  intervalNs: number
  /** the source's clock at time 0 of the samples, in ns, as a decimal string (beyond 2^53) */
  originNs: string
  /** PM sampling's trigger: `time` (ns) or `sysclk` (cycles, where the chip has no time trigger) */
  trigger?: 'time' | 'sysclk'
  /** why PM sampling was refused, when the source is NVML */
  fallbackReason?: string
}

/** One interval of the counters; bytes are TLP bytes on the link as the GPU counts them. */
export interface GpuCounterSample {
  /** ns since the source's origin */
  startNs: number
  endNs: number
  /** bytes into the GPU: completions (payload + header) to its reads, the host's writes to it */
  readBytes: number
  /** bytes out of the GPU: its read requests (a 16-B header each), its writes, its completions */
  writeBytes: number
  /** L2 32-B sectors read from system memory, where the source samples them */
  sysmemReadSectors?: number
  sysmemWriteSectors?: number
}

/** The roles of the metric names the sampler uses, for CSV headers. */
const ROLE_OF_METRIC: Readonly<Record<string, CounterRole>> = {
  'pcie__read_bytes.sum': 'readBytes',
  'pcie__write_bytes.sum': 'writeBytes',
  'lts__t_sectors_aperture_sysmem_op_read.sum': 'sysmemReadSectors',
  'lts__t_sectors_aperture_sysmem_op_write.sum': 'sysmemWriteSectors',
  'nvml:rx': 'readBytes',
  'nvml:tx': 'writeBytes',
}

/** Thrown for data that is not what a source writes (a bad CSV, a stride that does not fit). */
export class SampleFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SampleFormatError'
  }
}

const sampleOf = (roles: readonly CounterRole[], values: ArrayLike<number>, at: number): GpuCounterSample => {
  const s: GpuCounterSample = { startNs: values[at]!, endNs: values[at + 1]!, readBytes: 0, writeBytes: 0 }
  roles.forEach((role, k) => {
    if (role !== 'other') s[role] = (s[role] ?? 0) + values[at + 2 + k]!
  })
  return s
}

/** The samples of one batch: `stride` = 2 + metrics numbers each (start, end, then a value per metric). */
export const samplesOf = (metrics: readonly CounterMetric[], data: ArrayLike<number>, stride: number): GpuCounterSample[] => {
  if (stride !== metrics.length + 2) throw new SampleFormatError(`a batch of stride ${stride} does not fit ${metrics.length} metrics`)
  if (data.length % stride !== 0) throw new SampleFormatError(`a batch of ${data.length} numbers is not whole samples of ${stride}`)
  const roles = metrics.map((m) => m.role)
  const out: GpuCounterSample[] = []
  for (let at = 0; at < data.length; at += stride) out.push(sampleOf(roles, data, at))
  return out
}

/** `pcie-scope-gpu-counters --samples FILE` CSV: `start_ns,end_ns,<metric>…`, one sample a line. */
export const parseSamplesCsv = (text: string): { metrics: CounterMetric[]; samples: GpuCounterSample[] } => {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0)
  const header = lines[0]?.split(',') ?? []
  if (header[0] !== 'start_ns' || header[1] !== 'end_ns') throw new SampleFormatError('the CSV must begin with start_ns,end_ns')
  const metrics = header.slice(2).map((name) => ({ name, role: ROLE_OF_METRIC[name] ?? 'other' }))
  const stride = header.length
  const values: number[] = []
  lines.slice(1).forEach((line, i) => {
    const cells = line.split(',')
    if (cells.length !== stride) throw new SampleFormatError(`line ${i + 2} has ${cells.length} cells, not ${stride}`)
    for (const c of cells) {
      const v = Number(c)
      if (!Number.isFinite(v)) throw new SampleFormatError(`line ${i + 2}: ${JSON.stringify(c)} is not a number`)
      values.push(v)
    }
  })
  return { metrics, samples: samplesOf(metrics, values, stride) }
}
