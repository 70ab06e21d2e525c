#!/usr/bin/env bash
# A firmware fuzz campaign fanned out over the cores of a bigger machine, with no compiler there:
# the two libFuzzer targets are built here (make -C firmware libfuzzer-bins: static sanitizer and
# libFuzzer runtimes, so they run on any x86-64 Linux with glibc 2.36 or newer), copied with their
# seed corpora, and run as JOBS independent processes per target (seeds 1..JOBS), each RUNS
# inputs. Prints a Markdown table for bench/RESULTS.md: inputs, inputs per second, crashes; and
# leaves the merged corpora in OUT/corpus-<target> (what adds coverage, for
# make -C firmware libfuzzer-merge and the coverage report back home).
#
# Usage: bench/fuzz-firmware-jobs.sh DIR JOBS RUNS OUT
#   DIR  holds ps_libfuzz_rx, ps_libfuzz_codec and fuzz-corpus/<target>/
set -uo pipefail
dir=$1 jobs=$2 runs=$3 out=$4
mkdir -p "$out"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
export LLVM_PROFILE_FILE=/dev/null
work=$(mktemp -d)
echo "| target | processes | inputs | inputs/s (all processes) | crashes | corpus kept |"
echo "|---|---:|---:|---:|---:|---:|"
status=0
for t in rx codec; do
  start=$(date +%s.%N)
  pids=()
  for j in $(seq 1 "$jobs"); do
    mkdir -p "$work/corpus-$t-$j"
    "$dir/ps_libfuzz_$t" -seed="$j" -runs="$runs" -max_len=1024 -print_final_stats=1 \
      -artifact_prefix="$out/crash-$t-$j-" "$work/corpus-$t-$j" "$dir/fuzz-corpus/$t" >"$work/$t-$j.log" 2>&1 &
    pids+=($!)
  done
  crashes=0
  for p in "${pids[@]}"; do wait "$p" || crashes=$((crashes + 1)); done
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
  inputs=$(cat "$work/$t"-*.log | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
  mkdir -p "$out/corpus-$t"
  "$dir/ps_libfuzz_$t" -merge=1 "$out/corpus-$t" "$work/corpus-$t"-* >/dev/null 2>&1
  kept=$(ls "$out/corpus-$t" | wc -l)
  printf '| %s | %d | %d | %.0f | %d | %d |\n' "$t" "$jobs" "$inputs" "$(awk -v n="$inputs" -v s="$secs" 'BEGIN {print n / s}')" "$crashes" "$kept"
  if [ "$crashes" -ne 0 ]; then
    status=1
    for f in "$work/$t"-*.log; do grep -q 'ERROR\|deadly signal' "$f" && tail -30 "$f" >"$out/$(basename "$f")"; done
  fi
done
rm -rf "$work"
exit $status
