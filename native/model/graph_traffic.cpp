// pcie-scope graph traffic (graph_traffic.h).
#include "graph_traffic.h"

#include <algorithm>

namespace ps {

namespace {
// GPU memory, apart from any host address (l1_lru.h: line addresses < 2^55): the vertex state the
// loop reads per edge (BFS labels, SSSP/CC next values, PageRank contributions).
constexpr uint64_t kStateBase = 1ull << 52;
constexpr uint32_t kGraphStateBytes = 4; // u32 levels / distances / labels, f32 contributions
} // namespace

GraphTrafficGenerator::GraphTrafficGenerator(const GraphTrafficConfig &cfg) : cfg_(cfg)
{
    const Csr &g = *cfg_.graph;
    plan_ = graph_launch_plan(cfg_.kernel, g, cfg_.source);
    in_frontier_.assign(g.vertices, 0);
    if (cfg_.l1_model == L1Model::Lru)
        scheduler_.emplace_back(cfg_.gpu);
    else if (cfg_.l1 == L1Mode::Ideal)
        l1_.reset(cfg_.base, graph_host_bytes(cfg_.kernel, g.edges(), g.id_bytes));
}

bool GraphTrafficGenerator::expands(uint64_t v) const
{
    return plan_.launches[level_].all || in_frontier_[v] == level_ + 1;
}

// The per-edge read of vertex state in GPU memory that follows a step's host loads, through the
// same L1 (native/cuda/graph_kernel_body.h): BFS tests labels[w] after loading neighbour id w;
// SSSP and CC compare their offer with next[w] (SSSP once the weight is loaded too, so after the
// step's second instruction); PageRank adds contrib[w]. Each is 4 B per vertex; the atomicMin /
// label store that may follow goes to L2 and is not modelled. One gather per step.
uint32_t GraphTrafficGenerator::LevelProgram::warp_gpu_load(uint64_t /*warp*/, uint64_t step,
                                                            const WarpLoad &host,
                                                            WarpLoad *load) const
{
    const GraphKernel k = g_.cfg_.kernel;
    const uint32_t loads = graph_step_loads(k);
    const uint32_t which = (uint32_t)(step % loads);
    if (which != loads - 1)
        return 0; // SSSP's id load: the gather waits for the weight
    const Csr &g = *g_.cfg_.graph;
    const uint64_t first = graph_load_offset(which, 0, g.edges(), g.id_bytes);
    const uint32_t bytes = graph_load_bytes(which, g.id_bytes);
    const uint32_t active = host.active;
    load->lane_bytes = kGraphStateBytes;
    load->lanes_in_run = false;
    load->active = active;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
        if ((active >> lane) & 1u) {
            const uint64_t index = (host.addr[lane] - g_.cfg_.base - first) / bytes;
            load->addr[lane] = kStateBase + kGraphStateBytes * g.neighbours[index];
        }
    return active;
}

uint64_t GraphTrafficGenerator::LevelProgram::grid_warps() const
{
    return ps_div_ceil(graph_threads(g_.cfg_.kernel, g_.cfg_.graph->vertices), kWarpSize);
}

// A loop step is graph_step_loads() instructions: model step = loop step x loads + load.
uint64_t GraphTrafficGenerator::warp_steps(uint64_t warp) const
{
    const Csr &g = *cfg_.graph;
    const uint32_t lanes = graph_lanes_per_vertex(cfg_.kernel);
    uint64_t steps = 0;
    for (uint32_t t = 0; t < kWarpSize; t += lanes) {
        const uint64_t v = graph_vertex_of_thread(cfg_.kernel, warp * kWarpSize + t);
        if (v >= g.vertices || !expands(v))
            continue;
        const uint64_t s = graph_steps(cfg_.kernel, g.offsets[v], g.offsets[v + 1], g.id_bytes);
        steps = s > steps ? s : steps;
    }
    return steps * graph_step_loads(cfg_.kernel);
}

uint32_t GraphTrafficGenerator::warp_lanes(uint64_t warp, uint64_t step, WarpLoad *load) const
{
    const Csr &g = *cfg_.graph;
    const uint32_t loads = graph_step_loads(cfg_.kernel);
    const uint32_t which = (uint32_t)(step % loads);
    step /= loads;
    uint32_t active = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        const uint64_t thread = warp * kWarpSize + lane;
        const uint64_t v = graph_vertex_of_thread(cfg_.kernel, thread);
        if (v >= g.vertices || !expands(v))
            continue;
        uint64_t index;
        if (graph_edge_index(cfg_.kernel, g.offsets[v], g.offsets[v + 1], g.id_bytes,
                             graph_lane_of_thread(cfg_.kernel, thread), step, &index)) {
            load->addr[lane] = cfg_.base + graph_load_offset(which, index, g.edges(), g.id_bytes);
            active |= 1u << lane;
        }
    }
    load->active = active;
    load->lane_bytes = graph_load_bytes(which, g.id_bytes);
    load->lanes_in_run = false;
    return active;
}

