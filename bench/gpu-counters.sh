#!/usr/bin/env bash
# The GPU's own PCIe counters (native/sampler) on a GPU host, for bench/RESULTS.md "GPU PCIe
# counters": build the sampler, the bench program and the CUDA runner; the chip's PM sampling
# metrics; the idle round trip; each micro kernel sampled (in process, at INTERVAL_US) against
# Nsight Compute's per-kernel pcie__read_bytes / pcie__write_bytes; intervals down to the
# smallest the chip takes, under load; each graph kernel's launches sampled against ncu's
# per-launch counters summed over one run; the sampler's own traffic on an idle GPU; SUSTAIN_S
# seconds at each of SUSTAIN_US (auto: the sweep's smallest without loss); sample fixtures.
# Needs cmake, nvcc, ncu, python3 (the spec's pattern and kernel lists); no Node. Results go to OUT_DIR (default ./gpu-counters-results).
#
# Usage: OUT_DIR=... [STEPS=build,metrics,rtt,kernels,ncu,graph,ncu-graph,sweep,sustain,fixture,addon] \
#        [INTERVAL_US=100] [SUSTAIN_US=100] [SUSTAIN_S=60] [SWEEP_US="1000 100 50 20 10 5"] \
#        [KERNELS="strided:4:ideal ..."] [GRAPHS="kron:20"] [URAND=urand:20] [GRAPH_REPEATS=3] \
#        [NODE=... NODE_MODULES=...] bash bench/gpu-counters.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT_DIR:-gpu-counters-results}
build=${BUILD_DIR:-build/sampler}
steps=",${STEPS:-build,metrics,rtt,kernels,ncu,idle,nvml,sweep,sustain,fixture},"
interval=${INTERVAL_US:-100}
sustain_us=${SUSTAIN_US:-100}
sustain_s=${SUSTAIN_S:-60}
sweep=${SWEEP_US:-1000 100 50 20 10 5}
bytes=$((64 << 20))
mkdir -p "$out"
want() { [[ $steps == *",$1,"* ]]; }
step() { echo "== $*" >&2; }
counters="$build/pcie-scope-gpu-counters"
benchbin="$build/pcie-scope-gpu-counters-bench"
runner="$build/pcie-scope-gpu"
# the spec's lists (spec/workloads.json): patterns, lane widths, graph kernels
spec() { python3 -c "import json, sys; w = json.load(open('spec/workloads.json')); print(' '.join(str(x) for x in $1))"; }
# the micro kernels compared: every pattern x lane width x load kind (KERNELS narrows it)
kernels=${KERNELS:-$(for l in ideal bypass; do for e in $(spec "w['elementBytes']['values']"); do for p in $(spec "[p['name'] for p in w['patterns']]"); do echo -n "$p:$e:$l "; done; done; done)}
# the graph kernels compared (zero-copy edge list): every kernel on each of GRAPHS, BFS on URAND
graphs=${GRAPHS:-kron:20}
graph_kernels=${GRAPH_KERNELS:-$(spec "[k['name'] for k in w['graphs']['kernels']]")}
urand=${URAND:-urand:20}
urand_kernels="bfs-naive bfs-merged bfs-aligned"
# the function of each algorithm that reads host memory (bench/gpu-ncu.mjs HOST_MEMORY_FUNCTIONS)
host_function() { case $1 in bfs-*) echo bfs_level ;; sssp-* | cc-*) echo graph_relax ;; *) echo graph_pull ;; esac; }
# every (graph, kernel) pair, as graph/kernel
graph_pairs() {
  for g in $graphs; do for k in $graph_kernels; do echo "$g/$k"; done; done
  [ -n "$urand" ] && for k in $urand_kernels; do echo "$urand/$k"; done
}

# a background load for `seconds`: the runner over and over (1 GiB merged-aligned zero-copy
# kernels, then as many cudaMemcpy of 1 GiB host to device)
load() {
  local seconds=$1
  timeout "$seconds" bash -c 'while :; do "$0" --pattern merged-aligned --bytes 1073741824 --warmup 0 --repeats 1000; done' \
    "$runner" > /dev/null 2>&1 &
  echo $!
}

if want build; then
  step "GPU, driver, CUDA"
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv | tee "$out/nvidia-smi.csv"
  nvcc --version | tail -1 | tee "$out/nvcc.txt"
  git log -1 --format='%H %cI' 2>/dev/null | tee "$out/commit.txt"
  step "build (native/sampler with the bench program and native/cuda)"
  cmake -S native/sampler -B "$build" -DCMAKE_BUILD_TYPE=Release -DPS_SAMPLER_BUILD_BENCH=ON \
    -DPS_CUDA_ARCHS="${PS_CUDA_ARCHS:-90}" > "$out/cmake.txt" 2>&1 || { tail -30 "$out/cmake.txt"; exit 1; }
  cmake --build "$build" -j "$(nproc)" > "$out/build.txt" 2>&1 || { grep -E "error|Error" "$out/build.txt" | head -30; exit 1; }
  grep "pcie-scope sampler" "$out/cmake.txt"
