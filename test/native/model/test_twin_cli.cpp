// The twin's command line, stdin commands and JSON events (docs/contracts.md §3), without RTL.
#include <string>
#include <vector>

#include "cli.h"
#include "harness.h"

using namespace ps;

namespace {
// "bySize":{…} with `first` in the first size class and 0 in every other (generated/workloads.h)
std::string by_size_json(uint64_t first)
{
    std::string s = "\"bySize\":{";
    for (int k = 0; k < kSizeClassCount; ++k)
        s += std::string(k ? "," : "") + "\"" + kSizeClassKeys[k]
            + "\":" + std::to_string(k ? 0 : first);
    return s + "}";
}

bool opts(std::initializer_list<const char *> args, Options *o, std::string *err)
{
    std::vector<char *> v{const_cast<char *>("pcie-scope-twin")};
    for (auto a : args)
        v.push_back(const_cast<char *>(a));
    return parse_options((int)v.size(), v.data(), o, err);
}
} // namespace

// the twin starts from spec/twin.json's defaults, also where its own types hold them
TEST(cli_defaults_are_the_spec_ones)
{
    Options o;
    std::string err;
    CHECK(opts({}, &o, &err));
    CHECK_EQ(o.latency_cycles, kTwinDefaultLatencyCycles);
    CHECK_EQ(o.cpl_split, kTwinDefaultCplSplit);
    CHECK_EQ(o.tags, kTwinDefaultTags);
    CHECK_EQ(o.segments, kTwinDefaultSegments);
    CHECK_EQ(o.switch_mode, std::string(kTwinDefaultMode) == "switch");
    CHECK_EQ(std::string(kTwinDefaultLatencyDist), std::string("fixed"));
    CHECK_EQ(o.jitter_ns, 0u);
    LinkConfig link;
    CHECK(parse_link(kTwinDefaultLink, &link));
    CHECK_EQ(link.gen, o.link.gen);
    CHECK_EQ(link.lanes, o.link.lanes);
    CHECK_EQ(link.ideal, o.link.ideal);
    // every row of the table is one option of the usage text
    for (const cli::OptionDef &d : kTwinOptions)
        CHECK(std::string(usage()).find(std::string("  ") + d.flag) != std::string::npos);
}

TEST(cli_defaults_and_batch)
{
    Options o;
    std::string err;
    CHECK(opts({}, &o, &err));
    CHECK(!o.batch);
    CHECK_EQ(o.latency_cycles, 250u);
    CHECK_EQ(o.tags, 256u);
    CHECK(o.switch_mode); // the switch between the GPU and the host model is the default
    CHECK_EQ(o.segments, 1u);
    Options ep;
    CHECK(opts({"--mode", "endpoint", "--segments", "4"}, &ep, &err));
    CHECK(!ep.switch_mode);
    CHECK_EQ(ep.segments, 4u);
    Options sw;
    CHECK(opts({"--mode", "switch", "--latency-dist", "uniform:1000:3000", "--cpl-split", "64"},
               &sw, &err));
    CHECK(sw.switch_mode);
    CHECK_EQ(sw.jitter_ns, 2000u);
    Options b;
    CHECK(opts({"--run", "merged-misaligned", "--bytes", "4096"}, &b, &err));
    CHECK(b.batch && b.pattern == Pattern::MergedMisaligned);
    CHECK_EQ(b.offset, 32u); // default for merged-misaligned
    Options c;
    CHECK(opts({"--run", "merged-misaligned", "--bytes", "4096", "--offset", "0", "--tags", "1",
                "--latency-cycles", "65535"},
               &c, &err));
    CHECK_EQ(c.offset, 0u);
    CHECK_EQ(c.tags, 1u);
    CHECK_EQ(c.latency_cycles, 65535u);
    Options d;
    CHECK(opts({"--help"}, &d, &err) && d.help);
    Options e;
    CHECK(opts({"--run", "strided", "--bytes", "4096", "--model-only", "--link", "gen4x8"}, &e,
               &err));
    CHECK(e.model_only && e.batch);
    CHECK_EQ(e.link.gen, 4u);
    CHECK_EQ(e.link.lanes, 8u);
    CHECK(!d.model_only);
    CHECK_EQ(d.link.gen, 3u); // default gen3x16
    CHECK_EQ(d.link.lanes, 16u);
    Options f;
    CHECK(opts({"--latency-ns", "1600", "--cpl-split", "64"}, &f, &err));
    CHECK_EQ(f.latency_ns, 1600u);
    CHECK_EQ(f.cpl_split, 64u);
}

