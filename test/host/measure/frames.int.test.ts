/**
 * Raw frames recorded from the real twin (needs `npm run build:twin`), exported as pcapng and read
 * by tshark with the generated dissector: every frame the firmware sent is there with a good CRC,
 * and the decoded records of the same recording match them one for one.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { exportPcapng } from '../../../host/src/export/pcapng.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { measureAndRecord } from '../../../host/src/measure/recorded-run.js'
import { openSession } from '../../../host/src/device/session.js'
import { removeRoots, tempRoot } from '../recording/fixtures.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const twinBuilt = existsSync(join(root, 'build/twin/pcie-scope-twin'))

afterAll(removeRoots)

describe('capture --frames on the twin, exported as pcapng', () => {
  const rows: string[][] = []
  const byType: Record<string, number> = {}
  beforeAll(async () => {
    if (!twinBuilt) throw new Error('the twin is not built: run `npm run build:twin`')
    const dir = join(tempRoot(), 'twin-frames')
    const session = await openSession({ twin: true })
    try {
      await measureAndRecord(session, { pattern: 'merged-aligned', bytes: 1 << 20, offset: 0 }, dir, {
        samplePeriodCycles: 2000,
        periodMs: 10,
        frames: true,
      })
    } finally {
      await session.close()
    }
    for await (const r of readRecords(dir)) byType[r.t] = (byType[r.t] ?? 0) + 1
    const chunks: Buffer[] = []
    for await (const c of exportPcapng(await openRecording(dir), readRecords(dir))) chunks.push(c)
    const file = join(tempRoot(), 'twin.pcapng')
    writeFileSync(file, Buffer.concat(chunks))
    const fields = [
      'pcie_scope.type',
      'pcie_scope.crc_ok',
      'pcie_scope.command.cmd',
      'pcie_scope.response.status',
      'frame.packet_flags_direction',
    ]
    const r = spawnSync(
      'tshark',
      [
        '-X',
        `lua_script:${join(root, 'wireshark/pcie_scope.lua')}`,
        '-r',
        file,
        '-T',
        'fields',
        '-E',
        'separator=|',
        ...fields.flatMap((f) => ['-e', f]),
      ],
      { encoding: 'utf8', timeout: 120_000 },
    )
    if (r.error) throw r.error
    expect(r.status, r.stderr).toBe(0)
    rows.push(
      ...r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('|')),
    )
  })

  it('holds one packet per frame record, every CRC good', () => {
    expect(rows).toHaveLength(byType['frame']!)
    expect(rows.every((r) => r[1] === '1')).toBe(true)
  })

  it('each SNAPSHOT and INTERVAL frame is also a decoded record; each command has its OK response', () => {
    const count = (type: number) => rows.filter((r) => Number(r[0]) === type).length
    expect(count(0x82)).toBe(byType['snapshot'])
    expect(count(0x83)).toBe(byType['interval'])
    expect(byType['interval']).toBeGreaterThan(0)
    const commands = rows.filter((r) => Number(r[0]) === 0x01)
    const responses = rows.filter((r) => Number(r[0]) === 0x81)
    expect(commands.length).toBeGreaterThan(4)
    expect(responses).toHaveLength(commands.length)
    expect(responses.every((r) => r[3] === '0')).toBe(true)
    expect(commands.every((r) => Number(r[4]) === 2) && responses.every((r) => Number(r[4]) === 1)).toBe(true) // outbound, inbound
  })
})
