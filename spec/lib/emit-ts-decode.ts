/**
 * A TypeScript reader for the counter block of SNAPSHOT frames (host/src/core/generated-decode.ts).
 *
 * Written out field by field so the counters object is one object literal: V8 gives it a fixed
 * shape at once, where a loop of keyed stores builds it key by key. The host decodes every
 * snapshot with it; bench/decoder.mjs measures the difference (about 2.5 times per snapshot).
 */
import type { SpecModel } from './model.js'
import { banner } from './text.js'

export function emitTsDecode(m: SpecModel): string {
  const L: string[] = [banner('//'), "import type { CounterKey } from './generated.js'", '']
  L.push(
    '/** The 64-bit counters of a counter block starting at byte `at` (little-endian; exact below 2^53). */',
    'export const readCounterBlock = (b: Buffer, at: number): Record<CounterKey, number> => ({',
  )
  for (const c of m.counters) {
    const o = c.index * 8
    L.push(`  ${c.key}: b.readUInt32LE(at + ${o}) + b.readUInt32LE(at + ${o + 4}) * 0x1_0000_0000,`)
  }
  L.push('})', '')
  return L.join('\n')
}