TEST(cli_rejects)
{
    std::string err;
    for (auto args : std::vector<std::vector<const char *>>{
             {"--tags", "0"},
             {"--tags", "257"},
             {"--latency-cycles", "65536"},
             {"--latency-ns", "0"},
             {"--latency-cycles", "100", "--latency-ns", "400"},
             {"--cpl-split", "32"},
             {"--segments", "3"}, // 1, 2 or 4, in either design
             {"--mode", "switch", "--segments", "8"},
             {"--mode", "bar"},
             {"--run", "zigzag", "--bytes", "64"},
             {"--run", "strided"},
             {"--run", "strided", "--bytes", "6"},
             {"--run", "strided", "--bytes", "0"},
             {"--run", "strided", "--bytes", "64", "--offset", "2"},
             {"--bytes", "64"},
             {"--frobnicate"},
             {"--tags"},
             {"--tags", "-1"},
             {"--tags", "1x"},
             {"--model-only"},
             {"--link"},
             {"--link", "gen6x16"},
             {"--link", "pcie"}}) {
        Options o;
        err.clear();
        std::vector<char *> v{const_cast<char *>("twin")};
        for (auto a : args)
            v.push_back(const_cast<char *>(a));
        CHECK(!parse_options((int)v.size(), v.data(), &o, &err));
        CHECK(!err.empty());
    }
}

TEST(stdin_commands)
{
    RunCommand r{};
    std::string err;
    CHECK(parse_command("run 1 merged-aligned 65536 0", &r, &err) == CommandKind::Run);
    CHECK_EQ(r.id, 1ull);
    CHECK(r.pattern == Pattern::MergedAligned);
    CHECK_EQ(r.bytes, 65536ull);
    CHECK_EQ(r.offset, 0u);
    CHECK(parse_command("  run 18446744073709551615\tstrided 4 96\r", &r, &err)
          == CommandKind::Run);
    CHECK_EQ(r.id, 18446744073709551615ull);
    CHECK_EQ(r.offset, 96u);
    CHECK(parse_command("quit", &r, &err) == CommandKind::Quit);
    CHECK(parse_command("", &r, &err) == CommandKind::Empty);
    CHECK(parse_command("   ", &r, &err) == CommandKind::Empty);
    for (const char *bad :
         {"bogus", "run", "run 1 strided 64", "run 1 strided 64 0 9", "run x strided 64 0",
          "run 1 zig 64 0", "run 1 strided 63 0", "run 1 strided 0 0", "run 1 strided 64 2",
          "run -1 strided 64 0", "run 18446744073709551616 strided 64 0", "quit now",
          "run 1 strided 68719476740 0"}) {
        err.clear();
        CHECK(parse_command(bad, &r, &err) == CommandKind::Error);
        CHECK(!err.empty());
    }
}

TEST(stdin_run_with_width_and_l1)
{
    RunCommand r{};
    std::string err;
    CHECK(parse_command("run 2 strided 4096 0", &r, &err) == CommandKind::Run);
    CHECK_EQ(r.element_bytes, 4u); // the old form keeps its defaults
    CHECK(r.l1 == L1Load::Ideal);
    CHECK(parse_command("run 3 merged-misaligned 8192 32 16 bypass", &r, &err) == CommandKind::Run);
    CHECK_EQ(r.element_bytes, 16u);
    CHECK(r.l1 == L1Load::Bypass);
    CHECK(parse_command("run 4 strided 4096 0 8", &r, &err) == CommandKind::Run);
    CHECK_EQ(r.element_bytes, 8u);
    CHECK(r.l1 == L1Load::Ideal);
    for (const char *bad : {"run 1 strided 4096 0 12", "run 1 strided 4096 0 8 cached",
                            "run 1 strided 4100 0 8", "run 1 strided 4096 4 8",
                            "run 1 strided 4096 8 16", "run 1 strided 4096 0 16 bypass x"}) {
        err.clear();
        CHECK(parse_command(bad, &r, &err) == CommandKind::Error);
        CHECK(!err.empty());
    }
    CHECK(parse_command("run 1 strided 4096 8 16", &r, &err) == CommandKind::Error);
    CHECK(err.find("aligned") != std::string::npos);
}

