/**
 * Device conformance: what any pcie-scope probe must do on its serial line, checked end to end
 * through the real firmware (and, on the twin, the real RTL). Run against the twin's PTY in
 * `conformance.int.test.ts`, and against a board when PCIE_SCOPE_SERIAL names its UART.
 *
 * Every error path is checked by its effect: the device answers or counts it, keeps running,
 * and keeps its counters.
 */
import type { SerialPort } from 'serialport'
import { expect, it } from 'vitest'
import { type ProbeClient } from '../../../host/src/device/client.js'
import type { Snapshot } from '../../../host/src/core/probe.js'
import { cobsEncode } from '../../../host/src/protocol/cobs.js'
import { buildRawFrame } from '../../../host/src/protocol/frame.js'
import { COMMANDS, COUNTERS, FRAME_TYPE, FRAMING, ID_MAGIC, PROTOCOL_VERSION, REG_VERSION_VALUE } from '../../../host/src/core/generated.js'
import { encodeFrame } from '../protocol/device-codec.js'

export interface Target {
  port: SerialPort
  client: ProbeClient
  close(): Promise<void>
}

const write = (port: SerialPort, bytes: Buffer) =>
  new Promise<void>((resolve, reject) => port.write(bytes, (e) => (e ? reject(e) : port.drain((d) => (d ? reject(d) : resolve())))))

/** Defines the suite; `open` gives a fresh connection to the device for each test. */
export function conformance(open: () => Promise<Target>): void {
  const withTarget = (name: string, body: (t: Target) => Promise<void>) =>
    it(name, async () => {
      const t = await open()
      try {
        await body(t)
      } finally {
        await t.close()
      }
    })

  withTarget('answers hello with the catalogue it was built from', async ({ client }) => {
    const info = await client.hello()
    expect(info.protocolVersion).toBe(PROTOCOL_VERSION)
    expect(info.probeId).toBe(ID_MAGIC)
    expect(info.regVersion).toBe(REG_VERSION_VALUE)
    expect(info.counterCount).toBe(COUNTERS.length)
    expect(info.clockHz).toBeGreaterThan(0)
    expect(await client.ping(0xdeadbeef)).toMatchObject({ nonce: 0xdeadbeef })
  })

  withTarget('streams consecutive snapshots while started and none once stopped', async ({ client }) => {
    await client.hello()
    const seen: Snapshot[] = []
    client.on('snapshot', (s) => seen.push(s))
    await client.start(COMMANDS.START.args[0].min * 2)
    await expect.poll(() => seen.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3)
    await client.stop()
    const stoppedAt = seen.length
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.index).toBe(seen[i - 1]!.index + 1)
    // streamed while counting; a STOP of a stream may add the final counts, on demand and stopped
    const streamed = seen.filter((s) => !s.onDemand)
    expect(streamed.length).toBeGreaterThanOrEqual(3)
    expect(streamed.every((s) => s.enabled)).toBe(true)
    expect(seen.filter((s) => s.onDemand).every((s) => !s.enabled && s === seen.at(-1))).toBe(true)
    await new Promise((r) => setTimeout(r, 200))
    expect(seen.length).toBeLessThanOrEqual(stoppedAt + 1) // at most one already on the wire
    const after = await client.snapshot()
    expect(after.onDemand).toBe(true)
    expect(after.enabled).toBe(false)
  })

  withTarget('clear zeroes the counters but not the free-running timestamp; latency minima read empty', async ({ client }) => {
    await client.hello()
    await client.start()
    await client.stop()
    await client.clear()
    const s = await client.snapshot()
    for (const c of COUNTERS) {
      if (c.key === 'timestamp') expect(s.counters.timestamp).toBeGreaterThan(0)
      // an empty minimum reads all ones (2^64 - 1, a JS number near 1.8e19), not 0
      else if (c.key.startsWith('lat') && c.key.endsWith('Min')) expect(s.counters[c.key], c.name).toBeGreaterThan(2 ** 63)
      else expect(s.counters[c.key], c.name).toBe(0)
    }
  })

  withTarget('refuses a START period outside the catalogue range and keeps streaming state', async ({ client }) => {
    await client.hello()
    const period = COMMANDS.START.args[0]
    await expect(client.start(period.min - 1)).rejects.toMatchObject({
      code: 'PS_CMD_REJECTED',
      message: expect.stringMatching(/BAD_ARGUMENT/),
    })
    expect((await client.info()).streaming).toBe(false)
    await client.start(period.max)
    expect((await client.info()).periodMs).toBe(period.max)
    await client.stop()
  })

  withTarget('answers an unknown command id with UNKNOWN_COMMAND and counts it', async ({ port, client }) => {
    await client.hello()
    const before = (await client.snapshot()).firmware.unknownCommands
    await write(port, encodeFrame(FRAME_TYPE.COMMAND, 0x4242, Buffer.from([0x7f])))
    await expect.poll(async () => (await client.snapshot()).firmware.unknownCommands, { timeout: 3000 }).toBe(before + 1)
    expect(await client.ping(0x0badc0de)).toMatchObject({ nonce: 0x0badc0de })
  })

  withTarget('drops a frame with a bad CRC, counts it, and answers the next command', async ({ port, client }) => {
    await client.hello()
    const before = (await client.snapshot()).firmware
    const raw = buildRawFrame(FRAME_TYPE.COMMAND, 7, Buffer.from([COMMANDS.PING.id, 1, 2, 3, 4]))
    raw[raw.length - 1]! ^= 0xff // corrupt the CRC
    await write(port, Buffer.concat([cobsEncode(raw), Buffer.from([FRAMING.delimiter])]))
    const after = (await client.snapshot()).firmware
    expect(after.rxBadFrames).toBe(before.rxBadFrames + 1)
    expect(after.rxFrames).toBe(before.rxFrames + 1) // only the SNAPSHOT command itself
    expect(await client.ping(0x01020304)).toMatchObject({ nonce: 0x01020304 })
  })

  withTarget('resynchronises after a run of garbage longer than any frame, counting the overflow', async ({ port, client }) => {
    await client.hello()
    const before = (await client.snapshot()).firmware
    await write(port, Buffer.alloc(FRAMING.maxEncodedBytes * 3, 0x55))
    await write(port, Buffer.from([FRAMING.delimiter]))
    const after = (await client.snapshot()).firmware
    expect(after.rxOverflows).toBe(before.rxOverflows + 1)
    expect(after.txDropped).toBe(before.txDropped)
    expect(client.hostStats()).toMatchObject({ badFrames: 0, crcErrors: 0, overflows: 0 })
  })
}
