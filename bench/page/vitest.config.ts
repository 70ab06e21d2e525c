// The page's timing benches (bench/page-timing.mjs): Chromium on the fake session, as the e2e
// tests run it, but measured here rather than in `npm test`
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['bench/page/*.timing.ts'],
    onConsoleLog: () => false,
    // one file at a time: each times work in the page, which a second browser would slow
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
})