TEST(options_width_and_l1)
{
    Options o;
    std::string err;
    const char *ok[] = {"twin", "--run", "strided", "--bytes", "4096", "--element-bytes",
                        "16",   "--l1",  "bypass"};
    CHECK(parse_options(9, const_cast<char **>(ok), &o, &err));
    CHECK_EQ(o.element_bytes, 16u);
    CHECK(o.l1 == L1Load::Bypass);
    Options o2;
    const char *bad[] = {"twin", "--run", "strided", "--bytes", "4096", "--element-bytes", "2"};
    CHECK(!parse_options(7, const_cast<char **>(bad), &o2, &err));
    Options o3;
    const char *nobatch[] = {"twin", "--l1", "bypass"};
    CHECK(!parse_options(3, const_cast<char **>(nobatch), &o3, &err));
}

TEST(json_events)
{
    CHECK_EQ(ready_event("/dev/pts/3", 250000000, LinkConfig{}, 256),
             std::string("{\"event\":\"ready\",\"pty\":\"/dev/pts/3\",\"clockHz\":250000000,"
                         "\"link\":{\"name\":\"gen3x16\",\"gen\":3,\"lanes\":16,"
                         "\"tlpBytesPerSecond\":14212507562},\"tags\":256}"));
    LinkConfig ideal;
    ideal.ideal = true;
    CHECK_EQ(link_json(ideal), std::string("{\"name\":\"ideal\",\"tlpBytesPerSecond\":null}"));
    CHECK_EQ(error_event("bad \"x\""),
             std::string("{\"event\":\"error\",\"message\":\"bad \\\"x\\\"\"}"));
    RunCommand r{7, Pattern::Strided, 4096, 0};
    WorkloadResult w;
    w.mrds = 128;
    w.by_size[0] = 128;
    w.mrd_bytes = 4096;
    w.completions = 128;
    w.sim_cycles = 400;
    CHECK_EQ(done_event(r, w, 0.5),
             std::string("{\"event\":\"done\",\"id\":7,\"pattern\":\"strided\",\"bytes\":4096,"
                         "\"offset\":0,\"elementBytes\":4,\"l1\":\"ideal\",\"mrd\":{\"count\":128,")
                 + by_size_json(128)
                 + ",\"bytes\":4096},\"completions\":128,"
                   "\"payloadErrors\":0,\"simCycles\":400,\"wallSeconds\":0.500000}");
}

TEST(cli_graph_runs)
{
    std::string err;
    Options g;
    CHECK(opts({"--run", "bfs-aligned", "--graph", "kron:16"}, &g, &err));
    CHECK(g.batch && g.graph_run && g.kernel == GraphKernel::BfsAligned);
    CHECK_EQ(g.graph, std::string("kron:16"));
    CHECK_EQ(g.id_bytes, 8u);
    CHECK(!g.source_given);
    Options h;
    CHECK(opts({"--run", "bfs-naive", "--graph", "file:/x.mtx", "--id-bytes", "4", "--source", "7",
                "--l1", "bypass", "--model-only"},
               &h, &err));
    CHECK(h.kernel == GraphKernel::BfsNaive && h.id_bytes == 4 && h.source == 7 && h.model_only);
    CHECK(h.l1 == L1Load::Bypass);
    struct Bad {
        std::vector<const char *> args;
        const char *why;
    };
    const Bad bad[] = {
        {{"--run", "bfs-merged"}, "needs --graph"},
        {{"--run", "bfs-merged", "--graph", "kron:4", "--bytes", "4096"}, "do not apply"},
        {{"--run", "bfs-merged", "--graph", "kron:4", "--id-bytes", "16"}, "4 or 8"},
        {{"--graph", "kron:4"}, "need --run with a graph kernel"},
        {{"--run", "strided", "--bytes", "4096", "--source", "1"},
         "need --run with a graph kernel"},
        {{"--run", "bfs"}, "bfs-naive, bfs-merged, bfs-aligned"},
    };
    for (const Bad &b : bad) {
        Options o;
        std::vector<char *> v{const_cast<char *>("pcie-scope-twin")};
        for (auto a : b.args)
            v.push_back(const_cast<char *>(a));
        err.clear();
        CHECK(!parse_options((int)v.size(), v.data(), &o, &err));
        if (err.find(b.why) == std::string::npos)
            fprintf(stderr, "  error '%s' lacks '%s'\n", err.c_str(), b.why);
        CHECK(err.find(b.why) != std::string::npos);
    }
}

