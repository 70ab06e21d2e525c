#!/usr/bin/env bash
# How the real L1 changes the strided walk's PCIe reads as the grid grows: for strided with 4-,
# 8- and 16-B lanes (default loads) at 1 MiB .. 256 MiB, one ncu profile each of the MRds
# (pcie__write_bytes / 16) and the L1's global-load sector lookups, hits and misses. The data
# behind the model's finite-L1 question (bench/RESULTS.md, docs/gpu-coalescing.md). Needs
# build/gpu/pcie-scope-gpu (npm run build:gpu or bench/gpu-host.sh) and ncu.
#
# Usage: bash bench/gpu-l1-sweep.sh [OUT.csv]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-l1-sweep.csv}
metrics=pcie__write_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
echo "elementBytes,bytes,metric,value" > "$out"
for e in 4 8 16; do
  for mib in 1 2 4 8 16 32 64 128 256; do
    bytes=$((mib << 20))
    ncu --csv --print-units base --metrics "$metrics" --kernel-name regex:zc_read --launch-count 1 \
      build/gpu/pcie-scope-gpu --pattern strided --bytes "$bytes" --element-bytes "$e" --warmup 0 --repeats 1 2>/dev/null |
      awk -F'","' -v e="$e" -v b="$bytes" '/"Command line profiler metrics"/ { gsub(/"/, "", $NF); gsub(/,/, "", $NF); print e "," b "," $(NF-2) "," $NF }' >> "$out"
    echo "strided e$e $mib MiB done" >&2
  done
done
