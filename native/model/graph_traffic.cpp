// pcie-scope graph traffic (graph_traffic.h).
#include "graph_traffic.h"

#include <algorithm>

#include "graph_reference.h"

namespace ps {

namespace {
constexpr uint64_t kLabelsBase = 1ull
    << 52; // GPU memory: apart from any host address (l1_lru.h: < 2^55)
}

GraphTrafficGenerator::GraphTrafficGenerator(const GraphTrafficConfig &cfg) : cfg_(cfg)
{
    const Csr &g = *cfg_.graph;
    levels_ = bfs_levels(g, cfg_.source);
    depth_ = bfs_summary(g, levels_).depth;
    // Frontier warps per level, each once, in warp order: a thread per vertex puts 32 vertices
    // in a warp; a warp per vertex has warp = vertex. Warps with no edge to read issue nothing.
    frontier_warps_.assign(depth_ + 1, {});
    const uint32_t per_warp = kWarpSize / graph_lanes_per_vertex(cfg_.kernel);
    for (uint64_t v = 0; v < g.vertices; ++v) {
        if (levels_[v] == kBfsUnreached || g.degree(v) == 0)
            continue;
        std::vector<uint64_t> &w = frontier_warps_[levels_[v]];
        const uint64_t warp = v / per_warp;
        if (w.empty() || w.back() != warp)
            w.push_back(warp);
    }
    if (cfg_.l1_model == L1Model::Lru)
        scheduler_.emplace_back(cfg_.gpu);
    else if (cfg_.l1 == L1Mode::Ideal)
        l1_.reset(cfg_.base, ps_div_ceil(g.edges() * g.id_bytes, kLineBytes) * kLineBytes);
}

// After loading neighbour id w a thread reads labels[w] (4 B, GPU memory) to test it: one gather
// per load instruction, through the same L1 (native/cuda/graph_kernel_body.h).
uint32_t GraphTrafficGenerator::LevelProgram::warp_gpu_load(const WarpLoad &ids,
                                                            WarpLoad *load) const
{
    const uint32_t active = ids.active;
    const Csr &g = *g_.cfg_.graph;
    load->lane_bytes = 4;
    load->active = active;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
        if ((active >> lane) & 1u) {
            const uint64_t index = (ids.addr[lane] - g_.cfg_.base) / g.id_bytes;
            load->addr[lane] = kLabelsBase + 4 * g.neighbours[index];
        }
    return active;
}

uint64_t GraphTrafficGenerator::LevelProgram::grid_warps() const
{
    return ps_div_ceil(graph_threads(g_.cfg_.kernel, g_.cfg_.graph->vertices), kWarpSize);
}

uint64_t GraphTrafficGenerator::warp_steps(uint64_t warp) const
{
    const Csr &g = *cfg_.graph;
    const uint32_t lanes = graph_lanes_per_vertex(cfg_.kernel);
    uint64_t steps = 0;
    for (uint32_t t = 0; t < kWarpSize; t += lanes) {
        const uint64_t v = graph_vertex_of_thread(cfg_.kernel, warp * kWarpSize + t);
        if (v >= g.vertices || levels_[v] != level_)
            continue;
        const uint64_t s = graph_steps(cfg_.kernel, g.offsets[v], g.offsets[v + 1], g.id_bytes);
        steps = s > steps ? s : steps;
    }
    return steps;
}

uint32_t GraphTrafficGenerator::warp_lanes(uint64_t warp, uint64_t step, WarpLoad *load) const
{
    const Csr &g = *cfg_.graph;
    load->lane_bytes = g.id_bytes;
    uint32_t active = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        const uint64_t thread = warp * kWarpSize + lane;
        const uint64_t v = graph_vertex_of_thread(cfg_.kernel, thread);
        if (v >= g.vertices || levels_[v] != level_)
            continue;
        uint64_t index;
        if (graph_edge_index(cfg_.kernel, g.offsets[v], g.offsets[v + 1], g.id_bytes,
                             graph_lane_of_thread(cfg_.kernel, thread), step, &index)) {
            load->addr[lane] = cfg_.base + graph_edge_offset(index, g.id_bytes);
            active |= 1u << lane;
        }
    }
    load->active = active;
    return active;
}

bool GraphTrafficGenerator::fill(Slot *s)
{
    const std::vector<uint64_t> &warps = frontier_warps_[level_];
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
    if (started_) {
        if (level_ >= depth_ || levels_.empty())
            return false;
        ++level_;
    }
    started_ = true;
    ++counts_.launches;
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
    load.lane_bytes = cfg_.graph->id_bytes;
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
