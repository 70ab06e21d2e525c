import { afterEach, describe, expect, it } from 'vitest'
import { ProbeClient } from '../../../host/src/device/client.js'
import { SEQ_SPACE } from '../../../host/src/protocol/decoder.js'
import { buildRawFrame } from '../../../host/src/protocol/frame.js'
import { cobsDecode } from '../../../host/src/protocol/cobs.js'
import type { RawFrame } from '../../../host/src/device/client.js'
import { FRAME_TYPE, FRAMING, HISTOGRAM_WORDS, STATUS } from '../../../host/src/core/generated.js'
import type { PsError } from '../../../host/src/core/errors.js'
import type { IntervalBatch, LatencyHistogram, Snapshot } from '../../../host/src/core/probe.js'
import { duplexPair, FakeDevice, type FakeDeviceOptions } from './fake-device.js'
import { encodeFrame, encodeHistogram, encodeInterval, encodeResponse } from '../protocol/device-codec.js'

const clients: ProbeClient[] = []
const setup = (opts: FakeDeviceOptions = {}, timeoutMs = 200) => {
  const [host, dev] = duplexPair()
  const device = new FakeDevice(dev, opts)
  const client = new ProbeClient(host, { timeoutMs })
  clients.push(client)
  const linkErrors: PsError[] = []
  client.on('link-error', (e) => linkErrors.push(e))
  return { client, device, host, dev, linkErrors }
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
})

