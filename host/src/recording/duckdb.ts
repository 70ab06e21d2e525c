/**
 * A recording loaded into an in-memory DuckDB database, one table per record kind (tables.ts),
 * through DuckDB's appender: the one place the host talks to DuckDB. Parquet export copies a
 * table out of it; `pcie-scope query` runs the user's SQL against it.
 */
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api'
import { PsError } from '../core/errors.js'
import type { OpenedRecording } from './catalog.js'
import { readRecords, type ReadStats } from './reader.js'
import { TableContext, TABLES, tableOf, type Cell, type ColumnType } from './tables.js'

export interface LoadedRecording {
  connection: DuckDBConnection
  /** rows per table */
  rows: Record<string, number>
  close(): void
}

const INT64_LIMIT = 2 ** 63

const quoteIdent = (s: string): string => `"${s.replaceAll('"', '""')}"`
/** A string literal for SQL text (file paths in COPY, which takes no parameters). */
export const quoteLiteral = (s: string): string => `'${s.replaceAll("'", "''")}'`

const appendCell = (a: DuckDBAppender, type: ColumnType, v: Cell): void => {
  if (v === null) return a.appendNull()
  switch (type) {
    case 'BIGINT': {
      // whole numbers on the wire (counters, ms since the epoch); exact below 2^53. A u64 at or
      // above 2^63 is the probe's all-ones "none yet" (LAT_*_MIN before the first read): NULL
      const n = Math.round(v as number)
      return n >= INT64_LIMIT ? a.appendNull() : a.appendBigInt(BigInt(n))
    }
    case 'DOUBLE':
      return a.appendDouble(v as number)
    case 'BOOLEAN':
      return a.appendBoolean(v as boolean)
    case 'VARCHAR':
      return a.appendVarchar(String(v))
  }
}

const duckError = (what: string, e: unknown): PsError =>
  new PsError('PS_RECORDING_IO', `${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })

/**
 * Read every record of a recording into fresh tables; `stats` fills in as reading goes on. `only`
 * names the tables to fill (the others are created empty): appending is most of the cost, so an
 * export of one table skips the rest.
 */
export const loadRecording = async (recording: OpenedRecording, stats?: ReadStats, only?: readonly string[]): Promise<LoadedRecording> => {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const close = () => {
    connection.closeSync()
    instance.closeSync()
  }
  try {
    for (const t of TABLES) {
      const cols = t.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')
      await connection.run(`CREATE TABLE ${quoteIdent(t.name)} (${cols})`)
    }
    const appenders = new Map<string, DuckDBAppender>()
    for (const t of TABLES) appenders.set(t.name, await connection.createAppender(t.name))
    const rows = Object.fromEntries(TABLES.map((t) => [t.name, 0]))
    const clockHz = recording.manifest.probe.clockHz
    const seen = new TableContext()
    for await (const r of readRecords(recording.dir, stats ? { stats } : {})) {
      seen.note(r)
      const table = tableOf(r.t)
      if (!table || (only && !only.includes(table.name))) continue
      const a = appenders.get(table.name)!
      for (const row of table.rows(r, clockHz, seen)) {
        table.columns.forEach((c, i) => appendCell(a, c.type, row[i] ?? null))
        a.endRow()
        rows[table.name]!++
      }
    }
    for (const a of appenders.values()) a.closeSync()
    return { connection, rows, close }
  } catch (e) {
    close()
    if (e instanceof PsError) throw e
    throw duckError(`cannot load ${recording.dir} into DuckDB`, e)
  }
}

export interface QueryResult {
  columns: string[]
  types: string[]
  /** cells as JS values: integers as numbers where exact, else as decimal strings */
  rows: unknown[][]
}

const plain = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  if (Array.isArray(v)) return v.map(plain)
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
  return v
}

/** Run SQL over a loaded recording; a bad statement is the user's error (PS_USAGE) with DuckDB's words. */
export const runQuery = async (loaded: LoadedRecording, sql: string): Promise<QueryResult> => {
  let result
  try {
    result = await loaded.connection.runAndReadAll(sql)
  } catch (e) {
    throw new PsError('PS_USAGE', `query failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
  return {
    columns: result.columnNames(),
    types: result.columnTypes().map(String),
    rows: result.getRowsJS().map((r) => r.map(plain)),
  }
}

/** Copy one table to a Parquet file (zstd; DuckDB writes the file itself). */
export const copyToParquet = async (loaded: LoadedRecording, table: string, file: string): Promise<void> => {
  try {
    await loaded.connection.run(`COPY ${quoteIdent(table)} TO ${quoteLiteral(file)} (FORMAT parquet, COMPRESSION zstd)`)
  } catch (e) {
    throw duckError(`cannot write ${file}`, e)
  }
}
