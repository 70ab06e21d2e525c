#!/usr/bin/env bash
# The GPU data the traffic and bandwidth models are fitted and checked on (docs/gpu-model.md), in
# one go on a CUDA host without Node: build the runner, then
#   ncu-micro   every micro pattern x lane width x load kind x size 16 MiB .. 1 GiB under ncu
#   ncu-chunk   merged-chunked (and merged-misaligned) over offsets and chunk lengths at 64 MiB
#   time-micro  GB/s of every micro pattern x width x load kind x size, and of the chunk variants
#   ncu-graph   the graph kernels on urand:20 under ncu (kron:20's are in the fixtures)
#   time-graph  GB/s of every graph kernel over zero-copy on urand:20, then kron:20
#   uvm         EMOGI's comparison: BFS, SSSP, CC (aligned) over zero-copy, UVM without advice, UVM
#               with ReadMostly, UVM with AccessedBy, with GPU memory held (--gpu-memory-limit)
#               so that the edge list cannot fit
#   multi       every GPU at once on one host buffer (--devices all), against each alone
# Each step runs ONE process (the runner's --batch), so ncu and the pinned 1-GiB buffer start once.
# Raw outputs go to OUT_DIR, one file per step; bench/gpu-model-fit.mjs reads them anywhere.
#
# Every step runs under what is left of BUDGET_S (default 540 s from the start; the build is not
# counted), so a slow step costs the later ones rather than the whole call; the ncu steps run in
# parts (one pattern or kernel each), since ncu prints its table only when its program ends.
#
# Usage: OUT_DIR=... [STEPS=ncu-micro,ncu-chunk,...] [BUDGET_S=540] [UVM_CAP_S=150] [MULTI_CAP_S=170]
#        [NCU=ncu] bash bench/gpu-model-fit.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT_DIR:-gpu-model-fit}
ncu_bin=${NCU:-ncu}
steps=",${STEPS:-ncu-micro,ncu-chunk,time-micro,ncu-graph,time-graph,uvm},"
mkdir -p "$out"
want() { [[ $steps == *",$1,"* ]]; }
step() { echo "== $(date -u +%T) $*" >&2; }
runner=build/gpu/pcie-scope-gpu
metrics=pcie__read_bytes.sum,pcie__write_bytes.sum,gpu__time_duration.sum
mib() { echo $(($1 << 20)); }

step "GPU and link"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max,memory.total \
  --format=csv | tee "$out/nvidia-smi.csv"

step "build (native/cuda, sm_90)"
if [ ! -x "$runner" ] || [ -n "${REBUILD:-}" ]; then
  gen=()
  command -v ninja > /dev/null && [ ! -f build/gpu/Makefile ] && gen=(-G Ninja)
  cmake -S native/cuda -B build/gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPS_CUDA_ARCHS=90 > "$out/build.log" 2>&1 &&
    cmake --build build/gpu --parallel >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
"$runner" --list-devices | tee "$out/devices.json"
start=$(date +%s)
budget=${BUDGET_S:-540}
# seconds a step may take: its own cap, or what is left of the budget
allow() {
  local left=$((budget - ($(date +%s) - start)))
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}
git rev-parse HEAD > "$out/commit.txt" 2>/dev/null

# micro lines: PATTERN E L1 BYTES [extra args]
micro_lines() {
  local extra=$1
  for p in strided merged-aligned merged-misaligned merged-chunked; do
    for e in 4 8 16; do
      for l1 in ideal bypass; do
        for m in 16 32 64 128 256 512 1024; do
          echo "--pattern $p --element-bytes $e --l1 $l1 --bytes $(mib $m) $extra"
        done
      done
    done
  done
}
chunk_lines() {
  local extra=$1 b
  b=$(mib 64)
  for l1 in ideal bypass; do
    for o in 0 4 8 16 32 48 64 96 112 124; do echo "--pattern merged-chunked --offset $o --element-bytes 4 --l1 $l1 --bytes $b $extra"; done
    for o in 0 8 32 64 96 120; do echo "--pattern merged-chunked --offset $o --element-bytes 8 --l1 $l1 --bytes $b $extra"; done
    for o in 0 16 32 64 96 112; do echo "--pattern merged-chunked --offset $o --element-bytes 16 --l1 $l1 --bytes $b $extra"; done
    for c in 128 256 512 1024 2048 16384 65536; do
      echo "--pattern merged-chunked --offset 32 --element-bytes 4 --chunk-bytes $c --l1 $l1 --bytes $b $extra"
      echo "--pattern merged-chunked --offset 32 --element-bytes 16 --chunk-bytes $c --l1 $l1 --bytes $b $extra"
    done
    for o in 4 64 96 124; do echo "--pattern merged-misaligned --offset $o --element-bytes 4 --l1 $l1 --bytes $b $extra"; done
  done
}