describe('ProbeClient', () => {
  it('says hello with PING then INFO', async () => {
    const { client, device } = setup()
    const info = await client.hello()
    expect(info).toMatchObject({ protocolVersion: 1, clockHz: 250_000_000, streaming: false, barLatencyCycles: 250 })
    expect(device.received.map((r) => r.name)).toEqual(['PING', 'INFO'])
    expect(device.received.map((r) => r.seq)).toEqual([0, 1])
    expect(client.lastProbeInfo()).toEqual(info)
    expect(client.hostStats()).toMatchObject({ frames: 2, badFrames: 0, seqGaps: 0 })
  })

  it('runs commands one at a time, in order', async () => {
    const { client, device } = setup()
    const results = await Promise.all([client.start(50), client.ping(7), client.clear(), client.stop(), client.info()])
    expect(results[1]).toMatchObject({ nonce: 7 })
    expect(device.received.map((r) => r.name)).toEqual(['START', 'PING', 'CLEAR', 'STOP', 'INFO'])
    expect(device.received[0]!.args).toEqual({ periodMs: 50 })
  })

  it('ping resolves with the echoed nonce and a round trip time', async () => {
    const { client, device } = setup()
    const r = await client.ping(0xdeadbeef)
    expect(r).toEqual({ nonce: 0xdeadbeef, rttMs: expect.any(Number) })
    expect(device.received.at(-1)?.args).toEqual({ nonce: 0xdeadbeef })
    // without an argument: a random nonce, echoed
    const random = await client.ping()
    expect(device.received.at(-1)?.args).toEqual({ nonce: random.nonce })
  })

  it('ping refuses a reply that echoes another nonce', async () => {
    const { client } = setup({ pingEcho: 99 })
    await expect(client.ping(7)).rejects.toMatchObject({
      code: 'PS_CMD_BAD_REPLY',
      message: expect.stringMatching(/echoed nonce 99, sent 7/),
    })
  })

  it('returns the ON_DEMAND snapshot that precedes the SNAPSHOT response', async () => {
    const { client, device } = setup()
    const seen: Snapshot[] = []
    client.on('snapshot', (s) => seen.push(s))
    device.counters.mrd128 = 8192
    device.counters.mrdBytes = 1 << 20
    device.sendSnapshot(false) // a periodic one first
    const snap = await client.snapshot()
    expect(snap).toMatchObject({ onDemand: true, counters: { mrd128: 8192, mrdBytes: 1048576 } })
    expect(seen.map((s) => s.onDemand)).toEqual([false, true])
    expect(client.lastSnapshot()).toBe(snap)
  })

  it('fails snapshot() when no ON_DEMAND snapshot came', async () => {
    const { client } = setup({ skipOnDemand: true })
    await expect(client.snapshot()).rejects.toMatchObject({ code: 'PS_CMD_BAD_REPLY' })
  })

  it('times out silent commands and carries on with the next', async () => {
    const { client } = setup({ silent: ['STOP'] }, 100)
    const t0 = Date.now()
    await expect(client.stop()).rejects.toMatchObject({ code: 'PS_CMD_TIMEOUT' })
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90)
    await expect(client.ping(0x1234)).resolves.toMatchObject({ nonce: 0x1234 })
  })

  it('rejects non-OK status with the status name', async () => {
    const { client } = setup({ reject: { START: STATUS.BAD_ARGUMENT } })
    const err = await client.start(5).catch((e: PsError) => e)
    expect(err).toMatchObject({ code: 'PS_CMD_REJECTED' })
    expect((err as PsError).message).toMatch(/START.*BAD_ARGUMENT/)
  })

  it('validates arguments before sending', async () => {
    const { client, device } = setup()
    await expect(client.start(1e6)).rejects.toMatchObject({ code: 'PS_REQUEST_INVALID' })
    expect(device.received).toHaveLength(0)
  })

  it('counts bad frames and reports them as link errors without failing commands', async () => {
    const { client, device, linkErrors } = setup()
    const bad = encodeFrame(FRAME_TYPE.SNAPSHOT, 0, Buffer.from([1, 2, 3]))
    bad[2]! ^= 0x10
    device.sendRaw(Buffer.from([0x42, 0x42, 0x00]))
    device.sendRaw(bad)
    device.sendRaw(Buffer.alloc(FRAMING.maxEncodedBytes + 64, 0x11)) // longer than any frame: an overflow
    device.sendRaw(Buffer.from([0]))
    await client.ping()
    const s = client.hostStats()
    expect(s.badFrames).toBeGreaterThanOrEqual(2)
    expect(s.overflows).toBe(1)
    expect(linkErrors.length).toBeGreaterThanOrEqual(3)
  })

  it('watchRawFrames: every frame sent and every frame received that COBS-decodes, a bad CRC included, until unwatched', async () => {
    const { client, device } = setup()
    const seen: RawFrame[] = []
    const unwatch = client.watchRawFrames((f) => seen.push(f))
    const bad = encodeFrame(FRAME_TYPE.SNAPSHOT, 9, Buffer.from([1, 2, 3]))
    bad[2]! ^= 0x10
    device.sendRaw(bad)
    await client.ping()
    // the PING goes out in the call; the device's bytes arrive on a later tick
    expect(seen.map((f) => [f.dir, f.bytes[0]])).toEqual([
      ['tx', FRAME_TYPE.COMMAND],
      ['rx', FRAME_TYPE.SNAPSHOT],
      ['rx', FRAME_TYPE.RESPONSE],
    ])
    const decoded = cobsDecode(bad.subarray(0, -1))
    expect(decoded.ok && Buffer.compare(decoded.data, seen[1]!.bytes)).toBe(0) // the bytes as sent, CRC and all
    expect(seen[0]!.bytes).toEqual(buildRawFrame(FRAME_TYPE.COMMAND, 0, seen[0]!.bytes.subarray(3, -2)))
    unwatch()
    await client.ping()
    expect(seen).toHaveLength(3)
  })

  it('reports unmatched responses and bad snapshot payloads as link errors', async () => {
    const { client, device, linkErrors } = setup()
    device.send(FRAME_TYPE.RESPONSE, encodeResponse(1, 0, 999))
    device.send(FRAME_TYPE.SNAPSHOT, Buffer.alloc(5))
    device.send(FRAME_TYPE.COMMAND, Buffer.from([1]))
    await client.ping()
    expect(linkErrors.map((e) => e.code)).toEqual(['PS_CMD_BAD_REPLY', 'PS_CMD_BAD_REPLY', 'PS_FRAME_UNKNOWN_TYPE'])
  })

  it('emits INTERVAL frames as interval events, and a malformed one as a link error', async () => {
    const { client, device, linkErrors } = setup()
    const batches: IntervalBatch[] = []
    client.on('interval', (b) => batches.push(b))
    const rec = {
      ts: 5000,
      cycles: 1000,
      mrdCount: 12,
      mrdBytes: 1536,
      cpldCount: 24,
      cpldBytes: 1536,
      occSum: 9000,
      occPeak: 11,
      latSum: 3600,
      latCount: 12,
    }
    device.send(FRAME_TYPE.INTERVAL, encodeInterval({ firstIndex: 40, dropped: 2, overflow: 1, records: [rec, { ...rec, ts: 6000 }] }))
    device.send(FRAME_TYPE.INTERVAL, Buffer.alloc(4))
    await client.ping()
    expect(batches).toHaveLength(1)
    expect(batches[0]).toMatchObject({ firstIndex: 40, dropped: 2, overflow: 1, records: [rec, { ...rec, ts: 6000 }] })
    expect(linkErrors.map((e) => e.code)).toEqual(['PS_CMD_BAD_REPLY'])
  })

  it('pairs LATENCY_HISTOGRAM’s snapshot and both histograms, and emits every histogram as an event', async () => {
    const { client, device, linkErrors } = setup()
    const seen: LatencyHistogram[] = []
    client.on('histogram', (h) => seen.push(h))
    device.counters.latLastCount = 12
    device.histogramBins = Array.from({ length: HISTOGRAM_WORDS }, (_, k) => (k === 3 ? 10 : k === HISTOGRAM_WORDS - 1 ? 2 : 0))
    device.firstHistogramBins = Array.from({ length: HISTOGRAM_WORDS }, (_, k) => (k === 1 ? 12 : 0))
    const { snapshot, histograms } = await client.latencyHistograms()
    expect(device.received.map((r) => r.name)).toEqual(['LATENCY_HISTOGRAM'])
    expect(histograms.last).toMatchObject({ reason: 'on-demand', kind: 'last', snapshotIndex: snapshot.index, bins: device.histogramBins })
    expect(histograms.first).toMatchObject({
      reason: 'on-demand',
      kind: 'first',
      snapshotIndex: snapshot.index,
      bins: device.firstHistogramBins,
    })
    expect(snapshot.counters.latLastCount).toBe(12)
    // a periodic one (the stream's once-a-second frame) arrives as an event only
    device.send(FRAME_TYPE.HISTOGRAM, encodeHistogram({ reason: 'periodic', kind: 'last', snapshotIndex: 9, bins: device.histogramBins }))
    device.send(FRAME_TYPE.HISTOGRAM, Buffer.alloc(7))
    await client.ping()
    expect(seen.map((h) => `${h.reason}/${h.kind}`)).toEqual(['on-demand/last', 'on-demand/first', 'periodic/last'])
    expect(linkErrors.map((e) => e.code)).toEqual(['PS_CMD_BAD_REPLY'])
  })

  it('refuses a LATENCY_HISTOGRAM reply that lacks one kind’s histogram', async () => {
    const { client, device } = setup({ skipFirstHistogram: true })
    await expect(client.latencyHistograms()).rejects.toMatchObject({
      code: 'PS_CMD_BAD_REPLY',
      message: expect.stringMatching(/without its first-completion histogram/),
    })
    expect(device.received.map((r) => r.name)).toEqual(['LATENCY_HISTOGRAM'])
  })

  it('sends the sampler, filter and latency commands with their arguments', async () => {
    const { client, device } = setup()
    await client.setSamplePeriod(2500)
    await client.setFilter(2 ** 32, 2 ** 32 + 0xffff)
    await client.setBarLatency(400)
    expect(device.received).toMatchObject([
      { name: 'SET_SAMPLE_PERIOD', args: { periodCycles: 2500 } },
      { name: 'SET_FILTER', args: { base: 2 ** 32, limit: 2 ** 32 + 0xffff } },
      { name: 'SET_BAR_LATENCY', args: { cycles: 400 } },
    ])
  })

  it('rejects the pending command with PS_SERIAL_DISCONNECTED when the port goes away', async () => {
    const { client, dev } = setup({ silent: ['INFO'] }, 5000)
    const disconnects: PsError[] = []
    client.on('disconnect', (e) => disconnects.push(e))
    const p = client.info()
    await new Promise((r) => setTimeout(r, 20))
    dev.destroy()
    await expect(p).rejects.toMatchObject({ code: 'PS_SERIAL_DISCONNECTED' })
    expect(disconnects).toHaveLength(1)
    expect(client.isDisconnected).toBe(true)
    await expect(client.ping()).rejects.toMatchObject({ code: 'PS_SERIAL_DISCONNECTED' })
  })

  it('attach() continues on a replacement stream after a disconnect, dropping a torn frame', async () => {
    const { client, dev, host } = setup({}, 500)
    expect(() => client.attach(host)).toThrow(/still connected/)
    await client.hello()
    dev.write(Buffer.from([0x05, 0x81, 0x01])) // half a frame, then the cable goes
    dev.destroy()
    await expect.poll(() => client.isDisconnected).toBe(true)
    const [host2, dev2] = duplexPair()
    const device2 = new FakeDevice(dev2)
    let reconnects = 0
    client.on('reconnect', () => reconnects++)
    client.attach(host2)
    expect(reconnects).toBe(1)
    expect(client.isDisconnected).toBe(false)
    expect((await client.info()).protocolVersion).toBe(1)
    expect(device2.received.map((r) => r.name)).toEqual(['INFO'])
    expect(client.hostStats().badFrames).toBe(0) // the torn frame did not leak into the new stream
  })

  it('close() rejects pending and later commands with PS_DEVICE_CLOSED and closes the stream', async () => {
    const { client, host } = setup({ silent: ['STOP'] }, 5000)
    const p = client.stop()
    const q = client.ping()
    await new Promise((r) => setTimeout(r, 10))
    await client.close()
    await expect(p).rejects.toMatchObject({ code: 'PS_DEVICE_CLOSED' })
    await expect(q).rejects.toMatchObject({ code: 'PS_DEVICE_CLOSED' })
    expect(host.destroyed).toBe(true)
    await client.close() // idempotent
  })

  it('survives a throwing snapshot listener', async () => {
    const { client, device } = setup()
    client.on('snapshot', () => {
      throw new Error('listener bug')
    })
    expect(client.lastSnapshot()).toBeUndefined()
    device.sendSnapshot(false)
    device.sendSnapshot(false)
    await client.ping()
    expect(client.hostStats().badFrames).toBe(0)
    // the snapshot after the throwing listener was still decoded and kept
    expect(client.lastSnapshot()).toMatchObject({ index: 1, onDemand: false })
  })
})

