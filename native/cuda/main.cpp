// pcie-scope-gpu: the standalone GPU runner for hosts without Node (runner.h, docs/contracts.md).
#include <signal.h>
#include <stdio.h>

#include <string>
#include <vector>

#include "runner.h"

namespace {

volatile bool g_cancel = false;
void on_signal(int) { g_cancel = true; }

void line(const std::string &s)
{
    fputs(s.c_str(), stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

void progress(void *, const char *phase, uint32_t done, uint32_t total)
{
    fprintf(stderr, "pcie-scope-gpu: %s %u/%u\n", phase, done, total);
}

using namespace ps::gpu;

int list()
{
    DeviceInfo devs[16];
    int n = 0;
    char err[512];
    const Status s = list_devices(devs, 16, &n, err, sizeof err);
    if (s != Status::Ok) {
        line(error_json(s, err));
        return exit_code_of(s);
    }
    std::string j = "{\"cudaBuilt\":true,\"devices\":[";
    for (int i = 0; i < n && i < 16; ++i)
        j += (i ? "," : "") + device_json(devs[i]);
    line(j + "]}");
    return kExitOk;
}

// Runs one configuration and prints its line; returns its status.
Status run_one(const RunConfig &cfg, bool verbose)
{
    RunResult r{};
    char err[512] = "";
    const Status s =
        run(cfg, &g_cancel, verbose ? progress : nullptr, nullptr, &r, err, sizeof err);
    if (s == Status::NotBuilt || s == Status::NoDevice)
        line(error_json(s, err)); // nothing ran: the bare error object
    else
        line(result_json(cfg, r, s, err));
    return s;
}

int suite(const RunnerArgs &a)
{
    int worst = kExitOk;
    for (const ps::PatternInfo &p : ps::kPatterns) {
        for (uint32_t e : ps::kElementBytesValues) {
            for (const ps::L1LoadInfo &l1 : ps::kL1Loads) {
                const bool bypass = l1.load == ps::L1Load::Bypass;
                if (a.l1_given && bypass != a.cfg.bypass_l1)
                    continue;
                RunConfig c = a.cfg;
                c.pattern = p.pattern;
                c.offset = p.default_offset;
                c.element_bytes = e;
                c.bypass_l1 = bypass;
                const Status s = run_one(c, false);
                if (s == Status::NotBuilt || s == Status::NoDevice || s == Status::Cancelled)
                    return exit_code_of(s);
                if (s != Status::Ok)
                    worst = exit_code_of(s);
            }
        }
    }
    return worst;
}

} // namespace

int main(int argc, char **argv)
{
    RunnerArgs a;
    std::string err;
    if (!parse_args(argc, argv, &a, &err)) {
        line(error_json(Status::BadArgument, err));
        fprintf(stderr, "pcie-scope-gpu: %s\n(run with --help for usage)\n", err.c_str());
        return kExitUsage;
    }
    if (a.help) {
        fputs(runner_usage(), stdout);
        return kExitOk;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (a.list)
        return list();
    if (a.suite)
        return suite(a);
    return exit_code_of(run_one(a.cfg, true));
}
