// The CLI in process, its output captured: what the CLI tests run a command line through.
import { main } from '../../../host/src/cli/main.js'
import type { CliDeps, CliIo } from '../../../host/src/cli/io.js'
import type { DeviceSession } from '../../../host/src/device/session.js'
import { makeFakeAddon, type FakeAddon, type FakeAddonOptions } from '../workload/fake-addon.js'

export const runCli = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), untilSignal: async () => 'SIGTERM' }
  const code = await main(['node', 'pcie-scope', ...args], io)
  return { code, stdout, stderr }
}

const noSession = async (): Promise<DeviceSession> => {
  throw new Error('no session expected')
}

/** The CLI in process on a fake addon (GPU runs, GPU counters), with no device session. */
export const runCliWithAddon = async (
  args: string[],
  o: FakeAddonOptions,
): Promise<{ code: number; stdout: string; stderr: string; addon: FakeAddon }> => {
  let stdout = ''
  let stderr = ''
  const addon = makeFakeAddon(o)
  const deps: Partial<CliDeps> = { loadAddon: () => addon, openSession: noSession }
  const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) }
  const code = await main(['node', 'pcie-scope', ...args], io, deps)
  return { code, stdout, stderr, addon }
}
