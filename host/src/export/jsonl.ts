/** JSONL export: the recording's readable records, one per line, in order (torn and invalid lines left out). */
import type { AnyRecord } from '../recording/format.js'

export async function* exportJsonl(records: AsyncIterable<AnyRecord>): AsyncGenerator<string> {
  for await (const r of records) yield JSON.stringify(r) + '\n'
}
