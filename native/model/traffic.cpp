#include "traffic.h"

namespace ps {

TrafficGenerator::TrafficGenerator(const TrafficConfig &cfg) : cfg_(cfg)
{
    shape_ = pattern_shape(cfg_.spec);
    if (cfg_.l1_model == L1Model::Lru) {
        scheduler_.emplace_back(cfg_.gpu);
        scheduler_[0].launch(&program_, cfg_.l1 == L1Mode::Off);
        return;
    }
    if (cfg_.l1 == L1Mode::Ideal)
        l1_.reset(cfg_.base, (uint64_t)cfg_.spec.offset + cfg_.spec.bytes);
    const uint32_t r = cfg_.resident_warps ? cfg_.resident_warps : 1;
    slots_.assign(r, Slot{0, 0, false});
    for (auto &s : slots_)
        fill_slot(s);
}

void TrafficGenerator::fill_slot(Slot &s)
{
    if (next_warp_ < shape_.warps && shape_.iterations > 0) {
        s.warp = next_warp_++;
        s.iter = 0;
        s.live = true;
        ++slots_live_;
    } else {
        s.live = false;
    }
}

namespace {

// One warp's 32 loads of pattern P, with the pattern chosen once per warp. Every pattern's index
// is affine in the lane, ascending, while inside the data (index(thread0 + l) = index(thread0) +
// l * step, step > 0: test_traffic checks warp_load against pattern_access for each pattern,
// width and iteration), so the warp takes two pattern_index calls instead of 32, and when
// pattern_bounds passes its first and last lanes it passes every lane between them. A warp cut
// by the end of the data or of its chunk takes each lane's own index.
template <Pattern P>
uint32_t warp_lanes(const PatternSpec &spec, const PatternShape &shape, uint64_t base,
                    uint64_t warp, uint32_t iter, WarpLoad *load)
{
    const uint64_t thread0 = warp * kWarpSize;
    const uint64_t first = pattern_index<P>(spec, shape, thread0, iter);
    const uint64_t step = pattern_index<P>(spec, shape, thread0 + 1, iter) - first;
    uint64_t off0, off_last;
    // a chunk shorter than the warp's span ends inside the warp: its last lane is then past the
    // chunk (kPastChunk), which first + 31 * step would not show
    const bool affine = P != Pattern::MergedChunked
        || (step == shape.lane_bytes
            && pattern_index<P>(spec, shape, thread0 + kWarpSize - 1, iter)
                == first + (kWarpSize - 1) * step);
    if (affine && pattern_bounds(spec, shape, iter, first, &off0)
        && pattern_bounds(spec, shape, iter, first + (kWarpSize - 1) * step, &off_last)) {
        for (uint32_t lane = 0; lane < kWarpSize; ++lane)
            load->addr[lane] = base + off0 + lane * step;
        load->lanes_in_run = step == shape.lane_bytes;
        return 0xFFFFFFFFu;
    }
    load->lanes_in_run = false;
    uint32_t active = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        uint64_t off;
        const uint64_t index = pattern_index<P>(spec, shape, thread0 + lane, iter);
        if (pattern_bounds(spec, shape, iter, index, &off)) {
            load->addr[lane] = base + off;
            active |= 1u << lane;
        }
    }
    return active;
}

} // namespace

uint32_t TrafficGenerator::warp_load(uint64_t warp, uint32_t iter, WarpLoad *load) const
{
    load->lane_bytes = shape_.lane_bytes;
    load->active = 0;
    const PatternSpec &spec = cfg_.spec;
    switch (spec.pattern) { // no default: a new pattern must be added here (-Werror=switch)
    case Pattern::Strided:
        load->active = warp_lanes<Pattern::Strided>(spec, shape_, cfg_.base, warp, iter, load);
        break;
    case Pattern::MergedAligned:
        load->active =
            warp_lanes<Pattern::MergedAligned>(spec, shape_, cfg_.base, warp, iter, load);
        break;
    case Pattern::MergedMisaligned:
        load->active =
            warp_lanes<Pattern::MergedMisaligned>(spec, shape_, cfg_.base, warp, iter, load);
        break;
    case Pattern::MergedChunked:
        load->active =
            warp_lanes<Pattern::MergedChunked>(spec, shape_, cfg_.base, warp, iter, load);
        break;
    }
    return load->active;
}

bool TrafficGenerator::issue_scheduled()
{
    for (;;) {
        count_ = scheduler_[0].issue(buf_);
        pos_ = 0;
        if (count_ < 0) {
            count_ = 0;
            return false;
        }
        ++counts_.instructions;
        if (count_ > 0)
            return true;
    }
}

bool TrafficGenerator::issue_instruction()
{
    if (!scheduler_.empty())
        return issue_scheduled();
    WarpLoad load;
    while (slots_live_ > 0) {
        Slot &s = slots_[cursor_];
        cursor_ = (cursor_ + 1) % slots_.size();
        if (!s.live)
            continue;
        const uint32_t iter = s.iter++;
        const uint64_t warp = s.warp;
        if (s.iter >= shape_.iterations) {
            --slots_live_;
            fill_slot(s); // the slot issues the next warp on its next turn
        }
        if (!warp_load(warp, iter, &load))
            continue;
        ++counts_.instructions;
        uint32_t ahead = 0;
        if (cfg_.l1 == L1Mode::Ideal) // R5: the warp's next loads, which follow this one directly
            for (; ahead < cfg_.gpu.merge_window && ahead < kMaxMergeWindow
                 && iter + 1 + ahead < shape_.iterations;
                 ++ahead)
                if (!warp_load(warp, iter + 1 + ahead, &ahead_[ahead]))
                    break;
        count_ =
            coalesce_ahead(load, ahead_, ahead, cfg_.l1 == L1Mode::Ideal ? &l1_ : nullptr, buf_);
        pos_ = 0;
        if (count_ > 0)
            return true;
    }
    count_ = pos_ = 0;
    return false;
}

bool TrafficGenerator::next(Mrd *out)
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
