/**
 * Faults on the real serial line: the twin's sim HAL puts garbage, a truncated frame, a frame
 * with a bad CRC and a skipped sequence number between the firmware's frames (`inject`, the
 * firmware's code unchanged) while `capture --out DIR` records a run. Each must land in its own
 * counter of the host's decoder, the capture result must report them, the run must still count
 * exactly, and the recording must hold every snapshot the host received.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import { measureAndRecord } from '../../../host/src/measure/recorded-run.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import type { HostLinkStats, Snapshot } from '../../../host/src/core/probe.js'
import type { LineFault } from '../../../host/src/transport/twin-lines.js'

const built = existsSync(fileURLToPath(new URL('../../../build/twin/pcie-scope-twin', import.meta.url)))

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
})

type Counted = Pick<HostLinkStats, 'badFrames' | 'crcErrors' | 'seqGaps' | 'lostFrames' | 'overflows' | 'unknownFrames'>
const counted = (s: HostLinkStats): Counted => ({
  badFrames: s.badFrames,
  crcErrors: s.crcErrors,
  seqGaps: s.seqGaps,
  lostFrames: s.lostFrames,
  overflows: s.overflows,
  unknownFrames: s.unknownFrames,
})
const NONE: Counted = { badFrames: 0, crcErrors: 0, seqGaps: 0, lostFrames: 0, overflows: 0, unknownFrames: 0 }

/**
 * What each fault costs the decoder. Garbage is one junk frame between two good ones (no gap);
 * a truncated frame is a bad frame and, since its sequence number never arrives, one lost frame;
 * a bad CRC the same, counted as a CRC error too; a skipped sequence number is a gap of `count`.
 * A junk or cut frame is bad either way, but whether its bytes still decode as COBS (and then
 * fail the CRC) depends on them: `crcErrors` 'either' is 0 or 1.
 */
const FAULTS: {
  kind: LineFault
  count: number
  seed: number
  expect: Partial<Omit<Counted, 'crcErrors'>>
  crcErrors: number | 'either'
}[] = [
  { kind: 'garbage', count: 64, seed: 11, expect: { badFrames: 1 }, crcErrors: 'either' },
  { kind: 'truncate', count: 1, seed: 0, expect: { badFrames: 1, seqGaps: 1, lostFrames: 1 }, crcErrors: 'either' },
  { kind: 'crc', count: 1, seed: 0, expect: { badFrames: 1, seqGaps: 1, lostFrames: 1 }, crcErrors: 1 },
  { kind: 'skip-seq', count: 5, seed: 0, expect: { seqGaps: 1, lostFrames: 5 }, crcErrors: 0 },
]
const withoutCrc = ({ crcErrors: _, ...rest }: Counted) => rest

const minus = (a: Counted, b: Counted): Counted =>
  Object.fromEntries(Object.keys(a).map((k) => [k, a[k as keyof Counted] - b[k as keyof Counted]])) as unknown as Counted

describe('faults injected on the twin serial line (real twin)', () => {
  it('each fault is counted where it belongs, reported by the capture, and the recording keeps every good snapshot', async () => {
    expect(built, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'ps-line-faults-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const session: DeviceSession = await openSession({ twin: true })
    cleanup.push(() => session.close())
    const received: Snapshot[] = []
    session.client.on('snapshot', (s) => received.push(s))
    const stats = () => counted(session.client.hostStats())

    // the faults go in while the run streams snapshots every 10 ms, one at a time, each waited for
    let running!: () => void
    const started = new Promise<void>((r) => (running = r))
    const deltas: { kind: LineFault; delta: Counted }[] = []
    const injecting = (async () => {
      await started
      await new Promise((r) => setTimeout(r, 50)) // snapshots are flowing
      for (const f of FAULTS) {
        const before = stats()
        await session.twin!.inject(f.kind, f.count, f.seed)
        const want = withoutCrc({ ...NONE, ...f.expect })
        await expect.poll(() => withoutCrc(minus(stats(), before)), { timeout: 2000, interval: 5 }).toEqual(want)
        const n = received.length
        await expect.poll(() => received.length, { timeout: 2000, interval: 5 }).toBeGreaterThanOrEqual(n + 3)
        const delta = minus(stats(), before)
        expect(withoutCrc(delta), `${f.kind}: nothing more than its own damage`).toEqual(want)
        if (f.crcErrors === 'either') expect([0, 1]).toContain(delta.crcErrors)
        else expect(delta.crcErrors, `${f.kind}: CRC errors`).toBe(f.crcErrors)
        deltas.push({ kind: f.kind, delta })
      }
    })()
    const rc = await measureAndRecord(session, { pattern: 'strided', bytes: 32 << 20, offset: 0 }, join(dir, 'faults'), {
      periodMs: 10,
      onProgress: (m) => m.startsWith('running') && running(),
    })
    await injecting
    // every fault went in while the run was still streaming (none could hit a command's reply)
    expect(deltas.map((d) => d.kind)).toEqual(FAULTS.map((f) => f.kind))

    // the capture (what `capture --json` prints) reports the decoder's counts, and still counts exactly
    const crcErrors = deltas.reduce((n, d) => n + d.delta.crcErrors, 0)
    expect(counted(rc.result.link.host)).toEqual({ badFrames: 3, crcErrors, seqGaps: 3, lostFrames: 7, overflows: 0, unknownFrames: 0 })
    expect(rc.result.model.matchesProbe).toBe(true)
    expect(rc.result.requests.count).toBe((32 << 20) / 32)

    // the recording holds every snapshot the host received, in order
    const recorded: Snapshot[] = []
    for await (const r of readRecords(join(dir, 'faults'))) if (r.t === 'snapshot') recorded.push(r.snapshot)
    expect(recorded.map((s) => [s.seq, s.index])).toEqual(received.map((s) => [s.seq, s.index]))
    // and only the two frames the faults destroyed are missing from the stream (if they were snapshots)
    // (snapshot indexes count on-demand snapshots too)
    const indexes = received.map((s) => s.index)
    const missing = indexes.slice(1).reduce((n, idx, i) => n + (idx - indexes[i]! - 1), 0)
    expect(missing).toBeLessThanOrEqual(2)
    expect(received.filter((s) => !s.onDemand).length).toBeGreaterThan(12)
  })
})
