// The sampling loop (sampler.h): picks the source, polls it every poll_ms, counts what is lost.
#include "sampler.h"

#include <math.h>
#include <time.h>

#include <chrono>
#include <thread>

#include "source.h"

namespace ps::sampler {

const char *status_code(Status s)
{
    switch (s) {
    case Status::Ok:
        return "PS_OK";
    case Status::Unavailable:
        return "PS_GPU_COUNTERS_UNAVAILABLE";
    case Status::BadArgument:
        return "PS_GPU_COUNTERS_BAD_ARGUMENT";
    case Status::Failed:
        return "PS_GPU_COUNTERS_FAILED";
    }
    return "PS_GPU_COUNTERS_FAILED";
}

const char *role_name(Role r)
{
    switch (r) {
    case Role::ReadBytes:
        return "readBytes";
    case Role::WriteBytes:
        return "writeBytes";
    case Role::SysmemReadSectors:
        return "sysmemReadSectors";
    case Role::SysmemWriteSectors:
        return "sysmemWriteSectors";
    case Role::Other:
        return "other";
    }
    return "other";
}

namespace {

double thread_cpu_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

std::unique_ptr<Source> open_source(const Config &cfg, Status *status, std::string *err)
{
    std::string pm_why, nvml_why;
    std::vector<std::string> offered;
    if (cfg.source == "auto" || cfg.source == "pm-sampling") {
        auto s = open_pm_sampling(cfg, &pm_why, &offered);
        if (s)
            return s;
        if (cfg.source == "pm-sampling") {
            *status = Status::Unavailable;
            *err = "PM sampling cannot run here: " + pm_why + ".";
            return nullptr;
        }
    }
    auto s = open_nvml(cfg, &nvml_why);
    if (s) {
        s->info.fallback_reason = pm_why;
        s->info.offered = offered;
        return s;
    }
    *status = Status::Unavailable;
    *err = cfg.source == "nvml"
        ? "NVML's PCIe counters cannot be read here: " + nvml_why + "."
        : "no GPU counter source works here (PM sampling: " + pm_why + "; NVML: " + nvml_why + ").";
    return nullptr;
}

} // namespace

Status run(const Config &cfg, const Callbacks &cb, const volatile bool *stop, std::string *err)
{
    if (cfg.interval_ns < 1000 || cfg.interval_ns > 10000000000ull) {
        *err = "the interval must lie between 1 us and 10 s.";
        return Status::BadArgument;
    }
    if (cfg.source != "auto" && cfg.source != "pm-sampling" && cfg.source != "nvml") {
        *err = "the source must be auto, pm-sampling or nvml.";
        return Status::BadArgument;
    }
    if (cfg.device < 0 || cfg.device > 63) {
        *err = "the device must be a CUDA ordinal from 0 to 63.";
        return Status::BadArgument;
    }
    // short intervals poll more often: one pass decodes at most kMaxSamplesPerPoll samples
    Config c = cfg;
    const uint64_t most_ms = kMaxSamplesPerPoll * cfg.interval_ns / 1000000ull;
    if (c.poll_ms > most_ms)
        c.poll_ms = most_ms > 0 ? (uint32_t)most_ms : 1;
    Status status = Status::Ok;
    std::unique_ptr<Source> src = open_source(c, &status, err);
    if (!src)
        return status;
    // announced with the first batch: PM sampling knows its clock's origin from its first sample
    bool announced = false;
    auto announce = [&] {
        if (!announced && cb.on_start)
            cb.on_start(cb.ctx, src->info);
        announced = true;
    };

    const size_t stride = 2 + src->info.metrics.size();
    const bool contiguous = src->info.source == "pm-sampling";
    // a sample's length as the samples show it (the sysclk trigger only approximates the ask)
    double covered = 0;
    std::vector<double> flat;
    uint64_t lost = 0, total = 0, reported_lost = 0;
    bool overflow = false;
    double prev_end = -1;
    bool stopping = false;
    auto next = std::chrono::steady_clock::now();
    for (;;) {
        if (!stopping && *stop) {
            src->stop(); // the samples up to here come with the poll below
            stopping = true;
        }
        if (!stopping) {
            next += std::chrono::milliseconds(c.poll_ms);
            std::this_thread::sleep_until(next);
            if (std::chrono::steady_clock::now() > next + std::chrono::milliseconds(c.poll_ms))
                next = std::chrono::steady_clock::now(); // behind: do not try to catch up
        }
        flat.clear();
        std::string perr;
        if (!src->poll(&flat, &lost, &overflow, &perr)) {
            *err = perr;
            if (!stopping)
                src->stop();
            return Status::Failed;
        }
        // keep samples that cover time; a gap longer than 1.5 intervals is samples lost
        size_t kept = 0;
        for (size_t i = 0; i + stride <= flat.size(); i += stride) {
            const double start = flat[i], end = flat[i + 1];
            if (!(end > start))
                continue;
            // PM sampling's first sample runs from the configuration to the first trigger
            // (hundreds of ms): no interval of the traffic, left out and not counted as lost
            if (contiguous && total == 0 && kept == 0 && prev_end < 0
                && end - start > 2.0 * (double)src->info.interval_ns) {
                prev_end = end;
                continue;
            }
            const double interval =
                total + kept / stride > 0 ? covered / (double)(total + kept / stride) : end - start;
            if (contiguous && prev_end >= 0 && start - prev_end > 0.5 * interval)
                lost += (uint64_t)llround((start - prev_end) / interval);
            prev_end = end;
            covered += end - start;
            if (kept != i)
                for (size_t k = 0; k < stride; ++k)
                    flat[kept + k] = flat[i + k];
            kept += stride;
        }
        const size_t count = kept / stride;
        total += count;
        if (count > 0 || stopping)
            announce();
        if ((count > 0 || lost != reported_lost || stopping) && cb.on_batch && announced) {
            Batch b{flat.data(), count, stride, lost, total, thread_cpu_seconds(), overflow};
            cb.on_batch(cb.ctx, b);
            reported_lost = lost;
        }
        if (stopping)
            return Status::Ok;
    }
}

} // namespace ps::sampler
