import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

describe('scripts/build-web.mjs', () => {
  it('bundles web/main.ts (esm, minified, sourcemap) and copies index.html and style.css', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ps-web-build-'))
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs'), '--outdir', out], { cwd: root })
    const js = readFileSync(join(out, 'main.js'), 'utf8')
    expect(js).toMatch(/sourceMappingURL=main\.js\.map/)
    expect(statSync(join(out, 'main.js.map')).size).toBeGreaterThan(0)
    // only the chart.js parts used are registered: chart.js/auto alone is ≈207 KB, the page's
    // own modules ≈42 KB on top (the run form's graph kernels and picker ≈3 KB of it, the two
    // latency histograms and the interval records ≈3 KB, the switch's host side ≈4 KB)
    expect(js.length).toBeLessThan(230_000)
    expect(js.split('\n').length).toBeLessThan(20) // minified
    const html = readFileSync(join(out, 'index.html'), 'utf8')
    expect(html).toContain('<script type="module" src="main.js">')
    expect(html).toContain('href="style.css"')
    for (const id of ['size-histogram', 'rate-chart', 'counters-table', 'run-form']) expect(html).toContain(`id="${id}"`)
    expect(html).toContain('data-testid="hist-total"')
    expect(readFileSync(join(out, 'style.css'), 'utf8')).toContain('.chart-box')
  })
})