fi

if want metrics; then
  step "PM sampling metrics on this chip (ncu's pmsampling collection; the sampler's own list)"
  ncu --query-metrics --query-metrics-collection pmsampling --chip "${CHIP:-gh100}" > "$out/ncu-pmsampling-metrics.txt" 2>&1
  grep -i -E "pcie|sysmem" "$out/ncu-pmsampling-metrics.txt" | head -40
  "$counters" --duration 1 --interval-us 1000 | tee "$out/start.jsonl" | head -c 3000; echo
  "$counters" --duration 1 --interval-us 1000 --source nvml | tee "$out/start-nvml.jsonl" | head -c 1500; echo
fi

if want rtt; then
  step "idle round trip of one dependent 4-B host-memory read"
  "$benchbin" --round-trip | tee "$out/round-trip.json"
fi

if want kernels; then
  step "each micro kernel sampled in process at ${interval} us (and unsampled: the slowdown)"
  : > "$out/kernels.jsonl"
  for k in $kernels; do
    IFS=: read -r p e l <<< "$k"
    "$benchbin" --pattern "$p" --element-bytes "$e" --l1 "${l:-ideal}" --bytes $bytes --repeats 10 --interval-us "$interval" | tee -a "$out/kernels.jsonl"
  done
fi

if want ncu; then
  step "Nsight Compute, one launch of each kernel"
  : > "$out/ncu.csv"
  for k in $kernels; do
    IFS=: read -r p e l <<< "$k"
    echo "# $p e$e ${l:-ideal}" >> "$out/ncu.csv"
    ncu --csv --print-units base --metrics pcie__read_bytes.sum,pcie__write_bytes.sum,lts__t_sectors_aperture_sysmem_op_read.sum,lts__t_sectors_aperture_sysmem_op_write.sum,gpu__time_duration.sum \
      --kernel-name regex:zc_read --launch-count 1 "$runner" --pattern "$p" --element-bytes "$e" --l1 "${l:-ideal}" --bytes $bytes \
      --warmup 0 --repeats 1 2>&1 | grep -E '^"' >> "$out/ncu.csv"
  done
  grep -c '"pcie__' "$out/ncu.csv"
fi

if want graph; then
  step "each graph kernel's launches sampled in process at ${interval} us (zero-copy edge list)"
  : > "$out/graph.jsonl"
  for gk in $(graph_pairs); do
    "$benchbin" --pattern "${gk#*/}" --graph "${gk%%/*}" --repeats "${GRAPH_REPEATS:-3}" --interval-us "$interval" | tee -a "$out/graph.jsonl"
  done
fi

if want ncu-graph; then
  step "Nsight Compute, every host-memory launch of one run of each graph kernel"
  : > "$out/ncu-graph.csv"
  for gk in $(graph_pairs); do
    g=${gk%%/*} k=${gk#*/}
    echo "# $g $k" >> "$out/ncu-graph.csv"
    ncu --csv --print-units base --metrics pcie__read_bytes.sum,pcie__write_bytes.sum,gpu__time_duration.sum \
      --kernel-name "regex:$(host_function "$k")" "$runner" --pattern "$k" --graph "$g" --memory zerocopy \
      --warmup 0 --repeats 1 2>&1 | grep -E '^"' >> "$out/ncu-graph.csv"
  done
  grep -c '"pcie__read' "$out/ncu-graph.csv"
fi

if want idle; then
  step "idle GPU (2 s each): the sampler's own traffic per sample"
  : > "$out/idle.jsonl"
  for us in 1000 100 10 2; do
    r=$("$counters" --duration 2 --interval-us "$us" --tick-ms 100000 | tail -1)
    echo "{\"intervalUs\":$us,\"result\":$r}" | tee -a "$out/idle.jsonl"
  done
fi

if want nvml; then
  step "NVML's PCIe throughput (the fallback) under the same load"
  pid=$(load 4)
  sleep 1
  "$counters" --duration 2 --source nvml --interval-us 20000 | tee "$out/nvml-load.jsonl" | tail -1
  wait "$pid" 2> /dev/null
fi

if want sweep; then
  step "intervals under load (3 s each): samples/s, lost"
  : > "$out/sweep.jsonl"
  for us in $sweep; do
    pid=$(load 5)
    sleep 0.5
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader >> "$out/load-check.txt"
    r=$("$counters" --duration 3 --interval-us "$us" --tick-ms 100000 | tail -1)
    echo "{\"intervalUs\":$us,\"result\":$r}" | tee -a "$out/sweep.jsonl"
    wait "$pid" 2> /dev/null
  done