profile() { # NAME BATCHFILE KERNEL_REGEX CAP_S
  local t
  t=$(allow "$4")
  if [ "$t" -le 5 ]; then
    echo "ncu $1 skipped: out of time" | tee -a "$out/exit-codes.txt"
    return
  fi
  step "ncu $1 ($(grep -c . "$2") runs, at most ${t} s)"
  timeout "$t" "$ncu_bin" --csv --print-units base --clock-control none --metrics "$metrics" \
    --kernel-name "regex:$3" "$runner" --batch "$2" > "$out/$1.txt" 2> "$out/$1.err"
  echo "ncu $1 exit $?" | tee -a "$out/exit-codes.txt"
}
plain() { # NAME BATCHFILE CAP_S
  local t
  t=$(allow "$3")
  if [ "$t" -le 5 ]; then
    echo "$1 skipped: out of time" | tee -a "$out/exit-codes.txt"
    return
  fi
  step "$1 ($(grep -c . "$2") runs, at most ${t} s)"
  timeout "$t" "$runner" --batch "$2" > "$out/$1.jsonl" 2> "$out/$1.err"
  echo "$1 exit $?" | tee -a "$out/exit-codes.txt"
}

if want ncu-micro; then
  micro_lines "--warmup 0 --repeats 1" > "$out/ncu-micro.batch"
  for p in strided merged-aligned merged-misaligned merged-chunked; do
    grep -e "--pattern $p " "$out/ncu-micro.batch" > "$out/ncu-micro-$p.batch"
    profile "ncu-micro-$p" "$out/ncu-micro-$p.batch" zc_read 90
  done
fi
if want ncu-chunk; then
  chunk_lines "--warmup 0 --repeats 1" > "$out/ncu-chunk.batch"
  profile ncu-chunk "$out/ncu-chunk.batch" zc_read 90
fi
if want time-micro; then
  { micro_lines "--warmup 1 --repeats 3"; chunk_lines "--warmup 1 --repeats 3"; } > "$out/time-micro.batch"
  plain time-micro "$out/time-micro.batch" 90
fi
if want ncu-graph; then
  for k in sssp-aligned cc-aligned pagerank-aligned sssp-merged cc-merged pagerank-merged cc-naive sssp-naive pagerank-naive; do
    echo "--pattern $k --graph urand:20 --memory zerocopy --warmup 0 --repeats 1" > "$out/ncu-graph-$k.batch"
    profile "ncu-graph-$k" "$out/ncu-graph-$k.batch" 'bfs_level|graph_relax|graph_pull' 60
  done
fi
if want time-graph; then
  for g in urand:20 kron:20; do
    for k in bfs sssp cc pagerank; do
      for f in naive merged aligned; do echo "--pattern $k-$f --graph $g --memory zerocopy --warmup 1 --repeats 3"; done
    done
  done > "$out/time-graph.batch"
  plain time-graph "$out/time-graph.batch" 90
fi
if want uvm; then
  # 160 MiB left free: the vertex state (~25 MiB at scale 20) fits, the ~260-MiB edge lists do not
  for g in kron:20 urand:20; do
    for k in bfs-aligned sssp-aligned cc-aligned; do
      for m in zerocopy uvm-plain uvm uvm-accessed-by; do
        echo "--pattern $k --graph $g --memory $m --gpu-memory-limit $(mib 160) --warmup 0 --repeats 2"
      done
    done
  done > "$out/uvm.batch"
  plain uvm "$out/uvm.batch" "${UVM_CAP_S:-150}"
fi
if want multi; then
  for a in "merged-aligned --element-bytes 4" "merged-aligned --element-bytes 16" "merged-misaligned --element-bytes 4" \
    "merged-chunked --element-bytes 4" "strided --element-bytes 4" "strided --element-bytes 4 --l1 bypass"; do
    echo "--pattern $a --bytes $(mib 256) --devices all --warmup 2 --repeats 7"
  done > "$out/multi.batch"
  plain multi "$out/multi.batch" "${MULTI_CAP_S:-170}"
fi
step "done"
