/**
 * Recordings: those in the server's recordings folder (the session it records into marked),
 * each downloadable as CSV, JSONL, Perfetto trace, VCD, Parquet (snapshots) or pcapng, the exports of
 * `pcie-scope export` (an export the recording cannot give is disabled, with the reason:
 * web/recording-exports.ts). Open shows a recording on the page as the live page would
 * (web/replay.ts), until Back to live. The list is fetched on mount, after every run and on
 * Refresh. Record / Stop recording starts and closes a recording of the live stream (POST
 * /api/recording).
 */
import type { RecordingsListing } from '../../host/src/core/wire.js'
import { $, el, row, tbodyOf } from '../dom.js'
import { int } from '../model.js'
import type { View, ViewContext } from './view.js'
import { exportBlocked } from '../recording-exports.js'
import { parseJsonl, replaySteps, type RecordingDescription } from '../replay.js'

/** Show recording `name` on the page: its description, then its records as a live server's messages. */
async function openRecording(ctx: ViewContext, name: string): Promise<void> {
  const path = `recordings/${encodeURIComponent(name)}`
  const desc = await ctx.api.get<RecordingDescription>(path)
  const { lines, skipped } = parseJsonl(await ctx.api.text(`${path}/export?format=jsonl`))
  ctx.state.replay(name, replaySteps(desc, lines))
  ctx.state.say(skipped > 0 ? `${skipped} unreadable line(s) of ${name} left out` : '')
}

const DOWNLOAD_FAILED = 'download failed: '

const FORMATS = [
  { format: 'csv', label: 'CSV', ext: 'csv' },
  { format: 'jsonl', label: 'JSONL', ext: 'jsonl' },
  { format: 'perfetto', label: 'Perfetto', ext: 'perfetto.json' },
  { format: 'vcd', label: 'VCD', ext: 'vcd' },
  // binary: the snapshots table, and the raw frames (only a recording made with its frames has them)
  { format: 'parquet', label: 'Parquet', ext: 'snapshots.parquet' },
  { format: 'pcapng', label: 'pcapng', ext: 'pcapng' },
] as const

export function recordingsView(): View {
  let body: HTMLTableSectionElement
  let shown = ''
  let lastRunSeen: number | undefined

  const refresh = (ctx: ViewContext) => {
    ctx.api.get<RecordingsListing>('recordings').then(
      (listing) => {
        ctx.state.setRecordings(listing)
        ctx.changed()
      },
      (e: unknown) => {
        ctx.state.say(`listing recordings failed: ${(e as Error).message}`)
        ctx.changed()
      },
    )
  }

  return {
    mount(ctx) {
      body = tbodyOf('recordings-table')
      $('btn-recordings').addEventListener('click', () => refresh(ctx))
      const record = $('btn-record') as HTMLButtonElement
      record.addEventListener('click', () => {
        const action = ctx.state.recordings?.recording ? 'stop' : 'start'
        record.disabled = true // until the listing says what the server did
        ctx.api.post<{ recording: string | null }>('recording', { action }).then(
          () => refresh(ctx),
          (e: unknown) => {
            ctx.state.say(`${action === 'start' ? 'starting' : 'stopping'} the recording failed: ${(e as Error).message}`)
            refresh(ctx)
          },
        )
      })
      const live = $<HTMLButtonElement>('btn-live')
      live.addEventListener('click', () => {
        ctx.state.endReplay()
        ctx.reconnect()
        ctx.changed()
      })
      refresh(ctx)
    },
    render(ctx) {
      $('btn-live').hidden = ctx.state.replaying === null
      const { state } = ctx
      const runId = state.lastRun?.id
      if (runId !== lastRunSeen && state.feed === 'open') {
        lastRunSeen = runId
        if (runId !== undefined) refresh(ctx)
      }
      if (!state.recordings) return
      // the same list again (a refresh after each run) is left alone: a button under the mouse stays
      const key = `${state.replaying}|${JSON.stringify(state.recordings)}`
      if (key === shown) return
      shown = key
      const { recordings, recording, root } = state.recordings
      $('recordings-root').textContent = root === null ? 'this server keeps no recordings' : `under ${root}`
      const record = $('btn-record') as HTMLButtonElement
      record.textContent = recording ? 'Stop recording' : 'Record'
      record.disabled = root === null
      body.replaceChildren(
        ...[...recordings].reverse().map((c) => {
          const buttons = el('td')
          const open = el('button', c.name === state.replaying ? 'Shown' : 'Open', 'small')
          open.type = 'button'
          open.dataset.testid = `open-${c.name}`
          open.title = 'show this recording on the page: its charts, runs and latency, as the live page'
          open.disabled = c.name === state.replaying
          open.addEventListener('click', () => {
            open.disabled = true
            openRecording(ctx, c.name).then(
              () => ctx.changed(),
              (e: unknown) => {
                state.say(`opening ${c.name} failed: ${(e as Error).message}`)
                open.disabled = false
                ctx.changed()
              },
            )
          })
          buttons.append(open)
          for (const f of FORMATS) {
            const b = el('button', f.label, 'small')
            b.type = 'button'
            b.dataset.testid = `download-${c.name}-${f.format}`
            const blocked = exportBlocked(f.format, c.contents)
            b.disabled = blocked !== null
            b.title = blocked ?? `download as ${f.label}`
            b.addEventListener('click', () => {
              ctx.api.download(`recordings/${encodeURIComponent(c.name)}/export?format=${f.format}`, `${c.name}.${f.ext}`).then(
                () => {
                  // a failure notice of an earlier download must not outlive this success
                  if (state.notice.startsWith(DOWNLOAD_FAILED)) state.say('')
                  ctx.changed()
                },
                (e: unknown) => {
                  state.say(`${DOWNLOAD_FAILED}${(e as Error).message}`)
                  ctx.changed()
                },
              )
            })
            buttons.append(b)
          }
          const name = el('td', c.name === recording ? `${c.name} (this session)` : c.name, 'name')
          const status = el('td', c.status, c.status === 'interrupted' ? 'bad' : 'muted')
          const when = el('td', new Date(c.startedAt).toLocaleString(), 'muted small')
          const dur = el('td', c.durationSeconds === null ? '–' : `${c.durationSeconds.toFixed(0)} s`, 'num')
          const tr = row([name, status, when, dur, el('td', `${int(c.runs)} runs, ${int(c.records)} records`, 'num'), buttons])
          tr.dataset.testid = `recording-${c.name}`
          return tr
        }),
      )
    },
  }
}
