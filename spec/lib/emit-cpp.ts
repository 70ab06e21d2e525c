/**
 * C++ header for native/model and the twin: the pattern enum and name table, default offsets,
 * workload limits and usage text, and the size classes. The index arithmetic of each pattern
 * stays hand-written in native/model/patterns.h, in switches the compiler checks for coverage.
 */
import type { SpecModel } from './model.js'
import { banner } from './text.js'

export function emitCpp(m: SpecModel): string {
  const w = m.raw.workloads
  const { bytes, offset, chunkBytes } = w.limits
  const exact = m.sizeClasses.filter((s) => s.bytes !== null)
  const names = w.patterns.map((p) => p.name).join(', ')
  const L: string[] = [banner('//'), '#ifndef PCIE_SCOPE_MODEL_GENERATED_WORKLOADS_H', '#define PCIE_SCOPE_MODEL_GENERATED_WORKLOADS_H', '']
  L.push('#include <stdint.h>', '', 'namespace ps {', '')
  L.push(`constexpr uint32_t kSpecLineBytes = ${w.lineBytes};`, '')
  L.push('// Access patterns, in spec order (the id is the enum value).')
  L.push(`enum class Pattern : uint8_t { ${w.patterns.map((p) => `${p.enum} = ${p.id}`).join(', ')} };`)
  L.push(`constexpr uint32_t kPatternCount = ${w.patterns.length};`)
  L.push(
    'struct PatternInfo {',
    '    Pattern pattern;',
    '    const char *name;',
    '    uint32_t default_offset;',
    '    const char *doc;',
    '};',
  )
  L.push('constexpr PatternInfo kPatterns[kPatternCount] = {')
  for (const p of w.patterns) L.push(`    {Pattern::${p.enum}, "${p.name}", ${p.defaultOffset}, "${p.doc.replace(/"/g, '\\"')}"},`)
  L.push('};')
  L.push(`// "${names}": for usage text and error messages`)
  L.push(`constexpr const char *kPatternNameList = "${names}";`, '')
  L.push(`// Workload limits: ${bytes.doc}; ${offset.doc}.`)
  L.push(`constexpr uint64_t kWorkloadBytesMin = ${bytes.min}ull;`)
  L.push(`constexpr uint64_t kWorkloadBytesMax = ${bytes.max}ull;`)
  L.push(`constexpr uint64_t kWorkloadBytesMultiple = ${bytes.multipleOf}ull;`)
  L.push(`constexpr uint32_t kWorkloadOffsetMin = ${offset.min}u;`)
  L.push(`constexpr uint32_t kWorkloadOffsetMax = ${offset.max}u;`)
  L.push(`constexpr uint32_t kWorkloadOffsetMultiple = ${offset.multipleOf}u;`)
  L.push(`constexpr const char *kWorkloadBytesRule = "a multiple of ${bytes.multipleOf} in ${bytes.min}..${bytes.max}";`)
  L.push(`constexpr const char *kWorkloadOffsetRule = "a multiple of ${offset.multipleOf} in ${offset.min}..${offset.max}";`, '')
  L.push(`// ${chunkBytes.doc}.`)
  L.push(`constexpr uint64_t kChunkBytesMin = ${chunkBytes.min}ull;`)
  L.push(`constexpr uint64_t kChunkBytesMax = ${chunkBytes.max}ull;`)
  L.push(`constexpr uint64_t kChunkBytesMultiple = ${chunkBytes.multipleOf}ull;`)
  L.push(`constexpr uint64_t kChunkBytesDefault = ${chunkBytes.default}ull;`)
  L.push(`constexpr const char *kChunkBytesRule = "a multiple of ${chunkBytes.multipleOf} in ${chunkBytes.min}..${chunkBytes.max}";`, '')
  const eb = w.elementBytes
  L.push(`// Lane load widths: ${eb.doc}.`)
  L.push(`constexpr int kElementBytesCount = ${eb.values.length};`)
  L.push(`constexpr uint32_t kElementBytesValues[kElementBytesCount] = {${eb.values.join(', ')}};`)
  L.push(`constexpr uint32_t kElementBytesDefault = ${eb.default};`)
  L.push(`constexpr uint32_t kElementBytesMax = ${Math.max(...eb.values)};`)
  L.push(`constexpr const char *kElementBytesRule = "one of ${eb.values.join(', ')}";`, '')
  L.push(`// L1 use of the loads: ${w.l1.doc}.`)
  L.push(`enum class L1Load : uint8_t { ${w.l1.values.map((v) => `${v.enum} = ${v.id}`).join(', ')} };`)
  L.push(`constexpr uint32_t kL1LoadCount = ${w.l1.values.length};`)
  L.push('struct L1LoadInfo {', '    L1Load load;', '    const char *name;', '    const char *doc;', '};')
  L.push('constexpr L1LoadInfo kL1Loads[kL1LoadCount] = {')
  for (const v of w.l1.values) L.push(`    {L1Load::${v.enum}, "${v.name}", "${v.doc.replace(/"/g, '\\"')}"},`)
  L.push('};')
  L.push(`constexpr L1Load kL1LoadDefault = L1Load::${w.l1.values.find((v) => v.name === w.l1.default)?.enum ?? ''};`)
  L.push(`constexpr const char *kL1LoadNameList = "${w.l1.values.map((v) => v.name).join(', ')}";`, '')
  const g = w.graphs
  L.push(`// Graph traversal kernels: ${g.doc}.`)
  L.push(`enum class GraphKernel : uint8_t { ${g.kernels.map((k) => `${k.enum} = ${k.id}`).join(', ')} };`)
  L.push(`constexpr uint32_t kGraphKernelCount = ${g.kernels.length};`)
  L.push(
    'struct GraphKernelInfo {',
    '    GraphKernel kernel;',
    '    const char *name;',
    '    uint32_t lanes_per_vertex;',
    '    const char *doc;',
    '};',
  )
  L.push('constexpr GraphKernelInfo kGraphKernels[kGraphKernelCount] = {')
  for (const k of g.kernels) L.push(`    {GraphKernel::${k.enum}, "${k.name}", ${k.lanesPerVertex}, "${k.doc.replace(/"/g, '\\"')}"},`)
  L.push('};')
  L.push(`constexpr const char *kGraphKernelNameList = "${g.kernels.map((k) => k.name).join(', ')}";`)
  L.push(`// Generated graphs (graph.h): 2^S vertices, S ${g.scale.min}..${g.scale.max}.`)
  L.push(`constexpr uint32_t kGraphScaleMax = ${g.scale.max};`)
  L.push(`constexpr uint32_t kGraphEdgeFactor = ${g.edgeFactor}; // edge tuples per vertex a generator draws`)
  L.push(`// Vertex id widths: ${g.idBytes.doc}.`)
  L.push(`constexpr uint32_t kGraphIdBytesValues[${g.idBytes.values.length}] = {${g.idBytes.values.join(', ')}};`)
  L.push(`constexpr uint32_t kGraphIdBytesDefault = ${g.idBytes.default};`)
  L.push(`// PageRank: ${g.pagerank.doc}.`)
  L.push(`constexpr uint32_t kPageRankIterations = ${g.pagerank.iterations};`)
  L.push(`constexpr double kPageRankDamping = ${g.pagerank.damping};`)
  L.push(`constexpr double kPageRankTolerance = ${g.pagerank.tolerance};`, '')
  const gp = w.gpus
  L.push(`// GPUs of the scheduled model: ${gp.doc}.`)
  L.push(`constexpr uint32_t kGpuBlockThreads = ${gp.blockThreads}; // threads per block of every CUDA kernel`)
  L.push(`constexpr uint32_t kGpuMinBlocksPerSm = ${gp.minBlocksPerSm}; // __launch_bounds__ of the micro kernels`)
  L.push(`constexpr uint32_t kGpuCount = ${gp.values.length};`)
  L.push(
    'struct GpuInfo {',
    '    const char *name;',
    '    uint32_t sm_count;',
    '    uint32_t l1_bytes; // per SM, beside the shared-memory carveout',
    '    uint32_t max_blocks_per_sm;',
    '    uint32_t max_warps_per_sm;',
    '    bool l1_random; // l1Policy random (else lru)',
    '    uint32_t merge_window; // load instructions of one warp a partial-line read merges across',
    "    const char *host_link; // the bandwidth model's host (gpus.values[].host)",
    '    uint32_t host_tags;',
    '    double idle_round_trip_ns, round_trip_spread_ns, reads_per_us, wire_efficiency;',
    '    double combine_exponent, step_ns, thread_step_ns, launch_us;',
    '    const char *doc;',
    '};',
  )
  L.push('constexpr GpuInfo kGpus[kGpuCount] = {')
  for (const v of gp.values) {
    const h = v.host
    L.push(
      `    {"${v.name}", ${v.smCount}, ${v.l1Bytes}, ${v.maxBlocksPerSm}, ${v.maxWarpsPerSm}, ${v.l1Policy === 'random'}, ${v.mergeWindow}, "${h.link}", ${h.tags}, ${h.idleRoundTripNs}, ${h.roundTripSpreadNs}, ${h.readsPerUs}, ${h.wireEfficiency}, ${h.combineExponent}, ${h.stepNs}, ${h.threadStepNs}, ${h.launchUs}, "${v.doc.replace(/"/g, '\\"')}"},`,
    )
  }
  L.push('};')
  L.push(`constexpr uint32_t kGpuDefault = ${gp.values.findIndex((v) => v.name === gp.default)}; // index into kGpus`)
  L.push(`constexpr const char *kGpuNameList = "${gp.values.map((v) => v.name).join(', ')}";`, '')
  L.push('// MRd size classes: exact sizes in class order; class kSizeClassCount - 1 is every other size.')
  L.push(`constexpr int kSizeClassCount = ${m.sizeClasses.length};`)
  L.push(`constexpr uint32_t kSizeClassExactBytes[kSizeClassCount - 1] = {${exact.map((s) => String(s.bytes)).join(', ')}};`)
  L.push(`constexpr const char *kSizeClassKeys[kSizeClassCount] = {${m.sizeClasses.map((s) => `"${s.key}"`).join(', ')}};`, '')
  L.push('// Class of a read of `len` requested bytes.')
  L.push('inline int size_class_of(uint32_t len) {')
  L.push('    for (int k = 0; k < kSizeClassCount - 1; ++k) {')
  L.push('        if (kSizeClassExactBytes[k] == len) return k;')
  L.push('    }')
  L.push('    return kSizeClassCount - 1;')
  L.push('}', '', '}  // namespace ps', '', '#endif', '')
  return L.join('\n')
}
