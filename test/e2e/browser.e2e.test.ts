/**
 * The web UI end to end: build its test build (scripts/build-web.mjs --test: the page plus the
 * hooks read here, `window.__pcieScope`), start the server on it, open the page in Debian's
 * Chromium through playwright-core and watch the histogram move.
 *
 * On the twin (build/twin/pcie-scope-twin + host/src/device/session.ts) this is the real path:
 * Verilated RTL → firmware → PTY → ProbeClient → server → ws → chart.js. A second test drives
 * the same page from the unit tests' fake session, so the UI is checked even without the twin.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer, type StartServerOptions } from '../../host/src/server/index.js'
import { makeFakeAddon } from '../host/workload/fake-addon.js'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import { GRAPH_KERNELS, GRAPH_SCALE, PATTERNS } from '../../host/src/core/workload.js'
import type { TestHook } from '../../web/test-hook.js'
import { fakeSession } from '../host/server/fake-session.js'
import { describeRecording } from '../../host/src/recording/catalog.js'
import { fixtureEvents } from '../host/gpu-counters/fixtures.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const twinAvailable = existsSync(join(root, 'build/twin/pcie-scope-twin')) && existsSync(join(root, 'host/src/device/session.ts'))
const shots = join(root, 'build/e2e')
/** the test build of the page, apart from dist/web (the production one) */
const webRoot = join(root, 'build/e2e-web')

type Hook = TestHook
const hook = (page: Page) => page.evaluate(() => (globalThis as unknown as { __pcieScope: Hook }).__pcieScope)
const shownTotal = async (page: Page) => Number(((await page.getByTestId('hist-total').textContent()) ?? '').replace(/,/g, ''))

