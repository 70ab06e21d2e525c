/**
 * The lesson parts of the page in Chromium (playwright-core over Debian's Chromium, the test build
 * of scripts/build-web.mjs, as browser.e2e.test.ts): the warp diagram beside the run form for
 * every spec pattern and graph kernel, predict-then-observe with a difference highlighted, and
 * stepping through the shipped coalescing lesson, on the fake session and on the twin; a lesson's
 * steps run as written, what the form has no input for included.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer, type StartServerOptions } from '../../host/src/server/index.js'
import { makeFakeAddon } from '../host/workload/fake-addon.js'
import { GRAPH_KERNELS, PATTERN_SPECS, type AnyWorkload } from '../../host/src/core/workload.js'
import { diagramLayout, graphEntry, instructionGeometry, MAX_LINES, patternEntry } from '../../web/pattern-diagram.js'
import { fakeSession } from '../host/server/fake-session.js'
import { WARP_TABLE } from '../web/warp-table.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const twinAvailable = existsSync(join(root, 'build/twin/pcie-scope-twin'))
const webRoot = join(root, 'build/e2e-web-lessons')

const text = async (page: Page, testid: string) => (await page.getByTestId(testid).textContent()) ?? ''
const mrdBars = (page: Page, figure = 'diagram-0') => page.getByTestId(figure).locator('g.pd-mrd').count()

describe('lessons in Chromium', () => {
  let browser: Browser

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: run \`npm test\` (it installs it) or set CHROMIUM_PATH`)
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs'), '--test', '--outdir', webRoot], { cwd: root })
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function onPage(server: RunningServer, body: (page: Page) => Promise<void>) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    try {
      await page.goto(server.url)
      await expect.poll(() => page.getByTestId('run-button').isEnabled(), { timeout: 30_000 }).toBe(true)
      await body(page)
      expect(problems).toEqual([])
    } finally {
      await page.close()
    }
  }

  async function onFake(
    body: (page: Page, session: ReturnType<typeof fakeSession>) => Promise<void>,
    gpu: StartServerOptions['gpu'] = false,
  ) {
    const session = fakeSession({ runDelayMs: 100 })
    const server = await startServer({ twin: true, demo: false, http: { host: '127.0.0.1', port: 0 }, session, webRoot, gpu })
    try {
      await onPage(server, (page) => body(page, session))
    } finally {
      await server.close()
      await session.close()
    }
  }

  it('draws the chosen pattern’s warp from the model’s table: every spec pattern, the offset and lane width, every graph kernel', async () => {
    await onFake(async (page) => {
      const pattern = page.getByTestId('run-pattern')
      for (const p of PATTERN_SPECS) {
        await pattern.selectOption(p.name)
        const g = instructionGeometry(patternEntry(p.name, 4, p.defaultOffset, WARP_TABLE)!.first, 4, WARP_TABLE)
        // a bar per read under the lines drawn (at most MAX_LINES of them)
        const shown = g.mrds.filter((m) => g.lines.slice(0, MAX_LINES).some((l) => l.line === m.line)).length
        expect(shown).toBe(diagramLayout(g, WARP_TABLE).shapes.filter((s) => s.kind === 'pd-mrd').length)
        await expect.poll(() => mrdBars(page), { timeout: 5_000 }).toBe(shown)
        expect(await page.getByTestId('diagram-0').locator('g.pd-lane, g.pd-lane-off').count()).toBe(32)
        expect(await text(page, 'diagram-0')).toMatch(/^warp 0, load 1 of \d+: 32 lanes × 4 B/)
      }
      // the offset and the lane width redraw it: merged-aligned shifted by 32 splits into 96 + 32 B
      await pattern.selectOption('merged-aligned')
      await expect.poll(() => mrdBars(page)).toBe(1)
      await page.getByTestId('run-offset').fill('32')
      await expect.poll(() => mrdBars(page)).toBe(2)
      expect(await page.getByTestId('diagram-0').locator('g.pd-mrd text').allTextContents()).toEqual(['96 B', '32 B'])
      await page.getByTestId('run-offset').fill('0')
      await page.getByTestId('run-element-bytes').selectOption('16')
      await expect.poll(() => mrdBars(page)).toBe(4)
      // a sector the reads fetch but no lane reads shows as over-fetched: none here
      expect(await page.getByTestId('diagram-0').locator('g.pd-sector-overfetched').count()).toBe(0)
      for (const k of GRAPH_KERNELS) {
        await pattern.selectOption(k)
        const e = graphEntry(k, 8, WARP_TABLE)!
        const l = diagramLayout(instructionGeometry(e.shown[0]!, 8, WARP_TABLE), WARP_TABLE)
        // the figures of this kernel (its first caption names it), then their reads
        await expect.poll(() => text(page, 'run-diagram')).toMatch(new RegExp(`^${k}: `))
        expect(await page.getByTestId('run-diagram').locator('figure').count()).toBe(e.shown.length)
        expect(await mrdBars(page)).toBe(l.shapes.filter((s) => s.kind === 'pd-mrd').length)
      }
      expect(await text(page, 'run-diagram')).toMatch(/pagerank-aligned: a warp per vertex/)
      await pattern.selectOption('bfs-naive')
      await expect.poll(() => text(page, 'run-diagram')).toMatch(/a thread per vertex/)
    })
  })

  it('predicts before the run and shows the observation beside it, a difference highlighted', async () => {
    await onFake(async (page) => {
      await page.getByTestId('run-pattern').selectOption('merged-misaligned')
      // before: the model's reads (16,384 = 96 + 32 B per line), nothing observed yet
      await expect.poll(() => text(page, 'predict-mrds')).toMatch(/^memory reads \(MRd\)16,384–$/)
      expect(await text(page, 'predict-size-96')).toMatch(/8,192–/)
      expect(await text(page, 'predict-note')).toMatch(/run it to see/)
      await page.getByTestId('run-button').click()
      // the fake device answers with 8,192 reads of 128 B: half the predicted reads, highlighted
      await expect.poll(() => text(page, 'predict-mrds'), { timeout: 20_000 }).toMatch(/16,384\s*8,192\s*-50\.0 %/)
      expect(await page.getByTestId('predict-mrds').getAttribute('class')).toBe('differs')
      expect(await text(page, 'predict-note')).toMatch(/observed: run #\d+/)
      // a run that matches the prediction is not highlighted
      await page.getByTestId('run-pattern').selectOption('merged-aligned')
      await page.getByTestId('run-button').click()
      await expect.poll(() => text(page, 'predict-mrds'), { timeout: 20_000 }).toMatch(/8,192\s*8,192\s*\+0\.0 %/)
      expect(await page.getByTestId('predict-mrds').getAttribute('class')).toBeNull()
    })
  })

  /** Runs steps from..to (1-based) of the shown lesson, going on with Next between them. */
  async function stepThrough(page: Page, from: number, to: number, timeoutMs: number) {
    await expect.poll(() => page.getByTestId('lesson-card').isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await page.getByTestId('lesson-pick').locator('option').allTextContents()).toContain(
      'Why coalesced, aligned zero-copy reads are faster',
    )
    for (let i = from - 1; i < to; i++) {
      await expect.poll(() => text(page, 'lesson-title')).toMatch(new RegExp(`^${i + 1}\\. `))
      expect(await text(page, 'lesson-question')).toMatch(/\?/)
      expect(await page.getByTestId('lesson-answer').count()).toBe(0)
      await expect.poll(() => page.getByTestId('lesson-run').isEnabled(), { timeout: timeoutMs }).toBe(true)
      await page.getByTestId('lesson-run').click()
      await expect.poll(() => page.getByTestId('lesson-answer').count(), { timeout: timeoutMs }).toBe(1)
      // the form holds the step's run, and the prediction shows it observed
      await expect.poll(() => text(page, 'predict-note'), { timeout: 10_000 }).toMatch(/observed: run #\d+/)
      if (i < to - 1) await page.getByTestId('lesson-next').click()
    }
  }

  it('runs each lesson step as written (a chunk of its own, an L1 bypass, a seeded graph, a BFS source vertex) and answers it', async () => {
    // warps walking 512-B chunks, not the default 4096; then what the form has no input for
    const dir = mkdtempSync(join(tmpdir(), 'ps-e2e-lessons-'))
    const run = { pattern: 'merged-chunked', bytes: 1048576, offset: 32, chunkBytes: 512 }
    const bypass = { pattern: 'strided', bytes: 65536, offset: 0, l1: 'bypass' }
    const bfs = { pattern: 'bfs-aligned', graph: 'kron:8:7', idBytes: 8, sourceVertex: 5 }
    const step = (r: object) => ({ title: 'Reads', question: 'How many reads?', run: r, watch: ['histogram'], answer: 'So.', text: 'Why.' })
    writeFileSync(
      join(dir, 'steps.json'),
      JSON.stringify({ id: 'steps', title: 'Steps', minutes: 5, summary: 'Three steps.', steps: [run, bypass, bfs].map(step) }),
    )
    const session = fakeSession({ runDelayMs: 100 })
    const server = await startServer({
      twin: true,
      demo: false,
      http: { host: '127.0.0.1', port: 0 },
      session,
      webRoot,
      gpu: false,
      lessonsDir: dir,
    })
    try {
      await onPage(server, async (page) => {
        const chunk = page.getByTestId('run-chunk-bytes')
        // the step fills the form, its chunk with it: the model's table holds the default chunk only
        await expect.poll(() => chunk.inputValue(), { timeout: 10_000 }).toBe('512')
        expect(await chunk.isVisible()).toBe(true)
        await expect.poll(() => text(page, 'predict-note')).toBe('no prediction for this workload')
        await page.getByTestId('lesson-run').click()
        // the run is the step's, so it answers the step
        await expect.poll(() => page.getByTestId('lesson-answer').count(), { timeout: 20_000 }).toBe(1)
        expect((session.runner as unknown as { runs: AnyWorkload[] }).runs).toEqual([expect.objectContaining(run)])
        expect(await text(page, 'run-result')).toMatch(/\(manual\) merged-chunked, 1,048,576 B @ \+32 in 512-B chunks/)
        // by hand: the default chunk is predicted (33 reads a chunk), and only merged-chunked shows the field
        await chunk.fill('4096')
        await expect.poll(() => text(page, 'predict-mrds')).toMatch(/^memory reads \(MRd\)8,448/)
        await page.getByTestId('run-pattern').selectOption('merged-aligned')
        expect(await chunk.isVisible()).toBe(false)

        // the L1 bypass has no input: it goes with the step's values, predicted (8 × 2,048 reads) and run
        const runs = (session.runner as unknown as { runs: AnyWorkload[] }).runs
        await page.getByTestId('lesson-next').click()
        await expect.poll(() => text(page, 'predict-mrds')).toMatch(/^memory reads \(MRd\)16,384/)
        await page.getByTestId('lesson-run').click()
        await expect.poll(() => page.getByTestId('lesson-answer').count(), { timeout: 20_000 }).toBe(1)
        expect(runs[1]).toEqual(expect.objectContaining(bypass))
        // changed by hand, the form runs what it shows
        await page.getByTestId('run-bytes').fill('131072')
        await expect.poll(() => text(page, 'predict-mrds')).toMatch(/^memory reads \(MRd\)4,096/)
        await page.getByTestId('run-button').click()
        await expect.poll(() => runs.length, { timeout: 20_000 }).toBe(3)
        expect(runs[2]).toEqual({ pattern: 'strided', bytes: 131072, offset: 0 })
        // a BFS from the step's source vertex
        await page.getByTestId('lesson-next').click()
        await page.getByTestId('lesson-run').click()
        await expect.poll(() => page.getByTestId('lesson-answer').count(), { timeout: 20_000 }).toBe(1)
        expect(runs[3]).toEqual(expect.objectContaining(bfs))
      })
    } finally {
      await server.close()
      await session.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('steps through the coalescing lesson on the fake session: question, run, answer, places outlined', async () => {
    await onFake(async (page) => {
      await stepThrough(page, 1, 7, 20_000)
      expect(await page.getByTestId('run-pattern').inputValue()).toBe('bfs-aligned')
      expect(await page.locator('.lesson-watch').evaluateAll((es) => es.map((e) => e.id))).toEqual([
        'hist-card',
        'run-diagram',
        'predict-box',
      ])
      expect(await page.getByTestId('lesson-next').isDisabled()).toBe(true)
      await page.getByTestId('lesson-prev').click()
      await expect.poll(() => text(page, 'lesson-title')).toMatch(/^6\. /)
    })
  })

  it('runs a lesson step on the GPU where the server has one, leaving the twin’s completer latency alone', async () => {
    const addon = makeFakeAddon()
    await onFake(
      async (page, session) => {
        await expect.poll(() => page.getByTestId('run-source').locator('option').allTextContents()).toEqual(['twin', 'GPU'])
        await page.getByTestId('run-source').selectOption('gpu')
        await expect.poll(() => page.getByTestId('lesson-card').isVisible(), { timeout: 10_000 }).toBe(true)
        await page.getByTestId('lesson-next').click()
        await page.getByTestId('lesson-next').click()
        await page.getByTestId('lesson-next').click()
        await expect.poll(() => text(page, 'lesson-title')).toMatch(/^4\. /)
        await page.getByTestId('lesson-run').click()
        await expect.poll(() => page.getByTestId('lesson-answer').count(), { timeout: 20_000 }).toBe(1)
        expect(addon.runs).toHaveLength(1)
        expect((session.client as unknown as { calls: string[] }).calls.filter((c) => c.startsWith('latency:'))).toEqual([])
        // the observation is the GPU's: its GB/s, the model's count standing in for the reads
        await expect.poll(() => text(page, 'predict-note')).toMatch(/the GPU does not count its reads/)
      },
      { load: () => addon },
    )
  })

  it('steps through the lesson on the twin: the probe’s reads equal the prediction, the latency step sets the twin’s completer', async () => {
    expect(twinAvailable, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const server = await startServer({
      twin: true,
      demo: false,
      mode: 'endpoint',
      http: { host: '127.0.0.1', port: 0 },
      webRoot,
      gpu: false,
    })
    try {
      await onPage(server, async (page) => {
        await page.getByTestId('btn-start').click()
        await stepThrough(page, 1, 3, 90_000)
        // step 4 shown, not yet run: the form holds its run and the prediction its 4-µs latency,
        // Little's law at 256 tags × 32 B / 4 µs
        await page.getByTestId('lesson-next').click()
        await expect.poll(() => text(page, 'predict-little')).toMatch(/2\.05 GB\/s–$/)
        expect(await page.getByTestId('run-pattern').inputValue()).toBe('strided')
        await stepThrough(page, 4, 4, 90_000)
        // after it the probe counted the model's reads
        for (const k of ['predict-mrds', 'predict-size-32']) expect(await page.getByTestId(k).getAttribute('class'), k).toBeNull()
        const status = (await (
          await fetch(new URL(`/api/status`, server.url), {
            headers: { authorization: `Bearer ${new URL(server.url).searchParams.get('token')}` },
          })
        ).json()) as {
          info: { barLatencyCycles: number }
        }
        expect(status.info.barLatencyCycles).toBe(1000)
        await page.getByTestId('lesson-next').click()
        await stepThrough(page, 5, 7, 90_000)
        // BFS on the twin: the probe's reads beside the example warp's read size
        expect(await text(page, 'predict-mrds')).toMatch(/^memory reads \(MRd\)–[\d,]+$/)
        await page.screenshot({ path: join(root, 'build/e2e/ui-lesson.png'), fullPage: true })
      })
    } finally {
      await server.close()
    }
  })
})
