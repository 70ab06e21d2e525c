// Types of gpu-counters-report.mjs, for the tests that import it.
export interface CompareInput {
  name: string
  sampled: Record<string, number>
  ncu: Record<string, number>
  samplesPerKernel: number
  selfWriteBytes: number
  predictedRequests?: number
}
export interface CompareRow {
  name: string
  ncuRead: number
  read: number
  readError: number
  ncuWrite: number
  write: number
  writeError: number
  requests: number
  predictedRequests: number | undefined
  requestError: number
}
export function ncuSections(text: string): Map<string, Record<string, number>>
export function compareRow(input: CompareInput): CompareRow
