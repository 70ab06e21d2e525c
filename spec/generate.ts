/**
 * Generates every language's view of spec/*.json (validated first, see spec/lib/model.ts):
 *   hdl/rtl/generated/pcie_scope_regs.vh             Verilog `defines
 *   firmware/include/generated/pcie_scope_regs.h      C: registers, counters, size classes
 *   firmware/include/generated/pcie_scope_protocol.h  C: frames and commands
 *   native/model/generated/workloads.h                C++: patterns, limits, size classes
 *   host/src/core/generated.ts                        TypeScript: all of the above
 *   host/src/core/generated-decode.ts                 TypeScript: the snapshot's counter reader
 *   wireshark/pcie_scope.lua                          Lua: the Wireshark dissector of the frames
 *   native/twin/generated/twin_options.h              C++: the twin's options (spec/twin.json)
 * `--check` compares instead of writing and exits 1 when a file is stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emitCProtocol, emitCRegs } from './lib/emit-c.js'
import { emitCpp } from './lib/emit-cpp.js'
import { emitTs } from './lib/emit-ts.js'
import { emitTsDecode } from './lib/emit-ts-decode.js'
import { emitLua } from './lib/emit-lua.js'
import { emitVerilog } from './lib/emit-verilog.js'
import { buildModel, readRawSpec, SpecError } from './lib/model.js'
import { buildTwinModel, emitTwinCpp, emitTwinTs, readTwinSpec } from './lib/twin.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export const generatedFiles = (specRoot = root): Record<string, string> => {
  const m = buildModel(readRawSpec(specRoot))
  const twin = buildTwinModel(readTwinSpec(specRoot), m.raw.workloads)
  return {
    'hdl/rtl/generated/pcie_scope_regs.vh': emitVerilog(m),
    'firmware/include/generated/pcie_scope_regs.h': emitCRegs(m),
    'firmware/include/generated/pcie_scope_protocol.h': emitCProtocol(m),
    'native/model/generated/workloads.h': emitCpp(m),
    // the twin's options: a section of their own after the rest
    'host/src/core/generated.ts': emitTs(m) + emitTwinTs(twin),
    'host/src/core/generated-decode.ts': emitTsDecode(m),
    'wireshark/pcie_scope.lua': emitLua(m),
    'native/twin/generated/twin_options.h': emitTwinCpp(twin),
  }
}

function main(): number {
  let outputs: Record<string, string>
  try {
    outputs = generatedFiles()
  } catch (e) {
    if (e instanceof SpecError) {
      console.error(e.message)
      return 1
    }
    throw e
  }
  const check = process.argv.includes('--check')
  let stale = 0
  for (const [rel, text] of Object.entries(outputs)) {
    const path = join(root, rel)
    let current: string | undefined
    try {
      current = readFileSync(path, 'utf8')
    } catch {
      current = undefined
    }
    if (current === text) continue
    if (check) {
      stale++
      console.error(`stale: ${rel} (run \`npm run gen\`)`)
    } else {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, text)
      console.log(`wrote ${rel}`)
    }
  }
  if (check) console.log(stale ? `${stale} generated file(s) stale` : `${Object.keys(outputs).length} generated files fresh`)
  return check && stale ? 1 : 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main())
