/** Where pcie-scope is installed: the folder of its package.json, and its version. */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const readName = (pkg: string): string | undefined => {
  try {
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name
  } catch {
    return undefined
  }
}

let cached: string | undefined

/**
 * Walks up from this module (host/src/util in a checkout, dist/host/util when compiled) to the
 * package.json named pcie-scope, so built files (dist/web, build/twin) are found from any cwd.
 */
export const packageRoot = (): string => {
  if (cached !== undefined) return cached
  const start = dirname(fileURLToPath(import.meta.url))
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg) && readName(pkg) === 'pcie-scope') return (cached = dir)
    if (dirname(dir) === dir) return (cached = join(start, '..', '..', '..'))
  }
}

/** The version in pcie-scope's package.json. */
export const packageVersion = (): string => {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}
