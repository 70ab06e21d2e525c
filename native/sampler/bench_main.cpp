// pcie-scope-gpu-counters-bench (GPU hosts, bench/gpu-counters.sh): one micro pattern run twice
// in one process through ps_gpu_bench, first unsampled, then with the sampler on its own
// thread; prints one JSON line: both kernels' median times, and the sampled counters summed
// over the timed kernels (the window between two 100-ms idle gaps, placed on the samples'
// clock through %globaltimer), divided by the repeats: per kernel, as ncu reports it.
// `--round-trip` instead prints the idle round trip of one dependent host-memory read, 5 times.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "globaltimer.h"
#include "json.h" // native/common
#include "native/cuda/gpu_bench.h"
#include "options.h" // native/common
#include "sampler.h"

namespace {

using namespace std::chrono_literals;

enum BenchOption {
    kOptRoundTrip,
    kOptPattern,
    kOptBytes,
    kOptOffset,
    kOptElementBytes,
    kOptL1,
    kOptRepeats,
    kOptIntervalUs,
    kOptDevice,
};

using ps::cli::Value;

// the workload's ranges are pcie-scope-gpu's (native/cuda/runner.cpp), the interval the sampler's
const ps::cli::OptionDef kBenchOptions[] = {
    {kOptRoundTrip, "--round-trip", nullptr, Value::None, 0, 0, {}, 0, {}, 0, ""},
    {kOptPattern,
     "--pattern",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--pattern must be one of ") + ps::kPatternNameList},
    {kOptBytes, "--bytes", nullptr, Value::Uint, 0, ps::kWorkloadBytesMax, {}, 0, {}, 0, ""},
    {kOptOffset, "--offset", nullptr, Value::Uint, 0, ps::kWorkloadOffsetMax, {}, 0, {}, 0, ""},
    {kOptElementBytes,
     "--element-bytes",
     nullptr,
     Value::Uint,
     0,
     ps::kElementBytesMax,
     {},
     0,
     {},
     0,
     ""},
    {kOptL1,
     "--l1",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--l1 must be one of ") + ps::kL1LoadNameList},
    {kOptRepeats, "--repeats", nullptr, Value::Uint, 1, 1000, {}, 0, {}, 0, ""},
    {kOptIntervalUs, "--interval-us", nullptr, Value::Uint, 1, 10000000, {}, 0, {}, 0, ""},
    {kOptDevice, "--device", nullptr, Value::Uint, 0, 63, {}, 0, {}, 0, ""},
};

uint64_t realtime_ns()
{
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

struct Marks {
    uint64_t a = 0, b = 0; // realtime ns: the first timed kernel's launch, the last one's end
};

void progress(void *ctx, const char *phase, uint32_t done, uint32_t total)
{
    auto *m = static_cast<Marks *>(ctx);
    if (!strcmp(phase, "fill") && done == total)
        std::this_thread::sleep_for(100ms); // idle before the kernels
    if (!strcmp(phase, "kernel") && done == 0)
        m->a = realtime_ns();
    if (!strcmp(phase, "kernel") && done == total) {
        m->b = realtime_ns();
        std::this_thread::sleep_for(100ms); // idle before the memcpy baseline
    }
}

struct Collected {
    std::mutex mu;
    ps::sampler::SourceInfo info;
    std::vector<double> flat;
    size_t stride = 0;
    uint64_t lost = 0;
    double cpu = 0;
};

// globaltimer - realtime, the mean of two readings around the kernel that reads it
bool clock_offset(int64_t *off)
{
    const uint64_t h0 = realtime_ns();
    uint64_t g = 0;
    if (!ps_read_globaltimer(&g))
        return false;
    const uint64_t h1 = realtime_ns();
    *off = (int64_t)g - (int64_t)((h0 + h1) / 2);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    ps::gpu::RunConfig cfg{};
    cfg.pattern = ps::Pattern::MergedAligned;
    cfg.bytes = 64ull << 20;
    cfg.offset = 0;
    cfg.element_bytes = 4;
    cfg.repeats = 10;
    ps::sampler::Config sc;
    sc.interval_ns = 100000;
    bool offset_given = false, round_trip = false;
    const auto apply = [&](const ps::cli::Parsed &p, std::string *perr) -> bool {
        const uint64_t v = p.number;
        bool ok = true;
        switch ((BenchOption)p.def->id) {
        case kOptRoundTrip:
            round_trip = true;
            break;
        case kOptPattern:
            ok = ps::pattern_from_name(p.text.c_str(), &cfg.pattern);
            break;
        case kOptBytes:
            cfg.bytes = v;
            break;
        case kOptOffset:
            cfg.offset = (uint32_t)v;
            offset_given = true;
            break;
        case kOptElementBytes:
            cfg.element_bytes = (uint32_t)v;
            break;
        case kOptL1: {
            ps::L1Load l = ps::L1Load::Ideal;
            ok = ps::l1_load_from_name(p.text.c_str(), &l);
            cfg.bypass_l1 = l == ps::L1Load::Bypass;
            break;
        }
        case kOptRepeats:
            cfg.repeats = (uint32_t)v;
            break;
        case kOptIntervalUs:
            sc.interval_ns = v * 1000;
            break;
        case kOptDevice:
            cfg.device = sc.device = (int)v;
            break;
        }
        if (!ok)
            *perr = ps::cli::value_error(*p.def);
        return ok;
    };
    std::string perr;
    if (!ps::cli::parse(argc, argv, kBenchOptions, sizeof kBenchOptions / sizeof kBenchOptions[0],
                        ps::cli::Messages(), apply, &perr)) {
        fprintf(stderr, "%s\n", perr.c_str());
        return 2;
    }
    if (round_trip) {
        double ns[5] = {};
        for (double &v : ns)
            if (!ps_idle_round_trip_ns(&v))
                return 1;
        ps::json::Writer w;
        w.begin_object().key("idleRoundTripNs").begin_array();
        for (double v : ns)
            w.number(v, "%.1f");
        printf("%s\n", w.end_array().end_object().text().c_str());
        return 0;
    }
    if (!offset_given)
        cfg.offset = ps::pattern_default_offset(cfg.pattern);
    char err[512] = "";
    ps::gpu::RunResult plain{}, sampled{};
    Marks marks;
    if (ps::gpu::run(cfg, nullptr, nullptr, nullptr, &plain, err, sizeof err)
        != ps::gpu::Status::Ok) {
        ps::json::Writer w;
        printf("%s\n",
               w.begin_object().field("error", std::string(err)).end_object().text().c_str());
        return 1;
    }
    int64_t off0 = 0, off1 = 0;
    clock_offset(&off0);

    Collected col;
    volatile bool stop = false;
    std::string serr;
    ps::sampler::Status sst = ps::sampler::Status::Ok;
    ps::sampler::Callbacks cb;
    cb.ctx = &col;
    cb.on_start = [](void *c, const ps::sampler::SourceInfo &i) {
        auto *k = static_cast<Collected *>(c);
        std::lock_guard<std::mutex> g(k->mu);
        k->info = i;
    };
    cb.on_batch = [](void *c, const ps::sampler::Batch &b) {
        auto *k = static_cast<Collected *>(c);
        std::lock_guard<std::mutex> g(k->mu);
        k->stride = b.stride;
        k->flat.insert(k->flat.end(), b.data, b.data + b.count * b.stride);
        k->lost = b.lost_total;
        k->cpu = b.thread_cpu_s;
    };
    std::thread th([&] { sst = ps::sampler::run(sc, cb, &stop, &serr); });
    std::this_thread::sleep_for(300ms);
    const ps::gpu::Status rs =
        ps::gpu::run(cfg, nullptr, progress, &marks, &sampled, err, sizeof err);
    std::this_thread::sleep_for(100ms);
    stop = true;
    th.join();
    clock_offset(&off1);
    if (sst != ps::sampler::Status::Ok || rs != ps::gpu::Status::Ok) {
        ps::json::Writer w;
        w.begin_object().key("error").begin_object().field("code", ps::sampler::status_code(sst));
        w.field("message", serr).field("run", std::string(err)).end_object().end_object();
        printf("%s\n", w.text().c_str());
        return 1;
    }
    // the window on the samples' clock, with 50 ms of slack either side inside the idle gaps
    const double origin = strtod(col.info.origin_ns.c_str(), nullptr);
    const double off = ((double)off0 + (double)off1) / 2;
    const double lo = (double)marks.a + off - origin - 50e6,
                 hi = (double)marks.b + off - origin + 50e6;
    const size_t nm = col.stride - 2;
    std::vector<double> sum(nm, 0);
    size_t in = 0;
    for (size_t i = 0; i + col.stride <= col.flat.size(); i += col.stride) {
        const double mid = (col.flat[i] + col.flat[i + 1]) / 2;
        if (mid < lo || mid > hi)
            continue;
        ++in;
        for (size_t k = 0; k < nm; ++k)
            sum[k] += col.flat[i + 2 + k];
    }
    ps::json::Writer sums;
    sums.begin_object();
    for (size_t k = 0; k < nm; ++k)
        sums.field_number(col.info.metrics[k].name, sum[k] / cfg.repeats, "%.6f");
    sums.end_object();
    ps::json::Writer w;
    w.begin_object().field("pattern", ps::pattern_name(cfg.pattern)).field("bytes", cfg.bytes);
    w.field("offset", cfg.offset).field("elementBytes", cfg.element_bytes);
    w.field("l1", cfg.bypass_l1 ? "bypass" : "default").field("repeats", cfg.repeats);
    w.field("intervalNs", col.info.interval_ns).field("source", col.info.source);
    w.field_number("kernelMsUnsampled", plain.kernel.median_ms, "%.4f");
    w.field_number("kernelMsSampled", sampled.kernel.median_ms, "%.4f");
    w.field("checksumOk", plain.checksum_ok && sampled.checksum_ok);
    w.field("samplesInWindow", in)
        .field("samples", col.flat.size() / (col.stride ? col.stride : 1));
    w.field("lost", col.lost);
    w.key("clockOffsetNs").begin_array().integer(off0).integer(off1).end_array();
    w.field_number("windowMs", (double)(marks.b - marks.a) / 1e6, "%.3f");
    w.field_number("samplerThreadCpuS", col.cpu, "%.4f").field_raw("perKernel", sums.text());
    printf("%s\n", w.end_object().text().c_str());
    return 0;
}
