/** Link health: what the host decoder, the firmware and the server counted going wrong. */
import { LINK_STATS } from '../../host/src/core/generated.js'
import { el, row, tbodyOf } from '../dom.js'
import { int } from '../model.js'
import type { View } from './view.js'
import { designOf, urLabel } from '../design-words.js'

export function linkView(): View {
  let body: HTMLTableSectionElement
  return {
    mount() {
      body = tbodyOf('link-table')
    },
    render({ state }) {
      if (state.paused) return
      const rows: HTMLTableRowElement[] = []
      const group = (label: string) => rows.push(row([el('td', label)], 'group'))
      const num = (label: string, v: number | undefined, isError: boolean, testid: string) => {
        const tr = row(
          [el('td', label, 'name'), el('td', v === undefined ? '–' : int(v), 'num')],
          isError && (v ?? 0) > 0 ? 'bad' : undefined,
        )
        tr.dataset.testid = testid
        rows.push(tr)
      }
      const host = state.hostStats
      group('host decoder (UART → frames)')
      num('frames', host?.frames, false, 'host-frames')
      num('bytes', host?.bytes, false, 'host-bytes')
      num('bad frames', host?.badFrames, true, 'host-badFrames')
      num('CRC errors', host?.crcErrors, true, 'host-crcErrors')
      num('overflows', host?.overflows, true, 'host-overflows')
      num('frames lost', host?.lostFrames, true, 'host-lostFrames')
      num('sequence gaps (where they were lost)', host?.seqGaps, true, 'host-seqGaps')
      num('unknown frames', host?.unknownFrames, true, 'host-unknownFrames')
      group('firmware (commands received)')
      const fw = state.last?.firmware
      for (const s of LINK_STATS) num(s.label, fw?.[s.key], s.error, `fw-${s.key}`)
      group('server')
      num('WebSocket batches dropped (slow clients)', state.wsDrops, true, 'ws-drops')
      group('PCIe (probe counters)')
      num(urLabel(designOf(state.showHostSide)), state.last?.counters.barUr, true, 'bar-ur')
      num('poisoned TLPs (EP set, either direction)', state.last?.counters.poisoned, true, 'poisoned')
      body.replaceChildren(...rows)
    },
  }
}
