/**
 * pcie-scope web UI: connects to /ws with the token from ?token=, draws the request-size
 * histogram and the request-rate chart (chart.js, only the parts used are registered), the
 * counters and link-health tables, and drives the REST API (start/stop/clear, run a workload).
 *
 * Rendering is throttled to one requestAnimationFrame: messages only mark the view dirty.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement } from 'chart.js'
import { PATTERNS } from '../host/src/core/workload.js'
import { type HostLinkStats, type ProbeInfo, type Snapshot } from '../host/src/core/probe.js'
import { type PcieLinkInfo } from '../host/src/core/link.js'
import type { CounterMeta, RunReport, ServerMessage, ServerStatus } from '../host/src/core/wire.js'
import { histogram, int, type Point, rateBetween, RingSeries, si, SIZE_KEYS, SIZE_LABELS, type TestHook, totalRequests } from './model.js'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend)

const RATE_POINTS = 600

// ---- state --------------------------------------------------------------------------------
const token = new URLSearchParams(location.search).get('token') ?? ''
let info: ProbeInfo | undefined
let pcieLink: PcieLinkInfo | null = null
let counters: CounterMeta[] = []
let status: ServerStatus | undefined
let last: Snapshot | undefined
let prevForRate: Snapshot | undefined
let hostStats: HostLinkStats | null = null
let wsDrops = 0
let wsOpen = false
let snapshotsSeen = 0
let lastRun: RunReport | null = null
const mrdRate = new RingSeries(RATE_POINTS)
const byteRate = new RingSeries(RATE_POINTS)
const ceilingRate = new RingSeries(RATE_POINTS)

const hook: TestHook = { histogram: [0, 0, 0, 0, 0], total: 0, snapshots: 0, ratePoints: 0, wsOpen: false, connected: false, lastRun: null }
;(window as unknown as { __pcieScope: TestHook }).__pcieScope = hook

// ---- DOM helpers --------------------------------------------------------------------------
const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id)
  if (!el) throw new Error(`#${id} missing`)
  return el as T
}
function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = text
  if (cls) e.className = cls
  return e
}
function row(cells: (string | HTMLElement)[], cls?: string): HTMLTableRowElement {
  const tr = el('tr', undefined, cls)
  for (const c of cells) {
    if (typeof c === 'string') tr.append(el('td', c))
    else tr.append(c)
  }
  return tr
}

// ---- charts -------------------------------------------------------------------------------
Chart.defaults.color = '#8593a6'
Chart.defaults.borderColor = '#263140'
Chart.defaults.font.family = 'system-ui, sans-serif'

const histChart = new Chart($<HTMLCanvasElement>('size-histogram'), {
  type: 'bar',
  data: {
    labels: SIZE_LABELS,
    datasets: [
      {
        label: 'MRd requests',
        data: [0, 0, 0, 0, 0],
        backgroundColor: ['#f56565', '#ed8936', '#ecc94b', '#4fd1c5', '#a0aec0'],
        borderWidth: 0,
      },
    ],
  },
  options: {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    plugins: { legend: { display: false } },
    scales: {
      x: { grid: { display: false }, title: { display: true, text: 'requested bytes per MRd' } },
      y: { beginAtZero: true, title: { display: true, text: 'requests' }, ticks: { callback: (v) => si(Number(v)) } },
    },
  },
})

const rateChart = new Chart<'line', Point[]>($<HTMLCanvasElement>('rate-chart'), {
  type: 'line',
  data: {
    datasets: [
      { label: 'MRd / s', data: [], borderColor: '#4fd1c5', backgroundColor: '#4fd1c5', yAxisID: 'y' },
      { label: 'read bytes / s', data: [], borderColor: '#f6ad55', backgroundColor: '#f6ad55', yAxisID: 'y1' },
      // what the wire allows for the same completion mix: "why is it slower than the datasheet"
      { label: 'link ceiling (B/s)', data: [], borderColor: '#fc8181', backgroundColor: '#fc8181', borderDash: [6, 4], yAxisID: 'y1' },
    ],
  },
  options: {
    animation: false,
    parsing: false,
    normalized: true,
    responsive: true,
    maintainAspectRatio: false,
    elements: { point: { radius: 0 }, line: { tension: 0, borderWidth: 1.5 } },
    spanGaps: true,
    plugins: { legend: { position: 'top', labels: { boxWidth: 12 } } },
    scales: {
      x: {
        type: 'linear',
        title: { display: true, text: 'probe time (TIMESTAMP / clock)' },
        ticks: { maxRotation: 0, callback: (v) => si(Number(v), 's') },
      },
      y: { type: 'linear', beginAtZero: true, position: 'left', ticks: { callback: (v) => si(Number(v)) } },
      y1: {
        type: 'linear',
        beginAtZero: true,
        position: 'right',
        grid: { drawOnChartArea: false },
        ticks: { callback: (v) => si(Number(v), 'B') },
      },
    },
  },
})

// ---- rendering (rAF-throttled) ------------------------------------------------------------
let dirty = false
function invalidate(): void {
  if (dirty) return
  dirty = true
  requestAnimationFrame(render)
}

function render(): void {
  dirty = false
  renderHeader()
  if (last) {
    const h = histogram(last)
    const total = totalRequests(last)
    const ds = histChart.data.datasets[0]
    if (ds) ds.data = h
    histChart.update('none')
    $('hist-total').textContent = int(total)
    $('hist-avg').textContent = total > 0 ? `${(last.counters.mrdBytes / total).toFixed(1)} B` : '–'
    $('snap-index').textContent = `snapshot #${last.index}${last.enabled ? '' : ' (counters stopped)'}`
    hook.histogram = h
    hook.total = total
    renderCounters(last)
  }
  const [d0, d1, d2] = rateChart.data.datasets
  if (d0 && d1 && d2) {
    d0.data = mrdRate.view()
    d1.data = byteRate.view()
    d2.data = ceilingRate.view()
    const first = mrdRate.view()[0]
    const lastPt = mrdRate.last()
    const x = rateChart.options.scales?.x
    if (x && first && lastPt) {
      x.min = first.x
      x.max = lastPt.x > first.x ? lastPt.x : first.x + 1e-3
    }
    rateChart.update('none')
    const lp = mrdRate.last()
    const lb = byteRate.last()
    $('rate-mrd').textContent = lp ? si(lp.y) : '–'
    $('rate-bytes').textContent = lb ? si(lb.y, 'B/s') : '–'
    const lc = ceilingRate.last()
    $('rate-ceiling').textContent = lc ? `${si(lc.y, 'B/s')} on ${pcieLink?.name ?? '?'}` : pcieLink ? `${pcieLink.name}` : '–'
  }
  renderLink()
  hook.snapshots = snapshotsSeen
  hook.ratePoints = mrdRate.length
  hook.wsOpen = wsOpen
  hook.connected = wsOpen && (status?.connected ?? false)
}

function renderHeader(): void {
  const conn = $('conn')
  if (!wsOpen) {
    conn.textContent = 'server unreachable – reconnecting'
    conn.className = 'badge badge-wait'
  } else if (status && !status.connected) {
    conn.textContent = `device disconnected${status.error ? ` (${status.error.code})` : ''}`
    conn.className = 'badge badge-bad'
    conn.title = status.error?.message ?? ''
  } else {
    conn.textContent = 'live'
    conn.className = 'badge badge-ok'
    conn.title = ''
  }
  if (status) {
    $('source').textContent = `${status.source} · ${status.path}${info ? ` · ${si(info.clockHz, 'Hz')} probe clock` : ''}`
    const d = status.demo
    const lastDemo =
      lastRun?.origin === 'demo' ? ` · last: ${lastRun.result.workload.pattern}, ${si(lastRun.result.workload.bytes, 'B')}` : ''
    $('demo').textContent = d.enabled ? `demo loop: ${d.runs} runs${lastDemo}` : ''
    $('runner-kind').textContent = status.runner ? `runner: ${status.runner}` : 'no workload runner on this session'
    $<HTMLButtonElement>('run-button').disabled = !status.runner || !status.connected || runInFlight
  }
}

const counterCells = new Map<string, HTMLTableCellElement>()
function renderCounters(s: Snapshot): void {
  const body = $('counters-table').querySelector('tbody')
  if (!body) return
  if (counterCells.size !== counters.length) {
    body.replaceChildren()
    counterCells.clear()
    for (const c of counters) {
      const name = el('td', c.name, 'name')
      name.title = c.doc
      const val = el('td', '0', 'num')
      const doc = el('td', c.doc, 'muted small')
      const tr = row([name, val, doc])
      tr.dataset.testid = `counter-${c.key}`
      body.append(tr)
      counterCells.set(c.key, val)
    }
  }
  for (const c of counters) {
    const cell = counterCells.get(c.key)
    if (cell) cell.textContent = int(s.counters[c.key])
  }
}

function renderLink(): void {
  const body = $('link-table').querySelector('tbody')
  if (!body) return
  const rows: HTMLTableRowElement[] = []
  const num = (label: string, v: number | undefined, isError: boolean, testid: string) => {
    const tr = row([el('td', label, 'name'), el('td', v === undefined ? '–' : int(v), 'num')], isError && (v ?? 0) > 0 ? 'bad' : undefined)
    tr.dataset.testid = testid
    rows.push(tr)
  }
  rows.push(row([el('td', 'host decoder (UART → frames)')], 'group'))
  num('frames', hostStats?.frames, false, 'host-frames')
  num('bytes', hostStats?.bytes, false, 'host-bytes')
  num('bad frames', hostStats?.badFrames, true, 'host-badFrames')
  num('CRC errors', hostStats?.crcErrors, true, 'host-crcErrors')
  num('overflows', hostStats?.overflows, true, 'host-overflows')
  num('sequence gaps', hostStats?.seqGaps, true, 'host-seqGaps')
  num('unknown frames', hostStats?.unknownFrames, true, 'host-unknownFrames')
  rows.push(row([el('td', 'firmware (commands received)')], 'group'))
  const fw = last?.firmware
  num('rx frames', fw?.rxFrames, false, 'fw-rxFrames')
  num('rx bad frames', fw?.rxBadFrames, true, 'fw-rxBadFrames')
  num('rx overflows', fw?.rxOverflows, true, 'fw-rxOverflows')
  num('unknown commands', fw?.unknownCommands, true, 'fw-unknownCommands')
  num('tx dropped', fw?.txDropped, true, 'fw-txDropped')
  rows.push(row([el('td', 'server')], 'group'))
  num('WebSocket batches dropped (slow clients)', wsDrops, true, 'ws-drops')
  num('BAR unsupported requests', last?.counters.barUr, true, 'bar-ur')
  body.replaceChildren(...rows)
}

function renderRun(r: RunReport): void {
  const box = $('run-result')
  const res = r.result
  const w = res.workload
  const probeSeen = SIZE_KEYS.reduce((a, k) => a + r.probe[k], 0)
  const matches = probeSeen === res.issued.count
  const t = el('table')
  const add = (k: string, v: string, cls?: string) => {
    const val = el('td', v, `num${cls ? ` ${cls}` : ''}`)
    t.append(row([el('td', k, 'name'), val]))
  }
  add('run', `#${r.id} (${r.origin}) ${w.pattern}, ${int(w.bytes)} B @ +${w.offset}`)
  add(
    'MRd issued / seen by probe',
    `${int(res.issued.count)} / ${int(probeSeen)}`,
    r.countersEnabled ? (matches ? 'ok' : 'bad') : undefined,
  )
  add(
    'by size issued (32/64/96/128/other)',
    `${res.issued.bySize['32']} / ${res.issued.bySize['64']} / ${res.issued.bySize['96']} / ${res.issued.bySize['128']} / ${res.issued.bySize.other}`,
  )
  add('by size probe', SIZE_KEYS.map((k) => int(r.probe[k])).join(' / '))
  add(
    'requested / useful bytes',
    `${si(res.issued.bytes, 'B')} / ${si(w.bytes, 'B')} (${((w.bytes / Math.max(1, res.issued.bytes)) * 100).toFixed(0)} % useful)`,
  )
  add('completions (payload errors)', `${int(res.completions)} (${res.payloadErrors})`, res.payloadErrors > 0 ? 'bad' : undefined)
  const simS = info?.clockHz ? res.simCycles / info.clockHz : NaN
  add(
    'simulated time / wall time',
    `${Number.isFinite(simS) ? si(simS, 's') : int(res.simCycles) + ' cycles'} / ${si(res.wallSeconds, 's')}`,
  )
  if (!r.countersEnabled) add('note', 'counters were stopped: press Start to count', 'bad')
  t.dataset.testid = 'run-table'
  box.replaceChildren(t)
}

function showRunError(msg: string): void {
  const p = el('p', msg, 'bad')
  p.dataset.testid = 'run-error'
  $('run-result').replaceChildren(p)
}

// ---- data in ------------------------------------------------------------------------------
function ingest(s: Snapshot): void {
  snapshotsSeen++
  if (last && s.counters.timestamp < last.counters.timestamp) return // stale, out of order
  last = s
  if (prevForRate && info) {
    if (s.counters.cycles < prevForRate.counters.cycles) {
      prevForRate = s // counters cleared: new baseline
      return
    }
    const r = rateBetween(prevForRate, s, info.clockHz, pcieLink)
    if (!r) {
      if (s.counters.cycles !== prevForRate.counters.cycles) prevForRate = s
      return
    }
    mrdRate.push({ x: r.t, y: r.mrdPerSec })
    byteRate.push({ x: r.t, y: r.bytesPerSec })
    if (r.ceilingBytesPerSec !== undefined) ceilingRate.push({ x: r.t, y: r.ceilingBytesPerSec })
  }
  prevForRate = s
}

function onMessage(m: ServerMessage): void {
  switch (m.type) {
    case 'hello':
      info = m.info
      pcieLink = m.pcieLink
      counters = m.counters
      last = undefined
      prevForRate = undefined
      mrdRate.clear()
      byteRate.clear()
      ceilingRate.clear()
      for (const s of m.recent) ingest(s)
      if (m.lastRun) setRun(m.lastRun)
      break
    case 'status': {
      const { type: _t, ...st } = m
      status = st
      hostStats = st.hostStats
      wsDrops = st.wsDrops
      if (st.lastSnapshot && !last) ingest(st.lastSnapshot)
      break
    }
    case 'snapshot':
      for (const s of m.snapshots) ingest(s)
      hostStats = m.hostStats
      wsDrops = m.wsDrops
      break
    case 'run':
      setRun(m.report)
      if (status) status.demo = m.demo
      break
    case 'run-error':
      if (m.origin === 'manual') showRunError(`${m.error.code}: ${m.error.message}`)
      break
  }
  invalidate()
}

function setRun(r: RunReport): void {
  lastRun = r
  hook.lastRun = r
  renderRun(r)
}

let retryMs = 500
function connect(): void {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const ws = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(token)}`)
  ws.onopen = () => {
    wsOpen = true
    retryMs = 500
    invalidate()
  }
  ws.onmessage = (ev) => {
    if (typeof ev.data !== 'string') return
    try {
      onMessage(JSON.parse(ev.data) as ServerMessage)
    } catch (e) {
      console.error('bad message', e)
    }
  }
  ws.onclose = () => {
    wsOpen = false
    invalidate()
    setTimeout(connect, retryMs)
    retryMs = Math.min(5_000, retryMs * 2)
  }
}

// ---- REST out -----------------------------------------------------------------------------
async function api<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } }
  if (!res.ok) throw new Error(json.error ? `${json.error.code}: ${json.error.message}` : `HTTP ${res.status}`)
  return json as T
}

let runInFlight = false
function wire(): void {
  const select = $<HTMLSelectElement>('run-pattern')
  for (const p of PATTERNS) select.append(new Option(p, p))
  for (const [id, path] of [
    ['btn-start', 'start'],
    ['btn-stop', 'stop'],
    ['btn-clear', 'clear'],
  ] as const) {
    $(id).addEventListener('click', () => {
      api('POST', path).catch((e: unknown) => showRunError(String((e as Error).message ?? e)))
    })
  }
  $<HTMLFormElement>('run-form').addEventListener('submit', (ev) => {
    ev.preventDefault()
    const bytes = Number($<HTMLInputElement>('run-bytes').value)
    const offset = Number($<HTMLInputElement>('run-offset').value)
    runInFlight = true
    invalidate()
    const p = el('p', `running ${select.value}…`, 'muted')
    $('run-result').replaceChildren(p)
    api<{ report: RunReport }>('POST', 'run', { pattern: select.value, bytes, offset })
      .then((r) => setRun(r.report))
      .catch((e: unknown) => showRunError((e as Error).message))
      .finally(() => {
        runInFlight = false
        invalidate()
      })
  })
  $('footer').textContent = token ? '' : 'no ?token= in the address: open the URL the server printed'
}

wire()
connect()
invalidate()
