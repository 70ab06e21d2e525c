import { availableParallelism } from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'
import { compilerCacheEnv } from './scripts/compiler-cache.mjs'

// every C, C++ and CUDA build the tests start (CMake, Verilator) goes through ccache
Object.assign(process.env, compilerCacheEnv(import.meta.dirname))

// The files that take longest (seconds on a 2-core machine, mostly child processes: simulators,
// compilers, linters). They start first, so that the short files fill the other worker while they
// run instead of one long file running alone at the end. Others keep vitest's own order.
const LONG: Record<string, number> = {
  'test/hdl/tracker.int.test.ts': 210,
  'test/hdl/switch.int.test.ts': 160,
  'test/hdl/trace.int.test.ts': 150,
  'test/hdl/sampler.int.test.ts': 130,
  'test/native/cuda/cuda.int.test.ts': 95,
  'test/hdl/hdl.int.test.ts': 85,
  'test/native/model/model.int.test.ts': 65,
  'test/repo/lint.int.test.ts': 55,
  'test/firmware/firmware.int.test.ts': 40,
  'test/typecheck.int.test.ts': 40,
  'test/e2e/browser.e2e.test.ts': 30,
  'test/e2e/lessons.e2e.test.ts': 30,
  'test/hdl/xilinx/adapters.int.test.ts': 30,
  'test/native/cuda/graph-model.int.test.ts': 20,
  'test/e2e/capture.e2e.test.ts': 20,
}

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (f: TestSpecification) => LONG[f.moduleId.slice(import.meta.dirname.length + 1)] ?? 0
    return (await super.sort(files)).sort((a, b) => weight(b) - weight(a))
  }
}

// Three projects: fast unit tests, integration tests that build and run HDL, firmware and the
// twin as child processes, and end-to-end tests (CLI captures, server + browser). They share one
// pool of workers, one a core (at least two: most of an integration test's time is a single-
// threaded child process, a simulator or a linter, that leaves the other core free).
// Coverage (`npm test` turns it on) measures the host's TypeScript; protocol/ and device/ carry
// thresholds because every byte from a board passes through them.
export default defineConfig({
  test: {
    onConsoleLog: () => false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongFirst },
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
      {
        extends: true,
        // testTimeout: a unit test may share the machine with an integration file's compiler
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/**/*.{int,e2e}.test.ts'], testTimeout: 30_000 },
      },
      { extends: true, test: { name: 'int', include: ['test/**/*.int.test.ts'], testTimeout: 240_000, hookTimeout: 240_000 } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.e2e.test.ts'], testTimeout: 120_000, hookTimeout: 240_000 } },
    ],
  },
})