fi

if want sustain; then
  if [ "$sustain_us" = auto ] && [ -f "$out/sweep.jsonl" ]; then
    # the smallest interval of the sweep that lost no sample
    sustain_us=$(grep '"lost":0,' "$out/sweep.jsonl" | sed 's/{"intervalUs":\([0-9.]*\),.*/\1/' | sort -g | head -1)
    sustain_us=${sustain_us:-1000}
  fi
  for us in $sustain_us; do
    step "${sustain_s} s at ${us} us under load"
    pid=$(load $((sustain_s + 5)))
    sleep 1
    "$counters" --duration "$sustain_s" --interval-us "$us" --tick-ms 5000 > "$out/sustain-$us.jsonl"
    tail -1 "$out/sustain-$us.jsonl"
    wait "$pid" 2> /dev/null
  done
fi

if want fixture; then
  step "sample fixtures: every sample of a short load, at 100 us and 1 ms"
  pid=$(load 4)
  sleep 1
  "$counters" --duration 0.2 --interval-us 100 --samples "$out/samples-100us.csv" > "$out/samples-100us.jsonl"
  "$counters" --duration 1 --interval-us 1000 --samples "$out/samples-1ms.csv" > "$out/samples-1ms.jsonl"
  wait "$pid" 2> /dev/null
  timeout 3 "$runner" --pattern strided --bytes $((1 << 30)) --warmup 0 --repeats 1000 > /dev/null 2>&1 &
  sleep 1
  "$counters" --duration 1 --interval-us 1000 --samples "$out/samples-strided-1ms.csv" > "$out/samples-strided-1ms.jsonl"
  wait
  wc -l "$out"/samples-*.csv
fi

if want addon; then
  step "the Node addon's gpuCounters (NODE=..., NODE_MODULES=... with node-api-headers and node-addon-api)"
  nm=${NODE_MODULES:-node_modules}
  cmake -S native/addon -B build/addon-dev -DCMAKE_BUILD_TYPE=Release -DPS_WITH_GPU_BENCH=OFF -DPS_CUDA_ARCHS="${PS_CUDA_ARCHS:-90}" \
    -DCMAKE_JS_INC="$PWD/$nm/node-api-headers/include;$PWD/$nm/node-addon-api" > "$out/addon-cmake.txt" 2>&1 &&
    cmake --build build/addon-dev -j "$(nproc)" > "$out/addon-build.txt" 2>&1 || { grep -E "error" "$out/addon-build.txt" | head; }
  pid=$(load 4)
  "${NODE:-node}" bench/gpu-counters-addon.mjs "$PWD/build/addon-dev/pcie_scope_native.node" 100 2 | tee "$out/addon.json"
  wait "$pid" 2> /dev/null
fi

if want watch; then
  step "watch --gpu's code (dist/, with commander in node_modules) over the load, 3 s at ${interval} us"
  pid=$(load 6)
  sleep 1
  "${NODE:-node}" bench/gpu-counters-watch.mjs "$PWD/build/addon-dev/pcie_scope_native.node" "$interval" 3 > "$out/watch.json" 2> "$out/watch-lines.txt"
  cat "$out/watch-lines.txt" "$out/watch.json"
  wait "$pid" 2> /dev/null
fi

if want poll; then
  step "the sampler's CPU by poll period, 100 us under load and idle (3 s each)"
  : > "$out/poll.jsonl"
  for ms in 5 20 100; do
    pid=$(load 5)
    sleep 1
    r=$("$counters" --duration 3 --interval-us 100 --poll-ms "$ms" --tick-ms 100000 | tail -1)
    echo "{\"pollMs\":$ms,\"load\":true,\"result\":$r}" | tee -a "$out/poll.jsonl"
    wait "$pid" 2> /dev/null
    r=$("$counters" --duration 3 --interval-us 100 --poll-ms "$ms" --tick-ms 100000 | tail -1)
    echo "{\"pollMs\":$ms,\"load\":false,\"result\":$r}" | tee -a "$out/poll.jsonl"
  done
fi

if want crossprocess; then
  step "another process's traffic, seen by the program, then by watch's code in Node, then the program again"
  pid=$(load 14)
  sleep 2
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader
  "$counters" --duration 2 --interval-us 100 --tick-ms 100000 | tail -1 | tee "$out/cross-cli-1.json"
  "${NODE:-node}" bench/gpu-counters-watch.mjs "$PWD/build/addon-dev/pcie_scope_native.node" 100 2 > "$out/cross-watch.json" 2> "$out/cross-watch-lines.txt"
  cat "$out/cross-watch-lines.txt"
  "$counters" --duration 2 --interval-us 100 --tick-ms 100000 | tail -1 | tee "$out/cross-cli-2.json"
  wait "$pid" 2> /dev/null
fi