describe('ProbeClient: a lost run the sequence number wraps over', () => {
  it('counts 65 536 frames lost, one gap, when the snapshot index jumps while the sequence looks contiguous', async () => {
    const { client, device } = setup()
    const seen: Snapshot[] = []
    client.on('snapshot', (s) => seen.push(s))
    device.sendSnapshot(false)
    device.lose(SEQ_SPACE, 3) // exactly one wrap: the next frame's number is the one expected
    device.sendSnapshot(false)
    device.sendSnapshot(false)
    await client.ping()
    expect(seen.map((s) => s.index)).toEqual([0, 4, 5])
    expect(client.hostStats()).toMatchObject({ frames: 4, seqGaps: 1, lostFrames: SEQ_SPACE })
    // an ordinary gap is counted once, as before
    device.lose(2, 1)
    device.sendSnapshot(false)
    await client.ping()
    expect(client.hostStats()).toMatchObject({ seqGaps: 2, lostFrames: SEQ_SPACE + 2 })
  })

  it('infers nothing across a SNAPSHOT that arrived but could not be read', async () => {
    const { client, device, linkErrors } = setup()
    device.sendSnapshot(false)
    device.send(FRAME_TYPE.SNAPSHOT, Buffer.alloc(5)) // its index is unknown to the host
    device.lose(0, 1)
    device.sendSnapshot(false)
    await client.ping()
    expect(linkErrors.map((e) => e.code)).toEqual(['PS_CMD_BAD_REPLY'])
    expect(client.hostStats()).toMatchObject({ seqGaps: 0, lostFrames: 0 })
  })

  it('counts it from the INTERVAL records too, and forgets the numbering on a new stream', async () => {
    const { client, device, host } = setup()
    const rec = (ts: number) => ({
      ts,
      cycles: 10,
      mrdCount: 0,
      mrdBytes: 0,
      cpldCount: 0,
      cpldBytes: 0,
      occSum: 0,
      occPeak: 0,
      latSum: 0,
      latCount: 0,
    })
    device.send(FRAME_TYPE.INTERVAL, encodeInterval({ firstIndex: 0, dropped: 0, overflow: 0, records: [rec(10), rec(20)] }))
    device.lose(SEQ_SPACE)
    device.send(FRAME_TYPE.INTERVAL, encodeInterval({ firstIndex: 9, dropped: 0, overflow: 0, records: [rec(90)] }))
    await client.ping()
    expect(client.hostStats()).toMatchObject({ seqGaps: 1, lostFrames: SEQ_SPACE })
    // a re-opened stream to a device that counts afresh: no loss made up from the old numbers
    host.destroy()
    await new Promise((r) => setTimeout(r, 10))
    const [host2, dev2] = duplexPair()
    const device2 = new FakeDevice(dev2)
    client.attach(host2)
    device2.send(FRAME_TYPE.INTERVAL, encodeInterval({ firstIndex: 500, dropped: 0, overflow: 0, records: [rec(5000)] }))
    device2.sendSnapshot(false)
    await client.ping()
    expect(client.hostStats()).toMatchObject({ seqGaps: 1, lostFrames: SEQ_SPACE })
  })
})