TEST(cli_graph_done_event)
{
    Options o;
    std::string err;
    CHECK(opts({"--run", "bfs-merged", "--graph", "kron:4"}, &o, &err));
    const Csr g = build_csr(3, {{0, 1}, {1, 2}}, 8);
    WorkloadResult r;
    r.mrds = 3;
    r.by_size[0] = 3;
    r.mrd_bytes = 96;
    r.completions = 3;
    const std::string e = graph_done_event(9, o.kernel, o.graph, g, 1, 2, r, 0.5);
    CHECK_EQ(e,
             std::string("{\"event\":\"done\",\"id\":9,\"pattern\":\"bfs-merged\",\"graph\":"
                         "\"kron:4\",\"vertices\":3,\"edges\":4,\"idBytes\":8,\"source\":1,"
                         "\"launches\":2,\"mrd\":{\"count\":3,")
                 + by_size_json(3)
                 + ",\"bytes\":96},\"completions\":3,"
                   "\"payloadErrors\":0,\"simCycles\":0,\"wallSeconds\":0.500000}");
}

TEST(cli_graph_run_command)
{
    RunCommand r;
    std::string err;
    CHECK(parse_command("run 5 bfs-naive kron:12", &r, &err) == CommandKind::Run);
    CHECK(r.graph_run && r.id == 5 && r.kernel == GraphKernel::BfsNaive);
    CHECK_EQ(r.graph, std::string("kron:12"));
    CHECK_EQ(r.id_bytes, 8u);
    CHECK(!r.source_given);
    CHECK(parse_command("run 6 bfs-aligned file:/g.mtx 4 - bypass", &r, &err) == CommandKind::Run);
    CHECK(r.id_bytes == 4 && !r.source_given && r.l1 == L1Load::Bypass);
    CHECK(parse_command("run 7 bfs-merged urand:9 8 17", &r, &err) == CommandKind::Run);
    CHECK(r.source_given && r.source == 17);
    // a micro run after a graph run is a micro run again
    CHECK(parse_command("run 8 strided 4096 0", &r, &err) == CommandKind::Run);
    CHECK(!r.graph_run);
    CHECK(parse_command("run 9 bfs-merged", &r, &err) == CommandKind::Error);
    CHECK(err.find("run ID KERNEL GRAPH") != std::string::npos);
    CHECK(parse_command("run 9 bfs-merged kron:4 2", &r, &err) == CommandKind::Error);
    CHECK(err.find("4 or 8") != std::string::npos);
    CHECK(parse_command("run 9 bfs-merged kron:4 8 x", &r, &err) == CommandKind::Error);
    CHECK(parse_command("run 9 bfs-merged kron:4 8 - cg", &r, &err) == CommandKind::Error);
}

// --gpu-host: the spec GPU's link, tags (at most the probe's 256) and round trip around its idle
// value; options given beside it win; an unknown GPU is refused
TEST(cli_gpu_host_preset)
{
    Options o;
    std::string err;
    CHECK(opts({"--gpu-host", "h100"}, &o, &err));
    const GpuInfo &g = kGpus[kGpuDefault];
    CHECK_EQ(o.link.gen, 5u);
    CHECK_EQ(o.link.lanes, 16u);
    CHECK_EQ(o.tags, g.host_tags < 256 ? g.host_tags : 256u);
    CHECK_EQ(o.latency_ns + o.jitter_ns / 2, (uint32_t)g.idle_round_trip_ns);
    CHECK_EQ(o.jitter_ns, (uint32_t)g.round_trip_spread_ns);
    Options p;
    CHECK(opts({"--gpu-host", "h100", "--tags", "32", "--link", "gen4x8", "--latency-ns", "700"},
               &p, &err));
    CHECK_EQ(p.tags, 32u);
    CHECK_EQ(p.link.gen, 4u);
    CHECK_EQ(p.latency_ns, 700u);
    CHECK_EQ(p.jitter_ns, 0u);
    Options q;
    CHECK(!opts({"--gpu-host", "a100"}, &q, &err));
    CHECK(err.find("--gpu-host must be one of") != std::string::npos);
}

// --chunk-bytes goes with merged-chunked, and the run line's 8th field carries it
TEST(cli_chunk_bytes)
{
    Options o;
    std::string err;
    CHECK(opts({"--run", "merged-chunked", "--bytes", "65536", "--chunk-bytes", "256"}, &o, &err));
    CHECK_EQ(o.chunk_bytes, 256ull);
    Options p;
    CHECK(!opts({"--run", "strided", "--bytes", "65536", "--chunk-bytes", "256"}, &p, &err));
    CHECK(err.find("--chunk-bytes goes with") != std::string::npos);
    RunCommand r;
    CHECK(parse_command("run 3 merged-chunked 65536 32 8 ideal 1024", &r, &err)
          == CommandKind::Run);
    CHECK_EQ(r.chunk_bytes, 1024ull);
    CHECK(parse_command("run 3 merged-chunked 65536 32 8 ideal 1020", &r, &err)
          == CommandKind::Error); // not a multiple of 8
}
