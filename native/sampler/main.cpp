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

#include "json.h"    // native/common
#include "options.h" // native/common
#include "sampler.h"

using namespace ps::sampler;

namespace {

enum CountersOption {
    kOptHelp,
    kOptDevice,
    kOptIntervalUs,
    kOptDuration,
    kOptSource,
    kOptTickMs,
    kOptPollMs,
    kOptHwBufferMb,
    kOptSamples,
};

using ps::cli::Value;

// the ranges are the sampler's own (sampler.cpp): an interval of 1 us to 10 s, devices 0..63
const ps::cli::OptionDef kCountersOptions[] = {
    {kOptHelp, "--help", "-h", Value::None, 0, 0, {}, 0, {}, 0, ""},
    {kOptDevice, "--device", nullptr, Value::Uint, 0, 63, {}, 0, {}, 0, ""},
    {kOptIntervalUs, "--interval-us", nullptr, Value::Uint, 1, 10000000, {}, 0, {}, 0, ""},
    {kOptDuration,
     "--duration",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     "--duration needs seconds, a number from 0 (until a signal) to 86400"},
    {kOptSource,
     "--source",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {"auto", "pm-sampling", "nvml"},
     3,
     "--source must be auto, pm-sampling or nvml"},
    {kOptTickMs, "--tick-ms", nullptr, Value::Uint, 1, 86400000, {}, 0, {}, 0, ""},
    {kOptPollMs, "--poll-ms", nullptr, Value::Uint, 1, 60000, {}, 0, {}, 0, ""},
    {kOptHwBufferMb, "--hw-buffer-mb", nullptr, Value::Uint, 1, 65536, {}, 0, {}, 0, ""},
    {kOptSamples,
     "--samples",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     "--samples needs a file name (FILE.csv)"},
};

// `s` as seconds in 0..86400 (a decimal number: --duration 0.2)
bool parse_seconds(const std::string &s, double *out)
{
    char *end = nullptr;
    const double v = strtod(s.c_str(), &end);
    if (end == s.c_str() || *end || !(v >= 0 && v <= 86400))
        return false;
    *out = v;
    return true;
}

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

// {"<metric>":sum,...}
std::string sums_json(const State &s, const std::vector<double> &v)
{
    ps::json::Writer w;
    w.begin_object();
    for (size_t k = 0; k < v.size(); ++k)
        w.field_number(s.info.metrics[k].name, v[k], "%.17g");
    return w.end_object().text();
}

// {"source":...,"chip":...,"metrics":[{"name","role"}],"offered":[...],"intervalNs":...,...}
std::string info_json(const SourceInfo &i)
{
    ps::json::Writer w;
    w.begin_object().field("source", i.source).field("chip", i.chip).key("metrics").begin_array();
    for (const Metric &m : i.metrics)
        w.begin_object().field("name", m.name).field("role", role_name(m.role)).end_object();
    w.end_array().key("offered").begin_array();
    for (const std::string &o : i.offered)
        w.string(o);
    w.end_array().field("intervalNs", i.interval_ns).field("originNs", i.origin_ns);
    w.key("dropped").begin_array();
    for (const std::string &d : i.dropped)
        w.string(d);
    w.end_array();
    if (!i.trigger.empty())
        w.field("trigger", i.trigger);
    if (!i.fallback_reason.empty())
        w.field("fallbackReason", i.fallback_reason);
    return w.end_object().text();
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
    ps::json::Writer w;
    w.begin_object().key("tick").begin_object();
    w.field_number("startNs", s->tick_start, "%.0f").field_number("endNs", end, "%.0f");
    w.field("samples", s->tick_samples).field("lost", s->lost);
    w.field_raw("sums", sums_json(*s, s->tick_sum)).end_object().end_object();
    printf("%s\n", w.text().c_str());
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
    std::string csv;
    bool help = false;
    const auto apply = [&](const ps::cli::Parsed &p, std::string *err) -> bool {
        const uint64_t v = p.number;
        switch ((CountersOption)p.def->id) {
        case kOptHelp:
            help = true;
            break;
        case kOptDevice:
            cfg.device = (int)v;
            break;
        case kOptIntervalUs:
            cfg.interval_ns = v * 1000;
            break;
        case kOptDuration:
            if (!parse_seconds(p.text, &duration)) {
                *err = ps::cli::value_error(*p.def);
                return false;
            }
            break;
        case kOptSource:
            cfg.source = p.text;
            break;
        case kOptTickMs:
            st.tick_ns = (double)v * 1e6;
            break;
        case kOptPollMs:
            cfg.poll_ms = (uint32_t)v;
            break;
        case kOptHwBufferMb:
            cfg.hw_buffer_bytes = v << 20;
            break;
        case kOptSamples:
            csv = p.text;
            break;
        }
        return true;
    };
    std::string perr;
    if (!ps::cli::parse(argc, argv, kCountersOptions,
                        sizeof kCountersOptions / sizeof kCountersOptions[0], ps::cli::Messages(),
                        apply, &perr))
        return usage(perr.c_str());
    if (help)
        return usage(nullptr);
    if (!csv.empty() && !(st.csv = fopen(csv.c_str(), "w"))) {
        fprintf(stderr, "pcie-scope-gpu-counters: cannot write %s\n", csv.c_str());
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
        printf("%s\n", ps::json::error_object(status_code(s), err).c_str());
        return s == Status::BadArgument ? 2 : 3;
    }
    if (st.tick_samples)
        flush_tick(&st, st.tick_start + st.tick_ns);
    ps::json::Writer w;
    w.begin_object().key("end").begin_object();
    w.field("samples", st.samples).field("lost", st.lost).field("overflow", st.overflow);
    w.field_number("coveredNs", st.covered_ns, "%.0f").field_number("wallSeconds", wall, "%.3f");
    w.field_number("processCpuSeconds", cpu, "%.3f");
    w.field_number("threadCpuSeconds", st.thread_cpu, "%.3f");
    w.field_number("samplingSeconds", sampling_wall, "%.3f");
    w.field_number("samplingCpuSeconds", sampling_cpu, "%.3f");
    w.field_raw("totals", sums_json(st, st.total)).end_object().end_object();
    printf("%s\n", w.text().c_str());
    return 0;
}
