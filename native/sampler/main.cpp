// pcie-scope-gpu-counters: the sampler (sampler.h) as a program for GPU hosts without Node.
// JSON lines on stdout: {"start":info}, a {"tick":...} line every --tick-ms with the counters'
// sums over it, and {"end":...} with the totals, samples, lost samples and the process's CPU.
// --samples FILE also writes every sample as CSV (start_ns,end_ns,<metric>...).
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "json.h"
#include "sampler.h"

using namespace ps::sampler;

namespace {

volatile bool g_stop = false;
void on_signal(int) { g_stop = true; }

double now_s()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double process_cpu_s()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec
        + ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec) * 1e-6;
}

struct State {
    SourceInfo info;
    FILE *csv = nullptr;
    double tick_ns = 5e8;
    double tick_start = 0; // ns since origin of the tick being summed
    std::vector<double> tick_sum, total;
    uint64_t tick_samples = 0, samples = 0, lost = 0;
    double covered_ns = 0, thread_cpu = 0;
    bool overflow = false;
    volatile bool started = false;
    double cpu_at_start = 0, t_start = 0; // when the source ran: its set-up is not sampling
};

std::string sums_json(const State &s, const std::vector<double> &v)
{
    std::string j = "{";
    for (size_t k = 0; k < v.size(); ++k) {
        char b[64];
        snprintf(b, sizeof b, "%.17g", v[k]);
        j += std::string(k ? "," : "") + json_string(s.info.metrics[k].name) + ":" + b;
    }
    return j + "}";
}

void on_start(void *ctx, const SourceInfo &info)
{
    auto *s = static_cast<State *>(ctx);
    s->info = info;
    s->cpu_at_start = process_cpu_s();
    s->t_start = now_s();
    s->started = true;
    s->tick_sum.assign(info.metrics.size(), 0);
    s->total.assign(info.metrics.size(), 0);
    printf("{\"start\":%s}\n", info_json(info).c_str());
    fflush(stdout);
    if (s->csv) {
        fprintf(s->csv, "start_ns,end_ns");
        for (const Metric &m : info.metrics)
            fprintf(s->csv, ",%s", m.name.c_str());
        fprintf(s->csv, "\n");
    }
}

void flush_tick(State *s, double end)
{
    printf(
        "{\"tick\":{\"startNs\":%.0f,\"endNs\":%.0f,\"samples\":%llu,\"lost\":%llu,\"sums\":%s}}\n",
        s->tick_start, end, (unsigned long long)s->tick_samples, (unsigned long long)s->lost,
        sums_json(*s, s->tick_sum).c_str());
    fflush(stdout);
    s->tick_start = end;
    s->tick_samples = 0;
    for (double &v : s->tick_sum)
        v = 0;
}

void on_batch(void *ctx, const Batch &b)
{
    auto *s = static_cast<State *>(ctx);
    for (size_t i = 0; i < b.count; ++i) {
        const double *p = b.data + i * b.stride;
        if (s->samples == 0 && s->tick_samples == 0)
            s->tick_start = p[0];
        if (p[1] - s->tick_start >= s->tick_ns)
            flush_tick(s, p[0]);
        for (size_t k = 2; k < b.stride; ++k) {
            s->tick_sum[k - 2] += p[k];
            s->total[k - 2] += p[k];
        }
        s->covered_ns += p[1] - p[0];
        ++s->tick_samples;
        if (s->csv) {
            fprintf(s->csv, "%.0f,%.0f", p[0], p[1]);
            for (size_t k = 2; k < b.stride; ++k)
                fprintf(s->csv, ",%.17g", p[k]);
            fprintf(s->csv, "\n");
        }
    }
    s->samples = b.samples_total;
    s->lost = b.lost_total;
    s->thread_cpu = b.thread_cpu_s;
    s->overflow = b.overflow;
}

int usage(const char *why)
{
    if (why)
        fprintf(stderr, "pcie-scope-gpu-counters: %s\n", why);
    fprintf(stderr,
            "usage: pcie-scope-gpu-counters [--device N] [--interval-us N] [--duration S]\n"
            "         [--source auto|pm-sampling|nvml] [--tick-ms N] [--poll-ms N]\n"
            "         [--hw-buffer-mb N] [--samples FILE.csv]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    Config cfg;
    State st;
    double duration = 0;
    const char *csv = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--help" || a == "-h")
            return usage(nullptr);
        if (!v)
            return usage(("a value must follow " + a).c_str());
        ++i;
        if (a == "--device")
            cfg.device = atoi(v);
        else if (a == "--interval-us")
            cfg.interval_ns = (uint64_t)(atof(v) * 1000.0);
        else if (a == "--duration")
            duration = atof(v);
        else if (a == "--source")
            cfg.source = v;
        else if (a == "--tick-ms")
            st.tick_ns = atof(v) * 1e6;
        else if (a == "--poll-ms")
            cfg.poll_ms = (uint32_t)atoi(v);
        else if (a == "--hw-buffer-mb")
            cfg.hw_buffer_bytes = (uint64_t)atoll(v) << 20;
        else if (a == "--samples")
            csv = v;
        else
            return usage(("unknown option " + a).c_str());
    }
    if (csv && !(st.csv = fopen(csv, "w"))) {
        fprintf(stderr, "pcie-scope-gpu-counters: cannot write %s\n", csv);
        return 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    const double t0 = now_s();
    const double cpu0 = process_cpu_s();
    std::thread timer;
    if (duration > 0)
        timer = std::thread([duration, &st] {
            // the duration counts from the first samples: CUPTI's set-up takes ~0.5 s
            while (!g_stop && !st.started)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            while (!g_stop && now_s() - st.t_start < duration)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            g_stop = true;
        });
    Callbacks cb;
    cb.ctx = &st;
    cb.on_start = on_start;
    cb.on_batch = on_batch;
    std::string err;
    const Status s = run(cfg, cb, &g_stop, &err);
    g_stop = true;
    if (timer.joinable())
        timer.join();
    const double wall = now_s() - t0, cpu = process_cpu_s() - cpu0;
    const double sampling_wall = st.started ? now_s() - st.t_start : 0;
    const double sampling_cpu = st.started ? process_cpu_s() - st.cpu_at_start : 0;
    if (st.csv)
        fclose(st.csv);
    if (s != Status::Ok) {
        printf("{\"error\":{\"code\":\"%s\",\"message\":%s}}\n", status_code(s),
               json_string(err).c_str());
        return s == Status::BadArgument ? 2 : 3;
    }
    if (st.tick_samples)
        flush_tick(&st, st.tick_start + st.tick_ns);
    printf("{\"end\":{\"samples\":%llu,\"lost\":%llu,\"overflow\":%s,\"coveredNs\":%.0f,"
           "\"wallSeconds\":%.3f,\"processCpuSeconds\":%.3f,\"threadCpuSeconds\":%.3f,"
           "\"samplingSeconds\":%.3f,\"samplingCpuSeconds\":%.3f,"
           "\"totals\":%s}}\n",
           (unsigned long long)st.samples, (unsigned long long)st.lost,
           st.overflow ? "true" : "false", st.covered_ns, wall, cpu, st.thread_cpu, sampling_wall,
           sampling_cpu, sums_json(st, st.total).c_str());
    return 0;
}
