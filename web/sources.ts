/**
 * The run form's source choice, from GET /api/status `sources`: the twin when the session has
 * one, the GPU only when the server found a usable one. Pure, so it is tested without a page.
 */
import type { RunSource, ServerStatus } from '../host/src/core/wire.js'
import type { LiveKey } from './live.js'

export interface SourceOption {
  value: RunSource
  label: string
  title: string
}

/** The sources the form offers, in order; empty when nothing can run a workload. */
export function runSourceOptions(st: Pick<ServerStatus, 'sources'> | null | undefined): SourceOption[] {
  const s = st?.sources
  if (!s) return []
  const out: SourceOption[] = []
  if (s.twin.available) out.push({ value: 'twin', label: 'twin', title: "the twin's traffic model" })
  if (s.gpu.available) {
    const gpus = s.gpu.devices.join(', ')
    out.push({ value: 'gpu', label: 'GPU', title: `a CUDA kernel on the server's GPU${gpus ? `: ${gpus}` : ''}` })
  }
  return out
}

/** One line under the form: where runs go, and why the GPU is not offered. */
export function sourcesNote(st: Pick<ServerStatus, 'sources'> | null | undefined): string {
  const s = st?.sources
  if (!s) return ''
  return s.gpu.available ? `GPU: ${s.gpu.devices.join(', ')}` : `no GPU runs: ${s.gpu.reason ?? 'unknown reason'}`
}

/**
 * The run card's head: where runs go, or why none can be made. Before the server answered (a
 * missing or wrong token, an unreachable server) the page does not know its runners, and says
 * why instead of claiming there are none.
 */
export function runnerText(live: LiveKey, options: readonly SourceOption[]): string {
  if (live === 'token-missing' || live === 'token-wrong') return 'runs need the server’s token: open the URL the server printed'
  if (live === 'unreachable') return 'server unreachable: runs wait for it'
  if (live === 'connecting') return 'connecting…'
  return options.length ? `runs on: ${options.map((o) => o.label).join(' or ')}` : 'no workload runner on this server'
}
