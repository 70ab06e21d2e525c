import { defineConfig } from 'vitest/config'

// Three projects: fast unit tests, integration tests that build and run HDL, firmware and the
// twin as child processes, and end-to-end tests (CLI captures, server + browser).
// Coverage (`npm test` turns it on) measures the host's TypeScript; protocol/ and device/ carry
// thresholds because every byte from a board passes through them.
export default defineConfig({
  test: {
    onConsoleLog: () => false,
    coverage: {
      provider: 'v8',
      include: ['host/src/**/*.ts'],
      exclude: ['host/src/core/generated.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      thresholds: {
        'host/src/protocol/**': { lines: 90, functions: 90, branches: 80, statements: 90 },
        'host/src/device/**': { lines: 80, functions: 80, branches: 70, statements: 80 },
      },
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/**/*.{int,e2e}.test.ts'] } },
      { extends: true, test: { name: 'int', include: ['test/**/*.int.test.ts'], testTimeout: 240_000, hookTimeout: 240_000, fileParallelism: false } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.e2e.test.ts'], testTimeout: 120_000, hookTimeout: 240_000, fileParallelism: false } },
    ],
  },
})
