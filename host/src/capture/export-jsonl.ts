/** JSONL export: the capture's readable records, one per line, in order (torn and invalid lines left out). */
import type { CaptureRecord } from './format.js'

export async function* exportJsonl(records: AsyncIterable<CaptureRecord>): AsyncGenerator<string> {
  for await (const r of records) yield JSON.stringify(r) + '\n'
}
