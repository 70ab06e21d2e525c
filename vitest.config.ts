import { defineConfig } from 'vitest/config'

// Three projects: fast unit tests, integration tests that build and run HDL, firmware and the
// twin as child processes, and end-to-end tests (CLI captures, server + browser).
export default defineConfig({
  test: {
    onConsoleLog: () => false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/**/*.{int,e2e}.test.ts'] } },
      { extends: true, test: { name: 'int', include: ['test/**/*.int.test.ts'], testTimeout: 240_000, hookTimeout: 240_000, fileParallelism: false } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.e2e.test.ts'], testTimeout: 120_000, hookTimeout: 240_000, fileParallelism: false } },
    ],
  },
})
