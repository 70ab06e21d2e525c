/**
 * What the page's browser tests share: the test build of the page (scripts/build-web.mjs --test),
 * Debian's Chromium through playwright-core, a server on the fake session of the server's unit
 * tests, and the hooks the test build exposes (web/test-entry.ts).
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { startServer, type RunningServer, type StartServerOptions } from '../../host/src/server/index.js'
import type { TestHook } from '../../web/test-hook.js'
import type { UpdateTiming } from '../../web/update-timing.js'
import { fakeSession } from '../host/server/fake-session.js'

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function buildTestPage(outdir: string): Promise<void> {
  await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs'), '--test', '--outdir', outdir], { cwd: root })
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: run \`npm test\` (it installs it) or set CHROMIUM_PATH`)
  return chromium.launch({
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
}

export interface FakeServerOptions {
  demo?: boolean
  runDelayMs?: number
  switchMode?: boolean
  sampleUs?: number
  recordings?: { dir: string; record: boolean; frames?: boolean }
  viewport?: { width: number; height: number }
}

/** A server on the fake session and a page on it; the page must raise no error. */
export async function onFakeServer(
  browser: Browser,
  webRoot: string,
  opts: FakeServerOptions,
  body: (page: Page, server: RunningServer, session: ReturnType<typeof fakeSession>) => Promise<void>,
): Promise<void> {
  const session = fakeSession({ runDelayMs: opts.runDelayMs ?? 150, switchMode: opts.switchMode ?? false })
  const server = await startServer({
    twin: true,
    demo: opts.demo ?? true,
    http: { host: '127.0.0.1', port: 0 },
    session,
    webRoot,
    gpu: false,
    ...(opts.sampleUs ? { sampleUs: opts.sampleUs } : {}),
    ...(opts.recordings ? { recordings: opts.recordings } : {}),
  } as StartServerOptions)
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1440, height: 900 } })
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

export const hook = (page: Page): Promise<TestHook> => page.evaluate(() => (globalThis as unknown as { __pcieScope: TestHook }).__pcieScope)

export interface ChartSummary {
  canvas: string
  axes: Record<string, string>
  ticks: Record<string, string[]>
  tooltipPoints: number
  xRange: { min: number; max: number }
  runLabels: { id: number; text: string; full: boolean }[]
}

export const charts = (page: Page): Promise<ChartSummary[]> =>
  page.evaluate(() => (globalThis as unknown as { __pcieScopeCharts: () => ChartSummary[] }).__pcieScopeCharts())

export const chartOf = async (page: Page, canvas: string): Promise<ChartSummary> => (await charts(page)).find((c) => c.canvas === canvas)!

export const updateTimings = (page: Page): Promise<Record<string, UpdateTiming>> =>
  page.evaluate(() =>
    (globalThis as unknown as { __pcieScopeUpdateTimings: () => Record<string, UpdateTiming> }).__pcieScopeUpdateTimings(),
  )

/** POST to the server's API with its token (the URL it printed carries it). */
export async function apiPost(server: RunningServer, path: string, body: unknown): Promise<Response> {
  const url = new URL(server.url)
  const token = url.searchParams.get('token') ?? ''
  return fetch(`${url.origin}/api/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}
