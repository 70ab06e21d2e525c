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
        // just below what the suite reaches today, so coverage can only go up
        'host/src/protocol/**': { lines: 95, functions: 85, branches: 85, statements: 90 },
        'host/src/device/**': { lines: 85, functions: 75, branches: 65, statements: 80 },
      },
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/**/*.{int,e2e}.test.ts'] } },
      {
        extends: true,
        test: { name: 'int', include: ['test/**/*.int.test.ts'], testTimeout: 240_000, hookTimeout: 240_000, fileParallelism: false },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/**/*.e2e.test.ts'], testTimeout: 120_000, hookTimeout: 240_000, fileParallelism: false },
      },
    ],
  },
})
