/**
 * pcie-scope web UI: composes the state, the REST client, the WebSocket feed and the views.
 * Rendering is throttled to one requestAnimationFrame; messages only mark the page dirty, and a
 * one-second tick lets time-based states (stale) appear without a message.
 */
import { ApiClient } from './api.js'
import { chartsSummary } from './charts.js'
import { startFeed } from './feed.js'
import { AppState, type TestHook } from './state.js'
import { takeToken } from './token.js'
import { countersView } from './views/counters.js'
import { headerView } from './views/header.js'
import { histogramView } from './views/histogram.js'
import { hostSideView } from './views/host-side.js'
import { inflightView } from './views/inflight.js'
import { latencyView } from './views/latency.js'
import { linkView } from './views/link.js'
import { rateView } from './views/rate.js'
import { recordingsView } from './views/recordings.js'
import { runView } from './views/run.js'
import type { View, ViewContext } from './views/view.js'

const state = new AppState(takeToken(location, history, sessionStorage))
const views: View[] = [
  headerView(),
  histogramView(),
  rateView(),
  inflightView(),
  latencyView(),
  hostSideView(),
  countersView(),
  linkView(),
  runView(),
  recordingsView(),
]

let dirty = false
const ctx: ViewContext = {
  state,
  api: new ApiClient(state.token),
  now: () => Date.now(),
  changed() {
    if (dirty) return
    dirty = true
    requestAnimationFrame(render)
  },
}

// for the browser tests: computed when read, so rendering pays nothing for it
Object.defineProperty(window, '__pcieScope', { get: (): TestHook => state.hook(ctx.now()) })
;(window as unknown as { __pcieScopeCharts: typeof chartsSummary }).__pcieScopeCharts = chartsSummary

function render(): void {
  dirty = false
  for (const v of views) v.render(ctx)
}

for (const v of views) v.mount(ctx)
startFeed(state, ctx.api, ctx.changed)
setInterval(ctx.changed, 1_000)
ctx.changed()