bool GraphTrafficGenerator::fill(Slot *s)
{
    const std::vector<uint64_t> &warps = frontier_warps_;
    while (next_in_level_ < warps.size()) {
        s->warp = warps[next_in_level_++];
        s->step = 0;
        s->steps = warp_steps(s->warp);
        if (s->steps > 0)
            return true;
    }
    return false;
}

bool GraphTrafficGenerator::start_level()
{
    if (started_)
        ++level_;
    if (level_ >= plan_.launches.size())
        return false;
    started_ = true;
    ++counts_.launches;
    // The launch's frontier warps, each once, in warp order: a thread per vertex puts 32
    // vertices in a warp; a warp per vertex has warp = vertex. Warps with no edge to read issue
    // nothing.
    const Csr &g = *cfg_.graph;
    const GraphLaunch &launch = plan_.launches[level_];
    const uint32_t per_warp = kWarpSize / graph_lanes_per_vertex(cfg_.kernel);
    frontier_warps_.clear();
    auto add = [&](uint64_t v) {
        if (g.degree(v) == 0)
            return;
        const uint64_t warp = v / per_warp;
        if (frontier_warps_.empty() || frontier_warps_.back() != warp)
            frontier_warps_.push_back(warp);
    };
    if (launch.all) {
        for (uint64_t v = 0; v < g.vertices; ++v)
            add(v);
    } else {
        for (uint64_t v : launch.vertices) {
            in_frontier_[v] = level_ + 1;
            add(v);
        }
    }
    next_in_level_ = 0;
    if (!scheduler_.empty()) { // the whole grid, every SM's L1 cold
        scheduler_[0].launch(&program_, cfg_.l1 == L1Mode::Off);
        level_live_ = true;
        return true;
    }
    live_.clear();
    cursor_ = 0;
    if (cfg_.l1 == L1Mode::Ideal)
        l1_.clear(); // a new launch starts with a cold L1
    const uint32_t r = cfg_.resident_warps ? cfg_.resident_warps : 1;
    Slot s;
    while (live_.size() < r && fill(&s))
        live_.push_back(s);
    return true;
}

void GraphTrafficGenerator::count_loads(const WarpLoad &load)
{
    ++counts_.instructions;
    const uint32_t lanes = (uint32_t)__builtin_popcount(load.active);
    counts_.loads += lanes;
    counts_.useful_bytes += (uint64_t)lanes * load.lane_bytes;
}

bool GraphTrafficGenerator::issue_scheduled()
{
    for (;;) {
        while (!level_live_)
            if (!start_level())
                return false;
        count_ = scheduler_[0].issue(buf_);
        pos_ = 0;
        if (count_ < 0) {
            count_ = 0;
            level_live_ = false;
            continue;
        }
        count_loads(scheduler_[0].last_load());
        if (count_ > 0)
            return true;
    }
}

bool GraphTrafficGenerator::issue_instruction()
{
    if (!scheduler_.empty())
        return issue_scheduled();
    WarpLoad load;
    for (;;) {
        while (live_.empty())
            if (!start_level())
                return false;
        if (cursor_ >= live_.size()) {
            // end of a round: drop the finished warps that no frontier warp replaced, keeping the
            // others' turn order
            std::vector<Slot>::iterator end = std::remove_if(
                live_.begin(), live_.end(), [](const Slot &x) { return x.step >= x.steps; });
            live_.erase(end, live_.end());
            cursor_ = 0;
            continue;
        }
        Slot &s = live_[cursor_++];
        if (s.step >= s.steps)
            continue; // finished earlier in this round
        const uint64_t step = s.step++;
        const uint64_t warp = s.warp;
        if (s.step >= s.steps)
            fill(&s); // the slot takes the next frontier warp for its next turn, if there is one
        const uint32_t active = warp_lanes(warp, step, &load);
        if (!active)
            continue;
        count_loads(load);
        count_ = coalesce(load, cfg_.l1, cfg_.l1 == L1Mode::Ideal ? &l1_ : nullptr, buf_);
        pos_ = 0;
        if (count_ > 0)
            return true;
    }
}

bool GraphTrafficGenerator::next(Mrd *out)
{
    if (pos_ == count_ && !issue_instruction()) {
        done_ = true;
        return false;
    }
    *out = buf_[pos_++];
    ++counts_.mrds;
    counts_.mrd_bytes += out->len;
    ++counts_.by_size[size_class_of(out->len)];
    return true;
}

} // namespace ps
