/**
 * The page: composes the state, the REST client, the WebSocket feed and the views.
 * Rendering is throttled to one requestAnimationFrame; messages only mark the page dirty, and a
 * one-second tick lets time-based states (stale) appear without a message. Both entries use it:
 * main.ts (the production bundle) and test-entry.ts (the browser tests' build).
 */
import { ApiClient } from './api.js'
import { type Feed, startFeed } from './feed.js'
import type { AppState } from './state.js'
import { benchView } from './views/bench.js'
import { countersView } from './views/counters.js'
import { gpuCountersView } from './views/gpu-counters.js'
import { headerView } from './views/header.js'
import { histogramView } from './views/histogram.js'
import { hostSideView } from './views/host-side.js'
import { inflightView } from './views/inflight.js'
import { latencyView } from './views/latency.js'
import { lessonView } from './views/lesson.js'
import { linkView } from './views/link.js'
import { patternView } from './views/pattern.js'
import { rateView } from './views/rate.js'
import { recordingsView } from './views/recordings.js'
import { runView } from './views/run.js'
import { timeNavView } from './views/time-nav.js'
import { traceView } from './views/trace.js'
import type { View, ViewContext } from './views/view.js'

export function startPage(state: AppState): ViewContext {
  const views: View[] = [
    headerView(),
    histogramView(),
    timeNavView(),
    rateView(),
    inflightView(),
    latencyView(),
    hostSideView(),
    countersView(),
    gpuCountersView(),
    linkView(),
    runView(),
    benchView(),
    traceView(),
    patternView(),
    lessonView(),
    recordingsView(),
  ]

  let dirty = false
  const ctx: ViewContext = {
    state,
    api: new ApiClient(state.token),
    now: () => Date.now(),
    // the feed starts below; nothing asks for a reconnect before it has
    reconnect: () => feed.reconnect(),
    changed() {
      if (dirty) return
      dirty = true
      requestAnimationFrame(render)
    },
  }

  function render(): void {
    dirty = false
    for (const v of views) v.render(ctx)
  }

  for (const v of views) v.mount(ctx)
  const feed: Feed = startFeed(state, ctx.api, ctx.changed)
  setInterval(ctx.changed, 1_000)
  ctx.changed()
  return ctx
}
