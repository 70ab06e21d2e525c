// pcie-scope bandwidth model: how long a GPU takes to read a zero-copy MRd stream, from the
// stream's reads and completion bytes and the host of spec `gpus.values[].host`
// (docs/gpu-model.md, "Bandwidth").
//
// Two limits, each a time:
//   wire   the completions' wire bytes (payload + 12-B header + 8-B framing) over the link's TLP
//          rate (link.h) x wireEfficiency (the host's real DLLP/SKP share is below link.h's
//          allowance: 128-B reads measure up to 3 % above the 128-B ceiling);
//   rate   the reads over readsPerUs, the request rate the GPU sustains (32-B reads of the
//          bypassing strided walk: 670-705 M/s on the H100);
// added as a p-norm, t = (wire^k + rate^k)^(1/k), k = combineExponent: near the max when one
// limit dominates (128-B reads: the wire), more than either when both are close (96 + 32-B
// pairs). A graph kernel's launch takes at least its longest loop's steps x stepNs (a warp per
// vertex: each step its ids and their dependent gather) or x threadStepNs (a thread per vertex,
// whose id loads pipeline), and launchUs besides its reads (the launch itself, the frontier
// update kernel, the 4-B flag copy).
#ifndef PCIE_SCOPE_MODEL_BANDWIDTH_H
#define PCIE_SCOPE_MODEL_BANDWIDTH_H

#include <math.h>
#include <stdint.h>

#include "generated/workloads.h"
#include "link.h"

namespace ps {

struct HostModel {
    LinkConfig link;
    uint32_t tags = 256;
    double idle_round_trip_ns = 1000;
    double round_trip_spread_ns = 0;
    double reads_per_us = 1000;
    double wire_efficiency = 1;
    double combine_exponent = 4;
    double step_ns = 0;        // a warp-per-vertex kernel's dependent step
    double thread_step_ns = 0; // a thread-per-vertex kernel's (its loads pipeline)
    double launch_us = 0;
};

// The spec's host of `gpu` (its link text is the spec's genGxL, checked by spec/generate.ts).
inline HostModel host_model_of(const GpuInfo &gpu)
{
    HostModel h;
    parse_link(gpu.host_link, &h.link);
    h.tags = gpu.host_tags;
    h.idle_round_trip_ns = gpu.idle_round_trip_ns;
    h.round_trip_spread_ns = gpu.round_trip_spread_ns;
    h.reads_per_us = gpu.reads_per_us;
    h.wire_efficiency = gpu.wire_efficiency;
    h.combine_exponent = gpu.combine_exponent;
    h.step_ns = gpu.step_ns;
    h.thread_step_ns = gpu.thread_step_ns;
    h.launch_us = gpu.launch_us;
    return h;
}

// What the model knows of a stream (or of one launch's part of it).
struct ReadStream {
    uint64_t reads = 0;
    uint64_t wire_bytes = 0; // the completions' wire bytes: sum of cpl_wire_bytes(len)
    void add(uint32_t len)
    {
        ++reads;
        wire_bytes += cpl_wire_bytes(len);
    }
};

// Seconds the reads of `s` take at the host's limits (wire and request rate, p-norm).
inline double stream_seconds(const ReadStream &s, const HostModel &h)
{
    const double rate = link_tlp_bytes_per_second(h.link) * h.wire_efficiency;
    const double wire = rate > 0 ? (double)s.wire_bytes / rate : 0;
    const double req = h.reads_per_us > 0 ? (double)s.reads / (h.reads_per_us * 1e6) : 0;
    if (wire <= 0 || req <= 0)
        return wire + req;
    const double k = h.combine_exponent;
    return pow(pow(wire, k) + pow(req, k), 1.0 / k);
}

// Seconds of one graph launch: its reads, or its longest loop's `steps` dependent steps (a warp's
// per vertex, or a thread's: `per_thread`), plus the launch's fixed cost.
inline double launch_seconds(const ReadStream &s, uint64_t steps, const HostModel &h,
                             bool per_thread = false)
{
    const double reads = stream_seconds(s, h);
    const double chain = (double)steps * (per_thread ? h.thread_step_ns : h.step_ns) * 1e-9;
    return (reads > chain ? reads : chain) + h.launch_us * 1e-6;
}

} // namespace ps

#endif
