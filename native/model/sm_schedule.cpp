// pcie-scope scheduled model (sm_schedule.h).
#include "sm_schedule.h"

#include <string.h>

namespace ps {

const char *l1_model_name(L1Model m)
{
    switch (m) {
    case L1Model::Ideal:
        return "ideal";
    case L1Model::Lru:
        return "lru";
    }
    return "?";
}

bool l1_model_from_name(const char *name, L1Model *out)
{
    if (!name)
        return false;
    if (strcmp(name, "ideal") == 0)
        *out = L1Model::Ideal;
    else if (strcmp(name, "lru") == 0)
        *out = L1Model::Lru;
    else
        return false;
    return true;
}

const char *warp_order_name(WarpOrder o)
{
    switch (o) {
    case WarpOrder::RoundRobin:
        return "round-robin";
    case WarpOrder::Greedy:
        return "greedy";
    }
    return "?";
}

bool warp_order_from_name(const char *name, WarpOrder *out)
{
    if (name && strcmp(name, "round-robin") == 0)
        *out = WarpOrder::RoundRobin;
    else if (name && strcmp(name, "greedy") == 0)
        *out = WarpOrder::Greedy;
    else
        return false;
    return true;
}

GpuModel gpu_model_of(const GpuInfo &gpu)
{
    GpuModel m;
    m.sms = gpu.sm_count;
    m.l1_bytes = gpu.l1_bytes;
    m.max_blocks_per_sm = gpu.max_blocks_per_sm;
    m.max_warps_per_sm = gpu.max_warps_per_sm;
    m.l1_random = gpu.l1_random;
    m.merge_window = gpu.merge_window;
    m.block_threads = kGpuBlockThreads;
    return m;
}

SmScheduler::SmScheduler(const GpuModel &gpu) : gpu_(gpu)
{
    if (gpu_.sms == 0)
        gpu_.sms = 1;
    warps_per_block_ =
        (uint32_t)ps_div_ceil(gpu_.block_threads ? gpu_.block_threads : 1, kWarpSize);
    const uint32_t by_warps = gpu_.max_warps_per_sm / warps_per_block_;
    blocks_per_sm_ = gpu_.max_blocks_per_sm < by_warps ? gpu_.max_blocks_per_sm : by_warps;
    if (blocks_per_sm_ == 0)
        blocks_per_sm_ = 1;
    sms_.resize(gpu_.sms);
    for (Sm &s : sms_)
        s.block_live.assign(blocks_per_sm_, 0);
    l1_.assign(gpu_.sms, LruL1(gpu_.l1_bytes, gpu_.l1_random));
    for (uint32_t i = 0; i < gpu_.sms; ++i)
        l1_[i].seed(i + 1); // each SM its own victim sequence, the same in every run
}

void SmScheduler::launch(const WarpProgram *program, bool bypass)
{
    program_ = program;
    bypass_ = bypass;
    blocks_ = ps_div_ceil(program->grid_warps(), warps_per_block_);
    next_block_ = 0;
    active_.clear();
    turn_ = 0;
    for (uint32_t i = 0; i < gpu_.sms; ++i) {
        Sm &s = sms_[i];
        s.warps.clear();
        s.cursor = 0;
        for (auto &b : s.block_live)
            b = 0;
        l1_[i].clear();
    }
    // the first wave: round-robin over the SMs, one block each per round
    for (uint32_t round = 0; round < blocks_per_sm_; ++round)
        for (uint32_t i = 0; i < gpu_.sms; ++i)
            start_block(i);
    for (uint32_t i = 0; i < gpu_.sms; ++i)
        if (!sms_[i].warps.empty())
            active_.push_back(i);
}

bool SmScheduler::start_block(uint32_t sm)
{
    Sm &s = sms_[sm];
    uint32_t slot = 0;
    while (slot < blocks_per_sm_ && s.block_live[slot] != 0)
        ++slot;
    if (slot == blocks_per_sm_)
        return false;
    const uint64_t warps = program_->grid_warps();
    while (next_block_ < blocks_) {
        const uint64_t first = next_block_++ * warps_per_block_;
        uint32_t live = 0;
        for (uint64_t w = first; w < first + warps_per_block_ && w < warps; ++w) {
            const uint64_t steps = program_->warp_steps(w);
            if (steps == 0)
                continue; // a warp with nothing to load retires at once
            s.warps.push_back(Warp{w, 0, steps, slot});
            ++live;
        }
        if (live) {
            s.block_live[slot] = live;
            return true;
        }
        // a block with nothing to load ends at once: the SM takes the next one
    }
    return false;
}

void SmScheduler::retire(Sm &sm, size_t i)
{
    const uint32_t block = sm.warps[i].block;
    sm.warps.erase(sm.warps.begin() + (std::ptrdiff_t)i);
    if (sm.cursor > i)
        --sm.cursor;
    if (--sm.block_live[block] == 0)
        start_block((uint32_t)(&sm - sms_.data())); // the freed slot takes the next block
    if (sm.cursor >= sm.warps.size())
        sm.cursor = 0;
}

int SmScheduler::issue(Mrd *out)
{
    while (!active_.empty()) {
        if (turn_ >= active_.size())
            turn_ = 0;
        const uint32_t id = active_[turn_];
        Sm &s = sms_[id];
        if (s.warps.empty()) { // finished, and no block left to take
            active_.erase(active_.begin() + (std::ptrdiff_t)turn_);
            continue;
        }
        ++turn_; // next cycle, next SM
        const size_t i = s.cursor;
        Warp &w = s.warps[i];
        const uint64_t step = w.step++;
        const bool last = w.step >= w.steps;
        const uint64_t warp = w.warp;
        const uint32_t active = program_->warp_load(warp, step, &load_);
        int n = 0;
        if (active) {
            // R5: the warp's next loads, when they follow this one directly (cached loads only)
            uint32_t ahead = 0;
            if (!bypass_ && gpu_.merge_window && program_->loads_back_to_back())
                for (; ahead < gpu_.merge_window && ahead < kMaxMergeWindow
                     && step + 1 + ahead < w.steps;
                     ++ahead)
                    if (!program_->warp_load(warp, step + 1 + ahead, &ahead_[ahead]))
                        break;
            n = coalesce_ahead(load_, ahead_, ahead, bypass_ ? nullptr : &l1_[id], out);
            last_sm_ = id;
            if (program_->warp_gpu_load(warp, step, load_, &gpu_load_))
                coalesce_through(gpu_load_, &l1_[id], gpu_fetches_);
        }
        if (last) {
            retire(s, i); // the cursor now points at the next warp in age order
        } else if (gpu_.order == WarpOrder::RoundRobin || n > 0) {
            s.cursor = (i + 1) % s.warps.size();
        }
        if (active)
            return n;
    }
    return -1;
}

} // namespace ps
