// The CLI in process, its output captured: what the CLI tests run a command line through.
import { main } from '../../../host/src/cli/main.js'
import type { CliIo } from '../../../host/src/cli/io.js'

export const runCli = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), untilSignal: async () => 'SIGTERM' }
  const code = await main(['node', 'pcie-scope', ...args], io)
  return { code, stdout, stderr }
}
