// pcie-scope-model --warp-table: what one warp's loads touch, for the page's diagrams, computed
// by the model itself (patterns.h, graph_kernels.h, the coalescer), so the page draws the same
// truth the twin and the CUDA kernels run. scripts/gen-warp-table.mjs writes it into
// web/generated/warp-table.ts; test/web/pattern-diagram.int.test.ts checks that file is fresh.
#ifndef PCIE_SCOPE_CUDA_WARP_TABLE_JSON_H
#define PCIE_SCOPE_CUDA_WARP_TABLE_JSON_H

#include <string>

namespace ps {

// {"lineBytes","sectorBytes","warpSize","bytes",
//  "patterns":[{pattern,elementBytes,offset,instructions,first:{lanes,mrds},
//               totals:[{bytes,ideal:{count,bytes,bySize},bypass:{…}}] at bytes and 2 x bytes}],
//               every spec pattern x lane width x offset
//  "graph":{begin,degree,vertices,
//           "kernels":[{kernel,idBytes,instructions,shown:[{load,lanes,mrds}],total:{count,bytes,bySize}}]}}
// lanes: each lane's byte offset from the 128-B aligned base, -1 when inactive; mrds: [offset,
// len].
std::string warp_table_json();

} // namespace ps

#endif
