// pcie-scope-twin: the digital twin of a GPU + FPGA + soft CPU (docs/contracts.md §3).
//
//   traffic model (native/model) -> link (native/model/link.h) -> Verilated hdl/rtl
//   (pcie_scope_bar_top, 512-bit TLP datapath) -> link -> completion check
//                                          | AXI4-Lite (real transactions, simulated cycles)
//                                     firmware (firmware/src + hal/sim)  ->  PTY  ->  host
//
// Main loop: while a workload runs, tick in batches of 1024 cycles and step the firmware after
// each batch (stdin is polled every 16 batches); when idle, poll() stdin and the PTY master
// with a 2 ms timeout and step the firmware, so an idle twin sleeps.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <memory>
#include <string>

#include "cli.h"
#include "control.h"
#include "graph_reference.h"
#include "graph_traffic.h"
#include "hal_sim.h"
#include "pcie_scope_regs.h"
#include "ps_app.h"
#include "pty.h"
#include "switch_session.h"
#include "traffic.h"
#include "twin.h"
#include "uart_fault.h"

namespace {

constexpr uint64_t kBufferBase = 0x100000000ull; // 4 GiB: reads use 64-bit (4DW) headers
constexpr uint32_t kCyclesPerStep = 1024;
constexpr int kIdlePollMs = 2;

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

void emit(const std::string &line)
{
    fputs(line.c_str(), stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

ps::TrafficConfig workload_config(const ps::RunCommand &r)
{
    ps::TrafficConfig c;
    c.spec = ps::make_pattern_spec(r.pattern, r.bytes, r.offset, r.element_bytes,
                                   ps::kDefaultGridWarps, r.chunk_bytes);
    c.base = kBufferBase;
    c.l1 = ps::l1_mode_of(r.l1);
    return c;
}

uint32_t bus_read(void *ctx, uint32_t offset)
{
    return static_cast<ps::Twin *>(ctx)->axi_read(offset);
}
void bus_write(void *ctx, uint32_t offset, uint32_t value)
{
    static_cast<ps::Twin *>(ctx)->axi_write(offset, value);
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Loads a graph run's graph and source; false with a one-line reason.
bool load_graph_run(const std::string &graph, uint32_t id_bytes, bool source_given,
                    uint64_t source_in, ps::Csr *g, uint64_t *source, std::string *why)
{
    try {
        *g = ps::load_graph(ps::parse_graph_spec(graph, id_bytes), ps::default_graph_cache_dir());
    } catch (const ps::GraphError &e) {
        *why = std::string(e.code()) + ": " + e.what();
        return false;
    }
    *source = source_given ? source_in : ps::bfs_default_source(*g);
    if (*source >= g->vertices) {
        *why = "PS_GRAPH_BAD_SOURCE: source " + std::to_string(*source)
            + " is not a vertex (the graph has " + std::to_string(g->vertices) + ")";
        return false;
    }
    return true;
}

struct Session {
    ps::Twin &twin;
    ps_app_t &app;
    std::deque<ps::RunCommand> queue;
    bool active = false;
    ps::RunCommand current{};
    Clock::time_point started;
    std::string inbuf;
    bool quit = false;
    ps::SwitchSession *sw = nullptr; // switch mode: its stdin commands

    // Reads what stdin has (poll said readable); false on EOF.
    bool read_stdin()
    {
        char buf[4096];
        const ssize_t n = read(0, buf, sizeof buf);
        if (n == 0)
            return false;
        if (n < 0)
            return errno == EAGAIN || errno == EINTR;
        inbuf.append(buf, (size_t)n);
        size_t nl;
        while (!quit && (nl = inbuf.find('\n')) != std::string::npos) {
            const std::string line = inbuf.substr(0, nl);
            inbuf.erase(0, nl + 1);
            handle_line(line);
        }
        if (inbuf.size() > 65536) { // a line without end: drop it
            emit(ps::error_event("input line too long"));
            inbuf.clear();
        }
        return true;
    }

    void handle_line(const std::string &line)
    {
        ps::RunCommand r;
        std::string err;
        const ps::ControlCommand c = ps::parse_control(line);
        if (c.kind != ps::ControlCommand::None) {
            control(c);
            return;
        }
        if (sw && sw->handle(line, &err)) {
            emit(err);
            return;
        }
        switch (ps::parse_command(line, &r, &err)) {
        case ps::CommandKind::Run:
            queue.push_back(r);
            break;
        case ps::CommandKind::Quit:
            quit = true;
            break;
        case ps::CommandKind::Empty:
            break;
        case ps::CommandKind::Error:
            emit(ps::error_event(err));
            break;
        }
    }

    std::unique_ptr<ps::Csr> graph{}; // the running graph kernel's graph (its generator reads it)
    uint64_t source = 0;
    bool cancelling = false; // `cancel` reached the run in flight: its done line says so

    void control(const ps::ControlCommand &c)
    {
        switch (c.kind) {
        case ps::ControlCommand::Inject:
            // the sim HAL puts it between the firmware's frames; the firmware never knows
            emit(ps_hal_sim_inject(c.fault.c_str(), c.count, c.seed)
                     ? ps::injected_event(c)
                     : ps::control_error_event(
                         "inject",
                         "inject " + c.fault + ": COUNT " + std::to_string(c.count)
                             + " is out of range (garbage: at most "
                             + std::to_string(PS_UART_FAULT_GARBAGE_MAX)
                             + " bytes waiting; otherwise 1.."
                             + std::to_string(PS_UART_FAULT_COUNT_MAX) + ")"));
            return;
        case ps::ControlCommand::Cancel:
            if (active && current.id == c.id) {
                twin.cancel_workload(); // the done line follows once its reads have completed
                cancelling = true;
                return;
            }
            for (auto it = queue.begin(); it != queue.end(); ++it) {
                if (it->id == c.id) {
                    queue.erase(it);
                    emit(ps::control_error_event(
                        "cancel",
                        "run " + std::to_string(c.id) + " was cancelled before it started", &c.id));
                    return;
                }
            }
            emit(ps::control_error_event(
                "cancel", "no run " + std::to_string(c.id) + " is queued or running", &c.id));
            return;
        case ps::ControlCommand::Error:
            emit(ps::control_error_event(c.command, c.message));
            return;
        case ps::ControlCommand::None:
            return;
        }
    }

    const ps::GraphTrafficGenerator *graph_model = nullptr; // owned by the twin until finish

    void start_next()
    {
        current = queue.front();
        queue.pop_front();
        if (current.graph_run) {
            std::unique_ptr<ps::Csr> g(new ps::Csr());
            std::string why;
            if (!load_graph_run(current.graph, current.id_bytes, current.source_given,
                                current.source, g.get(), &source, &why)) {
                emit(ps::error_event("run " + std::to_string(current.id) + ": " + why));
                return; // nothing started: the next queued workload goes next
            }
            graph = std::move(g);
            ps::GraphTrafficConfig cfg;
            cfg.kernel = current.kernel;
            cfg.graph = graph.get();
            cfg.source = source;
            cfg.base = kBufferBase;
            cfg.l1 = ps::l1_mode_of(current.l1);
            std::unique_ptr<ps::GraphTrafficGenerator> gen(new ps::GraphTrafficGenerator(cfg));
            graph_model = gen.get();
            twin.start_workload(std::move(gen));
            started = Clock::now();
            active = true;
            return;
        }
        twin.start_workload(workload_config(current));
        started = Clock::now();
        active = true;
    }

    void finish()
    {
        // the model's launch count first: finish_workload() drops the generator
        const uint32_t launches = current.graph_run ? graph_model->counts().launches : 0;
        const ps::WorkloadResult res = twin.finish_workload();
        std::string line;
        if (current.graph_run) {
            line = ps::graph_done_event(current.id, current.kernel, current.graph, *graph, source,
                                        launches, res, seconds_since(started));
            graph.reset();
            graph_model = nullptr;
        } else {
            line = ps::done_event(current, res, seconds_since(started));
        }
        emit(cancelling ? ps::cancelled(line) : line);
        cancelling = false;
        active = false;
    }
};

// The traffic model alone, as fast as it generates: no RTL, no link, no completions.
int run_model_only(const ps::Options &o)
{
    ps::RunCommand r{0, o.pattern, o.bytes, o.offset, o.element_bytes, o.l1, o.chunk_bytes};
    const Clock::time_point t0 = Clock::now();
    ps::TrafficGenerator gen(workload_config(r));
    ps::Mrd m;
    while (!g_stop && gen.next(&m)) {
    }
    ps::WorkloadResult res;
    const ps::TrafficCounts &c = gen.counts();
    res.mrds = c.mrds;
    res.mrd_bytes = c.mrd_bytes;
    for (int i = 0; i < ps::kSizeClassCount; ++i)
        res.by_size[i] = c.by_size[i];
    emit(ps::done_event(r, res, seconds_since(t0)));
    return 0;
}

int run_batch(ps::Twin &twin, const ps::Options &o)
{
    ps::RunCommand r{0, o.pattern, o.bytes, o.offset, o.element_bytes, o.l1, o.chunk_bytes};
    twin.start_workload(workload_config(r));
    const Clock::time_point t0 = Clock::now();
    while (!g_stop && !twin.workload_done())
        twin.run_cycles(1u << 16);
    if (g_stop)
        return 0;
    const ps::WorkloadResult res = twin.finish_workload();
    emit(ps::done_event(r, res, seconds_since(t0)));
    return 0;
}

// A graph kernel (--run bfs-*|sssp-*|cc-*|pagerank-* --graph G): its host-memory reads through the
// twin, or with
// --model-only the traffic model alone.
int run_graph_batch(ps::Twin *twin, const ps::Options &o, const ps::Csr &g, uint64_t source)
{
    ps::GraphTrafficConfig cfg;
    cfg.kernel = o.kernel;
    cfg.graph = &g;
    cfg.source = source;
    cfg.base = kBufferBase;
    cfg.l1 = ps::l1_mode_of(o.l1);
    std::unique_ptr<ps::GraphTrafficGenerator> gen(new ps::GraphTrafficGenerator(cfg));
    ps::GraphTrafficGenerator *model = gen.get();
    const Clock::time_point t0 = Clock::now();
    ps::WorkloadResult res;
    uint32_t launches = 0;
    if (!twin) {
        ps::Mrd m;
        while (!g_stop && model->next(&m)) {
        }
        const ps::GraphTrafficCounts &c = model->counts();
        launches = c.launches;
        res.mrds = c.mrds;
        res.mrd_bytes = c.mrd_bytes;
        for (int i = 0; i < ps::kSizeClassCount; ++i)
            res.by_size[i] = c.by_size[i];
    } else {
        twin->start_workload(std::move(gen));
        while (!g_stop && !twin->workload_done())
            twin->run_cycles(1u << 16);
        if (g_stop)
            return 0;
        launches = model->counts().launches;
        res = twin->finish_workload(); // the generator is gone after this: read counts before
    }
    emit(ps::graph_done_event(0, o.kernel, o.graph, g, source, launches, res, seconds_since(t0)));
    return 0;
}

// Loads --graph; false (after printing why) when it cannot.
bool load_graph_option(const ps::Options &o, ps::Csr *g, uint64_t *source)
{
    std::string why;
    if (load_graph_run(o.graph, o.id_bytes, o.source_given, o.source, g, source, &why))
        return true;
    emit(ps::error_event(why));
    fprintf(stderr, "pcie-scope-twin: %s\n", why.c_str());
    return false;
}

int run_interactive(ps::Twin &twin, uint32_t clock_hz, const ps::LinkConfig &link, uint32_t tags,
                    ps::SwitchSession *sw)
{
    ps::Pty pty;
    std::string err;
    if (!ps::open_pty(&pty, &err)) {
        fprintf(stderr, "pcie-scope-twin: cannot open a pseudo-terminal: %s\n", err.c_str());
        return 1;
    }
    static ps_app_t app; // complete type, allocated statically as the firmware expects
    ps_app_init(&app);
    ps_sim_bus bus;
    bus.ctx = &twin;
    bus.reg_read = bus_read;
    bus.reg_write = bus_write;
    bus.uart_fd = pty.master;
    ps_hal_sim_bind(&bus);
    emit(ps::ready_event(pty.path, clock_hz, link, tags,
                         sw ? sw->ready_fields() : ",\"mode\":\"endpoint\""));

    Session s{twin, app, {}, false, {}, {}, {}, false, sw};
    uint32_t batches = 0;
    bool stdin_open = true;
    while (!g_stop && !s.quit && stdin_open) {
        if (!s.active && !s.queue.empty())
            s.start_next();
        if (s.active) {
            twin.run_cycles(kCyclesPerStep);
            ps_app_step(&app);
            if (twin.workload_done()) {
                s.finish();
                continue;
            }
            if ((++batches & 15u) == 0) {
                struct pollfd in = {0, POLLIN, 0};
                if (poll(&in, 1, 0) > 0 && (in.revents & (POLLIN | POLLHUP | POLLERR)))
                    stdin_open = s.read_stdin();
            }
            continue;
        }
        struct pollfd fds[2] = {{0, POLLIN, 0}, {pty.master, POLLIN, 0}};
        const int n = poll(fds, 2, kIdlePollMs);
        if (n > 0) {
            if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
                stdin_open = s.read_stdin();
            if ((fds[1].revents & (POLLHUP | POLLERR)) && !(fds[1].revents & POLLIN))
                usleep(kIdlePollMs * 1000); // no host: never spin on a hung-up master
        }
        ps_app_step(&app);
    }
    ps_hal_sim_bind(nullptr);
    ps::close_pty(&pty);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    ps::Options opts;
    std::string err;
    if (!ps::parse_options(argc, argv, &opts, &err)) {
        fprintf(stderr, "pcie-scope-twin: %s\n\n%s", err.c_str(), ps::usage());
        return 2;
    }
    if (opts.help) {
        fputs(ps::usage(), stdout);
        return 0;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; // no SA_RESTART: poll() returns EINTR
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    signal(SIGPIPE, SIG_IGN);

    ps::Csr graph;
    uint64_t source = 0;
    if (opts.graph_run && !load_graph_option(opts, &graph, &source))
        return 2;
    if (opts.graph_run && opts.model_only)
        return run_graph_batch(nullptr, opts, graph, source);
    if (opts.batch && opts.model_only)
        return run_model_only(opts);

    if (opts.switch_mode ? !ps::switch_segments_built(opts.segments)
                         : !ps::bar_segments_built(opts.segments)) {
        fprintf(stderr,
                "pcie-scope-twin: --segments %u: this build has no such %s top (CMake "
                "PS_TWIN_SEGMENTS)\n",
                opts.segments, opts.switch_mode ? "switch" : "BAR");
        return 2;
    }
    ps::SwitchDut *switch_dut = nullptr;
    ps::Twin twin(opts.tags, [&](VerilatedContext *ctx) -> std::unique_ptr<ps::Dut> {
        if (!opts.switch_mode)
            return ps::make_bar_dut(ctx, opts.segments);
        auto d = ps::make_switch_dut(ctx, opts.segments);
        switch_dut = d.get();
        return d;
    });
    twin.reset();
    const uint32_t id = twin.axi_read(PS_REG_ID);
    if (id != PS_ID_MAGIC)
        fprintf(stderr, "pcie-scope-twin: warning: ID register reads 0x%08x, expected 0x%08x\n", id,
                PS_ID_MAGIC);
    uint32_t clock_hz = twin.axi_read(PS_REG_CLK_HZ);
    twin.set_link(opts.link, clock_hz);
    if (opts.latency_ns) {
        // nanoseconds at the probe clock, rounded to the nearest cycle
        const uint64_t cycles = ((uint64_t)opts.latency_ns * clock_hz + 500000000u) / 1000000000u;
        if (cycles > 65535) {
            fprintf(
                stderr,
                "pcie-scope-twin: --latency-ns %u is %llu cycles at %u Hz; BAR_LATENCY holds at "
                "most 65535\n",
                opts.latency_ns, (unsigned long long)cycles, clock_hz);
            return 2;
        }
        opts.latency_cycles = (uint32_t)cycles;
    }
    twin.axi_write(PS_REG_BAR_LATENCY, opts.latency_cycles);
    const uint32_t lat = twin.axi_read(PS_REG_BAR_LATENCY);
    if (lat != opts.latency_cycles)
        fprintf(stderr, "pcie-scope-twin: warning: BAR_LATENCY reads %u after writing %u\n", lat,
                opts.latency_cycles);
    // --latency-dist uniform:LO:HI: the spread above LO, drawn per read by the responder
    const uint64_t jitter = ((uint64_t)opts.jitter_ns * clock_hz + 500000000u) / 1000000000u;
    if (jitter > 65535) {
        fprintf(stderr,
                "pcie-scope-twin: --latency-dist spread of %u ns is %llu cycles at %u Hz; "
                "BAR_JITTER holds at most 65535\n",
                opts.jitter_ns, (unsigned long long)jitter, clock_hz);
        return 2;
    }
    twin.axi_write(PS_REG_BAR_JITTER, (uint32_t)jitter);
    if (twin.axi_read(PS_REG_BAR_JITTER) != jitter)
        fprintf(stderr, "pcie-scope-twin: warning: BAR_JITTER does not read back %llu\n",
                (unsigned long long)jitter);
    twin.axi_write(PS_REG_CPL_SPLIT, opts.cpl_split);
    if (twin.axi_read(PS_REG_CPL_SPLIT) != opts.cpl_split)
        fprintf(stderr, "pcie-scope-twin: warning: CPL_SPLIT does not read back %u\n",
                opts.cpl_split);
    if (twin.axi_timeouts())
        fprintf(stderr, "pcie-scope-twin: warning: %llu AXI4-Lite transactions timed out\n",
                (unsigned long long)twin.axi_timeouts());

    std::unique_ptr<ps::SwitchSession> sw;
    if (switch_dut) {
        sw = std::make_unique<ps::SwitchSession>(twin, *switch_dut);
        if (!sw->start(opts.link, clock_hz, &err)) {
            fprintf(stderr, "pcie-scope-twin: %s\n", err.c_str());
            return 1;
        }
    }
    if (opts.graph_run)
        return run_graph_batch(&twin, opts, graph, source);
    return opts.batch ? run_batch(twin, opts)
                      : run_interactive(twin, clock_hz, opts.link, opts.tags, sw.get());
}