describe('web UI in Chromium', () => {
  let browser: Browser

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: run \`npm test\` (it installs it) or set CHROMIUM_PATH`)
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs'), '--test', '--outdir', webRoot], { cwd: root })
    mkdirSync(shots, { recursive: true })
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function watch(
    server: RunningServer,
    shot: string,
    opts: { manualRun: boolean; ceiling?: RegExp; inflight?: boolean; intervals?: boolean; switchMode?: boolean; pageShot?: string },
  ) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    try {
      await page.goto(server.url)
      await expect.poll(async () => (await hook(page))?.connected, { timeout: 30_000 }).toBe(true)
      await expect.poll(() => page.getByTestId('conn-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('live')
      // the words follow the state (polled: on a loaded machine a late snapshot can flip it back)
      await expect.poll(() => page.getByTestId('conn-state').textContent(), { timeout: 10_000 }).toBe('live')

      if (opts.switchMode) {
        // the twin's default design: the header names it, and the host-side card fills in
        await expect
          .poll(async () => (await page.getByTestId('source').textContent()) ?? '', { timeout: 10_000 })
          .toMatch(/^twin · switch between GPU and host · /)
        expect(await page.getByTestId('hostside-card').isVisible()).toBe(true)
        await expect
          .poll(async () => (await page.getByTestId('hostside-mean-host').textContent()) ?? '', { timeout: 60_000 })
          .toMatch(/^[\d.]+ ns$/)
        // no BAR responder in this design: the counters and the link table say what counts here
        await expect
          .poll(async () => (await page.getByTestId('counter-cpldCount').textContent()) ?? '', { timeout: 10_000 })
          .toMatch(/whoever sent them/)
        expect(await page.getByTestId('counters-table').textContent()).not.toMatch(/BAR responder/)
        expect(await page.getByTestId('bar-ur').textContent()).toMatch(/^Unsupported Request completions to the GPU/)
      }
      // the histogram total shown on the page grows while the demo runs
      await expect.poll(() => shownTotal(page), { timeout: 60_000 }).toBeGreaterThan(0)
      const first = await shownTotal(page)
      await expect.poll(() => shownTotal(page), { timeout: 60_000 }).toBeGreaterThan(first)
      const h = await hook(page)
      expect(h.histogram).toHaveLength(SIZE_CLASSES.length)
      expect(h.histogram.filter((n) => n > 0).length).toBeGreaterThan(0)
      expect(h.total).toBe(h.histogram.reduce((a, b) => a + b, 0))
      await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 60_000 }).toBeGreaterThan(2)
      expect(await page.getByTestId('counter-mrd128').count()).toBe(1)
      if (opts.ceiling) {
        // the rate sits next to what the link allows for the same completion mix
        // (the text polled is the text read: the card redraws as demo runs start and end)
        let ceilingText = ''
        await expect
          .poll(async () => (ceilingText = (await page.getByTestId('rate-ceiling').textContent()) ?? ''), { timeout: 30_000 })
          .toMatch(opts.ceiling)
        // one link for the session: the header names the one the ceiling is worked out for
        const ceilingLink = / on (\S+)$/.exec(ceilingText)![1]!
        await expect
          .poll(async () => (await page.getByTestId('source').textContent()) ?? '', { timeout: 10_000 })
          .toMatch(new RegExp(` · link ${ceilingLink}$`))
      }

      if (opts.inflight) {
        // the tracker's reads in flight against the twin's 256 tags, and Little's law from the counters
        await expect
          .poll(async () => (await page.getByTestId('inflight-avg').textContent()) ?? '', { timeout: 30_000 })
          .toMatch(/ of 256 tags$/)
        const little = (await page.getByTestId('inflight-little').textContent()) ?? ''
        const m = /^rate × latency = ([\d.]+) reads, measured ([\d.]+)$/.exec(little)
        expect(m, little).not.toBeNull()
        expect(Math.abs(Number(m![1]) - Number(m![2]))).toBeLessThanOrEqual(0.02 * Number(m![2]) + 0.1)
        await expect
          .poll(() => page.getByTestId('inflight-limit').getAttribute('data-limit'), { timeout: 30_000 })
          .toMatch(/^(tags|wire|latency)$/)
        // the probe's latency histograms (first and last completion) arrive once a second while
        // streaming, p50 and p99 marked for each; no read completes before its first completion
        await expect.poll(async () => (await hook(page)).latencyFirstReads, { timeout: 30_000 }).toBeGreaterThan(0)
        await expect.poll(async () => (await hook(page)).latencyReads, { timeout: 30_000 }).toBeGreaterThan(0)
        const lat = await hook(page)
        expect(lat.latencyP50Ns).toBeGreaterThan(0)
        expect(lat.latencyP99Ns!).toBeGreaterThanOrEqual(lat.latencyP50Ns!)
        expect(lat.latencyFirstP50Ns).toBeGreaterThan(0)
        expect(lat.latencyFirstP50Ns!).toBeLessThanOrEqual(lat.latencyP50Ns!)
        for (const id of ['latency-p50', 'latency-first-p50'])
          await expect.poll(async () => (await page.getByTestId(id).textContent()) ?? '', { timeout: 5_000 }).toMatch(/^[\d.]+ (ns|µs)$/)
        // only the bins holding reads are drawn, in one unit, and no percentile lies below the fastest read
        const latencyChart = (await charts(page)).find((c) => c.canvas === 'latency-chart')!
        expect(latencyChart.ticks['x']!.length).toBeGreaterThan(0)
        expect(latencyChart.ticks['x']!.length).toBeLessThanOrEqual(25)
        const min = (await hook(page)).latencyMinNs
        expect(lat.latencyP50Ns!).toBeGreaterThanOrEqual(min! - 1e-6)
        expect((await page.getByTestId('latency-caption').textContent()) ?? '').toMatch(/reads completed since the clear/)
      }

      if (opts.intervals) {
        // the sampler's records (serve --sample-us) reach the page: outstanding per interval
        await expect.poll(async () => (await hook(page)).intervalPoints, { timeout: 30_000 }).toBeGreaterThan(2)
        await expect
          .poll(async () => (await page.getByTestId('inflight-interval').textContent()) ?? '', { timeout: 10_000 })
          .toMatch(/^average [\d.]+, peak \d+ of 256 tags; /)
        // an idle interval between two demo runs hits no limit (null): the next busy one does
        await expect.poll(async () => (await hook(page)).intervalLimit ?? 'none', { timeout: 10_000 }).toMatch(/^(tags|wire|latency)$/)
      }

      if (opts.manualRun) {
        await page.getByTestId('run-pattern').selectOption('merged-misaligned')
        await page.getByTestId('run-bytes').fill('65536')
        await page.getByTestId('run-offset').fill('16')
        await page.getByTestId('run-button').click()
        await expect
          .poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 60_000 })
          .toMatch(/\(manual\) merged-misaligned, 65,536 B @ \+16/)
      }
      // let demo runs of every pattern land in the histogram before the picture
      await expect.poll(async () => (await hook(page)).histogram.filter((n) => n > 0).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2)
      // every demo pattern is marked on the time axis
      await expect
        .poll(async () => new Set((await hook(page)).marks.map((m) => m.label.split(' ')[0])).size, { timeout: 60_000 })
        .toBe(PATTERNS.length)
      // completed payload can never read above what the link carries
      expect((await hook(page)).aboveCeiling).toBe(0)
      await page.screenshot({ path: join(shots, shot), fullPage: true })
      if (opts.pageShot) {
        // the picture of the page docs/img keeps: what a 1440×900 window shows
        await page.setViewportSize({ width: 1440, height: 900 })
        await page.evaluate('window.scrollTo(0, 0)')
        await page.screenshot({ path: join(shots, opts.pageShot) })
      }
      expect(problems).toEqual([])
    } finally {
      await page.close()
    }
  }

  it('on the twin (switch mode, its default): the histogram fills and grows while the demo loops, the host side beside it', async () => {
    expect(twinAvailable, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const server = await startServer({ twin: true, demo: true, sampleUs: 10, http: { host: '127.0.0.1', port: 0 }, webRoot })
    try {
      await watch(server, 'ui-twin.png', {
        manualRun: true,
        ceiling: /GB\/s on gen3x16$/,
        inflight: true,
        intervals: true,
        switchMode: true,
        pageShot: 'page-1440x900.png',
      })
    } finally {
      await server.close()
    }
  })

  it('on the fake session: same page, same checks', async () => {
    const session = fakeSession({ runDelayMs: 150 })
    const server = await startServer({ twin: true, demo: true, http: { host: '127.0.0.1', port: 0 }, session, webRoot })
    try {
      await watch(server, 'ui-fake.png', { manualRun: true })
    } finally {
      await server.close()
      await session.close()
    }
  })

  /** A page on a server over the fake session, for the checks that need to steer the device. */
  async function onFake(
    opts: {
      runDelayMs?: number
      demo?: boolean
      recordings?: { dir: string; record: boolean }
      gpu?: StartServerOptions['gpu']
      gpuCounters?: StartServerOptions['gpuCounters']
      switchMode?: boolean
    },
    body: (page: Page, server: RunningServer, session: ReturnType<typeof fakeSession>) => Promise<void>,
  ) {
    const session = fakeSession({ runDelayMs: opts.runDelayMs ?? 150, switchMode: opts.switchMode ?? false })
    const server = await startServer({
      twin: true,
      demo: opts.demo ?? true,
      http: { host: '127.0.0.1', port: 0 },
      session,
      webRoot,
      ...(opts.recordings ? { recordings: opts.recordings } : {}),
      gpu: opts.gpu ?? false,
      ...(opts.gpuCounters ? { gpuCounters: opts.gpuCounters } : {}),
    })
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    try {
      await body(page, server, session)
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await server.close()
      await session.close()
    }
  }
  const badge = (page: Page) => page.getByTestId('conn-state').getAttribute('data-state')
  const charts = (page: Page) =>
    page.evaluate(() =>
      (
        globalThis as unknown as {
          __pcieScopeCharts: () => {
            canvas: string
            axes: Record<string, string>
            ticks: Record<string, string[]>
            tooltipPoints: number
          }[]
        }
      ).__pcieScopeCharts(),
    )

  describe('the page tells the truth', () => {
    it('takes the token out of the address bar; a missing or wrong token says so, not "unreachable"', async () => {
      await onFake({}, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
        expect(page.url()).not.toContain('token')
        expect(await page.getByTestId('hostside-card').isVisible()).toBe(false) // endpoint mode: no host side
        expect(await page.getByTestId('source').textContent()).toMatch(/^twin · BAR endpoint · /)
        await page.reload() // the token survives a reload of the same tab
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')

        const origin = new URL(server.url).origin
        const wrong = await browser.newPage()
        await wrong.goto(`${origin}/?token=not-the-token`)
        await expect.poll(() => badge(wrong), { timeout: 10_000 }).toBe('token-wrong')
        expect(await wrong.getByTestId('banner').isVisible()).toBe(true)
        expect(await wrong.getByTestId('banner').textContent()).toMatch(/refused this token.*printed/)
        // the run card names the cause, not a missing runner
        await expect.poll(() => wrong.getByTestId('runner-kind').textContent(), { timeout: 5_000 }).toMatch(/token/)
        await wrong.close()

        const none = await browser.newPage()
        await none.goto(`${origin}/`)
        await expect.poll(() => badge(none), { timeout: 10_000 }).toBe('token-missing')
        expect(await none.getByTestId('conn-state').textContent()).toBe('no token')
        await none.close()
      })
    })

    it('stopped, paused and stale look different from live; no rate is shown and no line drawn across the gap', async () => {
      await onFake({ runDelayMs: 100 }, async (page, server, session) => {
        await page.goto(server.url)
        await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 20_000 }).toBeGreaterThan(2)
        expect(await page.getByTestId('rate-mrd').textContent()).not.toBe('–')

        await page.getByTestId('btn-stop').click()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('stopped')
        expect(await page.getByTestId('rate-mrd').textContent()).toBe('–')
        expect(await page.getByTestId('rate-bytes').textContent()).toBe('–')
        await page.getByTestId('btn-start').click()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
        await expect.poll(async () => (await hook(page)).gaps, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)

        // paused: the view freezes while data keeps arriving, and catches up on Resume
        await page.getByTestId('btn-pause').click()
        await expect.poll(() => badge(page), { timeout: 5_000 }).toBe('paused')
        const frozen = await shownTotal(page)
        await expect.poll(async () => (await hook(page)).total, { timeout: 20_000 }).toBeGreaterThan(frozen)
        expect(await shownTotal(page)).toBe(frozen)
        await page.getByTestId('btn-pause').click()
        await expect.poll(() => shownTotal(page), { timeout: 5_000 }).toBeGreaterThan(frozen)

        // a device that stops talking without a STOP is stale
        session.client.stall()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('stale')
        expect(await page.getByTestId('conn-state').textContent()).toMatch(/^stale: no snapshot for \d+ s$/)
      })
    })

    it('marks each demo run with its pattern on the time axis', async () => {
      await onFake({ runDelayMs: 200 }, async (page, server) => {
        await page.goto(server.url)
        await expect
          .poll(async () => (await hook(page)).marks.map((m) => m.label), { timeout: 20_000 })
          .toEqual(expect.arrayContaining(['strided', 'merged-aligned', 'merged-misaligned +32']))
        expect((await hook(page)).marks.every((m) => m.origin === 'demo')).toBe(true)
        await expect.poll(() => page.getByTestId('demo-state').textContent(), { timeout: 5_000 }).toMatch(/^demo loop: \d+ runs/)
        // the server dies: its last word about the demo loop ("now: …") goes with it
        await server.close()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('unreachable')
        await expect.poll(() => page.getByTestId('demo-state').textContent(), { timeout: 5_000 }).toBe('')
      })
    })

    it('shows the histogram of the current run, or the total since clear', async () => {
      await onFake({ demo: false }, async (page, server) => {
        await page.goto(server.url)
        // nothing counted yet: the charts say so, and show no invented axes: no value ticks ("900 m",
        // "0.0" …), no time ticks ("1000000.0 µs")
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('stopped')
        await expect
          .poll(async () =>
            (await charts(page)).filter((c) => c.canvas !== 'size-histogram').map((c) => [c.canvas, Object.values(c.ticks).flat()]),
          )
          .toEqual([
            ['rate-chart', []],
            ['inflight-chart', []],
            ['latency-chart', []],
            ['gpu-rate-chart', []],
            ['gpu-size-chart', []],
          ])
        await page.getByTestId('btn-start').click()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
        for (const pattern of ['strided', 'merged-aligned']) {
          await page.getByTestId('run-pattern').selectOption(pattern)
          await page.getByTestId('run-button').click()
          await expect
            .poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 10_000 })
            .toContain(`(manual) ${pattern}`)
        }
        await expect.poll(async () => (await hook(page)).histogram.filter((n) => n > 0).length, { timeout: 10_000 }).toBe(2)
        expect(await page.getByTestId('hist-caption').textContent()).toBe('since last clear')
        await page.getByTestId('hist-mode').selectOption('run')
        // the fake runner issues one size per run: the last run alone has one bar, the 128-B one
        await expect
          .poll(async () => (await hook(page)).histogram, { timeout: 10_000 })
          .toEqual(SIZE_CLASSES.map((c) => (c.bytes === 128 ? 8192 : 0)))
        // the caption is rendered with the next frame, not with the histogram data the hook reads
        await expect.poll(async () => page.getByTestId('hist-caption').textContent(), { timeout: 5_000 }).toBe('run #2 merged-aligned')
      })
    })

    it('titles every axis with its unit and shows values on hover', async () => {
      await onFake({}, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 20_000 }).toBeGreaterThan(3)
        const byCanvas = Object.fromEntries((await charts(page)).map((c) => [c.canvas, c]))
        expect(byCanvas['rate-chart']?.axes).toEqual({
          x: expect.stringMatching(/probe time \((s|ms|µs)\)/),
          y: 'MRd requests per second',
          y1: 'completed payload, bytes per second',
        })
        expect(byCanvas['size-histogram']?.axes).toEqual({ x: expect.stringMatching(/requested bytes/), y: 'requests (count)' })
        // one unit per axis, every tick its own label, no milli of a request
        for (const c of ['rate-chart', 'inflight-chart'])
          for (const [axis, labels] of Object.entries(byCanvas[c]!.ticks)) {
            // an axis whose lines have no point yet shows no ticks at all
            if (c === 'rate-chart') expect(labels.length, `${c} ${axis}`).toBeGreaterThan(1)
            expect(new Set(labels).size, `${c} ${axis}: ${labels.join(', ')}`).toBe(labels.length)
            expect(labels.join(' '), `${c} ${axis}`).not.toMatch(/\d m\b|[µm]s/)
          }
        // the sampler is off on this server: the page says how a user of npm start turns it on
        expect(await page.getByTestId('inflight-interval').textContent()).toMatch(/npm start -- --sample-us 10/)
        await page.getByTestId('btn-pause').click() // hold the picture still under the mouse
        const box = await page.getByTestId('rate-chart').boundingBox()
        expect(box).not.toBeNull()
        await page.mouse.move(box!.x + box!.width * 0.6, box!.y + box!.height * 0.5)
        await expect
          .poll(async () => (await charts(page)).find((c) => c.canvas === 'rate-chart')?.tooltipPoints, { timeout: 5_000 })
          .toBeGreaterThan(0)
      })
    })

    it('lists the recordings, this session marked, and downloads one as CSV', async () => {
      const root = mkdtempSync(join(tmpdir(), 'ps-e2e-captures-'))
      try {
        await onFake({ recordings: { dir: root, record: true } }, async (page, server) => {
          await page.goto(server.url)
          await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
          await expect.poll(async () => (await hook(page)).runBoxHistory.length, { timeout: 10_000 }).toBeGreaterThan(0)
          await page.getByTestId('btn-recordings').click()
          const rowText = async () => (await page.locator('[data-testid^="recording-"]').first().textContent()) ?? ''
          await expect.poll(rowText, { timeout: 10_000 }).toMatch(/\(this session\)recording/)
          const name = ((await page.locator('[data-testid^="recording-"]').first().getAttribute('data-testid')) ?? '').slice(
            'recording-'.length,
          )
          const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`download-${name}-csv`).click()])
          expect(download.suggestedFilename()).toBe(`${name}.csv`)
          const csv = readFileSync((await download.path())!, 'utf8')
          expect(csv.split('\n')[0]).toMatch(/^time_s,CYCLES,TIMESTAMP,/)
          expect(csv.trim().split('\n').length).toBeGreaterThan(1)
        })
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })

    it('records on demand: Record starts a capture of the live stream, Stop recording closes it', async () => {
      const root = mkdtempSync(join(tmpdir(), 'ps-e2e-captures-'))
      try {
        await onFake({ recordings: { dir: root, record: false } }, async (page, server) => {
          await page.goto(server.url)
          await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
          const button = page.getByTestId('btn-record')
          await expect.poll(() => button.textContent(), { timeout: 10_000 }).toBe('Record')
          expect(await page.locator('[data-testid^="recording-"]').count()).toBe(0)
          await button.click()
          await expect.poll(() => button.textContent(), { timeout: 10_000 }).toBe('Stop recording')
          const first = page.locator('[data-testid^="recording-"]').first()
          await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 10_000 }).toMatch(/\(this session\)recording/)
          const name = ((await first.getAttribute('data-testid')) ?? '').slice('recording-'.length)
          // the demo loop streams into it while it records
          await expect.poll(async () => (await describeRecording(join(root, name))).byType.snapshot, { timeout: 10_000 }).toBeGreaterThan(0)
          await button.click()
          await expect.poll(() => button.textContent(), { timeout: 10_000 }).toBe('Record')
          await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 10_000 }).toMatch(new RegExp(`^${name}complete`))
          expect((await describeRecording(join(root, name))).status).toBe('complete')
        })
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })

    it('takes the form from the spec, and demo results never overwrite a pending run', async () => {
      await onFake({ runDelayMs: 500 }, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
        await expect.poll(async () => (await hook(page)).runBoxHistory.length, { timeout: 10_000 }).toBeGreaterThan(0)
        const pattern = page.getByTestId('run-pattern')
        expect(await pattern.locator('option').allTextContents()).toEqual([...PATTERNS, ...GRAPH_KERNELS])
        await pattern.selectOption('merged-misaligned')
        expect(await page.getByTestId('run-offset').inputValue()).toBe('32') // the spec's default, not 0
        await pattern.selectOption('merged-aligned')
        expect(await page.getByTestId('run-offset').inputValue()).toBe('0')
        expect(await page.getByTestId('run-bytes').getAttribute('step')).toBe('4')

        await pattern.selectOption('merged-misaligned')
        const before = (await hook(page)).runBoxHistory.length
        await page.getByTestId('run-button').click()
        await expect
          .poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 20_000 })
          .toMatch(/\(manual\) merged-misaligned, 1,048,576 B @ \+32/)
        // demo results may land between reading `before` and the click; from the moment the box
        // says the run is pending until the manual result, no demo result may replace it
        const seen = (await hook(page)).runBoxHistory.slice(before)
        expect(seen).toContain('running merged-misaligned…')
        const pending = seen.indexOf('running merged-misaligned…')
        const manual = seen.findIndex((t) => t.includes('(manual)'))
        expect(manual).toBeGreaterThan(pending)
        expect(seen.slice(pending, manual).filter((t) => t.includes('(demo)'))).toEqual([])
        // the manual result stays while demo runs go on, and the run list has it
        const id = Number(/#(\d+) \(manual\)/.exec((await page.getByTestId('run-result').textContent()) ?? '')?.[1])
        await expect.poll(async () => (await hook(page)).lastRun?.id ?? 0, { timeout: 20_000 }).toBeGreaterThan(id)
        expect((await hook(page)).lastRun?.origin).toBe('demo')
        expect(await page.getByTestId('run-result').textContent()).toMatch(/\(manual\) merged-misaligned/)
        await expect
          .poll(async () => (await page.getByTestId(`run-history-${id}`).textContent()) ?? '', { timeout: 5_000 })
          .toMatch(/merged-misaligned \+32/)
        await page.getByTestId('run-dismiss').click()
        await expect.poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 10_000 }).toMatch(/\(demo\)/)
      })
    })

    it('runs a graph kernel from the form: the graph picker replaces bytes and offset, the box shows the graph', async () => {
      await onFake({ demo: false }, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(() => page.getByTestId('run-source').locator('option').allTextContents(), { timeout: 10_000 }).toEqual(['twin'])
        await page.getByTestId('run-pattern').selectOption('bfs-aligned')
        expect(await page.getByTestId('run-bytes').isVisible()).toBe(false)
        expect(await page.getByTestId('run-graph-scale').isVisible()).toBe(true)
        const scales = await page
          .getByTestId('run-graph-scale')
          .locator('option')
          .evaluateAll((os) => os.map((o) => o.getAttribute('value')))
        expect(scales.at(-1)).toBe(String(GRAPH_SCALE.serverMax)) // nothing the server would refuse
        await page.getByTestId('run-graph-generator').selectOption('urand')
        await page.getByTestId('run-graph-scale').selectOption('10')
        await page.getByTestId('run-graph-id-bytes').selectOption('4')
        await page.getByTestId('run-button').click()
        await expect
          .poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 20_000 })
          .toMatch(/\(manual\) bfs-aligned on urand:10.*urand:10: 1,024 vertices, 1,000 directed edges, 4-B ids.*3 kernel launches/s)
        await page.getByTestId('run-pattern').selectOption('strided')
        expect(await page.getByTestId('run-bytes').isVisible()).toBe(true)
        expect(await page.getByTestId('run-graph-scale').isVisible()).toBe(false)
      })
    })

    it('in switch mode shows the host side next to the GPU side, 8 ns apart (the switch’s 2 clocks)', async () => {
      await onFake({ switchMode: true }, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(() => page.getByTestId('hostside-card').isVisible(), { timeout: 10_000 }).toBe(true)
        await expect.poll(() => page.getByTestId('hostside-traversal').textContent(), { timeout: 10_000 }).toBe('8.0 ns')
        expect(await page.getByTestId('hostside-mean-gpu').textContent()).toBe('1008.0 ns')
        expect(await page.getByTestId('hostside-mean-host').textContent()).toBe('1000.0 ns')
        expect(await page.getByTestId('hostside-mean-diff').textContent()).toBe('+8.0 ns (2.0 clocks)')
        // the histograms come once a second: p50 and p99 of both sides
        await expect.poll(() => page.getByTestId('hostside-p99-host').textContent(), { timeout: 10_000 }).toMatch(/^\d+ ns$/)
        expect(await page.getByTestId('hostside-outstanding-gpu').textContent()).toBe('40.0')
        // no BAR responder in this design: the header, the link table and the counters say what counts here
        expect(await page.getByTestId('source').textContent()).toMatch(/^twin · switch between GPU and host · /)
        expect(await page.getByTestId('bar-ur').textContent()).toMatch(/^Unsupported Request completions to the GPU \(host or switch\)/)
        expect(await page.getByTestId('counters-table').textContent()).not.toMatch(/BAR responder/)
        // GPU minus host latency is the time in the switch (its traversal and any wait there), not the traversal alone
        expect(await page.locator('#hostside-card .card-head').textContent()).toMatch(/in the switch/)
        expect(await page.getByTestId('hostside-card').textContent()).not.toMatch(/BAR|responder|traversal \d/)
        await page.screenshot({ path: join(shots, 'ui-host-side.png'), fullPage: true })
      })
    })

    it('offers the GPU in the run form only when the server has one, and shows what it measured', async () => {
      await onFake({ demo: false }, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(() => page.getByTestId('run-source').locator('option').allTextContents()).toEqual(['twin'])
        expect(await page.getByTestId('run-sources-note').textContent()).toBe('no GPU runs: GPU runs are turned off for this server')
      })
      const addon = makeFakeAddon()
      await onFake({ demo: false, gpu: { load: () => addon } }, async (page, server) => {
        await page.goto(server.url)
        const source = page.getByTestId('run-source')
        await expect.poll(() => source.locator('option').allTextContents()).toEqual(['twin', 'GPU'])
        await source.selectOption('gpu')
        await page.getByTestId('run-button').click()
        await expect
          .poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 20_000 })
          .toMatch(/Fake H200 \(PCIe gen5 x16\).*50\.00 \/ 55\.00 GB\/s/s)
        expect(addon.runs).toHaveLength(1)
      })
    })

    it("draws the GPU's own counters over GPU time, a GPU run shaded and named on them", async () => {
      let release: () => void = () => {}
      const later = new Promise<void>((r) => (release = r))
      const addon = makeFakeAddon({ counters: { events: fixtureEvents('h200-merged-aligned-100us.csv', 100), later } })
      const gpuCounters = { load: () => addon, device: 0, intervalUs: 100, windowNs: 10e6 }
      await onFake({ demo: false, gpu: { load: () => addon }, gpuCounters }, async (page, server) => {
        await page.goto(server.url)
        const card = page.getByTestId('gpu-counters-card')
        await expect.poll(() => card.isVisible(), { timeout: 20_000 }).toBe(true)
        expect(await page.getByTestId('gpu-counters-source').textContent()).toBe('PM sampling')
        await page.getByTestId('run-source').selectOption('gpu')
        await page.getByTestId('run-button').click()
        await expect.poll(async () => (await hook(page)).gpuMarks.length, { timeout: 20_000 }).toBe(1)
        // the run is on the GPU: no band on the probe's time axis names it
        expect((await hook(page)).marks).toEqual([])
        release()
        await expect.poll(async () => (await hook(page)).gpuPoints, { timeout: 20_000 }).toBe(5)
        const [band] = (await hook(page)).gpuMarks
        expect(band?.label).toMatch(/ on the GPU$/)
        expect(band?.to).toBeGreaterThan(band?.from ?? Infinity)
        const drawn = (await charts(page)).filter((c) => c.canvas.startsWith('gpu-'))
        expect(drawn.map((c) => c.canvas).sort()).toEqual(['gpu-rate-chart', 'gpu-size-chart'])
        for (const c of drawn) expect(c.axes['x']).toMatch(/^GPU time \((s|ms)\)/)
        expect(await page.getByTestId('gpu-mean-request').textContent()).toMatch(/^mean request12\d\.\d B$/)
        await card.screenshot({ path: join(shots, 'gpu-counters.png') })
      })
    })
  })
})
