/**
 * A view owns one part of the page: `mount` finds its elements and wires its controls once,
 * `render` draws from the state on each animation frame the state changed in. Adding a view is
 * a new module and one line in app.ts.
 */
import type { ApiClient } from '../api.js'
import type { AppState } from '../state.js'

export interface ViewContext {
  state: AppState
  api: ApiClient
  /** the state changed: render on the next frame */
  changed(): void
  /** page clock, ms */
  now(): number
  /** a fresh WebSocket to the server (its hello brings the live page back after a recording was shown) */
  reconnect(): void
}

export interface View {
  mount(ctx: ViewContext): void
  render(ctx: ViewContext): void
}
