/** The header: what the badge says (live, stopped, paused, stale, …), the source, the controls. */
import { ApiError } from '../api.js'
import { $ } from '../dom.js'
import { si } from '../model.js'
import type { View, ViewContext } from './view.js'

export function headerView(): View {
  let badge: HTMLElement
  let banner: HTMLElement
  let pause: HTMLButtonElement
  let demoButton: HTMLButtonElement

  const command = (ctx: ViewContext, path: 'start' | 'stop' | 'clear') => {
    ctx.api.post(path).then(
      () => ctx.state.say(''),
      (e: unknown) => {
        ctx.state.say(`${path} failed: ${(e as Error).message}`)
        ctx.changed()
      },
    )
  }

  return {
    mount(ctx) {
      badge = $('conn')
      banner = $('banner')
      pause = $<HTMLButtonElement>('btn-pause')
      $('btn-start').addEventListener('click', () => command(ctx, 'start'))
      $('btn-stop').addEventListener('click', () => command(ctx, 'stop'))
      $('btn-clear').addEventListener('click', () => command(ctx, 'clear'))
      demoButton = $<HTMLButtonElement>('btn-demo')
      demoButton.addEventListener('click', () => {
        const enabled = !(ctx.state.status?.demo.enabled ?? false)
        ctx.api.post('demo', { enabled }).then(
          () => ctx.state.say(''),
          (e: unknown) => {
            ctx.state.say(
              e instanceof ApiError && e.status === 404
                ? `this server cannot switch its demo loop from the page (it has no POST /api/demo); to run without it, start \`node bin/pcie-scope.mjs serve --twin\` instead of \`npm start\``
                : `demo ${enabled ? 'start' : 'stop'} failed: ${(e as Error).message}`,
            )
            ctx.changed()
          },
        )
      })
      pause.addEventListener('click', () => {
        ctx.state.togglePaused()
        ctx.changed()
      })
    },
    render(ctx) {
      const { state } = ctx
      const live = state.live(ctx.now())
      badge.textContent = live.text
      badge.className = `badge badge-${live.tone}`
      badge.dataset.state = live.key
      badge.title = live.hint
      const showBanner = live.key === 'token-missing' || live.key === 'token-wrong'
      banner.hidden = !showBanner
      banner.textContent = showBanner ? live.hint : ''
      $('notice').textContent = state.notice
      pause.textContent = state.paused ? 'Resume' : 'Pause'
      pause.setAttribute('aria-pressed', String(state.paused))
      $('demo').textContent = state.demoLine()
      // a saved recording on the page: the header names it, and the device's controls wait for Back to live
      for (const id of ['btn-start', 'btn-stop', 'btn-clear', 'btn-demo']) {
        const b = $<HTMLButtonElement>(id)
        b.disabled = state.replaying !== null
        b.title = state.replaying !== null ? 'the page shows a saved recording: Back to live first' : ''
      }
      if (state.replaying !== null) {
        $('demo').textContent = ''
        $('source').textContent = `${state.replaying} (saved)${state.info ? ` · ${si(state.info.clockHz, 'Hz')} probe clock` : ''}`
        $('source').title = ''
        return
      }
      const st = state.status
      if (!st) return
      const design = st.twinMode === null ? '' : ` · ${st.twinMode === 'switch' ? 'switch between GPU and host' : 'BAR endpoint'}`
      // the link the server reports (the twin's link model): the one the rate chart's ceiling uses
      const link = st.pcieLink ? ` · link ${st.pcieLink.name}` : ''
      $('source').textContent =
        `${st.source}${design} · ${st.path}${state.info ? ` · ${si(state.info.clockHz, 'Hz')} probe clock` : ''}${link}`
      $('source').title = st.pcieLink
        ? `the ceiling on the rate chart is this link's: ${st.pcieLink.name}, as the server reports it (on the twin, its link model, --link)`
        : ''
      $('source').dataset.mode = st.twinMode ?? ''
      demoButton.hidden = live.key !== 'live' && live.key !== 'stopped' && live.key !== 'paused' && live.key !== 'stale'
      demoButton.textContent = st.demo.enabled ? 'Stop demo' : 'Start demo'
    },
  }
}
