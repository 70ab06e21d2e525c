import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

async function buildWeb(...args: string[]): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'ps-web-build-'))
  await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs'), '--outdir', out, ...args], { cwd: root })
  return out
}

/** names only the browser tests' hooks use (web/test-hook.ts, web/test-entry.ts): each survives minification */
const TEST_ONLY = [
  '__pcieScope',
  '__pcieScopeCharts',
  'runBoxHistory',
  'tooltipPoints',
  'latencyFirstP99Ns',
  'wsOpen',
  '__pcieScopeTrace',
  'barPoint',
]

describe('scripts/build-web.mjs', () => {
  let prod: string
  let test: string
  beforeAll(async () => {
    ;[prod, test] = await Promise.all([buildWeb(), buildWeb('--test')])
  }, 60_000)

  it('bundles web/main.ts (esm, minified, sourcemap) and copies index.html and style.css', () => {
    const js = readFileSync(join(prod, 'main.js'), 'utf8')
    expect(js).toMatch(/sourceMappingURL=main\.js\.map/)
    expect(statSync(join(prod, 'main.js.map')).size).toBeGreaterThan(0)
    // only the chart.js parts used are registered: chart.js/auto alone is ≈207 KB, the page's
    // own modules ≈42 KB on top (the run form's graph kernels and picker ≈3 KB of it, the two
    // latency histograms and the interval records ≈3 KB, the switch's host side ≈4 KB, the run
    // list, the latency chart's bar range and the empty charts' words ≈4 KB, the GPU counters card ≈1 KB)
    // the time charts' navigation (zoom, pan, a stretch's figures, every run labelled), a recording
    // replayed on the page, a run's latency and the exports a recording can give ≈13 KB; the bench card: run
    // summary, comparison rules, SVG bars and the HTML report ≈10 KB; the lesson card, the warp diagrams
    // and predict-then-observe ≈16 KB (the warp table they draw is fetched beside the bundle, not in it);
    // the TLP trace view ≈18 KB: its canvas timeline, the filtered table that renders only the rows in
    // view, the records' fields decoded, a saved trace read (and decoded from its words when it must be)
    expect(js.length).toBeLessThan(310_000)
    expect(js.split('\n').length).toBeLessThan(20) // minified
    const html = readFileSync(join(prod, 'index.html'), 'utf8')
    expect(html).toContain('<script type="module" src="main.js">')
    expect(html).toContain('href="style.css"')
    for (const id of ['size-histogram', 'rate-chart', 'counters-table', 'run-form']) expect(html).toContain(`id="${id}"`)
    expect(html).toContain('data-testid="hist-total"')
    expect(readFileSync(join(prod, 'style.css'), 'utf8')).toContain('.chart-box')
    expect(readFileSync(join(prod, 'warp-table.json'), 'utf8')).toBe(readFileSync(join(root, 'web/generated/warp-table.json'), 'utf8'))
  })

  it('keeps the test hooks out of the production bundle and puts them in the test build (--test)', () => {
    const js = readFileSync(join(prod, 'main.js'), 'utf8')
    const testJs = readFileSync(join(test, 'main.js'), 'utf8')
    for (const name of TEST_ONLY) {
      expect(js, name).not.toContain(name)
      expect(testJs, name).toContain(name)
    }
    // the same page otherwise: the test build is the production one plus the hooks
    expect(testJs.length).toBeGreaterThan(js.length)
    expect(readFileSync(join(test, 'index.html'), 'utf8')).toBe(readFileSync(join(prod, 'index.html'), 'utf8'))
  })
})
