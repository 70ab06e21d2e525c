/**
 * The TLP trace's Perfetto file (export/trace-perfetto.ts) opened by a real reader of the Chrome
 * trace-event format: the trace engine of Chrome DevTools' Performance panel
 * (@paulirish/trace_engine, the panel's own parser published on npm). Perfetto's trace processor
 * reads the same JSON format but is not packaged for npm or Debian. The engine must find one
 * process with a track per tag, named as the file names them, and every paired read as a slice on
 * its tag's track with its request time and duration.
 */
import { describe, expect, it } from 'vitest'
import { decodeTraceRecord, pairReads, type Trace } from '../../../host/src/core/trace.js'
import { tracePerfetto } from '../../../host/src/export/trace-perfetto.js'
import { CLOCK_HZ, syntheticTrace } from '../../web/trace-fixture.js'

interface EngineEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  tid: number
  args?: Record<string, unknown>
}
interface EngineThread {
  name?: string
  entries: EngineEvent[]
}
interface EngineProcess {
  threads: Map<number, EngineThread>
}
interface Engine {
  analyzeEvents(events: unknown[]): Promise<{
    parsedTrace: { data: { Renderer: { processes: Map<number, EngineProcess> }; Meta: { traceBounds: { min: number; max: number } } } }
  }>
}

describe("the trace's Perfetto file in Chrome DevTools' trace engine", () => {
  it('parses into one process, a track per tag, and a slice per paired read', { timeout: 60_000 }, async () => {
    const { words } = syntheticTrace(1500, 40)
    const records = words.map(decodeTraceRecord)
    const trace: Trace = { tap: 0, records, words, triggered: true, triggerIndex: 40, full: false, lost: 0 }
    const pairing = pairReads(records)
    const file = JSON.parse(JSON.stringify(tracePerfetto(trace, pairing, { clockHz: CLOCK_HZ, pattern: 'merged-aligned' }))) as {
      traceEvents: unknown[]
    }

    // the engine's entry point ships as plain JavaScript without types
    const engine = (await import('@paulirish/trace_engine/analyze-trace.mjs' as string)) as Engine
    const { data } = (await engine.analyzeEvents(file.traceEvents)).parsedTrace
    const processes = [...data.Renderer.processes.values()]
    expect(processes).toHaveLength(1)
    const threads = processes[0]!.threads
    const tags = new Set(pairing.reads.map((r) => r.tag))
    for (const tag of tags) expect(threads.get(tag + 1)?.name, `tag ${tag}`).toBe(`tag ${tag}`)

    const us = (clock: number) => (clock / CLOCK_HZ) * 1e6
    const slices = [...threads.values()].flatMap((t) => t.entries.filter((e) => e.ph === 'X'))
    expect(slices).toHaveLength(pairing.reads.length)
    const last = records.at(-1)!.clock
    for (const r of pairing.reads) {
      const onTrack = threads.get(r.tag + 1)!.entries.find((e) => e.ph === 'X' && Math.abs(e.ts - us(r.requestClock)) < 1e-6)
      expect(onTrack, `read of record ${r.records[0]}`).toBeDefined()
      expect(onTrack!.name).toBe(`MRd ${r.requestedBytes} B`)
      const end = r.lastLatency !== undefined ? r.requestClock + r.lastLatency : last
      expect(onTrack!.dur!).toBeCloseTo(us(end) - us(r.requestClock), 6)
    }
    expect(data.Meta.traceBounds.min).toBeCloseTo(us(records[0]!.clock), 6)
  })
})
