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
#include "json.h"
#include "native/cuda/gpu_bench.h"
#include "sampler.h"

namespace {

using namespace std::chrono_literals;

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
    if (argc == 2 && !strcmp(argv[1], "--round-trip")) {
        double ns[5] = {};
        for (double &v : ns)
            if (!ps_idle_round_trip_ns(&v))
                return 1;
        printf("{\"idleRoundTripNs\":[%.1f,%.1f,%.1f,%.1f,%.1f]}\n", ns[0], ns[1], ns[2], ns[3],
               ns[4]);
        return 0;
    }
    ps::gpu::RunConfig cfg{};
    cfg.pattern = ps::Pattern::MergedAligned;
    cfg.bytes = 64ull << 20;
    cfg.offset = 0;
    cfg.element_bytes = 4;
    cfg.repeats = 10;
    ps::sampler::Config sc;
    sc.interval_ns = 100000;
    bool offset_given = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--pattern") {
            if (!ps::pattern_from_name(v.c_str(), &cfg.pattern)) {
                fprintf(stderr, "unknown pattern %s\n", v.c_str());
                return 2;
            }
        } else if (a == "--bytes")
            cfg.bytes = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--offset") {
            cfg.offset = (uint32_t)atoi(v.c_str());
            offset_given = true;
        } else if (a == "--element-bytes")
            cfg.element_bytes = (uint32_t)atoi(v.c_str());
        else if (a == "--l1")
            cfg.bypass_l1 = v == "bypass";
        else if (a == "--repeats")
            cfg.repeats = (uint32_t)atoi(v.c_str());
        else if (a == "--interval-us")
            sc.interval_ns = (uint64_t)(atof(v.c_str()) * 1000);
        else if (a == "--device")
            cfg.device = sc.device = atoi(v.c_str());
        else {
            fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (!offset_given)
        cfg.offset = ps::pattern_default_offset(cfg.pattern);
    char err[512] = "";
    ps::gpu::RunResult plain{}, sampled{};
    Marks marks;
    if (ps::gpu::run(cfg, nullptr, nullptr, nullptr, &plain, err, sizeof err)
        != ps::gpu::Status::Ok) {
        printf("{\"error\":%s}\n", ps::sampler::json_string(err).c_str());
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
        printf("{\"error\":{\"code\":\"%s\",\"message\":%s,\"run\":%s}}\n",
               ps::sampler::status_code(sst), ps::sampler::json_string(serr).c_str(),
               ps::sampler::json_string(err).c_str());
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
    std::string sums = "{";
    for (size_t k = 0; k < nm; ++k) {
        char b[64];
        snprintf(b, sizeof b, "%.6f", sum[k] / cfg.repeats);
        sums += std::string(k ? "," : "") + ps::sampler::json_string(col.info.metrics[k].name) + ":"
            + b;
    }
    sums += "}";
    printf("{\"pattern\":\"%s\",\"bytes\":%llu,\"offset\":%u,\"elementBytes\":%u,\"l1\":\"%s\","
           "\"repeats\":%u,\"intervalNs\":%llu,\"source\":%s,\"kernelMsUnsampled\":%.4f,"
           "\"kernelMsSampled\":%.4f,\"checksumOk\":%s,\"samplesInWindow\":%zu,\"samples\":%zu,"
           "\"lost\":%llu,\"clockOffsetNs\":[%lld,%lld],\"windowMs\":%.3f,"
           "\"samplerThreadCpuS\":%.4f,\"perKernel\":%s}\n",
           ps::pattern_name(cfg.pattern), (unsigned long long)cfg.bytes, cfg.offset,
           cfg.element_bytes, cfg.bypass_l1 ? "bypass" : "default", cfg.repeats,
           (unsigned long long)col.info.interval_ns,
           ps::sampler::json_string(col.info.source).c_str(), plain.kernel.median_ms,
           sampled.kernel.median_ms, plain.checksum_ok && sampled.checksum_ok ? "true" : "false",
           in, col.flat.size() / (col.stride ? col.stride : 1), (unsigned long long)col.lost,
           (long long)off0, (long long)off1, (marks.b - marks.a) / 1e6, col.cpu, sums.c_str());
    return 0;
}
